"""What one rule is (``einvoice-validate rule ID``): its texts in German and English (and the pack's own French or
Romanian), its business terms, the packs and versions that contain it, each with the assertion's test, context and
flag as the pack states them, and the profiles that run it (with their severity overrides).

A rule may have one id per business term and syntax, its name followed by ``_`` (the French ``BR-FR-01`` is
``BR-FR-01_BT-1``, ``BR-FR-01_BT-25``, ...): :func:`rule_ids_of` gives them.

The texts come from the message catalogue (``rulesets/messages``); the assertions are read from the installed
packs' official stylesheets (the Schematron compiled to XSLT: each ``svrl:failed-assert`` or
``svrl:successful-report`` carries the rule's id, flag and test, and its template the rule's context). Nothing is
compiled or run; only the stylesheets that contain the id are parsed.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from lxml import etree

from .errors import EInvoiceValidateError
from .findings import severity_of_flag
from .messages import CATALOGUE_DIR, PLACEHOLDER, catalogue, natural_key, terms_in
from .profiles import all_profiles
from .rulesets.catalogue import rule_id_of, template_of
from .rulesets.prepare import assigned_id
from .selection import pattern_matches

if TYPE_CHECKING:
    from .messages import Variant
    from .profiles import Profile
    from .rulesets import Registry

__all__ = ["Assertion", "RuleInfo", "lookup_rule", "lookup_rules", "rule_ids_of", "rules_matching", "similar_rules"]

_XSL = "{http://www.w3.org/1999/XSL/Transform}"
_SVRL = "{http://purl.oclc.org/dsdl/svrl}"
_OWN_LANGUAGES: tuple[Literal["fr", "ro", "hr"], ...] = ("fr", "ro", "hr")
"""Languages a pack may state its rules in besides German and English, shown after them where it does."""


@dataclass(frozen=True, slots=True)
class Assertion:
    """The rule as one pack version states it."""

    pack: str
    """``id@version``"""
    kind: Literal["assert", "report"]
    flag: str | None
    context: str | None
    test: str | None
    text: str
    """The pack's own text (without its ``[ID]-`` label; ``{1}`` where the stylesheet inserts a value)."""


@dataclass(frozen=True, slots=True)
class RuleInfo:
    rule_id: str
    texts: tuple[Variant, ...]
    """The catalogue's entries for the id: one per distinct official text (packs and versions may differ)."""
    terms: tuple[str, ...]
    assertions: tuple[Assertion, ...]
    xsd_packs: tuple[str, ...]
    """For an XSD rule (``cvc-…``): the installed XSD packs, whose schemas libxml2 checks with it."""
    profiles: tuple[tuple[str, tuple[str, ...]], ...]
    """The profiles that may run a pack containing the rule, with those packs."""
    overrides: tuple[tuple[str, str, str | None], ...]
    """Profiles that change the rule's flag: (profile, new flag, the configuration whose scenario sets it (KoSIT
    ``customLevel``), or None: the profile itself)."""
    project: bool = False
    """A finding of einvoice-validate itself (``rulesets/messages/project.toml``), not of a rule pack."""

    @property
    def known(self) -> bool:
        return bool(self.texts or self.assertions)

    def as_json(self) -> dict[str, Any]:
        return {
            "ruleId": self.rule_id,
            "texts": [
                {
                    "en": v.text("en"),
                    "de": v.text("de"),
                    **{code: text for code in _OWN_LANGUAGES if (text := v.text(code))},
                    "official": v.lang,
                }
                for v in self.texts
            ],
            "terms": list(self.terms),
            "packs": [
                {
                    "pack": a.pack,
                    "kind": a.kind,
                    "flag": a.flag,
                    "severity": severity_of_flag(a.flag).value,
                    "context": a.context,
                    "test": a.test,
                    "text": a.text,
                }
                for a in self.assertions
            ],
            "xsdPacks": list(self.xsd_packs),
            "profiles": [{"profile": p, "packs": list(k)} for p, k in self.profiles],
            "overrides": [{"profile": p, "flag": f, "configuration": c} for p, f, c in self.overrides],
            "project": self.project,
        }

    def text(self, lang: str = "en") -> str:
        """For people: the texts (``lang`` first, then the other of English and German, then the pack's own French
        or Romanian), terms, then per group of packs stating it alike, the flag, context and test; then the
        profiles."""
        de = lang == "de"
        label = _LABELS["de" if de else "en"]
        lines = [self.rule_id]
        for v in self.texts:
            first, second = ("de", "en") if de else ("en", "de")
            for language in (first, second):
                own = v.lang in (language, f"ro+{language}") and not self.project
                official = " (" + label["official"] + ")" if own else ""
                lines.append(f"  {language}: {_shown(v.text(language))}{official}")  # type: ignore[arg-type]
            for code in _OWN_LANGUAGES:
                if own_text := v.text(code):
                    lines.append(f"  {code}: {_shown(own_text)} ({label['official']})")
        if self.project:
            lines.append(label["project"])
        if self.terms:
            lines.append(f"{label['terms']}: {', '.join(self.terms)}")
        groups: dict[tuple[str, str | None, str | None, str | None], list[str]] = {}
        for a in self.assertions:
            groups.setdefault((a.kind, a.flag, a.context, a.test), []).append(a.pack)
        if groups:
            lines.append(f"{label['packs']}:")
        for (kind, flag, context, test), packs in groups.items():
            severity = severity_of_flag(flag).value
            lines.append(f"  {', '.join(packs)}: {kind}, flag {flag or '-'} ({severity})")
            lines.append(f"    {label['context']}: {context or '-'}")
            lines.append(f"    {label['test']}: {test or '-'}")
        if self.xsd_packs:
            lines.append(f"{label['xsd']}: {', '.join(self.xsd_packs)}")
        if self.profiles:
            lines.append(f"{label['profiles']}: {', '.join(p for p, _ in self.profiles)}")
        for profile, flag, configuration in self.overrides:
            by = f" ({label['by']} {configuration})" if configuration else ""
            lines.append(f"  {label['override'].format(profile, flag, severity_of_flag(flag).value)}{by}")
        return "\n".join(lines) + "\n"


