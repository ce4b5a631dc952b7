"""The pack registry and the installer: manifests, checksums, missing and corrupted files fail loudly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from einvoice_validate import RulesetError, Validator
from einvoice_validate.rulesets import Registry, download, install, load_manifests
from einvoice_validate.rulesets.registry import sha256_file

EXPECTED_PACKS = {
    "ubl-2.1@2.1",
    "cii-d16b@D16B",
    "en16931-ubl@1.3.16",
    "en16931-cii@1.3.16",
    "en16931-ubl@1.3.15",
    "en16931-cii@1.3.15",
    "xrechnung-ubl@2.5.0",
    "xrechnung-cii@2.5.0",
    "xrechnung-ubl@2.6.0",
    "xrechnung-cii@2.6.0",
    "kosit-xrechnung-config@2026-01-31",
    "kosit-xrechnung-config@2026-08-31",
    "cius-ro-ubl@1.0.9",
    "peppol-bis-cen-ubl@2026.5",
    "peppol-bis-ubl@2026.5",
    "peppol-bis-sb-ubl@2026.5",
    "xrechnung-visualization@2026-01-31",  # the viewer of `show` (kind viewer)
    *(
        f"zugferd-{p}{kind}@2.5.2"
        for p in ("minimum", "basicwl", "basic", "en16931", "extended")
        for kind in ("", "-xsd")
    ),
    # national CIUS (issue 22)
    "ubl-be@1.31",
    "si-ubl@2.0.3.13",
    "nlcius-cii@1.0.3.13",
    "cius-pt@2.1.1",
    # French CTC rules (issue 31)
    *(
        f"fr-{kind}-{syntax}@{version}"
        for kind in ("ctc", "extended-ctc")
        for syntax in ("ubl", "cii")
        for version in ("1.4.0", "1.4.0.03")
    ),
    # Croatia and Peppol PINT (issue 42): HR-CIUS by date, the eRačun XSD, and per PINT release its shared rules
    # ("-shared") and jurisdiction rules
    "hr-cius@1.0.2",
    "hr-cius@1.0.3",
    "hr-eracun-xsd@2026-04-15",
    "pint-generic@1.1.3",
    "pint-eu-en16931@1.1.1",
    *(
        f"pint-{j}{part}@{v}"
        for j, v in (
            *(
                (f"{j}{sb}", v)
                for j, v in (("ae", "2026.5"), ("aunz", "1.1.3"), ("my", "1.3.1"), ("om", "1.0.1"))
                for sb in ("", "-sb")
            ),
            *((j, "1.1.3") for j in ("jp", "jp-ntr", "jp-sb")),
            ("eu", "1.1.1"),
            ("sg", "1.4.1"),
        )
        for part in ("-shared", "")
    ),
    # France 1.4.0.04 and the lifecycle messages (issue 42)
    *(f"fr-{kind}-{syntax}@1.4.0.04" for kind in ("ctc", "extended-ctc") for syntax in ("ubl", "cii")),
    *(f"fr-cdar@{version}" for version in ("1.4.0", "1.4.0.03", "1.4.0.04")),
    "cdar-d22b@D22B",
    # national formats beyond UBL and CII (issue 44)
    "ksef-fa3-xsd@1-0E",
    "fatturapa-xsd@1.2.2",
    *(f"oioubl-{kind}@1.17.2" for kind in ("xsd", "invoice", "creditnote", "reminder")),
}


def test_manifests_cover_the_packs() -> None:
    manifests = load_manifests()
    assert set(manifests) == EXPECTED_PACKS
    for manifest in manifests.values():
        # a pack pinned by its archive alone (kosit-xrechnung-config@2026-08-31): its members' sha256 are recorded
        # at install
        unrecorded = set(manifest.unrecorded)
        assert all(len(h) == 64 for rel, h in manifest.files.items() if rel not in unrecorded)
        # a pack pinned by its commit (FNFE 1.4.0.04): the files not known in advance come from addresses naming it
        commit = manifest.upstream.commit or "(none)"
        assert not unrecorded or (
            (manifest.pinned_by == "archive" and manifest.upstream.archives[0].sha256)
            or (manifest.pinned_by == "commit" and all(commit in manifest.sources[rel] for rel in unrecorded))
        )
        assert set(manifest.entries.values()) <= set(manifest.files), manifest.key
        assert manifest.upstream.repository.startswith("https://")


def test_manifest_checksums_match_the_official_files(shared: Path) -> None:
    for manifest in load_manifests().values():
        for rel, expected in manifest.files.items():
            if rel in manifest.unrecorded:
                continue  # not in ../shared: known only through its archive or commit
            assert sha256_file(shared / "rulesets" / manifest.source_dir / rel) == expected, (manifest.key, rel)
        for rel, expected in (manifest.staged.files if manifest.staged is not None else {}).items():
            assert sha256_file(shared / "rulesets" / manifest.source_dir / rel) == expected, (manifest.key, rel)


@pytest.fixture()
def source(tmp_path: Path, shared: Path) -> Path:
    """A private copy of the official en16931-cii 1.3.16 files, to break on purpose."""
    manifest = load_manifests()["en16931-cii@1.3.16"]
    for rel in manifest.files:
        dest = tmp_path / "src" / manifest.source_dir / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shared / "rulesets" / manifest.source_dir / rel, dest)
    return tmp_path / "src"


def test_install_copies_and_verifies(source: Path, tmp_path: Path) -> None:
    registry = Registry(tmp_path / "home")
    [pack] = install(registry, source, ["en16931-cii@1.3.16"])
    assert pack.problems() == []
    assert registry.get("en16931-cii@1.3.16").entry("stylesheet").is_file()
    assert [p.key for p in registry.installed()] == ["en16931-cii@1.3.16"]


def test_install_refuses_a_checksum_mismatch(source: Path, tmp_path: Path) -> None:
    manifest = load_manifests()["en16931-cii@1.3.16"]
    sheet = source / manifest.source_dir / manifest.entries["stylesheet"]
    sheet.write_bytes(sheet.read_bytes() + b"\n<!-- tampered -->")
    registry = Registry(tmp_path / "home")
    with pytest.raises(RulesetError) as info:
        install(registry, source, ["en16931-cii@1.3.16"])
    assert info.value.code == "ruleset.corrupt"
    assert "en16931-cii@1.3.16" in info.value.detail and "EN16931-CII-validation.xslt" in info.value.detail
    assert registry.installed() == [], "a refused pack must not be left half-installed"


def test_install_reports_a_missing_file(source: Path, tmp_path: Path) -> None:
    (source / "en16931/1.3.16/LICENSE.txt").unlink()
    with pytest.raises(RulesetError) as info:
        install(Registry(tmp_path / "home"), source, ["en16931-cii@1.3.16"])
    assert info.value.code == "ruleset.missing"
    assert "LICENSE.txt" in info.value.detail


def test_install_unknown_pack(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="nope@1"):
        install(Registry(tmp_path / "home"), tmp_path, ["nope@1"])


def test_download_offline_fails_clearly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib.request

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network unreachable")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    monkeypatch.setattr(download, "RETRY_WAIT_S", 0.0)
    with pytest.raises(RulesetError) as info:
        install(Registry(tmp_path / "home"), None, ["xrechnung-ubl@2.5.0"])
    assert info.value.code == "ruleset.install-failed"
    assert "--from" in info.value.detail and "rulesets sources" in info.value.detail
    assert "after 3 attempt(s)" in info.value.detail


def test_verify_names_a_corrupted_installed_file(source: Path, tmp_path: Path) -> None:
    registry = Registry(tmp_path / "home")
    [pack] = install(registry, source, ["en16931-cii@1.3.16"])
    (pack.directory / "LICENSE.txt").write_text("changed")
    [(code, rel, _)] = pack.problems()
    assert (code, rel) == ("ruleset.corrupt", "LICENSE.txt")
    with pytest.raises(RulesetError, match=r"LICENSE\.txt"):
        pack.verify()


def test_validation_never_skips_a_missing_pack(tmp_path: Path, source: Path) -> None:
    # Only the CII CEN pack is installed: the CII XSD pack is missing, so validating must fail loudly.
    registry = Registry(tmp_path / "home")
    install(registry, source, ["en16931-cii@1.3.16"])
    cii = b'<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>'
    with pytest.raises(RulesetError) as info:
        Validator(rules_home=registry.home).validate(cii)
    assert info.value.code == "ruleset.missing"
    assert "cii-d16b@D16B" in info.value.detail


def test_validation_refuses_a_corrupted_pack(tmp_path: Path, shared: Path) -> None:
    registry = Registry(tmp_path / "home")
    install(registry, shared / "rulesets", ["cii-d16b@D16B", "en16931-cii@1.3.16"])
    sheet = registry.get("en16931-cii@1.3.16").entry("stylesheet")
    sheet.write_bytes(sheet.read_bytes().replace(b"BR-01", b"BR-XX", 1))
    cii = b'<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>'
    with pytest.raises(RulesetError) as info:
        Validator(rules_home=registry.home).validate(cii)
    assert info.value.code == "ruleset.corrupt"
    assert "EN16931-CII-validation.xslt" in info.value.detail
