"""Reading libxml2's error log: its entries, the parts of a message (element, attribute, detail, the expected
list, the value), the instance element an entry is about, and names written as Xerces writes them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol, cast

from lxml import etree

__all__ = [
    "HEAD_RE",
    "VALUE_RE",
    "LineIndex",
    "LogEntryLike",
    "expected_list",
    "locate",
    "log_entries",
    "raw_name",
    "sourceline",
    "xerces_qname",
]


class LogEntryLike(Protocol):
    """The attributes of ``etree._LogEntry`` used here (lxml-stubs do not describe it)."""

    @property
    def type_name(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def path(self) -> str | None: ...


def log_entries(log: object) -> list[LogEntryLike]:
    return list(cast("Iterable[LogEntryLike]", log))


def sourceline(el: etree._Element) -> int | None:
    value: object = el.sourceline
    return value if isinstance(value, int) else None


HEAD_RE = re.compile(r"^Element '(?P<el>[^']*)'(?:, attribute '(?P<attr>[^']*)')?: (?P<detail>.*)$", re.S)
_EXPECTED_RE = re.compile(r"Expected is (?:one of )?\( (?P<list>.*) \)")
VALUE_RE = re.compile(r"^(?:\[facet '[^']*'\] )?(?:The value )?'(?P<v>.*?)'(?: is not| has a length| is| does)", re.S)


def raw_name(el: etree._Element | None, fallback_clark: str) -> str:
    """Element name as written in the instance (``prefix:local``), as Xerces prints it."""
    if el is not None and isinstance(el.tag, str):
        local = etree.QName(el).localname
        return f"{el.prefix}:{local}" if el.prefix else local
    return fallback_clark.rpartition("}")[2] if fallback_clark else "?"


def xerces_qname(clark: str) -> str:
    clark = clark.strip()
    if clark.startswith("{"):
        ns, _, local = clark[1:].partition("}")
        return f'{{"{ns}":{local}}}'
    return clark


def expected_list(detail: str) -> str | None:
    """libxml2's expected list '( {ns}a, {ns}b )' in Xerces' form '"ns":a, "ns":b'."""
    m = _EXPECTED_RE.search(detail)
    if not m:
        return None
    items = [i.strip() for i in m.group("list").split(",") if i.strip()]
    return ", ".join(xerces_qname(i)[1:-1] if i.startswith("{") else i for i in items)


class LineIndex:
    """The elements of a tree by source line, listed in one pass when :func:`locate` first needs the fallback (it
    walked the whole tree for every error: quadratic in a document of many errors), and each parent's element
    children by name as written (``prefix:local``), listed when a path first steps below that parent (each step of
    each error's path listed every child of its parent anew: an error on each of 10,000 lines read the root's 10,000
    children per error, issue 41)."""

    def __init__(self, tree: etree._ElementTree) -> None:
        self._tree = tree
        self._by_line: dict[int, list[etree._Element]] | None = None
        self._named: dict[etree._Element, dict[str, list[etree._Element]]] = {}

    def named(self, parent: etree._Element, name: str) -> list[etree._Element]:
        """The element children of ``parent`` named ``name`` (``prefix:local`` as written, ``local`` without a
        prefix), in document order."""
        groups = self._named.get(parent)
        if groups is None:
            groups = self._named[parent] = {}
            for child in parent:
                if isinstance(child.tag, str):
                    local = etree.QName(child).localname
                    groups.setdefault(f"{child.prefix}:{local}" if child.prefix else local, []).append(child)
        return groups.get(name, [])

    def at(self, line: int) -> list[etree._Element]:
        if self._by_line is None:
            self._by_line = {}
            for el in self._tree.getroot().iter():
                number = sourceline(el)
                if isinstance(el.tag, str) and number is not None:
                    self._by_line.setdefault(number, []).append(el)
        return self._by_line.get(line, [])


_PATH_STEP = re.compile(r"(?P<name>[^\[\]]+)(?:\[(?P<idx>\d+)\])?")


def _named(element: etree._Element, name: str) -> bool:
    """Whether ``element`` is named ``name`` as written (``prefix:local``, or ``local`` without a prefix)."""
    prefix, _, local = name.rpartition(":")
    return isinstance(element.tag, str) and etree.QName(element).localname == local and (element.prefix or "") == prefix


def locate(
    entry_path: str | None, line: int, clark: str, tree: etree._ElementTree, lines: LineIndex | None = None
) -> etree._Element | None:
    """Find the instance element an error is about: walk libxml2's node path, else by line."""
    root = tree.getroot()
    index = lines or LineIndex(tree)
    if entry_path and entry_path.startswith("/"):
        steps = entry_path.strip("/").split("/")
        cur: etree._Element | None = None
        ok = True
        for i, step in enumerate(steps):
            m = _PATH_STEP.fullmatch(step)
            if not m:
                ok = False
                break
            name = m.group("name")
            idx = int(m.group("idx")) if m.group("idx") else 1
            cands: list[etree._Element]
            if i == 0:
                cands = [root] if name == "*" or _named(root, name) else []
            elif cur is None:
                cands = []
            elif name == "*":
                cands = [c for c in cur if isinstance(c.tag, str)]
            else:
                cands = index.named(cur, name)
            if len(cands) < idx:
                ok = False
                break
            cur = cands[idx - 1]
        if ok and cur is not None:
            return cur
    for el in index.at(line):
        if not clark or el.tag == clark:
            return el
    return None
