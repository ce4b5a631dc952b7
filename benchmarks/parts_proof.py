"""The proof that a pack run in parts of its patterns gives the findings of the pack run whole (a large document's
packs on two threads, ``Options.parallel_packs``): for every installed Schematron pack whose stylesheet the
``saxon-java`` engine can run in parts (``SchematronStage.parts``), the findings of the whole run and of the parts
read one after the other, on every corpus document of the pack's syntax and on large invoices (as
``benchmarks/prepare_proof.py`` chooses them). A difference is printed with the document; the exit status is the
number of packs that differ.

Usage: python benchmarks/parts_proof.py [--packs ID|KEY,...] [--limit N]   (needs `make rulesets`)
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prepare_proof import differences, documents

from einvoice_validate.errors import RulesetError
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron import SchematronStage
from einvoice_validate.schematron.engines import get_engine


def whole(stage: SchematronStage, engine: Any, counted: list[int], text: str) -> list[dict[str, object]]:
    """The findings of the pack run whole on ``text`` (their number appended to ``counted``)."""
    found = [f.model_dump() for f in stage.findings(stage.output(engine.parse_text(text)))]
    counted.append(len(found))
    return found


def parts(stage: SchematronStage, engine: Any, text: str) -> list[dict[str, object]]:
    """The findings of the pack run in its parts on ``text``, read one part after the other."""
    document = engine.parse_text(text)
    return [f.model_dump() for f in stage.findings([stage.output(document, p) for p in range(stage.parts)])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--packs", default=None, help="pack ids or keys (default: every installed Schematron pack)")
    parser.add_argument("--limit", type=int, default=0, help="at most this many documents per syntax (0: all)")
    args = parser.parse_args()
    registry = Registry()
    engine = get_engine("saxon-java")
    wanted = args.packs.split(",") if args.packs else None
    keys = sorted(
        k
        for k, m in registry.manifests.items()
        if m.kind == "schematron" and (wanted is None or k in wanted or m.id in wanted)
    )
    corpora: dict[str, list[tuple[str, str]]] = {}
    failed = 0
    for key in keys:
        try:
            stage = SchematronStage(registry.get(key), {}, engine)
        except RulesetError:
            print(f"{key}: not installed")
            continue
        if not stage.parts:
            print(f"{key}: runs whole only")
            continue
        syntax = registry.get(key).manifest.syntax
        docs = corpora.setdefault(syntax, documents(syntax))
        if args.limit:
            docs = docs[: args.limit]
        counted: list[int] = []
        differ = differences(
            key, docs, partial(whole, stage, engine, counted), partial(parts, stage, engine), "whole", "parts"
        )
        findings = sum(counted)
        failed += bool(differ)
        print(f"{key}: {stage.parts} parts, {len(docs)} documents, {findings} findings, {differ} differ", flush=True)
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
