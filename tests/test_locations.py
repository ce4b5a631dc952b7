"""Locations: every spelling a pack uses resolves to the same element, its line and one readable path."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from einvoice_validate import Report, Validator
from einvoice_validate.locations import Locator, parse_location, readable_path
from tests.conftest import KOSIT_PLAN_DAY

UBL = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
DOC = f"""<Invoice xmlns="{UBL}" xmlns:a="{CAC}" xmlns:b="{CBC}">
  <b:ID>1</b:ID>
  <a:AccountingSupplierParty>
    <a:Party><b:EndpointID schemeID="0088">x</b:EndpointID></a:Party>
    <a:Party>
      <b:EndpointID schemeID="0204">y</b:EndpointID>
    </a:Party>
  </a:AccountingSupplierParty>
</Invoice>""".encode()
READABLE = "/Invoice/cac:AccountingSupplierParty/cac:Party[2]/cbc:EndpointID"


@pytest.fixture()
def locator() -> Locator:
    root = etree.fromstring(DOC)
    return Locator(root, {k: v for k, v in root.nsmap.items() if k})


@pytest.mark.parametrize(
    "location",
    [
        # the ISO skeleton (CEN, CIUS-RO)
        f"/*:Invoice[namespace-uri()='{UBL}'][1]/*:AccountingSupplierParty[namespace-uri()='{CAC}'][1]"
        f"/*:Party[namespace-uri()='{CAC}'][2]/*:EndpointID[namespace-uri()='{CBC}'][1]",
        # XSLT 3 path() (XRechnung)
        f"/Q{{{UBL}}}Invoice[1]/Q{{{CAC}}}AccountingSupplierParty[1]/Q{{{CAC}}}Party[2]/Q{{{CBC}}}EndpointID[1]",
        # conventional prefixes, as Peppol and readable paths write them
        "/ubl:Invoice/cac:AccountingSupplierParty/cac:Party[2]/cbc:EndpointID",
        # the document's own prefixes (libxml2's paths for XSD findings)
        "/*/a:AccountingSupplierParty/a:Party[2]/b:EndpointID",
        # libxml2's paths for elements in a default namespace: every element counted
        "/*/*[2]/*[2]/*[1]",
        # the readable path itself resolves to itself
        READABLE,
    ],
)
def test_every_spelling_gives_one_path_and_the_line(locator: Locator, location: str) -> None:
    place = locator.place(location)
    assert (place.path, place.line) == (READABLE, 6)


def test_attribute_and_text_steps_name_their_element_line(locator: Locator) -> None:
    place = locator.place(
        f"/Q{{{UBL}}}Invoice[1]/Q{{{CAC}}}AccountingSupplierParty[1]/Q{{{CAC}}}Party[1]"
        f"/Q{{{CBC}}}EndpointID[1]/@schemeID"
    )
    assert (place.path, place.line) == ("/Invoice/cac:AccountingSupplierParty/cac:Party[1]/cbc:EndpointID/@schemeID", 4)
    assert locator.place("/ubl:Invoice/cbc:ID/text()[1]") == locator.place("/ubl:Invoice/cbc:ID/text()")
    assert locator.place("/ubl:Invoice/cbc:ID/text()").line == 2


@pytest.mark.parametrize("location", ["0088x", "eur", "", "cbc:ID", "//cbc:ID", "/ubl:Invoice[", "/a/@b/c"])
def test_what_is_not_a_path_gives_no_path(locator: Locator, location: str) -> None:
    assert parse_location(location) is None
    assert locator.place(location).path is None and locator.place(location).line is None


def test_a_path_that_is_not_in_the_document_stays_readable_without_a_line(locator: Locator) -> None:
    place = locator.place(f"/Q{{{UBL}}}Invoice[1]/Q{{{CAC}}}PaymentMeans[3]/Q{{{CBC}}}PaymentID[1]")
    assert (place.path, place.line) == ("/Invoice/cac:PaymentMeans[3]/cbc:PaymentID", None)
    # a root of another name does not match this document's root
    assert locator.place("/Q{urn:x}Other[1]/Q{urn:x}a[1]").line is None


def test_readable_path_of_an_element() -> None:
    root = etree.fromstring(DOC)
    endpoint = root.find(f".//{{{CAC}}}Party[2]/{{{CBC}}}EndpointID")
    assert endpoint is not None and readable_path(endpoint) == READABLE


def test_broken_example_findings_all_carry_lines(validator: Validator) -> None:
    # the example's findings as the reference's plan-kosit.tsv gives them (examples/README.md)
    example = Path(__file__).parents[1] / "examples" / "xrechnung-ubl-broken.xml"
    report: Report = validator.validate(example, rules_date=KOSIT_PLAN_DAY)
    assert {(f.rule_id, f.location, f.line) for f in report.findings} == {
        ("cvc-datatype-valid.1.2.1", "/Invoice/cbc:IssueDate", 16),
        ("cvc-complex-type.2.2", "/Invoice/cbc:IssueDate", 16),
        ("BR-CO-15", "/Invoice", 12),
        ("BR-DE-15", "/Invoice", 12),
    }
    assert {f.pack_location for f in report.findings if f.rule_id == "BR-DE-15"} == {f"/Q{{{UBL}}}Invoice[1]"}


def test_every_path_location_of_the_mutations_is_found(mutation_reports: dict[str, Report]) -> None:
    """Over the 584 mutations (all three spellings, XSD and Schematron): a location that is a path always names
    an element of the document (so it has a line), one that is not (CIUS-RO's attribute values) gives none."""
    seen = 0
    for name, report in mutation_reports.items():
        for f in report.findings:
            if f.pack_location is None:
                continue
            seen += 1
            if parse_location(f.pack_location) is None:
                assert f.location is None and f.line is None, (name, f.pack_location)
            else:
                assert f.location and f.location.startswith("/") and f.line, (name, f.rule_id, f.pack_location)
                assert "namespace-uri" not in f.location and "Q{" not in f.location
    assert seen > 1000
