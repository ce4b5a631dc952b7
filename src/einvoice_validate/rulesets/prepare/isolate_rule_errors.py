"""Preparation step ``isolate-rule-errors``: each rule catches its own dynamic errors.

``isolate-rule-errors`` (v2; v1 issue 13, v2 issue 15: ISO-skeleton rule variables) wraps the assertions
of each rule (in the ISO skeleton the
``xsl:choose`` of each assert and the ``xsl:if`` of each report in a rule template; in SchXslt the ``xsl:if``
elements inside a ``schxslt:rule``) in one ``xsl:try``: a dynamic error while evaluating them (FORG0001 on an
amount "7x", XPTY0004 on a doubled element) no longer stops the whole pack but becomes an ``ev:rule-error``
element (namespace ``urn:einvoice-validate:saxon``) in the SVRL, with the error code and text, the ids of the
rule's assertions, the rule's context (the template's match pattern) and the location its assertions give;
every other rule still runs. The ``xsl:try`` buffers the rule's output (the default ``rollback-output``), so
the assertions of the rule that reported before the error do not appear twice or half. SchXslt rules with
variables (``let``), which Saxon may evaluate before the first assertion, get the variables moved into that
``xsl:try`` (they are read by the rule's assertions only: checked), and each of their assertions its own inner
``xsl:try`` (``rollback-output="no"`` where the assertion's output is constant apart from its location, so
nothing but its test, evaluated before any output, can raise). ISO-skeleton rules with variables (``let`` as
``xsl:variable`` children of the rule template, ahead of its assertions: Peppol's line-amount rules) have the
variables inside the rule's ``xsl:try`` (v2), when nothing after the assertions or in the catch reads them. Errors
outside rules (global variables and parameters: Peppol's ``$profile`` on a doubled ``cbc:ProfileID``) still stop
the pack, as before. One ``xsl:try`` per assertion would lose less on an error (only that
assertion) but cost the CEN and CIUS-RO stylesheets 4-13% per document in our runs of
``benchmarks/prepare_steps.py``; one per rule costs nothing measurable (within the runs' noise of about 5%). On
``mutations-dev`` the two placements differ by three findings in three files.
"""

from __future__ import annotations

import re
from copy import deepcopy

from lxml import etree

from ._xslt import _EV, _KEPT, _SCHXSLT, _XSL, PreparationError, _static_xsl_attribute, _x

_ERR = "http://www.w3.org/2005/xqt-errors"
_RULE_ERROR = f"{{{_EV}}}rule-error"
# Declared on each xsl:catch, not on the xsl:try: the assertions' own output then carries no extra namespaces.
_CATCH_NAMESPACES = {"err": _ERR, "ev": _EV}


def _avt_literal(text: str) -> str:
    """``text`` as an attribute value template that evaluates to ``text`` itself."""
    return text.replace("{", "{{").replace("}", "}}")


def _assertion_guard(kept: etree._Element) -> etree._Element:
    """The instruction that evaluates the assertion's test and outputs ``kept`` (the element to wrap)."""
    parent = kept.getparent()
    elements = [] if parent is None else [c for c in parent if isinstance(c.tag, str)]
    if parent is not None and parent.tag == _x("if") and elements == [kept]:
        return parent  # ISO-skeleton report, any SchXslt assertion: <xsl:if test="…"><svrl:…/></xsl:if>
    choose = None if parent is None else parent.getparent()
    if parent is not None and parent.tag == _x("otherwise") and elements == [kept] and choose is not None:
        # ISO-skeleton assert: <xsl:choose><xsl:when test="…"/><xsl:otherwise><svrl:failed-assert/>…
        branches = [c for c in choose if isinstance(c.tag, str)]
        when = branches[0]
        if (
            choose.tag == _x("choose")
            and len(branches) == 2
            and when.tag == _x("when")
            and branches[1] is parent
            and len(when) == 0
            and not (when.text or "").strip()
        ):
            return choose
    raise PreparationError(f"an assertion of an unknown shape (line {kept.sourceline})")


def _constant_text(element: etree._Element) -> str | None:
    """The value of an attribute or ``xsl:attribute`` that is a constant, else None."""
    if len(element) or element.get("select") is not None:
        return None
    return (element.text or "").strip()


def _output_is_constant(kept: etree._Element, location: etree._Element | None) -> bool:
    """True if nothing in ``kept`` but its location evaluates an expression (so nothing else can raise)."""
    for name, value in kept.attrib.items():
        if name != "location" and "{" in str(value):
            return False
    for element in kept.iterdescendants():
        if not isinstance(element.tag, str):
            continue
        if location is not None and (element is location or location in element.iterancestors()):
            continue
        if str(element.tag).startswith(f"{{{_XSL}}}"):
            if element.tag not in (_x("attribute"), _x("text")) or _constant_text(element) is None:
                return False
        elif any("{" in str(v) for v in element.attrib.values()):
            return False
    return True


