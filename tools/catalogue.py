"""Keep the message catalogue (``rulesets/messages/*.toml``) in step with the installed rule packs.

Every assert and report of every installed Schematron pack has an official text; the catalogue holds, per rule
id, one entry per distinct official text ("variant") with the project's German and English texts.

    python tools/catalogue.py check      # list rule texts of the installed packs that have no catalogue entry
    python tools/catalogue.py fill       # add the missing entries and fill every empty text the catalogue knows
    python tools/catalogue.py lint [FILE...]  # empty texts, placeholders or BT/BG ids that differ between languages

The catalogue is the only source of the project's translations: ``fill`` writes a text only from the catalogue
itself (:class:`~einvoice_validate.rulesets.catalogue.Analogy`: the same official text elsewhere, or the texts of
the same shape with this text's element names, terms and values put in, where most of them agree), prints what it
filled (review it in the diff) and what a translator must still write (exit status 1), and rewrites only the files
it changed, in the canonical order. The rules home is the one the library uses (``$EINVOICE_VALIDATE_HOME`` ...).
The tests fail on an empty text.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from einvoice_validate.messages import CATALOGUE_DIR, Catalogue, Variant, load_catalogue, natural_key  # noqa: E402
from einvoice_validate.rulesets.catalogue import (  # noqa: E402
    NATIONAL_PACKS,
    Analogy,
    catalogue_problems,
    family_file,
    official_rule_texts,
    write_catalogue_file,
)
from einvoice_validate.rulesets.registry import Registry  # noqa: E402

LAST = ("cius-ro", *NATIONAL_PACKS)


def _missing(catalogue: Catalogue) -> list[tuple[str, str, str]]:
    missing = []
    for pack_key, rule_id, official in official_rule_texts(Registry()):
        if catalogue.variant_for_official(rule_id, official) is None:
            missing.append((pack_key, rule_id, official))
    return missing


def check() -> int:
    missing = _missing(load_catalogue())
    for pack_key, rule_id, official in missing:
        print(f"{pack_key}\t{rule_id}\t{official}")
    print(f"{len(missing)} rule texts without a catalogue entry", file=sys.stderr)
    return 1 if missing else 0


def fill() -> int:
    catalogue = load_catalogue()
    analogy = Analogy(catalogue)
    by_file: dict[str, dict[str, list[Variant]]] = {}
    for path in sorted(CATALOGUE_DIR.glob("*.toml")):
        by_file[path.name] = {k: list(v) for k, v in load_catalogue([path]).entries.items()}
    changed: set[str] = set()
    seen: set[tuple[str, str]] = set()
    # CEN's own packs first, CIUS-RO's and the national CIUS last: a text they copy from CEN lands in CEN's file.
    first = sorted(_missing(catalogue), key=lambda m: (m[0].startswith(LAST), not m[0].startswith("en16931-")))
    for pack_key, rule_id, official in first:
        if (rule_id, official) not in seen:
            seen.add((rule_id, official))
            name = family_file(rule_id, pack_key)
            by_file.setdefault(name, {}).setdefault(rule_id, []).append(analogy.new_variant(official))
            changed.add(name)
    filled = left = 0
    for name, entries in by_file.items():
        for rule_id, variants in entries.items():
            for i, old in enumerate(variants):
                new = variants[i] = analogy.complete(old)
                for lang in ("en", "de"):
                    text = new.text(lang)
                    if text and text != old.text(lang):
                        filled += 1
                        changed.add(name)
                        print(f"filled\t{name}\t{rule_id}\t{lang}\t{text}")
                    elif not (text or "").strip():
                        left += 1
                        print(f"translate\t{name}\t{rule_id}\t{lang}\t{new.official}")
    for name in sorted(changed):
        entries = by_file[name]
        write_catalogue_file(CATALOGUE_DIR / name, {k: entries[k] for k in sorted(entries, key=natural_key)})
    print(
        f"{filled} texts filled from the catalogue (review them in the diff), {left} for a translator", file=sys.stderr
    )
    return 1 if left else 0


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
    sys.exit({"check": check, "fill": fill}[command]())
