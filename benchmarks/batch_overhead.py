"""What the batch runner costs on top of the validator, in one process: ``BatchValidator`` in thread mode (saxon-java)
against a plain loop over one warm ``Validator`` on the same documents, and the runner with each thread slot given
one document at a time (``_THREAD_DEPTH = 1``: every document begins only after a round trip through the caller's
thread) against two (the default: the one it validates and the next). The variants alternate, so the machine's
drift touches them alike; the figures are the medians over ``--rounds``.

Usage: python benchmarks/batch_overhead.py [--workers 1] [--warmup 20] [--passes 6] [--rounds 5]
       (needs `make rulesets`; the JVM of saxon-java)
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from throughput import CASES

from einvoice_validate import BatchValidator
from einvoice_validate.pool import batch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured passes over the business cases")
    parser.add_argument("--passes", type=int, default=6, help="passes per measurement")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    files: list[Path] = list(CASES)
    rates: dict[str, list[float]] = {}
    default_depth = batch._THREAD_DEPTH
    with BatchValidator(workers=args.workers, engine="saxon-java", mode="threads", documents=10**6) as runner:
        for result in runner.iter_validate(files * args.warmup):
            assert result.report is not None, result.error
        validator = runner._validator
        for _ in range(args.rounds):
            for depth in (1, default_depth):
                batch._THREAD_DEPTH = depth
                start = time.perf_counter()
                n = sum(1 for _ in runner.iter_validate(files * args.passes))
                rates.setdefault(f"batch, {depth} document(s) per thread slot", []).append(
                    n / (time.perf_counter() - start)
                )
            batch._THREAD_DEPTH = default_depth
            if args.workers == 1:
                start = time.perf_counter()
                for path in files * args.passes:
                    validator.validate(path.read_bytes())
                rates.setdefault("plain loop, one Validator", []).append(
                    len(files) * args.passes / (time.perf_counter() - start)
                )
    print(f"{len(files)} business cases, {args.workers} thread(s), warm-up {args.warmup}, median of {args.rounds}")
    for what, values in rates.items():
        print(f"  {what:<44} {statistics.median(values):7.1f} doc/s  (min {min(values):.1f}, max {max(values):.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
