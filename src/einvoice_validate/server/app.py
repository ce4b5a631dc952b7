"""The ASGI application: ``POST /v1/invoices/validate``, ``POST /v1/invoices/render`` (the invoice shown as a page
with its findings), ``GET /v1/health``, problem documents for every error,
and one access-log line per request. The endpoints are module-level functions reading the service's state
(:class:`Service`, ``request.app.state.service``); the checks a request passes are in :mod:`.checks`.

Built on Starlette (a small, well-kept ASGI toolkit: routing, requests, responses, lifespan; no ORM, no
templates) and served by uvicorn (:mod:`.run`); :func:`create_app` returns a plain ASGI application, so a user can
mount it in their own ASGI server instead. Validation and rendering run in the worker pool (by default the
validating threads in an engine process of their own, :class:`~einvoice_validate.pool.remote.RemotePool`; with
worker processes a :class:`~einvoice_validate.Pool`): the event loop only reads bodies and writes answers; both
document endpoints pass the same checks and limits (:func:`_on_document`). The application answers at once: while
the pool starts (its workers start, and compile the packs named by ``prepare``), health is ``503 starting`` and
a document ``503 invoice.busy``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .._extras import MissingExtra, require
from .._version import __version__
from ..errors import EInvoiceValidateError, PoolBusy
from ..pool import Rendered, Validated
from ..profiles import all_profiles
from ..render import FORMATS, LANGS, MEDIA_TYPES
from ..render.page import CSP
from ..rulesets.registry import Registry
from ..wire import PROBLEM_MEDIA_TYPE, problem, problem_for_error
from . import checks
from .access import KeyStore, Lockout
from .checks import BodyBudget, ClientGone, ClientSlots, Problem, Share
from .settings import ServerSettings
from .watchdog import Watchdog

__all__ = ["HEALTH_PATH", "PAGE_HEADERS", "RENDER_PATH", "VALIDATE_PATH", "Service", "ValidationPool", "create_app"]

VALIDATE_PATH = "/v1/invoices/validate"
RENDER_PATH = "/v1/invoices/render"
HEALTH_PATH = "/v1/health"
_HTTP_CODES = {404: "request.not-found", 405: "request.method-not-allowed"}

PAGE_HEADERS = {
    "Content-Security-Policy": f"{CSP}; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
}
"""The headers of a page (render): no script and no fetch of any kind (the page's own inline styles and ``data:``
images only), never framed, never sniffed as another type, never cached (it holds the invoice), no referrer
when a reader follows one of the invoice's links."""

access_log = logging.getLogger("einvoice_validate.access")
log = logging.getLogger("einvoice_validate.server")


class ValidationPool(Protocol):
    """What the application needs of a pool (:class:`~einvoice_validate.Pool`; tests may pass another)."""

    @property
    def ready(self) -> bool: ...

    def start(self) -> None: ...

    def close(self, timeout: float = ...) -> None: ...

    def stats(self) -> dict[str, int]: ...

    def worker_pids(self) -> list[int]: ...

    async def validate_json(self, data: bytes, *, profile: str | None = None) -> Validated: ...

    async def render(self, data: bytes, *, lang: str = ..., fmt: str = ..., profile: str | None = None) -> Rendered: ...


