"""Our validation server against the reference daemon, in one run: the same load generator (wrk), the same
invoices, the same cores.

For each server: start it (ours: ``einvoice-validate serve --workers N``, the engine and mode as a deployment
gets them without choosing unless ``--engine``/``--mode`` say; the reference: ``RefValidate PLAN --serve PORT
--threads N``, which compiles every pack before it answers), time how long it takes to answer its health check
(ours: ``/v1/health`` 200, i.e. ready to take documents), warm it up with ``--warmup`` seconds of the same load (the
reference daemon has no warm-up option: the JIT warms on requests), then measure ``--duration`` seconds at
``--concurrency`` connections, POSTing the 66 XRechnung business cases in turn. Prints the time to ready,
requests/s, p50 / p99 latency (wrk's), answers that were not 200, and the resident memory of all the server's
processes (peak sampled from the start, and after the run), then the ratios. ``--plan``: see throughput.py.

Usage: python benchmarks/server.py [--duration 30] [--warmup 60] [--concurrency 8] [--workers 2] [--engine NAME]
       [--mode threads|processes] [--plan auto|FILE]
       (needs `make rulesets reference`; installs wrk with apt-get if it is missing, as `make bench-server` does)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
CASES = sorted((SHARED / "corpus/xrechnung-testsuite/business-cases/standard").glob("*.xml"))
SAXON_JAR = "/usr/share/java/Saxon-HE.jar"

LUA = """
local bodies = {}
local path, ctype
local i = 0
function init(args)
  path, ctype = args[1], args[2]
  for name in io.lines(args[3]) do
    local f = assert(io.open(name, "rb"))
    bodies[#bodies + 1] = f:read("*a")
    f:close()
  end
  i = math.random(#bodies)  -- each thread starts elsewhere in the list
end
function request()
  i = i % #bodies + 1
  return wrk.format("POST", path, {["Content-Type"] = ctype}, bodies[i])
end
"""


@dataclass
class Figures:
    name: str
    ready_s: float
    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    not_ok: int
    rss_peak_mb: float
    rss_after_mb: float
    processes: int


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() != 0:
        sys.exit("wrk is missing: apt-get install -y wrk (as root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, env=env, stdout=subprocess.DEVNULL)
    return shutil.which("wrk") or sys.exit("wrk could not be installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += children.get(p, [])
    return found


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        match = re.search(r"VmRSS:\s+(\d+) kB", status)
        total += int(match.group(1)) if match else 0
    return total / 1024


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the server exited ({proc.returncode}) before it was ready")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.02)
    sys.exit(f"not ready after {timeout} s: {url}")


def parse_duration_ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


def run_wrk(wrk: str, url: str, path: str, ctype: str, lists: Path, seconds: int, connections: int) -> str:
    threads = min(2, connections)
    cmd = [wrk, "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency", "--timeout", "60s"]
    cmd += ["-s", str(lists / "bodies.lua"), url, "--", path, ctype, str(lists / "files.txt")]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def measure(
    name: str,
    cmd: list[str],
    cwd: Path,
    health: str,
    url: str,
    path: str,
    ctype: str,
    args: argparse.Namespace,
    wrk: str,
    lists: Path,
) -> Figures:
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    peak = 0.0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.5):
            peak = max(peak, rss_mb(descendants(proc.pid)))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        wait_healthy(health, proc)
        ready = time.monotonic() - start
        if args.warmup:
            run_wrk(wrk, url, path, ctype, lists, args.warmup, args.concurrency)
        out = run_wrk(wrk, url, path, ctype, lists, args.duration, args.concurrency)
        done.set()
        sampler.join()
        pids = descendants(proc.pid)
        after = rss_mb(pids)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    latency = dict(re.findall(r"^\s+(50|99)%\s+(\S+)\s*$", out, re.M))
    if "99" not in latency:
        sys.exit(f"{name}: no latency distribution in wrk's output:\n{out}")
    not_ok = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)$", out, re.M)
    if errors:
        print(f"{name}: wrk socket errors: {errors.group(1)}", file=sys.stderr)
    return Figures(
        name=name,
        ready_s=ready,
        rps=float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
        p50_ms=parse_duration_ms(latency["50"]),
        p99_ms=parse_duration_ms(latency["99"]),
        requests=int(re.search(r"(\d+) requests in", out).group(1)),  # type: ignore[union-attr]
        not_ok=int(not_ok.group(1)) if not_ok else 0,
        rss_peak_mb=max(peak, after),
        rss_after_mb=after,
        processes=len(pids),
    )


def add_arguments(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    parser.add_argument(f"--{prefix}duration", type=int, default=30, help="measured seconds per server")
    parser.add_argument(f"--{prefix}warmup", type=int, default=60, help="unmeasured seconds of the same load first")
    parser.add_argument(f"--{prefix}concurrency", type=int, default=8)
    parser.add_argument("--prepare", action="append", default=[], help="ours: compile these profiles before ready")
    parser.add_argument("--engine", help="ours: the XSLT engine (default: as a deployment gets it without choosing)")
    parser.add_argument("--mode", help="ours: threads or processes (default: the engine's)")


def run(args: argparse.Namespace, workers: int, plan: str) -> tuple[Figures, Figures]:
    """Our server and the reference daemon, one after the other: (ours, reference)."""
    if len(CASES) != 66:
        sys.exit(f"expected the 66 XRechnung business cases under {SHARED}, found {len(CASES)}")
    wrk = ensure_wrk()
    subprocess.run(["bash", str(REPO / "tools/build-reference.sh")], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        lists = Path(tmp)
        (lists / "bodies.lua").write_text(LUA)
        (lists / "files.txt").write_text("".join(f"{p}\n" for p in CASES))
        port = free_port()
        ref_cmd = ["java", "-cp", f"{SAXON_JAR}:{REPO / 'build/reference'}", "RefValidate"]
        ref_cmd += [f"../reference/{plan}", "--serve", str(port), "--threads", str(workers)]
        base = f"http://127.0.0.1:{port}"
        ref = measure(
            "reference daemon",
            ref_cmd,
            SHARED / "rulesets",
            base + "/health",
            base,
            "/invoice.xml",
            "application/xml",
            args,
            wrk,
            lists,
        )
        port = free_port()
        ours_cmd = [sys.executable, "-m", "einvoice_validate", "serve", "--port", str(port)]
        ours_cmd += ["--workers", str(workers), "--max-in-flight", "1000"]
        for profile in args.prepare:
            ours_cmd += ["--prepare", profile]
        if args.engine:
            ours_cmd += ["--engine", args.engine]
        if args.mode:
            ours_cmd += ["--mode", args.mode]
        base = f"http://127.0.0.1:{port}"
        ours = measure(
            "einvoice-validate serve",
            ours_cmd,
            REPO,
            base + "/v1/health",
            base,
            "/v1/invoices/validate",
            "application/xml",
            args,
            wrk,
            lists,
        )
    return ours, ref


def table(ours: Figures, ref: Figures) -> None:
    print(
        f"{'server':<26}{'ready s':>9}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'requests':>10}{'not 200':>9}"
        f"{'RSS peak MB':>13}{'RSS after':>11}{'procs':>7}"
    )
    for f in (ours, ref):
        print(
            f"{f.name:<26}{f.ready_s:>9.2f}{f.rps:>9.1f}{f.p50_ms:>9.1f}{f.p99_ms:>9.1f}{f.requests:>10}{f.not_ok:>9}"
            f"{f.rss_peak_mb:>13.0f}{f.rss_after_mb:>11.0f}{f.processes:>7}"
        )


def main() -> None:
    from throughput import plan_of

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--workers", type=int, default=2, help="our workers and the reference's threads")
    parser.add_argument("--plan", default="auto", help="the reference's plan (default: auto, see throughput.py)")
    args = parser.parse_args()
    plan = plan_of(args.plan)
    ours, ref = run(args, args.workers, plan)
    print(
        f"{len(CASES)} XRechnung business cases, concurrency {args.concurrency}, {args.workers} workers/threads, "
        f"{os.cpu_count()} cores, warm-up {args.warmup} s, measured {args.duration} s each, wrk, reference {plan}"
    )
    table(ours, ref)
    print(
        f"ratios ours/reference: throughput {ours.rps / ref.rps:.2f} x (target >= 2.5), "
        f"p99 {ours.p99_ms / ref.p99_ms:.2f} x (target <= 0.6), memory {ours.rss_peak_mb:.0f} MB (target <= 500), "
        f"ready after {ours.ready_s:.2f} s (target <= 3)"
    )


if __name__ == "__main__":
    main()
