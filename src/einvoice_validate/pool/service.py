"""The service pool: validation on all cores for a server or any long-running process, from asyncio
(``await pool.validate(data)``) or from threads (``pool.submit(data).result()``); also the invoice shown as a
page with its findings (``await pool.render(data, lang="de")``: the work of ``show``, done in a worker).

Documents wait in one bounded queue; when it is full, :meth:`Pool.submit` raises
:class:`~einvoice_validate.errors.PoolBusy` (``503 invoice.busy``, with ``retry_after``) at once instead of
queueing without bound. ``workers`` slots (:mod:`.slot`) take documents from the queue, one at a time each, so an
event loop never runs Saxon nor waits on a worker:

* **threads** (the default on ``saxon-java``, the default engine of a pool when it is installed): ``workers``
  threads over one shared :class:`~einvoice_validate.Validator` in this process: one JVM, one copy of the compiled
  packs (about 400 MB in all on 2 cores), no pickling. What it cannot isolate: a crash of the JVM ends the process
  (and every document in flight with it).
* **processes** (the default on ``saxonc``, or ``mode="processes"``): one worker process per slot, each with its
  own validator (about 300 MB each with the XRechnung packs).

Start and readiness: :meth:`start` returns, and :attr:`ready` is true, once documents can be taken: nothing needs
to be compiled first. A document of a profile not compiled yet waits while its packs compile (never fails for
it); ``prepare`` names profiles to compile before :meth:`start` returns, ``background`` profiles to compile right
after it, one after the other, while documents are already taken (thread mode).

Robustness:
- a document that takes longer than ``document_timeout`` (120 s) gets ``server.error`` (reason ``timeout``) at the
  limit: its worker process is killed, or its thread stopped (``Thread.stop``) and replaced (see :mod:`.slot`);
- a worker process that dies (a crash in Saxon, the OOM killer, a ``kill -9``) costs only the document it held:
  that request gets :class:`~einvoice_validate.errors.WorkerDied` (``500 server.error``), a new worker takes its
  place; a worker found dead while idle costs nothing (its next document goes to the replacement);
- cancellation: an ``await`` cancelled before its document reached a worker leaves the queue without running; one
  cancelled while running lets the worker finish and drops the result (the worker stays usable);
- recycling (process mode): after ``max_documents`` documents a worker process is replaced (the SaxonC heap of a
  long-running worker grows). With ``prepare`` the replacement compiles while the old one keeps working.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import queue
import threading
import time
from typing import Any

from typing_extensions import Unpack

from ..errors import Detail, EInvoiceValidateError, PoolBusy, WorkerDied
from ..findings import Report
from ..options import OptionArgs, Options, build_options
from ..schematron.engines import engine_for
from ..validator import Validator
from .heap import HeapSettler
from .job import Job, Rendered, Validated
from .slot import LANE_NICE, Outcome, ProcessSlot, Slot, ThreadSlot, Watchdog, await_ready, validate_here
from .worker import TEST_CRASH_ENV, WorkerConfig, WorkerProcess, worker_env

__all__ = ["Pool", "Rendered", "Validated"]

log = logging.getLogger("einvoice_validate.pool")
SAXONC_MAX_DOCUMENTS = 5_000
"""A saxonc worker process is replaced after this many documents by default (its heap grows)."""


class Pool:
    """Workers behind a bounded queue; see the module docstring.

    Args:
        workers: threads or worker processes (default: ``os.cpu_count()``).
        queue_size: documents that may wait for a worker beyond those being validated (default 8 per worker);
            one more is :class:`PoolBusy`.
        max_documents: a worker process is replaced after this many documents (0: never; default 5,000 on
            ``saxonc``, never on ``saxon-java``, whose collector bounds its heap and whose new worker would start
            with a cold JIT). Threads are never replaced.
        retry_after: the seconds a busy answer asks the caller to wait.
        prepare: profiles whose packs are compiled before :meth:`start` returns (True: every profile; in process
            mode, in every worker); default none: each compiles on its first document.
        background: profiles compiled right after :meth:`start`, one after the other, while documents are taken
            (True: every profile; thread mode; process mode ignores it).
        settle_heap: settle the heap after the first documents (:mod:`.heap`; thread mode here, and each worker
            process its own); False leaves the collector of a host process alone.
        lane: thread mode: threads besides ``workers`` for the documents submitted as large
            (``_submit(..., large=True)``, the server's large lane), in a queue of their own and at a lower CPU
            priority (``nice`` :data:`~.slot.LANE_NICE`): the ``workers`` threads keep the cores for the typical
            documents, a large one takes what they leave (all of it when they are idle).
        options, **option_args: as for :class:`~einvoice_validate.Validator` (``profile``, ``rules_home``,
            ``limits``, ``xsd_gate``, ``engine`` (default: chosen for steady work, see
            :func:`~einvoice_validate.schematron.engines.engine_for`), ``rules_date``, ``document_timeout``,
            ``mode``; see :class:`~einvoice_validate.options.Options`).

    Attributes:
        engine: the engine the pool's validators run; mode: ``threads`` or ``processes``.
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        queue_size: int | None = None,
        max_documents: int | None = None,
        retry_after: int = 1,
        prepare: bool | tuple[str, ...] = False,
        background: bool | tuple[str, ...] = False,
        settle_heap: bool = True,
        lane: int = 0,
        options: Options | None = None,
        **option_args: Unpack[OptionArgs],
    ) -> None:
        count = (os.cpu_count() or 1) if workers is None else workers
        if count < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        options = build_options(options, option_args)
        self.engine = engine_for("steady", options.engine)
        self.mode = options.mode or ("threads" if self.engine == "saxon-java" else "processes")
        self.options = options.replace(engine=self.engine, rules_home=options.home(), mode=self.mode)
        self.workers = count
        self.queue_size = 8 * count if queue_size is None else queue_size
        if max_documents is None:
            max_documents = SAXONC_MAX_DOCUMENTS if self.engine == "saxonc" else 0
        self.max_documents = max_documents
        self.document_timeout = self.options.document_timeout
        self.retry_after = retry_after
        self._prepare = prepare
        self._background = background
        # Worker processes fill the cores already: each keeps a document to one thread (Options.parallel_packs).
        worker_options = self.options.replace(parallel_packs=False) if self.mode == "processes" else self.options
        self._config = WorkerConfig(
            worker_options, prepare=prepare, crash_on=os.environ.get(TEST_CRASH_ENV) or None, settle_heap=settle_heap
        )
        self._queue: queue.Queue[Job | None] = queue.Queue(maxsize=max(1, self.queue_size))
        self.lane = lane if self.mode == "threads" else 0
        self._lane_queue: queue.Queue[Job | None] = queue.Queue()
        self._slots: list[Slot] = []
        self._validator: Any = None
        self._watchdog: Watchdog | None = None
        self._lock = threading.Lock()
        self._started = False
        self._closed = False
        self._in_flight = 0
        self._done = 0
        self._compiled: list[str] = []
        self._heap = HeapSettler(settle_heap and self.mode == "threads")

    # --- life cycle -------------------------------------------------------------------------------------

    def __enter__(self) -> Pool:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> Pool:
        await asyncio.to_thread(self.start)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await asyncio.to_thread(self.close)

    def start(self) -> None:
        """Start the workers; with ``prepare``, wait until the packs of those profiles are compiled.

        Raises:
            RulesetError: the installation cannot validate (the packs asked for could not be compiled).
        """
        if self._started:
            return
        if self.mode == "threads":
            self._start_threads()
        else:
            self._start_processes()
        for slot in self._slots:
            slot.start()
        self._started = True

    def _start_threads(self) -> None:
        from ..render import Renderer  # a Pool that never renders does without the viewer (35 ms)

        validator = Validator(options=self.options)
        renderer = Renderer(validator)  # the viewer compiles on the first page
        if self._prepare:
            validator.prepare(*_names(self._prepare))
        from ..schematron._java import before_exit  # the Java engine's module loads only when that engine runs

        watchdog = Watchdog()
        self._validator, self._watchdog = validator, watchdog
        before_exit(self._close_at_exit)  # its threads end (and leave the JVM) before the JVM is shut down
        self._slots = [
            ThreadSlot(
                n,
                self._take,
                self._deliver,
                self.document_timeout,
                lambda job: validate_here(validator, job, True, renderer),
                watchdog,
                self.engine == "saxon-java",
                nice=LANE_NICE if n >= self.workers else 0,
            )
            for n in range(self.workers + self.lane)
        ]
        threading.Thread(target=self._warm, name="einvoice-warm-up", daemon=True).start()

    def _start_processes(self) -> None:
        env = worker_env()
        slots = [
            ProcessSlot(n, self._take, self._deliver, self.document_timeout, self._config, env, self.max_documents)
            for n in range(self.workers)
        ]
        for slot in slots:
            slot.heal = True
            slot.proc = WorkerProcess(self._config, env)  # all start at once; then each is awaited
        try:
            for slot in slots:
                assert slot.proc is not None
                await_ready(slot.proc, self._config)
        except BaseException:
            for slot in slots:
                if slot.proc is not None:
                    slot.proc.process.kill()
                    slot.proc.close()
            raise
        self._slots = list(slots)

    def _warm(self) -> None:
        """Thread mode, in the background: start the engine (the JVM), then compile the ``background``
        profiles one after the other (a document of a profile not compiled yet compiles it itself)."""
        validator = self._validator
        try:
            if validator.engine.name == "saxon-java":
                from ..schematron._java import start_jvm  # the Java engine's module, for that engine only

                start_jvm()
            names = [p.name for p in validator.profiles] if self._background is True else self._background or ()
            for name in names:
                if self._closed:
                    return
                validator.prepare(name)
                self._compiled.append(name)
        except Exception:  # the documents of that profile will get the error themselves
            log.exception("compiling in the background failed")
        finally:
            from ..schematron._java import detach_thread  # the Java engine's module loads only when that engine runs

            detach_thread()

    def _close_at_exit(self) -> None:
        self.close(timeout=2.0)

    def close(self, timeout: float = 30.0) -> None:
        """Stop taking documents; those queued and in flight finish (up to ``timeout`` seconds), then the workers
        stop."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if not self._started:
            return
        deadline = time.monotonic() + timeout
        for slot in self._slots:
            with contextlib.suppress(queue.Full):
                self._queue_of(slot).put(None, timeout=max(0.0, deadline - time.monotonic()))
        for slot in self._slots:
            slot.join(max(0.0, deadline - time.monotonic()))
        for slot in self._slots:
            if isinstance(slot, ProcessSlot):
                slot.close(timeout=1.0)
        if self._watchdog is not None:
            self._watchdog.close()
        for waiting in (self._queue, self._lane_queue):
            while True:  # documents left when the deadline passed
                try:
                    job = waiting.get_nowait()
                except queue.Empty:
                    break
                if job is not None and job.ticket.set_running_or_notify_cancel():
                    job.ticket.set_exception(WorkerDied(Detail("detail.pool-closed")))

    # --- submitting -------------------------------------------------------------------------------------

    def submit(
        self, data: bytes | bytearray | memoryview, *, profile: str | None = None, name: str = "document"
    ) -> concurrent.futures.Future[Validated]:
        """Queue one document (its bytes); the future gives a :class:`Validated` or raises the
        :class:`~einvoice_validate.errors.EInvoiceValidateError` of the document. ``name`` is for diagnostics
        only. Thread-safe.

        Raises:
            PoolBusy: the queue is full (``invoice.busy``).
            RuntimeError: the pool was not started, or is closed.
        """
        return self._submit(Job(0, name, bytes(data), profile), concurrent.futures.Future())

    def _submit(
        self, job: Job, future: concurrent.futures.Future[Any], large: bool = False
    ) -> concurrent.futures.Future[Any]:
        if not self._started or self._closed:
            raise RuntimeError("the pool is not running (start() it, or it was closed)")
        job.ticket = future
        try:
            (self._lane_queue if large and self.lane else self._queue).put_nowait(job)
        except queue.Full:
            raise PoolBusy(
                Detail("detail.pool-busy", self.queue_size, self.workers), retry_after=self.retry_after
            ) from None
        return future

    def validate_blocking(self, data: bytes | bytearray | memoryview, *, profile: str | None = None) -> Report:
        """Validate one document from a thread (blocks this thread only)."""
        return self.submit(data, profile=profile).result().report()

    async def validate_json(self, data: bytes | bytearray | memoryview, *, profile: str | None = None) -> Validated:
        """Validate one document without blocking the event loop; the report stays JSON (for a server)."""
        return await asyncio.wrap_future(self.submit(data, profile=profile))

    async def validate(self, data: bytes | bytearray | memoryview, *, profile: str | None = None) -> Report:
        """Validate one document without blocking the event loop.

        Raises:
            PoolBusy: the queue is full. EInvoiceValidateError: the document could not be validated (a dead
            worker or an overrun: :class:`WorkerDied`).
        """
        return (await self.validate_json(data, profile=profile)).report()

    async def render(
        self, data: bytes | bytearray | memoryview, *, lang: str = "en", fmt: str = "html", profile: str | None = None
    ) -> Rendered:
        """Validate one document and show it as a page with its findings (:class:`~einvoice_validate.render.
        Renderer`: ``lang`` de or en, ``fmt`` html or pdf), in a worker, without blocking the event loop. An
        invalid invoice is a page; the errors are those of :meth:`validate` (``fmt="pdf"`` without the ``[pdf]``
        extra in the workers: ``server.error``, reason ``internal``).

        Raises:
            ValueError: an unknown ``lang`` or ``fmt`` (checked here, before queueing).
        """
        from ..render import FORMATS, LANGS  # see _start_threads: the viewer loads with the first page

        if lang not in LANGS or fmt not in FORMATS:
            raise ValueError(f"lang must be one of {', '.join(LANGS)} and fmt one of {', '.join(FORMATS)}")
        job = Job(0, "document", bytes(data), profile, render=(lang, fmt))
        future: concurrent.futures.Future[Rendered] = self._submit(job, concurrent.futures.Future())
        return await asyncio.wrap_future(future)

    # --- state ------------------------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """True once documents can be taken (started, not closed; a worker process alive, or, in thread mode,
        fewer threads stuck after overruns than there are workers)."""
        if not self._started or self._closed:
            return False
        if self._watchdog is not None:
            return self._watchdog.stuck < self.workers
        return any(isinstance(s, ProcessSlot) and s.alive() for s in self._slots)

    def worker_pids(self) -> list[int]:
        """The process ids of the current worker processes (and of replacements being prepared); none in thread
        mode."""
        return [pid for s in self._slots if isinstance(s, ProcessSlot) for pid in s.pids()]

    def stats(self) -> dict[str, int]:
        """Counters: workers, alive, queued, in_flight, done, deaths, recycled, timeouts, stuck (threads stopped
        after an overrun that have not come back), compiled (profiles compiled in the background)."""
        procs = [s for s in self._slots if isinstance(s, ProcessSlot)]
        watchdog = self._watchdog
        with self._lock:
            return {
                "workers": self.workers,
                "alive": sum(1 for s in procs if s.alive()) if procs else (self.workers if self._started else 0),
                "queued": self._queue.qsize() + self._lane_queue.qsize(),
                "in_flight": self._in_flight,
                "done": self._done,
                "deaths": sum(s.deaths for s in procs),
                "recycled": sum(s.recycled for s in procs),
                "timeouts": watchdog.timeouts if watchdog is not None else sum(s.timeouts for s in procs),
                "stuck": watchdog.stuck if watchdog is not None else 0,
                "compiled": len(self._compiled),
            }

    # --- the slots' side (their threads) ------------------------------------------------------------------

    def _queue_of(self, slot: Slot) -> queue.Queue[Job | None]:
        """The queue ``slot`` takes from: the lane's threads (numbered after the workers) the large documents'."""
        return self._lane_queue if slot.number >= self.workers else self._queue

    def _take(self, slot: Slot) -> Job | None:
        waiting = self._queue_of(slot)
        while True:
            job = waiting.get()
            if job is None:
                return None
            if job.ticket.set_running_or_notify_cancel():
                with self._lock:
                    self._in_flight += 1
                return job
            # cancelled while it waited

    def _deliver(self, slot: Slot, job: Job, outcome: Outcome) -> None:
        with self._lock:  # counted before the caller hears of it
            self._in_flight -= 1
            self._done += 1
        future: concurrent.futures.Future[Validated | Rendered] = job.ticket
        if isinstance(outcome, Validated | Rendered):
            future.set_result(outcome)
        elif isinstance(outcome, Report):  # not produced by a pool's slots (they answer JSON); kept for safety
            future.set_result(Validated(outcome.model_dump_json(by_alias=True).encode(), None))
        elif isinstance(outcome, EInvoiceValidateError):
            future.set_exception(outcome)
        else:
            log.error("unexpected error validating %s: %s", job.name, outcome)
            future.set_exception(
                EInvoiceValidateError("server.error", Detail("detail.unexpected-in-worker"), reason="internal")
            )
        self._heap.done()


def _names(profiles: bool | tuple[str, ...]) -> tuple[str, ...]:
    """``prepare``/``background`` as :meth:`Validator.prepare` takes them (every profile: no names)."""
    return () if profiles is True else tuple(profiles or ())
