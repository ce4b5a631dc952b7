"""Profiles: which packs run on which document, loaded as data from ``rulesets/profiles.toml``.

Matching follows the KoSIT validator's scenarios: the root element and the exact specification identifier
(first match in file order wins); a profile can also be forced by name. A profile may also require a content
condition (``requires = "fr-ctc"``: the document carries the French CTC markers, :mod:`.france`), and
:func:`profile_reason` says in words why a report's profile was chosen (``Report.profile_reason``).

Versions by date (issue 15): a Schematron entry ``id@version`` pins that version; ``id@v1|v2`` lists versions and
``id@*`` means every version the manifests know: :meth:`Profile.packs_on` picks, per entry, the version in force on
the rules date (``Manifest.valid_from``/``valid_until``, both inclusive), the latest ``valid_from`` winning, and says
why (:class:`~einvoice_validate.findings.VersionChoice`). A date on which no listed version is in force is
``request.invalid-parameter`` (reason ``rules-date``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from .errors import ProfileError, RulesetError
from .findings import Flag, VersionChoice
from .france import french_markers
from .parse import Document, DocumentType, Envelope
from .rulesets.manifest import Manifest, bundled_dir

__all__ = [
    "Profile",
    "UserProfile",
    "all_profiles",
    "find_profile",
    "load_profiles",
    "load_user_profiles",
    "match_profile",
    "parse_rules_date",
    "profile_reason",
    "select_profile",
    "split_entry",
]

ANY_VERSION = "*"


def split_entry(entry: str) -> tuple[str, tuple[str, ...]]:
    """``id@v1|v2`` → ``(id, (v1, v2))``; ``id@*`` → ``(id, ("*",))``; a plain ``id@version`` → one version."""
    pack_id, sep, versions = entry.partition("@")
    parts = tuple(versions.split("|"))
    if not sep or not pack_id or any(not v.strip() or v != v.strip() for v in parts) or len(set(parts)) != len(parts):
        raise ValueError(f"{entry!r} is not id@version, id@v1|v2 or id@*")
    if ANY_VERSION in parts and len(parts) > 1:
        raise ValueError(f"{entry!r}: '*' stands alone")
    return pack_id, parts


def parse_rules_date(text: str) -> date:
    """A rules date given by a caller (``YYYY-MM-DD``); anything else is ``request.invalid-parameter``."""
    try:
        if len(text) != 10:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise ProfileError(
            "request.invalid-parameter", f"the rules date {text!r} is not a date YYYY-MM-DD", reason="rules-date"
        ) from None


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
    requires: Literal["fr-ctc"] | None = None
    """Match only documents that also carry the French CTC markers (:func:`~einvoice_validate.france.french_markers`):
    the profiles of the French e-invoicing rules, whose documents have no specification identifier of their own."""
    provided_by: Literal["official", "user"] = "official"
    extends: str | None = None
    """A user profile: the official profile it is layered on."""

    @field_validator("schematron")
    @classmethod
    def _entries(cls, entries: tuple[str, ...]) -> tuple[str, ...]:
        for entry in entries:
            split_entry(entry)
        return entries

    def candidate_keys(self, manifests: Mapping[str, Manifest]) -> tuple[str, ...]:
        """Every Schematron pack (``id@version``) this profile may run on some date, in entry order."""
        keys: list[str] = []
        for entry in self.schematron:
            pack_id, versions = split_entry(entry)
            if versions == (ANY_VERSION,):
                keys += [m.key for m in sorted((m for m in manifests.values() if m.id == pack_id), key=_start)]
            else:
                keys += [f"{pack_id}@{v}" for v in versions]
        return tuple(keys)

    def packs_on(
        self, on: date, manifests: Mapping[str, Manifest]
    ) -> tuple[tuple[str, ...], tuple[VersionChoice, ...]]:
        """The Schematron packs (``id@version``) this profile runs on the day ``on``, and why for each entry that
        lists several versions (see the module docstring). Raises ``request.invalid-parameter`` (reason
        ``rules-date``) when an entry has no version in force on that day."""
        keys: list[str] = []
        choices: list[VersionChoice] = []
        for entry in self.schematron:
            pack_id, versions = split_entry(entry)
            if versions != (ANY_VERSION,) and len(versions) == 1:
                keys.append(entry)  # pinned
                continue
            if versions == (ANY_VERSION,):
                candidates = sorted((m for m in manifests.values() if m.id == pack_id), key=_start)
            else:
                candidates = sorted(
                    (manifests[f"{pack_id}@{v}"] for v in versions if f"{pack_id}@{v}" in manifests), key=_start
                )
            if not candidates:
                raise RulesetError("ruleset.missing", f"profile {self.name}: no manifest for {entry}")
            in_force = [m for m in candidates if m.in_force(on)]
            if not in_force:
                dates = "; ".join(f"{m.key} {m.in_force_text()}" for m in candidates)
                raise ProfileError(
                    "request.invalid-parameter",
                    f"profile {self.name}: no version of {pack_id} is in force on {on.isoformat()} ({dates})",
                    reason="rules-date",
                )
            best = in_force[-1]
            reason = f"in force {best.in_force_text()} on {on.isoformat()}"
            replaced = [m.key for m in in_force if m is not best]
            ended = [f"{m.key} until {m.valid_until}" for m in candidates if m.valid_until and m.valid_until < on]
            later = [f"{m.key} from {m.valid_from}" for m in candidates if m.valid_from and m.valid_from > on]
            if replaced:
                reason += f"; replaces {', '.join(replaced)}"
            if ended:
                reason += f"; no longer in force: {', '.join(ended)}"
            if later:
                reason += f"; not yet in force: {', '.join(later)}"
            keys.append(best.key)
            choices.append(
                VersionChoice(pack=best.key, rules_date=on, candidates=tuple(m.key for m in candidates), reason=reason)
            )
        return tuple(keys), tuple(choices)

    def matches(self, document: Document) -> bool:
        if document.document_type != self.root:
            return False
        if self.envelope is not None and document.envelope != self.envelope:
            return False
        if self.match == "exact":
            found = any(s in self.spec_ids for s in document.spec_ids)
        else:
            found = self.match == "any" or any(known in s for s in document.spec_ids for known in self.spec_ids)
        return found and (self.requires is None or bool(french_markers(document)))

    def knows_spec_id(self, document: Document) -> bool:
        """Whether the document's spec id is one this profile is meant for (exact, or by substring)."""
        if self.match == "contains":
            return self.matches(document)
        return any(s in self.spec_ids for s in document.spec_ids)


