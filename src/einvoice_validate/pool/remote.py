"""The server's pool: validating threads in an engine process of their own, fed by the server's event loop.

Why a second process: in one interpreter the event loop (HTTP, the application) and the validating threads take
turns on one lock (the GIL): every request's Python in the loop (about a fifth of its CPU) waits for the
validating threads' Python (half of a document's work) and the other way round, and the loop waits up to
``sys.getswitchinterval()`` for each turn. Here the server process (:class:`RemotePool`, in its event loop) does
HTTP and sends each admitted document over a socket to the **engine process**, which runs a thread-mode
:class:`~einvoice_validate.Pool` (one JVM, ``workers`` threads over one shared validator, exactly the batch's
work) and answers each document from the thread that validated it. Neither side waits for the other's lock;
the hand-over is one write and one read per document on each side.

Scheduling (in the server process; the engine holds at most :attr:`RemotePool.window` documents, so a document
waiting in the server can still be dropped when its client goes away):

* **admission by deadline**: a document is taken when the wait it can expect (the work ahead of it, from the
  recent time per document, divided by the workers) stays within ``queue_wait`` seconds, else
  :class:`~einvoice_validate.errors.PoolBusy` at once (``503 invoice.busy`` with ``Retry-After``: the seconds
  beyond the deadline); ``queue_size`` is a hard cap on waiting documents besides;
* **large documents in their own lane**: a document with more than :data:`LARGE_LINES` invoice lines (counted in
  its bytes, a cheap scan) or over :data:`LARGE_BYTES` bytes runs on one of ``workers - 1`` lane threads (one,
  with two workers) that the engine keeps besides its ``workers`` threads, at a lower CPU priority
  (:data:`~.slot.LANE_NICE`): the typical documents keep every worker thread and the cores while a 4,000-line
  invoice runs (interleaved, 8 clients and one sending a 4,000-line invoice: 85-94 % of their rate alone, about
  50 % when the large one held one of the two threads at the same priority, 65 % with a lane thread not
  niced), and the large one takes what they leave (2-4x its time alone when the cores are busy).

Robustness: the engine process's pool answers a document that overruns ``document_timeout`` (its thread is
stopped). An engine process that dies (a crash of the JVM, the OOM killer, ``kill -9``) costs the documents it
held (:class:`~einvoice_validate.errors.WorkerDied`, reason ``worker-died``); a new one starts at once and takes
the documents still waiting. One that stops answering (a document ``document_timeout`` + 30 s overdue) is killed
and replaced the same way. The engine process ignores SIGINT and SIGTERM (a signal to the whole process group
must not cut the drain short): it stops when the server closes its socket, after the documents it holds.

Protocol (length-prefixed pickles, :func:`~.worker.send` / :func:`~.worker.recv`, over a socket pair):
server -> engine: an :class:`EngineConfig`, then per document ``(id, size, profile, render, large)`` followed by the
document's ``size`` bytes as they are (not inside the pickle: no copy on either side); end-of-file stops the engine.
Engine -> server: ``(-1, "ready", pid)`` once its pool is started (or ``(-1, "error", exception)``), then ``(id,
status, outcome, counters)`` per document, ``status`` as in :mod:`.worker`, and ``counters`` ``(seconds a thread
gave the document, the engine pool's timeouts, stuck, compiled)``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import math
import os
import pickle
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass
from typing import Any

from ..errors import EInvoiceValidateError, PoolBusy, RulesetError, WorkerDied
from ..findings import Report
from ..options import Options
from .heap import HeapSettler
from .job import Rendered, Validated
from .worker import recv, send, worker_env

__all__ = [
    "ENGINE_JVM_OPTIONS",
    "LARGE_BYTES",
    "LARGE_LINES",
    "EngineConfig",
    "RemotePool",
    "engine_entry",
    "server_pool",
]

log = logging.getLogger("einvoice_validate.pool")
JVM_OPTIONS_ENV = "EINVOICE_JVM_OPTIONS"  # read by schematron._java when it starts the JVM (not imported here)

LARGE_LINES = 500
"""A document with more invoice lines than this runs in the large lane (at most ``workers - 1`` at once)."""
LARGE_BYTES = 4 * 1024 * 1024
"""So does a document over this many bytes (an attachment is cut cheaply, but parsing it is not free)."""
_LINE_MARKS = (b"InvoiceLine>", b"CreditNoteLine>", b"IncludedSupplyChainTradeLineItem>")
"""The end of a line's tags, opening and closing (UBL invoice, UBL credit note, CII): ``bytes.count`` finds them at
memory speed."""
_WINDOW_PER_WORKER = 2
"""Typical documents the engine holds per worker thread: the one validated and the next, so a thread never waits
for the hand-over between two documents (as the batch's ``_THREAD_DEPTH``); the lane's threads hold one each."""
_OVERDUE_GRACE = 30.0
"""Seconds past ``document_timeout`` after which an unanswered document means a hung engine process."""
_FIRST_ESTIMATE = 0.05
"""Seconds per document assumed before any was measured (a cold start compiles, the estimate learns it)."""
_FIRST_LARGE_ESTIMATE = 10.0
ENGINE_JVM_OPTIONS = ("-XX:+UseParallelGC", "-Xms144m", "-Xmx768m", "-Xmn48m", "-Xss8m", "-Xrs")
"""The engine process's JVM (unless ``EINVOICE_JVM_OPTIONS`` names others): the library's collector and limits
(:mod:`~einvoice_validate.schematron._java`) with a smaller young generation and initial heap, so that a server's
processes stay within 500 MB (issue 41): the engine held 465 MB after typical load and three 4,000-line invoices
with the library's (``-Xmn160m``: all of it touched; an initial old generation of 224 MB), 326 MB with ``-Xms160m
-Xmn64m`` (``jstat``: 61 young collections of 2.6 ms in 3,271 documents, no full collection in steady load), whose
server peaked at 502 MB in ``benchmarks/server.py`` (while 4,000-line invoices were validated): hence 16 MB less
young generation. The heap may still grow to 768 MB when the documents need it."""
_HEADER = struct.Struct(">Q")
_READ_BUFFER = 1 << 18
"""Bytes the engine process reads from its socket at once (a typical document and its message fit)."""


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """What the engine process builds: a thread-mode :class:`~einvoice_validate.Pool` with these arguments."""

    options: Options
    workers: int
    prepare: bool | tuple[str, ...] = False
    background: bool | tuple[str, ...] = False
    lane: int = 0
    """Threads besides ``workers`` for the large lane (lower CPU priority; ``Pool(lane=...)``)."""


def line_count(data: bytes) -> int:
    """The invoice lines of a document, counted from its closing tags (a scheduling hint, never a verdict)."""
    return max(data.count(mark) for mark in _LINE_MARKS) // 2


_BLOCK = 4096
"""Bytes :func:`many_lines` looks at in one step for a ``>`` (``bytes.find`` of one byte is ``memchr``)."""
_LONGEST_MARK = max(map(len, _LINE_MARKS))


def many_lines(data: bytes) -> bool:
    """Whether the document has more than :data:`LARGE_LINES` invoice lines (:func:`line_count`), without scanning
    most of a typical document: :func:`line_count` runs only when an upper bound of every mark's count says it
    may pass. Each mark holds ``Line`` and ends with ``>``, so every mark lies in a run of :data:`_BLOCK`-byte
    blocks holding a ``>``, widened by one mark's length: ``Line`` counted there bounds every mark's count (a
    ``Line`` counted twice where runs meet only raises the bound). The base64 of an attachment has no ``>``: its
    blocks are skipped at ``memchr`` speed (the attachments are 87 % of the business cases' bytes; counting
    ``Line`` in all of a document was 8 % of the server process's CPU per request, ``perf``)."""
    if len(data) < (2 * LARGE_LINES + 2) * 4:  # too short to hold that many ``Line``
        return False
    bound = 0
    start = -1  # where the current run of blocks with a ">" begins (-1: not in a run)
    find, count = data.find, data.count
    for at in range(0, len(data), _BLOCK):
        if find(b">", at, at + _BLOCK) >= 0:
            if start < 0:
                start = max(0, at - _LONGEST_MARK)
        elif start >= 0:
            bound += count(b"Line", start, at)
            start = -1
    if start >= 0:
        bound += count(b"Line", start)
    return bound // 2 > LARGE_LINES and line_count(data) > LARGE_LINES


class _Waiting:
    __slots__ = ("future", "large", "message", "since")

    def __init__(self, message: tuple[Any, ...], large: bool, future: asyncio.Future[Any]) -> None:
        self.message = message
        self.large = large
        self.future = future
        self.since = time.monotonic()


class _Link(asyncio.Protocol):
    """The server's end of the socket to one engine process: frames in, replies to :class:`RemotePool`."""

    def __init__(self, pool: RemotePool) -> None:
        self.pool = pool
        self.buffer = bytearray()
        self.transport: Any = None  # an asyncio.Transport (uvloop's is not a subclass)
        self.lost = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        buffer: bytes | bytearray = data
        if self.buffer:  # the rest of a frame that came in part
            self.buffer += data
            buffer = self.buffer
        at = 0
        size = len(buffer)
        while size - at >= 8:
            (length,) = _HEADER.unpack_from(buffer, at)
            if size - at - 8 < length:
                break
            reply = pickle.loads(memoryview(buffer)[at + 8 : at + 8 + length])
            at += 8 + length
            self.pool._on_reply(self, reply)
        if buffer is data:
            if at < size:  # a frame in part: kept until its rest comes
                self.buffer += memoryview(data)[at:]
        elif at:
            del self.buffer[:at]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)

    def send(self, message: tuple[Any, ...]) -> None:
        """One document: ``(id, payload, profile, render, large)`` goes as a frame of its own (see the module
        docstring), the payload's bytes after the pickle of the rest, all in one write without a copy."""
        ident, payload, *rest = message
        head = pickle.dumps((ident, len(payload), *rest), protocol=pickle.HIGHEST_PROTOCOL)
        assert self.transport is not None
        self.transport.writelines((_HEADER.pack(len(head)), head, payload))


class RemotePool:
    """Validating threads in an engine process, fed from this process's event loop (see the module docstring).

    The interface of :class:`~einvoice_validate.Pool` a server uses (``ready``, ``start``, ``close``,
    ``stats``, ``worker_pids``, ``validate_json``, ``render``); :meth:`start` runs in a thread (it blocks until
    the engine process is ready), everything else in the event loop that serves the requests.

    Args:
        workers: validating threads in the engine process (default: one per core).
        queue_size: documents that may wait (here and in the engine) beyond those being validated; None: no
            cap but the deadline.
        queue_wait: seconds a document may be expected to wait before a worker takes it; beyond it
            :class:`PoolBusy` at once.
        retry_after: the least seconds a busy answer asks the caller to wait.
        prepare, background, options: as for :class:`~einvoice_validate.Pool` (``options.mode`` must be
            threads, or unset).
        settle_heap: settle the heap (:mod:`.heap`) of the engine process and of this one after their first
            documents (False: leave this process's collector alone).
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        queue_size: int | None = None,
        queue_wait: float = 10.0,
        retry_after: int = 1,
        prepare: bool | tuple[str, ...] = False,
        background: bool | tuple[str, ...] = False,
        settle_heap: bool = True,
        options: Options | None = None,
    ) -> None:
        from ..schematron.engines import engine_for

        count = (os.cpu_count() or 1) if workers is None else workers
        if count < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        options = options or Options()
        self.engine = engine_for("steady", options.engine)
        self.mode = "threads"
        self.options = options.replace(engine=self.engine, rules_home=options.home(), mode="threads")
        self.workers = count
        self.queue_size = queue_size
        self.queue_wait = queue_wait
        self.retry_after = retry_after
        self.document_timeout = self.options.document_timeout
        self.window = _WINDOW_PER_WORKER * count
        self.large_lane = max(1, count - 1)
        self._config = EngineConfig(self.options, count, prepare, background, lane=self.large_lane)
        self._env = worker_env()
        self._env.setdefault(JVM_OPTIONS_ENV, " ".join(ENGINE_JVM_OPTIONS))
        self._process: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None  # the engine's socket, until the event loop takes it over
        self._link: _Link | None = None
        self._attaching: asyncio.Future[None] | None = None
        self._waiting: deque[_Waiting] = deque()
        self._large_waiting: deque[_Waiting] = deque()
        self._sent: dict[int, tuple[_Waiting, float]] = {}  # id -> (the document, when sent)
        self._large_sent = 0
        self._next_id = 0
        self._per_document = _FIRST_ESTIMATE  # seconds a typical document takes a worker (moving average)
        self._per_large = _FIRST_LARGE_ESTIMATE  # the same for a large one
        self._started = False
        self._closed = False
        self._restarting = False
        self._done = 0
        self._deaths = 0
        self._counters = (0, 0, 0)  # the engine's timeouts, stuck, compiled
        self._guard: asyncio.Task[None] | None = None
        # this process's heap too: a full collection walks the application's objects with the event loop stopped
        self._heap = HeapSettler(settle_heap)
        self._watching: asyncio.Task[None] | None = None  # waits for the engine's socket to close

    # --- life cycle -------------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the engine process and wait until its pool is ready (with ``prepare``: its packs compiled).

        Raises:
            RulesetError: the packs asked for could not be compiled (or the engine process died starting).
        """
        if self._started:
            return
        self._process, self._sock = self._spawn()
        self._started = True

    def _spawn(self) -> tuple[subprocess.Popen[bytes], socket.socket]:
        ours, theirs = socket.socketpair()
        process = subprocess.Popen(
            [sys.executable, "-c", "from einvoice_validate.pool.remote import engine_entry; engine_entry()"],
            stdin=theirs.fileno(),
            env=self._env,
        )
        theirs.close()
        try:
            send(ours.fileno(), self._config)
            reply = recv(ours.fileno())
        except (EOFError, OSError):
            ours.close()
            code = process.wait()
            raise RulesetError("ruleset.invalid", f"the engine process died while starting (exit {code})") from None
        _, status, body = reply
        if status != "ready":
            ours.close()
            process.wait()
            if isinstance(body, EInvoiceValidateError):
                raise body
            raise RuntimeError(f"the engine process failed while starting:\n{body}")
        log.info("engine process %d ready: %d validating threads (%s)", process.pid, self.workers, self.engine)
        return process, ours

    async def attach(self) -> None:
        """Take the engine's socket into this event loop (after :meth:`start`, and after a restart)."""
        if self._link is not None:
            return
        if self._attaching is None:
            self._attaching = asyncio.get_running_loop().create_future()
            try:
                sock, self._sock = self._sock, None
                assert sock is not None
                loop = asyncio.get_running_loop()
                _, link = await loop.connect_accepted_socket(lambda: _Link(self), sock)
                self._link = link
                if self._guard is None:
                    self._guard = asyncio.create_task(self._watch())
                self._watching = asyncio.create_task(self._on_lost(link))
            finally:
                attaching, self._attaching = self._attaching, None
                attaching.set_result(None)
        else:
            await self._attaching

    async def aclose(self, timeout: float = 30.0) -> None:
        """Stop taking documents; those waiting and in the engine finish (up to ``timeout`` seconds), then the
        engine process stops."""
        if self._closed:
            return
        self._closed = True
        deadline = time.monotonic() + timeout
        while (self._waiting or self._large_waiting or self._sent) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        for w in (*self._waiting, *self._large_waiting):
            if not w.future.done():
                w.future.set_exception(WorkerDied("the pool was closed before the document was validated"))
        self._waiting.clear()
        self._large_waiting.clear()
        if self._guard is not None:
            self._guard.cancel()
        link = self._link
        if link is not None and link.transport is not None:
            link.transport.write_eof()  # the engine finishes what it holds, then exits
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.1, deadline - time.monotonic())):
                    await asyncio.shield(link.lost)
        await asyncio.to_thread(self._stop_process, max(1.0, deadline - time.monotonic()))

    def close(self, timeout: float = 30.0) -> None:
        """Stop the engine process (from a thread; :meth:`aclose` in the event loop drains first)."""
        self._closed = True
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_WR)
        self._stop_process(timeout)

    def _stop_process(self, timeout: float) -> None:
        process = self._process
        if process is None:
            return
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_WR)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    # --- submitting -------------------------------------------------------------------------------------

    async def validate_json(self, data: bytes | bytearray | memoryview, *, profile: str | None = None) -> Validated:
        """Validate one document; the report stays JSON.

        Raises:
            PoolBusy: it would wait longer than ``queue_wait`` (or ``queue_size`` documents wait).
            EInvoiceValidateError: the document could not be validated (a dead engine or an overrun:
                :class:`WorkerDied`).
        """
        result: Validated = await self._run(bytes(data), profile, None)
        return result

    async def validate(self, data: bytes | bytearray | memoryview, *, profile: str | None = None) -> Report:
        """Validate one document: its report."""
        return (await self.validate_json(data, profile=profile)).report()

    async def render(
        self, data: bytes | bytearray | memoryview, *, lang: str = "en", fmt: str = "html", profile: str | None = None
    ) -> Rendered:
        """Validate one document and show it as a page (see :meth:`~einvoice_validate.Pool.render`)."""
        from ..render import FORMATS, LANGS

        if lang not in LANGS or fmt not in FORMATS:
            raise ValueError(f"lang must be one of {', '.join(LANGS)} and fmt one of {', '.join(FORMATS)}")
        result: Rendered = await self._run(bytes(data), profile, (lang, fmt))
        return result

    async def _run(self, data: bytes, profile: str | None, render: tuple[str, str] | None) -> Any:
        if not self._started or self._closed:
            raise RuntimeError("the pool is not running (start() it, or it was closed)")
        if self._link is None and not self._restarting:
            await self.attach()
        large = len(data) > LARGE_BYTES or many_lines(data)
        self._admit(large)
        self._next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        waiting = _Waiting((self._next_id, data, profile, render, large), large, future)
        (self._large_waiting if large else self._waiting).append(waiting)
        self._dispatch()
        try:
            return await future
        except asyncio.CancelledError:
            # still waiting here: it never reaches the engine; sent: the engine finishes it, the answer is dropped
            with contextlib.suppress(ValueError):
                (self._large_waiting if large else self._waiting).remove(waiting)
            raise

    def _admit(self, large: bool) -> None:
        """Take the document, or :class:`PoolBusy` when it would wait past ``queue_wait``."""
        waiting = len(self._waiting) + len(self._large_waiting)
        if self.queue_size is not None and waiting >= self.queue_size:
            raise PoolBusy(f"{waiting} documents are waiting for {self.workers} workers", retry_after=self.retry_after)
        if large:  # its lane's wait is its own: it never delays the typical documents
            ahead = len(self._large_waiting) + self._large_sent
            expected = (ahead - self.large_lane + 1) * self._per_large / self.large_lane
            if expected > self.queue_wait:
                retry = max(self.retry_after, math.ceil(expected - self.queue_wait))
                raise PoolBusy(
                    f"{ahead} large documents are ahead: about {expected:.0f} s of waiting, more than the "
                    f"{self.queue_wait:g} s a document may wait",
                    retry_after=retry,
                )
            return
        # the typical documents ahead of this one, on the workers' threads (the large lane has threads of its own)
        threads = self.workers
        ahead = len(self._waiting) + len(self._sent) - self._large_sent
        expected = (ahead - threads + 1) * self._per_document / threads
        if expected > self.queue_wait:
            retry = max(self.retry_after, math.ceil(expected - self.queue_wait))
            raise PoolBusy(
                f"{ahead} documents are ahead for {threads} workers: about {expected:.1f} s of waiting, more than "
                f"the {self.queue_wait:g} s a document may wait",
                retry_after=retry,
            )

    def _dispatch(self) -> None:
        link = self._link
        if link is None or self._restarting:
            return
        now = time.monotonic()
        while True:
            if self._large_waiting and self._large_sent < self.large_lane:
                waiting = self._large_waiting.popleft()
                self._large_sent += 1
            elif self._waiting and len(self._sent) - self._large_sent < self.window:
                waiting = self._waiting.popleft()
            else:
                return
            self._sent[waiting.message[0]] = (waiting, now)
            link.send(waiting.message)

    def _on_reply(self, link: _Link, reply: tuple[int, str, Any, tuple[float, int, int, int]]) -> None:
        ident, status, body, (took, *counters) = reply
        self._counters = (counters[0], counters[1], counters[2])
        entry = self._sent.pop(ident, None)
        if entry is None:
            return
        waiting, _ = entry
        self._done += 1
        self._heap.done()
        if waiting.large:
            self._large_sent -= 1
            self._per_large += (took - self._per_large) * 0.3
        else:  # a first document of a profile compiles it (seconds): an outlier, not the rate
            self._per_document += (min(took, 1.0) - self._per_document) * 0.05
        future = waiting.future
        if not future.done():
            if status == "ok":
                future.set_result(body)
            elif status == "error":
                future.set_exception(body)
            else:
                log.error("unexpected error in the engine process: %s", body)
                future.set_exception(
                    EInvoiceValidateError("server.error", "unexpected error inside the worker", reason="internal")
                )
        self._dispatch()

    # --- the engine process's life ------------------------------------------------------------------------

    async def _on_lost(self, link: _Link) -> None:
        await link.lost
        if self._link is link:
            self._link = None
        self._restarting = not self._closed  # no document is sent meanwhile; they wait for the new engine
        process = self._process
        code = await asyncio.to_thread(process.wait) if process is not None else -1
        held = list(self._sent.values())
        self._sent.clear()
        self._large_sent = 0
        if self._closed:
            return
        self._deaths += 1
        log.error("the engine process died (exit code %s) holding %d document(s); starting a new one", code, len(held))
        for waiting, _ in held:
            if not waiting.future.done():
                waiting.future.set_exception(
                    WorkerDied(f"the engine process validating the document died (exit code {code})")
                )
        try:
            while not self._closed:
                try:
                    self._process, self._sock = await asyncio.to_thread(self._spawn)
                    break
                except Exception:
                    log.exception("the new engine process could not start; trying again in 5 s")
                    await asyncio.sleep(5)
        finally:
            self._restarting = False
        if not self._closed:
            await self.attach()
            self._dispatch()

    async def _watch(self) -> None:
        """Once a second: a document overdue by ``document_timeout`` + 30 s means a hung engine: kill it."""
        while True:
            await asyncio.sleep(1.0)
            limit = self.document_timeout + _OVERDUE_GRACE
            now = time.monotonic()
            process = self._process
            if process is not None and any(now - sent > limit for _, sent in self._sent.values()):
                log.error("the engine process has not answered for %.0f s: killing it", limit)
                with contextlib.suppress(OSError):
                    process.kill()

    # --- state ------------------------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """True once documents can be taken: started, not closed, the engine process alive and not all of its
        threads stuck after overruns."""
        if not self._started or self._closed or self._restarting:
            return False
        process = self._process
        return process is not None and process.poll() is None and self._counters[1] < self.workers

    def worker_pids(self) -> list[int]:
        """The engine process's id (the watchdog of :mod:`einvoice_validate.server` sees it stopped)."""
        return [self._process.pid] if self._process is not None and self._process.poll() is None else []

    def stats(self) -> dict[str, int]:
        """Counters as :meth:`~einvoice_validate.Pool.stats` gives them (``workers`` and ``alive`` are threads;
        ``deaths`` counts engine processes lost; ``large`` the documents in the large lane now)."""
        timeouts, stuck, compiled = self._counters
        alive = self.workers - stuck if self.ready else 0
        return {
            "workers": self.workers,
            "alive": alive,
            "queued": len(self._waiting) + len(self._large_waiting),
            "in_flight": len(self._sent),
            "done": self._done,
            "deaths": self._deaths,
            "recycled": 0,
            "timeouts": timeouts,
            "stuck": stuck,
            "compiled": compiled,
            "large": self._large_sent + len(self._large_waiting),
        }


