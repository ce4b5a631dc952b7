"""The runners of many documents: the batch API (:mod:`.batch`: ``iter_validate``, ``validate_many``,
``BatchValidator``) and the service pool for servers and long-running processes (:mod:`.service`: ``Pool``), both
on one worker slot (:mod:`.slot`: a thread over one shared validator, or a worker process of :mod:`.worker`),
with the batch's routing by syntax in :mod:`.routing`.

:class:`Pool` is imported on first use: the batch API and the CLI need no asyncio."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .batch import BatchError, BatchResult, BatchValidator, iter_validate, validate_many
from .job import Rendered, Validated
from .worker import WorkerConfig

if TYPE_CHECKING:
    from .service import Pool

__all__ = [
    "BatchError",
    "BatchResult",
    "BatchValidator",
    "Pool",
    "Rendered",
    "Validated",
    "WorkerConfig",
    "iter_validate",
    "validate_many",
]


def __getattr__(name: str) -> Any:
    if name == "Pool":
        from .service import Pool  # see the package's __getattr__

        return Pool
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
