"""The installer: copies (``--from DIR``) or downloads the official pack files into the rules home, verified,
then writes the prepared copy of each Schematron stylesheet (:mod:`.prepare`).

Every file is checked against its manifest's sha256 *before* it is put in place, and a pack folder is
replaced as a whole (staged, then renamed), so a failed install never leaves a half-written pack behind.
Downloading is the only network access of the library, and it happens only here, never while validating.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterable
from pathlib import Path

from ..errors import RulesetError
from .manifest import Manifest
from .prepare import prepare_pack_dir
from .registry import InstalledPack, Registry, sha256_file

__all__ = ["install"]

DOWNLOAD_TIMEOUT_S = 60


def install(
    registry: Registry,
    source: Path | None = None,
    packs: Iterable[str] | None = None,
) -> list[InstalledPack]:
    """Install ``packs`` (default: all known) from ``source`` (a folder laid out like the official
    ``rulesets/``: ``<source>/<manifest.source_dir>/<file>``) or, without a source, from the pinned upstream
    releases. Returns the installed packs; raises :class:`RulesetError` naming the pack and file on failure."""
    keys = list(packs) if packs is not None else sorted(registry.manifests)
    unknown = [k for k in keys if k not in registry.manifests]
    if unknown:
        raise RulesetError("ruleset.missing", f"unknown pack(s): {', '.join(unknown)}")
    done = []
    for key in keys:
        manifest = registry.manifests[key]
        with tempfile.TemporaryDirectory(prefix=".install-", dir=_ensure(registry.home)) as tmp:
            staging = Path(tmp) / "pack"
            if source is not None:
                _copy_from(manifest, Path(source), staging)
            else:
                _download(manifest, staging)
            if manifest.kind == "schematron":
                # The copies the Schematron stage compiles, checksummed in prepared.json (see .prepare).
                prepare_pack_dir(staging, {"stylesheet": manifest.entries["stylesheet"]}, manifest.key)
            (staging / "manifest.json").write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
            target = registry.pack_dir(manifest)
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.exists():
                shutil.rmtree(target)
            staging.rename(target)
        done.append(InstalledPack(manifest, target))
    return done


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _copy_from(manifest: Manifest, source: Path, staging: Path) -> None:
    base = source / manifest.source_dir
    for rel, expected in manifest.files.items():
        origin = base / rel
        if not origin.is_file():
            raise RulesetError("ruleset.missing", f"pack {manifest.key}: file {rel} not found at {origin}")
        actual = sha256_file(origin)
        if actual != expected:
            raise RulesetError(
                "ruleset.corrupt",
                f"pack {manifest.key}: file {rel} at {origin} has sha256 {actual}, manifest says {expected}",
            )
        dest = staging / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(origin, dest)


def _download(manifest: Manifest, staging: Path) -> None:
    up = manifest.upstream
    if not up.archive:
        raise RulesetError("ruleset.install-failed", f"pack {manifest.key} has no download address; use --from DIR")
    try:
        with urllib.request.urlopen(up.archive, timeout=DOWNLOAD_TIMEOUT_S) as response:
            blob = response.read()
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise RulesetError(
            "ruleset.install-failed",
            f"pack {manifest.key}: cannot download {up.archive} ({exc}). Offline? "
            "Install from a local copy of the official files: einvoice-validate rulesets install --from DIR",
        ) from exc
    if up.archive_sha256 and hashlib.sha256(blob).hexdigest() != up.archive_sha256:
        raise RulesetError("ruleset.corrupt", f"pack {manifest.key}: archive {up.archive} has an unexpected sha256")
    try:
        archive = zipfile.ZipFile(io.BytesIO(blob))
    except zipfile.BadZipFile as exc:
        raise RulesetError("ruleset.install-failed", f"pack {manifest.key}: {up.archive} is not a zip") from exc
    members = {info.filename: info for info in archive.infolist() if not info.is_dir()}
    for rel, expected in manifest.files.items():
        inner = rel[len(up.archive_dest) :] if rel.startswith(up.archive_dest) else rel
        name = up.archive_prefix + inner
        if name not in members:
            raise RulesetError(
                "ruleset.install-failed", f"pack {manifest.key}: file {rel} is not in {up.archive} (as {name})"
            )
        data = archive.read(members[name])
        if hashlib.sha256(data).hexdigest() != expected:
            raise RulesetError(
                "ruleset.corrupt", f"pack {manifest.key}: file {rel} from {up.archive} has a wrong sha256"
            )
        dest = staging / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
