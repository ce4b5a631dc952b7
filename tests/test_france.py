"""France's CTC rules (FNFE-MPE "BR-FR", issue 31): parity with the reference on ``corpus/france``, the rules by date,
when the French rules apply (the profile choice), Factur-X with the French rules, the Saxon 9.9 preparation step
proven against SaxonC and the live reference on documents that trigger BR-FR-MV-14, the id-less asserts, and the
preparation steps on the French stylesheets.

Parity as in ``test_parity.py`` (``tests/reference.py``): the profile, the same packs by content and version (the
reference's derived UBL stylesheet stands for FNFE's original), per pack the same multiset of (rule id, raw flag,
location) as the reference (``corpus/france/reference.jsonl``: ``plan-france.tsv``, FNFE 1.4.0.03, run by Saxon-HE
9.9 with the derived UBL stylesheet), the same XSD (code, line) multiset; where the reference stops a pack, ours is
a superset with rule-level runtime errors. The reference gives an id-less assertion id and flag null: ours has the
id its text starts with in brackets (rulesets.prepare, step name-bracketed-asserts) and the raw flag ``error``.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from einvoice_validate import InputError, Report, Validator
from einvoice_validate.cli import main
from einvoice_validate.errors import ProfileError, RulesetError
from einvoice_validate.france import french_markers
from einvoice_validate.messages import catalogue
from einvoice_validate.parse import load
from einvoice_validate.profiles import match_profile
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.catalogue import official_rule_texts
from einvoice_validate.rulesets.prepare import (
    DEFAULT_STEPS,
    assigned_id,
    distribute_union_steps,
    prepare_stylesheet,
)
from einvoice_validate.rulesets.registry import sha256_file
from einvoice_validate.schematron.engines import get_engine
from einvoice_validate.schematron.svrl import parse_svrl
from tests.assertions import assertion_ids, count_assertions
from tests.cdar import CDAR, write_cdar_mutations
from tests.conftest import CORPUS
from tests.facturx_pdf import make_pdf, xmp
from tests.reference import Row, assert_parity, read_rows, run_reference

REPO = Path(__file__).resolve().parents[1]
FRANCE = CORPUS / "france"
V13 = FRANCE / "xp-z12-014-annexB-v1.3"
UC11_UBL_EXTENDED = V13 / "UC11_F202600022_MULTI-VENDEUR_UBL_Commentee_EXTENDED..xml"
UC12_CII_EXTENDED = V13 / "UC12_F202600025_SOUS-LIGNE_CII_Commentee_EXTENDED.xml"
UC1_UBL = V13 / "UC1_F202500003_00-INV_20250701_UBL_EN16931.xml"
UC1_CII = V13 / "UC1_F202500003_00-INV_20250701_CII_EN16931.xml"
TODAY_RULES = date(
    2026, 9, 30
)  # 1.4.0.03's last day, the set reference.jsonl ran (1.4.0.04: tests/test_france_1404.py)
BEFORE = date(2026, 8, 31)  # 1.4.0
FROM = date(2026, 9, 1)  # 1.4.0.03

# The reference's profile names (plan-france.tsv) -> ours.
OUR_PROFILE = {
    "fr-ctc-ubl": "fr-ctc-ubl-invoice",
    "fr-ctc-ubl-cn": "fr-ctc-ubl-creditnote",
    "fr-ctc-cii": "fr-ctc-cii",
    "fr-extended-ctc-ubl": "fr-extended-ctc-ubl-invoice",
    "fr-extended-ctc-ubl-cn": "fr-extended-ctc-ubl-creditnote",
    "fr-extended-ctc-cii": "fr-extended-ctc-cii",
}
# No known difference from the reference on corpus/france (a new one would be a strict xfail with its reason).


REFERENCE = read_rows(FRANCE / "reference.jsonl")


def assert_french_parity(row: Row, report: Report, registry: Registry) -> None:
    assert_parity(row, report, registry, "plan-france.tsv", profiles=OUR_PROFILE)


@pytest.fixture(scope="module")
def reports(validator: Validator) -> dict[str, Report]:
    return {name: validator.validate(FRANCE / name, rules_date=TODAY_RULES) for name in REFERENCE}


# --- parity on corpus/france -----------------------------------------------------------------------------------


@pytest.mark.corpus
def test_reference_is_complete() -> None:
    assert len(REFERENCE) == 69
    assert sum(name.startswith("mutations/") for name in REFERENCE) == 46
    assert all((FRANCE / name).is_file() for name in REFERENCE)


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_parity(name: str, reports: dict[str, Report], registry: Registry) -> None:
    report = reports[name]
    assert_french_parity(REFERENCE[name], report, registry)
    # chosen by the markers, never silently: the report says which markers and which version of the rules
    assert report.profile_reason is not None and report.profile_reason.startswith("French CTC invoice: ")
    assert {c.pack.split("@")[1] for c in report.version_choices if c.pack.startswith("fr-")} == {"1.4.0.03"}


@pytest.mark.corpus
def test_the_official_examples_are_valid(reports: dict[str, Report]) -> None:
    official = {n: r for n, r in reports.items() if not n.startswith("mutations/")}
    assert len(official) == 23
    assert [n for n, r in official.items() if not r.valid] == []


@pytest.mark.corpus
def test_every_french_rule_ran(reports: dict[str, Report]) -> None:
    """Before issue 31 no BR-FR rule ever ran: now the mutations get BR-FR findings with FNFE's French text."""
    brfr = [f for r in reports.values() for f in r.findings if f.rule_id.startswith("BR-FR-")]
    assert brfr and all(f.message.fr and f.message.en != f.message.fr and f.message.de for f in brfr)


