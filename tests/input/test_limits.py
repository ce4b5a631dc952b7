"""Structural limits (nesting depth, element count, text and attribute length): ``document.unreadable`` (depth)
or ``invoice.too-large`` (elements, text, attribute),
with the limits in one place (``Limits``) and documented defaults."""

from __future__ import annotations

import dataclasses

import pytest

from einvoice_validate import DEFAULT_LIMITS, InputError, Limits, Validator
from tests.hostile import GOOD_UBL, nested, with_attachment


def _code(data: bytes, limits: Limits = DEFAULT_LIMITS) -> str:
    with pytest.raises(InputError) as info:
        Validator(limits=limits).validate(data)
    assert info.value.message.de and info.value.message.en
    return f"{info.value.code}/{info.value.reason}"


def test_every_limit_is_documented_with_its_default() -> None:
    doc = Limits.__doc__ or ""
    for field in dataclasses.fields(Limits):
        assert field.name in doc, field.name
    assert (
        Limits(
            max_document_bytes=100 * 1024 * 1024,
            max_depth=64,
            max_elements=2_000_000,
            max_text_length=64 * 1024 * 1024,
            max_attribute_length=1024 * 1024,
        )
        == DEFAULT_LIMITS
    )


@pytest.mark.parametrize("depth", [64, 100, 2_000, 10_000, 200_000])
def test_nesting_beyond_the_limit(depth: int) -> None:
    assert _code(nested(depth)) == "document.unreadable/depth"


def test_nesting_within_the_limit_is_parsed() -> None:
    # 60 levels inside the root: not refused for depth (the document is then simply not an invoice's schema)
    report = Validator().validate(nested(60))
    assert not report.valid and any(f.stage == "xsd" for f in report.findings)


def test_too_many_elements() -> None:
    data = b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">' + b"<a/>" * 2_000 + b"</Invoice>"
    assert _code(data, Limits(max_elements=1_000)) == "invoice.too-large/elements"


def test_text_node_beyond_the_limit() -> None:
    data = with_attachment(1)
    assert _code(data, Limits(max_text_length=1_000_000)) == "invoice.too-large/text-length"


def test_attribute_beyond_the_limit() -> None:
    text = GOOD_UBL.read_text(encoding="utf-8").replace('schemeID="EM"', 'schemeID="' + "E" * 5_000 + '"', 1)
    assert _code(text.encode(), Limits(max_attribute_length=4_096)) == "invoice.too-large/attribute-length"


def test_limits_that_are_not_reached_change_nothing() -> None:
    data = GOOD_UBL.read_bytes()
    tight = Limits(max_document_bytes=len(data), max_depth=12, max_elements=400, max_attribute_length=100)
    assert Validator(limits=tight).validate(data).valid
