"""The official XRechnung viewer (KoSIT's xrechnung-visualization pack), compiled once per process and run safely.

Two official steps, each a stylesheet of the installed, verified pack: the invoice (UBL Invoice, UBL CreditNote or
CII) → KoSIT's semantic model ``xr:invoice`` (every element named by its business term, ``xr:id="BT-10"``, and
pointing back at the source element, ``xr:src="/ubl:Invoice/cbc:BuyerReference"``) → the HTML view of that model
(``xrechnung-html.xsl``, German or English labels).

The official files are never edited. Each step is compiled through a small wrapper stylesheet written here, which
imports the official one and, by import precedence, replaces exactly the declarations that read files at run time:

* ``functions.xsl``'s ``l10n-doc`` and ``l10n-master-doc`` (``doc('l10n/de.xml')``): the wrapper holds the labels
  of the pack's own, verified ``l10n/*.xml`` as literal trees (so the language needs no file and no parameter);
* ``xrechnung-html.xsl``'s page template (``match="/xr:invoice"``, which reads the viewer's CSS and its two
  scripts with ``unparsed-text()``): the wrapper's template emits the five sections of the page (overview, lines,
  further details, attachments, history), each under its own ``xsl:try``, so a value the viewer cannot format
  (``format-number`` on "7x") costs only its section, and no script. The page around it is built in
  :mod:`.render.page`.

Before compiling, :func:`check_reads` lists every run-time read in the pack's stylesheets (the installer's own
scan, :func:`~einvoice_validate.rulesets.prepare.resource_reads`) and refuses any that is not one of those
replaced declarations, and any ``xsl:import``/``xsl:include`` that leaves the pack folder: a new viewer release
that reads anything else fails loudly (``ruleset.invalid``) instead of reading it. So no stylesheet reads any
file while rendering, neither one the invoice names nor the network; ``saxon-java`` also refuses every run-time
request (its ``URIResolver``), ``saxonc`` allows ``file:`` URIs only.

For each official template that renders one element of the model (a buyer, a VAT breakdown, an invoice line, an
attachment: the templates with a ``match``), the wrapper adds one that calls it (``xsl:next-match``) and stamps
its output's top-level elements with ``data-ev-src``, the model element's ``xr:src``: :mod:`.render.page` uses that to
find on the page the box of the line or group a finding is about.
"""

from __future__ import annotations

import functools
import hashlib
import re
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from lxml import etree

from .errors import RulesetError
from .parse import Document
from .rulesets.prepare import resource_reads
from .rulesets.registry import InstalledPack, Registry
from .schematron.engines import Engine, StylesheetRuntimeError

__all__ = [
    "LANGS",
    "SECTIONS",
    "VIEWER_PACK",
    "XR_NS",
    "Labels",
    "RawValue",
    "View",
    "Viewer",
    "ViewerFailed",
    "check_reads",
    "iterated_names",
    "numeric_names",
    "repair_model",
]

VIEWER_PACK = "xrechnung-visualization@2026-01-31"
"""The viewer pack ``show`` uses (``rulesets/packs/xrechnung-visualization/``)."""
LANGS = ("de", "en")
XR_NS = "urn:ce.eu:en16931:2017:xoev-de:kosit:standard:xrechnung-1"
EV_NS = "urn:einvoice-validate:viewer"
_XSL = "http://www.w3.org/1999/XSL/Transform"
_RUNTIME_ERROR = "{urn:einvoice-validate:saxon}runtime-error"
_XR_SRC = f"{{{XR_NS}}}src"
_XR_ID = f"{{{XR_NS}}}id"

SECTIONS = ("uebersicht", "details", "zusaetze", "anlagen", "laufzettel")
"""The official page's five tabs, by their template names (and element ids); the labels' keys are the same."""

# The declarations of the official stylesheets that read files at run time, all replaced by the wrapper.
_REPLACED_VARIABLES = ("l10n-doc", "l10n-master-doc")
_REPLACED_TEMPLATE = "/xr:invoice"
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)


