"""The XSD stage: libxml2's schema errors become findings with the Xerces ``cvc-…`` codes KoSIT reports."""

from __future__ import annotations

from .stage import XsdStage

__all__ = ["XsdStage"]
