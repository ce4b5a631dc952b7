"""Rules in force (issue 30): the summer 2026 XRechnung as a dated edition beside the previous one, versions
known but not installed reported, configurations read at install, acceptance sets run at install.

The XRechnung profiles' editions are the KoSIT configuration releases: 2026-01-31 (XRechnung Schematron 2.5.0
over CEN 1.3.15) and, from 2026-08-31, 2026-08-31 (2.6.0 over CEN 1.3.16). The rules home of the tests holds
every pack but the 2026-08-31 configuration (only its archive's sha256 is known; ../shared does not hold it), so
from 2026-08-31 the XRechnung profiles run 2.6.0 over 1.3.16 with the scenarios of 2026-01-31, and say so.

Two documents tell the editions apart, both made here from the test suite's business cases: an empty order
reference (BT-13) is PEPPOL-EN16931-R008 under 2.5.0 only; two attachments in one additional document (CII) are
BR-TMP-5 under 2.6.0 only (and CII-SR-476 under CEN 1.3.16 only). The archive-pinned download path is tested in
``tests/test_download.py``.
"""

from __future__ import annotations

import io
import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from lxml import etree

from einvoice_validate import Options, ProfileError, RulesetError, Validator, validate_many
from einvoice_validate.acceptance import AcceptanceResult, AcceptanceRunner, acceptance_record
from einvoice_validate.cli import main
from einvoice_validate.findings import Report, Severity
from einvoice_validate.profiles import load_profiles
from einvoice_validate.rulesets import Registry, install
from einvoice_validate.rulesets.configuration import prepare_configuration, read_scenarios
from tests.conftest import CORPUS, KOSIT_PLAN_DAY, SUMMER_2026

BUSINESS = CORPUS / "xrechnung-testsuite/business-cases/standard"
RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
NOT_INSTALLED = "rules.version-not-installed"
CONFIG_OLD, CONFIG_NEW = "kosit-xrechnung-config@2026-01-31", "kosit-xrechnung-config@2026-08-31"
EN16931_CII_DOC = CORPUS / "mutations-dev" / "CII_business_example_02.m1-3.xml"

# The customLevels rulesets/profiles.toml held, copied by hand from configuration 2026-01-31, before issue 30 (commit
# 24c7e11): they are now read from that configuration's scenarios.xml at install, and must be the same.
PROFILES_TOML_LEVELS: dict[str, dict[str, str]] = {
    "xrechnung-3.0-ubl-invoice": {"BR-CL-23": "warning", "BR-CL-21": "warning", "UBL-CR-646": "error"},
    "xrechnung-3.0-extension-ubl-invoice": {
        **dict.fromkeys(("BR-CL-10", "BR-CL-11", "BR-CL-21", "BR-CL-24", "BR-CL-25", "BR-CL-26"), "information"),
        **{"BR-CL-23": "warning", "BR-CO-16": "information", "UBL-CR-470": "information", "UBL-CR-646": "information"},
    },
    "xrechnung-3.0-cvd-ubl-invoice": {
        "BR-CL-13": "information",
        "BR-CL-23": "warning",
        "BR-CL-21": "warning",
        "UBL-CR-646": "error",
    },
    "xrechnung-3.0-ubl-creditnote": {"BR-CL-23": "warning", "BR-CL-21": "warning"},
    "xrechnung-3.0-cvd-ubl-creditnote": {
        "BR-CL-13": "information",
        "BR-CL-23": "warning",
        "BR-CL-21": "warning",
        "UBL-CR-646": "error",
    },
    "xrechnung-3.0-cii": {
        **{"BR-CL-23": "warning", "BR-CL-21": "warning"},
        **dict.fromkeys(("CII-SR-452", "CII-SR-453", "CII-SR-454"), "error"),
    },
    "xrechnung-3.0-extension-cii": {
        **dict.fromkeys(("BR-CL-10", "BR-CL-11", "BR-CL-21", "BR-CL-24", "BR-CL-25", "BR-CL-26"), "information"),
        "BR-CL-23": "warning",
        **dict.fromkeys(("CII-SR-452", "CII-SR-453", "CII-SR-454"), "error"),
    },
    "xrechnung-3.0-cvd-cii": {
        **{"BR-CL-13": "information", "BR-CL-23": "warning", "BR-CL-21": "warning"},
        **dict.fromkeys(("CII-SR-452", "CII-SR-453", "CII-SR-454"), "error"),
    },
}


