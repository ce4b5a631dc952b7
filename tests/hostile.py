"""Builders for the hostile-input tests: every fixture is written here, from the project's own example invoices
(nothing downloaded). Each returns bytes."""

from __future__ import annotations

import base64
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
    return cases
