"""The report formats through the CLI: text for people, json/jsonl rows, JUnit, SARIF and HTML (schemas in
tests/schemas/), plus the small defects of issue 16 (stdin, Ctrl-C, --home, str input)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from lxml import etree

from einvoice_validate import EInvoiceValidateError, validate
from einvoice_validate.cli import main
from einvoice_validate.rulesets import Registry
from tests.conftest import KOSIT_PLAN_DAY

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
BROKEN = EXAMPLES / "xrechnung-ubl-broken.xml"
VALID = EXAMPLES / "xrechnung-ubl-invoice.xml"
SCHEMAS = Path(__file__).parent / "schemas"
PUBLISHED = REPO / "build" / "report-schemas"  # written by `make report-schemas` (tools/report-schemas.sh)


def published_schema(name: str) -> Path:
    path = PUBLISHED / name
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `make report-schemas` (tools/report-schemas.sh)")
    return path


ROW_KEYS = ["file", "profile", "profileReason", "envelope", "valid", "accepted", "engine", "findings", "error"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_kosit_plan_day(args: list[str]) -> list[str]:
    """``validate`` arguments with the rules date of the reference's plan-kosit.tsv unless they give one: the
    examples' findings as examples/README.md lists them (XRechnung 2.5.0 over CEN 1.3.15). Today's XRechnung
    edition and its note are tested in tests/test_versions.py (and the CI formats' in tests/test_ci_formats.py)."""
    if args[:1] == ["validate"] and "--rules-date" not in args:
        return ["validate", "--rules-date", KOSIT_PLAN_DAY.isoformat(), *args[1:]]
    return args


def run(
    args: list[str], home: Path, *, stdout: io.StringIO | None = None, stdin: bytes | None = None
) -> tuple[int, str]:
    out = stdout if stdout is not None else io.StringIO()
    code = main(
        ["--home", str(home), *on_kosit_plan_day(args)],
        stdout=out,
        stderr=io.StringIO(),
        stdin=io.BytesIO(stdin) if stdin is not None else None,
    )
    return code, out.getvalue()


@pytest.fixture()
def not_xml(tmp_path: Path) -> Path:
    path = tmp_path / "not-xml.xml"
    path.write_bytes(b"<Invoice><a></Invoice>")
    return path


@pytest.fixture()
def with_info(shared: Path) -> Path:
    """A mutation with ERROR findings and an INFO one (BR-DE-TMP-32)."""
    return shared / "corpus" / "mutations-dev" / "01.01a-INVOICE_ubl.m1-0.xml"


# --- text ---------------------------------------------------------------------------------------------------------


def test_text_lines_editors_can_follow_and_a_summary(registry: Registry, not_xml: Path) -> None:
    code, out = run(["validate", "--workers", "1", str(VALID), str(BROKEN), str(not_xml)], registry.home)
    assert code == 2
    lines = out.splitlines()
    assert f"{BROKEN}:16: ERROR cvc-datatype-valid.1.2.1 '2025-02-30' is not a valid value for 'date'." in out
    assert any(line.startswith(f'{BROKEN}:12: ERROR BR-DE-15 The element "Buyer reference"') for line in lines)
    assert "(/Invoice/cbc:IssueDate) [ubl-2.1@2.1]" in out
    assert (
        f"{not_xml}: NOT VALIDATED: Not well-formed XML at line 1, column 23: Opening and ending tag mismatch: a "
        "line 1 and Invoice. (document.unreadable)" in lines
    )
    assert untimed(lines[-1]) == (
        "3 file(s): 1 valid, 1 invalid, 1 not validated; findings: 4 error(s), 0 warning(s), 0 info"
    )
    assert lines[-2] == ""


def untimed(text: str, engine: str = "engine") -> str:
    """``text`` without the summary's time, rate and engine (``; 2.2 s, 1.4/s, engine saxonc``), which must be there."""
    timing = re.compile(rf"; [\d.,]+ s, [\d.,]+/s, {engine} [\w-]+$", re.M)
    assert timing.search(text), text
    return timing.sub("", text)


def test_quiet_and_errors_only(registry: Registry, with_info: Path) -> None:
    _, out = run(["validate", "--quiet", str(VALID), str(with_info)], registry.home)
    assert str(VALID) not in out and f"{with_info}:" in out and "BR-DE-TMP-32" in out
    assert out.splitlines()[-1].startswith("2 file(s): 1 valid, 1 invalid")
    _, out = run(["validate", "--errors-only", str(with_info)], registry.home)
    assert "BR-DE-TMP-32" not in out and "ERROR cvc-datatype-valid.1.2.1" in out
    assert untimed(out.splitlines()[-1]).endswith("1 info")  # counted, not listed


def test_colour_only_on_a_terminal_and_never_with_no_color(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    _, plain = run(["validate", str(BROKEN)], registry.home)
    assert not ANSI.search(plain)
    _, coloured = run(["validate", str(BROKEN)], registry.home, stdout=_Terminal())
    assert "\x1b[31mERROR\x1b[0m" in coloured
    assert untimed(ANSI.sub("", coloured)) == untimed(plain)
    monkeypatch.setenv("NO_COLOR", "1")
    _, no_color = run(["validate", str(BROKEN)], registry.home, stdout=_Terminal())
    assert untimed(no_color) == untimed(plain)


def test_german_throughout(registry: Registry, not_xml: Path) -> None:
    _, out = run(["validate", "--lang", "de", str(BROKEN), str(not_xml)], registry.home)
    assert f'{BROKEN}:12: FEHLER BR-DE-15 Das Element "Buyer reference" (BT-10) muss übermittelt werden.' in out
    assert (
        f"{not_xml}: NICHT GEPRÜFT: Kein wohlgeformtes XML in Zeile 1, Spalte 23 (libxml2: Opening and ending tag "
        "mismatch: a line 1 and Invoice). (document.unreadable)" in out.splitlines()
    )
    assert "ERROR" not in out and "not well-formed" not in out
    assert untimed(out.splitlines()[-1], "Engine") == (
        "2 Datei(en): 0 gültig, 1 ungültig, 1 nicht geprüft; Befunde: 4 Fehler, 0 Warnung(en), 0 Hinweis(e)"
    )


def test_standard_input(registry: Registry) -> None:
    code, out = run(["validate", "--format", "jsonl", "-"], registry.home, stdin=BROKEN.read_bytes())
    assert code == 1
    row = json.loads(out)
    assert row["file"] == "-" and {f["ruleId"] for f in row["findings"]} >= {"BR-DE-15", "BR-CO-15"}
    assert {f["line"] for f in row["findings"]} == {12, 16}
    _, text = run(["validate", "-"], registry.home, stdin=BROKEN.read_bytes())
    assert "-:16: ERROR cvc-datatype-valid.1.2.1" in text


# --- json / jsonl -------------------------------------------------------------------------------------------------


def test_json_rows_are_the_jsonl_rows_and_stable(registry: Registry, not_xml: Path) -> None:
    args = ["validate", str(VALID), str(BROKEN), str(not_xml)]
    _, first = run([*args, "--format", "json"], registry.home)
    _, second = run([*args, "--format", "json"], registry.home)
    assert first == second  # nothing that changes from run to run
    rows = json.loads(first)
    assert all(list(r) == ROW_KEYS for r in rows)
    _, jsonl = run([*args, "--format", "jsonl"], registry.home)
    assert rows == [json.loads(line) for line in jsonl.splitlines()]
    _, timed = run([*args, "--format", "json", "--timings"], registry.home)
    timed_rows = json.loads(timed)
    assert [list(r) for r in timed_rows] == [[*ROW_KEYS, "timingsMs"]] * 3
    assert timed_rows[0]["timingsMs"]["parse"] > 0 and timed_rows[2]["timingsMs"] == {}


# --- junit --------------------------------------------------------------------------------------------------------


def test_junit_one_testcase_per_document_a_failure_per_error(
    registry: Registry, with_info: Path, not_xml: Path
) -> None:
    _, out = run(["validate", "--format", "junit", str(VALID), str(with_info), str(not_xml)], registry.home)
    doc = etree.fromstring(out.encode("utf-8"))
    schema = etree.XMLSchema(etree.parse(str(published_schema("junit-10.xsd"))))
    assert schema.validate(doc), schema.error_log
    cases = doc.findall(".//testcase")
    assert [c.get("name") for c in cases] == [str(VALID), str(with_info), str(not_xml)]
    assert [len(c.findall("failure")) for c in cases] == [0, 5, 0]
    types = [f.get("type") for f in cases[1].findall("failure")]
    assert types[:2] == ["cvc-complex-type.2.2", "cvc-datatype-valid.1.2.1"]
    assert "BR-DE-TMP-32" in (cases[1].findtext("system-out") or "")
    error = cases[2].find("error")
    assert error is not None and error.get("type") == "document.unreadable"
    assert (doc.get("tests"), doc.get("failures"), doc.get("errors")) == ("3", "5", "1")


# --- sarif --------------------------------------------------------------------------------------------------------


def test_sarif_results_with_file_line_and_rules(registry: Registry, with_info: Path, not_xml: Path) -> None:
    _, out = run(["validate", "--format", "sarif", str(BROKEN), str(with_info), str(not_xml)], registry.home)
    log = json.loads(out)
    schema = json.loads((SCHEMAS / "sarif-2.1.0-subset.json").read_text())
    jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER).validate(log)
    published = json.loads(published_schema("sarif-2.1.0-rtm.4.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(published).validate(log)
    [run_] = log["runs"]
    results = run_["results"]
    assert len(results) == 4 + 6
    rules = run_["tool"]["driver"]["rules"]
    assert len({r["id"] for r in rules}) == len(rules)
    by_id = {r["id"]: r for r in rules}
    # a rule's text without one finding's values; German beside it
    assert by_id["cvc-datatype-valid.1.2.1"]["shortDescription"]["text"] == "'…' is not a valid value for '…'."
    assert by_id["BR-DE-15"]["properties"]["de"] == 'Das Element "Buyer reference" (BT-10) muss übermittelt werden.'
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    [br_de_15] = [r for r in results if r["ruleId"] == "BR-DE-15"]
    physical = br_de_15["locations"][0]["physicalLocation"]
    assert physical == {"artifactLocation": {"uri": BROKEN.as_uri()}, "region": {"startLine": 12}}
    assert br_de_15["level"] == "error" and br_de_15["properties"]["de"].startswith("Das Element")
    assert {r["level"] for r in results if r["ruleId"] == "BR-DE-TMP-32"} == {"note"}
    [invocation] = run_["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][0]["descriptor"]["id"] == "document.unreadable"


# --- html ---------------------------------------------------------------------------------------------------------


def test_html_is_one_self_contained_page(registry: Registry, not_xml: Path) -> None:
    _, page = run(["validate", "--format", "html", str(VALID), str(BROKEN), str(not_xml)], registry.home)
    assert page.startswith("<!DOCTYPE html>")
    etree.fromstring(page.encode("utf-8"), etree.HTMLParser(recover=False))
    assert "<script" not in page and not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "INVALID, rejected" in page and "valid, accepted" in page and "NOT VALIDATED" in page
    assert "xrechnung-3.0-ubl-invoice" in page and "xrechnung-ubl@2.5.0" in page
    assert "Das Element &quot;Buyer reference&quot; (BT-10) muss übermittelt werden." in page
    assert "The element &quot;Buyer reference&quot; (BT-10) shall be provided." in page
    assert "BT-10" in page and "line 16" in page
    # a snippet of the offending element, its line marked
    assert "<mark>   16 | " in page and "2025-02-30" in page


# --- small defects ------------------------------------------------------------------------------------------------


def test_str_input_is_a_clear_error_without_the_document() -> None:
    text = BROKEN.read_text(encoding="utf-8")
    with pytest.raises(EInvoiceValidateError) as info:
        validate(text)  # type: ignore[arg-type]  # what the issue's user did
    assert info.value.code == "request.unreadable" and info.value.reason == "type"
    assert "bytes" in info.value.detail and "path" in info.value.detail
    assert len(info.value.detail) < 200
    with pytest.raises(EInvoiceValidateError) as info:
        validate("x" * 9000)
    assert len(info.value.detail) < 300


def test_not_well_formed_gives_the_position_once(not_xml: Path) -> None:
    with pytest.raises(EInvoiceValidateError) as info:
        validate(not_xml)
    assert info.value.detail.count("column 23") == 1, info.value.detail
    assert not info.value.detail.endswith("column 23"), info.value.detail


def test_global_options_after_the_subcommand(registry: Registry) -> None:
    out = io.StringIO()
    assert main(["validate", "--home", str(registry.home), str(VALID)], stdout=out, stderr=io.StringIO()) == 0
    assert main(["rulesets", "list", "--home", str(registry.home)], stdout=out, stderr=io.StringIO()) == 0
    assert f"rules home: {registry.home}" in out.getvalue()


def test_unusable_home_is_one_error_line(tmp_path: Path) -> None:
    a_file = tmp_path / "home"
    a_file.write_text("not a folder")
    err = io.StringIO()
    assert main(["validate", "--home", str(a_file), str(VALID)], stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue() == f"einvoice-validate: The rules home {a_file} is not a directory. (ruleset.missing)\n"


def test_ctrl_c_exits_130_without_a_traceback(registry: Registry, shared: Path) -> None:
    env = {**os.environ, "EINVOICE_VALIDATE_HOME": str(registry.home)}
    folder = shared / "corpus" / "mutations-dev"
    command = [
        sys.executable,
        "-m",
        "einvoice_validate",
        "validate",
        "--workers",
        "2",
        "--format",
        "jsonl",
        str(folder),
    ]
    # Ctrl-C as at a terminal: a test run started in the background by a shell without job control (a CI script
    # with `&`) hands its children SIGINT ignored, which Python then leaves ignored; the command starts with the
    # default disposition here, whatever the test run inherited.
    default_sigint = (
        f"import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.executable, {command!r})"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", default_sigint],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    proc.stdout.readline()  # validating: the workers are running
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in err and err.strip().endswith("\neinvoice-validate: interrupted")
    assert " file(s): " in err.strip().splitlines()[-2]  # the summary of the documents done (issue 43)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"   ",
        b"<!DOCTYPE x><x/>",
        b"%PDF-1.7 x",
        b"<Invoice><a></Invoice>",
        b'<x xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="y"/></x>',
        b"<x/>",
    ],
)
def test_every_parse_detail_has_its_german(data: bytes) -> None:
    """The details parse.py and profiles.py write have their German (the catalogue's, errors.toml)."""
    with pytest.raises(EInvoiceValidateError) as info:
        validate(data)
    assert info.value.detail[:20] not in info.value.message.de, info.value.detail


def _pdf_cases() -> list[bytes]:
    from tests.facturx_pdf import bomb, make_pdf
    from tests.hostile import GOOD_CII, invoice_body, sbdh

    return [
        make_pdf([("other.txt", b"x")]),  # no invoice
        make_pdf([("factur-x.xml", b"<a/>"), ("Factur-X.xml", b"<b/>")]),  # two of the chosen name
        make_pdf([("factur-x.xml", b"<a/>")], encrypt=True),
        make_pdf([("factur-x.xml", b"<a/>")], raw_filter="LZWDecode"),
        make_pdf([("factur-x.xml", bomb(2_000_000))], raw_filter="FlateDecode"),
        make_pdf([("factur-x.xml", b"<a/>")], name_tree_depth=40),
        make_pdf([("ZUGFeRD-invoice.xml", b"<a/>")]),
        make_pdf([("factur-x.xml", sbdh(invoice_body(GOOD_CII)))]),  # an envelope inside the envelope
    ]


def test_every_pdf_detail_has_its_german() -> None:
    """The details envelopes/pdf.py writes have their German too."""
    from einvoice_validate import Limits, Validator

    validator = Validator(limits=Limits(max_document_bytes=1_000_000))
    codes = set()
    for data in _pdf_cases():
        with pytest.raises(EInvoiceValidateError) as info:
            validator.validate(data)
        codes.add(info.value.reason)
        assert info.value.detail[:20] not in info.value.message.de, info.value.detail
    assert len(codes) >= 6, codes


def test_german_error_line_of_the_cli(tmp_path: Path) -> None:
    err = io.StringIO()
    code = main(["validate", "--lang", "de", "--home", str(tmp_path), str(VALID)], stdout=io.StringIO(), stderr=err)
    assert code == 2
    assert err.getvalue().startswith("einvoice-validate: Das Regelwerk ")  # the specific cause first, the code after
    assert f"ist in {tmp_path} nicht installiert" in err.getvalue()
    assert err.getvalue().endswith(". (ruleset.missing)\n") and err.getvalue().count("\n") == 1