# --- versions by date ------------------------------------------------------------------------------------------


def _line_reference_with_a_space() -> bytes:
    """UC11 with a line's preceding invoice reference "F2026 00022": 1.4.0.03 checks the line references it
    reads at cac:InvoiceDocumentReference (BR-FR-02_EXT-FR-FE-136), 1.4.0 read cac:DocumentReference."""
    data = UC11_UBL_EXTENDED.read_bytes()
    at = data.rindex(b"<cbc:ID>F202600022</cbc:ID>", 0, data.index(b"<cbc:DocumentStatusCode>DETAIL"))
    return data[:at] + b"<cbc:ID>F2026 00022</cbc:ID>" + data[at + len(b"<cbc:ID>F202600022</cbc:ID>") :]


@pytest.mark.corpus
def test_the_rules_in_force_follow_the_date(validator: Validator) -> None:
    before = validator.validate(UC1_UBL, rules_date=BEFORE)
    after = validator.validate(UC1_UBL, rules_date=FROM)
    assert before.packs == ("ubl-2.1@2.1", "en16931-ubl@1.3.16", "fr-ctc-ubl@1.4.0")
    assert after.packs == ("ubl-2.1@2.1", "en16931-ubl@1.3.16", "fr-ctc-ubl@1.4.0.03")
    (choice,) = after.version_choices
    assert choice.candidates == ("fr-ctc-ubl@1.4.0", "fr-ctc-ubl@1.4.0.03", "fr-ctc-ubl@1.4.0.04")
    assert "from 2026-09-01" in choice.reason and "replaces fr-ctc-ubl@1.4.0" in choice.reason
    assert "not yet in force: fr-ctc-ubl@1.4.0.03 from 2026-09-01" in before.version_choices[0].reason
    cii = validator.validate(UC12_CII_EXTENDED, rules_date=BEFORE)
    assert cii.packs == ("zugferd-extended-xsd@2.5.2", "fr-extended-ctc-cii@1.4.0", "fr-ctc-cii@1.4.0")


@pytest.mark.corpus
def test_a_hotfix_of_1_4_0_03_shows_on_its_date(validator: Validator) -> None:
    data = _line_reference_with_a_space()
    fired = {
        day: {f.rule_id for f in validator.validate(data, rules_date=day).findings if f.rule_id.startswith("BR-FR-0")}
        for day in (BEFORE, FROM)
    }
    assert "BR-FR-02_EXT-FR-FE-136" in fired[FROM]
    assert "BR-FR-02_EXT-FR-FE-136" not in fired[BEFORE]


@pytest.mark.corpus
def test_no_french_rules_before_1_4_0(validator: Validator) -> None:
    """No version before 1.4.0 (1.3.1) is shipped: a rules date before 2026-06-30 is refused for a French
    invoice, not silently checked with later rules; a forced EN 16931 profile still runs."""
    with pytest.raises(ProfileError) as info:
        validator.validate(UC1_UBL, rules_date=date(2026, 6, 29))
    assert (info.value.code, info.value.reason) == ("request.invalid-parameter", "rules-date")
    assert "fr-ctc-ubl@1.4.0 from 2026-06-30" in info.value.detail
    forced = validator.validate(UC1_UBL, rules_date=date(2026, 6, 29), profile="en16931-ubl-invoice")
    assert forced.profile == "en16931-ubl-invoice"


# --- when the French rules apply -------------------------------------------------------------------------------


def _edit(path: Path, *pairs: tuple[bytes, bytes]) -> bytes:
    data = path.read_bytes()
    for old, new in pairs:
        assert old in data, old
        data = data.replace(old, new)
    return data


_NO_BT23_UBL = (b"<cbc:ProfileID>S1</cbc:ProfileID>", b"")
_NO_0225_UBL = (b'schemeID="0225"', b'schemeID="0009"')


