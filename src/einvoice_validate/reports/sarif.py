"""SARIF 2.1.0 for code-scanning tools: one run, the rules that fired with their texts, one result per finding
with the file, line and column; documents that could not be validated as tool execution notifications; what the
selection left out as a tool configuration notification (and, structured, in the run's ``properties.ignored``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._version import __version__
from ..findings import Finding, Severity
from ..messages import PLACEHOLDER, catalogue
from . import Outcome, Tally
from .words import ignored_summary

__all__ = ["SARIF_SCHEMA", "rule_texts", "sarif_report"]

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _uri(name: str) -> str:
    path = Path(name)
    return path.as_uri() if path.is_absolute() else path.as_posix()


def _location(name: str, f: Finding | None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(name)}}
    if f is not None and f.line is not None and f.line >= 1:
        region: dict[str, Any] = {"startLine": f.line}
        if f.column is not None and f.column >= 1:
            region["startColumn"] = f.column
        physical["region"] = region
    location: dict[str, Any] = {"physicalLocation": physical}
    if f is not None and f.location:
        location["logicalLocations"] = [{"fullyQualifiedName": f.location, "kind": "element"}]
    return location


def rule_texts(f: Finding) -> tuple[str, str]:
    """The rule's text in English and German without this finding's values (``'…'`` where the pack inserts one),
    from the catalogue entry the finding's text came from; else the finding's own text."""
    for variant in catalogue().variants(f.rule_id):
        official = {
            "en": f.message.en,
            "de": f.message.de,
            "ro": f.message.ro,
            "fr": f.message.fr,
            "hr": f.message.hr,
        }.get(variant.lang)
        if official is None or variant.match(official) is None:
            continue
        en, de = variant.text("en"), variant.text("de")
        if en and de:
            return PLACEHOLDER.sub("…", en), PLACEHOLDER.sub("…", de)
    return f.message.en, f.message.de


def sarif_report(outcomes: list[Outcome]) -> dict[str, Any]:
    """The whole run as a SARIF log (a JSON object)."""
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    tally = Tally()
    for outcome in outcomes:
        tally.add(outcome)
        if outcome.report is None:
            error = outcome.error
            assert error is not None
            notifications.append(
                {
                    "level": "error",
                    "descriptor": {"id": error.code},
                    "message": {"text": f"{outcome.name}: {error.message.en} ({error.code})"},
                    "properties": {"de": error.message.de},
                    "locations": [_location(outcome.name, None)],
                }
            )
            continue
        for f in outcome.findings:
            if f.rule_id not in index:
                index[f.rule_id] = len(rules)
                en, de = rule_texts(f)
                rules.append(
                    {
                        "id": f.rule_id,
                        "shortDescription": {"text": en},
                        "fullDescription": {"text": en},
                        "defaultConfiguration": {"level": _LEVEL[f.severity]},
                        "properties": {"de": de, "terms": list(f.terms), "source": f.source},
                    }
                )
            results.append(
                {
                    "ruleId": f.rule_id,
                    "ruleIndex": index[f.rule_id],
                    "level": _LEVEL[f.severity],
                    "message": {"text": f.message.en},
                    "locations": [_location(outcome.name, f)],
                    "properties": {
                        "de": f.message.de,
                        "flag": f.flag,
                        "stage": f.stage,
                        "source": f.source,
                        "terms": list(f.terms),
                        "packLocation": f.pack_location,
                        "profile": outcome.report.profile,
                    },
                }
            )
    invocation: dict[str, Any] = {"executionSuccessful": not notifications, "toolExecutionNotifications": notifications}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "einvoice-validate",
                "version": __version__,
                "rules": rules,
            }
        },
        "invocations": [invocation],
        "results": results,
    }
    ignored = ignored_summary(tally, "en")
    if ignored is not None and tally.ignored is not None:
        invocation["toolConfigurationNotifications"] = [
            {"level": "note", "descriptor": {"id": "selection.ignored"}, "message": {"text": ignored}}
        ]
        run["properties"] = {"ignored": [i.model_dump(mode="json", by_alias=True) for i in tally.ignored.items()]}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