def _rule_error(parent: etree._Element, rule_id: str, template: etree._Element) -> etree._Element:
    error = etree.SubElement(parent, _RULE_ERROR)
    error.set(f"{{{_XSL}}}exclude-result-prefixes", "#all")
    error.set("code", "{local-name-from-QName($err:code)}")
    error.set("id", _avt_literal(rule_id))
    error.set("context", _avt_literal(" ".join(str(template.get("match")).split())))
    return error


def _references(element: etree._Element, names: set[str]) -> bool:
    """True if an attribute in ``element``'s subtree may refer to one of the variables ``names``."""
    for node in element.iter():
        if isinstance(node.tag, str):
            for value in node.attrib.values():
                if any(re.search(rf"\${re.escape(n)}(?![\w.-])", str(value)) for n in names):
                    return True
    return False


def _isolate_rule_variables(template: etree._Element) -> None:
    """Rule variables (SchXslt ``let``) that Saxon evaluates eagerly, before any assertion's ``xsl:try``: move
    them into the branch that runs the rule's assertions, inside an ``xsl:try`` around the ``schxslt:rule``,
    whose catch names every assertion of the rule. Other shapes are left alone (their errors stop the pack)."""
    children = [c for c in template if isinstance(c.tag, str)]
    variables = [c for c in children if c.tag == _x("variable")]
    rest = [c for c in children if c.tag not in (_x("param"), _x("variable"))]
    if not variables or len(rest) != 1 or rest[0].tag != _x("choose"):
        return
    branches = [c for c in rest[0] if isinstance(c.tag, str)]
    if len(branches) != 2 or branches[0].tag != _x("when") or branches[1].tag != _x("otherwise"):
        return
    when, otherwise = branches
    rules = [c for c in otherwise if c.tag == f"{{{_SCHXSLT}}}rule"]
    names = {str(v.get("name")) for v in variables}
    if len(rules) != 1 or _references(when, names):
        return
    rule = rules[0]
    if any(_references(c, names) for c in otherwise if c is not rule):
        return
    kept = list(rule.iter(*_KEPT))
    locations = {k.get("location") for k in kept}
    if not kept or len(locations) != 1 or None in locations:
        return
    ids = " ".join(str(k.get("id")) for k in kept)
    index = otherwise.index(rule)
    wrapper = etree.SubElement(otherwise, _x("try"))
    otherwise.insert(index, wrapper)
    wrapper.tail, rule.tail = rule.tail, None
    for variable in variables:
        template.remove(variable)
        wrapper.append(variable)
    wrapper.append(rule)
    catch = etree.SubElement(wrapper, _x("catch"), nsmap=_CATCH_NAMESPACES)
    caught = etree.SubElement(catch, rule.tag, {str(k): str(v) for k, v in rule.attrib.items()})
    error = _rule_error(caught, ids, template)
    error.set("location", str(locations.pop()))
    etree.SubElement(error, _x("value-of"), select="$err:description")


def _assertion_facts(kept: etree._Element) -> tuple[etree._Element, etree._Element, str, etree._Element | None]:
    """The guard to wrap, the rule template, the assertion's id and its ``xsl:attribute name="location"``."""
    guard = _assertion_guard(kept)
    rule_template = next(guard.iterancestors(_x("template")), None)
    if rule_template is None or rule_template.get("match") is None:
        raise PreparationError(f"an assertion outside a rule template (line {kept.sourceline})")
    id_element = _static_xsl_attribute(kept, "id")
    rule_id = kept.get("id") if id_element is None else _constant_text(id_element)
    if rule_id is None:
        raise PreparationError(f"an assertion whose id is computed (line {kept.sourceline})")
    return guard, rule_template, rule_id, _static_xsl_attribute(kept, "location")


def _wrap(nodes: list[etree._Element], rollback: bool) -> etree._Element:
    """Put the consecutive siblings ``nodes`` into a new ``xsl:try`` (returned; its catch is for the caller)."""
    parent = nodes[0].getparent()
    if parent is None:
        raise PreparationError("an assertion at the root")
    index = parent.index(nodes[0])
    wrapper = etree.SubElement(parent, _x("try"))
    if not rollback:
        wrapper.set("rollback-output", "no")
    parent.insert(index, wrapper)
    wrapper.tail, nodes[-1].tail = nodes[-1].tail, None
    for node in nodes:
        wrapper.append(node)
    return wrapper


