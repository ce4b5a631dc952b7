"""Preparation step ``guard-absence-tests``: one shared test ahead of each run of "shall not be used" asserts.

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
"""

from __future__ import annotations

import re

from lxml import etree

from ._xslt import _x

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


def _union(paths: list[list[str]], merge: bool = False) -> str:
    """One expression selecting something exactly when one of ``paths`` does, each shared leading step
    evaluated once: ``a/(b, c/(d, @f), e)`` for ``a/b``, ``a/c/d``, ``a/c/@f``, ``a/e`` (a path that is a prefix
    of another one makes the longer one redundant). A sequence of the levels' branches, not one union (``|``) of
    whole paths: ``exists()`` needs no document order and no duplicates removed, and Saxon compiles CEN UBL's
    guards in a third of the time (v1). ``merge``: the element steps that end a path at one level become one union
    step, ``a/((b|e), c/(d, @f))``, so that Saxon tests each child once against their names; measured and not
    made the step's (issue 41): warm, saxon-java, the business cases, it took 0.7 % and 2.9 % (two runs) off CEN
    UBL, 1.0 % off CEN CII, 2.7 % off CIUS-RO: within the runs' noise (a second compilation of the same stylesheet
    differed by +2.7 %, -1.1 %, +3.5 %; ``benchmarks/prepare_steps.py --engine saxon-java --thread --variants
    "guards with union steps"``)."""
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
        parts: list[str] = []
        names: list[str] = []  # merge: the element steps that end a path here, one union step where the first was
        for step, below in level.items():
            if below is None and merge and not step.startswith("@"):
                if not names:
                    parts.append("")  # its place
                names += [name.strip() for name in step.strip("()").split("|")]
            elif below is None:
                parts.append(step)
            else:
                inner = expression(below)
                parts.append(f"{step}/{inner}" if "," not in inner else f"{step}/({inner})")
        if names:
            parts[parts.index("")] = names[0] if len(names) == 1 else f"({'|'.join(names)})"
        return ", ".join(parts)

    return expression(trie)


def _guard_absence_tests(root: etree._Element, merge: bool = False) -> None:
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
                guard = etree.Element(_x("if"), test=f"exists(({_union([steps for _, steps in run], merge)}))")
                parent.insert(parent.index(run[0][0]), guard)
                guard.tail = run[-1][0].tail
                for element, _ in run:
                    guard.append(element)
                run[-1][0].tail = None
            run = []
