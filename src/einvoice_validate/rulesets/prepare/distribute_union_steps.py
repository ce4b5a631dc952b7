"""Preparation step ``distribute-union-steps``: a union as an inner step of a match pattern, distributed for Saxon 9.9.

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

from lxml import etree

from ._xslt import _alternatives, _closing_paren, _split_top, _x


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
