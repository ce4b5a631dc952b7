"""GitHub Actions workflow commands: one ``::error``, ``::warning`` or ``::notice`` line per finding, which the
runner turns into an annotation on the invoice file and line (``--format github``).

Syntax (GitHub's "Workflow commands for GitHub Actions", "Setting an error message")::

    ::error file={name},line={line},col={column},title={title}::{message}

The runner parses a line that starts with ``::``, splits the properties at ``,`` and ``=`` and the message off at
the next ``::``, then decodes ``%25``, ``%0D``, ``%0A`` in the message and also ``%3A`` and ``%2C`` in the properties
(actions/runner ``ActionCommand.TryParseV2``; the toolkit's ``escapeData``/``escapeProperty`` encode them):
:func:`escape_data` and :func:`escape_property` here. Paths are made relative to the working directory (the
checkout) when they lie below it, so the annotation lands on the file in the pull request.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Literal

from ..findings import Finding, Severity
from . import Outcome
from .words import WORDS, ignored_groups

__all__ = ["COMMANDS", "escape_data", "escape_property", "github_lines", "relative_path"]

Command = Literal["error", "warning", "notice"]
COMMANDS: dict[Severity, Command] = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """A message: ``%`` first (so that what follows stays decodable), then CR and LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value: as :func:`escape_data`, and ``:`` and ``,``, which end a value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def relative_path(name: str) -> str:
    """``name`` relative to the working directory when it lies below it, with ``/`` separators; else as given."""
    try:
        rel = os.path.relpath(name)
    except ValueError:  # another drive (Windows)
        return name.replace(os.sep, "/")
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return name.replace(os.sep, "/")
    return rel.replace(os.sep, "/")


def command(name: Command, message: str, **properties: str | int | None) -> str:
    """One workflow command line (properties that are None are left out)."""
    props = ",".join(f"{k}={escape_property(str(v))}" for k, v in properties.items() if v is not None)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def _finding(path: str, f: Finding, outcome: Outcome, lang: str) -> str:
    text = f.message.de if lang == "de" else f.message.en
    where = f" ({f.location})" if f.location else ""
    # a finding that fails the run (--fail-on warning) is an error annotation whatever its severity
    name: Command = "error" if outcome.fails_on(f) else COMMANDS[f.severity]
    return command(
        name,
        f"{text}{where} [{f.source}]",
        file=path,
        line=f.line if f.line is not None and f.line >= 1 else None,
        col=f.column if f.line is not None and f.column is not None and f.column >= 1 else None,
        title=f"{f.rule_id} ({f.severity.value})",
    )


def github_lines(outcome: Outcome, lang: str = "en") -> Iterator[str]:
    """The workflow commands for one document: its listed findings, or why it could not be validated, and what
    the selection left out (a plain log line, not an annotation)."""
    path = relative_path(outcome.name)
    if outcome.report is None:
        error = outcome.error
        assert error is not None
        meaning = error.message.de if lang == "de" else error.message.en
        yield command("error", f"{meaning} ({error.code})", file=path, title=f"{WORDS[lang]['not-validated']}")
        return
    for f in outcome.findings:
        yield _finding(path, f, outcome, lang)
    if outcome.ignored:
        yield f"{path}: {WORDS[lang]['ignored']}: {ignored_groups(outcome.ignored, lang)}"
