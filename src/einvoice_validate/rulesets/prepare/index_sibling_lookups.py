"""Preparation step ``index-sibling-lookups``: a rule that looks for the line with a given id looks it up in an index.

FNFE's sub-line rules find, for every invoice line, the line it belongs to: ``(../cac:InvoiceLine |
../cac:CreditNoteLine)[cbc:ID = $parentlineID]``, ``../ram:IncludedSupplyChainTradeLineItem[ram:AssociatedDocument
LineDocument/ram:LineID = $parentlineID]``. Each such lookup reads every line, on every line: with 2,000 lines, four
million comparisons per rule (two of these rules were two thirds of the BR-FR pack's time, issue 41).

``index-sibling-lookups`` (v1, issue 41; v2: predicates comparing with a parenthesised sequence of string literals
count as error-free) turns each into a key: ``<xsl:key name="einvoice-validate.key-1"
match="cac:InvoiceLine | cac:CreditNoteLine" use="cbc:ID"/>`` and, where the lookup stood, ``(for
$einvoice-validate.parent in .. return key('einvoice-validate.key-1', $parentlineID, $einvoice-validate.parent)[.. is
$einvoice-validate.parent])``: Saxon indexes the lines once per document, and each lookup costs one access. The same
nodes come back in the same (document) order: the key's third argument keeps the lines below the same parent, the
predicate those directly below it. A lookup from the root
(``/rsm:CrossIndustryInvoice/…/ram:IncludedSupplyChainTradeLineItem[… = $v]``) becomes ``key('…', $v)`` with that path
as the key's pattern.

A lookup is rewritten only in this shape: the first predicate of a step (or of a parenthesised union of such steps) that
selects elements by name, all below ``..`` or all on one path of names from the root, is ``A = $v`` or ``A = $v and …``
(``$v = A`` too), where ``A`` is a path of child elements by name (ending in an attribute or not; a predicate on its
steps only of the kinds that cannot raise, reading global variables or local ones that hold one) and ``$v`` a variable
whose value is nodes or strings (its expression says so), and nothing the lookup keeps (the predicate's other conjuncts,
the later predicates and steps of its path) can raise (an error there would be raised in another evaluation, and
SaxonC's error texts quote the expression it was evaluating). Then ``A = $v`` compares strings (untyped values), exactly
as the key does, with the same (codepoint) collation; the rest of the predicate (``true() and …`` where ``A = $v``
stood) and the later predicates and steps are kept; the rule's templates meet only nodes of the validated document
(``_document_only_modes``: ``key()`` needs a tree with a document node). Every finding is the same, on every document.
"""

from __future__ import annotations

import re

from lxml import etree

from ._constants import (
    Keys,
    declaration,
    inside_template_focus_change,
    node_path,
    predicate_error_free,
    strings_or_nodes,
)
from ._xpath import Node, XPathSyntaxError, parse, walk
from ._xslt import _XSL, _document_only_modes, _template_modes, _x

__all__ = ["KEY_PREFIX"]

KEY_PREFIX = "einvoice-validate.key-"
_PARENT = "einvoice-validate.parent"
_NAME = re.compile(r"^(?:[\w.-]+:)?[\w.-]+$")


def _name_step(step: Node, axis: str = "child") -> bool:
    return step.kind == "step" and step.axis == axis and _NAME.match(step.test) is not None


def _parent_step(step: Node) -> bool:
    return step.kind == "step" and step.axis == "parent" and step.test == "node()" and not step.children


class _Indexer:
    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self.keys = Keys(root, KEY_PREFIX)
        self.globals = {
            str(e.get("name")): e for e in root if isinstance(e.tag, str) and e.tag in (_x("variable"), _x("param"))
        }

    def key(self, match: str, use: str, element: etree._Element) -> str:
        return self.keys.name(match, use, element)


