"""The configuration file (issue 28): found as ruff finds its own, the command line winning, `config` saying where
each setting came from, and a bad value as one line with exit status 2."""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from einvoice_validate._toml import toml_value
from einvoice_validate.cli import main
from einvoice_validate.config import ConfigError, find_config, read_config, resolve
from einvoice_validate.rulesets import Registry
from tests.conftest import SUITE_DAY
from tests.test_cli import BROKEN
from tests.test_reports import on_kosit_plan_day

TABLE = "[tool.einvoice-validate]\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run(args: list[str], home: Path | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*(["--home", str(home)] if home else []), *on_kosit_plan_day(args)], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_found_upwards_the_closest_wins_without_merging(tmp_path: Path) -> None:
    root = write(tmp_path / "pyproject.toml", f'{TABLE}ignore = ["BR-DE-TMP-"]\nlang = "de"\n')
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    assert find_config(deep) == root
    own = write(tmp_path / "a" / ".einvoice-validate.toml", 'fail-on = "warning"\n')
    assert find_config(deep) == own
    effective = resolve({}, start=deep)
    assert effective["fail-on"] == "warning"
    assert effective["ignore"] == () and effective["lang"] == "en"  # the parent's pyproject.toml is not read
    assert effective.origins["ignore"] == "default" and effective.origins["fail-on"] == str(own)


def test_in_one_folder_the_own_files_come_before_pyproject(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", f'{TABLE}lang = "de"\n')
    assert find_config(tmp_path) == tmp_path / "pyproject.toml"
    plain = write(tmp_path / "einvoice-validate.toml", 'lang = "en"\n')
    assert find_config(tmp_path) == plain
    hidden = write(tmp_path / ".einvoice-validate.toml", "concise = true\n")
    assert find_config(tmp_path) == hidden


def test_a_pyproject_without_our_table_is_passed_over(tmp_path: Path) -> None:
    outer = write(tmp_path / "einvoice-validate.toml", 'ignore = "UBL-CR-"\n')
    write(tmp_path / "sub" / "pyproject.toml", "[tool.ruff]\nline-length = 120\n")
    assert find_config(tmp_path / "sub") == outer
    assert read_config(outer) == {"ignore": ("UBL-CR-",)}


def test_command_line_wins_then_the_file_then_the_defaults(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", f'{TABLE}ignore = ["BR-DE-TMP-"]\nfail-on = "warning"\nformat = "github"\n')
    effective = resolve({"fail_on": "error", "select": ["BR-"]}, start=tmp_path)
    assert effective.values["fail-on"] == "error" and effective.origins["fail-on"] == "command line (--fail-on)"
    assert effective.values["ignore"] == ("BR-DE-TMP-",)
    assert effective.origins["ignore"].endswith("pyproject.toml [tool.einvoice-validate]")
    assert effective.values["format"] == ("github",)
    assert effective.values["select"] == ("BR-",) and effective.values["concise"] is False
    selection = effective.selection()
    assert selection.fail_on == "error" and selection.ignore == ("BR-DE-TMP-",) and selection.select == ("BR-",)


def test_config_file_option_and_isolated(tmp_path: Path) -> None:
    write(tmp_path / ".einvoice-validate.toml", 'lang = "de"\n')
    other = write(tmp_path / "ci" / "strict.toml", 'fail-on = "warning"\n')
    chosen = resolve({}, start=tmp_path, config=other)
    assert chosen["fail-on"] == "warning" and chosen["lang"] == "en" and chosen.file == other
    isolated = resolve({}, start=tmp_path, isolated=True)
    assert isolated.file is None and isolated["lang"] == "en"
    with pytest.raises(ConfigError, match="no such file"):
        resolve({}, config=tmp_path / "missing.toml")


def test_config_command_prints_the_settings_and_their_origins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = write(tmp_path / "pyproject.toml", f'{TABLE}ignore = ["BR-DE-TMP-", "UBL-CR-"]\nconcise = true\n')
    (tmp_path / "invoices").mkdir()
    monkeypatch.chdir(tmp_path / "invoices")
    code, out, err = run(["config", "--fail-on", "warning"])
    assert code == 0 and err == ""
    assert f"# configuration file: {config} (found from {tmp_path / 'invoices'} upwards)" in out
    lines = {line.split("=")[0].strip(): line for line in out.splitlines() if not line.startswith("#")}
    assert lines["ignore"].endswith(f"# {config} [tool.einvoice-validate]")
    assert lines["fail-on"].endswith("# command line (--fail-on)")
    assert lines["select"].endswith("# default")
    parsed = tomllib.loads(out)  # the output is itself a usable configuration file
    assert parsed == {
        "select": [],
        "ignore": ["BR-DE-TMP-", "UBL-CR-"],
        "fail-on": "warning",
        "format": ["text"],
        "concise": True,
        "lang": "en",
        "xsd-gate": False,
    }
    code, out, _ = run(["config", "--isolated"])
    assert code == 0 and "none read (--isolated)" in out and "concise = false" in out


def test_config_shows_the_rules_date_no_file_may_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["config"])
    [line] = [line for line in out.splitlines() if "rules-date" in line]
    assert code == 0 and line.startswith(f'# rules-date = "{SUITE_DAY.isoformat()}"')  # "today" in the suite
    assert line.endswith("# default: today; no file may set it")
    code, out, _ = run(["config", "--rules-date", "2026-08-30"])
    assert code == 0 and '# rules-date = "2026-08-30"' in out and "# command line (--rules-date); no file" in out
    assert "rules-date" not in tomllib.loads(out)  # a comment: the output stays a valid configuration file
    code, out, err = run(["config", "--rules-date", "2026-13-01"])
    assert code == 2 and out == "" and err.rstrip().endswith("(request.invalid-parameter)")


def test_config_output_reads_back_with_a_tab_and_a_newline() -> None:
    """A value with a tab, a newline, a quote and a backslash comes out as TOML that reads back (issue 46: the
    hand-written escaper wrote them raw)."""
    profile = 'my\tprofile\n"two" \\ lines'
    effective = resolve({"profile": profile}, isolated=True)
    assert tomllib.loads(effective.toml())["profile"] == profile


@given(
    st.one_of(
        st.text(),
        st.lists(st.text(), max_size=3),
        st.dictionaries(st.text(), st.text(), max_size=3),
    )
)
def test_every_value_the_project_writes_reads_back(value: str | list[str] | dict[str, str]) -> None:
    """The one TOML value writer of the configuration, the catalogue and the manifests (tools/write_manifests.py)."""
    assert tomllib.loads(f"k = {toml_value(value)}\n") == {"k": value}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('fail-on = "critical"\n', "fail-on: 'critical' is not one of: error, warning"),
        ('fail_on = "error"\n', "unknown key 'fail_on' (did you mean fail-on?)"),
        ("ignore = 42\n", "ignore: must be a list of rule ids or families"),
        ('ignore = ["BR DE"]\n', "ignore: 'BR DE' is not a rule id or family"),
        ('format = ["text", "yaml"]\n', "format: 'yaml' is not one of: text, json"),
        ('concise = "yes"\n', "concise: must be true or false"),
        ('lang = "fr"\n', "lang: 'fr' is not one of: en, de"),
        ("select = [\n", "not valid TOML"),
        ("rules-date = 2026-01-01\n", "unknown key 'rules-date'"),
    ],
)
def test_a_bad_value_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, registry: Registry, text: str, says: str
) -> None:
    config = write(tmp_path / ".einvoice-validate.toml", text)
    monkeypatch.chdir(tmp_path)
    for args in (["config"], ["validate", str(BROKEN)]):
        code, out, err = run(args, registry.home)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith(f"einvoice-validate: {config}: "), err
        assert says in err


