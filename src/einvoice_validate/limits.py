"""Every size and depth limit of the library, with its documented default, in one place."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_LIMITS", "Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Limits applied to every document before and while it is parsed.

    Attributes:
        max_document_bytes: the largest document accepted, in bytes; above it the error is
            ``invoice.too-large``. Checked before parsing, also while reading a stream (never more than this
            plus one byte is read). Real invoices carry base64 attachments of tens of MB, so libxml2's own
            10 MB text-node limit is lifted (``huge_tree``) and this explicit limit bounds every node instead.
        max_depth: the deepest element nesting accepted (beyond it: ``document.unreadable``, reason ``depth``).
            UBL and CII invoices stay well below 20 levels; the check runs in libxml2's XPath engine, not in Python.
        max_elements: the most elements a document may have (``invoice.too-large``, reason ``elements``): a
            10,000-line invoice has about 300,000; the limit bounds the memory of the parsed trees (lxml's and
            Saxon's), which a document of tiny elements could otherwise blow up to many times its size.
        max_children: the most child elements one element may have (``invoice.too-large``, reason ``children``):
            five times the lines of a 10,000-line invoice, whose line container is the largest; a flood of empty
            elements (300,000 in a postal code took 13 s in the French pack, which costs about 30 µs per element)
            ends here, before any stage runs.
        max_text_length: the longest text node, in characters (``invoice.too-large``, reason ``text-length``):
            room for an embedded attachment of about 48 MB (base64).
        max_attribute_length: the longest attribute value, in characters (``invoice.too-large``, reason
            ``attribute-length``); invoice attributes are codes, ids and file names.
        max_attributes: the most attributes one element may have (``invoice.too-large``, reason ``attributes``):
            invoice elements have a few; the default XSLT engine's parser (SaxonC) refuses more than 200
            (``jdk.xml.elementAttributeLimit``), so a document beyond it is refused before any stage runs rather
            than after the XSD stage has reported every undeclared attribute.
        max_xsd_findings: the most XSD findings listed per document; past it one finding ``xsd.more-errors`` says
            how many more the schema reported (they are not mapped, located or rendered: a document of 200,000
            schema errors costs as much as one of this many).

    The element, text and attribute checks run only when the document is big enough to break them (a
    document of N bytes cannot hold a text longer than N), so ordinary invoices pay nothing for them.
    PDF input (ZUGFeRD / Factur-X, :mod:`einvoice_validate.envelopes.pdf`): the PDF itself is bounded by
    ``max_document_bytes``; the invoice taken out of it by ``max_document_bytes`` too, checked while decompressing
    (a decompression bomb stops at the limit, ``invoice.too-large`` reason ``attachment-bytes``), and then by every
    limit above like any XML document.
        max_pdf_xmp_bytes: the largest XMP metadata stream read (beyond it the XMP is not read: the XMP checks say so).
        max_pdf_predicted_bytes: the largest stream read that has a predictor (``/DecodeParms /Predictor``, made for
        images; an invoice's XML has none in practice), decoded by the library itself in rows of the data's own
        bytes (``invoice.too-large``, reason ``attachment-bytes``, beyond it). Every PDF stream is decoded with a
        budget: decompression stops at its limit whatever the filters, and a predictor never makes the data longer.
        max_pdf_name_tree_depth: the deepest /Kids nesting of the embedded-files name tree walked, and
        max_pdf_embedded_files: the most embedded files looked at (``document.unreadable``, reason ``pdf-structure``).

    DTDs, entities and XInclude are always refused (``document.unreadable``, reason ``doctype`` / ``xinclude``):
    there is no limit for them to set.
    """

    max_document_bytes: int = 100 * 1024 * 1024
    max_depth: int = 64
    max_elements: int = 2_000_000
    max_children: int = 50_000
    max_text_length: int = 64 * 1024 * 1024
    max_attribute_length: int = 1024 * 1024
    max_attributes: int = 200
    max_xsd_findings: int = 1000
    max_pdf_xmp_bytes: int = 4 * 1024 * 1024
    max_pdf_predicted_bytes: int = 2 * 1024 * 1024
    max_pdf_name_tree_depth: int = 32
    max_pdf_embedded_files: int = 1000


DEFAULT_LIMITS = Limits()
