"""The words every page for people shares, in English and German: the reports (:mod:`.reports`) and ``show``
(:mod:`.render.page`) both take them from here, below both."""

from __future__ import annotations

from .findings import Severity

__all__ = ["LANGS", "WORDS", "severity_label"]

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
