"""Batch validation: many documents, on all cores, results streamed in input order with bounded memory.

``iter_validate`` yields one :class:`BatchResult` per source, in the order of the sources, as soon as the
result and every earlier one are ready. With ``workers=1`` it runs in this process with one
:class:`~einvoice_validate.Validator`; otherwise it runs a small pool of worker *processes* (threads sharing one
Saxon processor do not scale), each keeping one ``Validator`` for its life, so every pack is compiled once per
worker, on the first document that needs it. :class:`BatchValidator` keeps its workers between batches.

Bounded memory: the sources are consumed lazily and never more than ``window`` (8 x workers) documents are
ahead of the last result handed out, so 100,000 files cost no more memory than a few dozen. Paths are read by the
workers; bytes (and file objects, read here) wait in the parent only up to ``_WAITING_BYTES`` in all, beyond one
document per worker.

Routing by syntax: a worker compiles the stylesheets of the syntaxes it meets (two per syntax); each syntax
costs a worker about 50 MB and 0.6 s of compilation. So the parent sniffs each document's syntax (UBL or CII,
from its first bytes: :func:`sniff_syntax`) and, among the documents waiting in the window, gives an idle worker
one of a syntax it already has, else one of a syntax no other worker has, else (:func:`_choose`) the oldest, but
only once it has been left idle ``HELP_AFTER_SECONDS`` in all, a few times what compiling a syntax costs. On a
mixed batch on two cores each worker then compiles and holds one syntax; a small batch of one syntax starts one
worker only; a long batch of one syntax, or an uneven mix, soon has every worker busy. The sniff only steers
scheduling: the worker parses and detects each document as always.

Robustness: a worker holds one document at a time. A worker that dies (a crash inside Saxon, the OOM killer,
``os._exit``) costs only that document, which gets an error result with code ``server.error`` (reason
``worker-died``); a new worker
takes its place and the batch goes on. A broken installation (``ruleset.*``) is not a per-document error: it
raises :class:`~einvoice_validate.errors.RulesetError` from the iterator, as :meth:`Validator.validate` would.

Workers are fresh interpreters (never a ``fork`` of a process that may have loaded Saxon), and the caller's
``__main__`` is not re-imported in them, so no ``if __name__ == "__main__"`` guard is needed. Reports travel back
as JSON (cheaper than pickling the models, on both sides). The worker process and its protocol are in
:mod:`einvoice_validate.pool.worker`, shared with the service pool (:class:`einvoice_validate.pool.Pool`).

Test-only hook: when the environment variable ``EINVOICE_VALIDATE_TEST_CRASH_ON`` is set while a pool starts,
its workers call ``os._exit(70)`` on a document whose source name (or its base name) equals the value. It is
read once in the parent and handed to the workers; it exists so the tests can kill a worker deterministically.
"""

from __future__ import annotations

import multiprocessing.connection
import os
import time
from collections.abc import Generator, Iterable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from .errors import EInvoiceValidateError, RulesetError, message_for_error
from .findings import Message, Report
from .limits import DEFAULT_LIMITS, Limits
from .parse import CII_NS, UBL_CN_NS, UBL_INVOICE_NS, Source, read_source
from .pool.worker import (
    TEST_CRASH_ENV,
    Reply,
    Task,
    WorkerConfig,
    WorkerProcess,
    error_from_reply,
    recv,
    send,
    worker_env,
)

__all__ = ["BatchError", "BatchResult", "BatchValidator", "iter_validate", "validate_many"]

