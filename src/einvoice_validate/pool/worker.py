"""The worker process and its protocol: one :class:`~einvoice_validate.Validator` per process, one document at a
time, over length-prefixed pickles on the worker's stdin/stdout (the process mode of the runners; the parent
side of a worker is :class:`WorkerProcess`, driven by a :class:`~.slot.ProcessSlot`).

A worker is a fresh interpreter (``python -c`` importing this module), not a multiprocessing child: nothing of
the parent is inherited (no Saxon state, safe whatever the parent loaded), and the caller's ``__main__`` is
never re-imported (a script without the ``if __name__ == "__main__"`` guard still works). The worker moves its
own stdout to stderr first, so whatever Saxon or a library prints cannot corrupt the protocol. A dead worker
shows as end-of-file on its pipe.

Messages, parent -> worker: the :class:`WorkerConfig`, then one :data:`Task` per document; end-of-file stops
the worker. Worker -> parent: with ``config.prepare``, first ``(-1, "ready", None)`` once every profile's packs
are compiled (or ``(-1, "error", ...)``); then one :data:`Reply` per task:
``(index, "ok", outcome)``, the outcome a :class:`~.job.Validated` (report JSON bytes, sha256 of the document
bytes or None) or, for a task with ``render``, a :class:`~.job.Rendered` (the page; see :func:`~.job.produce`),
``(index, "error", exception)`` for an :class:`EInvoiceValidateError` (pickled whole: same class, code, detail and
reason, see ``EInvoiceValidateError.__reduce__``), or ``(index, "raise", traceback text)`` for an unexpected
exception (a bug).

Test-only hook: ``WorkerConfig.crash_on``: the worker calls ``os._exit(70)`` on a document whose name (or its
base name) equals it, so the tests can kill a worker deterministically.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..errors import EInvoiceValidateError
from ..options import Options
from ..validator import Validator
from .heap import HeapSettler
from .job import Job, produce

__all__ = ["Reply", "Task", "WorkerConfig", "WorkerProcess", "read_exact", "recv", "send", "worker_env"]

TEST_CRASH_ENV = "EINVOICE_VALIDATE_TEST_CRASH_ON"
"""Read once by a pool when it starts (never by the workers): the value becomes ``WorkerConfig.crash_on``."""
TEST_CRASH_EXIT = 70
JOIN_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    """How a worker builds its validator: ``Validator(options=options)`` (the runner's options, passed through
    whole, so a new option needs no change here).

    Attributes:
        options: the validator's :class:`~einvoice_validate.options.Options` (engine and rules home resolved).
        prepare: compile every profile's packs (or those of the profiles named) before the first document and
            report ``ready``; False: compile on first use.
        crash_on: test-only, see the module docstring.
        settle_heap: settle the worker's heap after its first documents (:mod:`.heap`).
    """

    options: Options
    prepare: bool | tuple[str, ...] = False
    crash_on: str | None = None
    settle_heap: bool = True


Task = tuple[int, str, "str | bytes", "str | None", "tuple[str, str] | None"]
"""(index, name, payload: a path or the document's bytes, profile to force or None, ``(lang, fmt)`` to render the
document as a page or None to validate it)."""
Reply = tuple[int, Literal["ok", "ready", "error", "raise"], Any]
_HEADER = struct.Struct(">Q")


def send(fd: int, obj: object) -> None:
    """Write one message (a length-prefixed pickle) to ``fd``, in one system call when it fits (the reader then
    wakes once, not once for the length and again for the pickle)."""
    body = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    header = _HEADER.pack(len(body))
    written = os.writev(fd, (header, body)) - len(header)
    if written < 0:  # rare: not even the length went (the rest below blocks as the pipe or socket drains)
        _write_all(fd, memoryview(header)[len(header) + written :])
        written = 0
    _write_all(fd, memoryview(body)[written:])


def _write_all(fd: int, data: memoryview) -> None:
    while data:
        data = data[os.write(fd, data) :]


def read_exact(fd: int, size: int) -> bytes:
    """``size`` bytes from ``fd``; ``EOFError`` when it ends before."""
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def recv(fd: int) -> Any:
    """Read one message from ``fd``; ``EOFError`` when the other side is gone."""
    (size,) = _HEADER.unpack(read_exact(fd, _HEADER.size))
    return pickle.loads(read_exact(fd, size))


def worker_entry() -> None:
    """Entry point of a worker process: one Validator for life, one document at a time, until end-of-file."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it stops the workers
    inp, out = os.dup(0), os.dup(1)
    os.dup2(2, 1)  # stray prints go to stderr, never into the protocol
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    try:
        config: WorkerConfig = recv(inp)
    except EOFError:
        return

    validator: Any = None
    renderer: Any = None  # a Renderer over the validator, built for the first page
    if config.prepare:
        ready: Reply
        try:
            validator = _build(config)
            validator.prepare(*(config.prepare if isinstance(config.prepare, tuple) else ()))
            ready = (-1, "ready", os.getpid())
        except EInvoiceValidateError as exc:
            ready = (-1, "error", exc.with_traceback(None))
        except Exception:
            ready = (-1, "raise", traceback.format_exc())
        send(out, ready)
        if ready[1] != "ready":
            return
    heap = HeapSettler(config.settle_heap)
    while True:
        try:
            index, name, payload, profile, render = recv(inp)
        except (EOFError, OSError):
            return  # the parent is done (or gone)
        if config.crash_on is not None and config.crash_on in (name, os.path.basename(name)):
            os._exit(TEST_CRASH_EXIT)  # test-only hook
        reply: Reply
        try:
            if validator is None:
                validator = _build(config)
            if render is not None and renderer is None:
                from ..render import Renderer  # a worker that never renders does without the viewer

                renderer = Renderer(validator)
            reply = (index, "ok", produce(validator, Job(index, name, payload, profile, render=render), renderer))
        except EInvoiceValidateError as exc:
            reply = (index, "error", exc.with_traceback(None))
        except Exception:
            reply = (index, "raise", traceback.format_exc())
        try:
            send(out, reply)
        except OSError:
            return
        heap.done()


def _build(config: WorkerConfig) -> Any:
    return Validator(options=config.options)


def worker_env() -> dict[str, str]:
    """The parent's environment, with this package importable however the parent found it."""
    env = dict(os.environ)
    package_parent = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
    return env


class WorkerProcess:
    """One worker process (parent side): started with its config, fed tasks, stopped by closing its input."""

    def __init__(self, config: WorkerConfig, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from einvoice_validate.pool.worker import worker_entry; worker_entry()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            bufsize=0,
        )
        send(self.stdin, config)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def stdin(self) -> int:
        assert self.process.stdin is not None
        return self.process.stdin.fileno()

    @property
    def stdout(self) -> int:
        assert self.process.stdout is not None
        return self.process.stdout.fileno()

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        """Close its input: the worker finishes its document and exits."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()

    def close(self, timeout: float = JOIN_TIMEOUT) -> int:
        """Wait for the worker to exit (killing it after ``timeout`` seconds); its exit code."""
        self.stop()
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        return code
