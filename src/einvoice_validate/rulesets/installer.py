"""The installer: copies (``--from DIR``) or downloads the official pack files into the rules home, verified,
then writes the prepared copy of each Schematron stylesheet (:mod:`.prepare`) or a configuration's scenarios
(:mod:`.configuration`), and runs each pack's acceptance set when asked to (``accept``).

Where the files come from, per pack:

* ``--from DIR`` with the unpacked layout of the official ``rulesets/`` (``DIR/<source_dir>/<file>``, e.g.
  ``../shared/rulesets``): copied;
* ``--from DIR`` with the files as downloaded (the archives and single files ``rulesets sources`` lists, as
  ``DIR/HOST/PATH`` or ``DIR/NAME``): read like a download;
* no source: downloaded from the addresses in the manifest's ``sources`` (:mod:`.download`), through a mirror
  when one is set. Files the project writes itself (``bundled``: NOTICE files quoting upstream's copyright
  text) come from the package in every case.

Every file is checked against its manifest's sha256 *before* it is put in place, and a pack folder is
replaced as a whole (staged, then renamed), so a failed install never leaves a half-written pack behind. A pack
pinned by its archive (``Manifest.pinned_by``) whose members' bytes are not known in advance comes only from that
archive (its sha256 checked), a pack pinned by its commit only from the addresses naming that commit: the files'
sha256 are recorded in the installed ``manifest.json``, which the registry verifies ever after. Such a pack's
staged copy (``Manifest.staged``: not upstream's bytes) is installed from ``--from DIR`` where DIR holds it, checked
against its own sha256, recorded as such, and the install says so (``on_note``).
Archive members are looked up by the exact name the manifest gives and written to the manifest's path, never
to a path taken from the archive.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

from ..errors import EInvoiceValidateError, RulesetError
from .configuration import prepare_configuration
from .download import Downloader, Fetcher, LocalFiles, ProgressCallback, local_candidates
from .manifest import UNKNOWN_SHA256, Manifest
from .prepare import PreparedIndex, prepare_pack_dir
from .registry import INSTALLED_MANIFEST, InstalledPack, Registry, sha256_file

__all__ = ["MAX_MEMBER_BYTES", "AcceptanceCheck", "check_source", "install", "is_unpacked_layout", "prepare_pack"]

AcceptanceCheck = Callable[[InstalledPack], None]
"""Runs an installed pack's acceptance set; raises :class:`RulesetError` when the pack fails it."""

MAX_MEMBER_BYTES = 64 * 1024 * 1024
"""No file extracted from an archive may be larger (the largest official file is about 2 MB)."""


def check_source(source: Path | str | None) -> None:
    """A ``--from`` folder that does not exist (or is not a folder) is ``ruleset.install-failed`` in one line,
    before anything is installed (issue 27; the per-file lookups would name the first file instead)."""
    if source is None or Path(source).is_dir():
        return
    what = "not a directory" if Path(source).exists() else "directory not found"
    raise RulesetError("ruleset.install-failed", f"{what}: {source}")


