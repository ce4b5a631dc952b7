"""The only XML parser of the library (hardened lxml), plus detection of document type and spec id.

Every document is read here once: refused before parsing if it is too large or has a DOCTYPE (in any encoding),
parsed with :mod:`einvoice_validate.hardened`'s parser (no DTD, no entity, no network, no external subset or
catalog: libxml2 opens no file), then classified. Saxon only ever sees documents that
passed this module (SaxonC's own parser would resolve external entities).
"""

from __future__ import annotations

import codecs
import dataclasses
import io
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Literal, Union

from lxml import etree

from . import hardened
from .envelopes import is_pdf
from .envelopes.sbdh import SBDH_NS, detach, is_sbdh, unwrap_sbdh
from .errors import Detail, InputError, detail_or, os_reason
from .limits import DEFAULT_LIMITS, Limits
from .syntaxes import DocumentKind, Syntaxes, bundled

if TYPE_CHECKING:
    from .findings import PdfEnvelope

__all__ = [
    "SBDH_NS",
    "Document",
    "Envelope",
    "Parsed",
    "Source",
    "child_path",
    "load",
    "read_source",
    "spec_ids_of",
]

_XINCLUDE_NAMESPACES = ("http://www.w3.org/2001/XInclude", "http://www.w3.org/2003/XInclude")

Envelope = Literal["sbdh", "pdf"]
Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", BinaryIO]


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed, classified invoice. ``text`` is the form handed to Saxon (no DOCTYPE, already checked). Its
    document type and syntax are those its root declares (``kind``, from :mod:`.syntaxes`)."""

    tree: etree._ElementTree
    kind: DocumentKind
    spec_ids: tuple[str, ...]
    name: str | None
    data: bytes
    envelope: Envelope | None = None
    """``sbdh`` when the invoice was taken out of a Peppol StandardBusinessDocument (``data`` is then the
    invoice alone, ``tree`` keeps the original line numbers); ``pdf`` when it was embedded in a ZUGFeRD /
    Factur-X PDF (``data`` is the embedded XML, ``pdf`` what the PDF says about it)."""
    pdf: PdfEnvelope | None = None

    @property
    def document_type(self) -> str:
        """The document type's name (``ubl-invoice``, ``cii``, ...)."""
        return self.kind.type

    @property
    def syntax(self) -> str:
        """The syntax's name (``ubl``, ``cii``, ...)."""
        return self.kind.syntax

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


def child_path(root: etree._Element, tags: tuple[str, ...]) -> list[etree._Element]:
    """The elements a path of child steps (``tags``, in Clark notation) selects from ``root``, in document order, by
    lxml's C child iteration (its ElementPath, ``iterfind``, is Python: most of the cost of reading BT-24 and the
    French markers, issue 21)."""
    nodes = [root]
    for tag in tags:
        nodes = [child for node in nodes for child in node.iterchildren(tag)]
    return nodes


def spec_ids_of(root: etree._Element, kind: DocumentKind) -> tuple[str, ...]:
    """The specification identifiers of a document whose root is ``root``: the texts of the elements at the end of
    ``kind.spec_id`` (or the values of its last step's attribute, ``@name``), in document order."""
    steps = kind.spec_id
    if not steps:
        return ()
    if steps[-1].startswith("@"):
        name = steps[-1][1:]
        return tuple(value for el in child_path(root, steps[:-1]) if (value := el.get(name)) is not None)
    return tuple(el.text or "" for el in child_path(root, steps))


