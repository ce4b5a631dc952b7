"""One run's outcomes to one stream in one format: text, json and jsonl as the documents arrive; junit, sarif
and html (whole-run documents) at the end."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import TextIO

from . import Outcome

__all__ = ["FORMATS", "ReportWriter"]

FORMATS = ("text", "json", "jsonl", "junit", "sarif", "html")


class ReportWriter:
    """``add`` each outcome in input order, then ``close``.

    Args:
        fmt: one of :data:`FORMATS`.
        lang: ``en`` or ``de`` (text and html).
        timings: json/jsonl rows carry ``timingsMs``.
        quiet, errors_only: see :class:`~.text.TextReport`.
    """

    def __init__(
        self,
        fmt: str,
        out: TextIO,
        lang: str = "en",
        *,
        timings: bool = False,
        quiet: bool = False,
        errors_only: bool = False,
    ) -> None:
        from .text import TextReport, use_colour

        if fmt not in FORMATS:
            raise ValueError(f"unknown report format {fmt!r}; one of {', '.join(FORMATS)}")
        self.format = fmt
        self.out = out
        self.lang = lang
        self.timings = timings
        self._first = True
        self._kept: list[Outcome] = []
        self._text = (
            TextReport(out, lang, colour=use_colour(out), quiet=quiet, errors_only=errors_only)
            if fmt == "text"
            else None
        )

    def add(self, outcome: Outcome) -> None:
        from .rows import row

        if self._text is not None:
            self._text.add(outcome)
        elif self.format == "jsonl":
            print(json.dumps(row(outcome, timings=self.timings), ensure_ascii=False), file=self.out, flush=True)
        elif self.format == "json":  # one array, streamed element by element (the text of json.dumps(rows, indent=2))
            item = textwrap.indent(json.dumps(row(outcome, timings=self.timings), ensure_ascii=False, indent=2), "  ")
            self.out.write(("[\n" if self._first else ",\n") + item)
            self._first = False
        else:
            self._kept.append(outcome)

    def close(self) -> None:
        if self._text is not None:
            self._text.close()
        elif self.format == "json":
            self.out.write("[]\n" if self._first else "\n]\n")
        elif self.format == "junit":
            from .junit import junit_report

            self.out.write(junit_report(self._kept).decode("utf-8"))
        elif self.format == "sarif":
            from .sarif import sarif_report

            self.out.write(json.dumps(sarif_report(self._kept), ensure_ascii=False, indent=2) + "\n")
        elif self.format == "html":
            from .html import html_report

            self.out.write(html_report([_with_data(o) for o in self._kept], self.lang))


def _with_data(outcome: Outcome) -> Outcome:
    """The outcome with its document's bytes, read again from its file (the HTML page quotes the lines of its
    findings); as it is when it has them already (standard input) or has no line to quote."""
    if outcome.data is not None or outcome.report is None or not any(f.line for f in outcome.report.findings):
        return outcome
    try:
        data = Path(outcome.name).read_bytes()
    except OSError:
        return outcome
    return Outcome(outcome.name, outcome.report, outcome.error, data)
