"""Formats beyond UBL and CII (issue 44): Poland KSeF FA(3), Italy FatturaPA 1.2.2, Denmark OIOUBL 2.1 (1.17.2).

* The official examples (``corpus/poland-ksef``, ``italy-fatturapa``, ``denmark-oioubl``; their READMEs and
  ``expected.json`` say what each must give) get their profile and the upstream verdict through the library, the
  CLI (every report format), the pool (threads and processes), the server and ``show`` (no viewer: it says so);
  Spark in ``tests/test_spark.py``. FatturaPA's FPR02 is invalid as published (``ContattiTrasmittente``), ph-bad
  is a test case meant to fail; OIOUBL's two certificate examples, which phive lists as "broken", pass the schema
  and the stylesheets (``observed.jsonl``): valid.
* Broken documents get XSD findings with Xerces' codes and lines; OIOUBL's ``<Error>`` report is read into findings
  with the rule id each error names, its severity (the element: ``Error``), place and texts in English (official)
  and German (ours, ``rulesets/messages/oioubl.toml``); OIOUBL runs on both engines with the same findings.
* OIOUBL is matched by its CustomizationID, by date (1.17.2 from 2026-05-18): an EN 16931 or Peppol UBL invoice is
  unaffected, another OIOUBL version is a near miss.
* Parity: OIOUBL's XSD stage with the reference (``RefValidate``, a plan of the OIOUBL schemas written here: it reads
  SVRL only, so OIOUBL's stylesheets are not compared with it); KSeF's and FatturaPA's XSD codes with the reference's
  Xerces (Apache Xerces, as ``RefValidate`` loads it), live: the reference routes UBL and CII roots only, and Xerces
  cannot compile FA(3) 1-0E as published (content models of 10,000 and 50,000 occurrences: over its limit of 5,000
  nodes, or out of memory without it), so it reads a copy with those bounds unbounded, as phive does.

Cost: the three OIOUBL stylesheets compile in about 15 s on SaxonC (once per process), 35 s on Saxon-HE 9.9.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from einvoice_validate import Report, Severity, Validator, iter_validate
from einvoice_validate.cli import main
from einvoice_validate.errors import InputError, ProfileError
from einvoice_validate.parse import load
from einvoice_validate.pool import Pool
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.prepare import read_index, steps_for
from einvoice_validate.schematron import _java
from einvoice_validate.schematron._saxon import slimmed_text
from einvoice_validate.schematron.readers import parse_oioubl_errors
from einvoice_validate.schematron.svrl import SvrlError
from einvoice_validate.server import ServerSettings, create_app
from tests.conftest import CORPUS, SHARED
from tests.mutate import mutant_set, write_mutants
from tests.reference import PlanLine, assert_parity, run_reference, write_plan
from tests.test_server import VALIDATE, XML, call

pytestmark = pytest.mark.corpus

DAY = date(2026, 9, 15)
KSEF = CORPUS / "poland-ksef"
FATTURAPA = CORPUS / "italy-fatturapa"
OIOUBL = CORPUS / "denmark-oioubl"
RULESETS = SHARED / "rulesets"
FILES = sorted(p for folder in (KSEF, FATTURAPA, OIOUBL) for p in folder.glob("*.xml"))
FPR02, PH_BAD = "IT01234567890_FPR02.xml", "ph-bad-IT01234567890_FPA01.xml"
INVALID = {
    # as published: ContattiTrasmittente is no child of DatiTrasmissione in 1.2.2 (ph-fatturapa tests a copy without)
    FPR02: [
        (
            "cvc-complex-type.2.4.d",
            16,
            "/FatturaElettronica/FatturaElettronicaHeader/DatiTrasmissione/ContattiTrasmittente",
        )
    ],
    PH_BAD: [("cvc-complex-type.2.4.b", 51, "/FatturaElettronica")],  # no FatturaElettronicaBody
}
OIOUBL_PACKS = {
    "Invoice": ("oioubl-invoice", "ubl-invoice"),
    "CreditNote": ("oioubl-creditnote", "ubl-creditnote"),
    "Reminder": ("oioubl-reminder", "ubl-reminder"),
}


def expected(path: Path) -> tuple[str, str, str, tuple[str, ...]]:
    """(profile, syntax, document type, packs) a corpus document of these families gets."""
    if path.parent == KSEF:
        return "ksef-fa3", "ksef-fa3", "ksef-fa3", ("ksef-fa3-xsd@1-0E",)
    if path.parent == FATTURAPA:
        return "fatturapa-1.2.2", "fatturapa", "fatturapa", ("fatturapa-xsd@1.2.2",)
    root = etree.QName(etree.parse(str(path)).getroot()).localname
    profile, kind = OIOUBL_PACKS[root]
    return profile, "ubl", kind, ("oioubl-xsd@1.17.2", f"{profile}@1.17.2")


def _mutated(source: Path, old: str, new: str, target: Path) -> Path:
    text = source.read_text(encoding="utf-8-sig")
    assert old in text, f"{old!r} not in {source.name}"
    target.write_text(text.replace(old, new), encoding="utf-8")
    return target


def _places(report: Report, stage: str | None = None) -> list[tuple[str, int | None, str | None]]:
    return [(f.rule_id, f.line, f.location) for f in report.findings if stage is None or f.stage == stage]


@pytest.fixture(scope="module")
def validator(registry: Registry) -> Validator:
    return Validator(rules_home=registry.home, rules_date=DAY, engine="saxonc")


@pytest.fixture(scope="module")
def reports(validator: Validator) -> dict[str, Report]:
    return {p.name: validator.validate(p) for p in FILES}


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Hand-made broken documents, one change or two each (the tests below say what each must give)."""
    folder = tmp_path_factory.mktemp("broken")
    ksef1, invoice = KSEF / "FA_3_Przyklad_1.xml", OIOUBL / "OIOUBL_Invoice_v2p2.xml"
    nip = _mutated(ksef1, "<NIP>9999999999</NIP>", "<NIP>99x</NIP>", folder / "ksef-nip.xml")
    return {
        "ksef": _mutated(nip, "<P_1>2026-02-15</P_1>", "<P_1>not a date</P_1>", folder / "ksef.xml"),
        "ksef-form": _mutated(ksef1, 'kodSystemowy="FA (3)"', 'kodSystemowy="FA (2)"', folder / "ksef-form.xml"),
        "currency": _mutated(invoice, 'currencyID="DKK"', 'currencyID="XXX"', folder / "currency.xml"),
        "agency": _mutated(
            invoice,
            '<cbc:InvoiceTypeCode listAgencyID="320"',
            '<cbc:InvoiceTypeCode listAgencyID="6"',
            folder / "w.xml",
        ),
        "reminder": _mutated(
            OIOUBL / "OIOUBL_Reminder_v2p2.xml",
            "<cbc:IssueDate>2005-12-15",
            "<cbc:IssueDate>2026-13-45",
            folder / "r.xml",
        ),
        "creditnote": _mutated(
            OIOUBL / "OIOUBL_CreditNote_v2p2.xml", 'currencyID="DKK"', 'currencyID="XXX"', folder / "cn.xml"
        ),
        "oioubl-2.02": _mutated(invoice, ">OIOUBL-2.1<", ">OIOUBL-2.02<", folder / "oioubl-2.02.xml"),
    }


