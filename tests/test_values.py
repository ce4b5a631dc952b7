"""Issue 27 point 4: each finding carries the values of the business terms it names, read from the document
(values.py), in the library's findings, the wire form, and the text, JSON and HTML reports."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import get_args, get_type_hints

import pytest
from lxml import etree

from einvoice_validate import Finding, Validator
from einvoice_validate.cli import main
from einvoice_validate.findings import Message, Severity, TermValue
from einvoice_validate.rulesets import Registry
from einvoice_validate.values import (
    MAX_PER_FINDING,
    MAX_PER_TERM,
    MAX_VALUE_CHARS,
    MappingPaths,
    ModelValues,
    TermValues,
    ValueIndex,
    _steps,
    model_values,
    pick_values,
)
from einvoice_validate.viewer import Viewer, ViewerFailed
from einvoice_validate.wire import FINDING_EXTRA_MEMBERS, invalid_invoice
from tests.conftest import KOSIT_PLAN_DAY

REPO = Path(__file__).resolve().parents[1]
BROKEN = REPO / "examples" / "xrechnung-ubl-broken.xml"  # BR-CO-15 on /Invoice (examples/README.md)
VALID = REPO / "examples" / "xrechnung-ubl-invoice.xml"
UBL = {
    "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
}


def _amounts(path: Path) -> dict[str, str]:
    """BR-CO-15's three amounts as the document writes them (read here with plain XPath, not via the viewer)."""
    root = etree.parse(str(path)).getroot()

    def one(xpath: str) -> str:
        [text] = root.xpath(xpath + "/text()", namespaces=UBL)
        return str(text).strip()

    return {
        "BT-112": one("cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount"),
        "BT-109": one("cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount"),
        "BT-110": one("cac:TaxTotal/cbc:TaxAmount[@currencyID=../../cbc:DocumentCurrencyCode]"),
    }


def _cli(args: list[str], home: Path) -> str:
    out = io.StringIO()
    main(
        ["--home", str(home), "validate", "--rules-date", KOSIT_PLAN_DAY.isoformat(), *args],
        stdout=out,
        stderr=io.StringIO(),
    )
    return out.getvalue()


@pytest.fixture(scope="module")
def expected() -> str:
    amounts = _amounts(BROKEN)
    return ", ".join(f"{term} = {amounts[term]}" for term in ("BT-112", "BT-109", "BT-110"))


def test_br_co_15_carries_its_amounts(validator: Validator) -> None:
    report = validator.validate(BROKEN, rules_date=KOSIT_PLAN_DAY)
    [finding] = [f for f in report.findings if f.rule_id == "BR-CO-15"]
    amounts = _amounts(BROKEN)
    assert [(v.term, v.value) for v in finding.values] == [(t, amounts[t]) for t in ("BT-112", "BT-109", "BT-110")]
    assert finding.values[0].location == "/Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount"
    assert "values" in report.timings_ms


def test_wire_member_present_and_typed(validator: Validator) -> None:
    hints = get_type_hints(Finding)
    assert get_args(hints["values"])[0] is TermValue
    assert "values" in FINDING_EXTRA_MEMBERS
    report = validator.validate(BROKEN, rules_date=KOSIT_PLAN_DAY)
    problem = invalid_invoice(report)
    assert problem is not None
    wire = {f["ruleId"]: f for f in problem["findings"]}
    assert wire["BR-CO-15"]["values"][0] == {
        "term": "BT-112",
        "value": _amounts(BROKEN)["BT-112"],
        "location": "/Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount",
    }
    # a finding without terms still has the member, an empty list (frozen: it cannot be changed afterwards)
    assert all(isinstance(f["values"], list) for f in problem["findings"])
    finding = report.findings[0]
    with pytest.raises(ValueError):
        finding.values = ()  # type: ignore[misc]


def test_text_shows_the_amounts(registry: Registry, expected: str) -> None:
    out = _cli([str(BROKEN)], registry.home)
    [line] = [line for line in out.splitlines() if " BR-CO-15 " in line]
    assert f"(Values found: {expected})" in line


def test_json_rows_carry_the_amounts(registry: Registry) -> None:
    row = json.loads(_cli(["--format", "jsonl", str(BROKEN)], registry.home))
    [finding] = [f for f in row["findings"] if f["ruleId"] == "BR-CO-15"]
    amounts = _amounts(BROKEN)
    assert {v["term"]: v["value"] for v in finding["values"]} == amounts


def test_html_shows_the_amounts(registry: Registry) -> None:
    page = _cli(["--format", "html", str(BROKEN)], registry.home)
    card = page[page.index('<code class="rule">BR-CO-15</code>') :]
    card = card[: card.index("</div>")]
    amounts = _amounts(BROKEN)
    assert "Values found:" in card
    for term, value in amounts.items():
        assert f"{term} = {value}</code>" in card


def test_valid_invoice_never_runs_the_stage(registry: Registry) -> None:
    fresh = Validator(rules_home=registry.home)
    report = fresh.validate(VALID, rules_date=KOSIT_PLAN_DAY)
    assert report.valid and not any(f.terms for f in report.findings)
    assert "values" not in report.timings_ms
    assert fresh._values._viewer is None  # the viewer's mapping was never even compiled


