"""France's rules FNFE-MPE 1.4.0.04 by date (issue 42): 1.4.0.03 until 2026-09-30, 1.4.0.04 from 2026-10-01, for UBL,
CII and the lifecycle messages (CDAR, a syntax of its own); EXTENDED-CTC-FR keeps 1.4.0.03 and says so in every
report; the staged copy (not upstream's bytes) installed from ``../shared/rulesets`` and said to be one; the download
path pinned by the tag's commit.

Parity: the 69 documents of ``corpus/france`` against ``reference.2026-10-01.jsonl`` (``plan-france-2026-10-01.tsv``,
compared as ``tests/reference.py`` does); the CDAR messages against ``corpus/france-cdar-1.4.0.04/observed.jsonl``
(FNFE's stylesheets run directly: the Java reference has no CDAR scenario), both versions; CDAR messages broken here
(``tests/cdar.py``) raise the rule each is made for. The French suites (``tests/test_france.py``) keep 1.4.0.03's parity
on 2026-09-30 and check the preparation of every French pack, 1.4.0.04 and CDAR included.
"""

from __future__ import annotations

import io
import json
import shutil
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from einvoice_validate import Report, Severity, Validator, iter_validate
from einvoice_validate.cli import main
from einvoice_validate.errors import RulesetError
from einvoice_validate.pool.routing import sniff_syntax
from einvoice_validate.render import Renderer
from einvoice_validate.rulesets import Registry, install
from einvoice_validate.rulesets.manifest import Manifest
from einvoice_validate.rulesets.registry import sha256_file
from tests.cdar import CDAR, cdar_mutations
from tests.conftest import CORPUS, SHARED
from tests.reference import Row, assert_parity, read_rows, run_reference
from tests.test_france import OUR_PROFILE, UC1_UBL, UC11_UBL_EXTENDED, UC12_CII_EXTENDED, mv14_documents

FRANCE = CORPUS / "france"
LAST_1_4_0_03 = date(2026, 9, 30)
FROM_1_4_0_04 = date(2026, 10, 1)
DAY = date(2026, 11, 24)
PLAN = "plan-france-2026-10-01.tsv"
REFERENCE = read_rows(FRANCE / "reference.2026-10-01.jsonl")
NOT_INSTALLED = "rules.version-not-installed"
STAGED = ("fr-ctc-ubl@1.4.0.04", "fr-ctc-cii@1.4.0.04", "fr-cdar@1.4.0.04")


@pytest.fixture(scope="module")
def reports(validator: Validator) -> dict[str, Report]:
    return {name: validator.validate(FRANCE / name, rules_date=DAY) for name in REFERENCE}


# --- parity with the reference's 2026-10-01 run ----------------------------------------------------------------


@pytest.mark.corpus
def test_reference_is_complete() -> None:
    assert len(REFERENCE) == 69 and all((FRANCE / name).is_file() for name in REFERENCE)


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_parity_from_2026_10_01(name: str, reports: dict[str, Report], registry: Registry) -> None:
    report = reports[name]
    assert_parity(REFERENCE[name], report, registry, PLAN, profiles=OUR_PROFILE)
    versions = {c.pack.split("@")[0]: c.pack.split("@")[1] for c in report.version_choices if c.pack.startswith("fr-")}
    stand_ins = [f for f in report.findings if f.rule_id == NOT_INSTALLED]
    if report.profile.startswith("fr-extended-ctc-"):
        # EXTENDED-CTC-FR 1.4.0.04 is known, not installed here: 1.4.0.03 stands in, and the report says so
        assert sorted(versions.values()) == ["1.4.0.03", "1.4.0.04"]
        [note] = stand_ins
        kind = report.profile.removeprefix("fr-extended-ctc-").split("-")[0]
        assert f"fr-extended-ctc-{kind}@1.4.0.04" in note.message.en and "1.4.0.03" in note.message.en
        assert note.severity is Severity.WARNING and note.message.de != note.message.en
    else:
        assert set(versions.values()) == {"1.4.0.04"} and not stand_ins


