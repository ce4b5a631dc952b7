"""Reports for people and pipelines: one renderer per format over the same outcomes (a front end's concern).

Each document of a run is an :class:`Outcome` (its name, its :class:`~einvoice_validate.findings.Report` or why it
could not be validated). The renderers: :mod:`.text` (a terminal, grep and editors: ``file:line: SEVERITY ruleId
message``), :mod:`.rows` (the ``json``/``jsonl`` rows), :mod:`.junit` (CI systems), :mod:`.sarif` (code scanning,
SARIF 2.1.0), :mod:`.html` (one self-contained page), :mod:`.github` (GitHub Actions workflow commands) and
:mod:`.gitlab` (GitLab Code Quality); :mod:`.writer` picks one for a stream, :mod:`.output` sends a run to standard
output, a file or a folder (one report per input), :mod:`.statistics` counts the rules over a run, :mod:`.words`
holds the English and German. :class:`Tally` is the closing summary they share.

A renderer lists :attr:`Outcome.findings`: the report's findings as the run's
:class:`~einvoice_validate.selection.Selection` keeps them (all of them without one), and says what the selection
left out (:attr:`Outcome.ignored`); the verdict (``valid``, ``accepted``) stays the report's official one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from ..findings import Finding, Message, Report, Severity
from ..selection import Ignored, IgnoredTally, Selected, Selection

__all__ = ["RUN_NOTES", "DocumentError", "Outcome", "Tally", "grouped", "severity_counts", "values_text"]

RUN_NOTES = frozenset({"rules.version-not-installed"})
"""Findings about the rules, not the invoice (a version in force that is not installed): a run says each once (on
stderr and in its summary) instead of on every report, and they never fail it. As an ERROR (a strict caller's
``version_not_installed``) such a finding is the document's like any other."""


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
    when the renderer should quote it (HTML snippets), else None; ``selection`` is the run's rule selection (None:
    every finding listed, ERRORs fail), ``selected`` the report as it sees it."""

    name: str
    report: Report | None
    error: DocumentError | None
    data: bytes | None = None
    selection: Selection | None = None
    selected: Selected | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.selection is not None and self.report is not None:
            object.__setattr__(self, "selected", self.selection.apply(self.report))

    @property
    def listed(self) -> tuple[Finding, ...]:
        """The findings the selection keeps, else all of the report's (the run's notes among them)."""
        if self.selected is not None:
            return self.selected.findings
        return self.report.findings if self.report is not None else ()

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The findings to list: those the selection keeps, else all of the report's, less the run's notes."""
        return tuple(f for f in self.listed if not _is_note(f))

    @property
    def notes(self) -> tuple[Finding, ...]:
        """The notes about the rules this document met (:data:`RUN_NOTES`), as the selection keeps them."""
        return tuple(f for f in self.listed if _is_note(f))

    @property
    def ignored(self) -> tuple[Ignored, ...] | None:
        """What the selection left out of this document; None when the run has no active selection."""
        if self.selection is None or not self.selection.active:
            return None
        return self.selected.ignored if self.selected is not None else ()

    @property
    def fails(self) -> bool:
        """Whether the document fails the run: on its listed findings, or valid but rejected (``accepted`` false
        without an ERROR: a near-miss specification id of a family with a verdict) while the WARNING that says why
        is listed (ignoring it accepts the near miss); a document not validated is not counted here."""
        report = self.report
        rejected = (
            report is not None
            and report.valid
            and report.accepted is False
            and any(f.severity is Severity.WARNING for f in self.findings)
        )
        return rejected or any(self.fails_on(f) for f in self.findings)

    def fails_on(self, finding: Finding) -> bool:
        """Whether ``finding`` fails the run (an ERROR; with ``--fail-on warning`` a WARNING too)."""
        if self.selection is not None:
            return self.selection.fails_on(finding.severity)
        return finding.severity is Severity.ERROR


def _is_note(f: Finding) -> bool:
    return f.rule_id in RUN_NOTES and f.severity is not Severity.ERROR


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
    """The closing summary: documents valid, invalid, not validated, findings listed by severity, and what the
    selection left out (``ignored`` is None when the run has no active selection)."""

    files: int = 0
    valid: int = 0
    invalid: int = 0
    not_validated: int = 0
    findings: dict[Severity, int] = field(default_factory=lambda: dict.fromkeys(Severity, 0))
    ignored: IgnoredTally | None = None
    notes: dict[str, tuple[Finding, int]] = field(default_factory=dict)
    """The run's notes about the rules (:data:`RUN_NOTES`) by their English text, each with the documents it
    concerned."""
    engines: set[str] = field(default_factory=set)
    """The XSLT engines that ran."""
    started: float = field(default_factory=time.monotonic)

    def add(self, outcome: Outcome) -> None:
        self.files += 1
        for note in outcome.notes:
            seen = self.notes.get(note.message.en)
            self.notes[note.message.en] = (note, seen[1] + 1 if seen else 1)
        if outcome.report is not None and outcome.report.engine:
            self.engines.add(outcome.report.engine)
        if outcome.ignored is not None:
            if self.ignored is None:
                self.ignored = IgnoredTally()
            self.ignored.add(outcome.ignored)
        if outcome.report is None:
            self.not_validated += 1
            return
        if outcome.report.valid:
            self.valid += 1
        else:
            self.invalid += 1
        for severity, n in severity_counts(outcome.findings).items():
            self.findings[severity] += n