def _conjuncts(pred: Node) -> list[Node]:
    """The operands of a predicate's ``and`` chain, leftmost first."""
    if pred.kind == "binary" and pred.op == "and":
        return _conjuncts(pred.children[0]) + _conjuncts(pred.children[1])
    return [pred]


def _quiet(site: _Site, preds: list[Node], later: list[Node]) -> bool:
    """Whether nothing the rewritten lookup keeps can raise: the lookup predicate's other conjuncts, the later
    predicates and the later steps of its path (an error there would be raised in another evaluation than before,
    and SaxonC quotes the expression it was evaluating in the error's text)."""
    rest = _conjuncts(preds[0])[1:] + preds[1:]
    return all(site.quiet(p) for p in rest) and all(node_path(s) or site.quiet(s) for s in later)


def _leftmost_conjunct(pred: Node) -> Node:
    while pred.kind == "binary" and pred.op == "and":
        pred = pred.children[0]
    while pred.kind == "paren" and len(pred.children) == 1:
        pred = pred.children[0]
    return pred


class _Site:
    """Where a lookup stands in one expression of one template."""

    def __init__(self, indexer: _Indexer, text: str, element: etree._Element, template: etree._Element) -> None:
        self.indexer = indexer
        self.text = text
        self.element = element
        self.template = template

    def value_var(self, node: Node) -> bool:
        if node.kind != "var":
            return False
        globals_ = self.indexer.globals
        return strings_or_nodes(declaration(node.name, self.element, self.template, globals_), globals_)

    def key_path(self, node: Node) -> str | None:
        """``node`` as the text of a key's ``use``: a path of child elements by name (the last step may be an
        attribute), predicates only of the kinds that cannot raise (variables replaced by the global they hold)."""
        steps = node.children if node.kind == "path" and not node.root else [node]
        if node.kind == "path" and "//" in node.seps:
            return None
        for n, step in enumerate(steps):
            last = n == len(steps) - 1
            if not (_name_step(step) or (last and _name_step(step, "attribute"))):
                return None
        out = self.text[node.start : node.end]
        for part in sorted(walk(node), key=lambda p: p.start, reverse=True):
            if part.kind == "var":
                held = self.global_held(part.name)
                if held is None:
                    return None
                out = out[: part.start - node.start] + "$" + held + out[part.end - node.start :]
        for step in steps:
            for pred in step.children:
                if not self.safe_predicate(pred):
                    return None
        return out

    def global_held(self, name: str) -> str | None:
        """The global variable ``$name`` is, or holds (a local ``<xsl:variable select="$G"/>``), if any."""
        declared = declaration(name, self.element, self.template, self.indexer.globals)
        if declared is None:
            return None
        if declared.getparent() is self.indexer.root:
            return name if strings_or_nodes(declared, self.indexer.globals) else None
        select = (declared.get("select") or "").strip()
        held = select[1:] if select.startswith("$") else ""
        target = self.indexer.globals.get(held)
        ok = target is not None and strings_or_nodes(target, self.indexer.globals)
        return held if _NAME.match(held) and ok else None

    def safe_predicate(self, node: Node) -> bool:
        if node.kind == "binary" and node.op in ("and", "or"):
            return all(self.safe_predicate(c) for c in node.children)
        if node.kind == "binary" and node.op in ("=", "!="):
            return all(c.kind == "literal" or c.kind == "var" or self.node_path(c) for c in node.children)
        return self.node_path(node)

    def quiet(self, node: Node) -> bool:
        """An expression that cannot raise: :func:`._constants.predicate_error_free`, or built like one where a
        comparison may also read a variable holding nodes or strings (compared as strings, never converted)."""
        if predicate_error_free(node):
            return True
        if node.kind == "paren":
            return len(node.children) == 1 and self.quiet(node.children[0])
        if node.kind == "binary" and node.op in ("and", "or"):
            return all(self.quiet(c) for c in node.children)
        if node.kind == "binary" and node.op in ("=", "!="):
            return all(c.kind == "literal" or self.value_var(c) or self.quiet_path(c) for c in node.children)
        if node.kind == "call" and node.name in ("not", "exists", "empty", "boolean") and len(node.children) == 1:
            return self.quiet(node.children[0])
        return self.quiet_path(node)

    def quiet_path(self, node: Node) -> bool:
        """A path of axis steps (or ``.``) whose predicates are :meth:`quiet`."""
        if node.kind == "context":
            return True
        if node.kind == "step":
            return node.axis != "namespace" and all(self.quiet(p) for p in node.children)
        if node.kind == "path" and not node.root:
            return all(self.quiet_path(s) for s in node.children)
        return False

    def node_path(self, node: Node) -> bool:
        steps = node.children if node.kind == "path" and not node.root else [node]
        return all(_name_step(s) and all(self.safe_predicate(p) for p in s.children) for s in steps)

    def lookup(self, pred: Node) -> tuple[str, Node] | None:
        """The key's ``use`` text and the ``$v`` node of a predicate ``A = $v (and …)``."""
        first = _leftmost_conjunct(pred)
        if first.kind != "binary" or first.op != "=":
            return None
        left, right = first.children
        if self.value_var(right):
            path, value = left, right
        elif self.value_var(left):
            path, value = right, left
        else:
            return None
        use = self.key_path(path)
        return (use, value) if use is not None else None

    def rest(self, pred: Node) -> str:
        """The predicate's text with its leading ``A = $v`` replaced by ``true()``."""
        first = _leftmost_conjunct(pred)
        return self.text[pred.start : first.start] + "true()" + self.text[first.end : pred.end]

    def predicates_text(self, preds: list[Node]) -> str:
        """The predicates after the lookup: the first without its ``A = $v`` (none if nothing else), the others."""
        texts = [self.rest(preds[0])] + [self.text[p.start : p.end] for p in preds[1:]]
        return "".join(f"[{t}]" for t in texts if t != "true()")