WORKER_CRASHED = "server.error"
"""The code of a document whose worker process died (reason ``worker-died``)."""
_WINDOW_PER_WORKER = 8
_WAITING_BYTES = 64 * 1024 * 1024
_SNIFF_BYTES = 8192
_SYNTAX_MARKS = ((UBL_INVOICE_NS.encode(), "ubl"), (UBL_CN_NS.encode(), "ubl"), (CII_NS.encode(), "cii"))
HELP_AFTER_SECONDS = 2.0
"""A worker takes on a syntax it has not compiled once it has been left idle this long in all while documents of
that syntax waited for other workers (compiling a syntax costs about 0.6 s)."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BatchError(_Model):
    """Why one document of a batch could not be validated: the stable ``code`` (one of the API's, see
    :mod:`einvoice_validate.errors`; ``server.error`` with reason ``worker-died`` when the worker process
    validating it died), a ``detail`` for humans and the finer ``reason`` (or None).
    """

    code: str
    detail: str
    reason: str | None = None

    @property
    def message(self) -> Message:
        """The specific cause in English and German, one sentence each (as ``EInvoiceValidateError.message``)."""
        return message_for_error(self.code, self.detail)

    def to_dict(self) -> dict[str, object]:
        """The wire form of the CLI's ``json``/``jsonl`` output (``{"code", "message", "detail"}``)."""
        from .wire import error_object

        return error_object(self.code, self.detail)


class BatchResult(_Model):
    """The outcome for one source of a batch: exactly one of ``report`` and ``error`` is set.

    ``index`` is the position in the input; ``source`` the path as given (``str``), a file object's name, or
    ``"#<index>"`` for bytes.
    """

    index: int
    source: str
    report: Report | None
    error: BatchError | None

    @property
    def valid(self) -> bool:
        """True when the document was validated and has no ERROR finding."""
        return self.report is not None and self.report.valid


def iter_validate(
    sources: Iterable[Source],
    *,
    workers: int | None = None,
    profile: str | None = None,
    rules_home: Path | None = None,
    xsd_gate: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    engine: str | None = None,
    rules_date: date | None = None,
) -> Generator[BatchResult, None, None]:
    """Validate ``sources`` (paths, bytes or binary file objects), yielding one result per source in input order.

    Args:
        sources: consumed lazily; a generator of 100,000 paths is fine.
        workers: processes to use (default: ``os.cpu_count()``); ``1`` validates in this process.
        profile, rules_home, xsd_gate, limits, engine, rules_date: as for :class:`~einvoice_validate.Validator`
            (each worker builds its own, with its own engine: a saxon-java worker runs its own JVM).

    Raises (when called, or from the iterator):
        ProfileError: ``profile`` names no profile.
        RulesetError: the installation cannot validate (missing or corrupted pack): the batch stops.
    Per-document problems (unreadable, not XML, unsupported, a crashed worker) are results with ``error`` set.
    Stopping early (``close()`` on the generator, or dropping it) stops the workers.
    """
    batch = BatchValidator(
        workers=workers,
        profile=profile,
        rules_home=rules_home,
        xsd_gate=xsd_gate,
        limits=limits,
        engine=engine,
        rules_date=rules_date,
    )
    return _once(batch, sources)


def _once(batch: BatchValidator, sources: Iterable[Source]) -> Generator[BatchResult, None, None]:
    try:
        yield from batch.iter_validate(sources)
    finally:
        batch.close()


def validate_many(
    sources: Iterable[Source],
    *,
    workers: int | None = None,
    profile: str | None = None,
    rules_home: Path | None = None,
    xsd_gate: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    engine: str | None = None,
    rules_date: date | None = None,
) -> list[BatchResult]:
    """:func:`iter_validate`, collected into a list (in input order). For large batches iterate instead: the
    list holds every report."""
    return list(
        iter_validate(
            sources,
            workers=workers,
            profile=profile,
            rules_home=rules_home,
            xsd_gate=xsd_gate,
            limits=limits,
            engine=engine,
            rules_date=rules_date,
        )
    )


