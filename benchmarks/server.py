"""Our validation server against the reference daemon at its best, in one run: the same load generator (wrk), the
same invoices, the same cores, both warm, measured in interleaved rounds (a shared machine slows both alike).

The reference daemon: ``java -Dsun.net.httpserver.nodelay=true RefValidate PLAN --serve PORT --threads N`` (without
TCP_NODELAY the JDK's HttpServer waits ~40 ms for Nagle's algorithm on each answer: that measures the floor, not
the work; it compiles every pack before it answers). Ours: ``einvoice-validate serve --workers N`` as a deployment
gets it without choosing (``--engine``/``--mode`` to choose).

For each server: the time until health answers 200 (``ready s``); ``--warmup`` seconds of the load, in rounds
alternating between the servers; then, for each concurrency (``--concurrency``, default 8 and 32), ``--rounds``
rounds of ``--duration`` seconds per server, alternating which goes first, POSTing the 66 XRechnung business cases
in turn. Per server and concurrency (medians of the rounds): requests answered per second (200 only), p50 / p99
latency (wrk's), answered and turned away (not 200, e.g. 503 invoice.busy) in all. Then the resident memory of all
the server's processes (peak, sampled every 0.5 s from the start; the peaks under the typical load and in the
large-invoice scenario; after the run), and the large-invoice scenario: 8 clients sending the business cases
while one client sends a ``--large-lines``-line XRechnung invoice (``tools/make_large_invoice.py``) over and over:
the typical requests' rate and p99 then, against the same concurrency without it, and the large invoice's
seconds. Last, the ratios and the targets (issue 41): throughput
(best concurrency each) >= 1.5 x, p99 at concurrency 8 <= 0.6 x, every request at 32 answered, all processes <=
500 MB, ready <= 3 s.

Usage: python benchmarks/server.py [--duration 20] [--warmup 60] [--rounds 3] [--concurrency 8,32] [--workers 2]
       [--large-lines 4000] [--large-duration 40] [--engine NAME] [--mode threads|processes] [--plan auto|FILE]
       (needs `make rulesets reference`; `make bench-server` installs wrk with apt-get when it is missing)
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
CASES = sorted((SHARED / "corpus/xrechnung-testsuite/business-cases/standard").glob("*.xml"))
SAXON_JAR = "/usr/share/java/Saxon-HE.jar"
NODELAY = "-Dsun.net.httpserver.nodelay=true"

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
class Load:
    """One wrk run."""

    seconds: float
    requests: int
    turned_away: int
    socket_errors: str
    p50_ms: float
    p99_ms: float

    @property
    def answered(self) -> int:
        return self.requests - self.turned_away

    @property
    def rate(self) -> float:
        """Answered requests per second."""
        return self.answered / self.seconds


@dataclass
class Server:
    """A server under test: how to reach it, and what was seen of its processes."""

    name: str
    proc: subprocess.Popen[bytes]
    base: str
    path: str
    ready_s: float = 0.0
    rss_peak_mb: float = 0.0
    rss_after_mb: float = 0.0
    processes: int = 0
    loads: dict[int, list[Load]] = field(default_factory=dict)
    phase: str = "start"  # what the load is now: start, typical, large
    peaks: dict[str, float] = field(default_factory=dict)  # the RSS peak (MB) of all its processes per phase

    def median(self, concurrency: int, attr: str) -> float:
        return statistics.median(getattr(x, attr) for x in self.loads[concurrency])

    def total(self, concurrency: int, attr: str) -> int:
        return sum(getattr(x, attr) for x in self.loads[concurrency])


@dataclass
class Figures:
    """What ``benchmarks/targets.py`` reads of one server (at its best concurrency)."""

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
    p99_at_8_ms: float  # at concurrency 8, the latency target, whichever concurrency was best (NaN: not run)


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


def run_wrk(wrk: str, server: Server, lists: Path, seconds: float, connections: int) -> Load:
    threads = min(2, connections)
    cmd = [wrk, "-t", str(threads), "-c", str(connections), "-d", f"{seconds:g}s", "--latency", "--timeout", "60s"]
    cmd += ["-s", str(lists / "bodies.lua"), server.base, "--", server.path, "application/xml"]
    out = subprocess.run([*cmd, str(lists / "files.txt")], check=True, capture_output=True, text=True).stdout
    latency = dict(re.findall(r"^\s+(50|99)%\s+(\S+)\s*$", out, re.M))
    if "99" not in latency:
        sys.exit(f"{server.name}: no latency distribution in wrk's output:\n{out}")
    total = re.search(r"(\d+) requests in ([\d.]+)(ms|s|m)", out)
    assert total is not None
    not_ok = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)$", out, re.M)
    return Load(
        seconds=parse_duration_ms(total.group(2) + total.group(3)) / 1000,
        requests=int(total.group(1)),
        turned_away=int(not_ok.group(1)) if not_ok else 0,
        socket_errors=errors.group(1) if errors else "",
        p50_ms=parse_duration_ms(latency["50"]),
        p99_ms=parse_duration_ms(latency["99"]),
    )


@contextmanager
def started(name: str, cmd: list[str], cwd: Path, health: str, base: str, path: str) -> Iterator[Server]:
    """Start a server, wait until it is ready, sample the memory of its processes until it is stopped."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    server = Server(name, proc, base, path)
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.5):
            pids = descendants(proc.pid)
            rss = rss_mb(pids)
            server.rss_peak_mb = max(server.rss_peak_mb, rss)
            server.peaks[server.phase] = max(server.peaks.get(server.phase, 0.0), rss)
            server.processes = max(server.processes, len(pids))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        wait_healthy(health, proc)
        server.ready_s = time.monotonic() - start
        yield server
        server.rss_after_mb = rss_mb(descendants(proc.pid))
        server.rss_peak_mb = max(server.rss_peak_mb, server.rss_after_mb)
    finally:
        done.set()
        sampler.join()
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def interleaved(wrk: str, servers: list[Server], lists: Path, args: argparse.Namespace) -> None:
    """Warm both (alternating rounds), then measure each concurrency in alternating rounds."""
    rounds = max(1, round(args.warmup / 20))
    for server in servers:
        server.phase = "typical"
    for _ in range(rounds):
        for server in servers:
            run_wrk(wrk, server, lists, args.warmup / rounds, 8)
    for concurrency in args.concurrency:
        for r in range(args.rounds):
            for server in servers if r % 2 == 0 else servers[::-1]:
                server.loads.setdefault(concurrency, []).append(run_wrk(wrk, server, lists, args.duration, concurrency))