def read_source(source: Source, limits: Limits = DEFAULT_LIMITS) -> tuple[bytes, str | None]:
    """Read bytes from a path, bytes or binary file object, refusing more than ``limits.max_document_bytes``.

    A ``str`` is always a path, never XML text (pass XML as ``bytes``).
    """
    cap = limits.max_document_bytes
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = None
    elif isinstance(source, (str, os.PathLike)):
        if isinstance(source, str) and _looks_like_xml_text(source):
            raise InputError(
                "request.unreadable",
                Detail("detail.str-looks-like-xml"),
                reason="type",
            )
        path = Path(source)
        name = str(source)
        try:
            with path.open("rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size > cap:
                    raise _too_large(size, cap)
                # The first read asks for the size the file has (a read of cap + 1 bytes allocated the whole cap,
                # 100 MB, for every file: 85 µs against about 20 for a business case, in the batch's reading thread);
                # a file that grows, or one whose size the system does not know (0), is read on to the cap.
                data = _read_capped(fh, cap, first=size + 1)
        except OSError as exc:
            shown = name if len(name) <= _NAME_SHOWN else name[:_NAME_SHOWN] + "…"
            raise InputError(
                "request.unreadable", Detail("detail.cannot-read", shown, os_reason(exc)), reason="io"
            ) from exc
    elif hasattr(source, "read"):
        name = getattr(source, "name", None)
        name = name if isinstance(name, str) else None
        try:
            data = _read_capped(source, cap)
        except OSError as exc:
            raise InputError("request.unreadable", Detail("detail.cannot-read-stream", exc), reason="io") from exc
        if not isinstance(data, bytes):
            raise InputError("request.unreadable", Detail("detail.text-stream"), reason="text-stream")
    else:
        raise InputError("request.unreadable", Detail("detail.source-type", type(source).__name__), reason="type")
    if len(data) > cap:
        raise _too_large(len(data), cap)
    return data, name


_NAME_SHOWN = 200
"""A path longer than this is cut in error details (the detail never echoes a document)."""


def _looks_like_xml_text(source: str) -> bool:
    """A ``str`` that cannot be a file name: markup, or a line break."""
    head = source.lstrip()[:1]
    return head == "<" or "\n" in source


def _read_capped(stream: BinaryIO | io.BufferedIOBase, cap: int, first: int = 1 << 20) -> bytes:
    """At most ``cap + 1`` bytes of ``stream`` (one more than the cap: the caller refuses them), read in pieces: the
    first of ``first`` bytes, then of 64 KiB, doubling up to 1 MiB (each read allocates what it asks for)."""
    chunks: list[bytes] = []
    total = 0
    ask = first
    while total <= cap:
        chunk = stream.read(min(ask, cap + 1 - total))
        if not chunk:
            break
        if not isinstance(chunk, bytes):
            return chunk  # text stream: reported by the caller
        chunks.append(chunk)
        total += len(chunk)
        ask = 1 << 16 if len(chunks) == 1 else min(ask * 2, 1 << 20)
    return b"".join(chunks)  # (one piece: the piece itself, not a copy)


def _too_large(size: int, cap: int) -> InputError:
    return InputError("invoice.too-large", Detail("detail.too-many-bytes", size, cap), reason="bytes")


@lru_cache(maxsize=8)
def _depth_probe(max_depth: int) -> etree.XPath:
    # An element at depth max_depth+1 exists iff this child path selects something; libxml2 evaluates it in C.
    return etree.XPath("boolean(" + "/*" * (max_depth + 1) + ")")


_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "kind.pdf"),
    (b"PK\x03\x04", "kind.zip"),
    (b"\x89PNG", "kind.png"),
    (b"\xff\xd8\xff", "kind.jpeg"),
    (b"GIF8", "kind.gif"),
    (b"\xd0\xcf\x11\xe0", "kind.ole"),
)


def _what_it_looks_like(data: bytes) -> Detail | None:
    head = data.lstrip()[:16]
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            return Detail(kind)
    if head.startswith((b"{", b"[")):
        return Detail("kind.json")
    return None


def _parse_counting(data: bytes, max_elements: int) -> etree._Element:
    """Parse a document big enough to hold more than ``max_elements`` elements, stopping as soon as it does
    (so a document of tiny elements cannot make the tree many times larger than the limit allows)."""
    events = hardened.iterparse(io.BytesIO(data), events=("start",))
    for count, _ in enumerate(events, start=1):
        if count > max_elements:
            raise InputError("invoice.too-large", Detail("detail.too-many-elements", max_elements), reason="elements")
    root: etree._Element | None = events.root
    if root is None:
        raise InputError("document.unreadable", Detail("detail.no-root"), reason="not-xml")
    return root


def _parse(data: bytes, limits: Limits) -> etree._Element:
    try:
        # Every element takes at least 4 bytes (<a/>) and has a "<" of its own; counting the "<" bytes (in C,
        # about 1 ms per MB) clears real invoices of any size, the parse that counts elements is for the rest
        # (and for encodings that need not write "<" as that byte: _markup_in_bytes).
        if len(data) // 4 > limits.max_elements and (
            data.count(b"<") > limits.max_elements or not _markup_in_bytes(data)
        ):
            return _parse_counting(data, limits.max_elements)
        return etree.fromstring(data, hardened.parser())
    except hardened.ExternalReferenceRefused as exc:  # never reached while OPTIONS hold (defence in depth)
        raise InputError("document.unreadable", Detail("detail.doctype"), reason="doctype") from exc
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        if "Excessive depth" in (exc.msg or ""):
            raise InputError("document.unreadable", Detail("detail.nested-line", line), reason="depth") from exc
        kind = _what_it_looks_like(data)
        # libxml2 ends its message with the position, which the detail already gives
        said = _POSITION_SUFFIX.sub("", exc.msg or "")
        detail = Detail("detail.not-well-formed", line, column, said)
        raise InputError(
            "document.unreadable",
            Detail("detail.this-is", kind, detail) if kind else detail,
            reason="not-xml",
        ) from exc
    except ValueError as exc:  # e.g. lxml refusing an unknown encoding
        raise InputError("document.unreadable", Detail("detail.not-xml", exc), reason="encoding") from exc