class Service:
    """What the endpoints read: the settings, the pool, the keys and the lockout, the admission limits, the
    watchdog, and where the service stands (:attr:`status`)."""

    def __init__(self, settings: ServerSettings, pool: ValidationPool | None = None) -> None:
        self.settings = settings
        registry = Registry(settings.rules_home)
        self.profiles = {p.name for p in all_profiles(registry.home)}  # the rules home's user profiles too
        self.packs = sorted(p.key for p in registry.installed())
        self.keys = KeyStore(settings.keys_file)
        self.lockout = Lockout(
            settings.lockout_failures, settings.lockout_window, settings.lockout_seconds, settings.lockout_max_addresses
        )
        self.slots = ClientSlots(settings.max_in_flight_per_client)
        self.budget = BodyBudget(settings.max_buffered_bytes, settings.retry_after)
        self.pool: ValidationPool = pool or _pool_for(settings)
        self.watchdog = Watchdog(self.pool.worker_pids, settings.stall_timeout)
        self.starting = False  # the lifespan is starting the pool
        self.stopping = False
        self.failure: str | None = None  # why the pool could not start
        self.on_failure: Callable[[], None] | None = None  # called when the pool cannot start (serve: exit)
        self.unfinished = 0  # requests cut off by the shutdown

    @property
    def status(self) -> str:
        """``ready``, or why not: ``starting``, ``degraded`` (a worker stopped or missing), ``not-ready`` (no
        worker alive), ``failed`` (the pool could not start), ``stopping``."""
        if self.failure is not None:
            return "failed"
        if self.stopping:
            return "stopping"
        if not self.pool.ready:
            return "starting" if self.starting else "not-ready"
        stats = self.pool.stats()
        if self.watchdog.degraded or stats.get("alive", 0) < stats.get("workers", 0):
            return "degraded"
        return "ready"

    async def start(self) -> None:
        """Start the pool in a thread (the server answers meanwhile), logging progress every 5 seconds."""
        t0 = time.monotonic()
        background = self.settings.background
        log.info(
            "starting the worker pool: %s; compiling before ready: %s; in the background: %s",
            self.pool.stats(),
            ", ".join(self.settings.prepare) or "none (each profile on its first document)",
            "every profile" if background is True else ", ".join(background or ()) or "none",
        )
        progress = asyncio.create_task(self._progress(t0))
        self.starting = True
        try:
            await asyncio.to_thread(self.pool.start)
            attach = getattr(self.pool, "attach", None)  # a RemotePool: its engine's socket joins this loop
            if attach is not None:
                await attach()
        except Exception as exc:
            if isinstance(exc, EInvoiceValidateError):
                self.failure = f"{exc.code}: {exc.detail}"
                log.error("the worker pool cannot start: %s", self.failure)
            else:
                self.failure = f"{type(exc).__name__}: {exc}"
                log.exception("the worker pool cannot start")
            if self.on_failure is not None:
                self.on_failure()
            return
        finally:
            progress.cancel()
            self.starting = False
        log.info("ready in %.1f s: %d packs, workers %s", time.monotonic() - t0, len(self.packs), self.pool.stats())

    async def _progress(self, t0: float) -> None:
        while True:
            await asyncio.sleep(5)
            log.info(
                "still starting after %.0f s: the workers compile the packs (health says 503 meanwhile)",
                time.monotonic() - t0,
            )


