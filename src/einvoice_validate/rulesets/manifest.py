"""Pack manifests (``rulesets/packs/<id>/<version>.toml``): what a pack is, where it comes from, its checksums."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from .._bundled import bundled_dir
from ..errors import Detail, RulesetError
from ..syntaxes import ANY_SYNTAX, NAME_PATTERN, Syntaxes, bundled

__all__ = [
    "BUNDLED",
    "UNKNOWN_SHA256",
    "Acceptance",
    "Archive",
    "Manifest",
    "Origin",
    "RuleText",
    "Staged",
    "Upstream",
    "bundled_dir",
    "load_manifests",
    "read_manifest_folder",
]

UNKNOWN_SHA256 = ""
"""A file's sha256 in a manifest pinned by its archive or its commit (``pinned_by = "archive"`` or ``"commit"``) when
its bytes are not known in advance: the archive's own sha256, or the upstream commit its address names, vouches for
it on the download path, and the installer records it."""


class Archive(BaseModel):
    """An archive upstream publishes (a release zip): fetched once per install, only the members named in
    ``Manifest.sources`` are extracted. ``sha256`` is the archive's own checksum, where it is recorded; every
    extracted member is checked against ``Manifest.files`` in any case."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str
    sha256: str | None = None

    @field_validator("url")
    @classmethod
    def _https(cls, url: str) -> str:
        return _check_url(url)


class Upstream(BaseModel):
    """Where the official files come from (shown by ``rulesets list`` and ``rulesets sources``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    repository: str
    release: str
    commit: str | None = None
    archives: tuple[Archive, ...] = ()


class Staged(BaseModel):
    """A copy of a pack whose upstream bytes are not known here (``Manifest.unrecorded``) that is not upstream's
    bytes (rules transcribed from a public index, stylesheets derived from an earlier release by the same edits):
    ``rulesets install --from DIR`` installs it where DIR holds it at ``DIR/<source_dir>/``, checked against
    ``files`` (the sha256 of every file of the pack), says so (``note``), and records it in the installed pack
    (``Manifest.installed_from``); a download installs upstream's files instead."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    files: dict[str, str]
    note: str