class BatchValidator:
    """A reusable batch validator: its worker processes (and their compiled packs) live until :meth:`close`.

    :func:`iter_validate` builds one per call; keep one instead when batches come one after another (a service,
    a benchmark's warm-up), so the workers start and compile their packs once. One iteration at a time.
    Usable as a context manager. Arguments as for :func:`iter_validate`; raises ``ProfileError`` for an unknown
    profile and ``ValueError`` for ``workers < 1``. Workers are started on demand, never more than needed.
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        profile: str | None = None,
        rules_home: Path | None = None,
        xsd_gate: bool = False,
        limits: Limits = DEFAULT_LIMITS,
        engine: str | None = None,
        rules_date: date | None = None,
    ) -> None:
        count = (os.cpu_count() or 1) if workers is None else workers
        if count < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.workers = count
        self._busy = False
        self._pool: list[_Worker] = []
        self._validator: Any = None
        if count == 1:
            from .validator import Validator

            self._validator = Validator(
                profile, rules_home=rules_home, limits=limits, xsd_gate=xsd_gate, engine=engine, rules_date=rules_date
            )
            return
        _check_profile(profile)
        from .schematron.engines import engine_name

        engine = engine_name(engine)  # checked here; resolved once, so every worker runs the same engine
        from .rulesets.registry import default_home

        # Resolved now, in this process: the workers get an explicit home.
        home = Path(rules_home) if rules_home is not None else default_home()
        options: dict[str, Any] = {
            "profile": profile,
            "rules_home": home,
            "limits": limits,
            "xsd_gate": xsd_gate,
            "engine": engine,
        }
        if rules_date is not None:
            options["rules_date"] = rules_date
        self._config = WorkerConfig(options, crash_on=os.environ.get(TEST_CRASH_ENV) or None)
        self._limits = limits
        self._env = worker_env()

    def __enter__(self) -> BatchValidator:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers (each finishes its current document, or is killed after a grace period)."""
        pool, self._pool = self._pool, []
        for w in pool:
            w.stop()
        for w in pool:
            w.close()

    def validate_many(self, sources: Iterable[Source]) -> list[BatchResult]:
        """:meth:`iter_validate`, collected into a list."""
        return list(self.iter_validate(sources))

    def iter_validate(self, sources: Iterable[Source]) -> Generator[BatchResult, None, None]:
        """One result per source, in input order, streamed (see :func:`iter_validate`)."""
        if self._busy:
            raise RuntimeError("this BatchValidator is already iterating; use one per concurrent batch")
        self._busy = True
        try:
            if self._validator is not None:
                yield from _iter_local(self._validator, sources)
            else:
                yield from self._iter_pool(sources)
        finally:
            self._busy = False

    def _iter_pool(self, sources: Iterable[Source]) -> Iterator[BatchResult]:
        pool, workers = self._pool, self.workers
        window = _WINDOW_PER_WORKER * workers
        source_iter = iter(sources)
        exhausted = False
        next_index = 0  # the next source to take
        next_out = 0  # the next result to hand out
        ready: dict[int, BatchResult | BaseException] = {}
        waiting: list[tuple[Task, str | None]] = []  # taken, not yet given to a worker: (task, syntax), oldest first
        unstarted = _Slot()  # stands for the workers not started yet
        last = time.monotonic()
        crashes_in_a_row = 0
        try:
            while True:
                # 1. Hand out what is ready, in order.
                while next_out in ready:
                    item = ready.pop(next_out)
                    next_out += 1
                    if isinstance(item, BaseException):
                        raise item
                    yield item
                # 2. Take sources into the window; give idle workers (started as needed) a document each.
                while not exhausted and next_index - next_out < window and _room(waiting, workers):
                    try:
                        source = next(source_iter)
                    except StopIteration:
                        exhausted = True
                        break
                    index = next_index
                    next_index += 1
                    name = _name_of(source, index)
                    try:
                        payload = _payload(source, self._limits)
                    except EInvoiceValidateError as exc:
                        ready[index] = _error_result(index, name, exc.code, exc.detail, exc.reason)
                        continue
                    waiting.append(((index, name, payload, None), sniff_syntax(payload)))
                now = time.monotonic()
                timeout = self._dispatch(waiting, unstarted, now - last)
                last = now
                busy = {w.stdout: w for w in pool if w.task is not None}
                if not busy:
                    if exhausted and next_out == next_index:
                        return
                    continue  # results made in the parent (step 2) are handed out next
                # 3. Wait for replies (end-of-file: the worker died), or until a worker left idle should look again.
                for fd in multiprocessing.connection.wait(list(busy), timeout):
                    assert isinstance(fd, int)
                    w = busy[fd]
                    assert w.task is not None
                    index, name = w.task
                    w.task = None
                    try:
                        reply: Reply = recv(fd)
                    except (EOFError, OSError):
                        pool.remove(w)
                        code = w.close()
                        crashes_in_a_row += 1
                        if crashes_in_a_row > max(8, 2 * workers):
                            raise _PoolBroken(
                                f"{crashes_in_a_row} worker processes died in a row (last exit code {code})"
                            ) from None
                        ready[index] = _error_result(
                            index,
                            name,
                            WORKER_CRASHED,
                            f"the worker process validating {name} died (exit code {code})",
                            "worker-died",
                        )
                    else:
                        crashes_in_a_row = 0
                        ready[index] = _from_reply(index, name, reply)
        finally:
            # Abandoned (closed early, or an exception): workers still holding a document are not waited for.
            for w in [w for w in pool if w.task is not None]:
                pool.remove(w)
                w.process.kill()
                w.close()

    def _dispatch(self, waiting: list[tuple[Task, str | None]], unstarted: _Slot, elapsed: float) -> float | None:
        """Give idle workers, started as needed, a waiting document each (see "Routing by syntax" and
        :func:`_choose`). ``elapsed``: seconds since the last call, counted as idle time for every worker left idle
        then. Returns the seconds until a worker left idle now may help with another syntax, or None."""
        pool = self._pool
        for slot in (*pool, unstarted):
            if slot.declined:
                slot.starved += elapsed
                slot.declined = False
        slots: list[_Slot] = [w for w in pool if w.task is None]
        slots += [unstarted] * (self.workers - len(pool))
        for slot in slots:
            if not waiting:
                break
            others = {k for w in pool if w is not slot for k in w.syntaxes}
            choice = _choose(slot.syntaxes, others, [k for _, k in waiting], slot.starved >= HELP_AFTER_SECONDS)
            if choice is None:
                slot.declined = True
                continue
            task, syntax = waiting.pop(choice)
            if isinstance(slot, _Worker):
                worker = slot
            else:
                worker = _Worker(self._config, self._env)
                pool.append(worker)
                unstarted.starved = 0.0
            worker = _assign(pool, worker, self._config, self._env, task)
            if syntax is not None and syntax not in worker.syntaxes:
                worker.syntaxes.add(syntax)
                worker.starved = 0.0
        declined = [s.starved for s in (*pool, unstarted) if s.declined]
        return max(0.0, HELP_AFTER_SECONDS - max(declined)) if declined else None