@pytest.mark.corpus
def test_the_official_examples_stay_valid(reports: dict[str, Report]) -> None:
    official = {n: r for n, r in reports.items() if not n.startswith("mutations/")}
    assert len(official) == 23 and [n for n, r in official.items() if not r.valid] == []


@pytest.mark.corpus
def test_1_4_0_04_findings_have_lines_texts_and_values(reports: dict[str, Report]) -> None:
    """The findings of the new packs get what every finding gets: the line and readable path of their element, FNFE's
    French text with ours in English and German, and the values of the business terms they name."""
    new = [f for r in reports.values() for f in r.findings if f.source in STAGED]
    assert len({f.rule_id for f in new}) >= 10
    placed = [f for f in new if f.rule_id != "schematron.runtime-error"]
    assert all(
        f.line and f.location and f.location.startswith(("/Invoice", "/CreditNote", "/CrossIndustry")) for f in placed
    )
    assert all(f.message.fr and f.message.en not in (f.message.fr, f.message.de) for f in placed)
    valued = [f for f in placed if f.values]
    assert len(valued) >= 5 and all(v.term in f.terms for f in valued for v in f.values)


# --- the rules by date --------------------------------------------------------------------------------------------


@pytest.mark.corpus
def test_1_4_0_04_from_2026_10_01(validator: Validator) -> None:
    before = validator.validate(UC1_UBL, rules_date=LAST_1_4_0_03)
    after = validator.validate(UC1_UBL, rules_date=FROM_1_4_0_04)
    assert before.packs[-1] == "fr-ctc-ubl@1.4.0.03" and after.packs[-1] == "fr-ctc-ubl@1.4.0.04"
    (choice,) = after.version_choices
    assert choice.candidates == ("fr-ctc-ubl@1.4.0", "fr-ctc-ubl@1.4.0.03", "fr-ctc-ubl@1.4.0.04")
    assert "from 2026-10-01" in choice.reason and "fr-ctc-ubl@1.4.0.03" in choice.reason
    assert "not yet in force: fr-ctc-ubl@1.4.0.04 from 2026-10-01" in before.version_choices[0].reason
    # EXTENDED-CTC-FR: 1.4.0.03 on both days, the day after its successor is in force with a note
    for path in (UC11_UBL_EXTENDED, UC12_CII_EXTENDED):
        old = validator.validate(path, rules_date=LAST_1_4_0_03)
        new = validator.validate(path, rules_date=FROM_1_4_0_04)
        assert not any(f.rule_id == NOT_INSTALLED for f in old.findings)
        assert [f.rule_id for f in new.findings if f.rule_id == NOT_INSTALLED] == [NOT_INSTALLED]
        assert old.valid and new.valid
        assert new.packs[-2].endswith("@1.4.0.03") and new.packs[-1].endswith("@1.4.0.04")


@pytest.mark.corpus
def test_an_empty_date_is_a_runtime_error_from_1_4_0_04_and_the_other_rules_still_run(validator: Validator) -> None:
    """1.4.0.04 reads dates with xs:decimal(): an empty BT-73 date, BR-FR-03 under 1.4.0.03, is FNFE's dynamic error
    FORG0001 under 1.4.0.04 (SOURCES.md); the preparation (isolate-rule-errors) keeps it to the one rule."""
    path = FRANCE / "mutations" / "UC5_F202500007_00-INV_20250702_CII.m7-1.xml"
    old = validator.validate(path, rules_date=LAST_1_4_0_03)
    new = validator.validate(path, rules_date=FROM_1_4_0_04)
    assert "BR-FR-03_BT-73" in {f.rule_id for f in old.findings if f.source == "fr-ctc-cii@1.4.0.03"}
    errors = [f for f in new.findings if f.source == "fr-ctc-cii@1.4.0.04" and f.rule_id == "schematron.runtime-error"]
    assert errors and all(f.location and f.line for f in errors) and "FORG0001" in errors[0].message.en
    assert "BR-FR-03_BT-73" not in {f.rule_id for f in new.findings}
    assert not new.valid


