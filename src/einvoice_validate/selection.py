"""Rule selection: which findings a report lists and which fail a run (``--select``, ``--ignore``, ``--fail-on``).

A :class:`Selection` never changes what runs: every rule of the profile is checked and the :class:`Report` keeps
its official verdict (``valid``, ``accepted``) over all of them. It decides what a report *lists* and whether the
document *fails* (the CLI's exit status), and says what it left out::

    from einvoice_validate import Selection, validate

    selection = Selection(ignore=("BR-DE-TMP-", "UBL-CR-"), fail_on="warning")
    selected = selection.apply(validate("invoice.xml"))
    selected.findings          # the findings the selection keeps, in the report's order
    selected.ignored           # what it left out: (rule id, severity, count, the pattern that did it)
    selected.fails             # an ERROR (or, with fail_on="warning", a WARNING) among the kept findings
    selected.report.valid      # the official verdict, unchanged

Patterns (case-insensitive), as ruff matches its rule codes but at the ids' own boundaries:

- an exact rule id: ``BR-DE-15``, ``cvc-complex-type.2.4.a``;
- a family: a pattern that ends at a ``-``, ``.`` or ``_`` of the id (``BR-DE-``, ``UBL-CR-``, ``cvc-``; also
  ``BR-DE``, which takes ``BR-DE-15`` but not ``BR-DEX-01``, and ``BR-DE-1``, which takes ``BR-DE-1`` but not
  ``BR-DE-15``; ``BR-FR-01`` takes the French rule's ids per term, ``BR-FR-01_BT-1`` and ``BR-FR-01_BT-25``, as
  ``BR-RO-020`` takes ``BR-RO-020_1`` and ``DT-CIUS-PT-020`` takes ``DT-CIUS-PT-020_10.1``);
- a raw prefix with a trailing ``*`` (``BR-DE-1*`` takes ``BR-DE-1`` and ``BR-DE-10`` to ``BR-DE-19``); ``*`` or
  ``ALL`` alone match every id.

An empty ``select`` selects every rule. When a ``select`` and an ``ignore`` pattern both match an id, the more
specific (longer) one wins, and ``ignore`` on a tie (``select=("BR-",), ignore=("BR-DE-",)`` drops BR-DE-15;
``select=("BR-DE-15",), ignore=("BR-DE-",)`` keeps it).

One finding is listed whatever ``select`` says: ``rules.version-not-installed`` (:data:`ALWAYS_SELECTED`), which
says that the report ran on other rules than those in force; only an ``ignore`` pattern that takes it leaves it out
(and the report says so, as for any other).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .findings import Finding, Report, Severity

__all__ = [
    "ALWAYS_SELECTED",
    "FAIL_ON",
    "MAX_PATTERNS",
    "Ignored",
    "IgnoredTally",
    "Selected",
    "Selection",
    "pattern_matches",
]

FailOn = Literal["error", "warning"]
FAIL_ON: tuple[FailOn, ...] = ("error", "warning")
MAX_PATTERNS = 1000
"""At most this many ``select`` and as many ``ignore`` patterns (each at most 200 characters)."""

ALWAYS_SELECTED = frozenset({"rules.version-not-installed"})
"""Rule ids listed even when no ``select`` pattern takes them (a verdict never hides that it ran on other rules than
those in force); an ``ignore`` pattern still leaves them out."""

_BOUNDARY = "-._"
_PATTERN = re.compile(r"[A-Za-z0-9_.:\-]+\*?|\*")
_FAILING: dict[FailOn, frozenset[Severity]] = {
    "error": frozenset({Severity.ERROR}),
    "warning": frozenset({Severity.ERROR, Severity.WARNING}),
}


def pattern_matches(pattern: str, rule_id: str) -> bool:
    """Whether ``pattern`` (an id, a family or a ``*`` prefix, see the module docstring) takes ``rule_id``."""
    p, rid = pattern.casefold(), rule_id.casefold()
    if p in ("*", "all"):
        return True
    if p.endswith("*"):
        return rid.startswith(p[:-1])
    if rid == p:
        return True
    if not rid.startswith(p):
        return False
    return p[-1] in _BOUNDARY or rid[len(p)] in _BOUNDARY


def _specificity(pattern: str) -> int:
    return 0 if pattern.casefold() in ("*", "all") else len(pattern.rstrip("*"))


class Ignored(BaseModel):
    """Findings of one rule and severity that a selection left out of one report (or a run)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    rule_id: str = Field(alias="ruleId")
    severity: Severity
    count: int = Field(ge=1)
    pattern: str | None = Field(
        description="The ignore pattern that left them out; None when no select pattern takes the rule"
    )


