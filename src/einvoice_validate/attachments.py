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
from collections.abc import Iterator
from contextlib import contextmanager

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


@contextmanager
def replaced(cuts: list[tuple[etree._Element, str, str]]) -> Iterator[None]:
    """Within the block, the tree shows each element of ``cuts`` (element, text for the block, its own text) with
    the first text; afterwards the element itself, unchanged, is back in its place.

    The element is not edited: a copy of it (same name, attributes, namespaces, line number and tail) with the
    short text stands in for it during the block. Giving the element back its own text would cost lxml a check of
    every character (about 0.12 ms per 200 KB attachment, twice per invoice: XSD and Schematron stages); copying
    it and swapping the copy in and out costs a third of that (issue 21). The serialisation of the tree and its
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
            stand_in = copy.copy(element)  # children (none for a long attachment), attributes, line, tail
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
