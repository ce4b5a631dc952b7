"""The proof of a preparation step, finding for finding: the SVRL of every installed pack's prepared copy, with and
without the named steps, byte for byte, on every corpus document of the pack's syntax (and on large invoices made
by tools/make_large_invoice.py), on the engine chosen. A difference is printed with the document; the exit status
is the number of packs that differ. ``--infoset`` compares what the outputs say instead of their bytes: each node's
name (by namespace URI), attributes, text and tail, in document order, and not which namespaces each element declares
(for a step that drops unused namespace declarations, ``exclude-result-namespaces``).

Usage: python benchmarks/prepare_proof.py [--steps hoist-document-constants,...]
       [--engine saxonc|saxon-java] [--packs ID|KEY,...] [--limit N] [--infoset]   (needs `make rulesets`)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

from lxml import etree

from einvoice_validate.errors import InputError, RulesetError
from einvoice_validate.parse import load
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.prepare import prepare_stylesheet, steps_for, stylesheet_resources
from einvoice_validate.schematron.engines import StylesheetRuntimeError, get_engine

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(REPO / "tools"))
from make_large_invoice import make  # noqa: E402

LARGE_SOURCES = {
    "ubl": [
        "corpus/xrechnung-testsuite/business-cases/standard/01.01a-INVOICE_ubl.xml",
        "corpus/france/xp-z12-014-annexB-v1.3/UC11_F202600022_MULTI-VENDEUR_UBL_Commentee_EXTENDED..xml",
    ],
    "cii": [
        "corpus/xrechnung-testsuite/business-cases/standard/01.01a-INVOICE_uncefact.xml",
        "corpus/france/xp-z12-014-annexB-v1.3/UC10_F202600004_MULTI-VENDEUR_CII_Commentee_EXTENDED.xml",
        "corpus/france/xp-z12-014-annexB-v1.3/UC12_F202600025_SOUS-LIGNE_CII_Commentee_EXTENDED.xml",
    ],
}


def documents(syntax: str) -> list[tuple[str, str]]:
    """(name, text) of every corpus document of ``syntax`` the hardened parser reads, and large invoices."""
    out = []
    for path in sorted((SHARED / "corpus").rglob("*.xml")):
        try:
            document = load(path.read_bytes())
        except InputError:
            continue
        if document.syntax == syntax:
            out.append((str(path.relative_to(SHARED)), document.text()))
    for source in LARGE_SOURCES.get(syntax, []):
        for lines in (3, 40):
            data = make(lines, SHARED / source)
            out.append((f"{source} x {lines} lines", load(data).text()))
    return out


def differences(
    key: str, docs: list[tuple[str, str]], one: Callable[[str], object], other: Callable[[str], object], *names: str
) -> int:
    """How many of ``docs`` (name, text) the two sides (``names``) give differently; each difference is printed."""
    differ = 0
    for name, text in docs:
        a, b = one(text), other(text)
        if a != b:
            differ += 1
            print(f"  DIFFERS {key} {name}\n    {names[0]}: {str(a)[:300]}\n    {names[1]}: {str(b)[:300]}")
    return differ


def infoset(output: str) -> str:
    """What ``output`` says: each node's name, attributes, text and tail, in document order (no declarations)."""
    root = etree.fromstring(output.encode("utf-8"))
    return repr([(str(e.tag), sorted(e.attrib.items()), e.text, e.tail) for e in root.iter()])


def run(sheet: object, engine: object, text: str, by_infoset: bool = False) -> str:
    try:
        output: str = sheet.run(engine.parse_text(text))  # type: ignore[attr-defined]
    except StylesheetRuntimeError as exc:
        return f"stopped: {exc.code}: {exc.message}"
    return infoset(output) if by_infoset else output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--steps",
        default="hoist-document-constants,index-sibling-lookups,index-location-positions,index-pattern-predicates",
    )
    parser.add_argument("--engine", default=None)
    parser.add_argument(
        "--packs", default=None, help="pack ids or keys (id@version; default: every installed Schematron pack)"
    )
    parser.add_argument("--limit", type=int, default=0, help="at most this many documents per syntax (0: all)")
    parser.add_argument("--infoset", action="store_true", help="compare what the outputs say, not their bytes")
    args = parser.parse_args()
    steps = args.steps.split(",")
    registry = Registry()
    engine = get_engine(args.engine)
    wanted = args.packs.split(",") if args.packs else None  # a key (id@version) or an id: each of its versions
    keys = sorted(
        k
        for k, m in registry.manifests.items()
        if m.kind == "schematron" and (wanted is None or k in wanted or m.id in wanted)
    )
    corpora: dict[str, list[tuple[str, str]]] = {}
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for key in keys:
            try:
                pack = registry.get(key)
                pack.prepared("stylesheet")
            except RulesetError:
                print(f"{key}: not installed")
                continue
            path, checksum = pack.prepared("stylesheet")
            rel = pack.manifest.entries["stylesheet"]
            official = pack.directory / rel
            files = list(pack.manifest.files)
            without = prepare_stylesheet(
                official.read_bytes(),
                [s for s in steps_for(pack.manifest.output) if s not in steps],  # the installer's steps for its format
                resources=stylesheet_resources(pack.directory, rel, files),
            )
            other = Path(tmp) / key / official.name
            other.parent.mkdir(parents=True)
            other.write_bytes(without)
            if without == path.read_bytes():
                print(f"{key}: the steps change nothing")
                continue
            before = engine.compile(other, "without-" + key)
            after = engine.compile(path, checksum)
            syntax = pack.manifest.syntax
            docs = corpora.setdefault(syntax, documents(syntax))
            if args.limit:
                docs = docs[: args.limit]
            differ = differences(
                key,
                docs,
                partial(run, before, engine, by_infoset=args.infoset),
                partial(run, after, engine, by_infoset=args.infoset),
                "without",
                "with",
            )
            failed += bool(differ)
            print(f"{key}: {len(docs)} documents, {differ} differ ({engine.name})", flush=True)
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
