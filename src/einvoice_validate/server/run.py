"""Running the application with uvicorn: loopback only without keys, graceful shutdown on SIGTERM (uvicorn stops
accepting, lets in-flight requests finish within ``shutdown_grace``, then the lifespan stops the pool)."""

from __future__ import annotations

import logging

from .settings import ServerSettings, is_loopback

__all__ = ["NotLoopback", "serve"]


class NotLoopback(ValueError):
    """A non-loopback host was asked for without access keys."""


def serve(settings: ServerSettings) -> bool:
    """Serve until SIGTERM or SIGINT; False when the server could not start (e.g. broken rule packs).

    Raises:
        NotLoopback: ``settings.host`` is not a loopback address and no keys are configured.
    """
    if settings.keys_file is None and not is_loopback(settings.host):
        raise NotLoopback(
            f"without access keys (--keys FILE) the server listens on loopback only, not on {settings.host}"
        )
    import uvicorn

    from .app import create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = uvicorn.Config(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        lifespan="on",
        access_log=False,  # our own access log: one line per request, with the key id and the problem code
        log_config=None,
        server_header=False,
        timeout_graceful_shutdown=int(settings.shutdown_grace),
        backlog=2048,
    )
    server = uvicorn.Server(config)
    server.run()
    return bool(server.started)
