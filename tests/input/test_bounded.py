"""Time and memory bounds for the hostile cases, checked in a bounded subprocess (address-space limit and a
timeout), not with timers in the test process: each case must end with its error code, well inside the bounds."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile import BILLION_LAUGHS, QUADRATIC_BLOWUP, REPO, nested

MEMORY_BYTES = 1536 * 1024 * 1024  # address space of the child (the Python interpreter + lxml need ~300 MB)
TIMEOUT_S = 60

CHILD = """
import json, sys
from einvoice_validate.errors import EInvoiceValidateError
from einvoice_validate.parse import load
try:
    load(sys.argv[1])
    print(json.dumps({"code": None}))
except EInvoiceValidateError as exc:
    print(json.dumps({"code": f"{exc.code}/{exc.reason}"}))
"""


def _cases() -> dict[str, tuple[bytes, str]]:
    tiny_elements = b"<Invoice>" + b"<a/>" * 6_000_000 + b"</Invoice>"  # 24 MB, 6 million elements
    huge_text = b"<Invoice>" + b"A" * (70 * 1024 * 1024) + b"</Invoice>"  # one 70 MB text node
    huge_attribute = b'<Invoice a="' + b"A" * (2 * 1024 * 1024) + b'"/>'
    return {
        "billion-laughs": (BILLION_LAUGHS, "document.unreadable/doctype"),
        "quadratic-blowup": (QUADRATIC_BLOWUP, "document.unreadable/doctype"),
        "nesting-1m": (nested(1_000_000), "document.unreadable/depth"),
        "tiny-elements-6m": (tiny_elements, "invoice.too-large/elements"),
        "text-node-70mb": (huge_text, "invoice.too-large/text-length"),
        "attribute-2mb": (huge_attribute, "invoice.too-large/attribute-length"),
    }


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


@pytest.mark.parametrize("name", sorted(_cases()))
def test_hostile_case_ends_with_its_code_within_bounds(name: str, tmp_path: Path) -> None:
    data, expected = _cases()[name]
    path = tmp_path / f"{name}.xml"
    path.write_bytes(data)
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        preexec_fn=_limit,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == {"code": expected}
