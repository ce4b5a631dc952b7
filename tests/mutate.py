"""Seeded mutations of valid or nearly valid invoices, made the way ``corpus/mutations-dev`` was made.

Each mutant applies one or two operations to a copy of a document: ``delete`` (an element), ``empty`` (a leaf's
text), ``value`` (a wrong value of the leaf's kind: an amount "7x", a date "2024-13-45", a text of 300 characters),
``code`` (a code or identifier no list holds: "ZZZ", "999"), ``attr`` / ``attr-del`` (an attribute's value, or
the attribute removed), ``duplicate`` (an element repeated), ``swap`` (an element moved behind its next sibling)
and ``unknown`` (an element no schema knows). The specification identifier (UBL ``cbc:CustomizationID``, CII
``GuidelineSpecifiedDocumentContextParameter/ram:ID``) and the elements around it are never touched, so a mutant
is routed to the same profile as its original, by us and by the reference.

Deterministic: the random generator of each mutant is seeded with ``"<file name>:<n>"`` (Python's ``random``
hashes string seeds with SHA-512, whatever ``PYTHONHASHSEED``): the same input gives the same bytes on every run
and machine. The mutants are written by the tests into a temporary folder (or by ``python -m tests.mutate SRC...
OUT`` into ``build/`` for a look), never committed.

Example:
    >>> from tests.mutate import mutants
    >>> [m.name for m in mutants(Path("a.xml"), b"<Invoice>...</Invoice>", 2)]   # doctest: +SKIP
    ['a.m-0.xml', 'a.m-1.xml']
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

__all__ = ["OPERATIONS", "Mutant", "mutant_set", "mutants", "write_mutants"]

OPERATIONS = ("delete", "empty", "value", "code", "attr", "attr-del", "duplicate", "swap", "unknown")

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_blank_text=False)
_SPEC_ID = {"CustomizationID", "GuidelineSpecifiedDocumentContextParameter"}
_WRONG_VALUES = {
    "amount": ("7x", "-0.001", "1e3", "12345678901234567.89"),
    "date": ("2024-13-45", "20240101", "2024-02-30"),
    "text": ("x" * 300, " ", "<&>"),
}
_WRONG_CODES = ("ZZZ", "999", "XX", "0")


@dataclass(frozen=True)
class Mutant:
    """One mutated document: its file name, bytes, its original's name and what was done (``mutations.jsonl``)."""

    name: str
    data: bytes
    base: str
    mutations: tuple[dict[str, str], ...] = field(default=())

    def row(self) -> dict[str, object]:
        return {"file": self.name, "base": self.base, "mutations": list(self.mutations)}


def _local(element: etree._Element) -> str:
    return etree.QName(element).localname


def _protected(element: etree._Element) -> bool:
    """The specification identifier, its ancestors and descendants (routing must not change)."""
    for node in (element, *element.iterancestors()):
        if _local(node) in _SPEC_ID:
            return True
    return any(_local(d) in _SPEC_ID for d in element.iterdescendants(tag=etree.Element))


def _kind(element: etree._Element) -> str:
    name = _local(element)
    if name.endswith(("Amount", "Percent", "Quantity", "Numeric", "Rate")) or name in (
        "Value",
        "MultiplierFactorNumeric",
    ):
        return "amount"
    if name.endswith(("Date", "DateString")) or name == "DateTimeString":
        return "date"
    if name.endswith(("Code", "ID")) or name == "ID":
        return "code"
    return "text"


