"""What the preparation's steps share: XSLT and SVRL names, the parser, the error, helpers on trees and patterns.

The steps and :mod:`.pipeline` import from here; this module imports no other module of the package."""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from ...xpath_text import split_outside

_XSL = "http://www.w3.org/1999/XSL/Transform"
_SVRL = "http://purl.oclc.org/dsdl/svrl"
_SCHXSLT = "https://doi.org/10.5281/zenodo.1495494"
_EV = "urn:einvoice-validate:saxon"
_COMPACT_PREFIX = "ev:svrl-"
"""The names of the functions step ``compact-assertions`` adds (``ev:svrl-1``, …) and its calls select."""
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


def _count(root: etree._Element, tags: tuple[str, ...]) -> int:
    return sum(1 for _ in root.iter(*tags))


def _count_assertions(root: etree._Element) -> int:
    """The assertions, not counting copies in an ``xsl:catch`` (isolate-rule-errors' fallback): their SVRL elements
    (not those inside the functions of ``compact-assertions``) and the calls that stand for them."""
    elements = sum(1 for k in root.iter(*_KEPT) if not _in_copy_or_builder(k))
    calls = (s for s in root.iter(_x("sequence")) if (s.get("select") or "").startswith(_COMPACT_PREFIX))
    return elements + sum(1 for s in calls if not _in_copy_or_builder(s))


def _in_copy_or_builder(element: etree._Element) -> bool:
    return any(
        a.tag == _x("catch") or (a.tag == _x("function") and (a.get("name") or "").startswith(_COMPACT_PREFIX))
        for a in element.iterancestors()
    )


def _static_xsl_attribute(kept: etree._Element, name: str) -> etree._Element | None:
    for child in kept:
        if child.tag == _x("attribute") and child.get("name") == name:
            return child
    return None


def _split_top(text: str, separators: str) -> list[str]:
    """Split ``text`` at ``separators`` outside brackets, parentheses and string literals."""
    return split_outside(text, separators, "([", ")]")[0]


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


def _outside_predicates(text: str, *, literals: bool = False) -> str:
    """``text`` without what stands inside square brackets (a bracket inside a string literal counts for nothing);
    the string literals outside them kept with ``literals``, else dropped too."""
    out: list[str] = []
    depth = 0
    quote = ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
            if literals and depth == 0:
                out.append(ch)
        elif ch in "'\"":
            quote = ch
            if literals and depth == 0:
                out.append(ch)
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _strip_predicates(step: str) -> str:
    """A pattern step without its predicates."""
    return _outside_predicates(step, literals=True).strip()


def _template_modes(template: etree._Element) -> list[str]:
    mode = template.get("mode")
    return mode.split() if mode is not None else ["#default"]


# Last steps of a pattern alternative that cannot match an attribute node (child axis: elements, text, comments,
# processing instructions; node tests of those kinds), as skip-attribute-walk and skip-text-walk judge them.
_CHILD_STEP = re.compile(
    r"^(child::)?(\*|[\w.-]+(:[\w.-]+|:\*)?|\*:[\w.-]+|text\(\)|node\(\)|comment\(\)|processing-instruction\([^)]*\)"
    r"|element\([^)]*\)|document-node\([^)]*\))$"
)


def _inert_on_leaves(template: etree._Element) -> bool:
    """An empty template, or one that only applies templates to children or attributes (an attribute or a text node has
    neither)."""
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
        if not all("/" not in a and (a.startswith("@") or _CHILD_STEP.match(a)) for a in steps):
            return False
    return True


def _may_match(alternative: str, cannot: re.Pattern[str]) -> bool:
    """False only when the alternative's last step (without its predicates) certainly cannot match the kind of node
    ``cannot`` describes, the steps that can never match it; else True. The skip-walk steps judge patterns so."""
    if alternative in ("/", "root()"):
        return False  # a document node, or the root of a tree: never a node reached from an element
    last = _split_top(alternative, "/")[-1].strip()
    if last.startswith("("):  # XSLT 3.0: (A | B)[predicate]
        close = _closing_paren(last)
        if close < len(last) and _strip_predicates(last[close + 1 :]) == "":
            return any(_may_match(a, cannot) for a in _alternatives(last[1:close]))
        return True
    return cannot.match(_strip_predicates(last)) is None


