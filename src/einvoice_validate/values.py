"""The values of the business terms a finding names (``BT-112 = 994.18``), read from the invoice itself.

The rules name their business terms (``Finding.terms``); the document holds them. Where each term sits in UBL
Invoice, UBL CreditNote and CII is not written here: it is read from the official XRechnung viewer's mapping
stylesheet (KoSIT's UBL/CII → semantic model step, :mod:`.viewer`), whose templates name each term
(``mode="BT-112"``). :class:`MappingPaths` reads the stylesheet once per document type and evaluates its
``apply-templates`` chains with lxml on the parsed document, for the terms the findings name only (well under a
millisecond). The few terms the stylesheet maps otherwise (``for-each-group``, ``xsl:if``, literal ``xr:id``s: the
notes, BT-23/24, the payment instructions) are taken from the mapping run on the document (the semantic model's
``xr:id`` and ``xr:src``), about 10 ms.

Terms of a national extension the viewer does not know (HR-CIUS's ``HR-BT-*``) are read from the project's table of
where they sit (``rulesets/terms/*.toml``: one XPath 1.0 per term, :func:`extension_terms`), with lxml, viewer or not.

Only a rule's finding that names a term (:func:`wants_values`) asks for values, so a valid invoice costs nothing.
Where a term repeats (an invoice line's BT-131, a VAT breakdown's BT-117), the values nearest the finding's element
are kept: those whose source shares the longest path with the finding's location below the root (the finding's own
line, its own VAT breakdown), never those of another instance of a repeated element the finding is in (a finding on
line 2 that lacks BT-146 shows no BT-146 at all, not line 1's); a finding on the document as a whole keeps the first
ones. At most :data:`MAX_PER_TERM` values per term and :data:`MAX_PER_FINDING` per finding, each cut at
:data:`MAX_VALUE_CHARS` characters. Without the viewer pack (``xrechnung-visualization``) installed, or when the
official mapping stops on the document, or for a document type whose syntax names no viewer entry
(``rulesets/syntaxes/``), findings carry no values (never an error).
"""

from __future__ import annotations

import re
import threading
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from lxml import etree

from ._bundled import bundled_dir
from .errors import RulesetError
from .findings import Finding, TermValue
from .locations import Locator, SiblingIndex, readable_path
from .parse import Document
from .xpath_text import split_outside

if TYPE_CHECKING:
    from .rulesets.registry import Registry
    from .schematron.engines import Engine
    from .viewer import Viewer

__all__ = [
    "MAX_PER_FINDING",
    "MAX_PER_TERM",
    "MAX_VALUE_CHARS",
    "MappingPaths",
    "TermValues",
    "ValueIndex",
    "extension_terms",
    "model_values",
    "node_values",
    "pick_values",
    "wants_values",
]

MAX_PER_TERM = 3
"""Values shown per term (the nearest ones)."""
MAX_PER_FINDING = 8
"""Values shown per finding in all."""
MAX_VALUE_CHARS = 80
"""A longer value (a note, an embedded attachment) is cut, ending in "…"."""

_XR = "{urn:ce.eu:en16931:2017:xoev-de:kosit:standard:xrechnung-1}"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
_INDEX = re.compile(r"\[1\]$")

ModelValues = dict[str, list[tuple[tuple[str, ...], TermValue]]]
"""Per business term, the values the document holds: each with its source path's steps and the value."""


def _steps(path: str) -> tuple[str, ...]:
    """A path's element steps by local name, ``[1]`` dropped (readable paths and ``xr:src`` write it alike)."""
    return tuple(_INDEX.sub("", step.rsplit(":", 1)[-1]) for step in path.split("/") if step)


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def model_values(model: etree._Element, locator: Locator, terms: set[str] | None = None) -> ModelValues:
    """The business terms' values in the semantic model (elements with ``xr:id`` and text, no child elements),
    with their source elements' readable paths; only those of ``terms`` if given."""
    values: ModelValues = {}
    for element in model.iter():
        term = element.get(_XR + "id")
        if term is None or (terms is not None and term not in terms):
            continue
        if len(element) or not (element.text or "").strip():
            continue
        src = element.get(_XR + "src")
        location = locator.place(src).path if src else None
        value = TermValue(term=term, value=_cut(element.text or ""), location=location or src)
        values.setdefault(term, []).append((_steps(location or src or ""), value))
    return values


def wants_values(finding: Finding) -> bool:
    """A rule's finding that names business terms (the project's own input findings, such as the profile notes,
    say their values in their text already)."""
    return finding.stage == "schematron" and bool(finding.terms)


