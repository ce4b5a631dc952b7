"""The reference validator run live (Java, built by ``tools/build-reference.sh``) on the bundled examples and a
sample of the mutation corpus: our findings agree with what it prints in this very run.

Two plans, each compared with the rules date that runs the same packs here: ``plan-full.tsv`` (XRechnung 2.5.0
over CEN 1.3.15, as ``plan-kosit.tsv``) with the last day before the summer 2026 release; ``plan-kosit-2026-08-31.tsv``
(XRechnung 2.6.0 over CEN 1.3.16, issue 30) with its first day, on every XRechnung document of the corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from einvoice_validate import Validator
from einvoice_validate.rulesets import Registry
from tests.conftest import CORPUS, KOSIT_PLAN_DAY, SUMMER_2026
from tests.reference import Row, assert_parity, run_reference

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


# The reference's profile names (plan-full.tsv, plan-kosit-2026-08-31.tsv) -> ours. The reference matches XRechnung by
# the substring xrechnung_3.0, we tell the extension and CVD ids apart (as KoSIT's scenarios do).
PROFILES: dict[str, str | tuple[str, ...]] = {
    "xrechnung-ubl": (
        "xrechnung-3.0-ubl-invoice",
        "xrechnung-3.0-extension-ubl-invoice",
        "xrechnung-3.0-cvd-ubl-invoice",
    ),
    "xrechnung-ubl-cn": ("xrechnung-3.0-ubl-creditnote", "xrechnung-3.0-cvd-ubl-creditnote"),
    "xrechnung-cii": ("xrechnung-3.0-cii", "xrechnung-3.0-extension-cii", "xrechnung-3.0-cvd-cii"),
    "cius-ro-ubl": "cius-ro-ubl-invoice",
    "cius-ro-ubl-cn": "cius-ro-ubl-creditnote",
    "peppol-bis": "peppol-bis-3.0-ubl-invoice",
    "peppol-bis-cn": "peppol-bis-3.0-ubl-creditnote",
    "en16931-ubl": "en16931-ubl-invoice",
    "en16931-ubl-cn": "en16931-ubl-creditnote",
    "en16931-cii": "en16931-cii",
}


@pytest.fixture(scope="module")
def reference_rows() -> dict[Path, Row]:
    return run_reference(SAMPLE, "plan-full.tsv")


@pytest.fixture(scope="module")
def summer_rows() -> dict[Path, Row]:
    return run_reference(XRECHNUNG, "plan-kosit-2026-08-31.tsv")


@pytest.mark.reference
@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.name)
def test_same_findings_as_the_live_reference(
    path: Path, reference_rows: dict[Path, Row], validator: Validator, registry: Registry
) -> None:
    report = validator.validate(path, rules_date=KOSIT_PLAN_DAY)
    assert_parity(reference_rows[path], report, registry, "plan-full.tsv", profiles=PROFILES)


def test_the_xrechnung_sample_is_complete() -> None:
    assert len(XRECHNUNG) == 86 + 268  # the test-suite instances, the mutations with an XRechnung id


@pytest.mark.reference
@pytest.mark.parametrize("path", XRECHNUNG, ids=lambda p: p.relative_to(CORPUS).as_posix())
def test_xrechnung_2_6_0_as_the_reference_plan_2026_08_31(
    path: Path, summer_rows: dict[Path, Row], validator: Validator, registry: Registry
) -> None:
    """XRechnung 2.6.0 over CEN 1.3.16 (our edition of 2026-08-31) against ``plan-kosit-2026-08-31.tsv``."""
    report = validator.validate(path, rules_date=SUMMER_2026)
    assert_parity(summer_rows[path], report, registry, "plan-kosit-2026-08-31.tsv", profiles=PROFILES)
