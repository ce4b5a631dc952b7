"""The worker pool: worker processes (:mod:`.worker`) and the service pool for servers and long-running
processes (:mod:`.service`: ``await pool.validate(data)``, ``pool.submit(data)`` from threads). The batch API
(:mod:`einvoice_validate.batch`) drives the same worker processes."""

from __future__ import annotations

from .service import Pool, Validated
from .worker import WorkerConfig

__all__ = ["Pool", "Validated", "WorkerConfig"]
