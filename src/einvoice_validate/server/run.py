"""Running the application with uvicorn and the connection limits of :mod:`.protocol`: loopback only without
keys, no proxy trusted unless configured, listening at once (health says 503 until the workers are ready), and a
graceful shutdown on SIGTERM (uvicorn stops accepting; every request read is answered within ``shutdown_grace``,
see :mod:`.protocol`; then the lifespan stops the pool) that exits 0 when every request in flight was answered."""

from __future__ import annotations

import logging
import resource
import signal
import time
from types import FrameType

import uvicorn
from starlette.applications import Starlette

from ..errors import Detail, RulesetError
from ..rulesets.registry import Registry
from .app import Service, create_app
from .protocol import guarded_protocol
from .settings import ServerSettings, is_loopback

__all__ = ["NotLoopback", "serve", "uvicorn_config"]

log = logging.getLogger("einvoice_validate.server")
_SPARE_FILES = 256  # files beyond the connections: the pool's pipes, the packs, logs


class NotLoopback(ValueError):
    """A non-loopback host was asked for without access keys."""


class _Server(uvicorn.Server):
    """Uvicorn's server without its re-raise of SIGTERM once shut down: a drained shutdown is a clean exit."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        if sig == signal.SIGTERM and sig in self._captured_signals:
            self._captured_signals.remove(sig)


def serve(settings: ServerSettings) -> bool:
    """Serve until SIGTERM or SIGINT. True after a clean stop (every request in flight answered); False when the
    pool could not start or the shutdown's grace cut requests off.

    Raises:
        NotLoopback: ``settings.host`` is not a loopback address and no keys are configured.
        RulesetError: no rule pack is installed (``ruleset.missing``).
    """
    if settings.keys_file is None and not is_loopback(settings.host):
        raise NotLoopback(
            f"without access keys (--keys FILE) the server listens on loopback only, not on {settings.host}"
        )
    registry = Registry(settings.rules_home)
    if not registry.installed():
        raise RulesetError(
            "ruleset.missing",
            Detail("detail.no-packs-installed", registry.home),
        )
    _log_lines()
    _open_files(settings.max_connections + _SPARE_FILES)
    app = create_app(settings)
    service: Service = app.state.service
    config = uvicorn_config(app, settings)
    server = _Server(config)
    service.on_failure = lambda: setattr(server, "should_exit", True)
    server.run()
    return bool(server.started) and service.failure is None and not service.unfinished


def uvicorn_config(app: Starlette, settings: ServerSettings) -> uvicorn.Config:
    """Uvicorn's configuration for ``app`` with ``settings``: the guarded protocol, the trusted proxies, the
    keep-alive and shutdown times, no access log or ``Server`` header of its own."""
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        http=guarded_protocol(settings),
        lifespan="on",
        access_log=False,  # our own access log: one line per request, with the key id and the problem code
        log_config=None,
        server_header=False,
        proxy_headers=bool(settings.forwarded_allow_ips),
        forwarded_allow_ips=list(settings.forwarded_allow_ips) or None,
        timeout_keep_alive=settings.keep_alive_timeout,  # type: ignore[arg-type]  # a float works (call_later)
        timeout_graceful_shutdown=max(1, round(settings.shutdown_grace)),
        backlog=2048,
    )


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def _log_lines() -> None:
    """Log to stderr in :data:`LOG_FORMAT`, unless the process configured its logging itself. Ours names no
    caller, thread or process: their look-ups are left out of every record (the logging module's documented
    optimizations; about 3 µs of the access line's 11)."""
    if logging.getLogger().handlers:  # configured by the caller: theirs stays as it is
        return
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    for handler in logging.getLogger().handlers:
        handler.setFormatter(_Formatter(LOG_FORMAT))
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False


class _Formatter(logging.Formatter):
    """The standard formatter, with the time of day made once per second (the access log writes a line per
    request; ``strftime`` was a fifth of its cost)."""

    _stamp: tuple[int, str] = (-1, "")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        if datefmt or not self.default_msec_format:
            return super().formatTime(record, datefmt)
        second = int(record.created)
        stamp = self._stamp
        if stamp[0] != second:  # the converter's time of int(created) is that of created: same second, same text
            stamp = self._stamp = (second, time.strftime(self.default_time_format, self.converter(record.created)))
        return self.default_msec_format % (stamp[1], record.msecs)


def _open_files(wanted: int) -> None:
    """Raise the soft limit of open files towards ``wanted`` (up to the hard limit); warn when it stays below."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
        if soft < wanted:
            log.warning(
                "open files are limited to %d (ulimit -n): fewer than max_connections + %d; raise the limit",
                soft,
                _SPARE_FILES,
            )
