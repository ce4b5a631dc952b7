"""Every PDF stream is decoded with a budget, whatever its filters and predictors (issue 40, items 4 and 5).

The predictors (TIFF 2, PNG 10-15) are undone by the library in rows of the data's own bytes, never by qpdf (which
allocated a row of /Columns bytes and padded a short row to it: 1 KB became gigabytes). The decoder gives qpdf's
bytes on every well-formed stream; the bombs end in a code (checked within time and memory bounds in
``test_bounded.py``); a detail never carries an object's address.
"""

from __future__ import annotations

import io
import re
import zlib

import pikepdf
import pytest
from pikepdf import Dictionary, Name

from einvoice_validate import InputError, Validator
from einvoice_validate.envelopes.pdf import extract_invoice
from einvoice_validate.limits import Limits
from tests.hostile import GOOD_FACTURX, pdf_with_streams, png_encode, predictor_bombs, tiff_encode

SAMPLE = GOOD_FACTURX.read_bytes()[:6000]


def _qpdf_and_ours(raw: bytes, parms: Dictionary, filters: object = Name.FlateDecode) -> tuple[bytes, bytes]:
    data = pdf_with_streams(raw, {"/Filter": filters, "/DecodeParms": parms})
    ours, _ = extract_invoice(data)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        qpdf = bytes(pdf.Root.AF[0].EF.F.read_bytes())
    return qpdf, ours


@pytest.mark.parametrize("tags", [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4], [4, 2, 1]], ids=str)
@pytest.mark.parametrize(("colors", "columns"), [(1, 7), (3, 50), (1, 6000)])
def test_png_predictors_decode_as_qpdf_does(tags: list[int], colors: int, columns: int) -> None:
    row = colors * columns
    usable = SAMPLE[: len(SAMPLE) // row * row]  # whole rows (qpdf pads a short one)
    parms = Dictionary(Predictor=15, Colors=colors, BitsPerComponent=8, Columns=columns)
    qpdf, ours = _qpdf_and_ours(zlib.compress(png_encode(usable, row, colors, tags)), parms)
    assert ours == qpdf == usable


@pytest.mark.parametrize(("colors", "columns"), [(1, 7), (3, 50), (4, 1000)])
def test_tiff_predictor_decodes_as_qpdf_does(colors: int, columns: int) -> None:
    row = colors * columns
    usable = SAMPLE[: len(SAMPLE) // row * row]
    parms = Dictionary(Predictor=2, Colors=colors, BitsPerComponent=8, Columns=columns)
    qpdf, ours = _qpdf_and_ours(zlib.compress(tiff_encode(usable, row, colors)), parms)
    assert ours == qpdf == usable


def test_a_chain_of_flate_filters_is_decoded() -> None:
    raw = zlib.compress(zlib.compress(SAMPLE))
    qpdf, ours = _qpdf_and_ours(raw, Dictionary(), [Name.FlateDecode, Name.FlateDecode])
    assert ours == qpdf == SAMPLE


@pytest.fixture(scope="module")
def validator_() -> Validator:
    return Validator(rules_date="2026-08-30")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("tiff-columns-attachment", "document.unreadable/not-xml"),
        ("png-columns-attachment", "document.unreadable/not-xml"),
        ("tiff-columns-invoice", "valid"),
        ("png-columns-invoice", "valid"),
        ("tiff-columns-xmp", "facturx.pdf.xmp-unreadable"),
        ("png-bomb-attachment", "invoice.too-large/attachment-bytes"),
        ("flate-chain-bomb", "invoice.too-large/attachment-bytes"),
    ],
)
def test_predictor_bombs_end_in_a_code(name: str, expected: str, validator_: Validator) -> None:
    data = predictor_bombs()[name]
    assert len(data) < 70_000
    try:
        report = validator_.validate(data)
    except InputError as exc:
        assert f"{exc.code}/{exc.reason}" == expected, exc.detail
    else:
        ids = {f.rule_id for f in report.findings}
        assert (expected == "valid" and report.valid) or expected in ids, ids


