"""Routing by syntax: which waiting document an idle worker process of a batch takes.

A worker process compiles the stylesheets of the syntaxes it meets (two per syntax); each syntax costs a worker
about 50 MB and 0.6 s of compilation. So the batch sniffs each document's syntax (UBL, CII, ...: the namespace of a
root a syntax declares, :meth:`~einvoice_validate.syntaxes.Syntaxes.marks`, in its first bytes:
:func:`sniff_syntax`) and, among the documents waiting in its window, gives an idle worker one of a syntax it
already has, else one of a syntax no other worker has, else (:func:`choose`) the oldest, but only once it has been
left idle :data:`HELP_AFTER_SECONDS` in all, a few times what compiling a syntax costs. On a mixed batch on two
cores each worker then compiles and holds one syntax; a small batch of one syntax starts one worker only; a long
batch of one syntax, or an uneven mix, soon has every worker busy. The sniff only steers scheduling: the worker
parses and detects each document as always. Threads over one shared validator need no routing (the validator
compiles each pack once for all of them).
"""

from __future__ import annotations

from ..syntaxes import Syntaxes, bundled

__all__ = ["HELP_AFTER_SECONDS", "Route", "choose", "sniff_syntax"]

HELP_AFTER_SECONDS = 2.0
"""A worker takes on a syntax it has not compiled once it has been left idle this long in all while documents of
that syntax waited for other workers (compiling a syntax costs about 0.6 s)."""
_SNIFF_BYTES = 8192


class Route:
    """What the router knows of a worker (or of the workers not started yet): the syntaxes it has compiled, and
    how long it has been left idle while documents of other syntaxes waited."""

    __slots__ = ("declined", "starved", "syntaxes")

    def __init__(self) -> None:
        self.syntaxes: set[str] = set()
        self.starved = 0.0  # seconds, since it last took on a new syntax
        self.declined = False  # left idle by the last dispatch

    def took(self, syntax: str | None) -> None:
        """It was given a document of ``syntax``."""
        if syntax is not None and syntax not in self.syntaxes:
            self.syntaxes.add(syntax)
            self.starved = 0.0


def sniff_syntax(payload: str | bytes, syntaxes: Syntaxes | None = None) -> str | None:
    """The syntax (``"ubl"``, ``"cii"``, ...) of ``syntaxes`` (default: the bundled ones) whose root namespace comes
    first in the first bytes of a document (a path is read), or None when it does not tell (UTF-16, an unreadable
    file, no such namespace near the start). A scheduling hint, never a verdict."""
    if isinstance(payload, str):
        try:
            with open(payload, "rb") as fh:
                head = fh.read(_SNIFF_BYTES)
        except OSError:
            return None
    else:
        head = payload[:_SNIFF_BYTES]
    marks = (syntaxes or bundled()).marks()
    found = [(at, syntax) for mark, syntax in marks if (at := head.find(mark)) >= 0]
    return min(found)[1] if found else None


def choose(have: set[str], others: set[str], waiting: list[str | None], starved: bool) -> int | None:
    """Which waiting document (by position, oldest first) an idle worker takes, or None to leave it idle.

    ``have``: the syntaxes the worker has compiled (none for a worker not started yet); ``others``: those of the
    other workers; ``starved``: it has been left idle :data:`HELP_AFTER_SECONDS` in all. A document of a syntax it
    has (or of an unknown one), else of a syntax no worker has, else, only when starved, the oldest: compiling
    another syntax costs about 0.6 s (some 60 documents), worth it when the load stays uneven, not for the last few
    documents of a batch.
    """
    for i, syntax in enumerate(waiting):
        if syntax is None or syntax in have:
            return i
    for i, syntax in enumerate(waiting):
        if syntax not in others:
            return i
    return 0 if starved else None
