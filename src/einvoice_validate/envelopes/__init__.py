"""Envelopes: the containers an invoice can arrive in, each a function from bytes to the invoice's bytes plus what
the report says about the envelope. PDF (ZUGFeRD / Factur-X hybrid invoices) lives in :mod:`.pdf`; the Peppol
StandardBusinessDocument (SBDH), being XML, in :mod:`.sbdh`, which :mod:`einvoice_validate.parse` asks after parsing.
Neither imports :mod:`einvoice_validate.parse`: the envelopes sit below the parser."""

from __future__ import annotations

__all__ = ["is_pdf"]

PDF_MAGIC = b"%PDF-"


def is_pdf(data: bytes) -> bool:
    """Whether ``data`` is a PDF file: the ``%PDF-`` header within the first 1024 bytes (ISO 32000-1, 7.5.2 lets
    readers accept leading bytes; we allow only whitespace and a byte-order mark there, as real files have)."""
    head = data[:1024]
    index = head.find(PDF_MAGIC)
    return index >= 0 and not head[:index].lstrip(b"\xef\xbb\xbf \t\r\n\x00")
