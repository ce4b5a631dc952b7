"""Reports for people and pipelines: one renderer per format over the same outcomes (a front end's concern).

Each document of a run is an :class:`Outcome` (its name, its :class:`~einvoice_validate.findings.Report` or why it
could not be validated). The renderers: :mod:`.text` (a terminal, grep and editors: ``file:line: SEVERITY ruleId
message``), :mod:`.rows` (the ``json``/``jsonl`` rows), :mod:`.junit` (CI systems), :mod:`.sarif` (code scanning,
SARIF 2.1.0) and :mod:`.html` (one self-contained page); :mod:`.writer` picks one for the CLI, :mod:`.words` holds
the English and German. :class:`Tally` is the closing summary they share.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..findings import Finding, Message, Report, Severity

__all__ = ["DocumentError", "Outcome", "Tally", "grouped", "severity_counts", "values_text"]


class DocumentError(Protocol):
    """Why a document could not be validated (``BatchError`` and ``EInvoiceValidateError`` both fit)."""

    @property
    def code(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def message(self) -> Message: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """One document of a run: exactly one of ``report`` and ``error`` is set. ``data`` is the document's text
    when the renderer should quote it (HTML snippets), else None."""

    name: str
    report: Report | None
    error: DocumentError | None
    data: bytes | None = None


def severity_counts(findings: tuple[Finding, ...] | list[Finding]) -> dict[Severity, int]:
    counts = dict.fromkeys(Severity, 0)
    for f in findings:
        counts[f.severity] += 1
    return counts


def values_text(f: Finding) -> str:
    """A finding's values found in the document, as people read them: ``BT-112 = 994.18, BT-109 = 949.18``."""
    return ", ".join(f"{v.term} = {v.value}" for v in f.values)


def grouped(findings: tuple[Finding, ...] | list[Finding]) -> list[tuple[Finding, int]]:
    """Identical findings of one rule on one element (same severity, location and text; another pack's copy of
    the rule counts as the same) as one, with how many there were, in the order of their first occurrence."""
    groups: dict[tuple[object, ...], list[Finding]] = {}
    for f in findings:
        key = (f.rule_id, f.severity, f.location, f.pack_location, f.line, f.message.en)
        groups.setdefault(key, []).append(f)
    return [(group[0], len(group)) for group in groups.values()]


@dataclass(slots=True)
class Tally:
    """The closing summary: documents valid, invalid, not validated, and findings by severity."""

    files: int = 0
    valid: int = 0
    invalid: int = 0
    not_validated: int = 0
    findings: dict[Severity, int] = field(default_factory=lambda: dict.fromkeys(Severity, 0))

    def add(self, outcome: Outcome) -> None:
        self.files += 1
        if outcome.report is None:
            self.not_validated += 1
            return
        if outcome.report.valid:
            self.valid += 1
        else:
            self.invalid += 1
        for severity, n in severity_counts(outcome.report.findings).items():
            self.findings[severity] += n
