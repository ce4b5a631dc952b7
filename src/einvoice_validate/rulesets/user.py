"""User packs and syntaxes: compiled Schematron and XSD a user provides in the rules home, described by manifests of
their own, and the syntaxes (document types, roots) of the user's own formats.

Layout (inside the rules home, next to the official ``packs/``)::

    <home>/user/packs/<id>/<version>.toml     the manifest (:class:`UserManifest`)
    <home>/user/packs/<id>/<version>/…        its files: the compiled Schematron (XSLT 2.0) or the XSD (with an XML
                                              catalog where it imports by address), anything else listed
    <home>/user/profiles.toml                 profiles layered on official ones, or of the user's own document types
                                              (:func:`..profiles.load_user_profiles`)
    <home>/user/syntaxes/<name>.toml          syntaxes of the user's own (:func:`load_user_syntaxes`; the format of
                                              ``rulesets/syntaxes/*.toml``, :mod:`einvoice_validate.syntaxes`)

A user pack gets the checks of an official one: every file listed with its sha256 (a changed byte is
``ruleset.corrupt``), the stylesheet prepared by the same steps (:mod:`.prepare`, so a dynamic error in one rule
is a ``schematron.runtime-error`` finding and the others still run) when ``rulesets install`` runs (it prepares
user packs in place: ``prepared/`` and ``prepared.json`` in the pack folder; nothing is copied or downloaded),
compiled once per process, findings with the pack's own rule ids and ``source`` = ``id@version``. Texts: a
``[messages]`` table gives a rule's English and German text; a rule without one keeps the text its SVRL gives,
in both languages. A user pack may carry dates in force (``valid_from``/``valid_until``) like an official one.
A user XSD pack (``kind = "xsd"``) names its schema per document type (``[entries]``) and, where the schema imports
by address, its catalog (``catalog``); a user Schematron pack whose stylesheet writes another report than SVRL names
its reader (``output``).

A user syntax may not take a bundled syntax's name, document type, root, nor give a bundled namespace another prefix
(or a bundled prefix another namespace): the rules home is refused (``ruleset.invalid``) when it is opened.
"""

from __future__ import annotations

import tomllib
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import REASONS, Detail, RulesetError
from ..syntaxes import SyntaxDeclarationError, Syntaxes, bundled, read_declarations
from .manifest import Manifest, RuleText, Upstream

__all__ = ["USER_DIR", "UserManifest", "load_user_manifests", "load_user_syntaxes", "user_pack_dir"]

USER_DIR = "user"
_ID = r"^[a-z0-9][a-z0-9._-]*$"


class UserManifest(BaseModel):
    """What a user writes in ``<home>/user/packs/<id>/<version>.toml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=_ID)
    version: str = Field(pattern=_ID)
    title: str
    kind: Literal["schematron", "xsd"] = "schematron"
    syntax: str = Field(description="A syntax's name: a bundled one or one of the rules home's user syntaxes")
    stylesheet: str | None = Field(
        default=None, description="A Schematron pack: the compiled Schematron (XSLT 2.0), relative to the pack folder"
    )
    entries: dict[str, str] = Field(
        default={}, description="An XSD pack: document type -> its schema (relative to the pack folder)"
    )
    catalog: str | None = Field(default=None, description="An XSD pack: its XML catalog, where the schema imports")
    output: str = Field(default="svrl", description="A Schematron pack: the reader of its result (default SVRL)")
    files: dict[str, str] = Field(description="Every file of the pack (relative path) with its sha256")
    valid_from: date | None = None
    valid_until: date | None = None
    messages: dict[str, RuleText] = {}
    attachment_content: Literal["full", "emptiness"] = "full"

    def to_manifest(self) -> Manifest:
        if self.kind == "schematron":
            if self.stylesheet is None or self.entries or self.catalog is not None:
                raise ValueError("a Schematron pack names its stylesheet (and no entries or catalog)")
            entries = {"stylesheet": self.stylesheet}
        else:
            if self.stylesheet is not None or not self.entries or self.output != "svrl":
                raise ValueError("an XSD pack names its schema per document type in [entries] (and no stylesheet)")
            entries = dict(self.entries)
        unlisted = [rel for rel in entries.values() if rel not in self.files]
        if unlisted:
            raise ValueError(f"{', '.join(unlisted)} not listed in [files] (with its sha256)")
        return Manifest(
            id=self.id,
            version=self.version,
            kind=self.kind,
            syntax=self.syntax,
            title=self.title,
            licence="provided by the user",
            source_dir="",
            entries=entries,
            upstream=Upstream(repository="user", release=self.version),
            files=self.files,
            attachment_content=self.attachment_content,
            provided_by="user",
            messages=self.messages,
            valid_from=self.valid_from,
            valid_until=self.valid_until,
            output=self.output,
            catalog=self.catalog,
        )


def user_pack_dir(home: Path, manifest: Manifest) -> Path:
    """Where a user pack's files are: ``<home>/user/packs/<id>/<version>/``."""
    return home / USER_DIR / "packs" / manifest.id / manifest.version


