"""Where a finding is: a pack's location (any spelling) resolved on the parsed document, as one readable path.

Packs spell the same element three ways (SVRL ``@location``): ``/*:Invoice[namespace-uri()='…'][1]/…`` (the ISO
skeleton: CEN, CIUS-RO), ``/Q{urn:…}Invoice[1]/…`` (XSLT 3 ``path()``: XRechnung), and the XSD stage's
``/ubl:Invoice/cbc:IssueDate`` (libxml2, with the document's own prefixes). :class:`Locator` parses each spelling
with a small step parser (cached per string, no XPath compiled) and walks the lxml tree step by step, so every
finding gets the element's line and one readable path: the root element by its local name, every other element
with the conventional prefix its syntax declares (``rulesets/syntaxes/``;
``/Invoice/cac:AccountingSupplierParty/cac:Party[2]/cbc:EndpointID/@schemeID``; an index only where the element has
same-named siblings). A location that is not a path (CIUS-RO's stylesheet
gives attribute values such as ``0088x``) resolves to no path at all, never to a made-up one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from .syntaxes import bundled
from .xpath_text import split_outside

__all__ = ["Locator", "Place", "SiblingIndex", "parse_location", "readable_path"]

_ANY = "*"  # a name test matching any namespace (or any element when the local name is also "*")

# One step: an optional "@", a name test (Q{uri}local, *:local, prefix:local, local, *, text(), node()), then
# predicates: [n] or [namespace-uri()='uri'] (either quote).
_STEP = re.compile(
    r"""(?P<attr>@)?
    (?:Q\{(?P<uri>[^}]*)\}(?P<qlocal>[\w.\-]+|\*)
      |(?P<prefix>[\w.\-]+|\*):(?P<plocal>[\w.\-]+|\*)
      |(?P<kind>text|node|comment)\(\)
      |(?P<local>[\w.\-]+|\*))
    (?P<preds>(?:\[[^\]]*\])*)$""",
    re.VERBOSE,
)
_PRED = re.compile(r"""\[\s*(?:(?P<n>\d+)|namespace-uri\(\)\s*=\s*(?:'(?P<u1>[^']*)'|"(?P<u2>[^"]*)"))\s*\]""")


@dataclass(frozen=True, slots=True)
class _Step:
    attribute: bool
    namespace: str | None  # None: no namespace; _ANY: any
    local: str  # "*" any name; "text()" etc. for node tests
    index: int | None


@dataclass(frozen=True, slots=True)
class Place:
    """A resolved location: ``path`` is the readable path (None when the location is not a path), ``line`` the
    line of the element it names (of the attribute's or text's element), when it was found in the document."""

    path: str | None
    line: int | None


def _split(location: str) -> list[str] | None:
    """The steps of an absolute path, split on the slashes outside ``{}``, ``[]`` and quotes."""
    steps, balanced = split_outside(location[1:], "/", "[{", "]}")
    return steps if balanced else None


@lru_cache(maxsize=4096)
def parse_location(location: str, prefixes: tuple[tuple[str, str], ...] = ()) -> tuple[_Step, ...] | None:
    """The steps of a location path, or None when it is not one (``0088x``, ``eur``, a relative path).

    ``prefixes`` map the location's own prefixes (libxml2 writes the document's); unknown ones fall back to the
    conventional prefixes of the bundled syntaxes (``rulesets/syntaxes/``), then to any namespace."""
    location = location.strip()
    if not location.startswith("/") or location.startswith("//"):
        return None
    parts = _split(location)
    if parts is None or parts == [""]:
        return None
    own = dict(prefixes)
    steps: list[_Step] = []
    for part in parts:
        m = _STEP.match(part.strip())
        if m is None:
            return None
        namespace: str | None
        if m["kind"]:
            namespace, local = None, m["kind"] + "()"
        elif m["qlocal"] is not None:
            namespace, local = m["uri"] or None, m["qlocal"]
        elif m["plocal"] is not None:
            prefix = m["prefix"]
            # a prefix two syntaxes share (bundled().namespaces leaves it out) resolves by local name
            namespace = _ANY if prefix == "*" else own.get(prefix) or bundled().namespaces.get(prefix, _ANY)
            local = m["plocal"]
        else:
            local = m["local"]
            # a bare name is in no namespace for an attribute; for an element "*" is any, else no namespace,
            # except the root, which readable paths write without its prefix
            namespace = _ANY if (local == "*" or not steps) and not m["attr"] else None
        index = None
        preds = m["preds"]
        pos = 0
        while pos < len(preds):
            p = _PRED.match(preds, pos)
            if p is None:
                return None
            if p["n"] is not None:
                index = int(p["n"])
            else:
                namespace = p["u1"] if p["u1"] is not None else p["u2"]
            pos = p.end()
        steps.append(_Step(bool(m["attr"]), namespace, local, index))
    if any(s.attribute or s.local.endswith("()") for s in steps[:-1]):
        return None  # an attribute or text node has no children
    return tuple(steps)


def _name(namespace: str | None, local: str, root: bool, conventional: Mapping[str, str]) -> str:
    if root or not namespace or namespace == _ANY:
        return local
    prefix = conventional.get(namespace)
    return f"{prefix}:{local}" if prefix else f"Q{{{namespace}}}{local}"


def _tag(step: _Step) -> str | None:
    if step.local == "*":
        return None if step.namespace == _ANY else f"{{{step.namespace or ''}}}*"
    if step.namespace == _ANY:
        return "{*}" + step.local
    return f"{{{step.namespace}}}{step.local}" if step.namespace else step.local


class SiblingIndex:
    """The element children of each parent by name test, listed once per (parent, name test) when first asked, and
    each element's position among them: locating N findings among N siblings costs O(N), not O(N²) (issue 40,
    item 7: 10,000 empty elements took 153 s when every finding listed its siblings anew). Holds the elements it
    listed (lxml keeps one proxy per node while it is referenced, so they are keys by identity)."""

    __slots__ = ("_lists", "_positions")

    def __init__(self) -> None:
        self._lists: dict[tuple[etree._Element, str | None], list[etree._Element]] = {}
        self._positions: dict[tuple[etree._Element, str | None], dict[etree._Element, int]] = {}

    def children(self, parent: etree._Element, tag: str | None) -> list[etree._Element]:
        """The element children of ``parent`` that lxml's name test ``tag`` selects (None: every element)."""
        key = (parent, tag)
        listed = self._lists.get(key)
        if listed is None:
            listed = self._lists[key] = [c for c in parent.iterchildren(tag) if isinstance(c.tag, str)]
        return listed

    def position(self, parent: etree._Element, element: etree._Element) -> tuple[int, int]:
        """``element``'s position (from 1) among the children of ``parent`` of its own name, and their count."""
        tag = element.tag if isinstance(element.tag, str) else None
        key = (parent, tag)
        positions = self._positions.get(key)
        if positions is None:
            same = self.children(parent, tag)
            positions = self._positions[key] = {child: n for n, child in enumerate(same, start=1)}
        return positions[element], len(positions)


class Locator:
    """Resolves locations on one parsed document; each distinct location is resolved once."""

    def __init__(
        self,
        root: etree._Element,
        prefixes: dict[str, str] | None = None,
        conventional: Mapping[str, str] | None = None,
    ) -> None:
        """``prefixes``: the document's prefixes the locations may use (default: those declared on the root, read
        when the first location is resolved: most documents need none). ``conventional``: namespace -> the prefix
        readable paths write (default: the bundled syntaxes'; a rules home with syntaxes of its own passes theirs)."""
        self._root = root
        self._given = prefixes
        self._conventional = conventional if conventional is not None else bundled().prefixes
        self._prefixes: tuple[tuple[str, str], ...] | None = None
        self._cache: dict[str, Place] = {}
        self.siblings = SiblingIndex()
        """The document's sibling lists, built as findings need them (also for :func:`readable_path`)."""

    def place(self, location: str | None) -> Place:
        if location is None:
            return Place(None, None)
        place = self._cache.get(location)
        if place is None:
            place = self._resolve(location)
            self._cache[location] = place
        return place

    def _resolve(self, location: str) -> Place:
        if self._prefixes is None:
            given = self._given if self._given is not None else self._root.nsmap
            self._prefixes = tuple(sorted((k, v) for k, v in given.items() if k))
        steps = parse_location(location, self._prefixes)
        if steps is None:
            return Place(None, None)
        parts: list[str] = []
        element: etree._Element | None = None
        for n, step in enumerate(steps):
            if step.attribute:
                parts.append("@" + _name(step.namespace, step.local, True, self._conventional))
                continue
            if step.local.endswith("()"):
                parts.append(step.local)
                continue
            if n == 0:
                root = self._root
                found = root if _matches(root, step) else None
                candidates = [root] if found is not None else []
            elif element is None:
                found, candidates = None, []
            else:
                candidates = self.siblings.children(element, _tag(step))
                pick = (step.index or 1) - 1
                found = candidates[pick] if pick < len(candidates) else None
            parent, element = element, found
            if found is not None:
                q = etree.QName(found)
                name = _name(q.namespace, q.localname, n == 0, self._conventional)
                position, count = (step.index or 1), len(candidates)
                if parent is not None and (step.local == "*" or step.namespace == _ANY):
                    # a wildcard step counts other names too: the readable index is among same-named siblings
                    position, count = self.siblings.position(parent, found)
                parts.append(f"{name}[{position}]" if count > 1 else name)
            else:
                name = _name(step.namespace, step.local, n == 0, self._conventional)
                parts.append(f"{name}[{step.index}]" if step.index and step.index > 1 else name)
        line = element.sourceline if element is not None else None
        return Place("/" + "/".join(parts), line if isinstance(line, int) else None)


def _matches(element: etree._Element, step: _Step) -> bool:
    if step.index not in (None, 1) or not isinstance(element.tag, str):
        return False
    q = etree.QName(element)
    if step.local != "*" and q.localname != step.local:
        return False
    return step.namespace == _ANY or (q.namespace or None) == step.namespace


def readable_path(
    element: etree._Element,
    conventional: Mapping[str, str] | None = None,
    siblings: SiblingIndex | None = None,
) -> str:
    """The readable path of an element of a parsed document (the same style as :meth:`Locator.place`; the
    ``conventional`` prefixes as there). Pass one ``siblings`` index (e.g. :attr:`Locator.siblings`) for every
    path of a document: each sibling list is then made once, not once per path."""
    conventional = conventional if conventional is not None else bundled().prefixes
    index = siblings if siblings is not None else SiblingIndex()
    parts: list[str] = []
    node: etree._Element | None = element
    while node is not None:
        parent = node.getparent()
        q = etree.QName(node)
        name = _name(q.namespace, q.localname, parent is None, conventional)
        if parent is not None:
            position, count = index.position(parent, node)
            if count > 1:
                name += f"[{position}]"
        parts.append(name)
        node = parent
    return "/" + "/".join(reversed(parts))