# --- the corpus and the library ---------------------------------------------------------------------------------


def test_the_corpus_is_the_one_its_readmes_describe() -> None:
    for folder in (KSEF, FATTURAPA, OIOUBL):
        listed = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
        assert sorted(listed) == sorted(p.name for p in folder.glob("*.xml")), folder.name
        valid = {name for name, said in listed.items() if said.startswith("valid")}
        if folder == KSEF:  # the PDF generator's sample has no upstream expectation; every MF example is valid
            assert set(listed) - valid == {"ksef-pdf-generator-assets-invoice.xml"}
        if folder == FATTURAPA:
            assert set(listed) - valid == set(INVALID)
        if folder == OIOUBL:
            assert set(listed) - valid == {"OIOUBL_CreditNoteCertificate.xml", "OIOUBL_InvoiceCerticate.xml"}
    assert len(FILES) == 22 + 7 + 6


@pytest.mark.parametrize("name", [p.name for p in FILES])
def test_each_official_example_gets_its_profile_and_verdict(name: str, reports: dict[str, Report]) -> None:
    path = next(p for p in FILES if p.name == name)
    report = reports[name]
    profile, syntax, kind, packs = expected(path)
    assert (report.profile, report.syntax, report.document_type, report.packs) == (profile, syntax, kind, packs)
    assert _places(report) == INVALID.get(name, [])
    assert report.valid is (name not in INVALID) and report.accepted is None
    reason = report.profile_reason or ""
    if syntax != "ubl":  # schema only, and every report says so
        assert reason.endswith("; this profile runs its XSD alone (no rule pack)"), reason
        assert report.spec_id in ("FA (3)", "FPA12", "FPR12")
    else:
        assert report.spec_id == "OIOUBL-2.1" and "'OIOUBL-2.1' is one of this profile's" in reason


