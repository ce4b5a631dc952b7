"""Long embedded attachments (base64 in ``cbc:EmbeddedDocumentBinaryObject`` / ``ram:AttachmentBinaryObject``):
found once, checked once, and shortened for the stages that do not need their content.

A quarter of real invoices carry a PDF of 200-400 KB as base64. Reading it costs every stage: libxml2's XSD
check of ``xs:base64Binary`` takes about 1 ms per 200 KB (40 times the rest of the invoice's XSD validation),
and handing it to Saxon and scanning it another 5 ms. So:

* the XSD stage checks the content itself, with libxml2's exact rule (:func:`libxml2_base64_valid`: the same
  verdict on every string, proven by the tests against libxml2 itself) in a few passes of C-speed byte
  operations, and validates the tree with the content replaced by ``AAAA`` (valid base64 of the same type, no
  facets constrain its length): the findings are the same, for a fifth of the time. Content the fast check does
  not accept, or cannot judge, is validated in full by libxml2 as before, so an invalid attachment gets exactly
  libxml2's finding;
* the Schematron stage gets it cut to its leading whitespace and 64 more characters, for packs reviewed to read
  an attachment only for whether it is empty (``schematron._shared.slimmed_text``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from lxml import etree

__all__ = ["ATTACHMENT_TAGS", "LONG_CHARS", "libxml2_base64_valid", "long_attachments", "replaced"]

ATTACHMENT_TAGS = (
    "{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}EmbeddedDocumentBinaryObject",
    "{urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100}AttachmentBinaryObject",
)
LONG_CHARS = 4096  # shorter attachments cost nothing worth a special path
_XSI_TYPE = "{http://www.w3.org/2001/XMLSchema-instance}type"

_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_WHITESPACE = b" \t\r\n"
_VALUES = {char: value for value, char in enumerate(_ALPHABET)}


def long_attachments(document_tree: etree._ElementTree) -> list[tuple[etree._Element, str]]:
    """The attachment elements of the tree with a text of more than :data:`LONG_CHARS` characters, and that
    text (elements with children or an ``xsi:type`` are left out: their content is not plain base64)."""
    return [
        (element, text)
        for element in document_tree.iter(*ATTACHMENT_TAGS)
        if len(element) == 0
        and element.get(_XSI_TYPE) is None
        and (text := element.text) is not None
        and len(text) > LONG_CHARS
    ]


def libxml2_base64_valid(text: str) -> bool | None:
    """Whether libxml2 accepts ``text`` as ``xs:base64Binary`` (True/False), or None when this fast check does
    not judge it (characters other than the base64 alphabet, ``=`` and XML whitespace; libxml2 ignores such
    stray characters, the caller lets libxml2 decide).

    libxml2's rule (``xmlschemastypes.c``, ``XML_SCHEMAS_BASE64BINARY``): count the alphabet characters up to the
    first ``=``; after it only ``=`` may follow (and ignored characters); with no padding the count is a multiple
    of 4; with one ``=`` it is 3 modulo 4 and the last character's value has its two low bits clear; with two it
    is 2 modulo 4 and the last value has its four low bits clear; more than two ``=`` is invalid.
    """
    if not text.isascii():
        return None
    data = text.encode("ascii")
    rest = data.translate(None, _ALPHABET)  # one pass over the content; what is left is small
    if rest.translate(None, _WHITESPACE + b"="):
        return None  # stray characters: not judged here
    count = len(data) - len(rest)
    pad = rest.count(b"=")
    if pad == 0:
        return count % 4 == 0
    tail = data[data.index(b"=") :]
    if len(tail.translate(None, _ALPHABET)) != len(tail):
        return False  # an alphabet character after the padding
    if pad > 2 or count % 4 != (3 if pad == 1 else 2):
        return False
    end = len(data) - len(tail) - 1
    while data[end] in _WHITESPACE:  # the last alphabet character before the padding (count > 0 here)
        end -= 1
    value = _VALUES[data[end]]
    return value & (0x03 if pad == 1 else 0x0F) == 0


def spliced(data: bytes, shortened: list[tuple[etree._Element, str, str]]) -> bytes | None:
    """``data`` (the UTF-8 bytes the tree was parsed from) with the content of each element of ``shortened``
    (element, its shorter text, its own text; in document order) replaced by the shorter text, byte for byte the
    same elsewhere; or None when a content does not stand in the bytes exactly as the parser read it (the caller then
    serialises the tree with :func:`replaced`).

    The same document as that serialisation, for a fraction of its cost (lxml writing every node of a 300 KB
    invoice again, issue 21). A content is replaced only where it is found as it was parsed: the element's own start
    tag ending on its own line (libxml2's ``sourceline`` is the line of the start tag's ``>``) and not inside a
    comment, CDATA section or processing instruction, then the content's UTF-8 encoding, compared in full, then an
    end tag. Content written with character references, in a CDATA section or with a CR LF line end is not the same
    bytes: it falls back."""
    pieces: list[bytes] = []
    position = 0
    line, counted = 1, 0  # the line number at byte `counted`
    for element, short, text in shortened:
        name = etree.QName(element).localname
        qname = f"{element.prefix}:{name}" if element.prefix else name
        opening = _start_tag(qname)
        own: object = element.sourceline  # (lxml-stubs type it as ...)
        if not isinstance(own, int):
            return None
        start = -1
        for match in opening.finditer(data, position):  # the candidates, up to the element's own line
            line += data.count(b"\n", counted, match.end())
            counted = match.end()
            if line > own:
                return None
            if line == own and not _in_markup(data, match.start()):
                start = match.end()  # a look-alike in a comment, CDATA section or PI is passed over
                break
        end = _end_of_text(data, start, text) if start >= 0 else -1
        if end < 0 or not data.startswith(b"</", end):
            return None
        pieces += (data[position:start], short.encode("utf-8"))
        position = end
    pieces.append(data[position:])
    return b"".join(pieces)


_CHUNK = 1 << 16
_MARKUP = ((b"<!--", b"-->"), (b"<![CDATA[", b"]]>"), (b"<?", b"?>"))


def _in_markup(data: bytes, at: int) -> bool:
    """Whether ``at`` may lie inside a comment, CDATA section or processing instruction: the last opening of one
    before ``at`` is not closed before it. (Such a construct cannot contain its own closing, nor, for a comment, its
    own opening; an opening that is only text of another kind makes this answer yes where the truth is no: the caller
    then serialises, it never cuts the wrong content.)"""
    for opening, closing in _MARKUP:
        start = data.rfind(opening, 0, at)
        if start >= 0 and data.find(closing, start + len(opening), at) < 0:
            return True
    return False


def _end_of_text(data: bytes, start: int, text: str) -> int:
    """Where ``text``'s UTF-8 encoding ends if it stands in ``data`` at ``start``, else -1 (compared a chunk at a
    time: encoding a 200 KB text at once costs more than comparing it, in fresh memory)."""
    for i in range(0, len(text), _CHUNK):
        chunk = text[i : i + _CHUNK].encode("utf-8")
        if not data.startswith(chunk, start):
            return -1
        start += len(chunk)
    return start


@lru_cache(maxsize=16)
def _start_tag(qname: str) -> re.Pattern[bytes]:
    """A start tag named ``qname`` (attribute values hold no ``<`` and no own quote: they cannot hide a ``>``)."""
    attribute = rb"""\s+[^\s=/>]+\s*=\s*(?:"[^"<]*"|'[^'<]*')"""
    return re.compile(rb"<" + re.escape(qname.encode("utf-8")) + rb"(?:" + attribute + rb")*\s*>")


