"""The server's front process alone: its CPU per request, with the engine process replaced by a stand-in that takes
no CPU (each document "takes" ``--doc-ms`` on one of ``--workers`` idle timers, then the same canned report goes
back over the same socket and wire), so that the front's own cost is measured without the engine's noise.

Two servers run at once (``--a`` and ``--b``: source trees, e.g. a copy of main's ``src`` and this worktree's),
both warm; wrk posts the 66 XRechnung business cases to each in turn, alternating which goes first, for
``--rounds`` rounds of ``--duration`` seconds at concurrency ``-c``. Per round and server: the front's user and
system CPU per request from ``/proc/PID/stat`` (robust on this shared machine, where req/s drifts 10-25 %), and the
rate; then the medians and the per-round ratios b/a.

Usage: python benchmarks/front_cost.py [--a DIR/src] [--b src] [--rounds 5] [--duration 10] [--warmup 10] [-c 8]
       [--doc-ms 3.4] [--workers 2]
       (``python benchmarks/front_cost.py --serve PORT`` runs one server with the stand-in engine: what the A/B run
       starts, with ``PYTHONPATH`` naming the source tree)

What the front spends per request, and what was cut (2026-11-29, session 8; the real server and this one, wrk -c 8,
the business cases (91 KB on average, 87 % of it attachments' base64), ``perf record -e cpu-clock -g`` of the front
(on-CPU only), ``py-spy --native`` samples whose leaf is not a system call, ``strace -c``; the machine was shared
with the lead's and w-fixed's benchmarks throughout, load 4-8 on 2 cores):

* on CPU: the interpreter 62 %, the kernel 20 % (sockets: the body in from TCP, out to the engine, the answer;
  context switches 4 %), libc 10 % (``memmove`` 6.6 %: copies of the body), uvloop 4 %, llhttp 1.3 %. Python
  per request, inclusive: uvicorn + Starlette + our middleware and checks about half, the access log line 8 %,
  the reply from the engine 12 %, the parser callbacks 19 %. System calls per request: 5 ``getpid`` (Python
  3.11's ``asyncio.get_running_loop`` asks for it every call), 2 ``write`` (the answer, the log line), 1.5
  ``read``, 1.5 ``epoll_pwait``, 1 ``writev`` (to the engine), 1 ``wait4`` (``Popen.poll`` of ``ready``).
* cut: ``many_lines`` (the large-lane hint) counted ``Line`` in every byte: 7.8 % of the front's CPU (50 µs per
  document; ``bytes.count`` runs at 2 GB/s, not ``memchr`` speed); now only 4 KB blocks holding a ``>`` (found
  with ``memchr``) are counted, the same answer (tests/test_server_pool.py): 5x less on a 209 KB case. The
  document went to the engine inside a pickle, then header + pickle joined: two copies of 91 KB (24 µs); now
  the pickle of the rest, then the bytes as they are, in one ``writev`` (the engine reads them straight, saving
  its own copy). The body: uvicorn appends each chunk to a bytearray and copies it into bytes, ``read_body``
  appended to another bytearray and copied again: four copies, now none for a body read in one chunk (the
  protocol keeps the first chunk as it is; ``read_body`` joins its chunks once). The reply's ``Validated``
  unpickled through the dataclass's state functions (11 µs), now a call (2.5 µs); the engine wrote each reply as
  length then pickle (two system calls, the front could wake twice), now one ``writev``. Per request: no task of
  its own for the watchdog, no head timer for a head complete in its first chunk, no query parsing without a
  query, the Accept ranges computed once, replies parsed from the chunk itself, the log's time of day made once
  a second and no caller/thread/process look-ups in ``serve``'s log records (the logging module's documented
  optimizations).
* measured and left: Starlette's routing and middleware cost 7-8 µs per request over a bare ASGI handler
  (micro-benchmark; 2-3 % of the front): not worth a second request path. The answer's TCP ``send`` looks like
  16-29 % in wall-clock profiles (``py-spy --gil``), but most of that is the front descheduled when it wakes the
  client; on CPU it is part of the kernel's 20 %. ``getpid`` and ``wait4``: 1-2 µs each, left.
* the idle core at concurrency 8 is not the hand-over: ``py-spy --idle --threads`` of the engine shows each
  worker thread waiting for a document 2.6 % of the time (the window of two per thread keeps them fed); the
  rest of the idle time is the GIL: a thread back from Java, from the reply's lock or from the reply's
  ``writev`` (9 % of a worker thread's wall time sits on that line, the system call itself takes microseconds)
  waits for the other thread's Python (``sys.getswitchinterval()``, 5 ms). A shorter switch interval in the
  engine (1 ms) was tried once on the loaded machine: no measurable difference (the rounds' rates varied
  0.85-1.33x); it needs a quiet machine to decide.

The stand-in engine's rate (about 430 req/s with 2 x 3.4 ms) is below 2 / 3.4 ms because its timers are
coarse, not because of the front: only the CPU per request is a figure here.

Figures (2026-11-29 08:35-08:53, main 297c64c against these changes, both warm, alternating; others' benchmarks
ran throughout, load 2-7): this script, 8 rounds of 10 s: the front 0.643 -> 0.523 ms of CPU per request (user
0.548 -> 0.425, system 0.095 -> 0.098), b/a per round 0.73-0.98, median 0.80. The real server (two ``serve``
processes, the same wrk load, 6 rounds of 15 s, CPU per request from ``/proc`` of the front and of the engine
process), run twice with the sides swapped: the front 0.85 -> 0.77 and 0.86 -> 0.75 ms per request (per round
0.80-1.05), the engine 3.94 vs 4.28 and 4.07 vs 4.04 ms (which side was higher followed the start order, not
the code: JVM to JVM); the rate within the noise (the front is a sixth of a request's CPU: a fifth less of it
is 3 % at most, which this machine cannot show).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from server import CASES, LUA  # the same invoices and wrk script as the server benchmark

REPO = Path(__file__).resolve().parents[1]
HZ = os.sysconf("SC_CLK_TCK")

_REPORT = (
    b'{"valid":true,"profile":"xrechnung-3.0-ubl","findings":[],"rules":'
    + b'[{"pack":"xrechnung","version":"3.0.2"}]' * 60
    + b"}"
)
"""A canned report of about the business cases' mean answer (3 KB)."""


