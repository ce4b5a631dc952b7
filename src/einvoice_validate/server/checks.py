"""The checks a request passes before its document goes to a worker: access (key and lockout), ``Accept``,
``Content-Type`` and ``Content-Encoding``, query parameters, the per-client concurrency, and the body: read
within its size and time limits and within the budget of bytes all bodies may hold at once.

Each check raises :class:`Problem` (answered as a problem document by the endpoint); a client that goes away
while its body arrives raises :class:`ClientGone` (nothing can be answered: one access-log line says so).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Iterator, Mapping

from starlette.requests import Request

from .access import KeyStore, Lockout

__all__ = [
    "BodyBudget",
    "ClientGone",
    "ClientSlots",
    "Problem",
    "Share",
    "authorize",
    "check_accept",
    "check_choice",
    "check_content",
    "client_of",
    "presented_key",
    "read_body",
]

XML_TYPES = ("application/xml", "text/xml", "application/pdf")  # PDF: ZUGFeRD / Factur-X (envelopes/pdf.py)
JSON_ANSWERS = ("application/json", "application/problem+json")


class Problem(Exception):
    """Answer with a problem document."""

    def __init__(self, code: str, detail: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail
        self.headers = dict(headers or {})


class ClientGone(Exception):
    """The client closed its connection before its request was read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def client_of(request: Request) -> str:
    """The client's address: the peer's, or the one a trusted proxy forwarded (``forwarded_allow_ips``)."""
    return request.client.host if request.client else "unknown"


def presented_key(request: Request) -> str | None:
    """The key of ``X-API-Key`` or ``Authorization: Bearer``."""
    presented = request.headers.get("x-api-key")
    auth = request.headers.get("authorization")
    if presented is None and auth is not None and auth[:7].lower() == "bearer ":
        presented = auth[7:].strip()
    return presented


def authorize(request: Request, keys: KeyStore, lockout: Lockout, permission: str) -> None:
    """Check the key (when keys are configured) and the lockout of the client's address."""
    if not keys.enabled:
        return
    address = client_of(request)
    left = lockout.remaining(address)
    if left > 0:
        raise _locked(left)
    entry = keys.check(presented_key(request))
    if entry is None:
        left = lockout.fail(address)
        if left > 0:  # the table is full and the addresses beyond it keep failing
            raise _locked(left)
        raise Problem("auth.invalid-api-key", "a valid API key is required (Authorization: Bearer or X-API-Key)")
    request.state.key = entry.id
    if entry.permission != permission:
        raise Problem("auth.insufficient-scope", f"this API key lacks the permission {permission!r}")


def _locked(seconds: float) -> Problem:
    return Problem(
        "auth.too-many-failures",
        "too many invalid API keys from this address; wait before trying again",
        {"Retry-After": str(max(1, round(seconds)))},
    )


def check_accept(request: Request, answers: tuple[str, ...] = JSON_ANSWERS) -> None:
    """The answer is of one of the media types ``answers`` (default: JSON): an ``Accept`` that excludes them all
    (neither they, nor their ``type/*``, nor ``*/*`` with a q above 0) is ``406``."""
    accept = request.headers.get("accept")
    if accept is None:
        return
    accepted = _accepted(answers)
    for item in accept.split(","):
        media, _, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                with contextlib.suppress(ValueError):
                    q = float(value)
        if media.strip().lower() in accepted and q > 0:
            return
    raise Problem("request.not-acceptable", f"the answer is {' or '.join(answers)}, which the Accept header excludes")


@functools.cache
def _accepted(answers: tuple[str, ...]) -> frozenset[str]:
    """The media ranges that admit one of ``answers``."""
    return frozenset({"*/*"} | {m.split(";")[0].strip() for m in answers} | {m.split("/")[0] + "/*" for m in answers})


