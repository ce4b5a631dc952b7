"""The server's limits on what a client sends, over real sockets: uvicorn with the guarded protocol
(:mod:`einvoice_validate.server.protocol`) in a thread of this process, the application in front of a stand-in
pool, and limits shortened so each case takes well under a second or two.

Connection: the head timeout (408), an idle connection closed, the head's size and header count, ``Host`` and the
HTTP version (400 problem documents), connections beyond ``max_connections`` closed at once, a body answered
early and drained instead of a reset. Request: the budget of buffered bodies (503 with ``Retry-After``),
``Content-Encoding`` (415), no redirect from ``Host`` (404), a client that goes away mid-body (one INFO line, no
traceback), trusted proxies (none by default). The lockout's and the watchdog's bookkeeping are tested on
their own (a stopped process stands for a stuck worker)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import uvicorn

from einvoice_validate.errors import RulesetError, WorkerDied
from einvoice_validate.server import ServerSettings, create_app
from einvoice_validate.server.access import Lockout, create_key
from einvoice_validate.server.protocol import GuardedProtocol
from einvoice_validate.server.run import uvicorn_config
from einvoice_validate.server.watchdog import Watchdog, process_state
from tests.bounded import run_bounded
from tests.test_server import GOOD, StandIn

VALIDATE = "/v1/invoices/validate"
QUICK = {"header_timeout": 0.5, "keep_alive_timeout": 0.5, "max_header_bytes": 4096, "max_headers": 20}


class Running:
    def __init__(self, server: uvicorn.Server, port: int, pool: StandIn) -> None:
        self.server = server
        self.port = port
        self.pool = pool

    def connect(self, source: str | None = None) -> socket.socket:
        return socket.create_connection(
            ("127.0.0.1", self.port), timeout=5, source_address=(source, 0) if source else None
        )

    def exchange(self, data: bytes, *, source: str | None = None, wait: float = 5) -> tuple[bytes, float]:
        """Send ``data``, read until the server closes (or ``wait`` seconds); the bytes read and the seconds taken."""
        with self.connect(source) as s:
            t0 = time.monotonic()
            s.sendall(data)
            return read_all(s, wait), time.monotonic() - t0


def read_all(s: socket.socket, wait: float, *, until_closed: bool = False) -> bytes:
    """What the server sends until it closes the connection or is silent for ``wait`` seconds (with
    ``until_closed``, silence fails the test)."""
    s.settimeout(wait)
    out = b""
    try:
        while chunk := s.recv(65536):
            out += chunk
    except TimeoutError:
        if until_closed:
            pytest.fail(f"the server did not close the connection within {wait} s")
    return out


def read_until_closed(s: socket.socket, wait: float = 60) -> bytes:
    """What the server sends until it closes the connection, which it must do before ``wait`` seconds of silence
    (a generous "does not hang" limit, far above the timeouts tested)."""
    return read_all(s, wait, until_closed=True)


@contextmanager
def running(pool: StandIn | None = None, **settings: Any) -> Iterator[Running]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    pool = pool or StandIn()
    values = {**QUICK, **settings}
    config = ServerSettings(port=port, **values)
    server = uvicorn.Server(uvicorn_config(create_app(config, pool=pool), config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield Running(server, port, pool)
    finally:
        server.should_exit = True
        thread.join(10)


def answer(raw: bytes) -> tuple[int, dict[str, str], dict[str, Any]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body) if body else {}


def assert_problem(raw: bytes, status: int, code: str) -> dict[str, Any]:
    got, headers, doc = answer(raw)
    assert (got, doc.get("code")) == (status, code), raw[:300]
    assert headers["content-type"] == "application/problem+json" and doc["status"] == status
    return doc


def post(body: bytes, extra: str = "", length: int | None = None) -> bytes:
    size = len(body) if length is None else length
    return (
        f"POST {VALIDATE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/xml\r\n{extra}Content-Length: {size}\r\n\r\n"
    ).encode() + body


# --- the connection ---------------------------------------------------------------------------------------------


def test_a_head_that_does_not_finish_is_408_within_the_header_timeout() -> None:
    with running() as srv, srv.connect() as s:
        s.sendall(b"POST /v1/invoices/validate HTTP/1.1\r\nHost: x\r\n")
        raw = read_until_closed(s)  # answered and closed: only the header timeout does that to an unfinished head
    assert_problem(raw, 408, "request.too-slow")


def test_a_head_begun_after_a_complete_request_in_the_same_chunk_is_held_to_the_header_timeout() -> None:
    # the head's timer starts when a head is still incomplete at the end of a chunk (not at every head's first
    # byte): here the first request is whole and the second begins in the same chunk and never ends
    with running() as srv, srv.connect() as s:
        s.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/health HTTP/1.1\r\nHost: x\r\n")
        raw = read_until_closed(s)
    first, _, rest = raw.partition(b"HTTP/1.1 408 ")
    assert first.startswith(b"HTTP/1.1 200 ") and b"request.too-slow" in rest, raw[:400]


def test_a_body_in_any_number_of_chunks_reaches_the_pool_whole() -> None:
    # the protocol keeps a body's first chunk as it is and appends later ones: the pool gets every byte, in order
    bodies = [bytes(range(256)) * 8, os.urandom(300_000)]
    with running() as srv, srv.connect() as s:
        s.settimeout(10)
        for body, pieces in ((bodies[0], 1), (bodies[0], 5), (bodies[1], 1), (bodies[1], 7)):
            request = post(body)
            step = -(-len(request) // pieces)
            for at in range(0, len(request), step):
                s.sendall(request[at : at + step])
                time.sleep(0.02)  # each piece its own chunk (and the application may read between them)
            got = b""
            while b"\r\n\r\n" not in got or len(got.partition(b"\r\n\r\n")[2]) < len(b'{"stand-in": true}'):
                got += s.recv(65536)
            status, headers, _ = answer(got)
            assert status == 200 and headers["x-document-sha256"] == hashlib.sha256(body).hexdigest(), pieces


def test_the_first_chunk_of_a_body_is_kept_as_it_is_and_the_next_appended() -> None:
    # what the test above cannot force: chunks that arrive before the application reads (uvicorn's cycle, as its
    # receive() leaves it: an empty bytearray after each read)
    protocol = object.__new__(GuardedProtocol)
    paused: list[bool] = []
    protocol.parser = SimpleNamespace(should_upgrade=lambda: False)  # type: ignore[assignment]
    protocol.flow = SimpleNamespace(pause_reading=lambda: paused.append(True))  # type: ignore[assignment]
    cycle = SimpleNamespace(body=bytearray(), response_complete=False, message_event=asyncio.Event())
    protocol.cycle = cycle  # type: ignore[assignment]
    first, second, third = b"a" * 10, b"b" * 20, b"c" * 70_000
    protocol.on_body(first)
    assert cycle.body is first and cycle.message_event.is_set() and not paused  # no copy
    protocol.on_body(second)
    assert bytes(cycle.body) == first + second
    cycle.body = bytearray()  # the application read it
    protocol.on_body(third)
    assert cycle.body is third and paused  # beyond uvicorn's high-water mark: reading pauses, as uvicorn's own
    cycle.response_complete = True  # answered early: the rest of the body is dropped (uvicorn's rule)
    cycle.body = bytearray()
    protocol.on_body(first)
    assert cycle.body == b""


def test_an_idle_connection_is_closed_after_the_keep_alive_time() -> None:
    with running() as srv, srv.connect() as s:
        assert read_until_closed(s) == b""  # closed by the server, nothing said
        # and between two requests as well
        with srv.connect() as again:
            again.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert answer(read_all(again, 3))[0] == 200


@pytest.mark.parametrize(
    ("head", "words"),
    [
        ("X-Big: " + "a" * 8000 + "\r\n", "larger than 4096 bytes"),
        ("".join(f"X-H{i}: v\r\n" for i in range(30)), "more than 20 header lines"),
    ],
)
def test_head_limits(head: str, words: str) -> None:
    with running() as srv:
        raw, _ = srv.exchange(f"GET /v1/health HTTP/1.1\r\nHost: x\r\n{head}\r\n".encode())
    assert words in assert_problem(raw, 400, "request.invalid")["detail"]


def test_a_head_sent_in_pieces_is_bounded_too() -> None:
    with running() as srv, srv.connect() as s:
        s.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ")
        time.sleep(0.05)
        for _ in range(3):
            s.sendall(b"a" * 3000)
            time.sleep(0.05)
        assert "larger than 4096" in assert_problem(read_all(s, 3), 400, "request.invalid")["detail"]


def test_a_second_request_on_a_connection_is_held_to_the_same_limits() -> None:
    with running() as srv, srv.connect() as s:
        s.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        first = s.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 ")
        s.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 8000 + b"\r\n\r\n")
        assert_problem(read_all(s, 3), 400, "request.invalid")


@pytest.mark.parametrize(
    ("request_bytes", "words"),
    [
        (b"GET /v1/health HTTP/1.1\r\n\r\n", "Host header"),
        (b"GET /v1/health\r\n\r\n", "HTTP/0.9"),
        (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", "not valid HTTP"),
        (b"\x00\x01garbage\r\n\r\n", "not valid HTTP"),
    ],
)
def test_malformed_requests_get_a_problem_document(request_bytes: bytes, words: str) -> None:
    with running() as srv:
        raw, _ = srv.exchange(request_bytes)
    assert words in assert_problem(raw, 400, "request.invalid")["detail"]


def test_http_1_0_without_host_is_served() -> None:
    with running() as srv:
        raw, _ = srv.exchange(b"GET /v1/health HTTP/1.0\r\n\r\n")
    assert answer(raw)[0] == 200


def test_connections_beyond_the_limit_are_closed_at_once() -> None:
    # held connections would be closed after an hour: the extra one is closed at once, not when one of them goes
    with running(max_connections=3, keep_alive_timeout=3600) as srv:
        held = [srv.connect() for _ in range(3)]
        time.sleep(0.1)
        with srv.connect() as extra:
            assert read_until_closed(extra) == b""
        for s in held:
            s.close()
        time.sleep(0.2)
        raw, _ = srv.exchange(b"GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert answer(raw)[0] == 200


def test_a_body_answered_early_is_drained_not_reset() -> None:
    """413 by Content-Length, answered before the body is read; the client sends all of it, then reads the
    answer: no reset (the server reads and drops the rest before it closes)."""
    body = b"A" * (4 << 20)
    with running(max_body_bytes=1 << 20, max_buffered_bytes=1 << 20) as srv, srv.connect() as s:
        s.sendall(post(b"", "Connection: close\r\n", length=len(body)))
        for k in range(0, len(body), 1 << 16):
            s.sendall(body[k : k + (1 << 16)])  # a reset would raise here
        assert_problem(read_all(s, 5), 413, "request.too-large")


# --- the request ------------------------------------------------------------------------------------------------


def test_bodies_beyond_the_buffer_budget_are_503_busy() -> None:
    gate = asyncio.Event()
    pool = StandIn(gate=gate)
    body = GOOD + b"<!--" + b"x" * 60_000 + b"-->"
    with running(pool, max_body_bytes=100_000, max_buffered_bytes=100_000) as srv:
        first = srv.connect()
        first.sendall(post(body))  # held by the pool (the gate is closed): its bytes stay taken
        time.sleep(0.3)
        raw, _ = srv.exchange(post(body, "Connection: close\r\n"))
        doc = assert_problem(raw, 503, "invoice.busy")
        assert "100000 bytes" in doc["detail"] and answer(raw)[1]["retry-after"] == "1"
        asyncio.run_coroutine_threadsafe(_open(gate), _loop_of(srv)).result(5)
        assert answer(read_all(first, 3))[0] == 200
        first.close()
        raw, _ = srv.exchange(post(body, "Connection: close\r\n"))  # the budget was given back
        assert answer(raw)[0] == 200


async def _open(gate: asyncio.Event) -> None:
    gate.set()


def _loop_of(srv: Running) -> asyncio.AbstractEventLoop:
    for server in srv.server.servers:
        return server.get_loop()
    raise AssertionError("no listening server")


@pytest.mark.parametrize("encoding", ["gzip", "br", "deflate"])
def test_content_encoding_is_refused(encoding: str) -> None:
    with running() as srv:
        raw, _ = srv.exchange(post(GOOD, f"Content-Encoding: {encoding}\r\nConnection: close\r\n"))
    assert "Content-Encoding" in assert_problem(raw, 415, "request.unsupported-media-type")["detail"]


def test_no_redirect_built_from_the_host_header() -> None:
    with running() as srv:
        raw, _ = srv.exchange(
            post(GOOD, "Connection: close\r\n").replace(VALIDATE.encode(), VALIDATE.encode() + b"/", 1)
        )
    _, headers, _ = answer(raw)
    assert "location" not in headers
    assert_problem(raw, 404, "request.not-found")


def test_a_client_gone_mid_body_is_one_info_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO), running() as srv:
        with srv.connect() as s:
            s.sendall(post(GOOD[:100], length=len(GOOD)))
            time.sleep(0.2)
        time.sleep(0.3)
    lines = [r for r in caplog.records if "went away" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.INFO and lines[0].name == "einvoice_validate.access"
    assert "after 100 bytes" in lines[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize(("trusted", "locked"), [((), True), (("127.0.0.1",), False)])
def test_forwarded_for_only_from_a_trusted_proxy(tmp_path: Path, trusted: tuple[str, ...], locked: bool) -> None:
    keys = tmp_path / "keys.jsonl"
    create_key(keys, "invoices")
    wrong = "ev_00000000_" + "x" * 43
    with running(keys_file=keys, lockout_failures=3, forwarded_allow_ips=trusted) as srv:
        statuses = []
        for i in range(5):
            extra = f"X-API-Key: {wrong}\r\nX-Forwarded-For: 10.0.0.{i}\r\nConnection: close\r\n"
            statuses.append(answer(srv.exchange(post(b"<a/>", extra))[0])[0])
    # not trusted: all five come from 127.0.0.1 (locked after three); trusted: five clients, one failure each
    assert statuses == ([401, 401, 401, 429, 429] if locked else [401] * 5)


def test_health_details_need_an_admin_key(tmp_path: Path) -> None:
    keys = tmp_path / "keys.jsonl"
    invoices, _ = create_key(keys, "invoices")
    admin, _ = create_key(keys, "admin")
    with running(keys_file=keys) as srv:

        def health(query: str, key: str | None) -> tuple[int, dict[str, Any]]:
            extra = f"X-API-Key: {key}\r\n" if key else ""
            raw, _ = srv.exchange(
                f"GET /v1/health{query} HTTP/1.1\r\nHost: x\r\n{extra}Connection: close\r\n\r\n".encode()
            )
            status, _, doc = answer(raw)
            return status, doc

        assert health("", None) == (200, {"status": "ready"})
        assert health("?details", None)[1]["code"] == "auth.invalid-api-key"
        assert health("?details", invoices)[1]["code"] == "auth.insufficient-scope"
        status, doc = health("?details", admin)
        assert status == 200 and {"version", "packs", "workers", "stopped_workers"} <= set(doc)


# --- the bookkeeping --------------------------------------------------------------------------------------------


def test_lockout_table_is_bounded_and_expires() -> None:
    lockout = Lockout(failures=3, window=0.2, seconds=0.2, max_addresses=1000)
    for i in range(5000):
        lockout.fail(f"10.0.{i >> 8}.{i & 255}")
    assert len(lockout) == 1000  # the 4,000 beyond were counted together
    time.sleep(0.25)
    lockout.fail("10.9.9.9")  # the expired entries leave as new ones come
    assert len(lockout) == 1


def test_a_full_lockout_table_never_refuses_a_valid_key_holder() -> None:
    lockout = Lockout(failures=3, window=60, seconds=60, max_addresses=10)
    for i in range(10):
        lockout.fail(f"10.0.0.{i}")
    # the table is full: fresh addresses count together, and get 429 once they failed three times
    assert [lockout.fail(f"10.1.0.{i}") > 0 for i in range(5)] == [False, False, False, True, True]
    # an address that does not fail is never locked (the lockout is checked before the key only for the table)
    assert lockout.remaining("10.2.0.1") == 0.0
    for _ in range(3):
        lockout.fail("10.0.0.1")
    assert lockout.remaining("10.0.0.1") > 0


def test_lockout_memory_is_bounded_and_the_overflow_counts_the_rest() -> None:
    """What keeps memory bounded and a failure's cost flat: a full table grows no more, and the failures of
    addresses not in it count together in the overflow entry (the time per failure: benchmarks/test_lockout.py)."""
    lockout = Lockout(failures=10, window=60, seconds=60, max_addresses=1000)
    for i in range(5000):
        lockout.fail(f"a{i}")
    assert len(lockout) == 1000 and "a999" in lockout._table and "a1000" not in lockout._table
    assert lockout._overflow[1] == 4000 % 10  # 4000 failures counted together: locked every tenth (window start)
    assert lockout.fail("a1000") > 0  # the overflow entry is locked


def stopped_worker_is_answered() -> None:
    """Run by :func:`test_watchdog_answers_the_request_a_stopped_worker_holds` in a bounded subprocess."""
    worker = subprocess.Popen(["sleep", "3600"])
    try:
        watchdog = Watchdog(lambda: [worker.pid], stall_timeout=0.3, interval=0.05)

        async def run() -> bool:
            watching = asyncio.create_task(watchdog.run())
            never: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            held = asyncio.create_task(watchdog.guard(never))
            await asyncio.sleep(0.1)
            assert not watchdog.degraded
            os.kill(worker.pid, signal.SIGSTOP)
            with pytest.raises(WorkerDied) as died:
                await held  # never answered but by the watchdog (the bound of the subprocess)
            # the request's own task was cancelled to wake it, and the cancellation taken back: it may go on
            assert not held.cancelled() and held.cancelling() == 0
            assert died.value.reason == "stalled" and died.value.code == "server.error"
            degraded = watchdog.degraded
            later = asyncio.create_task(watchdog.guard(asyncio.sleep(0.6, "done")))  # sent after the stop: untouched
            assert await later == "done"
            os.kill(worker.pid, signal.SIGCONT)
            await asyncio.sleep(0.2)
            watching.cancel()
            return degraded and not watchdog.degraded

        assert asyncio.run(run())  # the health said so, and says so no more
    finally:
        worker.kill()
        worker.wait()
    assert process_state(worker.pid) is None


def test_watchdog_answers_the_request_a_stopped_worker_holds() -> None:
    run_bounded("tests.test_server_limits:stopped_worker_is_answered", timeout=120)


class FailingToStart(StandIn):
    def __init__(self) -> None:
        super().__init__()
        self.ready = False

    def start(self) -> None:
        raise RulesetError("ruleset.invalid", "a worker process died while compiling the packs (exit -9)")


def test_a_pool_that_cannot_start_is_health_failed_and_one_error_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO), running(FailingToStart()) as srv:
        time.sleep(0.3)
        raw, _ = srv.exchange(b"GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        busy, _ = srv.exchange(post(GOOD, "Connection: close\r\n"))
    assert answer(raw)[0] == 503 and answer(raw)[2] == {"status": "failed"}
    assert answer(busy)[1]["retry-after"] and assert_problem(busy, 503, "invoice.busy")
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "ruleset.invalid" in errors[0].getMessage() and not errors[0].exc_info


def test_the_writes_of_one_turn_of_the_event_loop_go_out_as_one() -> None:
    """uvicorn writes an answer's head and body apart; the connection sends them as one (one ``send``, one
    segment), in order, and a close sends what was written before it."""
    from types import SimpleNamespace

    from einvoice_validate.server.protocol import _Lingering

    class Transport:
        def __init__(self) -> None:
            self.writes: list[bytes] = []
            self.closed = False

        def write(self, data: bytes) -> None:
            self.writes.append(bytes(data))

        def is_closing(self) -> bool:
            return self.closed

        def close(self) -> None:
            self.closed = True

    async def run() -> None:
        transport = Transport()
        protocol = SimpleNamespace(loop=asyncio.get_running_loop(), body_pending=False)
        lingering = _Lingering(transport, protocol)  # type: ignore[arg-type]
        buffer = bytearray(b"{}")
        lingering.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        lingering.write(buffer)
        buffer[:] = b"xx"  # a caller reusing its buffer changes nothing written
        assert transport.writes == []
        await asyncio.sleep(0)
        assert transport.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"]
        lingering.write(b"last")
        lingering.close()
        assert transport.writes[-1] == b"last" and transport.closed
        await asyncio.sleep(0)
        assert len(transport.writes) == 2

    asyncio.run(run())
