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
        max_depth: the deepest element nesting accepted (``document.limit-exceeded`` beyond it). UBL and CII
            invoices stay well below 20 levels; the check runs in libxml2's XPath engine, not in Python.
    """

    max_document_bytes: int = 100 * 1024 * 1024
    max_depth: int = 64


DEFAULT_LIMITS = Limits()
