"""Rule packs as versioned data: manifests, the registry of installed packs, the installer.

:func:`install` is imported on first use: validating never needs the downloader (nor its HTTP modules)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import Manifest, bundled_dir, load_manifests
from .registry import InstalledPack, Registry, default_home

if TYPE_CHECKING:
    from .installer import install

__all__ = ["InstalledPack", "Manifest", "Registry", "bundled_dir", "default_home", "install", "load_manifests"]


def __getattr__(name: str) -> Any:
    if name == "install":
        from .installer import install  # see the module docstring

        return install
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