def test_a_line_finding_gets_its_own_lines_value_only(validator: Validator, shared: Path) -> None:
    # BR-DEC-23 (at most two decimals in BT-131) on invoice line 5 of this mutation, the only line changed
    path = shared / "corpus" / "mutations-dev" / "01.13a-INVOICE_ubl.m1-5.xml"
    report = validator.validate(path)
    [finding] = [f for f in report.findings if f.rule_id == "BR-DEC-23"]
    assert finding.location == "/Invoice/cac:InvoiceLine[5]"
    [value] = finding.values
    root = etree.parse(str(path)).getroot()
    [amount] = root.xpath("cac:InvoiceLine[5]/cbc:LineExtensionAmount/text()", namespaces=UBL)
    assert (value.term, value.value) == ("BT-131", str(amount).strip())


def _finding(location: str | None, *terms: str) -> Finding:
    return Finding(
        rule_id="BR-X",
        severity=Severity.ERROR,
        flag="fatal",
        stage="schematron",
        location=location,
        message=Message(en="e", de="d"),
        terms=terms,
        source="p@1",
    )


XR = "urn:ce.eu:en16931:2017:xoev-de:kosit:standard:xrechnung-1"


def _model() -> dict[str, list[tuple[tuple[str, ...], TermValue]]]:
    lines = "".join(
        f'<xr:INVOICE_LINE xr:id="BG-25"><xr:Invoiced_quantity xr:id="BT-129" '
        f'xr:src="/ubl:Invoice/cac:InvoiceLine[{n}]/cbc:InvoicedQuantity">{n}0</xr:Invoiced_quantity>'
        f"</xr:INVOICE_LINE>"
        for n in (1, 3, 4, 5)  # line 2 has no quantity
    )
    note = f'<xr:Invoice_note xr:id="BT-22" xr:src="/ubl:Invoice/cbc:Note">{"x" * 200}</xr:Invoice_note>'
    model = etree.fromstring(f'<xr:invoice xmlns:xr="{XR}">{note}{lines}</xr:invoice>')

    class _Place:
        def __init__(self, path: str) -> None:
            self.path = path.replace("/ubl:Invoice", "/Invoice")

    class _Locator:
        def place(self, location: str) -> _Place:
            return _Place(location)

    return model_values(model, _Locator())  # type: ignore[arg-type]


def test_pick_values_nearest_and_capped() -> None:
    values = _model()
    # on line 3: line 3's value only
    [v] = pick_values(values, _finding("/Invoice/cac:InvoiceLine[3]/cbc:InvoicedQuantity", "BT-129"))
    assert v.value == "30" and v.location == "/Invoice/cac:InvoiceLine[3]/cbc:InvoicedQuantity"
    # on line 2, which has none: nothing, never another line's
    assert pick_values(values, _finding("/Invoice/cac:InvoiceLine[2]", "BT-129")) == ()
    # on the document: the first ones, at most MAX_PER_TERM
    picked = pick_values(values, _finding("/Invoice", "BT-129"))
    assert [v.value for v in picked] == ["10", "30", "40", "50"][:MAX_PER_TERM]
    # a long value is cut; a term the document lacks gives nothing
    [note] = pick_values(values, _finding(None, "BT-22", "BT-1"))
    assert len(note.value) == MAX_VALUE_CHARS and note.value.endswith("…")


def _oracle(values: ModelValues, finding: Finding) -> tuple[TermValue, ...]:
    """Every value's path compared with the finding's: the picking ValueIndex does in the depth of the location."""

    def base(step: str) -> str:
        return step.split("[", 1)[0]

    def shared(steps: tuple[str, ...], here: tuple[str, ...]) -> int | None:
        n = 0
        for a, b in zip(steps, here, strict=False):
            if a != b:
                return None if base(a) == base(b) else n
            n += 1
        return n

    here = tuple(s.rsplit(":", 1)[-1].removesuffix("[1]") for s in (finding.location or "").split("/") if s)
    picked: list[TermValue] = []
    for term in finding.terms:
        scored = [(n, v) for steps, v in values.get(term, ()) if (n := shared(steps, here)) is not None]
        if scored:
            best = max(n for n, _ in scored)
            picked.extend([v for n, v in scored if best <= 1 or n == best][:MAX_PER_TERM])
    return tuple(picked[:MAX_PER_FINDING])


def test_the_index_picks_what_comparing_every_path_picks() -> None:
    rng = random.Random(41)
    names = ["Invoice", "cac:InvoiceLine", "cac:Item", "cbc:Name", "cac:TaxTotal", "cbc:ID"]

    def path() -> str:
        steps = ["Invoice"] + [
            rng.choice(names[1:]) + (f"[{rng.randint(1, 3)}]" if rng.random() < 0.6 else "")
            for _ in range(rng.randint(0, 4))
        ]
        return "/" + "/".join(steps)

    for _ in range(300):
        values: ModelValues = {}
        for term in ("BT-1", "BT-2"):
            for _ in range(rng.randint(0, 12)):
                location = path()
                value = TermValue(term=term, value=str(rng.randint(0, 99)), location=location)
                values.setdefault(term, []).append((_steps(location), value))
        index = ValueIndex(values)
        for _ in range(10):
            finding = _finding(path() if rng.random() < 0.9 else None, "BT-1", "BT-2")
            assert index.pick(finding) == _oracle(values, finding)


