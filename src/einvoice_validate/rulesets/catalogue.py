"""Writing and checking the message catalogue from the installed packs (the catalogue tools in ``tools/`` and the
tests): the official texts of every Schematron stylesheet, which catalogue file holds a rule, the canonical TOML
form, what a translator must still fix.

The runtime look-up is :mod:`einvoice_validate.messages` (below the rule packs, imported by the engine); this module
sits above the registry and the preparation (it reads installed stylesheets and the ids the preparation assigns).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from lxml import etree

from .._toml import toml_value
from ..messages import PLACEHOLDER, SAME_TEXT_ALLOWED, Catalogue, Variant, split_label, terms_in
from .prepare import assigned_id
from .registry import Registry

__all__ = [
    "NATIONAL_PACKS",
    "catalogue_problems",
    "family_file",
    "official_rule_texts",
    "rule_id_of",
    "template_of",
    "write_catalogue_file",
]


def catalogue_problems(cat: Catalogue) -> list[str]:
    """What a translator must still fix: empty texts, a German text equal to the English one, placeholders or
    BT/BG ids that differ between the languages. The test suite and ``tools/catalogue.py lint`` use this."""
    problems = []
    for rule_id, variants in cat.entries.items():
        for v in variants:
            texts = {lang: v.text(lang) for lang in ("en", "de", "ro", "fr")}
            where = f"{rule_id} ({v.official[:50]}...)"
            for lang in ("en", "de"):
                if not (texts[lang] or "").strip():
                    problems.append(f"{where}: no {lang} text")
            if v.lang == "ro+en" and not (v.ro or "").strip():
                problems.append(f"{where}: no ro text")
            present = {k: t for k, t in texts.items() if t}
            if present.get("en") and present.get("en") == present.get("de") and rule_id not in SAME_TEXT_ALLOWED:
                problems.append(f"{where}: de equals en")
            holders = {k: sorted(set(PLACEHOLDER.findall(t))) for k, t in present.items()}
            if len({tuple(h) for h in holders.values()}) > 1:
                problems.append(f"{where}: placeholders differ {holders}")
            # BT/BG ids: en and de must name the same ones (CIUS-RO's two halves sometimes differ upstream)
            terms = {k: sorted(set(terms_in(t))) for k, t in present.items() if k not in ("ro", "fr")}
            if len({tuple(t) for t in terms.values()}) > 1:
                problems.append(f"{where}: BT/BG ids differ {terms}")
    return problems


# --- the official texts of installed packs (used by tools/catalogue.py and the coverage tests) -------------

_XSL = "{http://www.w3.org/1999/XSL/Transform}"
_SVRL = "{http://purl.oclc.org/dsdl/svrl}"


def template_of(text_el: etree._Element) -> str:
    """The official template of an SVRL ``text`` element of a stylesheet: its text without the label, with
    ``{1}``, ``{2}``, ... for each ``xsl:value-of``."""
    parts: list[str] = []
    counter = [0]

    def walk(el: etree._Element) -> None:
        parts.append(el.text or "")
        for child in el:
            if child.tag == _XSL + "value-of":
                counter[0] += 1
                parts.append(f"{{{counter[0]}}}")
            elif isinstance(child.tag, str):
                walk(child)
            parts.append(child.tail or "")

    walk(text_el)
    return split_label("".join(parts))


def rule_id_of(el: etree._Element) -> str | None:
    """The rule id a stylesheet's ``failed-assert`` / ``successful-report`` writes (its ``id`` attribute, literal or
    built with ``xsl:attribute``), or None."""
    rid = el.get("id")
    if rid is None:
        attr = el.find(_XSL + "attribute[@name='id']")
        rid = "".join(str(t) for t in attr.itertext()).strip() if attr is not None else None
    return rid


def official_rule_texts(registry: Registry) -> Iterator[tuple[str, str, str]]:
    """(pack key, rule id, official template) for every assert/report of every installed Schematron pack."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    for pack in registry.installed():
        if pack.manifest.kind != "schematron" or pack.manifest.provided_by == "user":
            continue  # user packs carry their own texts (or keep their SVRL text)
        tree = etree.parse(str(pack.entry("stylesheet")), parser)
        seen: set[tuple[str, str]] = set()
        for el in tree.iter(_SVRL + "failed-assert", _SVRL + "successful-report"):
            text_el = el.find(_SVRL + "text")
            if text_el is None:
                continue
            template = template_of(text_el)
            # The id the preparation gives an id-less "not used" report or an id-less assertion with a bracketed id
            # (rulesets.prepare, name-not-used-reports, name-bracketed-asserts).
            rid = assigned_id(rule_id_of(el), "".join(str(t) for t in text_el.itertext()))
            if rid is None:
                continue
            key = (rid, template)
            if key not in seen:
                seen.add(key)
                yield pack.key, rid, key[1]