def node_values(nodes: dict[str, list[object]]) -> ModelValues:
    """The values of the document's own nodes (:meth:`MappingPaths.values`), as :func:`model_values` gives them."""
    values: ModelValues = {}
    siblings = SiblingIndex()  # one per document: each sibling list made once (locations.py)
    for term, found in nodes.items():
        for node in found:
            if isinstance(node, etree._Element):  # its string value, as the mapping takes it
                text, location = "".join(str(t) for t in node.itertext()), readable_path(node, siblings=siblings)
            else:
                parent = getattr(node, "getparent", lambda: None)()
                if parent is None:
                    continue
                path = readable_path(parent, siblings=siblings)
                text, location = str(node), f"{path}/@{getattr(node, 'attrname', '')}"
            if text.strip():
                values.setdefault(term, []).append(
                    (_steps(location), TermValue(term=term, value=_cut(text), location=location))
                )
    return values


def _base(step: str) -> str:
    return step.split("[", 1)[0]


def pick_values(values: ModelValues, finding: Finding) -> tuple[TermValue, ...]:
    """The values of ``finding``'s terms nearest its location (see the module's description)."""
    return ValueIndex(values).pick(finding)


Ranked = list[tuple[int, TermValue]]
"""Values with their place in their term's list (document order), the first :data:`MAX_PER_TERM` of a kind."""


class _Node:
    """Where values' paths lead, one step down: the values that end here, and per name of the next step (its
    base, without the index) the first values below it."""

    __slots__ = ("below", "children", "ending")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.ending: Ranked = []
        self.below: dict[str, Ranked] = {}


def _keep(ranked: Ranked, index: int, value: TermValue) -> None:
    if len(ranked) < MAX_PER_TERM:  # values arrive in document order: the first ones are the ones kept
        ranked.append((index, value))


class ValueIndex:
    """A document's values by term, indexed by path, so that picking a finding's values costs the depth of its
    location, not a pass over every value of its terms (a finding on each of 2,000 lines, each naming the line's
    BT-131: four million comparisons before; issue 41). :meth:`pick` gives exactly what comparing the finding's
    path with every value's path does (tests/test_values.py keeps that comparison as the oracle): the values on the
    deepest common path that do not lead into another instance of an element on the finding's path, or, when that
    path is the root alone, all but those."""

    def __init__(self, values: ModelValues) -> None:
        self._roots: dict[str, _Node] = {}
        for term, found in values.items():
            root = self._roots[term] = _Node()
            for index, (steps, value) in enumerate(found):
                node = root
                for step in steps:
                    _keep(node.below.setdefault(_base(step), []), index, value)
                    child = node.children.get(step)
                    if child is None:
                        child = node.children[step] = _Node()
                    node = child
                _keep(node.ending, index, value)

    def pick(self, finding: Finding) -> tuple[TermValue, ...]:
        """The values of ``finding``'s terms nearest its location (see the module's description)."""
        here = _steps(finding.location or "")
        picked: list[TermValue] = []
        for term in finding.terms:
            root = self._roots.get(term)
            if root is None:
                continue
            # at depth i: the values sharing exactly i steps with ``here`` and not leaving it for another instance
            levels: list[Ranked] = []
            node: _Node | None = root
            depth = 0
            while node is not None:
                step = here[depth] if depth < len(here) else None
                shared = list(node.ending)
                excluded = _base(step) if step is not None else None
                for base, ranked in node.below.items():
                    if base != excluded:
                        shared.extend(ranked)
                levels.append(shared)
                node = node.children.get(step) if step is not None else None
                depth += 1
            best = max((i for i, level in enumerate(levels) if level), default=None)
            if best is None:
                continue
            chosen = [r for level in levels[:2] for r in level] if best <= 1 else levels[best]
            picked.extend(v for _, v in sorted(chosen, key=lambda r: r[0])[:MAX_PER_TERM])
        return tuple(picked[:MAX_PER_FINDING])


_XSL = "{http://www.w3.org/1999/XSL/Transform}"
_PLAIN = {_XSL + "variable", _XSL + "sequence"}  # between a template and its apply-templates: the context is kept
_EXISTS = re.compile(r"(?<![\w.:-])(exists|empty)\s*\(")
_CALL = re.compile(r"([\w.:-]+)\s*\(")
_XPATH1 = frozenset(
    (
        *("not", "count", "last", "position", "string", "concat", "contains", "starts-with", "normalize-space"),
        *("substring", "substring-before", "substring-after", "string-length", "translate", "boolean", "true"),
        *("false", "number", "sum", "floor", "ceiling", "round", "name", "local-name", "namespace-uri", "text"),
        *("node", "comment", "processing-instruction", "lang"),
    )
)