def empty_order_reference() -> bytes:
    """Business case 01.02a (UBL) with its order reference BT-13 emptied (its sales order reference BT-14 stays)."""
    data = (BUSINESS / "01.02a-INVOICE_ubl.xml").read_bytes()
    assert data.count(b"<cbc:ID>Dummywert</cbc:ID>") == 1
    return data.replace(b"<cbc:ID>Dummywert</cbc:ID>", b"<cbc:ID></cbc:ID>")


def two_attachments() -> bytes:
    """Business case 01.15a (CII) with the attachment of its additional document (BG-24) doubled in that document."""
    tree = etree.fromstring((BUSINESS / "01.15a-INVOICE_uncefact.xml").read_bytes())
    (attachment,) = tree.xpath("//ram:AdditionalReferencedDocument/ram:AttachmentBinaryObject", namespaces={"ram": RAM})
    attachment.addnext(etree.fromstring(etree.tostring(attachment)))
    result: bytes = etree.tostring(tree, xml_declaration=True, encoding="UTF-8")
    return result


def _from(report: Report, rule_id: str) -> set[str]:
    return {f.source for f in report.findings if f.rule_id == rule_id}


def _show(report: Report) -> str:
    return "\n".join(f"  {f.severity.value} {f.rule_id} [{f.source}]" for f in report.findings)


EDITIONS = [
    pytest.param(KOSIT_PLAN_DAY, "2.5.0", "1.3.15", id="2026-08-30"),
    pytest.param(SUMMER_2026, "2.6.0", "1.3.16", id="2026-08-31"),
    pytest.param(date(2026, 11, 24), "2.6.0", "1.3.16", id="2026-11-24"),
]


# --- the two editions, chosen by date, on both engines (ENGINE_SUITES) --------------------------------------------


def _edition(validator: Validator, data: bytes, day: date, syntax: str, xrechnung: str, cen: str) -> Report:
    """The report on ``data``, checked to come from the XRechnung profile of ``syntax`` with the edition's packs."""
    report = validator.validate(data, rules_date=day)
    assert report.profile == ("xrechnung-3.0-cii" if syntax == "cii" else "xrechnung-3.0-ubl-invoice")
    packs = (f"en16931-{syntax}@{cen}", f"xrechnung-{syntax}@{xrechnung}")
    assert report.packs == ("cii-d16b@D16B" if syntax == "cii" else "ubl-2.1@2.1", *packs)
    assert {f.source for f in report.findings if f.stage == "schematron"} <= set(packs)
    return report


@pytest.mark.parametrize(("day", "xrechnung", "cen"), EDITIONS)
def test_an_empty_order_reference_is_r008_under_2_5_0_only(
    day: date, xrechnung: str, cen: str, validator: Validator
) -> None:
    report = _edition(validator, empty_order_reference(), day, "ubl", xrechnung, cen)
    if xrechnung == "2.5.0":
        assert _from(report, "PEPPOL-EN16931-R008") == {"xrechnung-ubl@2.5.0"}, _show(report)
        assert report.accepted is False and not _from(report, NOT_INSTALLED)
    else:
        assert not _from(report, "PEPPOL-EN16931-R008"), _show(report)
        assert report.accepted is True, _show(report)
    choices = {c.pack: c for c in report.version_choices}
    assert choices[f"xrechnung-ubl@{xrechnung}"].candidates == ("xrechnung-ubl@2.5.0", "xrechnung-ubl@2.6.0")
    assert choices[f"en16931-ubl@{cen}"].reason.startswith("coupled by the edition kosit-xrechnung-config@")


@pytest.mark.parametrize(("day", "xrechnung", "cen"), EDITIONS)
def test_two_attachments_in_one_document_are_br_tmp_5_under_2_6_0_only(
    day: date, xrechnung: str, cen: str, validator: Validator
) -> None:
    report = _edition(validator, two_attachments(), day, "cii", xrechnung, cen)
    if xrechnung == "2.6.0":
        assert _from(report, "BR-TMP-5") == {"xrechnung-cii@2.6.0"}, _show(report)
        assert _from(report, "CII-SR-476") == {"en16931-cii@1.3.16"}
        (tmp5,) = [f for f in report.findings if f.rule_id == "BR-TMP-5"]
        assert tmp5.severity is Severity.WARNING and "BG-24" in tmp5.message.en and "höchstens" in tmp5.message.de
    else:
        assert not _from(report, "BR-TMP-5") and not _from(report, "CII-SR-476"), _show(report)
    assert report.accepted is True, _show(report)
    # the XRechnung pack's own findings name the version that ran, whatever the finding
    assert _from(report, "BR-DE-TMP-32") == {f"xrechnung-cii@{xrechnung}"}