@pytest.mark.corpus
def test_the_markers_decide(validator: Validator) -> None:
    french = validator.validate(UC1_UBL, rules_date=TODAY_RULES)
    assert french.profile == "fr-ctc-ubl-invoice"
    assert "BT-23 'S1'" in str(french.profile_reason) and "scheme 0225" in str(french.profile_reason)
    only_bt23 = validator.validate(_edit(UC1_UBL, _NO_0225_UBL), rules_date=TODAY_RULES)
    assert only_bt23.profile == "fr-ctc-ubl-invoice" and "scheme 0225" not in str(only_bt23.profile_reason)
    only_address = validator.validate(_edit(UC1_UBL, _NO_BT23_UBL), rules_date=TODAY_RULES)
    assert only_address.profile == "fr-ctc-ubl-invoice" and "BT-23" not in str(only_address.profile_reason)
    neither = validator.validate(_edit(UC1_UBL, _NO_BT23_UBL, _NO_0225_UBL), rules_date=TODAY_RULES)
    assert neither.profile == "en16931-ubl-invoice"
    assert "French" not in str(neither.profile_reason)
    assert not any(f.source.startswith("fr-") for f in neither.findings)


@pytest.mark.corpus
@pytest.mark.parametrize("written", ["plain", "character reference", "UTF-16", "ISO-8859-1"])
def test_the_address_marker_however_the_document_is_written(written: str) -> None:
    # french_markers skips the address lookups when the bytes show no 0225; a value written with a character
    # reference, or in an encoding that does not write ASCII as itself, must still be found
    data = _edit(UC1_UBL, _NO_BT23_UBL)
    if written == "character reference":
        data = data.replace(b'schemeID="0225"', b'schemeID="&#48;225"')
        assert b"0225" not in data.split(b"<cac:AccountingSupplierParty")[1].split(b"</cac:AccountingCustomerParty")[0]
    elif written != "plain":
        data = etree.tostring(etree.fromstring(data).getroottree(), xml_declaration=True, encoding=written)
    markers = french_markers(load(data))
    assert any("scheme 0225" in m and m.startswith("BT-34") for m in markers), markers
    assert not any(m.startswith("BT-23") for m in markers)


@pytest.mark.corpus
def test_an_explicit_choice_always_wins(validator: Validator) -> None:
    forced = validator.validate(UC1_UBL, profile="en16931-ubl-invoice", rules_date=TODAY_RULES)
    assert forced.profile == "en16931-ubl-invoice"
    assert forced.profile_reason is not None and forced.profile_reason.startswith("chosen by the caller")
    assert "French CTC markers" in forced.profile_reason
    plain = _edit(UC1_UBL, _NO_BT23_UBL, _NO_0225_UBL)
    french = validator.validate(plain, profile="fr-ctc-ubl-invoice", rules_date=TODAY_RULES)
    assert french.profile == "fr-ctc-ubl-invoice" and "BR-FR-08_BT-23" in {f.rule_id for f in french.findings}


@pytest.mark.corpus
def test_exact_and_peppol_ids_win_and_say_so(validator: Validator) -> None:
    peppol_id = b"urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"
    peppol = validator.validate(
        _edit(UC1_UBL, (b">urn:cen.eu:en16931:2017<", b">" + peppol_id + b"<")), rules_date=TODAY_RULES
    )
    assert peppol.profile == "peppol-bis-3.0-ubl-invoice"
    assert "carries French CTC markers" in str(peppol.profile_reason)


@pytest.mark.corpus
def test_only_french_documents_get_french_rules(shared: Path) -> None:
    """Every other corpus document keeps its profile: the markers occur in no XRechnung, Peppol, CIUS-RO,
    national, EN 16931 or Factur-X document, except the two French invoices of the ZUGFeRD corpus (AFNOR's UC10
    and UC11 in Factur-X form), which are French and get the French rules."""
    profiles = Validator(rules_home=Registry().home).profiles
    french = []
    matched = 0
    # (france-cdar-1.4.0.04: the French lifecycle messages, which get their own profile, fr-cdar)
    for folder in sorted(p for p in (shared / "corpus").iterdir() if p.is_dir() and not p.name.startswith("france")):
        for path in sorted(folder.rglob("*.xml")):
            try:
                document = load(path.read_bytes())
                chosen = match_profile(document, profiles)
            except InputError as exc:  # not an invoice of ours (unit-test sets, other syntaxes): no profile at all
                assert exc.code == "document.unsupported-type", (path, exc.code, exc.detail)
                continue
            matched += 1
            if chosen.name.startswith("fr-") or french_markers(document):
                french.append((path.relative_to(shared / "corpus").as_posix(), chosen.name))
    assert french == [
        (
            "zugferd/mustang-library/cii/UC11_F202600022_EXTENDED_FX_CII_BT-X-589Only_on_GROUP_Line.xml",
            "fr-extended-ctc-cii",
        ),
        ("zugferd/mustang-validator/UC10_F202600004_EXTENDED_FX_CII_Commentee.xml", "fr-extended-ctc-cii"),
    ]
    assert matched > 1000, "the invoices of the corpus were matched"


