"""The text report for people: per document a verdict line, then one ``file:line: SEVERITY ruleId message``
line per finding (editors and grep follow them; the values found in the document after the message, identical
findings of one rule on one element once with their count), and a closing summary; ``concise``: the path once, on
the verdict line, then ``line:column SEVERITY ruleId message`` per finding, without the location and the pack.
Colour only on a terminal, never with ``NO_COLOR`` set (https://no-color.org)."""

from __future__ import annotations

import os
from typing import TextIO

from ..findings import Finding, Severity
from . import Outcome, Tally, grouped, severity_counts, values_text
from .words import WORDS, ignored_groups, ignored_summary, severity_label, verdict
from .words import summary as words_summary

__all__ = ["TextReport", "use_colour"]

_RESET = "\x1b[0m"
_COLOURS = {
    Severity.ERROR: "\x1b[31m",  # red
    Severity.WARNING: "\x1b[33m",  # yellow
    Severity.INFO: "\x1b[36m",  # cyan
    "valid": "\x1b[32m",  # green
    "invalid": "\x1b[1;31m",  # bold red
    "not-validated": "\x1b[1;35m",  # bold magenta
    "dim": "\x1b[2m",
}


def use_colour(stream: TextIO) -> bool:
    """Colour when ``stream`` is a terminal and ``NO_COLOR`` is unset or empty."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class TextReport:
    """Writes each outcome as it arrives; :meth:`close` writes the summary.

    Args:
        quiet: nothing for documents without an ERROR or WARNING finding (the summary still counts them); a
            document with one is shown in full.
        errors_only: only ERROR findings (warnings and information are counted, not listed).
        concise: the path once per document, short finding lines (see the module docstring).
        timed: the summary says the notes on the rules, the time, the rate and the engine (a command-line run).
    """

    def __init__(
        self,
        out: TextIO,
        lang: str = "en",
        *,
        colour: bool = False,
        quiet: bool = False,
        errors_only: bool = False,
        concise: bool = False,
        timed: bool = False,
    ) -> None:
        self.out = out
        self.timed = timed
        self.lang = lang
        self.words = WORDS[lang]
        self.colour = colour
        self.quiet = quiet
        self.errors_only = errors_only
        self.concise = concise
        self.tally = Tally()
        self.printed = False

    def _paint(self, key: object, text: str) -> str:
        code = _COLOURS.get(key) if self.colour else None  # type: ignore[call-overload]
        return f"{code}{text}{_RESET}" if code else text

    def add(self, outcome: Outcome) -> None:
        self.tally.add(outcome)
        words, name, report = self.words, outcome.name, outcome.report
        if report is None:
            error = outcome.error
            assert error is not None
            meaning = error.message.de if self.lang == "de" else error.message.en  # the specific cause first
            label = self._paint("not-validated", words["not-validated"])
            print(f"{name}: {label}: {meaning} ({error.code})", file=self.out)
            self.printed = True
            return
        if self.quiet and report.valid and not outcome.fails and not _flagged(outcome.findings):
            return  # -q hides a document only when it has neither an ERROR nor a WARNING (issue 27)
        counts = severity_counts(outcome.findings)
        said = verdict(report.valid, report.accepted, self.lang)
        head, _, tail = said.partition(", ")
        said = self._paint("valid" if report.valid else "invalid", head) + (f", {tail}" if tail else "")
        tally = words["counts"].format(counts[Severity.ERROR], counts[Severity.WARNING], counts[Severity.INFO])
        unwrapped = f" ({words['sbdh']})" if report.envelope == "sbdh" else ""
        if report.pdf is not None:
            unwrapped = f" ({words['pdf'].format(report.pdf.attachment)})"
        ignored = outcome.ignored
        if ignored:
            tally += ", " + words["ignored-count"].format(sum(i.count for i in ignored))
        print(f"{name}: {said} [{report.profile}]{unwrapped} {tally}", file=self.out)
        self.printed = True
        listed = [f for f in outcome.findings if not (self.errors_only and f.severity is not Severity.ERROR)]
        if self.concise:
            width = max((len(_position(f)) for f in listed), default=0)
            for f in listed:
                print(self.concise_line(f, width), file=self.out)
        else:
            for f, count in grouped(listed):
                print(self.finding_line(name, f, count), file=self.out)
        if ignored and not self.concise:
            print(f"{name}: {words['ignored']}: {ignored_groups(ignored, self.lang)}", file=self.out)

    def concise_line(self, f: Finding, width: int = 0) -> str:
        """``  16:5: ERROR BR-DE-15 message`` (the position padded to ``width``; ``-`` for none)."""
        text = f.message.de if self.lang == "de" else f.message.en
        severity = self._paint(f.severity, severity_label(f.severity, self.lang))
        return f"  {_position(f) + ':':<{width + 1}} {severity} {f.rule_id} {text}"

    def finding_line(self, name: str, f: Finding, count: int = 1) -> str:
        where = f"{name}:{f.line}" if f.line is not None else name
        if f.line is not None and f.column is not None:
            where += f":{f.column}"
        text = f.message.de if self.lang == "de" else f.message.en
        if f.values:
            text += f" ({self.words['values']}: {values_text(f)})"
        if count > 1:
            text += f" ({self.words['times'].format(count)})"
        if f.location:
            place = f" ({f.location})"
        elif f.pack_location:
            place = " (" + self.words["not-a-path"].format(f.pack_location) + ")"
        else:
            place = ""
        severity = self._paint(f.severity, severity_label(f.severity, self.lang))
        return f"{where}: {severity} {f.rule_id} {text}{self._paint('dim', place + ' [' + f.source + ']')}"

    def close(self) -> None:
        summary = words_summary(self.tally, self.lang, timed=self.timed)
        print(("\n" if self.printed else "") + summary, file=self.out)
        ignored = ignored_summary(self.tally, self.lang)
        if ignored is not None:
            print(ignored, file=self.out)


def _position(f: Finding) -> str:
    if f.line is None:
        return "-"
    return f"{f.line}:{f.column}" if f.column is not None else str(f.line)


def _flagged(findings: tuple[Finding, ...]) -> bool:
    return any(f.severity in (Severity.ERROR, Severity.WARNING) for f in findings)