def _date(value: str, location: str) -> str:
    # the mapping writes a CII date (format 102, 20160101) as the viewer shows it (2016-01-01); the document's own
    # text is what values.py reports
    if "DateTimeString" in location and len(value) == 8 and value.isdigit():
        return f"{value[:4]}-{value[4:6]}-{value[6:]}"
    return value


EXAMPLES_DIR = "corpus/en16931-examples"


@pytest.mark.parametrize(
    "name",
    [
        "ubl/ubl-tc434-creditnote1.xml",
        "ubl/ubl-tc434-example1.xml",
        "ubl/ubl-tc434-example5.xml",
        "cii/CII_example1.xml",
        "cii/CII_example5.xml",
        "cii/CII_example8.xml",
    ],
)
def test_paths_read_from_the_stylesheet_agree_with_running_it(validator: Validator, shared: Path, name: str) -> None:
    """Every term values.py reads without running the mapping: the same elements and values as the mapping."""
    from einvoice_validate.parse import load
    from einvoice_validate.values import node_values

    document = load(shared / EXAMPLES_DIR / name)
    term_values = validator._values
    viewer = term_values._viewer_or_none()
    assert viewer is not None
    paths = term_values._mapping_paths(viewer, document.document_type)
    assert len(paths.known) > 120  # most of EN 16931's 160-odd terms
    known = set(paths.known)
    ours = node_values(paths.values(document.tree.getroot(), known))
    theirs = term_values._run_mapping(viewer, document, known)
    mine = {(t, v.location, _date(v.value, v.location or "")) for t, vs in ours.items() for _, v in vs}
    official = {(t, v.location, v.value) for t, vs in theirs.items() for _, v in vs}
    assert len(official) > 20 and mine == official


# --- the fallbacks: no viewer pack, an expression lxml cannot evaluate, a mapping that fails ------------------------


def _br_co_15(report: object) -> Finding:
    [finding] = [f for f in report.findings if f.rule_id == "BR-CO-15"]  # type: ignore[attr-defined]
    return finding


def test_without_the_viewer_pack_the_findings_have_no_values(registry: Registry, tmp_path: Path) -> None:
    """A rules home without xrechnung-visualization: the same findings, without values (nothing fails)."""
    home = tmp_path / "home"
    for pack in registry.installed():
        if pack.key != "xrechnung-visualization@2026-01-31":
            target = home / "packs" / pack.manifest.id / pack.manifest.version
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(pack.directory, target_is_directory=True)
    full = Validator(rules_home=registry.home).validate(BROKEN, rules_date=KOSIT_PLAN_DAY)
    bare = Validator(rules_home=home).validate(BROKEN, rules_date=KOSIT_PLAN_DAY)
    assert _br_co_15(full).values and not _br_co_15(bare).values
    assert not any(f.values for f in bare.findings)
    assert [f.model_copy(update={"values": ()}) for f in full.findings] == list(bare.findings)


def test_an_expression_lxml_cannot_evaluate_runs_the_mapping(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where reading the paths with lxml raises after all, the values come from running the mapping stylesheet:
    the same values."""
    expected = _br_co_15(Validator(rules_home=registry.home).validate(BROKEN, rules_date=KOSIT_PLAN_DAY)).values
    ran = []

    def unreadable(self: MappingPaths, root: object, needed: object) -> object:
        raise etree.XPathEvalError("an expression lxml cannot evaluate")

    real = TermValues._run_mapping

    def counted(*args: object) -> object:
        ran.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(MappingPaths, "values", unreadable)
    monkeypatch.setattr(TermValues, "_run_mapping", staticmethod(counted))
    values = _br_co_15(Validator(rules_home=registry.home).validate(BROKEN, rules_date=KOSIT_PLAN_DAY)).values
    assert ran and values == expected and len(values) == 3


def test_a_mapping_that_fails_leaves_the_findings_without_values(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mapping stylesheet failing on a document (ViewerFailed): the findings, without values; no exception."""

    def unreadable(self: MappingPaths, root: object, needed: object) -> object:
        raise ValueError("an expression lxml cannot evaluate")

    def failing(self: Viewer, document: object) -> object:
        raise ViewerFailed("FORG0001", "the mapping stopped")

    expected = Validator(rules_home=registry.home).validate(BROKEN, rules_date=KOSIT_PLAN_DAY)
    monkeypatch.setattr(MappingPaths, "values", unreadable)
    monkeypatch.setattr(Viewer, "model", failing)
    report = Validator(rules_home=registry.home).validate(BROKEN, rules_date=KOSIT_PLAN_DAY)
    assert _br_co_15(expected).values and not any(f.values for f in report.findings)
    assert [f.model_copy(update={"values": ()}) for f in expected.findings] == list(report.findings)
