"""One frozen options object, checked once: every bad value is ``request.invalid-parameter`` with a reason (never a
TypeError deep inside), on every entry point that carries it; the rules date as text works; the engine is chosen
by the work unless the caller chooses; every report names the engine that ran."""

from __future__ import annotations

import io
import math
import pickle
from datetime import date, datetime
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from einvoice_validate import (
    BatchValidator,
    Limits,
    Options,
    ProfileError,
    Severity,
    Validator,
    iter_validate,
    validate_many,
)
from einvoice_validate.cli import DEFAULTS, main
from einvoice_validate.errors import REASONS
from einvoice_validate.options import OptionArgs
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron import engines
from einvoice_validate.schematron.engines import ENGINE_ENV, STEADY_FROM_DOCUMENTS, engine_for
from einvoice_validate.server.settings import ServerSettings

REPO = Path(__file__).resolve().parents[1]
GOOD = REPO / "examples" / "xrechnung-ubl-invoice.xml"

BAD: list[tuple[str, object, str]] = [
    ("profile", "no-such-profile", "profile-unknown"),
    ("profile", 42, "profile-unknown"),
    ("rules_home", 42, "option"),
    ("limits", {"max_depth": 3}, "option"),
    ("limits", Limits(max_depth=0), "option"),
    ("limits", Limits(max_document_bytes=-1), "option"),
    ("limits", Limits(max_elements="many"), "option"),  # type: ignore[arg-type]
    ("xsd_gate", "yes", "option"),
    ("xsd_gate", 1, "option"),
    ("engine", "saxon", "option"),
    ("engine", 3, "option"),
    ("rules_date", "2026-4-13", "rules-date"),
    ("rules_date", "13.04.2026", "rules-date"),
    ("rules_date", 20260413, "rules-date"),
    ("rules_date", datetime(2026, 4, 13, 12, 0), "rules-date"),
    ("document_timeout", 0, "option"),
    ("document_timeout", -5.0, "option"),
    ("document_timeout", "5", "option"),
    ("document_timeout", math.inf, "option"),
    ("mode", "fibres", "option"),
    ("version_not_installed", "INFO", "option"),
    ("version_not_installed", "error", "option"),
    ("near_miss", "INFO", "option"),
    ("near_miss", Severity.INFO, "option"),
    ("no_such_option", True, "option"),
]


def _ids(case: tuple[str, object, str]) -> str:
    return f"{case[0]}={case[1]!r}"


@pytest.mark.parametrize("case", BAD, ids=[_ids(c) for c in BAD])
def test_a_bad_value_is_request_invalid_parameter(case: tuple[str, object, str]) -> None:
    name, value, reason = case
    with pytest.raises(ProfileError) as info:
        Options.model_validate({name: value})
    assert (info.value.code, info.value.reason) == ("request.invalid-parameter", reason)
    assert name.replace("_", " ") in info.value.detail.replace("_", " ") or "date" in info.value.detail
    assert reason in REASONS["request.invalid-parameter"]  # a documented reason


ENTRY_POINTS = {
    "Validator": lambda **kw: Validator(**kw),
    "BatchValidator": lambda **kw: BatchValidator(workers=1, **kw),
    "iter_validate": lambda **kw: iter_validate([GOOD], workers=1, **kw),
    "validate_many": lambda **kw: validate_many([GOOD], workers=1, **kw),
    "Pool": lambda **kw: _pool(**kw),
    "Options": lambda **kw: Options.model_validate(kw),
}


def _pool(**kw: Any) -> Any:
    from einvoice_validate import Pool

    return Pool(workers=1, **kw)


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("engine", "saxon", "option"),
        ("rules_date", "yesterday", "rules-date"),
        ("profile", "nope", "profile-unknown"),
        ("version_not_installed", "INFO", "option"),
        ("near_miss", "INFO", "option"),
    ],
)
def test_every_entry_point_checks_its_options_at_once(entry: str, name: str, value: object, reason: str) -> None:
    with pytest.raises(ProfileError) as info:
        ENTRY_POINTS[entry](**{name: value})
    assert (info.value.code, info.value.reason) == ("request.invalid-parameter", reason)


def test_spark_checks_its_options_on_the_driver() -> None:
    pytest.importorskip("pyspark")
    from einvoice_validate import spark

    with pytest.raises(ProfileError) as info:
        spark._options(None, {"rules_date": "2026-13-01"})
    assert info.value.reason == "rules-date"
    assert spark._options(None, {"rules_date": "2026-04-13"}).rules_date == date(2026, 4, 13)  # spark has it now


