"""What both XSLT engines share, below them both: the wrapper around the official stylesheets (``xsl:try``, its
namespace and template), the attachment cut (:func:`slimmed_text`), the runtime error, the error for a document the
engine's own parser refuses, and the protocols an engine and its compiled stylesheets follow.

:mod:`._saxon` (saxonche) and :mod:`._java` (JPype) import this module; :mod:`.engines` chooses between them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lxml import etree

from ..attachments import LONG_CHARS, long_attachments, replaced, spliced
from ..errors import Detail, InputError

if TYPE_CHECKING:
    from ..parse import Document

__all__ = [
    "ERROR_CODE",
    "EV_NS",
    "PARTS",
    "RUN_TEMPLATE",
    "SLIM_KEEP_CHARS",
    "SLIM_MIN_CHARS",
    "CompiledStylesheet",
    "Engine",
    "StylesheetRuntimeError",
    "engine_rejects",
    "part_template",
    "pattern_parts",
    "slimmed_bytes",
    "slimmed_text",
    "slimmed_utf8",
    "wrapper_text",
]

# Long embedded attachments (attachments.LONG_CHARS) reach the engine cut to this many characters (slimmed_text).
SLIM_MIN_CHARS = LONG_CHARS
SLIM_KEEP_CHARS = 64

EV_NS = "urn:einvoice-validate:saxon"
RUN_TEMPLATE = "run"  # in EV_NS
# Each prepared stylesheet is compiled through this XSLT 3.0 wrapper: it imports the stylesheet and runs it inside
# xsl:try, so that a dynamic error (e.g. FORG0001 on "7x" as a decimal) comes back as data with its error code;
# it also switches indentation off (the SVRL comes back without the official xsl:output's whitespace).
_WRAPPER = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:err="http://www.w3.org/2005/xqt-errors" xmlns:ev="{ns}">
  <xsl:import href="{href}"/>
  <xsl:output method="xml" indent="no"/>{templates}
</xsl:stylesheet>"""
# One named template of the wrapper: ``body`` under xsl:try, a dynamic error written as ev:runtime-error.
_TEMPLATE = """
  <xsl:template name="ev:{name}">
    <xsl:try>
      {body}
      <xsl:catch>
        <ev:runtime-error code="{{local-name-from-QName($err:code)}}">
          <xsl:value-of select="$err:description"/>
        </ev:runtime-error>
      </xsl:catch>
    </xsl:try>
  </xsl:template>"""
ERROR_CODE = re.compile(r"\b([A-Z]{4}[0-9]{4})\b")


# A pack's patterns in parts (pattern_parts): each part is a template of the wrapper that writes the SVRL of its
# patterns only, the way the official root template writes them all; the outputs, read one after the other, give the
# findings of the whole in the same order (issue 41: a large document's packs on two threads).
_PART = """<svrl:schematron-output xmlns:svrl="{svrl}">{applies}
      </svrl:schematron-output>"""
_SVRL_NS = "http://purl.oclc.org/dsdl/svrl"
# The root template of a Schematron skeleton's stylesheet as the preparation leaves it: the SVRL root element and,
# inside it, nothing but one apply-templates on the document per pattern (its mode).
_ROOT_TEMPLATE = re.compile(
    r'<xsl:template match="/">\s*<svrl:schematron-output(?:\s[^<>]*)?>((?:\s*<xsl:apply-templates mode="[^"<>]+" '
    r'select="/"/>)+)\s*</svrl:schematron-output>\s*</xsl:template>'
)
_APPLY = re.compile(r'<xsl:apply-templates mode="([^"<>]+)" select="/"/>')
PARTS = 3
"""The most parts a pack's patterns are cut into. Two threads share the runs of a document's packs (whichever is free
takes the next, the longest first): with three, the CEN pack's three patterns (model, syntax, code lists) are three
runs, and the two threads end closer together than with the CEN pack in two halves beside the XRechnung pack whole
(2,000 lines, warm, processes of each kind alternating, the median of 8 rounds: XRechnung UBL 0.90 of the time with
two parts, Peppol 0.95, XRechnung CII 0.99; ``benchmarks/large_invoices.py --rounds 5``: XRechnung UBL 2.25x the
reference, from 2.07x in three rounds)."""


def pattern_parts(stylesheet_text: str) -> tuple[tuple[str, ...], ...]:
    """The modes of a stylesheet's patterns in at most :data:`PARTS` parts of consecutive patterns, as equal in number
    as can be (the first parts taking the one more), when its root template is the skeleton's (see ``_ROOT_TEMPLATE``;
    the stylesheet's namespace for the prefix ``svrl`` is the SVRL namespace) and it has at least two patterns; else
    ``()``: the stylesheet runs whole only."""
    found = _ROOT_TEMPLATE.findall(stylesheet_text)
    if len(found) != 1 or f'xmlns:svrl="{_SVRL_NS}"' not in stylesheet_text:
        return ()
    modes = tuple(_APPLY.findall(found[0]))
    if len(modes) < 2:
        return ()
    count = min(PARTS, len(modes))
    size, more = divmod(len(modes), count)
    parts, start = [], 0
    for n in range(count):
        end = start + size + (1 if n < more else 0)
        parts.append(modes[start:end])
        start = end
    return tuple(parts)