def large_scenario(wrk: str, server: Server, lists: Path, body: bytes, seconds: float) -> tuple[Load, list[float]]:
    """8 clients sending the business cases while one client sends the large invoice over and over: the typical
    load, and the large invoice's seconds (each one answered 200)."""
    took: list[float] = []
    stop = threading.Event()
    server.phase = "large"

    def post_large() -> None:
        while not stop.is_set():
            request = urllib.request.Request(
                server.base + server.path, data=body, headers={"Content-Type": "application/xml"}
            )
            t0 = time.monotonic()
            try:
                with urllib.request.urlopen(request, timeout=600) as r:
                    r.read()
                    status = r.status
            except urllib.error.HTTPError as exc:
                status = exc.code
            if status == 200 and not stop.is_set():
                took.append(time.monotonic() - t0)
            elif status != 200:
                print(f"{server.name}: the large invoice got {status}", file=sys.stderr)
                stop.wait(1)

    # once alone first: its packs compiled, its JIT warm
    request = urllib.request.Request(server.base + server.path, data=body, headers={"Content-Type": "application/xml"})
    with urllib.request.urlopen(request, timeout=600) as r:
        r.read()
    thread = threading.Thread(target=post_large, daemon=True)
    thread.start()
    time.sleep(1.0)  # the large one is being validated
    load = run_wrk(wrk, server, lists, seconds, 8)
    stop.set()
    thread.join()
    return load, took


def start_servers(args: argparse.Namespace, workers: int, plan: str) -> tuple[list[str], list[str]]:
    port = free_port()
    ref_cmd = ["java", NODELAY, "-cp", f"{SAXON_JAR}:{REPO / 'build/reference'}", "RefValidate"]
    ref_cmd += [f"../reference/{plan}", "--serve", str(port), "--threads", str(workers)]
    ours_cmd = [sys.executable, "-m", "einvoice_validate", "serve", "--port", str(free_port())]
    ours_cmd += ["--workers", str(workers), "--max-in-flight", "1000"]
    for profile in args.prepare:
        ours_cmd += ["--prepare", profile]
    if args.engine:
        ours_cmd += ["--engine", args.engine]
    if args.mode:
        ours_cmd += ["--mode", args.mode]
    return ours_cmd, ref_cmd


