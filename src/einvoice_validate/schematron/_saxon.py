"""The only module that imports saxonche: one processor per process, stylesheets compiled once and cached.

saxonche is untyped; this module is the typed facade the rest of the library uses. Importing the package
does not load Saxon: the processor is created on first use.

Each official stylesheet is compiled through a small XSLT 3.0 wrapper that imports it and runs it inside
``xsl:try``: a dynamic error (e.g. FORG0001 on "7x" as a decimal) then comes back as data with its error code,
instead of only as text on the process's stderr. The wrapper also switches indentation off: the SVRL comes back
without the whitespace the official ``xsl:output indent="yes"`` would add (our reader normalises text anyway).

The document crosses into Saxon once per validation (:func:`to_saxon`), in the cheaper of two forms measured
with SaxonC-HE 13.1: as text for small documents, from a private temporary file holding the very bytes the
hardened lxml parser accepted for large ones (Saxon's own file parser reads bytes, ~35% faster from 100 KiB on
than handing over a string; below ~64 KiB the file's set-up costs more than it saves).
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from ..errors import RulesetError

if TYPE_CHECKING:
    from ..parse import Document

__all__ = [
    "FILE_PARSE_MIN_BYTES",
    "SLIM_KEEP_CHARS",
    "SLIM_MIN_CHARS",
    "SaxonDocument",
    "Stylesheet",
    "StylesheetRuntimeError",
    "compile_stylesheet",
    "parse_document",
    "slimmed_text",
    "to_saxon",
]

# From this size on, a UTF-8 document reaches Saxon through a temporary file (see the module docstring).
FILE_PARSE_MIN_BYTES = 64 * 1024
# Embedded attachments longer than this are cut for packs that only test them for emptiness (slimmed_text).
SLIM_MIN_CHARS = 4096
SLIM_KEEP_CHARS = 64
_ATTACHMENT_TAGS = (
    "{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}EmbeddedDocumentBinaryObject",
    "{urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100}AttachmentBinaryObject",
)

_EV_NS = "urn:einvoice-validate:saxon"
_RUN = f"{{{_EV_NS}}}run"
_WRAPPER = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:err="http://www.w3.org/2005/xqt-errors" xmlns:ev="{ns}">
  <xsl:import href="{href}"/>
  <xsl:output method="xml" indent="no"/>
  <xsl:template name="ev:run">
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
_ERROR_CODE = re.compile(r"\b([A-Z]{4}[0-9]{4})\b")

_lock = threading.RLock()
_processor: Any = None
_xslt: Any = None
_compiled: dict[tuple[Path, str], Stylesheet] = {}


def _saxon() -> tuple[Any, Any]:
    global _processor, _xslt
    with _lock:
        if _processor is None:
            from saxonche import PySaxonProcessor  # deferred: importing the package must not load Saxon

            _processor = PySaxonProcessor(license=False)
            _xslt = _processor.new_xslt30_processor()
        return _processor, _xslt


class StylesheetRuntimeError(Exception):
    """A stylesheet stopped with a dynamic error; ``code`` is the XPath/XSLT error code (e.g. FORG0001)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class SaxonDocument:
    """A document inside Saxon (built once per validation, shared by every pack)."""

    __slots__ = ("node",)

    def __init__(self, node: Any) -> None:
        self.node = node


def parse_document(text: str) -> SaxonDocument:
    """Build Saxon's tree from text that already passed the hardened lxml parser (no DOCTYPE, no entities)."""
    processor, _ = _saxon()
    with _lock:
        return SaxonDocument(processor.parse_xml(xml_text=text))


def _parse_utf8_file(data: bytes) -> SaxonDocument:
    """Saxon's tree from UTF-8 bytes that passed the hardened parser, via a temporary file only we can write
    (``mkstemp``: created exclusively, mode 0600) that is removed as soon as Saxon has read it."""
    processor, _ = _saxon()
    fd, name = tempfile.mkstemp(prefix="einvoice-validate-", suffix=".xml")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        with _lock:
            return SaxonDocument(processor.parse_xml(xml_file_name=name))
    finally:
        os.unlink(name)


