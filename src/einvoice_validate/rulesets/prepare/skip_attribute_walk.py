"""Preparation step ``skip-attribute-walk``: no traversal over attributes where no rule can match one.

``skip-attribute-walk`` (v1, issue 10) rewrites the per-pattern traversals ``<xsl:apply-templates mode="M"
select="@*|*"/>`` (ISO skeleton) to ``select="*"`` and drops SchXslt's ``<xsl:apply-templates mode="#current"
select="@*"/>``, but only for modes where no template can do anything with an attribute: every template of the
mode whose match pattern can match an attribute (judged on each alternative's last step) is empty or only
applies templates to the attribute's children (there are none), and one of them matches every attribute, so the
built-in rule (which would copy the attribute's value) never applies.
"""

from __future__ import annotations

import re

from lxml import etree

from ._xslt import _alternatives, _closing_paren, _drop, _split_top, _x

# Last steps of a pattern alternative that cannot match an attribute node (child axis, element-ish tests).
_NOT_ATTRIBUTE_STEP = re.compile(
    r"^(child::)?(\*|[\w.-]+(:[\w.-]+|:\*)?|\*:[\w.-]+|text\(\)|node\(\)|comment\(\)|processing-instruction\([^)]*\)"
    r"|element\([^)]*\)|document-node\([^)]*\))$"
)
_ALL_ATTRIBUTES = ("@*", "attribute::*", "attribute()", "attribute(*)")


def _strip_predicates(step: str) -> str:
    out: list[str] = []
    depth = 0
    for ch in step:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out).strip()


def _may_match_attribute(alternative: str) -> bool:
    """False only when the alternative's last step certainly cannot match an attribute (else True)."""
    if alternative in ("/", "root()"):
        return False  # a document node, or the root of a tree: never an attribute reached from an element
    last = _split_top(alternative, "/")[-1].strip()
    if last.startswith("("):  # XSLT 3.0: (A | B)[predicate]
        close = _closing_paren(last)
        if close < len(last) and _strip_predicates(last[close + 1 :]) == "":
            return any(_may_match_attribute(a) for a in _alternatives(last[1:close]))
        return True
    last = _strip_predicates(last)
    return _NOT_ATTRIBUTE_STEP.match(last) is None


def _inert_on_attributes(template: etree._Element) -> bool:
    """An empty template, or one that only applies templates to children (an attribute has none)."""
    elements = [c for c in template if isinstance(c.tag, str)]
    if (template.text or "").strip() or any((c.tail or "").strip() for c in elements):
        return False
    for child in elements:
        if child.tag != _x("apply-templates") or len(child):
            return False
        select = child.get("select")
        if select is None:
            continue  # child::node()
        # From an attribute, any single child or attribute step selects nothing.
        steps = [_strip_predicates(a) for a in _alternatives(select)]
        if not all("/" not in a and (a.startswith("@") or _NOT_ATTRIBUTE_STEP.match(a)) for a in steps):
            return False
    return True


def _template_modes(template: etree._Element) -> list[str]:
    mode = template.get("mode")
    return mode.split() if mode is not None else ["#default"]


def _attribute_walk_is_dead(root: etree._Element, mode: str) -> bool:
    """True if applying templates to attributes in ``mode`` can output nothing (see the module docstring)."""
    catch_all = False
    for template in root.iter(_x("template")):
        match = template.get("match")
        modes = _template_modes(template)
        if match is None or (mode not in modes and "#all" not in modes):
            continue
        alternatives = _alternatives(match)
        if not any(_may_match_attribute(a) for a in alternatives):
            continue
        if not _inert_on_attributes(template):
            return False
        catch_all = catch_all or any(a in _ALL_ATTRIBUTES for a in alternatives)
    return catch_all


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
