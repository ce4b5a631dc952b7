"""Which version of each pack is in force on a day, whether it is installed, and which later versions the catalogue
knows (``einvoice-validate rulesets outdated``): offline, from the manifests alone.

The catalogue is the registry's manifests: the ones this library ships and the ones dropped into the rules home
(``<home>/manifests/<id>/<version>.toml``, :class:`~.registry.Registry`), so that a pack version published after a
release of the library is one manifest file, checked as the bundled ones are, and nothing else. Of a pack's versions,
the one in force on a day is the one whose dates hold it with the latest start (``Manifest.valid_from`` /
``valid_until``, as a profile's ``id@*`` entry picks it); the later ones are those that start after that day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from ..errors import EInvoiceValidateError
from .manifest import Manifest
from .registry import Registry

__all__ = ["PackState", "VersionState", "pack_states"]


@dataclass(frozen=True, slots=True)
class VersionState:
    """One version of a pack as the catalogue knows it, and whether the rules home holds it (``installed_from``:
    ``upstream``, ``staged`` for a staged copy, ``Manifest.staged``; None: not installed)."""

    key: str
    version: str
    valid_from: date | None
    valid_until: date | None
    installed_from: Literal["upstream", "staged"] | None
    catalogue: Literal["bundled", "rules home", "user"]

    @property
    def installed(self) -> bool:
        return self.installed_from is not None

    def in_force_text(self) -> str:
        parts = [f"from {self.valid_from}"] if self.valid_from is not None else []
        parts += [f"until {self.valid_until}"] if self.valid_until is not None else []
        return " ".join(parts) or "always"


@dataclass(frozen=True, slots=True)
class PackState:
    """A pack on a day: the version in force (None: none is, yet or any more), the installed version that runs in
    its place when it is not installed (``stand_in``: the latest installed one started by that day, as a profile's
    plan takes it), and the later versions the catalogue knows, by start."""

    id: str
    kind: str
    title: str
    in_force: VersionState | None
    stand_in: VersionState | None
    newer: tuple[VersionState, ...]


def _start(manifest: Manifest) -> date:
    return manifest.valid_from or date.min


def _state(registry: Registry, manifest: Manifest) -> VersionState:
    installed: Literal["upstream", "staged"] | None = None
    if registry.is_installed(manifest.key):
        try:
            installed = registry.get(manifest.key).installed_from()
        except EInvoiceValidateError:  # a record that does not fit: `rulesets verify` says what is wrong
            installed = "upstream"
    return VersionState(
        manifest.key,
        manifest.version,
        manifest.valid_from,
        manifest.valid_until,
        installed,
        registry.catalogue_of(manifest.key),
    )


def pack_states(registry: Registry, on: date) -> list[PackState]:
    """Every pack of the catalogue on the day ``on``, by id."""
    by_id: dict[str, list[Manifest]] = {}
    for manifest in registry.manifests.values():
        by_id.setdefault(manifest.id, []).append(manifest)
    states = []
    for pack_id in sorted(by_id):
        versions = sorted(by_id[pack_id], key=_start)
        in_force = [m for m in versions if m.in_force(on)]
        current = in_force[-1] if in_force else None
        stand_in = None
        if current is not None and not registry.is_installed(current.key):
            started = [m for m in versions if _start(m) <= on and registry.is_installed(m.key) and m is not current]
            stand_in = _state(registry, started[-1]) if started else None
        newer = [m for m in versions if m.valid_from is not None and m.valid_from > on]
        latest = versions[-1]
        states.append(
            PackState(
                pack_id,
                latest.kind,
                latest.title,
                _state(registry, current) if current is not None else None,
                stand_in,
                tuple(_state(registry, m) for m in newer),
            )
        )
    return states