def test_the_cli_refuses_a_bad_option_with_the_code(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["validate", "--document-timeout", "0", str(GOOD)], stdout=out, stderr=err) == 2
    assert "request.invalid-parameter" in err.getvalue() and "document_timeout" in err.getvalue()


def test_the_cli_defaults_are_the_options_defaults() -> None:
    from einvoice_validate.cli import _parser

    assert Options() == DEFAULTS
    for command in ("validate", "serve"):
        args = _parser().parse_args([command, *(["x.xml"] if command == "validate" else [])])
        assert args.document_timeout == Options().document_timeout
        assert args.engine is None and args.mode is None  # chosen by the work


def test_the_rules_date_as_text(registry: Registry) -> None:
    validator = Validator(
        "en16931-ubl-invoice", rules_home=registry.home, rules_date="2026-04-13"
    )  # a TypeError before
    assert validator.rules_date == date(2026, 4, 13)
    report = validator.validate(GOOD)
    assert report.version_choices and {c.rules_date for c in report.version_choices} == {date(2026, 4, 13)}
    later = validator.validate(GOOD, rules_date="2026-11-24")
    assert {c.rules_date for c in later.version_choices} == {date(2026, 11, 24)}
    with pytest.raises(ProfileError) as info:
        validator.validate(GOOD, rules_date="24.11.2026")
    assert info.value.reason == "rules-date"


def test_options_are_one_frozen_hashable_picklable_object(tmp_path: Path) -> None:
    options = Options.model_validate(
        {"rules_home": str(tmp_path), "rules_date": "2026-04-13", "engine": "saxonc", "document_timeout": 5}
    )
    assert options.rules_home == tmp_path and options.document_timeout == 5.0
    assert pickle.loads(pickle.dumps(options)) == options and hash(options) == hash(options.replace())
    with pytest.raises(Exception, match="frozen"):
        options.engine = "saxon-java"  # type: ignore[misc]
    assert options.replace(engine="saxon-java").engine == "saxon-java" and options.engine == "saxonc"


def test_one_keyword_per_option() -> None:
    """Adding an option is its field in Options and its keyword in OptionArgs: the two agree."""
    assert list(OptionArgs.__annotations__) == list(Options.model_fields)
    assert set(get_type_hints(OptionArgs)) == set(Options.model_fields)


def test_every_runner_carries_the_options(registry: Registry) -> None:
    options = Options(rules_home=registry.home, xsd_gate=True, engine="saxonc", document_timeout=7.0)
    assert Validator(options=options).options == options
    batch = BatchValidator(workers=1, options=options)
    assert batch.options.replace(mode=None) == options  # resolved: the mode it runs
    settings = ServerSettings(options=options)
    assert (settings.rules_home, settings.xsd_gate, settings.document_timeout) == (registry.home, True, 7.0)
    from einvoice_validate import Pool

    pool = Pool(workers=1, options=options)
    assert pool.options.replace(mode=None) == options and pool.document_timeout == 7.0
    assert Validator(options=options, xsd_gate=False).options.xsd_gate is False  # a keyword overrides


# --- the engine chosen by the work ----------------------------------------------------------------------------


def test_engine_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    monkeypatch.setattr("einvoice_validate.schematron._java.java_available", lambda: True)
    assert engine_for("document") == "saxonc"  # a fresh process: the fastest start
    assert engine_for("steady") == "saxon-java"  # a server, a long batch: the fastest steady state
    assert engine_for(STEADY_FROM_DOCUMENTS - 1) == "saxonc" and engine_for(STEADY_FROM_DOCUMENTS) == "saxon-java"
    assert engine_for("steady", "saxonc") == "saxonc" and engine_for("document", "saxon-java") == "saxon-java"
    monkeypatch.setenv(ENGINE_ENV, "saxonc")  # a deployment's explicit choice wins too
    assert engine_for("steady") == "saxonc"
    assert engine_for("steady", "saxon-java") == "saxon-java"  # the argument before the environment
    monkeypatch.delenv(ENGINE_ENV)
    monkeypatch.setattr("einvoice_validate.schematron._java.java_available", lambda: False)
    assert engine_for("steady") == "saxonc"  # no jar or no JPype: saxonc
    assert engines.DEFAULT_ENGINE == "saxonc"


def test_a_validator_starts_fast_and_its_report_names_the_engine(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    report = Validator(rules_home=registry.home).validate(GOOD)
    assert report.engine == "saxonc"
    assert report.model_dump(mode="json", by_alias=True)["engine"] == "saxonc"  # in the wire form
