"""The hardened lxml parser every untrusted byte goes through, and the check that refuses a DTD before parsing.

Under :data:`OPTIONS` libxml2 reads no file, no URL and no catalog, whatever the document declares and however it
is encoded. ``load_dtd=False`` alone is not enough: libxml2 loads the external subset (``<!DOCTYPE x SYSTEM
"…">``) and external parameter entities whenever the parser context's ``loadsubset`` is non-zero (SAX2.c,
``xmlSAX2ExternalSubset``), and lxml's ``collect_ids=False`` sets ``XML_SKIP_IDS`` there (parser.pxi,
``_initSaxDocument``) with libxml2 < 2.15, so a document declaring ``SYSTEM "/etc/passwd"`` (or ``/dev/stdin``, a
FIFO: a read that never returns) had that file opened, and libxml2's default loader read its built-in catalog
first. ``collect_ids=True`` keeps ``loadsubset`` at zero: libxml2 never asks for an external resource. As defence
in depth, every parser made here carries a resolver that refuses every request (:class:`ExternalReferenceRefused`),
so that libxml2's default loader (files, catalog) is never reached even if a future option asked for one.
``tests/input/test_file_access.py`` proves it under ``strace``.

:func:`refuse_markup_declarations` refuses a DOCTYPE (or any ``<!`` declaration) before the root element *before*
parsing, in every encoding libxml2 reads: byte-order marks and the zero patterns of UTF-16 and UTF-32 with or
without a BOM, EBCDIC, and the encoding an XML declaration names (UTF-7, ISO-2022, HZ, …: any that Python can
decode; a declared encoding it cannot is refused, reason ``encoding``, never left to libxml2 unchecked). The parsed
tree's ``docinfo.doctype`` is checked again after parsing (:mod:`einvoice_validate.parse`).
"""

from __future__ import annotations

import codecs
import re
import threading
from collections.abc import Iterator
from typing import Any

from lxml import etree

from .errors import Detail, InputError

__all__ = [
    "OPTIONS",
    "ExternalReferenceRefused",
    "iterparse",
    "parser",
    "refuse_markup_declarations",
]

OPTIONS: dict[str, Any] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "dtd_validation": False,
    "attribute_defaults": False,
    # huge_tree lifts libxml2's 10 MB text-node cap (embedded attachments); limits.py bounds every node instead
    "huge_tree": True,
    # True keeps libxml2's loadsubset at zero: with False, lxml sets XML_SKIP_IDS there and libxml2 < 2.15 then
    # loads the external subset and external parameter entities although load_dtd is False (see the docstring)
    "collect_ids": True,
}
"""The options of every parser of untrusted bytes: no DTD, no entity expansion, no network, no external subset."""


class ExternalReferenceRefused(Exception):
    """libxml2 asked for an external resource (a DTD, an entity, a catalog entry): refused, nothing is read."""

    def __init__(self, url: str | None, public_id: str | None) -> None:
        super().__init__(f"external reference refused: {url or public_id or '?'}")


class _RefuseEverything(etree.Resolver):
    """Raises for every request, so lxml never falls back to libxml2's default loader (file system, catalog)."""

    def resolve(self, system_url: str | None, public_id: str | None, context: object = None) -> Any:
        raise ExternalReferenceRefused(system_url, public_id)


_local = threading.local()


def parser(*, huge_tree: bool = True) -> etree.XMLParser:
    """This thread's hardened parser (lxml parsers are not thread-safe: one per thread and kind)."""
    key = "huge" if huge_tree else "small"
    made: etree.XMLParser | None = getattr(_local, key, None)
    if made is None:
        made = etree.XMLParser(**{**OPTIONS, "huge_tree": huge_tree})
        made.resolvers.add(_RefuseEverything())
        setattr(_local, key, made)
    return made


def iterparse(source: Any, events: tuple[str, ...]) -> etree.iterparse:
    """lxml's ``iterparse`` under the hardened options and the refusing resolver."""
    parsing = etree.iterparse(source, events=events, **OPTIONS)
    parsing.resolvers.add(_RefuseEverything())
    return parsing


# --- the check before parsing ------------------------------------------------------------------------------------

_DECLARATION = re.compile(r"""^\ufeff?<\?xml[^>]{0,200}?encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._:()+-]{0,60})["']""")
_UNICODE_FAMILY = re.compile(r"(?i)^(?:iso-10646-)?(?:utf-?(?:16|32)|ucs-?[24])(?:-?[bl]e)?$")
_CHUNK = 1 << 20


