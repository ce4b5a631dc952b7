"""The version of einvoice-validate, in one place: the package's ``__version__``, the build's (``pyproject.toml``
reads it from here) and every module below the package face that writes it (reports, findings' ``source``, the
server's health answer), importing nothing."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
