"""Batch validation: many documents, on all cores, results streamed in input order with bounded memory.

``iter_validate`` yields one :class:`BatchResult` per source, in the order of the sources, as soon as the
result and every earlier one are ready. :class:`BatchValidator` keeps its workers between batches.

**Engine and mode.** Unless the caller names an engine (argument or ``$EINVOICE_VALIDATE_ENGINE``), the work
chooses it (:func:`~einvoice_validate.schematron.engines.engine_for`): a batch of fewer than
``STEADY_FROM_DOCUMENTS`` (100) documents runs ``saxonc`` (the fastest start), a longer one (or one of unknown
length) ``saxon-java`` when it is installed. On ``saxon-java`` the batch runs ``workers`` *threads* over one
shared :class:`~einvoice_validate.Validator` in this process (one JVM, one copy of the compiled packs, no
pickling; JPype releases the GIL inside Java); on ``saxonc`` ``workers`` worker *processes* (threads over one
SaxonC processor do not scale), each keeping one ``Validator`` for its life and compiling each pack on the first
document that needs it, with documents routed by syntax (:mod:`.routing`); ``workers=1`` on ``saxonc`` validates
in this thread. ``mode="processes"`` (or ``"threads"``) chooses explicitly.

Bounded memory: the sources are consumed lazily and never more than ``window`` (8 x workers) documents are
ahead of the last result handed out, so 100,000 files cost no more memory than a few dozen. Worker processes read
their paths themselves; in thread mode paths are read here, in the caller's thread (see ``_payload``); bytes (and
file objects, read here) wait only up to ``_WAITING_BYTES`` in all, beyond one document per worker.

Robustness (:mod:`.slot`): a worker holds one document at a time. An unexpected exception on one document (a
bug) is that document's error result (``server.error``, reason ``internal``, the exception in ``detail``). A
document that takes longer than ``document_timeout`` (120 s) gets an error result ``server.error`` (reason
``timeout``) at the limit: its worker process is killed, or its thread stopped (``Thread.stop``) and replaced. A
worker process that dies (a crash inside Saxon, the OOM killer, ``os._exit``) costs only that document
(``server.error``, reason ``worker-died``); a new worker takes its place and the batch goes on. In thread mode a
crash of the JVM ends this process. A broken installation (``ruleset.*``) is not a per-document error: it raises
:class:`~einvoice_validate.errors.RulesetError` from the iterator, as :meth:`Validator.validate` would.

Worker processes are fresh interpreters (never a ``fork`` of a process that may have loaded Saxon), and the
caller's ``__main__`` is not re-imported in them, so no ``if __name__ == "__main__"`` guard is needed. Reports
travel back as JSON (cheaper than pickling the models, on both sides).

Test-only hook: when the environment variable ``EINVOICE_VALIDATE_TEST_CRASH_ON`` is set while a batch starts,
its worker processes call ``os._exit(70)`` on a document whose source name (or its base name) equals the value.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Generator, Iterable, Iterator, Sized
from typing import Any

from pydantic import BaseModel, ConfigDict
from typing_extensions import Unpack

from ..errors import Detail, EInvoiceValidateError, RulesetError, WorkerDied
from ..findings import Message, Report
from ..options import OptionArgs, Options, build_options
from ..parse import Source, read_source
from ..rulesets.user import load_user_syntaxes
from ..schematron.engines import DEFAULT_ENGINE, engine_for, engine_named
from ..validator import Validator
from . import routing
from .heap import HeapSettler
from .job import Job, Rendered, Validated
from .routing import Route, choose, sniff_syntax
from .slot import Outcome, ProcessSlot, Slot, ThreadSlot, Watchdog, validate_here
from .worker import TEST_CRASH_ENV, WorkerConfig, worker_env

__all__ = ["BatchError", "BatchResult", "BatchValidator", "iter_validate", "validate_many"]

WORKER_CRASHED = "server.error"
"""The code of a document whose worker died (reason ``worker-died``) or overran its time limit (``timeout``)."""
_WINDOW_PER_WORKER = 8
_THREAD_DEPTH = 2
"""Documents given to one thread slot at a time in thread mode: the one it validates and the next, so it never
waits for the caller's thread (which hands out results and reads the next sources) between two documents. With
one, each document began only after a round trip through the caller's thread: 10 % of the rate of one thread
(issue 21, ``benchmarks/batch_overhead.py``)."""
_WAITING_BYTES = 64 * 1024 * 1024


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BatchError(_Model):
    """Why one document of a batch could not be validated: the stable ``code`` (one of the API's, see
    :mod:`einvoice_validate.errors`; ``server.error`` with reason ``worker-died`` or ``timeout`` when its worker
    died or it overran the time limit), a ``detail`` for humans and the finer ``reason`` (or None).
    """

    code: str
    detail: str
    reason: str | None = None
    message: Message
    """The specific cause in English and German, one sentence each (``EInvoiceValidateError.message``)."""

    def to_dict(self) -> dict[str, object]:
        """The wire form of the CLI's ``json``/``jsonl`` output (``{"code", "message", "detail"}``)."""
        from ..wire import error_object  # the json rows' form: off the CLI's start (http)

        return error_object(self.code, self.detail, self.message)


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
    options: Options | None = None,
    **option_args: Unpack[OptionArgs],
) -> Generator[BatchResult, None, None]:
    """Validate ``sources`` (paths, bytes or binary file objects), yielding one result per source in input order.

    Args:
        sources: consumed lazily; a generator of 100,000 paths is fine. When it has a length, the length chooses
            the engine (see the module docstring) unless one is named.
        workers: threads or processes to use (default: ``os.cpu_count()``).
        options, **option_args: as for :class:`~einvoice_validate.Validator` (``profile``, ``rules_home``,
            ``xsd_gate``, ``limits``, ``engine``, ``rules_date``, ``document_timeout``, ``mode``; see
            :class:`~einvoice_validate.options.Options`).

    Raises (when called, or from the iterator):
        ProfileError: an option is unusable (``request.invalid-parameter``), e.g. ``profile`` names no profile.
        RulesetError: the installation cannot validate (missing or corrupted pack): the batch stops.
    Per-document problems (unreadable, not XML, unsupported, a crashed worker, an overrun) are results with
    ``error`` set. Stopping early (``close()`` on the generator, or dropping it) stops the workers.
    """
    documents = len(sources) if isinstance(sources, Sized) else None
    batch = BatchValidator(workers=workers, options=options, documents=documents, **option_args)
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
    options: Options | None = None,
    **option_args: Unpack[OptionArgs],
) -> list[BatchResult]:
    """:func:`iter_validate`, collected into a list (in input order). For large batches iterate instead: the
    list holds every report."""
    return list(iter_validate(sources, workers=workers, options=options, **option_args))