def _base_codecs(head: bytes) -> tuple[str, ...]:
    """The decodings libxml2 may apply to a document starting with ``head`` (before any XML declaration), the
    plausible ones all given: a document is refused if any of them shows a declaration."""
    if head.startswith((b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00")):
        return ("utf-32",)
    if head.startswith((b"\xfe\xff", b"\xff\xfe")):
        return ("utf-16",)
    if b"\x00" in head[:4]:  # UTF-16 or UTF-32 without a byte-order mark, in either byte order
        return ("utf-32-be", "utf-32-le", "utf-16-be", "utf-16-le")
    if head.startswith(b"\x4c\x6f\xa7\x94"):  # "<?xm" in EBCDIC
        return ("cp037",)
    if head.startswith(b"\xef\xbb\xbf"):
        return ("utf-8",)
    return ("latin-1",)  # ASCII-compatible: each byte one character, as libxml2 reads the declaration


def _codecs(data: bytes) -> list[str]:
    names = list(_base_codecs(data[:4]))
    for base in tuple(names):
        match = _DECLARATION.match(data[:1024].decode(base, errors="replace"))
        if match is None:
            continue
        declared = match.group(1)
        try:
            name = codecs.lookup(declared).name
        except LookupError:
            if _UNICODE_FAMILY.match(declared):
                continue  # the zero-pattern decodings above already cover what libxml2 does with these
            raise InputError(
                "document.unreadable",
                Detail("detail.encoding-not-read", declared[:60]),
                reason="encoding",
            ) from None
        if name.startswith(("utf-16", "utf-32")):
            continue  # the byte-order mark or the zero pattern decides, as in libxml2 (decoded above)
        if name not in names and not _ascii_transparent(name):
            names.append(name)
    return names


def _ascii_transparent(name: str) -> bool:
    """Encodings in which the bytes of ``<!?->`` never stand for anything else: the byte view (``latin-1``) sees
    their markup as it is. (In UTF-7, ISO-2022, HZ, EBCDIC, UTF-16/32 they can: those are decoded too.)"""
    return name in ("utf-8", "ascii", "latin-1") or name.startswith(("iso8859-", "cp125"))


def _pieces(data: bytes, codec: str) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder(codec)(errors="replace")
    # a small first piece: the prolog of nearly every document is in its first kilobytes
    for start, end in ((0, 4096), *((i, i + _CHUNK) for i in range(4096, len(data), _CHUNK))):
        yield decoder.decode(data[start:end], final=end >= len(data))


def _declaration_before_root(pieces: Iterator[str]) -> bool:
    """True when a ``<!`` declaration (``<!DOCTYPE``, ``<!ENTITY``, …; not a comment) comes before the first
    element, reading the text piece by piece (a prolog of long comments is never decoded whole at once)."""
    buf = ""
    inside: str | None = None  # the end of the PI or comment being skipped
    for piece in pieces:
        buf += piece
        while True:
            if inside is not None:
                end = buf.find(inside)
                if end < 0:
                    buf = buf[-(len(inside) - 1) :]
                    break
                buf, inside = buf[end + len(inside) :], None
                continue
            j = buf.find("<")
            if j < 0:
                buf = ""
                break
            if len(buf) - j < 4:
                buf = buf[j:]
                break
            if buf.startswith("<?", j):
                buf, inside = buf[j + 2 :], "?>"
            elif buf.startswith("<!--", j):
                buf, inside = buf[j + 4 :], "-->"
            else:
                # a declaration before the root element, or the root itself; a bare "<!" (a document cut
                # short, "<![CDATA[") is left to the parser, which calls it not well-formed
                return buf.startswith("<!", j) and buf[j + 2 : j + 3].isalpha()
    j = buf.find("<") if inside is None else -1
    return j >= 0 and buf.startswith("<!", j) and buf[j + 2 : j + 3].isalpha()


def refuse_markup_declarations(data: bytes) -> None:
    """Raise ``document.unreadable`` (reason ``doctype``) when a ``<!DOCTYPE`` or another markup declaration
    precedes the root element in any encoding libxml2 could read ``data`` in (reason ``encoding`` when the
    document declares an encoding this check cannot decode)."""
    for codec in _codecs(data):
        if _declaration_before_root(_pieces(data, codec)):
            raise InputError(
                "document.unreadable",
                Detail("detail.doctype"),
                reason="doctype",
            )
