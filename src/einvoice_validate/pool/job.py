"""What a worker is given and what it gives back: a :class:`Job` (one document), its :class:`Validated` report or
:class:`Rendered` page, and :func:`produce`, the work a pool's worker (a thread or a worker process) does on one job.
Below both the slots (:mod:`.slot`) and the worker process (:mod:`.worker`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..findings import Report

if TYPE_CHECKING:
    from ..render import Renderer

__all__ = ["Job", "Rendered", "Validated", "produce"]


@dataclass(frozen=True, slots=True)
class Validated:
    """A validated document: its report as JSON (the wire form: ``Report.model_dump_json(by_alias=True)``) and
    the sha256 of the bytes validated (lets a caller check that an answer belongs to its request)."""

    report_json: bytes
    sha256: str | None

    def report(self) -> Report:
        """The report as the model."""
        return Report.model_validate_json(self.report_json)

    def __reduce__(self) -> tuple[type[Validated], tuple[bytes, str | None]]:
        # pickled as a call (a worker's answer): the dataclass's own state functions took 11 µs to unpickle, this 4
        return (Validated, (self.report_json, self.sha256))


@dataclass(frozen=True, slots=True)
class Rendered:
    """A document shown (:class:`~einvoice_validate.render.Renderer`): the page (``content``, of type
    ``media_type``: HTML or PDF, the findings on it) and the sha256 of the bytes shown."""

    content: bytes
    media_type: str
    sha256: str | None

    def __reduce__(self) -> tuple[type[Rendered], tuple[bytes, str, str | None]]:
        return (Rendered, (self.content, self.media_type, self.sha256))  # as Validated's


@dataclass(slots=True, eq=False)
class Job:
    """One document for a slot: ``payload`` is a path (read by the worker) or the bytes; ``ticket`` is the
    runner's (a future, a batch's number); ``render``: ``(lang, fmt)`` to show the document as a page
    (:class:`Rendered`) instead of validating it (:class:`Validated`)."""

    index: int
    name: str
    payload: str | bytes
    profile: str | None = None
    ticket: Any = None
    syntax: str | None = field(default=None)
    render: tuple[str, str] | None = None


def produce(validator: Any, job: Job, renderer: Renderer | None = None) -> Validated | Rendered:
    """What a pool's worker (a thread, or a worker process) makes of ``job``: its report as JSON, or, for a
    ``job.render``, its page made by ``renderer`` (built over ``validator``)."""
    digest = hashlib.sha256(job.payload).hexdigest() if isinstance(job.payload, bytes) else None
    if job.render is None:
        report: Report = validator.validate(job.payload, profile=job.profile)
        return Validated(report.model_dump_json(by_alias=True).encode(), digest)
    assert renderer is not None, "a page needs a renderer"
    lang, fmt = job.render
    shown = renderer.show(job.payload, lang=lang, fmt=fmt, profile=job.profile)  # type: ignore[arg-type]
    return Rendered(shown.content, shown.media_type, digest)
