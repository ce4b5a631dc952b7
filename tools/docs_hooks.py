"""The site's build hooks (MkDocs ``hooks:``): the reference tables written from the code, and the navigation of the
folders other engineers drop pages into.

A page holds ``<!-- generated: NAME -->`` where a table comes from the code; :data:`GENERATORS` writes it at build
time, so the error codes (``errors.py``, ``wire.py``), the limits (``limits.py``), the profiles and packs
(``rulesets/``), the exit codes and the command line's help (``cli.py``) are always the ones the code has.
``docs/design/*.md`` are listed in the navigation by this hook: a new page there builds without an edit of
``mkdocs.yml``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent  # tools/ is one below the checkout
if str(ROOT / "src") not in sys.path:  # the site is built from the checkout
    sys.path.insert(0, str(ROOT / "src"))

MARKER = re.compile(r"<!-- generated: ([a-z-]+) -->")
FOLDERS = {"design/": "design"}
"""Navigation entries standing for a folder of pages (``Design: design/``): replaced by its pages, by title."""


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: tuple[str, ...], rows: list[tuple[object, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def error_codes() -> str:
    """The caller's codes (``errors.ERROR_CODES``) with their HTTP status, reasons and meaning, then the
    operator's (``errors.RULESET_CODES``)."""
    from einvoice_validate.errors import ERROR_CODES, REASONS, RULESET_CODES, message_for_code
    from einvoice_validate.wire import STATUS

    callers = sorted(ERROR_CODES, key=lambda c: (STATUS[c], c))
    rows: list[tuple[object, ...]] = [
        (
            f"`{c}`",
            STATUS[c],
            ", ".join(f"`{r}`" for r in REASONS.get(c, ())) or "—",
            message_for_code(c).en,
            message_for_code(c).de,
        )
        for c in callers
    ]
    text = _table(("code", "HTTP status", "reasons", "meaning", "Bedeutung"), rows)
    operators = [(f"`{c}`", message_for_code(c).en, message_for_code(c).de) for c in sorted(RULESET_CODES)]
    return (
        text + "\n\nThe operator's codes (`RulesetError`: the installation cannot validate; a server answers them as "
        "`500 server.error` and logs the code):\n\n" + _table(("code", "meaning", "Bedeutung"), operators)
    )


