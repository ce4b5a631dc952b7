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
    _alternatives,
    _drop,
    _may_match,
    _template_modes,
    _walk_is_dead,
    _x,
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
    if any(True for _ in root.iter(_x("mode"))):
        return  # XSLT 3.0 mode declarations (on-no-match=…): not analysed
    modes = {m for t in root.iter(_x("template")) for m in _template_modes(t)} - {"#all"}
    modes |= {str(a.get("mode")) for a in root.iter(_x("apply-templates")) if a.get("mode")} - {"#current"}
    modes.add("#default")
    dead = {m for m in modes if _attribute_walk_is_dead(root, m)}
    for apply in list(root.iter(_x("apply-templates"))):
        select = apply.get("select")
        if select is None or len(apply):
            continue
        alternatives = _alternatives(select)
        if "@*" not in alternatives:
            continue
        mode = apply.get("mode") or "#default"
        if mode == "#current":
            template = next(apply.iterancestors(_x("template")), None)
            if template is None:
                continue
            reached = _template_modes(template)
            if "#all" in reached:
                reached = sorted(modes)
            if not all(m in dead for m in reached):
                continue
        elif mode not in dead:
            continue
        rest = [a for a in alternatives if a != "@*"]
        if rest:
            apply.set("select", "|".join(rest))
        else:
            _drop(apply)
