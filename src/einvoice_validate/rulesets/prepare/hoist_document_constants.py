"""Preparation step ``hoist-document-constants``: what a rule reads from the document's root is read once per document.

A rule on an invoice line that tests a header value (``/ubl:Invoice/cbc:DocumentCurrencyCode``, FNFE's
``custom:isSpecialContract(/ubl:Invoice|/cn:CreditNote)``, ``count(//cac:InvoiceLine)``) evaluates it again on every
line, and each evaluation lists the root element's children, the lines among them: the pack's time grows with the square
of the lines (FNFE's BR-FR rules: 2,000 lines took 6 x the time of 500, issue 41).

``hoist-document-constants`` (v1, issue 41; v2: a comparison with a parenthesised sequence of string literals,
``@schemeID = ('VA', 'FC')``, counts as error-free: CEN's CII BR-S-02 read the seller's tax registrations past every
line on every line) gives each such part of a rule's expression a global variable, read in its
place: Saxon evaluates a global variable once per transformation (one document), when first read. A part is hoisted when
it is certain to have the same value wherever the rule evaluates it (:func:`._constants.independent`): it reads the
document through a path from its root only, no variable but global ones, no ``current()``; it stands where the focus is
the rule's context node, or a node found from it (so its ``/`` is the validated document's root), in a template of a
mode whose templates only ever meet nodes of the validated document (``_document_only_modes``), outside ``xsl:for-each``
and the like; and it is worth it: a path that goes below the root element (``/X/Y``, ``//Y``, ``(/A | /B)/Y``),
``count``/``exists``/``empty``/``boolean``/``not`` of one, or a call of a pure stylesheet function
(:func:`._constants.pure_functions`: an atomic value from its arguments alone) whose arguments are such paths, literals
or global variables. Of a path whose later steps read local variables, the longest leading part that does not is hoisted
(``/ubl:Invoice/cac:TaxTotal[...]/cac:TaxSubtotal[cbc:Percent = $rate]`` reads
``$einvoice-validate.once-1/cac:TaxSubtotal[cbc:Percent = $rate]``).

Errors stay where they were. A part is hoisted only where what the expression does next with its items (the later steps
of its path, the predicates of its filter) cannot raise: an error there is raised in the same evaluation as before
(SaxonC's error texts quote the expression it was evaluating). A hoisted path can raise none (its predicates are
positions, existence tests and comparisons with string literals: :func:`._constants.rooted`). A function call can: an
error in a global variable is not caught by the ``xsl:try`` of the rule that reads it (it stops the pack), so the
variable holds the call's value inside its own ``xsl:try``, and on an error a map with the error's code and description;
where the call stood, ``(if ($V instance of map(*)) then error($V('einvoice-validate.error'), $V('description')) else
$V)`` raises that error again, with the same code and text, at the same place, as the rule's ``xsl:try`` (or the pack's)
saw it before. Everything else is unchanged: every finding and every error is the same, on every document.
"""

from __future__ import annotations

from lxml import etree

from ._constants import (
    QuietVar,
    Scope,
    declaration,
    error_free,
    fresh_name,
    independent,
    inside_template_focus_change,
    node_path,
    predicate_error_free,
    pure_functions,
    rooted,
    strings_or_nodes,
    tree_preserving,
)
from ._xpath import Node, XPathSyntaxError, parse
from ._xslt import _XSL, _document_only_modes, _template_modes, _x

__all__ = ["ONCE_PREFIX"]

ONCE_PREFIX = "einvoice-validate.once-"
"""The names of the global variables this step adds (in no namespace: a prefix would be copied into the output)."""
_ERR = "http://www.w3.org/2005/xqt-errors"
_FAILED = "einvoice-validate.error"
_WORTH_CALLS = frozenset(("count", "exists", "empty", "boolean", "not"))
_OWN_FOCUS = frozenset(_x(n) for n in ("sort", "number", "key", "function"))  # not evaluated on the rule's node


