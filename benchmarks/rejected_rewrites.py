"""Two stylesheet rewrites measured for issue 21 and not made preparation steps (they saved nothing, or cost one engine
what they saved the other): kept here so that ``prepare_steps.py --variants 'all + one traversal,all + shared paths'``
reproduces the figures in the README. Both apply to the ISO-skeleton stylesheets (CEN, CIUS-RO) and leave any other
stylesheet unchanged.

* ``one_traversal``: one walk over the document instead of one per Schematron pattern. The skeleton applies templates
  to ``/`` once per pattern mode, each rule template recursing into the children in its own mode; here one new mode
  visits every element once and applies each pattern's mode to it (``select="."``: "the first matching rule of a
  pattern fires" is Saxon's own template choice, unchanged), the rule templates no longer recursing. The output order
  changes (node by node instead of pattern by pattern), which a step would have to undo.
* ``shared_paths``: each absolute path ``//A[p]/B/C`` in a rule's test evaluated once per document: its head
  (``//A[p]/B``) becomes a global variable computed under ``xsl:try``, and each use reads the variable, or evaluates
  the original head where it raised (so that errors surface in the same rule as before).
"""

from __future__ import annotations

import re

from lxml import etree

from einvoice_validate.rulesets.prepare import _closing_paren
from einvoice_validate.xpath_text import split_outside

XSL = "http://www.w3.org/1999/XSL/Transform"
_NAME = r"(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*"
_STEP = re.compile(rf"@?{_NAME}")
_KEYWORDS = {"and", "or", "in", "satisfies", "return", "then", "else", "div", "mod", "eq", "ne", "lt", "le", "gt", "ge"}


def _x(name: str) -> str:
    return f"{{{XSL}}}{name}"


def _pattern_modes(root: etree._Element) -> list[str]:
    top = next((t for t in root.iter(_x("template")) if t.get("match") == "/" and t.get("mode") is None), None)
    if top is None:
        return []
    return [str(a.get("mode")) for a in top.iter(_x("apply-templates")) if a.get("select") == "/" and a.get("mode")]


def one_traversal(root: etree._Element) -> None:
    modes = _pattern_modes(root)
    if len(modes) < 2:
        return
    for template in root.iter(_x("template")):
        if template.get("mode") in modes:
            for child in list(template):
                recursion = child.tag == _x("apply-templates") and child.get("mode") == template.get("mode")
                if recursion and child.get("select") in ("*", "@*|*"):
                    template.remove(child)
    top = next(t for t in root.iter(_x("template")) if t.get("match") == "/" and t.get("mode") is None)
    applies = [a for a in top.iter(_x("apply-templates")) if a.get("select") == "/" and a.get("mode") in modes]
    parent = applies[0].getparent()
    assert parent is not None
    index = parent.index(applies[0])
    for apply in applies:
        parent.remove(apply)
    parent.insert(index, etree.Element(_x("apply-templates"), mode="einvoice-validate-all", select="/"))
    walk = etree.SubElement(root, _x("template"), match="/|*", mode="einvoice-validate-all")
    for mode in modes:
        etree.SubElement(walk, _x("apply-templates"), mode=mode, select=".")
    etree.SubElement(walk, _x("apply-templates"), mode="einvoice-validate-all", select="*")


def _absolute_paths(text: str) -> list[tuple[int, int]]:
    """(start, end) of each ``//`` path that starts an operand (outside string literals), plain steps with
    predicates only."""
    found: list[tuple[int, int]] = []
    quote = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif text.startswith("//", i):
            before = text[:i].rstrip()
            word = re.search(r"[\w.-]+$", before)
            if not before or before[-1] in "(,[=<>|+" or (word is not None and word.group(0) in _KEYWORDS):
                end = _path_end(text, i)
                if end is not None:
                    found.append((i, end))
                    i = end
                    continue
            i += 2
            continue
        i += 1
    return found


def _path_end(text: str, start: int) -> int | None:
    j = start + 2
    while True:
        step = _STEP.match(text, j)
        if step is None or (step.end() < len(text) and text[step.end()] == "("):
            return None
        j = step.end()
        while j < len(text) and text[j] == "[":
            j += _closing_paren(text[j:], "[", "]") + 1
        if not (text.startswith("/", j) and not text.startswith("//", j)):
            return j
        j += 1


def _head(path: str) -> tuple[str, str]:
    """``//A[p]/B/C`` → (``//A[p]/B``, ``/C``): split at the last top-level ``/``."""
    steps = split_outside(path[2:], "/", "[", "]")[0]
    return (path, "") if len(steps) == 1 else ("//" + "/".join(steps[:-1]), "/" + steps[-1])


def shared_paths(root: etree._Element) -> None:
    modes = set(_pattern_modes(root))
    if not modes or "xs" not in (root.nsmap or {}):
        return
    heads: dict[str, str] = {}
    for template in root.iter(_x("template")):
        if template.get("mode") not in modes:
            continue
        for element in template.iter(_x("when"), _x("if")):
            text = element.get("test") or ""
            out, last = [], 0
            for start, end in _absolute_paths(text):
                head, tail = _head(text[start:end])
                if "$" in head or "current()" in head:
                    continue
                name = heads.setdefault(head, f"einvoice-validate-path-{len(heads) + 1}")
                out += [text[last:start], f"(if (${name}[1] instance of xs:integer) then ({head}) else ${name}){tail}"]
                last = end
            if out:
                element.set("test", "".join(out) + text[last:])
    anchor = next(i for i, child in enumerate(root) if child.tag == _x("template"))
    for head, name in heads.items():
        variable = etree.Element(_x("variable"), name=name, attrib={"as": "item()*"})
        attempt = etree.SubElement(variable, _x("try"), select=head)
        etree.SubElement(attempt, _x("catch"), select="0")
        root.insert(anchor, variable)