def test_the_edition_choice_says_why(validator: Validator) -> None:
    before = validator.validate(empty_order_reference(), rules_date=KOSIT_PLAN_DAY).version_choices[0]
    assert before.pack == CONFIG_OLD and before.candidates == (CONFIG_OLD, CONFIG_NEW)
    assert before.reason == (
        "edition in force from 2026-01-31 on 2026-08-30; not yet in force: kosit-xrechnung-config@2026-08-31 from "
        "2026-08-31"
    )
    after = validator.validate(empty_order_reference(), rules_date=SUMMER_2026).version_choices[0]
    assert after.pack == CONFIG_OLD  # whose scenarios applied: the 2026-08-31 configuration is not installed
    assert after.reason == (
        "edition in force from 2026-08-31 on 2026-08-31; replaces kosit-xrechnung-config@2026-01-31; "
        "kosit-xrechnung-config@2026-08-31 is not installed: the scenarios and customLevels of "
        "kosit-xrechnung-config@2026-01-31 apply"
    )


def test_before_2026_01_31_no_edition_is_in_force(validator: Validator) -> None:
    from einvoice_validate import ProfileError

    with pytest.raises(ProfileError, match="no version of kosit-xrechnung-config is in force on 2026-01-30"):
        validator.validate(empty_order_reference(), rules_date=date(2026, 1, 30))


# --- a version known but not installed ----------------------------------------------------------------------------


def test_todays_report_says_the_configuration_in_force_is_not_installed(validator: Validator) -> None:
    report = validator.validate(BUSINESS / "01.01a-INVOICE_ubl.xml", rules_date=SUMMER_2026)
    (finding,) = [f for f in report.findings if f.rule_id == NOT_INSTALLED]
    assert (finding.severity, finding.flag, finding.stage, finding.location) == (
        Severity.WARNING,
        "warning",
        "input",
        None,
    )
    assert finding.source.startswith("einvoice-validate@")
    assert finding.message.en == (
        "On the rules date 2026-08-31, the configuration kosit-xrechnung-config@2026-08-31 is in force, but it is "
        "not installed in the rules home: its rule packs ran with the scenarios and customLevels of "
        "kosit-xrechnung-config@2026-01-31. Install it with `einvoice-validate rulesets install "
        "kosit-xrechnung-config@2026-08-31` (a download; offline: `--from DIR` with the files `einvoice-validate "
        "rulesets sources` lists)."
    )
    assert "gilt die Konfiguration kosit-xrechnung-config@2026-08-31" in finding.message.de
    assert report.valid and report.accepted  # a warning: the invoice itself is fine
    assert report.packs == ("ubl-2.1@2.1", "en16931-ubl@1.3.16", "xrechnung-ubl@2.6.0")
    assert not _from(validator.validate(BUSINESS / "01.01a-INVOICE_ubl.xml", rules_date=KOSIT_PLAN_DAY), NOT_INSTALLED)


def test_strict_callers_get_an_error(registry: Registry) -> None:
    strict = Validator(rules_home=registry.home, version_not_installed=Severity.ERROR)
    report = strict.validate(BUSINESS / "01.01a-INVOICE_ubl.xml", rules_date=SUMMER_2026)
    (finding,) = [f for f in report.findings if f.rule_id == NOT_INSTALLED]
    assert (finding.severity, finding.flag) == (Severity.ERROR, "error")
    assert report.valid is False and report.accepted is False
    assert strict.validate(BUSINESS / "01.01a-INVOICE_ubl.xml", rules_date=KOSIT_PLAN_DAY).accepted is True
    with pytest.raises(ProfileError) as info:  # an option like the others: checked when the options are made
        Validator(rules_home=registry.home, version_not_installed=Severity.INFO)
    assert (info.value.code, info.value.reason) == ("request.invalid-parameter", "option")