_FAMILIES: tuple[tuple[str, str], ...] = (
    (r"^BR-(S|Z|E|AE|IC|G|O|AF|AG|IP|IG|B)-", "en16931-vat.toml"),
    (r"^(UBL|CII)-(SR|CR|DT)-", "en16931-syntax.toml"),
    (r"^BR-(RO|DEC-RO)", "cius-ro.toml"),
    (r"^(BR-DE-|BR-DEX-|BR-TMP-|PEPPOL-)", "xrechnung.toml"),
    (r"^BR-", "en16931-business.toml"),
)


NATIONAL_PACKS = ("ubl-be@", "si-ubl@", "nlcius-cii@", "cius-pt@")
"""The national CIUS packs (issue 22), as key prefixes: their texts not found elsewhere are in ``national.toml``."""


def family_file(rule_id: str, pack_key: str) -> str:
    """Which catalogue file holds a rule's entries (CIUS-RO's own texts of CEN rules go to ``cius-ro.toml``)."""
    if pack_key.startswith(NATIONAL_PACKS):  # also their own texts of CEN, UBL and Peppol rules
        return "national.toml"
    if pack_key.startswith("cius-ro") and not rule_id.startswith(("UBL-", "CII-")):
        return "cius-ro.toml"
    if pack_key.startswith("peppol-bis") and not rule_id.startswith(("BR-", "UBL-", "CII-")):
        return "peppol.toml"  # the Peppol rules and their national rules (Peppol's texts of PEPPOL-* ids too)
    if pack_key.startswith("zugferd-"):  # the Factur-X packs' own texts, also of the EN 16931 rules they restate
        return "facturx.toml"
    if pack_key.startswith("fr-"):  # FNFE-MPE's French rules, and their texts of the CEN / Factur-X rules they copy
        return "france.toml"
    for pattern, name in _FAMILIES:
        if re.match(pattern, rule_id):
            return name
    return "other.toml"


def write_catalogue_file(path: Path, entries: Mapping[str, Sequence[Variant]]) -> None:
    """Write entries in the canonical form (``[[ID]]`` tables, fields in a fixed order)."""
    lines = [
        f"# Message catalogue: {path.stem}. Written by the project; format in src/einvoice_validate/messages.py.",
        "",
    ]
    for rule_id, variants in entries.items():
        for v in variants:
            key = rule_id if re.fullmatch(r"[A-Za-z0-9_-]+", rule_id) else toml_value(rule_id)
            lines.append(f"[[{key}]]")
            lines.append(f"official = {toml_value(v.official)}")
            if v.lang != "en":
                lines.append(f"lang = {toml_value(v.lang)}")
            for name in ("ro", "en", "de"):
                value = getattr(v, name)
                if value is not None:
                    lines.append(f"{name} = {toml_value(value)}")
            if v.terms is not None:
                lines.append(f"terms = {toml_value(v.terms)}")
            lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
