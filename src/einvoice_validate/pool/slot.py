"""One worker of a runner, the slot the batch and the service pool both use: start it, give it one document at a
time, notice a death or an overrun, replace it.

Each slot is driven by one thread of this process that takes a :class:`Job` (from the runner's ``take``), runs
it and hands the outcome to the runner's ``done``, exactly once per job. Two kinds:

* :class:`ProcessSlot`: a worker process (:mod:`.worker`) with its own validator. Its thread sends the document,
  waits for the reply up to the document's time limit, and starts a new process when the old one died (the
  document it held gets :class:`~einvoice_validate.errors.WorkerDied`, reason ``worker-died``) or overran (it is
  killed; reason ``timeout``). A process found dead while idle costs nothing. After ``max_documents`` documents it
  is replaced (with ``prepare``, the replacement compiles while the old one still works).
* :class:`ThreadSlot`: the thread itself validates, with the validator every slot of the runner shares (one JVM
  for ``saxon-java``). A :class:`Watchdog` answers a document that overruns its time limit with
  ``WorkerDied`` (reason ``timeout``) at the limit, stops the Java thread (``Thread.stop``: a stylesheet stops at
  once) and puts a fresh thread in the slot, so the slot keeps working; the stopped thread ends when it comes
  back (a thread stuck outside Java, in Python or C code, cannot be stopped: it is left to finish, counted in
  ``stuck``, and its result is dropped). A thread that dies (an exception escaping the validation itself) costs
  its document (``worker-died``) and is replaced. What thread mode cannot isolate: a crash of the JVM (or of any
  native code) ends the whole process, every thread with it.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import Detail, EInvoiceValidateError, RulesetError, WorkerDied
from ..findings import Report
from .job import Job, Rendered, Validated, produce
from .worker import Reply, WorkerConfig, WorkerProcess, recv, send

if TYPE_CHECKING:
    from ..render import Renderer

__all__ = [
    "Done",
    "Outcome",
    "ProcessSlot",
    "Slot",
    "Take",
    "ThreadSlot",
    "Watchdog",
]


Outcome = Report | Validated | Rendered | BaseException
"""A report (thread slots of a batch), a :class:`Validated` or :class:`Rendered` (process slots; thread slots of
a pool), or the exception that stands for the document (an :class:`EInvoiceValidateError`, else a bug)."""
Take = Callable[["Slot"], "Job | None"]
LANE_NICE = 10
"""Niceness added to a large-lane thread (:class:`ThreadSlot` ``nice``): under Linux's scheduler it gets about a
tenth of a core's share against a thread at the default, so the typical documents keep their threads' cores while
a large one runs, and it takes whatever they leave idle."""
"""Blocks until the slot's next job; None stops the slot."""
Done = Callable[["Slot", Job, Outcome], None]


