"""What the French packs (issue 31) cost to compile, and in memory, on both engines.

Each measurement runs in a fresh process, so that nothing is compiled or cached already: per pack, the engine is
started (for ``saxon-java`` the JVM: reported on its own line), then the pack's prepared stylesheet is compiled
(seconds, wall clock) and the process's resident memory is read before and after (MB; the difference is what the
compiled pack holds, as far as the collector lets it show), once as the first stylesheet of the process ("cold")
and once after CEN's two packs were compiled ("warm": a worker compiles several packs; Saxon for Java's first
compilation also loads and JIT-compiles Saxon itself). CEN's packs are measured the same way, as the yardstick.
Then, per engine, a process that compiles the packs of every French profile (``Validator.prepare(<the fr-*
profiles>)``) and one that compiles every pack of every profile (``Validator.prepare()``, what a server worker does
unless ``serve --prepare`` narrows it): wall time and peak RSS.

With ``--server`` (our server only; the reference daemon, which would need ``-Dsun.net.httpserver.nodelay=true``,
is not started): ``einvoice-validate serve --workers 2`` started as a deployment would, compiling every profile's
packs before it is ready (the default) or only the French profiles' (``--prepare`` each): seconds until
``/v1/health`` answers 200, and the resident memory of the server and its workers together, then again after one
invoice of each French profile kind has been validated.

Usage: python benchmarks/france_compile.py [--engines saxonc,saxon-java] [--repeat N] [--server]
(``--repeat``: each fresh-process measurement N times, the median reported; the machine's noise is ±10-15 %.)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import descendants, free_port, rss_mb, wait_healthy  # benchmarks/server.py

PACKS = [f"fr-{k}-{s}@1.4.0.03" for k in ("ctc", "extended-ctc") for s in ("ubl", "cii")]
BASELINE = ["en16931-ubl@1.3.16", "en16931-cii@1.3.16"]  # CEN's packs, in the same run: the yardstick
RULES_DATE = date(2026, 11, 24)


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child(engine_name: str, what: str) -> dict[str, float]:
    """One measurement in this (fresh) process."""
    from einvoice_validate import Validator
    from einvoice_validate.rulesets import Registry
    from einvoice_validate.schematron.engines import get_engine

    if what in ("french", "all"):
        start = time.perf_counter()
        validator = Validator(engine=engine_name, rules_date=RULES_DATE)
        names = [p.name for p in validator.profiles if p.name.startswith("fr-")] if what == "french" else []
        validator.prepare(*names)
        return {
            "seconds": time.perf_counter() - start,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    engine = get_engine(engine_name)
    registry = Registry()
    warm = what.startswith("warm:")
    pack = registry.get(what.removeprefix("warm:"))
    path, checksum = pack.prepared("stylesheet")
    start = time.perf_counter()
    engine.parse_text("<x/>")  # starts the engine (the JVM for saxon-java)
    for key in BASELINE if warm else ():
        engine.compile(*registry.get(key).prepared("stylesheet"))
    started = time.perf_counter()
    before = _rss_mb()
    engine.compile(path, checksum)
    done = time.perf_counter()
    return {
        "engine_start": started - start,
        "compile": done - started,
        "rss_before": before,
        "rss_after": _rss_mb(),
        "xslt_kb": path.stat().st_size / 1024,
    }


def _run(engine: str, what: str) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", engine, what], capture_output=True, text=True, timeout=900
    )
    if proc.returncode != 0:
        sys.exit(f"{engine} {what}: {proc.stderr.strip().splitlines()[-1]}")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


SHARED = Path(os.environ.get("EINVOICE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
FRENCH_DOCUMENTS = [
    SHARED / "corpus/france/xp-z12-014-annexB-v1.3" / name
    for name in (
        "UC1_F202500003_00-INV_20250701_UBL_EN16931.xml",
        "UC1_F202500003_00-INV_20250701_CII_EN16931.xml",
        "UC11_F202600022_MULTI-VENDEUR_UBL_Commentee_EXTENDED..xml",
        "UC12_F202600025_SOUS-LIGNE_CII_Commentee_EXTENDED.xml",
    )
]


def serve(engine: str, french_only: bool) -> tuple[float, float, float]:
    """Seconds until the server is ready, MB of all its processes then, and after the French documents."""
    from einvoice_validate import Validator

    port = free_port()
    command = [str(Path(sys.executable).with_name("einvoice-validate")), "serve", "--port", str(port)]
    command += ["--workers", "2", "--engine", engine]
    if french_only:
        for name in (p.name for p in Validator().profiles if p.name.startswith("fr-")):
            command += ["--prepare", name]
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_healthy(f"http://127.0.0.1:{port}/v1/health", proc)
        ready = time.perf_counter() - start
        at_ready = rss_mb(descendants(proc.pid))
        for path in FRENCH_DOCUMENTS:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/v1/invoices/validate",
                data=path.read_bytes(),
                headers={"Content-Type": "application/xml"},
            )
            with urllib.request.urlopen(request, timeout=300) as answer:
                assert answer.status == 200
        return ready, at_ready, rss_mb(descendants(proc.pid))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="saxonc,saxon-java")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("ENGINE", "WHAT"))
    parser.add_argument("--server", action="store_true", help="measure the server's ready time and memory instead")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    if args.server:
        for engine in args.engines.split(","):
            for french_only in (False, True):
                runs = [serve(engine, french_only) for _ in range(args.repeat)]
                label = "French profiles" if french_only else "every profile"
                ready, at_ready, after = (statistics.median(r[i] for r in runs) for i in range(3))
                print(
                    f"{engine}, serve --workers 2, compiling {label}: ready after {ready:.1f} s, "
                    f"{at_ready:.0f} MB in all; {after:.0f} MB after one invoice of each French kind"
                )
        return 0
    for engine in args.engines.split(","):
        print(f"\n{engine}")
        print(f"{'pack':<30}{'XSLT KB':>9}{'cold s':>8}{'warm s':>8}{'+MB':>6}{'engine start s':>16}")
        for pack in [*PACKS, *BASELINE]:
            cold = [_run(engine, pack) for _ in range(args.repeat)]
            # CEN's packs are what "warm" compiles first: no warm figure of their own
            warm = [_run(engine, f"warm:{pack}") for _ in range(args.repeat)] if pack in PACKS else cold
            grown = statistics.median(r["rss_after"] - r["rss_before"] for r in cold)
            print(
                f"{pack:<30}{cold[0]['xslt_kb']:>9.0f}{_median(cold, 'compile'):>8.2f}"
                + (f"{_median(warm, 'compile'):>8.2f}" if pack in PACKS else f"{'-':>8}")
                + f"{grown:>6.0f}{_median(cold, 'engine_start'):>16.2f}"
            )
        for what, label in (("french", "every French profile"), ("all", "every profile")):
            runs = [_run(engine, what) for _ in range(args.repeat)]
            seconds, peak = _median(runs, "seconds"), _median(runs, "peak_mb")
            print(f"Validator.prepare({label}): {seconds:.2f} s, peak RSS {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
