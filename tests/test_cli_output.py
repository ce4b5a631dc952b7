"""The command line's habits (issue 28): -o to a file or a folder (several formats), every report saying what the
selection left out, --fail-on, --statistics, --concise, `rule ID`, and the progress bar's time remaining."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from lxml import etree

from einvoice_validate.progress import Progress, format_eta
from einvoice_validate.reports.output import report_base
from einvoice_validate.rulesets import Registry
from tests.test_cli import BROKEN, VALID, _tree
from tests.test_cli import run as run_cli
from tests.test_reports import SCHEMAS, on_kosit_plan_day, published_schema

GOOD = VALID[0]


def run(args: list[str], home: Path) -> tuple[int, str, str]:
    """The CLI on the rules date of the examples' findings (no note that today's configuration is missing)."""
    return run_cli(on_kosit_plan_day(args), home)


# --- -o ---------------------------------------------------------------------------------------------------------


def test_output_file_one_report_nothing_on_stdout(registry: Registry, tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    code, out, err = run(["validate", "--format", "json", "-o", str(target), str(GOOD), str(BROKEN)], registry.home)
    assert code == 1 and out == ""
    assert [r["valid"] for r in json.loads(target.read_text())] == [True, False]
    assert err.startswith("2 file(s): 1 valid, 1 invalid, 0 not validated; findings: 4 error(s)")
    assert err.endswith(f" -> {target}\n") and err.count("\n") == 1


def test_output_folder_one_report_per_input_and_format(registry: Registry, tmp_path: Path) -> None:
    root = _tree(tmp_path)  # in/a.xml, in/sub/b.XML (broken), in/sub/c.xml
    reports = tmp_path / "reports"
    args = ["validate", "--format", "json,junit", "--format", "text", "-o", str(reports), str(root)]
    code, out, _ = run(args, registry.home)
    assert code == 1 and out == ""
    written = sorted(p.relative_to(reports).as_posix() for p in reports.rglob("*-report*") if p.is_file())
    assert written == sorted(
        f"{base}-report{ext}" for base in ("a", "sub/b", "sub/c") for ext in (".json", ".junit.xml", ".txt")
    )
    [row] = json.loads((reports / "sub" / "b-report.json").read_text())
    assert row["file"] == str(root / "sub" / "b.XML") and row["valid"] is False
    doc = etree.parse(str(reports / "a-report.junit.xml"))
    assert etree.XMLSchema(etree.parse(str(published_schema("junit-10.xsd")))).validate(doc)
    assert (reports / "sub" / "c-report.txt").read_text().startswith(f"{root / 'sub' / 'c.xml'}: valid")


def test_report_names_as_kosit_writes_them() -> None:
    assert report_base("in/Invoice.XML") == "Invoice"
    assert report_base("x.pdf") == "x.pdf"  # only .xml is taken off: x.xml and x.pdf never collide
    assert report_base("-") == "stdin"


def test_a_report_never_replaces_an_input(registry: Registry, tmp_path: Path) -> None:
    invoice = tmp_path / "invoice.xml"
    invoice.write_bytes(BROKEN.read_bytes())
    before = invoice.read_bytes()
    code, out, err = run(["validate", "-o", str(invoice), str(invoice)], registry.home)
    assert code == 2 and out == ""
    said = f"-o {invoice} is one of the inputs; it is never overwritten (request.invalid-parameter)"
    assert err == f"einvoice-validate: {said}\n"
    lookalike = tmp_path / "invoice-report.junit.xml"  # an input named like invoice.xml's junit report
    lookalike.write_bytes(BROKEN.read_bytes())
    args = ["validate", "--format", "junit", "-o", f"{tmp_path}/", str(invoice), str(lookalike)]
    code, _, err = run(args, registry.home)
    assert code == 2 and "would replace an input" in err and err.count("\n") == 1
    assert invoice.read_bytes() == before and lookalike.read_bytes() == before


def test_several_formats_need_a_folder(registry: Registry, tmp_path: Path) -> None:
    code, out, err = run(["validate", "--format", "json,html", str(GOOD)], registry.home)
    assert code == 2 and out == "" and "need -o FOLDER" in err and err.count("\n") == 1
    (tmp_path / "file").write_text("")
    code, _, err = run(["validate", "--format", "json,html", "-o", str(tmp_path / "file"), str(GOOD)], registry.home)
    assert code == 2 and "this is a file" in err


def test_the_report_folder_inside_the_input_folder_is_not_read_as_input(registry: Registry, tmp_path: Path) -> None:
    root = _tree(tmp_path)
    reports = root / "reports"
    for _ in range(2):  # the second run sees the first run's *.junit.xml below the input folder
        code, _, err = run(["validate", "--format", "junit", "-o", f"{reports}/", str(root)], registry.home)
        assert code == 1 and err.startswith("3 file(s)")


def test_html_and_show_into_a_folder_with_the_invoice_view(registry: Registry, tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    code, _, err = run(
        ["validate", "--format", "html,json", "-o", f"{reports}/", str(GOOD), str(BROKEN)], registry.home
    )
    assert code == 1 and err.endswith(f" -> {reports}\n")
    for invoice in (GOOD, BROKEN):  # each input's page holds its invoice as `show` renders it
        page = etree.HTML((reports / f"{invoice.stem}-report.html").read_bytes())
        [frame] = page.xpath("//details[@class='invoice']/iframe")
        assert frame.get("sandbox") == "allow-downloads" and "<html" in frame.get("srcdoc")
    views = tmp_path / "views"
    code, out, err = run_cli(["show", str(BROKEN), "-o", f"{views}/"], registry.home)  # a folder: NAME-view.html
    target = views / f"{BROKEN.stem}-view.html"
    assert code == 1 and out == "" and err.rstrip().endswith(f"-> {target}")
    assert target.read_bytes().startswith(b"<!DOCTYPE html>")
    code, _, err = run_cli(["show", str(GOOD), "-o", str(views)], registry.home)  # an existing folder
    assert code == 0 and (views / f"{GOOD.stem}-view.html").is_file()
    invoice = tmp_path / "invoice.xml"
    invoice.write_bytes(GOOD.read_bytes())
    code, _, err = run_cli(["show", str(invoice), "-o", str(invoice)], registry.home)
    assert (
        code == 2
        and err
        == f"einvoice-validate: -o {invoice} is the input; it is never overwritten (request.invalid-parameter)\n"
    )
    assert invoice.read_bytes() == GOOD.read_bytes()


# --- every report says what the selection left out --------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "junit", "sarif", "html", "github", "gitlab"])
def test_every_format_says_what_was_ignored(registry: Registry, fmt: str) -> None:
    code, out, _ = run(["validate", "--format", fmt, "--ignore", "BR-DE-15,cvc-", str(BROKEN)], registry.home)
    assert code == 1  # BR-CO-15 is still listed and fails
    said = {
        "text": "ignored by the selection: 3 finding(s) in 1 file(s): BR-DE-15: BR-DE-15 ERROR x1; cvc-:",
        "github": "ignored by the selection: 3 finding(s) in 1 file(s): BR-DE-15: BR-DE-15 ERROR x1; cvc-:",
        "html": "ignored by the selection: 3 finding(s) in 1 file(s): BR-DE-15: BR-DE-15 ERROR x1; cvc-:",
        "junit": 'name="einvoice-validate.ignored" value="ignored by the selection: 3 finding(s) in 1 file(s)',
        "gitlab": "Ignored by the selection: BR-DE-15: BR-DE-15 ERROR x1; cvc-:",
        "sarif": "ignored by the selection: 3 finding(s) in 1 file(s): BR-DE-15: BR-DE-15 ERROR x1; cvc-:",
    }
    if fmt in ("json", "jsonl"):
        [row] = json.loads(out) if fmt == "json" else [json.loads(out)]
        assert [f["ruleId"] for f in row["findings"] if f["severity"] == "ERROR"] == ["BR-CO-15"]
        assert row["valid"] is False
        assert row["ignored"] == [
            {"ruleId": "cvc-datatype-valid.1.2.1", "severity": "ERROR", "count": 1, "pattern": "cvc-"},
            {"ruleId": "cvc-complex-type.2.2", "severity": "ERROR", "count": 1, "pattern": "cvc-"},
            {"ruleId": "BR-DE-15", "severity": "ERROR", "count": 1, "pattern": "BR-DE-15"},
        ]
        return
    assert said[fmt] in out, out
    assert "BR-CO-15" in out
    if fmt == "sarif":
        log = json.loads(out)
        subset = json.loads((SCHEMAS / "sarif-2.1.0-subset.json").read_text())
        jsonschema.Draft7Validator(subset, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER).validate(log)
        jsonschema.Draft4Validator(json.loads(published_schema("sarif-2.1.0-rtm.4.json").read_text())).validate(log)
        assert {r["ruleId"] for r in log["runs"][0]["results"] if r["level"] == "error"} == {"BR-CO-15"}
        assert len(log["runs"][0]["properties"]["ignored"]) == 3
    if fmt == "junit":
        doc = etree.fromstring(out.encode("utf-8"))
        assert etree.XMLSchema(etree.parse(str(published_schema("junit-10.xsd")))).validate(doc)
        assert [f.get("type") for f in doc.iter("failure")] == ["BR-CO-15"]


def test_no_selection_no_ignored_key(registry: Registry) -> None:
    _, out, _ = run(["validate", "--format", "jsonl", "--isolated", str(BROKEN)], registry.home)
    assert "ignored" not in json.loads(out)


def test_fail_on_warning_fails_on_a_warning(registry: Registry, shared: Path) -> None:
    warned = shared / "corpus" / "mutations-dev" / "01.09a-INVOICE_ubl.m1-2.xml"  # valid, a WARNING (BR-DE-28)
    code, out, _ = run(["validate", "--format", "jsonl", str(warned)], registry.home)
    row = json.loads(out)
    assert code == 0 and row["valid"] is True
    listed = {(f["ruleId"], f["severity"]) for f in row["findings"] if f["severity"] != "INFO"}
    assert listed == {("BR-DE-28", "WARNING")}
    assert run(["validate", "--fail-on", "warning", str(warned)], registry.home)[0] == 1
    assert run(["validate", "--fail-on", "warning", "--ignore", "BR-DE-28", str(warned)], registry.home)[0] == 0
    code, out, _ = run(["validate", "--fail-on", "warning", "--format", "junit", str(warned)], registry.home)
    assert code == 1 and [f.get("type") for f in etree.fromstring(out.encode()).iter("failure")] == ["BR-DE-28"]


# --- --statistics -------------------------------------------------------------------------------------------------


def test_statistics_text_and_json(registry: Registry, tmp_path: Path) -> None:
    files = [str(BROKEN), str(GOOD), str(BROKEN), str(tmp_path / "gone.xml")]
    code, out, _ = run(["validate", "--statistics", "--ignore", "cvc-", *files], registry.home)
    assert code == 2
    lines = out.splitlines()
    assert lines[0].split() == ["count", "files", "rule"]
    assert lines[1].split()[:4] == ["2", "2", "ERROR", "BR-CO-15"]  # most first; then severity, id
    assert lines[2].split()[:4] == ["2", "2", "ERROR", "BR-DE-15"] and lines[2].endswith("(BT-10) shall be provided.")
    assert ["1", "1", "NOT", "VALIDATED", "request.unreadable"] in [line.split() for line in lines]
    assert "4 file(s): 1 valid, 2 invalid, 1 not validated" in out and "ignored by the selection: 4 finding(s)" in out
    code, out, _ = run(["validate", "--statistics", "--format", "json", "--ignore", "cvc-", *files], registry.home)
    stats = json.loads(out)
    assert (stats["files"], stats["valid"], stats["invalid"], stats["notValidated"]) == (4, 1, 2, 1)
    assert next(r for r in stats["rules"] if r["ruleId"] == "BR-DE-15") == {
        "ruleId": "BR-DE-15",
        "severity": "ERROR",
        "count": 2,
        "files": 2,
        "message": {
            "en": 'The element "Buyer reference" (BT-10) shall be provided.',
            "de": 'Das Element "Buyer reference" (BT-10) muss übermittelt werden.',
        },
    }
    assert stats["errors"] == [{"code": "request.unreadable", "files": 1}]
    assert {(i["ruleId"], i["count"]) for i in stats["ignored"]} == {
        ("cvc-datatype-valid.1.2.1", 2),
        ("cvc-complex-type.2.2", 2),
    }


def test_statistics_beside_reports_in_a_folder(registry: Registry, tmp_path: Path) -> None:
    code, out, _ = run(["validate", "--statistics", "-o", str(tmp_path / "r") + "/", str(BROKEN)], registry.home)
    assert code == 1 and out.splitlines()[0].split() == ["count", "files", "rule"]
    assert (tmp_path / "r" / "xrechnung-ubl-broken-report.txt").is_file()


# --- --concise ----------------------------------------------------------------------------------------------------


def test_concise_prints_the_path_once(registry: Registry) -> None:
    code, out, _ = run(["validate", "--concise", str(BROKEN), str(GOOD)], registry.home)
    assert code == 1
    lines = out.splitlines()
    assert sum(str(BROKEN) in line for line in lines) == 1
    assert [line for line in lines if ": ERROR " in line] == [
        "  16: ERROR cvc-datatype-valid.1.2.1 '2025-02-30' is not a valid value for 'date'.",
        "  16: ERROR cvc-complex-type.2.2 Element 'cbc:IssueDate' must have no element [children], and the value must "
        "be valid.",
        "  12: ERROR BR-CO-15 Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + "
        "Invoice total VAT amount (BT-110).",
        '  12: ERROR BR-DE-15 The element "Buyer reference" (BT-10) shall be provided.',
    ]
    _, full, _ = run(["validate", str(BROKEN)], registry.home)
    assert max(map(len, lines)) < max(map(len, full.splitlines()))


# --- rule ID ------------------------------------------------------------------------------------------------------


def test_rule_explains_a_rule_from_the_packs(registry: Registry) -> None:
    code, out, _ = run(["rule", "br-de-15"], registry.home)
    assert code == 0
    assert out.startswith("BR-DE-15\n")
    assert '  en: The element "Buyer reference" (BT-10) shall be provided.\n' in out
    assert '  de: Das Element "Buyer reference" (BT-10) muss übermittelt werden. (the pack\'s text)\n' in out
    assert "business terms: BT-10\n" in out
    assert "    test: cbc:BuyerReference[boolean(normalize-space(.))]\n" in out
    assert "    context: /ubl:Invoice | /cn:CreditNote\n" in out
    installed = sorted(p.key for p in registry.installed() if p.manifest.id in ("xrechnung-ubl", "xrechnung-cii"))
    code, out, _ = run(["rule", "BR-DE-15", "--format", "json"], registry.home)
    info = json.loads(out)
    assert sorted(p["pack"] for p in info["packs"]) == installed
    assert {p["flag"] for p in info["packs"]} == {"fatal"} and {p["severity"] for p in info["packs"]} == {"ERROR"}
    assert info["terms"] == ["BT-10"] and "xrechnung-3.0-ubl-invoice" in [p["profile"] for p in info["profiles"]]
    code, out, _ = run(["rule", "BR-DE-15", "--lang", "de"], registry.home)
    assert out.splitlines()[1].startswith("  de: ") and "Geschäftsbegriffe: BT-10" in out and "    Test: " in out


def test_rule_xsd_family_and_unknown(registry: Registry) -> None:
    code, out, _ = run(["rule", "cvc-datatype-valid.1.2.1"], registry.home)
    assert code == 0 and "'…' is not a valid value for '…'." in out and "ubl-2.1@2.1" in out
    code, out, _ = run(["rule", "BR-DE-"], registry.home)
    ids = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and "BR-DE-15" in ids and all(i.startswith("BR-DE-") for i in ids)
    code, out, _ = run(["rule", "profile.en16931-only", "--format", "json"], registry.home)
    info = json.loads(out)
    assert code == 0 and info["project"] is True and info["packs"] == [] and info["terms"] == ["BT-24"]
    code, out, err = run(["rule", "BR-DE-99"], registry.home)
    assert code == 2 and out == "" and err.startswith("einvoice-validate: no rule BR-DE-99") and "BR-DE-9" in err


def test_rule_french_texts_and_a_rule_stated_per_term(registry: Registry) -> None:
    code, out, _ = run(["rule", "BR-FR-01"], registry.home)  # no id of its own: BR-FR-01_BT-1, BR-FR-01_BT-25, ...
    assert code == 0
    explained = [line for line in out.splitlines() if line.startswith("BR-")]
    assert explained[:2] == ["BR-FR-01_BT-1", "BR-FR-01_BT-1-1"] and "BR-FR-01_BT-25" in explained
    assert all(rid.startswith("BR-FR-01_") for rid in explained)
    first = out.split("\n\n")[0]  # German and English always, then the pack's own French
    assert first.splitlines()[1].startswith("  en: BR-FR-01/BT-1: The Invoice number (BT-1)")
    assert first.splitlines()[2].startswith("  de: BR-FR-01/BT-1: Die Rechnungsnummer (BT-1)")
    assert first.splitlines()[3].startswith("  fr: BR-FR-01/BT-1 : L'identifiant de facture (ram:ID)")
    assert first.splitlines()[3].endswith("(the pack's text)")
    # the three FNFE-MPE releases (1.4.0.04 in force from 2026-10-01, issue 42) state it alike: one line
    packs = "  fr-ctc-cii@1.4.0, fr-ctc-cii@1.4.0.03, fr-ctc-cii@1.4.0.04: assert, flag fatal (ERROR)"
    assert packs in first and "fr-ctc-cii" in first
    code, out, _ = run(["rule", "BR-FR-01", "--format", "json"], registry.home)
    infos = json.loads(out)
    assert code == 0 and [i["ruleId"] for i in infos] == [rid for rid in explained]
    assert infos[0]["texts"][0]["official"] == "fr" and infos[0]["texts"][0]["fr"].startswith("BR-FR-01/BT-1 : ")
    code, out, _ = run(["rule", "BR-FR-01_BT-1", "--format", "json"], registry.home)
    assert code == 0 and json.loads(out)["ruleId"] == "BR-FR-01_BT-1"  # one id: one object
    code, out, _ = run(["rule", "BR-FR-01_"], registry.home)  # a family: listed
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == explained


def test_rule_names_the_configuration_that_overrides_its_flag(registry: Registry) -> None:
    """KoSIT's customLevels come from the configuration's scenarios read at install (issue 30)."""
    code, out, _ = run(["rule", "BR-CL-23", "--format", "json"], registry.home)
    overrides = json.loads(out)["overrides"]
    assert code == 0
    assert {
        "profile": "xrechnung-3.0-ubl-invoice",
        "flag": "warning",
        "configuration": "kosit-xrechnung-config@2026-01-31",
    } in overrides
    code, out, _ = run(["rule", "BR-CL-23"], registry.home)
    assert "  xrechnung-3.0-cii: flag set to warning (WARNING) (scenario of kosit-xrechnung-config@2026-01-31)\n" in out


# --- the progress bar's time remaining ------------------------------------------------------------------------------


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_estimates_the_time_remaining_from_the_recent_pace() -> None:
    clock, err = _Clock(), io.StringIO()
    bar = Progress(100, err, clear_before_output=False, clock=clock)
    clock.now += 30.0  # compiling the packs: not part of the pace once the window has moved on
    bar.advance()
    assert "ETA --:--" in err.getvalue()
    for _ in range(39):
        clock.now += 1.0
        bar.advance()
    assert err.getvalue().rsplit("\r", 1)[-1].endswith("40/100 documents, 1/s, ETA 1:00")
    for _ in range(60):
        clock.now += 0.5
        bar.advance()
    assert err.getvalue().rsplit("\r", 1)[-1].endswith("100/100 documents, 1/s, 1:39")  # done: the time it took
    assert format_eta(3723) == "1:02:03" and format_eta(7) == "0:07"
