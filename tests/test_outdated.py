"""``einvoice-validate rulesets outdated`` (issue 42): the pack versions in force on a day, whether each is installed,
and the later versions the catalogue knows, offline; and the catalogue itself: a later version of a pack is one
manifest dropped into ``<home>/manifests/<id>/<version>.toml``, checked as the bundled ones are, which validation then
takes on its date (not installed: the previous version stands in, and says so; installed: it runs).
"""

from __future__ import annotations

import io
import json
import socket
import tomllib
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from einvoice_validate import Validator
from einvoice_validate.cli import main
from einvoice_validate.errors import RulesetError
from einvoice_validate.rulesets import Registry, install
from einvoice_validate.rulesets.status import pack_states
from tests.conftest import SHARED
from tests.test_france import UC1_UBL

NEXT = "fr-ctc-ubl@1.4.0.05"
NEXT_DAY = date(2027, 1, 1)


def _run(home: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(home), "rulesets", "outdated", *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _json(home: Path, day: str) -> dict[str, Any]:
    code, out, err = _run(home, "--date", day, "--format", "json")
    assert code == 0, err
    body: dict[str, Any] = json.loads(out)
    return body


def _pack(body: dict[str, Any], pack_id: str) -> dict[str, Any]:
    [found] = [p for p in body["packs"] if p["id"] == pack_id]
    return found


@pytest.mark.corpus
def test_the_rules_in_force_and_those_to_come(registry: Registry) -> None:
    before = _json(registry.home, "2026-09-15")
    assert before["date"] == "2026-09-15" and {p["id"] for p in before["packs"]} == {
        m.id for m in registry.manifests.values()
    }
    fr = _pack(before, "fr-ctc-ubl")
    assert fr["inForce"]["version"] == "1.4.0.03" and fr["inForce"]["installed"] is True
    assert fr["inForce"]["validFrom"] == "2026-09-01" and "fr-ctc-ubl-invoice" in fr["inForce"]["usedBy"]
    [later] = fr["newer"]
    assert (later["version"], later["validFrom"], later["installedFrom"], later["catalogue"]) == (
        "1.4.0.04",
        "2026-10-01",
        "staged",
        "bundled",
    )
    after = _json(registry.home, "2026-11-28")
    fr = _pack(after, "fr-ctc-ubl")
    assert fr["inForce"]["version"] == "1.4.0.04" and fr["newer"] == []
    extended = _pack(after, "fr-extended-ctc-ubl")
    assert extended["inForce"]["installed"] is False and extended["standIn"] == "1.4.0.03"
    assert _pack(after, "ubl-2.1")["inForce"] == {
        "version": "2.1",
        "validFrom": None,
        "validUntil": None,
        "installed": True,
        "installedFrom": "upstream",
        "catalogue": "bundled",
        "usedBy": _pack(after, "ubl-2.1")["inForce"]["usedBy"],
    }
    # before the first French version: none in force, all three to come
    early = _pack(_json(registry.home, "2026-06-29"), "fr-ctc-ubl")
    assert early["inForce"] is None and [v["version"] for v in early["newer"]] == ["1.4.0", "1.4.0.03", "1.4.0.04"]


@pytest.mark.corpus
def test_the_text_form(registry: Registry) -> None:
    code, out, _ = _run(registry.home, "--date", "2026-09-15")
    assert code == 0 and out.startswith(f"rules home: {registry.home}; on 2026-09-15:")
    line = next(x for x in out.splitlines() if x.split()[:1] == ["fr-ctc-ubl"])
    assert "1.4.0.03" in line and "1.4.0.04 from 2026-10-01 (installed: staged copy)" in line
    line = next(x for x in out.splitlines() if x.split()[:1] == ["kosit-xrechnung-config"])
    assert "NO: 2026-01-31 stands in" in line


def test_a_bad_date_is_refused(registry: Registry) -> None:
    code, _, err = _run(registry.home, "--date", "2026-13-01")
    assert code == 2 and "request.invalid-parameter" in err


@pytest.mark.corpus
def test_it_works_offline(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("rulesets outdated opened a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    assert _run(registry.home, "--format", "json")[0] == 0


# --- a later version: one manifest in the rules home ---------------------------------------------------------------


def _home_with_every_pack(tmp_path: Path, registry: Registry) -> Path:
    """A rules home that holds the installed packs (each version linked, read only) and nothing of its own."""
    home = tmp_path / "home"
    for pack in registry.installed():
        target = home / "packs" / pack.manifest.id / pack.manifest.version
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(pack.directory, target_is_directory=True)
    return home


def _next_manifest(registry: Registry) -> str:
    """What FNFE's next release would be as a manifest: here the staged 1.4.0.04 file under another version, in force
    from 2027-01-01, pinned by its sha256."""
    current = registry.manifests["fr-ctc-ubl@1.4.0.04"]
    assert current.staged is not None
    sheet = current.entries["stylesheet"]
    lines = [
        'id = "fr-ctc-ubl"',
        'version = "1.4.0.05"',
        'kind = "schematron"',
        'syntax = "ubl"',
        'title = "FNFE-MPE 1.4.0.05 (a release after this library\'s): French CTC rules BR-FR (UBL)"',
        'licence = "Apache-2.0"',
        'attachment_content = "emptiness"',
        "valid_from = 2027-01-01",
        'source_dir = "france/1.4.0.04"',
        f'[entries]\nstylesheet = "{sheet}"',
        '[upstream]\nrepository = "https://github.com/fnfempe/France_RFE"\nrelease = "v1.4.0.05"',
        "[sources]",
        *(f'"{rel}" = "https://raw.githubusercontent.com/fnfempe/France_RFE/v1.4.0.05/{rel}"' for rel in current.files),
        "[files]",
        *(f'"{rel}" = "{sha}"' for rel, sha in current.staged.files.items()),
    ]
    return "\n".join(lines) + "\n"


def _drop(home: Path, key: str, text: str) -> Path:
    pack_id, version = key.split("@")
    path = home / "manifests" / pack_id / f"{version}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.corpus
def test_a_later_version_is_a_manifest_and_nothing_else(tmp_path: Path, registry: Registry) -> None:
    home = _home_with_every_pack(tmp_path, registry)
    _drop(home, NEXT, _next_manifest(registry))
    reg = Registry(home)
    assert NEXT in reg.manifests and reg.catalogue_of(NEXT) == "rules home" and reg.from_home == {NEXT}
    # rulesets outdated knows it, and which profiles will run it
    later = _pack(_json(home, "2026-12-01"), "fr-ctc-ubl")["newer"]
    assert [(v["version"], v["validFrom"], v["catalogue"], v["installed"]) for v in later] == [
        ("1.4.0.05", "2027-01-01", "rules home", False)
    ]
    assert "fr-ctc-ubl-invoice" in later[0]["usedBy"]
    [state] = [s for s in pack_states(reg, NEXT_DAY) if s.id == "fr-ctc-ubl"]
    assert state.in_force is not None and state.in_force.key == NEXT and state.stand_in is not None
    # validation on its date: not installed, so 1.4.0.04 stands in and the report says so
    validator = Validator(rules_home=home)
    report = validator.validate(UC1_UBL, rules_date=NEXT_DAY)
    assert report.packs[-1] == "fr-ctc-ubl@1.4.0.04"
    [note] = [f for f in report.findings if f.rule_id == "rules.version-not-installed"]
    assert NEXT in note.message.en
    # installed (checked against its sha256 as every pack is), it runs from its date, and not before
    [pack] = install(reg, SHARED / "rulesets", [NEXT])
    assert pack.problems() == [] and pack.directory == home / "packs" / "fr-ctc-ubl" / "1.4.0.05"
    validator = Validator(rules_home=home)
    report = validator.validate(UC1_UBL, rules_date=NEXT_DAY)
    assert report.packs[-1] == NEXT and report.valid
    assert not [f for f in report.findings if f.rule_id == "rules.version-not-installed"]
    assert validator.validate(UC1_UBL, rules_date=date(2026, 12, 31)).packs[-1] == "fr-ctc-ubl@1.4.0.04"
    assert _pack(_json(home, "2027-01-02"), "fr-ctc-ubl")["inForce"]["installed"] is True


def test_a_dropped_manifest_is_checked_as_the_bundled_ones(tmp_path: Path, registry: Registry) -> None:
    home = tmp_path / "home"
    bundled = (Path(__file__).resolve().parents[1] / "rulesets/packs/fr-ctc-ubl/1.4.0.04.toml").read_text("utf-8")
    # the same manifest as a bundled one: it adds nothing (a release that ships it now)
    _drop(home, "fr-ctc-ubl@1.4.0.04", bundled)
    assert Registry(home).from_home == frozenset()
    # another manifest under a bundled key: refused
    path = _drop(home, "fr-ctc-ubl@1.4.0.04", bundled.replace("valid_from = 2026-10-01", "valid_from = 2026-11-01"))
    with pytest.raises(RulesetError, match=r"redefines fr-ctc-ubl@1\.4\.0\.04"):
        Registry(home)
    path.unlink()
    text = _next_manifest(registry)
    for broken, said in (
        (text.replace('version = "1.4.0.05"', 'version = "1.4.0.06"'), "name it fr-ctc-ubl/1.4.0.06.toml"),
        (text.replace('syntax = "ubl"', 'syntax = "memo"'), "no syntax 'memo'"),
        (text.replace('kind = "schematron"', 'kind = "rules"'), "cannot read the manifest"),
        (text + "unknown_field = 1\n", "cannot read the manifest"),
    ):
        _drop(home, NEXT, broken)
        with pytest.raises(RulesetError) as info:
            Registry(home)
        assert info.value.code == "ruleset.invalid" and said in info.value.detail, (said, info.value.detail)
    assert tomllib.loads(text)["version"] == "1.4.0.05"