def check_content(request: Request, profiles: set[str], parameters: tuple[str, ...] = ()) -> str | None:
    """``Content-Type``, ``Content-Encoding`` and the query (``profile`` and the endpoint's own ``parameters``);
    the profile asked for (None: detect it)."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media not in XML_TYPES:
        wanted = " or ".join(XML_TYPES)
        raise Problem(
            "request.unsupported-media-type",
            f"the body must be the invoice XML or a ZUGFeRD / Factur-X PDF (Content-Type: {wanted}), "
            f"not {media or 'none'}",
        )
    encoding = request.headers.get("content-encoding", "identity").strip().lower()
    if encoding not in ("", "identity"):
        raise Problem(
            "request.unsupported-media-type",
            f"Content-Encoding {encoding} is not accepted: send the document as it is (a PDF or XML file compresses "
            "itself or needs no compression)",
        )
    if not request.scope.get("query_string"):  # no query (the usual request): nothing to parse
        return None
    unknown = set(request.query_params) - {"profile", *parameters}
    if unknown:
        raise Problem("request.invalid-parameter", f"unknown parameter(s): {', '.join(sorted(unknown))}")
    profile = request.query_params.get("profile")
    if profile is not None and profile not in profiles:
        raise Problem("request.invalid-parameter", f"unknown profile {profile}; known: {', '.join(sorted(profiles))}")
    return profile


def check_choice(request: Request, name: str, choices: tuple[str, ...], default: str) -> str:
    """The query parameter ``name``: one of ``choices`` (``default`` when absent), else ``400``."""
    value = request.query_params.get(name, default)
    if value not in choices:
        raise Problem("request.invalid-parameter", f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


class ClientSlots:
    """Requests in flight per client address, at most ``limit`` each (``429 rate-limit.concurrency``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._in_flight: dict[str, int] = {}

    @contextlib.contextmanager
    def hold(self, client: str) -> Iterator[None]:
        held = self._in_flight.get(client, 0)
        if held >= self.limit:
            raise Problem(
                "rate-limit.concurrency",
                f"at most {self.limit} requests of one client may be in flight",
                {"Retry-After": "1"},
            )
        self._in_flight[client] = held + 1
        try:
            yield
        finally:
            left = self._in_flight[client] - 1
            if left:
                self._in_flight[client] = left
            else:
                del self._in_flight[client]

    def __len__(self) -> int:
        return len(self._in_flight)


class BodyBudget:
    """The bytes all request bodies may hold at once (``max_buffered_bytes``), from the first byte read until
    the answer: a body takes its share as it arrives (all of a ``Content-Length`` at once, before reading) and
    gives it back when its request is answered. One more byte: ``503 invoice.busy`` with ``Retry-After``."""

    def __init__(self, limit: int, retry_after: int) -> None:
        self.limit = limit
        self.retry_after = retry_after
        self.held = 0
        self._lock = threading.Lock()  # create_app's application may be served from several threads

    def take(self, size: int) -> None:
        with self._lock:
            if self.held + size > self.limit:
                raise Problem(
                    "invoice.busy",
                    f"the server holds as many request bodies as it may ({self.limit} bytes); retry later",
                    {"Retry-After": str(self.retry_after)},
                )
            self.held += size

    def give_back(self, size: int) -> None:
        with self._lock:
            self.held -= size


class Share:
    """The part of the budget one request holds, given back when the request is answered
    (``with Share(budget) as share``)."""

    def __init__(self, budget: BodyBudget) -> None:
        self.budget = budget
        self.size = 0

    def take(self, size: int) -> None:
        self.budget.take(size)
        self.size += size

    def __enter__(self) -> Share:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.budget.give_back(self.size)
        self.size = 0


async def read_body(request: Request, share: Share, max_bytes: int, timeout: float) -> bytes:
    """The body, read within ``max_bytes`` (``413``), ``timeout`` seconds (``408``) and the budget (``503``).

    Raises:
        Problem: one of the above. ClientGone: the client closed its connection before the body was complete.
    """
    length = request.headers.get("content-length")
    declared = int(length) if length is not None and length.isdigit() else None
    if declared is not None and declared > max_bytes:
        raise Problem("request.too-large", f"the body is larger than {max_bytes} bytes")
    if declared:
        share.take(declared)
    chunks: list[bytes] = []  # joined once at the end (one chunk, the usual case: no copy at all)
    size = 0
    receive = request.receive
    try:
        async with asyncio.timeout(timeout):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    raise ClientGone(f"the client went away after {size} bytes of the body")
                chunk = message.get("body", b"")
                if size + len(chunk) > max_bytes:  # stop reading at the limit
                    raise Problem("request.too-large", f"the body is larger than {max_bytes} bytes")
                if declared is None and chunk:
                    share.take(len(chunk))
                if chunk:
                    chunks.append(chunk)
                    size += len(chunk)
                if not message.get("more_body", False):
                    break
    except TimeoutError:
        raise Problem("request.too-slow", f"the body did not arrive within {timeout:g} seconds") from None
    return b"".join(chunks)  # of one bytes object: that object
