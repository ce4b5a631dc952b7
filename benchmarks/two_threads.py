"""A large invoice on one thread or two (``Options.parallel_packs``), in one process, interleaved: three warm
``saxon-java`` validators take turns on the same documents, round after round (the machine's drift then touches all
three alike): ``one`` (parallel_packs off), ``two`` (on, Saxon's tree started beside the XSD stage only) and
``two+early`` (on, as it ships: the tree started as soon as lxml has parsed, beside the limit checks too). Printed:
the median ms per document of each, and the process's CPU ms per document.

Measured 2026-11-28 at night on the 2-core machine (6 rounds of 3 each; XRechnung UBL, Peppol and XRechnung CII at
2,000 lines, XRechnung UBL at 500, from ``tools/make_large_invoice.py``): one / two / two+early, ms:
251 / 220 / 203, 365 / 293 / 277, 302 / 240 / 211, 78 / 60 / 53. At 200 lines (270-300 KB) two threads took 17-24 %
off, at 100 lines nothing (hence ``validator.BESIDE_TAGS``).

Usage: python benchmarks/two_threads.py [--rounds 6] FILE...   (needs `make rulesets`; large invoices:
       python tools/make_large_invoice.py 2000 OUT --from ../shared/corpus/xrechnung-testsuite/business-cases/
       standard/01.01a-INVOICE_ubl.xml)
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from einvoice_validate import Validator


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--rules-date", default="2026-11-28")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    sides = {
        "one": Validator(engine="saxon-java", rules_date=args.rules_date, parallel_packs=False),
        "two": Validator(engine="saxon-java", rules_date=args.rules_date),
        "two+early": Validator(engine="saxon-java", rules_date=args.rules_date),
    }
    sides["two"]._early_tree = lambda early: lambda tree, data: None  # type: ignore[method-assign]
    for path in args.files:
        data = path.read_bytes()
        wall: dict[str, list[float]] = {name: [] for name in sides}
        cpu: dict[str, list[float]] = {name: [] for name in sides}
        for validator in sides.values():
            for _ in range(6):
                validator.validate(data)
        for _ in range(args.rounds):
            for name, validator in sides.items():
                for _ in range(3):
                    c0, t0 = time.process_time(), time.perf_counter()
                    validator.validate(data)
                    wall[name].append(time.perf_counter() - t0)
                    cpu[name].append(time.process_time() - c0)
        figures = "  ".join(
            f"{name} {statistics.median(wall[name]) * 1000:.1f} ms (CPU {statistics.median(cpu[name]) * 1000:.1f})"
            for name in sides
        )
        print(f"{path.name}: {figures}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
