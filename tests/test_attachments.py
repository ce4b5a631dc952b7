"""Long embedded attachments: the XSD stage's own base64 check gives libxml2's verdict on every string it judges,
and the XSD findings are the same as when libxml2 reads the whole content (``attachments.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from einvoice_validate import Validator, xsd
from einvoice_validate.attachments import LONG_CHARS, libxml2_base64_valid, long_attachments
from einvoice_validate.findings import Report
from einvoice_validate.parse import load
from einvoice_validate.rulesets import Registry
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
    monkeypatch.setattr(xsd, "libxml2_base64_valid", lambda text: None)  # libxml2 reads every attachment
    full = [_xsd(validator.validate(d)) for d in documents]
    assert fast == full
    assert not any(fast[: len(with_attachments)]), "the business cases are XSD-valid"
    assert all(fast[len(with_attachments) : len(with_attachments) + 3]), "the broken attachments are found"
