"""Write the French catalogue (``rulesets/messages/france.toml``): every rule text of the installed French packs.

FNFE-MPE writes the BR-FR rules (and part of the UBL EXTENDED-CTC-FR rules) in French, the rest of EXTENDED-CTC-FR
in English (its copies of the CEN and Factur-X rules, BR-FREXT-*, BR-FXEXT-*). A text the catalogue already has
(a CEN or Factur-X text copied word for word) keeps that entry. For every other text this script writes an entry
with the official text (``lang = "fr"``: the French text is the finding's ``fr``, English and German are ours;
``lang = "en"``: German is ours), from:

* the text's own parts: a leading label (``BR-FR-01/BT-1 :``, kept, ``ou`` translated), a diagnostic prefix of
  runtime values (``Num Fact : {1} , Code : {2} , … [BR-FREXT-S-08] -``, its French words translated) and the rule
  text itself;
* :data:`RULES`: per rule text a pattern (``%x%`` matches any text, repeated as is in the translations) and its
  English and German translations; ``%T%`` in a translation is the business term the rule id names (``BR-FR-03_BT-2``
  → "Invoice issue date (BT-2)"), from :data:`TERMS`, so a text that does not say which term it is about (the UBL
  variants, whose label the catalogue strips) still names it.

Nothing falls back to the official text: a text without translations is listed and nothing is written (exit 1).

    python tools/catalogue_france.py            # (re)write rulesets/messages/france.toml
    python tools/catalogue_france.py --dry-run  # only report

Needs the French packs installed in the rules home. Afterwards ``python tools/catalogue.py check`` must report 0
missing texts and ``python tools/catalogue.py lint`` 0 problems.
"""

# the official texts are long single sentences with French typography, kept whole
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tools"))

from catalogue_france_rules import DIAG_WORDS, MAPS, RULES, TERMS  # noqa: E402

from einvoice_validate.messages import CATALOGUE_DIR, Variant, load_catalogue, natural_key  # noqa: E402
from einvoice_validate.rulesets.catalogue import official_rule_texts, write_catalogue_file  # noqa: E402
from einvoice_validate.rulesets.registry import Registry  # noqa: E402

TARGET = CATALOGUE_DIR / "france.toml"

# "BR-FR-01/BT-1 : " (CII; the UBL label is in brackets and stripped by the catalogue), "[BR-FR-02/BT-1 : " (no
# closing bracket upstream), "BR-FR-CO-10/EXT-FR-FE-146] : ", "BR-FR-15/BT-95 ou BT-102 : "
_LEAD_LABEL = re.compile(
    r"^\[?(?P<label>(?:BR|UBL|CII)-[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+(?: ou [A-Za-z0-9_-]+)?)*)\]?\s*:\s*"
)
# "… diagnostic values … [BR-FREXT-S-08] - rule text" / "…-[BR-FREXT-05]-rule text"
_MID_LABEL = re.compile(r"^(?P<diag>.+?)\s*-?\s*\[(?P<label>(?:BR|UBL|CII)-[A-Za-z0-9/_-]+)\]\s*-?\s*(?P<body>.+)$")
_FRENCH_WORDS = re.compile(
    r"\b(le|la|les|des|du|de|une|un|doit|doivent|être|est|pas|ne|et|avec|pour|dans|ou|si|à)\b", re.I
)
_ENGLISH_WORDS = re.compile(r"\b(the|shall|must|should|be|is|are|of|and|with|for|in|or|an|if|each)\b", re.I)
_TOKEN = re.compile(r"%(\w+)(?:\|(\w+))?%")


def is_french(text: str) -> bool:
    """Whether an official text is French (FNFE-MPE writes most rules in French, its CEN and Factur-X copies in
    English): more French function words than English ones."""
    return len(_FRENCH_WORDS.findall(text)) > len(_ENGLISH_WORDS.findall(text))


def _pattern(french: str) -> re.Pattern[str]:
    regex, last = [], 0
    for token in _TOKEN.finditer(french):
        regex += [re.escape(french[last : token.start()]), f"(?P<{token.group(1)}>.*?)"]
        last = token.end()
    regex.append(re.escape(french[last:]))
    return re.compile("".join(regex), re.S)