@pytest.mark.corpus
def test_strict_callers_get_an_error_for_extended_ctc_fr(registry: Registry) -> None:
    strict = Validator(rules_home=registry.home, version_not_installed=Severity.ERROR)
    report = strict.validate(UC12_CII_EXTENDED, rules_date=DAY)
    assert not report.valid and [f.rule_id for f in report.errors] == [NOT_INSTALLED]


# --- the live reference on the documents test_france.py builds (BR-FR-MV-14 / BD-14) ----------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("france-1404")
    paths = {}
    for name, data in mv14_documents().items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return paths


@pytest.fixture(scope="module")
def live_reference(built: dict[str, Path]) -> dict[str, Row]:
    rows = run_reference(built.values(), PLAN)
    return {path.name: row for path, row in rows.items()}


@pytest.mark.reference
@pytest.mark.parametrize("name", list(mv14_documents()))
def test_built_documents_against_the_live_reference(
    name: str, built: dict[str, Path], live_reference: dict[str, Row], validator: Validator, registry: Registry
) -> None:
    report = validator.validate(built[name], rules_date=DAY)
    assert_parity(live_reference[name], report, registry, PLAN, profiles=OUR_PROFILE)


# --- the lifecycle messages (CDAR) --------------------------------------------------------------------------------


def _observed() -> dict[str, dict[str, Any]]:
    rows = (json.loads(line) for line in (CDAR / "observed.jsonl").read_text(encoding="utf-8").splitlines())
    return {row["file"]: row for row in rows if not row["file"].startswith("shared:")}


OBSERVED = _observed()


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(OBSERVED))
@pytest.mark.parametrize(("day", "version", "column"), [(DAY, "1.4.0.04", 0), (LAST_1_4_0_03, "1.4.0.03", 1)])
def test_cdar_as_observed(name: str, day: date, version: str, column: int, validator: Validator) -> None:
    """Each message: the CDAR D22B schema and the BR-FR-CDV rules in force, as FNFE's stylesheets gave when staged."""
    row = OBSERVED[name]
    report = validator.validate(CDAR / name, rules_date=day)
    assert (report.syntax, report.document_type, report.profile) == ("cdar", "cdar", "fr-cdar")
    assert report.packs == ("cdar-d22b@D22B", f"fr-cdar@{version}")
    assert report.spec_id is not None and report.spec_id.startswith("urn.cpro.gouv.fr:1p0:CDV:")
    assert row["xsd_valid"] and not [f for f in report.findings if f.stage == "xsd"]
    observed = row["xslt"][column]
    assert observed["xslt"].endswith(f"{version}/CDAR/2xslt/BR-FR-CDV-Schematron-CDAR.xslt")
    expected = Counter((f["id"], f["flag"]) for f in observed["failed_asserts"])
    assert Counter((f.rule_id, f.flag) for f in report.findings) == expected
    assert report.valid


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(cdar_mutations()))
def test_broken_cdar_messages(name: str, validator: Validator) -> None:
    data = cdar_mutations()[name]
    for day in (LAST_1_4_0_03, DAY):
        report = validator.validate(data, rules_date=day)
        findings = [f for f in report.findings if f.stage in ("xsd", "schematron")]
        assert findings and all(f.line and f.location and f.location.startswith("/CrossDomainAck") for f in findings)
        if name.startswith("cdar-xsd"):
            assert [f.rule_id for f in findings] == ["cvc-complex-type.2.4.a"]
            assert str(findings[0].location).endswith("/rsm:ExchangedDocument/ram:Colour")
            continue
        rule = name.removeprefix("cdar-").split("--")[0]
        fired = [f for f in findings if f.rule_id.startswith(rule)]
        assert fired, (name, [f.rule_id for f in findings])
        for finding in fired:  # FNFE's French text kept, English and German ours; no business term, no value
            assert finding.message.fr and finding.message.en not in (finding.message.fr, finding.message.de)
            assert finding.values == () and ("/rsm:" in str(finding.location) or "/ram:" in str(finding.location))