def test_strict_runners_too(registry: Registry) -> None:
    """The severity is an option of ``Options``: a batch (and every other runner) carries it to its validators."""
    options = Options(rules_home=registry.home, version_not_installed=Severity.ERROR, rules_date=SUMMER_2026)
    (result,) = validate_many([BUSINESS / "01.01a-INVOICE_ubl.xml"], workers=1, options=options)
    assert result.report is not None and result.report.valid is False
    assert {f.severity for f in result.report.findings if f.rule_id == NOT_INSTALLED} == {Severity.ERROR}
    assert Options.model_validate({"version_not_installed": "ERROR"}).version_not_installed is Severity.ERROR


def _home(tmp_path: Path, registry: Registry, *keys: str) -> Path:
    """A rules home holding copies of the installed packs ``keys`` only."""
    home = tmp_path / "home"
    for key in keys:
        pack = registry.get(key)
        shutil.copytree(pack.directory, home / "packs" / pack.manifest.id / pack.manifest.version)
    return home


UBL_EDITION_2026_01_31 = ("ubl-2.1@2.1", "en16931-ubl@1.3.15", "en16931-ubl@1.3.16", "xrechnung-ubl@2.5.0", CONFIG_OLD)


def test_without_2_6_0_the_whole_earlier_edition_runs(tmp_path: Path, registry: Registry) -> None:
    validator = Validator(rules_home=_home(tmp_path, registry, *UBL_EDITION_2026_01_31))
    report = validator.validate(empty_order_reference(), rules_date=date(2026, 9, 1))
    # coupled: 2.5.0 runs over its own CEN 1.3.15, not over the installed 1.3.16
    assert report.packs == ("ubl-2.1@2.1", "en16931-ubl@1.3.15", "xrechnung-ubl@2.5.0")
    assert _from(report, "PEPPOL-EN16931-R008") == {"xrechnung-ubl@2.5.0"}
    stand_ins = [f.message.en for f in report.findings if f.rule_id == NOT_INSTALLED]
    assert len(stand_ins) == 2, stand_ins
    assert "the configuration kosit-xrechnung-config@2026-08-31 is in force" in stand_ins[0]
    assert "scenarios and customLevels of kosit-xrechnung-config@2026-01-31" in stand_ins[0]
    assert stand_ins[1].startswith(
        "On the rules date 2026-09-01, xrechnung-ubl@2.6.0 is in force, but it is not installed in the rules home: "
        "xrechnung-ubl@2.5.0 ran instead. Install it with `einvoice-validate rulesets install xrechnung-ubl@2.6.0`"
    )
    assert "the packs of the edition kosit-xrechnung-config@2026-01-31 run" in report.version_choices[0].reason


def test_a_dated_entry_falls_back_to_the_installed_version(tmp_path: Path, registry: Registry) -> None:
    validator = Validator(rules_home=_home(tmp_path, registry, "cii-d16b@D16B", "en16931-cii@1.3.15"))
    report = validator.validate(EN16931_CII_DOC, rules_date=date(2026, 11, 24))
    assert report.packs == ("cii-d16b@D16B", "en16931-cii@1.3.15")
    (finding,) = [f for f in report.findings if f.rule_id == NOT_INSTALLED]
    assert (
        "en16931-cii@1.3.16 is in force" in finding.message.en
        and "en16931-cii@1.3.15 ran instead" in finding.message.en
    )
    (choice,) = report.version_choices
    assert choice.pack == "en16931-cii@1.3.15"
    assert choice.reason.endswith("; en16931-cii@1.3.16 is not installed: en16931-cii@1.3.15 runs instead")
    assert not _from(validator.validate(EN16931_CII_DOC, rules_date=date(2026, 4, 13)), NOT_INSTALLED)