class BatchValidator:
    """A reusable batch validator: its workers (threads over one validator, or processes, and their compiled
    packs) live until :meth:`close`.

    :func:`iter_validate` builds one per call; keep one instead when batches come one after another (a service,
    a benchmark's warm-up), so the workers start and compile their packs once. One iteration at a time.
    Usable as a context manager. Arguments as for :func:`iter_validate`; ``documents``: how many documents the
    batches will have, if known (it chooses the engine when none is named; default: many). Raises
    ``ProfileError`` for an unusable option and ``ValueError`` for ``workers < 1``. Worker processes are started
    on demand, never more than needed. ``settle_heap`` (default true; thread mode): settle this process's heap after
    its first documents (:mod:`.heap`: ``gc.freeze()``, which stops Python's full collections from walking the
    validator's lasting objects; false leaves the collector alone).

    Attributes:
        engine: the engine its validators run (``saxonc`` or ``saxon-java``).
        mode: ``threads`` (one validator in this process), ``processes``, or ``local`` (``workers=1`` on
            ``saxonc``: this thread).
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        options: Options | None = None,
        documents: int | None = None,
        settle_heap: bool = True,
        **option_args: Unpack[OptionArgs],
    ) -> None:
        count = (os.cpu_count() or 1) if workers is None else workers
        if count < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        options = build_options(options, option_args)
        self.workers = count
        self.engine = engine_for(documents if documents is not None else "steady", options.engine)
        mode = options.mode or ("threads" if self.engine == "saxon-java" else "processes")
        # Resolved now, in this process: the engine, and the rules home the workers get. Where the work chose
        # saxonc, each validator keeps the choice per document (a large one runs on saxon-java: engine_for_size).
        by_size = self.engine == DEFAULT_ENGINE and not engine_named(options.engine) and mode == "processes"
        engine = None if by_size else self.engine
        self.options = options = options.replace(engine=engine, rules_home=options.home(), mode=mode)
        self.mode = "local" if mode == "processes" and count == 1 else mode
        self.slots: list[Slot] = []
        self._busy = False
        self._lock = threading.Lock()
        self._assigned: dict[int, int] = {}  # slot number -> documents given and not yet answered
        self._inboxes: list[queue.SimpleQueue[Job | None]] = []
        self._validator: Any = None
        self._watchdog: Watchdog | None = None
        self._heap = HeapSettler(settle_heap and mode == "threads")
        self._syntaxes = load_user_syntaxes(options.home())  # the routing's marks (and the rules home's syntaxes)
        if self.mode != "processes":
            self._validator = Validator(options=options)
        if self.mode == "threads":
            from ..schematron._java import before_exit  # the Java engine's module loads only when that engine runs

            self._watchdog = Watchdog()
            before_exit(self.close)  # its threads end (and leave the JVM) before the JVM is shut down
        # Worker processes fill the cores already: each keeps a document to one thread (Options.parallel_packs).
        worker_options = options.replace(parallel_packs=False) if self.mode == "processes" else options
        self._config = WorkerConfig(
            worker_options, crash_on=os.environ.get(TEST_CRASH_ENV) or None, settle_heap=settle_heap
        )
        self._env = worker_env() if self.mode == "processes" else {}
        if self.mode != "local":
            for number in range(count):
                self._inboxes.append(queue.SimpleQueue())
                self._assigned[number] = 0
                slot = self._slot(number)
                slot.start()
                self.slots.append(slot)

    def _slot(self, number: int) -> Slot:
        timeout = self.options.document_timeout
        if self._watchdog is not None:
            validator = self._validator
            return ThreadSlot(
                number,
                self._take,
                self._done,
                timeout,
                lambda job: validate_here(validator, job, False),
                self._watchdog,
                self.engine == "saxon-java",
            )
        return ProcessSlot(number, self._take, self._done, timeout, self._config, self._env)

    def __enter__(self) -> BatchValidator:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers (each finishes its current document, or is killed after a grace period; a thread
        still validating is left to finish in the background, within the time limit)."""
        slots, self.slots = self.slots, []
        for inbox in self._inboxes:
            inbox.put(None)
        for slot in slots:
            slot.join(5.0)
            if isinstance(slot, ProcessSlot):
                slot.close(timeout=5.0)
        if self._watchdog is not None:
            self._watchdog.close()

    def validate_many(self, sources: Iterable[Source]) -> list[BatchResult]:
        """:meth:`iter_validate`, collected into a list."""
        return list(self.iter_validate(sources))

    def iter_validate(self, sources: Iterable[Source]) -> Generator[BatchResult, None, None]:
        """One result per source, in input order, streamed (see :func:`iter_validate`)."""
        if self._busy:
            raise RuntimeError("this BatchValidator is already iterating; use one per concurrent batch")
        self._busy = True
        try:
            if self.mode == "local":
                yield from _iter_local(self._validator, sources)
            else:
                yield from self._iter_slots(sources)
        finally:
            self._busy = False

    # --- the slots' side (their threads) ------------------------------------------------------------------

    def _take(self, slot: Slot) -> Job | None:
        return self._inboxes[slot.number].get()

    def _done(self, slot: Slot, job: Job, outcome: Outcome) -> None:
        with self._lock:
            self._assigned[slot.number] -= 1
        results: queue.SimpleQueue[tuple[Slot, Job, Outcome]] = job.ticket
        results.put((slot, job, outcome))
        self._heap.done()

    # --- the caller's side ------------------------------------------------------------------------------------

    def _iter_slots(self, sources: Iterable[Source]) -> Iterator[BatchResult]:
        workers = self.workers
        window = _WINDOW_PER_WORKER * workers
        results: queue.SimpleQueue[tuple[Slot, Job, Outcome]] = queue.SimpleQueue()  # this iteration's answers
        source_iter = iter(sources)
        exhausted = False
        next_index = 0  # the next source to take
        next_out = 0  # the next result to hand out
        in_flight = 0
        ready: dict[int, BatchResult | BaseException] = {}
        waiting: list[Job] = []  # taken, not yet given to a worker, oldest first
        routes: dict[int, Route] = {}  # per slot given a document (process mode)
        unstarted = Route()  # stands for the slots not given a document yet
        last = time.monotonic()
        deaths_in_a_row = 0
        try:
            while True:
                # 1. Hand out what is ready, in order.
                while next_out in ready:
                    item = ready.pop(next_out)
                    next_out += 1
                    if isinstance(item, BaseException):
                        raise item
                    yield item
                # 2. Take sources into the window; give idle workers a document each.
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
                        payload = _payload(source, self.options, read_paths=self.mode == "threads")
                    except EInvoiceValidateError as exc:
                        ready[index] = _error_result(index, name, exc)
                        continue
                    syntax = sniff_syntax(payload, self._syntaxes) if self.mode == "processes" else None
                    waiting.append(Job(index, name, payload, None, results, syntax))
                now = time.monotonic()
                timeout = self._dispatch(waiting, routes, unstarted, now - last)
                last = now
                in_flight = next_index - next_out - len(ready) - len(waiting)
                if not in_flight:
                    if exhausted and next_out == next_index:
                        return
                    if not waiting or next_out in ready:
                        continue  # results made here (step 2) are handed out next
                # 3. Wait for an answer, or until a worker left idle should look again.
                try:
                    slot, job, outcome = results.get(timeout=timeout)
                except queue.Empty:
                    continue
                if isinstance(outcome, WorkerDied) and outcome.reason == "worker-died":
                    routes.pop(slot.number, None)  # its replacement has compiled nothing
                    deaths_in_a_row += 1
                    if deaths_in_a_row > max(8, 2 * workers):
                        raise _PoolBroken(f"{deaths_in_a_row} workers died in a row (last: {outcome.detail})")
                else:
                    deaths_in_a_row = 0
                ready[job.index] = _result(job, outcome)
        finally:
            # Abandoned (closed early, or an exception): documents not yet taken are dropped; worker processes
            # still holding one are killed (a thread finishes its document, whose answer goes nowhere).
            for number, inbox in enumerate(self._inboxes):
                while True:
                    try:
                        dropped = inbox.get_nowait()
                    except queue.Empty:
                        break
                    if dropped is not None:
                        with self._lock:
                            self._assigned[number] -= 1
            for slot in self.slots:
                if isinstance(slot, ProcessSlot) and slot.busy:
                    slot.kill()

    def _dispatch(self, waiting: list[Job], routes: dict[int, Route], unstarted: Route, elapsed: float) -> float | None:
        """Give idle workers a waiting document each: in thread mode the oldest; in process mode as routed by
        syntax (:mod:`.routing`). ``elapsed``: seconds since the last call, counted as idle time for every worker
        left idle then. Returns the seconds until a worker left idle now may help with another syntax, or None."""
        if self.mode == "threads":
            for depth in range(_THREAD_DEPTH):  # the idle slots first, then a next document for each
                with self._lock:
                    free = [slot for slot in self.slots if self._assigned[slot.number] <= depth]
                for slot in free[: len(waiting)]:
                    self._give(slot, waiting.pop(0))
            return None
        with self._lock:
            idle = [slot for slot in self.slots if not self._assigned[slot.number]]
        for route in (*routes.values(), unstarted):
            if route.declined:
                route.starved += elapsed
                route.declined = False
        for slot in idle:
            if not waiting:
                break
            route = routes.get(slot.number, unstarted)
            others = {k for n, r in routes.items() if n != slot.number for k in r.syntaxes}
            pick = choose(
                route.syntaxes, others, [j.syntax for j in waiting], route.starved >= routing.HELP_AFTER_SECONDS
            )
            if pick is None:
                route.declined = True
                continue
            job = waiting.pop(pick)
            if route is unstarted:
                route = routes[slot.number] = Route()
                unstarted.starved = 0.0
            route.took(job.syntax)
            self._give(slot, job)
        declined = [r.starved for r in (*routes.values(), unstarted) if r.declined]
        return max(0.0, routing.HELP_AFTER_SECONDS - max(declined)) if declined else None

    def _give(self, slot: Slot, job: Job) -> None:
        with self._lock:
            self._assigned[slot.number] += 1
        self._inboxes[slot.number].put(job)