def _catch(wrapper: etree._Element, ids: str, template: etree._Element, kept: etree._Element) -> None:
    """The catch of ``wrapper``: an ``ev:rule-error`` with the location ``kept`` would have given."""
    catch = etree.SubElement(wrapper, _x("catch"), nsmap=_CATCH_NAMESPACES)
    error = _rule_error(catch, ids, template)
    location = _static_xsl_attribute(kept, "location")
    if location is not None:
        error.append(deepcopy(location))
    elif kept.get("location") is not None:
        error.set("location", str(kept.get("location")))
    etree.SubElement(error, _x("value-of"), select="$err:description")


def _isolate_rule_errors(root: etree._Element, per_rule: bool = True, fallback: bool = False) -> None:
    """Step ``isolate-rule-errors`` (see the module docstring): each rule catches its own dynamic errors.

    The other placements are kept for ``benchmarks/prepare_steps.py``: ``per_rule=False`` puts an ``xsl:try``
    around each assertion (an error costs only that assertion, but CEN's stylesheets run 4-13% slower);
    ``fallback=True`` gives each rule's catch a copy of its assertions, each in its own ``xsl:try`` (as fine as
    per assertion and as fast as per rule, but the stylesheet doubles and CEN UBL compiles in 1.8 s, not 0.4 s)."""
    rule_templates: list[etree._Element] = []
    for kept in root.iter(*_KEPT):
        found = next(kept.iterancestors(_x("template")), None)
        if found is not None and found not in rule_templates:
            rule_templates.append(found)
    for template in rule_templates:
        _isolate_rule_variables(template)
    if not per_rule:
        _isolate_each(list(root.iter(*_KEPT)))
        return
    # One xsl:try around the assertions of a rule (from its first to its last, with what lies between), buffering
    # its output; its catch evaluates them again, each in its own xsl:try.
    groups: list[tuple[etree._Element, list[etree._Element]]] = []
    inside: list[etree._Element] = []  # in a rule's xsl:try already (rule variables): each gets its own
    for kept in root.iter(*_KEPT):
        guard = _assertion_guard(kept)
        parent = guard.getparent()
        if parent is None or any(a.tag == _x("try") for a in guard.iterancestors()):
            inside.append(kept)
            continue
        if groups and groups[-1][0] is parent:
            groups[-1][1].append(kept)
        else:
            groups.append((parent, [kept]))
    for parent, members in groups:
        guards = [_assertion_guard(k) for k in members]
        first, last = parent.index(guards[0]), parent.index(guards[-1])
        first = _with_rule_variables(parent, first, last, members)
        wrapper = _wrap(list(parent)[first : last + 1], rollback=True)
        if not fallback:
            ids = " ".join(_assertion_facts(k)[2] for k in members)
            _catch(wrapper, ids, _assertion_facts(members[0])[1], members[0])
            continue
        catch = etree.SubElement(wrapper, _x("catch"), nsmap=_CATCH_NAMESPACES)
        for node in wrapper:
            if node is not catch:
                catch.append(deepcopy(node))
        _isolate_each(list(catch.iter(*_KEPT)))
    _isolate_each(inside)


def _with_rule_variables(parent: etree._Element, first: int, last: int, members: list[etree._Element]) -> int:
    """Where the rule's ``xsl:try`` starts: before the rule's variables (ISO skeleton ``let``: ``xsl:variable``
    children of the rule template, ahead of its assertions; Peppol's line rules compute amounts there, and Saxon may
    evaluate them before the first assertion), when nothing after the assertions and nothing in the catch (the
    assertions' locations) reads them; otherwise ``first`` unchanged (an error there stops the pack, as before)."""
    if parent.tag != _x("template"):
        return first
    children = list(parent)
    variables = [c for c in children[:first] if c.tag == _x("variable")]
    if not variables:
        return first
    start = children.index(variables[0])
    between = [c for c in children[start:first] if isinstance(c.tag, str)]
    if any(c.tag != _x("variable") for c in between):
        return first  # something else runs between the variables and the assertions: leave the shape alone
    names = {str(v.get("name")) for v in variables}
    after = [c for c in children[last + 1 :] if isinstance(c.tag, str)]
    locations = [loc for k in members if (loc := _static_xsl_attribute(k, "location")) is not None]
    if any(_references(c, names) for c in after + locations):
        return first
    return start


def _isolate_each(kept_elements: list[etree._Element]) -> None:
    for kept in kept_elements:
        guard, template, rule_id, location = _assertion_facts(kept)
        _catch(_wrap([guard], rollback=not _output_is_constant(kept, location)), rule_id, template, kept)