def _shown(template: str | None) -> str:
    """A catalogue template for people: ``…`` where the pack inserts a value of the document."""
    return PLACEHOLDER.sub("…", template or "")


_LABELS = {
    "en": {
        "official": "the pack's text",
        "terms": "business terms",
        "packs": "packs",
        "context": "context",
        "test": "test",
        "xsd": "XSD rule (libxml2 checks the schemas of)",
        "profiles": "profiles",
        "override": "{}: flag set to {} ({})",
        "by": "scenario of",
        "project": "a finding of einvoice-validate itself, not of a rule pack (rulesets/messages/project.toml)",
    },
    "de": {
        "official": "Text des Regelwerks",
        "terms": "Geschäftsbegriffe",
        "packs": "Regelwerke",
        "context": "Kontext",
        "test": "Test",
        "xsd": "XSD-Regel (libxml2 prüft die Schemata von)",
        "profiles": "Profile",
        "override": "{}: Flag auf {} gesetzt ({})",
        "by": "Szenario von",
        "project": "ein Befund von einvoice-validate selbst, nicht eines Regelwerks (rulesets/messages/project.toml)",
    },
}


def _attr(el: etree._Element, name: str) -> str | None:
    """An attribute as the stylesheet writes it: literal, or an ``xsl:attribute`` child (ISO skeleton)."""
    value = el.get(name)
    if value is not None:
        return value
    attr = el.find(f"{_XSL}attribute[@name='{name}']")
    if attr is None:
        return None
    return " ".join("".join(str(t) for t in attr.itertext()).split()) or None


def _context(el: etree._Element) -> str | None:
    """The rule's context: the ``svrl:fired-rule`` of the assertion's template, else the template's match."""
    template = next((a for a in el.iterancestors(f"{_XSL}template")), None)
    if template is None:
        return None
    fired = next(template.iter(f"{_SVRL}fired-rule"), None)
    context = _attr(fired, "context") if fired is not None else None
    return context or template.get("match")