def _xpath(expression: str, namespaces: dict[str, str]) -> etree.XPath:
    """``expression`` compiled by lxml; ValueError when it calls a function beyond XPath 1.0 (lxml would only say
    so when evaluating it). XPath 2.0's ``exists(x)`` and ``empty(x)`` on nodes are XPath 1.0's ``boolean(x)`` and
    ``not(x)``."""
    expression = _EXISTS.sub(lambda m: "boolean(" if m.group(1) == "exists" else "not(", expression)
    unknown = {name for name in _CALL.findall(expression) if name not in _XPATH1}
    if unknown:
        raise ValueError(f"not XPath 1.0: {', '.join(sorted(unknown))}")
    return etree.XPath(expression, namespaces=namespaces)


Node = object
"""An element, or an attribute value (lxml's string result, which knows its parent and name)."""


@dataclass(frozen=True, slots=True)
class _Apply:
    mode: str
    select: etree.XPath


@dataclass(slots=True)
class _Template:
    match: etree.XPath | None  # the match pattern as an XPath finding every node it matches; None: the root
    applies: list[_Apply]


class MappingPaths:
    """The official mapping stylesheet of one document type, read (never run) for where each business term is:
    its ``apply-templates`` chains from the root template (``select`` in the context of the template's node,
    each reached template's ``match``), evaluated with lxml on the parsed document. Only the terms every route to
    which is such a plain chain are :attr:`known` (no ``for-each-group``, ``xsl:if`` or ``xsl:choose`` on the
    way, no XPath lxml cannot compile, no literal ``xr:id`` elsewhere); the others need the mapping run."""

    def __init__(self, stylesheet: etree._Element) -> None:
        ns = {k: v for k, v in stylesheet.nsmap.items() if k}
        self.templates: dict[str | None, list[_Template]] = {}
        unsure: set[str] = set()
        for template in stylesheet.iterfind(_XSL + "template"):
            mode, match = template.get("mode"), template.get("match")
            if match is None or (mode is None and not match.startswith("/")):
                continue
            pattern: etree.XPath | None = None
            if mode is not None:
                parts, balanced = split_outside(match, "|", "[(", "])")
                if not balanced:
                    unsure.add(mode)
                    continue
                pattern_text = " | ".join(p.strip() if p.strip().startswith("/") else "//" + p.strip() for p in parts)
                try:
                    pattern = _xpath(pattern_text, ns)
                except (etree.XPathError, ValueError):
                    unsure.add(mode)
                    continue
            applies = []
            for apply in template.iter(_XSL + "apply-templates"):
                target = apply.get("mode")
                if target is None:
                    continue
                parent, plain = apply.getparent(), True
                while parent is not None and parent is not template:
                    plain = plain and (parent.tag in _PLAIN or not parent.tag.startswith(_XSL))
                    parent = parent.getparent()
                try:
                    select = _xpath(apply.get("select", "node()"), ns)
                except (etree.XPathError, ValueError):
                    plain = False
                if not plain:
                    unsure.add(target)
                    continue
                applies.append(_Apply(target, select))
            self.templates.setdefault(mode, []).append(_Template(pattern, applies))
        self._ns = ns
        # a literal xr:id="BT-x" written outside BT-x's own templates: a route not through apply-templates
        for element in stylesheet.iter(_XSL + "attribute"):
            term = (element.get("select") or "").strip("'")
            if element.get("name") == "xr:id" and term.startswith("BT-"):
                owner = next(element.iterancestors(_XSL + "template"), None)
                if owner is None or owner.get("mode") != term:
                    unsure.add(term)
        children = {m: {a.mode for t in ts for a in t.applies} for m, ts in self.templates.items()}
        reach: dict[str | None, set[str]] = {}

        def reached(mode: str | None, seen: frozenset[str | None] = frozenset()) -> set[str]:
            if mode not in reach:
                below = {mode} if mode is not None else set()
                for child in children.get(mode, ()):
                    if child not in seen:
                        below |= reached(child, seen | {mode})
                reach[mode] = below
            return reach[mode]

        known = {m for m in reached(None) if m.startswith("BT-")}
        for mode in unsure:
            known -= reached(mode) | {mode}
        self.known = frozenset(known)
        self._reach = reach

    def values(self, root: etree._Element, terms: set[str]) -> dict[str, list[Node]]:
        """The nodes of ``terms`` (all :attr:`known`) in the document, in document order per term."""
        found: dict[str, list[Node]] = {}
        matches: dict[etree.XPath, set[object]] = {}

        def matching(pattern: etree.XPath) -> set[object]:
            if pattern not in matches:
                matches[pattern] = {_key(n) for n in pattern(root)}  # type: ignore[union-attr]
            return matches[pattern]

        def visit(node: Node, mode: str | None) -> None:
            for template in self.templates.get(mode, ()):
                if template.match is not None and _key(node) not in matching(template.match):
                    continue
                for apply in template.applies:
                    if not (self._reach.get(apply.mode, {apply.mode}) & terms):
                        continue
                    for child in apply.select(node):  # type: ignore[arg-type,union-attr]
                        if apply.mode in terms and not apply.mode.startswith("BG"):
                            if any(
                                t.match is None or _key(child) in matching(t.match)
                                for t in self.templates.get(apply.mode, ())
                            ):
                                found.setdefault(apply.mode, []).append(child)
                        else:
                            visit(child, apply.mode)
                break  # the first matching template of a mode, as apply-templates takes one

        visit(root, None)
        return found


