"""The official EN 16931 rule unit tests, run against the CEN Schematron 1.3.16 and 1.3.15.

One pytest test per ``<test>`` of ``corpus/en16931-tests/{Invoice-unit-UBL,CreditNote-unit-UBL,cii}`` and per
CEN version. Each embedded fragment is run through the CEN Schematron of its syntax only (no XSD: the fragments
are not schema-valid). ``<error>`` means the rule fires with flag ``fatal``, ``<warning>`` that it fires with
flag ``warning``, ``<success>`` that it does not fire at all; no case may stop the stylesheet with a runtime
error. The corpus README states that both versions satisfy all 1,142 expectations.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from einvoice_validate.findings import Finding
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron import RUNTIME_ERROR, SchematronStage
from einvoice_validate.schematron.engines import get_engine
from tests.conftest import CORPUS
from tests.suites import UNIT_FOLDERS, UnitCase, UnitSuiteError, cases_in_file, load_unit_cases

UNIT_TESTS = CORPUS / "en16931-tests"
VERSIONS: tuple[str, ...] = ("1.3.16", "1.3.15")

# Counts stated by the corpus README (and checked here so that a broken loader cannot pass silently).
EXPECTED_TESTS = 1140
EXPECTED_EXPECTATIONS = 1142
EXPECTED_FILES = {"Invoice-unit-UBL": 206, "CreditNote-unit-UBL": 71, "cii": 2}

# "<version>-<case id>" → reason, for expectations a CEN release genuinely does not meet (strict xfail).
# Empty: both releases satisfy every expectation, as the corpus README says.
KNOWN_FAILURES: dict[str, str] = {}

# The flag a rule must fire with, per expectation kind ("success" means: does not fire).
_FLAG_OF_KIND = {"error": "fatal", "warning": "warning"}

CASES: list[UnitCase] = load_unit_cases(UNIT_TESTS) if UNIT_TESTS.is_dir() else []


def _params() -> list[object]:
    params: list[object] = []
    for version in VERSIONS:
        for case in CASES:
            test_id = f"{version}-{case.id}"
            reason = KNOWN_FAILURES.get(test_id)
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(version, case, id=test_id, marks=marks))
    return params


@pytest.fixture(scope="module")
def cen_stages(registry: Registry) -> dict[tuple[str, str], SchematronStage]:
    """The CEN Schematron per (version, syntax), compiled once for the module, without severity overrides."""
    return {
        (version, syntax): SchematronStage(registry.get(f"en16931-{syntax}@{version}"), {})
        for version in VERSIONS
        for syntax in ("ubl", "cii")
    }


def _describe(findings: list[Finding]) -> str:
    if not findings:
        return "no findings"
    return "; ".join(f"{f.rule_id} ({f.flag}) at {f.location}" for f in findings)


@pytest.mark.corpus
@pytest.mark.parametrize(("version", "case"), _params())
def test_unit(version: str, case: UnitCase, cen_stages: dict[tuple[str, str], SchematronStage]) -> None:
    stage = cen_stages[(version, case.syntax)]
    findings = stage.run(get_engine().parse_text(case.xml))

    runtime = [f for f in findings if f.rule_id == RUNTIME_ERROR]
    assert not runtime, f"{stage.source} stopped with a runtime error: {runtime[0].message.en}"
    assert all(f.source == stage.source for f in findings)

    problems: list[str] = []
    for kind, rule_id in case.expectations:
        fired = [f for f in findings if f.rule_id == rule_id]
        flags = {f.flag for f in fired}
        if kind == "success":
            if fired:
                problems.append(f"{rule_id} must not fire, but it did: {_describe(fired)}")
        elif flags != {_FLAG_OF_KIND[kind]}:
            problems.append(
                f"{rule_id} must fire with flag {_FLAG_OF_KIND[kind]}, got: {_describe(fired)}"
                f" (all findings: {_describe(findings)})"
            )
    assert not problems, f"{case.id} ({case.description}) with {stage.source}:\n" + "\n".join(problems)


@pytest.mark.corpus
def test_loader_finds_every_test(shared: Path) -> None:
    assert CASES, f"no unit tests found under {UNIT_TESTS}"
    files = Counter(case.id.split("/", 1)[0] for case in {c.path: c for c in CASES}.values())
    assert dict(files) == EXPECTED_FILES
    assert len(CASES) == EXPECTED_TESTS
    assert sum(len(c.expectations) for c in CASES) == EXPECTED_EXPECTATIONS
    kinds = Counter(kind for c in CASES for kind, _ in c.expectations)
    assert kinds == {"error": 572, "success": 568, "warning": 2}
    assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"
    # Every case runs once per CEN version.
    assert len(_params()) == len(VERSIONS) * EXPECTED_TESTS


@pytest.mark.corpus
def test_loader_cases_are_standalone_documents(shared: Path) -> None:
    roots: Counter[tuple[str, str]] = Counter()
    for case in CASES:
        root = etree.fromstring(case.xml.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True))
        roots[(case.syntax, etree.QName(root).localname)] += 1
        assert case.id.rsplit("::", 1)[0].split("/", 1)[0] in UNIT_FOLDERS
    assert roots == {("ubl", "Invoice"): 915, ("ubl", "CreditNote"): 216, ("cii", "CrossIndustryInvoice"): 9}


@pytest.mark.corpus
def test_loader_reads_a_known_file(shared: Path) -> None:
    cases = cases_in_file(UNIT_TESTS / "Invoice-unit-UBL" / "BR-01.xml", "Invoice-unit-UBL")
    assert [c.id for c in cases] == ["Invoice-unit-UBL/BR-01.xml::1", "Invoice-unit-UBL/BR-01.xml::2"]
    assert [c.expectations for c in cases] == [(("success", "BR-01"),), (("error", "BR-01"),)]
    assert all(c.syntax == "ubl" for c in cases)
    customization = "{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}CustomizationID"
    first, second = (etree.fromstring(c.xml.encode("utf-8")) for c in cases)
    assert first.findtext(customization) == "123"
    assert second.find(customization) is None
    # The rule removed in 1.3.16 is only tested for "success" (README).
    removed = [c for c in CASES if c.id.startswith("CreditNote-unit-UBL/BR-CO-25.xml::")]
    assert removed
    assert all(kind == "success" for c in removed for kind, _ in c.expectations)


def test_loader_keeps_inherited_namespace_declarations(tmp_path: Path) -> None:
    path = tmp_path / "T.xml"
    path.write_text(
        """<?xml version="1.0"?>
