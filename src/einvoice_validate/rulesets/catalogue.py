"""Writing and checking the message catalogue from the installed packs (the catalogue tools in ``tools/`` and the
tests): the official texts of every Schematron stylesheet, which catalogue file holds a rule, the canonical TOML
form, what a translator must still fix.

The runtime look-up is :mod:`einvoice_validate.messages` (below the rule packs, imported by the engine); this module
sits above the registry and the preparation (it reads installed stylesheets and the ids the preparation assigns).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

from lxml import etree

from .._toml import toml_value
from ..messages import PLACEHOLDER, SAME_TEXT_ALLOWED, Catalogue, Lang, Variant, split_label, terms_in
from .prepare import assigned_id, bracketed_id
from .registry import Registry

__all__ = [
    "NATIONAL_PACKS",
    "Analogy",
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
            texts = {lang: v.text(lang) for lang in ("en", "de", "ro", "fr", "hr")}
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
            terms = {k: sorted(set(terms_in(t))) for k, t in present.items() if k not in ("ro", "fr", "hr")}
            if len({tuple(t) for t in terms.values()}) > 1:
                problems.append(f"{where}: BT/BG ids differ {terms}")
    return problems


# --- the official texts of installed packs (used by tools/catalogue.py and the coverage tests) -------------

_XSL = "{http://www.w3.org/1999/XSL/Transform}"
_SVRL = "{http://purl.oclc.org/dsdl/svrl}"


def template_of(text_el: etree._Element, strip_space: bool = False) -> str:
    """The official template of an SVRL ``text`` element of a stylesheet: its text without the label, with
    ``{1}``, ``{2}``, ... for each ``xsl:value-of``. ``strip_space``: leave out the whitespace-only text between
    instructions, as XSLT does (``'<xsl:text/>`` newline ``<xsl:value-of/>`` writes ``'X``, not ``' X``); the
    catalogue files written before it keep the texts without (their templates match the output either way)."""
    parts: list[str] = []
    counter = [0]

    def text(value: str | None) -> str:
        return "" if value is None or (strip_space and not value.strip()) else value

    def walk(el: etree._Element) -> None:
        parts.append(text(el.text) if el.tag != _XSL + "text" else el.text or "")
        for child in el:
            if child.tag == _XSL + "value-of":
                counter[0] += 1
                parts.append(f"{{{counter[0]}}}")
            elif isinstance(child.tag, str):
                walk(child)
            parts.append(text(child.tail))

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


def _svrl_texts(tree: etree._ElementTree) -> Iterator[tuple[str, str]]:
    """(rule id, template) of each ``svrl:failed-assert`` / ``svrl:successful-report`` a stylesheet writes."""
    for el in tree.iter(_SVRL + "failed-assert", _SVRL + "successful-report"):
        text_el = el.find(_SVRL + "text")
        if text_el is None:
            continue
        # The id the preparation gives an id-less "not used" report or an id-less assertion with a bracketed id
        # (rulesets.prepare, name-not-used-reports, name-bracketed-asserts).
        rid = assigned_id(rule_id_of(el), "".join(str(t) for t in text_el.itertext()))
        if rid is not None:
            yield rid, template_of(text_el)


def _oioubl_texts(tree: etree._ElementTree) -> Iterator[tuple[str, str]]:
    """(rule id, template) of each ``Error`` OIOUBL's stylesheets write: the ``[rule id]`` its ``Description``
    starts with (as :func:`einvoice_validate.schematron.readers.parse_oioubl_errors` reads it)."""
    for el in tree.iter("Error", "Warning"):
        text_el = el.find("Description")
        rid = bracketed_id("".join(str(t) for t in text_el.itertext())) if text_el is not None else None
        if text_el is not None and rid is not None:
            yield rid, template_of(text_el, strip_space=True)


_TEXTS: dict[str, Callable[[etree._ElementTree], Iterator[tuple[str, str]]]] = {
    "svrl": _svrl_texts,
    "oioubl-errors": _oioubl_texts,
}
"""Where a stylesheet writes its rule texts, by the report format it writes (``Manifest.output``)."""


def official_rule_texts(registry: Registry) -> Iterator[tuple[str, str, str]]:
    """(pack key, rule id, official template) for every assert/report of every installed Schematron pack."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    for pack in registry.installed():
        if pack.manifest.kind != "schematron" or pack.manifest.provided_by == "user":
            continue  # user packs carry their own texts (or keep their SVRL text)
        texts = _TEXTS.get(pack.manifest.output)
        if texts is None:
            raise ValueError(f"pack {pack.key}: no reader of the rule texts of output {pack.manifest.output!r}")
        tree = etree.parse(str(pack.entry("stylesheet")), parser)
        seen: set[tuple[str, str]] = set()
        for key in texts(tree):
            if key not in seen:
                seen.add(key)
                yield pack.key, key[0], key[1]


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
    if pack_key.startswith("hr-"):  # HR-CIUS's Croatian rules (issue 42)
        return "hr.toml"
    if pack_key.startswith("pint-"):  # Peppol PINT: the shared and jurisdiction rules, their texts of CEN/Peppol rules
        return "pint.toml"
    if pack_key.startswith("oioubl-"):  # OIOUBL's rules (Denmark, issue 44)
        return "oioubl.toml"
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


# --- filling what is missing from the catalogue itself (tools/catalogue.py fill) -----------------------------

_SLOT = re.compile(
    r"(?P<P>\{\d+\})"
    r"|(?P<Q>'[^']*'|\"[^\"]*\"|“[^”]*”|\u2018[^\u2019]*\u2019|„[^“]*“)"
    r"|(?P<T>\bB[TG]-(?:[Xx]-)?\d+\b)"
    r"|(?P<A>@[A-Za-z_][\w:.-]*)"
    r"|(?P<X>\b[a-z]+:[A-Za-z_][\w.-]*)"
    r"|(?P<C>\b(?:[A-Z]\w* )*[A-Z][a-z0-9]+[A-Z]\w*(?: [A-Z]\w*)*\b)"
    r"|(?P<N>\b\d+(?:[.,]\d+)?\b)"
)
"""The parts of an official text a translation repeats as they are: runtime values (``{1}``), quoted values,
business terms, attributes, prefixed or CamelCase element names (a UBL path of names, which a translation may
join with ``/``), numbers. Two texts that differ only in these have the same *shape*."""

_MARK = re.compile("\x01(.)(.)\x02", re.S)
_NEEDS: dict[str, tuple[str, ...]] = {
    "en": ("de",),
    "de": ("en",),
    "fr": ("en", "de"),
    "hr": ("en", "de"),
    "ro+en": ("de",),
}
"""The texts a variant needs besides its official one, by the official text's language."""


def _shape(text: str) -> tuple[str, tuple[str, ...]]:
    values: list[str] = []

    def slot(m: re.Match[str]) -> str:
        values.append(m.group())
        return f"\0{m.lastgroup}"

    return _SLOT.sub(slot, text), tuple(values)


def _template(translation: str, values: Sequence[str]) -> str | None:
    """``translation`` with each value of its official text marked (index, and how a path's names are joined:
    ``" "``, ``"/"``, or ``"?"`` for a one-word value); None if a value is not in it as it is."""
    out = translation
    for i in sorted(range(len(values)), key=lambda i: -len(values[i])):
        value, first = values[i], chr(0x100 + values.index(values[i]))
        joined = value.replace(" ", "/")
        if value in out:
            out = out.replace(value, f"\x01{first}{' ' if ' ' in value else '?'}\x02")
        elif " " in value and joined in out:
            out = out.replace(joined, f"\x01{first}/\x02")
        elif f"\x01{first}" not in out:
            return None
    return out


def _apply(template: str, values: Sequence[str]) -> str | None:
    unsure = False

    def value(m: re.Match[str]) -> str:
        nonlocal unsure
        text, joiner = values[ord(m.group(1)) - 0x100], m.group(2)
        if " " in text and joiner == "?":  # the donor's name was one word: how a path is joined is not known
            unsure = True
        return text.replace(" ", joiner) if joiner in " /" else text

    out = _MARK.sub(value, template)
    return None if unsure else out


class Analogy:
    """Texts for official texts the catalogue does not translate yet, from the catalogue alone (the one source of
    the project's translations): the same official text elsewhere in the catalogue, else the translations of the
    texts of the same *shape* (:data:`_SLOT`: "Element 'ram:ID' must occur exactly 1 times." and "Element
    'ram:Name' must occur exactly 2 times.") with this text's values put in, when most of them agree on one.
    What neither gives is left to a translator (``tools/catalogue.py fill`` lists it)."""

    def __init__(self, catalogue: Catalogue) -> None:
        self._same: dict[tuple[str, str, str], set[str | tuple[str, ...] | None]] = {}
        self._donors: dict[tuple[str, str, str], list[tuple[str, tuple[str, ...]]]] = {}
        self._words: dict[str, set[str]] = {}
        for variants in catalogue.entries.values():
            for v in variants:
                for name in (*_NEEDS[v.lang], "terms"):
                    self._same.setdefault((v.official, v.lang, name), set()).add(getattr(v, name))
                shape, values = _shape(v.official)
                for name in _NEEDS[v.lang]:
                    text = getattr(v, name)
                    template = _template(text, values) if text else None
                    if template is not None:
                        self._donors.setdefault((shape, v.lang, name), []).append((template, values))
                halves = v.official.partition(" #")[::2] if v.lang == "ro+en" else (v.official,)
                for lang, half in zip(("ro", "en") if v.lang == "ro+en" else (v.lang,), halves, strict=True):
                    self._words.setdefault(lang, set()).update(_prose_words(half))
        everywhere = dict(self._words)
        for lang, words in everywhere.items():  # only the words no other language's official texts have
            self._words[lang] = words.difference(*(w for other, w in everywhere.items() if other != lang))

    def language(self, official: str) -> Lang:
        """The language of a new official text (a ``lang`` of the catalogue), by the words only one language's
        official texts have (outside the values a translation repeats, :data:`_SLOT`: a Croatian text quoting
        ``'urn:cen.eu:en16931:2017#compliant#...'`` is not English); ``ro+en`` for CIUS-RO's "Romanian #English"."""
        words = _prose_words(official)
        score = {lang: len(words & vocabulary) for lang, vocabulary in self._words.items()}
        best = max(sorted(score), key=score.__getitem__, default="en")
        if " #" in official and score.get("ro", 0) > 0:
            return "ro+en"
        return best if best in ("de", "fr", "hr") and score[best] else "en"  # type: ignore[return-value]

    def text(self, official: str, lang: str, name: str) -> str | None:
        """The ``name`` text (``en``, ``de``) of ``official`` (in ``lang``), or None."""
        # A translation may name a business term the official text does not (FNFE-MPE's French rules say which
        # term from their rule id): such a text is no model for another rule's.
        terms = set(terms_in(official))
        same = self._same.get((official, lang, name), set())
        if len(same) == 1 and isinstance(text := next(iter(same)), str) and text and set(terms_in(text)) <= terms:
            return text
        shape, values = _shape(official)
        votes: dict[str, int] = {}
        for template, donor_values in self._donors.get((shape, lang, name), ()):
            out = _apply(template, values) if len(donor_values) == len(values) else None
            if out is not None and set(terms_in(out)) <= terms:
                votes[out] = votes.get(out, 0) + 1
        ranked = sorted(votes.items(), key=lambda kv: -kv[1])
        if not ranked or ranked[0][1] < 2 or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
            return None  # one donor, or a tie: a translator decides
        return ranked[0][0]

    def complete(self, variant: Variant) -> Variant:
        """``variant`` with its empty texts filled where the catalogue knows them (the terms too, where the same
        official text has them)."""
        found: dict[str, str] = {}
        for name in _NEEDS[variant.lang]:
            if not getattr(variant, name):
                text = self.text(variant.official, variant.lang, name)
                if text:
                    found[name] = text
        same = self._same.get((variant.official, variant.lang, "terms"), set())
        terms = variant.terms
        if terms is None and len(same) == 1 and isinstance(known := next(iter(same)), tuple):
            terms = known
        if not found and terms == variant.terms:
            return variant
        return dataclasses.replace(variant, en=found.get("en", variant.en), de=found.get("de", variant.de), terms=terms)

    def new_variant(self, official: str) -> Variant:
        """A catalogue entry for an official text it does not have: its language, its halves (CIUS-RO), empty
        texts for the rest (:meth:`complete` fills what the catalogue knows)."""
        lang = self.language(official)
        empty = {name: "" for name in _NEEDS[lang]}
        ro, _, en = official.partition(" #") if lang == "ro+en" else (None, "", empty.get("en"))
        return Variant(official, lang, en=en.strip() if en else en, de=empty.get("de"), ro=ro.strip() if ro else ro)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]{3,}", text.lower()))


def _prose_words(text: str) -> set[str]:
    """The words of ``text`` outside its values (quoted values, element names, terms: :data:`_SLOT`), which are
    in no one language."""
    return _words(_SLOT.sub(" ", text))
