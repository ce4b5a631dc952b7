"""Install-time preparation: a rewritten copy of each official Schematron stylesheet, by named, versioned steps.

The official compiled stylesheets write a full SVRL report: besides the ``svrl:failed-assert`` /
``svrl:successful-report`` elements the findings come from, one ``svrl:fired-rule`` per rule that fired on
each context node, ``svrl:active-pattern`` headers, ``svrl:ns-prefix-in-attribute-values`` declarations, and
(SchXslt) a ``svrl:metadata`` block and ``svrl:suppressed-rule`` notes. The KoSIT build drops the fired-rule
output too (``remove-dead-apply-templates.xsl``). Producing, serialising and reading that output is work
without a result, so the installer writes a *prepared* copy of each pack's stylesheet, next to the official
file (which stays untouched), and the Schematron stage compiles the copy:

``<pack dir>/prepared/<entry path>``, its sha256 recorded in ``<pack dir>/prepared.json`` together with the
sha256 of the official file it came from, :data:`PREPARATION_VERSION` (the format of ``prepared.json``) and
the rewrite steps applied with their versions. The copy is verified like the official files; a changed
preparation (another step list, or a new version of a step) or a changed official file invalidates it.

The preparation is an ordered list of named, versioned rewrite steps (:data:`STEPS`), each a function on the
stylesheet's XML (lxml); :func:`prepare_stylesheet` applies a chosen subset (benchmarks and tests switch steps
off for comparison), the installer the default list (:data:`DEFAULT_STEPS`). Each step works for the three
generators in use (CEN's ISO-skeleton ``.xslt``, KoSIT's SchXslt ``.xsl``, phive's ISO-skeleton ``.xslt`` for
CIUS-RO) and keeps the number of ``svrl:failed-assert`` / ``svrl:successful-report`` elements.

``strip-unused-output`` (v1) removes:

* every ``svrl:fired-rule``, ``svrl:suppressed-rule``, ``svrl:ns-prefix-in-attribute-values`` and
  ``svrl:metadata`` literal result element, with its content;
* ``xsl:comment`` instructions directly inside ``svrl:schematron-output`` or a SchXslt ``schxslt:rule``;
* every ``svrl:active-pattern`` literal result element. In the ISO skeleton it holds an
  ``<xsl:apply-templates/>`` that walks the whole document in the default mode, where the only templates
  are ``match="/"`` (never selected from there) and empty ones (``match="text()"``): it cannot output
  anything. It is removed only after checking exactly that on the stylesheet; otherwise it stays.

Everything it removes is output our SVRL reader ignores, computed by expressions that cannot raise a dynamic
error (string literals, ``document-uri()``, ``base-uri()``, ``current-dateTime()``, ``system-property()``,
stylesheet parameters). The assertions, their tests, ids, flags, locations and texts are untouched:
:func:`prepare_stylesheet` checks that the number of ``svrl:failed-assert`` and ``svrl:successful-report``
elements is unchanged, and the tests compare the findings of both versions on corpus files.

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

``skip-attribute-walk`` (v1, issue 10) rewrites the per-pattern traversals ``<xsl:apply-templates mode="M"
select="@*|*"/>`` (ISO skeleton) to ``select="*"`` and drops SchXslt's ``<xsl:apply-templates mode="#current"
select="@*"/>``, but only for modes where no template can do anything with an attribute: every template of the
mode whose match pattern can match an attribute (judged on each alternative's last step) is empty or only
applies templates to the attribute's children (there are none), and one of them matches every attribute, so the
built-in rule (which would copy the attribute's value) never applies.

``guard-absence-tests`` (v3, issue 21: a step may be a parenthesised union of names; v2, issue 10; v1 used a
union, slow to compile) puts each run of at least
:data:`GUARD_MIN_RUN` consecutive asserts of the form ``not(P)`` (P a relative path of plain child steps, the
last possibly an attribute, each other step a name or a union of names such as ``(cac:InvoiceLine|cac:CreditNoteLine)``:
CEN's hundreds of "shall not be used" syntax rules, UBL-CR-*, CII-SR-*) under one
``<xsl:if test="exists((P1, P2, …))">`` whose sequence shares common leading steps (``cac:A/(cbc:B,
cac:C/(…))``). An assert ``not(P)`` fails exactly when P selects something, so when the sequence is empty none
of them can fail and the run is skipped; otherwise each assert runs as before, in the same order. Such paths
cannot raise a dynamic error, so the guard needs no ``xsl:try`` of its own; it runs before
``isolate-rule-errors``, which then wraps the guarded asserts in their own ``xsl:try`` inside the guard. The CEN
UBL root rule alone holds 500 of them. Warm, under SaxonC, the step saves 8% of CEN UBL's time, 3% of CEN CII's
and 9% of CIUS-RO's (``benchmarks/prepare_steps.py``), and compiling gets no slower.

``inline-code-db`` (v1, issue 14) replaces each ``document('NAME')`` call whose argument is a string literal
naming a file of the pack next to the stylesheet (the Factur-X stylesheets' ``FACTUR-X_<P>_codedb.xml`` code
lists, 18 to 420 calls each) by a global variable holding that file's content: a *static* variable (XSLT 3.0)
whose value is ``parse-xml('<the code db>')``, computed once when the stylesheet is compiled. The prepared
stylesheet then reads no file at run time: it cannot be made to read anything but the pack's own, checksummed
code lists; and per document it is faster than the official ``document()`` (EXTENDED: about 9.5 ms against
20.5 ms per corpus document under SaxonC, ``benchmarks/pdf_input.py``). Any other ``document()`` argument
(an expression, a path, an address) fails the preparation. Whatever the steps, :func:`prepare_pack_dir` refuses a
prepared stylesheet that still calls a function or instruction reading a resource at run time
(:data:`RESOURCE_FUNCTIONS`, :data:`RESOURCE_INSTRUCTIONS`).

``name-not-used-reports`` (v1, issue 14) gives the Factur-X stylesheets' id-less reports ("Element 'ram:X' is
marked as not used in the given context.", "Attribute @schemeID' marked as not used in the given context.": 11 to
521 per profile) the id :data:`NOT_USED_ID`, set at install time in the prepared copy, so every finding has an id
the catalogue and the profile's severity overrides can name; the text (which element) and the location stay.

``name-bracketed-asserts`` (v1, issue 22) gives an id-less assertion whose text starts with its rule id in brackets
that id (:func:`bracketed_id`): SI-UBL 2.0.3.13's ``[BII2-T10-R001]``, ``[SI-V20-INV-R000]``, ``[SI-INV-R000]`` and
FNFE's EXTENDED-CTC-FR-CII ``[BR-CO-27]-Either the IBAN…`` (no flag either) and ``[BR-FXEXT-04]-To ensure…``
(issue 31), where the ``.sch`` forgot the ``id``: the label is the id the pack itself means (FNFE's ``.sch`` has
the same rule, disabled, with ``id="BR-CO-27"``; its BR-FXEXT-04 is Factur-X's, word for word). The reference
reports them with no id; a finding here never has an empty one. The flag stays as the pack gives it (none: an
error). Any other assertion without an id still fails the preparation (``isolate-rule-errors`` needs each
assertion's id). :func:`assigned_id` says which id a finding of a given assertion has after the preparation.

``distribute-union-steps`` (v1, issue 31) rewrites each template match pattern with a parenthesised union as an
inner step, ``P/(C | D)/E`` (XSLT 3.0 pattern syntax; FNFE's UBL BR-FR rule BR-FR-MV-14, modes M81/M82), into the
equivalent union of patterns ``P/C/E | P/D/E``, which Saxon-HE 9.9 (the ``saxon-java`` engine) compiles; SaxonC
compiles either. A node matches the one exactly when it matches the other, and every alternative keeps the
template's explicit priority, so the same templates fire on the same nodes (``tests/test_france.py`` compares the
findings of the official and the rewritten stylesheet under SaxonC, and under Saxon 9.9, on the French corpus and on
documents written to trigger BR-FR-MV-14). A parenthesised step with a predicate of its own, or an alternative in it
that is not a relative path, is left as it is (an engine that cannot compile it then says so at compile time).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..errors import RulesetError
from ..xpath_text import split_outside

__all__ = [
    "DEFAULT_STEPS",
    "NOT_USED_ID",
    "PREPARATION_VERSION",
    "PREPARED_DIR",
    "PREPARED_INDEX",
    "RESOURCE_FUNCTIONS",
    "RESOURCE_INSTRUCTIONS",
    "STEPS",
    "PreparationError",
    "PreparedEntry",
    "PreparedIndex",
    "Step",
    "assigned_id",
    "bracketed_id",
    "distribute_union_steps",
    "not_used_id",
    "prepare_pack_dir",
    "prepare_stylesheet",
    "read_index",
    "resource_reads",
    "step_versions",
    "stylesheet_resources",
    "write_atomic",
    "write_prepared",
]

# The format of prepared.json (2: with the list of steps and their versions).
PREPARATION_VERSION = 2
PREPARED_DIR = "prepared"
PREPARED_INDEX = "prepared.json"

_XSL = "http://www.w3.org/1999/XSL/Transform"
_SVRL = "http://purl.oclc.org/dsdl/svrl"
_SCHXSLT = "https://doi.org/10.5281/zenodo.1495494"
_ERR = "http://www.w3.org/2005/xqt-errors"
_EV = "urn:einvoice-validate:saxon"
_RULE_ERROR = f"{{{_EV}}}rule-error"
# Declared on each xsl:catch, not on the xsl:try: the assertions' own output then carries no extra namespaces.
_CATCH_NAMESPACES = {"err": _ERR, "ev": _EV}
_DROPPED = tuple(f"{{{_SVRL}}}{name}" for name in ("fired-rule", "suppressed-rule", "ns-prefix-in-attribute-values"))
_METADATA = f"{{{_SVRL}}}metadata"
_ACTIVE_PATTERN = f"{{{_SVRL}}}active-pattern"
_COMMENT_PARENTS = (f"{{{_SVRL}}}schematron-output", f"{{{_SCHXSLT}}}rule")
_KEPT = tuple(f"{{{_SVRL}}}{name}" for name in ("failed-assert", "successful-report"))
# A hardened parser: the stylesheets are official data, but nothing is resolved or fetched all the same.
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)


class PreparationError(Exception):
    """The stylesheet does not have the shape the preparation relies on."""


def _x(name: str) -> str:
    return f"{{{_XSL}}}{name}"


def _drop(element: etree._Element) -> None:
    """Remove ``element`` (and its content), keeping any non-blank text that followed it."""
    parent = element.getparent()
    if parent is None:
        raise PreparationError("cannot remove the root element")
    tail = element.tail
    if tail is not None and tail.strip():
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def _default_mode_is_inert(root: etree._Element) -> bool:
    """True if applying templates in the default mode to the document's children can output nothing.

    Children of the document node are elements, text, comments and processing instructions: the built-in
    rules recurse into elements, copy text, and drop comments and processing instructions. That walk is
    silent when every template of the default mode either matches only ``/`` (the document node, which a
    walk over children never reaches) or has an empty body, and text is caught by such an empty template.
    """
    if any(True for _ in root.iter(_x("mode"))):  # XSLT 3.0 mode declarations (on-no-match=...): not analysed
        return False
    text_is_caught = False
    for template in root.iter(_x("template")):
        mode = template.get("mode")
        if mode is not None and "#default" not in mode.split() and "#all" not in mode.split():
            continue
        match = template.get("match")
        if match is None:  # a named template without a mode is not part of the default mode
            continue
        empty = len(template) == 0 and not (template.text or "").strip()
        if match.strip() == "/":
            continue
        if not empty:
            return False
        if match.strip() in ("text()", "node()", "text() | @*", "@* | text()", "node() | @*", "@* | node()"):
            text_is_caught = True
    return text_is_caught


def _active_pattern_is_inert(element: etree._Element, default_mode_inert: bool) -> bool:
    """Only ``xsl:attribute`` instructions and a plain ``<xsl:apply-templates/>`` in an inert default mode."""
    for child in element:
        if not isinstance(child.tag, str):
            continue  # comments in the stylesheet
        if child.tag == _x("attribute"):
            continue
        plain = child.get("select") is None and child.get("mode") is None and len(child) == 0
        if child.tag == _x("apply-templates") and default_mode_inert and plain:
            continue
        return False
    return True


def _count(root: etree._Element, tags: tuple[str, ...]) -> int:
    return sum(1 for _ in root.iter(*tags))


def _count_assertions(root: etree._Element) -> int:
    """The assertions, not counting copies in an ``xsl:catch`` (isolate-rule-errors' fallback)."""
    return sum(1 for k in root.iter(*_KEPT) if not any(a.tag == _x("catch") for a in k.iterancestors()))


def _strip_unused_output(root: etree._Element) -> None:
    """Step ``strip-unused-output``: remove the SVRL output no finding uses (see the module docstring)."""
    for element in list(root.iter(*_DROPPED)):
        _drop(element)
    for element in list(root.iter(_METADATA)):
        parent = element.getparent()
        # SchXslt: <xsl:variable name="metadata" as="element()?"><svrl:metadata>…: empty content = ().
        if parent is None or parent.tag != _x("variable") or parent.get("as") != "element()?":
            raise PreparationError("svrl:metadata outside the SchXslt metadata variable")
        _drop(element)
    for element in list(root.iter(_x("comment"))):
        parent = element.getparent()
        if parent is not None and parent.tag in _COMMENT_PARENTS:
            _drop(element)
    inert = _default_mode_is_inert(root)
    for element in list(root.iter(_ACTIVE_PATTERN)):
        if _active_pattern_is_inert(element, inert):
            _drop(element)
    if _count(root, (*_DROPPED, _METADATA)):
        raise PreparationError("unused SVRL output is left after the preparation (this is a bug)")


# --- isolate-rule-errors ---------------------------------------------------------------------------------------


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


def _static_xsl_attribute(kept: etree._Element, name: str) -> etree._Element | None:
    for child in kept:
        if child.tag == _x("attribute") and child.get("name") == name:
            return child
    return None


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


# --- guard-absence-tests ---------------------------------------------------------------------------------------

_NAME = r"(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*"
# A child step: a plain name, or (v3) a parenthesised union of plain names, ``(cac:InvoiceLine|cac:CreditNoteLine)``.
_CHILD_STEP = rf"(?:{_NAME}|\(\s*{_NAME}(?:\s*\|\s*{_NAME})+\s*\))"
# ``not(P)`` with P a relative path of child steps, the last one possibly an attribute: an expression that cannot
# raise a dynamic error on any context node and is true exactly when P selects nothing.
_ABSENCE_TEST = re.compile(rf"^\s*not\(\s*((?:{_CHILD_STEP}\s*/\s*)*(?:@{_NAME}|{_CHILD_STEP}))\s*\)\s*$")
GUARD_MIN_RUN = 4  # shorter runs gain nothing measurable


def _absence_path(element: etree._Element) -> list[str] | None:
    """The steps of P when ``element`` is an ISO-skeleton assert ``<xsl:choose><xsl:when test="not(P)"/>
    <xsl:otherwise>…`` (the failed-assert is output exactly when P selects something), else None."""
    if element.tag != _x("choose"):
        return None
    branches = [c for c in element if isinstance(c.tag, str)]
    if len(branches) != 2 or branches[0].tag != _x("when") or branches[1].tag != _x("otherwise"):
        return None
    when = branches[0]
    if len(when) or (when.text or "").strip():
        return None
    found = _ABSENCE_TEST.match(when.get("test") or "")
    return [re.sub(r"\s+", "", step) for step in found.group(1).split("/")] if found else None


_Trie = dict[str, "_Trie | None"]  # a step → the steps below it, None where a path ends


def _union(paths: list[list[str]]) -> str:
    """One expression selecting something exactly when one of ``paths`` does, each shared leading step
    evaluated once: ``a/(b, c/(d, e))`` for ``a/b``, ``a/c/d``, ``a/c/e`` (a path that is a prefix of another
    one makes the longer one redundant). A sequence, not a union (``|``): ``exists()`` needs no document order
    and no duplicates removed, and Saxon compiles CEN UBL's guards in a third of the time."""
    trie: _Trie = {}
    for steps in paths:
        level: _Trie | None = trie
        for step in steps[:-1]:
            if level is None:
                break  # a shorter path already selects this prefix
            below = level.setdefault(step, {})
            level = below
        if level is not None:
            level[steps[-1]] = None

    def expression(level: _Trie) -> str:
        parts = []
        for step, below in level.items():
            if below is None:
                parts.append(step)
            else:
                inner = expression(below)
                parts.append(f"{step}/{inner}" if len(below) == 1 and "," not in inner else f"{step}/({inner})")
        return ", ".join(parts)

    return expression(trie)


def _guard_absence_tests(root: etree._Element) -> None:
    """Step ``guard-absence-tests`` (see the module docstring): runs of consecutive absence asserts evaluate
    one shared test first and their own tests only when it finds something."""
    for parent in list(root.iter(_x("template"))):  # runs before isolate-rule-errors: no xsl:try yet
        run: list[tuple[etree._Element, list[str]]] = []
        for child in [*parent, None]:
            if child is not None and not isinstance(child.tag, str):
                continue  # comments between asserts do not end a run
            steps = None if child is None else _absence_path(child)
            if steps is not None and child is not None:
                run.append((child, steps))
                continue
            if len(run) >= GUARD_MIN_RUN:
                guard = etree.Element(_x("if"), test=f"exists(({_union([steps for _, steps in run])}))")
                parent.insert(parent.index(run[0][0]), guard)
                guard.tail = run[-1][0].tail
                for element, _ in run:
                    guard.append(element)
                run[-1][0].tail = None
            run = []


# --- skip-attribute-walk ---------------------------------------------------------------------------------------

# Last steps of a pattern alternative that cannot match an attribute node (child axis, element-ish tests).
_NOT_ATTRIBUTE_STEP = re.compile(
    r"^(child::)?(\*|[\w.-]+(:[\w.-]+|:\*)?|\*:[\w.-]+|text\(\)|node\(\)|comment\(\)|processing-instruction\([^)]*\)"
    r"|element\([^)]*\)|document-node\([^)]*\))$"
)
_ALL_ATTRIBUTES = ("@*", "attribute::*", "attribute()", "attribute(*)")


def _split_top(text: str, separators: str) -> list[str]:
    """Split ``text`` at ``separators`` outside brackets, parentheses and string literals."""
    return split_outside(text, separators, "([", ")]")[0]


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


def _alternatives(pattern: str) -> list[str]:
    return [a.strip() for a in _split_top(pattern, "|")]


def _closing_paren(text: str, opening: str = "(", closing: str = ")") -> int:
    """The index of the bracket that closes ``text[0]`` (outside string literals), or len(text)."""
    depth = 0
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == opening:
            depth += 1
        elif ch == closing:
            depth -= 1
            if depth == 0:
                return i
    return len(text)


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


# --- the steps -------------------------------------------------------------------------------------------------


# XPath functions that read a resource at run time (by a URI the document could influence); none may remain in a
# prepared stylesheet. XSLT instructions that read or write other resources likewise.
RESOURCE_FUNCTIONS = (
    "document",
    "doc",
    "doc-available",
    "unparsed-text",
    "unparsed-text-lines",
    "unparsed-text-available",
    "collection",
    "uri-collection",
    "json-doc",
    "transform",
    "load-xquery-module",
)
RESOURCE_INSTRUCTIONS = ("import", "include", "import-schema", "result-document", "source-document", "merge-source")
_RESOURCE_CALL = re.compile(
    r"(?<![\w.:-])(?:[A-Za-z_][\w.-]*:)?(" + "|".join(re.escape(f) for f in RESOURCE_FUNCTIONS) + r")\s*\("
)
_DOCUMENT_LITERAL = re.compile(r"(?<![\w.:-])document\(\s*(?:'([^'/\\:]+)'|\"([^\"/\\:]+)\")\s*\)")
_DOCUMENT_PARAM = re.compile(r"(?<![\w.:-])document\(\s*\$([\w.-]+)\s*\)")
_CODE_DB_VARIABLE = "einvoice-validate-code-db-{n}"


NOT_USED_ID = "facturx.not-used"
"""The id the preparation gives the Factur-X packs' id-less "not used in the given context" reports (project-own,
lower case and dotted like the project's other ids, so it is never mistaken for an official one)."""
_NOT_USED_TEXT = re.compile(
    r"^(Element( variant)? '[^']+' is|Attribute @[\w:.-]+'?) marked as not used in the given context\.$"
)


def not_used_id(rule_id: str | None, text: str) -> str | None:
    """The rule id of an assertion with official id ``rule_id`` and (whitespace-normalised) text ``text``: its own,
    or :data:`NOT_USED_ID` for an id-less "not used in the given context" report, else None."""
    if rule_id:
        return rule_id
    return NOT_USED_ID if _NOT_USED_TEXT.match(text) else None


def _name_not_used_reports(root: etree._Element) -> None:
    """Step ``name-not-used-reports``: an ``id`` for each id-less "not used in the given context" report."""
    for kept in root.iter(f"{{{_SVRL}}}successful-report"):
        if kept.get("id") is not None or _static_xsl_attribute(kept, "id") is not None:
            continue
        text_el = kept.find(f"{{{_SVRL}}}text")
        text = " ".join("".join(str(t) for t in text_el.itertext()).split()) if text_el is not None else ""
        if not_used_id(None, text) is not None:
            kept.set("id", NOT_USED_ID)


_BRACKETED_ID = re.compile(r"^\s*\[([A-Za-z][A-Za-z0-9_.-]*)\]")


def bracketed_id(text: str) -> str | None:
    """The rule id an assertion writes at the start of its text (``[SI-V20-INV-R000]-This XML instance ...``)."""
    found = _BRACKETED_ID.match(text)
    return found.group(1) if found else None


def _name_bracketed_asserts(root: etree._Element) -> None:
    """Step ``name-bracketed-asserts`` (v1, issue 22): an ``id`` for each id-less assertion whose text starts with
    its rule id in brackets. SI-UBL 2.0.3.13's four "SI-UBL-VERSION" assertions ([BII2-T10-R001] "An invoice MUST
    have a customization identifier", twice; [SI-V20-INV-R000]; [SI-INV-R000]) carry no ``id`` attribute: the
    reference reports them with no id, the message catalogue and ``isolate-rule-errors`` need one. The label is
    the id the pack itself gives the rule; the text (label included) and the location stay. FNFE's
    EXTENDED-CTC-FR-CII has two more ([BR-CO-27], [BR-FXEXT-04]; issue 31)."""
    for kept in root.iter(*_KEPT):
        if kept.get("id") is not None or _static_xsl_attribute(kept, "id") is not None:
            continue
        text_el = kept.find(f"{{{_SVRL}}}text")
        found = bracketed_id("".join(str(t) for t in text_el.itertext())) if text_el is not None else None
        if found is not None:
            kept.set("id", found)


def assigned_id(rule_id: str | None, text: str) -> str | None:
    """The id a finding of an assertion with official id ``rule_id`` and text ``text`` (with its label, if any) has
    after the preparation: its own; for an id-less one :data:`NOT_USED_ID` (a Factur-X "not used" report, step
    ``name-not-used-reports``) or the text's leading ``[rule id]`` (step ``name-bracketed-asserts``); else None (the
    preparation refuses it)."""
    return not_used_id(rule_id, " ".join(text.split())) or bracketed_id(text)


def distribute_union_steps(pattern: str) -> str:
    """``pattern`` with each parenthesised union that is an inner step of an alternative (``P/(C | D)/E``) distributed
    over the alternatives (``P/C/E | P/D/E``); the pattern unchanged when it has none (step ``distribute-union-steps``).
    """
    alternatives = _alternatives(pattern)
    out: list[str] = []
    changed = False
    for alternative in alternatives:
        expanded = _distributed(alternative)
        changed = changed or expanded != [alternative]
        out.extend(expanded)
    return " | ".join(out) if changed else pattern


def _distributed(alternative: str) -> list[str]:
    steps = [s.strip() for s in _split_top(alternative, "/")]
    for i, step in enumerate(steps):
        if i == 0 or not step.startswith("(") or _closing_paren(step) != len(step) - 1:
            continue  # a first step (A | B)[p] is XSLT 3.0 too, but Saxon 9.9 compiles it; or not a bare (…)
        inner = _alternatives(step[1:-1])
        if len(inner) < 2 or any(a.startswith("/") or not a for a in inner):
            continue
        return [
            expanded for choice in inner for expanded in _distributed("/".join([*steps[:i], choice, *steps[i + 1 :]]))
        ]
    return [alternative]


def _distribute_union_steps(root: etree._Element) -> None:
    """Step ``distribute-union-steps`` on every template match pattern."""
    for template in root.iter(_x("template")):
        match = template.get("match")
        if match is not None and "(" in match:
            rewritten = distribute_union_steps(match)
            if rewritten != match:
                template.set("match", rewritten)


def resource_reads(root: etree._Element) -> list[str]:
    """Every place in a stylesheet that reads a resource at run time: the instructions of
    :data:`RESOURCE_INSTRUCTIONS` and each attribute value calling a function of :data:`RESOURCE_FUNCTIONS`
    (XSLT 2.0 holds XPath only in attributes; a text value template needs XSLT 3.0's ``expand-text``, refused too)."""
    found = [f"xsl:{name}" for name in RESOURCE_INSTRUCTIONS for _ in root.iter(_x(name))]
    # SchXslt's entry template reads document($schxslt.validate.initial-document-uri): a global parameter only the
    # caller can set (our engines never set stylesheet parameters), so no document can choose what it reads.
    params = {p.get("name") for p in root.iterchildren(_x("param"))}

    def caller_only(match: re.Match[str]) -> str:
        return "" if match.group(1) in params else match.group(0)

    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in ((str(n), str(v)) for n, v in element.attrib.items()):
            if name == "expand-text" and value.strip() in ("yes", "true", "1"):
                found.append(f"expand-text on {element.tag}")
            match = _RESOURCE_CALL.search(_DOCUMENT_PARAM.sub(caller_only, value))
            if match:
                found.append(f"{match.group(1)}() in @{name} of {etree.QName(element).localname}: {value[:80]}")
    return found


def _inline_code_db(root: etree._Element, resources: Mapping[str, bytes]) -> None:
    """Step ``inline-code-db``: each ``document('NAME')`` with NAME in ``resources`` → a global variable."""
    names: dict[str, str] = {}
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for attr, value in element.attrib.items():
            value = str(value)
            if "document(" not in value:
                continue

            def replace(match: re.Match[str]) -> str:
                name = match.group(1) or match.group(2)
                if name not in resources:
                    raise PreparationError(f"document({name!r}) names no file of the pack next to the stylesheet")
                if name not in names:
                    names[name] = _CODE_DB_VARIABLE.format(n=len(names) + 1)
                return "$" + names[name]

            element.set(attr, _DOCUMENT_LITERAL.sub(replace, value))
    if not names:
        return
    existing = {v.get("name") for v in root.iter(_x("variable"), _x("param"))}
    anchor = next((i for i, child in enumerate(root) if child.tag == _x("template")), len(root))
    for name, variable in sorted(names.items(), key=lambda item: item[1]):
        if variable in existing:
            raise PreparationError(f"the stylesheet already has a variable {variable}")
        try:
            content = etree.fromstring(resources[name], _PARSER)
        except etree.XMLSyntaxError as exc:
            raise PreparationError(f"{name} is not well-formed XML: {exc}") from exc
        # A static variable: evaluated once, when the stylesheet is compiled (XSLT 3.0; both engines run the 2.0
        # stylesheets as a 3.0 processor). Literal result elements instead would build the tree on every run
        # (about 30% slower than document(), which Saxon caches; see benchmarks/pdf_input.py).
        for node in list(content.iter(etree.Comment, etree.ProcessingInstruction)):
            _drop(node)
        text = etree.tostring(content, encoding="unicode").replace("'", "''")
        holder = etree.Element(_x("variable"), name=variable, static="yes", select=f"parse-xml('{text}')")
        holder.tail = "\n"
        comment = etree.Comment(f" {name}, inlined at install time (step inline-code-db) ")
        comment.tail = "\n"
        root.insert(anchor, comment)
        root.insert(anchor + 1, holder)
        anchor += 2


@dataclass(frozen=True, slots=True)
class Step:
    """One named, versioned rewrite of the preparation (a new version whenever its output can change)."""

    name: str
    version: int
    apply: Callable[..., None]
    uses_resources: bool = False
    """The step is called as ``apply(root, resources)``: the pack's files next to the stylesheet, by name."""


STEPS: tuple[Step, ...] = (
    Step("distribute-union-steps", 1, _distribute_union_steps),
    Step("inline-code-db", 1, _inline_code_db, uses_resources=True),
    Step("name-not-used-reports", 1, _name_not_used_reports),
    Step("name-bracketed-asserts", 1, _name_bracketed_asserts),
    Step("strip-unused-output", 1, _strip_unused_output),
    Step("guard-absence-tests", 3, _guard_absence_tests),
    Step("isolate-rule-errors", 2, _isolate_rule_errors),
    Step("skip-attribute-walk", 1, _skip_attribute_walk),
)
"""Every step, in the order they are applied. ``distribute-union-steps`` comes first, so every later step sees the
match patterns Saxon 9.9 compiles (``skip-attribute-walk`` judges each alternative's last step,
``isolate-rule-errors`` copies the pattern into a rule error's context); the steps that only set ids
(``name-not-used-reports``, ``name-bracketed-asserts``) come before ``isolate-rule-errors``, which needs every
assertion's id for the rule errors it writes."""

DEFAULT_STEPS: tuple[str, ...] = tuple(step.name for step in STEPS)
"""The steps the installer applies."""


def step_versions(names: Sequence[str] = DEFAULT_STEPS, available: Sequence[Step] = STEPS) -> dict[str, int]:
    """``name → version`` of the named steps, in application order (what ``prepared.json`` records)."""
    unknown = set(names) - {step.name for step in available}
    if unknown:
        raise ValueError(f"unknown preparation steps: {sorted(unknown)}")
    return {step.name: step.version for step in available if step.name in names}


def prepare_stylesheet(
    data: bytes,
    steps: Sequence[str] = DEFAULT_STEPS,
    available: Sequence[Step] = STEPS,
    resources: Mapping[str, bytes] | None = None,
) -> bytes:
    """The prepared form of one official stylesheet with the named ``steps``, applied in the order of
    ``available`` (:data:`STEPS`; a benchmark may pass other versions of a step) whatever the order given.
    ``resources``: the pack's files next to the stylesheet (name → content) that ``inline-code-db`` may inline.
    Deterministic: same input, same steps, same bytes."""
    chosen = step_versions(steps, available)
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as exc:
        raise PreparationError(f"the stylesheet is not well-formed XML: {exc}") from exc
    if root.tag not in (_x("stylesheet"), _x("transform")):
        raise PreparationError(f"the root element is {root.tag}, not xsl:stylesheet")
    if any(True for _ in root.iter(_x("import"), _x("include"))):
        # The prepared copy lives in another folder: relative references would point elsewhere.
        raise PreparationError("the stylesheet imports or includes other stylesheets")
    kept_before = _count(root, _KEPT)
    if kept_before == 0:
        raise PreparationError("the stylesheet has no svrl:failed-assert or svrl:successful-report")
    for step in available:
        if step.name in chosen:
            if step.uses_resources:
                step.apply(root, resources or {})
            else:
                step.apply(root)
            if _count_assertions(root) != kept_before:
                raise PreparationError(f"step {step.name} changed the number of assertions (this is a bug)")
    # The whole document: the licence comments before the root element stay.
    result: bytes = etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8")
    return result


@dataclass(frozen=True, slots=True)
class PreparedEntry:
    """One prepared stylesheet as recorded in ``prepared.json``."""

    path: str  # relative to the pack folder
    sha256: str
    source: str  # the official file it was made from (relative to the pack folder)
    source_sha256: str


@dataclass(frozen=True, slots=True)
class PreparedIndex:
    """``prepared.json``: the format version, the steps applied (name → version, in order) and the prepared copy
    of each entry point."""

    version: int
    entries: dict[str, PreparedEntry]  # entry name (``stylesheet``) → prepared copy
    steps: dict[str, int]

    def to_json(self) -> str:
        body = {
            "preparation": self.version,
            "steps": [{"name": name, "version": version} for name, version in self.steps.items()],
            "entries": {
                name: {"path": e.path, "sha256": e.sha256, "source": e.source, "source_sha256": e.source_sha256}
                for name, e in sorted(self.entries.items())
            },
        }
        return json.dumps(body, indent=2, sort_keys=True) + "\n"


def read_index(pack_dir: Path) -> PreparedIndex | None:
    """The pack's ``prepared.json``, or None when there is none; unreadable content is ``ruleset.corrupt``."""
    path = pack_dir / PREPARED_INDEX
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RulesetError("ruleset.corrupt", f"cannot read {path}: {exc}") from exc
    try:
        body = json.loads(raw)
        entries = {
            str(name): PreparedEntry(str(e["path"]), str(e["sha256"]), str(e["source"]), str(e["source_sha256"]))
            for name, e in body["entries"].items()
        }
        steps = {str(step["name"]): int(step["version"]) for step in body.get("steps", [])}
        return PreparedIndex(int(body["preparation"]), entries, steps)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RulesetError("ruleset.corrupt", f"{path} is not a valid index of prepared stylesheets: {exc}") from exc


def stylesheet_resources(pack_dir: Path, rel: str, files: Collection[str]) -> dict[str, bytes]:
    """The pack's files in the folder of the stylesheet ``rel`` (only files the manifest lists and checksums)."""
    folder = str(Path(rel).parent.as_posix())
    prefix = "" if folder in ("", ".") else folder + "/"
    return {
        other[len(prefix) :]: (pack_dir / other).read_bytes()
        for other in files
        if other != rel and other.startswith(prefix) and "/" not in other[len(prefix) :]
    }


def prepare_pack_dir(
    pack_dir: Path, entries: dict[str, str], pack_key: str, files: Collection[str] = ()
) -> PreparedIndex:
    """Write the prepared copy of each stylesheet entry (``name → path relative to pack_dir``) and
    ``prepared.json``. Files are written to a temporary name and renamed: a reader never sees half a file.
    ``files``: the pack's files (manifest, already verified) that ``inline-code-db`` may inline.
    Raises ``ruleset.install-failed`` when a stylesheet cannot be prepared or its prepared copy would still
    read a resource at run time (:func:`resource_reads`)."""
    prepared: dict[str, tuple[str, bytes, bytes]] = {}
    for name, rel in sorted(entries.items()):
        source = pack_dir / rel
        data = source.read_bytes()
        try:
            out = prepare_stylesheet(data, resources=stylesheet_resources(pack_dir, rel, files))
            reads = resource_reads(etree.fromstring(out, _PARSER))
            if reads:
                raise PreparationError(f"the prepared copy would read resources at run time: {'; '.join(reads[:3])}")
        except PreparationError as exc:
            raise RulesetError(
                "ruleset.install-failed", f"pack {pack_key}: cannot prepare the stylesheet {rel}: {exc}"
            ) from exc
        prepared[name] = (rel, data, out)
    return write_prepared(pack_dir, f"{PREPARED_DIR}/{{rel}}", prepared, step_versions(DEFAULT_STEPS))


def write_prepared(
    pack_dir: Path, target: str, outputs: Mapping[str, tuple[str, bytes, bytes]], steps: dict[str, int]
) -> PreparedIndex:
    """Write each prepared output (entry name → its source path, the source's bytes, the output) to ``target``
    (a path in the pack folder, ``{rel}`` standing for the source path) and ``prepared.json`` recording them."""
    entries = {}
    for name, (rel, data, out) in outputs.items():
        target_rel = target.format(rel=rel)
        write_atomic(pack_dir / target_rel, out)
        entries[name] = PreparedEntry(
            target_rel, hashlib.sha256(out).hexdigest(), rel, hashlib.sha256(data).hexdigest()
        )
    index = PreparedIndex(PREPARATION_VERSION, entries, steps)
    write_atomic(pack_dir / PREPARED_INDEX, index.to_json().encode("utf-8"))
    return index


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".prepare-", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
