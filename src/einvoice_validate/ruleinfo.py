"""What one rule is (``einvoice-validate rule ID``): its texts in German and English, its business terms, the
packs and versions that contain it, each with the assertion's test, context and flag as the pack states them, and
the profiles that run it (with their severity overrides).

The texts come from the message catalogue (``rulesets/messages``); the assertions are read from the installed
packs' official stylesheets (the Schematron compiled to XSLT: each ``svrl:failed-assert`` or
``svrl:successful-report`` carries the rule's id, flag and test, and its template the rule's context). Nothing is
compiled or run; only the stylesheets that contain the id are parsed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .findings import severity_of_flag

if TYPE_CHECKING:
    from lxml import etree

    from .messages import Variant
    from .rulesets import Registry

__all__ = ["Assertion", "RuleInfo", "lookup_rule", "rules_matching", "similar_rules"]

_XSL = "{http://www.w3.org/1999/XSL/Transform}"
_SVRL = "{http://purl.oclc.org/dsdl/svrl}"


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
    overrides: tuple[tuple[str, str], ...]
    """Profiles that change the rule's flag (KoSIT ``customLevel``): (profile, new flag)."""
    project: bool = False
    """A finding of einvoice-validate itself (``rulesets/messages/project.toml``), not of a rule pack."""

    @property
    def known(self) -> bool:
        return bool(self.texts or self.assertions)

    def as_json(self) -> dict[str, Any]:
        return {
            "ruleId": self.rule_id,
            "texts": [
                {"en": v.text("en"), "de": v.text("de"), **({"ro": v.ro} if v.ro else {}), "official": v.lang}
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
            "overrides": [{"profile": p, "flag": f} for p, f in self.overrides],
            "project": self.project,
        }

    def text(self, lang: str = "en") -> str:
        """For people: the texts (``lang`` first), terms, then per group of packs stating it alike, the flag,
        context and test; then the profiles."""
        de = lang == "de"
        label = _LABELS["de" if de else "en"]
        lines = [self.rule_id]
        for v in self.texts:
            first, second = ("de", "en") if de else ("en", "de")
            for language in (first, second):
                own = v.lang in (language, f"ro+{language}") and not self.project
                official = " (" + label["official"] + ")" if own else ""
                lines.append(f"  {language}: {_shown(v.text(language))}{official}")  # type: ignore[arg-type]
            if v.ro:
                lines.append(f"  ro: {_shown(v.ro)} ({label['official']})")
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
        for profile, flag in self.overrides:
            lines.append(f"  {label['override'].format(profile, flag, severity_of_flag(flag).value)}")
        return "\n".join(lines) + "\n"


def _shown(template: str | None) -> str:
    """A catalogue template for people: ``…`` where the pack inserts a value of the document."""
    from .messages import PLACEHOLDER

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


def _assertions(registry: Registry, rule_id: str) -> list[Assertion]:
    from lxml import etree

    from .messages import _rule_id, _template
    from .rulesets.prepare import bracketed_id, not_used_id

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    found: list[Assertion] = []
    needle = rule_id.encode("utf-8")
    for pack in sorted(registry.installed(), key=lambda p: (p.manifest.id, p.manifest.version)):
        if pack.manifest.kind != "schematron":
            continue
        try:
            path = pack.entry("stylesheet")
            data = path.read_bytes()
        except (OSError, ValueError):
            continue
        if needle not in data:
            continue
        root = etree.fromstring(data, parser, base_url=str(path))
        seen: set[tuple[str | None, str | None, str | None]] = set()
        for el in root.iter(f"{_SVRL}failed-assert", f"{_SVRL}successful-report"):
            text_el = el.find(f"{_SVRL}text")
            text = _template(text_el) if text_el is not None else ""
            raw = "".join(str(t) for t in text_el.itertext()) if text_el is not None else ""
            rid = not_used_id(_rule_id(el), text) or bracketed_id(raw)
            if rid != rule_id:
                continue
            flag, test, context = _attr(el, "flag"), _attr(el, "test"), _context(el)
            if (flag, test, context) in seen:
                continue
            seen.add((flag, test, context))
            kind: Literal["assert", "report"] = "assert" if el.tag == f"{_SVRL}failed-assert" else "report"
            found.append(Assertion(pack.key, kind, flag, context, test, text))
    return found


def _canonical(rule_id: str) -> str:
    """The id as the catalogue spells it (``br-de-15`` → ``BR-DE-15``), else as given."""
    from .messages import catalogue

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
    from .messages import catalogue, terms_in
    from .profiles import all_profiles

    rule_id = _canonical(rule_id.strip())
    texts = catalogue().variants(rule_id)
    assertions = _assertions(registry, rule_id)
    terms: dict[str, None] = {}
    for v in texts:
        terms.update(dict.fromkeys(v.all_terms()))
    for a in assertions:
        terms.update(dict.fromkeys(terms_in(a.text)))
    xsd_packs: tuple[str, ...] = ()
    if rule_id.startswith("cvc-") and texts:
        xsd_packs = tuple(sorted(p.key for p in registry.installed() if p.manifest.kind == "xsd"))
    containing = {a.pack for a in assertions} | set(xsd_packs)
    profiles: list[tuple[str, tuple[str, ...]]] = []
    overrides: list[tuple[str, str]] = []
    for profile in all_profiles(registry.home):
        keys = (profile.xsd, *profile.candidate_keys(registry.manifests))
        packs = tuple(k for k in keys if k in containing)
        if packs:
            profiles.append((profile.name, packs))
            if rule_id in profile.custom_levels:
                overrides.append((profile.name, profile.custom_levels[rule_id]))
    project = not assertions and rule_id in _project_codes()
    return RuleInfo(
        rule_id, texts, tuple(terms), tuple(assertions), xsd_packs, tuple(profiles), tuple(overrides), project
    )


def _project_codes() -> set[str]:
    import tomllib

    from .messages import CATALOGUE_DIR

    with (CATALOGUE_DIR / "project.toml").open("rb") as fh:
        return set(tomllib.load(fh))


def rules_matching(pattern: str) -> list[tuple[str, str]]:
    """The catalogue's rule ids a selection pattern takes (``BR-DE-``, ``UBL-CR-*``), each with its first English
    text, in natural order."""
    from .messages import catalogue, natural_key
    from .selection import pattern_matches

    found = [(rid, variants) for rid, variants in catalogue().entries.items() if pattern_matches(pattern, rid)]
    return [(rid, variants[0].text("en") or "") for rid, variants in sorted(found, key=lambda e: natural_key(e[0]))]


def similar_rules(rule_id: str, n: int = 3) -> list[str]:
    """Catalogue ids close to ``rule_id`` (a typo's likely meaning)."""
    import difflib

    from .messages import catalogue

    return difflib.get_close_matches(rule_id.upper(), list(catalogue().entries), n=n, cutoff=0.75)
