"""Structure-aware mutations for the fuzz campaign (issue 40): XML in every encoding, DOCTYPE and entity tricks that
name sentinel files, floods, SBDH envelopes, PDFs with broken structure, filters and predictors.

Every mutation is a function ``(data, rng) -> bytes``; :func:`mutate` picks one (or libFuzzer's own byte mutation)
from the seed libFuzzer gives, so a run with a fixed ``-seed`` is repeatable. The files a hostile document names
(an existing file, a missing one, a directory, a FIFO, ``/dev/stdin``) are under :data:`SENTINEL`: the campaign
asserts that no system call ever names them.
"""

from __future__ import annotations

import io
import os
import random
import re
import zlib
from collections.abc import Callable
from pathlib import Path

from tests.hostile import DOCTYPE_ENCODINGS, SBDH_NS, encoded

SENTINEL = Path(os.environ.get("EINVOICE_FUZZ_SENTINEL", f"/tmp/einvoice-fuzz-sentinel-{os.getuid()}"))
"""The folder of the files hostile documents name (made by :func:`make_sentinels`)."""

_TARGETS = ("existing.dtd", "missing.dtd", "directory", "fifo")
_TAG = re.compile(rb"<([A-Za-z_][\w.\-]*:)?([A-Za-z_][\w.\-]*)[\s/>]")
_ROOT_START = re.compile(rb"<(?![?!])[A-Za-z_]")
_MAX = 4 * 1024 * 1024


def make_sentinels() -> Path:
    """The sentinel folder with an existing file, a directory and a FIFO (a read of it would block)."""
    SENTINEL.mkdir(parents=True, exist_ok=True)
    (SENTINEL / "existing.dtd").write_text('<!ENTITY x "sentinel">\n', encoding="ascii")
    (SENTINEL / "directory").mkdir(exist_ok=True)
    if not (SENTINEL / "fifo").exists():
        os.mkfifo(SENTINEL / "fifo")
    return SENTINEL


def _target(rng: random.Random) -> str:
    return "/dev/stdin" if rng.random() < 0.15 else str(SENTINEL / rng.choice(_TARGETS))


