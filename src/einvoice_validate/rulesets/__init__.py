"""Rule packs as versioned data: manifests, the registry of installed packs, the installer."""

from __future__ import annotations

from .installer import install
from .manifest import Manifest, bundled_dir, load_manifests
from .registry import InstalledPack, Registry, default_home

__all__ = ["InstalledPack", "Manifest", "Registry", "bundled_dir", "default_home", "install", "load_manifests"]
