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

from lxml import etree

from ._xslt import _alternatives, _stays_in_documents, _targets, _template_modes, _x


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