def _text(data: bytes) -> str:
    """The document as text, whatever its encoding (best effort: a mutation may have broken it)."""
    for codec in ("utf-8", "utf-16", "utf-32"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if "<" in text[:200]:
            return text
    return data.decode("latin-1")


def _body(text: str) -> str:
    """Without its XML declaration and BOM."""
    text = text.lstrip("\ufeff")
    return text.split("?>", 1)[1].lstrip() if text.startswith("<?xml") else text


def reencode(data: bytes, rng: random.Random) -> bytes:
    """The document in another encoding: UTF-8/16/32 with and without BOM or declaration, UTF-7, Latin-1."""
    body = _body(_text(data))
    choice = rng.choice([*DOCTYPE_ENCODINGS, "latin-1", "bare-utf-16-le", "bare-utf-16-be"])
    if choice == "latin-1":
        return ('<?xml version="1.0" encoding="ISO-8859-1"?>\n' + body).encode("latin-1", "replace")
    if choice.startswith("bare-"):
        return body.encode(choice.removeprefix("bare-"))
    return encoded(body, choice)


def doctype(data: bytes, rng: random.Random) -> bytes:
    """A DOCTYPE before the root: an external subset, a parameter entity, a PUBLIC id, entities, then maybe
    another encoding."""
    text = _body(_text(data))
    path = _target(rng)
    kind = rng.randrange(6)
    declaration = [
        f'<!DOCTYPE Invoice SYSTEM "{path}">',
        f'<!DOCTYPE Invoice [<!ENTITY % p SYSTEM "{path}"> %p;]>',
        f'<!DOCTYPE Invoice PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "{path}">',
        f'<!DOCTYPE Invoice [<!ENTITY e SYSTEM "file://{path}">]>',
        '<!DOCTYPE Invoice [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>',
        f'<!DOCTYPE Invoice [<!ATTLIST Invoice xmlns:x CDATA "{path}">]>',
    ][kind]
    match = _ROOT_START.search(text.encode("utf-8"))
    where = len(text.encode("utf-8")[: match.start()].decode("utf-8", "replace")) if match else 0
    text = text[:where] + declaration + "\n" + text[where:]
    if kind in (3, 4):
        text = text.replace("</cbc:Note>", "&e;&b;</cbc:Note>", 1).replace("</ram:Content>", "&e;</ram:Content>", 1)
    return encoded(text, rng.choice(list(DOCTYPE_ENCODINGS)))


def flood(data: bytes, rng: random.Random) -> bytes:
    """Many copies of an empty element, or many attributes, inside or beside an element of the document."""
    tags = list(_TAG.finditer(data[:200_000]))
    if not tags:
        return data
    tag = rng.choice(tags)
    name = (tag.group(1) or b"") + tag.group(2)
    # Not 4,000: a flood of that many failing siblings costs 38 s inside SaxonC on the Peppol packs (their
    # locations count preceding siblings for every finding: quadratic; found by this campaign, left to the
    # prepared stylesheets); 60,000 and more are refused by Limits.max_children before any pack runs.
    count = rng.choice([10, 300, 1_000, 60_000, 300_000])
    end = data.find(b">", tag.end() - 1)
    if end < 0:
        return data
    if rng.random() < 0.3:
        attributes = b" ".join(b'a%d="x"' % i for i in range(min(count, 60_000)))
        grown = data[: tag.end() - 1] + b" " + attributes + data[tag.end() - 1 :]
    else:
        piece = rng.choice([b"<x/>", b"<" + name + b"/>", b"<" + name + b">0</" + name + b">"])
        grown = data[: end + 1] + piece * count + data[end + 1 :]
    return grown if len(grown) < 8 * _MAX else data


def nest(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice([30, 70, 500, 20_000])
    match = _ROOT_START.search(data)
    if match is None:
        return data
    close = data.rfind(b"</")
    if close < 0:
        return data
    end = data.find(b">", match.end())
    return data[: end + 1] + b"<d>" * depth + b"</d>" * depth + data[end + 1 :]


def sbdh_wrap(data: bytes, rng: random.Random) -> bytes:
    """The invoice inside a Peppol StandardBusinessDocument (sometimes with two payloads, or none)."""
    body = _body(_text(data))
    payloads = rng.choice([[body], [body, body], [""], [body.replace("Invoice", "Order", 1)]])
    inner = "\n".join(payloads)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<StandardBusinessDocument xmlns="{SBDH_NS}">'
        "<StandardBusinessDocumentHeader><HeaderVersion>1.0</HeaderVersion></StandardBusinessDocumentHeader>"
        f"\n{inner}\n</StandardBusinessDocument>\n"
    ).encode("utf-8", "replace")


def xinclude(data: bytes, rng: random.Random) -> bytes:
    element = f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{_target(rng)}" parse="text"/>'
    return data.replace(b"</cbc:Note>", element.encode() + b"</cbc:Note>", 1)


def _flate_parms(rng: random.Random) -> dict[str, int]:
    predictor = rng.choice([2, 10, 11, 12, 13, 14, 15, 7])
    return {
        "Predictor": predictor,
        "Columns": rng.choice([1, 7, 100, 2**16, 10**9, 2**31 - 1, 0, -5]),
        "Colors": rng.choice([1, 3, 4, 300, 10**6]),
        "BitsPerComponent": rng.choice([8, 8, 16, 4, 1, 3]),
    }


def pdf_wrap(data: bytes, rng: random.Random) -> bytes:
    """The document as a Factur-X PDF's attachment: plain, deflated, with a predictor (random parameters, often
    absurd), a chain of filters, an unknown filter or a broken stream; XMP right, wrong, cut, with a DOCTYPE."""
    import pikepdf
    from pikepdf import Array, Dictionary, Name, String

    from tests.facturx_pdf import xmp

    kind = rng.randrange(6)
    raw, entries = data, {}
    if kind == 1:
        raw, entries = zlib.compress(data), {"/Filter": Name.FlateDecode}
    elif kind == 2:
        parms = _flate_parms(rng)
        raw = zlib.compress(b"\x02" + data if parms["Predictor"] >= 10 else data)
        entries = {"/Filter": Name.FlateDecode, "/DecodeParms": Dictionary({f"/{k}": v for k, v in parms.items()})}
    elif kind == 3:
        raw, entries = zlib.compress(zlib.compress(data)), {"/Filter": Array([Name.FlateDecode, Name.FlateDecode])}
    elif kind == 4:
        entries = {"/Filter": rng.choice([Name.LZWDecode, Name.ASCIIHexDecode, Name("/Bogus")])}
    elif kind == 5:
        raw, entries = zlib.compress(data)[: rng.randrange(1, 40)], {"/Filter": Name.FlateDecode}
    metadata = rng.choice(
        [
            xmp(),
            xmp(level="BASICWL"),
            xmp()[:-30],
            b'<!DOCTYPE x SYSTEM "' + _target(rng).encode() + b'">' + xmp(),
            None,
        ]
    )
    pdf = pikepdf.new()
    pdf.add_blank_page()
    stream = pikepdf.Stream(pdf, raw)
    for key, value in entries.items():
        stream[key] = value
    if rng.random() < 0.1:
        stream["/F"] = String(_target(rng))  # the stream's data "in an external file": never read
    name = rng.choice(["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "ZUGFeRD-invoice.xml", "other.xml"])
    spec = pdf.make_indirect(Dictionary(Type=Name.Filespec, F=String(name), UF=String(name), EF=Dictionary(F=stream)))
    if rng.random() < 0.8:
        spec.AFRelationship = Name(rng.choice(["/Alternative", "/Data", "/Unspecified"]))
    tree = Dictionary(Names=Array([String(name), spec]))
    for _ in range(rng.choice([0, 0, 1, 40])):
        tree = Dictionary(Kids=Array([pdf.make_indirect(tree)]))
    pdf.Root.Names = Dictionary(EmbeddedFiles=tree)
    pdf.Root.AF = Array([spec] * rng.choice([1, 1, 2]))
    if metadata is not None:
        if rng.random() < 0.3:
            parms = _flate_parms(rng)
            meta = pikepdf.Stream(pdf, zlib.compress(metadata))
            meta.Filter = Name.FlateDecode
            meta.DecodeParms = Dictionary({f"/{k}": v for k, v in parms.items()})
        else:
            meta = pikepdf.Stream(pdf, metadata)
            meta.Type, meta.Subtype = Name.Metadata, Name.XML
        pdf.Root.Metadata = meta
    out = io.BytesIO()
    pdf.save(
        out,
        compress_streams=False,
        stream_decode_level=pikepdf.StreamDecodeLevel.none,
        fix_metadata_version=False,
        encryption=pikepdf.Encryption(user="u", owner="o") if rng.random() < 0.03 else None,
    )
    return out.getvalue()


def pdf_break(data: bytes, rng: random.Random) -> bytes:
    """A PDF's structure broken: cut short, bytes flipped, its cross-reference or numbers changed."""
    kind = rng.randrange(5)
    if kind == 0:
        return data[: rng.randrange(len(data))]
    if kind == 1:
        out = bytearray(data)
        for _ in range(rng.randrange(1, 20)):
            out[rng.randrange(len(out))] = rng.randrange(256)
        return bytes(out)
    if kind == 2:
        start = data.rfind(b"xref")
        return data[:start] + b"startxref\n" + str(rng.randrange(10**7)).encode() + b"\n%%EOF\n" if start > 0 else data
    if kind == 3:
        number = str(rng.choice([0, -1, 10**9, 2**31, 2**63])).encode()
        return re.sub(rb"/(Columns|Predictor|Length|Colors|Count) -?\d+", rb"/\1 " + number, data, count=3)
    return data.replace(b"/FlateDecode", rng.choice([b"/LZWDecode", b"/Fl", b"/FlateDecode /FlateDecode"]), 1)


def texts(data: bytes, rng: random.Random) -> bytes:
    """An element's text replaced by odd values (numbers, dates, codes, huge strings, control characters)."""
    spans = list(re.finditer(rb">([^<>]{1,60})</", data[:500_000]))
    if not spans:
        return data
    span = rng.choice(spans)
    value = rng.choice(
        [b"", b"-0", b"1e309", b"NaN", b"9" * 40, b"2025-02-30", b"&#0;", b"&#xD800;", b"\xff\xfe", b"x" * 70_000]
    )
    return data[: span.start(1)] + value + data[span.end(1) :]


def delete(data: bytes, rng: random.Random) -> bytes:
    tags = list(_TAG.finditer(data[:500_000]))
    if not tags:
        return data
    tag = rng.choice(tags)
    name = (tag.group(1) or b"") + tag.group(2)
    end = data.find(b"</" + name + b">", tag.end())
    return data[: tag.start()] + data[end + len(name) + 3 :] if end > 0 else data


XML_MUTATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    reencode,
    doctype,
    flood,
    nest,
    sbdh_wrap,
    xinclude,
    pdf_wrap,
    pdf_wrap,
    texts,
    texts,
    delete,
)
PDF_MUTATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (pdf_break, pdf_break)


def mutate(data: bytes, max_size: int, seed: int, byte_mutate: Callable[[bytes, int], bytes]) -> bytes:
    """One mutation of ``data``: structure-aware mostly, libFuzzer's byte mutation sometimes."""
    rng = random.Random(seed)
    if not data or rng.random() < 0.25:
        return byte_mutate(data, max_size)
    pool = PDF_MUTATIONS if data.startswith(b"%PDF") else XML_MUTATIONS
    try:
        out = rng.choice(pool)(data, rng)
    except Exception:  # a mutation of an input it does not understand: fall back to bytes
        return byte_mutate(data, max_size)
    return out if len(out) <= max(max_size, _MAX) else out[:max_size]
