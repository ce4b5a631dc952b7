"""The public test invoices of the shared corpus through the full pipeline (hardened parse, XSD, Schematron).

One test per file, with the expectation the corpus README states for its folder:

* ``xrechnung-testsuite``: accepted by an XRechnung profile (the KoSIT verdict, after ``customLevel``).
* ``en16931-examples/{ubl,cii}`` and ``en16931-tests/testfiles``: valid, with no XSD or Schematron finding at
  all ("no failed assertion"), also with CEN 1.3.15.
* ``cius-ro``: the phive test files valid with the CIUS-RO profile (except ``ubl_b2g_example6.xml``: BR-S-08),
  the ANAF UBL examples invalid (BR-RO-001), the ANAF CII examples checked with EN 16931 only.

The file counts per folder are checked against the README table, so an empty or wrong glob cannot pass.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from einvoice_validate import Report, Validator
from einvoice_validate.findings import Finding, Severity
from einvoice_validate.parse import load
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron import RUNTIME_ERROR, SchematronStage
from einvoice_validate.schematron.engines import get_engine
from tests.conftest import CORPUS, KOSIT_PLAN_DAY, SUMMER_2026

pytestmark = pytest.mark.corpus

XRECHNUNG_FOLDERS = (
    "xrechnung-testsuite/business-cases/standard",
    "xrechnung-testsuite/business-cases/extension",
    "xrechnung-testsuite/technical-cases/cius",
    "xrechnung-testsuite/technical-cases/cvd",
)
EN16931_FOLDERS = ("en16931-examples/ubl", "en16931-examples/cii", "en16931-tests/testfiles")
RO_PHIVE = "cius-ro/ubl-phive-testfiles"
RO_ANAF_UBL = "cius-ro/ubl-anaf-examples"
RO_ANAF_CII = "cius-ro/cii-anaf-examples"

# The README table: files per folder.
README_COUNTS: dict[str, int] = {
    "xrechnung-testsuite/business-cases/standard": 66,
    "xrechnung-testsuite/business-cases/extension": 6,
    "xrechnung-testsuite/technical-cases/cius": 12,
    "xrechnung-testsuite/technical-cases/cvd": 2,
    "en16931-examples/ubl": 17,
    "en16931-examples/cii": 15,
    "en16931-tests/testfiles": 29,
    RO_PHIVE: 11,
    RO_ANAF_UBL: 2,
    RO_ANAF_CII: 10,
}
# Files the README table does not count: upstream ``ubl/examples`` also holds two Peppol BIS invoices with an
# upper-case ``.XML`` suffix. They are valid as well and are tested with the others.
UNCOUNTED: dict[str, frozenset[str]] = {
    "en16931-examples/ubl": frozenset({"BIS3_Invoice_negativ.XML", "BIS3_Invoice_positive.XML"}),
}

# XRechnung files that raise CEN fatals which their KoSIT scenario downgrades (README): raw fatal rule ids.
DOWNGRADED_FATALS: dict[str, frozenset[str]] = {
    "xrechnung-testsuite/business-cases/extension/04.05a-INVOICE_uncefact.xml": frozenset({"BR-CL-10", "BR-CL-21"}),
    "xrechnung-testsuite/business-cases/extension/05.01a-INVOICE_ubl.xml": frozenset({"BR-CO-16"}),
    "xrechnung-testsuite/technical-cases/cvd/02.01a-cvd_INVOICE_ubl.xml": frozenset({"BR-CL-13"}),
    "xrechnung-testsuite/technical-cases/cvd/02.01a-cvd_INVOICE_uncefact.xml": frozenset({"BR-CL-13"}),
}

RO_PHIVE_INVALID = {"ubl_b2g_example6.xml": "BR-S-08"}
# ANAF CII examples, EN 16931 (CEN 1.3.16) only: the exact non-INFO rule ids. CII-SR-461 and CII-SR-470 are
# flagged fatal in CEN 1.3.16 (unlike most CII-SR-* rules, which are warnings), so they are ERRORs here.
RO_ANAF_CII_FINDINGS: dict[str, frozenset[str]] = {
    "CII_example0.xml": frozenset({"BR-50", "CII-SR-461", "CII-SR-470"}),
    "CII_example10.xml": frozenset({"CII-SR-461", "CII-SR-470"}),
}


def _files(folder: str) -> list[Path]:
    """The XML files of a corpus folder (``.xml`` in any case), sorted by name."""
    directory = CORPUS / folder
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.is_file() and p.suffix.lower() == ".xml")


def _params(*folders: str) -> list[object]:
    return [pytest.param(path, id=path.relative_to(CORPUS).as_posix()) for f in folders for path in _files(f)]


def _rel(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


def _show(findings: tuple[Finding, ...] | list[Finding]) -> str:
    if not findings:
        return "  (none)"
    return "\n".join(
        f"  {f.severity.value} {f.rule_id} [{f.flag}, {f.stage}, {f.source}] at {f.location}: {f.message.en}"
        for f in findings
    )


def _ids(report: Report, *severities: Severity) -> set[str]:
    return {f.rule_id for f in report.findings if f.severity in severities}


# --- the folders are complete ---------------------------------------------------------------------------------


def test_file_counts_match_the_readme(shared: Path) -> None:
    found = {folder: len(_files(folder)) for folder in README_COUNTS}
    expected = {folder: n + len(UNCOUNTED.get(folder, ())) for folder, n in README_COUNTS.items()}
    assert found == expected
    for folder, names in UNCOUNTED.items():
        assert names <= {p.name for p in _files(folder)}
    collected = (
        len(_params(*XRECHNUNG_FOLDERS)),
        len(_params(*EN16931_FOLDERS)),
        len(_params(RO_PHIVE)),
        len(_params(RO_ANAF_UBL)),
        len(_params(RO_ANAF_CII)),
    )
    assert collected == (66 + 6 + 12 + 2, 17 + 2 + 15 + 29, 11, 2, 10)
    assert all((CORPUS / rel).is_file() for rel in DOWNGRADED_FATALS)
    assert all((CORPUS / RO_PHIVE / name).is_file() for name in RO_PHIVE_INVALID)
    assert all((CORPUS / RO_ANAF_CII / name).is_file() for name in RO_ANAF_CII_FINDINGS)


# --- XRechnung -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("day", [KOSIT_PLAN_DAY, SUMMER_2026], ids=["2.5.0", "2.6.0"])
@pytest.mark.parametrize("path", _params(*XRECHNUNG_FOLDERS))
def test_xrechnung_accepted(path: Path, day: date, validator: Validator) -> None:
    """Accepted under both XRechnung editions: 2.5.0 over CEN 1.3.15, and from 2026-08-31 2.6.0 over CEN 1.3.16
    (with the scenarios of configuration 2026-01-31: the 2026-08-31 one is not installed, issue 30)."""
    report = validator.validate(path, rules_date=day)
    xrechnung = {f"xrechnung-{report.syntax}@{'2.5.0' if day == KOSIT_PLAN_DAY else '2.6.0'}"}
    assert {p for p in report.packs if p.startswith("xrechnung-")} == xrechnung
    assert report.profile.startswith("xrechnung-"), f"{_rel(path)} got the profile {report.profile}"
    assert report.accepted is True, f"{_rel(path)} not accepted by {report.profile}; errors:\n{_show(report.errors)}"
    assert not any(f.rule_id == RUNTIME_ERROR for f in report.findings), _show(report.findings)
    assert report.valid is True


@pytest.mark.parametrize("day", [KOSIT_PLAN_DAY, SUMMER_2026], ids=["2.5.0", "2.6.0"])
@pytest.mark.parametrize("rel", sorted(DOWNGRADED_FATALS))
def test_xrechnung_downgraded_fatals(rel: str, day: date, validator: Validator) -> None:
    """The customLevel overrides are what makes these files accepted: the CEN fatals do fire (CEN 1.3.15 and
    1.3.16 alike)."""
    report = validator.validate(CORPUS / rel, rules_date=day)
    fatal = [f for f in report.findings if f.flag == "fatal"]
    assert {f.rule_id for f in fatal} == DOWNGRADED_FATALS[rel], _show(report.findings)
    assert all(f.severity is not Severity.ERROR for f in fatal), _show(fatal)
    assert report.accepted is True


# --- EN 16931 examples and test files ------------------------------------------------------------------------


@pytest.mark.parametrize("path", _params(*EN16931_FOLDERS))
def test_en16931_valid(path: Path, validator: Validator) -> None:
    report = validator.validate(path)
    if report.profile.startswith("peppol-bis-"):
        # A Peppol BIS document among the CEN files (issue 15: routed to Peppol, as the reference's plan-full does).
        # Peppol's copy of the CEN rules finds nothing, as CEN's; the Peppol rules of 2026.5 may (these files are
        # older); the EN 16931 profile, forced, is what the README's "valid" is about.
        cen_copy = [f for f in report.findings if f.source.startswith("peppol-bis-cen-ubl@") and f.stage != "input"]
        assert not cen_copy, f"{_rel(path)} with Peppol's CEN copy:\n{_show(cen_copy)}"
        forced = {"ubl-invoice": "en16931-ubl-invoice", "ubl-creditnote": "en16931-ubl-creditnote"}
        report = validator.validate(path, profile=forced[report.document_type])
    assert report.valid is True, f"{_rel(path)} invalid with {report.profile}; errors:\n{_show(report.errors)}"
    assert report.profile.startswith("en16931-"), f"{_rel(path)} got the profile {report.profile}"
    # README: XSD-valid and no failed assertion (only the input stage's INFO note may remain).
    checked = [f for f in report.findings if f.stage != "input"]
    assert not checked, f"{_rel(path)} with {report.profile}:\n{_show(checked)}"


@pytest.fixture(scope="module")
def cen_1_3_15(registry: Registry) -> dict[str, SchematronStage]:
    return {syntax: SchematronStage(registry.get(f"en16931-{syntax}@1.3.15"), {}) for syntax in ("ubl", "cii")}


@pytest.mark.parametrize("path", _params(*EN16931_FOLDERS))
def test_en16931_valid_with_cen_1_3_15(path: Path, cen_1_3_15: dict[str, SchematronStage]) -> None:
    document = load(path)
    findings = cen_1_3_15[document.syntax].run(get_engine().parse_text(document.text()))
    assert not findings, f"{_rel(path)} with CEN 1.3.15:\n{_show(findings)}"


# --- CIUS-RO ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", _params(RO_PHIVE))
def test_cius_ro_phive(path: Path, validator: Validator) -> None:
    report = validator.validate(path)
    assert report.profile.startswith("cius-ro-ubl-"), f"{_rel(path)} got the profile {report.profile}"
    # The ANAF pack carries its own CEN copy; current CEN must not run on top of it (README: UBL-SR-53).
    assert report.packs == ("ubl-2.1@2.1", "cius-ro-ubl@1.0.9")
    expected_error = RO_PHIVE_INVALID.get(path.name)
    if expected_error is None:
        assert report.valid is True, f"{_rel(path)} invalid; errors:\n{_show(report.errors)}"
    else:
        assert report.valid is False
        assert expected_error in _ids(report, Severity.ERROR), _show(report.findings)
    assert not any(f.rule_id == RUNTIME_ERROR for f in report.findings), _show(report.findings)


@pytest.mark.parametrize("path", _params(RO_ANAF_UBL))
def test_cius_ro_anaf_ubl_invalid(path: Path, validator: Validator) -> None:
    report = validator.validate(path)
    assert report.profile.startswith("cius-ro-ubl-"), f"{_rel(path)} got the profile {report.profile}"
    assert report.valid is False
    assert "BR-RO-001" in _ids(report, Severity.ERROR), _show(report.findings)


@pytest.mark.parametrize("path", _params(RO_ANAF_CII))
def test_cius_ro_anaf_cii(path: Path, validator: Validator) -> None:
    report = validator.validate(path)
    assert report.profile == "en16931-cii", f"{_rel(path)} got the profile {report.profile}"
    expected = RO_ANAF_CII_FINDINGS.get(path.name, frozenset())
    listing = f"{_rel(path)}:\n{_show(report.findings)}"
    assert _ids(report, Severity.ERROR, Severity.WARNING) == expected, listing
    assert _ids(report, Severity.ERROR) == expected, listing
    assert report.valid is (not expected)