# --- Factur-X with the French rules ----------------------------------------------------------------------------


def _pdf(xml: bytes, level: str) -> bytes:
    return make_pdf([("factur-x.xml", xml)], metadata=xmp(level))


@pytest.mark.corpus
def test_facturx_en16931_pdf_gets_the_french_rules(validator: Validator) -> None:
    report = validator.validate(_pdf(UC1_CII.read_bytes(), "EN 16931"), rules_date=TODAY_RULES)
    assert report.profile == "fr-ctc-facturx-en16931" and report.envelope == "pdf"
    assert report.packs == ("zugferd-en16931-xsd@2.5.2", "zugferd-en16931@2.5.2", "fr-ctc-cii@1.4.0.03")
    assert report.valid, [f.rule_id for f in report.errors]
    assert "taken out of a PDF" in str(report.profile_reason)
    # the same XML bare is plain EN16931 profile (CEN + BR-FR), as plan-france does
    assert validator.validate(UC1_CII, rules_date=TODAY_RULES).profile == "fr-ctc-cii"


def _without_penalty_note(data: bytes) -> bytes:
    start = data.index(b"<ram:SubjectCode>PMD</ram:SubjectCode>")
    note_start = data.rindex(b"<ram:IncludedNote>", 0, start)
    note_end = data.index(b"</ram:IncludedNote>", start) + len(b"</ram:IncludedNote>")
    return data[:note_start] + data[note_end:]


@pytest.mark.corpus
def test_facturx_pdf_without_a_penalty_note_fails_br_fr_05(validator: Validator) -> None:
    report = validator.validate(_pdf(_without_penalty_note(UC1_CII.read_bytes()), "EN 16931"), rules_date=TODAY_RULES)
    assert report.profile == "fr-ctc-facturx-en16931"
    fired = {f.rule_id: f for f in report.findings}
    assert "BR-FR-05_BT-22_PMD" in fired and not report.valid
    assert fired["BR-FR-05_BT-22_PMD"].message.fr is not None and "PMD" in fired["BR-FR-05_BT-22_PMD"].message.de


@pytest.mark.corpus
@pytest.mark.parametrize("pdf", [False, True], ids=["xml", "pdf"])
def test_facturx_basicwl_gets_the_french_rules(validator: Validator, pdf: bool) -> None:
    xml = _edit(UC1_CII, (b">urn:cen.eu:en16931:2017<", b">urn:factur-x.eu:1p0:basicwl<"))
    fired = {}
    for name, data in (("complete", xml), ("no PMD note", _without_penalty_note(xml))):
        report = validator.validate(_pdf(data, "BASIC WL") if pdf else data, rules_date=TODAY_RULES)
        assert report.profile == "fr-ctc-facturx-basicwl"
        assert report.packs == ("zugferd-basicwl-xsd@2.5.2", "zugferd-basicwl@2.5.2", "fr-ctc-cii@1.4.0.03")
        fired[name] = {f.rule_id for f in report.findings if f.source == "fr-ctc-cii@1.4.0.03"}
    assert fired == {"complete": set(), "no PMD note": {"BR-FR-05_BT-22_PMD"}}


@pytest.mark.corpus
def test_facturx_extended_pdf_gets_extended_ctc_fr(validator: Validator) -> None:
    report = validator.validate(_pdf(UC12_CII_EXTENDED.read_bytes(), "EXTENDED"), rules_date=TODAY_RULES)
    assert report.profile == "fr-extended-ctc-cii" and report.envelope == "pdf"
    assert report.valid, [f.rule_id for f in report.errors]


@pytest.mark.corpus
def test_facturx_basic_and_minimum_keep_their_profile(validator: Validator) -> None:
    basic = _edit(
        UC1_CII, (b">urn:cen.eu:en16931:2017<", b">urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic<")
    )
    report = validator.validate(basic, rules_date=TODAY_RULES)
    assert report.profile == "zugferd-basic" and "carries French CTC markers" in str(report.profile_reason)


# --- the Saxon 9.9 step (distribute-union-steps) and BR-FR-MV-14 ----------------------------------------------


def test_distribute_union_steps() -> None:
    pattern = "(a:I | c:C)[x = ('1')]/(b:L | b:M)/b:R[b:ID = $id][not(b:S)]"
    assert (
        distribute_union_steps(pattern)
        == "(a:I | c:C)[x = ('1')]/b:L/b:R[b:ID = $id][not(b:S)] | (a:I | c:C)[x = ('1')]/b:M/b:R[b:ID = $id][not(b:S)]"
    )
    assert distribute_union_steps("/(a|b)") == "/a | /b"
    assert distribute_union_steps("x//(a|b)/c | d") == "x//a/c | x//b/c | d"
    for kept in ("(a|b)[1]", "x/(a|b)[1]", "a/b", "(a | b)/c", "x/(/a|b)"):
        assert distribute_union_steps(kept) == kept