def test_nothing_suitable_installed_is_ruleset_missing(tmp_path: Path, registry: Registry) -> None:
    validator = Validator(rules_home=_home(tmp_path, registry, "cii-d16b@D16B", "en16931-cii@1.3.16", "ubl-2.1@2.1"))
    with pytest.raises(RulesetError) as old:
        validator.validate(EN16931_CII_DOC, rules_date=date(2026, 1, 1))  # 1.3.15 in force, nothing earlier
    assert old.value.code == "ruleset.missing"
    assert old.value.detail.startswith("pack en16931-cii@1.3.15 is not installed in ")
    assert old.value.detail.endswith(
        ": the profile en16931-cii needs it on 2026-01-01, and no earlier version is installed"
    )
    with pytest.raises(RulesetError) as xrechnung:
        validator.validate(BUSINESS / "01.01a-INVOICE_ubl.xml")  # no configuration at all
    assert xrechnung.value.code == "ruleset.missing"
    assert xrechnung.value.detail.startswith(f"pack {CONFIG_NEW} is not installed in ")
    assert xrechnung.value.detail.endswith("and no earlier edition complete is installed")


def _cli(*args: str, home: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(home), *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_verify_list_and_profiles_show_it(registry: Registry) -> None:
    code, out, err = _cli("rulesets", "verify", home=registry.home)
    assert code == 0, err
    assert any(line.split() == [CONFIG_NEW, "NOT", "INSTALLED"] for line in out.splitlines()), out
    assert f"einvoice-validate: {CONFIG_NEW} is not installed: {CONFIG_OLD} stands in for it" in err
    assert err.rstrip().endswith("(rules.version-not-installed)")
    assert f"einvoice-validate rulesets install {CONFIG_NEW}" in err and "ruleset.missing" not in err
    code, out, _ = _cli("rulesets", "list", home=registry.home)
    assert code == 0
    line = next(x for x in out.splitlines() if "2026-08-31" in x and "kosit-xrechnung-config" in x)
    assert "not installed" in line and "from 2026-08-31" in line
    code, out, _ = _cli("profiles", "--rules-date", "2026-09-01", home=registry.home)
    lines = out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("xrechnung-3.0-cii "))
    assert lines[at].endswith(
        f"cii-d16b@D16B + en16931-cii@1.3.16 (of {CONFIG_NEW}), xrechnung-cii@2.6.0 (of {CONFIG_NEW})"
    )
    assert lines[at + 1].strip().startswith(f"rules.version-not-installed: {CONFIG_NEW} is in force but not installed")
    code, out, _ = _cli("profiles", "--rules-date", "2026-08-30", home=registry.home)
    assert "rules.version-not-installed" not in out
    line = next(x for x in out.splitlines() if x.startswith("xrechnung-3.0-cii "))
    assert line.endswith(f"en16931-cii@1.3.15 (of {CONFIG_OLD}), xrechnung-cii@2.5.0 (of {CONFIG_OLD})")


def test_cli_verify_fails_when_nothing_stands_in(tmp_path: Path, registry: Registry) -> None:
    keys = [p.key for p in registry.installed() if p.key != "en16931-cii@1.3.15"]
    code, out, err = _cli("rulesets", "verify", home=_home(tmp_path, registry, *keys))
    assert code == 2
    assert any(line.split() == ["en16931-cii@1.3.15", "MISSING"] for line in out.splitlines()), out
    assert "Pack en16931-cii@1.3.15 is not installed" in err and "(ruleset.missing)" in err


# --- the configuration, read at install ---------------------------------------------------------------------------


def test_the_installed_configuration_has_the_levels_profiles_toml_had(registry: Registry) -> None:
    scenarios = registry.get(CONFIG_OLD).scenarios()
    xrechnung = [p for p in load_profiles() if p.configuration is not None]
    assert {p.name for p in xrechnung} == set(PROFILES_TOML_LEVELS)
    validator = Validator(rules_home=registry.home)
    for profile in xrechnung:
        assert profile.kosit_scenario is not None
        assert dict(scenarios[profile.kosit_scenario].custom_levels) == PROFILES_TOML_LEVELS[profile.name]
        for day in (KOSIT_PLAN_DAY, SUMMER_2026):  # 2026-08-31: the 2026-01-31 scenarios stand in
            assert dict(validator.plan_for(profile, day).custom_levels) == PROFILES_TOML_LEVELS[profile.name]
    # the scenarios of the generic EN 16931 routes are read too (not used by a profile: ours run CEN 1.3.16)
    assert scenarios["EN16931 (CII)"].schematron == ("EN16931-CII-validation.xsl",)
    assert scenarios["EN16931 XRechnung (CII)"].schematron == (
        "EN16931-CII-validation.xsl",
        "XRechnung-CII-validation.xsl",
    )


