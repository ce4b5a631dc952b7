"""The page as a PDF to file or print: WeasyPrint (the optional ``[pdf]`` extra), the only module importing it.

Why WeasyPrint (``benchmarks/show_pdf.py``, the broken example's printable page, 10 A4 pages, a 2-core machine
under a load of 13-17; see the README): about as fast as headless Chromium (0.82 s against 0.75 s of CPU per PDF),
but a pip extra rather than a browser on every server, laid out in this process rather than in a browser process
(230 MB) per PDF, with no script engine at all, and it fetches nothing when its URL fetcher refuses every address
(as here: the page is self-contained); it embeds the fonts it uses (subsets). Apache FOP on the viewer's own
XSL-FO took 2.2 s of CPU in a fresh JVM, embedded no font, and could not carry the findings without rewriting the
FO templates. The cost: pip's ``weasyprint`` needs Pango (a system library, there on every common Linux).
"""

from __future__ import annotations

import logging
from typing import Any

from .._extras import MissingExtra, SetupError

__all__ = ["PdfUnavailable", "check_available", "html_to_pdf"]


class PdfUnavailable(SetupError, ImportError):
    """WeasyPrint is installed but cannot load its system libraries (Pango): one line saying so (the CLI exits 2)."""

    def __init__(self, why: str) -> None:
        super().__init__(f"show --format pdf needs WeasyPrint's system libraries (Pango): {why}")


def _weasyprint() -> Any:
    try:
        import weasyprint  # heavy, and an extra: loaded for PDF output only
    except ImportError:  # not installed: the one line of every missing extra (_extras)
        raise MissingExtra("show --format pdf", "pdf", ("weasyprint",)) from None
    except OSError as exc:  # installed, but Pango is missing
        raise PdfUnavailable(f"its system libraries are missing: {exc}") from exc
    return weasyprint


def check_available() -> None:
    """Raise :class:`PdfUnavailable` now (before validating) when PDF output cannot be made."""
    _weasyprint()


def _refuse(url: str, *args: object, **kwargs: object) -> dict[str, Any]:
    raise ValueError(f"the page fetches nothing ({url[:60]})")


def html_to_pdf(html: bytes) -> bytes:
    """The PDF of a self-contained page (UTF-8 HTML): fonts embedded, nothing fetched."""
    weasyprint = _weasyprint()
    logger = logging.getLogger("weasyprint")
    level = logger.level
    logger.setLevel(logging.ERROR)  # the official CSS has properties WeasyPrint ignores (transition, -moz-*)
    try:
        document = weasyprint.HTML(string=html.decode("utf-8"), url_fetcher=_refuse)
        pdf: bytes = document.write_pdf()
    finally:
        logger.setLevel(level)
    return pdf