class ViewerFailed(Exception):
    """The viewer could not map this invoice to its model (a dynamic error in the official mapping)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class View:
    """One invoice as the viewer shows it: ``model`` is the semantic model (``xr:invoice``), ``body`` the
    sections of the page (a ``div`` holding one ``div`` per section; a section the viewer could not render is a
    ``div class="ev-section-failed"`` with the error's code and text)."""

    model: etree._Element
    body: etree._Element
    raw: tuple[RawValue, ...] = ()
    """Values taken out of the model before rendering (:func:`repair_model`), to be shown as written."""


class Labels:
    """The viewer's own German and English labels (``l10n/*.xml``: key → text, BT/BG id → text)."""

    def __init__(self, trees: dict[str, etree._Element]) -> None:
        self.trees = trees
        self._by_key: dict[str, dict[str, str]] = {}
        self._by_id: dict[str, dict[str, str]] = {}
        for lang, root in trees.items():
            keys: dict[str, str] = {}
            ids: dict[str, str] = {}
            for entry in root.iter("entry"):
                text = " ".join((entry.text or "").split())
                keys.setdefault(entry.get("key", ""), text)
                if entry.get("id"):
                    ids.setdefault(entry.get("id", ""), text)
            self._by_key[lang], self._by_id[lang] = keys, ids

    def key(self, lang: str, key: str) -> str:
        return self._by_key[lang].get(key, key)

    def term(self, lang: str, term: str) -> str | None:
        """The label of a business term (``BT-44`` → ``Name``), or None when the viewer has none."""
        return self._by_id[lang].get(term)


def check_reads(pack: InstalledPack) -> None:
    """Refuse a viewer pack whose stylesheets read anything at run time that the wrappers do not replace, or
    import a file outside the pack (see the module docstring)."""
    base = pack.directory.resolve()
    for rel in pack.manifest.files:
        if not rel.endswith(".xsl"):
            continue
        path = pack.directory / rel
        root = etree.parse(str(path), _XML_PARSER).getroot()
        for kind in ("import", "include"):
            for element in root.iter(f"{{{_XSL}}}{kind}"):
                target = (path.parent / element.get("href", "")).resolve()
                if not target.is_relative_to(base) or not target.is_file():
                    raise RulesetError(
                        "ruleset.invalid", f"pack {pack.key}: {rel} imports {element.get('href')!r}, not a pack file"
                    )
        for declaration in root:
            if not isinstance(declaration.tag, str) or _replaced(declaration):
                continue
            # resource_reads lists imports and includes too (checked above); anything else is a run-time read
            reads = [r for r in resource_reads(declaration) if r not in ("xsl:import", "xsl:include")]
            if reads:
                raise RulesetError(
                    "ruleset.invalid",
                    f"pack {pack.key}: {rel} reads at run time ({reads[0]}); the viewer refuses stylesheets that "
                    "read anything but the declarations it replaces",
                )


def _replaced(declaration: etree._Element) -> bool:
    if declaration.tag == f"{{{_XSL}}}variable":
        return declaration.get("name") in _REPLACED_VARIABLES
    return declaration.tag == f"{{{_XSL}}}template" and declaration.get("match") == _REPLACED_TEMPLATE


def _literal(root: etree._Element) -> str:
    """An XML properties file as literal result elements (text only: attribute values are AVTs, so braces are
    doubled)."""
    from xml.sax.saxutils import quoteattr  # (here: it loads urllib, 10 ms off each start that needs no page)

    entries = []
    for entry in root.iter("entry"):
        attrs = "".join(
            f" {name}={quoteattr(str(value).replace('{', '{{').replace('}', '}}'))}"
            for name, value in entry.attrib.items()
            if name in ("key", "id")
        )
        text = (entry.text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        entries.append(f"<entry{attrs}>{text}</entry>")
    return "<properties>" + "".join(entries) + "</properties>"


_HEAD = (
    f'<xsl:stylesheet version="3.0" xmlns:xsl="{_XSL}" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
    f'xmlns:xr="{XR_NS}" xmlns:xrv="http://www.example.org/XRechnung-Viewer" '
    'xmlns:err="http://www.w3.org/2005/xqt-errors" '
    f'xmlns:ev="{EV_NS}" exclude-result-prefixes="#all">'
)


# common-xr.xsl's named template "date" as the official one for every date it accepts (YYYY-MM-DD or YYYYMMDD,
# year > 0, a real day), but an impossible date (2025-02-30) stays as written instead of stopping the whole mapping
# with FORG0001 (the official template casts it to xs:date); other input stays as written instead of becoming the
# text 'ILLEGAL DATE FORMAT of "..."'. repair_model then takes it out of the model and the page shows it as written.
_DATE_TEMPLATE = """<xsl:template name="date">
  <xsl:variable name="n" select="normalize-space(replace(., '-', ''))"/>
  <xsl:variable name="iso" select="if (matches($n, '^[0-9]{8}'))
      then concat(substring($n, 1, 4), '-', substring($n, 5, 2), '-', substring($n, 7, 2)) else ''"/>
  <xsl:choose>
    <xsl:when test="$iso castable as xs:date and substring($iso, 1, 4) ne '0000'">
      <xsl:value-of select="xs:date($iso)"/>
    </xsl:when>
    <xsl:otherwise><xsl:value-of select="."/></xsl:otherwise>
  </xsl:choose>
</xsl:template>"""


def mapping_wrapper(stylesheet: Path) -> str:
    """The wrapper of a mapping stylesheet (UBL/CII → ``xr:invoice``): the labels are not needed there; the
    ``date`` template keeps impossible dates as written (see :data:`_DATE_TEMPLATE`)."""
    empty = "".join(f'<xsl:variable name="{name}"><properties/></xsl:variable>' for name in _REPLACED_VARIABLES)
    return f'{_HEAD}<xsl:import href="{stylesheet.as_uri()}"/>{empty}{_DATE_TEMPLATE}</xsl:stylesheet>'


_NUMBER_CALL = re.compile(r"(?:format-number|format-with-at-least-two-digits|sum)\(")
_XR_NAME = re.compile(r"xr:([A-Za-z_]+)")
_DATE = re.compile(r"-?[0-9]{4,}-[0-9]{2}-[0-9]{2}(?:Z|[+-][0-9]{2}:[0-9]{2})?")
_NUMBER = re.compile(r"\s*[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|INF)\s*|\s*NaN\s*")


def iterated_names(html_stylesheet: etree._Element) -> frozenset[str]:
    """The model elements the HTML stylesheet iterates over (``xsl:for-each``, ``xsl:apply-templates``): the
    only ones it expects more than one of."""
    names: set[str] = set()
    for tag in ("for-each", "apply-templates"):
        for element in html_stylesheet.iter(f"{{{_XSL}}}{tag}"):
            names.update(_XR_NAME.findall(element.get("select", "")))
    return frozenset(names)


def numeric_names(html_stylesheet: etree._Element) -> frozenset[str]:
    """The model elements the HTML stylesheet formats as numbers (``format-number``, its own
    ``xrf:format-with-at-least-two-digits``, ``sum``): their values must be numbers, one per element."""
    names: set[str] = set()
    for element in html_stylesheet.iter():
        for value in (str(v) for v in element.attrib.values()):
            for match in _NUMBER_CALL.finditer(value):
                depth, end = 1, match.end()
                while end < len(value) and depth:
                    depth += {"(": 1, ")": -1}.get(value[end], 0)
                    end += 1
                names.update(_XR_NAME.findall(value[match.end() : end]))
    return frozenset(names)


def _valid_date(text: str) -> bool:
    if not _DATE.fullmatch(text.strip()):
        return False
    try:
        date.fromisoformat(text.strip()[-10:] if text.strip().startswith("-") else text.strip()[:10])
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class RawValue:
    """A model value the HTML stylesheet could not format (not a date or number, or a second value where it
    takes one), taken out of the model before rendering: the page shows it as written (``text``) at the field
    ``term`` of the box of ``src`` (the model element's ``xr:src``)."""

    src: str
    term: str
    text: str


def repair_model(model: etree._Element, numbers: frozenset[str], iterated: frozenset[str]) -> list[RawValue]:
    """Take out of ``model`` what the HTML stylesheet would stop on (an invalid invoice has it): a second
    element of a name the stylesheet expects once (not in ``iterated``; the first stays), a date element
    (``*_date``; ``;``-separated dates where the model joins several) that is not a date, a number it formats
    (``numbers``) that is not a number. Returns the values taken out, so that the page shows them as written (a
    second group, such as a doubled invoice period, is not shown: its findings are marked at its parent's box)."""
    taken: list[RawValue] = []
    for element in list(model.iter()):
        if not isinstance(element.tag, str) or element.getparent() is None:
            continue
        name = etree.QName(element).localname
        doubled = name not in iterated and any(p.tag == element.tag for p in element.itersiblings(preceding=True))
        bad = False
        if not len(element) and not doubled:
            text = element.text or ""
            if name.endswith("_date"):
                bad = not all(_valid_date(t) for t in text.split(";"))
            elif name in numbers:
                bad = not _NUMBER.fullmatch(text)
        if doubled or bad:
            if not len(element):
                taken.append(RawValue(element.get(_XR_SRC, ""), element.get(_XR_ID, ""), element.text or ""))
            element.getparent().remove(element)  # type: ignore[union-attr]
    return taken


def html_wrapper(stylesheet: Path, lang: str, labels: Labels) -> str:
    """The wrapper of the HTML stylesheet for ``lang`` (see the module docstring)."""
    from xml.sax.saxutils import quoteattr  # (see _literal)

    official = etree.parse(str(stylesheet), _XML_PARSER).getroot()
    stamps = []
    for template in official.iterchildren(f"{{{_XSL}}}template"):
        match = template.get("match")
        if not match or match == _REPLACED_TEMPLATE:
            continue
        mode = template.get("mode")
        stamps.append(
            f"<xsl:template match={quoteattr(match)}" + (f" mode={quoteattr(mode)}" if mode else "") + ">"
            '<xsl:variable name="out"><xsl:try><xsl:next-match/><xsl:catch><div class="ev-box-failed" '
            'data-ev-code="{local-name-from-QName($err:code)}"><xsl:value-of select="$err:description"/></div>'
            "</xsl:catch></xsl:try></xsl:variable>"
            '<xsl:apply-templates select="$out/node()" mode="ev:stamp">'
            '<xsl:with-param name="src" select="string(@xr:src)"/></xsl:apply-templates></xsl:template>'
        )
    sections = "".join(
        f'<xsl:try><xsl:call-template name="{name}"/><xsl:catch>'
        f'<div class="ev-section-failed" data-ev-section="{name}" '
        'data-ev-code="{local-name-from-QName($err:code)}"><xsl:value-of select="$err:description"/></div>'
        "</xsl:catch></xsl:try>"
        for name in SECTIONS
    )
    return (
        f'{_HEAD}<xsl:import href="{stylesheet.as_uri()}"/>'
        '<xsl:output method="xml" indent="no" undeclare-prefixes="no"/>'
        f'<xsl:param name="lang" select="\'{lang}\'"/>'
        f'<xsl:variable name="l10n-doc">{_literal(labels.trees[lang])}</xsl:variable>'
        f'<xsl:variable name="l10n-master-doc">{_literal(labels.trees["de"])}</xsl:variable>'
        f'<xsl:template match="{_REPLACED_TEMPLATE}"><div class="ev-viewer">{sections}</div></xsl:template>'
        + "".join(stamps)
        + '<xsl:template match="*" mode="ev:stamp" priority="1"><xsl:param name="src"/>'
        '<xsl:copy><xsl:copy-of select="@*"/>'
        '<xsl:if test="not(@data-ev-src)"><xsl:attribute name="data-ev-src" select="$src"/></xsl:if>'
        '<xsl:copy-of select="node()"/></xsl:copy></xsl:template>'
        '<xsl:template match="node()" mode="ev:stamp"><xsl:copy-of select="."/></xsl:template>'
        "</xsl:stylesheet>"
    )


_lock = threading.Lock()
_compiled: dict[tuple[str, str, str, str], Any] = {}
"""(engine, pack folder, pack key, what) → compiled wrapper: once per process, whatever the Viewer instance."""


def _compile(engine: Engine, pack: InstalledPack, what: str, wrapper: Callable[[], str]) -> Any:
    key = (engine.name, str(pack.directory), pack.key, what)
    with _lock:
        compiled = _compiled.get(key)
        if compiled is None:
            # The engines compile a stylesheet by path; the wrapper imports the official files by their absolute
            # URIs, so it is needed only while compiling: written to a private folder, removed right after.
            text = wrapper()
            with tempfile.TemporaryDirectory(prefix="einvoice-validate-viewer-") as tmp:
                path = Path(tmp) / f"{what}.xsl"
                path.write_text(text, encoding="utf-8")
                compiled = engine.compile(path, hashlib.sha256(text.encode("utf-8")).hexdigest())
            _compiled[key] = compiled
        return compiled


def _parsed(text: str, step: str) -> etree._Element:
    root = etree.fromstring(text.encode("utf-8"), _XML_PARSER)
    if root.tag == _RUNTIME_ERROR:
        raise ViewerFailed(root.get("code") or "SAXON", f"{step}: {' '.join((root.text or '').split())}")
    return root


class Viewer:
    """The viewer pack, verified at once, its stylesheets checked (:func:`check_reads`) and compiled on first use
    (per language); labels, style and the HTML stylesheet's names read on first use too (the values of findings
    need none of them: only the mapping stylesheet's text).

    Args:
        registry: where the pack is installed.
        engine: the XSLT engine (a validator's: :attr:`Validator.engine`).
        pack: the viewer pack, as ``id@version``.
    """

    def __init__(self, registry: Registry, engine: Engine, pack: str = VIEWER_PACK) -> None:
        self.engine = engine
        self.pack = registry.get(pack)
        self.pack.verify()
        # the pack's entry per document type, as the syntaxes declare it (a type without one has no view)
        self._entries = tuple(dict.fromkeys(k.viewer for k in registry.syntaxes.kinds.values() if k.viewer))
        self._checked = False  # check_reads, before the first compile (values need only the mapping's text)

    @functools.cached_property
    def labels(self) -> Labels:
        trees = {lang: etree.parse(str(self.pack.entry(f"l10n-{lang}")), _XML_PARSER).getroot() for lang in LANGS}
        return Labels(trees)

    @functools.cached_property
    def css(self) -> str:
        return self.pack.entry("css").read_text(encoding="utf-8")

    @functools.cached_property
    def _names(self) -> tuple[frozenset[str], frozenset[str]]:
        html = etree.parse(str(self.pack.entry("html")), _XML_PARSER).getroot()
        return numeric_names(html), iterated_names(html)

    @property
    def numbers(self) -> frozenset[str]:
        return self._names[0]

    @property
    def iterated(self) -> frozenset[str]:
        return self._names[1]

    def _compile(self, what: str, wrapper: Callable[[], str]) -> Any:
        if not self._checked:
            with _lock:
                if not self._checked:
                    check_reads(self.pack)
                    self._checked = True
        return _compile(self.engine, self.pack, what, wrapper)

    def _mapping(self, entry: str) -> Any:
        return self._compile(entry, lambda: mapping_wrapper(self.pack.entry(entry)))

    @staticmethod
    def entry_of(document: Document) -> str:
        """The viewer pack's entry for ``document``'s type (its syntax's ``viewer``); a type without one raises
        :class:`ViewerFailed` (code ``no-viewer``): the viewer has no view of it."""
        if document.kind.viewer is None:
            raise ViewerFailed(
                "no-viewer",
                f"the viewer has no view of {document.kind.title} documents ({document.document_type}): "
                "the findings are shown without the invoice",
            )
        return document.kind.viewer

    def _html(self, lang: str) -> Any:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGS)}")
        return self._compile(f"html-{lang}", lambda: html_wrapper(self.pack.entry("html"), lang, self.labels))

    def prepare(self, *langs: str) -> None:
        """Compile every stylesheet now (the mapping of every document type with a view, the HTML for ``langs``,
        default both)."""
        for entry in self._entries:
            self._mapping(entry)
        for lang in langs or LANGS:
            self._html(lang)

    def model(self, document: Document) -> etree._Element:
        """The invoice's semantic model alone (the mapping step, no HTML, nothing repaired): each element named by
        its business term (``xr:id``) and pointing at its source element (``xr:src``); :mod:`.values` reads the
        findings' values from it. Raises :class:`ViewerFailed` like :meth:`view`."""
        mapping = self._mapping(self.entry_of(document))
        try:
            return _parsed(mapping.run(self.engine.load(document)), "mapping")
        except StylesheetRuntimeError as exc:
            raise ViewerFailed(exc.code, exc.message) from exc

    def view(self, document: Document, lang: str = "en") -> View:
        """The invoice through the viewer. Raises :class:`ViewerFailed` when the official mapping stops on this
        invoice (a section that cannot be rendered is marked in the view instead), or when its document type has no
        view (code ``no-viewer``)."""
        mapping = self._mapping(self.entry_of(document))
        html = self._html(lang)
        try:
            source = self.engine.load(document)
            model = _parsed(mapping.run(source), "mapping")
            raw = repair_model(model, self.numbers, self.iterated)
            model_text = etree.tostring(model, encoding="unicode")
            body = _parsed(html.run(self.engine.parse_text(model_text)), "html")
        except StylesheetRuntimeError as exc:
            raise ViewerFailed(exc.code, exc.message) from exc
        return View(model, body, tuple(raw))
