"""Parity with the reference validator (KoSIT's engine) on the 584 broken invoices of ``mutations-dev``.

Per file (``tests/reference.py``): the reference's profile, the same packs by content and version, per pack the
same multiset of (rule id, raw flag, pack location) for Schematron, and the same multiset of XSD (Xerces ``cvc-``
code, line). Where the reference's pack stopped with a runtime error, ours reports that error per rule and goes on
(issue 13): there our findings are a superset of the reference's, with at least one rule-level
``schematron.runtime-error``. The reference's findings are in ``corpus/mutations-dev/reference.jsonl``, made with
``plan-kosit.tsv``; ``test_reference_live.py`` re-runs the reference itself on a sample.
"""

from __future__ import annotations

from typing import Any

import pytest

from einvoice_validate import Report
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron.engines import engine_name
from tests.conftest import CORPUS
from tests.reference import assert_parity, our_xsd_places, read_rows, xsd_places

MUTATIONS = CORPUS / "mutations-dev"

# Files whose XSD places (code, line) differ from Xerces', with the reason (libxml2 and Xerces stop differently).
# None today; each entry here must really differ (strict xfail).
KNOWN_XSD_DIFFERENCES: dict[str, str] = {}

# Files where the Schematron engines themselves differ: SaxonC-HE 13 (engine saxonc) and Saxon-HE 9.9 for Java
# (the reference, and our engine saxon-java, which has no known difference).
KNOWN_SCHEMATRON_DIFFERENCES: dict[str, str] = {}
KNOWN_SAXONC_DIFFERENCES: dict[str, str] = {
    "ubl_b2g_example9.m1-6.xml": (
        "duplicated cac:TaxTotal/cbc:TaxAmount: CIUS-RO's BR-CO-14 test is `xs:decimal(cbc:TaxAmount) = ... or "
        "not(cac:TaxSubtotal)`; Saxon 9.9 evaluates the left operand first and stops with XPTY0004, Saxon 13 "
        "evaluates the cheaper right one (true) and skips the error, as XPath 2.0 section 2.3.4 allows: we have "
        "no runtime error where the reference stops the pack. The document is invalid either way (XSD "
        "cvc-complex-type.2.4.a)"
    ),
}
if engine_name() == "saxonc":
    KNOWN_SCHEMATRON_DIFFERENCES.update(KNOWN_SAXONC_DIFFERENCES)


REFERENCE = read_rows(MUTATIONS / "reference.jsonl") if (MUTATIONS / "reference.jsonl").is_file() else {}
PLAN = "plan-kosit.tsv"
# The reference's profile names -> ours.
PROFILES = {
    "xrechnung-ubl": "xrechnung-3.0-ubl-invoice",
    "xrechnung-ubl-cn": "xrechnung-3.0-ubl-creditnote",
    "xrechnung-cii": "xrechnung-3.0-cii",
    "cius-ro-ubl": "cius-ro-ubl-invoice",
    "cius-ro-ubl-cn": "cius-ro-ubl-creditnote",
    "en16931-ubl": "en16931-ubl-invoice",
    "en16931-ubl-cn": "en16931-ubl-creditnote",
    "en16931-cii": "en16931-cii",
}
PEPPOL_ID = "urn:fdc:peppol.eu:2017:poacc:billing:3.0"
# A Peppol BIS document: plan-kosit (this reference) runs CEN 1.3.16 on it, we run Peppol's packs as plan-full does
# (issue 15). Peppol's CEN copy is CEN 1.3.16's Schematron (byte-identical .sch, compiled by phive): its findings
# must be the reference's CEN findings, place for place. The Peppol rules are compared with the live reference on
# plan-full (test_reference_live.py runs every Peppol document of this corpus).
PEPPOL_STANDS_FOR: dict[str, str | None] = {
    "peppol-bis-cen-ubl@2026.5": "en16931-ubl@1.3.16",
    "peppol-bis-ubl@2026.5": None,
}


@pytest.fixture(scope="module")
def reports(mutation_reports: dict[str, Report]) -> dict[str, Report]:
    return {name: mutation_reports[name] for name in REFERENCE}


def test_reference_is_complete() -> None:
    assert len(REFERENCE) == 584, "mutations-dev/reference.jsonl should describe 584 files"
    assert all((MUTATIONS / name).is_file() for name in REFERENCE)
    assert sum(PEPPOL_ID in row["customization"] for row in REFERENCE.values()) == 24


def _cases(known: dict[str, str]) -> list[Any]:
    return [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=known[n])) if n in known else n
        for n in sorted(REFERENCE)
    ]


def assert_mutation_parity(name: str, report: Report, registry: Registry) -> None:
    row = REFERENCE[name]
    if PEPPOL_ID in row["customization"]:
        assert report.profile == "peppol-bis-3.0-ubl-invoice"
        assert_parity(row, report, registry, PLAN, stands_for=PEPPOL_STANDS_FOR)
    else:
        assert_parity(row, report, registry, PLAN, profiles=PROFILES)


@pytest.mark.parametrize("name", _cases({**KNOWN_SCHEMATRON_DIFFERENCES, **KNOWN_XSD_DIFFERENCES}))
def test_parity(name: str, reports: dict[str, Report], registry: Registry) -> None:
    assert_mutation_parity(name, reports[name], registry)


def test_the_files_that_differ_are_exactly_the_known_ones(reports: dict[str, Report], registry: Registry) -> None:
    """The per-file verdicts summed up, as exact values: the files whose XSD places differ are the known ones, and
    so are the files that differ in anything (on this engine)."""
    xsd = {n for n, row in REFERENCE.items() if our_xsd_places(reports[n]) != xsd_places(row)}
    assert xsd == set(KNOWN_XSD_DIFFERENCES)
    differ = set()
    for name in REFERENCE:
        try:
            assert_mutation_parity(name, reports[name], registry)
        except AssertionError:
            differ.add(name)
    assert differ == set(KNOWN_SCHEMATRON_DIFFERENCES) | set(KNOWN_XSD_DIFFERENCES)


@pytest.mark.xfail(
    strict=True,
    reason="our XSD findings carry no column (libxml2 reports none, Finding.column is None); Xerces gives the column "
    "where its parser stood, after the start or end tag it was reading (tests/reference.py: XSD_COLUMNS)",
)
def test_xsd_columns_are_the_references(reports: dict[str, Report]) -> None:
    differ = [
        n for n, row in REFERENCE.items() if our_xsd_places(reports[n], columns=True) != xsd_places(row, columns=True)
    ]
    assert not differ, f"{len(differ)} files, e.g. {differ[:3]}"
