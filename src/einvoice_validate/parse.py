"""The only XML parser of the library (hardened lxml), plus detection of document type and spec id.

Every document is read here once: refused before parsing if it is too large or has a DOCTYPE, parsed with
no DTD loading, no entity resolution and no network, then classified. Saxon only ever sees documents that
passed this module (SaxonC's own parser would resolve external entities).
"""

from __future__ import annotations

import io
import os
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO, Literal, Union

from lxml import etree

from .errors import InputError
from .limits import DEFAULT_LIMITS, Limits

__all__ = ["CII_NS", "UBL_CN_NS", "UBL_INVOICE_NS", "Document", "DocumentType", "Source", "load", "read_source"]

UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
UBL_CN_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
CII_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
_CBC = "{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}"
_RAM = "{urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100}"

DocumentType = Literal["ubl-invoice", "ubl-creditnote", "cii"]
Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", BinaryIO]

_ROOTS: dict[str, DocumentType] = {
    f"{{{UBL_INVOICE_NS}}}Invoice": "ubl-invoice",
    f"{{{UBL_CN_NS}}}CreditNote": "ubl-creditnote",
    f"{{{CII_NS}}}CrossIndustryInvoice": "cii",
}
_SPEC_ID_PATH = {
    "ubl-invoice": f"{_CBC}CustomizationID",
    "ubl-creditnote": f"{_CBC}CustomizationID",
    "cii": f"{{{CII_NS}}}ExchangedDocumentContext/{_RAM}GuidelineSpecifiedDocumentContextParameter/{_RAM}ID",
}


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed, classified invoice. ``text`` is the form handed to Saxon (no DOCTYPE, already checked)."""

    tree: etree._ElementTree
    document_type: DocumentType
    spec_ids: tuple[str, ...]
    name: str | None
    data: bytes

    @property
    def syntax(self) -> Literal["ubl", "cii"]:
        return "cii" if self.document_type == "cii" else "ubl"

    @property
    def spec_id(self) -> str | None:
        """The first specification identifier (BT-24), or None when the document has none."""
        return self.spec_ids[0] if self.spec_ids else None

    def text(self) -> str:
        """The document as a string for Saxon: the original text when it is UTF-8 (no second serialisation)."""
        if (self.tree.docinfo.encoding or "UTF-8").upper() in ("UTF-8", "UTF8"):
            try:
                return self.data.decode("utf-8-sig")
            except UnicodeDecodeError:
                pass
        # Other encodings: lxml's serialisation, without an XML declaration that would name the wrong encoding.
        return etree.tostring(self.tree, encoding="unicode")


def read_source(source: Source, limits: Limits = DEFAULT_LIMITS) -> tuple[bytes, str | None]:
    """Read bytes from a path, bytes or binary file object, refusing more than ``limits.max_document_bytes``.

    A ``str`` is always a path, never XML text (pass XML as ``bytes``).
    """
    cap = limits.max_document_bytes
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = None
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        name = str(source)
        try:
            size = path.stat().st_size
            if size > cap:
                raise _too_large(size, cap)
            with path.open("rb") as fh:
                data = fh.read(cap + 1)
        except OSError as exc:
            raise InputError("request.unreadable", f"cannot read {name}: {exc.strerror or exc}") from exc
    elif hasattr(source, "read"):
        name = getattr(source, "name", None)
        name = name if isinstance(name, str) else None
        try:
            data = _read_capped(source, cap)
        except OSError as exc:
            raise InputError("request.unreadable", f"cannot read the stream: {exc}") from exc
        if not isinstance(data, bytes):
            raise InputError("request.unreadable", "the file object must be opened in binary mode")
    else:
        raise InputError(
            "request.unreadable", f"cannot validate a {type(source).__name__}: pass bytes, a path or a binary file"
        )
    if len(data) > cap:
        raise _too_large(len(data), cap)
    return data, name


def _read_capped(stream: BinaryIO | io.BufferedIOBase, cap: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while total <= cap:
        chunk = stream.read(min(1 << 20, cap + 1 - total))
        if not chunk:
            break
        if not isinstance(chunk, bytes):
            return chunk  # text stream: reported by the caller
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _too_large(size: int, cap: int) -> InputError:
    return InputError("invoice.too-large", f"the document has {size} bytes or more; the limit is {cap} bytes")


_local = threading.local()


def _parser() -> etree.XMLParser:
    # lxml parsers are not thread-safe: one per thread. huge_tree lifts libxml2's 10 MB text-node cap
    # (embedded attachments); our own limits replace it.
    parser: etree.XMLParser | None = getattr(_local, "parser", None)
    if parser is None:
        parser = etree.XMLParser(
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            dtd_validation=False,
            huge_tree=True,
            collect_ids=False,
        )
        _local.parser = parser
    return parser


@lru_cache(maxsize=8)
def _depth_probe(max_depth: int) -> etree.XPath:
    # An element at depth max_depth+1 exists iff this child path selects something; libxml2 evaluates it in C.
    return etree.XPath("boolean(" + "/*" * (max_depth + 1) + ")")


def _prolog_has_markup_declaration(data: bytes) -> bool:
    """True when a ``<!DOCTYPE`` (or any ``<!`` declaration other than a comment) precedes the root element."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or data[:2] in (b"<\x00", b"\x00<"):
        head = data[: 4 << 20].decode("utf-16", errors="replace").encode("utf-8")
    else:
        head = data
    i = 0
    while True:
        j = head.find(b"<", i)
        if j < 0:
            return False
        if head.startswith(b"<?", j):
            end = head.find(b"?>", j + 2)
            i = end + 2 if end >= 0 else len(head)
        elif head.startswith(b"<!--", j):
            end = head.find(b"-->", j + 4)
            i = end + 3 if end >= 0 else len(head)
        else:
            return head.startswith(b"<!", j)  # a declaration before the root element, or the root itself


def load(source: Source, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Read, parse and classify one document. Raises :class:`InputError` with a stable code."""
    data, name = read_source(source, limits)
    if not data.strip():
        raise InputError("document.unreadable", "the document is empty")
    if _prolog_has_markup_declaration(data):
        raise InputError(
            "document.forbidden-construct",
            "the document has a DOCTYPE declaration; DTDs and entities are refused (never resolved)",
        )
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        raise InputError(
            "document.unreadable", f"not well-formed XML at line {line}, column {column}: {exc.msg}"
        ) from exc
    except ValueError as exc:  # e.g. lxml refusing an unknown encoding
        raise InputError("document.unreadable", f"not readable as XML: {exc}") from exc
    tree = root.getroottree()
    if tree.docinfo.doctype:  # type: ignore[union-attr]  # (lxml-stubs) defence in depth: the prolog scan should have refused it
        raise InputError("document.forbidden-construct", "the document has a DOCTYPE declaration")
    if _depth_probe(limits.max_depth)(tree):
        raise InputError("document.limit-exceeded", f"elements are nested deeper than {limits.max_depth} levels")
    document_type = _ROOTS.get(root.tag) if isinstance(root.tag, str) else None
    if document_type is None:
        qname = etree.QName(root)
        raise InputError(
            "document.unsupported-type",
            f"the root element is {{{qname.namespace or ''}}}{qname.localname}; expected a UBL 2.1 Invoice or "
            "CreditNote or a UN/CEFACT CrossIndustryInvoice",
        )
    spec_ids = tuple(el.text or "" for el in root.iterfind(_SPEC_ID_PATH[document_type]))
    return Document(tree=tree, document_type=document_type, spec_ids=spec_ids, name=name, data=data)