def _apply(root: etree._Element, op: str, rng: random.Random) -> dict[str, str] | None:
    """Apply ``op`` to a random fitting element of ``root``; None when the document has no such element."""
    elements = [e for e in root.iterdescendants(tag=etree.Element) if not _protected(e)]
    leaves = [e for e in elements if len(e) == 0 and (e.text or "").strip()]
    if op in ("empty", "value", "code"):
        pool = [e for e in leaves if (_kind(e) == "code") == (op == "code")] if op != "empty" else leaves
        if not pool:
            return None
        target = rng.choice(pool)
        old = (target.text or "").strip()
        if op == "empty":
            target.text = ""
            return {"op": op, "el": _local(target), "old": old}
        new = rng.choice(_WRONG_CODES if op == "code" else _WRONG_VALUES[_kind(target)])
        target.text = new
        return {"op": op, "el": _local(target), "old": old, "new": new}
    if op in ("attr", "attr-del"):
        pool = [e for e in elements if e.attrib]
        if not pool:
            return None
        target = rng.choice(pool)
        attr = rng.choice(sorted(target.attrib))
        old = target.attrib[attr]
        if op == "attr-del":
            del target.attrib[attr]
            return {"op": op, "el": _local(target), "attr": attr}
        new = rng.choice(("AAA", "", "1", "XXX"))
        target.attrib[attr] = new
        return {"op": op, "el": _local(target), "attr": attr, "old": old, "new": new}
    if op == "delete":
        target = rng.choice(elements)
        parent = target.getparent()
        assert parent is not None
        parent.remove(target)
        return {"op": op, "path": _local(target)}
    if op == "duplicate":
        target = rng.choice(elements)
        target.addnext(deepcopy(target))
        return {"op": op, "el": _local(target)}
    if op == "swap":
        pool = [e for e in elements if (n := e.getnext()) is not None and isinstance(n.tag, str) and not _protected(n)]
        if not pool:
            return None
        target = rng.choice(pool)
        following = target.getnext()
        assert following is not None
        following.addnext(target)
        parent = target.getparent()
        return {"op": op, "parent": _local(parent) if parent is not None else "", "el": _local(target)}
    if op == "unknown":
        parent = rng.choice([e for e in elements if len(e)] or [root])
        namespace = etree.QName(parent).namespace
        unknown = etree.SubElement(parent, f"{{{namespace}}}UnknownElement" if namespace else "UnknownElement")
        unknown.text = "x"
        return {"op": op, "parent": _local(parent)}
    raise ValueError(f"unknown operation {op!r}")


def mutants(path: Path, data: bytes, count: int) -> Iterator[Mutant]:
    """``count`` mutants of the document ``data`` (file ``path``), each with one or two operations."""
    stem = path.name.removesuffix(".xml")
    for n in range(count):
        rng = random.Random(f"{path.name}:{n}")
        tree = etree.ElementTree(etree.fromstring(data, _PARSER))
        root = tree.getroot()
        done: list[dict[str, str]] = []
        for _ in range(rng.choice((1, 1, 2))):
            for _attempt in range(8):  # an operation the document offers no element for: draw another
                applied = _apply(root, rng.choice(OPERATIONS), rng)
                if applied is not None:
                    done.append(applied)
                    break
        out = etree.tostring(tree, xml_declaration=True, encoding="UTF-8")
        yield Mutant(f"{stem}.m-{n}.xml", out, path.name, tuple(done))


def mutant_set(files: list[Path], count: int) -> list[Mutant]:
    """The mutants of every file, in file order (names are unique when the file names are)."""
    return [m for path in files for m in mutants(path, path.read_bytes(), count)]


def write_mutants(found: list[Mutant], folder: Path) -> list[Path]:
    """Write the mutants and ``mutations.jsonl`` (what was done to each) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for mutant in found:
        (folder / mutant.name).write_bytes(mutant.data)
        paths.append(folder / mutant.name)
    rows = "".join(json.dumps(m.row(), ensure_ascii=False) + "\n" for m in found)
    (folder / "mutations.jsonl").write_text(rows, encoding="utf-8")
    return paths


if __name__ == "__main__":  # python -m tests.mutate FILE_OR_FOLDER... OUT_FOLDER [--count N]
    args = sys.argv[1:]
    count = 4
    if "--count" in args:
        i = args.index("--count")
        count = int(args[i + 1])
        del args[i : i + 2]
    *sources, out = args
    files = sorted(p for s in map(Path, sources) for p in ([s] if s.is_file() else s.rglob("*.xml")))
    written = write_mutants(mutant_set(files, count), Path(out))
    print(f"{len(written)} mutants of {len(files)} files in {out}")
