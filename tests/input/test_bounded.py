"""Time and memory bounds for the hostile cases, checked in a bounded subprocess (address-space limit and a
timeout), not with timers in the test process: each case must end with its error code, well inside the bounds,
and the child's peak memory may grow by at most ``GROWTH_BYTES`` while reading it (issue 40: under 300 MB)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile import (
    BILLION_LAUGHS,
    FRENCH_CII,
    GOOD_UBL,
    QUADRATIC_BLOWUP,
    REPO,
    empty_notes,
    nested,
    postcode_flood,
    predictor_bombs,
    undeclared_attributes,
)

MEMORY_BYTES = 1536 * 1024 * 1024  # address space of the child (the Python interpreter + lxml need ~300 MB)
TIMEOUT_S = 60
VALIDATOR_TIMEOUT_S = 300  # "does not hang": the child compiles two profiles' packs first

GROWTH_BYTES = 300 * 1024 * 1024

CHILD = """
import json, resource, sys
import pikepdf  # loaded before the baseline: the PDF cases' library is not their cost
from einvoice_validate.errors import EInvoiceValidateError
from einvoice_validate.parse import load
from einvoice_validate.envelopes import pdf
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
try:
    load(sys.argv[1])
    code = None
except EInvoiceValidateError as exc:
    code = f"{exc.code}/{exc.reason}"
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"code": code, "growth": after - before}))
"""


def _cases() -> dict[str, tuple[bytes, str | None]]:
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
        # issue 40, items 4 and 5: qpdf decoded these into gigabytes
        **{
            f"pdf-{name}": (predictor_bombs()[name], code)
            for name, code in (
                ("tiff-columns-attachment", "document.unreadable/not-xml"),
                ("png-columns-attachment", "document.unreadable/not-xml"),
                ("png-bomb-attachment", "invoice.too-large/attachment-bytes"),
                ("flate-chain-bomb", "invoice.too-large/attachment-bytes"),
                ("tiff-columns-invoice", None),
                ("tiff-columns-xmp", None),
            )
        },
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
    answer = json.loads(done.stdout)
    assert answer["code"] == expected
    assert answer["growth"] < GROWTH_BYTES, f"peak memory grew by {answer['growth'] // 2**20} MB"


VALIDATOR_CHILD = """
import json, resource, sys
from pathlib import Path
from einvoice_validate import Validator
from einvoice_validate.errors import EInvoiceValidateError
validator = Validator(rules_date="2026-08-30")
for warm in sys.argv[2:]:
    validator.validate(Path(warm))  # the packs compiled: what is measured is the case
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
answers = {}
for path in sorted(Path(sys.argv[1]).iterdir()):
    try:
        report = validator.validate(path.read_bytes())
        answers[path.name] = f"report/{len(report.findings)}"
    except EInvoiceValidateError as exc:
        answers[path.name] = f"{exc.code}/{exc.reason}"
answers["growth"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
print(json.dumps(answers))
"""


def test_floods_end_with_their_code_within_bounds(tmp_path: Path) -> None:
    """Issue 40, items 6-8, through the whole validator: 200,000 undeclared attributes, 4,000 empty elements (one
    finding each: their locations were quadratic), 300,000 empty elements in a French invoice's postcode."""
    cases = {
        "attributes-200k.xml": undeclared_attributes(200_000),
        "empty-notes-4k.xml": empty_notes(4_000),
        "postcode-flood-300k.xml": postcode_flood(300_000),
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run(
        [sys.executable, "-c", VALIDATOR_CHILD, str(tmp_path), str(GOOD_UBL), str(FRENCH_CII)],
        capture_output=True,
        text=True,
        timeout=VALIDATOR_TIMEOUT_S,  # no address-space limit: SaxonC's GraalVM isolate reserves gigabytes of it;
        env=env,  # the memory bound is the peak-memory growth the child measures
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answers = json.loads(done.stdout.strip().splitlines()[-1])
    growth = answers.pop("growth")
    assert answers == {
        "attributes-200k.xml": "invoice.too-large/attributes",
        "empty-notes-4k.xml": "report/4000",
        "postcode-flood-300k.xml": "invoice.too-large/children",
    }
    assert growth < GROWTH_BYTES, f"peak memory grew by {growth // 2**20} MB"