def test_the_invalid_fatturapa_examples_in_both_languages(reports: dict[str, Report]) -> None:
    [finding] = reports[FPR02].findings
    assert finding.source == "fatturapa-xsd@1.2.2" and finding.severity is Severity.ERROR
    assert finding.message.en == (
        "Invalid content was found starting with element 'ContattiTrasmittente'. "
        "No child element is expected at this point."
    )
    assert "ContattiTrasmittente" in finding.message.de and finding.message.de != finding.message.en


def test_a_broken_ksef_invoice_gets_xsd_findings_with_codes_and_lines(
    validator: Validator, broken: dict[str, Path]
) -> None:
    report = validator.validate(broken["ksef"])
    nip, p1 = "/Faktura/tns:Podmiot1/tns:DaneIdentyfikacyjne/tns:NIP", "/Faktura/tns:Fa/tns:P_1"
    # the codes Xerces gives (test_ksef_and_fatturapa_xsd_codes_are_xerces below): a pattern before the datatype
    assert _places(report) == [
        ("cvc-pattern-valid", 12, nip),
        ("cvc-type.3.1.3", 12, nip),
        ("cvc-pattern-valid", 45, p1),
        ("cvc-type.3.1.3", 45, p1),
    ]
    first = report.findings[0]
    assert first.source == "ksef-fa3-xsd@1-0E" and first.pack_location is not None
    assert first.message.en.startswith("Value '99x' is not facet-valid with respect to pattern")
    assert first.message.de.startswith("Der Wert '99x' entspricht nicht dem Muster")
    # a wrong form code keeps the FA(3) profile: the schema says what is wrong, as KSeF would refuse it
    form = validator.validate(broken["ksef-form"])
    assert (form.profile, form.spec_id, form.valid) == ("ksef-fa3", "FA (2)", False)
    assert _places(form) == [("cvc-complex-type.3.1", 5, "/Faktura/tns:Naglowek/tns:KodFormularza")]


def test_the_schemas_import_by_address_through_their_catalogs(registry: Registry) -> None:
    from einvoice_validate.xsd.catalog import Catalog

    for key, address, target in (
        (
            "ksef-fa3-xsd@1-0E",
            "http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/01/05/eD/DefinicjeTypy/StrukturyDanych_v10-0E.xsd",
            "bazowe/StrukturyDanych_v10-0E.xsd",
        ),
        (
            "fatturapa-xsd@1.2.2",
            "http://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd",
            "xmldsig-core-schema.xsd",
        ),
    ):
        pack = registry.get(key)
        catalog = pack.catalog()
        assert catalog is not None
        assert Catalog(catalog, pack.directory).map(address) == (pack.directory / target).resolve()


# --- OIOUBL: the <Error> report, the dates, the matching -----------------------------------------------------------


def test_oioubl_errors_carry_their_rule_ids(validator: Validator, broken: dict[str, Path]) -> None:
    report = validator.validate(broken["currency"])
    assert not report.valid and {f.stage for f in report.findings} == {"schematron"}
    counts = Counter(f.rule_id for f in report.findings)
    assert counts == {"F-LIB403": 18, "F-INV012": 1, "F-INV013": 1, "F-INV014": 1}
    first = report.findings[0]
    assert (first.rule_id, first.severity, first.flag, first.source) == (
        "F-LIB403",
        Severity.ERROR,
        "error",
        "oioubl-invoice@1.17.2",
    )
    # the error's Xpath (the document's own prefixes) as a readable path, with the element's line
    assert (first.location, first.line, first.pack_location) == (
        "/Invoice/cac:PaymentTerms/cbc:Amount",
        105,
        "/*:Invoice[1]/cac:PaymentTerms[1]/cbc:Amount[1]",
    )
    assert first.message.en == "Invalid CurrencyCode: 'XXX'. Must be a value from the codelist"
    assert first.message.de == "Ungültiger Wert von CurrencyCode: 'XXX'. Er muss ein Wert aus der Codeliste sein"
    assert [f.location for f in report.findings if f.rule_id == "F-INV014"] == ["/Invoice/cbc:DocumentCurrencyCode"]
    # the stylesheets write every rule as <Error>, also those whose id says W- (a warning by OIOUBL's naming)
    agency = validator.validate(broken["agency"])
    assert [(f.rule_id, f.severity, f.flag, f.line) for f in agency.findings] == [
        ("W-INV005", Severity.ERROR, "error", 13)
    ]
    assert agency.findings[0].message.de == "Ungültig: listAgencyID muss '320' sein"