def _deep(node: Node) -> bool:
    """Whether a rooted node sequence reads below the root element (``/X`` alone lists the document node's children:
    one element, nothing to save)."""
    if node.kind == "path" and node.root:
        return node.root == "//" or len(node.children) > 1 or "//" in node.seps
    if node.kind == "path":
        return True  # (/A | /B)/Y
    if node.kind == "paren":
        return bool(node.children) and _deep(node.children[0])
    if node.kind == "binary":
        return any(_deep(c) for c in node.children)
    return False


class _Hoister:
    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self.pure = pure_functions(root)
        self.declared = {
            str(e.get("name")): e for e in root if isinstance(e.tag, str) and e.tag in (_x("variable"), _x("param"))
        }
        self.globals = frozenset(self.declared)
        self.names: dict[tuple[str, bool, tuple[tuple[str | None, str], ...]], str] = {}
        self.taken = {str(e.get("name")) for e in root.iter(_x("variable"), _x("param"))}

    # -- finding the parts
    def parts(self, node: Node, scope: Scope, same_tree: bool, tail_safe: bool = True) -> list[tuple[Node, int, bool]]:
        """The parts of ``node`` to hoist: (node, end of the hoisted text, guarded). ``tail_safe``: what the
        expression does with ``node``'s items next (the later steps of its path, the predicates of its filter)
        cannot raise; else ``node`` stays, so that an error there is raised in the same evaluation as before (SaxonC
        quotes the expression it was evaluating in the error's text)."""
        if same_tree and tail_safe:
            found = self.candidate(node, scope)
            if found is not None:
                return [found]
        out: list[tuple[Node, int, bool]] = []
        kind = node.kind
        if kind == "path":
            keeps = bool(node.root)
            for n, step in enumerate(node.children):
                if n == 0 and not node.root:
                    rest_safe = all(node_path(s, scope.quiet_var) for s in node.children[1:])
                    out += self.parts(step, scope, same_tree, rest_safe)
                    keeps = same_tree and tree_preserving(step)
                else:
                    out += self.parts(step, scope, keeps and same_tree)
                    keeps = keeps and step.kind == "step"
            return out
        if kind == "step":
            for pred in node.children:
                out += self.parts(pred, scope, same_tree)
            return out
        if kind == "filter":
            primary, *preds = node.children
            out += self.parts(primary, scope, same_tree, all(predicate_error_free(p, scope.quiet_var) for p in preds))
            for pred in preds:
                out += self.parts(pred, scope, same_tree and tree_preserving(primary))
            return out
        if kind == "binary" and node.op == "!":
            left, right = node.children
            out += self.parts(left, scope, same_tree, node_path(right, scope.quiet_var))
            return out + self.parts(right, scope, same_tree and tree_preserving(left))
        if kind == "opaque":
            return []
        # a parenthesis or a union hands its operands' items to what comes next: the same consumer
        passes = kind == "paren" or (kind == "binary" and node.op in ("|", "union", "intersect", "except"))
        for child in node.children:
            out += self.parts(child, scope, same_tree, tail_safe if passes else True)
        return out

    def candidate(self, node: Node, scope: Scope) -> tuple[Node, int, bool] | None:
        if node.kind == "call" and independent(node, scope):
            uri, local = scope.function(node.name)
            if (uri, local) in self.pure:
                if node.children and all(self.argument(a, scope) for a in node.children):
                    return node, node.end, True
                return None
            worth = uri.endswith("xpath-functions") and local in _WORTH_CALLS
            if worth and error_free(node) and _deep(node.children[0]):
                return node, node.end, False
            return None
        if node.kind in ("path", "paren") and rooted(node) and independent(node, scope) and _deep(node):
            return node, node.end, False
        if node.kind == "path":
            # the longest leading part that qualifies (later steps read local variables), when the steps after it
            # cannot raise (an error there stays in the evaluation it was raised in before)
            for cut in range(len(node.children) - 1, 0, -1):
                if not all(node_path(s, scope.quiet_var) for s in node.children[cut:]):
                    break
                head = Node(
                    "path",
                    node.start,
                    node.children[cut - 1].end,
                    node.children[:cut],
                    root=node.root,
                    seps=node.seps[: cut - 1],
                )
                if (head.root or cut > 1) and rooted(head) and independent(head, scope) and _deep(head):
                    return head, head.end, False
        return None

    def argument(self, node: Node, scope: Scope) -> bool:
        """A function argument that may be part of a hoisted call: a literal, a global variable, or a rooted node
        sequence (an error there would be the function's own, raised inside its variable's ``xsl:try``)."""
        return node.kind in ("literal", "number", "var") or (rooted(node) and independent(node, scope))

    # -- writing
    def variable(self, text: str, guarded: bool, element: etree._Element) -> str:
        namespaces = tuple(sorted((k, v) for k, v in element.nsmap.items() if k is not None))
        key = (" ".join(text.split()), guarded, namespaces)
        name = self.names.get(key)
        if name is not None:
            return name
        name = fresh_name(ONCE_PREFIX, self.taken, len(self.names) + 1)
        self.names[key] = name
        own = {k: v for k, v in namespaces if self.root.nsmap.get(k) != v}
        variable = etree.SubElement(self.root, _x("variable"), nsmap=own)
        variable.set("name", name)
        variable.tail = "\n"
        if not guarded:
            variable.set("select", text)
            return name
        variable.set("as", "item()*")
        attempt = etree.SubElement(variable, _x("try"))
        attempt.set("select", text)
        catch = etree.SubElement(attempt, _x("catch"), nsmap={"err": _ERR})
        catch.set("select", f"map{{'{_FAILED}': $err:code, 'description': string($err:description)}}")
        return name

    def rewrite(self, element: etree._Element, attribute: str, scope: Scope) -> None:
        text = element.get(attribute)
        if text is None:
            return
        try:
            tree = parse(text)
        except XPathSyntaxError:
            return
        parts = self.parts(tree, scope, True)
        if not parts:
            return
        out = text
        for node, end, guarded in sorted(parts, key=lambda p: p[0].start, reverse=True):
            name = self.variable(text[node.start : end], guarded, element)
            if guarded:
                ref = (
                    f"(if (${name} instance of map(*)) then error(${name}('{_FAILED}'), ${name}('description'))"
                    f" else ${name})"
                )
            else:
                ref = f"${name}"
            if end < len(out) and (out[end].isalnum() or out[end] in "_.-"):
                ref += " "  # ``…]or $x``: the name must not run on into the next word
            out = out[: node.start] + ref + out[end:]
        element.set(attribute, out)


def _hoist_document_constants(root: etree._Element) -> None:
    """Step ``hoist-document-constants`` (see the module docstring)."""
    modes = _document_only_modes(root)
    if not modes:
        return
    hoister = _Hoister(root)
    templates = [
        t for t in root.iterchildren(_x("template")) if t.get("match") is not None and set(_template_modes(t)) <= modes
    ]
    for template in templates:
        local = {str(e.get("name")) for e in template.iter(_x("variable"), _x("param"))}
        for element in list(template.iter()):
            if not isinstance(element.tag, str) or not element.tag.startswith(f"{{{_XSL}}}"):
                continue
            if element.tag in _OWN_FOCUS or inside_template_focus_change(element, template):
                continue
            scope = Scope(
                hoister.globals - local, dict(element.nsmap), hoister.pure, _quiet_var(hoister, element, template)
            )
            for attribute in ("select", "test"):
                hoister.rewrite(element, attribute, scope)


def _quiet_var(hoister: _Hoister, element: etree._Element, template: etree._Element) -> QuietVar:
    def quiet(name: str) -> bool:
        return strings_or_nodes(declaration(name, element, template, hoister.declared), hoister.declared)

    return quiet