class RuleText(BaseModel):
    """A user pack's own text for one of its rules, in both languages (``[messages]`` of a user manifest)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    en: str
    de: str


class Acceptance(BaseModel):
    """A pack's official acceptance set: documents that must pass with the pack in place. ``rulesets install``
    runs it after preparing the pack and refuses the pack when one fails (:mod:`einvoice_validate.acceptance`).

    The documents are the ``*.xml`` files (any case) directly in ``folders``, relative to the acceptance corpus
    (``rulesets install --acceptance DIR``; by default the ``corpus/`` folder beside a ``--from DIR``), less
    ``exclude`` (file names). ``sha256`` (when given) is the digest of the set
    (:func:`einvoice_validate.acceptance.set_digest`): a folder holding other documents is refused. Each
    document is validated with the profile that matches it (or the one ``profiles`` forces for its document
    type) on the rules date ``rules_date`` (default: the pack's ``valid_from``, else today); it must be
    ``accepted`` (the KoSIT verdict) or ``valid`` (no ERROR finding), and at least one document must run the
    pack."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    folders: tuple[str, ...]
    expect: Literal["accepted", "valid"] = "valid"
    exclude: tuple[str, ...] = ()
    profiles: dict[str, str] = {}
    """Document type -> the profile forced for its documents."""
    rules_date: date | None = None
    sha256: str | None = None

    @field_validator("profiles")
    @classmethod
    def _document_types(cls, profiles: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        known = _syntaxes(info)
        unknown = [t for t in profiles if t not in known.kinds] if known is not None else []
        if known is not None and unknown:
            raise ValueError(f"no document type {', '.join(unknown)} (known: {', '.join(known.kinds)})")
        return profiles

    @field_validator("folders")
    @classmethod
    def _plain_folders(cls, folders: tuple[str, ...]) -> tuple[str, ...]:
        for folder in folders:
            parts = PurePosixPath(folder).parts
            if not parts or folder.startswith("/") or "\\" in folder or ".." in parts:
                raise ValueError(f"acceptance folder {folder!r} is not a plain relative path")
        return folders


@dataclass(frozen=True, slots=True)
class Origin:
    """Where one file of a pack comes from: ``bundled`` (written by this project, shipped in the package),
    ``file`` (fetched by its own address) or ``member`` (``member`` of the archive at ``url``)."""

    kind: Literal["bundled", "file", "member"]
    url: str = ""
    member: str = ""
    archive_sha256: str | None = None


BUNDLED = "bundled"


class Manifest(BaseModel):
    """One pack version. ``key`` (``id@version``) is how profiles and findings name it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    version: str
    kind: Literal["xsd", "schematron", "viewer", "configuration"]
    """``viewer``: stylesheets that render an invoice for people (``einvoice-validate show``), run by no profile.
    ``configuration``: a validator configuration (KoSIT's ``scenarios.xml``): the scenarios and their
    ``customLevel``s, read at install (:mod:`.configuration`); its versions are a profile's dated editions."""
    syntax: str = Field(pattern=NAME_PATTERN)
    """A syntax's name (:mod:`einvoice_validate.syntaxes`; checked against the registry the manifest is read with);
    ``any`` only for a viewer or a configuration."""
    title: str
    licence: str
    source_dir: str
    entries: dict[str, str]
    upstream: Upstream
    files: dict[str, str]
    sources: dict[str, str] = {}
    """Where each file comes from, for the downloading installer: an address (``https://…``), an archive's
    address and the member inside it (``https://…/x.zip#path/in/zip``, the archive listed in
    ``upstream.archives``), or ``bundled`` (a file this project writes, e.g. a NOTICE quoting upstream's
    copyright text: shipped with the package in ``rulesets/packs/<id>/<version>/``). Empty: no download."""
    attachment_content: Literal["full", "emptiness"] = "full"
    """What a Schematron pack's findings depend on in the content of an embedded attachment (UBL
    ``cbc:EmbeddedDocumentBinaryObject``, CII ``ram:AttachmentBinaryObject``): ``emptiness`` (reviewed: no rule
    reads more than whether it is empty or whitespace, so Saxon may get it cut short, see
    :func:`~einvoice_validate.schematron._shared.slimmed_text`) or ``full`` (the default for a pack not reviewed)."""

    provided_by: Literal["official", "user"] = "official"
    """``user``: a pack the user provides in the rules home (:mod:`.user`), never downloaded or copied."""
    messages: dict[str, RuleText] = {}
    """A user pack's texts per rule id; a rule without one keeps its SVRL text in both languages."""
    valid_from: date | None = None
    """The first day this version is in force (absent: always was). Among the versions a profile lists for a
    pack, validation runs the one in force on the rules date with the latest ``valid_from``."""
    valid_until: date | None = None
    """The last day this version is in force (absent: until further notice)."""
    pinned_by: Literal["files", "archive", "commit"] = "files"
    """``files``: every file's sha256 is in :attr:`files`. ``archive``: the pack is pinned by its one archive in
    ``upstream.archives`` (whose sha256 is then required): every file is a member of it, and a member whose bytes
    are not known in advance has the sha256 :data:`UNKNOWN_SHA256` in :attr:`files`; the installer takes it from
    the pinned archive only, records its sha256 in the installed pack (``manifest.json``) and the registry
    verifies it against that record ever after. A member whose sha256 *is* recorded must match it (a download
    whose member differs is refused, never silently preferred). ``commit``: the same for files fetched one by one
    from an address that names ``upstream.commit`` (a tag's commit: what the tag published, whatever the tag
    says later), when no sha256 of upstream's bytes is known (FNFE-MPE 1.4.0.04)."""
    staged: Staged | None = None
    """A copy that is not upstream's bytes, installable with ``--from DIR`` (see :class:`Staged`)."""
    installed_from: Literal["upstream", "staged"] | None = None
    """Set in an installed pack's record only (``manifest.json``): whether its files are upstream's or the staged
    copy's (:attr:`staged`)."""
    resources: dict[str, str] = {}
    """A configuration: the pack (``id@version``) standing for each Schematron resource its scenarios name (by
    file name, e.g. ``XRechnung-UBL-validation.xsl``): the pack versions this edition couples."""
    acceptance: Acceptance | None = None
    """The pack's official acceptance set (see :class:`Acceptance`)."""
    output: str = Field(default="svrl", pattern=r"^[a-z0-9][a-z0-9-]*$")
    """A Schematron pack: how its stylesheet's result is read into findings, by the reader of that name
    (:mod:`einvoice_validate.schematron.readers`: ``svrl``, the default; a pack writing another report format names
    its reader)."""
    catalog: str | None = None
    """An XSD pack whose schemas import by address: its XML catalog (a file of the pack, OASIS XML Catalogs) that
    maps every such import to a file of the pack; nothing is fetched while validating."""
    optimizer: dict[str, str] = {}
    """A Schematron pack: per engine (``saxonc``, ``saxon-java``), Saxon's optimizer flags to compile its stylesheet
    with (the letters of Saxon's ``-opt:``, within the edition's own; ``-l``: every optimisation but loop lifting,
    which SaxonC-HE 13.1 cannot apply to OIOUBL's stylesheets); an engine not named: Saxon's defaults. Findings do not
    depend on it, only whether and how fast the stylesheet compiles and runs."""

    @field_validator("syntax")
    @classmethod
    def _known_syntax(cls, syntax: str, info: ValidationInfo) -> str:
        known = _syntaxes(info)
        if known is not None and syntax != ANY_SYNTAX and syntax not in known.syntaxes:
            raise ValueError(f"no syntax {syntax!r} (known: {', '.join(known.syntaxes)}, or 'any')")
        return syntax

    @property
    def key(self) -> str:
        return f"{self.id}@{self.version}"

    def in_force(self, on: date) -> bool:
        """Whether this version is in force on the day ``on`` (both ends inclusive)."""
        return (self.valid_from is None or self.valid_from <= on) and (
            self.valid_until is None or on <= self.valid_until
        )

    def in_force_text(self) -> str:
        """The dates in force as people read them: ``from 2026-04-14``, ``from A until B``, ``always``."""
        parts = [f"from {self.valid_from}"] if self.valid_from is not None else []
        parts += [f"until {self.valid_until}"] if self.valid_until is not None else []
        return " ".join(parts) or "always"

    @field_validator("files")
    @classmethod
    def _relative_paths(cls, files: dict[str, str]) -> dict[str, str]:
        for rel in files:
            parts = PurePosixPath(rel).parts
            if not parts or rel.startswith("/") or "\\" in rel or ":" in rel or ".." in parts:
                raise ValueError(f"file {rel!r} is not a plain path inside the pack folder")
        return files

    @model_validator(mode="after")
    def _dates_in_order(self) -> Manifest:
        if self.valid_from is not None and self.valid_until is not None and self.valid_until < self.valid_from:
            raise ValueError(f"valid_until {self.valid_until} is before valid_from {self.valid_from}")
        return self

    @model_validator(mode="after")
    def _pins(self) -> Manifest:
        if (self.kind in ("configuration", "viewer")) != (self.syntax == ANY_SYNTAX):
            raise ValueError("syntax 'any' is for a viewer or a configuration, and theirs is 'any'")
        if self.catalog is not None and (self.kind != "xsd" or self.catalog not in self.files):
            raise ValueError(f"catalog {self.catalog!r}: an XSD pack's file, listed in [files]")
        if self.output != "svrl" and self.kind != "schematron":
            raise ValueError("output names the reader of a Schematron pack's result")
        if self.optimizer and self.kind != "schematron":
            raise ValueError("optimizer names how a Schematron pack's stylesheet is compiled")
        for engine, flags in self.optimizer.items():
            if not re.fullmatch(r"[a-z][a-z-]*", engine) or not re.fullmatch(r"-?[a-z]+", flags):
                raise ValueError(f"optimizer: {engine} = {flags!r} is not an engine and Saxon's -opt: letters")
        unknown = [rel for rel, sha in self.files.items() if sha == UNKNOWN_SHA256]
        if self.pinned_by == "files":
            if unknown:
                raise ValueError(f"files without sha256 need pinned_by = 'archive' or 'commit': {unknown}")
            return self
        if self.pinned_by == "commit":
            commit = self.upstream.commit
            if not commit or len(commit) != 40:
                raise ValueError("pinned_by = 'commit' needs upstream.commit (the 40 hex digits of the commit)")
            loose = [
                rel for rel in unknown if "#" in self.sources.get(rel, "#") or f"/{commit}/" not in self.sources[rel]
            ]
            if loose:
                raise ValueError(
                    f"pinned_by = 'commit': a file not known in advance comes from an address naming {commit}; "
                    f"not {loose}"
                )
            return self
        if len(self.upstream.archives) != 1 or self.upstream.archives[0].sha256 is None:
            raise ValueError("pinned_by = 'archive' needs exactly one archive, with its sha256")
        url = self.upstream.archives[0].url
        outside = [rel for rel in self.files if not self.sources.get(rel, "").startswith(url + "#")]
        if outside:
            raise ValueError(f"pinned_by = 'archive': every file is a member of {url}; not {outside}")
        return self

    @model_validator(mode="after")
    def _staged_copy(self) -> Manifest:
        if self.staged is None:
            return self
        if self.pinned_by == "files" or set(self.staged.files) != set(self.files):
            raise ValueError("a staged copy is of a pack whose upstream bytes are not known, and lists every file")
        # in an installed pack's record (installed_from) every file's sha256 is the one installed
        known = {rel: sha for rel, sha in self.files.items() if sha} if self.installed_from is None else {}
        differ = [rel for rel, sha in known.items() if self.staged.files[rel] != sha]
        if differ or UNKNOWN_SHA256 in self.staged.files.values():
            raise ValueError(f"the staged copy's sha256: every file's, the known ones as in [files]; not {differ}")
        return self

    @property
    def unrecorded(self) -> tuple[str, ...]:
        """The files whose bytes are known only through the pinned archive (see :attr:`pinned_by`)."""
        return tuple(rel for rel, sha in self.files.items() if sha == UNKNOWN_SHA256)

    @model_validator(mode="after")
    def _sources_cover_the_files(self) -> Manifest:
        if not self.sources:
            return self
        archives = {a.url for a in self.upstream.archives}
        if set(self.sources) != set(self.files):
            raise ValueError(f"sources and files differ: {sorted(set(self.sources) ^ set(self.files))}")
        for rel, where in self.sources.items():
            if where == BUNDLED:
                continue
            url, _, member = where.partition("#")
            _check_url(url)
            if member and url not in archives:
                raise ValueError(f"file {rel!r} comes from {url}, which is not in upstream.archives")
        return self

    def origin(self, rel: str) -> Origin:
        """Where the file ``rel`` comes from (see :attr:`sources`)."""
        where = self.sources.get(rel)
        if where is None:
            raise RulesetError("ruleset.install-failed", Detail("detail.no-download-address", self.key, rel))
        if where == BUNDLED:
            return Origin("bundled")
        url, _, member = where.partition("#")
        if not member:
            return Origin("file", url)
        sha = next(a.sha256 for a in self.upstream.archives if a.url == url)
        return Origin("member", url, member, sha)

    def bundled_file(self, rel: str) -> Path:
        """Where the package keeps a ``bundled`` file of this pack."""
        return bundled_dir() / "packs" / self.id / self.version / rel


def _syntaxes(info: ValidationInfo) -> Syntaxes | None:
    """The syntaxes a manifest is checked against: its reader's (``context={"syntaxes": ...}``); without one (a
    record written at install, read back) names are only checked for their form."""
    context = info.context if isinstance(info.context, dict) else {}
    known = context.get("syntaxes")
    return known if isinstance(known, Syntaxes) else None


def _check_url(url: str) -> str:
    if not url.startswith("https://") or len(url) < 10:
        raise ValueError(f"not an https address: {url!r}")
    return url


@lru_cache(maxsize=4)
def load_manifests(directory: Path | None = None) -> dict[str, Manifest]:
    """All manifests under ``directory/packs`` keyed by ``id@version`` (default: the ones this library ships)."""
    base = (directory or bundled_dir()) / "packs"
    manifests = read_manifest_folder(base, bundled())
    if not manifests:
        raise RulesetError("ruleset.invalid", Detail("detail.no-manifests", base))
    return manifests


def read_manifest_folder(base: Path, syntaxes: Syntaxes) -> dict[str, Manifest]:
    """The manifests ``base/<id>/<version>.toml`` (none: an empty dict), keyed by ``id@version``, their syntaxes
    checked against ``syntaxes``. A manifest that cannot be read, or whose file name is not its ``id``/``version``,
    is ``ruleset.invalid``."""
    manifests: dict[str, Manifest] = {}
    context = {"syntaxes": syntaxes}
    for path in sorted(base.glob("*/*.toml")):
        try:
            manifest = Manifest.model_validate(tomllib.loads(path.read_text(encoding="utf-8")), context=context)
        except (OSError, tomllib.TOMLDecodeError, ValidationError) as exc:
            raise RulesetError("ruleset.invalid", Detail("detail.cannot-read-manifest", path, exc)) from exc
        if (path.parent.name, path.stem) != (manifest.id, manifest.version):
            raise RulesetError(
                "ruleset.invalid",
                Detail("detail.manifest-misnamed", path, manifest.key, manifest.id, manifest.version),
            )
        if manifest.provided_by != "official" or manifest.installed_from is not None:
            raise RulesetError("ruleset.invalid", Detail("detail.not-a-pack-manifest", path))
        manifests[manifest.key] = manifest
    return manifests
