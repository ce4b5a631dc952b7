"""ZUGFeRD 2.5.2 / Factur-X 1.09.2 (issue 14): parity with the reference on the corpus XML per profile, the
profiles and the EN 16931 envelope rule, the "not used" reports, and the code-db restriction (a document cannot
make a stylesheet read anything).

Parity as in ``test_parity.py`` (``tests/reference.py``): the profile, the same packs by content and version, per
pack the same multiset of (rule id, raw flag, location), the same XSD (code, line) multiset. The reference
(``corpus/zugferd/reference.jsonl``, plan-full.tsv, whose XRechnung is 2.5.0 over CEN 1.3.15: compared on
:data:`~tests.conftest.KOSIT_PLAN_DAY`) writes no flag where the Factur-X stylesheets give none: that is our raw flag
``error`` (an assert without flag is an error, SOURCES.md); its id-less "not used" reports are our
``facturx.not-used``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest

from einvoice_validate import InputError, Report, Validator
from einvoice_validate.errors import RulesetError
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.prepare import (
    NOT_USED_ID,
    prepare_pack_dir,
    prepare_stylesheet,
    resource_reads,
)
from tests.conftest import CORPUS, KOSIT_PLAN_DAY
from tests.reference import Row, assert_parity, read_rows

ZUGFERD = CORPUS / "zugferd"


REFERENCE = read_rows(ZUGFERD / "reference.jsonl")
REFERENCE_ZUGFERD_PLAN = read_rows(ZUGFERD / "reference.zugferd-plan.jsonl")
PDFS = sorted(p.relative_to(ZUGFERD).as_posix() for p in ZUGFERD.rglob("*.pdf"))

# The reference's profile names (plan-full.tsv) -> ours (the XRechnung CII profiles all run the same packs).
OUR_PROFILE = {
    "zugferd-minimum": "zugferd-minimum",
    "zugferd-basicwl": "zugferd-basicwl",
    "zugferd-basic": "zugferd-basic",
    "zugferd-en16931": "zugferd-en16931",
    "zugferd-extended": "zugferd-extended",
    "en16931-cii": "en16931-cii",
    "xrechnung-cii": "xrechnung-3.0-cii",
}


def _validate_all(validator: Validator, names: Iterable[str]) -> dict[str, Report | InputError]:
    out: dict[str, Report | InputError] = {}
    for name in names:
        try:
            out[name] = validator.validate(ZUGFERD / name, rules_date=KOSIT_PLAN_DAY)
        except InputError as exc:
            out[name] = exc
    return out


@pytest.fixture(scope="module")
def xml_reports(validator: Validator) -> dict[str, Report | InputError]:
    return _validate_all(validator, REFERENCE)


def assert_facturx_parity(row: Row, report: Report, registry: Registry, plan: str) -> None:
    assert_parity(row, report, registry, plan, profiles=OUR_PROFILE)


def test_reference_is_complete() -> None:
    assert len(REFERENCE) == 79 and len(REFERENCE_ZUGFERD_PLAN) == 79
    assert all((ZUGFERD / name).is_file() for name in REFERENCE)


# Files where we differ from the reference, with the reason (strict: a fixed difference shows up).
KNOWN_DIFFERENCES = {
    "mustang-validator/invalidV2Root.xml": (
        "the root element is {CII namespace}myinvoice: we refuse it (document.unsupported-type, reason root) as for "
        "every syntax; the reference's plan picks the profile by namespace and reports XSD and Schematron findings"
    ),
}


# AFNOR's multi-vendor examples UC10 and UC11 in Factur-X form: French invoices (BT-23 S8, addresses in scheme
# 0225), so they get the French rules (EXTENDED-CTC-FR, issue 31; tests/test_france.py); the reference's plan-full has
# no French profile and runs Factur-X EXTENDED. Here that profile is chosen explicitly, as a caller can.
FRENCH = {
    "mustang-library/cii/UC11_F202600022_EXTENDED_FX_CII_BT-X-589Only_on_GROUP_Line.xml",
    "mustang-validator/UC10_F202600004_EXTENDED_FX_CII_Commentee.xml",
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[n]))
        if n in KNOWN_DIFFERENCES
        else n
        for n in sorted(REFERENCE)
    ],
)
def test_xml_parity(
    name: str, xml_reports: dict[str, Report | InputError], registry: Registry, validator: Validator
) -> None:
    row = REFERENCE[name]
    result = xml_reports[name]
    if name in FRENCH:
        assert isinstance(result, Report) and result.profile == "fr-extended-ctc-cii"
        result = validator.validate(ZUGFERD / name, profile="zugferd-extended", rules_date=KOSIT_PLAN_DAY)
    if row.get("profile") is None:  # ZUGFeRD 1.0 (CrossIndustryDocument): the reference has no scenario either
        assert isinstance(result, InputError)
        assert (result.code, result.reason) == ("document.unsupported-type", "zugferd-1")
        return
    assert isinstance(result, Report), result
    assert_facturx_parity(row, result, registry, "plan-full.tsv")


FACTURX_EN16931 = sorted(n for n, row in REFERENCE_ZUGFERD_PLAN.items() if row.get("profile") == "zugferd-en16931")


@pytest.mark.parametrize("name", FACTURX_EN16931)
def test_xml_parity_factur_x_en16931(name: str, validator: Validator, registry: Registry) -> None:
    """The Factur-X EN16931 profile on every XML the reference's plan-zugferd.tsv run sends there (for bare XML we
    choose plain EN 16931, so the profile is forced here, as it is chosen for a PDF)."""
    report = validator.validate(ZUGFERD / name, profile="zugferd-en16931")
    assert_facturx_parity(REFERENCE_ZUGFERD_PLAN[name], report, registry, "plan-zugferd.tsv")


def test_every_profile_is_covered(xml_reports: dict[str, Report | InputError]) -> None:
    profiles = Counter(r.profile for r in xml_reports.values() if isinstance(r, Report))
    for name in ("zugferd-minimum", "zugferd-basicwl", "zugferd-basic", "zugferd-extended", "en16931-cii"):
        assert profiles[name] >= 1, name


def test_not_used_reports_get_the_pack_id_and_info(xml_reports: dict[str, Report | InputError]) -> None:
    report = xml_reports["mustang-library/cii/facturFrMinimum.xml"]
    assert isinstance(report, Report) and report.valid
    not_used = [f for f in report.findings if f.rule_id == NOT_USED_ID]
    assert len(not_used) == 5
    assert {(f.severity.value, f.flag, f.source) for f in not_used} == {("INFO", "error", "zugferd-minimum@2.5.2")}
    assert all("not used" in f.message.en and "nicht verwendet" in f.message.de for f in not_used)
    assert all("PostalTradeAddress" in f.message.de for f in not_used[:1])


# --- PDFs of the corpus ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pdf_reports(validator: Validator) -> dict[str, Report | InputError]:
    return _validate_all(validator, PDFS)


def _extracted(name: str) -> Path:
    folder, _, file = name.rpartition("/")
    return ZUGFERD / folder / "extracted" / f"{file}.xml"


def _key(report: Report) -> Counter[tuple[str, str, str | None, str]]:
    return Counter(
        (f.rule_id, f.flag, f.location, f.source) for f in report.findings if not f.rule_id.startswith("facturx.pdf.")
    )


@pytest.mark.parametrize("name", PDFS)
def test_pdf_gives_the_findings_of_its_xml(
    name: str, pdf_reports: dict[str, Report | InputError], validator: Validator, registry: Registry
) -> None:
    result = pdf_reports[name]
    extracted = _extracted(name)
    if name.endswith("zugferd_invoice.pdf"):  # ZUGFeRD 1.0
        assert isinstance(result, InputError) and result.reason == "zugferd-1"
        return
    if not extracted.is_file():
        # corruptedV2PDF.pdf: pypdf (which wrote extracted/) found no XML; qpdf repairs the file and finds it
        assert isinstance(result, Report) and result.pdf is not None and result.pdf.attachment == "factur-x.xml"
        return
    assert isinstance(result, Report), result
    assert result.envelope == "pdf" and result.pdf is not None
    assert not result.pdf.pdfa_checked
    same = validator.validate(extracted, profile=None if result.profile.startswith("en16931-") else result.profile)
    assert _key(result) == _key(same)
    # The PDF's EN 16931 invoices run the Factur-X EN16931 profile: the reference's plan-zugferd.tsv run.
    if result.profile == "zugferd-en16931":
        row = REFERENCE_ZUGFERD_PLAN[extracted.relative_to(ZUGFERD).as_posix()]
        assert_facturx_parity(row, result, registry, "plan-zugferd.tsv")


def test_en16931_id_is_decided_by_the_envelope(
    pdf_reports: dict[str, Report | InputError], validator: Validator
) -> None:
    name = "mustang-validator/Facture_F20180027.pdf"
    pdf = pdf_reports[name]
    assert isinstance(pdf, Report) and pdf.spec_id == "urn:cen.eu:en16931:2017"
    assert pdf.profile == "zugferd-en16931"
    assert validator.validate(_extracted(name)).profile == "en16931-cii"


def test_pdf_envelope_is_reported(pdf_reports: dict[str, Report | InputError]) -> None:
    report = pdf_reports["mustang-validator/attributeBasedXMP_zugferd_2p0_EN16931_Einfach.pdf"]
    assert isinstance(report, Report) and report.pdf is not None
    body = report.model_dump(mode="json", by_alias=True)
    assert body["envelope"] == "pdf"
    assert body["pdf"] == {
        "attachment": "zugferd-invoice.xml",
        "relationship": "Alternative",
        "conformanceLevel": "EN 16931",
        "documentFileName": "zugferd-invoice.xml",
        "documentType": "INVOICE",
        "version": "1.0",
        "pdfa": "3B",
        "pdfaChecked": False,
    }
    assert not [f for f in report.findings if f.rule_id.startswith("facturx.pdf.")]
    pdfa4 = pdf_reports["mustang-library/EXTENDED_Fremdwaehrung_wdis_fx-pdfa4.pdf"]
    assert isinstance(pdfa4, Report)
    [warning] = [f for f in pdfa4.findings if f.rule_id.startswith("facturx.pdf.")]
    assert (warning.rule_id, warning.severity.value) == ("facturx.pdf.pdfa", "WARNING")
    assert "PDF/A-4" in warning.message.en and "PDF/A-4" in warning.message.de


def test_xml_reports_carry_no_pdf_member(xml_reports: dict[str, Report | InputError]) -> None:
    report = xml_reports["ferd-examples/minimum/factur-x-1.xml"]
    assert isinstance(report, Report)
    assert "pdf" not in report.model_dump(mode="json", by_alias=True)


# --- the code db: nothing is read at run time ------------------------------------------------------------------

XSL = "http://www.w3.org/1999/XSL/Transform"
CII = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
SVRL = "http://purl.oclc.org/dsdl/svrl"


def _sheet(test: str) -> bytes:
    return f"""<xsl:stylesheet version="2.0" xmlns:xsl="{XSL}" xmlns:svrl="{SVRL}">
  <xsl:template match="/">
    <svrl:schematron-output><xsl:apply-templates select="/*" mode="M1"/></svrl:schematron-output>
  </xsl:template>
  <xsl:template match="/*" mode="M1">
    <xsl:choose><xsl:when test="{test}"/><xsl:otherwise>
      <svrl:failed-assert test="x" id="T-1">
        <xsl:attribute name="location">/x</xsl:attribute><svrl:text>code not allowed</svrl:text>
      </svrl:failed-assert>
    </xsl:otherwise></xsl:choose>
  </xsl:template>
