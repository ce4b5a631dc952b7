"""The service pool: validation on all cores for a server or any long-running process, from asyncio
(``await pool.validate(data)``) or from threads (``pool.submit(data).result()``).

Each worker process (:mod:`.worker`) is driven by one thread of this process that sends it one document at a
time and blocks on its pipe, so an event loop never runs Saxon nor waits on a worker. Documents wait in one
bounded queue; when it is full, :meth:`Pool.submit` raises :class:`~einvoice_validate.errors.PoolBusy`
(``503 invoice.busy``, with ``retry_after``) at once instead of queueing without bound.

Robustness:
- a worker that dies (a crash in Saxon, the OOM killer, a ``kill -9``) costs only the document it held: that
  request gets :class:`~einvoice_validate.errors.WorkerDied` (``500 server.error``), a new worker takes its place;
  a worker found dead while idle costs nothing (its next document goes to the replacement);
- a document that takes longer than ``document_timeout`` stops its worker (``server.error``, reason ``timeout``);
- cancellation: an ``await`` cancelled before its document reached a worker leaves the queue without running; one
  cancelled while running lets the worker finish and drops the result (the worker stays usable);
- recycling: after ``max_documents`` documents a worker is replaced (the SaxonC heap of a long-running worker
  grows). With ``prepare`` the replacement is started and compiles its packs while the old one keeps working,
  so recycling costs no capacity.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import queue
import select
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import EInvoiceValidateError, PoolBusy, RulesetError, WorkerDied
from ..findings import Report
from ..limits import DEFAULT_LIMITS, Limits
from .worker import TEST_CRASH_ENV, Reply, WorkerConfig, WorkerProcess, error_from_reply, recv, send, worker_env

__all__ = ["Pool", "Validated"]

_STOP = None


@dataclass(frozen=True, slots=True)
class Validated:
    """A validated document: its report as JSON (the wire form: ``Report.model_dump_json(by_alias=True)``) and
    the sha256 of the bytes the worker validated (lets a caller check that an answer belongs to its request)."""

    report_json: bytes
    sha256: str | None

    def report(self) -> Report:
        """The report as the model."""
        return Report.model_validate_json(self.report_json)


@dataclass(slots=True)
class _Job:
    payload: bytes
    profile: str | None
    name: str
    future: concurrent.futures.Future[Validated]


class _Slot:
    """One worker process and the thread that drives it."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.proc: WorkerProcess | None = None
        self.next: WorkerProcess | None = None  # a replacement compiling its packs (recycling)
        self.documents = 0  # done by the current process
        self.thread: threading.Thread | None = None