class Slot:
    """What both kinds share: the driving thread, the job in progress, delivery exactly once."""

    def __init__(self, number: int, take: Take, done: Done, timeout: float) -> None:
        self.number = number
        self.timeout = timeout
        self.job: Job | None = None  # in progress
        self.deadline: float | None = None
        self.documents = 0  # done by the current worker
        self.syntaxes: set[str] = set()  # compiled by the current worker (what the batch's router knows)
        self._take = take
        self._done = done
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the driving thread (the worker itself starts with the first document, or when :meth:`prepare`
        is asked for)."""
        self._thread = threading.Thread(target=self._loop, name=f"einvoice-slot-{self.number}", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def busy(self) -> bool:
        return self.job is not None

    def _begin(self, job: Job) -> None:
        with self._lock:
            self.job = job
            self.deadline = time.monotonic() + self.timeout

    def _finish(self, job: Job, outcome: Outcome) -> bool:
        """Deliver ``outcome`` unless ``job`` was answered already (the first of the worker and the watchdog
        wins)."""
        with self._lock:
            if self.job is not job:
                return False
            self.job = None
            self.deadline = None
        self._done(self, job, outcome)
        return True

    def _loop(self) -> None:
        raise NotImplementedError


# --- worker processes ----------------------------------------------------------------------------------------


class ProcessSlot(Slot):
    """A worker process (see the module docstring); ``max_documents`` (0: never) recycles it."""

    def __init__(
        self,
        number: int,
        take: Take,
        done: Done,
        timeout: float,
        config: WorkerConfig,
        env: dict[str, str],
        max_documents: int = 0,
    ) -> None:
        super().__init__(number, take, done, timeout)
        self.config = config
        self.env = env
        self.max_documents = max_documents
        self.proc: WorkerProcess | None = None
        self.next: WorkerProcess | None = None  # a replacement compiling its packs (recycling)
        self.deaths = 0
        self.recycled = 0
        self.timeouts = 0
        self.heal = False  # start the replacement of a dead worker at once (a pool), not with the next document

    # -- life cycle (runner side)

    def prepare(self) -> None:
        """Start the worker now and wait until it has compiled its packs (``config.prepare``).

        Raises:
            RulesetError: the worker could not compile them (or died doing so).
        """
        if self.proc is None:
            self.proc = self._fresh()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.alive()

    def pids(self) -> list[int]:
        return [p.pid for p in (self.proc, self.next) if p is not None]

    def close(self, timeout: float = 1.0) -> None:
        """Stop the worker processes (each finishes its document, or is killed after ``timeout``)."""
        for proc in (self.proc, self.next):
            if proc is not None:
                proc.close(timeout=timeout)
        self.proc = self.next = None

    def kill(self) -> None:
        """Kill the worker at once (a batch abandoned while it held a document)."""
        proc = self.proc
        if proc is not None:
            with contextlib.suppress(OSError):
                proc.process.kill()

    # -- the driving thread

    def _loop(self) -> None:
        while True:
            job = self._take(self)
            if job is None:
                return
            self._begin(job)
            try:
                outcome = self._run(job)
            except BaseException as exc:  # never leave a caller waiting
                outcome = exc
            self._finish(job, outcome)
            if self.max_documents and self.documents >= self.max_documents and self.proc is not None:
                self._recycle()
            if self.proc is None and self.heal:  # whole again without waiting for the next document
                with contextlib.suppress(Exception):  # a failure is left to the next document to meet
                    self.proc = self._fresh()

    def _fresh(self) -> WorkerProcess:
        proc = WorkerProcess(self.config, self.env)
        try:
            await_ready(proc, self.config)
        except BaseException:
            proc.process.kill()
            proc.close()
            raise
        self.syntaxes = set()
        self.documents = 0
        return proc

    def _run(self, job: Job) -> Outcome:
        self._maybe_swap()
        proc: WorkerProcess | None = None
        for attempt in range(2):
            if self.proc is not None and not self.proc.alive():  # died while idle: it held no document
                self.proc.close()
                self.proc = None
            if self.proc is None:
                self.proc = self._fresh()
            proc = self.proc
            try:
                send(proc.stdin, (job.index, job.name, job.payload, job.profile, job.render))
            except OSError:
                proc.process.kill()  # it died (or is dying) before it took the document
                proc.close(timeout=1.0)
                self.proc = None
                if attempt == 0:
                    continue  # the replacement takes the document
                raise
            break
        assert proc is not None
        if job.syntax is not None:
            self.syntaxes.add(job.syntax)
        outcome = self._reply(proc, job)
        self.documents += 1
        return outcome

    def _reply(self, proc: WorkerProcess, job: Job) -> Outcome:
        poller = select.poll()
        poller.register(proc.stdout, select.POLLIN | select.POLLHUP | select.POLLERR)
        if not poller.poll(self.timeout * 1000):
            proc.process.kill()
            self._bury(proc)
            self.timeouts += 1
            return WorkerDied(Detail("detail.timeout-process", job.name, f"{self.timeout:g}"), reason="timeout")
        try:
            reply: Reply = recv(proc.stdout)
        except (EOFError, OSError):
            code = self._bury(proc)
            return WorkerDied(Detail("detail.worker-process-died", job.name, code))
        _, status, body = reply
        if status == "ok":
            assert isinstance(body, Validated | Rendered)
            return body
        if status == "error":
            assert isinstance(body, EInvoiceValidateError)
            return body
        return RuntimeError(f"a worker failed on {job.name}:\n{body}")

    def _bury(self, proc: WorkerProcess) -> int:
        """A worker died holding a document: count it, reap it; the next document starts a new one."""
        code = proc.close(timeout=1.0)
        self.deaths += 1
        if self.proc is proc:
            self.proc = None
        return code

    def _recycle(self) -> None:
        self.recycled += 1
        if self.config.prepare:
            if self.next is None:
                self.next = WorkerProcess(self.config, self.env)  # compiles while the old one works
            return
        old, self.proc = self.proc, None
        if old is not None:
            old.close()

    def _maybe_swap(self) -> None:
        """Put a prepared replacement in place of the current worker once it is ready."""
        nxt = self.next
        if nxt is None:
            return
        poller = select.poll()
        poller.register(nxt.stdout, select.POLLIN | select.POLLHUP | select.POLLERR)
        if not poller.poll(0):
            return  # still compiling
        self.next = None
        try:
            await_ready(nxt, self.config)
        except Exception:
            nxt.process.kill()
            nxt.close()
            return  # keep the old worker; the next recycling tries again
        old, self.proc, self.documents, self.syntaxes = self.proc, nxt, 0, set()
        if old is not None:
            threading.Thread(target=old.close, daemon=True).start()


def await_ready(proc: WorkerProcess, config: WorkerConfig) -> None:
    """Wait for a worker started with ``config.prepare`` to report its packs compiled.

    Raises:
        RulesetError: it could not compile them, or died doing so.
    """
    if not config.prepare:
        return
    try:
        reply: Reply = recv(proc.stdout)
    except (EOFError, OSError):
        code = proc.close()
        raise RulesetError("ruleset.invalid", Detail("detail.worker-died-compiling", code)) from None
    _, status, body = reply
    if status == "ready":
        return
    if status == "error":
        assert isinstance(body, EInvoiceValidateError)
        raise body
    raise RuntimeError(f"a worker failed while compiling the packs:\n{body}")


# --- threads over one shared validator --------------------------------------------------------------------------


Work = Callable[[Job], "Report | Validated | Rendered"]
"""What a thread slot does with a job (validate or render it with the shared validator)."""


class ThreadSlot(Slot):
    """A thread validating with the shared validator (see the module docstring). ``work`` validates one job;
    ``watchdog`` answers overruns."""

    def __init__(
        self,
        number: int,
        take: Take,
        done: Done,
        timeout: float,
        work: Work,
        watchdog: Watchdog,
        java: bool,
        nice: int = 0,
    ) -> None:
        super().__init__(number, take, done, timeout)
        self.nice = nice  # added to the CPU niceness of each of its threads (a large-lane slot: LANE_NICE)
        self._work = work
        self._java = java  # the validator runs saxon-java: the JVM is started before the first document
        self._watchdog = watchdog
        self._generation = 0  # the thread now driving the slot; a retired thread sees a later one and ends
        self._closing = False  # stop_now was called
        self.java_thread: Any = None  # the java.lang.Thread of the driving thread, once the JVM runs
        watchdog.add(self)

    def start(self) -> None:
        with self._lock:
            self._spawn()

    def _spawn(self) -> None:
        """A new driving thread (called with the lock held); the one before it ends when it comes back."""
        self._generation += 1
        self.java_thread = None
        generation = self._generation
        self._thread = threading.Thread(
            target=self._drive, args=(generation,), name=f"einvoice-slot-{self.number}.{generation}", daemon=True
        )
        self._thread.start()

    def _drive(self, generation: int) -> None:
        # the Java engine's module loads only when that engine runs
        from ..schematron._java import detach_thread, java_thread, start_jvm

        if self.nice:  # this thread only (Linux: a thread is a task of its own); Java runs on it too
            with contextlib.suppress(OSError, AttributeError):
                tid = threading.get_native_id()
                os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + self.nice)
        job: Job | None = None
        try:
            while generation == self._generation:
                job = self._take(self)
                if job is None:
                    return
                if self.java_thread is None and self._java:
                    with contextlib.suppress(Exception):  # (a broken installation: the document will say so)
                        start_jvm()  # not on the document's clock; its thread can then be stopped
                    self.java_thread = java_thread()
                self._begin(job)
                self._watchdog.wake()
                try:
                    outcome: Outcome = self._work(job)
                except Exception as exc:  # a document's error, a bug, ThreadDeath after an overrun
                    outcome = exc
                    if self._closing and not isinstance(exc, EInvoiceValidateError):
                        outcome = WorkerDied(Detail("detail.runner-closed", job.name))
                if generation != self._generation or not self._finish(job, outcome):
                    self._watchdog.came_back()  # stopped after an overrun: the job was answered already
                    return
                job = None
                self.documents += 1
        finally:
            if job is not None and generation == self._generation:  # the thread died holding a document
                self._finish(job, WorkerDied(Detail("detail.worker-thread-died", job.name)))
                self.start()
            detach_thread()

    def retire(self) -> bool:
        """If the job in progress overran: answer it with ``timeout``, stop its Java thread and put a fresh thread
        in the slot; True when it did."""
        with self._lock:
            job, java, old = self.job, self.java_thread, self._thread
            if job is None or self.deadline is None or self.deadline > time.monotonic():
                return False  # finished meanwhile
            self.job = self.deadline = None  # answered here: the old thread's own answer will be dropped
            self._watchdog.overran()  # counted before the caller hears of it
            self._spawn()
        reason = Detail("detail.timeout-thread", job.name, f"{self.timeout:g}")
        self._done(self, job, WorkerDied(reason, reason="timeout"))
        if old is not None:
            self._watchdog.retired.append((old, java))
        if java is not None:
            from ..schematron._java import stop_java_thread  # the Java engine's module loads only when that engine runs

            stop_java_thread(java)
        return True

    def stop_now(self) -> None:
        """Stop the Java thread of a document still in progress (the runner is closing and will not wait)."""
        java = self.java_thread
        if self.job is not None and java is not None:
            from ..schematron._java import stop_java_thread  # the Java engine's module loads only when that engine runs

            self._closing = True
            stop_java_thread(java)

    def _loop(self) -> None:  # pragma: no cover - ThreadSlot drives through _drive
        raise NotImplementedError


class Watchdog:
    """One thread per runner in thread mode: answers the documents of :class:`ThreadSlot` s that overrun their
    time limit (:meth:`ThreadSlot.retire`). It sleeps until the earliest deadline (or until a slot starts a
    document while none was running)."""

    def __init__(self) -> None:
        self._slots: list[ThreadSlot] = []
        self._cond = threading.Condition()
        self._idle = True
        self._closed = False
        self.timeouts = 0
        self.stuck = 0  # threads stopped after an overrun that have not come back yet
        self.retired: list[tuple[threading.Thread, Any]] = []  # (thread, its java.lang.Thread or None)
        self._thread = threading.Thread(target=self._loop, name="einvoice-watchdog", daemon=True)
        self._thread.start()

    def add(self, slot: ThreadSlot) -> None:
        self._slots.append(slot)

    def wake(self) -> None:
        """A slot started a document (wakes the watchdog only when it was waiting for one)."""
        with self._cond:
            if self._idle:
                self._cond.notify()

    def overran(self) -> None:
        """A slot's document overran: its thread is being stopped (counted until it comes back)."""
        with self._cond:
            self.timeouts += 1
            self.stuck += 1

    def came_back(self) -> None:
        with self._cond:
            self.stuck -= 1

    def close(self, grace: float = 2.0) -> None:
        """Stop watching; stop the Java threads still running a document (an overrun one, or one the runner is no
        longer waiting for) and give them ``grace`` seconds to come back: a thread still inside Java when the
        interpreter exits would abort the process ("FATAL: exception not rethrown"). The runner calls it when it
        closes (and a runner in thread mode closes itself before the interpreter exits: see ``before_exit``)."""
        with self._cond:
            self._closed = True
            self._cond.notify()
        from ..schematron._java import stop_java_thread  # the Java engine's module loads only when that engine runs

        for slot in self._slots:
            slot.stop_now()
        for _, java in self.retired:
            if java is not None:
                stop_java_thread(java)
        deadline = time.monotonic() + grace
        for thread, _ in self.retired:
            thread.join(max(0.0, deadline - time.monotonic()))
        while any(slot.job is not None for slot in self._slots) and time.monotonic() < deadline:
            time.sleep(0.01)  # the stopped threads answer (and drop) their documents

    def _loop(self) -> None:
        with self._cond:
            while not self._closed:
                now = time.monotonic()
                earliest: float | None = None
                for slot in list(self._slots):
                    deadline = slot.deadline
                    if deadline is None:
                        continue
                    if deadline <= now:
                        self._cond.release()
                        try:
                            slot.retire()  # counts itself (overran) before it answers the document
                        finally:
                            self._cond.acquire()
                        continue
                    earliest = deadline if earliest is None else min(earliest, deadline)
                self._idle = earliest is None
                self._cond.wait(None if earliest is None else max(0.0, earliest - time.monotonic()) + 0.001)


def validate_here(
    validator: Any, job: Job, as_json: bool, renderer: Renderer | None = None
) -> Report | Validated | Rendered:
    """A thread slot's work: ``job`` validated by the shared ``validator`` (a batch: the report); for a pool,
    :func:`produce` (serialised in the validating thread, not in the caller's)."""
    if as_json:
        return produce(validator, job, renderer)
    report: Report = validator.validate(job.payload, profile=job.profile)
    return report