def _pool_for(settings: ServerSettings) -> ValidationPool:
    """The pool a server runs (:func:`~einvoice_validate.pool.remote.server_pool`: in thread mode the validating
    threads in an engine process of their own)."""
    from ..pool.remote import server_pool

    pool: ValidationPool = server_pool(
        workers=settings.workers,
        queue_size=settings.queue_size,
        queue_wait=settings.queue_wait,
        max_documents=settings.max_documents,
        retry_after=settings.retry_after,
        prepare=settings.prepare,
        background=settings.background,
        options=settings.options,
    )
    return pool


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def _problem_response(doc: dict[str, Any], headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse(doc, status_code=doc["status"], headers=dict(headers or {}), media_type=PROBLEM_MEDIA_TYPE)


def _answer(request: Request, code: str, detail: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    request.state.code = code
    return _problem_response(problem(code, detail, request.url.path), headers)


# --- the endpoints ----------------------------------------------------------------------------------------------


Run = Callable[["ValidationPool", bytes, "str | None"], Awaitable[Response]]
"""What a document endpoint does with the body: ``run(pool, body, profile)`` → the answer (the pool's work)."""


async def _on_document(request: Request, plan: Callable[[Request], Run], parameters: tuple[str, ...] = ()) -> Response:
    """What every document endpoint shares: the key, the endpoint's own checks (``plan``: ``Accept`` and its
    ``parameters``; it returns what to do with the body), ``Content-Type`` and the query, readiness (``503
    invoice.busy``), the client's slot, the body within its limits and the budget, the pool's work under the
    watchdog (a full queue: ``503`` with ``Retry-After``); every failure a problem document."""
    service = _service(request)
    settings = service.settings
    try:
        checks.authorize(request, service.keys, service.lockout, "invoices")
        run = plan(request)
        profile = checks.check_content(request, service.profiles, parameters)
        if not service.pool.ready:
            raise Problem(
                "invoice.busy",
                f"the server is {service.status}: its workers are not ready; retry later",
                {"Retry-After": str(max(settings.retry_after, 5))},
            )
        with service.slots.hold(checks.client_of(request)), Share(service.budget) as share:
            body = await checks.read_body(request, share, settings.max_body_bytes, settings.body_timeout)
            try:
                return await service.watchdog.guard(run(service.pool, body, profile))
            except PoolBusy as exc:
                raise Problem(exc.code, exc.detail, {"Retry-After": str(exc.retry_after)}) from None
    except Problem as p:
        return _answer(request, p.code, p.detail, p.headers)
    except EInvoiceValidateError as exc:
        doc = problem_for_error(exc, request.url.path)
        if doc["code"] != exc.code or exc.reason is not None:
            log.warning("%s %s: %s (%s) %s", request.method, request.url.path, exc.code, exc.reason, exc.detail)
        request.state.code = doc["code"]
        return _problem_response(doc)
    except asyncio.CancelledError:
        service.unfinished += 1  # the shutdown's grace ran out
        raise


async def validate(request: Request) -> Response:
    """``POST /v1/invoices/validate``: the report of the body's document, or a problem document."""
    return await _on_document(request, _plan_report)


def _plan_report(request: Request) -> Run:
    checks.check_accept(request)
    return _report


async def _report(pool: ValidationPool, body: bytes, profile: str | None) -> Response:
    validated = await pool.validate_json(body, profile=profile)
    headers = {"X-Document-SHA256": validated.sha256 or ""}
    return Response(validated.report_json, media_type="application/json", headers=headers)


async def render(request: Request) -> Response:
    """``POST /v1/invoices/render?lang=de|en&format=html|pdf``: the body's document shown as one self-contained
    page with its findings (an invalid invoice too), or a problem document (as for validate)."""
    return await _on_document(request, _plan_page, ("lang", "format"))


def _plan_page(request: Request) -> Run:
    lang = checks.check_choice(request, "lang", LANGS, "en")
    fmt = checks.check_choice(request, "format", FORMATS, "html")
    media_type = MEDIA_TYPES[fmt]
    checks.check_accept(request, (media_type,))
    if fmt == "pdf":
        try:
            require("pdf", "format=pdf")  # before the body is read (the workers run this same interpreter)
        except MissingExtra as exc:
            raise Problem("request.not-acceptable", f"this server cannot make PDF pages: {exc}") from None

    async def page(pool: ValidationPool, body: bytes, profile: str | None) -> Response:
        rendered = await pool.render(body, lang=lang, fmt=fmt, profile=profile)
        headers = {"X-Document-SHA256": rendered.sha256 or "", **PAGE_HEADERS}
        return Response(rendered.content, media_type=rendered.media_type, headers=headers)

    return page


async def health(request: Request) -> Response:
    """``GET /v1/health``: ``{"status"}``, 200 when ready, else 503. ``?details`` adds the version, the packs and
    the worker counters (with keys configured: for an ``admin`` key only)."""
    service = _service(request)
    status = service.status
    body: dict[str, Any] = {"status": status}
    if "details" in request.query_params:
        try:
            checks.authorize(request, service.keys, service.lockout, "admin")
        except Problem as p:
            return _answer(request, p.code, p.detail, p.headers)
        body |= {
            "version": __version__,
            "packs": service.packs,
            "workers": service.pool.stats(),
            "stopped_workers": sorted(service.watchdog.stopped),
        }
        if service.failure is not None:
            body["failure"] = service.failure
    return JSONResponse(body, status_code=200 if status == "ready" else 503)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "server.error")
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
    """Start the pool in the background (the server listens at once) and the watchdog; on shutdown, stop the
    pool (queued and in-flight documents finish first)."""
    service: Service = app.state.service
    starting = asyncio.create_task(service.start())
    watching = asyncio.create_task(service.watchdog.run())
    try:
        yield
    finally:
        grace = service.settings.shutdown_grace
        service.stopping = True
        watching.cancel()
        if not starting.done():  # stopped while starting: let the start end, then close
            await asyncio.wait({starting}, timeout=grace)
        aclose = getattr(service.pool, "aclose", None)  # a RemotePool drains in this loop
        if aclose is not None:
            await aclose(grace)
        else:
            await asyncio.to_thread(service.pool.close, grace)
        log.info("stopped: the pool is closed (%s)", service.pool.stats())


def create_app(settings: ServerSettings | None = None, *, pool: ValidationPool | None = None) -> Starlette:
    """The ASGI application; its lifespan starts the pool without delaying the server and stops it."""
    app = Starlette(
        routes=[
            Route(VALIDATE_PATH, validate, methods=["POST"]),
            Route(RENDER_PATH, render, methods=["POST"]),
            Route(HEALTH_PATH, health, methods=["GET"]),
        ],
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.router.redirect_slashes = False  # no redirect built from the Host header: 404
    app.state.service = Service(settings or ServerSettings(), pool)
    app.add_middleware(AccessLog)
    return app


class AccessLog:
    """One line per request: client, method, path, status, bytes, milliseconds, key id, problem code, and why a
    request got no answer (the client went away)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 0
        size = 0
        reason = ""

        async def sending(message: Message) -> None:
            nonlocal status, size
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                size += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except ClientGone as gone:  # nothing to answer: the line says why
            reason = f" reason={gone.reason!r}"
        finally:
            st = scope.get("state") or {}
            client = scope.get("client")
            access_log.info(
                '%s "%s %s" %d %d %.1fms key=%s code=%s%s',
                client[0] if client else "-",
                scope["method"],
                scope["path"],
                status,
                size,
                (time.perf_counter() - start) * 1000,
                st.get("key", "-"),
                st.get("code", "-"),
                reason,
            )