class Pool:
    """Worker processes behind a bounded queue; see the module docstring.

    Args:
        workers: worker processes (default: ``os.cpu_count()``).
        queue_size: documents that may wait for a worker beyond those being validated (default 8 per worker);
            one more is :class:`PoolBusy`.
        max_documents: a worker is replaced after this many documents (0: never).
        document_timeout: seconds a worker may spend on one document before it is stopped.
        retry_after: the seconds a busy answer asks the caller to wait.
        prepare: workers compile every profile's packs (or those of the profiles named) when they start, and
            :meth:`start` returns once all have (a server's readiness); False: each worker compiles on first use.
        profile, rules_home, limits, xsd_gate: as for :class:`~einvoice_validate.Validator`.
        validator_options: further keywords for every worker's ``Validator`` (passed through untouched, e.g. an
            engine choice); they override the arguments above.
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        queue_size: int | None = None,
        max_documents: int = 5_000,
        document_timeout: float = 120.0,
        retry_after: int = 1,
        prepare: bool | tuple[str, ...] = True,
        profile: str | None = None,
        rules_home: Path | None = None,
        limits: Limits = DEFAULT_LIMITS,
        xsd_gate: bool = False,
        validator_options: Mapping[str, Any] | None = None,
    ) -> None:
        count = (os.cpu_count() or 1) if workers is None else workers
        if count < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        if profile is not None:
            from ..profiles import find_profile

            find_profile(profile)
        from ..rulesets.registry import default_home

        self.workers = count
        self.queue_size = 8 * count if queue_size is None else queue_size
        self.max_documents = max_documents
        self.document_timeout = document_timeout
        self.retry_after = retry_after
        home = Path(rules_home) if rules_home is not None else default_home()
        options: dict[str, Any] = {"profile": profile, "rules_home": home, "limits": limits, "xsd_gate": xsd_gate}
        options.update(validator_options or {})
        self._config = WorkerConfig(options, prepare=prepare, crash_on=os.environ.get(TEST_CRASH_ENV) or None)
        self._env = worker_env()
        self._queue: queue.Queue[_Job | None] = queue.Queue(maxsize=max(1, self.queue_size))
        self._slots = [_Slot(i) for i in range(count)]
        self._lock = threading.Lock()
        self._started = False
        self._closed = False
        self._in_flight = 0
        self._done = 0
        self._deaths = 0
        self._recycled = 0

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
        """Start the workers (with ``prepare``: and wait until each has compiled its packs).

        Raises:
            RulesetError: the installation cannot validate (a worker could not compile the packs).
        """
        if self._started:
            return
        procs = [WorkerProcess(self._config, self._env) for _ in self._slots]
        try:
            for proc in procs:
                self._await_ready(proc)
        except BaseException:
            for proc in procs:
                proc.process.kill()
                proc.close()
            raise
        for slot, proc in zip(self._slots, procs, strict=True):
            slot.proc = proc
            slot.thread = threading.Thread(target=self._serve, args=(slot,), name=f"pool-{slot.number}", daemon=True)
            slot.thread.start()
        self._started = True

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
        for _ in self._slots:
            with contextlib.suppress(queue.Full):
                self._queue.put(_STOP, timeout=max(0.0, deadline - time.monotonic()))
        for slot in self._slots:
            if slot.thread is not None:
                slot.thread.join(max(0.0, deadline - time.monotonic()))
        for slot in self._slots:
            for proc in (slot.proc, slot.next):
                if proc is not None:
                    proc.close(timeout=1.0)
            slot.proc = slot.next = None
        while True:  # documents left when the deadline passed
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            if job is not None and job.future.set_running_or_notify_cancel():
                job.future.set_exception(WorkerDied("the pool was closed before the document was validated"))

    # --- submitting -------------------------------------------------------------------------------------

    def submit(
        self, data: bytes | bytearray | memoryview, *, profile: str | None = None, name: str = "document"
    ) -> concurrent.futures.Future[Validated]:
        """Queue one document (its bytes); the future gives a :class:`Validated` or raises the
        :class:`~einvoice_validate.errors.EInvoiceValidateError` of the document. ``name`` is for the worker's
        diagnostics only. Thread-safe.

        Raises:
            PoolBusy: the queue is full (``invoice.busy``).
            RuntimeError: the pool was not started, or is closed.
        """
        if not self._started or self._closed:
            raise RuntimeError("the pool is not running (start() it, or it was closed)")
        future: concurrent.futures.Future[Validated] = concurrent.futures.Future()
        try:
            self._queue.put_nowait(_Job(bytes(data), profile, name, future))
        except queue.Full:
            raise PoolBusy(
                f"{self.queue_size} documents are waiting for {self.workers} workers", retry_after=self.retry_after
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
            worker: :class:`WorkerDied`).
        """
        return (await self.validate_json(data, profile=profile)).report()

    # --- state ------------------------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Started, not closed, and a worker process alive (``stats()["alive"]`` says how many)."""
        return self._started and not self._closed and any(s.proc is not None and s.proc.alive() for s in self._slots)

    def worker_pids(self) -> list[int]:
        """The process ids of the current workers (and of replacements being prepared)."""
        return [p.pid for s in self._slots for p in (s.proc, s.next) if p is not None]

    def stats(self) -> dict[str, int]:
        """Counters: workers, alive, queued, in_flight, done, deaths, recycled."""
        alive = sum(1 for s in self._slots if s.proc is not None and s.proc.alive())
        with self._lock:
            return {
                "workers": self.workers,
                "alive": alive,
                "queued": self._queue.qsize(),
                "in_flight": self._in_flight,
                "done": self._done,
                "deaths": self._deaths,
                "recycled": self._recycled,
            }

    # --- the threads ------------------------------------------------------------------------------------

    def _await_ready(self, proc: WorkerProcess) -> None:
        if not self._config.prepare:
            return
        try:
            reply: Reply = recv(proc.stdout)
        except (EOFError, OSError):
            code = proc.close()
            raise RulesetError(
                "ruleset.invalid", f"a worker process died while compiling the packs (exit {code})"
            ) from None
        _, status, body = reply
        if status == "ready":
            return
        if status == "error":
            raise error_from_reply(body)
        raise RuntimeError(f"a worker failed while compiling the packs:\n{body}")

    def _serve(self, slot: _Slot) -> None:
        while True:
            job = self._queue.get()
            if job is _STOP:
                return
            if not job.future.set_running_or_notify_cancel():
                continue  # cancelled while it waited
            with self._lock:
                self._in_flight += 1
            outcome: Validated | BaseException
            try:
                outcome = self._run(slot, job)
            except BaseException as exc:  # never leave a caller waiting
                outcome = exc
            with self._lock:  # counted before the caller hears of it
                self._in_flight -= 1
                self._done += 1
            if isinstance(outcome, BaseException):
                job.future.set_exception(outcome)
            else:
                job.future.set_result(outcome)
            if slot.proc is None and not self._closed:
                self._heal(slot)

    def _heal(self, slot: _Slot) -> None:
        """Start the replacement of a worker that died (after its caller heard of it), so the pool is whole again
        without waiting for the next document; a failure is left to the next document to retry."""
        with contextlib.suppress(Exception):
            slot.proc = self._fresh()
            slot.documents = 0

    def _fresh(self) -> WorkerProcess:
        proc = WorkerProcess(self._config, self._env)
        try:
            self._await_ready(proc)
        except BaseException:
            proc.process.kill()
            proc.close()
            raise
        return proc

    def _run(self, slot: _Slot, job: _Job) -> Validated | BaseException:
        self._maybe_swap(slot)
        for attempt in range(2):
            if slot.proc is None or not slot.proc.alive():
                if slot.proc is not None:  # died while idle: it held no document
                    slot.proc.close()
                    slot.proc = None
                slot.proc = self._fresh()
                slot.documents = 0
            proc = slot.proc
            try:
                send(proc.stdin, (0, job.name, job.payload, job.profile))
            except OSError:
                proc.process.kill()  # it died (or is dying) before it took the document
                proc.close(timeout=1.0)
                slot.proc = None
                if attempt == 0:
                    continue  # the replacement takes the document
                raise
            break
        outcome = self._reply(slot, proc)
        slot.documents += 1
        if self.max_documents and slot.documents >= self.max_documents and slot.proc is proc:
            self._recycle(slot)
        return outcome

    def _reply(self, slot: _Slot, proc: WorkerProcess) -> Validated | BaseException:
        poller = select.poll()
        poller.register(proc.stdout, select.POLLIN | select.POLLHUP | select.POLLERR)
        if not poller.poll(self.document_timeout * 1000):
            proc.process.kill()
            self._bury(slot, proc)
            return WorkerDied(
                f"the document took longer than {self.document_timeout:g} s; its worker was stopped", reason="timeout"
            )
        try:
            reply: Reply = recv(proc.stdout)
        except (EOFError, OSError):
            code = self._bury(slot, proc)
            return WorkerDied(f"the worker process validating the document died (exit code {code})")
        _, status, body = reply
        if status == "ok":
            return Validated(body[0], body[1])
        if status == "error":
            return error_from_reply(body)
        return EInvoiceValidateError("server.error", "unexpected error inside the worker", reason="internal")

    def _bury(self, slot: _Slot, proc: WorkerProcess) -> int:
        """A worker died holding a document: count it, reap it; the next document starts a new one."""
        code = proc.close(timeout=1.0)
        with self._lock:
            self._deaths += 1
        if slot.proc is proc:
            slot.proc = None
        return code

    def _recycle(self, slot: _Slot) -> None:
        with self._lock:
            self._recycled += 1
        if self._config.prepare:
            if slot.next is None:
                slot.next = WorkerProcess(self._config, self._env)  # compiles while the old one works
            return
        old, slot.proc = slot.proc, None
        if old is not None:
            old.close()

    def _maybe_swap(self, slot: _Slot) -> None:
        """Put a prepared replacement in place of the current worker once it is ready."""
        nxt = slot.next
        if nxt is None:
            return
        poller = select.poll()
        poller.register(nxt.stdout, select.POLLIN | select.POLLHUP | select.POLLERR)
        if not poller.poll(0):
            return  # still compiling
        slot.next = None
        try:
            self._await_ready(nxt)
        except Exception:
            nxt.process.kill()
            nxt.close()
            return  # keep the old worker; the next recycling tries again
        old, slot.proc, slot.documents = slot.proc, nxt, 0
        if old is not None:
            threading.Thread(target=old.close, daemon=True).start()