def _assertions(registry: Registry, rule_ids: Sequence[str]) -> dict[str, list[Assertion]]:
    """Each rule's assertions in the installed Schematron packs (every stylesheet that holds one of the ids is
    parsed once)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    found: dict[str, list[Assertion]] = {rid: [] for rid in rule_ids}
    needles = [rid.encode("utf-8") for rid in rule_ids]
    for pack in sorted(registry.installed(), key=lambda p: (p.manifest.id, p.manifest.version)):
        if pack.manifest.kind != "schematron":
            continue
        try:
            path = pack.entry("stylesheet")
            data = path.read_bytes()
        except (OSError, ValueError):
            continue
        if not any(needle in data for needle in needles):
            continue
        root = etree.fromstring(data, parser, base_url=str(path))
        seen: set[tuple[str, str | None, str | None, str | None]] = set()
        for el in root.iter(f"{_SVRL}failed-assert", f"{_SVRL}successful-report"):
            text_el = el.find(f"{_SVRL}text")
            raw = "".join(str(t) for t in text_el.itertext()) if text_el is not None else ""
            rid = assigned_id(rule_id_of(el), raw)  # as the preparation names id-less assertions
            if rid not in found:
                continue
            flag, test, context = _attr(el, "flag"), _attr(el, "test"), _context(el)
            if (rid, flag, test, context) in seen:
                continue
            seen.add((rid, flag, test, context))
            kind: Literal["assert", "report"] = "assert" if el.tag == f"{_SVRL}failed-assert" else "report"
            text = template_of(text_el) if text_el is not None else ""
            found[rid].append(Assertion(pack.key, kind, flag, context, test, text))
    return found


def _canonical(rule_id: str) -> str:
    """The id as the catalogue spells it (``br-de-15`` → ``BR-DE-15``), else as given."""
    cat = catalogue()
    if cat.variants(rule_id):
        return rule_id
    folded = rule_id.casefold()
    for known in cat.entries:
        if known.casefold() == folded:
            return known
    return rule_id


def lookup_rule(rule_id: str, registry: Registry) -> RuleInfo:
    """Everything known about ``rule_id`` (case-insensitive) in the catalogue and the installed packs."""
    return lookup_rules([rule_id], registry)[0]


def lookup_rules(rule_ids: Sequence[str], registry: Registry) -> list[RuleInfo]:
    """:func:`lookup_rule` for several ids, reading each pack once."""
    ids = [_canonical(rid.strip()) for rid in rule_ids]
    found = _assertions(registry, ids)
    profiles = all_profiles(registry.home)
    levels = _custom_levels(profiles, registry)
    xsd_installed = tuple(sorted(p.key for p in registry.installed() if p.manifest.kind == "xsd"))
    project_codes = _project_codes()
    infos = []
    for rule_id in ids:
        texts = catalogue().variants(rule_id)
        assertions = found[rule_id]
        terms: dict[str, None] = {}
        for v in texts:
            terms.update(dict.fromkeys(v.all_terms()))
        for a in assertions:
            terms.update(dict.fromkeys(terms_in(a.text)))
        xsd_packs = xsd_installed if rule_id.startswith("cvc-") and texts else ()
        containing = {a.pack for a in assertions} | set(xsd_packs)
        runs: list[tuple[str, tuple[str, ...]]] = []
        overrides: list[tuple[str, str, str | None]] = []
        for profile in profiles:
            keys = (profile.xsd, *profile.candidate_keys(registry.manifests))
            packs = tuple(k for k in keys if k in containing)
            if packs:
                runs.append((profile.name, packs))
                overrides += [(profile.name, flag, by) for by, flag in levels[profile.name].get(rule_id, ())]
        project = not assertions and rule_id in project_codes
        infos.append(
            RuleInfo(rule_id, texts, tuple(terms), tuple(assertions), xsd_packs, tuple(runs), tuple(overrides), project)
        )
    return infos


def _custom_levels(
    profiles: Sequence[Profile], registry: Registry
) -> dict[str, dict[str, list[tuple[str | None, str]]]]:
    """Per profile and rule id, the flags set: by the profile itself (None) and by the scenario of each installed
    configuration (KoSIT ``customLevel``; the configuration's key)."""
    installed = {p.key for p in registry.installed()}
    levels: dict[str, dict[str, list[tuple[str | None, str]]]] = {}
    for profile in profiles:
        by_rule = levels[profile.name] = {}
        for edition in profile.editions(registry.manifests):
            if edition.key not in installed:
                continue
            try:
                scenario = registry.scenarios(edition.key).get(str(profile.kosit_scenario))
            except EInvoiceValidateError:
                continue  # a damaged configuration: `rulesets verify` says so
            for rid, flag in (scenario.custom_levels if scenario is not None else {}).items():
                by_rule.setdefault(rid, []).append((edition.key, flag))
        for rid, flag in profile.custom_levels.items():
            by_rule.setdefault(rid, []).append((None, flag))
    return levels


def _project_codes() -> set[str]:
    with (CATALOGUE_DIR / "project.toml").open("rb") as fh:
        return set(tomllib.load(fh))


def rule_ids_of(name: str) -> list[str]:
    """The catalogue's ids of a rule stated once per business term or syntax, its name followed by ``_``
    (``BR-FR-01`` → ``BR-FR-01_BT-1``, ``BR-FR-01_BT-25``, ...; ``BR-RO-020`` → ``BR-RO-020_1``, ...), in natural
    order; none for a name that is itself an id or has no such ids."""
    prefix = name.strip().casefold() + "_"
    return sorted((rid for rid in catalogue().entries if rid.casefold().startswith(prefix)), key=natural_key)


def rules_matching(pattern: str) -> list[tuple[str, str]]:
    """The catalogue's rule ids a selection pattern takes (``BR-DE-``, ``UBL-CR-*``), each with its first English
    text, in natural order."""
    found = [(rid, variants) for rid, variants in catalogue().entries.items() if pattern_matches(pattern, rid)]
    return [(rid, variants[0].text("en") or "") for rid, variants in sorted(found, key=lambda e: natural_key(e[0]))]


def similar_rules(rule_id: str, n: int = 3) -> list[str]:
    """Catalogue ids close to ``rule_id`` (a typo's likely meaning)."""
    return difflib.get_close_matches(rule_id.upper(), list(catalogue().entries), n=n, cutoff=0.75)