@pytest.mark.corpus
def test_the_new_cdar_warning_of_1_4_0_04(validator: Validator) -> None:
    probe = CDAR / "probes" / "UC1_F202500003_01-CDV-200_Deposee.probe-MDT-129-siret.xml"
    old, new = (validator.validate(probe, rules_date=d) for d in (LAST_1_4_0_03, DAY))
    assert old.findings == ()
    [warning] = new.findings
    assert (warning.rule_id, warning.severity, new.valid) == ("BR-FR-CDV-13_MDT-129-2", Severity.WARNING, True)
    assert warning.message.de.startswith("WARNUNG - MDT-105 ist nicht")


@pytest.mark.corpus
def test_cdar_through_the_cli_and_the_pool(registry: Registry, tmp_path: Path) -> None:
    files = [CDAR / name for name in sorted(OBSERVED)]
    broken = tmp_path / "broken.xml"
    broken.write_bytes(cdar_mutations()["cdar-BR-FR-CDV-CL-01--mdt2.xml"])
    out, err = io.StringIO(), io.StringIO()
    args = ["--home", str(registry.home), "validate", "--format", "jsonl", "--rules-date", str(DAY)]
    assert main([*args, *map(str, [*files, broken])], stdout=out, stderr=err) == 1, err.getvalue()
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {row["profile"] for row in rows} == {"fr-cdar"} and [row["valid"] for row in rows].count(False) == 1
    results = list(iter_validate([broken, *files[:3]], workers=2, rules_home=registry.home, rules_date=DAY))
    assert [r.report is not None and r.report.profile for r in results] == ["fr-cdar"] * 4
    assert sniff_syntax(broken.read_bytes(), registry.syntaxes) == "cdar"


@pytest.mark.corpus
def test_show_has_no_view_of_a_cdar_message_and_says_so(validator: Validator) -> None:
    """The XRechnung viewer shows invoices (UBL, CII): a lifecycle message is shown with its findings only."""
    shown = Renderer(validator).show(cdar_mutations()["cdar-BR-FR-CDV-02--mdt3.xml"], rules_date=DAY)
    page = shown.content.decode("utf-8")
    assert "no-viewer" in page and "no view of" in page and "BR-FR-CDV-02_MDT-3" in page


# --- installing 1.4.0.04: the staged copy, the download pinned by the tag's commit --------------------------------


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / "packs").mkdir(parents=True)
    return home


def test_the_manifests_pin_the_tags_commit() -> None:
    registry = Registry()
    for key in (*STAGED, "fr-extended-ctc-ubl@1.4.0.04", "fr-extended-ctc-cii@1.4.0.04"):
        manifest = registry.manifests[key]
        assert manifest.pinned_by == "commit" and manifest.upstream.commit == "97ba0f3d4ef2abed5780e9490d5c3a2be832ab1d"
        assert manifest.upstream.repository == "https://github.com/fnfempe/France_RFE"
        sheet = manifest.entries["stylesheet"]
        assert manifest.unrecorded == (sheet,) and f"/{manifest.upstream.commit}/" in manifest.sources[sheet]
        assert str(manifest.valid_from) == "2026-10-01"
        assert (manifest.staged is not None) == (key in STAGED)
    fields = registry.manifests["fr-ctc-ubl@1.4.0.04"].model_dump()
    fields["sources"] = {**fields["sources"], fields["entries"]["stylesheet"]: "https://example.org/main/x.xslt"}
    with pytest.raises(ValueError, match="naming 97ba0f3d"):
        Manifest.model_validate(fields)


