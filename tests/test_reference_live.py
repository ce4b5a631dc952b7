"""The reference validator run live (Java, built by ``tools/build-reference.sh``) on the bundled examples and a
sample of the mutation corpus: our findings agree with what it prints in this very run."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from einvoice_validate import Validator
from einvoice_validate.schematron import RUNTIME_ERROR
from tests.conftest import CORPUS

REPO = Path(__file__).resolve().parents[1]
SAMPLE = [
    *sorted((REPO / "examples").glob("*.xml")),
    *sorted((CORPUS / "mutations-dev").glob("*.m1-3.xml"))[:40],
]


@pytest.fixture(scope="module")
def reference_rows() -> dict[str, dict[str, object]]:
    proc = subprocess.run(
        ["bash", str(REPO / "tools/run-reference.sh"), *map(str, SAMPLE)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return {Path(str(r["file"])).name: r for r in rows}


@pytest.mark.reference
@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.name)
def test_same_findings_as_the_live_reference(
    path: Path, reference_rows: dict[str, dict[str, object]], validator: Validator
) -> None:
    row = reference_rows[path.name]
    report = validator.validate(path)
    findings = row["findings"]
    assert isinstance(findings, list)
    expected = Counter((f["id"], f["flag"]) for f in findings if f["kind"] != "runtime-error")
    ours = Counter(
        (f.rule_id, f.flag) for f in report.findings if f.stage == "schematron" and f.rule_id != RUNTIME_ERROR
    )
    assert ours == expected
    assert bool(row["xsd"]) == any(f.stage == "xsd" for f in report.findings)
