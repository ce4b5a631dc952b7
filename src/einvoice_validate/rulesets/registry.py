"""The registry of installed packs: where the rules home is, what is installed, checksum verification."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import Detail, RulesetError
from ..syntaxes import Syntaxes
from .configuration import READER_STEPS, SCENARIOS, Scenario, load_scenarios
from .manifest import Manifest, load_manifests, read_manifest_folder

__all__ = [
    "HOME_ENV",
    "HOME_MANIFESTS",
    "INSTALLED_MANIFEST",
    "InstalledPack",
    "Registry",
    "default_home",
    "sha256_file",
]

HOME_ENV = "EINVOICE_VALIDATE_HOME"
HOME_MANIFESTS = "manifests"
"""``<home>/manifests/<id>/<version>.toml``: pack versions the rules home knows besides the bundled ones."""
INSTALLED_MANIFEST = "manifest.json"
"""The manifest as installed, in the pack folder: for a pack pinned by its archive, the record of the sha256 its
members had at install (``Manifest.pinned_by``), which the registry verifies ever after."""
_PREPARED_ENTRY = {"schematron": "stylesheet", "configuration": "scenarios"}


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

    def files(self) -> dict[str, str]:
        """Every file of the pack with the sha256 it must have: the manifest's; for a pack pinned by its archive
        or commit with files not known in advance, the ones recorded at install (``manifest.json``), which must keep
        the manifest's pin and every sha256 the manifest does record (a staged copy: exactly the staged copy's).
        Raises ``ruleset.missing`` (no record: install again) or ``ruleset.corrupt`` (a record that does not fit the
        manifest)."""
        return self.record().files if self.manifest.unrecorded else self.manifest.files

    def installed_from(self) -> Literal["upstream", "staged"]:
        """Whether the installed files are upstream's or the manifest's staged copy (``Manifest.staged``)."""
        return (self.record().installed_from or "upstream") if self.manifest.unrecorded else "upstream"

    def record(self) -> Manifest:
        """The manifest as installed (``manifest.json``) of a pack with files not known in advance, checked against
        the manifest (see :meth:`files`)."""
        path = self.directory / INSTALLED_MANIFEST
        try:
            recorded = Manifest.model_validate_json(path.read_bytes())
        except FileNotFoundError:
            raise RulesetError(
                "ruleset.missing",
                Detail("detail.no-record", self.key, path),
            ) from None
        except (OSError, ValueError) as exc:
            raise RulesetError("ruleset.corrupt", Detail("detail.pack-cannot-read", self.key, path, exc)) from exc
        staged = self.manifest.staged
        fits = (
            recorded.key == self.key
            and recorded.upstream.archives == self.manifest.upstream.archives
            and recorded.upstream.commit == self.manifest.upstream.commit
            and set(recorded.files) == set(self.manifest.files)
            and not recorded.unrecorded
            and all(recorded.files[rel] == sha for rel, sha in self.manifest.files.items() if sha)
            and (recorded.installed_from != "staged" or (staged is not None and recorded.files == staged.files))
        )
        if not fits:
            raise RulesetError("ruleset.corrupt", Detail("detail.not-the-pinned-record", self.key, path))
        return recorded

    def entry(self, name: str) -> Path:
        """The path of an entry point (``stylesheet``, or an XSD root such as ``ubl-invoice``)."""
        try:
            return self.directory / self.manifest.entries[name]
        except KeyError:
            raise RulesetError("ruleset.invalid", Detail("detail.no-entry-point", self.key, repr(name))) from None

    def catalog(self) -> Path | None:
        """An XSD pack's XML catalog (``Manifest.catalog``: its schemas' imports by address, mapped to its files),
        or None."""
        return self.directory / self.manifest.catalog if self.manifest.catalog is not None else None

    def prepared(self, name: str = "stylesheet") -> tuple[Path, str]:
        """The prepared copy of a stylesheet entry (see :mod:`.prepare`) and its recorded sha256.

        Raises ``ruleset.missing`` when the pack was installed without prepared copies (an install by an
        older version) or by another preparation version: re-run ``einvoice-validate rulesets install``."""
        from .prepare import PREPARATION_VERSION, read_index, step_versions, steps_for  # 12 ms, off the import

        index = read_index(self.directory)
        reinstall = Detail("detail.reinstall", self.key)
        if index is None:
            raise RulesetError("ruleset.missing", self._not_prepared())
        if index.version != PREPARATION_VERSION:
            raise RulesetError(
                "ruleset.missing",
                Detail("detail.prepared-by-version", self.key, index.version, PREPARATION_VERSION, reinstall),
            )
        steps = (
            READER_STEPS
            if self.manifest.kind == "configuration"
            else step_versions(steps_for(self.manifest.output))  # the steps for the pack's report format
        )
        if index.steps != steps:
            wanted = ", ".join(f"{n} v{v}" for n, v in steps.items())
            found = ", ".join(f"{n} v{v}" for n, v in index.steps.items()) or "none"
            raise RulesetError(
                "ruleset.missing",
                Detail("detail.prepared-with-steps", self.key, found, wanted, reinstall),
            )
        entry = index.entries.get(name)
        if entry is None or entry.source != self.manifest.entries.get(name):
            raise RulesetError("ruleset.missing", Detail("detail.no-prepared-copy", self.key, repr(name), reinstall))
        return self.directory / entry.path, entry.sha256

    def prepared_stylesheet(self) -> Path:
        """The path of the prepared copy of the pack's stylesheet (what the Schematron stage compiles)."""
        return self.prepared()[0]

    def prepared_checksum(self) -> str:
        """The sha256 recorded at install time for the prepared stylesheet."""
        return self.prepared()[1]

    def scenarios(self) -> dict[str, Scenario]:
        """A configuration's scenarios by name, as read at install (:mod:`.configuration`)."""
        path, _ = self.prepared(SCENARIOS)
        return load_scenarios(path, self.files()[self.manifest.entries[SCENARIOS]])

    def problems(self) -> list[tuple[str, str, str]]:
        """Every file that is missing or whose sha256 differs: ``(code, file, detail)`` triples; for a
        Schematron pack also its prepared stylesheet (missing, outdated, or not what ``prepared.json`` says), for
        a configuration its scenarios as read at install."""
        found: list[tuple[str, str, str]] = []
        try:
            files = self.files()
        except RulesetError as exc:
            return [(exc.code, INSTALLED_MANIFEST, exc.detail)]
        for rel, expected in files.items():
            path = self.directory / rel
            if not path.is_file():
                found.append(("ruleset.missing", rel, "not installed"))
                continue
            actual = sha256_file(path)
            if actual != expected:
                found.append(("ruleset.corrupt", rel, f"sha256 {actual}, manifest says {expected}"))
        if self.manifest.kind in _PREPARED_ENTRY and not found:
            found.extend(self._prepared_problems(_PREPARED_ENTRY[self.manifest.kind], files))
        return found

    def _prepared_problems(self, name: str, files: dict[str, str]) -> list[tuple[str, str, str]]:
        from .prepare import PREPARED_INDEX, read_index  # see prepared

        try:
            index = read_index(self.directory)
            if index is None:
                return [("ruleset.missing", "", self._not_prepared())]
            path, expected = self.prepared(name)
        except RulesetError as exc:
            return [(exc.code, PREPARED_INDEX, exc.detail)]
        rel = index.entries[name]
        if rel.source_sha256 != files[rel.source]:
            return [("ruleset.corrupt", rel.path, f"prepared from another version of {rel.source}")]
        if not path.is_file():
            return [("ruleset.missing", rel.path, "prepared stylesheet not installed")]
        actual = sha256_file(path)
        if actual != expected:
            return [("ruleset.corrupt", rel.path, f"sha256 {actual}, {PREPARED_INDEX} says {expected}")]
        return []

    def _not_prepared(self) -> str:
        """Why a pack without prepared stylesheets cannot run, and the command that prepares it: a user pack copied
        into the rules home but not installed yet (issue 27), or an official pack installed by an older version."""
        command = f"`einvoice-validate rulesets install {self.key}`"
        if self.manifest.provided_by == "user":
            return (
                f"pack {self.key} is in the rules home ({self.directory}) but not installed yet: run {command} "
                "(checks its files' sha256 and prepares it; nothing is fetched)"
            )
        return (
            f"pack {self.key} has no prepared stylesheets in {self.directory} (installed by an older version); "
            f"run {command} again (add `--from DIR` without a network)"
        )

    def verify(self) -> None:
        """Raise :class:`RulesetError` naming the pack and the first bad file (or the pack's state), if any."""
        for code, rel, detail in self.problems():
            if not rel:  # the pack as a whole (not prepared yet)
                raise RulesetError(code, detail)
            raise RulesetError(code, f"pack {self.key}: file {rel} ({self.directory / rel}): {detail}")


