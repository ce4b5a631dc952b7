"""The registry of installed packs: where the rules home is, what is installed, checksum verification."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import RulesetError
from .manifest import Manifest, load_manifests

__all__ = ["HOME_ENV", "InstalledPack", "Registry", "default_home", "sha256_file"]

HOME_ENV = "EINVOICE_VALIDATE_HOME"


def default_home() -> Path:
    """The rules home: ``$EINVOICE_VALIDATE_HOME``, else ``$XDG_DATA_HOME/einvoice-validate``, else
    ``~/.local/share/einvoice-validate``. Packs live in ``<home>/packs/<id>/<version>/``."""
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "einvoice-validate"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class InstalledPack:
    """A pack version as installed in the rules home."""

    manifest: Manifest
    directory: Path

    @property
    def key(self) -> str:
        return self.manifest.key

    def entry(self, name: str) -> Path:
        """The path of an entry point (``stylesheet``, or an XSD root such as ``ubl-invoice``)."""
        try:
            return self.directory / self.manifest.entries[name]
        except KeyError:
            raise RulesetError("ruleset.invalid", f"pack {self.key} has no entry point {name!r}") from None

    def problems(self) -> list[tuple[str, str, str]]:
        """Every file that is missing or whose sha256 differs: ``(code, file, detail)`` triples."""
        found: list[tuple[str, str, str]] = []
        for rel, expected in self.manifest.files.items():
            path = self.directory / rel
            if not path.is_file():
                found.append(("ruleset.missing", rel, "not installed"))
                continue
            actual = sha256_file(path)
            if actual != expected:
                found.append(("ruleset.corrupt", rel, f"sha256 {actual}, manifest says {expected}"))
        return found

    def verify(self) -> None:
        """Raise :class:`RulesetError` naming the pack and the first bad file, if any."""
        for code, rel, detail in self.problems():
            raise RulesetError(code, f"pack {self.key}: file {rel} ({self.directory / rel}): {detail}")


class Registry:
    """Looks packs up by ``id@version`` in a rules home, against the manifests this library ships."""

    def __init__(self, home: Path | None = None, manifests: dict[str, Manifest] | None = None) -> None:
        self.home = Path(home) if home is not None else default_home()
        self.manifests = manifests if manifests is not None else load_manifests()

    def pack_dir(self, manifest: Manifest) -> Path:
        return self.home / "packs" / manifest.id / manifest.version

    def get(self, key: str) -> InstalledPack:
        """The installed pack ``key``; raises ``ruleset.missing`` when it is unknown or not installed."""
        manifest = self.manifests.get(key)
        if manifest is None:
            raise RulesetError("ruleset.missing", f"unknown pack {key}; known: {', '.join(sorted(self.manifests))}")
        directory = self.pack_dir(manifest)
        if not directory.is_dir():
            raise RulesetError(
                "ruleset.missing",
                f"pack {key} is not installed in {self.home}; run `einvoice-validate rulesets install --from DIR`",
            )
        return InstalledPack(manifest, directory)

    def installed(self) -> list[InstalledPack]:
        """The packs whose folder exists in the rules home (complete or not: see ``InstalledPack.problems``)."""
        return [InstalledPack(m, self.pack_dir(m)) for m in self.manifests.values() if self.pack_dir(m).is_dir()]
