"""Profiles: which packs run on which document, loaded as data from ``rulesets/profiles.toml``.

Matching follows the KoSIT validator's scenarios: the root element and the exact specification identifier
(first match in file order wins); a profile can also be forced by name.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import ProfileError, RulesetError
from .findings import Flag
from .parse import Document, DocumentType, Envelope
from .rulesets.manifest import bundled_dir

__all__ = ["Profile", "find_profile", "load_profiles", "match_profile", "select_profile"]


class Profile(BaseModel):
    """One validation scenario: a document type, the spec ids it applies to, its packs and overrides."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    title: str
    kosit_scenario: str | None = None
    root: DocumentType
    match: Literal["exact", "contains", "any"]
    spec_ids: tuple[str, ...]
    xsd: str
    schematron: tuple[str, ...]
    verdict: Literal["kosit"] | None = None
    custom_levels: dict[str, Flag] = {}
    envelope: Envelope | None = None
    """Match only documents taken out of this envelope (``pdf``: the Factur-X EN16931 profile, whose guideline id
    is plain EN 16931's)."""

    def matches(self, document: Document) -> bool:
        if document.document_type != self.root:
            return False
        if self.envelope is not None and document.envelope != self.envelope:
            return False
        if self.match == "any":
            return True
        if self.match == "exact":
            return any(s in self.spec_ids for s in document.spec_ids)
        return any(known in s for s in document.spec_ids for known in self.spec_ids)

    def knows_spec_id(self, document: Document) -> bool:
        """Whether the document's spec id is one this profile is meant for (exact, or by substring)."""
        if self.match == "contains":
            return self.matches(document)
        return any(s in self.spec_ids for s in document.spec_ids)


@lru_cache(maxsize=4)
def load_profiles(path: Path | None = None) -> tuple[Profile, ...]:
    """The profiles in file order."""
    path = path or bundled_dir() / "profiles.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        profiles = tuple(Profile.model_validate(p) for p in raw["profile"])
    except (OSError, KeyError, tomllib.TOMLDecodeError, ValidationError) as exc:
        raise RulesetError("ruleset.invalid", f"cannot read the profiles {path}: {exc}") from exc
    names = [p.name for p in profiles]
    if len(set(names)) != len(names):
        raise RulesetError("ruleset.invalid", f"duplicate profile names in {path}")
    return profiles


def match_profile(document: Document, profiles: tuple[Profile, ...]) -> Profile:
    """The first profile that matches ``document``."""
    for profile in profiles:
        if profile.matches(document):
            return profile
    raise ProfileError(
        "document.unsupported-type", f"no profile applies to a {document.document_type} document", reason="no-profile"
    )


def find_profile(name: str, profiles: tuple[Profile, ...] | None = None) -> Profile:
    """The profile called ``name``; raises ``request.invalid-parameter`` (reason ``profile-unknown``): the one
    check every entry point uses."""
    profiles = profiles if profiles is not None else load_profiles()
    for profile in profiles:
        if profile.name == name:
            return profile
    raise ProfileError(
        "request.invalid-parameter",
        f"unknown profile {name}; known: {', '.join(p.name for p in profiles)}",
        reason="profile-unknown",
    )


def select_profile(document: Document, profiles: tuple[Profile, ...], name: str | None) -> Profile:
    """The profile forced by ``name`` (checked against the document type), else the matching one."""
    if name is None:
        return match_profile(document, profiles)
    profile = find_profile(name, profiles)
    if profile.root != document.document_type:
        raise ProfileError(
            "request.invalid-parameter",
            f"profile {name} is for {profile.root} documents; this one is a {document.document_type}",
            reason="profile-mismatch",
        )
    return profile