def load_user_syntaxes(home: Path) -> Syntaxes:
    """The bundled syntaxes and those of the rules home (``<home>/user/syntaxes/*.toml``; none: the bundled ones).
    A file that cannot be read, or a syntax that clashes with another (see the module docstring), or a refused root
    with a reason ``document.unsupported-type`` does not have, is ``ruleset.invalid``."""
    folder = home / USER_DIR / "syntaxes"
    if not folder.is_dir():
        return bundled()
    try:
        declarations = read_declarations(folder, "user")
        for decl in declarations:
            for refused in decl.refused:
                if refused.reason not in REASONS["document.unsupported-type"]:
                    raise SyntaxDeclarationError(
                        f"syntax {decl.name}: the refused root {refused.root} has the reason {refused.reason!r}; "
                        f"one of {', '.join(REASONS['document.unsupported-type'])}"
                    )
        return bundled().with_user(declarations)
    except SyntaxDeclarationError as exc:
        raise RulesetError("ruleset.invalid", Detail("detail.user-syntax-refused", home, exc)) from exc


def load_user_manifests(home: Path, syntaxes: Syntaxes | None = None) -> dict[str, Manifest]:
    """The user packs of the rules home, keyed by ``id@version`` (none: an empty dict), checked against
    ``syntaxes`` (default: the rules home's, :func:`load_user_syntaxes`). A manifest that cannot be read, whose
    file name is not ``<id>/<version>.toml``, or that names a syntax or document type there is not, is
    ``ruleset.invalid``."""
    known = syntaxes if syntaxes is not None else load_user_syntaxes(home)
    found: dict[str, Manifest] = {}
    for path in sorted((home / USER_DIR / "packs").glob("*/*.toml")):
        try:
            user = UserManifest.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
            manifest = user.to_manifest()
            if manifest.syntax not in known.syntaxes:
                raise ValueError(f"no syntax {manifest.syntax!r} (known: {', '.join(known.syntaxes)})")
            wrong = [t for t in manifest.entries if manifest.kind == "xsd" and _syntax_of(known, t) != manifest.syntax]
            if wrong:
                raise ValueError(f"no document type {', '.join(wrong)} of the syntax {manifest.syntax}")
        except (OSError, tomllib.TOMLDecodeError, ValidationError, ValueError) as exc:
            raise RulesetError("ruleset.invalid", Detail("detail.cannot-read-user-manifest", path, exc)) from exc
        if (path.parent.name, path.stem) != (manifest.id, manifest.version):
            raise RulesetError(
                "ruleset.invalid",
                Detail("detail.user-manifest-misnamed", path, manifest.key, manifest.id, manifest.version),
            )
        found[manifest.key] = manifest
    return found


def _syntax_of(known: Syntaxes, document_type: str) -> str | None:
    kind = known.kinds.get(document_type)
    return kind.syntax if kind is not None else None