@contextmanager
def both(args: argparse.Namespace, workers: int, plan: str) -> Iterator[tuple[Server, Server, Path, str]]:
    """(ours, reference, the wrk lists, wrk), both started and ready."""
    if len(CASES) != 66:
        sys.exit(f"expected the 66 XRechnung business cases under {SHARED}, found {len(CASES)}")
    wrk = ensure_wrk()
    subprocess.run(["bash", str(REPO / "tools/build-reference.sh")], check=True)
    ours_cmd, ref_cmd = start_servers(args, workers, plan)
    assert NODELAY in ref_cmd  # the daemon at its best (see the module docstring)
    ref_port, ours_port = ref_cmd[ref_cmd.index("--serve") + 1], ours_cmd[ours_cmd.index("--port") + 1]
    with tempfile.TemporaryDirectory() as tmp:
        lists = Path(tmp)
        (lists / "bodies.lua").write_text(LUA)
        (lists / "files.txt").write_text("".join(f"{p}\n" for p in CASES))
        ref_base, ours_base = f"http://127.0.0.1:{ref_port}", f"http://127.0.0.1:{ours_port}"
        with (
            started(
                "reference daemon", ref_cmd, SHARED / "rulesets", ref_base + "/health", ref_base, "/invoice.xml"
            ) as ref,
            started(
                "einvoice-validate serve", ours_cmd, REPO, ours_base + "/v1/health", ours_base, "/v1/invoices/validate"
            ) as ours,
        ):
            yield ours, ref, lists, wrk


def best(server: Server) -> Figures:
    """The server at its best concurrency (the most answered requests per second)."""
    c = max(server.loads, key=lambda k: server.median(k, "rate"))
    return Figures(
        name=server.name,
        ready_s=server.ready_s,
        rps=server.median(c, "rate"),
        p50_ms=server.median(c, "p50_ms"),
        p99_ms=server.median(c, "p99_ms"),
        requests=server.total(c, "requests"),
        not_ok=server.total(c, "turned_away"),
        rss_peak_mb=server.rss_peak_mb,
        rss_after_mb=server.rss_after_mb,
        processes=server.processes,
        p99_at_8_ms=server.median(8, "p99_ms") if 8 in server.loads else math.nan,
    )


def run(args: argparse.Namespace, workers: int, plan: str) -> tuple[Figures, Figures]:
    """Both servers, interleaved (for ``benchmarks/targets.py``): (ours, reference) at their best concurrency."""
    if not hasattr(args, "rounds"):
        args.rounds = 2
    if isinstance(args.concurrency, int):
        args.concurrency = [args.concurrency]
    with both(args, workers, plan) as (ours, ref, lists, wrk):
        interleaved(wrk, [ref, ours], lists, args)
    return best(ours), best(ref)


def table(ours: Figures, ref: Figures) -> None:
    print(f"{'server':<26}{'ready s':>9}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'RSS peak MB':>13}{'procs':>7}")
    for f in (ours, ref):
        print(
            f"{f.name:<26}{f.ready_s:>9.2f}{f.rps:>9.1f}{f.p50_ms:>9.1f}{f.p99_ms:>9.1f}{f.rss_peak_mb:>13.0f}"
            f"{f.processes:>7}"
        )