# --- shared helpers -----------------------------------------------------------------------------------------


def _room(waiting: list[Job], workers: int) -> bool:
    """Whether another document may wait: one per worker always, more while their bytes stay under the cap."""
    return (
        len(waiting) < workers or sum(len(j.payload) for j in waiting if isinstance(j.payload, bytes)) < _WAITING_BYTES
    )


def _name_of(source: object, index: int) -> str:
    if isinstance(source, str | os.PathLike):
        return str(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else f"#{index}"


def _error_result(index: int, name: str, exc: EInvoiceValidateError) -> BatchResult:
    error = BatchError(code=exc.code, detail=exc.detail, reason=exc.reason, message=exc.message)
    return BatchResult(index=index, source=name, report=None, error=error)


def _result(job: Job, outcome: Outcome) -> BatchResult | BaseException:
    """A worker's outcome as the document's result (an exception that must stop the batch stays one)."""
    if isinstance(outcome, Report):
        return BatchResult(index=job.index, source=job.name, report=outcome, error=None)
    if isinstance(outcome, Validated):
        return BatchResult(index=job.index, source=job.name, report=outcome.report(), error=None)
    assert not isinstance(outcome, Rendered), "a batch shows no pages"
    if isinstance(outcome, RulesetError) or not isinstance(outcome, Exception):
        return outcome
    return _error_result(job.index, job.name, _as_error(outcome))


def _as_error(exc: Exception) -> EInvoiceValidateError:
    """A document's error; an unexpected exception (a bug) as ``server.error`` (reason ``internal``), so one
    document does not stop a batch over millions."""
    if isinstance(exc, EInvoiceValidateError):
        return exc
    return EInvoiceValidateError(
        "server.error", Detail("detail.unexpected", type(exc).__name__, exc), reason="internal"
    )


def _iter_local(validator: Any, sources: Iterable[Source]) -> Iterator[BatchResult]:
    for index, source in enumerate(sources):
        name = _name_of(source, index)
        try:
            report = validator.validate(source)
        except RulesetError:
            raise
        except Exception as exc:
            yield _error_result(index, name, _as_error(exc))
        else:
            yield BatchResult(index=index, source=name, report=report, error=None)


class _PoolBroken(RuntimeError):
    """Workers keep dying: the environment, not a document, is at fault."""


def _payload(source: Source, options: Options, *, read_paths: bool = False) -> str | bytes:
    """What a worker gets: a path (a worker process reads it) or bytes (file objects are read here, once; and, for
    ``read_paths``, paths: a thread slot then never releases the GIL for the reading's system calls, each of which
    made it wait for the GIL again behind the other slot's Python work: 2 threads, 66 business cases, about 10 %
    more documents per second with the paths read in this thread, issue 21)."""
    if isinstance(source, str | os.PathLike):
        if read_paths:
            data, _ = read_source(source, options.limits)
            return data
        path = os.fspath(source)
        return path if isinstance(path, str) else os.fsdecode(path)
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    data, _ = read_source(source, options.limits)
    return data
