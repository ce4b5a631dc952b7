"""User packs: compiled Schematron a user provides in the rules home, described by a manifest of their own.

Layout (inside the rules home, next to the official ``packs/``)::

    <home>/user/packs/<id>/<version>.toml     the manifest (:class:`UserManifest`)
    <home>/user/packs/<id>/<version>/…        its files: the compiled Schematron (XSLT 2.0), anything else listed
    <home>/user/profiles.toml                 profiles layered on official ones (:func:`..profiles.load_user_profiles`)

A user pack gets the checks of an official one: every file listed with its sha256 (a changed byte is
``ruleset.corrupt``), the stylesheet prepared by the same steps (:mod:`.prepare`, so a dynamic error in one rule
is a ``schematron.runtime-error`` finding and the others still run) when ``rulesets install`` runs (it prepares
user packs in place: ``prepared/`` and ``prepared.json`` in the pack folder; nothing is copied or downloaded),
compiled once per process, findings with the pack's own rule ids and ``source`` = ``id@version``. Texts: a
``[messages]`` table gives a rule's English and German text; a rule without one keeps the text its SVRL gives,
in both languages. A user pack may carry dates in force (``valid_from``/``valid_until``) like an official one.
"""

from __future__ import annotations

import tomllib
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import RulesetError
from .manifest import Manifest, RuleText, Upstream

__all__ = ["USER_DIR", "UserManifest", "load_user_manifests", "user_pack_dir"]

USER_DIR = "user"
_ID = r"^[a-z0-9][a-z0-9._-]*$"


class UserManifest(BaseModel):
    """What a user writes in ``<home>/user/packs/<id>/<version>.toml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=_ID)
    version: str = Field(pattern=_ID)
    title: str
    syntax: Literal["ubl", "cii"]
    stylesheet: str = Field(description="The compiled Schematron (XSLT 2.0), relative to the pack folder")
    files: dict[str, str] = Field(description="Every file of the pack (relative path) with its sha256")
    valid_from: date | None = None
    valid_until: date | None = None
    messages: dict[str, RuleText] = {}
    attachment_content: Literal["full", "emptiness"] = "full"

    def to_manifest(self) -> Manifest:
        if self.stylesheet not in self.files:
            raise ValueError(f"the stylesheet {self.stylesheet} is not listed in [files] (with its sha256)")
        return Manifest(
            id=self.id,
            version=self.version,
            kind="schematron",
            syntax=self.syntax,
            title=self.title,
            licence="provided by the user",
            source_dir="",
            entries={"stylesheet": self.stylesheet},
            upstream=Upstream(repository="user", release=self.version),
            files=self.files,
            attachment_content=self.attachment_content,
            provided_by="user",
            messages=self.messages,
            valid_from=self.valid_from,
            valid_until=self.valid_until,
        )


def user_pack_dir(home: Path, manifest: Manifest) -> Path:
    """Where a user pack's files are: ``<home>/user/packs/<id>/<version>/``."""
    return home / USER_DIR / "packs" / manifest.id / manifest.version


def load_user_manifests(home: Path) -> dict[str, Manifest]:
    """The user packs of the rules home, keyed by ``id@version`` (none: an empty dict). A manifest that cannot
    be read, or whose file name is not ``<id>/<version>.toml``, is ``ruleset.invalid``."""
    found: dict[str, Manifest] = {}
    for path in sorted((home / USER_DIR / "packs").glob("*/*.toml")):
        try:
            user = UserManifest.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
            manifest = user.to_manifest()
        except (OSError, tomllib.TOMLDecodeError, ValidationError, ValueError) as exc:
            raise RulesetError("ruleset.invalid", f"cannot read the user pack manifest {path}: {exc}") from exc
        if (path.parent.name, path.stem) != (manifest.id, manifest.version):
            raise RulesetError(
                "ruleset.invalid",
                f"the user pack manifest {path} describes {manifest.key}: "
                f"name it {manifest.id}/{manifest.version}.toml",
            )
        found[manifest.key] = manifest
    return found