# --- shared helpers -----------------------------------------------------------------------------------------


def _room(waiting: list[tuple[Task, str | None]], workers: int) -> bool:
    """Whether another document may wait: one per worker always, more while their bytes stay under the cap."""
    return len(waiting) < workers or sum(len(t[2]) for t, _ in waiting if isinstance(t[2], bytes)) < _WAITING_BYTES


def sniff_syntax(payload: str | bytes) -> str | None:
    """``"ubl"`` or ``"cii"`` from the first bytes of a document (a path is read), or None when it does not tell
    (UTF-16, an unreadable file, neither namespace near the start). A scheduling hint, never a verdict."""
    if isinstance(payload, str):
        try:
            with open(payload, "rb") as fh:
                head = fh.read(_SNIFF_BYTES)
        except OSError:
            return None
    else:
        head = payload[:_SNIFF_BYTES]
    found = [(at, syntax) for mark, syntax in _SYNTAX_MARKS if (at := head.find(mark)) >= 0]
    return min(found)[1] if found else None


def _choose(have: set[str], others: set[str], waiting: list[str | None], starved: bool) -> int | None:
    """Which waiting document (by position, oldest first) an idle worker takes, or None to leave it idle.

    ``have``: the syntaxes the worker has compiled (none for a worker not started yet); ``others``: those of the
    other workers; ``starved``: it has been left idle ``HELP_AFTER_SECONDS`` in all. A document of a syntax it has
    (or of an unknown one), else of a syntax no worker has, else, only when starved, the oldest: compiling another
    syntax costs about 0.6 s (some 60 documents), worth it when the load stays uneven, not for the last few
    documents of a batch.
    """
    for i, syntax in enumerate(waiting):
        if syntax is None or syntax in have:
            return i
    for i, syntax in enumerate(waiting):
        if syntax not in others:
            return i
    return 0 if starved else None