_COMPILED = [(_pattern(fr), en, de) for fr, en, de in RULES]


def rule_terms(rule_id: str) -> list[str]:
    """The business terms a rule id names (BR-FR-DEC-01_BT-92_BT-99 → BT-92, BT-99), in order."""
    return re.findall(r"(?:EXT-FR-FE-(?:BG-)?\d+|BT-\d+|BG-\d+)", rule_id.split("_", 1)[1] if "_" in rule_id else "")


def _named(rule_id: str, lang: int) -> str:
    named = []
    for term in rule_terms(rule_id):
        names = TERMS.get(term)
        if names is None:
            raise KeyError(f"{rule_id}: no name for {term} in TERMS")
        named.append(f"{names[lang]} ({term})")
    return " / ".join(named)


def _fill(template: str, match: re.Match[str], rule_id: str, lang: int) -> str:
    def token(m: re.Match[str]) -> str:
        name, table = m.group(1), m.group(2)
        if name == "T":
            return _named(rule_id, lang)
        value = match.group(name)
        if table is None:
            return value
        if value not in MAPS[table]:
            raise KeyError(f"{rule_id}: no translation of {value!r} in MAPS[{table!r}]")
        return MAPS[table][value][lang]

    return _TOKEN.sub(token, template)


def _diag(diag: str, lang: int) -> str:
    out = diag
    for french, en, de in DIAG_WORDS:
        out = out.replace(french, en if lang == 0 else de)
    return out


def _label(label: str, lang: int) -> str:
    return label.replace(" ou ", " or " if lang == 0 else " oder ")


def translate(rule_id: str, official: str) -> tuple[str, str] | None:
    """(en, de) for an official text, or None when no rule covers it."""
    prefix_en = prefix_de = ""
    body = official
    lead = _LEAD_LABEL.match(body)
    if lead:
        prefix_en = _label(lead.group("label"), 0) + ": "
        prefix_de = _label(lead.group("label"), 1) + ": "
        body = body[lead.end() :]
    mid = _MID_LABEL.match(body)
    if mid and "{" in mid.group("diag"):
        label = mid.group("label")
        prefix_en += f"{_diag(mid.group('diag'), 0)} [{label}] "
        prefix_de += f"{_diag(mid.group('diag'), 1)} [{label}] "
        body = mid.group("body")
    for pattern, en, de in _COMPILED:
        match = pattern.fullmatch(body)
        if match is not None:
            english = body if en is None else _fill(en, match, rule_id, 0)  # None: the text is English already
            return prefix_en + english, prefix_de + _fill(de, match, rule_id, 1)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    others = [p for p in sorted(CATALOGUE_DIR.glob("*.toml")) if p != TARGET]
    known = load_catalogue(others)
    entries: dict[str, list[Variant]] = {}
    seen: set[tuple[str, str]] = set()
    missing: list[tuple[str, str, str]] = []
    for pack_key, rule_id, official in official_rule_texts(Registry()):
        if not pack_key.startswith("fr-") or (rule_id, official) in seen:
            continue
        seen.add((rule_id, official))
        if known.variant_for_official(rule_id, official) is not None:
            continue
        french = is_french(official)
        try:
            translated = translate(rule_id, official)
        except KeyError as exc:
            print(f"{exc}", file=sys.stderr)
            translated = None
        if translated is None:
            missing.append((pack_key, rule_id, official))
            continue
        en, de = translated
        variant = Variant(official=official, lang="fr", en=en, de=de) if french else Variant(official=official, de=de)
        entries.setdefault(rule_id, []).append(variant)
    for pack_key, rule_id, official in missing:
        print(f"{pack_key}\t{rule_id}\t{official}")
    written = sum(len(v) for v in entries.values())
    print(f"{written} texts translated, {len(missing)} without translation", file=sys.stderr)
    if missing:
        return 1
    if not args.dry_run:
        ordered = {k: entries[k] for k in sorted(entries, key=natural_key)}
        write_catalogue_file(TARGET, ordered)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
