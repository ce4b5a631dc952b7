"""Floods (issue 40, items 6-8): too many attributes or children on one element are refused before any stage
runs, XSD findings are capped per document, and locating findings costs the same per finding however many siblings
the elements have (the bounds in time and memory: ``test_bounded.py``)."""

from __future__ import annotations

import pytest
from lxml import etree

from einvoice_validate import InputError, Validator
from einvoice_validate.limits import Limits
from einvoice_validate.locations import Locator, SiblingIndex, readable_path
from einvoice_validate.xsd.stage import MORE_ERRORS
from tests.conftest import KOSIT_PLAN_DAY
from tests.hostile import empty_notes, postcode_flood, undeclared_attributes


@pytest.fixture(scope="module")
def validator_() -> Validator:
    return Validator(rules_date=KOSIT_PLAN_DAY)


def _refused(validator: Validator, data: bytes) -> tuple[str, str | None]:
    with pytest.raises(InputError) as info:
        validator.validate(data)
    assert info.value.message.de != info.value.message.en, "a German detail"
    return info.value.code, info.value.reason


def test_undeclared_attributes_are_refused_before_any_stage(validator_: Validator) -> None:
    """200,000 undeclared attributes: every one was an XSD finding (13 s, 928 MB), then SaxonC refused the
    document anyway (more than 200 attributes: engine-parser)."""
    assert _refused(validator_, undeclared_attributes(200_000)) == ("invoice.too-large", "attributes")
    report = validator_.validate(undeclared_attributes(200))  # at the limit: validated, one finding each
    assert sum(f.rule_id == "cvc-complex-type.3.2.2" for f in report.findings) == 200


def test_a_flood_of_children_is_refused(validator_: Validator) -> None:
    """300,000 empty elements in a French invoice's postcode: 13.4 s, almost all in the French pack."""
    assert _refused(validator_, postcode_flood(300_000)) == ("invoice.too-large", "children")


def test_the_children_limit_is_a_limit() -> None:
    small = Validator(rules_date=KOSIT_PLAN_DAY, limits=Limits(max_children=500))
    assert _refused(small, empty_notes(600)) == ("invoice.too-large", "children")
    assert small.validate(empty_notes(400)).findings


def test_xsd_findings_are_capped_with_a_finding_saying_how_many_more() -> None:
    capped = Validator(rules_date=KOSIT_PLAN_DAY, limits=Limits(max_xsd_findings=10))
    findings = [f for f in capped.validate(undeclared_attributes(150)).findings if f.stage == "xsd"]
    assert [f.rule_id for f in findings] == ["cvc-complex-type.3.2.2"] * 10 + [MORE_ERRORS]
    more = findings[-1]
    assert "at least 140 more errors" in more.message.en and "mindestens 140 weitere Fehler" in more.message.de
    assert more.severity.value == "ERROR"


def test_uncapped_below_the_limit(validator_: Validator) -> None:
    findings = [f for f in validator_.validate(undeclared_attributes(150)).findings if f.stage == "xsd"]
    assert len(findings) == 150 and MORE_ERRORS not in {f.rule_id for f in findings}


def test_locations_are_those_of_the_sibling_lists(validator_: Validator) -> None:
    """The indexed locations are the same strings and lines as the sibling lists give (item 7)."""
    report = validator_.validate(empty_notes(300))
    notes = [f for f in report.findings if f.rule_id == "PEPPOL-EN16931-R008"]
    assert len(notes) == 300
    root = etree.fromstring(empty_notes(300))
    siblings = list(root.iterchildren("{*}Note"))
    expected = [(readable_path(el), el.sourceline) for el in siblings[:300]]
    assert [(f.location, f.line) for f in notes] == expected
    assert expected[0][0] == "/Invoice/cbc:Note[1]" and expected[-1][0] == "/Invoice/cbc:Note[300]"


def test_one_sibling_index_serves_every_path() -> None:
    root = etree.fromstring(empty_notes(50))
    index = SiblingIndex()
    paths = [readable_path(el, siblings=index) for el in root.iterchildren("{*}Note")]
    assert paths == [readable_path(el) for el in root.iterchildren("{*}Note")]
    locator = Locator(root)
    assert locator.place("/Invoice/cbc:Note[50]").path == "/Invoice/cbc:Note[50]"
    assert locator.place("/*:Invoice/*:Note[51]").path == "/Invoice/cbc:Note[51]"
