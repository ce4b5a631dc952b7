"""The ``saxonc`` engine, the only module that imports saxonche: one processor per process, stylesheets compiled once.

saxonche is untyped; this module is the typed facade the rest of the library uses. Importing the package
does not load Saxon: the processor is created on first use.

Each prepared stylesheet is compiled through the wrapper of :mod:`._shared` (``xsl:try`` around the run): a
dynamic error (e.g. FORG0001 on "7x" as a decimal) comes back as data with its error code, instead of only as
text on the process's stderr.

The document crosses into Saxon once per validation (:func:`to_saxon`), in the cheaper of two forms measured
with SaxonC-HE 13.1: as text for small documents, from a private temporary file holding the very bytes the
hardened lxml parser accepted for large ones (Saxon's own file parser reads bytes, ~35% faster from 100 KiB on
than handing over a string; below ~64 KiB the file's set-up costs more than it saves).
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Detail, RulesetError
from ._shared import (
    ERROR_CODE,
    EV_NS,
    RUN_TEMPLATE,
    SLIM_KEEP_CHARS,
    SLIM_MIN_CHARS,
    StylesheetRuntimeError,
    engine_rejects,
    slimmed_text,
    wrapper_text,
)

if TYPE_CHECKING:
    from ..parse import Document

__all__ = [
    "FILE_PARSE_MIN_BYTES",
    "SLIM_KEEP_CHARS",
    "SLIM_MIN_CHARS",
    "SaxonCEngine",
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
_RUN = f"{{{EV_NS}}}{RUN_TEMPLATE}"

_lock = threading.RLock()
_processor: Any = None
_xslt: Any = None
_compiled: dict[tuple[Path, str, str | None], Stylesheet] = {}
ALLOWED_PROTOCOLS = "http://saxon.sf.net/feature/allowedProtocols"
OPTIMIZATION_LEVEL = "http://saxon.sf.net/feature/optimizationLevel"
DEFAULT_OPTIMIZER = "lvmt"
"""SaxonC-HE's optimizations by default (Saxon's ``OptimizerOptions.FULL_HE_OPTIMIZATION``): restored after a
stylesheet compiled with flags of its own (``Manifest.optimizer``)."""


def _saxon() -> tuple[Any, Any]:
    global _processor, _xslt
    with _lock:
        if _processor is None:
            from saxonche import PySaxonProcessor  # deferred: importing the package must not load Saxon

            _processor = PySaxonProcessor(license=False)
            # Defence in depth: only file: URIs (the wrapper imports the prepared stylesheet by its file URI), so
            # no stylesheet ever reaches the network. Prepared stylesheets read nothing at run time anyway
            # (rulesets.prepare refuses any that would); SaxonC has no per-run resolver to refuse files as well,
            # and the setting cannot be tightened after compiling (Saxon does not let it be loosened again).
            _processor.set_configuration_property(ALLOWED_PROTOCOLS, "file")
            _xslt = _processor.new_xslt30_processor()
        return _processor, _xslt


class SaxonDocument:
    """A document inside Saxon (built once per validation, shared by every pack)."""

    __slots__ = ("node",)

    def __init__(self, node: Any) -> None:
        self.node = node


def parse_document(text: str) -> SaxonDocument:
    """Build Saxon's tree from text that already passed the hardened lxml parser (no DOCTYPE, no entities)."""
    processor, _ = _saxon()
    from saxonche import PySaxonApiError  # see _saxon: Saxon loads when first used

    with _lock:
        try:
            return SaxonDocument(processor.parse_xml(xml_text=text))
        except PySaxonApiError as exc:
            raise engine_rejects(exc) from exc


def _parse_utf8_file(data: bytes) -> SaxonDocument:
    """Saxon's tree from UTF-8 bytes that passed the hardened parser, via a temporary file only we can write
    (``mkstemp``: created exclusively, mode 0600) that is removed as soon as Saxon has read it."""
    processor, _ = _saxon()
    fd, name = tempfile.mkstemp(prefix="einvoice-validate-", suffix=".xml")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        from saxonche import PySaxonApiError  # see _saxon: Saxon loads when first used

        with _lock:
            try:
                return SaxonDocument(processor.parse_xml(xml_file_name=name))
            except PySaxonApiError as exc:
                raise engine_rejects(exc) from exc
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
        from saxonche import PySaxonApiError  # see _saxon: Saxon loads when first used

        with self._lock:
            try:
                # Global context item: the XRechnung stylesheets read it (else XPDY0002).
                self._executable.set_global_context_item(xdm_item=document.node)
                result: str | None = self._executable.call_template_returning_string(template_name=_RUN)
            except PySaxonApiError as exc:  # errors xsl:try cannot catch (e.g. in global variables)
                text = str(exc).strip()
                found = ERROR_CODE.search(text)
                raise StylesheetRuntimeError(found.group(1) if found else "SAXON", text) from exc
        if result is None:
            raise StylesheetRuntimeError("SAXON", f"{self.path.name} produced no output")
        return result


def compile_stylesheet(path: Path, checksum: str, optimizer: str | None = None) -> Stylesheet:
    """The compiled stylesheet at ``path``, compiled once per process (keyed by path, sha256 and ``optimizer``:
    Saxon's optimizer flags for this compilation only, ``Manifest.optimizer``)."""
    key = (path.resolve(), checksum, optimizer)
    with _lock:
        cached = _compiled.get(key)
        if cached is not None:
            return cached
        processor, xslt = _saxon()
        from saxonche import PySaxonApiError  # see _saxon: Saxon loads when first used

        try:
            if optimizer is not None:  # SaxonC reads the processor's setting when it compiles: set for this one
                processor.set_configuration_property(OPTIMIZATION_LEVEL, optimizer)
            executable = xslt.compile_stylesheet(stylesheet_text=wrapper_text(key[0]))
        except PySaxonApiError as exc:
            raise RulesetError("ruleset.invalid", Detail("detail.stylesheet-not-compiled", path, exc)) from exc
        finally:
            if optimizer is not None:
                processor.set_configuration_property(OPTIMIZATION_LEVEL, DEFAULT_OPTIMIZER)
        compiled = Stylesheet(executable, key[0])
        _compiled[key] = compiled
        return compiled


class SaxonCEngine:
    """The ``saxonc`` engine (SaxonC-HE; the default): see :mod:`.engines`."""

    name = "saxonc"

    def load(self, document: Document, *, slim_attachments: bool = False) -> SaxonDocument:
        return to_saxon(document, slim_attachments=slim_attachments)

    def parse_text(self, text: str) -> SaxonDocument:
        return parse_document(text)

    def compile(self, path: Path, checksum: str, optimizer: str | None = None) -> Stylesheet:
        return compile_stylesheet(path, checksum, optimizer)
