"""The server's lockout of invalid keys costs the same per failure with an empty table and a full one (run with
``make bench``): the target that was a timed test in ``tests/test_server_limits.py`` (its structure, the bounded
table and the overflow entry, is tested there).

A full table (50,000 addresses) and a new address per failure: the overflow entry. The target is a ratio in the same
run: at most ten times the cost per failure of a table of 2,000.
"""

from __future__ import annotations

import time

from pytest_benchmark.fixture import BenchmarkFixture

from einvoice_validate.server.access import Lockout


def _per_failure(lockout: Lockout, n: int, offset: int) -> float:
    t0 = time.perf_counter()
    for i in range(n):
        lockout.fail(f"a{offset + i}")
    return (time.perf_counter() - t0) / n


def test_a_failure_costs_the_same_with_a_full_table(benchmark: BenchmarkFixture) -> None:
    def run() -> tuple[float, float]:
        lockout = Lockout(failures=10, window=60, seconds=60, max_addresses=50_000)
        small = _per_failure(lockout, 2000, 0)
        _per_failure(lockout, 48_000, 10_000)  # the table fills
        return small, _per_failure(lockout, 20_000, 100_000)  # full: the overflow entry

    small, large = benchmark.pedantic(run, rounds=3, iterations=1)
    assert large < 10 * small + 20e-6, f"{large * 1e6:.2f} µs per failure with a full table, {small * 1e6:.2f} µs empty"
