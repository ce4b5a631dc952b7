"""Pack versions chosen by date (issue 15): EN 16931 1.3.15 and 1.3.16 are both installed, and the EN 16931
profiles list both (``en16931-cii@1.3.15|1.3.16``); 1.3.16 replaces 1.3.15 on 2026-04-14 (its manifest's
``valid_from``). XRechnung runs the CEN version its edition couples (issue 30, tests/test_versions.py): 1.3.15 until
2026-08-30, 1.3.16 from 2026-08-31.

The document: ``mutations-dev/CII_business_example_02.m1-3.xml``, where CEN 1.3.15 fires BR-CO-25 (a rule 1.3.16
no longer has in this form) and 1.3.16 does not.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from io import StringIO
from pathlib import Path

import pytest

from einvoice_validate import Validator
from einvoice_validate.cli import main
from einvoice_validate.errors import ProfileError
from einvoice_validate.profiles import Profile, load_profiles, parse_rules_date, split_entry
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.manifest import load_manifests
from tests.conftest import CORPUS, inject_today

SWITCH = date(2026, 4, 14)
DOC = CORPUS / "mutations-dev" / "CII_business_example_02.m1-3.xml"
XRECHNUNG_DOC = CORPUS / "mutations-dev" / "01.01a-INVOICE_uncefact.m1-0.xml"
PEPPOL_DOC = CORPUS / "peppol-bis" / "examples" / "base-example.xml"


def _rules(report_findings: object) -> set[str]:
    return {f.rule_id for f in report_findings}  # type: ignore[attr-defined]


def test_the_manifests_carry_the_dates() -> None:
    manifests = load_manifests()
    assert manifests["en16931-cii@1.3.15"].valid_from == date(2025, 10, 16)
    assert manifests["en16931-cii@1.3.16"].valid_from == SWITCH
    assert manifests["en16931-ubl@1.3.16"].valid_from == SWITCH
    assert manifests["peppol-bis-ubl@2026.5"].valid_from == date(2026, 8, 17)
    assert all(m.valid_until is None for m in manifests.values())


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("day", "version"),
    [(date(2026, 4, 13), "1.3.15"), (SWITCH, "1.3.16"), (date(2026, 4, 15), "1.3.16")],
    ids=["before", "on", "after"],
)
def test_before_on_and_after_the_switch(day: date, version: str, validator: Validator) -> None:
    report = validator.validate(DOC, rules_date=day)
    assert report.profile == "en16931-cii"
    assert report.packs == ("cii-d16b@D16B", f"en16931-cii@{version}")
    assert {f.source for f in report.findings if f.stage == "schematron"} <= {f"en16931-cii@{version}"}
    assert ("BR-CO-25" in _rules(report.findings)) is (version == "1.3.15")
    (choice,) = report.version_choices
    assert choice.pack == f"en16931-cii@{version}"
    assert choice.rules_date == day
    assert choice.candidates == ("en16931-cii@1.3.15", "en16931-cii@1.3.16")
    if version == "1.3.15":
        assert "not yet in force: en16931-cii@1.3.16 from 2026-04-14" in choice.reason
    else:
        assert choice.reason == f"in force from 2026-04-14 on {day.isoformat()}; replaces en16931-cii@1.3.15"
    dumped = report.model_dump(mode="json", by_alias=True)["versionChoices"][0]
    assert dumped["rulesDate"] == day.isoformat() and dumped["pack"] == f"en16931-cii@{version}"


@pytest.mark.corpus
@pytest.mark.today  # the one test of the machine's date (the suite's fixed rules date is not set here)
def test_default_is_today(validator: Validator) -> None:
    report = validator.validate(DOC)
    (choice,) = report.version_choices
    assert choice.rules_date == date.today()
    assert report.packs[1] == load_profiles()[-1].packs_on(date.today(), load_manifests())[0][0]


@pytest.mark.corpus
def test_xrechnung_keeps_cen_1_3_15_until_its_summer_edition(validator: Validator) -> None:
    for day in (date(2026, 4, 13), date(2026, 4, 15), date(2026, 8, 30)):
        report = validator.validate(XRECHNUNG_DOC, rules_date=day)
        assert report.profile == "xrechnung-3.0-cii"
        assert report.packs == ("cii-d16b@D16B", "en16931-cii@1.3.15", "xrechnung-cii@2.5.0")
        assert report.version_choices[0].pack == "kosit-xrechnung-config@2026-01-31"
    report = validator.validate(XRECHNUNG_DOC, rules_date=date(2026, 8, 31))
    assert report.packs == ("cii-d16b@D16B", "en16931-cii@1.3.16", "xrechnung-cii@2.6.0")


@pytest.mark.corpus
def test_no_version_in_force_is_a_clear_error(validator: Validator) -> None:
    with pytest.raises(ProfileError) as before:
        validator.validate(DOC, rules_date=date(2025, 10, 15))
    assert (before.value.code, before.value.reason) == ("request.invalid-parameter", "rules-date")
    assert "en16931-cii@1.3.15 from 2025-10-16" in before.value.detail
    assert validator.validate(DOC, rules_date=date(2025, 10, 16)).packs[1] == "en16931-cii@1.3.15"
    # Peppol 2026.5 is the only Peppol release installed, in force from 2026-08-17.
    with pytest.raises(ProfileError, match="no version of peppol-bis-cen-ubl is in force on 2026-08-16"):
        validator.validate(PEPPOL_DOC, rules_date=date(2026, 8, 16))
    assert validator.validate(PEPPOL_DOC, rules_date=date(2026, 8, 17)).valid


@pytest.mark.corpus
def test_a_date_switch_compiles_nothing_twice(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    import einvoice_validate.validator as module

    built: list[str] = []
    real = module.SchematronStage

    def counting(pack: object, *args: object) -> object:
        built.append(pack.key)  # type: ignore[attr-defined]
        return real(pack, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "SchematronStage", counting)
    validator = Validator(rules_home=registry.home)
    for day in (date(2026, 4, 13), SWITCH, date(2026, 4, 13), date(2026, 5, 1), SWITCH):
        validator.validate(DOC, rules_date=day)
    assert sorted(built) == ["en16931-cii@1.3.15", "en16931-cii@1.3.16"]


@pytest.mark.corpus
def test_the_validator_default_date(registry: Registry) -> None:
    validator = Validator(rules_home=registry.home, rules_date=date(2026, 4, 13))
    assert validator.validate(DOC).packs[1] == "en16931-cii@1.3.15"
    assert validator.validate(DOC, rules_date=SWITCH).packs[1] == "en16931-cii@1.3.16"


def _profile(*schematron: str) -> Profile:
    return Profile(
        name="p", title="t", root="cii", match="any", spec_ids=(), xsd="cii-d16b@D16B", schematron=schematron
    )


def test_valid_until_is_inclusive_and_the_latest_start_wins() -> None:
    manifests = dict(load_manifests())
    old = manifests["en16931-cii@1.3.15"]
    manifests[old.key] = old.model_copy(update={"valid_until": date(2026, 6, 30)})
    profile = _profile("en16931-cii@*")
    pick = {d: profile.packs_on(d, manifests)[0] for d in (date(2026, 4, 13), date(2026, 6, 30), date(2026, 7, 1))}
    assert pick == {
        date(2026, 4, 13): ("en16931-cii@1.3.15",),
        date(2026, 6, 30): ("en16931-cii@1.3.16",),  # both in force: the later start wins
        date(2026, 7, 1): ("en16931-cii@1.3.16",),
    }
    reasons = [profile.packs_on(d, manifests)[1][0].reason for d in (date(2026, 6, 30), date(2026, 7, 1))]
    assert reasons == [
        "in force from 2026-04-14 on 2026-06-30; replaces en16931-cii@1.3.15",
        "in force from 2026-04-14 on 2026-07-01; no longer in force: en16931-cii@1.3.15 until 2026-06-30",
    ]
    only_old = _profile("en16931-cii@1.3.15|1.3.15x")
    with pytest.raises(ProfileError, match="no version of en16931-cii is in force on 2026-07-01"):
        only_old.packs_on(date(2026, 7, 1), manifests)
    # A pinned version runs whatever its dates say.
    assert _profile("en16931-cii@1.3.15").packs_on(date(2020, 1, 1), manifests)[0] == ("en16931-cii@1.3.15",)


def test_entry_syntax() -> None:
    assert split_entry("en16931-ubl@1.3.16") == ("en16931-ubl", ("1.3.16",))
    assert split_entry("en16931-ubl@1.3.15|1.3.16") == ("en16931-ubl", ("1.3.15", "1.3.16"))
    assert split_entry("peppol-bis-ubl@*") == ("peppol-bis-ubl", ("*",))
    for bad in ("en16931-ubl", "@1.3.16", "x@1|", "x@1|1", "x@*|1", "x@ 1"):
        with pytest.raises(ValueError):
            split_entry(bad)
    with pytest.raises(ValueError):
        _profile("x@1|")


@pytest.mark.parametrize("text", ["2026-4-14", "14.04.2026", "2026-02-30", "today", "2026-04-14T00:00"])
def test_a_bad_rules_date_is_refused(text: str) -> None:
    with pytest.raises(ProfileError) as exc:
        parse_rules_date(text)
    assert (exc.value.code, exc.value.reason) == ("request.invalid-parameter", "rules-date")


def _cli(*args: str, home: Path) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    code = main(["--home", str(home), *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.corpus
def test_cli_rules_date(registry: Registry) -> None:
    code, out, _ = _cli("validate", "--format", "json", "--rules-date", "2026-04-13", str(DOC), home=registry.home)
    (row,) = json.loads(out)
    assert code == 1
    assert {f["source"] for f in row["findings"] if f["stage"] == "schematron"} == {"en16931-cii@1.3.15"}
    assert "BR-CO-25" in {f["ruleId"] for f in row["findings"]}
    code, out, _ = _cli("validate", "--format", "jsonl", "--rules-date", "2026-04-14", str(DOC), home=registry.home)
    assert "BR-CO-25" not in {f["ruleId"] for f in json.loads(out)["findings"]}
    code, out, err = _cli("validate", "--rules-date", "2026-4-13", str(DOC), home=registry.home)
    assert code == 2 and "request.invalid-parameter" in err
    code, out, _ = _cli("validate", "--format", "jsonl", "--rules-date", "2025-01-01", str(DOC), home=registry.home)
    assert code == 2 and json.loads(out)["error"]["code"] == "request.invalid-parameter"


@pytest.mark.corpus
def test_cli_profiles_on_a_date(registry: Registry) -> None:
    code, out, _ = _cli("profiles", "--rules-date", "2026-04-13", home=registry.home)
    assert code == 0 and "packs in force on 2026-04-13" in out
    line = next(x for x in out.splitlines() if x.startswith("en16931-cii "))
    assert "en16931-cii@1.3.15 (of en16931-cii@1.3.15|1.3.16)" in line
    line = next(x for x in out.splitlines() if x.startswith("peppol-bis-3.0-ubl-invoice "))
    assert "NONE" in line
    code, out, _ = _cli("profiles", "--rules-date", "2026-09-01", home=registry.home)
    line = next(x for x in out.splitlines() if x.startswith("peppol-bis-3.0-ubl-invoice "))
    assert "peppol-bis-cen-ubl@2026.5 (of peppol-bis-cen-ubl@*), peppol-bis-ubl@2026.5 (of peppol-bis-ubl@*)" in line


@pytest.mark.corpus
def test_prepare_skips_profiles_without_a_version_in_force(registry: Registry) -> None:
    validator = Validator(rules_home=registry.home, rules_date=date(2026, 5, 1))  # before Peppol 2026.5
    validator.prepare()
    names = {name for name, *_ in validator._stages}
    assert "en16931-cii" in names and not any(n.startswith("peppol-bis-") for n in names)
    assert ("en16931-cii", ("en16931-cii@1.3.16",), None) in {key[:3] for key in validator._stages}


# --- "today": the default rules date, injected on each side of every version change the manifests know ------------


def _change_days() -> list[date]:
    """Every day a pack version starts or stops being in force (``valid_from``, the day after ``valid_until``)."""
    days = set()
    for manifest in load_manifests().values():
        if manifest.valid_from is not None:
            days.add(manifest.valid_from)
        if manifest.valid_until is not None:
            days.add(manifest.valid_until + timedelta(days=1))
    return sorted(days)


def _plan_or_refusal(validator: Validator, profile: Profile, day: date | None) -> object:
    try:
        return validator.plan_for(profile, day)
    except ProfileError as exc:
        return (exc.code, exc.reason, exc.detail)


@pytest.mark.today  # sets "today" itself
@pytest.mark.parametrize("change", _change_days(), ids=str)
def test_today_is_the_default_on_each_side_of_every_version_change(
    change: date, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With "today" injected the day before and the day of each change, every profile's plan without a rules date is
    the plan of that day, and some profile's plan changes on the day (so the injected date is what ran)."""
    validator = Validator(rules_home=registry.home)
    plans = {}
    for day in (change - timedelta(days=1), change):
        inject_today(monkeypatch, day)
        plans[day] = {p.name: _plan_or_refusal(validator, p, None) for p in validator.profiles}
        assert plans[day] == {p.name: _plan_or_refusal(validator, p, day) for p in validator.profiles}
    before, on = plans.values()
    assert [name for name in on if on[name] != before[name]], f"no profile's plan changes on {change}"
    if change == SWITCH:  # a whole validation on each side, as a caller without a rules date gets it
        for day, version in ((change - timedelta(days=1), "1.3.15"), (change, "1.3.16")):
            inject_today(monkeypatch, day)
            report = validator.validate(DOC)
            assert report.packs[1] == f"en16931-cii@{version}" and report.version_choices[0].rules_date == day


def test_the_change_days_are_those_of_the_manifests() -> None:
    days = _change_days()
    assert SWITCH in days and date(2026, 8, 31) in days and date(2026, 9, 1) in days
    assert len(days) >= 9
