"""Which engine validates one invoice fastest in a fresh process, by its size: where ``LARGE_DOCUMENT_BYTES`` lies.

For each size, a fresh interpreter per engine validates one invoice of that many lines (tools/make_large_invoice.py
from an official example; ``--family`` as in benchmarks/large_invoices.py), ``--runs`` times alternating; printed:
the medians of the wall time, the validating thread's CPU time (what the caller waits for on an idle machine:
saxon-java's JIT and collector threads run beside it) and the whole process's CPU time, and which engine the size
rule (``engine_for_size``) gives. On this shared machine the wall time is noisy; the thread's CPU time is the figure
the threshold was chosen on.

Usage: python benchmarks/engine_by_size.py [--lines 500,2000,4000,10000] [--family xrechnung-ubl] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from large_invoices import FAMILIES, documents

from einvoice_validate.schematron.engines import ENGINES, engine_for_size

_ONE = r"""
import sys, time
t0 = time.perf_counter(); c0 = time.thread_time(); p0 = time.process_time()
from einvoice_validate import Validator
report = Validator(engine=sys.argv[1], rules_date=sys.argv[3]).validate(sys.argv[2])
print(time.perf_counter() - t0, time.thread_time() - c0, time.process_time() - p0, len(report.findings))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", default="500,2000,4000,10000")
    parser.add_argument("--family", default="xrechnung-ubl")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rules-date", default="2026-11-28")
    args = parser.parse_args()
    family = next(f for f in FAMILIES if f.name == args.family)
    sizes = [int(n) for n in args.lines.split(",")]
    print(f"{family.name}, one invoice in a fresh process, medians of {args.runs} runs (seconds)")
    print(f"{'lines':>6} {'bytes':>9} " + "".join(f"{e + ' wall/thread/process':>34}" for e in ENGINES) + "  size rule")
    with tempfile.TemporaryDirectory() as tmp:
        docs = documents(family, sizes, Path(tmp))
        for lines in sizes:
            path = docs[lines][0]
            runs: dict[str, list[list[float]]] = {e: [] for e in ENGINES}
            for _ in range(args.runs):
                for engine in ENGINES:
                    out = subprocess.run(
                        [sys.executable, "-c", _ONE, engine, str(path), args.rules_date],
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    runs[engine].append([float(x) for x in out.stdout.split()[:3]])
            row = f"{lines:6d} {path.stat().st_size:9d} "
            for engine in ENGINES:
                wall, thread, process = (statistics.median(r[i] for r in runs[engine]) for i in range(3))
                row += f"{wall:14.2f} {thread:9.2f} {process:9.2f}"
            print(row + f"  {engine_for_size(path.stat().st_size)[0]}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
