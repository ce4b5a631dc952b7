"""The values of the business terms a finding names (``BT-112 = 994.18``), read from the invoice itself.

The rules name their business terms (``Finding.terms``); the document holds them. Where each term sits in UBL or
CII is read from the official XRechnung viewer's semantic model (KoSIT's ``xr:invoice``, the mapping step of
:mod:`.render.viewer`): every element there is named by its business term (``xr:id="BT-112"``) and points back at
its source element (``xr:src``), for UBL Invoice, UBL CreditNote and CII alike. So no term path is written here.

The model is built only for a document with at least one finding that names a term (a valid invoice costs
nothing), once per document. Where a term repeats (an invoice line's BT-131, a VAT breakdown's BT-117), the values
nearest the finding's element are kept: those whose source shares the longest path with the finding's location
below the root (the finding's own line, its own VAT breakdown); a finding on the document as a whole keeps the first
ones. At most :data:`MAX_PER_TERM` values per term and :data:`MAX_PER_FINDING` per finding, each cut at
:data:`MAX_VALUE_CHARS` characters. Without the viewer pack (``xrechnung-visualization``) installed, or
when the official mapping stops on the document, findings carry no values (never an error).
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING

from lxml import etree

from .errors import RulesetError
from .findings import Finding, TermValue
from .locations import Locator
from .parse import Document

if TYPE_CHECKING:
    from .render.viewer import Viewer
    from .rulesets.registry import Registry
    from .schematron.engines import Engine

__all__ = ["MAX_PER_FINDING", "MAX_PER_TERM", "MAX_VALUE_CHARS", "TermValues", "model_values", "pick_values"]

MAX_PER_TERM = 3
"""Values shown per term (the nearest ones)."""
MAX_PER_FINDING = 8
"""Values shown per finding in all."""
MAX_VALUE_CHARS = 80
"""A longer value (a note, an embedded attachment) is cut, ending in "…"."""

_XR = "{urn:ce.eu:en16931:2017:xoev-de:kosit:standard:xrechnung-1}"
_INDEX = re.compile(r"\[1\]$")

ModelValues = dict[str, list[tuple[tuple[str, ...], TermValue]]]
"""Per business term, the values the document holds: each with its source path's steps and the value."""


def _steps(path: str) -> tuple[str, ...]:
    """A path's element steps by local name, ``[1]`` dropped (readable paths and ``xr:src`` write it alike)."""
    return tuple(_INDEX.sub("", step.rsplit(":", 1)[-1]) for step in path.split("/") if step)


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def model_values(model: etree._Element, locator: Locator) -> ModelValues:
    """Every business term's values in the semantic model (elements with ``xr:id`` and text, no child elements),
    with their source elements' readable paths."""
    values: ModelValues = {}
    for element in model.iter():
        term = element.get(_XR + "id")
        if term is None or len(element) or not (element.text or "").strip():
            continue
        src = element.get(_XR + "src")
        location = locator.place(src).path if src else None
        value = TermValue(term=term, value=_cut(element.text or ""), location=location or src)
        values.setdefault(term, []).append((_steps(location or src or ""), value))
    return values


def pick_values(values: ModelValues, finding: Finding) -> tuple[TermValue, ...]:
    """The values of ``finding``'s terms nearest its location (see the module's description)."""
    here = _steps(finding.location or "")
    picked: list[TermValue] = []
    for term in finding.terms:
        candidates = values.get(term)
        if not candidates:
            continue

        def shared(steps: tuple[str, ...]) -> int:
            n = 0
            for a, b in zip(steps, here, strict=False):
                if a != b:
                    break
                n += 1
            return n

        best = max(shared(steps) for steps, _ in candidates)
        near = [v for steps, v in candidates if best <= 1 or shared(steps) == best]
        picked.extend(near[:MAX_PER_TERM])
    return tuple(picked[:MAX_PER_FINDING])


class TermValues:
    """Attaches values to one validator's findings; the viewer's mapping is compiled on first use (per engine,
    shared with ``show``)."""

    def __init__(self, registry: Registry, engine: Engine) -> None:
        self._registry = registry
        self._engine = engine
        self._viewer: Viewer | None = None
        self._unavailable = False
        self._lock = threading.Lock()

    def _viewer_or_none(self) -> Viewer | None:
        if self._viewer is None and not self._unavailable:
            from .render.viewer import Viewer

            with self._lock:
                if self._viewer is None and not self._unavailable:
                    try:
                        self._viewer = Viewer(self._registry, self._engine)
                    except RulesetError:  # the viewer pack is not installed (or broken: `show` says so)
                        self._unavailable = True
        return self._viewer

    def attach(self, document: Document, findings: list[Finding]) -> list[Finding]:
        """``findings`` with their values; unchanged when none names a term or there is no model."""
        if not any(f.terms for f in findings):
            return findings
        viewer = self._viewer_or_none()
        if viewer is None:
            return findings
        from .render.viewer import ViewerFailed

        try:
            model = viewer.model(document)
        except ViewerFailed:
            return findings
        root = document.tree.getroot()
        values = model_values(model, Locator(root, {k: v for k, v in root.nsmap.items() if k}))
        out = []
        for f in findings:
            picked = pick_values(values, f) if f.terms else ()
            out.append(f.model_copy(update={"values": picked}) if picked else f)
        return out
