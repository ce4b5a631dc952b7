"""The parse stage (``parse.load``: read, parse, structural checks, classify) of this tree against the ``parse.py`` of
another revision (default ``main``), in one process, both warm, interleaved rounds (the side going first
alternating): the median time per document of each, and their ratio. The documents: the project's XRechnung UBL
example (a typical invoice, 8.8 KB) and XRechnung business case 01.01a, UBL and CII, made long with
``tools/make_large_invoice.py`` (500 and 2,000 lines).

Usage: python benchmarks/parse_stage.py [--base main] [--lines 500,2000] [--rounds 15]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from types import ModuleType

from large_invoices import FAMILIES, REPO, make

from einvoice_validate import parse

EXAMPLE = REPO / "examples" / "xrechnung-ubl-invoice.xml"


def parse_module_of(revision: str) -> ModuleType:
    """``parse.py`` as it is at ``revision``, loaded beside this tree's as a module of the same package."""
    source = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{revision}:src/einvoice_validate/parse.py"],
        check=True,
        capture_output=True,
    ).stdout
    name = "einvoice_validate._parse_at_base"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "einvoice_validate"
    sys.modules[name] = module
    exec(compile(source, f"{revision}:parse.py", "exec"), module.__dict__)
    return module


def timed(load: Callable[[bytes], object], data: bytes, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        load(data)
    return (time.perf_counter() - start) / repeat


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="main")
    parser.add_argument("--lines", default="500,2000")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    base = parse_module_of(args.base)
    documents = [("typical (xrechnung-ubl-invoice.xml)", EXAMPLE.read_bytes())]
    for family in FAMILIES[:2]:
        for lines in map(int, args.lines.split(",")):
            documents.append((f"{family.name}, {lines:,} lines", make(lines, family.source)))
    print(f"parse.load, median of {args.rounds} interleaved rounds; base = {args.base}")
    for label, data in documents:
        base.load(data), parse.load(data)  # warm both
        repeat = max(1, int(0.05 / timed(parse.load, data, 1)))  # blocks of about 50 ms
        times: dict[str, list[float]] = {"base": [], "this": []}
        for round_ in range(args.rounds):
            sides = [("base", base.load), ("this", parse.load)]
            for side, load in sides if round_ % 2 else sides[::-1]:
                times[side].append(timed(load, data, repeat))
        b, t = statistics.median(times["base"]), statistics.median(times["this"])
        scale, unit = (1e6, "us") if t < 1e-3 else (1e3, "ms")
        print(
            f"  {label:<38} {len(data):>9,} B  base {b * scale:8.1f} {unit}  this {t * scale:8.1f} {unit}"
            f"  this/base {t / b:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