@contextmanager
def replaced(cuts: list[tuple[etree._Element, str, str]]) -> Iterator[None]:
    """Within the block, the tree shows each element of ``cuts`` (element, text for the block, its own text) with
    the first text; afterwards the element itself, unchanged, is back in its place.

    The element is not edited: a new element like it (same name, attributes, namespaces in scope, line number and
    tail) with the short text stands in for it during the block. Giving the element back its own text would cost
    lxml a check of every character (about 0.12 ms per 200 KB attachment); a copy of the element copies the content
    first (0.16 ms); the new element costs 0.01 ms (issue 21). The serialisation of the tree and its
    validation are those of the element with the short text (``tests/test_attachments.py``). An element at the
    root of its tree (no parent to swap it in) gets the text set and restored as before."""
    swapped: list[tuple[etree._Element, etree._Element]] = []
    edited: list[tuple[etree._Element, str]] = []
    try:
        for element, text, original in cuts:
            parent = element.getparent()
            if parent is None:
                element.text = text
                edited.append((element, original))
                continue
            if len(element):  # children (a long attachment has none): a copy of the whole element
                stand_in = copy.copy(element)
            else:  # the same name, attributes, namespaces in scope, line and tail, without copying the content
                attributes = {str(k): str(v) for k, v in element.attrib.items()}
                stand_in = etree.Element(element.tag, attributes, nsmap=element.nsmap)  # type: ignore[arg-type]
                stand_in.sourceline = element.sourceline
                stand_in.tail = element.tail
            stand_in.text = text
            parent.replace(element, stand_in)
            swapped.append((element, stand_in))
        yield
    finally:
        for element, stand_in in reversed(swapped):
            holder = stand_in.getparent()
            if holder is not None:
                holder.replace(stand_in, element)
        for element, original in edited:
            element.text = original
