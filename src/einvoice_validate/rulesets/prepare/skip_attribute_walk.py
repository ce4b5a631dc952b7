"""Preparation step ``skip-attribute-walk``: no traversal over attributes where no rule can match one.

``skip-attribute-walk`` (v1, issue 10) rewrites the per-pattern traversals ``<xsl:apply-templates mode="M"
select="@*|*"/>`` (ISO skeleton) to ``select="*"`` and drops SchXslt's ``<xsl:apply-templates mode="#current"
select="@*"/>``, but only for modes where no template can do anything with an attribute: every template of the
mode whose match pattern can match an attribute (judged on each alternative's last step) is empty or only
applies templates to the attribute's children (there are none), and one of them matches every attribute, so the
built-in rule (which would copy the attribute's value) never applies.
"""

from __future__ import annotations

from lxml import etree

from ._xslt import (
    _CHILD_STEP,
    _dead_walks,
    _drop,
    _may_match,
    _walk_is_dead,
)

_ALL_ATTRIBUTES = ("@*", "attribute::*", "attribute()", "attribute(*)")


def _may_match_attribute(alternative: str) -> bool:
    """False only when the alternative's last step certainly cannot match an attribute (else True)."""
    return _may_match(alternative, _CHILD_STEP)


def _attribute_walk_is_dead(root: etree._Element, mode: str) -> bool:
    """True if applying templates to attributes in ``mode`` can output nothing (see the module docstring)."""
    return _walk_is_dead(root, mode, _may_match_attribute, _ALL_ATTRIBUTES)


def _skip_attribute_walk(root: etree._Element) -> None:
    """Step ``skip-attribute-walk``: no traversal over attributes where no rule can match one."""
    for apply, alternatives in _dead_walks(root, _attribute_walk_is_dead, lambda alts: "@*" in alts):
        rest = [a for a in alternatives if a != "@*"]
        if rest:
            apply.set("select", "|".join(rest))
        else:
            _drop(apply)
