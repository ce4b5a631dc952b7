"""Where a run's reports go (``validate -o``): standard output (one format), one file (one format, the whole run)
or a folder (one report per input and format, as the KoSIT validator writes them).

In a folder each input ``NAME.xml`` gets ``NAME-report.EXT`` (another suffix stays: ``x.pdf`` gives
``x.pdf-report.EXT``; standard input is ``stdin``), below the folder in the input's own folder relative to the
common folder of all inputs (inputs from one folder: side by side). :data:`EXTENSIONS` gives each format's ending.
A report never replaces an input, nor any other existing file without ``--force`` (a folder of reports is marked
as such by :data:`FOLDER_MARK`, so that a run may replace the reports an earlier run wrote there):
:func:`plan_output` refuses such a run before anything is validated.

``show -o`` (:func:`view_target`) writes one file, or into a folder ``NAME-view.html`` (``.pdf``), named as the
reports are; never over its input either.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from . import Outcome, Tally
from .writer import FORMATS, ReportWriter, invoice_views

__all__ = ["EXTENSIONS", "OutputError", "OutputPlan", "RunOutput", "plan_output", "report_base", "view_target"]

EXTENSIONS = {
    "text": ".txt",
    "json": ".json",
    "jsonl": ".jsonl",
    "junit": ".junit.xml",
    "sarif": ".sarif",
    "html": ".html",
    "github": ".github.txt",
    "gitlab": ".gitlab.json",
}
STDIN = "-"
FOLDER_MARK = ".einvoice-validate-output"
"""Written into a folder of per-input reports: its ``NAME-report.EXT`` files are reports a run wrote, which the next
run into the same folder may replace (any other existing file is replaced only with ``--force``)."""


class OutputError(ValueError):
    """The output cannot be written as asked (one line for the CLI, exit status 2)."""


@dataclass(frozen=True, slots=True)
class OutputPlan:
    """``folder`` is True when ``path`` is a folder of per-input reports; ``path`` None: standard output."""

    formats: tuple[str, ...]
    path: Path | None
    folder: bool
    bases: tuple[str, ...] = ()
    """Per input, its reports' path below the folder without ``-report.EXT`` (folder only)."""

    def report_path(self, index: int, fmt: str) -> Path:
        assert self.path is not None and self.folder
        return self.path / f"{self.bases[index]}-report{EXTENSIONS[fmt]}"


def report_base(name: str) -> str:
    """``invoice.xml`` → ``invoice`` (KoSIT: only an ``.xml`` suffix is taken off); ``-`` → ``stdin``."""
    if name == STDIN:
        return "stdin"
    base = os.path.basename(name)
    return base[:-4] if base.lower().endswith(".xml") and len(base) > 4 else base


def _bases(inputs: Sequence[str]) -> tuple[str, ...]:
    files = [os.path.abspath(n) for n in inputs if n != STDIN]
    common = os.path.commonpath([os.path.dirname(f) for f in files]) if files else ""
    bases = []
    for name in inputs:
        if name == STDIN:
            bases.append(report_base(name))
            continue
        folder = os.path.relpath(os.path.dirname(os.path.abspath(name)), common)
        rel = report_base(name) if folder == os.curdir else os.path.join(folder, report_base(name))
        bases.append(rel.replace(os.sep, "/"))
    return tuple(bases)


