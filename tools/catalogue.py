"""Keep the message catalogue (``rulesets/messages/*.toml``) in step with the installed rule packs.

Every assert and report of every installed Schematron pack has an official text; the catalogue holds, per rule
id, one entry per distinct official text ("variant") with the project's German and English texts.

    python tools/catalogue.py check      # list rule texts of the installed packs that have no catalogue entry
    python tools/catalogue.py skeleton   # add missing entries (empty translations) to the family files
    python tools/catalogue.py lint [FILE...]  # empty texts, placeholders or BT/BG ids that differ between languages

The rules home is the one the library uses (``$EINVOICE_VALIDATE_HOME`` ...). ``skeleton`` keeps every existing
entry and rewrites the files in the canonical order; entries it adds have empty ``de`` / ``en`` fields that a
person fills in (the tests fail on empty texts).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from einvoice_validate.messages import CATALOGUE_DIR, Variant, load_catalogue, natural_key  # noqa: E402
from einvoice_validate.rulesets.catalogue import (  # noqa: E402
    catalogue_problems,
    family_file,
    official_rule_texts,
    write_catalogue_file,
)
from einvoice_validate.rulesets.registry import Registry  # noqa: E402

_GERMAN = re.compile(r"\b(muss|müssen|darf|dürfen|Das Element|ist|sind|einer|der|die|und|wenn|Wert)\b|[äöüß]")
_ENGLISH = re.compile(r"\b(shall|should|must|MUST|the|is|are|an|and|if|of)\b")


def _official_language(text: str) -> str:
    if " #" in text and re.search(r"\b(trebuie|pentru|este|sau|Numarul)\b", text):
        return "ro+en"
    german = len(_GERMAN.findall(text))
    english = len(_ENGLISH.findall(text))
    return "de" if german > english else "en"


def _missing() -> list[tuple[str, str, str]]:
    catalogue = load_catalogue()
    missing = []
    for pack_key, rule_id, official in official_rule_texts(Registry()):
        if catalogue.variant_for_official(rule_id, official) is None:
            missing.append((pack_key, rule_id, official))
    return missing


def check() -> int:
    missing = _missing()
    for pack_key, rule_id, official in missing:
        print(f"{pack_key}\t{rule_id}\t{official}")
    print(f"{len(missing)} rule texts without a catalogue entry", file=sys.stderr)
    return 1 if missing else 0


def skeleton() -> int:
    by_file: dict[str, dict[str, list[Variant]]] = {}
    for path in sorted(CATALOGUE_DIR.glob("*.toml")):
        by_file[path.name] = {k: list(v) for k, v in load_catalogue([path]).entries.items()}
    added = 0
    seen: set[tuple[str, str]] = set()
    # CEN's own packs first: a CEN rule lands in cius-ro.toml only when CIUS-RO's copy says something else.
    for pack_key, rule_id, official in sorted(_missing(), key=lambda m: m[0].startswith("cius-ro")):
        if (rule_id, official) in seen:
            continue
        seen.add((rule_id, official))
        lang = _official_language(official)
        fields: dict[str, str] = {}
        if lang == "ro+en":
            ro, _, en = official.partition(" #")
            fields = {"ro": ro.strip(), "en": en.strip(), "de": ""}
        elif lang == "de":
            fields = {"en": ""}
        else:
            fields = {"de": ""}
        variant = Variant(official=official, lang=lang, **fields)
        name = family_file(rule_id, pack_key)
        by_file.setdefault(name, {}).setdefault(rule_id, []).append(variant)
        added += 1
    for name, entries in by_file.items():
        ordered = {k: entries[k] for k in sorted(entries, key=natural_key)}
        write_catalogue_file(CATALOGUE_DIR / name, ordered)
    print(f"added {added} entries", file=sys.stderr)
    return 0


def lint(args: list[str]) -> int:
    paths = [Path(a) for a in args] or sorted(CATALOGUE_DIR.glob("*.toml"))
    problems = catalogue_problems(load_catalogue(paths))
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    if command == "lint":
        sys.exit(lint(sys.argv[2:]))
    sys.exit({"check": check, "skeleton": skeleton}[command]())