</xsl:stylesheet>""".encode()


CODE_DB = b'<?xml version="1.0"?><codedb><cl id="1"><enumeration value="A{1}"/><enumeration value="B"/></cl></codedb>'


def _pack(tmp_path: Path, test: str, extra: dict[str, bytes] | None = None) -> tuple[Path, dict[str, str]]:
    files = {"xslt/sheet.xslt": _sheet(test), "xslt/codes.xml": CODE_DB, **(extra or {})}
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    return tmp_path, dict.fromkeys(files, "")


LOOKUP = "document('codes.xml')/codedb/cl[@id=1]/enumeration[@value=current()/@code]"


def test_code_db_is_inlined_and_read_from_the_stylesheet_only(tmp_path: Path) -> None:
    from einvoice_validate.parse import load
    from einvoice_validate.schematron.engines import get_engine
    from einvoice_validate.schematron.svrl import parse_svrl

    pack_dir, files = _pack(tmp_path, LOOKUP)
    index = prepare_pack_dir(pack_dir, {"stylesheet": "xslt/sheet.xslt"}, "test@1", files)
    prepared = pack_dir / index.entries["stylesheet"].path
    text = prepared.read_text(encoding="utf-8")
    assert "document(" not in text and "einvoice-validate-code-db-1" in text
    assert 'static="yes"' in text and "parse-xml(" in text
    (pack_dir / "xslt" / "codes.xml").unlink()  # nothing reads the code db any more
    engine = get_engine()
    sheet = engine.compile(prepared, index.entries["stylesheet"].sha256)

    def ids(code: str) -> list[str | None]:
        doc = load(f'<CrossIndustryInvoice code="{code}" xmlns="{CII}"/>'.encode())
        events = parse_svrl(sheet.run(engine.load(doc, slim_attachments=False)))
        return [e.id for e in events]

    assert ids("B") == [] and ids("A{1}") == [] and ids("C") == ["T-1"]


@pytest.mark.parametrize(
    "test",
    [
        "document(string(/*/@href))",  # the document names what to read
        "document('../../outside.xml')",
        "document('https://example.org/codes.xml')",
        "document('missing.xml')",
        "doc('codes.xml')",
        "unparsed-text('/etc/passwd')",
        "collection('.')",
        "doc-available('codes.xml')",
    ],
)
def test_a_stylesheet_reading_anything_else_is_refused_at_install(tmp_path: Path, test: str) -> None:
    pack_dir, files = _pack(tmp_path, test)
    with pytest.raises(RulesetError) as info:
        prepare_pack_dir(pack_dir, {"stylesheet": "xslt/sheet.xslt"}, "test@1", files)
    assert info.value.code == "ruleset.install-failed"
    assert not (pack_dir / "prepared.json").exists()


def test_only_files_of_the_pack_are_inlined(tmp_path: Path) -> None:
    pack_dir, files = _pack(tmp_path, LOOKUP)
    del files["xslt/codes.xml"]  # on disk, but not a file of the manifest (not checksummed): never read
    with pytest.raises(RulesetError, match="names no file of the pack"):
        prepare_pack_dir(pack_dir, {"stylesheet": "xslt/sheet.xslt"}, "test@1", files)


def test_no_installed_stylesheet_reads_anything(registry: Registry) -> None:
    from lxml import etree

    for pack in registry.installed():
        if pack.manifest.kind == "schematron":
            root = etree.parse(str(pack.prepared_stylesheet())).getroot()
            assert resource_reads(root) == [], pack.key
    official = registry.get("zugferd-en16931@2.5.2").entry("stylesheet")
    assert len(resource_reads(etree.parse(str(official)).getroot())) == 118, "the official file calls document()"


def test_without_the_code_db_the_step_refuses(registry: Registry) -> None:
    data = registry.get("zugferd-minimum@2.5.2").entry("stylesheet").read_bytes()
    from einvoice_validate.rulesets.prepare import PreparationError

    with pytest.raises(PreparationError, match="names no file of the pack"):
        prepare_stylesheet(data)


def test_the_java_engine_refuses_run_time_reads(tmp_path: Path) -> None:
    """Defence in depth (engine saxon-java): even a stylesheet that bypassed the install check cannot read a file
    a document names."""
    from einvoice_validate.parse import load
    from einvoice_validate.schematron.engines import StylesheetRuntimeError, get_engine
    from einvoice_validate.schematron.svrl import parse_svrl

    secret = tmp_path / "secret.xml"
    secret.write_bytes(b"<secret>s3cr3t</secret>")
    sheet_path = tmp_path / "reader.xslt"
    # The assertion fails (T-1) exactly when the secret was read.
    sheet_path.write_bytes(_sheet("not(string(document(string(/*/@href))) = 's3cr3t')"))
    engine = get_engine("saxon-java")
    sheet = engine.compile(sheet_path, "")
    doc = load(f'<CrossIndustryInvoice href="{secret.as_uri()}" xmlns="{CII}"/>'.encode())
    try:
        output = sheet.run(engine.load(doc, slim_attachments=False))
    except StylesheetRuntimeError as exc:
        assert "may read no document" in exc.message
    else:
        assert "T-1" not in [e.id for e in parse_svrl(output)], "the stylesheet read the file the document named"
    # Control: SaxonC (file: allowed) does read it, so the check above can see a read. That is why the install
    # refuses every stylesheet that reads at run time (test_a_stylesheet_reading_anything_else_is_refused_at_install).
    saxonc = get_engine("saxonc")
    output = saxonc.compile(sheet_path, "").run(saxonc.load(doc, slim_attachments=False))
    assert "T-1" in [e.id for e in parse_svrl(output)]


def test_the_saxonc_engine_never_reaches_the_network(tmp_path: Path) -> None:
    """Defence in depth (engine saxonc): only file: URIs; an http(s) document() is refused with a runtime error."""
    from einvoice_validate.parse import load
    from einvoice_validate.schematron.engines import StylesheetRuntimeError, get_engine
    from einvoice_validate.schematron.svrl import parse_svrl

    sheet_path = tmp_path / "fetcher.xslt"
    sheet_path.write_bytes(_sheet("exists(document(string(/*/@href)))"))
    engine = get_engine("saxonc")
    sheet = engine.compile(sheet_path, "")
    doc = load(f'<CrossIndustryInvoice href="http://127.0.0.1:9/x.xml" xmlns="{CII}"/>'.encode())
    try:
        events = parse_svrl(sheet.run(engine.load(doc, slim_attachments=False)))
    except StylesheetRuntimeError as exc:
        assert "prohibited" in exc.message
    else:
        assert [e.kind for e in events] == ["runtime-error"] and "prohibited" in events[0].text
