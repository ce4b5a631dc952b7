"""GitLab Code Quality: a JSON array of issues, one per finding, for ``artifacts:reports:codequality`` (the merge
request widget and diff view show them on the invoice's lines) (``--format gitlab``).

The format is GitLab's subset of the Code Climate issue ("Code Quality", "Implement a custom tool"): each issue has
``description``, ``check_name``, ``fingerprint`` (unique per issue: GitLab shows issues with equal fingerprints as
one), ``severity`` (``info``, ``minor``, ``major``, ``critical`` or ``blocker``), ``location.path`` (relative to
the checkout) and ``location.lines.begin``; no byte order mark. An ERROR is ``critical``, a WARNING ``minor``, an
INFO ``info``, a document that could not be validated ``blocker``; a finding that fails the run through ``--fail-on
warning`` is ``major``. What the selection left out of a document is one ``info`` issue on its first line
(check ``einvoice-validate.ignored``).
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from ..findings import Finding, Severity
from . import Outcome
from .github import relative_path
from .words import WORDS, ignored_groups

__all__ = ["SEVERITIES", "gitlab_report"]

CodeQualitySeverity = Literal["info", "minor", "major", "critical", "blocker"]
SEVERITIES: dict[Severity, CodeQualitySeverity] = {
    Severity.ERROR: "critical",
    Severity.WARNING: "minor",
    Severity.INFO: "info",
}
IGNORED_CHECK = "einvoice-validate.ignored"


def _issue(
    description: str, check: str, severity: CodeQualitySeverity, path: str, line: int, *key: str
) -> dict[str, Any]:
    digest = hashlib.sha256("\0".join((path, check, *key)).encode("utf-8")).hexdigest()
    return {
        "description": description,
        "check_name": check,
        "fingerprint": digest[:32],
        "severity": severity,
        "location": {"path": path, "lines": {"begin": line}},
    }


def _severity(outcome: Outcome, f: Finding) -> CodeQualitySeverity:
    if f.severity is not Severity.ERROR and outcome.fails_on(f):
        return "major"
    return SEVERITIES[f.severity]


def gitlab_report(outcomes: list[Outcome], lang: str = "en") -> list[dict[str, Any]]:
    """The whole run as one Code Quality report (a JSON array)."""
    issues: list[dict[str, Any]] = []
    for outcome in outcomes:
        path = relative_path(outcome.name)
        if outcome.report is None:
            error = outcome.error
            assert error is not None
            meaning = error.message.de if lang == "de" else error.message.en
            issues.append(_issue(f"{meaning} ({error.code})", error.code, "blocker", path, 1))
            continue
        seen: dict[tuple[str, ...], int] = {}
        for f in outcome.findings:
            text = f.message.de if lang == "de" else f.message.en
            where = f" ({f.location})" if f.location else ""
            key = (f.location or f.pack_location or "", str(f.line), text)
            n = seen[key] = seen.get(key, 0) + 1  # the same finding twice at one place still gets two issues
            line = f.line if f.line is not None and f.line >= 1 else 1
            issues.append(
                _issue(f"{f.rule_id}: {text}{where}", f.rule_id, _severity(outcome, f), path, line, *key, str(n))
            )
        if outcome.ignored:
            text = f"{WORDS[lang]['ignored']}: {ignored_groups(outcome.ignored, lang)}"
            issues.append(_issue(text, IGNORED_CHECK, "info", path, 1))
    return issues
