"""einvoice-validate: offline validation of e-invoices (UBL 2.1, CII D16B) with the official rule packs.

Importing this package does not load Saxon (nor asyncio: :class:`Pool` is imported on first use); the first
validation compiles only the packs its profile needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import pool
from ._extras import MissingExtra, SetupError
from ._version import __version__
from .api import default_validator, validate
from .errors import EInvoiceValidateError, InputError, PoolBusy, ProfileError, RulesetError, WorkerDied
from .findings import Finding, Message, Report, Severity
from .limits import DEFAULT_LIMITS, Limits
from .options import Options
from .pool.batch import BatchError, BatchResult, BatchValidator, iter_validate, validate_many
from .selection import Ignored, Selected, Selection
from .validator import Validator

if TYPE_CHECKING:
    from .pool.service import Pool

__all__ = [
    "DEFAULT_LIMITS",
    "BatchError",
    "BatchResult",
    "BatchValidator",
    "EInvoiceValidateError",
    "Finding",
    "Ignored",
    "InputError",
    "Limits",
    "Message",
    "MissingExtra",
    "Options",
    "Pool",
    "PoolBusy",
    "ProfileError",
    "Report",
    "RulesetError",
    "Selected",
    "Selection",
    "SetupError",
    "Severity",
    "Validator",
    "WorkerDied",
    "__version__",
    "default_validator",
    "iter_validate",
    "validate",
    "validate_many",
]


def __getattr__(name: str) -> Any:
    if name == "Pool":  # asyncio and the service: only for a program that asks for a Pool (pool's __getattr__)
        return pool.Pool
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