def install(
    registry: Registry,
    source: Path | None = None,
    packs: Iterable[str] | None = None,
    *,
    mirror: str | None = None,
    on_progress: ProgressCallback | None = None,
    accept: AcceptanceCheck | None = None,
    on_note: Callable[[str], None] | None = None,
) -> list[InstalledPack]:
    """Install ``packs`` (default: all known) from ``source`` (a folder: the unpacked official layout, or the
    files as downloaded, see the module docstring) or, without a source, from upstream (``mirror``: see
    :func:`.download.mirrored`; default ``$EINVOICE_VALIDATE_MIRROR``). Each address is fetched once per call.

    ``accept``: run each installed pack's acceptance set (``Manifest.acceptance``) once every pack is in place
    (:class:`einvoice_validate.acceptance.AcceptanceRunner`); a pack it raises for is refused: its new folder is
    removed, the one it replaced put back, and the install fails naming it. ``on_note``: told about each pack of
    the default set skipped because ``source`` cannot hold it (a pack pinned by an archive that is not there: only
    that archive can vouch for it), which validation then reports as a version known but not installed.

    Returns the installed packs; raises :class:`RulesetError` naming the pack and file on failure."""
    check_source(source)
    explicit = packs is not None
    keys = list(packs) if packs is not None else sorted(registry.manifests)
    unknown = [k for k in keys if k not in registry.manifests]
    if unknown:
        raise RulesetError("ruleset.missing", f"unknown pack(s): {', '.join(unknown)}")
    done: list[InstalledPack] = []
    replaced: dict[str, Path | None] = {}  # pack key -> where the folder it replaced waits (None: there was none)
    home = _ensure(registry.home)
    with (
        tempfile.TemporaryDirectory(prefix=".downloads-", dir=home) as downloads,
        tempfile.TemporaryDirectory(prefix=".replaced-", dir=home) as old,
    ):
        fetcher: Fetcher = (
            LocalFiles(Path(source)) if source is not None else Downloader(Path(downloads), mirror, on_progress)
        )
        for key in keys:
            manifest = registry.manifests[key]
            if manifest.provided_by == "user":
                done.append(_prepare_user_pack(registry, manifest))
                continue
            if not explicit and source is not None and not _available(manifest, Path(source)):
                if on_note is not None:
                    on_note(_not_available(manifest, Path(source)))
                continue
            with tempfile.TemporaryDirectory(prefix=".install-", dir=home) as tmp:
                staging = Path(tmp) / "pack"
                recorded, staged = _stage(manifest, source, fetcher, staging)
                _prepare(manifest, staging, recorded)
                update: dict[str, object] = {"files": recorded}
                if manifest.unrecorded:
                    update["installed_from"] = "staged" if staged else "upstream"
                installed = manifest.model_copy(update=update)
                (staging / INSTALLED_MANIFEST).write_text(installed.model_dump_json(indent=2), encoding="utf-8")
                target = registry.pack_dir(manifest)
                target.parent.mkdir(parents=True, exist_ok=True)
                replaced[key] = None
                if target.exists():
                    aside = replaced[key] = Path(old) / key
                    target.rename(aside)
                staging.rename(target)
            done.append(InstalledPack(manifest, target))
            if staged and on_note is not None and manifest.staged is not None:
                on_note(
                    f"{manifest.key}: installed the staged copy in {Path(str(source)) / manifest.source_dir}, not "
                    f"upstream's files: {manifest.staged.note}. Upstream's: `einvoice-validate rulesets install "
                    f"{manifest.key}` (download)"
                )
        if accept is not None:
            _run_acceptance(done, replaced, accept)
    return done


def _run_acceptance(done: list[InstalledPack], replaced: dict[str, Path | None], accept: AcceptanceCheck) -> None:
    """Run the acceptance set of every installed pack that has one; refuse (roll back) those that fail."""
    refused: list[str] = []
    for pack in list(done):
        if pack.manifest.acceptance is None or pack.manifest.provided_by == "user":
            continue
        try:
            accept(pack)
        except EInvoiceValidateError as exc:  # a RulesetError, or a document of the set that cannot be read
            refused.append(exc.detail)
            shutil.rmtree(pack.directory)
            previous = replaced.get(pack.key)
            if previous is not None:
                previous.rename(pack.directory)
            done.remove(pack)
    if refused:
        raise RulesetError("ruleset.install-failed", "refused: " + "; ".join(refused))


def _available(manifest: Manifest, source: Path) -> bool:
    """Whether ``source`` may hold the pack: always, unless the pack's files are known only through its pinned
    archive or commit (``Manifest.unrecorded``) and ``source`` holds neither those (the archive; the files as
    downloaded) nor the pack's staged copy."""
    if not manifest.unrecorded:
        return True
    if _holds_staged(manifest, source):
        return True
    if manifest.pinned_by == "archive":
        return any(path.is_file() for path in local_candidates(source, manifest.upstream.archives[0].url))
    return all(
        any(path.is_file() for path in local_candidates(source, manifest.origin(rel).url))
        for rel in manifest.unrecorded
    )


