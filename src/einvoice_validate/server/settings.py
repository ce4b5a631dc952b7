"""Every setting, limit and timeout of the server, with its documented default, in one place."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..limits import DEFAULT_LIMITS, Limits

__all__ = ["ServerSettings", "is_loopback"]


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """The server's settings (``einvoice-validate serve`` options map onto them one to one).

    Attributes:
        host, port: where to listen. Without keys the server refuses any host but a loopback address.
        workers: worker processes validating (default: one per core).
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
        document_timeout: seconds a worker may spend on one document before it is stopped (``500 server.error``).
        max_documents: a worker is replaced after this many documents (bounds the SaxonC heap's growth).
        shutdown_grace: seconds in-flight requests get to finish after SIGTERM.
        keys_file: the access keys (checksums only); None: no keys, loopback only.
        prepare: profiles whose packs every worker compiles before the server is ready (empty: all).
        limits, xsd_gate: as for :class:`~einvoice_validate.Validator`.
        rules_home: where the packs are installed (default: the library's).
        validator_options: further keywords for every worker's Validator (passed through untouched).
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
    document_timeout: float = 120.0
    max_documents: int = 5_000
    shutdown_grace: float = 30.0
    keys_file: Path | None = None
    prepare: tuple[str, ...] = ()
    limits: Limits = DEFAULT_LIMITS
    xsd_gate: bool = False
    rules_home: Path | None = None
    validator_options: dict[str, Any] = field(default_factory=dict)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