def _union_of_sibling_names(node: Node) -> list[str] | None:
    """``../A | ../B`` (in parentheses): the names A, B."""
    if node.kind == "paren" and len(node.children) == 1:
        return _union_of_sibling_names(node.children[0])
    if node.kind == "binary" and node.op in ("|", "union"):
        left, right = (_union_of_sibling_names(c) for c in node.children)
        return left + right if left is not None and right is not None else None
    if node.kind == "path" and not node.root and len(node.children) == 2:
        parent, child = node.children
        if _parent_step(parent) and _name_step(child) and not child.children:
            return [child.test]
    return None


def _rewrites(site: _Site, tree: Node) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    parents = {id(child): node for node in walk(tree) for child in node.children}
    for node in walk(tree):
        # (../A | ../B)[A = $v …]
        if node.kind == "filter":
            primary, *preds = node.children
            names = _union_of_sibling_names(primary)
            if names is None:
                continue
            parent = parents.get(id(node))
            later = (
                parent.children[1:]
                if parent is not None and parent.kind == "path" and parent.children[0] is node
                else []
            )
            found = site.lookup(preds[0])
            if found is None or not _quiet(site, preds, later):
                continue
            use, value = found
            key = site.indexer.key(" | ".join(names), use, site.element)
            out.append((node.start, node.end, _parent_lookup(site, key, value, preds)))
        elif node.kind == "path" and len(node.children) >= 2:
            steps = node.children
            if not node.root and _parent_step(steps[0]) and _name_step(steps[1]) and steps[1].children:
                found = site.lookup(steps[1].children[0])
                if found is None or not _quiet(site, steps[1].children, steps[2:]):
                    continue
                use, value = found
                key = site.indexer.key(steps[1].test, use, site.element)
                out.append((steps[0].start, steps[1].end, _parent_lookup(site, key, value, steps[1].children)))
            else:
                # the first step with predicates, below steps without: /A/B/C[A = $v …] ($G/C[…] where the global
                # $G is /A/B, as hoist-document-constants writes it)
                base = _root_names(site, node)
                if base is None:
                    continue
                first = 1 if not node.root else 0
                n = next((n for n, s in enumerate(steps) if s.children), 0)
                if n < 1 or not all(_name_step(s) for s in steps[first : n + 1]):
                    continue
                found = site.lookup(steps[n].children[0])
                if found is None or not _quiet(site, steps[n].children, steps[n + 1 :]):
                    continue
                use, value = found
                if node.root:
                    match = site.text[node.start : steps[n].start] + steps[n].test
                else:
                    match = base + "/" + site.text[steps[1].start : steps[n].start] + steps[n].test
                key = site.indexer.key(match, use, site.element)
                lookup = f"key('{key}', {site.text[value.start : value.end]})"
                after = site.predicates_text(steps[n].children)
                out.append((node.start, steps[n].end, f"({lookup}{after})" if after else lookup))
    # keep the outermost of overlapping rewrites (none overlap in the packs; a nested one waits for the next run)
    chosen: list[tuple[int, int, str]] = []
    for start, end, text in sorted(out, key=lambda r: (r[0], -r[1])):
        if chosen and start < chosen[-1][1]:
            continue
        chosen.append((start, end, text))
    return chosen


