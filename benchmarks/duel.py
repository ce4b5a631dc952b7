"""Steady-state throughput against the reference, interleaved: both sides warm in their own process at once, measured
in alternating blocks, so that the machine's drift (this 2-core machine swings 10-25 % between minutes) touches both
alike; the ratio of each round's two blocks, and the median of those ratios, is the figure.

The reference is RefValidate's own code (``RefValidate.runPasses``: Saxon parse, Xerces XSD, the official
stylesheets on N threads) driven by ``RefBlocks.java`` in its JVM, started as ``tools/run-reference.sh`` starts it.
Ours is a ``BatchValidator`` (``--engine``/``--mode``, default: what a caller gets without choosing, for a long
batch) in a Python process of its own. Each side first gets ``--warmup`` unmeasured passes over the 66 business
cases (in blocks, alternating), then ``--rounds`` rounds of one measured block each (``--block`` passes), the side
going first alternating from round to round.

Usage: python benchmarks/duel.py [--workers 1] [--warmup 200] [--block 4] [--rounds 15] [--engine E] [--mode M]
       [--plan auto|FILE]   (needs `make rulesets reference`)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass, field

from throughput import CASES, REPO, SHARED, WARMUP_PASSES, plan_of

_OURS = """
import os, sys, time
from pathlib import Path
from einvoice_validate import BatchValidator
engine, mode, workers = sys.argv[1] or None, sys.argv[2] or None, int(sys.argv[3])
files = [Path(p) for p in sys.argv[4:]]
TICK = os.sysconf("SC_CLK_TCK")

def cpu(pids):
    # user + system seconds of these processes (this one and its worker processes), from /proc
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / TICK

with BatchValidator(workers=workers, engine=engine, mode=mode, documents=10**6) as pool:
    print("ready", pool.engine + ":" + pool.mode, flush=True)
    for line in sys.stdin:
        command = line.split()
        if command[0] == "quit":
            break
        passes = int(command[1])
        pids = [os.getpid()] + [p for s in pool.slots for p in getattr(s, "pids", lambda: [])()]
        c0 = cpu(pids)
        t0 = time.perf_counter()
        n = 0
        for r in pool.iter_validate(files * passes):
            assert r.report is not None, r.error
            n += 1
        secs = time.perf_counter() - t0
        print("ok", n, secs, cpu(pids) - c0, flush=True)
"""


@dataclass
class Side:
    name: str
    proc: subprocess.Popen[str]
    rates: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)

    def run(self, passes: int, threads: int) -> tuple[int, float, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"run {passes} {threads}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline().split()
        if not line or line[0] != "ok":
            raise SystemExit(f"{self.name} failed: {line}")
        return int(line[1]), float(line[2]), float(line[3])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("quit\n")
        self.proc.stdin.flush()
        self.proc.wait(timeout=60)


def start_reference(plan: str) -> Side:
    subprocess.run(["bash", str(REPO / "tools/build-reference.sh")], check=True)
    out = REPO / "build/reference"
    jar = "/usr/share/java/Saxon-HE.jar"
    subprocess.run(
        ["javac", "-nowarn", "-cp", f"{jar}:{out}", "-d", str(out), str(REPO / "benchmarks/RefBlocks.java")], check=True
    )
    plan_path = plan if plan.startswith("/") else f"../reference/{plan}"
    proc = subprocess.Popen(
        ["java", "-cp", f"{jar}:{out}", "RefBlocks", plan_path, *map(str, CASES)],
        cwd=SHARED / "rulesets",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise SystemExit("the reference did not start")
    return Side("reference", proc)


def start_ours(engine: str | None, mode: str | None, workers: int) -> tuple[Side, str]:
    env = {k: v for k, v in os.environ.items() if k != "EINVOICE_VALIDATE_ENGINE"}
    proc = subprocess.Popen(
        [sys.executable, "-c", _OURS, engine or "", mode or "", str(workers), *map(str, CASES)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    ready = proc.stdout.readline().split()
    if not ready or ready[0] != "ready":
        raise SystemExit("our validator did not start")
    return Side("ours", proc), ready[1]


def duel(
    workers: int, warmup: int, block: int, rounds: int, engine: str | None, mode: str | None, plan: str
) -> dict[str, object]:
    """Both sides warm, then ``rounds`` alternating measured blocks: the median rates and the median of the rounds'
    ratios (ours / reference)."""
    ref = start_reference(plan)
    ours, ran = start_ours(engine, mode, workers)
    try:
        step = max(1, min(20, warmup))
        done = 0
        while done < warmup:  # the warm-up alternates too (each JIT warms while the other side waits)
            n = min(step, warmup - done)
            ref.run(n, workers)
            ours.run(n, workers)
            done += n
        ratios = []
        for r in range(rounds):
            order = (ref, ours) if r % 2 == 0 else (ours, ref)
            for side in order:
                docs, secs, cpu = side.run(block, workers)
                side.rates.append(docs / secs)
                side.cpu_ms.append(cpu / docs * 1000)
            ratios.append(ours.rates[-1] / ref.rates[-1])
    finally:
        ref.close()
        ours.close()
    return {
        "ran": ran,
        "reference": statistics.median(ref.rates),
        "ours": statistics.median(ours.rates),
        "ratio": statistics.median(ratios),
        "ratios": ratios,
        "reference_cpu_ms": statistics.median(ref.cpu_ms),
        "ours_cpu_ms": statistics.median(ours.cpu_ms),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=WARMUP_PASSES)
    parser.add_argument("--block", type=int, default=4, help="passes per measured block (default 4)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--engine", default=None)
    parser.add_argument("--mode", default=None)
    parser.add_argument("--plan", default="auto")
    args = parser.parse_args()
    plan = plan_of(args.plan)
    result = duel(args.workers, args.warmup, args.block, args.rounds, args.engine, args.mode, plan)
    ratios = result["ratios"]
    assert isinstance(ratios, list)
    print(
        f"{len(CASES)} business cases, {args.workers} worker(s)/thread(s), warm-up {args.warmup} passes, "
        f"{args.rounds} rounds of {args.block} passes; ours {result['ran']}, reference plan {plan}"
    )
    print(f"  reference {result['reference']:8.1f} doc/s  ({result['reference_cpu_ms']:.2f} ms CPU per document)")
    print(f"  ours      {result['ours']:8.1f} doc/s  ({result['ours_cpu_ms']:.2f} ms CPU per document)")
    print(f"  ratio (median of rounds) {result['ratio']:.2f} x; rounds: {' '.join(f'{r:.2f}' for r in ratios)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
