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

Dated editions (issue 30): a profile with a ``configuration`` (``kosit-xrechnung-config@*``) runs, on the rules
date, the edition in force: the configuration version in force (its manifest's dates), whose manifest pins the pack
version standing for each Schematron resource (``Manifest.resources``: XRechnung 2.6.0 over CEN 1.3.16 from
2026-08-31, 2.5.0 over 1.3.15 before), and whose scenario ``kosit_scenario`` (read at install, see
:mod:`.rulesets.configuration`) names the resources it runs, in order, and its ``customLevel`` overrides. The packs
of an edition are coupled: they run together or not at all.

Versions known but not installed (:meth:`Profile.plan_on` with the rules home's view): when the version in force
is not installed, the latest installed version already started runs instead (for an edition: the latest earlier
edition whose packs are all installed; a configuration alone missing: its edition's packs run with the scenarios
and customLevels of the latest installed earlier configuration), and the plan lists a :class:`StandIn`, which the
validator reports as a ``rules.version-not-installed`` finding. Nothing suitable installed at all is
``ruleset.missing``.

Near misses (issue 27): a :class:`Family` (``[[family]]`` in ``profiles.toml``) names the profiles of one
specification (XRechnung, Peppol BIS, ...) and the marks by which a document claims it. :func:`near_miss` finds a
document that claims a family in a version or form none of its profiles knows (it fell to the EN 16931 fallback, or
a substring-matched profile ran on an id the family does not list): the validator reports it
(``profile.near-miss``) and withholds acceptance where the family has a verdict.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator, model_validator

from .errors import Detail, ProfileError, RulesetError
from .findings import Flag, VersionChoice
from .france import french_markers
from .parse import Document, Envelope
from .rulesets.configuration import Scenario
from .rulesets.manifest import Manifest, bundled_dir
from .rulesets.user import load_user_syntaxes
from .syntaxes import Syntaxes, bundled

__all__ = [
    "Family",
    "Installed",
    "NearMiss",
    "Plan",
    "Profile",
    "StandIn",
    "UserProfile",
    "all_profiles",
    "find_profile",
    "load_families",
    "load_profiles",
    "load_user_profiles",
    "match_profile",
    "near_miss",
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
            "request.invalid-parameter", Detail("detail.rules-date", repr(text)), reason="rules-date"
        ) from None


class Installed(Protocol):
    """What a plan needs to know of the rules home (:class:`~einvoice_validate.rulesets.Registry` is one)."""

    home: Path

    def is_installed(self, key: str) -> bool: ...

    def scenarios(self, key: str) -> Mapping[str, Scenario]: ...


@dataclass(frozen=True, slots=True)
class StandIn:
    """A version the manifests know, in force on the rules date, that the rules home lacks; ``instead`` ran in its
    place (``kind = "configuration"``: whose scenarios and customLevels applied in its place)."""

    in_force: str
    instead: str
    kind: Literal["pack", "configuration"]


@dataclass(frozen=True, slots=True)
class Plan:
    """What a profile runs on a rules date: the Schematron packs in order, why (``choices``), the severity
    overrides, the configuration whose scenario applies (``None``: no configuration), the stand-ins, and the edition
    whose packs run (the configuration version: the one in force, or the earlier one standing in for it)."""

    packs: tuple[str, ...]
    choices: tuple[VersionChoice, ...] = ()
    custom_levels: Mapping[str, Flag] = field(default_factory=dict)
    configuration: str | None = None
    stand_ins: tuple[StandIn, ...] = ()
    rules_date: date | None = None
    edition: str | None = None
    edition_packs: int = 0
    """How many of ``packs`` (the first ones) the edition runs."""


class Profile(BaseModel):
    """One validation scenario: a document type, the spec ids it applies to, its packs and overrides."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    title: str
    kosit_scenario: str | None = None
    """The scenario of the KoSIT configuration this profile mirrors (with ``configuration``: the one it runs)."""
    configuration: str | None = None
    """``id@*`` (or ``id@v1|v2``) of a configuration pack: the profile's dated editions (see the module
    docstring); its Schematron packs and customLevels come from the edition in force, ``schematron`` adds packs
    after them."""
    root: str
    """The document type (:mod:`.syntaxes`) this profile is for."""
    syntax: str = ""
    """The syntax of ``root``, from the syntax declarations the profile is read with (not written in the file)."""
    match: Literal["exact", "contains", "any"]
    spec_ids: tuple[str, ...]
    xsd: str
    schematron: tuple[str, ...] = ()
    """The Schematron packs in order; ``[]`` written out: the profile runs the XSD alone (its report says so)."""
    verdict: Literal["kosit"] | None = None
    custom_levels: dict[str, Flag] = {}
    envelope: Envelope | None = None
    """Match only documents taken out of this envelope (``pdf``: the Factur-X EN16931 profile, whose guideline id
    is plain EN 16931's)."""
    unchecked_extensions: dict[str, str] = {}
    """Spec-id substring → rules a document with it also claims and no installed pack of this profile checks (the
    SI-UBL G-account extension): such a document gets an INFO finding saying so (``profile.extension-not-checked``)."""
    requires: Literal["fr-ctc"] | None = None
    """Match only documents that also carry the French CTC markers (:func:`~einvoice_validate.france.french_markers`):
    the profiles of the French e-invoicing rules, whose documents have no specification identifier of their own."""
    provided_by: Literal["official", "user"] = "official"
    extends: str | None = None
    """A user profile: the official profile it is layered on."""

    @model_validator(mode="before")
    @classmethod
    def _syntax_of_root(cls, data: object, info: ValidationInfo) -> object:
        """``root`` must be a document type of the syntaxes the profile is read with (``context={"syntaxes":
        ...}``; default: the bundled ones); ``syntax`` is its syntax."""
        if not isinstance(data, dict) or not isinstance(data.get("root"), str):
            return data
        context = info.context if isinstance(info.context, dict) else {}
        known = context.get("syntaxes")
        registry = known if isinstance(known, Syntaxes) else bundled()
        kind = registry.kinds.get(data["root"])
        if kind is None:
            raise ValueError(f"root {data['root']!r} is no document type (known: {', '.join(registry.kinds)})")
        if data.get("syntax", kind.syntax) != kind.syntax:
            raise ValueError(f"root {data['root']!r} is of the syntax {kind.syntax!r}, not {data['syntax']!r}")
        return {**data, "syntax": kind.syntax}

    @field_validator("schematron")
    @classmethod
    def _entries(cls, entries: tuple[str, ...]) -> tuple[str, ...]:
        for entry in entries:
            split_entry(entry)
        return entries

    @model_validator(mode="after")
    def _editions(self) -> Profile:
        if self.configuration is not None:
            split_entry(self.configuration)
            if self.kosit_scenario is None:
                raise ValueError("a profile with a configuration names its scenario (kosit_scenario)")
        elif not self.schematron and "schematron" not in self.model_fields_set:
            raise ValueError(
                "a profile runs Schematron packs (schematron), a configuration's, or says schematron = [] (XSD only)"
            )
        return self

    @property
    def xsd_only(self) -> bool:
        """Whether the profile runs its XSD alone (``schematron = []``, no configuration)."""
        return self.configuration is None and not self.schematron

    def editions(self, manifests: Mapping[str, Manifest]) -> list[Manifest]:
        """The configuration versions that are this profile's editions, by start date (none: no configuration)."""
        if self.configuration is None:
            return []
        config_id, versions = split_entry(self.configuration)
        return sorted(
            (
                m
                for m in manifests.values()
                if m.id == config_id and (versions == (ANY_VERSION,) or m.version in versions)
            ),
            key=_start,
        )

    def _pinned(self, edition: Manifest, manifests: Mapping[str, Manifest]) -> tuple[str, ...]:
        """The packs ``edition`` pins for this profile's syntax, in the manifest's order (the scenario unknown)."""
        return tuple(
            dict.fromkeys(
                k for k in edition.resources.values() if k in manifests and manifests[k].syntax == self.syntax
            )
        )

    def candidate_keys(self, manifests: Mapping[str, Manifest]) -> tuple[str, ...]:
        """Every pack (``id@version``) this profile may run on some date, in order: its configurations and the
        packs their editions pin, then its Schematron entries."""
        keys: list[str] = []
        for edition in self.editions(manifests):
            keys += [edition.key, *self._pinned(edition, manifests)]
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
        lists several versions (see the module docstring), every version assumed installed. Raises
        ``request.invalid-parameter`` (reason ``rules-date``) when an entry has no version in force on that day."""
        plan = self.plan_on(on, manifests)
        return plan.packs, plan.choices

    def plan_on(self, on: date, manifests: Mapping[str, Manifest], installed: Installed | None = None) -> Plan:
        """What this profile runs on the day ``on`` (see the module docstring): with ``installed`` (the rules
        home), versions known but not installed are replaced by installed ones, with a :class:`StandIn` each;
        without, every version counts as installed and an edition's packs are all those its configuration pins
        for the profile's syntax (its scenarios are known only where it is installed). Raises
        ``request.invalid-parameter`` (reason ``rules-date``) when nothing is in force on that day,
        ``ruleset.missing`` when nothing suitable is installed."""
        keys: list[str] = []
        choices: list[VersionChoice] = []
        stand_ins: list[StandIn] = []
        levels: dict[str, Flag] = {}
        edition = Plan(())
        if self.configuration is not None:
            edition = self._edition_on(on, manifests, installed)
            keys += edition.packs
            choices += edition.choices
            stand_ins += edition.stand_ins
            levels.update(edition.custom_levels)
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
            best = self._in_force(pack_id, on, candidates)
            chosen = best
            if installed is not None and not installed.is_installed(best.key):
                usable = [m for m in candidates if installed.is_installed(m.key)]
                chosen = self._stand_in(best, on, usable, installed.home)
                stand_ins.append(StandIn(best.key, chosen.key, "pack"))
            reason = _reason(best, on, candidates)
            if chosen is not best:
                reason += f"; {best.key} is not installed: {chosen.key} runs instead"
            keys.append(chosen.key)
            choices.append(
                VersionChoice(
                    pack=chosen.key, rules_date=on, candidates=tuple(m.key for m in candidates), reason=reason
                )
            )
        levels.update(self.custom_levels)
        return Plan(
            tuple(keys),
            tuple(choices),
            levels,
            edition.configuration,
            tuple(stand_ins),
            on,
            edition.edition,
            len(edition.packs),
        )

    def _in_force(self, what: str, on: date, candidates: list[Manifest]) -> Manifest:
        """The candidate in force on ``on`` with the latest start; none is ``request.invalid-parameter``."""
        in_force = [m for m in candidates if m.in_force(on)]
        if not in_force:
            dates = "; ".join(f"{m.key} {m.in_force_text()}" for m in candidates)
            raise ProfileError(
                "request.invalid-parameter",
                Detail("detail.no-version-in-force", self.name, what, on.isoformat(), dates),
                reason="rules-date",
            )
        return in_force[-1]

    def _stand_in(self, best: Manifest, on: date, installed: list[Manifest], home: Path) -> Manifest:
        """The installed version that runs in place of ``best``: the latest one started by ``on``."""
        usable = [m for m in installed if _start(m) <= on]
        if not usable:
            raise _not_installed([best.key], home, Detail("detail.needed-no-earlier-version", self.name, on))
        return usable[-1]

    def _edition_on(self, on: date, manifests: Mapping[str, Manifest], installed: Installed | None) -> Plan:
        """The edition this profile runs on ``on``, as a plan of its own (see :meth:`plan_on`)."""
        editions = self.editions(manifests)
        if not editions:
            raise RulesetError("ruleset.missing", f"profile {self.name}: no manifest for {self.configuration}")
        best = self._in_force(editions[0].id, on, editions)

        def has(key: str) -> bool:
            return installed is None or installed.is_installed(key)

        def scenario_source(edition: Manifest) -> Manifest | None:
            """The configuration whose scenarios apply to ``edition``: its own, or the latest earlier installed."""
            earlier = [c for c in editions if has(c.key) and _start(c) <= _start(edition)]
            return edition if has(edition.key) else (earlier[-1] if earlier else None)

        def packs(edition: Manifest, source: Manifest | None) -> tuple[tuple[str, ...], Mapping[str, Flag]]:
            if installed is None or source is None:
                return self._pinned(edition, manifests), {}
            scenario = installed.scenarios(source.key).get(str(self.kosit_scenario))
            if scenario is None:
                raise RulesetError("ruleset.invalid", f"{source.key} has no scenario {self.kosit_scenario!r}")
            unpinned = [r for r in scenario.schematron if r not in edition.resources]
            if unpinned:
                raise RulesetError(
                    "ruleset.invalid", f"the scenarios of {source.key} run {unpinned}, which {edition.key} does not pin"
                )
            return tuple(edition.resources[r] for r in scenario.schematron), scenario.custom_levels

        def runnable(edition: Manifest) -> bool:
            source = scenario_source(edition)
            return source is not None and all(has(k) for k in packs(edition, source)[0])

        started = [e for e in editions if _start(e) <= _start(best)]
        chosen = next((e for e in reversed(started) if runnable(e)), None)
        if chosen is None:
            assert installed is not None  # without a view of the rules home every edition is runnable
            missing = [k for k in (best.key, *self._pinned(best, manifests)) if not has(k)]
            why = Detail("detail.needed-no-earlier-edition", self.name, on, best.key)
            raise _not_installed(missing, installed.home, why)
        source = scenario_source(chosen)
        assert source is not None  # runnable
        keys, levels = packs(chosen, source)
        stand_ins: list[StandIn] = []
        if chosen is not best:
            best_keys = self._pinned(best, manifests)
            for key in (k for k in best_keys if not has(k)):
                instead = next((k for k in keys if k.split("@")[0] == key.split("@")[0]), chosen.key)
                stand_ins.append(StandIn(key, instead, "pack"))
        if not has(best.key):
            stand_ins.insert(0, StandIn(best.key, source.key, "configuration"))
        reason = f"edition {_reason(best, on, editions)}"
        if source is not best:
            reason += f"; {best.key} is not installed: the scenarios and customLevels of {source.key} apply"
        if chosen is not best:
            reason += f"; the packs of the edition {chosen.key} run"
        choices = [
            VersionChoice(pack=source.key, rules_date=on, candidates=tuple(e.key for e in editions), reason=reason)
        ]
        for key in keys:
            same = tuple(
                dict.fromkeys(
                    k for e in editions for k in self._pinned(e, manifests) if k.split("@")[0] == key.split("@")[0]
                )
            )
            choices.append(
                VersionChoice(
                    pack=key,
                    rules_date=on,
                    candidates=same or (key,),
                    reason=f"coupled by the edition {chosen.key} ({chosen.in_force_text()}) on {on.isoformat()}",
                )
            )
        return Plan(keys, tuple(choices), levels, source.key, tuple(stand_ins), on, chosen.key, len(keys))

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

    def unchecked_for(self, document: Document) -> tuple[str, ...]:
        """The :attr:`unchecked_extensions` the document's spec id claims, in profile order."""
        return tuple(
            rules for known, rules in self.unchecked_extensions.items() if any(known in s for s in document.spec_ids)
        )

    def knows_spec_id(self, document: Document) -> bool:
        """Whether the document's spec id is one this profile is meant for (exact, or by substring)."""
        if self.match == "contains":
            return self.matches(document)
        return any(s in self.spec_ids for s in document.spec_ids)


def _start(manifest: Manifest) -> date:
    return manifest.valid_from or date.min


def _not_installed(keys: list[str], home: Path, why: Detail) -> RulesetError:
    """``ruleset.missing`` for versions in force that nothing installed stands in for (the registry's wording)."""
    return RulesetError("ruleset.missing", Detail("detail.versions-not-installed", keys[0], home, " ".join(keys), why))


def _reason(best: Manifest, on: date, candidates: list[Manifest]) -> str:
    """Why ``best`` is the version in force on ``on``: its dates, and what it replaces, ended or not yet began."""
    reason = f"in force {best.in_force_text()} on {on.isoformat()}"
    replaced = [m.key for m in candidates if m is not best and m.in_force(on)]
    ended = [f"{m.key} until {m.valid_until}" for m in candidates if m.valid_until and m.valid_until < on]
    later = [f"{m.key} from {m.valid_from}" for m in candidates if m.valid_from and m.valid_from > on]
    if replaced:
        reason += f"; replaces {', '.join(replaced)}"
    if ended:
        reason += f"; no longer in force: {', '.join(ended)}"
    if later:
        reason += f"; not yet in force: {', '.join(later)}"
    return reason


@lru_cache(maxsize=4)
def _read_profiles_file(path: Path) -> dict[str, Any]:
    """``profiles.toml`` (or a rules home's own) as TOML, read once for its profiles and its families (5 ms)."""
    return tomllib.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=4)
def load_profiles(path: Path | None = None) -> tuple[Profile, ...]:
    """The profiles in file order."""
    path = path or bundled_dir() / "profiles.toml"
    try:
        raw = _read_profiles_file(path)
        profiles = tuple(Profile.model_validate(p) for p in raw["profile"])
    except (OSError, KeyError, tomllib.TOMLDecodeError, ValidationError) as exc:
        raise RulesetError("ruleset.invalid", Detail("detail.cannot-read-profiles", path, exc)) from exc
    names = [p.name for p in profiles]
    if len(set(names)) != len(names):
        raise RulesetError("ruleset.invalid", f"duplicate profile names in {path}")
    return profiles


class UserProfile(BaseModel):
    """A profile in ``<home>/user/profiles.toml``: an official profile (``extends``) with the user's packs run
    after its own, and optionally narrower documents (``match``/``spec_ids``; the root is the official one's) and
    more severity overrides. User profiles are tried before the official ones, in file order.

    A profile that extends none is a profile of its own, written as an official one is (``root``, ``match``,
    ``spec_ids``, ``xsd``, ``schematron``, ``custom_levels``; ``schematron = []``: the XSD alone), for a document
    type of the bundled syntaxes or of the rules home's own (:func:`.rulesets.user.load_user_syntaxes`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    title: str
    extends: str | None = None
    root: str | None = None
    match: Literal["exact", "contains", "any"] | None = None
    spec_ids: tuple[str, ...] | None = None
    xsd: str | None = None
    schematron: tuple[str, ...] | None = None
    custom_levels: dict[str, Flag] = {}

    @model_validator(mode="after")
    def _layered_or_own(self) -> UserProfile:
        own = {"root": self.root, "xsd": self.xsd}
        if self.extends is not None and any(v is not None for v in own.values()):
            raise ValueError(f"profile {self.name} extends {self.extends}: its root and xsd are the official one's")
        if self.extends is None and (self.root is None or self.xsd is None or self.match is None):
            raise ValueError(f"profile {self.name} extends no profile: it names its root, match, spec_ids and xsd")
        if self.extends is None and self.schematron is None:
            raise ValueError(f"profile {self.name}: name its Schematron packs, or schematron = [] (the XSD alone)")
        return self

    def own(self, syntaxes: Syntaxes) -> Profile:
        """This profile of its own (``extends`` none), its root checked against ``syntaxes``."""
        fields = self.model_dump(exclude_none=True, exclude={"extends"})
        fields.setdefault("spec_ids", ())
        return Profile.model_validate({**fields, "provided_by": "user"}, context={"syntaxes": syntaxes})

    def layered(self, base: Profile) -> Profile:
        return Profile(
            name=self.name,
            title=self.title,
            root=base.root,
            match=self.match or base.match,
            spec_ids=self.spec_ids if self.spec_ids is not None else base.spec_ids,
            xsd=base.xsd,
            schematron=(*base.schematron, *(self.schematron or ())),
            configuration=base.configuration,
            kosit_scenario=base.kosit_scenario,
            verdict=base.verdict,
            envelope=base.envelope,
            unchecked_extensions=base.unchecked_extensions,
            requires=base.requires,
            custom_levels={**base.custom_levels, **self.custom_levels},
            provided_by="user",
            extends=base.name,
        )


def load_user_profiles(home: Path, syntaxes: Syntaxes | None = None) -> tuple[Profile, ...]:
    """The user profiles of the rules home (``<home>/user/profiles.toml``; none when there is no such file),
    each layered on its official profile or a profile of its own (its root one of ``syntaxes``' document types;
    default: the rules home's, :func:`.rulesets.user.load_user_syntaxes`). Unreadable, unknown ``extends`` or
    root, or a clashing name: ``ruleset.invalid``."""
    path = home / "user" / "profiles.toml"
    if not path.is_file():
        return ()
    official = {p.name: p for p in load_profiles()}
    known = syntaxes if syntaxes is not None else load_user_syntaxes(home)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        users = [UserProfile.model_validate(p) for p in raw.get("profile", [])]
        layered = []
        for user in users:
            if user.name in official:
                raise ValueError(f"profile {user.name} has the name of an official profile")
            if user.extends is None:
                layered.append(user.own(known))
                continue
            if user.extends not in official:
                raise ValueError(f"profile {user.name} extends {user.extends}, which is no official profile")
            layered.append(user.layered(official[user.extends]))
    except (OSError, tomllib.TOMLDecodeError, ValidationError, ValueError) as exc:
        raise RulesetError("ruleset.invalid", Detail("detail.cannot-read-user-profiles", path, exc)) from exc
    if len({p.name for p in layered}) != len(layered):
        raise RulesetError("ruleset.invalid", f"duplicate profile names in {path}")
    return tuple(layered)


def all_profiles(home: Path, syntaxes: Syntaxes | None = None) -> tuple[Profile, ...]:
    """The user profiles of ``home`` (tried first; read with ``syntaxes``, default the rules home's), then the
    official ones."""
    return (*load_user_profiles(home, syntaxes), *load_profiles())


def match_profile(document: Document, profiles: tuple[Profile, ...]) -> Profile:
    """The first profile that matches ``document``."""
    for profile in profiles:
        if profile.matches(document):
            return profile
    raise ProfileError(
        "document.unsupported-type", Detail("detail.no-profile", document.document_type), reason="no-profile"
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
        Detail("detail.unknown-profile", name, ", ".join(p.name for p in profiles)),
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
            Detail("detail.profile-mismatch", name, profile.root, document.document_type),
            reason="profile-mismatch",
        )
    return profile


def profile_reason(document: Document, profile: Profile, forced: bool) -> str:
    """Why ``profile`` runs on ``document``, in one English sentence (``Report.profile_reason``): forced by the caller,
    or which specification identifier (BT-24), envelope and French CTC markers matched; a document that carries the
    French markers but got another profile says so; a profile that runs its XSD alone says so."""
    term = document.kind.spec_id_name
    spec = f"{term} '{document.spec_id}'" if document.spec_id is not None else f"no {term}"
    markers = french_markers(document)
    where = " of a document taken out of a PDF" if profile.envelope == "pdf" else ""
    alone = "; this profile runs its XSD alone (no rule pack)" if profile.xsd_only else ""
    if forced:
        found = f"; it carries French CTC markers ({'; '.join(markers)})" if markers else ""
        return f"chosen by the caller ({spec}){found}{alone}"
    if profile.match == "any":
        # with spec_ids: the EN 16931 fallback (any other id gets the note "checked against EN 16931 only")
        what = "the EN 16931 rules" if profile.spec_ids else profile.title
        reason = f"no other profile matches this {document.document_type} document ({spec}): {what}"
    elif profile.match == "exact":
        reason = f"{spec}{where} is one of this profile's specification identifiers"
    else:
        known = next((k for s in document.spec_ids for k in profile.spec_ids if k in s), "")
        reason = f"{spec}{where} contains '{known}'"
    if profile.provided_by == "user":
        reason += f" (a user profile on {profile.extends})" if profile.extends else " (a user profile)"
    if profile.requires == "fr-ctc":
        return f"French CTC invoice: {'; '.join(markers)}; {reason}{alone}"
    if markers:
        reason += (
            f"; it carries French CTC markers ({'; '.join(markers)}), but the French rules apply only to the "
            "specification identifiers the French profiles name (README, France)"
        )
    return reason + alone


class Family(BaseModel):
    """A specification whose profiles a document may claim in a version or form none of them knows (a near miss,
    see the module docstring): ``markers`` are case-insensitive substrings of BT-24 naming it, ``xmp_levels`` the
    PDF XMP ``fx:ConformanceLevel`` values naming it, ``profiles`` the name prefixes of its profiles, and
    ``known_ids`` (families matched by substring) the complete ids whose version its packs are for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    markers: tuple[str, ...]
    xmp_levels: tuple[str, ...] = ()
    profiles: tuple[str, ...]
    known_ids: tuple[str, ...] = ()

    def owns(self, profile: Profile) -> bool:
        name = profile.extends if profile.provided_by == "user" and profile.extends else profile.name
        return name.startswith(self.profiles)

    def named_by(self, document: Document) -> str | None:
        """``"id"`` when BT-24 names this family, the XMP level when only the PDF's XMP metadata does, else None."""
        if any(m.lower() in s.lower() for s in document.spec_ids for m in self.markers):
            return "id"
        level = document.pdf.conformance_level if document.pdf is not None else None
        if level is not None and _norm_level(level) in {_norm_level(x) for x in self.xmp_levels}:
            return level
        return None


@dataclass(frozen=True, slots=True)
class NearMiss:
    """A document claiming ``family`` in a version or form none of its profiles knows: ``closest`` is the family's
    profile for this document type with the most similar specification identifier; ``ran``: it ran all the same
    (substring match, an id the family does not list); ``xmp_level``: only the PDF's XMP metadata named the family."""

    family: Family
    closest: Profile
    ran: bool
    xmp_level: str | None
    verdict: bool
    """Whether a profile of the family gives a verdict (``accepted``): a near miss is then not accepted."""


@lru_cache(maxsize=4)
def load_families(path: Path | None = None) -> tuple[Family, ...]:
    """The families of ``profiles.toml`` (``[[family]]``), in file order."""
    path = path or bundled_dir() / "profiles.toml"
    try:
        raw = _read_profiles_file(path)
        return tuple(Family.model_validate(f) for f in raw.get("family", []))
    except (OSError, tomllib.TOMLDecodeError, ValidationError) as exc:
        raise RulesetError("ruleset.invalid", Detail("detail.cannot-read-families", path, exc)) from exc


def near_miss(
    document: Document, chosen: Profile, profiles: tuple[Profile, ...], families: tuple[Family, ...] | None = None
) -> NearMiss | None:
    """The near miss of ``document``, which got ``chosen`` by matching (not forced), or None (module docstring).
    A family with no profile for the document's type (Peppol CII, CIUS-RO CII) is no near miss: the fallback's
    ``profile.en16931-only`` note stays."""
    for family in load_families() if families is None else families:
        if chosen.match == "any":
            named = family.named_by(document)
            if named is None:
                continue
            candidates = [p for p in profiles if family.owns(p) and p.root == chosen.root and p.match != "any"]
            if not candidates:
                continue
            spec = document.spec_id or ""
            closest = max(candidates, key=lambda p: max(_similar(spec, k) for k in p.spec_ids))
            verdict = any(p.verdict is not None for p in profiles if family.owns(p))
            return NearMiss(family, closest, False, None if named == "id" else named, verdict)
        if (
            family.owns(chosen)
            and family.known_ids
            and chosen.match == "contains"
            and not any(s in family.known_ids for s in document.spec_ids)
        ):
            return NearMiss(family, chosen, True, None, chosen.verdict is not None)
    return None


def _similar(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _norm_level(level: str) -> str:
    return "".join(level.upper().split())
