"""An XPath 3.1 parser for the preparation's steps: expressions as trees of parts that know where they stand.

The steps that rewrite expressions (``hoist-document-constants``, ``index-sibling-lookups``) need to know what an
expression depends on (the focus, which variables), and where each part begins and ends, so that a part can be
replaced by other text while the rest stays byte for byte. :func:`parse` gives that tree (:class:`Node`, each with
its ``start``/``end`` in the text); :class:`XPathSyntaxError` when the text is not an expression this parser knows,
and a step then leaves the expression as it is. The grammar is XPath 3.1's (the XSLT 3.0 processors that run the
packs read every stylesheet's expressions as XPath 3.1), without schema-aware types.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

__all__ = ["KIND_TESTS", "Node", "XPathSyntaxError", "parse", "walk"]


class XPathSyntaxError(ValueError):
    """The text is not an XPath expression this parser reads."""


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # name | var | str | num | sym | eqname
    text: str
    start: int
    end: int


@dataclass(slots=True)
class Node:
    """One part of an expression. ``kind`` says which (the attributes used by each kind are noted):

    ``path`` (``root``: ``/``, ``//`` or ``""``; ``children``: the steps; ``seps``: ``/`` or ``//`` before each
    step after the first), ``step`` (``axis``, ``test``; ``children``: predicates), ``filter`` (``children``:
    the primary, then predicates; ``preds``: how many), ``call`` (``name``; ``children``: the arguments),
    ``var`` (``name``), ``literal``, ``number``, ``context`` (``.``), ``paren`` (``children``: zero or one
    expression), ``binary`` (``op``; two children), ``unary``, ``if``, ``bind`` (``op``: for, let, some, every;
    ``names``: the bound variables; ``children``: the bound expressions, then the body), ``sequence`` (comma),
    ``typed`` (``op``: instance of, treat as, cast as, castable as; one child), ``opaque`` (what the steps never
    look into: maps, arrays, inline functions, lookups, dynamic calls, arrow calls)."""

    kind: str
    start: int
    end: int
    children: list[Node] = field(default_factory=list)
    name: str = ""
    op: str = ""
    axis: str = ""
    test: str = ""
    root: str = ""
    seps: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    preds: int = 0


KIND_TESTS = frozenset(
    (
        *("node", "text", "comment", "processing-instruction", "element", "attribute", "document-node"),
        *("schema-element", "schema-attribute", "namespace-node"),
    )
)
_RESERVED_CALLS = KIND_TESTS | {"if", "switch", "typeswitch", "item", "empty-sequence", "function", "map", "array"}
_AXES = frozenset(
    (
        *("child", "descendant", "attribute", "self", "descendant-or-self", "following-sibling", "following"),
        *("namespace", "parent", "ancestor", "preceding-sibling", "preceding", "ancestor-or-self"),
    )
)
_COMPARISONS = frozenset(("=", "!=", "<", "<=", ">", ">=", "eq", "ne", "lt", "le", "gt", "ge", "is", "<<", ">>"))
_NAME = r"[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*"
_TOKEN_PATTERN = rf"""(?P<ws>\s+)
    |(?P<str>"(?:[^"]|"")*"|'(?:[^']|'')*')
    |(?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
    |(?P<var>\$\s*(?:Q\{{[^}}]*\}}{_NAME}|{_NAME}(?::{_NAME})?))
    |(?P<eqname>Q\{{[^}}]*\}}(?:{_NAME}|\*))
    |(?P<name>(?:\*:{_NAME})|(?:{_NAME}(?::(?:{_NAME}|\*))?))
    |(?P<sym>//|::|:=|\.\.|!=|<=|>=|<<|>>|\|\||=>|[/()\[\]{{}},|@.=<>+\-*!?#:])"""


@functools.cache
def _token() -> re.Pattern[str]:
    """The tokenizer, compiled on first use: the Unicode name ranges take about 30 ms to compile, and a validation
    imports this package (the registry reads ``prepared.json``) without ever parsing an expression."""
    return re.compile(_TOKEN_PATTERN, re.VERBOSE)


def _tokens(text: str) -> list[Token]:
    out: list[Token] = []
    pos = 0
    while pos < len(text):
        if text.startswith("(:", pos):  # a comment, possibly nested
            depth, i = 0, pos
            while i < len(text):
                if text.startswith("(:", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith(":)", i):
                    depth, i = depth - 1, i + 2
                    if depth == 0:
                        break
                else:
                    i += 1
            if depth:
                raise XPathSyntaxError("unclosed comment")
            pos = i
            continue
        m = _token().match(text, pos)
        if m is None:
            raise XPathSyntaxError(f"unexpected character {text[pos]!r} at {pos}")
        kind = m.lastgroup or ""
        if kind != "ws":
            value = m.group(0)
            if kind == "var":
                value = "$" + value[1:].strip()
            out.append(Token(kind, value, m.start(), m.end()))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    # -- token helpers
    def peek(self, offset: int = 0) -> Token | None:
        j = self.i + offset
        return self.toks[j] if j < len(self.toks) else None

    def at(self, *texts: str, kind: str | None = None, offset: int = 0) -> bool:
        t = self.peek(offset)
        return t is not None and t.text in texts and (kind is None or t.kind == kind)

    def at_sym(self, *texts: str, offset: int = 0) -> bool:
        return self.at(*texts, kind="sym", offset=offset)

    def at_word(self, *texts: str, offset: int = 0) -> bool:
        return self.at(*texts, kind="name", offset=offset)

    def take(self) -> Token:
        t = self.peek()
        if t is None:
            raise XPathSyntaxError("unexpected end of expression")
        self.i += 1
        return t

    def expect(self, text: str) -> Token:
        t = self.take()
        if t.text != text or t.kind not in ("sym", "name"):
            raise XPathSyntaxError(f"expected {text!r}, found {t.text!r} at {t.start}")
        return t

    def end_of_last(self) -> int:
        return self.toks[self.i - 1].end

    # -- grammar
    def expr(self) -> Node:
        first = self.expr_single()
        if not self.at_sym(","):
            return first
        items = [first]
        while self.at_sym(","):
            self.take()
            items.append(self.expr_single())
        return Node("sequence", first.start, items[-1].end, items)

    def expr_single(self) -> Node:
        t = self.peek()
        if t is not None and t.kind == "name":
            nxt = self.peek(1)
            if t.text in ("for", "let", "some", "every") and nxt is not None and nxt.kind == "var":
                return self.binding(t.text)
            if t.text == "if" and self.at_sym("(", offset=1):
                return self.if_expr()
        return self.binary(0)

    def binding(self, op: str) -> Node:
        start = self.take().start
        names: list[str] = []
        children: list[Node] = []
        while True:
            var = self.take()
            if var.kind != "var":
                raise XPathSyntaxError(f"expected a variable at {var.start}")
            names.append(var.text[1:])
            self.expect(":=" if op == "let" else "in")
            children.append(self.expr_single())
            if not self.at_sym(","):
                break
            self.take()
        self.expect({"for": "return", "let": "return"}.get(op, "satisfies"))
        body = self.expr_single()
        return Node("bind", start, body.end, [*children, body], op=op, names=names)

    def if_expr(self) -> Node:
        start = self.take().start
        self.expect("(")
        test = self.expr()
        self.expect(")")
        self.expect("then")
        then = self.expr_single()
        self.expect("else")
        other = self.expr_single()
        return Node("if", start, other.end, [test, then, other])

    # binary operators by precedence, lowest first; each level's operators are left-associative
    _LEVELS: tuple[tuple[tuple[str, ...], str], ...] = (
        (("or",), "name"),
        (("and",), "name"),
        (tuple(_COMPARISONS), "any"),
        (("||",), "sym"),
        (("to",), "name"),
        (("+", "-"), "sym"),
        (("*", "div", "idiv", "mod"), "any"),
        (("union", "|"), "any"),
        (("intersect", "except"), "name"),
    )

    def binary(self, level: int) -> Node:
        if level == len(self._LEVELS):
            return self.typed()
        ops, _ = self._LEVELS[level]
        left = self.binary(level + 1)
        while True:
            t = self.peek()
            if t is None or t.text not in ops or t.kind not in ("sym", "name"):
                return left
            if t.kind == "name" and t.text in ("*",):
                return left
            self.take()
            right = self.binary(level + 1)
            left = Node("binary", left.start, right.end, [left, right], op=t.text)
            if level == 2:  # comparisons do not chain
                return left

    def typed(self) -> Node:
        node = self.arrow()
        for first, second in (("instance", "of"), ("treat", "as"), ("castable", "as"), ("cast", "as")):
            if self.at_word(first) and self.at_word(second, offset=1):
                self.take()
                self.take()
                self.sequence_type()
                node = Node("typed", node.start, self.end_of_last(), [node], op=f"{first} {second}")
        return node

    def sequence_type(self) -> None:
        t = self.take()
        if t.kind not in ("name", "eqname"):
            raise XPathSyntaxError(f"expected a type at {t.start}")
        if self.at_sym("("):
            self.skip_balanced("(", ")")
        if self.at_sym("?", "*", "+"):
            self.take()

    def skip_balanced(self, opening: str, closing: str) -> None:
        depth = 0
        while True:
            t = self.take()
            if t.kind == "sym" and t.text == opening:
                depth += 1
            elif t.kind == "sym" and t.text == closing:
                depth -= 1
                if depth == 0:
                    return

    def arrow(self) -> Node:
        node = self.unary()
        while self.at_sym("=>"):
            self.take()
            t = self.take()
            if t.kind == "sym" and t.text == "(":
                self.i -= 1
                self.skip_balanced("(", ")")
            self.skip_balanced("(", ")")
            node = Node("opaque", node.start, self.end_of_last(), [node])
        return node

    def unary(self) -> Node:
        if self.at_sym("-", "+"):
            start = self.take().start
            operand = self.unary()
            return Node("unary", start, operand.end, [operand])
        return self.simple_map()

    def simple_map(self) -> Node:
        left = self.path()
        while self.at_sym("!"):
            self.take()
            right = self.path()
            left = Node("binary", left.start, right.end, [left, right], op="!")
        return left

    def starts_step(self) -> bool:
        t = self.peek()
        if t is None:
            return False
        if t.kind in ("name", "eqname", "str", "num", "var"):
            return True
        return t.kind == "sym" and t.text in ("@", "..", ".", "*", "(", "?")

    def path(self) -> Node:
        t = self.peek()
        if t is not None and t.kind == "sym" and t.text in ("/", "//"):
            self.take()
            if t.text == "/" and not self.starts_step():
                return Node("path", t.start, t.end, [], root="/")
            steps, seps = self.relative_steps()
            return Node("path", t.start, steps[-1].end, steps, root=t.text, seps=seps)
        steps, seps = self.relative_steps()
        if len(steps) == 1:
            return steps[0]
        return Node("path", steps[0].start, steps[-1].end, steps, root="", seps=seps)

    def relative_steps(self) -> tuple[list[Node], list[str]]:
        steps = [self.step()]
        seps: list[str] = []
        while self.at_sym("/", "//"):
            seps.append(self.take().text)
            steps.append(self.step())
        return steps, seps

    def step(self) -> Node:
        t = self.peek()
        if t is None:
            raise XPathSyntaxError("unexpected end of expression")
        nxt = self.peek(1)
        if t.kind == "sym" and t.text == "..":
            self.take()
            return self.predicates(Node("step", t.start, t.end, axis="parent", test="node()"))
        if t.kind == "sym" and t.text == "@":
            self.take()
            return self.predicates(self.node_test("attribute", t.start))
        if t.kind == "name" and t.text in _AXES and nxt is not None and nxt.kind == "sym" and nxt.text == "::":
            self.take()
            self.take()
            return self.predicates(self.node_test(t.text, t.start))
        if t.kind == "sym" and t.text == "*":
            return self.predicates(self.node_test("child", t.start))
        if t.kind in ("name", "eqname"):
            if nxt is not None and nxt.kind == "sym" and nxt.text == "(":
                if t.text in KIND_TESTS:
                    return self.predicates(self.node_test("child", t.start))
                if t.text not in _RESERVED_CALLS:
                    return self.postfix(self.call())
            if nxt is not None and nxt.kind == "sym" and nxt.text in ("{", "#"):
                return self.postfix(self.opaque_primary())
            if t.text in ("function",) and nxt is not None and nxt.text == "(":
                return self.postfix(self.opaque_primary())
            return self.predicates(self.node_test("child", t.start))
        return self.postfix(self.primary())

    def node_test(self, axis: str, start: int) -> Node:
        t = self.take()
        if t.kind == "sym" and t.text == "*":
            test = "*"
        elif t.kind in ("name", "eqname"):
            test = t.text
            if self.at_sym("(") and t.text in KIND_TESTS:
                open_at = self.peek()
                assert open_at is not None
                self.skip_balanced("(", ")")
                test = t.text + self.text[open_at.start : self.end_of_last()]
        else:
            raise XPathSyntaxError(f"expected a node test at {t.start}")
        return Node("step", start, self.end_of_last(), axis=axis, test=test)

    def predicates(self, step: Node) -> Node:
        while self.at_sym("["):
            self.take()
            pred = self.expr()
            self.expect("]")
            step.children.append(pred)
            step.end = self.end_of_last()
        return step

    def postfix(self, primary: Node) -> Node:
        node = primary
        preds: list[Node] = []
        while True:
            if self.at_sym("["):
                self.take()
                preds.append(self.expr())
                self.expect("]")
            elif self.at_sym("(") or self.at_sym("?"):  # a dynamic call or a lookup: not looked into
                if self.at_sym("("):
                    self.skip_balanced("(", ")")
                else:
                    self.take()
                    if self.at_sym("("):
                        self.skip_balanced("(", ")")
                    else:
                        self.take()
                node = Node(
                    "opaque",
                    node.start,
                    self.end_of_last(),
                    [Node("filter", node.start, node.end, [node, *preds], preds=len(preds))] if preds else [node],
                )
                preds = []
            else:
                break
        if preds:
            return Node("filter", node.start, self.end_of_last(), [node, *preds], preds=len(preds))
        return node

    def call(self) -> Node:
        name = self.take()
        self.expect("(")
        args: list[Node] = []
        if not self.at_sym(")"):
            while True:
                if self.at_sym("?") and (self.at_sym(",", offset=1) or self.at_sym(")", offset=1)):
                    raise XPathSyntaxError("partial function application")
                args.append(self.expr_single())
                if not self.at_sym(","):
                    break
                self.take()
        self.expect(")")
        return Node("call", name.start, self.end_of_last(), args, name=name.text)

    def opaque_primary(self) -> Node:
        start = self.take().start
        if self.at_sym("#"):
            self.take()
            self.take()
        elif self.at_sym("("):  # function(...) as ... { ... }
            self.skip_balanced("(", ")")
            if self.at_word("as"):
                self.take()
                self.sequence_type()
            self.skip_balanced("{", "}")
        else:
            self.skip_balanced("{", "}")
        return Node("opaque", start, self.end_of_last())

    def primary(self) -> Node:
        t = self.take()
        if t.kind == "str":
            return Node("literal", t.start, t.end)
        if t.kind == "num":
            return Node("number", t.start, t.end)
        if t.kind == "var":
            return Node("var", t.start, t.end, name=t.text[1:])
        if t.kind == "sym" and t.text == ".":
            return Node("context", t.start, t.end)
        if t.kind == "sym" and t.text == "(":
            if self.at_sym(")"):
                self.take()
                return Node("paren", t.start, self.end_of_last())
            inner = self.expr()
            self.expect(")")
            return Node("paren", t.start, self.end_of_last(), [inner])
        if t.kind == "sym" and t.text == "[":  # a square array constructor
            self.i -= 1
            self.skip_balanced("[", "]")
            return Node("opaque", t.start, self.end_of_last())
        if t.kind == "sym" and t.text == "?":  # a unary lookup
            self.take()
            return Node("opaque", t.start, self.end_of_last())
        raise XPathSyntaxError(f"unexpected {t.text!r} at {t.start}")


def parse(text: str) -> Node:
    """The tree of the XPath expression ``text`` (:class:`XPathSyntaxError` if it is none this parser reads)."""
    parser = _Parser(text)
    if not parser.toks:
        raise XPathSyntaxError("empty expression")
    try:
        node = parser.expr()
    except IndexError as exc:  # pragma: no cover - defensive: take() raises first
        raise XPathSyntaxError("unexpected end of expression") from exc
    if parser.peek() is not None:
        t = parser.peek()
        assert t is not None
        raise XPathSyntaxError(f"unexpected {t.text!r} at {t.start}")
    return node


def walk(node: Node) -> list[Node]:
    """``node`` and every node below it, parents first."""
    out = [node]
    for child in node.children:
        out.extend(walk(child))
    return out