def test_an_oioubl_reminder_gets_xsd_findings_with_codes_and_lines(
    validator: Validator, broken: dict[str, Path]
) -> None:
    report = validator.validate(broken["reminder"])
    assert (report.profile, report.document_type) == ("oioubl-reminder", "ubl-reminder")
    assert _places(report) == [
        ("cvc-datatype-valid.1.2.1", 20, "/Reminder/cbc:IssueDate"),
        ("cvc-complex-type.2.2", 20, "/Reminder/cbc:IssueDate"),
    ]
    assert report.findings[0].source == "oioubl-xsd@1.17.2"


def test_oioubl_by_date(validator: Validator) -> None:
    """1.17.2 from 2026-05-18 (12:00 upstream; whole days here): before, no version this rules home knows."""
    invoice = OIOUBL / "OIOUBL_Invoice_v2p2.xml"
    with pytest.raises(ProfileError) as caught:
        validator.validate(invoice, rules_date=date(2026, 5, 17))
    assert (caught.value.code, caught.value.reason) == ("request.invalid-parameter", "rules-date")
    assert "oioubl-invoice@1.17.2 from 2026-05-18" in caught.value.detail
    report = validator.validate(invoice, rules_date=date(2026, 5, 18))
    assert report.valid and [c.pack for c in report.version_choices] == ["oioubl-invoice@1.17.2"]


def test_oioubl_is_matched_by_its_customization_id(validator: Validator, broken: dict[str, Path]) -> None:
    """A UBL document of another specification is unaffected; OIOUBL in another version is a near miss."""
    for path, profile in (
        (CORPUS / "peppol-bis/examples/base-example.xml", "peppol-bis-3.0-ubl-invoice"),
        (CORPUS / "en16931-examples/ubl/guide-example1.xml", "en16931-ubl-invoice"),
    ):
        report = validator.validate(path)
        assert report.profile == profile and not any(p.startswith("oioubl") for p in report.packs)
    other = validator.validate(broken["oioubl-2.02"])
    assert other.profile == "en16931-ubl-invoice" and "oioubl-invoice@1.17.2" not in other.packs
    [miss] = [f for f in other.findings if f.rule_id == "profile.near-miss"]
    assert "'OIOUBL-2.02' names OIOUBL 2.1" in miss.message.en and miss.severity is Severity.WARNING
    reminder = (OIOUBL / "OIOUBL_Reminder_v2p2.xml").read_bytes().replace(b">OIOUBL-2.1<", b">OIOUBL-2.02<")
    with pytest.raises(ProfileError) as caught:
        validator.validate(reminder)
    assert caught.value.reason == "no-profile"
    with pytest.raises(InputError):  # a UBL document type no syntax declares stays unsupported
        validator.validate(b'<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>')


def test_the_oioubl_report_reader() -> None:
    output = (
        "<?xml version='1.0'?><Schematron><Information>Checking OIOUBL-2.1 Invoice</Information>"
        "<Error context='Invoice/cbc:Amount'><Pattern>x</Pattern><Description>\n  [F-LIB403] Invalid CurrencyCode:"
        " 'X'.\n </Description><Xpath>/Invoice[1]/cac:LegalMonetaryTotal[1]/Amount[2]</Xpath></Error>"
        "<Warning><Description>[W-X1] soon</Description><Xpath>not a path</Xpath></Warning></Schematron>"
    )
    first, second = parse_oioubl_errors(output)
    assert (first.kind, first.id, first.flag, first.text) == (
        "failed-assert",
        "F-LIB403",
        "error",
        "[F-LIB403] Invalid CurrencyCode: 'X'.",
    )
    # name() steps: an unprefixed one is in the document's default namespace, which the path does not say
    assert first.location == "/*:Invoice[1]/cac:LegalMonetaryTotal[1]/*:Amount[2]"
    assert (second.id, second.flag, second.location) == ("W-X1", "warning", None)
    assert parse_oioubl_errors("<Schematron><Information>ok</Information></Schematron>") == []
    # what cannot be read is an error, never "no findings": SVRL, an element OIOUBL does not write, not XML
    svrl = "<svrl:schematron-output xmlns:svrl='http://purl.oclc.org/dsdl/svrl'/>"
    for bad in (svrl, "<Schematron><Oops/></Schematron>", "<Schematron>"):
        with pytest.raises(SvrlError):
            parse_oioubl_errors(bad)
    stopped = '<ev:runtime-error xmlns:ev="urn:einvoice-validate:saxon" code="XPTY0004">no</ev:runtime-error>'
    [event] = parse_oioubl_errors(stopped)  # the engines' wrapper: the pack stopped
    assert (event.kind, event.id, event.text) == ("runtime-error", "XPTY0004", "no")