def _size(value: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= size and value % size == 0:
            return f"{value // size:,} {unit}"
    return f"{value:,}"


def limits() -> str:
    """Every field of ``Limits`` with its default and the text its docstring gives it."""
    import dataclasses

    from einvoice_validate.limits import Limits

    described: dict[str, str] = {}
    current = None
    for line in (Limits.__doc__ or "").splitlines():
        found = re.match(r"\s+(max_[a-z_]+):\s*(.*)", line)
        if found:
            current = found.group(1)
            described[current] = found.group(2)
        elif current and line.startswith(" " * 12) and line.strip():
            described[current] += " " + line.strip()
        else:
            current = None
    rows: list[tuple[object, ...]] = []
    for f in dataclasses.fields(Limits):
        default = f.default
        shown = _size(default) if isinstance(default, int) and "bytes" in f.name else f"{default:,}"
        if isinstance(default, int) and "length" in f.name:
            shown = _size(default).replace("iB", "i") + " characters"
        text = described.get(f.name, "—").replace("``", "`").removesuffix(", and").removesuffix(" and")
        rows.append((f"`{f.name}`", shown, text))
    return _table(("limit", "default", "what it bounds"), rows)


def profiles() -> str:
    """The official profiles in the order they are tried (``rulesets/profiles.toml``)."""
    from einvoice_validate.profiles import load_profiles

    rows: list[tuple[object, ...]] = []
    for i, p in enumerate(load_profiles(), 1):
        match = {"exact": "is", "contains": "contains", "any": "any"}[p.match]
        ids = "" if p.match == "any" else "<br>".join(f"`{s}`" for s in p.spec_ids)
        extra = []
        if p.envelope:
            extra.append(f"in a {p.envelope.upper()}")
        if p.requires == "fr-ctc":
            extra.append("French CTC markers")
        packs = [f"`{p.xsd}`"]
        if p.configuration:
            packs.append(f"edition of `{p.configuration}`")
        packs += [f"`{s}`" for s in p.schematron]
        rows.append(
            (
                i,
                f"`{p.name}`",
                p.root,
                f"{match} {ids}".strip() + (f" ({', '.join(extra)})" if extra else ""),
                ", ".join(packs),
            )
        )
    return _table(("#", "profile", "root", "BT-24 (specification identifier)", "packs"), rows)


def packs() -> str:
    """Every pack the manifests know, with its kind and the dates it is in force."""
    from einvoice_validate.rulesets.manifest import load_manifests

    rows: list[tuple[object, ...]] = [
        (f"`{m.id}`", m.version, m.kind, m.syntax, m.in_force_text(), m.title)
        for m in sorted(load_manifests().values(), key=lambda m: (m.id, m.valid_from or m.version))
    ]
    return _table(("pack", "version", "kind", "syntax", "in force", "title"), rows)


def families() -> str:
    """The families a near-miss specification identifier is recognised by (``[[family]]`` in profiles.toml)."""
    from einvoice_validate.profiles import load_families

    rows: list[tuple[object, ...]] = [
        (f.name, ", ".join(f"`{m}`" for m in f.markers), ", ".join(f"`{p}*`" for p in f.profiles))
        for f in load_families()
    ]
    return _table(("family", "BT-24 contains (any case)", "its profiles"), rows)


def exit_codes() -> str:
    from einvoice_validate.cli import EXIT_CODES

    return _table(("exit", "meaning"), [(f"`{code}`", meaning) for code, meaning in EXIT_CODES])


def cli() -> str:
    """Each command's ``--help``, as the program prints it."""
    import os

    from einvoice_validate.cli import command_parsers

    parts = []
    width, os.environ["COLUMNS"] = os.environ.get("COLUMNS"), "100"  # argparse reads it when it formats the help
    try:
        helps = [(name, parser.format_help().rstrip()) for name, parser in command_parsers()]
    finally:
        if width is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = width
    for name, text in helps:
        title = "einvoice-validate" if not name else f"einvoice-validate {name}"
        anchor = name.replace(" ", "-") or "main"
        parts.append(f"### `{title}` {{#{anchor}}}\n\n```text\n{text}\n```")
    return "\n\n".join(parts)


GENERATORS: dict[str, Callable[[], str]] = {
    "error-codes": error_codes,
    "limits": limits,
    "profiles": profiles,
    "packs": packs,
    "families": families,
    "exit-codes": exit_codes,
    "cli": cli,
}


def generate(markdown: str) -> str:
    """``markdown`` with every ``<!-- generated: NAME -->`` replaced by its table (an unknown name is an error)."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise KeyError(f"no generator {name!r} for the docs (known: {', '.join(GENERATORS)})")
        return GENERATORS[name]()

    return MARKER.sub(replace, markdown)


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem.replace("-", " ").capitalize()


def _expand(nav: Any, docs: Path) -> Any:
    if isinstance(nav, list):
        return [_expand(item, docs) for item in nav]
    if isinstance(nav, dict):
        return {key: _expand(value, docs) for key, value in nav.items()}
    if isinstance(nav, str) and nav in FOLDERS:
        folder = docs / FOLDERS[nav]
        pages = sorted(p for p in folder.glob("*.md") if p.name != "README.md") if folder.is_dir() else []
        index = folder / "README.md"
        listed = [{_title(p): f"{FOLDERS[nav]}/{p.name}"} for p in pages]
        return ([f"{FOLDERS[nav]}/README.md"] if index.is_file() else []) + listed
    return nav


def on_config(config: Any) -> Any:
    config["nav"] = _expand(config["nav"], Path(config["docs_dir"]))
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return generate(markdown)
