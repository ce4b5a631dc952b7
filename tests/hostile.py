"""Builders for the hostile-input tests: every fixture is written here, from the project's own example invoices
(nothing downloaded). Each returns bytes."""

from __future__ import annotations

import base64
import functools
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOOD_UBL = REPO / "examples" / "xrechnung-ubl-invoice.xml"
GOOD_CII = REPO / "examples" / "xrechnung-cii-invoice.xml"
BROKEN_UBL = REPO / "examples" / "xrechnung-ubl-broken.xml"

SBDH_NS = "http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"


def invoice_body(path: Path = GOOD_UBL) -> str:
    """The invoice without its XML declaration (comments kept)."""
    text = path.read_text(encoding="utf-8")
    return text.split("?>", 1)[1].lstrip() if text.startswith("<?xml") else text


def with_declaration(body: str, encoding: str, *, bom: bool = False, declared: str | None = None) -> bytes:
    """The invoice encoded in ``encoding`` with a declaration naming ``declared`` (default: the same)."""
    head = f'<?xml version="1.0" encoding="{declared or encoding}"?>\n'
    data = (head + body).encode(encoding)
    if bom and encoding.lower() == "utf-8":
        data = b"\xef\xbb\xbf" + data
    return data


def sbdh(payload: str, *extra_payloads: str) -> bytes:
    """A Peppol StandardBusinessDocument around one (or more) payload elements."""
    header = """<StandardBusinessDocumentHeader>
    <HeaderVersion>1.0</HeaderVersion>
    <Sender><Identifier Authority="iso6523-actorid-upis">0204:991-12345-67</Identifier></Sender>
    <Receiver><Identifier Authority="iso6523-actorid-upis">0204:991-76543-21</Identifier></Receiver>
    <DocumentIdentification>
      <Standard>urn:oasis:names:specification:ubl:schema:xsd:Invoice-2</Standard>
      <TypeVersion>2.1</TypeVersion>
      <InstanceIdentifier>3f1c9a52-5d3e-4a55-9c55-2f0d9f1e0b7a</InstanceIdentifier>
      <Type>Invoice</Type>
      <CreationDateAndTime>2025-03-14T10:00:00</CreationDateAndTime>
    </DocumentIdentification>
  </StandardBusinessDocumentHeader>"""
    inner = "\n".join((payload, *extra_payloads))
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<StandardBusinessDocument xmlns="{SBDH_NS}">\n'
        f"  {header}\n{inner}\n</StandardBusinessDocument>\n"
    )
    return text.encode()


def with_attachment(megabytes: int) -> bytes:
    """The valid XRechnung UBL example with an embedded PDF-typed attachment of ``megabytes`` MB (base64)."""
    raw = os.urandom(megabytes * 1024 * 1024)
    b64 = base64.b64encode(raw).decode("ascii")
    reference = (
        "<cac:AdditionalDocumentReference>\n"
        "        <cbc:ID>ANLAGE-1</cbc:ID>\n"
        "        <cac:Attachment>\n"
        f'            <cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="anlage.pdf">{b64}'
        "</cbc:EmbeddedDocumentBinaryObject>\n"
        "        </cac:Attachment>\n"
        "    </cac:AdditionalDocumentReference>\n    "
    )
    text = GOOD_UBL.read_text(encoding="utf-8")
    # UBL order: AdditionalDocumentReference comes right before AccountingSupplierParty in this example.
    marker = "<cac:AccountingSupplierParty>"
    assert marker in text
    return text.replace(marker, reference + marker, 1).encode("utf-8")


def nested(depth: int) -> bytes:
    return (
        b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">'
        + b"<a>" * depth
        + b"</a>" * depth
        + b"</Invoice>"
    )


BILLION_LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + b"".join(
        f' <!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'.encode() for i in range(1, 10)
    )
    + b']>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&lol9;</Invoice>\n'
)