class Registry:
    """Looks packs up by ``id@version`` in a rules home, against the catalogue of manifests: the ones this library
    ships, the ones dropped into the rules home (``<home>/manifests/<id>/<version>.toml``: a pack version published
    after this release, read and checked as the bundled ones are, :attr:`from_home`) and the user packs
    (:mod:`.user`); ``syntaxes`` are the bundled syntaxes and the rules home's own
    (:func:`.user.load_user_syntaxes`)."""

    def __init__(self, home: Path | None = None, manifests: dict[str, Manifest] | None = None) -> None:
        self.home = Path(home) if home is not None else default_home()
        # The user syntaxes and packs of this rules home (.user): 2 ms, off the import of the package
        from .user import load_user_manifests, load_user_syntaxes

        self.syntaxes: Syntaxes = load_user_syntaxes(self.home)
        self.from_home: frozenset[str] = frozenset()
        """The keys of the manifests the rules home adds to the bundled ones (``<home>/manifests/``)."""
        if manifests is None:
            # The official manifests this library ships, those of the rules home, and its user packs.
            manifests = dict(load_manifests())
            added = read_manifest_folder(self.home / HOME_MANIFESTS, self.syntaxes)
            for key, manifest in added.items():
                if key in manifests and manifests[key] != manifest:
                    path = self.home / HOME_MANIFESTS / manifest.id / f"{manifest.version}.toml"
                    raise RulesetError("ruleset.invalid", Detail("detail.manifest-redefines", path, key))
            self.from_home = frozenset(k for k in added if k not in manifests)
            manifests.update({k: m for k, m in added.items() if k in self.from_home})
            for key, manifest in load_user_manifests(self.home, self.syntaxes).items():
                if key in manifests or any(
                    m.id == manifest.id for m in manifests.values() if m.provided_by == "official"
                ):
                    raise RulesetError("ruleset.invalid", Detail("detail.user-pack-official-id", key))
                manifests[key] = manifest
        self.manifests = manifests

    def catalogue_of(self, key: str) -> Literal["bundled", "rules home", "user"]:
        """Where the manifest ``key`` comes from: shipped with this library, dropped into the rules home
        (``<home>/manifests/``), or a user pack's."""
        if self.manifests[key].provided_by == "user":
            return "user"
        return "rules home" if key in self.from_home else "bundled"

    def pack_dir(self, manifest: Manifest) -> Path:
        if manifest.provided_by == "user":
            from .user import user_pack_dir  # see __init__

            return user_pack_dir(self.home, manifest)
        return self.home / "packs" / manifest.id / manifest.version

    def get(self, key: str) -> InstalledPack:
        """The installed pack ``key``; raises ``ruleset.missing`` when it is unknown or not installed."""
        manifest = self.manifests.get(key)
        if manifest is None:
            raise RulesetError("ruleset.missing", Detail("detail.unknown-pack", key, ", ".join(sorted(self.manifests))))
        directory = self.pack_dir(manifest)
        if not directory.is_dir():
            raise RulesetError("ruleset.missing", Detail("detail.pack-not-installed", key, self.home))
        return InstalledPack(manifest, directory)

    def is_installed(self, key: str) -> bool:
        """Whether the pack ``key`` is known and its folder exists (complete or not: see ``InstalledPack.problems``)."""
        manifest = self.manifests.get(key)
        return manifest is not None and self.pack_dir(manifest).is_dir()

    def scenarios(self, key: str) -> dict[str, Scenario]:
        """The scenarios of the installed configuration ``key``, by name (``InstalledPack.scenarios``)."""
        return self.get(key).scenarios()

    def installed(self) -> list[InstalledPack]:
        """The packs whose folder exists in the rules home (complete or not: see ``InstalledPack.problems``)."""
        return [InstalledPack(m, self.pack_dir(m)) for m in self.manifests.values() if self.pack_dir(m).is_dir()]
