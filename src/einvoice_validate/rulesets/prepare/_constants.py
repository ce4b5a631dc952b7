"""What the expression-rewriting steps judge on a parsed XPath expression: what it depends on, whether it can raise.

``hoist-document-constants`` and ``index-sibling-lookups`` read a rule's expressions with :mod:`._xpath` and ask of a
part of one: does its value depend on the focus it is evaluated in (:func:`independent`), on variables other than
the stylesheet's global ones, can evaluating it raise a dynamic error (:func:`error_free`), is it a node sequence of
the validated document found from its root (:func:`rooted`). Each judgement answers "yes" only where that is
certain from the expression's shape; anything else is "no", and the steps then leave the expression as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

from ._xpath import Node, XPathSyntaxError, parse, walk
from ._xslt import _CONTEXT_CHANGERS, _x

__all__ = [
    "Keys",
    "QuietVar",
    "Scope",
    "declaration",
    "error_free",
    "independent",
    "node_path",
    "predicate_error_free",
    "pure_functions",
    "rooted",
    "strings_or_nodes",
    "tree_preserving",
]

# Built-in functions whose result depends on the focus when called without arguments (with them, it does not).
_FOCUS_WITHOUT_ARGS = frozenset(
    (
        *("position", "last", "name", "local-name", "namespace-uri", "string", "normalize-space", "string-length"),
        *("number", "generate-id", "base-uri", "document-uri", "root", "data", "has-children", "path", "node-name"),
        *("nilled",),
    )
)
# Built-in functions that always read the focus or the XSLT context (current item, group, regex match, the
# document of the context node), or write, or read a resource: never part of a constant.
_NEVER = frozenset(
    (
        *("current", "current-group", "current-grouping-key", "regex-group", "lang", "id", "idref", "key"),
        *("element-with-id", "trace", "random-number-generator", "document", "doc", "doc-available"),
        *("unparsed-text", "unparsed-text-lines", "unparsed-text-available", "collection", "uri-collection"),
        *("json-doc", "transform", "load-xquery-module", "function-lookup", "unparsed-entity-uri"),
        *("unparsed-entity-public-id", "available-environment-variables", "environment-variable"),
        *("copy-of", "snapshot", "accumulator-before", "accumulator-after", "stream-available"),
    )
)
_FN = "http://www.w3.org/2005/xpath-functions"
_ATOMIC_RESULT = re.compile(r"^\s*xs:[A-Za-z]+\??\s*$")
_FUNCTION_BODY = frozenset(_x(n) for n in ("param", "variable", "sequence", "choose", "when", "otherwise", "if"))
# Axis steps that stay in the tree of the node they start from.
_AXES_IN_TREE = frozenset(
    (
        *("child", "descendant", "attribute", "self", "descendant-or-self", "following-sibling", "following"),
        *("parent", "ancestor", "preceding-sibling", "preceding", "ancestor-or-self"),
    )
)


QuietVar = Callable[[str], bool]
"""Whether a variable (by name) holds nodes or strings: compared with untyped values it is compared as a string and
never converted (see :func:`strings_or_nodes`)."""


def _no_var(name: str) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Scope:
    """Where an expression stands: the stylesheet's global variables and parameters (not shadowed by a variable
    of the template), the in-scope namespaces of its element (to resolve function names) and the user functions
    that are pure (:func:`pure_functions`)."""

    globals: frozenset[str]
    namespaces: dict[str | None, str]
    pure: frozenset[tuple[str, str]]
    quiet_var: QuietVar = _no_var

    def function(self, name: str) -> tuple[str, str]:
        """The expanded name (namespace, local name) of a function called ``name`` here."""
        if name.startswith("Q{"):
            uri, _, local = name[2:].partition("}")
            return uri, local
        prefix, _, local = name.rpartition(":")
        if not prefix or prefix == "fn":
            return _FN, local
        return self.namespaces.get(prefix, "?" + prefix), local


def _builtin(scope: Scope, node: Node) -> str | None:
    """The local name of a built-in function ``node`` calls, else None."""
    uri, local = scope.function(node.name)
    return local if uri == _FN else None


def independent(node: Node, scope: Scope, inner: bool = False, bound: frozenset[str] = frozenset()) -> bool:
    """Whether ``node`` has the same value wherever in a rule it is evaluated on the validated document: it reads the
    focus only through a path from the root (``/``) or from nodes it found itself (``inner``: inside a predicate or
    after a ``/`` of such a path), no variable but global ones and those it binds itself (``bound``), no XSLT
    context (``current()``), and calls only built-in functions outside :data:`_NEVER` and pure user functions."""
    kind = node.kind
    if kind in ("literal", "number"):
        return True
    if kind == "var":
        return node.name in bound or node.name in scope.globals
    if kind == "context":
        return inner
    if kind == "step":
        return inner and all(independent(p, scope, True, bound) for p in node.children)
    if kind == "path":
        if node.root:
            steps = node.children
        elif not node.children or not independent(node.children[0], scope, inner, bound):
            return False
        else:
            steps = node.children[1:]
        return all(independent(s, scope, True, bound) for s in steps)
    if kind == "filter":
        primary, *preds = node.children
        return independent(primary, scope, inner, bound) and all(independent(p, scope, True, bound) for p in preds)
    if kind == "call":
        builtin = _builtin(scope, node)
        if builtin is not None:
            if builtin in _NEVER or (builtin in _FOCUS_WITHOUT_ARGS and not node.children and not inner):
                return False
        elif scope.function(node.name) not in scope.pure:
            return False
        return all(independent(a, scope, inner, bound) for a in node.children)
    if kind == "binary" and node.op == "!":
        left, right = node.children
        return independent(left, scope, inner, bound) and independent(right, scope, True, bound)
    if kind == "bind":
        names = bound
        *exprs, body = node.children
        for name, expr in zip(node.names, exprs, strict=True):
            if not independent(expr, scope, inner, names):
                return False
            names = names | {name}
        return independent(body, scope, inner, names)
    if kind == "opaque":
        return False
    return all(independent(c, scope, inner, bound) for c in node.children)


def node_path(node: Node, quiet_var: QuietVar = _no_var) -> bool:
    """A path of axis steps (or ``.``), each with error-free predicates: nodes, never an error."""
    if node.kind == "context":
        return True
    if node.kind == "paren":
        return len(node.children) == 1 and node_path(node.children[0], quiet_var)
    if node.kind == "step":
        return node.axis in _AXES_IN_TREE and all(predicate_error_free(p, quiet_var) for p in node.children)
    if node.kind == "path":
        return all(node_path(s, quiet_var) for s in node.children)
    if node.kind == "binary" and node.op in ("|", "union", "intersect", "except"):
        return all(node_path(c, quiet_var) for c in node.children)
    return False


def predicate_error_free(node: Node, quiet_var: QuietVar = _no_var) -> bool:
    """A predicate whose evaluation cannot raise: a position (a number), node paths (existence), ``and``/``or``,
    ``not``/``exists``/``empty``/``boolean`` of node paths, and ``=``/``!=`` between node paths and string literals
    or parenthesised sequences of them (untyped values compared as strings)."""
    if node.kind == "number":
        return True
    if node.kind == "paren":
        return len(node.children) == 1 and predicate_error_free(node.children[0], quiet_var)
    if node.kind == "binary" and node.op in ("and", "or"):
        return all(predicate_error_free(c, quiet_var) for c in node.children)
    if node.kind == "binary" and node.op in ("=", "!="):
        return all(
            string_literals(c) or (c.kind == "var" and quiet_var(c.name)) or node_path(c, quiet_var)
            for c in node.children
        )
    if node.kind == "call" and node.name in ("not", "exists", "empty", "boolean") and len(node.children) == 1:
        return node_path(node.children[0], quiet_var) or predicate_error_free(node.children[0], quiet_var)
    return node_path(node, quiet_var)


def string_literals(node: Node) -> bool:
    """A string literal, or a parenthesised sequence of them (``@schemeID = ('VA', 'FC')``): compared with nodes,
    their untyped values are compared as strings, which cannot raise."""
    if node.kind == "literal":
        return True
    if node.kind == "paren" and len(node.children) == 1:
        inner = node.children[0]
        return string_literals(inner) or (inner.kind == "sequence" and all(c.kind == "literal" for c in inner.children))
    return False


def rooted(node: Node) -> bool:
    """A node sequence of the validated document found from its root without error: a path from ``/`` (or ``//``)
    of axis steps with error-free predicates, a union of such, or such a union or path followed by axis steps."""
    if node.kind == "path" and node.root:
        return all(node_path(s) for s in node.children)
    if node.kind == "path":
        first, *rest = node.children
        return rooted(first) and all(node_path(s) for s in rest)
    if node.kind == "paren":
        return len(node.children) == 1 and rooted(node.children[0])
    if node.kind == "binary" and node.op in ("|", "union"):
        return all(rooted(c) for c in node.children)
    return False


def error_free(node: Node) -> bool:
    """Whether evaluating ``node`` cannot raise: a rooted node sequence, or ``count``/``exists``/``empty``/``boolean``/
    ``not`` of one."""
    if rooted(node):
        return True
    return (
        node.kind == "call"
        and node.name in ("count", "exists", "empty", "boolean", "not")
        and (len(node.children) == 1 and rooted(node.children[0]))
    )


def tree_preserving(node: Node) -> bool:
    """Whether ``node``'s items, when nodes, lie in the tree of the focus it is evaluated in (so that a ``/`` in a
    predicate applied to them means the same root): the focus itself, axis steps from it, paths from the root."""
    if node.kind in ("context", "step"):
        return True
    if node.kind == "path":
        return bool(node.root) or (bool(node.children) and tree_preserving(node.children[0]))
    if node.kind == "paren":
        return len(node.children) == 1 and tree_preserving(node.children[0])
    if node.kind == "filter":
        return tree_preserving(node.children[0])
    if node.kind == "binary" and node.op in ("|", "union", "intersect", "except"):
        return all(tree_preserving(c) for c in node.children)
    return False


def pure_functions(root: etree._Element) -> frozenset[tuple[str, str]]:
    """The stylesheet's functions that compute an atomic value (``as="xs:…"``, at most one item) from their arguments
    alone: a body of variables, ``xsl:sequence``, ``xsl:choose`` and ``xsl:if`` only (no node is built), whose
    expressions call built-in functions outside :data:`_NEVER` and pure functions only. Calling one twice with the
    same arguments gives the same value (or the same error)."""
    functions: dict[tuple[str, str], etree._Element] = {}
    for function in root.iterchildren(_x("function")):
        prefix, _, local = str(function.get("name", "")).rpartition(":")
        functions[(function.nsmap.get(prefix or None, ""), local)] = function
    verdict: dict[tuple[str, str], bool] = {}

    def pure(key: tuple[str, str]) -> bool:
        if key in verdict:
            return verdict[key]
        verdict[key] = True  # a recursive call is judged where it started
        function = functions[key]
        ok = _ATOMIC_RESULT.match(function.get("as", "")) is not None
        scope = Scope(frozenset(), {k: v for k, v in function.nsmap.items()}, frozenset())
        for element in function.iterdescendants():
            if not ok:
                break
            if not isinstance(element.tag, str) or element.tag not in _FUNCTION_BODY:
                ok = False
                break
            for attribute in ("select", "test"):
                text = element.get(attribute)
                if text is None:
                    continue
                try:
                    tree = parse(text)
                except XPathSyntaxError:
                    ok = False
                    break
                for part in walk(tree):
                    if part.kind == "opaque":
                        ok = False
                    if part.kind == "call":
                        uri, name = scope.function(part.name)
                        if uri == _FN:
                            ok = ok and name not in _NEVER
                        else:
                            ok = ok and (uri, name) in functions and pure((uri, name))
        verdict[key] = ok
        return ok

    return frozenset(k for k in functions if pure(k))


_STRING_FUNCTIONS = frozenset(
    (
        *("normalize-space", "string", "concat", "substring", "substring-before", "substring-after"),
        *("upper-case", "lower-case", "translate", "string-join", "normalize-unicode"),
    )
)


def declaration(
    name: str, element: etree._Element, template: etree._Element, globals_: dict[str, etree._Element]
) -> etree._Element | None:
    """The one declaration of variable ``name`` visible at ``element``: a variable of the template (exactly one of
    that name, an ancestor's earlier sibling or an earlier sibling's), else a global one; None when unsure."""
    local = [v for v in template.iter(_x("variable"), _x("param")) if v.get("name") == name]
    if len(local) > 1:
        return None
    if local:
        declared = local[0]
        parent = declared.getparent()
        if parent is None or not any(a is parent for a in element.iterancestors()):
            return None
        ancestor = next(a for a in [element, *element.iterancestors()] if a.getparent() is parent)
        return declared if parent.index(declared) < parent.index(ancestor) else None
    return globals_.get(name)


def strings_or_nodes(declared: etree._Element | None, globals_: dict[str, etree._Element], depth: int = 0) -> bool:
    """Whether the variable's value is nodes or strings, by its expression (a global variable it reads, as
    hoist-document-constants writes ``<xsl:variable name="v" select="$G"/>``, by the global's)."""
    if declared is None or declared.get("as") is not None:
        return False
    select = declared.get("select")
    if select is None:
        return False
    try:
        tree = parse(select)
    except XPathSyntaxError:
        return False
    while tree.kind == "paren" and len(tree.children) == 1:
        tree = tree.children[0]
    if tree.kind == "call":
        return tree.name in _STRING_FUNCTIONS
    if tree.kind == "var" and depth < 4:
        return strings_or_nodes(globals_.get(tree.name), globals_, depth + 1)
    return tree_preserving(tree)  # nodes: the focus, axis steps from it, paths from the root