def part_template(n: int) -> str:
    """The local name (in :data:`EV_NS`) of the wrapper's template that runs part ``n`` (0-based) of the patterns."""
    return f"{RUN_TEMPLATE}-part-{n}"


def wrapper_text(stylesheet: Path, parts: tuple[tuple[str, ...], ...] = ()) -> str:
    """The wrapper stylesheet that imports ``stylesheet`` (an absolute path) and runs it under ``xsl:try``; with
    ``parts`` (:func:`pattern_parts`) also a template per part that runs only the patterns of that part."""
    templates = [_TEMPLATE.format(name=RUN_TEMPLATE, body='<xsl:apply-templates select="."/>')]
    for n, modes in enumerate(parts):
        applies = "".join(f'\n        <xsl:apply-templates select="/" mode="{mode}"/>' for mode in modes)
        templates.append(_TEMPLATE.format(name=part_template(n), body=_PART.format(svrl=_SVRL_NS, applies=applies)))
    return _WRAPPER.format(ns=EV_NS, href=stylesheet.as_uri(), templates="".join(templates))


def engine_rejects(reason: object) -> InputError:
    """The error for a document the hardened lxml parser accepted but the engine's own XML parser does not (their
    grammars differ at the edges: e.g. U+FEFF as the first character of a processing instruction's target is a
    name character in XML 1.0 fifth edition, as libxml2 reads it, and not in the fourth, as Xerces does)."""
    first = " ".join(str(reason).split())[:300]
    return InputError(
        "document.unreadable",
        Detail("detail.engine-parser", first),
        reason="engine-parser",
    )


class StylesheetRuntimeError(Exception):
    """A stylesheet stopped with a dynamic error; ``code`` is the XPath/XSLT error code (e.g. FORG0001)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class CompiledStylesheet(Protocol):
    """A compiled, wrapped stylesheet."""

    path: Path

    def run(self, document: Any) -> str:
        """The SVRL (or ``ev:runtime-error``) as a string; raises :class:`StylesheetRuntimeError`."""
        ...


class Engine(Protocol):
    """An XSLT engine: documents cross into it once per validation; stylesheets are compiled once per process."""

    name: str

    def load(self, document: Document, *, slim_attachments: bool = False) -> Any:
        """The parsed, checked ``document`` inside the engine (see :func:`slimmed_text`)."""
        ...

    def parse_text(self, text: str) -> Any:
        """A document from text that already passed the hardened parser (tests hand over rule-test fragments)."""
        ...

    def compile(self, path: Path, checksum: str, optimizer: str | None = None) -> CompiledStylesheet:
        """The stylesheet at ``path``, compiled once per process (keyed by path, sha256 and ``optimizer``: Saxon's
        optimizer flags, ``Manifest.optimizer``; None: Saxon's defaults)."""
        ...


def slimmed_text(document: Document) -> str | None:
    """The document as text with the content of each long embedded attachment cut to its leading whitespace and
    the next :data:`SLIM_KEEP_CHARS` characters, or None when it has no attachment longer than
    :data:`SLIM_MIN_CHARS` characters.

    For rule packs whose findings depend on an attachment's content only through whether it is empty (or only
    whitespace), as reviewed for each pack and recorded in its manifest (``attachment_content = "emptiness"``):
    the cut keeps exactly that, and the elements, attributes and positions, so every finding and location is
    the same, while the engine no longer reads, stores and scans megabytes of base64 (an attachment of 200 KB
    costs about 3 ms to hand over and, in XRechnung's "no empty elements" rule, 2 ms to test, per document). The
    XSD stage has already checked the full content. ``document.tree`` is restored before returning.
    """
    data = slimmed_utf8(document)
    return None if data is None else data.decode("utf-8-sig")


def slimmed_utf8(document: Document) -> bytes | None:
    """:func:`slimmed_text` as UTF-8 bytes (the one cut: the ``saxon-java`` engine hands these bytes over,
    :func:`slimmed_text` decodes them): the document's own bytes with each content cut in place
    (:func:`~einvoice_validate.attachments.spliced`), else lxml's serialisation of the tree with the cut contents,
    without an XML declaration."""
    return slimmed_bytes(document.tree, document.data)


def slimmed_bytes(tree: etree._ElementTree, data: bytes) -> bytes | None:
    """:func:`slimmed_utf8` of the document ``data`` parsed as ``tree`` (before it is a classified document)."""
    shortened = []
    for element, text in long_attachments(tree):
        lead = len(text) - len(text.lstrip(" \t\r\n"))
        shortened.append((element, text[: lead + SLIM_KEEP_CHARS], text))
    if not shortened:
        return None
    if (tree.docinfo.encoding or "UTF-8").upper() in ("UTF-8", "UTF8"):
        cut = spliced(data, shortened)  # the bytes as they came, each content cut in place
        if cut is not None:
            return cut
    with replaced(shortened):
        return etree.tostring(tree, encoding="UTF-8")