QUADRATIC_BLOWUP = (
    b'<?xml version="1.0"?>\n<!DOCTYPE kaboom [<!ENTITY a "'
    + b"x" * 50_000
    + b'">]>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">'
    + b"&a;" * 50_000
    + b"</Invoice>\n"
)


# --- issue 40: DOCTYPEs that name files, in every encoding and as a Factur-X attachment --------------------------

UBL_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
GOOD_FACTURX = REPO / "examples" / "xrechnung-cii-invoice.xml"

# How each encoding is written: (Python codec, the XML declaration's name or None for no declaration, BOM)
DOCTYPE_ENCODINGS: dict[str, tuple[str, str | None, bytes]] = {
    "utf-8": ("utf-8", "UTF-8", b""),
    "utf-8-bom": ("utf-8", None, b"\xef\xbb\xbf"),
    "utf-16-bom": ("utf-16-le", "UTF-16", b"\xff\xfe"),
    "utf-16-be": ("utf-16-be", "UTF-16", b""),
    "utf-16-le": ("utf-16-le", "UTF-16", b""),
    "utf-32-be": ("utf-32-be", "UTF-32", b""),
    "utf-32-le": ("utf-32-le", "UTF-32", b""),
    "utf-32-be-bare": ("utf-32-be", None, b""),
    "utf-32-bom": ("utf-32-le", None, b"\xff\xfe\x00\x00"),
    "utf-32-be-bom": ("utf-32-be", None, b"\x00\x00\xfe\xff"),
    "utf-7": ("utf-7", "UTF-7", b""),
}


def encoded(text: str, encoding: str) -> bytes:
    """``text`` (no XML declaration) written in one of :data:`DOCTYPE_ENCODINGS`, with its declaration and BOM."""
    codec, declared, bom = DOCTYPE_ENCODINGS[encoding]
    head = f'<?xml version="1.0" encoding="{declared}"?>\n' if declared else ""
    data = (head + text).encode(codec)
    if codec == "utf-7":  # Python writes "<" as is; a hostile writer shifts it into base64, which libxml2 reads
        data = data.replace(b"<!", b"+ADw-!")
    return bom + data


def doctype_reproducers(targets: dict[str, str]) -> dict[str, bytes]:
    """Issue 40, items 1-3: documents whose DOCTYPE names each of ``targets`` (name → path), as an external subset
    in every encoding, as a parameter entity and a PUBLIC id, and in a Factur-X PDF's attachment. File name →
    bytes."""
    from pikepdf import String

    from tests.facturx_pdf import make_pdf, xmp  # pikepdf: only for the PDF cases

    body = invoice_body(GOOD_UBL)
    cases: dict[str, bytes] = {}
    for target, path in targets.items():
        system = f'<!DOCTYPE Invoice SYSTEM "{path}">\n'
        for encoding in DOCTYPE_ENCODINGS:
            cases[f"{encoding}.system-{target}.xml"] = encoded(system + body, encoding)
        entity = f'<!DOCTYPE Invoice [<!ENTITY % p SYSTEM "{path}"> %p;]>\n'
        cases[f"utf-32-be.entity-{target}.xml"] = encoded(entity + body, "utf-32-be")
        public = f'<!DOCTYPE Invoice PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "{path}">\n'
        cases[f"utf-16-be.public-{target}.xml"] = encoded(public + body, "utf-16-be")
        invoice = encoded(system + invoice_body(GOOD_FACTURX), "utf-32-be")
        cases[f"utf-32-be.system-{target}.pdf"] = make_pdf([("factur-x.xml", invoice)], metadata=xmp())
        # a PDF stream may say its data is in an external file (/F, ISO 32000-1 7.3.8.2): never read
        cases[f"external-stream-{target}.pdf"] = pdf_with_streams(b"", {"/F": String(path)})
    return cases


# --- issue 40: PDF streams with predictors (items 4 and 5) ---------------------------------------------------------