def inside_template_focus_change(element: etree._Element, template: etree._Element) -> bool:
    """Whether a context-changing instruction (``xsl:for-each``, ...) stands between ``element`` and its
    ``template``: an expression there does not see the template's focus (both expression-rewriting steps ask)."""
    for ancestor in element.iterancestors():
        if ancestor is template:
            return False
        if ancestor.tag in _CONTEXT_CHANGERS:
            return True
    return True


def fresh_name(prefix: str, taken: set[str], start: int) -> str:
    """The first ``prefix`` + number from ``start`` that the stylesheet does not use yet, now taken (the names of the
    variables and keys the expression-rewriting steps add)."""
    n = start
    while f"{prefix}{n}" in taken:
        n += 1
    name = f"{prefix}{n}"
    taken.add(name)
    return name


class Keys:
    """The ``xsl:key`` declarations a step adds to a stylesheet, each named ``prefix`` + number and declared once per
    (match, use, namespaces in scope where it is used)."""

    def __init__(self, root: etree._Element, prefix: str) -> None:
        self.root = root
        self.prefix = prefix
        self.made: dict[tuple[str, str, tuple[tuple[str, str], ...]], str] = {}
        self.taken = {str(k.get("name")) for k in root.iter(_x("key"))}

    def name(self, match: str, use: str, element: etree._Element) -> str:
        """The name of the key ``match``/``use`` as read where ``element`` stands, declared now if new."""
        namespaces = tuple(sorted((k, v) for k, v in element.nsmap.items() if k is not None))
        found = self.made.get((match, use, namespaces))
        if found is not None:
            return found
        name = fresh_name(self.prefix, self.taken, len(self.made) + 1)
        self.made[(match, use, namespaces)] = name
        own = {k: v for k, v in namespaces if self.root.nsmap.get(k) != v}
        # at the end: the lines of the stylesheet stay where they were (SaxonC's error texts name them)
        key = etree.SubElement(self.root, _x("key"), nsmap=own)
        key.set("name", name)
        key.set("match", match)
        key.set("use", use)
        key.tail = "\n"
        return name