def test_the_oioubl_stylesheets_are_prepared_by_no_step(registry: Registry) -> None:
    """The preparation's steps rewrite SVRL output; OIOUBL's stylesheets get none: the prepared copy is the
    official stylesheet (checked like every copy for resource reads), parsed and written again."""
    assert steps_for("oioubl-errors") == () and steps_for("svrl")
    parser = etree.XMLParser(huge_tree=True)
    for kind in ("invoice", "creditnote", "reminder"):
        pack = registry.get(f"oioubl-{kind}@1.17.2")
        index = read_index(pack.directory)
        assert index is not None and index.steps == {}
        official = etree.parse(str(pack.entry("stylesheet")), parser)
        prepared = etree.parse(str(pack.prepared()[0]), parser)
        assert etree.tostring(official, method="c14n") == etree.tostring(prepared, method="c14n")
        assert pack.manifest.output == "oioubl-errors" and pack.manifest.optimizer == {"saxonc": "-l"}


def _dump(report: Report) -> dict[str, Any]:
    data = report.model_dump(mode="json", by_alias=True)
    data.pop("timingsMs")
    return data


def test_oioubl_long_attachments_are_cut_without_changing_a_finding(
    registry: Registry, validator: Validator, tmp_path: Path
) -> None:
    """OIOUBL's packs read an embedded attachment only for its existence and @mimeCode (reviewed:
    ``attachment_content = "emptiness"``, tools/write_manifests.py), so Saxon gets it cut short: an invoice with a
    6,000-character attachment gives the same report cut and uncut, whether the attachment passes, has a mimeCode
    OIOUBL refuses or stands beside an external reference; saxon-java (given the cut as UTF-8) the same findings."""
    plain = Validator(rules_home=registry.home, rules_date=DAY, engine="saxonc")
    plain._slim = False
    java_validator = Validator(rules_home=registry.home, rules_date=DAY, engine="saxon-java")
    profiles = [p for p in validator.profiles if p.name in {profile for profile, _ in OIOUBL_PACKS.values()}]
    assert len(profiles) == 3
    for profile in profiles:
        assert validator._stages_for(profile).slim_attachments, profile.name  # every pack of the profile allows it
    source, anchor = OIOUBL / "OIOUBL_Invoice_v2p2.xml", "<cac:AccountingSupplierParty>"
    cases = {
        "pdf": ('mimeCode="application/pdf"', ""),
        "bmp": ('mimeCode="image/bmp"', ""),
        "both": (
            'mimeCode="application/pdf"',
            "<cac:ExternalReference><cbc:URI>x.pdf</cbc:URI></cac:ExternalReference>",
        ),
    }
    ids = {}
    for name, (mime, external) in cases.items():
        reference = (
            "<cac:AdditionalDocumentReference><cbc:ID>A1</cbc:ID><cbc:DocumentTypeCode>Attachment</cbc:DocumentTypeCode>"
            f'<cac:Attachment><cbc:EmbeddedDocumentBinaryObject {mime} filename="a.pdf">{"QUJD" * 1500}'
            f"</cbc:EmbeddedDocumentBinaryObject>{external}</cac:Attachment></cac:AdditionalDocumentReference>"
        )
        path = _mutated(source, anchor, reference + anchor, tmp_path / f"{name}.xml")
        assert slimmed_text(load(path)) is not None  # the attachment is long enough to be cut
        ours, theirs, java = validator.validate(path), plain.validate(path), java_validator.validate(path)
        assert _dump(ours) == _dump(theirs), name
        assert [f.model_dump() for f in java.findings] == [f.model_dump() for f in ours.findings], name  # UTF-8 cut
        ids[name] = {f.rule_id for f in ours.findings}
    assert ids["bmp"] - ids["pdf"] and ids["both"] - ids["pdf"]  # the rules on the attachment fire, cut or not


