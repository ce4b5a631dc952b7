"""What must not hang is run in a subprocess with a generous limit, never timed in the test process.

:func:`run_bounded` calls a function of the test suite (``module:function``, its arguments as strings) in a fresh
interpreter with this suite's environment (rules home, the suite's rules date), under a time limit far above what
the work needs (and optionally an address-space limit), the pattern of ``tests/input/test_bounded.py``. The function
asserts what it checks; a failed assertion or an error fails the test with the child's traceback, and a child still
running at the limit is killed and fails the test as hanging. How fast something is belongs in ``benchmarks/``.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable

import pytest

from tests.conftest import REPO

__all__ = ["run_bounded"]

_CHILD = (
    "import importlib, sys\n"
    "module, _, name = sys.argv[1].partition(':')\n"
    "getattr(importlib.import_module(module), name)(*sys.argv[2:])\n"
)


def _address_space(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run_bounded(target: str, *args: str, timeout: float, memory_bytes: int | None = None) -> str:
    """Run ``target`` (``module:function``) with ``args`` in a subprocess that must end within ``timeout`` seconds
    (and, when given, within ``memory_bytes`` of address space); its standard output."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, target, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=REPO,
            env=env,
            preexec_fn=_address_space(memory_bytes) if memory_bytes else None,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{target} did not end within {timeout:.0f} s: it hangs")
    assert done.returncode == 0, f"{target} failed:\n{done.stderr[-4000:]}"
    return done.stdout
