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