_POSITION_SUFFIX = re.compile(r",\s*line \d+, column \d+\s*$")
_XINCLUDE_TAGS = tuple(f"{{{ns}}}*" for ns in _XINCLUDE_NAMESPACES)


def _has_xinclude(root: etree._Element) -> bool:
    # lxml's tag filter runs in C (0.005 ms on an 88 KB invoice, against 0.11 ms for the XPath equivalent)
    return next(root.iter(*_XINCLUDE_TAGS), None) is not None


@lru_cache(maxsize=8)
def _long_text_probe(limit: int) -> etree.XPath:
    return etree.XPath(f"boolean(//text()[string-length() > {limit}])")


# The attribute and child probes start from every element (//*/…), and a position in a step (…/*[n]) makes libxml2
# count each element's children or attributes up to n without collecting them: a fifth of the time of the count(*)
# and count(@*) predicates they replace (7 ms against 30 ms on a 5 MB invoice of 60,000 elements).
@lru_cache(maxsize=8)
def _long_attribute_probe(limit: int) -> etree.XPath:
    return etree.XPath(f"boolean(//*/@*[string-length() > {limit}])")


@lru_cache(maxsize=8)
def _children_probe(limit: int) -> etree.XPath:
    # an element with more than ``limit`` child elements has a child element at position limit + 1
    return etree.XPath(f"boolean(//*/*[{limit + 1}])")


@lru_cache(maxsize=8)
def _attributes_probe(limit: int) -> etree.XPath:
    return etree.XPath(f"boolean(//*/@*[{limit + 1}])")


_EBCDIC_DECLARATION = b"\x4c\x6f\xa7\x94"  # "<?xm" in EBCDIC
_DECLARATION_SEEN = 1024
_ENCODING_PSEUDO_ATTRIBUTE = re.compile(rb"""\sencoding\s*=\s*["']([^"']{1,60})["']""")


def _markup_in_bytes(data: bytes) -> bool:
    """True when every ``<`` and ``=`` of the markup is a byte 0x3C / 0x3D of ``data``, so that counting those bytes
    bounds the elements and the attributes an element can have: UTF-8 (the default), ASCII, the ISO 8859 and Windows
    code pages, UTF-16 and UTF-32 (one byte of each such code unit). Not in UTF-7, which may write both in base64,
    nor in EBCDIC or any other encoding: for those the element count and the attribute probe always run."""
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    if data.startswith(b"<?xml", start):
        end = data.find(b"?>", start, _DECLARATION_SEEN)
        return end >= 0 and _declared_markup_in_bytes(data[start:end])
    if data.startswith((b"\xfe\xff", b"\xff\xfe")) or b"\x00" in data[:4]:
        return True  # UTF-16 or UTF-32: libxml2 keeps the encoding it detected, whatever a declaration says
    return not data.startswith(_EBCDIC_DECLARATION)  # no declaration: UTF-8


