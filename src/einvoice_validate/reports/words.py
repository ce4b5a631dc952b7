"""The words of the reports for people (text, HTML) in English and German.

The German of the error details (:func:`detail_in`, :func:`error_message`, :func:`sentence`) lives below the
exception tree, in :mod:`einvoice_validate._error_texts`; they are named here too, with the reports' other words.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._error_texts import detail_in, error_message, sentence
from ..findings import Severity
from ..selection import Ignored
from . import Tally

__all__ = [
    "LANGS",
    "WORDS",
    "detail_in",
    "error_message",
    "ignored_groups",
    "ignored_summary",
    "sentence",
    "severity_label",
    "summary",
]

LANGS = ("en", "de")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "not-validated": "NOT VALIDATED",
        "valid": "valid",
        "invalid": "INVALID",
        "accepted": "accepted",
        "rejected": "rejected",
        "counts": "{} error(s), {} warning(s), {} info",
        "line": "line",
        "sbdh": "invoice taken out of its Peppol SBDH envelope",
        "pdf": "invoice {} taken out of its PDF",
        "pdf-details": "relationship {}, XMP profile {}, PDF/A {} declared (not checked)",
        "not-a-path": "the pack gives {!r} as the location, which is not a path",
        "summary": "{files} file(s): {valid} valid, {invalid} invalid, {not_validated} not validated; "
        "findings: {errors} error(s), {warnings} warning(s), {infos} info",
        "title": "E-invoice validation report",
        "profile": "Profile",
        "packs": "Rule packs",
        "file": "File",
        "verdict": "Verdict",
        "rule": "Rule",
        "where": "Where",
        "message": "Message",
        "terms": "Business terms",
        "source": "Pack",
        "no-findings": "No findings.",
        "documents": "Documents",
        "error": "Error",
        "invoice-view": "The invoice as rendered, with the findings at their fields",
        "values": "Values found",
        "times": "{} times",
        "profile-first": "Which rules ran",
        "ignored-count": "{} ignored",
        "ignored-summary": "ignored by the selection: {total} finding(s) in {documents} file(s): {groups}",
        "ignored-none": "ignored by the selection: none",
        "ignored": "Ignored by the selection",
        "not-selected": "not selected",
    },
    "de": {
        "not-validated": "NICHT GEPRÜFT",
        "valid": "gültig",
        "invalid": "UNGÜLTIG",
        "accepted": "angenommen",
        "rejected": "abgelehnt",
        "counts": "{} Fehler, {} Warnung(en), {} Hinweis(e)",
        "line": "Zeile",
        "sbdh": "Rechnung aus ihrem Peppol-SBDH-Umschlag entnommen",
        "pdf": "Rechnung {} aus ihrem PDF entnommen",
        "pdf-details": "Beziehung {}, XMP-Profil {}, PDF/A {} erklärt (nicht geprüft)",
        "not-a-path": "das Regelwerk gibt {!r} als Fundstelle an, das ist kein Pfad",
        "summary": "{files} Datei(en): {valid} gültig, {invalid} ungültig, {not_validated} nicht geprüft; "
        "Befunde: {errors} Fehler, {warnings} Warnung(en), {infos} Hinweis(e)",
        "title": "Prüfbericht E-Rechnung",
        "profile": "Profil",
        "packs": "Regelwerke",
        "file": "Datei",
        "verdict": "Ergebnis",
        "rule": "Regel",
        "where": "Fundstelle",
        "message": "Meldung",
        "terms": "Geschäftsbegriffe",
        "source": "Regelwerk",
        "no-findings": "Keine Befunde.",
        "documents": "Dokumente",
        "error": "Fehler",
        "invoice-view": "Die Rechnung, wie sie dargestellt wird, mit den Befunden an ihren Feldern",
        "values": "Gefundene Werte",
        "times": "{}-mal",
        "profile-first": "Welche Regeln geprüft wurden",
        "ignored-count": "{} ausgeblendet",
        "ignored-summary": "durch die Auswahl ausgeblendet: {total} Befund(e) in {documents} Datei(en): {groups}",
        "ignored-none": "durch die Auswahl ausgeblendet: keine",
        "ignored": "Durch die Auswahl ausgeblendet",
        "not-selected": "nicht ausgewählt",
    },
}

_SEVERITY = {
    "en": {Severity.ERROR: "ERROR", Severity.WARNING: "WARNING", Severity.INFO: "INFO"},
    "de": {Severity.ERROR: "FEHLER", Severity.WARNING: "WARNUNG", Severity.INFO: "HINWEIS"},
}
_SEVERITY_PLURAL = {
    "en": {Severity.ERROR: "Errors", Severity.WARNING: "Warnings", Severity.INFO: "Information"},
    "de": {Severity.ERROR: "Fehler", Severity.WARNING: "Warnungen", Severity.INFO: "Hinweise"},
}


def severity_label(severity: Severity, lang: str, plural: bool = False) -> str:
    return (_SEVERITY_PLURAL if plural else _SEVERITY)[lang][severity]


def summary(tally: Tally, lang: str) -> str:
    """The closing line: files, valid, invalid, not validated, findings by severity."""
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