def _holds_staged(manifest: Manifest, source: Path) -> bool:
    """Whether ``source`` holds every file of the pack's staged copy (``Manifest.staged``) at ``source_dir``."""
    base = source / manifest.source_dir
    return manifest.staged is not None and all((base / rel).is_file() for rel in manifest.staged.files)


def _pin(manifest: Manifest) -> str:
    """What a pack with files not known in advance comes from only, in words."""
    if manifest.pinned_by == "archive":
        archive = manifest.upstream.archives[0]
        return f"its archive {archive.url.rsplit('/', 1)[-1]} (sha256 {archive.sha256})"
    return f"{manifest.upstream.repository} at commit {manifest.upstream.commit} ({manifest.upstream.release})"


def _not_available(manifest: Manifest, source: Path) -> str:
    when = f" (in force {manifest.in_force_text()})" if manifest.valid_from or manifest.valid_until else ""
    what = "that archive" if manifest.pinned_by == "archive" else "those files as downloaded"
    return (
        f"{manifest.key}{when} not installed: it comes only from {_pin(manifest)}, which {source} does not hold; "
        "validation will say so where it is in force. Install it by download "
        f"(`einvoice-validate rulesets install {manifest.key}`) or `--from DIR` with {what} in DIR"
    )


def _stage(manifest: Manifest, source: Path | None, fetcher: Fetcher, staging: Path) -> tuple[dict[str, str], bool]:
    """Put the pack's files in ``staging``, checked; returns every file's sha256 (the recorded ones included) and
    whether they are the pack's staged copy."""
    if source is not None and _holds_staged(manifest, Path(source)):
        return _copy_from(manifest, Path(source), staging), True
    if source is not None and is_unpacked_layout(Path(source), manifest):
        return _copy_from(manifest, Path(source), staging), False
    if source is None:
        return _fetch(manifest, fetcher, staging), False
    try:
        return _fetch(manifest, fetcher, staging), False
    except RulesetError as exc:
        if exc.code != "ruleset.missing":
            raise
        raise RulesetError(
            exc.code,
            f"{exc.detail}; nor does {source} hold the unpacked official layout ({Path(source) / manifest.source_dir})",
        ) from exc


def _prepare(manifest: Manifest, staging: Path, files: dict[str, str]) -> None:
    """What the pack needs besides its files, checksummed in ``prepared.json``: the copies the Schematron stage
    compiles (:mod:`.prepare`), a configuration's scenarios (:mod:`.configuration`)."""
    if manifest.kind == "schematron":
        prepare_pack_dir(staging, {"stylesheet": manifest.entries["stylesheet"]}, manifest.key, files, manifest.output)
    elif manifest.kind == "configuration":
        prepare_configuration(staging, manifest)


def _prepare_user_pack(registry: Registry, manifest: Manifest) -> InstalledPack:
    """A user pack is not copied: its files are checked where the user put them, then a Schematron pack's stylesheet
    prepared in place (``prepared/``, ``prepared.json``), as an official pack's is at install (an XSD pack needs no
    preparation)."""
    pack = InstalledPack(manifest, registry.pack_dir(manifest))
    files = [p for p in pack.problems() if p[1] in manifest.files]
    for code, rel, detail in files:
        raise RulesetError(code, f"user pack {manifest.key}: file {rel} ({pack.directory / rel}): {detail}")
    if manifest.kind == "schematron":
        prepare_pack_dir(
            pack.directory, {"stylesheet": manifest.entries["stylesheet"]}, manifest.key, output=manifest.output
        )
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


