"""Shared fixtures: the shared corpus folder and the installed rule packs (compiled once per session)."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from einvoice_validate import Report, Validator
from einvoice_validate.rulesets import Registry

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
# The tests' rules home is the repository's build/rules-home (as `make` sets it), never the user's own.
os.environ.setdefault("EINVOICE_VALIDATE_HOME", str(REPO / "build" / "rules-home"))
CORPUS = SHARED / "corpus"


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "corpus").is_dir():
        pytest.fail(f"the shared corpus is not at {SHARED}; set EINVOICE_SHARED")
    return SHARED


# The last day of the rules the reference's plan-kosit.tsv runs (XRechnung 2.5.0 over CEN 1.3.15, with Peppol 2026.5
# and CEN 1.3.16 elsewhere): tests comparing with it pin this rules date; from 2026-08-31, XRechnung is 2.6.0 over
# CEN 1.3.16 (plan-kosit-2026-08-31.tsv).
KOSIT_PLAN_DAY = date(2026, 8, 30)
SUMMER_2026 = date(2026, 8, 31)


@pytest.fixture(scope="session")
def registry() -> Registry:
    reg = Registry()
    # A pack known only through an archive ../shared does not hold (kosit-xrechnung-config@2026-08-31) is not
    # installed here: tests/test_versions.py checks that validation says so.
    missing = sorted(
        k for k in set(reg.manifests) - {p.key for p in reg.installed()} if not reg.manifests[k].unrecorded
    )
    if missing:
        pytest.fail(f"rule packs not installed in {reg.home}: {missing}; run `make rulesets`")
    return reg


@pytest.fixture(scope="session")
def validator(registry: Registry) -> Validator:
    return Validator(rules_home=registry.home)


@pytest.fixture(scope="session")
def mutation_reports(shared: Path, validator: Validator) -> dict[str, Report]:
    """Our reports on every file of ``mutations-dev`` (validated once per session: parity and message tests)."""
    folder = shared / "corpus" / "mutations-dev"
    # reference.jsonl was made with plan-kosit.tsv: the rules date that runs the same packs
    return {path.name: validator.validate(path, rules_date=KOSIT_PLAN_DAY) for path in sorted(folder.glob("*.xml"))}