def test_a_changed_reading_is_detected(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path, registry, CONFIG_OLD)
    pack = Registry(home).get(CONFIG_OLD)
    assert pack.problems() == []
    read = pack.directory / "prepared" / "scenarios.json"
    body = json.loads(read.read_text(encoding="utf-8"))
    body["scenarios"][0]["custom_levels"]["BR-CL-23"] = "information"
    read.write_text(json.dumps(body), encoding="utf-8")
    assert [p[0] for p in pack.problems()] == ["ruleset.corrupt"]
    shutil.rmtree(pack.directory / "prepared")
    assert [p[0] for p in pack.problems()] == ["ruleset.missing"]


def test_a_configuration_running_an_unpinned_resource_is_refused(tmp_path: Path, registry: Registry) -> None:
    pack = registry.get(CONFIG_OLD)
    folder = tmp_path / "pack"
    shutil.copytree(pack.directory, folder)
    xml = (folder / "scenarios.xml").read_text(encoding="utf-8")
    (folder / "scenarios.xml").write_text(
        xml.replace("XRechnung-CII-validation.xsl", "XRechnung-CII-validation-3.xsl", 1), encoding="utf-8"
    )
    with pytest.raises(RulesetError) as info:
        prepare_configuration(folder, pack.manifest)
    assert info.value.code == "ruleset.install-failed" and "XRechnung-CII-validation-3.xsl" in info.value.detail


@pytest.mark.parametrize(
    "scenarios",
    [
        b"<scenarios xmlns='urn:x'/>",
        b"<s:scenarios xmlns:s='http://www.xoev.de/de/validator/framework/1/scenarios'/>",
        b"<s:scenarios xmlns:s='http://www.xoev.de/de/validator/framework/1/scenarios'><s:scenario><s:name>A</s:name>"
        b"<s:customLevel level='severe'>BR-1</s:customLevel></s:scenario></s:scenarios>",
        b"<s:scenarios xmlns:s='http://www.xoev.de/de/validator/framework/1/scenarios'><s:scenario><s:name>A</s:name>"
        b"</s:scenario><s:scenario><s:name>A</s:name></s:scenario></s:scenarios>",
        b"<not-xml",
    ],
    ids=["other-root", "no-scenario", "unknown-level", "same-name", "not-xml"],
)
def test_unusable_scenarios_are_refused(scenarios: bytes) -> None:
    with pytest.raises(ValueError):
        read_scenarios(scenarios)


# --- acceptance sets ------------------------------------------------------------------------------------------------


def _acceptance_home(tmp_path: Path, registry: Registry, folder: str, sha256: str | None) -> tuple[Registry, Path]:
    """A rules home with what XRechnung UBL 2.5.0 runs on, its pack included (marked, to see it put back), and
    manifests whose xrechnung-ubl@2.5.0 acceptance set is the folder ``folder`` of a corpus of our own."""
    home = _home(tmp_path, registry, "ubl-2.1@2.1", "en16931-ubl@1.3.15", "xrechnung-ubl@2.5.0", CONFIG_OLD)
    (home / "packs/xrechnung-ubl/2.5.0/MARK").write_text("the folder before the install", encoding="utf-8")
    manifests = dict(registry.manifests)
    old = manifests["xrechnung-ubl@2.5.0"]
    assert old.acceptance is not None
    acceptance = old.acceptance.model_copy(update={"folders": (folder,), "sha256": sha256})
    manifests[old.key] = old.model_copy(update={"acceptance": acceptance})
    corpus = tmp_path / "corpus"
    (corpus / folder).mkdir(parents=True)
    shutil.copyfile(BUSINESS / "01.01a-INVOICE_ubl.xml", corpus / folder / "good.xml")
    shutil.copyfile(BUSINESS / "01.01a-INVOICE_uncefact.xml", corpus / folder / "not-for-ubl.xml")
    return Registry(home, manifests), corpus