@pytest.mark.parametrize(
    ("parms", "reason"),
    [
        (Dictionary(Predictor=2, BitsPerComponent=4, Columns=10), "pdf-filter"),
        (Dictionary(Predictor=7), "pdf-filter"),
        (Dictionary(Predictor=12, Columns=0), "pdf-filter"),
        (Dictionary(Predictor=12, Colors=10**6), "pdf-filter"),
        (Dictionary(Predictor=12, Columns=Name.Foo), "pdf-filter"),
    ],
)
def test_predictors_this_library_does_not_read(parms: Dictionary, reason: str, validator_: Validator) -> None:
    data = pdf_with_streams(zlib.compress(b"\x00" + SAMPLE[:100]), {"/Filter": Name.FlateDecode, "/DecodeParms": parms})
    with pytest.raises(InputError) as info:
        validator_.validate(data)
    assert (info.value.code, info.value.reason) == ("document.unreadable", reason)
    assert info.value.message.de != info.value.message.en


def test_an_unknown_png_row_type_is_refused(validator_: Validator) -> None:
    parms = Dictionary(Predictor=15, Columns=10)
    data = pdf_with_streams(zlib.compress(b"\x07" + b"a" * 10), {"/Filter": Name.FlateDecode, "/DecodeParms": parms})
    with pytest.raises(InputError) as info:
        validator_.validate(data)
    assert (info.value.code, info.value.reason) == ("document.unreadable", "pdf-filter")


def test_the_predicted_budget_is_a_limit() -> None:
    small = Validator(limits=Limits(max_pdf_predicted_bytes=1000))
    parms = Dictionary(Predictor=12, Columns=100)
    data = pdf_with_streams(
        zlib.compress(png_encode(SAMPLE[:5000], 100, 1, [2])), {"/Filter": Name.FlateDecode, "/DecodeParms": parms}
    )
    with pytest.raises(InputError) as info:
        small.validate(data)
    assert (info.value.code, info.value.reason) == ("invoice.too-large", "attachment-bytes")


ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


@pytest.mark.parametrize(
    "data",
    [
        b"%PDF-1.7\n1 0 obj << /Length 5 >> stream\nxx",
        b"%PDF-1.4\n" + b"\x00" * 300,
        pdf_with_streams(b"x" * 50, {"/Filter": Name.FlateDecode, "/DecodeParms": Dictionary(Predictor=12)}),
    ],
    ids=["cut-stream", "zeros", "broken-flate-predictor"],
)
def test_a_detail_is_the_same_on_every_call(data: bytes) -> None:
    details = set()
    for _ in range(2):
        with pytest.raises(InputError) as info:
            Validator().validate(data)
        details.add(info.value.detail)
        assert ADDRESS.search(info.value.detail) is None, info.value.detail
    assert len(details) == 1


def _pages_tree_count_wrong() -> bytes:
    """Found by the fuzz campaign (seed 1): a /Pages node whose /Kids name non-page objects and whose /Count is 0
    makes qpdf raise QpdfRuntimeError (not a PdfError) while opening: it escaped as an uncaught exception."""
    pdf = pikepdf.open(io.BytesIO(pdf_with_streams(SAMPLE, {})))
    out = io.BytesIO()
    pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.disable, compress_streams=False)
    data = out.getvalue()
    kids = re.search(rb"/Kids \[ (\d+) 0 R \]", data)
    assert kids is not None
    data = data.replace(kids.group(0), b"/Kids [ " + kids.group(1) + b" 0 R 1 0 R 1 0 R ]", 1)
    return re.sub(rb"/Count \d+", b"/Count 0", data)


def test_a_qpdf_runtime_error_is_unreadable(validator_: Validator) -> None:
    with pytest.raises(InputError) as info:
        validator_.validate(_pages_tree_count_wrong())
    assert (info.value.code, info.value.reason) == ("document.unreadable", "pdf-unreadable")
    assert "/Count is wrong" in info.value.detail


def test_a_name_that_is_not_utf8_is_read_as_spelled(validator_: Validator) -> None:
    """Found by the fuzz campaign (seed 1): /AFRelationship /A#BA (a name whose bytes are not UTF-8) made
    pikepdf's str() raise UnicodeDecodeError, an uncaught exception; the name is now shown as the PDF spells it."""
    data = pdf_with_streams(GOOD_FACTURX.read_bytes(), {})
    marker = b"/AFRelationship /Alternative"
    assert marker in data
    report = validator_.validate(data.replace(marker, b"/AFRelationship /A#BA"))
    assert report.pdf is not None and report.pdf.relationship == "A#ba"
    assert ("facturx.pdf.relationship", "ERROR") in {(f.rule_id, f.severity.value) for f in report.findings}
