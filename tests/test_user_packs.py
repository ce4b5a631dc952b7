"""User packs and profiles (issue 15), with the example of ``examples/user`` copied into a fresh rules home.

Found (manifest read from ``<home>/user/packs``, profiles from ``<home>/user/profiles.toml``), verified (a changed
byte is refused), layered on the official profiles, its findings in the report with the pack's own ids, texts
and ``source``; a rule that raises is a runtime-error finding, not silence.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from io import StringIO
from pathlib import Path

import pytest

from einvoice_validate import Severity, Validator
from einvoice_validate.cli import main
from einvoice_validate.errors import RulesetError
from einvoice_validate.rulesets import Registry, install
from einvoice_validate.schematron import RUNTIME_ERROR
from tests.conftest import CORPUS, REPO

EXAMPLE = REPO / "examples" / "user"
KEY = "house-rules@1.0"
XR_DOC = CORPUS / "xrechnung-testsuite" / "technical-cases" / "cius" / "01.05_minimal_test_ubl.xml"
PEPPOL_DOC = CORPUS / "peppol-bis" / "examples" / "Allowance-example.xml"
PEPPOL_WITH_ORDER = CORPUS / "peppol-bis" / "examples" / "sales-order-example.xml"


def _home(tmp_path: Path, registry: Registry, prepare: bool = True) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "packs").symlink_to(registry.home / "packs", target_is_directory=True)  # the official packs, read only
    shutil.copytree(EXAMPLE, home / "user")
    if prepare:
        install(Registry(home), packs=[KEY])
    return home


def _rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def _pack_dir(home: Path) -> Path:
    return home / "user" / "packs" / "house-rules" / "1.0"


def _resign(home: Path, rel: str) -> None:
    """Record the new sha256 of ``rel`` in the user manifest (what a user does after editing a file)."""
    digest = hashlib.sha256((_pack_dir(home) / rel).read_bytes()).hexdigest()
    manifest = home / "user" / "packs" / "house-rules" / "1.0.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(re.sub(rf'"{re.escape(rel)}" = "[0-9a-f]+"', f'"{rel}" = "{digest}"', text), encoding="utf-8")


@pytest.mark.corpus
def test_found(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path, registry)
    reg = Registry(home)
    manifest = reg.manifests[KEY]
    assert manifest.provided_by == "user" and manifest.entries == {"stylesheet": "house-rules.xsl"}
    assert str(manifest.valid_from) == "2026-01-01"
    assert KEY in {p.key for p in reg.installed()}
    reg.get(KEY).verify()
    # The official manifests are still all there, and none is marked as the user's.
    assert {k for k, m in reg.manifests.items() if m.provided_by == "official"} == set(registry.manifests)
    validator = Validator(rules_home=home)
    assert [p.name for p in validator.profiles[:2]] == [
        "xrechnung-3.0-ubl-invoice+house",
        "peppol-bis-3.0-ubl-invoice+house",
    ]


@pytest.mark.corpus
def test_layered_on_xrechnung_with_its_findings(tmp_path: Path, registry: Registry, validator: Validator) -> None:
    home = _home(tmp_path, registry)
    ours = Validator(rules_home=home).validate(XR_DOC)
    official = validator.validate(XR_DOC)
    assert official.profile == "xrechnung-3.0-ubl-invoice" and official.accepted is True
    assert ours.profile == "xrechnung-3.0-ubl-invoice+house"
    assert "a user profile on xrechnung-3.0-ubl-invoice" in str(ours.profile_reason)
    assert ours.packs == (*official.packs, KEY)
    house = [f for f in ours.findings if f.source == KEY]
    assert [(f.rule_id, f.flag, f.severity) for f in house] == [("HOUSE-01", "fatal", Severity.ERROR)]
    assert house[0].message.en == "The buyer's purchase order reference (BT-13) is mandatory for us."
    assert house[0].message.de == "Die Bestellreferenz des Käufers (BT-13) ist bei uns Pflicht."
    assert house[0].terms == ("BT-13",)
    assert house[0].pack_location == (
        "/*:Invoice[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'][1]"
    )
    assert house[0].line is not None
    # The official findings are untouched; the KoSIT verdict now counts the house rule too.
    assert [f for f in ours.findings if f.source != KEY] == list(official.findings)
    assert ours.valid is False and ours.accepted is False


@pytest.mark.corpus
def test_layered_on_peppol_chosen_by_date_and_text_fallback(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path, registry)
    validator = Validator(rules_home=home)
    report = validator.validate(PEPPOL_DOC)
    assert report.profile == "peppol-bis-3.0-ubl-invoice+house"
    assert report.packs[-1] == KEY and KEY in {c.pack for c in report.version_choices}
    house = {f.rule_id: f for f in report.findings if f.source == KEY}
    assert set(house) == {"HOUSE-01", "HOUSE-02"}
    # HOUSE-02 has no text in the manifest: its SVRL text, without the label, in both languages.
    warning = house["HOUSE-02"]
    assert warning.severity is Severity.WARNING and warning.flag == "warning"
    text = "Item seller identifiers (BT-155) should follow our format ABC-12345."
    assert warning.message.en == warning.message.de == text
    assert warning.location is not None and "SellersItemIdentification" in warning.location
    # With an order reference HOUSE-01 is met.
    assert "HOUSE-01" not in {f.rule_id for f in validator.validate(PEPPOL_WITH_ORDER).findings}


@pytest.mark.corpus
def test_a_changed_byte_is_refused(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path, registry)
    sheet = _pack_dir(home) / "house-rules.xsl"
    sheet.write_bytes(sheet.read_bytes().replace(b"mandatory for us", b"mandatory for US", 1))
    with pytest.raises(RulesetError) as exc:
        Validator(rules_home=home).validate(XR_DOC)
    assert exc.value.code == "ruleset.corrupt" and "house-rules.xsl" in exc.value.detail
    with pytest.raises(RulesetError, match=r"ruleset\.corrupt"):
        install(Registry(home), packs=[KEY])


@pytest.mark.corpus
def test_a_changed_prepared_copy_is_refused(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path, registry)
    prepared = _pack_dir(home) / "prepared" / "house-rules.xsl"
    prepared.write_bytes(prepared.read_bytes() + b"\n")
    with pytest.raises(RulesetError) as exc:
        Validator(rules_home=home).validate(XR_DOC)
    assert exc.value.code == "ruleset.corrupt"


@pytest.mark.corpus
def test_not_prepared_is_a_clear_error(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path, registry, prepare=False)
    with pytest.raises(RulesetError) as exc:
        Validator(rules_home=home).validate(XR_DOC)
    assert exc.value.code == "ruleset.missing" and f"rulesets install {KEY}" in exc.value.detail


@pytest.mark.corpus
def test_a_rule_that_raises_is_reported_and_the_others_run(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path, registry, prepare=False)
    sheet = _pack_dir(home) / "house-rules.xsl"
    test = "normalize-space(cac:OrderReference/cbc:ID) != ''"
    _rewrite(sheet, f'<xsl:when test="{test}"/>', '<xsl:when test="xs:decimal(cbc:ID) &gt; 0"/>')
    _resign(home, "house-rules.xsl")
    install(Registry(home), packs=[KEY])
    report = Validator(rules_home=home).validate(PEPPOL_DOC)
    house = [f for f in report.findings if f.source == KEY]
    errors = [f for f in house if f.rule_id == RUNTIME_ERROR]
    assert len(errors) == 1 and "HOUSE-01" in errors[0].message.en and errors[0].severity is Severity.ERROR
    assert "HOUSE-02" in {f.rule_id for f in house}, "the other rule still ran"


def test_bad_user_data_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    packs = home / "user" / "packs" / "mine"
    packs.mkdir(parents=True)
    body = 'id = "mine"\nversion = "2"\ntitle = "t"\nsyntax = "ubl"\nstylesheet = "a.xsl"\n[files]\n"a.xsl" = "00"\n'
    (packs / "1.toml").write_text(body, encoding="utf-8")
    with pytest.raises(RulesetError, match=r"name it mine/2\.toml"):
        Registry(home)
    (packs / "1.toml").unlink()
    (packs / "2.toml").write_text(body.replace('"a.xsl" = "00"', '"b.xsl" = "00"'), encoding="utf-8")
    with pytest.raises(RulesetError, match="not listed in"):
        Registry(home)
    clash = home / "user" / "packs" / "en16931-ubl"
    clash.mkdir()
    (packs / "2.toml").write_text(body, encoding="utf-8")
    (clash / "9.toml").write_text(body.replace('"mine"', '"en16931-ubl"').replace('"2"', '"9"'), encoding="utf-8")
    with pytest.raises(RulesetError, match="id of an official pack"):
        Registry(home)


def test_bad_user_profiles_are_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "user").mkdir(parents=True)
    profiles = home / "user" / "profiles.toml"
    for body, message in (
        ('[[profile]]\nname = "x"\ntitle = "t"\nextends = "nope"\n', "no official profile"),
        ('[[profile]]\nname = "en16931-cii"\ntitle = "t"\nextends = "en16931-cii"\n', "name of an official"),
        ('[[profile]]\nname = "x"\ntitle = "t"\nextends = "en16931-cii"\nroot = "cii"\n', "root"),
    ):
        profiles.write_text(body, encoding="utf-8")
        with pytest.raises(RulesetError, match=message):
            Validator(rules_home=home)


@pytest.mark.corpus
def test_compiled_once(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path, registry)
    validator = Validator(rules_home=home)
    for _ in range(3):
        validator.validate(XR_DOC)
        validator.validate(PEPPOL_DOC)
    assert sorted(name for name, *_ in validator._stages) == [
        "peppol-bis-3.0-ubl-invoice+house",
        "xrechnung-3.0-ubl-invoice+house",
    ]


@pytest.mark.corpus
def test_cli_lists_the_user_pack_and_profiles(tmp_path: Path, registry: Registry) -> None:
    home = _home(tmp_path, registry)
    out, err = StringIO(), StringIO()
    assert main(["--home", str(home), "rulesets", "list"], stdout=out, stderr=err) == 0
    line = next(x for x in out.getvalue().splitlines() if "house-rules" in x)
    assert line.split()[:7] == ["house-rules", "1.0", "schematron", "user", "from", "2026-01-01", "installed"]
    out = StringIO()
    assert main(["--home", str(home), "profiles", "--rules-date", "2026-08-30"], stdout=out, stderr=err) == 0
    line = next(x for x in out.getvalue().splitlines() if x.startswith("xrechnung-3.0-ubl-invoice+house"))
    edition = "(of kosit-xrechnung-config@2026-01-31)"
    assert "(user, on xrechnung-3.0-ubl-invoice)" in line and line.endswith(
        f"xrechnung-ubl@2.5.0 {edition}, house-rules@1.0"
    )
    out = StringIO()
    assert main(["--home", str(home), "validate", "--format", "jsonl", str(XR_DOC)], stdout=out, stderr=err) == 1
    assert '"ruleId": "HOUSE-01"' in out.getvalue() and '"source": "house-rules@1.0"' in out.getvalue()