def server_pool(
    *,
    workers: int | None,
    queue_size: int | None,
    queue_wait: float,
    max_documents: int | None,
    retry_after: int,
    prepare: bool | tuple[str, ...],
    background: bool | tuple[str, ...],
    options: Options,
) -> Any:
    """The pool a server runs: in thread mode (the default on saxon-java) a :class:`RemotePool` (the validating
    threads in an engine process, apart from the event loop); in process mode a :class:`~einvoice_validate.Pool`
    of worker processes (whose own queue is ``queue_size``, default 8 per worker)."""
    from ..schematron.engines import engine_for
    from .service import Pool

    shared: dict[str, Any] = {
        "workers": workers,
        "queue_size": queue_size,
        "retry_after": retry_after,
        "prepare": prepare,
        "background": background,
        "options": options,
    }
    engine = engine_for("steady", options.engine)
    if (options.mode or ("threads" if engine == "saxon-java" else "processes")) == "threads":
        return RemotePool(queue_wait=queue_wait, **shared)
    return Pool(max_documents=max_documents, **shared)


# --- the engine process ------------------------------------------------------------------------------------


def engine_entry() -> None:
    """Entry point of the engine process: its socket is stdin; a thread-mode pool; one reply per document."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server drains, then closes the socket: that stops us
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    fd = os.dup(0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)  # stray prints go to stderr
    try:
        config: EngineConfig = recv(fd)
    except (EOFError, OSError):
        return
    from .service import Pool

    lock = threading.Lock()

    def reply(message: tuple[Any, ...]) -> None:
        with lock:
            send(fd, message)

    try:
        pool = Pool(
            workers=config.workers,
            queue_size=1_000_000,  # the server keeps the queue; the engine holds only its window
            max_documents=0,
            lane=config.lane,
            prepare=config.prepare,
            background=config.background,
            options=config.options,
        )
        pool.start()
    except EInvoiceValidateError as exc:
        reply((-1, "error", exc.with_traceback(None)))
        return
    except Exception:
        reply((-1, "raise", traceback.format_exc()))
        return
    reply((-1, "ready", os.getpid()))
    _serve_engine(fd, pool, reply)


class _Timed(concurrent.futures.Future[Any]):
    """A document's future in the engine that notes when a thread took it (the pool's slots call
    ``set_running_or_notify_cancel`` then)."""

    began: float | None = None

    def set_running_or_notify_cancel(self) -> bool:
        self.began = time.monotonic()
        return super().set_running_or_notify_cancel()


def _serve_engine(fd: int, pool: Any, reply: Any) -> None:
    from .job import Job

    def counters(future: _Timed) -> tuple[float, int, int, int]:
        took = time.monotonic() - future.began if future.began is not None else 0.0
        watchdog = pool._watchdog
        if watchdog is None:
            return (took, 0, 0, 0)
        return (took, watchdog.timeouts, watchdog.stuck, len(pool._compiled))

    def answer(ident: int, future: Any) -> None:
        exc = future.exception()
        message: tuple[Any, ...]
        if exc is None:
            message = (ident, "ok", future.result(), counters(future))
        elif isinstance(exc, EInvoiceValidateError):
            message = (ident, "error", exc.with_traceback(None), counters(future))
        else:
            message = (ident, "raise", "".join(traceback.format_exception(exc)), counters(future))
        with contextlib.suppress(OSError):  # the server is gone: nothing to answer
            reply(message)

    # buffered: a document's length, message and bytes usually come with one system call (each call lets go of
    # the GIL and must wait to take it back from the validating threads), its bytes then copied once from the buffer
    stream = open(fd, "rb", buffering=_READ_BUFFER, closefd=False)  # noqa: SIM115  # read until the end

    def take(size: int) -> bytes:
        data = stream.read(size)
        if len(data) < size:
            raise EOFError
        return data

    while True:
        try:
            (length,) = _HEADER.unpack(take(_HEADER.size))
            ident, size, profile, render, large = pickle.loads(take(length))
            payload = take(size)
        except (EOFError, OSError):
            break
        future = _Timed()
        try:
            pool._submit(Job(ident, "document", payload, profile, render=render), future, large=large)
        except Exception as exc:  # never leave the server waiting
            future.set_exception(exc)
        future.add_done_callback(functools.partial(answer, ident))
    pool.close()  # what it holds finishes first; the answers still go out
