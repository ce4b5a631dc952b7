"""The CI formats (issue 28): GitHub Actions workflow commands checked against the documented syntax, parsed as
the runner parses them; GitLab Code Quality checked against the documented format (tests/schemas/). Once
through a real subprocess, as a CI job runs it: a configuration file and one command line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from einvoice_validate import Finding, Message, Selection, Severity
from einvoice_validate.reports import Outcome
from einvoice_validate.reports.github import command, github_lines
from einvoice_validate.reports.gitlab import gitlab_report
from einvoice_validate.rulesets import Registry
from tests.conftest import KOSIT_PLAN_DAY
from tests.test_cli import BROKEN, REPO, VALID
from tests.test_cli import run as run_cli
from tests.test_cli_output import run
from tests.test_selection import finding, report

SCHEMAS = Path(__file__).parent / "schemas"
GOOD = VALID[0]

# --- GitHub Actions: the runner's parser, written down from its documentation and source ----------------------
# "Workflow commands for GitHub Actions" (docs.github.com/actions/reference/workflow-commands-for-github-actions):
#   ::error file={name},line={line},endLine={endLine},title={title}::{message}   (also warning, notice; col,
#   endColumn). The runner (actions/runner src/Runner.Common/ActionCommand.cs, TryParseV2) takes a line that starts
#   with "::" (after leading blanks), the command up to the first blank, the properties up to the next "::" split at
#   "," and then at the first "=", and the rest as the message; it then decodes, in this order, %0D %0A %25 in the
#   message and %0D %0A %3A %2C %25 in property values.
DATA_UNESCAPES = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
PROPERTY_UNESCAPES = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))
DOCUMENTED_PROPERTIES = {"file", "line", "endLine", "col", "endColumn", "title"}


def unescape(text: str, table: tuple[tuple[str, str], ...]) -> str:
    for escaped, raw in table:
        text = text.replace(escaped, raw)
    return text


def parse_command(line: str) -> tuple[str, dict[str, str], str] | None:
    """(command, properties, message) as the runner reads ``line``, or None when it is no workflow command."""
    line = line.lstrip()
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    info = line[2:end]
    name, _, props = info.partition(" ")
    properties: dict[str, str] = {}
    for item in (p for p in props.strip().split(",") if p):
        key, sep, value = item.partition("=")
        if sep and key and value:
            properties[key] = unescape(value, PROPERTY_UNESCAPES)
    return name, properties, unescape(line[end + 2 :], DATA_UNESCAPES)


def assert_documented(line: str) -> tuple[str, dict[str, str], str]:
    assert "\n" not in line and "\r" not in line
    parsed = parse_command(line)
    assert parsed is not None, line
    name, props, _ = parsed
    assert name in {"error", "warning", "notice"}
    assert set(props) <= DOCUMENTED_PROPERTIES and "file" in props
    for key in ("line", "col", "endLine", "endColumn"):
        assert key not in props or re.fullmatch(r"[1-9]\d*", props[key])
    return parsed


HOSTILE = "100% sure: a,b\r\nnext::line %0A stays %25"


def test_escaping_round_trips_through_the_runners_parser() -> None:
    path = "in,v:oices/100%/a b.xml"
    line = command("warning", HOSTILE, file=path, line=7, col=3, title=f"X-1: {HOSTILE}")
    name, props, message = assert_documented(line)
    assert name == "warning" and message == HOSTILE
    assert props == {"file": path, "line": "7", "col": "3", "title": f"X-1: {HOSTILE}"}


def test_every_finding_is_an_annotation_on_its_file_and_line() -> None:
    findings = (
        finding("BR-DE-15", line=12),
        finding("UBL-CR-001", Severity.WARNING, line=None),
        finding("BR-DE-TMP-32", Severity.INFO, line=40),
        Finding.model_validate(
            {**finding("BR-X").model_dump(), "message": Message(en=HOSTILE, de="x"), "column": 5, "line": 2}
        ),
    )
    outcome = Outcome("invoices/a.xml", report(*findings), None)
    lines = list(github_lines(outcome))
    parsed = [assert_documented(line) for line in lines]
    assert [(n, p.get("line"), p["title"]) for n, p, _ in parsed] == [
        ("error", "12", "BR-DE-15 (ERROR)"),
        ("warning", None, "UBL-CR-001 (WARNING)"),
        ("notice", "40", "BR-DE-TMP-32 (INFO)"),
        ("error", "2", "BR-X (ERROR)"),
    ]
    assert parsed[3][1]["col"] == "5" and parsed[3][2].startswith(HOSTILE)
    assert all(p["file"] == "invoices/a.xml" for _, p, _ in parsed)
    warned = Outcome("a.xml", report(findings[1]), None, selection=Selection(fail_on="warning"))
    assert parse_command(next(github_lines(warned)))[0] == "error"  # type: ignore[index]  # it fails the run


def test_github_format_through_the_cli(registry: Registry, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(REPO)
    code, out, _ = run(
        ["validate", "--format", "github", "--ignore", "cvc-", str(BROKEN), str(GOOD), str(tmp_path / "gone.xml")],
        registry.home,
    )
    assert code == 2
    commands = [parse_command(line) for line in out.splitlines()]
    annotations = [c for c in commands if c is not None]
    for line in out.splitlines():
        if line.startswith("::"):
            assert_documented(line)
    relative = BROKEN.relative_to(REPO).as_posix()
    expected = ("error", {"file": relative, "line": "12", "title": "BR-DE-15 (ERROR)"})
    assert expected in [(n, p) for n, p, _ in annotations]
    assert not any(p["title"].startswith("cvc-") for _, p, _ in annotations)  # ignored
    assert any(p["file"] == str(tmp_path / "gone.xml") and "request.unreadable" in m for _, p, m in annotations)
    plain = [line for line in out.splitlines() if not line.startswith("::")]
    ignored = "cvc-: cvc-datatype-valid.1.2.1 ERROR x1, cvc-complex-type.2.2 ERROR x1"
    assert f"{relative}: Ignored by the selection: {ignored}" in plain
    assert plain[-2].startswith("3 file(s): 1 valid, 1 invalid, 1 not validated")
    assert plain[-1].startswith("ignored by the selection: 2 finding(s) in 1 file(s)")


# --- GitLab Code Quality ------------------------------------------------------------------------------------


def gitlab_schema() -> dict[str, object]:
    schema: dict[str, object] = json.loads((SCHEMAS / "gitlab-codequality.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    return schema


def test_gitlab_issues_follow_the_documented_format() -> None:
    same = finding("BR-CO-15", line=None)
    outcomes = [
        Outcome("a.xml", report(same, same, finding("UBL-CR-001", Severity.WARNING), finding("BR-DE-15")), None),
        Outcome("b.xml", report(same), None, selection=Selection(ignore=("UBL-",), fail_on="warning")),
        Outcome("c.xml", report(finding("UBL-CR-001", Severity.WARNING)), None, selection=Selection(fail_on="warning")),
    ]
    issues = gitlab_report(outcomes)
    jsonschema.validate(issues, gitlab_schema())
    assert len({i["fingerprint"] for i in issues}) == len(issues)  # equal fingerprints would show as one
    assert [(i["location"]["path"], i["check_name"], i["severity"]) for i in issues] == [
        ("a.xml", "BR-CO-15", "critical"),
        ("a.xml", "BR-CO-15", "critical"),
        ("a.xml", "UBL-CR-001", "minor"),
        ("a.xml", "BR-DE-15", "critical"),
        ("b.xml", "BR-CO-15", "critical"),
        ("c.xml", "UBL-CR-001", "major"),  # fails the run with --fail-on warning
    ]
    assert [i["location"]["lines"]["begin"] for i in issues[:2]] == [1, 1]  # no line: the first
    again = gitlab_report(outcomes)
    assert [i["fingerprint"] for i in again] == [i["fingerprint"] for i in issues]  # stable between runs


def test_gitlab_format_through_the_cli_to_a_file(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(REPO)
    target = tmp_path / "gl-code-quality-report.json"
    code, out, err = run(
        ["validate", "--format", "gitlab", "--ignore", "BR-CO-15", "-o", str(target), str(BROKEN), str(GOOD)],
        registry.home,
    )
    assert code == 1 and out == ""
    assert err.startswith("2 file(s): 1 valid, 1 invalid") and f"-> {target}" in err
    raw = target.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")  # GitLab's parser refuses a byte order mark
    issues = json.loads(raw)
    jsonschema.validate(issues, gitlab_schema())
    relative = BROKEN.relative_to(REPO).as_posix()
    assert {(i["check_name"], i["location"]["lines"]["begin"]) for i in issues if i["severity"] != "info"} == {
        ("cvc-datatype-valid.1.2.1", 16),
        ("cvc-complex-type.2.2", 16),
        ("BR-DE-15", 12),
    }
    assert {i["location"]["path"] for i in issues} == {relative}
    [ignored] = [i for i in issues if i["check_name"] == "einvoice-validate.ignored"]
    assert ignored["severity"] == "info" and "BR-CO-15 ERROR x1" in ignored["description"]


def test_todays_note_of_a_configuration_not_installed_is_said_once_not_per_file(registry: Registry) -> None:
    """Today the 2026-08-31 configuration is in force and not installed here (tests/test_versions.py): a note about the
    rules, not the invoices. The run says it once on stderr (the job's log) and in its summary; it is no annotation
    or Code Quality issue on each file and fails nothing, --fail-on warning included (issue 43)."""
    note = "rules.version-not-installed"
    for fail_on in ("error", "warning"):
        code, out, err = run_cli(
            ["validate", "--format", "github", "--fail-on", fail_on, str(GOOD), str(GOOD)], registry.home
        )
        assert code == 0 and not [line for line in out.splitlines() if line.startswith("::")]
        assert err.count(f"({note})") == 1 and "kosit-xrechnung-config@2026-08-31 is in force" in err
    code, out, _ = run_cli(["validate", "--format", "gitlab", str(GOOD)], registry.home)
    issues = json.loads(out)
    jsonschema.validate(issues, gitlab_schema())
    assert code == 0 and issues == []
    code, out, err = run_cli(["validate", "--format", "gitlab", "--ignore", "rules.", str(GOOD)], registry.home)
    assert code == 0 and [i["check_name"] for i in json.loads(out)] == ["einvoice-validate.ignored"] and note not in err


# --- a CI job: one configuration file, one command line, through a real process ------------------------------


def test_a_ci_job_gets_annotations_on_the_invoice_files(registry: Registry, tmp_path: Path) -> None:
    (tmp_path / "invoices").mkdir()
    (tmp_path / "invoices" / "broken.xml").write_bytes(BROKEN.read_bytes())
    (tmp_path / "invoices" / "good.xml").write_bytes(GOOD.read_bytes())
    (tmp_path / ".einvoice-validate.toml").write_text('ignore = ["cvc-"]\nfail-on = "warning"\n')
    env = {**os.environ, "EINVOICE_VALIDATE_HOME": str(registry.home)}
    # the examples' rules date (with today's configuration not installed here, a warning would fail each file)
    examples_day = ("--rules-date", KOSIT_PLAN_DAY.isoformat())
    proc = subprocess.run(
        [sys.executable, "-m", "einvoice_validate", "validate", "--format", "github", "invoices", *examples_day],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    annotations = [assert_documented(line) for line in proc.stdout.splitlines() if line.startswith("::")]
    assert [(n, p["file"], p.get("line"), p["title"]) for n, p, _ in annotations if n != "notice"] == [
        ("error", "invoices/broken.xml", "12", "BR-CO-15 (ERROR)"),
        ("error", "invoices/broken.xml", "12", "BR-DE-15 (ERROR)"),
    ]
    assert "ignored by the selection: 2 finding(s) in 1 file(s): cvc-:" in proc.stdout