# --- the stand-in engine ------------------------------------------------------------------------------------


def fake_engine() -> None:
    """The engine process's wire (:mod:`einvoice_validate.pool.remote`), without the engine: each document waits
    ``EINVOICE_FAKE_DOC_MS`` on one of the config's ``workers`` timers, then the canned report goes back."""
    from einvoice_validate.pool.job import Validated
    from einvoice_validate.pool.worker import recv, send

    fd = os.dup(0)
    config = recv(fd)
    send(fd, (-1, "ready", os.getpid()))
    seconds = float(os.environ.get("EINVOICE_FAKE_DOC_MS", "3.4")) / 1000
    reply = Validated(_REPORT, "0" * 64)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        reader, writer = await asyncio.open_connection(sock=__import__("socket").socket(fileno=fd))
        free = config.workers
        queue: list[int] = []
        done = 0

        def finish(ident: int) -> None:
            nonlocal free, done
            done += 1
            import pickle
            import struct

            body = pickle.dumps((ident, "ok", reply, (seconds, 0, 0, 1)), protocol=pickle.HIGHEST_PROTOCOL)
            writer.write(struct.pack(">Q", len(body)) + body)
            free += 1
            start()

        def start() -> None:
            nonlocal free
            while free and queue:
                free -= 1
                loop.call_later(seconds, finish, queue.pop(0))

        import pickle
        import struct

        while True:
            try:
                head = await reader.readexactly(8)
                message = pickle.loads(await reader.readexactly(struct.unpack(">Q", head)[0]))
            except (asyncio.IncompleteReadError, ConnectionError):
                break
            if isinstance(message[1], int):  # the payload follows the pickle (since 2026-11-29)
                await reader.readexactly(message[1])
            queue.append(message[0])
            start()

    del send
    asyncio.run(run())


