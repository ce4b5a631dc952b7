"""Rule counts over a run (``--statistics``): how often each rule fired and in how many files, as a table for
people or a JSON object; documents that could not be validated are counted by their error code, and what the
selection left out by pattern."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..findings import Severity
from . import Outcome, Tally
from .sarif import rule_texts
from .words import WORDS, ignored_summary, severity_label
from .words import summary as words_summary

__all__ = ["Statistics"]

_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass(slots=True)
class _Rule:
    rule_id: str
    severity: Severity
    count: int = 0
    files: int = 0
    en: str = ""
    de: str = ""


@dataclass(slots=True)
class Statistics:
    """``add`` each outcome; then :meth:`text` or :meth:`as_json`. Rules are ordered by count (most first), then
    by severity and id."""

    tally: Tally = field(default_factory=Tally)
    rules: dict[tuple[str, Severity], _Rule] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)

    def add(self, outcome: Outcome) -> None:
        self.tally.add(outcome)
        if outcome.report is None:
            assert outcome.error is not None
            self.errors[outcome.error.code] = self.errors.get(outcome.error.code, 0) + 1
            return
        seen: set[tuple[str, Severity]] = set()
        for f in outcome.findings:
            key = (f.rule_id, f.severity)
            rule = self.rules.get(key)
            if rule is None:
                en, de = rule_texts(f)
                rule = self.rules[key] = _Rule(f.rule_id, f.severity, en=en, de=de)
            rule.count += 1
            if key not in seen:
                seen.add(key)
                rule.files += 1

    def ordered(self) -> list[_Rule]:
        return sorted(self.rules.values(), key=lambda r: (-r.count, _ORDER[r.severity], r.rule_id))

    def as_json(self) -> dict[str, Any]:
        t = self.tally
        out: dict[str, Any] = {
            "files": t.files,
            "valid": t.valid,
            "invalid": t.invalid,
            "notValidated": t.not_validated,
            "rules": [
                {
                    "ruleId": r.rule_id,
                    "severity": r.severity.value,
                    "count": r.count,
                    "files": r.files,
                    "message": {"en": r.en, "de": r.de},
                }
                for r in self.ordered()
            ],
            "errors": [{"code": c, "files": n} for c, n in sorted(self.errors.items(), key=lambda e: (-e[1], e[0]))],
        }
        if t.ignored is not None:
            out["ignored"] = [i.model_dump(mode="json", by_alias=True) for i in t.ignored.items()]
        return out

    def text(self, lang: str = "en") -> str:
        """``count  files  SEVERITY  rule  message`` per rule (ruff's ``--statistics``), then the run summary."""
        words = WORDS[lang]
        rows = [
            (str(r.count), str(r.files), severity_label(r.severity, lang), r.rule_id, r.de if lang == "de" else r.en)
            for r in self.ordered()
        ]
        rows += [(str(n), str(n), words["not-validated"], code, "") for code, n in self.errors.items()]
        head = ("count", "files", "", "rule", "") if lang == "en" else ("Anzahl", "Dateien", "", "Regel", "")
        widths = [max(len(row[i]) for row in [head, *rows]) for i in range(4)]
        lines = [
            f"{a:>{widths[0]}}  {b:>{widths[1]}}  {c:<{widths[2]}}  {d:<{widths[3]}}  {e}".rstrip()
            for a, b, c, d, e in [head, *rows]
        ]
        lines.append("")
        lines.append(words_summary(self.tally, lang, timed=True))
        ignored = ignored_summary(self.tally, lang)
        if ignored is not None:
            lines.append(ignored)
        return "\n".join(lines) + "\n"
