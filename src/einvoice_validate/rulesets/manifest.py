"""Pack manifests (``rulesets/packs/<id>/<version>.toml``): what a pack is, where it comes from, its checksums."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from ..errors import RulesetError

__all__ = ["Manifest", "Upstream", "bundled_dir", "load_manifests"]


class Upstream(BaseModel):
    """Where the official files come from (used by the downloading installer and shown by ``rulesets list``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    repository: str
    release: str
    commit: str | None = None
    archive: str | None = None
    archive_sha256: str | None = None
    archive_prefix: str = ""
    archive_dest: str = ""


class Manifest(BaseModel):
    """One pack version. ``key`` (``id@version``) is how profiles and findings name it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    version: str
    kind: Literal["xsd", "schematron"]
    syntax: Literal["ubl", "cii"]
    title: str
    licence: str
    source_dir: str
    entries: dict[str, str]
    upstream: Upstream
    files: dict[str, str]
    attachment_content: Literal["full", "emptiness"] = "full"
    """What a Schematron pack's findings depend on in the content of an embedded attachment (UBL
    ``cbc:EmbeddedDocumentBinaryObject``, CII ``ram:AttachmentBinaryObject``): ``emptiness`` (reviewed: no rule
    reads more than whether it is empty or whitespace, so Saxon may get it cut short, see
    :func:`~einvoice_validate.schematron._saxon.slimmed_text`) or ``full`` (the default for a pack not reviewed)."""

    @property
    def key(self) -> str:
        return f"{self.id}@{self.version}"


def bundled_dir() -> Path:
    """The folder with the project's own ruleset data (manifests, profiles).

    In a wheel it is packaged as ``einvoice_validate/_rulesets``; in a source checkout it is the repository's
    top-level ``rulesets/``.
    """
    packaged = Path(__file__).resolve().parents[1] / "_rulesets"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "rulesets"


@lru_cache(maxsize=4)
def load_manifests(directory: Path | None = None) -> dict[str, Manifest]:
    """All manifests under ``directory/packs`` keyed by ``id@version``."""
    base = (directory or bundled_dir()) / "packs"
    manifests: dict[str, Manifest] = {}
    for path in sorted(base.glob("*/*.toml")):
        try:
            manifest = Manifest.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
        except (OSError, tomllib.TOMLDecodeError, ValidationError) as exc:
            raise RulesetError("ruleset.invalid", f"cannot read the manifest {path}: {exc}") from exc
        manifests[manifest.key] = manifest
    if not manifests:
        raise RulesetError("ruleset.invalid", f"no pack manifests found under {base}")
    return manifests