def _key(node: object) -> object:
    if isinstance(node, etree._Element):
        return node
    parent = getattr(node, "getparent", lambda: None)()
    return (parent, getattr(node, "attrname", None))


@lru_cache(maxsize=1)
def extension_terms() -> dict[str, etree.XPath]:
    """The terms of ``rulesets/terms/*.toml`` (national extensions' own terms, e.g. HR-CIUS's ``HR-BT-*``), each
    with its compiled XPath from the document's root element. A broken table is ``ruleset.invalid``."""
    found: dict[str, etree.XPath] = {}
    for path in sorted((bundled_dir() / "terms").glob("*.toml")):
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8"))
            namespaces = {str(k): str(v) for k, v in table.get("namespaces", {}).items()}
            for term, expression in table.get("terms", {}).items():
                found[str(term)] = _xpath(str(expression), namespaces)
        except (OSError, tomllib.TOMLDecodeError, etree.XPathError, ValueError) as exc:
            raise RulesetError("ruleset.invalid", f"cannot read the term table {path}: {exc}") from exc
    return found


class TermValues:
    """Attaches values to one validator's findings; the viewer's mapping is compiled on first use (per engine,
    shared with ``show``)."""

    def __init__(self, registry: Registry, engine: Engine) -> None:
        self._registry = registry
        self._engine = engine
        self._viewer: Viewer | None = None
        self._paths: dict[str, MappingPaths] = {}
        self._unavailable = False
        self._lock = threading.Lock()

    def _viewer_or_none(self) -> Viewer | None:
        if self._viewer is None and not self._unavailable:
            from .viewer import Viewer  # with the first finding that names a term: 25 ms off every start

            with self._lock:
                if self._viewer is None and not self._unavailable:
                    try:
                        self._viewer = Viewer(self._registry, self._engine)
                    except RulesetError:  # the viewer pack is not installed (or broken: `show` says so)
                        self._unavailable = True
        return self._viewer

    def attach(self, document: Document, findings: list[Finding]) -> list[Finding]:
        """``findings`` with their values; unchanged when no rule's finding names a term or there is no model."""
        if not any(wants_values(f) for f in findings):
            return findings
        terms = {t for f in findings if wants_values(f) for t in f.terms}
        root = document.tree.getroot()
        own = extension_terms()
        values = node_values({t: list(own[t](root)) for t in sorted(terms & own.keys())})  # type: ignore[arg-type]
        needed = {t for t in terms if t.startswith("BT-")}  # BGs: no value
        viewer = self._viewer_or_none() if needed else None
        entry = document.kind.viewer  # the viewer pack's entry for its document type (none: no BT values)
        if viewer is not None and entry is not None:
            paths = self._mapping_paths(viewer, entry)
            try:
                if needed & paths.known == needed:
                    values |= node_values(paths.values(root, needed))
                else:
                    values |= self._run_mapping(viewer, document, needed)
            except (etree.XPathError, ValueError):  # an expression lxml cannot evaluate after all: run the mapping
                values |= self._run_mapping(viewer, document, needed)
        if not values:
            return findings
        index = ValueIndex(values)
        out = []
        for f in findings:
            picked = index.pick(f) if wants_values(f) else ()
            out.append(f.model_copy(update={"values": picked}) if picked else f)
        return out

    def _mapping_paths(self, viewer: Viewer, entry: str) -> MappingPaths:
        paths = self._paths.get(entry)
        if paths is None:
            stylesheet = etree.parse(str(viewer.pack.entry(entry)), _PARSER).getroot()
            paths = self._paths[entry] = MappingPaths(stylesheet)
        return paths

    @staticmethod
    def _run_mapping(viewer: Viewer, document: Document, needed: set[str]) -> ModelValues:
        from .viewer import ViewerFailed  # loaded with Viewer (above)

        try:
            model = viewer.model(document)
        except ViewerFailed:
            return {}
        root = document.tree.getroot()
        return model_values(model, Locator(root, {k: v for k, v in root.nsmap.items() if k}), needed)