def to_saxon(document: Document, *, slim_attachments: bool = False) -> SaxonDocument:
    """The parsed, checked ``document`` inside Saxon, in the cheapest form (once per validation).

    Saxon only ever reads what the hardened lxml parser accepted: ``document.data`` itself (UTF-8, so
    byte for byte what lxml parsed, and never with a DOCTYPE: ``load`` refused those), ``document.text()``, or
    lxml's serialisation of ``document.tree`` with its embedded attachments shortened (``slim_attachments``, see
    :func:`slimmed_text`).
    """
    if slim_attachments and len(document.data) >= SLIM_MIN_CHARS:
        slim = slimmed_text(document)
        if slim is not None:
            return parse_document(slim)
    if len(document.data) >= FILE_PARSE_MIN_BYTES and _is_utf8(document):
        return _parse_utf8_file(document.data)
    return parse_document(document.text())


def slimmed_text(document: Document) -> str | None:
    """The document as text with the content of each long embedded attachment cut to its leading whitespace and
    the next :data:`SLIM_KEEP_CHARS` characters, or None when it has no attachment longer than
    :data:`SLIM_MIN_CHARS` characters.

    For rule packs whose findings depend on an attachment's content only through whether it is empty (or only
    whitespace), as reviewed for each pack and recorded in its manifest (``attachment_content = "emptiness"``):
    the cut keeps exactly that, and the elements, attributes and positions, so every finding and location is
    the same, while Saxon no longer reads, stores and scans megabytes of base64 (an attachment of 200 KB costs
    about 3 ms to hand over and, in XRechnung's "no empty elements" rule, 2 ms to test, per document). The XSD
    stage has already checked the full content. ``document.tree`` is restored before returning.
    """
    cut = [
        (element, text)
        for element in document.tree.iter(*_ATTACHMENT_TAGS)
        if len(element) == 0 and (text := element.text) is not None and len(text) > SLIM_MIN_CHARS
    ]
    if not cut:
        return None
    try:
        for element, text in cut:
            lead = len(text) - len(text.lstrip(" \t\r\n"))
            element.text = text[: lead + SLIM_KEEP_CHARS]
        return etree.tostring(document.tree, encoding="unicode")
    finally:
        for element, text in cut:
            element.text = text


def _is_utf8(document: Document) -> bool:
    return (document.tree.docinfo.encoding or "UTF-8").upper() in ("UTF-8", "UTF8")


class Stylesheet:
    """A compiled official stylesheet (wrapped). Runs are serialised: a Saxon executable holds run state."""

    def __init__(self, executable: Any, path: Path) -> None:
        self._executable = executable
        self.path = path
        self._lock = threading.Lock()

    def run(self, document: SaxonDocument) -> str:
        """The SVRL (or ``ev:runtime-error``) as a string."""
        from saxonche import PySaxonApiError

        with self._lock:
            try:
                # Global context item: the XRechnung stylesheets read it (else XPDY0002).
                self._executable.set_global_context_item(xdm_item=document.node)
                result: str | None = self._executable.call_template_returning_string(template_name=_RUN)
            except PySaxonApiError as exc:  # errors xsl:try cannot catch (e.g. in global variables)
                text = str(exc).strip()
                found = _ERROR_CODE.search(text)
                raise StylesheetRuntimeError(found.group(1) if found else "SAXON", text) from exc
        if result is None:
            raise StylesheetRuntimeError("SAXON", f"{self.path.name} produced no output")
        return result


def compile_stylesheet(path: Path, checksum: str) -> Stylesheet:
    """The compiled stylesheet at ``path``, compiled once per process (keyed by path and sha256)."""
    key = (path.resolve(), checksum)
    with _lock:
        cached = _compiled.get(key)
        if cached is not None:
            return cached
        _, xslt = _saxon()
        from saxonche import PySaxonApiError

        try:
            executable = xslt.compile_stylesheet(stylesheet_text=_WRAPPER.format(ns=_EV_NS, href=key[0].as_uri()))
        except PySaxonApiError as exc:
            raise RulesetError("ruleset.invalid", f"cannot compile the stylesheet {path}: {exc}") from exc
        compiled = Stylesheet(executable, key[0])
        _compiled[key] = compiled
        return compiled
