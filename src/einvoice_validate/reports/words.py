"""The words of the reports for people (text, HTML) in English and German.

The words ``show`` shares (:data:`WORDS`, :func:`severity_label`) live below both, in :mod:`einvoice_validate._words`;
the German of the error details (:func:`error_message`, :func:`sentence`) lives below the exception
tree, in :mod:`einvoice_validate._error_texts`. Both are named here too, with the reports' other words.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from .._error_texts import error_message, sentence
from .._words import LANGS, WORDS, severity_label
from ..findings import Severity
from ..selection import Ignored
from . import Tally

__all__ = [
    "LANGS",
    "WORDS",
    "error_message",
    "ignored_groups",
    "ignored_summary",
    "sentence",
    "severity_label",
    "summary",
    "verdict",
]

_RUN = {
    "en": "{seconds} s, {rate}/s, engine {engines}",
    "de": "{seconds} s, {rate}/s, Engine {engines}",
}
_NOTES = {"en": "{count} note(s) on the rules: {ids}", "de": "{count} Hinweis(e) zu den Regeln: {ids}"}


def verdict(valid: bool, accepted: bool | None, lang: str) -> str:
    """``valid``, ``INVALID``, with KoSIT's verdict where the profile gives one: ``INVALID, rejected``."""
    words = WORDS[lang]
    text = words["valid"] if valid else words["invalid"]
    if accepted is not None:
        text += ", " + (words["accepted"] if accepted else words["rejected"])
    return text


def summary(tally: Tally, lang: str, *, timed: bool = False, now: float | None = None) -> str:
    """The closing line: files, valid, invalid, not validated, findings by severity; ``timed`` (a run of the
    command line): the notes on the rules, the time, the rate and the engine too."""
    line = _counts(tally, lang)
    if timed:
        if tally.notes:
            ids = ", ".join(sorted({f.rule_id for f, _ in tally.notes.values()}))
            line += "; " + _NOTES[lang].format(count=len(tally.notes), ids=ids)
        seconds = max((now if now is not None else time.monotonic()) - tally.started, 1e-9)
        comma = "," if lang == "de" else "."
        line += "; " + _RUN[lang].format(
            seconds=f"{seconds:.1f}".replace(".", comma),
            rate=f"{tally.files / seconds:.1f}".replace(".", comma),
            engines=", ".join(sorted(tally.engines)) or "-",
        )
    return line


def _counts(tally: Tally, lang: str) -> str:
    return WORDS[lang]["summary"].format(
        files=tally.files,
        valid=tally.valid,
        invalid=tally.invalid,
        not_validated=tally.not_validated,
        errors=tally.findings[Severity.ERROR],
        warnings=tally.findings[Severity.WARNING],
        infos=tally.findings[Severity.INFO],
    )


def ignored_groups(items: Iterable[Ignored], lang: str) -> str:
    """``BR-DE-: BR-DE-15 ERROR x2; not selected: BR-CO-15 ERROR x1`` (per pattern, by pattern, the not-selected
    last; within a pattern in the order given)."""
    groups: dict[str | None, list[str]] = {}
    for item in sorted(items, key=lambda i: (i.pattern is None, i.pattern or "")):
        label = f"{item.rule_id} {severity_label(item.severity, lang)} x{item.count}"
        groups.setdefault(item.pattern, []).append(label)
    return "; ".join(
        f"{WORDS[lang]['not-selected'] if pattern is None else pattern}: {', '.join(labels)}"
        for pattern, labels in groups.items()
    )


def ignored_summary(tally: Tally, lang: str) -> str | None:
    """The closing line on what the selection left out over the run; None when the run has no active selection."""
    ignored = tally.ignored
    if ignored is None:
        return None
    if not ignored.total:
        return WORDS[lang]["ignored-none"]
    return WORDS[lang]["ignored-summary"].format(
        total=ignored.total, documents=ignored.documents, groups=ignored_groups(ignored.items(), lang)
    )
