"""Thin module-level functions over one cached :class:`Validator` per process."""

from __future__ import annotations

import threading
from datetime import date

from .findings import Report
from .parse import Source
from .validator import Validator

__all__ = ["default_validator", "validate"]

_default: Validator | None = None
_lock = threading.Lock()


def default_validator() -> Validator:
    """The process-wide validator (rules home from the environment), created on first use."""
    global _default
    with _lock:
        if _default is None:
            _default = Validator()
        return _default


def validate(source: Source, *, profile: str | None = None, rules_date: date | str | None = None) -> Report:
    """Validate one invoice (bytes, a path, or a binary file object) and return its :class:`Report`;
    ``rules_date``: see :meth:`Validator.validate` (default: today).

    Raises:
        EInvoiceValidateError: the document could not be validated (see :mod:`einvoice_validate.errors`).
    """
    return default_validator().validate(source, profile=profile, rules_date=rules_date)
