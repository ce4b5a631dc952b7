"""The message catalogue: every rule's text in English and German (Romanian too for CIUS-RO, French for FNFE-MPE's
French rules, Croatian for the Tax Administration's HR-CIUS rules), and its terms.

The catalogue is data written by the project, ``rulesets/messages/*.toml`` (one file per rule family). Per rule
id it holds one entry per distinct official text ("variant": the same id can say different things in CEN 1.3.15,
1.3.16 and the CIUS-RO copy)::

    [[BR-01]]
    official = "An Invoice shall have a Specification identifier (BT-24)."
    de = "Eine Rechnung muss eine Spezifikationskennung (BT-24) enthalten."

``official`` is the pack's text without its leading ``[rule-id]-`` (or ``[rule-id] :``) label, whitespace
normalised, with ``{1}``, ``{2}``, ... where the stylesheet inserts runtime values (``xsl:value-of``). ``lang`` says
which language the official text is in: ``en`` (default; ``en`` is then the official text), ``de`` (XRechnung writes
some rules in German; ``de`` is then the official text and ``en`` is ours), ``ro+en`` (CIUS-RO's "Romanian
#English"; ``ro`` and ``en`` are its two halves), ``fr`` (FNFE-MPE's French rules: the official text is the
finding's ``fr``, ``en`` and ``de`` are ours) or ``hr`` (HR-CIUS's Croatian rules, likewise: the finding's ``hr``).
``terms`` (optional) overrides the BT/BG ids read from the texts (HR-CIUS's entries also name its ``HR-BT-*`` terms).

At validation time :meth:`Catalogue.render` finds the variant whose official text matches the text the pack
produced, takes the runtime values out of it and puts them into the other languages. The catalogue never invents
a rule id: findings keep the id the pack gave.

This module is the runtime look-up only (it imports nothing of the package but the ``Message`` model and where the
bundled data lies); writing and checking the catalogue from the installed packs' stylesheets is
:mod:`einvoice_validate.rulesets.catalogue` (the catalogue tools in ``tools/`` and the tests).
"""

from __future__ import annotations

import re
import threading
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ._bundled import bundled_dir
from .findings import Message

__all__ = [
    "CATALOGUE_DIR",
    "PLACEHOLDER",
    "SAME_TEXT_ALLOWED",
    "Catalogue",
    "Rendered",
    "Variant",
    "catalogue",
    "load_catalogue",
    "natural_key",
    "split_label",
    "terms_in",
]

CATALOGUE_DIR = bundled_dir() / "messages"

Lang = Literal["en", "de", "ro+en", "fr", "hr"]

_LABEL = re.compile(r"^\s*\[[^\]]*\]\s*[-:]?\s*")
PLACEHOLDER = re.compile(r"\{(\d+)\}")
_TERM = re.compile(r"(?<![\w-])B[TG]-\d+\b")  # not the BT-2 in HR-BT-2 (an HR-CIUS term)

SAME_TEXT_ALLOWED: frozenset[str] = frozenset()
"""Rule ids whose German text may equal the English one (none so far: every text has a German form)."""


def split_label(text: str) -> str:
    """The official text without its leading ``[BR-01]-`` (or ``[BR-FR-01/BT-1] :``) label, whitespace normalised."""
    return " ".join(_LABEL.sub("", text, count=1).split())


def terms_in(*texts: str) -> tuple[str, ...]:
    """The BT/BG ids named in ``texts``, in order of first appearance."""
    seen: dict[str, None] = {}
    for text in texts:
        for term in _TERM.findall(text):
            seen.setdefault(term, None)
    return tuple(seen)


def natural_key(rule_id: str) -> tuple[tuple[int, str], ...]:
    """Sort key that puts BR-2 before BR-10."""
    return tuple((int(p), "") if p.isdigit() else (-1, p) for p in re.split(r"(\d+)", rule_id) if p)


def _literal_pattern(literal: str) -> str:
    words = literal.split()
    if not words:
        return r"\s*"
    inner = r"\s+".join(re.escape(w) for w in words)
    lead = r"\s*" if literal[:1].isspace() else ""
    trail = r"\s*" if literal[-1:].isspace() else ""
    return lead + inner + trail


