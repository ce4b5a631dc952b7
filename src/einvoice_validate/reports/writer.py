"""One run's outcomes to one stream in one format: text, json, jsonl and github as the documents arrive; junit,
sarif, html and gitlab (whole-run documents) at the end."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import EInvoiceValidateError, RulesetError
from ..validator import Validator
from . import Outcome, Tally
from .words import ignored_summary, summary

if TYPE_CHECKING:
    from ..options import EngineName
    from .html import InvoiceView

__all__ = ["FORMATS", "ReportWriter", "invoice_views"]

FORMATS = ("text", "json", "jsonl", "junit", "sarif", "html", "github", "gitlab")


class ReportWriter:
    """``add`` each outcome in input order, then ``close``.

    Args:
        fmt: one of :data:`FORMATS`.
        lang: ``en`` or ``de`` (text and html).
        timings: json/jsonl rows carry ``timingsMs``.
        quiet, errors_only, concise, timed: see :class:`~.text.TextReport`.
        rules_home, engine: html: where the viewer pack is and which engine runs it (the invoice view, ``show``).
        invoice_view: html: the invoice views to use (shared by the writers of a run); default: made here.
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
        concise: bool = False,
        timed: bool = False,
        rules_home: Path | None = None,
        engine: EngineName | None = None,
        invoice_view: InvoiceView | None = None,
    ) -> None:
        # Each format's module is imported when that format is written: the CLI's start loads none of them.
        from .text import TextReport, use_colour

        if fmt not in FORMATS:
            raise ValueError(f"unknown report format {fmt!r}; one of {', '.join(FORMATS)}")
        self.format = fmt
        self.out = out
        self.lang = lang
        self.timings = timings
        self._rules_home, self._engine, self._view = rules_home, engine, invoice_view
        self._first = True
        self._kept: list[Outcome] = []
        self._tally = Tally()
        self._text = (
            TextReport(
                out, lang, colour=use_colour(out), quiet=quiet, errors_only=errors_only, concise=concise, timed=timed
            )
            if fmt == "text"
            else None
        )

    def add(self, outcome: Outcome) -> None:
        from .rows import row  # per format (see __init__)

        if self._text is not None:
            self._text.add(outcome)
        elif self.format == "jsonl":
            print(json.dumps(row(outcome, timings=self.timings), ensure_ascii=False), file=self.out, flush=True)
        elif self.format == "github":
            from .github import github_lines  # per format (see __init__)

            self._tally.add(outcome)
            for line in github_lines(outcome, self.lang):
                print(line, file=self.out, flush=True)
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
        elif self.format == "github":  # plain log lines, not annotations
            print(summary(self._tally, self.lang), file=self.out)
            ignored = ignored_summary(self._tally, self.lang)
            if ignored is not None:
                print(ignored, file=self.out)
        elif self.format == "junit":
            from .junit import junit_report  # per format (see __init__)

            self.out.write(junit_report(self._kept).decode("utf-8"))
        elif self.format == "sarif":
            from .sarif import sarif_report  # per format (see __init__)

            self.out.write(json.dumps(sarif_report(self._kept), ensure_ascii=False, indent=2) + "\n")
        elif self.format == "html":
            from .html import html_report  # per format (see __init__)

            view = self._view or invoice_views(self._rules_home, self._engine, self.lang)
            self.out.write(html_report([_with_data(o) for o in self._kept], self.lang, view))
        elif self.format == "gitlab":
            from .gitlab import gitlab_report  # per format (see __init__)

            self.out.write(json.dumps(gitlab_report(self._kept, self.lang), ensure_ascii=False, indent=2) + "\n")


def invoice_views(rules_home: Path | None, engine: EngineName | None, lang: str) -> InvoiceView:
    """Each document's ``show`` page; None for all when the viewer pack is not installed (the report says nothing
    of the invoice then), None for one the viewer cannot show."""
    state: dict[str, object] = {}

    def view(outcome: Outcome) -> str | None:
        from ..render import Renderer  # the viewer (35 ms), for html reports only

        if outcome.report is None or outcome.data is None or "unavailable" in state:
            return None
        try:
            renderer = state.get("renderer")
            if not isinstance(renderer, Renderer):
                renderer = state["renderer"] = Renderer(Validator(rules_home=rules_home, engine=engine))
            document = renderer.validator.load(outcome.data)
            return renderer.page(document, outcome.report, lang).decode("utf-8")
        except RulesetError:
            state["unavailable"] = True
            return None
        except EInvoiceValidateError:
            return None

    return view


def _with_data(outcome: Outcome) -> Outcome:
    """The outcome with its document's bytes, read again from its file (the HTML page quotes the lines of its
    findings and shows the invoice); as it is when it has them already (standard input) or has no report."""
    if outcome.data is not None or outcome.report is None:
        return outcome
    try:
        data = Path(outcome.name).read_bytes()
    except OSError:
        return outcome
    return Outcome(outcome.name, outcome.report, outcome.error, data, outcome.selection)