def plan_output(formats: Sequence[str], given: str | None, inputs: Sequence[str], *, force: bool = False) -> OutputPlan:
    """Check the request before the run: the formats, whether ``given`` (``-o``) is a file or a folder (a folder
    when it is one, ends with ``/`` or several formats are asked for), that no report would replace an input, and
    that none would replace any other existing file unless ``force`` (``--force``): a report only ever replaces a
    file this run wrote (a device such as ``/dev/null`` or a pipe is written to, never refused)."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise OutputError(f"unknown format {unknown[0]!r}; one of {', '.join(FORMATS)}")
    formats = tuple(dict.fromkeys(formats))
    if given is None:
        if len(formats) > 1:
            raise OutputError(f"several formats ({', '.join(formats)}) need -o FOLDER: one report per input and format")
        return OutputPlan(formats, None, False)
    output = Path(given)
    taken = {_key(n) for n in inputs if n != STDIN and os.path.exists(n)}
    if not (len(formats) > 1 or output.is_dir() or given.endswith(("/", os.sep))):
        if output.exists() and _key(str(output)) in taken:
            raise OutputError(f"-o {output} is one of the inputs; it is never overwritten")
        if output.is_file() and not force:  # a device (/dev/null) or a pipe holds no document
            raise OutputError(_exists(output))
        return OutputPlan(formats, output, False)
    if output.exists() and not output.is_dir():
        raise OutputError(f"-o {output}: several formats (or a trailing /) need a folder, and this is a file")
    plan = OutputPlan(formats, output, True, _bases(inputs))
    for i in range(len(inputs)):
        for fmt in formats:
            target = plan.report_path(i, fmt)
            if target.exists() and _key(str(target)) in taken:
                raise OutputError(f"the report {target} would replace an input; choose another -o folder")
            if target.is_file() and not force and not (output / FOLDER_MARK).is_file():
                raise OutputError(_exists(target))
    return plan


def _exists(path: Path) -> str:
    return f"{path} exists and this run did not write it; it is never overwritten (--force replaces it)"


def view_target(given: str, name: str, fmt: str, *, force: bool = False) -> Path:
    """Where ``show -o`` writes the invoice view of the input ``name`` in ``fmt`` (``html``, ``pdf``): the file
    given, or in a folder (one that exists, or a path ending in ``/``) ``NAME-view.EXT``; refused when that is the
    input itself, or another existing file unless ``force``."""
    target = Path(given)
    if target.is_dir() or given.endswith(("/", os.sep)):
        target = target / f"{report_base(name)}-view.{fmt}"
    if name != STDIN and target.exists() and os.path.exists(name) and _key(str(target)) == _key(name):
        raise OutputError(f"-o {target} is the input; it is never overwritten")
    if target.is_file() and not force:
        raise OutputError(_exists(target))
    return target


def _key(path: str) -> tuple[int, int] | str:
    try:
        st = os.stat(path)
    except OSError:
        return os.path.abspath(path)
    return (st.st_dev, st.st_ino)


class RunOutput:
    """Sends each outcome to the planned destination(s); :attr:`tally` counts the run (for the summary line the
    CLI prints on stderr when the reports go to files). ``writer_options`` are passed to every
    :class:`ReportWriter`. Use it as a context manager (the file of ``-o FILE`` is closed on leaving); ``stdout``
    None: nothing to standard output (``--statistics`` prints there instead)."""

    def __init__(self, plan: OutputPlan, stdout: TextIO | None, **writer_options: Any) -> None:
        self.plan = plan
        self.tally = Tally()
        self._options = writer_options
        self._file: TextIO | None = None
        self._writers: list[ReportWriter] = []
        if plan.folder:
            if "html" in plan.formats:  # one viewer for the run, not one per input
                self._options["invoice_view"] = invoice_views(
                    writer_options.get("rules_home"), writer_options.get("engine"), writer_options.get("lang", "en")
                )
            assert plan.path is not None
            plan.path.mkdir(parents=True, exist_ok=True)
            (plan.path / FOLDER_MARK).write_text(
                "The *-report.* files of this folder were written by einvoice-validate validate -o.\n", encoding="utf-8"
            )
        elif plan.path is not None:
            self._file = plan.path.open("w", encoding="utf-8", newline="")
            self._writers = [ReportWriter(plan.formats[0], self._file, **self._options)]
        elif stdout is not None:
            self._writers = [ReportWriter(plan.formats[0], stdout, **self._options)]

    def add(self, index: int, outcome: Outcome) -> None:
        """``index``: the input's position (its report names in a folder)."""
        self.tally.add(outcome)
        for writer in self._writers:
            writer.add(outcome)
        if self.plan.folder:
            for fmt in self.plan.formats:
                target = self.plan.report_path(index, fmt)
                target.parent.mkdir(parents=True, exist_ok=True)
                with target.open("w", encoding="utf-8", newline="") as fh:
                    writer = ReportWriter(fmt, fh, **{**self._options, "timed": False})  # one document's report
                    writer.add(outcome)
                    writer.close()

    def close(self) -> None:
        """Finish the reports (the closing summary, the whole-run formats)."""
        for writer in self._writers:
            writer.close()

    def __enter__(self) -> RunOutput:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._file is not None:
            self._file.close()
