"""The installer: copies (``--from DIR``) or downloads the official pack files into the rules home, verified,
then writes the prepared copy of each Schematron stylesheet (:mod:`.prepare`).

Where the files come from, per pack:

* ``--from DIR`` with the unpacked layout of the official ``rulesets/`` (``DIR/<source_dir>/<file>``, e.g.
  ``../shared/rulesets``): copied;
* ``--from DIR`` with the files as downloaded (the archives and single files ``rulesets sources`` lists, as
  ``DIR/HOST/PATH`` or ``DIR/NAME``): read like a download;
* no source: downloaded from the addresses in the manifest's ``sources`` (:mod:`.download`), through a mirror
  when one is set. Files the project writes itself (``bundled``: NOTICE files quoting upstream's copyright
  text) come from the package in every case.

Every file is checked against its manifest's sha256 *before* it is put in place, and a pack folder is
replaced as a whole (staged, then renamed), so a failed install never leaves a half-written pack behind.
Archive members are looked up by the exact name the manifest gives and written to the manifest's path, never
to a path taken from the archive.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

from ..errors import RulesetError
from .download import Downloader, Fetcher, LocalFiles, ProgressCallback
from .manifest import Manifest
from .prepare import prepare_pack_dir
from .registry import InstalledPack, Registry, sha256_file

__all__ = ["MAX_MEMBER_BYTES", "install", "is_unpacked_layout"]

MAX_MEMBER_BYTES = 64 * 1024 * 1024
"""No file extracted from an archive may be larger (the largest official file is about 2 MB)."""


def install(
    registry: Registry,
    source: Path | None = None,
    packs: Iterable[str] | None = None,
    *,
    mirror: str | None = None,
    on_progress: ProgressCallback | None = None,
) -> list[InstalledPack]:
    """Install ``packs`` (default: all known) from ``source`` (a folder: the unpacked official layout, or the
    files as downloaded, see the module docstring) or, without a source, from upstream (``mirror``: see
    :func:`.download.mirrored`; default ``$EINVOICE_VALIDATE_MIRROR``). Each address is fetched once per call.
    Returns the installed packs; raises :class:`RulesetError` naming the pack and file on failure."""
    keys = list(packs) if packs is not None else sorted(registry.manifests)
    unknown = [k for k in keys if k not in registry.manifests]
    if unknown:
        raise RulesetError("ruleset.missing", f"unknown pack(s): {', '.join(unknown)}")
    done = []
    home = _ensure(registry.home)
    with tempfile.TemporaryDirectory(prefix=".downloads-", dir=home) as downloads:
        fetcher: Fetcher = (
            LocalFiles(Path(source)) if source is not None else Downloader(Path(downloads), mirror, on_progress)
        )
        for key in keys:
            manifest = registry.manifests[key]
            if manifest.provided_by == "user":
                done.append(_prepare_user_pack(registry, manifest))
                continue
            with tempfile.TemporaryDirectory(prefix=".install-", dir=home) as tmp:
                staging = Path(tmp) / "pack"
                if source is not None and is_unpacked_layout(Path(source), manifest):
                    _copy_from(manifest, Path(source), staging)
                elif source is not None:
                    try:
                        _fetch(manifest, fetcher, staging)
                    except RulesetError as exc:
                        if exc.code != "ruleset.missing":
                            raise
                        raise RulesetError(
                            exc.code,
                            f"{exc.detail}; nor does {source} hold the unpacked official layout "
                            f"({Path(source) / manifest.source_dir})",
                        ) from exc
                else:
                    _fetch(manifest, fetcher, staging)
                if manifest.kind == "schematron":
                    # The copies the Schematron stage compiles, checksummed in prepared.json (see .prepare).
                    prepare_pack_dir(
                        staging, {"stylesheet": manifest.entries["stylesheet"]}, manifest.key, manifest.files
                    )
                (staging / "manifest.json").write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
                target = registry.pack_dir(manifest)
                target.parent.mkdir(parents=True, exist_ok=True)
                if target.exists():
                    shutil.rmtree(target)
                staging.rename(target)
            done.append(InstalledPack(manifest, target))
    return done


def _prepare_user_pack(registry: Registry, manifest: Manifest) -> InstalledPack:
    """A user pack is not copied: its files are checked where the user put them, then its stylesheet prepared in
    place (``prepared/``, ``prepared.json``), as an official pack's is at install."""
    pack = InstalledPack(manifest, registry.pack_dir(manifest))
    files = [p for p in pack.problems() if p[1] in manifest.files]
    for code, rel, detail in files:
        raise RulesetError(code, f"user pack {manifest.key}: file {rel} ({pack.directory / rel}): {detail}")
    prepare_pack_dir(pack.directory, {"stylesheet": manifest.entries["stylesheet"]}, manifest.key)
    return pack


