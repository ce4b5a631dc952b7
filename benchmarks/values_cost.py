"""The cost of the findings' values (einvoice_validate.values): a folder validated with one warm validator, the
``values`` stage time (the viewer's mapping run on the document, then picking each finding's values) against the
whole validation, per document with findings and per finding that names a term. Documents without such findings
never run the stage (their timings have no ``values``).

Usage: python benchmarks/values_cost.py [DIR] [--warmup N]   (default: ../shared/corpus/mutations-dev, 1 pass)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time
from pathlib import Path

from einvoice_validate import EInvoiceValidateError, Validator

SHARED = Path(os.environ.get("EINVOICE_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", nargs="?", type=Path, default=SHARED / "corpus/mutations-dev")
    parser.add_argument("--warmup", type=int, default=1, help="passes over the folder before measuring")
    args = parser.parse_args()
    paths = sorted(args.folder.glob("*.xml"))
    validator = Validator()
    for _ in range(args.warmup):
        for path in paths:
            with contextlib.suppress(EInvoiceValidateError):
                validator.validate(path)
    with_values, without, values_ms, total_ms, findings, with_any = 0, 0, [], 0.0, 0, 0
    start = time.perf_counter()
    for path in paths:
        t0 = time.perf_counter()
        try:
            report = validator.validate(path)
        except EInvoiceValidateError:
            continue
        total_ms += (time.perf_counter() - t0) * 1000
        if "values" in report.timings_ms:
            with_values += 1
            values_ms.append(report.timings_ms["values"])
            findings += sum(1 for f in report.findings if f.terms)
            with_any += sum(1 for f in report.findings if f.values)
        else:
            without += 1
    wall = time.perf_counter() - start
    spent = sum(values_ms)
    print(
        f"{len(paths)} files in {wall:.1f} s ({validator.engine.name}); {with_values} ran the values stage, "
        f"{without} did not\n"
        f"values stage: {spent / 1000:.2f} s of {total_ms / 1000:.2f} s validating ({100 * spent / total_ms:.1f} %); "
        f"median {statistics.median(values_ms):.2f} ms per document, {spent / max(findings, 1):.2f} ms per finding "
        f"naming a term ({findings} such findings, {with_any} got values)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
