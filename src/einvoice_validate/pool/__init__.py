"""The worker pool: worker processes (:mod:`.worker`) and the service pool for servers and long-running
processes (:mod:`.service`: ``await pool.validate(data)``, ``pool.submit(data)`` from threads). The batch API
(:mod:`einvoice_validate.batch`) drives the same worker processes.

:class:`Pool` is imported on first use: the batch API and the CLI need only the worker (not asyncio)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .worker import WorkerConfig

if TYPE_CHECKING:
    from .service import Pool, Validated

__all__ = ["Pool", "Validated", "WorkerConfig"]


def __getattr__(name: str) -> Any:
    if name in ("Pool", "Validated"):
        from . import service

        return getattr(service, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
