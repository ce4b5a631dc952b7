"""The short run of the fuzz campaign (issue 40), in CI: a fixed seed and a fixed number of executions of the
harness (:mod:`tests.fuzz.harness`) under ``strace -f``, in a subprocess. It passes when libFuzzer found no crash
(every invariant of the harness held on every input: the library's own errors with the API's codes, findings
with ids, no sentinel file open, peak memory growth per input under 300 MB, each input within the timeout) and the
system calls of the whole run name no sentinel file, no ``/dev/stdin``, no catalog and no network address.
The long run is ``make fuzz`` (duration ``FUZZ_SECONDS``)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.fuzz.check_trace import TRACED, violations
from tests.hostile import run_bounded

REPO = Path(__file__).resolve().parents[2]
RUNS = 300  # executions (the seeds first); about a minute with the packs of the examples' profiles compiled
TIMEOUT_S = 600  # "does not hang": the run takes one to two minutes


def test_short_fuzz_run_breaks_no_invariant(tmp_path: Path) -> None:
    strace = shutil.which("strace")
    if strace is None:
        pytest.fail("strace is not installed: `make test` installs it (apt-get install strace)")
    trace = tmp_path / "trace.log"
    env = {**os.environ, "PYTHONPATH": f"{REPO / 'src'}{os.pathsep}{REPO}", "EINVOICE_FUZZ_SEEDS": "small"}
    command = [
        strace, "-f", "-qq", "-e", f"trace={TRACED}", "-o", str(trace),
        sys.executable, "-m", "tests.fuzz.harness", str(tmp_path),
        f"-runs={RUNS}", "-seed=1", "-timeout=120", "-rss_limit_mb=6144", "-print_final_stats=1",
    ]  # fmt: skip
    returncode, output, errors = run_bounded(command, env, TIMEOUT_S, cwd=REPO)
    output += errors
    tail = "\n".join(line for line in output.splitlines() if "Instrumenting" not in line)[-4000:]
    assert returncode == 0, tail
    assert "Done" in output and not list(tmp_path.glob("crash-*")), tail
    assert violations(trace.read_text(errors="replace")) == []