def _group_billing_references(data: bytes, extra: bytes) -> bytes:
    """``extra`` (a cac:BillingReference) after the first GROUP line's own billing reference."""
    marker = b"<cbc:DocumentStatusCode>GROUP</cbc:DocumentStatusCode>"
    at = data.index(b"</cac:BillingReference>", data.index(marker)) + len(b"</cac:BillingReference>")
    return data[:at] + extra + data[at:]


def _credit_note(data: bytes, type_code: bytes) -> bytes:
    for old, new in (
        (b"xsd:Invoice-2", b"xsd:CreditNote-2"),
        (b"<Invoice ", b"<CreditNote "),
        (b"</Invoice>", b"</CreditNote>"),
        (b"cac:InvoiceLine>", b"cac:CreditNoteLine>"),
        (b"cbc:InvoicedQuantity", b"cbc:CreditedQuantity"),
        (
            b"<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>",
            b"<cbc:CreditNoteTypeCode>" + type_code + b"</cbc:CreditNoteTypeCode>",
        ),
    ):
        assert old in data, old
        data = data.replace(old, new)
    return data


def mv14_documents() -> dict[str, bytes]:
    """UC11 (UBL, multi-vendor S8, GROUP lines whose billing reference is the invoice itself) made corrective
    invoices and credit notes, so that BR-FR-MV-14 (S8/B8/M8) and BR-FR-BD-14 (S9/B9/M9), the two rules whose
    patterns Saxon 9.9 cannot compile, fire: on Invoice lines and on CreditNote lines (both alternatives of each
    rewritten pattern), for the preceding invoice's number, its date, both, or neither."""
    base = UC11_UBL_EXTENDED.read_bytes()
    bd = base.replace(b"<cbc:ProfileID>S8</cbc:ProfileID>", b"<cbc:ProfileID>S9</cbc:ProfileID>", 1)
    corrective = base.replace(b"<cbc:InvoiceTypeCode>380<", b"<cbc:InvoiceTypeCode>384<", 1)
    reference = (
        b"<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F202500001</cbc:ID>%s"
        b"</cac:InvoiceDocumentReference></cac:BillingReference>"
    )
    return {
        "mv14-invoice-384.xml": corrective,
        "mv14-invoice-384-number-only.xml": _group_billing_references(corrective, reference % b""),
        "mv14-invoice-384-complete.xml": _group_billing_references(
            corrective, reference % b"<cbc:IssueDate>2025-01-01</cbc:IssueDate>"
        ),
        "mv14-invoice-380.xml": base,  # not corrective: the rule's context does not match
        "bd14-invoice-471.xml": bd.replace(b"<cbc:InvoiceTypeCode>380<", b"<cbc:InvoiceTypeCode>471<", 1),
        "mv14-creditnote-381.xml": _credit_note(base, b"381"),
        "bd14-creditnote-261.xml": _credit_note(bd, b"261"),
    }