def serve(port: int) -> None:
    """``einvoice-validate serve`` on ``port`` with the stand-in engine."""
    import subprocess as sp

    from einvoice_validate import cli
    from einvoice_validate.pool import remote

    real_popen = sp.Popen

    def popen(args: list[str], **kwargs: object) -> sp.Popen[bytes]:
        if args[:2] == [sys.executable, "-c"] and "engine_entry" in args[2]:
            args = [sys.executable, __file__, "--fake-engine"]
        return real_popen(args, **kwargs)  # type: ignore[call-overload,no-any-return]

    remote.subprocess.Popen = popen  # type: ignore[assignment]
    sys.exit(cli.main(["serve", "--port", str(port), "--workers", "2", "--max-in-flight", "1000"]))


# --- the A/B run --------------------------------------------------------------------------------------------


def _cpu(pid: int) -> tuple[int, int]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])


def _wrk(port: int, seconds: float, concurrency: int, lua: str, cases: str) -> tuple[int, int]:
    out = subprocess.run(
        [
            "wrk",
            "-t",
            "2",
            "-c",
            str(concurrency),
            "-d",
            f"{seconds:g}s",
            "-s",
            lua,
            f"http://127.0.0.1:{port}",
            "--",
            "/v1/invoices/validate",
            "application/xml",
            cases,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return requests, int(bad.group(1)) if bad else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default=str(REPO / "src"))
    parser.add_argument("--b", default=str(REPO / "src"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("-c", type=int, default=8)
    parser.add_argument("--doc-ms", type=float, default=3.4)
    parser.add_argument("--serve", type=int)
    parser.add_argument("--fake-engine", action="store_true")
    args = parser.parse_args()
    if args.fake_engine:
        fake_engine()
        return
    if args.serve:
        serve(args.serve)
        return
    tmp = Path(tempfile.mkdtemp(prefix="front_cost"))
    lua = tmp / "post.lua"
    lua.write_text(LUA)
    cases = tmp / "cases.txt"
    cases.write_text("".join(f"{c}\n" for c in CASES))
    servers: dict[str, tuple[subprocess.Popen[bytes], int]] = {}
    try:
        for name, src, port in (("a", args.a, 18431), ("b", args.b, 18432)):
            env = dict(os.environ, PYTHONPATH=src, EINVOICE_FAKE_DOC_MS=str(args.doc_ms))
            log = open(tmp / f"{name}.log", "wb")  # noqa: SIM115
            proc = subprocess.Popen(
                [sys.executable, __file__, "--serve", str(port)],
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
            servers[name] = (proc, port)
        for _, port in servers.values():
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            _wrk(port, args.warmup, args.c, str(lua), str(cases))
        rows: dict[str, list[tuple[float, float, float]]] = {"a": [], "b": []}
        for r in range(args.rounds):
            for name in "ab" if r % 2 == 0 else "ba":
                proc, port = servers[name]
                u0, s0 = _cpu(proc.pid)
                t0 = time.monotonic()
                requests, bad = _wrk(port, args.duration, args.c, str(lua), str(cases))
                took = time.monotonic() - t0
                u1, s1 = _cpu(proc.pid)
                row = ((u1 - u0) / HZ / requests * 1e3, (s1 - s0) / HZ / requests * 1e3, (requests - bad) / took)
                rows[name].append(row)
                print(
                    f"round {r} {name}: user {row[0]:.3f} sys {row[1]:.3f} ms/req, {row[2]:.0f} req/s ({bad} not 200)",
                    flush=True,
                )
        for name in "ab":
            user = statistics.median(x[0] for x in rows[name])
            system = statistics.median(x[1] for x in rows[name])
            rate = statistics.median(x[2] for x in rows[name])
            print(f"{name}: front CPU {user + system:.3f} ms/req (user {user:.3f}, sys {system:.3f}), {rate:.0f} req/s")
        ratios = [(b[0] + b[1]) / (a[0] + a[1]) for a, b in zip(rows["a"], rows["b"], strict=True)]
        print(
            "b/a front CPU per request, per round:",
            " ".join(f"{x:.2f}" for x in ratios),
            f"median {statistics.median(ratios):.2f}",
        )
    finally:
        for proc, _ in servers.values():
            os.killpg(proc.pid, signal.SIGTERM)
        for proc, _ in servers.values():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