def test_oioubl_runs_alike_on_both_engines(registry: Registry, broken: dict[str, Path], validator: Validator) -> None:
    """Saxon-HE 9.9 (saxon-java) compiles OIOUBL's stylesheets with its own defaults, SaxonC-HE 13.1 without loop
    lifting (its optimizer fails on the Invoice and CreditNote stylesheets): the same findings."""
    java = Validator(rules_home=registry.home, rules_date=DAY, engine="saxon-java")
    for name in ("currency", "agency", "reminder", "creditnote"):
        ours, theirs = validator.validate(broken[name]), java.validate(broken[name])
        assert theirs.engine == "saxon-java" and ours.engine == "saxonc"
        assert [f.model_dump() for f in ours.findings] == [f.model_dump() for f in theirs.findings], name
        assert ours.findings, name


# --- every front end ------------------------------------------------------------------------------------------


def _same(report: Report, expected_report: Report) -> None:
    assert (report.profile, report.valid, report.packs) == (
        expected_report.profile,
        expected_report.valid,
        expected_report.packs,
    )
    assert [f.model_dump() for f in report.findings] == [f.model_dump() for f in expected_report.findings]


def test_cli_every_report_format(registry: Registry, broken: dict[str, Path], tmp_path: Path) -> None:
    paths = [KSEF / "FA_3_Przyklad_1.xml", FATTURAPA / FPR02, OIOUBL / "OIOUBL_Reminder_v2p2.xml", broken["currency"]]
    out, err = io.StringIO(), io.StringIO()
    formats = "json,junit,sarif,html,github,gitlab,text"
    args = ["--home", str(registry.home), "validate", "--rules-date", str(DAY), "--engine", "saxonc"]
    code = main([*args, "--format", formats, "-o", f"{tmp_path}/", *map(str, paths)], stdout=out, stderr=err)
    assert code == 1, err.getvalue()
    reports_by_name = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.rglob("*-report.*")}
    assert len(reports_by_name) == len(paths) * 7, sorted(reports_by_name)  # one per document and format
    texts = "\n".join(reports_by_name.values())
    for needle in (
        "ksef-fa3",
        "fatturapa-1.2.2",
        "oioubl-reminder",
        "oioubl-invoice",
        "F-LIB403",
        "cvc-complex-type.2.4.d",
    ):
        assert needle in texts, needle
    rows = {
        row["profile"]: row
        for name, body in reports_by_name.items()
        if name.endswith("-report.json")
        for row in json.loads(body)
    }
    assert {p: r["valid"] for p, r in rows.items()} == {
        "ksef-fa3": True,
        "fatturapa-1.2.2": False,
        "oioubl-reminder": True,
        "oioubl-invoice": False,
    }
    sarif = [json.loads(body) for name, body in reports_by_name.items() if name.endswith(".sarif")]
    rule_ids = {r["ruleId"] for s in sarif for run in s["runs"] for r in run["results"]}
    assert {"F-LIB403", "F-INV014", "cvc-complex-type.2.4.d"} <= rule_ids
    junit = [body for name, body in reports_by_name.items() if name.endswith(".junit.xml")]
    assert sum("<failure" in body for body in junit) == 2 and any("F-LIB403" in body for body in junit)
    html = {name: body for name, body in reports_by_name.items() if name.endswith(".html")}
    # the viewer knows UBL invoices and credit notes (OIOUBL's too): not KSeF, FatturaPA, Reminder; the report says so
    assert {name for name, body in html.items() if "no-viewer" in body} == {
        "FA_3_Przyklad_1-report.html",
        "IT01234567890_FPR02-report.html",
        "OIOUBL_Reminder_v2p2-report.html",
    }


@pytest.mark.parametrize("mode", ["threads", "processes"])
def test_the_pool(registry: Registry, reports: dict[str, Report], mode: str) -> None:
    """Threads share this process's compiled stylesheets: every example; each worker process compiles its own, so
    there the KSeF and FatturaPA examples and the OIOUBL Reminder (its stylesheet compiles fastest) go."""
    files = FILES if mode == "threads" else [p for p in FILES if p.parent != OIOUBL or "Reminder" in p.name]
    results = list(
        iter_validate(files, workers=2, mode=mode, rules_home=registry.home, rules_date=DAY, engine="saxonc")
    )
    assert [Path(r.source).name for r in results] == [p.name for p in files]
    for result in results:
        assert result.error is None and result.report is not None, result.error
        _same(result.report, reports[Path(result.source).name])


