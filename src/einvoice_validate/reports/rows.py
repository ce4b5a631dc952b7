"""The machine rows of ``--format jsonl`` and ``--format json``: exactly the same keys, spelled so, and nothing
that changes from run to run (stage timings only when asked for). ``findings`` are those the run's selection lists;
``ignored`` (only when a selection is active) says what it left out."""

from __future__ import annotations

from typing import Any

from ..wire import error_object
from . import Outcome

__all__ = ["ROW_KEYS", "row"]

ROW_KEYS = ("file", "profile", "profileReason", "envelope", "valid", "accepted", "engine", "findings", "error")
"""The jsonl contract (``engine``: the XSLT engine that ran, null when the document could not be validated);
``pdf`` follows for a PDF only, ``ignored`` only with an active selection (``--select``, ``--ignore``),
``timingsMs`` only with ``--timings``."""


def row(outcome: Outcome, *, timings: bool = False) -> dict[str, Any]:
    report, error = outcome.report, outcome.error
    out: dict[str, Any] = {
        "file": outcome.name,
        "profile": report.profile if report else None,
        "profileReason": report.profile_reason if report else None,
        "envelope": report.envelope if report else None,
        "valid": report.valid if report else False,
        "accepted": report.accepted if report else None,
        "engine": report.engine if report else None,
        "findings": [f.model_dump(mode="json", by_alias=True) for f in outcome.findings],
        "error": error_object(error.code, error.detail, error.message) if error else None,
    }
    if report is not None and report.pdf is not None:  # only for a PDF: what its envelope said
        out["pdf"] = report.pdf.model_dump(mode="json", by_alias=True)
    if outcome.ignored is not None:
        out["ignored"] = [i.model_dump(mode="json", by_alias=True) for i in outcome.ignored]
    if timings:
        out["timingsMs"] = dict(report.timings_ms) if report else {}
    return out