def _checked_copy(
    manifest: Manifest, rel: str, origin: Path, staging: Path, where: str, expected: str | None = None
) -> str:
    """Copy ``origin`` to the pack's ``rel`` when its sha256 is ``expected`` (default: the manifest's); returns it.
    A file of a pack pinned by its commit whose bytes are not known in advance is taken as fetched (the address
    names the commit) and its sha256 recorded."""
    actual = sha256_file(origin)
    expected = manifest.files[rel] if expected is None else expected
    unknown = expected == UNKNOWN_SHA256 and manifest.pinned_by == "commit"
    if actual != expected and not unknown:
        raise RulesetError(
            "ruleset.corrupt",
            f"pack {manifest.key}: file {rel} from {where} has sha256 {actual}, manifest says {expected}",
        )
    shutil.copyfile(origin, _destination(staging, manifest, rel))
    return actual


def _copy_from(manifest: Manifest, source: Path, staging: Path) -> dict[str, str]:
    """The unpacked layout's files (for a pack with files not known in advance: its staged copy), checked;
    returns their sha256."""
    expected = dict(manifest.files)
    if manifest.unrecorded:
        if manifest.staged is None:
            raise RulesetError(
                "ruleset.install-failed",
                f"pack {manifest.key}: {', '.join(manifest.unrecorded)} can only come from {_pin(manifest)}: an "
                "unpacked copy cannot be checked; download it, or put the files as downloaded in the --from folder",
            )
        expected = dict(manifest.staged.files)
    base = source / manifest.source_dir
    for rel, sha in expected.items():
        origin = base / rel
        if not origin.is_file():
            raise RulesetError("ruleset.missing", f"pack {manifest.key}: file {rel} not found at {origin}")
        _checked_copy(manifest, rel, origin, staging, str(origin), sha)
    return expected


def _fetch(manifest: Manifest, fetcher: Fetcher, staging: Path) -> dict[str, str]:
    if not manifest.sources:
        raise RulesetError("ruleset.install-failed", f"pack {manifest.key} has no download address; use --from DIR")
    recorded = dict(manifest.files)
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
            fetched = fetcher.fetch(origin.url, None, manifest.key)
            recorded[rel] = _checked_copy(manifest, rel, fetched, staging, origin.url)
        else:
            archive = fetcher.fetch(origin.url, origin.archive_sha256, manifest.key)
            recorded[rel] = _extract(manifest, rel, archive, origin.url, origin.member, staging)
    return recorded


def _extract(manifest: Manifest, rel: str, archive: Path, url: str, member: str, staging: Path) -> str:
    """Write the archive's ``member`` to the pack's ``rel``, streamed, checked against the manifest's sha256
    (a member whose bytes are not known in advance is vouched for by the archive's pin); returns its sha256."""
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
    if expected == UNKNOWN_SHA256:
        return actual
    if actual != expected:
        pinned = (
            " The archive matches its pinned sha256, so the member differs from the copy the manifest's sha256 "
            "was recorded from: refused, not preferred silently (the manifest needs a look)"
            if manifest.pinned_by == "archive"
            else ""
        )
        raise RulesetError(
            "ruleset.corrupt",
            f"pack {manifest.key}: file {rel} from {where} has sha256 {actual}, manifest says {expected}.{pinned}",
        )
    return actual


def prepare_pack(pack: InstalledPack) -> PreparedIndex | None:
    """(Re)write the prepared copies of an installed pack, after checking its official files.

    For a pack installed by an older version: :func:`install` calls :func:`.prepare.prepare_pack_dir` itself. Returns
    None for a pack without stylesheets (XSD); a configuration gets its scenarios read (:mod:`.configuration`)."""
    if pack.manifest.kind == "xsd":
        return None
    for rel, expected in pack.files().items():
        path = pack.directory / rel
        if not path.is_file():
            raise RulesetError("ruleset.missing", f"pack {pack.key}: file {rel} ({path}): not installed")
        if hashlib.sha256(path.read_bytes()).hexdigest() != expected:
            raise RulesetError("ruleset.corrupt", f"pack {pack.key}: file {rel} ({path}): sha256 differs")
    if pack.manifest.kind == "configuration":
        return prepare_configuration(pack.directory, pack.manifest)
    return prepare_pack_dir(
        pack.directory,
        {"stylesheet": pack.manifest.entries["stylesheet"]},
        pack.key,
        pack.manifest.files,
        pack.manifest.output,
    )
