"""Preparation step ``skip-text-walk``: no traversal over text where no rule can match it.

``skip-text-walk`` (v1, issue 21) rewrites a traversal ``<xsl:apply-templates select="node()"/>`` to ``select="*"``
(SchXslt walks every node of the document so: ``mode="#current"`` in its ``match="*"`` and ``match="/"`` templates
of ``mode="#all"``), but only for modes where applying templates to a text node, a comment or a processing
instruction can do nothing: every template of the mode whose match pattern can match such a node (judged on each
alternative's last step) is empty or only applies templates to the node's children or attributes (it has none), and
one of them matches every text node, so the built-in rule (which would copy the text) never applies; the built-in
rules for comments and processing instructions output nothing. The elements are visited as before, in the same
order and with the same parameters. The one thing the selection changes is the context position inside the templates
it reaches (text siblings no longer count), so the step leaves a stylesheet alone where any template reads
``position()`` or ``last()`` outside a predicate.

Indentation puts a text node between any two elements of an invoice: XRechnung's walk visited twice as many nodes
as it needs (``benchmarks/prepare_steps.py --thread``: XRechnung 2.6.0 UBL and CII about 4.5 % faster on Saxon-HE Java,
the control within 1 %; 7-9 % on SaxonC).
"""

from __future__ import annotations

import re

from lxml import etree

from ._xslt import (
    _dead_walks,
    _may_match,
    _outside_predicates,
    _walk_is_dead,
    _x,
)

# Last steps that cannot match a text node, a comment or a processing instruction: element and attribute tests.
_NOT_TEXT_STEP = re.compile(
    r"^(child::|self::)?(\*|[\w.-]+(:[\w.-]+|:\*)?|\*:[\w.-]+|element\([^)]*\)|document-node\([^)]*\))$"
    r"|^(@|attribute::)"
)
_ALL_TEXT = ("text()", "node()", "child::text()", "child::node()")
_WALK = ("node()", "child::node()")
_FOCUS = re.compile(r"(?<![\w.:-])(?:position|last)\s*\(\s*\)")


def _may_match_text(alternative: str) -> bool:
    """False only when the alternative's last step certainly cannot match a text, comment or PI node (else True)."""
    return _may_match(alternative, _NOT_TEXT_STEP)


def _text_walk_is_dead(root: etree._Element, mode: str) -> bool:
    """True if applying templates to text, comment and PI nodes in ``mode`` can do nothing (module docstring)."""
    return _walk_is_dead(root, mode, _may_match_text, _ALL_TEXT)


def _reads_context_position(root: etree._Element) -> bool:
    """Whether a template may read the context position or size its traversal gives it (``position()`` or ``last()``
    outside a predicate, in any attribute of any template: named templates keep their caller's focus)."""
    for template in root.iter(_x("template")):
        for element in template.iter():
            if isinstance(element.tag, str):
                for value in element.attrib.values():
                    if _FOCUS.search(_outside_predicates(str(value))):
                        return True
    return False


def _skip_text_walk(root: etree._Element) -> None:
    """Step ``skip-text-walk``: no traversal over text where no rule can match it."""
    if _reads_context_position(root):
        return
    for apply, alternatives in _dead_walks(root, _text_walk_is_dead, lambda alts: any(a in _WALK for a in alts)):
        kept = [a for a in alternatives if a not in _WALK]
        apply.set("select", "|".join([*kept, "*"] if "*" not in kept else kept))