def test_a_failing_acceptance_set_refuses_the_install(tmp_path: Path, registry: Registry, shared: Path) -> None:
    reg, corpus = _acceptance_home(tmp_path, registry, "set", None)
    broken = (BUSINESS / "01.01a-INVOICE_ubl.xml").read_bytes()
    broken = broken.replace(b"<cbc:BuyerReference>04011000-12345-03</cbc:BuyerReference>", b"")
    (corpus / "set" / "no-buyer-reference.xml").write_bytes(broken)
    with pytest.raises(RulesetError) as info:
        install(reg, shared / "rulesets", ["xrechnung-ubl@2.5.0"], accept=AcceptanceRunner(corpus, reg))
    assert info.value.code == "ruleset.install-failed"
    detail = info.value.detail
    assert "pack xrechnung-ubl@2.5.0: its acceptance set" in detail and "1 of 2 documents" in detail
    assert "set/no-buyer-reference.xml (xrechnung-3.0-ubl-invoice: BR-DE-15)" in detail
    # refused: the folder it replaced is back, untouched
    assert (reg.home / "packs/xrechnung-ubl/2.5.0/MARK").is_file()
    assert acceptance_record(reg.home, "xrechnung-ubl@2.5.0") is None


def test_a_passing_acceptance_set_is_recorded_and_not_run_again(
    tmp_path: Path, registry: Registry, shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg, corpus = _acceptance_home(tmp_path, registry, "set", None)
    told: list[AcceptanceResult] = []
    [pack] = install(
        reg, shared / "rulesets", ["xrechnung-ubl@2.5.0"], accept=AcceptanceRunner(corpus, reg, told.append)
    )
    assert not (pack.directory / "MARK").exists()  # replaced
    assert [(r.pack, r.documents, r.left_out, r.rules_date, r.cached) for r in told] == [
        ("xrechnung-ubl@2.5.0", 1, 1, date(2026, 1, 31), False)  # the CII case does not run the UBL pack
    ]
    record = acceptance_record(reg.home, "xrechnung-ubl@2.5.0")
    assert record is not None and record["documents"] == 1
    assert record["packs"] == ["en16931-ubl@1.3.15", CONFIG_OLD, "ubl-2.1@2.1", "xrechnung-ubl@2.5.0"]

    def no_validation(*args: object, **kwargs: object) -> Report:
        raise AssertionError("the acceptance set ran again")

    monkeypatch.setattr(Validator, "validate", no_validation)
    install(reg, shared / "rulesets", ["xrechnung-ubl@2.5.0"], accept=AcceptanceRunner(corpus, reg, told.append))
    assert told[-1].cached is True
    # another document in the set: not the set that passed, so it runs again
    shutil.copyfile(BUSINESS / "01.02a-INVOICE_ubl.xml", corpus / "set" / "more.xml")
    with pytest.raises(AssertionError, match="ran again"):
        install(reg, shared / "rulesets", ["xrechnung-ubl@2.5.0"], accept=AcceptanceRunner(corpus, reg))


def test_an_acceptance_set_other_than_the_manifests_is_refused(
    tmp_path: Path, registry: Registry, shared: Path
) -> None:
    reg, corpus = _acceptance_home(tmp_path, registry, "set", "0" * 64)
    with pytest.raises(RulesetError, match="not the set the manifest names"):
        install(reg, shared / "rulesets", ["xrechnung-ubl@2.5.0"], accept=AcceptanceRunner(corpus, reg))
    with pytest.raises(RulesetError, match="has no documents"):
        install(reg, shared / "rulesets", ["xrechnung-ubl@2.5.0"], accept=AcceptanceRunner(tmp_path / "none", reg))


# Packs no example document exists for anywhere (SOURCES.md, "Croatia (HR-CIUS 2025 / eRačun) and Peppol PINT"):
# PINT-JP self-billing 1.1.3 (phive's CTestFiles lists none, the OpenPeppol archive holds none).
NO_ACCEPTANCE_SET = {"pint-jp-sb-shared@1.1.3", "pint-jp-sb@1.1.3"}


def test_every_schematron_pack_names_its_acceptance_set(registry: Registry) -> None:
    for manifest in registry.manifests.values():
        if manifest.kind == "schematron" and manifest.provided_by == "official":
            if manifest.key in NO_ACCEPTANCE_SET:
                assert manifest.acceptance is None, manifest.key
                continue
            assert manifest.acceptance is not None and manifest.acceptance.sha256, manifest.key
    # the install of this rules home ran them (make rulesets): each has its record
    for pack in registry.installed():
        if pack.manifest.acceptance is not None:
            record = acceptance_record(registry.home, pack.key)
            assert record is not None and int(str(record["documents"])) >= 1, pack.key