def no_id_documents() -> dict[str, bytes]:
    """UC12 (CII EXTENDED-CTC-FR) broken for the two id-less asserts of EXTENDED-CTC-FR-CII: no IBAN nor
    proprietary id for credit transfer (BR-CO-27, no flag) and an item attribute code outside UNTDID 6313
    (BR-FXEXT-04, warning)."""
    data = UC12_CII_EXTENDED.read_bytes()
    start = data.index(b"<ram:IBANID>")
    no_account = data[:start] + data[data.index(b"</ram:IBANID>", start) + len(b"</ram:IBANID>") :]
    product_end = data.index(b"</ram:SpecifiedTradeProduct>")
    attribute = (
        b"<ram:ApplicableProductCharacteristic><ram:TypeCode>NOT-A-CODE</ram:TypeCode>"
        b"<ram:Description>Colour</ram:Description><ram:Value>blue</ram:Value></ram:ApplicableProductCharacteristic>"
    )
    return {
        "no-id-br-co-27.xml": no_account,
        "no-id-br-fxext-04.xml": data[:product_end] + attribute + data[product_end:],
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("france-built")
    paths = {}
    for name, data in {**mv14_documents(), **no_id_documents(), "hotfix.xml": _line_reference_with_a_space()}.items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return paths


def _events(sheet: Any, text: str, engine: Any) -> list[tuple[str, str | None, str | None, str | None, str]]:
    """The SVRL as (kind, id, flag, location, text); for a dynamic error the error code stands for the text, which
    is the engine's own wording."""
    return [
        (e.kind, e.id, e.flag, e.location, e.text if e.kind in ("failed-assert", "successful-report") else str(e.code))
        for e in parse_svrl(sheet.run(engine.parse_text(text)))
    ]


@pytest.mark.corpus
def test_the_rewritten_ubl_rules_give_saxoncs_findings(
    registry: Registry, built: dict[str, Path], tmp_path: Path
) -> None:
    """The UBL BR-FR stylesheet as FNFE wrote it (every other step applied), under SaxonC, against the installed
    copy (with distribute-union-steps) under the engine this suite runs on (saxon-java in the second pass of
    ``make test``): the same SVRL, finding for finding (id, flag, location, text), on every UBL document of the
    French corpus and on the documents that trigger BR-FR-MV-14 and BR-FR-BD-14."""
    saxonc, engine = get_engine("saxonc"), get_engine()
    for key in ("fr-ctc-ubl@1.4.0.04", "fr-ctc-ubl@1.4.0.03", "fr-ctc-ubl@1.4.0"):
        pack = registry.get(key)
        official = pack.directory / pack.manifest.entries["stylesheet"]
        without = tmp_path / key / official.name
        without.parent.mkdir()
        steps = [s for s in DEFAULT_STEPS if s != "distribute-union-steps"]
        without.write_bytes(prepare_stylesheet(official.read_bytes(), steps=steps))
        reference_sheet = saxonc.compile(without, sha256_file(without))
        ours = engine.compile(*pack.prepared())
        documents = [p for p in sorted(FRANCE.rglob("*.xml")) if b"urn:oasis:names:specification:ubl" in p.read_bytes()]
        documents += [p for n, p in built.items() if n.startswith(("mv14", "bd14", "hotfix"))]
        assert len(documents) > 30
        fired: Counter[str] = Counter()
        for path in documents:
            text = load(path.read_bytes()).text()
            expected = _events(reference_sheet, text, saxonc)
            assert _events(ours, text, engine) == expected, path.name
            fired.update(e[1] or "" for e in expected)
        for rule in (
            "BR-FR-MV-14-EXT-FR-FE-136",
            "BR-FR-MV-14-EXT-FR-FE-138",
            "BR-FR-BD-14-EXT-FR-FE-136",
            "BR-FR-BD-14-EXT-FR-FE-138",
        ):
            assert fired[rule] >= 2, f"{key}: the documents must trigger {rule} (Invoice and CreditNote lines)"


@pytest.mark.corpus
def test_saxon_99_cannot_compile_the_official_ubl_rules(registry: Registry, tmp_path: Path) -> None:
    """Why the step exists: without it Saxon-HE 9.9 refuses the official UBL stylesheet (and says so, a
    ``ruleset.invalid`` naming the file, never a crash or a skipped pack); with it, it compiles."""
    java = get_engine("saxon-java")
    pack = registry.get("fr-ctc-ubl@1.4.0.03")
    official = pack.directory / pack.manifest.entries["stylesheet"]
    without = tmp_path / official.name
    without.write_bytes(
        prepare_stylesheet(official.read_bytes(), [s for s in DEFAULT_STEPS if s != "distribute-union-steps"])
    )
    with pytest.raises(RulesetError) as info:
        java.compile(without, sha256_file(without))
    assert info.value.code == "ruleset.invalid" and "Cannot convert the expression" in info.value.detail
    assert java.compile(*pack.prepared()) is not None


@pytest.mark.corpus
def test_the_id_less_asserts_get_the_id_of_their_label(validator: Validator, built: dict[str, Path]) -> None:
    co27 = validator.validate(built["no-id-br-co-27.xml"], rules_date=TODAY_RULES)
    fxext = validator.validate(built["no-id-br-fxext-04.xml"], rules_date=TODAY_RULES)
    (a,) = [f for f in co27.findings if f.rule_id == "BR-CO-27"]
    (b,) = [f for f in fxext.findings if f.rule_id == "BR-FXEXT-04"]
    assert (a.flag, a.severity.value, a.source) == ("error", "ERROR", "fr-extended-ctc-cii@1.4.0.03")
    assert (b.flag, b.severity.value) == ("warning", "WARNING")
    assert a.message.en == "Either the IBAN or a Proprietary ID (BT-84) shall be used." and "IBAN" in a.message.de
    assert a.message.fr is None  # an English text of the pack: no French to keep
    assert not co27.valid and all(f.rule_id for r in (co27, fxext) for f in r.findings)


@pytest.fixture(scope="module")
def live_reference(built: dict[str, Path]) -> dict[str, Row]:
    rows = run_reference(built.values(), "plan-france.tsv")
    return {path.name: row for path, row in rows.items()}


@pytest.mark.reference
@pytest.mark.parametrize("name", [*mv14_documents(), *no_id_documents(), "hotfix.xml"])
def test_built_documents_against_the_live_reference(
    name: str,
    built: dict[str, Path],
    live_reference: dict[str, Row],
    validator: Validator,
    registry: Registry,
) -> None:
    """The reference (Saxon-HE 9.9 with the derived UBL stylesheet, plan-france 1.4.0.03) on the documents built
    here: the same findings, also for BR-FR-MV-14 / BR-FR-BD-14 and for the id-less asserts (null there)."""
    row = live_reference[name]
    assert_french_parity(row, validator.validate(built[name], rules_date=TODAY_RULES), registry)
    if name.startswith("no-id"):
        assert any(f["id"] is None for f in row["findings"]), "the reference reports the assert without an id"


# --- the preparation steps on the French stylesheets -----------------------------------------------------------

XSL = "{http://www.w3.org/1999/XSL/Transform}"
SVRL = "{http://purl.oclc.org/dsdl/svrl}"
FRENCH_PACKS = [
    *(f"fr-{k}-{s}@{v}" for k in ("ctc", "extended-ctc") for s in ("ubl", "cii") for v in ("1.4.0", "1.4.0.03")),
    *(f"fr-ctc-{s}@1.4.0.04" for s in ("ubl", "cii")),  # the staged copy (EXTENDED-CTC-FR 1.4.0.04: none here)
    *(f"fr-cdar@{v}" for v in ("1.4.0", "1.4.0.03", "1.4.0.04")),  # the lifecycle messages' rules (43 asserts)
]


@pytest.mark.parametrize("key", FRENCH_PACKS)
def test_the_preparation_steps_apply_to_the_french_stylesheets(registry: Registry, key: str) -> None:
    pack = registry.get(key)
    parser = etree.XMLParser(huge_tree=True)
    official = etree.parse(str(pack.directory / pack.manifest.entries["stylesheet"]), parser).getroot()
    prepared = etree.parse(str(pack.prepared_stylesheet()), parser).getroot()
    assert count_assertions(prepared) == count_assertions(official) > (40 if key.startswith("fr-cdar") else 100)
    assert not any(True for _ in prepared.iter(f"{SVRL}fired-rule"))  # strip-unused-output
    assert any(True for _ in official.iter(f"{SVRL}fired-rule"))
    rules = {t for t in prepared.iter(f"{XSL}template") if count_assertions(t)}
    isolated = {t for t in rules if t.find(f".//{XSL}try") is not None}
    assert isolated == rules, "isolate-rule-errors: every rule catches its own dynamic errors"
    assert all(assertion_ids(prepared)), "every assertion has an id (name-bracketed-asserts)"
    guards = [g for g in prepared.iter(f"{XSL}if") if (g.get("test") or "").startswith("exists((")]
    guarded = sum(1 for g in guards for _ in g.iter(f"{XSL}choose"))
    if "extended" in key:  # the CEN copy's "shall not be used" asserts (UBL-CR-*, CII-SR-*): about 400-500
        assert guarded > 300
    else:  # FNFE's own rules have no runs of absence tests
        assert guarded == 0
    assert b'select="@*|*"' not in Path(pack.prepared_stylesheet()).read_bytes()  # skip-attribute-walk


@pytest.fixture(scope="module")
def cdar_mutations(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_cdar_mutations(tmp_path_factory.mktemp("cdar"))


@pytest.mark.corpus
@pytest.mark.parametrize("key", [k for k in FRENCH_PACKS if k.endswith(("1.4.0.03", "1.4.0.04"))])
def test_prepared_and_official_give_the_same_findings(
    registry: Registry, key: str, cdar_mutations: dict[str, Path]
) -> None:
    """Under SaxonC (which compiles FNFE's files as they are): the installed copy gives the official findings on
    every French corpus document of the pack's syntax (the CDAR rules: the lifecycle messages and their mutations,
    tests/test_france_1404.py), where the official stylesheet does not stop; where it stops, the copy reports the
    error per rule and the other rules' findings."""
    engine = get_engine("saxonc")
    pack = registry.get(key)
    official = engine.compile(
        pack.directory / pack.manifest.entries["stylesheet"], pack.files()[pack.manifest.entries["stylesheet"]]
    )
    prepared = engine.compile(*pack.prepared())
    markers = {"ubl": b"urn:oasis:names:specification:ubl", "cii": b"CrossIndustryInvoice", "cdar": b"CrossDomain"}
    marker = markers[pack.manifest.syntax]
    documents = [*sorted(FRANCE.rglob("*.xml")), *sorted(CDAR.rglob("*.xml")), *cdar_mutations.values()]
    compared = 0
    for path in documents:
        if marker not in path.read_bytes():
            continue
        text = load(path.read_bytes()).text()  # the bundled syntaxes: UBL, CII, CDAR
        # the official stylesheet leaves two EXTENDED-CTC-FR-CII asserts without id: ours names them
        expected = [(k, assigned_id(i, t), f, loc, t) for k, i, f, loc, t in _events(official, text, engine)]
        ours = _events(prepared, text, engine)
        if len(expected) == 1 and expected[0][0] == "runtime-error":
            assert any(e[0] == "rule-error" for e in ours), path.name
        else:
            assert ours == expected, path.name
        compared += 1
    assert compared >= 20 if pack.manifest.syntax != "cdar" else compared >= 12


# --- texts ----------------------------------------------------------------------------------------------------


def test_every_french_rule_text_has_english_and_german(registry: Registry) -> None:
    cat = catalogue()
    texts = [(p, r, t) for p, r, t in official_rule_texts(registry) if p.startswith("fr-")]
    assert len(texts) > 2000
    for pack, rule_id, official in texts:
        variant = cat.variant_for_official(rule_id, official)
        assert variant is not None, (pack, rule_id, official[:80])
        assert variant.text("en") and variant.text("de") and variant.text("en") != variant.text("de"), rule_id
        if rule_id.startswith("BR-FR-"):  # FNFE's own rules: French, kept as the extra language
            assert variant.lang == "fr" and variant.text("fr") == official
    ids = {r for _, r, _ in texts}
    assert {"BR-CO-27", "BR-FXEXT-04"} <= ids  # the id-less asserts, named by their label
    assert not any(r == "" or r == "UNSPECIFIC" for r in ids)


# --- the command line -------------------------------------------------------------------------------------------


@pytest.mark.corpus
def test_the_cli_says_which_rules_and_why(registry: Registry) -> None:
    out, err = io.StringIO(), io.StringIO()
    args = ["--home", str(registry.home), "validate", "--format", "jsonl", "--rules-date", str(TODAY_RULES)]
    code = main([*args, str(UC1_UBL)], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    row = json.loads(out.getvalue())
    assert row["profile"] == "fr-ctc-ubl-invoice" and row["profileReason"].startswith("French CTC invoice: ")
    out = io.StringIO()
    assert main(["--home", str(registry.home), "profiles", "--rules-date", "2026-08-31"], stdout=out, stderr=err) == 0
    line = next(x for x in out.getvalue().splitlines() if x.startswith("fr-ctc-ubl-invoice "))
    assert "fr-ctc-ubl@1.4.0 (of fr-ctc-ubl@*)" in line
    out = io.StringIO()
    assert main(["--home", str(registry.home), "rulesets", "sources"], stdout=out, stderr=err) == 0
    sources = [x.split("\t") for x in out.getvalue().splitlines()]
    archives = [s for s in sources if s[0].endswith("FNFE_RFE_INVOICE_V1.4.0.03.zip")]
    assert len(archives) == 1 and archives[0][1] == "27f11b728e5afc8dc103de6287379b64889c9e8bbc4eb4b6fd785d897aec314d"
    assert "fr-ctc-ubl@1.4.0.03" in archives[0][2] and "fr-extended-ctc-cii@1.4.0.03" in archives[0][2]


# --- long attachments (Manifest.attachment_content = "emptiness", reviewed for the French packs) -------------------

_UBL_ATTACHMENT = (
    b"<cac:AdditionalDocumentReference><cbc:ID>DOC1</cbc:ID><cbc:DocumentDescription>LISIBLE</cbc:DocumentDescription>"
    b'<cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="facture.pdf">%s'
    b"</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>"
)
_CII_ATTACHMENT = (
    b"<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>DOC1</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode>"
    b'<ram:Name>LISIBLE</ram:Name><ram:AttachmentBinaryObject mimeCode="application/pdf" filename="facture.pdf">%s'
    b"</ram:AttachmentBinaryObject></ram:AdditionalReferencedDocument>"
)


@pytest.mark.corpus
@pytest.mark.parametrize("content", [b"JVBERi0xLjUK" * 2000, b" " * 6000, b" " * 5000 + b"JVBERi0xLjUK" * 500])
@pytest.mark.parametrize("path", [UC1_UBL, UC11_UBL_EXTENDED, UC1_CII, UC12_CII_EXTENDED], ids=lambda p: p.name[:12])
def test_a_long_attachment_reaches_the_french_rules_cut_with_the_same_findings(
    registry: Registry, path: Path, content: bytes
) -> None:
    data = path.read_bytes()
    if path in (UC1_UBL, UC11_UBL_EXTENDED):
        at = data.index(b"<cac:AccountingSupplierParty>")
        data = data[:at] + _UBL_ATTACHMENT % content + data[at:]
    else:
        at = data.index(b"</ram:AdditionalReferencedDocument>") + len(b"</ram:AdditionalReferencedDocument>")
        data = data[:at] + _CII_ATTACHMENT % content + data[at:]
    slim, full = Validator(rules_home=registry.home), Validator(rules_home=registry.home)
    full._slim = False
    cut, whole = slim.validate(data, rules_date=TODAY_RULES), full.validate(data, rules_date=TODAY_RULES)
    assert cut.profile.startswith("fr-")
    profile = next(p for p in slim.profiles if p.name == cut.profile)
    assert slim._stages_for(profile, slim.plan_for(profile, TODAY_RULES)).slim_attachments
    assert [f.model_dump() for f in cut.findings] == [f.model_dump() for f in whole.findings]