def _root_names(site: _Site, node: Node) -> str | None:
    """The text a key pattern starts with for a path from the root of name steps only (``/A/B/…``, ``//A/B/…``):
    ``""`` for such a path itself; for a path starting with a global variable that holds such a path without
    predicates (hoist-document-constants' ``$G/…``), that path and a ``/``; else None."""
    if "//" in node.seps:
        return None
    if node.root:
        return "" if node.root == "/" or node.root == "//" else None
    first = node.children[0]
    if first.kind != "var":
        return None
    declaration = site.indexer.globals.get(first.name)
    select = declaration.get("select") if declaration is not None else None
    if select is None or declaration is None or declaration.get("as") is not None:
        return None
    try:
        held = parse(select)
    except XPathSyntaxError:
        return None
    if held.kind != "path" or not held.root or "//" in held.seps:
        return None
    if not all(_name_step(s) and not s.children for s in held.children):
        return None
    return select.strip()


def _parent_lookup(site: _Site, key: str, value: Node, preds: list[Node]) -> str:
    v = site.text[value.start : value.end]
    rest = site.predicates_text(preds)
    return f"(for ${_PARENT} in .. return key('{key}', {v}, ${_PARENT})[.. is ${_PARENT}]{rest})"


def _index_sibling_lookups(root: etree._Element) -> None:
    """Step ``index-sibling-lookups`` (see the module docstring)."""
    modes = _document_only_modes(root)
    if not modes:
        return
    indexer = _Indexer(root)
    for template in [t for t in root.iterchildren(_x("template")) if t.get("match") is not None]:
        if not set(_template_modes(template)) <= modes:
            continue
        for element in list(template.iter()):
            if not isinstance(element.tag, str) or not element.tag.startswith(f"{{{_XSL}}}"):
                continue
            if element.tag in (_x("sort"), _x("number")) or inside_template_focus_change(element, template):
                continue
            for attribute in ("select", "test"):
                text = element.get(attribute)
                if text is None or (".." not in text and "/" not in text):
                    continue
                try:
                    tree = parse(text)
                except XPathSyntaxError:
                    continue
                if any(n.kind == "var" and n.name == _PARENT for n in walk(tree)):
                    continue
                site = _Site(indexer, text, element, template)
                rewrites = _rewrites(site, tree)
                for start, end, new in sorted(rewrites, reverse=True):
                    if end < len(text) and (text[end].isalnum() or text[end] in "_.-"):
                        new += " "
                    text = text[:start] + new + text[end:]
                if rewrites:
                    element.set(attribute, text)