<testSet xmlns="http://difi.no/xsd/vefa/validator/1.0" xmlns:x="urn:example:x" configuration="tc434-cii">
  <test>
    <assert><description>d</description><warning>R-1</warning><success>R-2</success></assert>
    <rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">
      <rsm:Note a="x:value">text</rsm:Note>
    </rsm:CrossIndustryInvoice>
  </test>
</testSet>""",
        encoding="utf-8",
    )
    (case,) = cases_in_file(path, "tmp")
    assert case.id == "tmp/T.xml::1"
    assert case.syntax == "cii"
    assert case.expectations == (("warning", "R-1"), ("success", "R-2"))
    assert case.description == "d"
    root = etree.fromstring(case.xml.encode("utf-8"))
    assert root.nsmap.get("x") == "urn:example:x", "a declaration inherited from the testSet must be kept"
    assert root.nsmap.get("rsm") == "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"


def test_loader_refuses_entities(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET", encoding="utf-8")
    path = tmp_path / "T.xml"
    path.write_text(
        f"""<?xml version="1.0"?>
<!DOCTYPE testSet [<!ENTITY ext SYSTEM "{secret.as_uri()}">]>
<testSet xmlns="http://difi.no/xsd/vefa/validator/1.0" configuration="tc434-ubl">
  <test><assert><error>BR-01</error></assert>
    <Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&ext;</Invoice></test>
</testSet>""",
        encoding="utf-8",
    )
    with pytest.raises(UnitSuiteError, match="DOCTYPE"):
        cases_in_file(path, "tmp")


def test_loader_rejects_a_configuration_that_contradicts_the_fragment(tmp_path: Path) -> None:
    path = tmp_path / "T.xml"
    path.write_text(
        """<testSet xmlns="http://difi.no/xsd/vefa/validator/1.0" configuration="tc434-cii">
  <test><assert><error>BR-01</error></assert>
    <Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/></test>
</testSet>""",
        encoding="utf-8",
    )
    with pytest.raises(UnitSuiteError, match="configuration"):
        cases_in_file(path, "tmp")
