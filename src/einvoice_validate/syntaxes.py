"""Syntaxes as data: the XML vocabularies the pipeline reads, their document types (one root element each), the
path to each type's specification identifier, the conventional prefixes of readable paths, and the roots refused
with a reason of their own, declared in ``rulesets/syntaxes/<name>.toml`` (docs/design/syntax-is-data.md).

:func:`bundled` is the registry of the project's own declarations; a rules home may add syntaxes of its own
(``<home>/user/syntaxes/<name>.toml``, read by :mod:`.rulesets.user`): :meth:`Syntaxes.with_user` checks that none
clashes with a bundled name, root, namespace or prefix. ``parse.py`` (roots, spec ids), ``profiles.py``
(``Profile.root``), ``locations.py`` (prefixes), ``pool/routing.py`` (namespace marks), ``values.py`` and ``viewer.py``
(the viewer's entry per document type), the manifests (``Manifest.syntax``) and the reports (``Report.syntax``,
``Report.document_type``) read this registry and keep no list of their own.

On the bottom floor (the result models check their names against it): it imports nothing of the package but
:mod:`._bundled`, and says what is wrong with a :class:`SyntaxDeclarationError` (a ``ValueError``), which the rules
home's loader turns into ``ruleset.invalid``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ._bundled import bundled_dir

__all__ = [
    "ANY_SYNTAX",
    "NAME_PATTERN",
    "DocumentKind",
    "Refused",
    "SyntaxDeclaration",
    "SyntaxDeclarationError",
    "Syntaxes",
    "bundled",
    "check_report_names",
    "read_declarations",
]

NAME_PATTERN = r"^[a-z0-9][a-z0-9.-]*$"
"""A syntax or document type name: lower case letters, digits, ``-`` and ``.``."""
ANY_SYNTAX = "any"
"""``Manifest.syntax`` of a pack no syntax owns (a viewer, a configuration); no syntax may have this name."""
_CLARK = re.compile(r"^(?:\{[^{}\s]+\})?[^{}@/\s:]+$")


class SyntaxDeclarationError(ValueError):
    """A syntax declaration that cannot be read, or that clashes with another."""


class DocumentDeclaration(BaseModel):
    """One ``[[document]]`` of a syntax file: a document type and its root."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str = Field(pattern=NAME_PATTERN)
    title: str
    root: str
    spec_id: tuple[str, ...] = ()
    spec_id_name: str = "specification identifier"
    """How reports name the identifier (``BT-24``)."""
    viewer: str | None = None

    @field_validator("root")
    @classmethod
    def _clark_root(cls, root: str) -> str:
        if not _CLARK.match(root):
            raise ValueError(f"root {root!r} is not an element name in Clark notation ({{namespace}}local)")
        return root

    @field_validator("spec_id")
    @classmethod
    def _steps(cls, steps: tuple[str, ...]) -> tuple[str, ...]:
        for n, step in enumerate(steps):
            name = step.removeprefix("@")
            if not _CLARK.match(name) or (step.startswith("@") and n != len(steps) - 1):
                raise ValueError(
                    f"spec_id step {step!r}: child elements in Clark notation, an attribute (@name) only last"
                )
        return steps


class Refused(BaseModel):
    """A ``[[refused]]`` root: a vocabulary the project knows and refuses with a reason of its own (ZUGFeRD 1.0)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    root: str
    reason: str = Field(pattern=r"^[a-z0-9-]+$")
    """The error's reason (``document.unsupported-type``; one of ``errors.REASONS``)."""
    detail: str
    """The error's detail, in English (``_error_texts.py`` gives the German of the bundled ones)."""


class SyntaxDeclaration(BaseModel):
    """One syntax file (``rulesets/syntaxes/ubl.toml``; the format is described at the top of that file)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=NAME_PATTERN)
    title: str
    prefixes: dict[str, str] = {}
    document: tuple[DocumentDeclaration, ...] = ()
    refused: tuple[Refused, ...] = ()
    provided_by: Literal["official", "user"] = "official"

    @field_validator("prefixes")
    @classmethod
    def _prefixes(cls, prefixes: dict[str, str]) -> dict[str, str]:
        for namespace, prefix in prefixes.items():
            if not namespace or not re.fullmatch(r"[A-Za-z_][\w.-]*", prefix):
                raise ValueError(f"prefix {prefix!r} of {namespace!r} is not an XML prefix")
        return prefixes


@dataclass(frozen=True, slots=True)
class DocumentKind:
    """A document type as the pipeline uses it: its name (``type``), syntax, root element, the steps to its
    specification identifier, and the viewer pack's entry for it (None: no viewer)."""

    type: str
    syntax: str
    title: str
    root: str
    spec_id: tuple[str, ...]
    viewer: str | None
    provided_by: Literal["official", "user"] = "official"
    spec_id_name: str = "specification identifier"


