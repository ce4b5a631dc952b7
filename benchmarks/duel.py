"""Steady-state throughput against the reference, interleaved: both sides warm in their own process at once, measured
in alternating blocks, so that the machine's drift (this 2-core machine swings 10-25 % between minutes) touches both
alike; the ratio of each round's two blocks, and the median of those ratios, is the figure.

The reference is RefValidate's own code (``RefValidate.runPasses``: Saxon parse, Xerces XSD, the official
stylesheets on N threads) driven by ``RefBlocks.java`` in its JVM, started as ``tools/run-reference.sh`` starts it.
Ours is a ``BatchValidator`` (``--engine``/``--mode``, default: what a caller gets without choosing, for a long
batch) in a Python process of its own. Each side first gets ``--warmup`` unmeasured passes over the 66 business
cases (in blocks, alternating), then ``--rounds`` rounds of one measured block each (``--block`` passes), the side
going first alternating from round to round.

``--smallest N`` runs the N smallest business cases instead (33: the small half, about 8 KB each, where the fixed
work per document counts most). ``--baseline SRC`` adds a third side in every round: the same validator from another
source tree with its bundled data beside it (e.g. ``git archive main | tar -x -C /tmp/base``, then ``--baseline
/tmp/base/src``), warm alike, so a change's before and after are measured against the same reference in one run.
``--baseline-home HOME``: the baseline's rules home (a change to the preparation steps: the baseline's code refuses
copies prepared with other steps; e.g. a copy of the home made before ``make rulesets``).

Usage: python benchmarks/duel.py [--workers 1] [--warmup 200] [--block 4] [--rounds 15] [--engine E] [--mode M]
       [--plan auto|FILE] [--smallest N] [--baseline SRC [--baseline-home HOME]]   (needs `make rulesets reference`)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

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


def start_reference(plan: str, cases: list[Path]) -> Side:
    subprocess.run(["bash", str(REPO / "tools/build-reference.sh")], check=True)
    out = REPO / "build/reference"
    jar = "/usr/share/java/Saxon-HE.jar"
    subprocess.run(
        ["javac", "-nowarn", "-cp", f"{jar}:{out}", "-d", str(out), str(REPO / "benchmarks/RefBlocks.java")], check=True
    )
    plan_path = plan if plan.startswith("/") else f"../reference/{plan}"
    proc = subprocess.Popen(
        ["java", "-cp", f"{jar}:{out}", "RefBlocks", plan_path, *map(str, cases)],
        cwd=SHARED / "rulesets",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise SystemExit("the reference did not start")
    return Side("reference", proc)


def start_ours(
    engine: str | None,
    mode: str | None,
    workers: int,
    cases: list[Path],
    source: str | None = None,
    home: str | None = None,
) -> tuple[Side, str]:
    env = {k: v for k, v in os.environ.items() if k != "EINVOICE_VALIDATE_ENGINE"}
    if source is not None:  # another source tree of the package, ahead of this one
        env["PYTHONPATH"] = os.pathsep.join([source, *filter(None, [env.get("PYTHONPATH")])])
    if home is not None:
        env["EINVOICE_VALIDATE_HOME"] = home
    proc = subprocess.Popen(
        [sys.executable, "-c", _OURS, engine or "", mode or "", str(workers), *map(str, cases)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    ready = proc.stdout.readline().split()
    if not ready or ready[0] != "ready":
        raise SystemExit("our validator did not start")
    return Side("ours" if source is None else "baseline", proc), ready[1]


def duel(
    workers: int,
    warmup: int,
    block: int,
    rounds: int,
    engine: str | None,
    mode: str | None,
    plan: str,
    cases: list[Path] = CASES,
    baseline: str | None = None,
    baseline_home: str | None = None,
) -> dict[str, object]:
    """Both sides warm, then ``rounds`` alternating measured blocks: the median rates and the median of the rounds'
    ratios (ours / reference; with ``baseline``, also the baseline's / reference)."""
    ref = start_reference(plan, cases)
    ours, ran = start_ours(engine, mode, workers, cases)
    sides = [ref, ours]
    if baseline is not None:
        sides.append(start_ours(engine, mode, workers, cases, baseline, baseline_home)[0])
    try:
        step = max(1, min(20, warmup))
        done = 0
        while done < warmup:  # the warm-up alternates too (each JIT warms while the other side waits)
            n = min(step, warmup - done)
            for side in sides:
                side.run(n, workers)
            done += n
        ratios: dict[str, list[float]] = {side.name: [] for side in sides[1:]}
        for r in range(rounds):
            for side in sides[r % len(sides) :] + sides[: r % len(sides)]:  # each side goes first in turn
                docs, secs, cpu = side.run(block, workers)
                side.rates.append(docs / secs)
                side.cpu_ms.append(cpu / docs * 1000)
            for side in sides[1:]:
                ratios[side.name].append(side.rates[-1] / ref.rates[-1])
    finally:
        for side in sides:
            side.close()
    result: dict[str, object] = {"ran": ran, "cases": len(cases)}
    for side in sides:
        result[side.name] = statistics.median(side.rates)
        result[f"{side.name}_cpu_ms"] = statistics.median(side.cpu_ms)
    for name, values in ratios.items():
        result["ratio" if name == "ours" else f"{name}_ratio"] = statistics.median(values)
        result["ratios" if name == "ours" else f"{name}_ratios"] = values
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=WARMUP_PASSES)
    parser.add_argument("--block", type=int, default=4, help="passes per measured block (default 4)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--engine", default=None)
    parser.add_argument("--mode", default=None)
    parser.add_argument("--plan", default="auto")
    parser.add_argument("--smallest", type=int, help="only the N smallest business cases (33: the small half)")
    parser.add_argument("--baseline", help="a third side: the package from this source tree (a src folder)")
    parser.add_argument("--baseline-home", help="the baseline's rules home (default: the same as ours)")
    args = parser.parse_args()
    plan = plan_of(args.plan)
    cases = sorted(CASES, key=lambda p: p.stat().st_size)[: args.smallest] if args.smallest else CASES
    result = duel(
        args.workers,
        args.warmup,
        args.block,
        args.rounds,
        args.engine,
        args.mode,
        plan,
        sorted(cases),
        args.baseline,
        args.baseline_home,
    )
    print(
        f"{len(cases)} {'smallest ' if args.smallest else ''}business cases, {args.workers} worker(s)/thread(s), "
        f"warm-up {args.warmup} passes, {args.rounds} rounds of {args.block} passes; ours {result['ran']}, "
        f"reference plan {plan}" + (f", baseline {args.baseline}" if args.baseline else "")
    )
    for name in ("reference", "ours", "baseline"):
        if name in result:
            print(f"  {name:<9} {result[name]:8.1f} doc/s  ({result[f'{name}_cpu_ms']:.2f} ms CPU per document)")
    for name, key in (("ours", "ratio"), ("baseline", "baseline_ratio")):
        if key in result:
            values = result[f"{key}s"]
            assert isinstance(values, list)
            print(
                f"  {name:<9} / reference (median of rounds) {result[key]:.2f} x; "
                f"rounds: {' '.join(f'{r:.2f}' for r in values)}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
