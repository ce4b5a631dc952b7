"""The graceful shutdown (issue 40): under SIGTERM with 8 keep-alive clients sending back to back, every request
the server read is answered (in progress, or arriving on an idle connection just then), with ``Connection: close``;
new connections are refused; the server exits 0. The server is ``serve``'s own (uvicorn with the guarded protocol,
``run._Server``) over a stand-in pool that takes 20 ms per document, in a bounded subprocess (a few seconds)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
CLIENTS = 8

SERVER = """
import asyncio, hashlib, sys
from einvoice_validate.pool import Validated
from einvoice_validate.server import ServerSettings, create_app
from einvoice_validate.server.run import _Server, uvicorn_config

class Slow:
    ready = True
    def start(self): pass
    def close(self, timeout=0): pass
    def stats(self): return {"workers": 1, "alive": 1}
    def worker_pids(self): return []
    async def validate_json(self, data, *, profile=None):
        await asyncio.sleep(0.02)
        return Validated(b'{"stand-in": true}', hashlib.sha256(data).hexdigest())

settings = ServerSettings(port=int(sys.argv[1]), shutdown_grace=30)
app = create_app(settings, pool=Slow())
server = _Server(uvicorn_config(app, settings))
server.run()
sys.exit(0 if server.started and not app.state.service.unfinished else 1)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _client(base: str, n: int, stop_after: int, log: list[tuple[int, str, float]]) -> None:
    """Requests back to back on one keep-alive connection (a new one when the server closed it), until a new
    connection is refused. Logs (client, outcome, when) per request."""
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        for i in range(stop_after):
            body = f"<Invoice>{n}-{i}</Invoice>".encode()
            try:
                r = await client.post("/v1/invoices/validate", content=body, headers={"Content-Type": "text/xml"})
            except httpx.ConnectError:
                log.append((n, "refused", time.monotonic()))
                return
            except httpx.TransportError as exc:  # sent, and cut off: what the shutdown must not do
                log.append((n, f"cut: {exc!r}", time.monotonic()))
                return
            ok = r.status_code == 200 and r.headers["x-document-sha256"] == hashlib.sha256(body).hexdigest()
            log.append((n, "answered" if ok else f"status {r.status_code}", time.monotonic()))


def test_sigterm_answers_every_request_it_read(tmp_path: Path) -> None:
    port = _free_port()
    out = (tmp_path / "server.log").open("wb")
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):  # up within 30 s (a bound, not a measurement)
            try:
                if httpx.get(base + "/v1/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        log: list[tuple[int, str, float]] = []

        async def run() -> float:
            clients = [asyncio.create_task(_client(base, n, 5_000, log)) for n in range(CLIENTS)]
            while sum(1 for _, outcome, _ in log if outcome == "answered") < 20 * CLIENTS:
                await asyncio.sleep(0.01)
            sent = time.monotonic()
            process.send_signal(signal.SIGTERM)
            async with asyncio.timeout(60):  # does not hang
                await asyncio.gather(*clients)
            return sent

        sigterm = asyncio.run(run())
        code = process.wait(60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        out.close()
    outcomes = {outcome for _, outcome, _ in log}
    assert outcomes <= {"answered", "refused"}, [e for e in log if e[1] not in ("answered", "refused")]
    # each client ended on a refused new connection, after its keep-alive connection was closed with an answer
    assert sorted(n for n, outcome, _ in log if outcome == "refused") == list(range(CLIENTS))
    assert any(outcome == "answered" and at > sigterm for _, outcome, at in log)  # in flight at SIGTERM: answered
    assert code == 0, (tmp_path / "server.log").read_text()[-3000:]