def png_encode(data: bytes, row: int, bpp: int, tags: list[int]) -> bytes:
    """``data`` in rows of ``row`` bytes, each row with the PNG filter type ``tags[i % len(tags)]`` (the encoder
    of ISO 32000-1's PNG predictors, to check the decoder against qpdf's)."""
    out = bytearray()
    prior = bytes(row)
    for n, start in enumerate(range(0, len(data), row)):
        cur = data[start : start + row]
        tag = tags[n % len(tags)]
        encoded_row = bytearray()
        for i, x in enumerate(cur):
            a = cur[i - bpp] if i >= bpp else 0
            b = prior[i]
            c = prior[i - bpp] if i >= bpp else 0
            if tag == 0:
                pred = 0
            elif tag == 1:
                pred = a
            elif tag == 2:
                pred = b
            elif tag == 3:
                pred = (a + b) >> 1
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
            encoded_row.append((x - pred) & 0xFF)
        out += bytes([tag]) + encoded_row
        prior = cur + bytes(row - len(cur))
    return bytes(out)


def tiff_encode(data: bytes, row: int, colors: int) -> bytes:
    out = bytearray(data)
    for start in range(0, len(data), row):
        for i in range(min(start + row, len(data)) - 1, start + colors - 1, -1):
            out[i] = (data[i] - data[i - colors]) & 0xFF
    return bytes(out)


def pdf_with_streams(
    attachment: bytes,
    attachment_dict: dict[str, object],
    metadata: bytes | None = None,
    metadata_dict: dict[str, object] | None = None,
) -> bytes:
    """A Factur-X-like PDF whose attachment (and XMP) stream hold the raw bytes given, with the given stream
    dictionary entries (/Filter, /DecodeParms as pikepdf objects): nothing is re-encoded by pikepdf."""
    import io

    import pikepdf
    from pikepdf import Array, Dictionary, Name, String

    pdf = pikepdf.new()
    pdf.add_blank_page()
    stream = pikepdf.Stream(pdf, attachment)
    stream.Type = Name.EmbeddedFile
    for key, value in attachment_dict.items():
        stream[key] = value
    spec = pdf.make_indirect(
        Dictionary(
            Type=Name.Filespec,
            F=String("factur-x.xml"),
            UF=String("factur-x.xml"),
            EF=Dictionary(F=stream),
            AFRelationship=Name.Alternative,
        )
    )
    pdf.Root.Names = Dictionary(EmbeddedFiles=Dictionary(Names=Array([String("factur-x.xml"), spec])))
    pdf.Root.AF = Array([spec])
    if metadata is not None:
        xmp_stream = pikepdf.Stream(pdf, metadata)
        if not metadata_dict:  # qpdf writes /Type /Metadata streams decoded: a filtered one stays untyped
            xmp_stream.Type = Name.Metadata
            xmp_stream.Subtype = Name.XML
        for key, value in (metadata_dict or {}).items():
            xmp_stream[key] = value
        pdf.Root.Metadata = xmp_stream
    out = io.BytesIO()
    pdf.save(
        out, compress_streams=False, stream_decode_level=pikepdf.StreamDecodeLevel.none, fix_metadata_version=False
    )
    return out.getvalue()


