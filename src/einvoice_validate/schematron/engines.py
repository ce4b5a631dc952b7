"""The XSLT engines that run the prepared Schematron stylesheets, behind one interface.

Two engines run the same prepared stylesheets through the same wrapper and give the same SVRL:

* ``saxonc``: SaxonC-HE 13 (``saxonche`` from the package index), Saxon compiled ahead of time. No
  Java needed, fast start (a fresh process validates its first invoice in under a second).
* ``saxon-java``: Saxon-HE for Java, the engine the official German validator (KoSIT) uses, driven in-process
  through JPype (``pip install einvoice-validate[java]``; the jar from Debian's ``libsaxonhe-java``, verified
  against its pinned sha256). Its JIT makes the same stylesheets run 2-3 x faster once warm, at the price of a
  JVM start (about 0.4 s) and slower first passes: for long-running servers and batch jobs.

:mod:`._saxon` is the only module importing saxonche and :mod:`._java` the only one importing JPype; this module
holds what both share (the wrapper around the official stylesheets, the attachment cut, the runtime error) and
chooses between them (:func:`engine_for`: an explicit choice wins, else the work decides). Importing it loads
neither engine.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from lxml import etree

from ..attachments import LONG_CHARS, long_attachments, replaced
from ..errors import InputError
from ..options import EngineName

if TYPE_CHECKING:
    from ..parse import Document

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "ENGINE_ENV",
    "SLIM_KEEP_CHARS",
    "SLIM_MIN_CHARS",
    "STEADY_FROM_DOCUMENTS",
    "CompiledStylesheet",
    "Engine",
    "StylesheetRuntimeError",
    "Work",
    "engine_for",
    "engine_name",
    "engine_rejects",
    "get_engine",
    "slimmed_text",
    "wrapper_text",
]

ENGINES: tuple[EngineName, ...] = ("saxonc", "saxon-java")
DEFAULT_ENGINE: EngineName = "saxonc"  # one document in a fresh process: the fastest start
STEADY_ENGINE: EngineName = "saxon-java"  # a server or a long batch: the fastest once warm (when installed)
ENGINE_ENV = "EINVOICE_VALIDATE_ENGINE"  # the engine when none is named (a deployment's setting)
STEADY_FROM_DOCUMENTS = 100
"""A batch of this many documents or more is steady work (see :func:`engine_for`)."""

Work = Literal["document", "steady"]
"""What a runner is about to do: validate a document or a few (``document``: a fresh process wants the fastest
start), or many documents over a long time (``steady``: a server, a long batch)."""

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
  <xsl:output method="xml" indent="no"/>
  <xsl:template name="ev:{run}">
    <xsl:try>
      <xsl:apply-templates select="."/>
      <xsl:catch>
        <ev:runtime-error code="{{local-name-from-QName($err:code)}}">
          <xsl:value-of select="$err:description"/>
        </ev:runtime-error>
      </xsl:catch>
    </xsl:try>
  </xsl:template>
</xsl:stylesheet>"""
ERROR_CODE = re.compile(r"\b([A-Z]{4}[0-9]{4})\b")


def wrapper_text(stylesheet: Path) -> str:
    """The wrapper stylesheet that imports ``stylesheet`` (an absolute path) and runs it under ``xsl:try``."""
    return _WRAPPER.format(ns=EV_NS, run=RUN_TEMPLATE, href=stylesheet.as_uri())


def engine_rejects(reason: object) -> InputError:
    """The error for a document the hardened lxml parser accepted but the engine's own XML parser does not (their
    grammars differ at the edges: e.g. U+FEFF as the first character of a processing instruction's target is a
    name character in XML 1.0 fifth edition, as libxml2 reads it, and not in the fourth, as Xerces does)."""
    first = " ".join(str(reason).split())[:300]
    return InputError(
        "document.unreadable",
        f"the XSLT engine's XML parser cannot read the document: {first}",
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

    def compile(self, path: Path, checksum: str) -> CompiledStylesheet:
        """The stylesheet at ``path``, compiled once per process (keyed by path and sha256)."""
        ...


def engine_name(name: str | None = None) -> EngineName:
    """``name``, else ``$EINVOICE_VALIDATE_ENGINE``, else :data:`DEFAULT_ENGINE`; checked against :data:`ENGINES`."""
    chosen = name or os.environ.get(ENGINE_ENV) or DEFAULT_ENGINE
    if chosen not in ENGINES:
        raise ValueError(f"unknown engine {chosen!r}; choose one of {', '.join(ENGINES)}")
    return chosen


def engine_for(work: Work | int, name: str | None = None) -> EngineName:
    """The engine a runner uses: ``name`` when given, else ``$EINVOICE_VALIDATE_ENGINE`` when set (an explicit
    choice always wins), else the one the work wants: ``saxonc`` for a document (no JVM to start, no JIT to warm:
    a fresh process validates one invoice in about 0.75 s), ``saxon-java`` for steady work (a server, a batch of
    :data:`STEADY_FROM_DOCUMENTS` documents or more, or of unknown length) when its jar and JPype are installed
    (it runs the packs 1.3-2 x faster once warm), else ``saxonc``. ``work`` may be a number of documents."""
    if name or os.environ.get(ENGINE_ENV):
        return engine_name(name)
    if isinstance(work, int):
        work = "steady" if work >= STEADY_FROM_DOCUMENTS else "document"
    if work == "document":
        return DEFAULT_ENGINE
    from ._java import java_available

    return STEADY_ENGINE if java_available() else DEFAULT_ENGINE


def get_engine(name: str | None = None) -> Engine:
    """The engine called ``name`` (see :func:`engine_name`); creating it loads nothing yet."""
    name = engine_name(name)
    if name == "saxonc":
        from ._saxon import SaxonCEngine

        return SaxonCEngine()
    from ._java import JavaEngine

    return JavaEngine()


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
    cut = long_attachments(document.tree)
    if not cut:
        return None
    shortened = []
    for element, text in cut:
        lead = len(text) - len(text.lstrip(" \t\r\n"))
        shortened.append((element, text[: lead + SLIM_KEEP_CHARS], text))
    with replaced(shortened):
        return etree.tostring(document.tree, encoding="unicode")
