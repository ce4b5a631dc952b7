"""Every setting, limit and timeout of the server, with its documented default, in one place."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path

from ..limits import DEFAULT_LIMITS, Limits
from ..options import Options

__all__ = ["ServerSettings", "is_loopback"]


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """The server's settings (``einvoice-validate serve`` options map onto them one to one).

    Attributes:
        host, port: where to listen. Without keys the server refuses any host but a loopback address.
        workers: threads (saxon-java) or worker processes (saxonc) validating (default: one per core; see
            :class:`~einvoice_validate.Pool`).
        queue_size: documents that may wait for a worker; beyond it ``503 invoice.busy`` (default 8 per worker).
        retry_after: seconds in ``Retry-After`` of a busy answer (503); a lockout (429) sends its remaining time.
        max_body_bytes: the largest request body; reading stops there: ``413 request.too-large``
            (default: ``limits.max_document_bytes``, 100 MiB).
        body_timeout: seconds to receive the whole body: ``408 request.too-slow`` (default 30).
        max_in_flight_per_client: requests one client (address) may have in flight at once: beyond it
            ``429 rate-limit.concurrency`` (default 32).
        lockout_failures, lockout_window, lockout_seconds: after this many invalid keys from one address within
            ``lockout_window`` seconds, that address gets ``429 auth.too-many-failures`` for ``lockout_seconds``
            (defaults 10, 60 s, 60 s: "the caller waits one minute").
        max_documents: a worker process is replaced after this many documents (bounds the SaxonC heap's growth;
            default: 5,000 on saxonc, never on saxon-java).
        shutdown_grace: seconds in-flight requests get to finish after SIGTERM.
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
    retry_after: int = 1
    max_body_bytes: int = DEFAULT_LIMITS.max_document_bytes
    body_timeout: float = 30.0
    max_in_flight_per_client: int = 32
    lockout_failures: int = 10
    lockout_window: float = 60.0
    lockout_seconds: float = 60.0
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


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
