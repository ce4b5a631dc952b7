"""Where the time goes: a warm ``Validator`` in this process over the 66 XRechnung business cases, the mean of
each stage's ``Report.timings_ms`` per document (a pack's figure is averaged over all documents, so a UBL pack
counts only on the UBL half), what the stages do not cover (building findings and the report), and the CPU time of
the validating thread per document (on a busy machine the elapsed times include waiting for a core; this does not).

Usage: python benchmarks/stage_times.py [--repeat N] [--warmup N] [--engine saxonc|saxon-java] [--full-attachments]
       [--cases DIR]   (another folder of documents, e.g. ../shared/corpus/mutations-dev: invalid ones, whose
                        findings are located on the document, see einvoice_validate.locations)
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from pathlib import Path

from einvoice_validate import EInvoiceValidateError, Validator

SHARED = Path(os.environ.get("EINVOICE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
CASES = sorted((SHARED / "corpus/xrechnung-testsuite/business-cases/standard").glob("*.xml"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured passes (a JIT needs about 20)")
    parser.add_argument("--engine", default=None, help="saxonc (default) or saxon-java")
    parser.add_argument("--full-attachments", action="store_true", help="hand Saxon attachments uncut")
    parser.add_argument("--cases", type=Path, help="every *.xml of this folder instead of the business cases")
    args = parser.parse_args()
    data = [p.read_bytes() for p in (sorted(args.cases.glob("*.xml")) if args.cases else CASES)]
    validator = Validator(engine=args.engine)
    validator._slim = not args.full_attachments
    data = [d for d in data if _validates(validator, d)]  # documents that cannot be validated do not count
    for _ in range(args.warmup):  # warm-up: compile every pack the cases need (and warm a JIT)
        for d in data:
            validator.validate(d)
    totals: Counter[str] = Counter()
    start = time.perf_counter()
    cpu_start = time.thread_time()
    for _ in range(args.repeat):
        for d in data:
            totals.update(validator.validate(d).timings_ms)
    elapsed = time.perf_counter() - start
    cpu = time.thread_time() - cpu_start
    n = args.repeat * len(data)
    findings = sum(len(validator.validate(d).findings) for d in data)
    print(f"{findings / len(data):.1f} findings per document")
    print(f"{len(data)} documents x {args.repeat}: {n / elapsed:.1f} doc/s, {elapsed / n * 1000:.2f} ms/doc")
    for stage, ms in totals.items():
        print(f"  {stage:<24} {ms / n:6.2f} ms")
    print(f"  {'outside the stages':<24} {elapsed / n * 1000 - sum(totals.values()) / n:6.2f} ms")
    # CPU time of this thread (the validating one; not a JIT's or another process's): the steadiest figure on a busy
    # machine, where the elapsed times above include waiting for a core.
    print(f"CPU time of the validating thread: {cpu / n * 1000:.2f} ms/doc")
    return 0


def _validates(validator: Validator, data: bytes) -> bool:
    try:
        validator.validate(data)
    except EInvoiceValidateError:
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