@lru_cache(maxsize=32)
def _declared_markup_in_bytes(declaration: bytes) -> bool:
    match = _ENCODING_PSEUDO_ATTRIBUTE.search(declaration)
    if match is None:
        return True  # no encoding declared: UTF-8
    try:
        name = codecs.lookup(match.group(1).decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return False
    return name in ("utf-8", "ascii") or name.startswith(("iso8859-", "cp125", "utf-16", "utf-32"))


def _check_structure(tree: etree._ElementTree, data: bytes, limits: Limits) -> None:
    """Refuse anything beyond the structural limits, in this order: depth, text length, children, attributes,
    attribute length (each probe runs in libxml2, in C; a probe the document's size or bytes show it cannot fire is
    not run)."""
    if _depth_probe(limits.max_depth)(tree):
        raise InputError("document.unreadable", Detail("detail.nested-levels", limits.max_depth), reason="depth")
    # The element count was checked while parsing (_parse_counting); a text or attribute value takes at least
    # one byte per character, so only documents larger than the limit need the probes.
    size = len(data)
    if size > limits.max_text_length and _long_text_probe(limits.max_text_length)(tree):
        raise InputError(
            "invoice.too-large",
            Detail("detail.text-too-long", limits.max_text_length),
            reason="text-length",
        )
    # An element with more than max_children children takes at least 4 bytes a child; one with more than
    # max_attributes attributes has one "=" an attribute (where the encoding writes it as that byte). Counting
    # them is for small documents: a large one has more "=" than that anyway.
    large = size > 4 * limits.max_children
    if large and _children_probe(limits.max_children)(tree):
        raise InputError(
            "invoice.too-large", Detail("detail.too-many-children", limits.max_children), reason="children"
        )
    crowded = large or data.count(b"=") > limits.max_attributes or not _markup_in_bytes(data)
    if crowded and _attributes_probe(limits.max_attributes)(tree):
        raise InputError(
            "invoice.too-large", Detail("detail.too-many-attributes", limits.max_attributes), reason="attributes"
        )
    if size > limits.max_attribute_length and _long_attribute_probe(limits.max_attribute_length)(tree):
        raise InputError(
            "invoice.too-large",
            Detail("detail.attribute-too-long", limits.max_attribute_length),
            reason="attribute-length",
        )


Parsed = Callable[[etree._ElementTree, bytes], None]
"""Called by :func:`load` once the XML is parsed, before its structural limits are checked: the tree and its bytes
(a validator starts building the engine's tree of a large document there, beside the checks)."""


def load(
    source: Source, limits: Limits = DEFAULT_LIMITS, syntaxes: Syntaxes | None = None, parsed: Parsed | None = None
) -> Document:
    """Read, parse and classify one document (XML, or a ZUGFeRD / Factur-X PDF: the invoice embedded in it) by the
    roots of ``syntaxes`` (default: the bundled ones; a validator passes its rules home's); ``parsed``: see
    :data:`Parsed`. Raises :class:`InputError` with a stable code."""
    data, name = read_source(source, limits)
    known = syntaxes if syntaxes is not None else bundled()
    if is_pdf(data):
        from .envelopes.pdf import extract_invoice  # on the first PDF: XML never loads the PDF envelope

        xml, pdf = extract_invoice(data, limits)
        document = _load_xml(xml, name, limits, known, parsed)
        if document.envelope is not None:
            raise InputError(
                "document.unsupported-type",
                Detail("detail.pdf-envelope-inside", pdf.attachment, document.envelope),
                reason="envelope",
            )
        return dataclasses.replace(document, envelope="pdf", pdf=pdf)
    return _load_xml(data, name, limits, known, parsed)


def _load_xml(data: bytes, name: str | None, limits: Limits, known: Syntaxes, parsed: Parsed | None = None) -> Document:
    if not data or data.isspace():  # (not data.strip(): a copy of the whole document, 0.01 ms per 90 KB)
        raise InputError("document.unreadable", Detail("detail.blank" if data else "detail.empty"), reason="empty")
    hardened.refuse_markup_declarations(data)  # before parsing, in every encoding libxml2 reads
    root = _parse(data, limits)
    tree = root.getroottree()
    if tree.docinfo.doctype:  # type: ignore[attr-defined]  # (lxml-stubs) defence in depth: the prolog scan should have refused it
        raise InputError("document.unreadable", Detail("detail.doctype-found"), reason="doctype")
    # Nothing here processes XInclude (neither lxml nor Saxon is asked to); refusing it keeps that true for
    # whatever consumes the document next. Namespace URIs may be written with character references, so the
    # probe looks at the parsed tree, not the bytes.
    if _has_xinclude(root):
        raise InputError(
            "document.unreadable",
            Detail("detail.xinclude"),
            reason="xinclude",
        )
    if parsed is not None:
        parsed(tree, data)
    _check_structure(tree, data, limits)
    envelope: Envelope | None = None
    if is_sbdh(root):
        envelope = "sbdh"
        root = unwrap_sbdh(root)
    kind = known.roots.get(root.tag) if isinstance(root.tag, str) else None
    refused = known.refused.get(root.tag) if isinstance(root.tag, str) else None
    if refused is not None:
        detail = detail_or(f"detail.{refused.reason}", refused.detail)  # the bundled ones have their German
        raise InputError("document.unsupported-type", detail, reason=refused.reason)
    if kind is None:
        qname = etree.QName(root)
        raise InputError(
            "document.unsupported-type",
            Detail(
                "detail.root-in-sbdh" if envelope else "detail.root",
                f"{{{qname.namespace or ''}}}{qname.localname}",
                known.expected(),
            ),
            reason="root",
        )
    if envelope is not None:
        tree, data = detach(root)
        root = tree.getroot()
    spec_ids = spec_ids_of(root, kind)
    return Document(tree=tree, kind=kind, spec_ids=spec_ids, name=name, data=data, envelope=envelope)
