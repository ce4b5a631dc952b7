"""The ASGI application: ``POST /v1/invoices/validate``, ``GET /v1/health``, problem documents for every error,
access keys, the lockout, per-client concurrency, and one access-log line per request.

Built on Starlette (a small, well-kept ASGI toolkit: routing, requests, responses, lifespan; no ORM, no
templates) and served by uvicorn (:mod:`.run`); :func:`create_app` returns a plain ASGI application, so a user can
mount it in their own ASGI server instead. Validation runs in the worker pool (:class:`~einvoice_validate.Pool`):
the event loop only reads bodies and writes answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..errors import EInvoiceValidateError, PoolBusy
from ..pool import Pool, Validated
from ..wire import PROBLEM_MEDIA_TYPE, problem, problem_for_error
from .access import KeyStore, Lockout
from .settings import ServerSettings

__all__ = ["VALIDATE_PATH", "create_app"]

VALIDATE_PATH = "/v1/invoices/validate"
HEALTH_PATH = "/v1/health"
_XML_TYPES = ("application/xml", "text/xml", "application/pdf")  # PDF: ZUGFeRD / Factur-X (envelopes/pdf.py)
_JSON_ACCEPTED = ("*/*", "application/*", "application/json", "application/problem+json")
_HTTP_CODES = {404: "request.not-found", 405: "request.method-not-allowed"}

access_log = logging.getLogger("einvoice_validate.access")
log = logging.getLogger("einvoice_validate.server")


class ValidationPool(Protocol):
    """What the application needs of a pool (:class:`~einvoice_validate.Pool`; tests may pass another)."""

    @property
    def ready(self) -> bool: ...

    def start(self) -> None: ...

    def close(self, timeout: float = ...) -> None: ...

    def stats(self) -> dict[str, int]: ...

    async def validate_json(self, data: bytes, *, profile: str | None = None) -> Validated: ...


class _Problem(Exception):
    """Answer with a problem document (raised inside a handler)."""

    def __init__(self, code: str, detail: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail
        self.headers = dict(headers or {})


def _problem_response(doc: dict[str, Any], headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse(doc, status_code=doc["status"], headers=dict(headers or {}), media_type=PROBLEM_MEDIA_TYPE)


def _answer(request: Request, code: str, detail: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    request.state.code = code
    return _problem_response(problem(code, detail, request.url.path), headers)


def create_app(settings: ServerSettings | None = None, *, pool: ValidationPool | None = None) -> Starlette:
    """The ASGI application. Its lifespan starts the pool (every pack compiled before the app answers) and stops it
    (queued and in-flight documents finish first)."""
    settings = settings or ServerSettings()
    from ..profiles import all_profiles
    from ..rulesets.registry import Registry

    registry = Registry(settings.rules_home)
    profiles = {p.name for p in all_profiles(registry.home)}  # the rules home's user profiles too
    packs = sorted(p.key for p in registry.installed())
    keys = KeyStore(settings.keys_file)
    lockout = Lockout(settings.lockout_failures, settings.lockout_window, settings.lockout_seconds)
    in_flight: dict[str, int] = {}
    the_pool: ValidationPool = pool or Pool(
        workers=settings.workers,
        queue_size=settings.queue_size,
        max_documents=settings.max_documents,
        retry_after=settings.retry_after,
        prepare=settings.prepare,
        background=settings.background,
        options=settings.options,
    )
    state = {"stopping": False}

    def client_of(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    def authorize(request: Request, permission: str) -> None:
        if not keys.enabled:
            return
        address = client_of(request)
        left = lockout.remaining(address)
        if left > 0:
            raise _Problem(
                "auth.too-many-failures",
                "too many invalid API keys from this address; wait before trying again",
                {"Retry-After": str(max(1, round(left)))},
            )
        presented = request.headers.get("x-api-key")
        auth = request.headers.get("authorization")
        if presented is None and auth is not None and auth[:7].lower() == "bearer ":
            presented = auth[7:].strip()
        entry = keys.check(presented)
        if entry is None:
            lockout.fail(address)
            raise _Problem("auth.invalid-api-key", "a valid API key is required (Authorization: Bearer or X-API-Key)")
        request.state.key = entry.id
        if entry.permission != permission:
            raise _Problem("auth.insufficient-scope", f"this API key lacks the permission {permission!r}")

    def check_accept(request: Request) -> None:
        accept = request.headers.get("accept")
        if accept is None:
            return
        for item in accept.split(","):
            media, _, params = item.strip().partition(";")
            q = 1.0
            for param in params.split(";"):
                name, _, value = param.strip().partition("=")
                if name.strip() == "q":
                    with contextlib.suppress(ValueError):
                        q = float(value)
            if media.strip().lower() in _JSON_ACCEPTED and q > 0:
                return
        raise _Problem("request.not-acceptable", "the answers are JSON (application/json, application/problem+json)")

    async def read_body(request: Request) -> bytes:
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > settings.max_body_bytes:
            raise _Problem("request.too-large", f"the body is larger than {settings.max_body_bytes} bytes")
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(settings.body_timeout):
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > settings.max_body_bytes:  # stop reading at the limit
                        raise _Problem("request.too-large", f"the body is larger than {settings.max_body_bytes} bytes")
                    chunks.append(chunk)
        except TimeoutError:
            raise _Problem(
                "request.too-slow", f"the body did not arrive within {settings.body_timeout:g} seconds"
            ) from None
        return b"".join(chunks)

    async def validate(request: Request) -> Response:
        try:
            authorize(request, "invoices")
            check_accept(request)
            media = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if media not in _XML_TYPES:
                wanted = " or ".join(_XML_TYPES)
                raise _Problem(
                    "request.unsupported-media-type",
                    f"the body must be the invoice XML or a ZUGFeRD / Factur-X PDF (Content-Type: {wanted}), "
                    f"not {media or 'none'}",
                )
            profile = request.query_params.get("profile")
            unknown = set(request.query_params) - {"profile"}
            if unknown:
                raise _Problem("request.invalid-parameter", f"unknown parameter(s): {', '.join(sorted(unknown))}")
            if profile is not None and profile not in profiles:
                raise _Problem(
                    "request.invalid-parameter", f"unknown profile {profile}; known: {', '.join(sorted(profiles))}"
                )
            client = client_of(request)
            if in_flight.get(client, 0) >= settings.max_in_flight_per_client:
                raise _Problem(
                    "rate-limit.concurrency",
                    f"at most {settings.max_in_flight_per_client} requests of one client may be in flight",
                    {"Retry-After": "1"},
                )
            in_flight[client] = in_flight.get(client, 0) + 1
            try:
                body = await read_body(request)
                try:
                    validated = await the_pool.validate_json(body, profile=profile)
                except PoolBusy as exc:
                    raise _Problem(exc.code, exc.detail, {"Retry-After": str(exc.retry_after)}) from None
            finally:
                in_flight[client] -= 1
                if not in_flight[client]:
                    del in_flight[client]
        except _Problem as p:
            return _answer(request, p.code, p.detail, p.headers)
        except EInvoiceValidateError as exc:
            doc = problem_for_error(exc, request.url.path)
            if doc["code"] != exc.code or exc.reason is not None:
                log.warning("%s %s: %s (%s) %s", request.method, request.url.path, exc.code, exc.reason, exc.detail)
            request.state.code = doc["code"]
            return _problem_response(doc)
        headers = {"X-Document-SHA256": validated.sha256 or ""}
        return Response(validated.report_json, media_type="application/json", headers=headers)

    async def health(request: Request) -> Response:
        ready = the_pool.ready and not state["stopping"]
        body = {
            "status": "ready" if ready else ("stopping" if state["stopping"] else "not-ready"),
            "version": __version__,
            "packs": packs,
            "workers": the_pool.stats(),
        }
        return JSONResponse(body, status_code=200 if ready else 503)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        code = _HTTP_CODES.get(exc.status_code, "request.not-found" if exc.status_code == 404 else "server.error")
        detail = {
            404: f"there is no endpoint {request.url.path}",
            405: f"{request.method} is not allowed on {request.url.path}",
        }.get(exc.status_code, exc.detail)
        return _answer(request, code, detail, exc.headers)

    async def server_error(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return _answer(request, "server.error", "an unexpected fault; retry later")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(the_pool.start)
        log.info("ready: %d packs, workers %s", len(packs), the_pool.stats())
        try:
            yield
        finally:
            state["stopping"] = True
            await asyncio.to_thread(the_pool.close, settings.shutdown_grace)
            log.info("stopped: the pool is closed (%s)", the_pool.stats())

    app = Starlette(
        routes=[
            Route(VALIDATE_PATH, validate, methods=["POST"]),
            Route(HEALTH_PATH, health, methods=["GET"]),
        ],
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.add_middleware(AccessLog)
    return app


class AccessLog:
    """One line per request: client, method, path, status, bytes, milliseconds, key id, problem code."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 0
        size = 0

        async def sending(message: Message) -> None:
            nonlocal status, size
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                size += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            st = scope.get("state") or {}
            client = scope.get("client")
            access_log.info(
                '%s "%s %s" %d %d %.1fms key=%s code=%s',
                client[0] if client else "-",
                scope["method"],
                scope["path"],
                status,
                size,
                (time.perf_counter() - start) * 1000,
                st.get("key", "-"),
                st.get("code", "-"),
            )
