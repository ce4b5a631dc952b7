"""Not XML at all, truncated or not well-formed: ``document.unreadable`` with line and column where there is one,
and a message in both languages; never an exception of another kind, never a report."""

from __future__ import annotations

import io
import zipfile

import pytest

from einvoice_validate import InputError, Validator
from tests.hostile import GOOD_UBL


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("invoice.xml", GOOD_UBL.read_bytes())
    return buffer.getvalue()


CASES = {
    "zip": (_zip(), "a ZIP archive"),
    "json": (b'{"invoice": {"id": "RE-1", "total": 119.0}}', "JSON"),
    "png": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(32), "a PNG image"),
    "jpeg": (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(32), "a JPEG image"),
    "empty": (b"", "empty"),
    "whitespace": (b" \n\t \r\n", "blank"),
    "plain-text": (b"Rechnung Nr. 4711 vom 14.03.2025", "line 1"),
    "truncated": (GOOD_UBL.read_bytes()[:2000], "line"),
    "unclosed-tag": (
        b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><a></Invoice>',
        "line 1",
    ),
    "two-roots": (b"<a/><b/>", "line 1"),
    "undefined-entity": (b"<a>&nbsp;</a>", "line 1"),
    "bad-char": (b"<a>\x01</a>", "line 1"),
}


@pytest.fixture(scope="module")
def validator_() -> Validator:
    return Validator()


@pytest.mark.parametrize("name", sorted(CASES))
def test_not_xml_is_document_unreadable(name: str, validator_: Validator) -> None:
    data, hint = CASES[name]
    with pytest.raises(InputError) as info:
        validator_.validate(data)
    error = info.value
    assert error.code == "document.unreadable"
    assert hint in error.detail
    assert error.message.en and error.message.de and error.message.en != error.message.de


def test_truncated_invoice_reports_where_it_broke(validator_: Validator) -> None:
    data = GOOD_UBL.read_bytes()
    cut = data[: len(data) // 2]
    with pytest.raises(InputError) as info:
        validator_.validate(cut)
    lines = cut.count(b"\n") + 1
    assert f"line {lines}" in info.value.detail and "column" in info.value.detail


@pytest.mark.parametrize("cut", [1, 10, 100, 1000, 4000])
def test_every_strict_prefix_is_unreadable(cut: int, validator_: Validator) -> None:
    with pytest.raises(InputError) as info:
        validator_.validate(GOOD_UBL.read_bytes()[:cut])
    assert info.value.code == "document.unreadable"


def test_wire_form_of_the_error(validator_: Validator) -> None:
    with pytest.raises(InputError) as info:
        validator_.validate(CASES["zip"][0])
    wire = info.value.to_dict()
    assert set(wire) == {"code", "message", "detail"}
    assert wire["message"] == {  # the specific cause, one sentence in each language
        "en": "This is a ZIP archive; not well-formed XML at line 1, column 1: Start tag expected, '<' not found.",
        "de": "Das ist ein ZIP-Archiv; kein wohlgeformtes XML in Zeile 1, Spalte 1 (libxml2: Start tag expected, '<' "
        "not found).",
    }
    assert info.value.reason == "not-xml"