def is_unpacked_layout(source: Path, manifest: Manifest) -> bool:
    """Whether ``source`` holds ``manifest``'s files unpacked, laid out like the official ``rulesets/``."""
    return (source / manifest.source_dir).is_dir()


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _destination(staging: Path, manifest: Manifest, rel: str) -> Path:
    dest = staging / rel
    if not dest.resolve().is_relative_to(staging.resolve()):  # the manifest model refuses such paths already
        raise RulesetError("ruleset.invalid", f"pack {manifest.key}: file {rel} would land outside the pack folder")
    dest.parent.mkdir(parents=True, exist_ok=True)
    return dest


def _checked_copy(manifest: Manifest, rel: str, origin: Path, staging: Path, where: str) -> None:
    actual = sha256_file(origin)
    expected = manifest.files[rel]
    if actual != expected:
        raise RulesetError(
            "ruleset.corrupt",
            f"pack {manifest.key}: file {rel} from {where} has sha256 {actual}, manifest says {expected}",
        )
    shutil.copyfile(origin, _destination(staging, manifest, rel))


def _copy_from(manifest: Manifest, source: Path, staging: Path) -> None:
    base = source / manifest.source_dir
    for rel in manifest.files:
        origin = base / rel
        if not origin.is_file():
            raise RulesetError("ruleset.missing", f"pack {manifest.key}: file {rel} not found at {origin}")
        _checked_copy(manifest, rel, origin, staging, str(origin))


def _fetch(manifest: Manifest, fetcher: Fetcher, staging: Path) -> None:
    if not manifest.sources:
        raise RulesetError("ruleset.install-failed", f"pack {manifest.key} has no download address; use --from DIR")
    for rel in manifest.files:
        origin = manifest.origin(rel)
        if origin.kind == "bundled":
            path = manifest.bundled_file(rel)
            if not path.is_file():
                raise RulesetError(
                    "ruleset.missing", f"pack {manifest.key}: file {rel} is not bundled with this package ({path})"
                )
            _checked_copy(manifest, rel, path, staging, f"the package ({path})")
        elif origin.kind == "file":
            _checked_copy(manifest, rel, fetcher.fetch(origin.url, None, manifest.key), staging, origin.url)
        else:
            archive = fetcher.fetch(origin.url, origin.archive_sha256, manifest.key)
            _extract(manifest, rel, archive, origin.url, origin.member, staging)


def _extract(manifest: Manifest, rel: str, archive: Path, url: str, member: str, staging: Path) -> None:
    """Write the archive's ``member`` to the pack's ``rel``, streamed, checked against the manifest's sha256."""
    where = f"{url} (member {member})"
    try:
        with zipfile.ZipFile(archive) as zf:
            try:
                info = zf.getinfo(member)
            except KeyError:
                raise RulesetError(
                    "ruleset.install-failed", f"pack {manifest.key}: file {rel} is not in {url} (as {member})"
                ) from None
            if info.file_size > MAX_MEMBER_BYTES:
                raise RulesetError(
                    "ruleset.install-failed",
                    f"pack {manifest.key}: {where} is {info.file_size} bytes, over the limit of {MAX_MEMBER_BYTES}",
                )
            digest = hashlib.sha256()
            written = 0
            dest = _destination(staging, manifest, rel)
            with zf.open(info) as src, dest.open("wb") as out:
                while block := src.read(1 << 20):
                    written += len(block)
                    if written > MAX_MEMBER_BYTES:
                        raise RulesetError(
                            "ruleset.install-failed",
                            f"pack {manifest.key}: {where} unpacks to more than {MAX_MEMBER_BYTES} bytes",
                        )
                    digest.update(block)
                    out.write(block)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as exc:
        raise RulesetError("ruleset.install-failed", f"pack {manifest.key}: cannot read {where}: {exc}") from exc
    actual, expected = digest.hexdigest(), manifest.files[rel]
    if actual != expected:
        raise RulesetError(
            "ruleset.corrupt",
            f"pack {manifest.key}: file {rel} from {where} has sha256 {actual}, manifest says {expected}",
        )
