"""The server's ready time and memory with every pack installed and every profile prepared (issue 42: Croatia and
Peppol PINT), and what the new profiles add.

``einvoice-validate serve --workers 2 --prepare P ...`` is started as a deployment would, once with every official
profile named (``--prepare``: compiled before ``/v1/health`` answers 200), once with every profile but the
Croatian and PINT ones, and once as by default (no ``--prepare``: each profile compiles on its first document):
seconds until ready, and the resident memory of the server and all its worker processes together (the sum of
VmRSS), at ready and again after one invoice of each Croatian and PINT profile kind has been validated (which, in
the second and third runs, compiles those packs on first use).

Usage: python benchmarks/markets_server.py [--engines saxonc,saxon-java] [--repeat N] [--workers N]
(the median of N runs; wall-clock figures on a shared machine are noisy: compare the two lines of one run.)
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import descendants, free_port, rss_mb, wait_healthy  # benchmarks/server.py

SHARED = Path(__file__).resolve().parents[2] / "shared"
HR_PINT = SHARED / "corpus" / "hr-pint"
NEW = ("hr-cius-", "pint-")
LABELS = {
    "all": "--prepare every profile",
    "old": "--prepare every profile but Croatia's and PINT's",
    "none": "no --prepare (the default)",
}


def documents() -> list[Path]:
    """One invoice per folder of corpus/hr-pint (Croatia and each PINT jurisdiction)."""
    return [sorted(folder.glob("*.xml"))[0] for folder in sorted(HR_PINT.iterdir()) if folder.is_dir()]


def serve(engine: str, workers: int, prepare: str) -> tuple[float, float, float]:
    """Seconds until ready, MB of all the server's processes then, and after one document of each new kind."""
    from einvoice_validate.profiles import load_profiles

    port = free_port()
    command = [str(Path(sys.executable).with_name("einvoice-validate")), "serve", "--port", str(port)]
    command += ["--workers", str(workers), "--engine", engine]
    for profile in load_profiles() if prepare != "none" else ():
        if prepare == "all" or not profile.name.startswith(NEW):
            command += ["--prepare", profile.name]
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_healthy(f"http://127.0.0.1:{port}/v1/health", proc, timeout=900)
        ready = time.perf_counter() - start
        at_ready = rss_mb(descendants(proc.pid))
        for path in documents():
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/v1/invoices/validate",
                data=path.read_bytes(),
                headers={"Content-Type": "application/xml"},
            )
            with urllib.request.urlopen(request, timeout=600) as answer:
                assert answer.status == 200, path
        return ready, at_ready, rss_mb(descendants(proc.pid))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="saxonc,saxon-java")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for engine in args.engines.split(","):
        for prepare, label in LABELS.items():
            runs = [serve(engine, args.workers, prepare) for _ in range(args.repeat)]
            ready, at_ready, after = (statistics.median(r[i] for r in runs) for i in range(3))
            print(
                f"{engine}, serve --workers {args.workers}, {label}: ready after {ready:.1f} s, "
                f"{at_ready:.0f} MB in all; {after:.0f} MB after one invoice of Croatia and of each PINT jurisdiction",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
