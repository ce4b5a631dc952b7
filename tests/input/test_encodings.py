"""Encodings: UTF-8 with and without BOM, UTF-16 (both byte orders, with BOM) and a declared ISO-8859-1 are read
correctly (the same findings as the UTF-8 original); a wrong or unknown declared encoding is
``document.unreadable``."""

from __future__ import annotations

import re

import pytest

from einvoice_validate import InputError, Report, Validator
from tests.hostile import BROKEN_UBL, GOOD_UBL, invoice_body, with_declaration


@pytest.fixture(scope="module")
def validator_() -> Validator:
    return Validator()


def _summary(report: Report) -> list[tuple[str, str | None, str]]:
    return [(f.rule_id, f.location, f.message.en) for f in report.findings]


@pytest.mark.parametrize("path", [GOOD_UBL, BROKEN_UBL], ids=["valid", "broken"])
@pytest.mark.parametrize(
    ("encoding", "bom"),
    [
        ("utf-8", False),
        ("utf-8", True),
        ("utf-16", True),
        ("utf-16-le", False),
        ("utf-16-be", False),
        ("iso-8859-1", False),
    ],
)
def test_same_findings_in_every_encoding(path: object, encoding: str, bom: bool, validator_: Validator) -> None:
    body = invoice_body(path)  # type: ignore[arg-type]
    original = validator_.validate(path)  # type: ignore[arg-type]
    if encoding in ("utf-16-le", "utf-16-be"):
        bom_bytes = b"\xff\xfe" if encoding.endswith("le") else b"\xfe\xff"
        data = bom_bytes + with_declaration(body, encoding, declared="UTF-16")
    else:
        data = with_declaration(body, encoding, bom=bom, declared=encoding.upper())
    report = validator_.validate(data)
    assert _summary(report) == _summary(original)
    assert report.valid == original.valid


def test_umlauts_survive_latin1(validator_: Validator) -> None:
    body = invoice_body(GOOD_UBL).replace("RE-2025-00417", "RE-Müller-Straße")
    report = validator_.validate(with_declaration(body, "iso-8859-1", declared="ISO-8859-1"))
    assert report.valid
    # The text itself, read back: the XSD finding on an amount quotes it ('Müller-Straße' is no decimal), as for the
    # same invoice in UTF-8; a document read in another encoding would quote other characters (MÃ¼ller-StraÃŸe).
    amount = re.search(r'<cbc:PayableAmount currencyID="EUR">([^<]*)<', body)
    assert amount is not None
    broken = body.replace(amount.group(0), amount.group(0).replace(amount.group(1), "Müller-Straße"))
    latin1 = validator_.validate(with_declaration(broken, "iso-8859-1", declared="ISO-8859-1"))
    quoted = [f.message.en for f in latin1.findings if f.stage == "xsd" and "'Müller-Straße'" in f.message.en]
    assert quoted and not latin1.valid
    assert _summary(latin1) == _summary(validator_.validate(with_declaration(broken, "utf-8")))


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("latin1-bytes-declared-utf8", with_declaration(invoice_body(GOOD_UBL), "iso-8859-1", declared="UTF-8")),
        ("utf8-bytes-declared-utf16", with_declaration(invoice_body(GOOD_UBL), "utf-8", declared="UTF-16")),
        ("unknown-encoding", with_declaration(invoice_body(GOOD_UBL), "utf-8", declared="X-KLINGON-1")),
        (
            "invalid-utf8-sequence",
            with_declaration(invoice_body(GOOD_UBL), "utf-8").replace(b"RE-2025", b"RE-\xc3\x28", 1),
        ),
    ],
)
def test_wrong_declared_encoding_is_unreadable(name: str, data: bytes, validator_: Validator) -> None:
    with pytest.raises(InputError) as info:
        validator_.validate(data)
    assert info.value.code == "document.unreadable", name