class Syntaxes:
    """A registry of syntaxes: by name, their document types by name and by root, the refused roots, the
    conventional prefixes and the namespace marks of the routing. Read-only once built; every clash (a name, a
    document type, a root, a namespace with two prefixes) is a :class:`SyntaxDeclarationError`.

    A prefix may stand for namespaces of two syntaxes (CII and CDAR each call their root's namespace ``rsm``, as
    their specifications do): readable paths write each namespace with its prefix, and a path read back resolves
    such a prefix by the document's own declarations, else by local name (``namespaces`` leaves it out)."""

    def __init__(self, declarations: Iterable[SyntaxDeclaration]) -> None:
        self.syntaxes: dict[str, SyntaxDeclaration] = {}
        self.kinds: dict[str, DocumentKind] = {}
        self.roots: dict[str, DocumentKind] = {}
        self.refused: dict[str, Refused] = {}
        self.prefixes: dict[str, str] = {}
        """namespace -> its conventional prefix"""
        self.namespaces: dict[str, str] = {}
        """prefix -> its namespace, for the prefixes that stand for one namespace only"""
        owners: dict[str, set[str]] = {}  # prefix -> namespaces
        for decl in declarations:
            where = f"syntax {decl.name}" + (" (a user syntax)" if decl.provided_by == "user" else "")
            if decl.name in self.syntaxes or decl.name == ANY_SYNTAX:
                raise SyntaxDeclarationError(f"{where}: the name {decl.name!r} is taken")
            self.syntaxes[decl.name] = decl
            for doc in decl.document:
                if doc.type in self.kinds:
                    raise SyntaxDeclarationError(
                        f"{where}: the document type {doc.type!r} is taken (syntax {self.kinds[doc.type].syntax})"
                    )
                if doc.root in self.roots or doc.root in self.refused:
                    raise SyntaxDeclarationError(f"{where}: the root {doc.root} belongs to another document type")
                kind = DocumentKind(
                    doc.type,
                    decl.name,
                    doc.title,
                    doc.root,
                    doc.spec_id,
                    doc.viewer,
                    decl.provided_by,
                    doc.spec_id_name,
                )
                self.kinds[doc.type] = self.roots[doc.root] = kind
            for refused in decl.refused:
                if refused.root in self.roots or refused.root in self.refused:
                    raise SyntaxDeclarationError(f"{where}: the refused root {refused.root} is declared twice")
                self.refused[refused.root] = refused
            if len(set(decl.prefixes.values())) != len(decl.prefixes):
                raise SyntaxDeclarationError(f"{where}: a prefix stands for two of its namespaces")
            for namespace, prefix in decl.prefixes.items():
                if self.prefixes.get(namespace, prefix) != prefix:
                    raise SyntaxDeclarationError(
                        f"{where}: the namespace {namespace} has the prefix {self.prefixes[namespace]!r} already"
                    )
                self.prefixes[namespace] = prefix
                owners.setdefault(prefix, set()).add(namespace)
        self.namespaces = {prefix: next(iter(ns)) for prefix, ns in owners.items() if len(ns) == 1}

    def with_user(self, declarations: Iterable[SyntaxDeclaration]) -> Syntaxes:
        """This registry with a rules home's own syntaxes added (each checked against every name, root, namespace
        and prefix here)."""
        return Syntaxes([*self.syntaxes.values(), *declarations])

    def kind(self, document_type: str) -> DocumentKind:
        """The document type called ``document_type``; ``KeyError`` when there is none."""
        return self.kinds[document_type]

    @cached_property
    def _marks(self) -> tuple[tuple[bytes, str], ...]:
        found: dict[bytes, str] = {}
        for kind in self.kinds.values():
            namespace = kind.root[1:].partition("}")[0] if kind.root.startswith("{") else ""
            if namespace:
                found.setdefault(namespace.encode(), kind.syntax)
        return tuple(found.items())

    def marks(self) -> tuple[tuple[bytes, str], ...]:
        """The namespace of each root with its syntax (what :mod:`.pool.routing` looks for in a document's first
        bytes), each namespace once."""
        return self._marks

    def expected(self) -> str:
        """The document types, as people read them (the detail of ``document.unsupported-type``, reason root)."""
        return ", ".join(kind.title for kind in self.kinds.values())


def read_declarations(folder: Path, provided_by: Literal["official", "user"]) -> list[SyntaxDeclaration]:
    """The syntax files ``folder/*.toml`` in name order (none: an empty list); each file's name is its syntax's."""
    found = []
    for path in sorted(folder.glob("*.toml")):
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
            decl = SyntaxDeclaration.model_validate({**raw, "provided_by": provided_by})
        except (OSError, tomllib.TOMLDecodeError, ValidationError) as exc:
            raise SyntaxDeclarationError(f"cannot read the syntax {path}: {exc}") from exc
        if decl.name != path.stem:
            raise SyntaxDeclarationError(f"the syntax file {path} declares {decl.name!r}: name it {decl.name}.toml")
        found.append(decl)
    return found


@cache
def bundled() -> Syntaxes:
    """The project's own syntaxes (``rulesets/syntaxes/``), read once per process."""
    declarations = read_declarations(bundled_dir() / "syntaxes", "official")
    if not declarations:
        raise SyntaxDeclarationError(f"no syntax declarations under {bundled_dir() / 'syntaxes'}")
    return Syntaxes(declarations)


def check_report_names(syntax: str, document_type: str, known: Syntaxes | None = None) -> None:
    """Whether a report's ``syntax`` and ``document_type`` fit the registry (default: the bundled one): a bundled
    name must be the bundled pair; any other must be a well-formed name (a rules home's own syntax, which may not
    reuse a bundled name). Raises ``ValueError``."""
    registry = known or bundled()
    kind = registry.kinds.get(document_type)
    if kind is not None and kind.syntax != syntax:
        raise ValueError(f"the document type {document_type!r} is of the syntax {kind.syntax!r}, not {syntax!r}")
    if kind is None and syntax in registry.syntaxes:
        types = ", ".join(k.type for k in registry.kinds.values() if k.syntax == syntax)
        raise ValueError(f"the syntax {syntax!r} has no document type {document_type!r} (it has {types})")
    for name in (syntax, document_type):
        if not re.match(NAME_PATTERN, name):
            raise ValueError(f"{name!r} is not a syntax or document type name")


def bundled_names() -> Mapping[str, tuple[str, ...]]:
    """The bundled syntaxes with their document types (the JSON schema's examples)."""
    registry = bundled()
    return {name: tuple(k.type for k in registry.kinds.values() if k.syntax == name) for name in registry.syntaxes}