@dataclass(frozen=True, slots=True)
class Variant:
    """One official text of a rule and the project's texts for it."""

    official: str
    lang: Lang = "en"
    en: str | None = None
    de: str | None = None
    ro: str | None = None
    terms: tuple[str, ...] | None = None
    _regex: list[re.Pattern[str]] = field(default_factory=list, compare=False, repr=False)

    def text(self, language: Literal["en", "de", "ro", "fr", "hr"]) -> str | None:
        """The template in ``language`` (the official text where that is the official language)."""
        if language == "en":
            return self.official if self.lang == "en" else self.en
        if language == "de":
            return self.official if self.lang == "de" else self.de
        if language in ("fr", "hr"):
            return self.official if self.lang == language else None
        return self.ro

    @property
    def placeholders(self) -> int:
        return len(PLACEHOLDER.findall(self.official))

    def all_terms(self) -> tuple[str, ...]:
        if self.terms is not None:
            return self.terms
        return terms_in(self.official, self.en or "", self.de or "")

    def match(self, text: str) -> tuple[str, ...] | None:
        """The runtime values if ``text`` (label already removed) is this variant's official text, else None."""
        if not self._regex:
            parts = PLACEHOLDER.split(self.official)
            pattern = "".join(_literal_pattern(part) if i % 2 == 0 else "(.*?)" for i, part in enumerate(parts))
            self._regex.append(re.compile(pattern, re.S))
        m = self._regex[0].fullmatch(text)
        if m is None:
            return None
        order = [int(n) for n in PLACEHOLDER.findall(self.official)]
        values = [""] * (max(order) if order else 0)
        for number, value in zip(order, m.groups(), strict=True):
            values[number - 1] = value.strip()
        return tuple(values)


