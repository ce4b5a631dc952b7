"""Preparation step ``relative-patterns``: a rule's match pattern ``//P`` becomes ``P`` where only nodes of a document
can meet it.

A pattern ``//P`` matches a node that matches ``P`` and lies below a document node; ``P`` alone matches it wherever it
lies. The two differ only on nodes of a tree without a document node at its root (an element built in a variable
typed ``element()``, say). To test "below a document node", Saxon walks every candidate's ancestors up to the root,
each time the templates of a mode are searched for one of its elements (CEN's CII stylesheet has 70 such rules, on
the most frequent elements of an invoice).

``relative-patterns`` (v1, issue 21) drops the leading ``//`` of every alternative of the match pattern of a template
that has an explicit ``priority`` (the default priority of ``//P`` and ``P`` can differ; Schematron's generators give
every rule one), in a named mode where every node a template can meet lies in a tree with a document node at its
root. That holds when every ``xsl:apply-templates`` that may target the mode, or the default mode, selects either
from its context node's own tree (``/``, ``root()``, ``.``, ``*``, ``node()``, ``@*`` and their unions) or a document
(``document()``, ``doc()``), outside any instruction that changes the context (``xsl:for-each`` and the like; in a
named template, at every call as well): the stylesheet is applied to the validated document (a document node), and
from there every selection stays within a document. Each rule then matches exactly the nodes it matched before, with
the same priority: every finding is the same. An alternative that would begin with a parenthesis (XSLT 3.0 only) is
left as it is. ``benchmarks/prepare_steps.py --engine saxon-java --thread``: CEN CII about 10 % faster (the control,
the same stylesheet compiled twice, within 1 %); CEN UBL, with 7 such rules, within the noise; SaxonC 2-3 %.
"""

from __future__ import annotations

import re

from lxml import etree

from ._xslt import _alternatives, _template_modes, _x

_SAFE_SELECTS = frozenset({"/", "root()", ".", "*", "node()", "@*", "@*|*", "*|@*", "@*|node()", "node()|@*"})
_DOCUMENT_CALL = re.compile(r"^\s*(?:document|doc)\s*\(")
_CONTEXT_CHANGERS = tuple(_x(n) for n in ("for-each", "for-each-group", "iterate", "analyze-string", "merge"))


def _targets(apply: etree._Element) -> set[str]:
    """The modes an ``xsl:apply-templates`` may apply (``#all`` where it may be any)."""
    mode = apply.get("mode") or "#default"
    if mode != "#current":
        return {mode}
    template = next(apply.iterancestors(_x("template")), None)
    if template is None or template.get("match") is None:
        return {"#all"}  # a named template: the mode it is called in
    return set(_template_modes(template))


def _in_its_callers_context(element: etree._Element, root: etree._Element, seen: frozenset[str] = frozenset()) -> bool:
    """Whether ``element``'s context node is its template's (no instruction in between changes it) and, in a named
    template, each caller's, recursively (a named template runs in its caller's context); not in a function."""
    for ancestor in element.iterancestors():
        if ancestor.tag in _CONTEXT_CHANGERS or ancestor.tag == _x("function"):
            return False
        if ancestor.tag == _x("template"):
            name = ancestor.get("name")
            if ancestor.get("match") is not None or name is None:
                return ancestor.get("match") is not None
            if name in seen:
                return True  # a recursive call: judged where it started
            calls = [c for c in root.iter(_x("call-template")) if c.get("name") == name]
            return all(_in_its_callers_context(c, root, seen | {name}) for c in calls)
    return False


def _stays_in_documents(apply: etree._Element, root: etree._Element) -> bool:
    select = apply.get("select")
    if select is None:
        select = "node()"  # child::node()
    if not ("".join(select.split()) in _SAFE_SELECTS or _DOCUMENT_CALL.match(select)):
        return False
    return _in_its_callers_context(apply, root)


def _relative_patterns(root: etree._Element) -> None:
    """Step ``relative-patterns``: ``//P`` as ``P`` where only nodes of a document can meet the rule."""
    rules = [
        t
        for t in root.iter(_x("template"))
        if t.get("priority") is not None
        and t.get("match") is not None
        and any(a.startswith("//") for a in _alternatives(str(t.get("match"))))
    ]
    modes = {m for t in rules for m in _template_modes(t)}
    if not modes or modes & {"#default", "#all", "#unnamed"}:
        return
    for apply in root.iter(_x("apply-templates")):
        targets = _targets(apply)
        if targets & (modes | {"#default", "#all"}) and not _stays_in_documents(apply, root):
            return
    for template in rules:
        alternatives = _alternatives(str(template.get("match")))
        relative = [a[2:] if a.startswith("//") and not a[2:].lstrip().startswith("(") else a for a in alternatives]
        template.set("match", " | ".join(relative))
