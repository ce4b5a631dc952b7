"""Peppol BIS Billing 3.0 (release 2026.5, issue 15): routing, parity with the reference, and the unit-test sets.

* ``corpus/peppol-bis/reference.jsonl``: the reference (``plan-full.tsv``) on the 15 example documents; ours must
  pick the matching profile, run the same packs and give the same places (``tests/reference.py``: per pack the
  (rule id, flag, location) multiset, the XSD (code, line) multiset).
* ``corpus/peppol-bis/unit-*``: the OpenPeppol unit-test sets (VEFA format, as the EN 16931 unit tests). UBL: each
  fragment through Peppol's CEN copy then the Peppol rules (no XSD: fragments are not schema-valid), as the
  reference ran them (``unit-tests.reference.jsonl``): the expectation holds, and the fired rules and flags are the
  reference's. CII: no compiled Peppol CII stylesheet exists (SOURCES.md); the reference did not run them either
  (``not-run``), and a Peppol CII document is validated against EN 16931 CII with the INFO note saying so.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from einvoice_validate import Report, Validator
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron import RUNTIME_ERROR, SchematronStage
from einvoice_validate.schematron.engines import get_engine
from einvoice_validate.validator import GENERIC_PROFILE_NOTE
from tests.conftest import CORPUS
from tests.reference import assert_parity
from tests.suites import UnitCase, load_unit_cases

PEPPOL = CORPUS / "peppol-bis"
UBL_FOLDERS = tuple(f"unit-UBL-{c}" for c in ("DE", "DK", "GR", "IT", "NL", "NO", "PEPPOL", "SE"))
CII_FOLDERS = tuple(f"unit-CII-{c}" for c in ("DK", "IT", "NL", "NO", "PEPPOL", "SE"))
PACKS = ("peppol-bis-cen-ubl@2026.5", "peppol-bis-ubl@2026.5")

# The reference's profile names (plan-full.tsv) → ours.
PROFILES = {
    "peppol-bis": "peppol-bis-3.0-ubl-invoice",
    "peppol-bis-cn": "peppol-bis-3.0-ubl-creditnote",
    "peppol-bis-selfbilling": "peppol-bis-3.0-selfbilling-ubl-invoice",
    "peppol-bis-selfbilling-cn": "peppol-bis-3.0-selfbilling-ubl-creditnote",
}


def _rows(name: str) -> list[dict[str, Any]]:
    path = PEPPOL / name
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


REFERENCE = {row["file"]: row for row in _rows("reference.jsonl")}
UNIT_REFERENCE = {f"{row['file']}::{row['test']}": row for row in _rows("unit-tests.reference.jsonl")}
UBL_CASES: list[UnitCase] = load_unit_cases(PEPPOL, UBL_FOLDERS) if PEPPOL.is_dir() else []
CII_CASES: list[UnitCase] = load_unit_cases(PEPPOL, CII_FOLDERS) if PEPPOL.is_dir() else []


@pytest.fixture(scope="module")
def reports(validator: Validator) -> dict[str, Report]:
    return {name: validator.validate(PEPPOL / name) for name in REFERENCE}


@pytest.mark.corpus
def test_reference_is_complete(shared: Path) -> None:
    assert len(REFERENCE) == 15
    assert len(UNIT_REFERENCE) == 560
    assert Counter(r["outcome"].split(" ")[0] for r in UNIT_REFERENCE.values()) == {"met": 354, "not-run": 206}


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_corpus_parity(name: str, reports: dict[str, Report], registry: Registry) -> None:
    report = reports[name]
    assert_parity(REFERENCE[name], report, registry, "plan-full.tsv", profiles=PROFILES)
    assert all(f.source in report.packs for f in report.findings)
    # Every Peppol pack is chosen by date ("id@*"): the report says which version and why.
    assert {c.pack for c in report.version_choices} == set(report.packs[1:])


@pytest.fixture(scope="module")
def unit_stages(registry: Registry) -> tuple[SchematronStage, ...]:
    return tuple(SchematronStage(registry.get(key), {}) for key in PACKS)


_FLAG_OF_KIND = {"error": "fatal", "warning": "warning"}


@pytest.mark.corpus
@pytest.mark.parametrize("case", UBL_CASES, ids=[c.id for c in UBL_CASES])
def test_unit_ubl(case: UnitCase, unit_stages: tuple[SchematronStage, ...]) -> None:
    document = get_engine().parse_text(case.xml)
    findings = [f for stage in unit_stages for f in stage.run(document)]
    runtime = [f for f in findings if f.rule_id == RUNTIME_ERROR]
    assert not runtime, runtime[0].message.en
    fired: dict[str, set[str]] = {}
    for f in findings:
        fired.setdefault(f.rule_id, set()).add(f.flag)
    for kind, rule_id in case.expectations:
        if kind == "success":
            assert rule_id not in fired, f"{rule_id} must not fire"
        else:
            assert fired.get(rule_id) == {_FLAG_OF_KIND[kind]}, f"{rule_id} must fire as {_FLAG_OF_KIND[kind]}"
    row = UNIT_REFERENCE[case.id]
    assert row["outcome"] == "met"
    assert not row["runtime_errors"]
    assert fired == {rule: set(flags) for rule, flags in row["fired"].items()}, "differs from the reference"


@pytest.mark.corpus
def test_unit_sets_are_all_loaded(shared: Path) -> None:
    assert len(UBL_CASES) == 354
    assert len(CII_CASES) == 206
    assert {c.id for c in UBL_CASES + CII_CASES} == set(UNIT_REFERENCE)
    assert {c.syntax for c in UBL_CASES} == {"ubl"} and {c.syntax for c in CII_CASES} == {"cii"}
    # Upstream's odd file name: neither the reference nor we run it (the loader reads *.xml).
    assert (PEPPOL / "unit-UBL-PEPPOL" / "PEPPOL-COMMON-R048.xm").is_file()


@pytest.mark.corpus
def test_cii_sets_are_not_run_by_the_reference(shared: Path) -> None:
    rows = [UNIT_REFERENCE[c.id] for c in CII_CASES]
    assert all(r["outcome"].startswith("not-run") for r in rows)


@pytest.mark.corpus
def test_a_peppol_cii_document_gets_en16931_with_a_note(validator: Validator) -> None:
    case = next(c for c in CII_CASES if "urn:fdc:peppol.eu:2017:poacc:billing:3.0" in c.xml)
    report = validator.validate(case.xml.encode("utf-8"))
    assert report.profile == "en16931-cii"
    notes = [f for f in report.findings if f.rule_id == GENERIC_PROFILE_NOTE]
    assert len(notes) == 1 and "urn:fdc:peppol.eu:2017:poacc:billing:3.0" in notes[0].message.en


def _with_customization(path: Path, customization: str) -> bytes:
    data = path.read_bytes()
    old = b"urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"
    assert old in data
    return data.replace(old, customization.encode(), 1)


@pytest.mark.corpus
def test_matching_is_by_substring_of_the_customization_id(validator: Validator) -> None:
    base = PEPPOL / "examples" / "base-example.xml"
    extended = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0#conformant#urn:x:ext"
    assert validator.validate(_with_customization(base, extended)).profile == "peppol-bis-3.0-ubl-invoice"
    plain = validator.validate(_with_customization(base, "urn:cen.eu:en16931:2017"))
    assert plain.profile == "en16931-ubl-invoice"


@pytest.mark.corpus
def test_a_line_rule_that_raises_costs_only_that_rule(validator: Validator) -> None:
    """A doubled cac:Price: Peppol's line rule (R120/R121) computes xs:decimal(cac:Price/cbc:PriceAmount) in rule
    variables; the reference stops the whole Peppol pack there, we report that rule's error and run the others
    (isolate-rule-errors v2 moves ISO-skeleton rule variables into the rule's xsl:try)."""
    data = (PEPPOL / "examples" / "base-example.xml").read_bytes()
    start = data.index(b"<cac:Price>")
    end = data.index(b"</cac:Price>", start) + len(b"</cac:Price>")
    doubled = data[:end] + data[start:end] + data[end:]
    report = validator.validate(doubled)
    errors = [f for f in report.findings if f.source == "peppol-bis-ubl@2026.5" and f.rule_id == RUNTIME_ERROR]
    assert errors and all(f.location for f in errors), "a rule-level error, not a stopped pack"
    assert any("PEPPOL-EN16931-R120" in f.message.en for f in errors)
    assert not report.valid