def test_the_server(registry: Registry, reports: dict[str, Report], broken: dict[str, Path]) -> None:
    with Pool(workers=1, mode="threads", engine="saxonc", rules_home=registry.home, rules_date=DAY) as pool:
        app = create_app(ServerSettings(), pool=pool)
        for path in (KSEF / "FA_3_Przyklad_1.xml", FATTURAPA / FPR02, FATTURAPA / "IT01234567890_FPA01.xml"):
            r = call(app, "POST", VALIDATE, content=path.read_bytes(), headers=XML)
            assert r.status_code == 200, r.text
            _same(Report.model_validate_json(r.content), reports[path.name])
        body = call(app, "POST", VALIDATE, content=broken["currency"].read_bytes(), headers=XML).json()
        assert body["profile"] == "oioubl-invoice" and body["valid"] is False
        assert {f["ruleId"] for f in body["findings"]} == {"F-LIB403", "F-INV012", "F-INV013", "F-INV014"}
        assert all(set(f["message"]) == {"en", "de"} for f in body["findings"])


def test_show_works_and_says_there_is_no_viewer(registry: Registry, tmp_path: Path) -> None:
    target = tmp_path / "fpr02.html"
    out, err = io.StringIO(), io.StringIO()
    args = ["--home", str(registry.home), "show", "--rules-date", str(DAY), "--engine", "saxonc", "-o", str(target)]
    assert main([*args, str(FATTURAPA / FPR02)], stdout=out, stderr=err) == 1, err.getvalue()
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", target.read_text(encoding="utf-8")))
    assert "the viewer has no view of FatturaPA FatturaElettronica documents (fatturapa)" in page
    assert "cvc-complex-type.2.4.d" in page and "ContattiTrasmittente" in page and "fatturapa-1.2.2" in page


# --- parity -------------------------------------------------------------------------------------------------------


@pytest.mark.reference
def test_oioubl_xsd_parity_with_the_reference(registry: Registry, tmp_path: Path) -> None:
    """The reference on OIOUBL's Invoice and CreditNote examples and seeded mutations of them, with OIOUBL's schemas
    (a plan written here: xsd only, as its reader knows SVRL and OIOUBL's stylesheets write none): the same profile
    routing and, per document, the same XSD (code, line) multiset. The reference routes no Reminder."""
    plan = write_plan(
        [
            PlanLine(f"oioubl-{kind.lower()}", f"ubl-{kind.lower()}", "OIOUBL-2.1", xsd, ())
            for kind, xsd in (
                ("Invoice", "denmark-oioubl/1.17.2/xsd/maindoc/UBL-Invoice-2.1.xsd"),
                ("CreditNote", "denmark-oioubl/1.17.2/xsd/maindoc/UBL-CreditNote-2.1.xsd"),
            )
        ],
        tmp_path / "plan-oioubl-xsd.tsv",
    )
    originals = sorted(p for p in OIOUBL.glob("*.xml") if "Reminder" not in p.name)
    documents = originals + write_mutants(mutant_set(originals, 3), tmp_path / "mutants")
    rows = run_reference(documents, plan)
    validator = Validator(rules_home=registry.home, rules_date=DAY, engine="saxonc")
    invalid = 0
    for path in documents:
        report = validator.validate(path)
        invalid += not report.valid
        ours = {f"oioubl-{k.lower()}@1.17.2": None for k in ("Invoice", "CreditNote")}
        assert_parity(
            rows[path],
            report,
            registry,
            plan,
            profiles={"oioubl-invoice": "oioubl-invoice", "oioubl-creditnote": "oioubl-creditnote"},
            stands_for=ours,
        )
    assert invalid >= len(documents) - len(originals) - 3  # the mutants exercise the schema


def _xerces() -> Any:
    """Apache Xerces as the reference loads it (SchemaFactory on the Saxon-HE jar's class path), in this process's
    JVM (the saxon-java engine's), with an error handler collecting (code, line)."""
    _java.start_jvm()
    import jpype

    @jpype.JImplements("org.xml.sax.ErrorHandler")
    class Collect:
        def __init__(self) -> None:
            self.found: list[tuple[str, int]] = []

        @jpype.JOverride
        def warning(self, e: Any) -> None:
            pass

        @jpype.JOverride
        def error(self, e: Any) -> None:
            self.found.append((str(e.getMessage()).split(":", 1)[0], int(e.getLineNumber())))

        @jpype.JOverride
        def fatalError(self, e: Any) -> None:
            self.error(e)

    return jpype, Collect


