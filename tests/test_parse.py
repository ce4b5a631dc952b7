"""The hardened parser: what it refuses and the stable codes it gives (the full hostile suite is issue 5's)."""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

import pytest

from einvoice_validate import DEFAULT_LIMITS, InputError, Limits, Validator
from einvoice_validate.parse import load, read_source

UBL = b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><a/></Invoice>'


def code_of(data: object, limits: Limits = DEFAULT_LIMITS) -> str:
    with pytest.raises(InputError) as info:
        load(data, limits)  # type: ignore[arg-type]
    return info.value.code


def reason_of(data: object, limits: Limits = DEFAULT_LIMITS) -> str | None:
    with pytest.raises(InputError) as info:
        load(data, limits)  # type: ignore[arg-type]
    return f"{info.value.code}/{info.value.reason}"


def test_doctype_is_refused_before_parsing(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    xxe = f'<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file://{secret}">]>'.encode()
    xxe += b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&x;</Invoice>'
    with pytest.raises(InputError) as info:
        load(xxe)
    assert (info.value.code, info.value.reason) == ("document.unreadable", "doctype")
    assert "TOP-SECRET" not in str(info.value)


def test_doctype_after_comment_and_in_utf16_is_refused() -> None:
    assert reason_of(b"<!-- c --><?pi x?>\n<!DOCTYPE a><a/>") == "document.unreadable/doctype"
    assert reason_of("<!DOCTYPE a><a/>".encode("utf-16")) == "document.unreadable/doctype"


@pytest.mark.parametrize(
    "data", [b"", b"   \n", b"%PDF-1.7", b"PK\x03\x04zip", b'{"json": 1}', b"<Invoice><a></Invoice>"]
)
def test_not_xml_is_unreadable(data: bytes) -> None:
    assert code_of(data) == "document.unreadable"


def test_unreadable_has_line_and_column() -> None:
    with pytest.raises(InputError) as info:
        load(b"<a>\n<b></a>")
    assert "line 2" in info.value.detail


def test_too_large_bytes_path_and_stream(tmp_path: Path) -> None:
    small = Limits(max_document_bytes=50)
    assert code_of(UBL, small) == "invoice.too-large"
    path = tmp_path / "big.xml"
    path.write_bytes(UBL)
    assert code_of(path, small) == "invoice.too-large"
    assert code_of(io.BytesIO(UBL), small) == "invoice.too-large"


def test_depth_limit() -> None:
    deep = (
        b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">'
        + b"<a>" * 70
        + b"</a>" * 70
        + b"</Invoice>"
    )
    assert reason_of(deep) == "document.unreadable/depth"
    assert load(deep, Limits(max_depth=100)).document_type == "ubl-invoice"


def test_sources_bytes_path_file(tmp_path: Path) -> None:
    path = tmp_path / "i.xml"
    path.write_bytes(UBL)
    for source in (UBL, path, str(path), io.BytesIO(UBL), bytearray(UBL)):
        assert load(source).document_type == "ubl-invoice"  # type: ignore[arg-type]
    assert code_of(tmp_path / "missing.xml") == "request.unreadable"
    assert code_of(io.StringIO("<a/>")) == "request.unreadable"
    assert code_of(12) == "request.unreadable"


def test_encodings_are_read() -> None:
    latin = (
        '<?xml version="1.0" encoding="ISO-8859-1"?>'
        '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><a>Müller</a></Invoice>'
    )
    doc = load(latin.encode("latin-1"))
    assert "Müller" in doc.text()
    assert load(b"\xef\xbb\xbf" + UBL).document_type == "ubl-invoice"
    assert load(UBL.decode().encode("utf-16")).document_type == "ubl-invoice"


def test_invalid_invoice_is_a_report_not_an_exception(validator: Validator) -> None:
    report = validator.validate(UBL)
    assert not report.valid
    assert report.profile == "en16931-ubl-invoice"
    assert any(f.stage == "xsd" for f in report.findings)


UBL_XMLNS = 'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"'
_TIGHT = Limits(max_depth=4, max_children=5, max_attributes=5, max_attribute_length=20)
_ORDER = (
    "document.unreadable/depth",
    "invoice.too-large/children",
    "invoice.too-large/attributes",
    "invoice.too-large/attribute-length",
)


def _crowded(depth: int, children: int, attributes: int, value: int) -> str:
    """An invoice with ``depth`` nested levels and one element of ``children`` children, ``attributes`` attributes and
    one value of ``value`` characters."""
    attrs = " ".join(f'a{i}="x"' for i in range(attributes))
    body = f'<c {attrs} v="{"v" * value}">{"<b/>" * children}</c>'
    return "<Invoice " + UBL_XMLNS + ">" + "<d>" * depth + body + "</d>" * depth + "</Invoice>"


@pytest.mark.parametrize("depth", [0, 5])
@pytest.mark.parametrize("children", [0, 6])
@pytest.mark.parametrize("attributes", [0, 6])
@pytest.mark.parametrize("value", [0, 21])
def test_structural_limits_in_their_order(depth: int, children: int, attributes: int, value: int) -> None:
    """Depth before children before attributes before attribute length, whichever others are exceeded too."""
    data = _crowded(depth, children, attributes, value).encode()
    first = next((r for r, over in zip(_ORDER, (depth, children, attributes, value), strict=True) if over), None)
    if first is None:
        assert load(data, _TIGHT).document_type == "ubl-invoice"
    else:
        assert reason_of(data, _TIGHT) == first


def test_markup_written_without_its_bytes_is_still_counted() -> None:
    """UTF-7 may write ``<`` and ``=`` in base64 (``+ADw-``, ``+AD0-``): counting those bytes says nothing there, so
    the element count and the attribute probe run whatever the bytes show."""

    def utf7(body: str) -> bytes:
        return b'<?xml version="1.0" encoding="UTF-7"?>' + body.encode().replace(b"<", b"+ADw-").replace(b"=", b"+AD0-")

    attributes = utf7(_crowded(0, 0, 300, 0))
    assert attributes.count(b"=") < 200 and reason_of(attributes) == "invoice.too-large/attributes"
    elements = utf7(_crowded(0, 2_000, 0, 0))
    assert reason_of(elements, Limits(max_elements=100)) == "invoice.too-large/elements"
    assert load(utf7(_crowded(0, 5, 5, 0))).document_type == "ubl-invoice"


def test_a_file_is_read_with_memory_for_its_size_not_for_the_cap(tmp_path: Path) -> None:
    """Reading a path allocates what the file holds, not the byte cap (a read of cap + 1 bytes allocated 100 MB
    for every file); a file larger than the cap is still refused."""
    small = tmp_path / "small.xml"
    small.write_bytes(b"<a>" + b"x" * 200_000 + b"</a>")
    limits = Limits(max_document_bytes=64 * 1024 * 1024)
    tracemalloc.start()
    try:
        data, name = read_source(small, limits)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (data, name) == (small.read_bytes(), str(small))
    assert peak < 2 * len(data) + 256 * 1024
    with pytest.raises(InputError) as refused:
        read_source(small, Limits(max_document_bytes=100_000))
    assert refused.value.code == "invoice.too-large"