def fill(template: str, values: Sequence[str], *, fold: bool = True) -> str:
    """Put runtime values into ``{n}`` placeholders; a missing value becomes empty. ``fold``: white space runs become
    one space (a rule's text; an error's detail keeps its values as they are)."""

    def value(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return values[n - 1] if 0 < n <= len(values) else ""

    text = PLACEHOLDER.sub(value, template)
    return " ".join(text.split()) if fold else text


_RENDERED = 4096
"""The most rendered texts a catalogue keeps (:meth:`Catalogue.render`)."""


@dataclass(frozen=True, slots=True)
class Rendered:
    message: Message
    terms: tuple[str, ...]
    variant: Variant | None
    """The catalogue entry used; None when the text is unknown and the official text stands in every language."""


class Catalogue:
    """Rule id → its variants. Read-only once built.

    Built from the TOML files, each read only when a rule id it holds is first asked for (:meth:`variants`): a
    fresh process that reports XRechnung findings reads ``xrechnung.toml`` (30 KB), not the whole catalogue
    (480 KB of TOML, 0.1 s). :attr:`entries` reads every file; the variants of an id are in file order either way.
    """

    __slots__ = ("_entries", "_files", "_index", "_lock", "_parsed", "_rendered")

    def __init__(self, entries: dict[str, tuple[Variant, ...]] | None = None, files: Sequence[Path] = ()) -> None:
        self._entries: dict[str, tuple[Variant, ...]] = dict(entries or {})
        self._files = list(files)
        self._parsed: dict[Path, dict[str, list[Variant]]] = {}
        self._index: dict[str, list[Path]] = {}
        for path in self._files:  # which ids each file holds: its table headers, without parsing it
            for found in _HEADER.finditer("\n" + path.read_text(encoding="utf-8")):
                paths = self._index.setdefault(found.group(1), [])
                if path not in paths:  # an id may have several entries ([[ID]] tables) in one file
                    paths.append(path)
        self._lock = threading.Lock()
        self._rendered: dict[tuple[str, str], Rendered] = {}  # render()'s results (frozen), at most _RENDERED

    @property
    def entries(self) -> dict[str, tuple[Variant, ...]]:
        """Every rule id with its variants (reads every file not read yet)."""
        for rule_id in list(self._index):
            self.variants(rule_id)
        return self._entries

    def variants(self, rule_id: str) -> tuple[Variant, ...]:
        found = self._entries.get(rule_id)
        if found is not None or rule_id not in self._index:
            return found or ()
        with self._lock:
            variants: list[Variant] = []
            for path in self._index[rule_id]:
                variants.extend(self._read(path).get(rule_id, ()))
            found = self._entries[rule_id] = tuple(variants)
        return found

    def _read(self, path: Path) -> dict[str, list[Variant]]:
        parsed = self._parsed.get(path)
        if parsed is None:
            parsed = self._parsed[path] = _read_file(path)
        return parsed

    def variant_for_official(self, rule_id: str, official: str) -> Variant | None:
        """The variant whose official template is exactly ``official`` (the catalogue tools and tests)."""
        for variant in self.variants(rule_id):
            if variant.official == official:
                return variant
        return None

    def render(self, rule_id: str, text: str) -> Rendered:
        """The finding message for the text a pack produced for ``rule_id``.

        A text the catalogue does not know (a pack newer than the catalogue) keeps the official text in every
        language, so a finding is never lost or mistranslated; the catalogue tests make that case visible.

        Kept per rule id and text (a document failing one rule on thousands of lines renders it once): the result
        is frozen, the same for the same text."""
        key = (rule_id, text)
        done = self._rendered.get(key)
        if done is None:
            done = self._render(rule_id, text)
            if len(self._rendered) >= _RENDERED:
                self._rendered.clear()  # (texts holding values are many: a bound, not a history)
            self._rendered[key] = done
        return done

    def _render(self, rule_id: str, text: str) -> Rendered:
        body = split_label(text)
        for variant in self.variants(rule_id):
            values = variant.match(body)
            if values is None:
                continue
            en = variant.text("en")
            de = variant.text("de")
            ro = variant.text("ro")
            fr = variant.text("fr")
            hr = variant.text("hr")
            if en and de:
                return Rendered(
                    Message(
                        en=fill(en, values),
                        de=fill(de, values),
                        ro=fill(ro, values) if ro else None,
                        fr=fill(fr, values) if fr else None,
                        hr=fill(hr, values) if hr else None,
                    ),
                    variant.all_terms(),
                    variant,
                )
        return Rendered(Message(en=body, de=body), terms_in(body), None)

    def render_code(
        self, code: str, values: Sequence[str] = (), variant: int = 0, *, de_values: Sequence[str] | None = None
    ) -> Message:
        """The message of one of the project's own codes (``rulesets/messages/project.toml``), or of an error's
        detail (``errors.toml``: ``de_values``, the values in German where they differ, and kept as they are)."""
        variants = self.variants(code)
        if len(variants) <= variant:
            raise KeyError(f"{code} has no catalogue entry {variant}")
        v, fold = variants[variant], de_values is None
        en = fill(v.text("en") or "", values, fold=fold)
        return Message(en=en, de=fill(v.text("de") or "", values if fold else de_values or (), fold=fold))


def _variant(rule_id: str, raw: Mapping[str, object]) -> Variant:
    unknown = set(raw) - {"official", "lang", "en", "de", "ro", "terms"}
    if unknown:
        raise ValueError(f"{rule_id}: unknown fields {sorted(unknown)}")
    lang = raw.get("lang", "en")
    if lang not in ("en", "de", "ro+en", "fr", "hr"):
        raise ValueError(f"{rule_id}: lang must be en, de, ro+en, fr or hr, not {lang!r}")
    terms = raw.get("terms")

    def text(name: str) -> str | None:
        value = raw.get(name)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{rule_id}: {name} must be a string")
        return value

    official = text("official")
    if official is None:
        raise ValueError(f"{rule_id}: every entry needs its official text")
    return Variant(
        official=official,
        lang=lang,
        en=text("en"),
        de=text("de"),
        ro=text("ro"),
        terms=tuple(str(t) for t in terms) if isinstance(terms, list) else None,
    )


# The table headers: [[ID]] or [["ID"]] (ids with dots are quoted), or single [ID]
# A table header on a line of its own, found after a newline (read with one prepended): a pattern that starts with
# a literal is searched for as one (a third of the time of ``^`` in MULTILINE mode, tried at every character).
_HEADER = re.compile(r'\n\[\[?"?([^\[\]"\n]+)"?\]\]?[ \t\r]*(?=\n|$)')


def _read_file(path: Path) -> dict[str, list[Variant]]:
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    entries: dict[str, list[Variant]] = {}
    for rule_id, raw in data.items():
        items = raw if isinstance(raw, list) else [raw]
        try:
            entries.setdefault(rule_id, []).extend(_variant(rule_id, item) for item in items)
        except ValueError as exc:
            raise ValueError(f"{path.name}: {exc}") from exc
    return entries


def load_catalogue(paths: Iterable[Path] | None = None) -> Catalogue:
    """Read catalogue files (default: every ``*.toml`` in :data:`CATALOGUE_DIR`), all of them now."""
    files = sorted(CATALOGUE_DIR.glob("*.toml")) if paths is None else list(paths)
    entries: dict[str, list[Variant]] = {}
    for path in files:
        for rule_id, variants in _read_file(path).items():
            entries.setdefault(rule_id, []).extend(variants)
    return Catalogue({k: tuple(v) for k, v in entries.items()})


_lock = threading.Lock()
_catalogue: list[Catalogue] = []


def catalogue() -> Catalogue:
    """The bundled catalogue, each file read once per process when first needed."""
    with _lock:
        if not _catalogue:
            _catalogue.append(Catalogue(files=sorted(CATALOGUE_DIR.glob("*.toml"))))
        return _catalogue[0]
