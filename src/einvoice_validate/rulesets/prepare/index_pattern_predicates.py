"""Preparation step ``index-pattern-predicates``: a predicate on an outer step of a rule's match pattern is evaluated
once per element, through a key, not once per node the rule is tried on.

XRechnung's (Peppol's) rule ``ubl-invoice:Invoice[cac:InvoicePeriod/cbc:StartDate]/cac:InvoiceLine/cac:InvoicePeriod/
cbc:StartDate`` is tried on every line's start date, and each try evaluates the predicate on the invoice element:
Saxon looks through the invoice's children for a ``cac:InvoicePeriod``. An invoice without a period of its own (line
periods only, the usual utility invoice) has none, so every try reads every line: quadratic in the lines (issue 41:
2,000 lines 100 ms for the XRechnung UBL pack, 8,000 lines 1.1 s, most of it these two rules; in the official
stylesheets too).

``index-pattern-predicates`` (v1, issue 41) moves each such predicate into a key: the step ``N[P]`` (not the last
step of an alternative) becomes ``N[key('einvoice-validate.key-K', generate-id())]`` with ``<xsl:key
name="einvoice-validate.key-K" match="N[P]" use="generate-id()"/>``. A key's match is a pattern, read exactly as the
template's: the key holds an element under its own id exactly when it is an ``N`` satisfying ``P``, so the rewritten
step matches the same elements. Saxon builds the index once per document on first use, evaluating ``P`` once per
``N`` element. Rewritten only where nothing can differ:

* ``P`` cannot raise (:func:`._constants.predicate_error_free`: node paths, their comparisons with string literals,
  ``and``/``or``/``not``/``exists``; no variables, no ``current()``, no position) and reads below or around its
  element (a step other than an attribute; an attribute test costs nothing to repeat);
* ``N`` is a name test on the child axis (no ``*``, no parenthesised head), the template has an explicit priority
  (a pattern's default priority would change), and the template's modes meet only nodes of the validated document
  (``_document_only_modes``: ``key()`` needs a tree with a document node).

The template's pattern is its only change: the rule's context, as the report quotes it, was copied into the rule's
body by the earlier steps. Every finding is the same, on every document.
"""

from __future__ import annotations

import re

from lxml import etree

from ._constants import Keys, predicate_error_free
from ._xpath import Node, XPathSyntaxError, parse, walk
from ._xslt import _alternatives, _document_only_modes, _template_modes, _x

__all__ = ["PATTERN_KEY_PREFIX"]

PATTERN_KEY_PREFIX = "einvoice-validate.pattern-key-"
_NAME_TEST = re.compile(r"^(?:[\w.-]+:)?[\w.-]+$")


def _worth_a_key(predicate: Node) -> bool:
    """``predicate`` reads other nodes than its element's attributes (else evaluating it again costs nothing)."""
    return any(p.kind == "step" and p.axis != "attribute" for p in walk(predicate))


def _keyable(step: Node) -> bool:
    if step.kind != "step" or step.axis != "child" or not _NAME_TEST.match(step.test) or not step.children:
        return False
    return all(predicate_error_free(p) and not any(n.kind == "number" for n in walk(p)) for p in step.children) and any(
        _worth_a_key(p) for p in step.children
    )


def _rewrite(alternative: str, keys: Keys, template: etree._Element) -> str:
    try:
        tree = parse(alternative)
    except XPathSyntaxError:
        return alternative
    if tree.kind != "path" or not tree.children or any(s.kind != "step" for s in tree.children):
        return alternative
    out = alternative
    # right to left, so that the spans to the left stay valid; at least two steps above the node the rule is tried on
    for step in reversed(tree.children[:-2]):
        if not _keyable(step):
            continue
        first = step.children[0].start
        # the predicates' brackets: from the '[' before the first to the ']' after the last
        opening = alternative.rindex("[", 0, first)
        closing = alternative.index("]", step.children[-1].end)
        match = f"{step.test}{alternative[opening : closing + 1]}"
        name = keys.name(match, "generate-id()", template)
        out = f"{out[:opening]}[key('{name}', generate-id())]{out[closing + 1 :]}"
    return out


def _index_pattern_predicates(root: etree._Element) -> None:
    """Step ``index-pattern-predicates``: outer steps' predicates of match patterns through keys."""
    documents = _document_only_modes(root)
    keys = Keys(root, PATTERN_KEY_PREFIX)
    for template in list(root.iter(_x("template"))):
        match = template.get("match")
        if match is None or template.get("priority") is None:
            continue
        if not set(_template_modes(template)) <= documents:
            continue
        alternatives = _alternatives(match)
        rewritten = [_rewrite(a, keys, template) for a in alternatives]
        if rewritten != alternatives:
            template.set("match", " | ".join(rewritten))
