"""Shared fixtures: the shared corpus folder, the installed rule packs (compiled once per session), the suite's
fixed rules date and hypothesis' profiles."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest
from hypothesis import settings

import einvoice_validate.acceptance
import einvoice_validate.cli
import einvoice_validate.validator
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

# --- a fixed clock ------------------------------------------------------------------------------------------------
# Results must not follow the machine's clock: a validation that gives no rules date runs on SUITE_DAY, in every test
# and in the Python processes the tests start. In this process the library's default date source (``date.today()`` in
# the modules that fall back to it) is patched when this file is loaded, for the whole session; in the processes it
# starts (pool workers, the CLI or a server as a subprocess, Spark's Python workers) tests/clock/sitecustomize.py does
# the same, from EINVOICE_TESTS_TODAY. Only tests marked ``today`` see the machine's date (tests/test_rules_date.py:
# the default is today, and "today" injected on each side of every version change the manifests know).
SUITE_DAY = date(2026, 11, 24)
TODAY_ENV = "EINVOICE_TESTS_TODAY"
DEFAULT_DATE_SOURCES = (einvoice_validate.validator, einvoice_validate.cli, einvoice_validate.acceptance)
os.environ[TODAY_ENV] = SUITE_DAY.isoformat()
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(REPO / "tests" / "clock"), os.environ.get("PYTHONPATH")) if p
)


def _today(day: date) -> type[date]:
    class Today(date):
        @classmethod
        def today(cls) -> date:
            return day

    return Today


# For the whole session, session- and module-scoped fixtures included (they run before any function fixture).
for _module in DEFAULT_DATE_SOURCES:  # (tests/test_rules_date.py fails if one of them stops being the source)
    _module.date = _today(SUITE_DAY)  # type: ignore[attr-defined]


def inject_today(monkeypatch: pytest.MonkeyPatch, day: date) -> None:
    """Make ``day`` the library's "today" (its default rules date) for the rest of the test, here and in the
    processes it starts."""
    for module in DEFAULT_DATE_SOURCES:
        monkeypatch.setattr(module, "date", _today(day))
    monkeypatch.setenv(TODAY_ENV, day.isoformat())


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "today: sees the machine's date (the suite's fixed rules date is not set)")


@pytest.fixture(autouse=True)
def machine_today(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test marked ``today`` sees the machine's date (the library's own ``date``, no EINVOICE_TESTS_TODAY)."""
    if request.node.get_closest_marker("today") is not None:
        for module in DEFAULT_DATE_SOURCES:
            monkeypatch.setattr(module, "date", date)
        monkeypatch.delenv(TODAY_ENV)


# --- hypothesis ---------------------------------------------------------------------------------------------------
# In CI (``CI`` set) the property tests run the same examples every time: a failure there is reproducible, never a
# flake; locally they draw new examples (and keep the failing ones in the example database).
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


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
