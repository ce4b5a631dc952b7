"""Every setting, limit and timeout of the server, with its documented default, in one place."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path

from ..limits import DEFAULT_LIMITS, Limits
from ..options import Options

__all__ = ["ServerSettings", "is_loopback"]

_MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """The server's settings (``einvoice-validate serve`` options map onto them one to one).

    Attributes:
        host, port: where to listen. Without keys the server refuses any host but a loopback address.
        workers: threads (saxon-java) or worker processes (saxonc) validating (default: one per core; see
            :class:`~einvoice_validate.Pool`). Threads run in an engine process of their own
            (:mod:`~einvoice_validate.pool.remote`).
        queue_wait: seconds a document may be expected to wait for a worker (from the recent time per document
            and the work ahead of it); beyond it ``503 invoice.busy`` at once, with ``Retry-After`` the seconds
            beyond (default 10; thread mode). Documents of more than 500 invoice lines wait in a lane of their
            own, so they never hold up the typical ones.
        queue_size: documents that may wait for a worker at most, whatever the wait; beyond it ``503
            invoice.busy`` (default: thread mode none but ``queue_wait``; process mode 8 per worker).
        retry_after: seconds in ``Retry-After`` of a busy answer (503); a lockout (429) sends its remaining time.

        The connection (enforced by the HTTP protocol, :mod:`.protocol`, before any request reaches the
        application):

        max_connections: connections open at once; one more is closed at once, before anything is read.
        header_timeout: seconds from a request's first byte until its head (request line and headers) is
            complete: ``408 request.too-slow``, then the connection is closed.
        keep_alive_timeout: seconds an idle connection (a new one, or between two requests) stays open.
        max_header_bytes: the largest request head (request line and headers): ``400 request.invalid``.
        max_headers: the most header lines in one request: ``400 request.invalid``.
        linger_timeout: seconds the server keeps reading (and dropping) the rest of a body it answered early
            (413, 503, 401 …) before it closes, so the client reads the answer instead of a TCP reset.

        The request (enforced by the application, :mod:`.checks`):

        max_body_bytes: the largest request body; reading stops there: ``413 request.too-large``
            (default: ``limits.max_document_bytes``, 100 MiB).
        max_buffered_bytes: bytes of request bodies held at once by all requests together, from the first byte
            read until the answer (a body announced by ``Content-Length`` reserves its length before it is read);
            beyond it ``503 invoice.busy`` with ``Retry-After`` (default 256 MiB, at least ``max_body_bytes``).
        body_timeout: seconds to receive the whole body: ``408 request.too-slow`` (default 30).
        max_in_flight_per_client: requests one client (address) may have in flight at once: beyond it
            ``429 rate-limit.concurrency`` (default 32).
        forwarded_allow_ips: the proxies whose ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are believed
            (addresses or networks; ``"*"``: any). Empty (the default): none, the client is the peer address.
            The lockout and ``max_in_flight_per_client`` count by that client address.
        lockout_failures, lockout_window, lockout_seconds: after this many invalid keys from one address within
            ``lockout_window`` seconds, that address gets ``429 auth.too-many-failures`` for ``lockout_seconds``
            (defaults 10, 60 s, 60 s: "the caller waits one minute").
        lockout_max_addresses: addresses the lockout remembers at once (default 100,000). When full, an address
            not yet in the table is not counted until entries expire: it is never locked out for that, and a
            client presenting a valid key is never refused by the table's size.

        The workers (``options.document_timeout``: seconds a document may take, see ``options`` below):

        stall_timeout: a worker process that cannot run (stopped: SIGSTOP, a debugger, a frozen cgroup) for this
            many seconds: the requests it may hold are answered ``500 server.error``, and health says
            ``degraded`` (503) until it runs again (default 10). In thread mode there is no worker process to
            stop; a thread that overruns ``document_timeout`` is stopped by the pool
            (:mod:`~einvoice_validate.pool`).
        max_documents: a worker process is replaced after this many documents (bounds the SaxonC heap's growth;
            default: 5,000 on saxonc, never on saxon-java).
        shutdown_grace: the drain after SIGTERM, in seconds (default 30): new connections are refused at once;
            every request read (in progress, queued, or arriving within a second on an idle keep-alive connection)
            is answered, with ``Connection: close``; requests still unanswered when it ends are cut off (the
            server then exits 1 instead of 0).
        keys_file: the access keys (checksums only); None: no keys, loopback only.
        prepare: profiles whose packs are compiled before the server is ready (default: none: the server is ready
            in about a second, and the first request of a profile waits while its packs compile).
        background: profiles compiled right after start, while requests are taken (True: every profile).
        options: the validators' :class:`~einvoice_validate.Options`: ``rules_home``, ``limits``, ``xsd_gate``,
            ``engine`` (default: saxon-java when installed, else saxonc), ``document_timeout`` (seconds a document
            may take: ``500 server.error``, reason ``timeout``), ``mode`` (threads or processes), ... The
            properties ``rules_home``, ``limits``, ``xsd_gate`` and ``document_timeout`` read them.
    """

    host: str = "127.0.0.1"
    port: int = 8080
    workers: int | None = None
    queue_size: int | None = None
    queue_wait: float = 10.0
    retry_after: int = 1
    # the connection
    max_connections: int = 4096
    header_timeout: float = 10.0
    keep_alive_timeout: float = 5.0
    max_header_bytes: int = 16 * 1024
    max_headers: int = 100
    linger_timeout: float = 30.0
    # the request
    max_body_bytes: int = DEFAULT_LIMITS.max_document_bytes
    max_buffered_bytes: int = 256 * _MIB
    body_timeout: float = 30.0
    max_in_flight_per_client: int = 32
    forwarded_allow_ips: tuple[str, ...] = ()
    lockout_failures: int = 10
    lockout_window: float = 60.0
    lockout_seconds: float = 60.0
    lockout_max_addresses: int = 100_000
    # the workers
    stall_timeout: float = 10.0
    max_documents: int | None = None
    shutdown_grace: float = 30.0
    keys_file: Path | None = None
    prepare: tuple[str, ...] = ()
    background: bool | tuple[str, ...] = ()
    options: Options = field(default_factory=Options)

    @property
    def rules_home(self) -> Path | None:
        return self.options.rules_home

    @property
    def limits(self) -> Limits:
        return self.options.limits

    @property
    def xsd_gate(self) -> bool:
        return self.options.xsd_gate

    @property
    def document_timeout(self) -> float:
        return self.options.document_timeout

    def __post_init__(self) -> None:
        positive = {
            "max_connections": self.max_connections,
            "header_timeout": self.header_timeout,
            "keep_alive_timeout": self.keep_alive_timeout,
            "max_header_bytes": self.max_header_bytes,
            "max_headers": self.max_headers,
            "max_body_bytes": self.max_body_bytes,
            "body_timeout": self.body_timeout,
            "max_in_flight_per_client": self.max_in_flight_per_client,
            "lockout_max_addresses": self.lockout_max_addresses,
            "stall_timeout": self.stall_timeout,
            "queue_wait": self.queue_wait,
        }
        for name, value in positive.items():
            if value <= 0:
                raise ValueError(f"{name} must be positive, not {value}")
        if self.max_buffered_bytes < self.max_body_bytes:
            raise ValueError(
                f"max_buffered_bytes ({self.max_buffered_bytes}) must be at least max_body_bytes "
                f"({self.max_body_bytes}): else a body at the limit could never be taken"
            )
        for entry in self.forwarded_allow_ips:
            if entry != "*":
                ipaddress.ip_network(entry, strict=False)  # ValueError for anything else


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
