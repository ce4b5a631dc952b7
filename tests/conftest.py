"""Shared fixtures: the shared corpus folder and the installed rule packs (compiled once per session)."""

from __future__ import annotations

import os
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


@pytest.fixture(scope="session")
def registry() -> Registry:
    reg = Registry()
    missing = sorted(set(reg.manifests) - {p.key for p in reg.installed()})
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
    return {path.name: validator.validate(path) for path in sorted(folder.glob("*.xml"))}