def _xerces_schema(jpype: Any, xsd: Path, catalog: Path) -> Any:
    factory = jpype.JClass("javax.xml.validation.SchemaFactory").newInstance("http://www.w3.org/2001/XMLSchema")
    features = jpype.JClass("javax.xml.catalog.CatalogFeatures")
    resolve = features.builder().with_(features.Feature.RESOLVE, "continue").build()
    uri = jpype.JClass("java.net.URI").create(catalog.resolve().as_uri())
    factory.setResourceResolver(jpype.JClass("javax.xml.catalog.CatalogManager").catalogResolver(resolve, uri))
    return factory.newSchema(jpype.JClass("java.io.File")(str(xsd)))


KNOWN_GAP = "FA_3_Przyklad_12.m-3.xml"
KNOWN_GAP_REASON = (
    "after a content-model error (a second Naglowek), Xerces validates the following siblings' content too; the XSD "
    "stage does that for named complex types (UBL, CII), not yet for the anonymous ones FA(3) declares inline "
    "(xsd/xerces.py, _continue): Xerces' second error, a misplaced P_12Z three levels down, is missing"
)


@pytest.fixture(scope="module")
def xerces_differences(validator: Validator, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The reference's Xerces on the official examples and 40 seeded mutations, against our XSD stage: per document
    whose (code, line) multisets differ, (Xerces' missing here, ours extra). FA(3) for Xerces: the published schema
    with its bounds of 10,000 and 50,000 occurrences unbounded (as phive does: Xerces refuses them, or builds their
    automaton out of memory); no mutation here comes near them. FatturaPA: the W3C signature schema names
    XMLSchema.dtd in its DOCTYPE, which Xerces would fetch: an empty stand-in."""
    tmp_path = tmp_path_factory.mktemp("xerces")
    jpype, collect = _xerces()
    ksef = tmp_path / "ksef-schema"
    shutil.copytree(RULESETS / "poland-ksef/fa3-1-0E", ksef)
    main_xsd = ksef / "schemat_FA(3)_v1-0E.xsd"
    text = main_xsd.read_text(encoding="utf-8")
    main_xsd.write_text(
        re.sub(r'maxOccurs="(\d+)"', lambda m: 'maxOccurs="unbounded"' if int(m[1]) > 5000 else m[0], text),
        encoding="utf-8",
    )
    (tmp_path / "empty.dtd").write_text("", encoding="utf-8")
    wrap = tmp_path / "fatturapa-catalog.xml"
    wrap.write_text(
        '<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">'
        '<system systemId="http://www.w3.org/2001/XMLSchema.dtd" uri="empty.dtd"/>'
        f'<nextCatalog catalog="{(RULESETS / "italy-fatturapa/1.2.2/catalog.xml").as_uri()}"/></catalog>',
        encoding="utf-8",
    )
    fatturapa_xsd = RULESETS / "italy-fatturapa/1.2.2/Schema_del_file_xml_FatturaPA_v1.2.2.xsd"
    schemas = {
        KSEF: _xerces_schema(jpype, main_xsd, ksef / "catalog.xml"),
        FATTURAPA: _xerces_schema(jpype, fatturapa_xsd, wrap),
    }
    stream, file = jpype.JClass("javax.xml.transform.stream.StreamSource"), jpype.JClass("java.io.File")
    differ: dict[str, Any] = {}
    compared = 0
    for folder, originals in ((KSEF, sorted(KSEF.glob("*.xml"))[:6]), (FATTURAPA, sorted(FATTURAPA.glob("*.xml")))):
        for path in [*originals, *write_mutants(mutant_set(originals, 4), tmp_path / folder.name)]:
            handler = collect()
            check = schemas[folder].newValidator()
            check.setErrorHandler(handler)
            check.validate(stream(file(str(path))))
            theirs = Counter(handler.found)
            ours = Counter((f.rule_id, f.line) for f in validator.validate(path).findings if f.stage == "xsd")
            compared += 1
            if ours != theirs:
                differ[path.name] = (sorted(theirs - ours), sorted(ours - theirs))
    assert compared == 6 + 24 + 7 + 28
    return differ


def test_ksef_and_fatturapa_xsd_codes_are_xerces(xerces_differences: dict[str, Any]) -> None:
    others = dict(xerces_differences)
    gap = others.pop(KNOWN_GAP, None)
    assert gap in (None, ([("cvc-complex-type.2.4.d", 136)], [])), gap  # the known gap as it stands, or none
    assert others == {}


@pytest.mark.xfail(strict=True, reason=KNOWN_GAP_REASON)
def test_after_a_content_error_the_anonymous_types_content_too(xerces_differences: dict[str, Any]) -> None:
    assert KNOWN_GAP not in xerces_differences
