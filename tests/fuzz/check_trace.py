"""Reads the ``strace -f`` log of a fuzz run: no system call may name a sentinel file, ``/dev/stdin`` or a libxml2
catalog, and no socket may connect to a network address (issue 40's campaign invariants at the C level).

Usage: python -m tests.fuzz.check_trace TRACE   (exit status 1 and the offending lines when one is found)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.fuzz.mutators import SENTINEL

TRACED = (
    "open,openat,openat2,creat,stat,lstat,newfstatat,statx,access,faccessat,faccessat2,readlink,readlinkat,"
    "execve,connect"
)
"""The system calls ``strace -e trace=`` follows for the check."""

MARKER = "/einvoice-fuzz-campaign-starts"
"""The path the harness looks up (a ``stat`` in the trace) once its own setup (the sentinel files) is done: the
check reads the trace from there on."""
_NETWORK = re.compile(r"connect\(\d+, \{sa_family=AF_INET6?\b")


def violations(trace: str) -> list[str]:
    """The lines of an ``strace`` log that break an invariant."""
    bad: list[str] = []
    lines = trace.splitlines()
    start = next((n for n, line in enumerate(lines) if MARKER in line), None)
    if start is None:
        return ["the harness never reached the campaign (no marker in the trace)"]
    for line in lines[start + 1 :]:
        if str(SENTINEL) in line or "/dev/stdin" in line or "xml/catalog" in line or _NETWORK.search(line):
            bad.append(line)
    return bad


def main(argv: list[str]) -> int:
    found = violations(Path(argv[1]).read_text(errors="replace"))
    for line in found[:50]:
        print(line)
    print(f"{len(found)} system calls broke the campaign's invariants" if found else "trace: no invariant broken")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
