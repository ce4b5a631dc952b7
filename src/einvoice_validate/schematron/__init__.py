"""The Schematron stage: official packs as compiled XSLT (saxonche), SVRL to findings."""

from __future__ import annotations

from .stage import RUNTIME_ERROR, SchematronStage

__all__ = ["RUNTIME_ERROR", "SchematronStage"]