@functools.cache
def predictor_bombs() -> dict[str, bytes]:
    """Issue 40, items 4 and 5: about 1 KB each; qpdf decoded them into gigabytes (a row of /Columns bytes)."""
    import zlib

    from pikepdf import Dictionary, Name

    from tests.facturx_pdf import xmp

    invoice = GOOD_FACTURX.read_bytes()
    tiny = zlib.compress(b"\0" * 1000, 9)
    flate = Name.FlateDecode

    def parms(**kw: int) -> Dictionary:
        return Dictionary({f"/{k}": v for k, v in kw.items()})

    tiff = parms(Predictor=2, Columns=10**9)
    png = parms(Predictor=15, Colors=4, BitsPerComponent=16, Columns=2**28)
    plain = {"/Filter": flate}
    metadata = xmp(level="XRECHNUNG")  # the level of the XRechnung CII example
    return {
        # a tiny deflate stream whose one row qpdf padded to /Columns bytes
        "tiff-columns-attachment": pdf_with_streams(tiny, {"/Filter": flate, "/DecodeParms": tiff}),
        "png-columns-attachment": pdf_with_streams(tiny, {"/Filter": flate, "/DecodeParms": png}),
        # the same parameters on a real invoice and XMP, encoded right (one short row): read as they are
        "tiff-columns-invoice": pdf_with_streams(
            zlib.compress(tiff_encode(invoice, 10**9, 1)),
            {"/Filter": flate, "/DecodeParms": tiff},
            zlib.compress(tiff_encode(metadata, 10**9, 1)),
            {"/Filter": flate, "/DecodeParms": tiff},
        ),
        "png-columns-invoice": pdf_with_streams(
            zlib.compress(png_encode(invoice, len(invoice), 8, [4])),
            {"/Filter": flate, "/DecodeParms": png},
            zlib.compress(png_encode(metadata, len(metadata), 8, [1])),
            {"/Filter": flate, "/DecodeParms": png},
        ),
        "tiff-columns-xmp": pdf_with_streams(
            zlib.compress(invoice), plain, tiny, {"/Filter": flate, "/DecodeParms": tiff}
        ),
        "png-bomb-attachment": pdf_with_streams(
            zlib.compress(b"\x04" + b"\0" * (8 * 1024 * 1024), 9),
            {"/Filter": flate, "/DecodeParms": parms(Predictor=15, Columns=8 * 1024 * 1024)},
        ),
        "flate-chain-bomb": pdf_with_streams(
            zlib.compress(zlib.compress(b"\0" * (120 * 1024 * 1024), 9), 9), {"/Filter": [flate, flate]}
        ),
    }


# --- issue 40: floods (items 6-8) ----------------------------------------------------------------------------------

FRENCH_CII = (
    Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
    / "corpus/france/xp-z12-014-annexB-v1.3/UC1_F202500003_00-INV_20250701_CII_EN16931.xml"
)


def undeclared_attributes(count: int) -> bytes:
    """Item 6: the valid UBL example with ``count`` undeclared attributes on its first cbc:Note."""
    attributes = " ".join(f'a{i}="x"' for i in range(count))
    text = GOOD_UBL.read_text(encoding="utf-8")
    return text.replace("<cbc:Note>", f"<cbc:Note {attributes}>", 1).encode()


def empty_notes(count: int) -> bytes:
    """Item 7: the valid UBL example with ``count`` empty cbc:Note elements (one finding each)."""
    text = GOOD_UBL.read_text(encoding="utf-8")
    return text.replace("<cbc:Note>", "<cbc:Note/>" * count + "<cbc:Note>", 1).encode()


def postcode_flood(count: int) -> bytes:
    """Item 8: a French CII invoice (fr-ctc-cii) with ``count`` empty elements in its first postcode."""
    text = FRENCH_CII.read_text(encoding="utf-8")
    start = text.index("<ram:PostcodeCode>") + len("<ram:PostcodeCode>")
    return (text[:start] + "<x/>" * count + text[start:]).encode()


def run_bounded(
    command: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None
) -> tuple[int, str, str]:
    """Run ``command`` in its own process group with a standard input nobody writes to (a read of ``/dev/stdin``
    would block), and kill the whole group (strace and the traced child) if it is not done within ``timeout``:
    (exit status, standard output, standard error), or an AssertionError saying it hung."""
    import signal
    import subprocess

    with subprocess.Popen(
        command,
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    ) as child:
        try:
            stdout, stderr = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            raise AssertionError(
                f"{command[0]} did not finish within {timeout} s (a FIFO or /dev/stdin read?)"
            ) from exc
    return child.returncode, stdout, stderr
