"""The HTTP/1.1 connection limits uvicorn does not have, on uvicorn's own protocol (``httptools``, llhttp's parser):
connections open at once, the time to receive a request head, an idle connection's life, the size and count of
headers, ``Host`` and the HTTP version, a lingering close so a client still sending a body it was answered
early for reads the answer instead of a TCP reset, and a graceful shutdown that answers every request it read.
Errors found here are problem documents too.

The shutdown (SIGTERM; uvicorn has closed the listening socket, so new connections are refused): a connection
with a request in progress gets its answer with ``Connection: close``; an idle keep-alive connection is not cut
at once (uvicorn would close it, and a request the client had just sent on it would meet a TCP reset): it stays
open :data:`DRAIN_IDLE` seconds, a request arriving meanwhile is answered with ``Connection: close``, and it
closes once idle that long. All within ``shutdown_grace``.

Uvicorn takes this class as its ``http`` protocol (``uvicorn.Config(http=guarded_protocol(settings))``, a
documented extension point); everything else (parsing, pipelining, flow control, keep-alive, the ASGI cycle) stays
uvicorn's. Why uvicorn with these additions rather than another server: see the README's "Running as a service".
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from uvicorn.protocols.http.flow_control import HIGH_WATER_LIMIT
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..wire import PROBLEM_MEDIA_TYPE, problem
from .settings import ServerSettings

__all__ = ["guarded_protocol"]

log = logging.getLogger("einvoice_validate.server")
access_log = logging.getLogger("einvoice_validate.access")


DRAIN_IDLE = 1.0
"""Seconds an idle keep-alive connection stays open after the shutdown began, for a request already on its way."""


class _HeadRefused(Exception):
    """The request head breaks a limit (raised inside a parser callback: the parser stops there)."""


def _answer(status_code: str, detail: str, path: str, extra: bytes = b"") -> bytes:
    doc = problem(status_code, detail, path)
    body = json.dumps(doc, separators=(",", ":")).encode()
    reason = doc["title"].encode()
    return (
        b"HTTP/1.1 %d %s\r\ncontent-type: %s\r\ncontent-length: %d\r\nconnection: close\r\n%s\r\n"
        % (doc["status"], reason, PROBLEM_MEDIA_TYPE.encode(), len(body), extra)
    ) + body


class _Lingering:
    """The connection's transport, whose ``close()`` waits while the client is still sending a request body the
    application answered early: the rest is read and dropped (uvicorn's parser discards a body once its
    response is complete) until the body ends or ``linger_timeout`` passes, then the connection closes.

    Its writes of one turn of the event loop go out as one (uvicorn writes an answer's head and its body apart, each
    a ``send`` at once): on a loopback or LAN connection each ``send`` costs the server process about as much as
    the rest of the answer's HTTP work (the kernel delivers the segment in the sender's time), and the client
    gets one segment instead of two. Nothing waits for it: the joined write follows in the same turn's callbacks."""

    __slots__ = ("_closing", "_pending", "_protocol", "_timer", "transport")

    def __init__(self, transport: asyncio.Transport, protocol: GuardedProtocol) -> None:
        self.transport = transport
        self._protocol = protocol
        self._closing = False
        self._timer: asyncio.TimerHandle | None = None
        self._pending: list[bytes] | None = None  # this turn's writes, not yet sent

    def _flush(self) -> None:
        """Send this turn's writes, as one."""
        pending, self._pending = self._pending, None
        if pending and not self.transport.is_closing():
            self.transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        self._flush()  # what this turn wrote goes out before the close
        protocol = self._protocol
        if not protocol.body_pending or self.transport.is_closing():
            self.transport.close()
            return
        self.transport.resume_reading()  # the parser drops the rest of the body
        self._timer = asyncio.get_running_loop().call_later(protocol.limits.linger_timeout, self.transport.close)

    def finish(self) -> None:
        """The body ended: close now if a close was asked for."""
        if self._closing and not self.transport.is_closing():
            if self._timer is not None:
                self._timer.cancel()
            self.transport.close()

    def is_closing(self) -> bool:
        return self._closing or self.transport.is_closing()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        data = data if isinstance(data, bytes) else bytes(data)  # the caller may reuse its buffer meanwhile
        if self._pending is None:
            self._pending = [data]
            self._protocol.loop.call_soon(self._flush)
        else:
            self._pending.append(data)

    def pause_reading(self) -> None:
        if not self._closing:
            self.transport.pause_reading()

    def resume_reading(self) -> None:
        self.transport.resume_reading()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.transport.get_extra_info(name, default)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class GuardedProtocol(HttpToolsProtocol):
    """Uvicorn's httptools protocol with the limits of :class:`ServerSettings` (``limits``, set per server by
    :func:`guarded_protocol`)."""

    limits: ServerSettings = ServerSettings()
    refused = 0  # connections refused beyond max_connections (per server: guarded_protocol makes a subclass)
    refusal_logged = float("-inf")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.body_pending = False  # a request's body is still arriving
        self._in_head = False  # a request's first byte came, its head is not complete
        self._before_cycle = False  # a request began and has no ASGI cycle yet (its head is not through)
        self._head_began_here = False
        self._head_bytes = 0
        self._headers = 0
        self._head_timer: asyncio.TimerHandle | None = None
        self._refusal: str | None = None
        self._lingering: _Lingering | None = None
        self._draining = False  # the server is shutting down: the next answer is this connection's last
        self._drain_timer: asyncio.TimerHandle | None = None

    # --- the connection -----------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.limits.max_connections:
            # refused before anything is read or allocated: the client sees the connection closed
            self.transport = transport
            transport.close()
            cls = type(self)
            cls.refused += 1
            if self.loop.time() - cls.refusal_logged >= 10:  # one line per 10 s under a flood, with the count
                cls.refusal_logged = self.loop.time()
                log.warning(
                    "refused %d connection(s) so far: %d are open (max_connections)", cls.refused, len(self.connections)
                )
            return
        self._lingering = _Lingering(transport, self)
        super().connection_made(self._lingering)  # type: ignore[arg-type]
        # a new connection is idle until its first byte: uvicorn's keep-alive timer closes it if none comes
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        if self._drain_timer is not None:
            self._drain_timer.cancel()
        if self._lingering is None:  # refused in connection_made
            return
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        began_before = self._in_head
        self._head_began_here = False
        super().data_received(data)
        if not self._in_head or self.transport.is_closing():
            return
        if began_before and not self._head_began_here:
            # all of this chunk belongs to a head that is still not complete (llhttp keeps a partial line)
            self._head_bytes += len(data)
            if self._head_bytes > self.limits.max_header_bytes:
                self._refuse(f"the request head is larger than {self.limits.max_header_bytes} bytes")
                return
        if self._head_timer is None:
            # a head begun in this chunk and not complete with it: its time runs from its first byte (the loop's
            # time is that of this turn); a head complete in its first chunk, the usual case, needs no timer
            self._head_timer = self.loop.call_later(self.limits.header_timeout, self._head_too_slow)

    # --- the parser's callbacks ---------------------------------------------------------------------------

    def on_message_begin(self) -> None:
        if self._drain_timer is not None:  # a request came while draining: it is answered, then we close
            self._drain_timer.cancel()
            self._drain_timer = None
        super().on_message_begin()
        self._in_head = True
        self._before_cycle = True
        self._head_began_here = True
        self._head_bytes = 0
        self._headers = 0
        self._refusal = None
        self._cancel_head_timer()  # data_received starts the head's timer if the head is not complete in this chunk

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self._count_head(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers += 1
        if self._headers > self.limits.max_headers:
            self._refusal = f"the request has more than {self.limits.max_headers} header lines"
            raise _HeadRefused(self._refusal)
        self._count_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._cancel_head_timer()
        version = self.parser.get_http_version()
        if version not in ("1.0", "1.1"):
            self._refusal = f"HTTP/{version} is not served; send HTTP/1.1"
            raise _HeadRefused(self._refusal)
        if version == "1.1" and not any(name == b"host" for name, _ in self.headers):
            self._refusal = "an HTTP/1.1 request needs a Host header (RFC 9112, 3.2)"
            raise _HeadRefused(self._refusal)
        self.body_pending = True
        self._before_cycle = False
        super().on_headers_complete()
        if self._draining and self.cycle is not None:
            self.cycle.keep_alive = False  # answered with Connection: close

    def on_body(self, body: bytes) -> None:
        cycle = self.cycle
        if cycle is not None and not cycle.body and not cycle.response_complete and not self.parser.should_upgrade():
            # the first chunk since the application last read is kept as it is (uvicorn appends it to a bytearray,
            # which its receive() copies again into bytes; bytes(bytes) is no copy): a typical body, read in one
            # or two chunks, is copied once or not at all instead of twice (about 10 µs per 100 KB here)
            cycle.body = body  # type: ignore[assignment]  # a later chunk: bytes += bytes, as uvicorn's own append
            if len(body) > HIGH_WATER_LIMIT:
                self.flow.pause_reading()
            cycle.message_event.set()
            return
        super().on_body(body)

    def on_message_complete(self) -> None:
        self.body_pending = False
        super().on_message_complete()
        if self._lingering is not None:
            self._lingering.finish()

    # --- the shutdown ------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """The server is shutting down (see the module docstring): answer what is in progress or arrives within
        :data:`DRAIN_IDLE` seconds, with ``Connection: close``, then close."""
        if self._lingering is None or self.transport.is_closing():
            return
        self._draining = True
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.keep_alive = False  # the newest request read (pipelined ones before it are answered first)
        elif not self._in_head:  # idle (a request half-read closes after its answer: on_headers_complete)
            if self.timeout_keep_alive_task is not None:
                self.timeout_keep_alive_task.cancel()
                self.timeout_keep_alive_task = None
            self._drain_timer = self.loop.call_later(DRAIN_IDLE, self._close_if_idle)

    def _close_if_idle(self) -> None:
        self._drain_timer = None
        idle = (self.cycle is None or self.cycle.response_complete) and not self._in_head
        if idle and not self.transport.is_closing():
            self.transport.close()

    # --- answers of the protocol itself -------------------------------------------------------------------

    def send_400_response(self, msg: str) -> None:
        detail = self._refusal or "the request is not valid HTTP/1.1"
        self._send_and_close("request.invalid", detail)

    def _count_head(self, size: int) -> None:
        self._head_bytes += size
        if self._head_bytes > self.limits.max_header_bytes:
            self._refusal = f"the request head is larger than {self.limits.max_header_bytes} bytes"
            raise _HeadRefused(self._refusal)

    def _refuse(self, detail: str) -> None:
        self._refusal = detail
        self._send_and_close("request.invalid", detail)

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.flow is not None and self.flow.read_paused:  # we stopped reading (pipelining), not the client
            self._head_timer = self.loop.call_later(self.limits.header_timeout, self._head_too_slow)
            return
        if self._in_head and not self.transport.is_closing():
            self._send_and_close(
                "request.too-slow", f"the request head did not arrive within {self.limits.header_timeout:g} seconds"
            )

    def _send_and_close(self, code: str, detail: str) -> None:
        self._cancel_head_timer()
        self._in_head = False
        self.body_pending = False
        path = self._path()
        client = self.client[0] if self.client else "-"
        access_log.info('%s "- %s" %d 0 0.0ms key=- code=%s reason=%s', client, path, _STATUS[code], code, detail)
        if self._lingering is not None:
            self._lingering._flush()  # what was written before (a 100 Continue) goes first
        transport = self._lingering.transport if self._lingering is not None else self.transport
        if transport.is_closing():
            return
        if self._before_cycle or self.cycle is None or not self.cycle.response_started:  # else it has answered
            transport.write(_answer(code, detail, path))
        transport.close()

    def _path(self) -> str:
        url = getattr(self, "url", b"") or b""
        path = url.split(b"?", 1)[0][:200].decode("ascii", "replace")
        return path if path.startswith("/") else "/"

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None


_STATUS = {"request.invalid": 400, "request.too-slow": 408}


def guarded_protocol(settings: ServerSettings) -> type[GuardedProtocol]:
    """The protocol class for uvicorn with ``settings``' connection limits."""
    return type("GuardedProtocol", (GuardedProtocol,), {"limits": settings})
