"""Where the project's own ruleset data lies (manifests, profiles, message catalogue): one path, read by the
bottom floor (the catalogue, the manifests), importing nothing of the package."""

from __future__ import annotations

from pathlib import Path

__all__ = ["bundled_dir"]


def bundled_dir() -> Path:
    """The folder with the project's own ruleset data (manifests, profiles, message catalogue).

    In a wheel it is packaged as ``einvoice_validate/_rulesets``; in a source checkout it is the repository's
    top-level ``rulesets/``.
    """
    packaged = Path(__file__).resolve().parent / "_rulesets"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rulesets"