def add_arguments(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    parser.add_argument(f"--{prefix}duration", type=float, default=20, help="measured seconds per server and round")
    parser.add_argument(f"--{prefix}warmup", type=float, default=60, help="unmeasured seconds of the load first")
    parser.add_argument(
        f"--{prefix}concurrency",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[8, 32],
        help="comma-separated connection counts (default 8,32)",
    )
    parser.add_argument("--prepare", action="append", default=[], help="ours: compile these profiles before ready")
    parser.add_argument("--engine", help="ours: the XSLT engine (default: as a deployment gets it without choosing)")
    parser.add_argument("--mode", help="ours: threads or processes (default: the engine's)")


def main() -> None:
    from throughput import plan_of

    sys.path.insert(0, str(REPO / "tools"))
    from make_large_invoice import make

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--rounds", type=int, default=3, help="measured rounds per server and concurrency")
    parser.add_argument("--workers", type=int, default=2, help="our workers and the reference's threads")
    parser.add_argument("--plan", default="auto", help="the reference's plan (default: auto, see throughput.py)")
    parser.add_argument("--large-lines", type=int, default=4000, help="lines of the large invoice (0: skip)")
    parser.add_argument("--large-duration", type=float, default=40, help="seconds of the large-invoice scenario")
    args = parser.parse_args()
    plan = plan_of(args.plan)
    large = make(args.large_lines) if args.large_lines else b""
    with both(args, args.workers, plan) as (ours, ref, lists, wrk):
        servers = [ref, ours]
        interleaved(wrk, servers, lists, args)
        scenario = {s.name: large_scenario(wrk, s, lists, large, args.large_duration) for s in servers} if large else {}
    print(
        f"{datetime.now():%Y-%m-%d %H:%M} · {len(CASES)} XRechnung business cases, {args.workers} workers/threads, "
        f"{os.cpu_count()} cores, warm-up {args.warmup:g} s, {args.rounds} interleaved rounds of {args.duration:g} s "
        f"per server and concurrency (medians), wrk; reference {plan} with {NODELAY}"
    )
    print(
        f"{'server':<26}{'conc':>5}{'answered/s':>11}{'p50 ms':>9}{'p99 ms':>9}{'answered':>10}{'turned away':>12}"
        f"  socket errors"
    )
    for c in args.concurrency:
        for s in (ours, ref):
            errors = "; ".join(sorted({x.socket_errors for x in s.loads[c] if x.socket_errors})) or "-"
            print(
                f"{s.name:<26}{c:>5}{s.median(c, 'rate'):>11.1f}{s.median(c, 'p50_ms'):>9.1f}"
                f"{s.median(c, 'p99_ms'):>9.1f}{s.total(c, 'answered'):>10}{s.total(c, 'turned_away'):>12}  {errors}"
            )
    print(
        f"{'server':<26}{'ready s':>9}{'RSS peak MB':>13}{'typical':>9}{'large':>7}{'RSS after MB':>14}"
        f"{'processes':>11}"
    )
    for s in (ours, ref):
        typical, large_mb = s.peaks.get("typical", 0.0), s.peaks.get("large", 0.0)
        print(
            f"{s.name:<26}{s.ready_s:>9.2f}{s.rss_peak_mb:>13.0f}{typical:>9.0f}{large_mb:>7.0f}"
            f"{s.rss_after_mb:>14.0f}{s.processes:>11}"
        )
    if scenario:
        print(
            f"large invoice ({args.large_lines} lines, {len(large) // 1024} KB) sent over and over by one client while "
            f"8 clients send the business cases, {args.large_duration:g} s:"
        )
        print(f"{'server':<26}{'typical/s':>10}{'alone/s':>9}{'kept':>7}{'p99 ms':>9}{'alone p99':>10}{'large s':>9}")
        for s in (ours, ref):
            load, took = scenario[s.name]
            alone = s.median(8, "rate") if 8 in s.loads else float("nan")
            alone_p99 = s.median(8, "p99_ms") if 8 in s.loads else float("nan")
            large_s = f"{statistics.median(took):.1f}" if took else "-"
            print(
                f"{s.name:<26}{load.rate:>10.1f}{alone:>9.1f}{load.rate / alone:>7.0%}{load.p99_ms:>9.1f}"
                f"{alone_p99:>10.1f}{large_s:>9}"
            )
    o, r = best(ours), best(ref)
    print("ratios ours/reference and targets (issue 41):")
    print(f"  throughput, best concurrency each ({o.rps:.1f} / {r.rps:.1f} answered/s): {o.rps / r.rps:.2f} x (>= 1.5)")
    if 8 in ours.loads:
        p99 = ours.median(8, "p99_ms") / ref.median(8, "p99_ms")
        print(f"  p99 at concurrency 8: {p99:.2f} x (<= 0.6)")
    for c in args.concurrency:
        if c != 8:
            print(f"  p99 at concurrency {c}: {ours.median(c, 'p99_ms') / ref.median(c, 'p99_ms'):.2f} x")
            print(
                f"  turned away at concurrency {c}: {ours.total(c, 'turned_away')} of {ours.total(c, 'requests')} (0)"
            )
    print(f"  memory of all our processes, peak: {ours.rss_peak_mb:.0f} MB (<= 500)")
    print(f"  ready after {ours.ready_s:.2f} s (<= 3)")


if __name__ == "__main__":
    main()
