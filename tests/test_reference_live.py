"""The reference validator run live (Java, built by ``tools/build-reference.sh``) on the bundled examples and a
sample of the mutation corpus: our findings agree with what it prints in this very run.

Two plans, each compared with the rules date that runs the same packs here: ``plan-full.tsv`` (XRechnung 2.5.0
over CEN 1.3.15, as ``plan-kosit.tsv``) with the last day before the summer 2026 release; ``plan-kosit-2026-08-31.tsv``
(XRechnung 2.6.0 over CEN 1.3.16, issue 30) with its first day, on every XRechnung document of the corpus."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from einvoice_validate import Validator
from einvoice_validate.rulesets import Registry
from tests.conftest import CORPUS, KOSIT_PLAN_DAY, SUMMER_2026
from tests.test_parity import assert_schematron_parity, stylesheet_names

REPO = Path(__file__).resolve().parents[1]
SAMPLE = [
    *sorted((REPO / "examples").glob("*.xml")),
    *sorted((CORPUS / "mutations-dev").glob("*.m1-3.xml"))[:40],
]
# Every Peppol BIS document (issue 15: the reference runs plan-full.tsv, which routes them to the Peppol packs).
SAMPLE += [
    p
    for p in sorted((CORPUS / "mutations-dev").glob("*.xml"))
    if p not in SAMPLE and b"poacc:billing:3.0" in p.read_bytes()
]


# XRechnung documents (issue 30): the test suite and every mutation carrying an XRechnung id.
XRECHNUNG = [
    *sorted((CORPUS / "xrechnung-testsuite").rglob("*.xml")),
    *(p for p in sorted((CORPUS / "mutations-dev").glob("*.xml")) if b"xrechnung_3.0" in p.read_bytes()),
]


def _run_reference(paths: list[Path], plan: str) -> dict[str, dict[str, object]]:
    proc = subprocess.run(
        ["bash", str(REPO / "tools/run-reference.sh"), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "REFERENCE_PLAN": plan},
    )
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return {_key(Path(str(r["file"]))): r for r in rows}


def _key(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@pytest.fixture(scope="module")
def reference_rows() -> dict[str, dict[str, object]]:
    return {k.split("/")[1]: r for k, r in _run_reference(SAMPLE, "plan-full.tsv").items()}


@pytest.fixture(scope="module")
def summer_rows() -> dict[str, dict[str, object]]:
    return _run_reference(XRECHNUNG, "plan-kosit-2026-08-31.tsv")


@pytest.mark.reference
@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.name)
def test_same_findings_as_the_live_reference(
    path: Path, reference_rows: dict[str, dict[str, object]], validator: Validator, registry: Registry
) -> None:
    row = reference_rows[path.name]
    report = validator.validate(path, rules_date=KOSIT_PLAN_DAY)
    findings = row["findings"]
    assert isinstance(findings, list)
    # Pack by pack; where the reference stopped a pack, ours reports the error per rule and goes on (issue 13).
    assert_schematron_parity(findings, report, stylesheet_names(registry))
    assert bool(row["xsd"]) == any(f.stage == "xsd" for f in report.findings)


def test_the_xrechnung_sample_is_complete() -> None:
    assert len(XRECHNUNG) == 86 + 268  # the test-suite instances, the mutations with an XRechnung id


@pytest.mark.reference
@pytest.mark.parametrize("path", XRECHNUNG, ids=lambda p: p.relative_to(CORPUS).as_posix())
def test_xrechnung_2_6_0_as_the_reference_plan_2026_08_31(
    path: Path, summer_rows: dict[str, dict[str, object]], validator: Validator, registry: Registry
) -> None:
    """XRechnung 2.6.0 over CEN 1.3.16 (our edition of 2026-08-31) against ``plan-kosit-2026-08-31.tsv``."""
    row = summer_rows[_key(path)]
    report = validator.validate(path, rules_date=SUMMER_2026)
    findings = row["findings"]
    assert isinstance(findings, list)
    # the reference matches XRechnung by substring, we by the exact id (as KoSIT): a mutated id goes elsewhere
    if str(row["profile"]).startswith("xrechnung-") and report.profile.startswith("xrechnung-"):
        syntax = "cii" if report.syntax == "cii" else "ubl"
        assert report.packs[1:] == (f"en16931-{syntax}@1.3.16", f"xrechnung-{syntax}@2.6.0")
    assert_schematron_parity(findings, report, stylesheet_names(registry))
    assert bool(row["xsd"]) == any(f.stage == "xsd" for f in report.findings)