def _start(manifest: Manifest) -> date:
    return manifest.valid_from or date.min


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


class UserProfile(BaseModel):
    """A profile in ``<home>/user/profiles.toml``: an official profile (``extends``) with the user's packs run
    after its own, and optionally narrower documents (``match``/``spec_ids``; the root is the official one's) and
    more severity overrides. User profiles are tried before the official ones, in file order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    title: str
    extends: str
    match: Literal["exact", "contains", "any"] | None = None
    spec_ids: tuple[str, ...] | None = None
    schematron: tuple[str, ...] = ()
    custom_levels: dict[str, Flag] = {}

    def layered(self, base: Profile) -> Profile:
        return Profile(
            name=self.name,
            title=self.title,
            root=base.root,
            match=self.match or base.match,
            spec_ids=self.spec_ids if self.spec_ids is not None else base.spec_ids,
            xsd=base.xsd,
            schematron=(*base.schematron, *self.schematron),
            verdict=base.verdict,
            envelope=base.envelope,
            requires=base.requires,
            custom_levels={**base.custom_levels, **self.custom_levels},
            provided_by="user",
            extends=base.name,
        )


def load_user_profiles(home: Path) -> tuple[Profile, ...]:
    """The user profiles of the rules home (``<home>/user/profiles.toml``; none when there is no such file),
    each layered on its official profile. Unreadable, unknown ``extends`` or a clashing name: ``ruleset.invalid``."""
    path = home / "user" / "profiles.toml"
    if not path.is_file():
        return ()
    official = {p.name: p for p in load_profiles()}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        users = [UserProfile.model_validate(p) for p in raw.get("profile", [])]
        layered = []
        for user in users:
            if user.extends not in official:
                raise ValueError(f"profile {user.name} extends {user.extends}, which is no official profile")
            if user.name in official:
                raise ValueError(f"profile {user.name} has the name of an official profile")
            layered.append(user.layered(official[user.extends]))
    except (OSError, tomllib.TOMLDecodeError, ValidationError, ValueError) as exc:
        raise RulesetError("ruleset.invalid", f"cannot read the user profiles {path}: {exc}") from exc
    if len({p.name for p in layered}) != len(layered):
        raise RulesetError("ruleset.invalid", f"duplicate profile names in {path}")
    return tuple(layered)


def all_profiles(home: Path) -> tuple[Profile, ...]:
    """The user profiles of ``home`` (tried first), then the official ones."""
    return (*load_user_profiles(home), *load_profiles())


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


def profile_reason(document: Document, profile: Profile, forced: bool) -> str:
    """Why ``profile`` runs on ``document``, in one English sentence (``Report.profile_reason``): forced by the caller,
    or which specification identifier (BT-24), envelope and French CTC markers matched; a document that carries the
    French markers but got another profile says so."""
    spec = f"BT-24 '{document.spec_id}'" if document.spec_id is not None else "no BT-24"
    markers = french_markers(document)
    where = " of a document taken out of a PDF" if profile.envelope == "pdf" else ""
    if forced:
        found = f"; it carries French CTC markers ({'; '.join(markers)})" if markers else ""
        return f"chosen by the caller ({spec}){found}"
    if profile.match == "any":
        reason = f"no other profile matches this {document.document_type} document ({spec}): the EN 16931 rules"
    elif profile.match == "exact":
        reason = f"{spec}{where} is one of this profile's specification identifiers"
    else:
        known = next((k for s in document.spec_ids for k in profile.spec_ids if k in s), "")
        reason = f"{spec}{where} contains '{known}'"
    if profile.provided_by == "user":
        reason += f" (a user profile on {profile.extends})"
    if profile.requires == "fr-ctc":
        return f"French CTC invoice: {'; '.join(markers)}; {reason}"
    if markers:
        reason += (
            f"; it carries French CTC markers ({'; '.join(markers)}), but the French rules apply only to the "
            "specification identifiers the French profiles name (README, France)"
        )
    return reason
