"""Throughput against the reference validator, measured in one run on the same files and cores.

Prints one line per measurement with our figure, the reference's and the ratio (higher = we are faster):

* steady state, documents/s on the 66 XRechnung business cases, 1 worker vs 1 thread and N workers vs N
  threads, for each of our engines (``saxonc``, ``saxon-java``): both sides warm, i.e. unmeasured passes first
  (``--warmup``; the reference's JIT needs them, and so does our ``saxon-java``). The reference's threads share
  one JVM, which sees every warm-up document; each of our N workers runs its own JVM and sees 1/N of them, so
  our pool gets ``--warmup`` x N passes: each of its JVMs as warm as the reference's one;
* a fresh process validating one invoice (our CLI vs a fresh JVM), wall time;
* a fresh process validating the 66 business cases, wall time;
* one large invoice (1,000 and 10,000 lines, from tools/make_large_invoice.py) in a fresh process, wall time;
* peak memory (max RSS) of our processes, and of each worker after the steady-state run.

Usage: python benchmarks/throughput.py [--warmup N] [--repeat N] [--workers N] [--engines saxonc,saxon-java]
       [--steady-only]   (needs `make rulesets reference`)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
CASES = sorted((SHARED / "corpus/xrechnung-testsuite/business-cases/standard").glob("*.xml"))
CLI = [sys.executable, "-m", "einvoice_validate", "validate", "--format", "jsonl"]
# The reference runs the plan of the rules we run by default (XRechnung 2.6.0 over CEN 1.3.16 since 2026-08-31).
REFERENCE = ["env", "REFERENCE_PLAN=plan-kosit-2026-08-31.tsv", "bash", str(REPO / "tools/run-reference.sh")]


_WRAPPER = """
import resource, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
wall = time.perf_counter() - start
sys.stderr.write(proc.stderr)
print(proc.returncode, wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def timed(cmd: list[str]) -> tuple[float, str, int]:
    """Wall seconds, stderr, and the max RSS (KiB) of the largest process of the command's tree (a fresh
    wrapper process per measurement, so earlier measurements do not leak into the figure)."""
    proc = subprocess.run([sys.executable, "-c", _WRAPPER, *cmd], capture_output=True, text=True, check=True)
    code, wall, rss = proc.stdout.split()
    if int(code) not in (0, 1):
        raise SystemExit(f"{cmd[:4]}... failed ({code}): {proc.stderr[-2000:]}")
    return float(wall), proc.stderr, int(rss)


def reference_rate(threads: int, warmup: int, repeat: int) -> float:
    """Documents/s of the measured passes, after ``warmup`` unmeasured ones (RefValidate --warmup)."""
    args = ["--threads", str(threads), "--warmup", str(warmup), "--repeat", str(repeat)]
    _, err, _ = timed([*REFERENCE, *args, *map(str, CASES)])
    line = [x for x in err.splitlines() if x.startswith("threads=")][-1]
    return float(line.rsplit("docs_per_s=", 1)[1])


def our_rate(engine: str, workers: int, warmup: int, repeat: int) -> tuple[float, int]:
    """Documents/s in steady state after ``warmup`` unmeasured passes, and the largest peak RSS (KiB) of a worker
    process at the end (Linux; 0 for ``workers=1``, which validates in the measuring process itself)."""
    code = f"""
import sys, time
from pathlib import Path
from einvoice_validate import BatchValidator
files = [Path(p) for p in sys.argv[1:]]
with BatchValidator(workers={workers}) as pool:
    for r in pool.iter_validate(files * {warmup} * {workers}):  # start the workers, compile, warm each JIT
        pass
    start = time.perf_counter()
    n = sum(1 for _ in pool.iter_validate(files * {repeat}))
    rate = n / (time.perf_counter() - start)
    peaks = [0]
    for w in pool._pool:
        with open(f"/proc/{{w.process.pid}}/status") as fh:
            peaks += [int(line.split()[1]) for line in fh if line.startswith("VmHWM:")]
    print(rate, max(peaks), ",".join("+".join(sorted(w.syntaxes)) for w in pool._pool))
"""
    env = {**os.environ, "EINVOICE_VALIDATE_ENGINE": engine}
    proc = subprocess.run(
        [sys.executable, "-c", code, *map(str, CASES)], capture_output=True, text=True, check=True, env=env
    )
    rate, peak, syntaxes = [*proc.stdout.strip().splitlines()[-1].split(), ""][:3]
    if workers > 1:
        print(f"  peak memory of a worker after the steady-state run: {int(peak) / 1024:.0f} MB (syntaxes: {syntaxes})")
    return float(rate), int(peak)


def line(what: str, ours: float, ref: float, unit: str, higher_is_better: bool) -> None:
    ratio = ours / ref if higher_is_better else ref / ours
    print(f"{what:<52} ours {ours:9.2f} {unit:<6} reference {ref:9.2f} {unit:<6} ratio {ratio:5.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured passes on both sides (default 20)")
    parser.add_argument("--repeat", type=int, default=40, help="measured passes (default 40)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--engines", default="saxonc,saxon-java")
    parser.add_argument("--steady-only", action="store_true", help="skip the fresh-process measurements")
    args = parser.parse_args()
    subprocess.run(["bash", str(REPO / "tools/build-reference.sh")], check=True)
    n = args.workers
    print(
        f"{len(CASES)} business cases, {n} cores, warm-up {args.warmup} passes on both sides, then {args.repeat} "
        "measured; ratio > 1: we are faster"
    )
    engines = args.engines.split(",")
    for threads in sorted({1, n}):
        ref = reference_rate(threads, args.warmup, args.repeat)
        for engine in engines:
            what = f"steady, {threads} worker{'s' * (threads > 1)} vs {threads} thread{'s' * (threads > 1)}, {engine}"
            line(what, our_rate(engine, threads, args.warmup, args.repeat)[0], ref, "doc/s", True)
    if args.steady_only:
        return 0

    one = str(CASES[0])
    ours, _, rss_one = timed([*CLI, one])
    ref, _, _ = timed([*REFERENCE, one])
    line("fresh process, one invoice (s)", ours, ref, "s", False)

    ours, _, rss_all = timed([*CLI, *map(str, CASES)])  # the CLI picks its worker count
    ref, _, _ = timed([*REFERENCE, "--threads", str(n), *map(str, CASES)])
    line(f"fresh process, {len(CASES)} business cases (s)", ours, ref, "s", False)

    with tempfile.TemporaryDirectory() as tmp:
        for lines in (1000, 10000):
            big = Path(tmp) / f"lines-{lines}.xml"
            subprocess.run(
                [sys.executable, str(REPO / "tools/make_large_invoice.py"), str(lines), str(big)], check=True
            )
            ours, _, rss_big = timed([*CLI, str(big)])
            ref, _, _ = timed([*REFERENCE, str(big)])
            line(f"fresh process, {lines}-line invoice (s)", ours, ref, "s", False)
            print(f"  peak memory, {lines}-line invoice: {rss_big / 1024:.0f} MB (max RSS of our processes)")
    print(
        f"peak memory: one invoice {rss_one / 1024:.0f} MB; "
        f"batch of {len(CASES)}: {rss_all / 1024:.0f} MB (max RSS per process)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
