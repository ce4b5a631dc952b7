"""Showing an invoice to a person: the official viewer's page with each finding at its place (``show``).

:class:`Renderer` validates an invoice and renders it with KoSIT's official XRechnung viewer
(:mod:`einvoice_validate.viewer`: UBL/CII → the semantic model ``xr:invoice`` → HTML, German or English), then marks
every finding at the field or line it concerns (:mod:`.page`); :mod:`.pdf` prints that page to PDF.
:func:`render_invoice` is the one call a server needs: bytes in, page bytes out, the library's usual errors.

    renderer = Renderer()                            # or Renderer(Validator(engine="saxon-java"))
    shown = renderer.show("invoice.xml", lang="en")  # .report, .content (the page's bytes), .media_type
    pdf = renderer.show("invoice.xml", fmt="pdf").content   # needs the [pdf] extra (WeasyPrint)

The viewer covers what KoSIT's semantic model covers: the EN 16931 business terms and the XRechnung extension,
for every UBL Invoice/CreditNote and CII document (XRechnung, EN 16931, Peppol, CIUS-RO, ZUGFeRD/Factur-X and
national CIUS documents alike, also out of a PDF or an SBDH envelope). What it does not show (ZUGFeRD EXTENDED
or national extensions, UBL/CII elements outside EN 16931) has no place on the page: findings about it are listed
apart, and the page says so.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import date
from typing import Literal

from lxml import etree

from ..api import default_validator
from ..findings import Report
from ..parse import Document, Source, read_source
from ..validator import Validator
from ..viewer import LANGS, VIEWER_PACK, Viewer, ViewerFailed
from .page import build_page, failed_fragment, text_of, viewer_fragment
from .pdf import check_available, html_to_pdf

__all__ = ["FORMATS", "LANGS", "MEDIA_TYPES", "VIEWER_PACK", "Renderer", "Shown", "render_invoice"]

FORMATS = ("html", "pdf")
MEDIA_TYPES = {"html": "text/html; charset=utf-8", "pdf": "application/pdf"}
Format = Literal["html", "pdf"]


@dataclass(frozen=True, slots=True)
class Shown:
    """An invoice shown: its validation ``report`` and the page (``content``, of type ``media_type``)."""

    report: Report
    content: bytes
    media_type: str


class Renderer:
    """Validates and renders invoices; the viewer's stylesheets are compiled once per process, on first use.

    Args:
        validator: validates the invoices (and lends its engine, rules home and limits); default: a new one.
        pack: the viewer pack (``id@version``).
    """

    def __init__(self, validator: Validator | None = None, *, pack: str = VIEWER_PACK) -> None:
        if validator is None:
            validator = Validator()
        self.validator = validator
        self._pack = pack
        self._viewer: Viewer | None = None
        self._lock = threading.Lock()

    @property
    def viewer(self) -> Viewer:
        """The viewer pack, verified (``ruleset.missing`` / ``ruleset.corrupt`` when it is not installed whole)."""
        with self._lock:
            if self._viewer is None:
                self._viewer = Viewer(self.validator.registry, self.validator.engine, self._pack)
            return self._viewer

    def fragment(
        self, document: Document, report: Report | None, lang: str = "en", *, printable: bool = False
    ) -> etree._Element:
        """The summary and the invoice's sections with the findings of ``report`` marked, as one ``div``."""
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGS)}")
        viewer = self.viewer
        name = viewer.pack.manifest.version
        try:
            view = viewer.view(document, lang)
        except ViewerFailed as exc:
            return failed_fragment(report, viewer.labels, lang, name, exc.code, exc.message)
        return viewer_fragment(view, document, report, viewer.labels, lang, viewer=name, printable=printable)

    def page(self, document: Document, report: Report | None, lang: str = "en", *, printable: bool = False) -> bytes:
        """The whole HTML page (UTF-8) for one invoice."""
        fragment = self.fragment(document, report, lang, printable=printable)
        title = next((text_of(h) for h in fragment.iter("h1")), "") or "XRechnung"
        viewer = self.viewer
        return build_page([fragment], viewer.labels, lang, viewer.css, title=title, with_nav=not printable)

    def show(
        self,
        source: Source,
        *,
        lang: str = "en",
        fmt: Format = "html",
        profile: str | None = None,
        rules_date: date | None = None,
    ) -> Shown:
        """Validate ``source`` (bytes, a path, a binary file; XML, or a ZUGFeRD/Factur-X PDF) and render it.

        Raises:
            EInvoiceValidateError: the document could not be validated (the codes of :meth:`Validator.validate`),
                or the viewer pack is not installed (``ruleset.missing``).
            MissingExtra: ``fmt="pdf"`` without the ``[pdf]`` extra (PdfUnavailable: without its Pango library).
        """
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
        data, _ = read_source(source, self.validator.limits)
        if fmt == "pdf":
            check_available()
        report = self.validator.validate(data, profile=profile, rules_date=rules_date)
        document = self.validator.load(data)
        html = self.page(document, report, lang, printable=fmt == "pdf")
        if fmt == "pdf":
            return Shown(report, html_to_pdf(html), MEDIA_TYPES["pdf"])
        return Shown(report, html, MEDIA_TYPES["html"])


_default: Renderer | None = None
_default_lock = threading.Lock()


def render_invoice(data: bytes, *, lang: str = "en", fmt: Format = "html", renderer: Renderer | None = None) -> bytes:
    """The invoice ``data`` (XML or PDF bytes) validated and shown as one HTML page (or PDF) with its findings.

    For a server: raises the library's usual errors (:class:`EInvoiceValidateError`, with the API's codes) for a
    document that cannot be validated; an invalid invoice is a page, never an error. ``renderer``: default one
    per process (rules home and engine from the environment)."""
    global _default
    if renderer is None:
        with _default_lock:
            if _default is None:
                _default = Renderer(default_validator())
            renderer = _default
    return renderer.show(data, lang=lang, fmt=fmt).content
