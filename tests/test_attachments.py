"""Long embedded attachments: the XSD stage's own base64 check gives libxml2's verdict on every string it judges,
and the XSD findings are the same as when libxml2 reads the whole content (``attachments.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from einvoice_validate import Validator
from einvoice_validate.attachments import LONG_CHARS, libxml2_base64_valid, long_attachments, replaced
from einvoice_validate.findings import Report
from einvoice_validate.parse import load
from einvoice_validate.rulesets import Registry
from einvoice_validate.xsd import stage as xsd_stage
from tests.conftest import CORPUS

_SCHEMA = etree.XMLSchema(
    etree.fromstring(
        b'<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="b" type="xs:base64Binary"/>'
        b"</xs:schema>"
    )
)
# Characters that matter to the rule: plain letters, the letters allowed before padding, '=', XML whitespace,
# '+' and '/', and stray characters (which the fast check leaves to libxml2).
_CHARS = "ABCDEFQgwEIMUcko048+/9z= \n\t\r!-é"
BUSINESS_CASES = CORPUS / "xrechnung-testsuite/business-cases/standard"


def _libxml2(text: str) -> bool:
    element = etree.Element("b")
    element.text = text
    return _SCHEMA.validate(etree.ElementTree(element))


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=_CHARS, max_size=24))
def test_the_fast_check_agrees_with_libxml2(text: str) -> None:
    verdict = libxml2_base64_valid(text)
    if verdict is not None:
        assert verdict == _libxml2(text)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("QUJD", True),
        ("QUI=", True),
        ("QQ==", True),
        (" QU\nJD \t", True),
        ("", True),
        ("QUJ", False),
        ("QUJ=", False),  # the last value's low bits must be clear before '='
        ("QR==", False),
        ("QQ==QUJD", False),
        ("Q===", False),
        ("QU!D", None),
        ("QUJé", None),
    ],
)
def test_the_fast_check_on_the_edges(text: str, verdict: bool | None) -> None:
    assert libxml2_base64_valid(text) is verdict
    if verdict is not None:
        assert _libxml2(text) is verdict


def _with_attachment_text(source: bytes, text: str) -> bytes:
    tree = load(source).tree
    element, _ = long_attachments(tree)[0]
    element.text = text
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8")


def _xsd(report: Report) -> list[tuple[str, str | None, int | None, str]]:
    return [(f.rule_id, f.location, f.line, f.message.en) for f in report.findings if f.stage == "xsd"]


@pytest.fixture(scope="module")
def with_attachments() -> list[Path]:
    files = [p for p in sorted(BUSINESS_CASES.glob("*.xml")) if long_attachments(load(p.read_bytes()).tree)]
    assert len(files) >= 20
    return files


def test_xsd_findings_are_those_of_libxml2_reading_everything(
    with_attachments: list[Path], registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = with_attachments[0].read_bytes()
    body = "QUJD" * (LONG_CHARS // 4 + 10)
    broken = [
        _with_attachment_text(good, body[:-1]),  # a length libxml2 refuses
        _with_attachment_text(good, body + "=QUJD"),  # data after the padding
        _with_attachment_text(good, body[:-4] + "QUJ="),  # wrong bits before the padding
        _with_attachment_text(good, body + "!!"),  # stray characters: libxml2 decides (it ignores them)
        _with_attachment_text(good, body + "é"),
        _with_attachment_text(good, "\n" * (LONG_CHARS + 1)),  # only whitespace: empty, valid base64
    ]
    documents = [p.read_bytes() for p in with_attachments] + broken
    validator = Validator(rules_home=registry.home)
    fast = [_xsd(validator.validate(d)) for d in documents]
    monkeypatch.setattr(xsd_stage, "libxml2_base64_valid", lambda text: None)  # libxml2 reads every attachment
    full = [_xsd(validator.validate(d)) for d in documents]
    assert fast == full
    assert not any(fast[: len(with_attachments)]), "the business cases are XSD-valid"
    assert all(fast[len(with_attachments) : len(with_attachments) + 3]), "the broken attachments are found"


@pytest.mark.parametrize(
    "xml",
    [
        b'<r xmlns:a="urn:a"><x/>\n  <a:b k="1" xmlns:c="urn:c">LONG</a:b><!--c-->tail<a:b>LONG2</a:b>\n</r>',
        b'<a:b xmlns:a="urn:a" k="1">LONG</a:b>',  # an attachment at the root: no parent to swap it in
    ],
)
def test_a_replaced_element_reads_and_serialises_as_if_edited_and_comes_back_unchanged(xml: bytes) -> None:
    """``replaced`` swaps a stand-in into the tree instead of editing the element (issue 21): inside the block the
    tree serialises and validates as if the text had been set, with the element's line number and tail; after it
    the tree is the original one, the very same element objects in place."""
    tree = etree.ElementTree(etree.fromstring(xml))
    before = etree.tostring(tree)
    elements = list(tree.iter("{urn:a}b"))
    cuts = [(e, f"short{i}", str(e.text)) for i, e in enumerate(elements)]
    edited = etree.ElementTree(etree.fromstring(xml))
    for i, e in enumerate(edited.iter("{urn:a}b")):
        e.text = f"short{i}"
    with replaced(cuts):
        assert etree.tostring(tree) == etree.tostring(edited)
        inside = list(tree.iter("{urn:a}b"))
        assert [e.sourceline for e in inside] == [e.sourceline for e in elements]
        assert [e.tail for e in inside] == [e.tail for e in elements]
    assert etree.tostring(tree) == before
    assert list(tree.iter("{urn:a}b")) == elements and [e.text for e in elements] == [c[2] for c in cuts]
