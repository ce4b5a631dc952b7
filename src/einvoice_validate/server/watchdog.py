"""Stuck workers: a worker process that cannot run (stopped by SIGSTOP or a debugger, a frozen cgroup) holds its
document without end, and the pool's ``document_timeout`` (120 s) is far beyond a client's patience.

Once a second the watchdog reads each worker's state from ``/proc/<pid>/stat`` (Linux; elsewhere it sees
nothing). A worker found stopped makes health say ``degraded``; once it has been stopped for ``stall_timeout``
seconds, the requests waiting for the pool since before it stopped (the one it holds is among them: a stopped
worker takes no new document) are answered ``500 server.error`` (reason ``stalled``). A worker that runs again
is forgotten. A document that merely takes long on a running worker is left to ``document_timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from ..errors import Detail, WorkerDied

__all__ = ["Watchdog", "process_state"]

T = TypeVar("T")
log = logging.getLogger("einvoice_validate.server")
_STOPPED = ("T", "t")  # stopped by a signal, or by a tracer


def process_state(pid: int) -> str | None:
    """The one-letter state of process ``pid`` (``R``, ``S``, ``T`` …), None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return None
    _, _, rest = stat.rpartition(b")")  # the command name may hold spaces and parentheses
    fields = rest.split()
    return fields[0].decode("ascii", "replace") if fields else None


class _Waiting:
    __slots__ = ("since", "stalled", "task")

    def __init__(self, task: asyncio.Task[object]) -> None:
        self.since = time.monotonic()
        self.task = task
        self.stalled = False


class Watchdog:
    """Watches the worker processes named by ``pids`` (see the module docstring)."""

    def __init__(self, pids: Callable[[], list[int]], stall_timeout: float, interval: float = 1.0) -> None:
        self.pids = pids
        self.stall_timeout = stall_timeout
        self.interval = interval
        self.stopped: dict[int, float] = {}  # pid -> when it was first seen stopped
        self._waiting: set[_Waiting] = set()

    async def guard(self, awaitable: Awaitable[T]) -> T:
        """Await the pool's answer; :class:`WorkerDied` (reason ``stalled``) when a stuck worker holds it. The
        answer is awaited in the caller's own task (the watchdog cancels that task, then takes the cancellation
        back): no task of its own per request."""
        task = asyncio.current_task()
        assert task is not None, "guard() runs in a task"
        waiting = _Waiting(task)
        self._waiting.add(waiting)
        try:
            return await awaitable
        except asyncio.CancelledError:
            if waiting.stalled:
                task.uncancel()
                raise WorkerDied(
                    Detail("detail.worker-stalled", f"{self.stall_timeout:g}"),
                    reason="stalled",
                ) from None
            raise
        finally:
            self._waiting.discard(waiting)

    async def run(self) -> None:
        """Check every ``interval`` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.interval)
            with contextlib.suppress(Exception):  # a pool between two states: the next round sees it
                self.check()

    def check(self, now: float | None = None) -> None:
        """One round: note stopped workers, answer the requests a stuck one may hold."""
        now = time.monotonic() if now is None else now
        seen: dict[int, float] = {}
        for pid in self.pids():
            if process_state(pid) in _STOPPED:
                seen[pid] = self.stopped.get(pid, now)
                if pid not in self.stopped:
                    log.warning("worker %d is stopped (not running); health says degraded", pid)
        for pid in self.stopped.keys() - seen.keys():
            log.info("worker %d runs again (or is gone)", pid)
        self.stopped = seen
        for since in seen.values():
            if now - since < self.stall_timeout:
                continue
            for waiting in list(self._waiting):
                if waiting.since < since and not waiting.stalled:
                    waiting.stalled = True
                    waiting.task.cancel()
                    log.warning(
                        "answered a request with server.error: a worker has been stopped for %.0f s", now - since
                    )

    @property
    def degraded(self) -> bool:
        """A worker is stopped."""
        return bool(self.stopped)