class Selection(BaseModel):
    """Which findings to list and which fail (see the module docstring). Frozen; the default selects everything
    and fails on errors, which is exactly the official verdict."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    select: tuple[str, ...] = Field(default=(), description="Rule ids or families to list (empty: every rule)")
    ignore: tuple[str, ...] = Field(default=(), description="Rule ids or families to leave out")
    fail_on: FailOn = Field(default="error", description="The lowest severity among the listed findings that fails")

    @field_validator("select", "ignore", mode="before")
    @classmethod
    def _patterns(cls, value: object) -> object:
        if isinstance(value, str):  # one pattern or a comma-separated list, as on the command line
            value = tuple(p.strip() for p in value.split(",") if p.strip())
        if isinstance(value, list | tuple):
            if len(value) > MAX_PATTERNS:
                raise ValueError(f"at most {MAX_PATTERNS} patterns")
            for p in value:
                if not isinstance(p, str) or len(p) > 200 or not _PATTERN.fullmatch(p):
                    raise ValueError(
                        f"{p!r} is not a rule id or family (letters, digits, '-', '.', '_', ':', a trailing '*')"
                    )
            return tuple(value)
        return value

    @property
    def active(self) -> bool:
        """Whether the selection can leave a finding out (a ``select`` or an ``ignore`` pattern is set)."""
        return bool(self.select or self.ignore)

    def keeps(self, rule_id: str) -> bool:
        return self.left_out_by(rule_id) is False

    def left_out_by(self, rule_id: str) -> str | Literal[False] | None:
        """False when the rule is kept; else the ignore pattern that leaves it out, or None when no select pattern
        takes it."""
        chosen = [_specificity(p) for p in self.select if pattern_matches(p, rule_id)] if self.select else [0]
        if not chosen and rule_id in ALWAYS_SELECTED:
            chosen = [0]
        if not chosen:
            return None
        dropped = [p for p in self.ignore if pattern_matches(p, rule_id)]
        if dropped:
            best = max(dropped, key=_specificity)
            if _specificity(best) >= max(chosen):
                return best
        return False

    def fails_on(self, severity: Severity) -> bool:
        return severity in _FAILING[self.fail_on]

    def apply(self, report: Report) -> Selected:
        """The report's findings as this selection lists them, and what it left out."""
        kept: list[Finding] = []
        counts: dict[tuple[str, Severity, str | None], int] = {}
        for f in report.findings:
            by = self.left_out_by(f.rule_id)
            if by is False:
                kept.append(f)
            else:
                key = (f.rule_id, f.severity, by)
                counts[key] = counts.get(key, 0) + 1
        ignored = tuple(Ignored(rule_id=rid, severity=sev, count=n, pattern=by) for (rid, sev, by), n in counts.items())
        return Selected(report, tuple(kept), ignored, any(self.fails_on(f.severity) for f in kept), self)


@dataclass(frozen=True, slots=True)
class Selected:
    """A report seen through a :class:`Selection`: ``report`` is untouched (its verdict is the official one)."""

    report: Report
    findings: tuple[Finding, ...]
    """The findings the selection lists, in the report's order."""
    ignored: tuple[Ignored, ...]
    """What it left out, per rule, severity and pattern, in order of first appearance."""
    fails: bool
    """A listed finding at or above ``fail_on``: the CLI's exit status 1."""
    selection: Selection


@dataclass(slots=True)
class IgnoredTally:
    """What a selection left out over a whole run: per pattern, per rule and severity, with the documents."""

    counts: dict[tuple[str | None, str, Severity], int] = field(default_factory=dict)
    documents: int = 0

    def add(self, ignored: Iterable[Ignored]) -> None:
        seen = False
        for item in ignored:
            key = (item.pattern, item.rule_id, item.severity)
            self.counts[key] = self.counts.get(key, 0) + item.count
            seen = True
        self.documents += seen

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def items(self) -> list[Ignored]:
        """One entry per pattern, rule and severity, by pattern (the not-selected last), then by count."""
        rows = [Ignored(rule_id=r, severity=s, count=n, pattern=p) for (p, r, s), n in self.counts.items()]
        return sorted(rows, key=lambda i: (i.pattern is None, i.pattern or "", -i.count, i.rule_id))

    def by_pattern(self) -> dict[str | None, list[Ignored]]:
        groups: dict[str | None, list[Ignored]] = {}
        for item in self.items():
            groups.setdefault(item.pattern, []).append(item)
        return groups