def _check_profile(profile: str | None) -> None:
    if profile is not None:
        from .profiles import find_profile

        find_profile(profile)


def _name_of(source: object, index: int) -> str:
    if isinstance(source, str | os.PathLike):
        return str(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else f"#{index}"


def _error_result(index: int, name: str, code: str, detail: str, reason: str | None = None) -> BatchResult:
    error = BatchError(code=code, detail=detail, reason=reason)
    return BatchResult(index=index, source=name, report=None, error=error)


def _iter_local(validator: Any, sources: Iterable[Source]) -> Iterator[BatchResult]:
    for index, source in enumerate(sources):
        name = _name_of(source, index)
        try:
            report = validator.validate(source)
        except RulesetError:
            raise
        except EInvoiceValidateError as exc:
            yield _error_result(index, name, exc.code, exc.detail, exc.reason)
        else:
            yield BatchResult(index=index, source=name, report=report, error=None)


# --- the pool (parent side) ---------------------------------------------------------------------------------


class _Slot:
    """What the router knows of a worker (or of the workers not started yet): the syntaxes it has compiled, and
    how long it has been left idle while documents of other syntaxes waited."""

    __slots__ = ("declined", "starved", "syntaxes")

    def __init__(self) -> None:
        self.syntaxes: set[str] = set()
        self.starved = 0.0  # seconds, since it last took on a new syntax
        self.declined = False  # left idle by the last dispatch


class _Worker(_Slot, WorkerProcess):
    """A worker process with what the router knows of it and the document it holds."""

    def __init__(self, config: WorkerConfig, env: dict[str, str]) -> None:
        _Slot.__init__(self)
        WorkerProcess.__init__(self, config, env)
        self.task: tuple[int, str] | None = None  # (index, name) of the document it holds


class _PoolBroken(RuntimeError):
    """Workers keep dying: the environment, not a document, is at fault."""


def _assign(pool: list[_Worker], worker: _Worker, config: WorkerConfig, env: dict[str, str], task: Task) -> _Worker:
    """Send ``task`` to ``worker`` and return the worker that took it: an idle worker found dead is replaced first
    (it held no document)."""
    for _ in range(3):
        if worker.alive():
            try:
                send(worker.stdin, task)
            except OSError:
                pass
            else:
                worker.task = (task[0], task[1])
                return worker
        pool.remove(worker)
        worker.close()
        worker = _Worker(config, env)
        pool.append(worker)
    raise _PoolBroken("a freshly started worker could not take a document")


def _payload(source: Source, limits: Limits) -> str | bytes:
    """What a worker gets: a path (the worker reads it) or bytes (file objects are read here, once)."""
    if isinstance(source, str | os.PathLike):
        path = os.fspath(source)
        return path if isinstance(path, str) else os.fsdecode(path)
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    data, _ = read_source(source, limits)
    return data


def _from_reply(index: int, name: str, reply: Reply) -> BatchResult | BaseException:
    _, status, body = reply
    if status == "ok":
        return BatchResult(index=index, source=name, report=Report.model_validate_json(body[0]), error=None)
    if status == "error":
        exc = error_from_reply(body)
        if isinstance(exc, RulesetError):
            return exc
        return _error_result(index, name, exc.code, exc.detail, exc.reason)
    return RuntimeError(f"a worker failed on {name}:\n{body}")