def test_pyproject_table_of_the_wrong_type(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "pyproject.toml", '[tool]\neinvoice-validate = "strict"\n')
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["config"])
    assert code == 2 and "tool.einvoice-validate must be a table" in err and err.count("\n") == 1


def test_a_bad_command_line_pattern_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["config", "--ignore", "BR DE"])
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("einvoice-validate: --ignore: 'BR DE' is not a rule id")


def test_validate_follows_the_file_and_the_command_line_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, registry: Registry
) -> None:
    write(tmp_path / "pyproject.toml", f'{TABLE}ignore = ["cvc-", "BR-CO-15", "BR-DE-15"]\nformat = "jsonl"\n')
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["validate", str(BROKEN)], registry.home)
    row = json.loads(out)
    assert code == 0 and err == ""  # every error of the broken example is ignored: nothing fails
    assert row["valid"] is False  # the verdict stays the official one
    assert [f for f in row["findings"] if f["severity"] == "ERROR"] == []
    assert sum(i["count"] for i in row["ignored"]) == 4
    code, out, _ = run(["validate", "--ignore", "cvc-", str(BROKEN)], registry.home)  # replaces the file's list
    row = json.loads(out)
    assert code == 1 and {f["ruleId"] for f in row["findings"]} == {"BR-CO-15", "BR-DE-15"}
    code, out, _ = run(["validate", "--isolated", str(BROKEN)], registry.home)
    assert code == 1 and out.startswith(f"{BROKEN}: INVALID")  # no file: text, nothing ignored


def test_unknown_pattern_warns_but_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, registry: Registry) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["validate", "--ignore", "BR-DE-l5", str(BROKEN)], registry.home)
    assert code == 1
    assert "warning: ignore 'BR-DE-l5' (command line (--ignore)) matches no rule id the catalogue knows" in err