def _walk_is_dead(
    root: etree._Element, mode: str, may_match: Callable[[str], bool], catch_all: tuple[str, ...]
) -> bool:
    """True if applying templates in ``mode`` to a kind of leaf node (``may_match`` judges a pattern alternative
    for it) can do nothing: every template of the mode that may match one is inert on leaves, and one of them
    matches every such node (an alternative in ``catch_all``), so the built-in rule never applies."""
    caught = False
    for template in root.iter(_x("template")):
        match = template.get("match")
        modes = _template_modes(template)
        if match is None or (mode not in modes and "#all" not in modes):
            continue
        alternatives = _alternatives(match)
        if not any(may_match(a) for a in alternatives):
            continue
        if not _inert_on_leaves(template):
            return False
        caught = caught or any(a in catch_all for a in alternatives)
    return caught


def _dead_walks(
    root: etree._Element, is_dead: Callable[[etree._Element, str], bool], walks: Callable[[list[str]], bool]
) -> list[tuple[etree._Element, list[str]]]:
    """The ``xsl:apply-templates`` (with a select, no parameters or sort) whose select walks (``walks`` judges its
    alternatives) only into modes where ``is_dead``: its own mode, or for ``#current`` every mode of its template
    (``#all``: every mode of the stylesheet); each with its select's alternatives. None where the stylesheet
    declares modes (XSLT 3.0 ``xsl:mode``, ``on-no-match=…``: not analysed)."""
    if any(True for _ in root.iter(_x("mode"))):
        return []
    modes = {m for t in root.iter(_x("template")) for m in _template_modes(t)} - {"#all"}
    modes |= {str(a.get("mode")) for a in root.iter(_x("apply-templates")) if a.get("mode")} - {"#current"}
    modes.add("#default")
    dead = {m for m in modes if is_dead(root, m)}
    found = []
    for apply in root.iter(_x("apply-templates")):
        select = apply.get("select")
        if select is None or len(apply):
            continue
        alternatives = _alternatives(select)
        if not walks(alternatives):
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
        found.append((apply, alternatives))
    return found


# What relative-patterns, hoist-document-constants and index-sibling-lookups judge: which nodes a mode's templates
# can meet.
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


_CALLER_DOCUMENT = re.compile(r"^\s*(?:document|doc)\s*\(\s*\$([\w.-]+)\s*\)\s*$")


def _stays_in_documents(apply: etree._Element, root: etree._Element, *, other_documents: bool = True) -> bool:
    """Whether ``apply`` selects from its context node's own tree (or, with ``other_documents``, a document):
    see relative-patterns. Without ``other_documents`` only the validated document qualifies: a ``document()``
    call then only on a global parameter the caller alone can set (our engines never set one: SchXslt's
    ``schxslt.validate.initial-document-uri``), which reads nothing when the caller sets none."""
    select = apply.get("select")
    if select is None:
        select = "node()"  # child::node()
    if "".join(select.split()) not in _SAFE_SELECTS:
        if other_documents:
            if not _DOCUMENT_CALL.match(select):
                return False
        else:
            caller = _CALLER_DOCUMENT.match(select)
            params = {p.get("name") for p in root.iterchildren(_x("param"))}
            if caller is None or caller.group(1) not in params:
                return False
    return _in_its_callers_context(apply, root)


def _document_only_modes(root: etree._Element) -> set[str]:
    """The named modes whose templates only ever meet nodes of the validated document: every
    ``xsl:apply-templates`` that may target the mode selects from its context node's own tree, outside any
    instruction that changes the context (``_stays_in_documents`` without other documents), and so does every one
    that may target the default mode (the stylesheet is applied to the validated document there). Empty when an
    ``xsl:apply-templates`` may target any mode and does not qualify."""
    modes = {m for t in root.iter(_x("template")) for m in _template_modes(t)} - {"#all", "#default", "#unnamed"}
    for apply in root.iter(_x("apply-templates")):
        if _stays_in_documents(apply, root, other_documents=False):
            continue
        targets = _targets(apply)
        if targets & {"#all", "#default"}:
            return set()
        modes -= targets
    return modes