@pytest.mark.corpus
def test_installed_from_the_shared_folder_it_says_it_is_the_staged_copy(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path)
    notes: list[str] = []
    [pack] = install(Registry(home), SHARED / "rulesets", ["fr-ctc-ubl@1.4.0.04"], on_note=notes.append)
    [note] = notes
    assert "fr-ctc-ubl@1.4.0.04: installed the staged copy" in note and "not the official archive's bytes" in note
    assert pack.installed_from() == "staged" and pack.problems() == []
    assert pack.files() == registry.manifests["fr-ctc-ubl@1.4.0.04"].staged.files  # type: ignore[union-attr]
    out, err = io.StringIO(), io.StringIO()
    main(["--home", str(home), "rulesets", "verify"], stdout=out, stderr=err)
    assert "fr-ctc-ubl@1.4.0.04" in out.getvalue() and "the staged copy: not upstream's files" in out.getvalue()
    # a changed byte is refused, as for every pack
    sheet = pack.directory / pack.manifest.entries["stylesheet"]
    sheet.write_bytes(sheet.read_bytes() + b" ")
    assert [code for code, *_ in pack.problems()] == ["ruleset.corrupt"]
    # EXTENDED-CTC-FR 1.4.0.04 has no staged copy: only upstream's files can be it
    with pytest.raises(RulesetError) as info:
        install(Registry(home), SHARED / "rulesets", ["fr-extended-ctc-ubl@1.4.0.04"])
    assert info.value.code == "ruleset.install-failed" and "at commit 97ba0f3d" in info.value.detail


def test_downloaded_files_are_recorded_at_install(tmp_path: Path, registry: Registry) -> None:
    """The download path (here a folder of the files as downloaded, read like a download: ``DIR/HOST/PATH``): the
    file the tag's commit names is taken as fetched, its sha256 recorded, and verified ever after."""
    home = _home(tmp_path)
    manifest = registry.manifests["fr-extended-ctc-cii@1.4.0.04"]
    downloads = tmp_path / "downloads"
    for rel, url in manifest.sources.items():
        target = downloads / url.removeprefix("https://")
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel == "LICENSE":
            shutil.copyfile(SHARED / "rulesets" / "france" / "1.4.0.03" / "LICENSE", target)
        else:  # upstream's 1.4.0.04 stylesheet stands here as 1.4.0.03's, edited (its bytes are not known in advance)
            source = registry.get("fr-extended-ctc-cii@1.4.0.03")
            target.write_bytes(
                (source.directory / source.manifest.entries["stylesheet"]).read_bytes() + b"<!-- 1.4.0.04 -->"
            )
    [pack] = install(Registry(home), downloads, [manifest.key])
    assert pack.installed_from() == "upstream" and pack.problems() == []
    sheet = manifest.entries["stylesheet"]
    assert pack.files()[sheet] == sha256_file(pack.directory / sheet)
    record = json.loads((pack.directory / "manifest.json").read_text(encoding="utf-8"))
    assert record["installed_from"] == "upstream" and record["files"][sheet] == pack.files()[sheet]
    (pack.directory / sheet).write_bytes(b"<xsl:stylesheet/>")
    assert [code for code, *_ in pack.problems()] == ["ruleset.corrupt"]


def test_sources_lists_the_commit_addresses(registry: Registry) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["--home", str(registry.home), "rulesets", "sources"], stdout=out, stderr=err) == 0
    rows = [line.split("\t") for line in out.getvalue().splitlines()]
    ours = [r for r in rows if "/fnfempe/France_RFE/97ba0f3d4ef2abed5780e9490d5c3a2be832ab1d/" in r[0]]
    assert len(ours) == 5 and all(r[1] == "-" for r in ours)  # UBL, CII, CDAR, and the two EXTENDED-CTC-FR
