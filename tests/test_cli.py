"""The CLI contract: exit codes, the jsonl keys, text output; once through a real subprocess."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from einvoice_validate.cli import main
from einvoice_validate.rulesets import Registry

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
VALID = [
    EXAMPLES / "xrechnung-ubl-invoice.xml",
    EXAMPLES / "xrechnung-cii-invoice.xml",
    EXAMPLES / "cius-ro-ubl-invoice.xml",
]
BROKEN = EXAMPLES / "xrechnung-ubl-broken.xml"
JSONL_KEYS = ["file", "profile", "profileReason", "envelope", "valid", "accepted", "engine", "findings", "error"]
FINDING_KEYS = {
    "ruleId",
    "severity",
    "flag",
    "stage",
    "location",
    "line",
    "column",
    "message",
    "terms",
    "values",
    "source",
    "packLocation",
}


def run(args: list[str], home: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(home), *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_valid_examples_exit_0(registry: Registry) -> None:
    code, out, _ = run(["validate", *map(str, VALID)], registry.home)
    assert code == 0, out
    assert out.count(": valid") == 3


def test_broken_example_exit_1_with_official_ids(registry: Registry) -> None:
    code, out, _ = run(["validate", "--format", "jsonl", str(BROKEN)], registry.home)
    assert code == 1
    [row] = [json.loads(line) for line in out.splitlines()]
    assert list(row) == JSONL_KEYS
    assert row["valid"] is False and row["accepted"] is False and row["error"] is None
    assert row["profile"] == "xrechnung-3.0-ubl-invoice"
    ids = {f["ruleId"] for f in row["findings"]}
    assert {"BR-DE-15", "BR-CO-15", "cvc-datatype-valid.1.2.1", "cvc-complex-type.2.2"} <= ids
    for finding in row["findings"]:
        assert set(finding) == FINDING_KEYS
        assert set(finding["message"]) == {"en", "de"}
        assert finding["message"]["en"] != finding["message"]["de"]
        assert finding["severity"] in {"ERROR", "WARNING", "INFO"}
    [br_de_15] = [f for f in row["findings"] if f["ruleId"] == "BR-DE-15"]
    assert br_de_15["terms"] == ["BT-10"]


def test_lang_de_text_output(registry: Registry) -> None:
    code, out, _ = run(["validate", "--lang", "de", str(BROKEN)], registry.home)
    assert code == 1
    assert "UNGÜLTIG, abgelehnt" in out
    assert 'Das Element "Buyer reference" (BT-10) muss übermittelt werden.' in out
    assert "ist kein gültiger Wert für den Datentyp 'date'" in out
    code, out, _ = run(["validate", "--lang", "en", str(BROKEN)], registry.home)
    assert "INVALID, rejected" in out
    assert 'The element "Buyer reference" (BT-10) shall be provided.' in out


def test_unreadable_file_exit_2_and_error_row(registry: Registry, tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_bytes(b"%PDF-1.7 not xml")
    code, out, _ = run(
        ["validate", "--format", "jsonl", str(VALID[0]), str(bad), str(tmp_path / "missing.xml")], registry.home
    )
    assert code == 2
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["error"] and r["error"]["code"] for r in rows] == [None, "document.unreadable", "request.unreadable"]
    assert all(list(r) == JSONL_KEYS for r in rows)


def test_json_format_is_one_array(registry: Registry) -> None:
    code, out, _ = run(["validate", "--format", "json", str(VALID[0]), str(BROKEN)], registry.home)
    assert code == 1
    rows = json.loads(out)
    assert [r["valid"] for r in rows] == [True, False]
    assert all(list(r) == JSONL_KEYS for r in rows)  # the jsonl keys, no run-to-run timings (issue 16)


def test_forced_profile(registry: Registry) -> None:
    _, out, _ = run(["validate", "--format", "jsonl", "--profile", "en16931-ubl-invoice", str(VALID[0])], registry.home)
    row = json.loads(out)
    assert row["profile"] == "en16931-ubl-invoice" and row["accepted"] is None


def test_xsd_gate_skips_schematron(registry: Registry) -> None:
    code, out, _ = run(["validate", "--format", "jsonl", "--xsd-gate", str(BROKEN)], registry.home)
    row = json.loads(out)
    assert code == 1
    # only the XSD findings: the note that today's XRechnung configuration is not installed is the run's (stderr)
    assert {f["stage"] for f in row["findings"]} == {"xsd"}


def test_usage_errors_exit_2(registry: Registry) -> None:
    assert run([], registry.home)[0] == 2
    assert run(["validate", "--format", "yaml", str(BROKEN)], registry.home)[0] == 2
    code, _, err = run(["validate", "--profile", "nope", str(BROKEN)], registry.home)
    assert code == 2 and err.startswith("usage: einvoice-validate validate ")  # the subcommand's usage
    assert "einvoice-validate validate: error: unknown profile 'nope'" in err
    assert err.endswith(" (request.invalid-parameter)\n")


def test_missing_packs_exit_2(tmp_path: Path) -> None:
    code, _, err = run(["validate", str(VALID[0])], tmp_path / "empty-home")
    assert code == 2 and "ruleset.missing" in err


def test_rulesets_list_and_verify(registry: Registry) -> None:
    code, out, _ = run(["rulesets", "list"], registry.home)
    n = len(registry.manifests)
    # every pack but the 2026-08-31 configuration and EXTENDED-CTC-FR 1.4.0.04, which ../shared does not hold
    # (tests/test_versions.py, tests/test_france_1404.py); BR-FR 1.4.0.04 is its staged copy
    assert out.count(" not installed ") == 3 and out.count(" staged copy ") == 3
    assert code == 0 and out.count(" installed ") - 3 == n - 6 and out.count(" official ") == n
    assert "en16931-ubl            1.3.16     schematron    official from 2026-04-14" in out
    code, out, _ = run(["rulesets", "verify"], registry.home)
    assert code == 0 and out.count(" ok ") == n - 3


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_real_subprocess(registry: Registry, fmt: str) -> None:
    env = {**os.environ, "EINVOICE_VALIDATE_HOME": str(registry.home)}
    proc = subprocess.run(
        [sys.executable, "-m", "einvoice_validate", "validate", "--format", fmt, str(BROKEN), str(VALID[1])],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert "BR-DE-15" in proc.stdout


def _tree(tmp_path: Path) -> Path:
    """A folder with invoices at two levels (one with an upper-case suffix) and a file that is not *.xml."""
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    (root / "a.xml").write_bytes(VALID[0].read_bytes())
    (root / "sub" / "b.XML").write_bytes(BROKEN.read_bytes())
    (root / "sub" / "c.xml").write_bytes(VALID[1].read_bytes())
    (root / "notes.txt").write_text("not an invoice")
    return root


def test_directory_argument_is_recursive(registry: Registry, tmp_path: Path) -> None:
    root = _tree(tmp_path)
    code, out, _ = run(["validate", "--format", "jsonl", str(root)], registry.home)
    assert code == 1
    rows = [json.loads(line) for line in out.splitlines()]
    assert [Path(r["file"]).relative_to(root).as_posix() for r in rows] == ["a.xml", "sub/b.XML", "sub/c.xml"]
    assert [r["valid"] for r in rows] == [True, False, True]


def test_glob_the_shell_did_not_expand(registry: Registry, tmp_path: Path) -> None:
    root = _tree(tmp_path)
    code, out, _ = run(["validate", "--format", "jsonl", str(root / "**" / "*.xml")], registry.home)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0  # sub/b.XML does not match the case-sensitive pattern
    assert [Path(r["file"]).name for r in rows] == ["a.xml", "c.xml"]
    code, out, err = run(["validate", "--format", "jsonl", str(root / "nothing-*.xml")], registry.home)
    assert code == 2 and out == ""  # a quoted pattern matching nothing says so (not "file not found")
    assert (
        err == f"einvoice-validate: no file matches the pattern {str(root / 'nothing-*.xml')!r} (request.unreadable)\n"
    )


def test_empty_directory_is_a_usage_error(registry: Registry, tmp_path: Path) -> None:
    code, out, err = run(["validate", str(tmp_path)], registry.home)
    assert code == 2 and out == "" and "no files" in err


def test_workers_2_jsonl_in_input_order(registry: Registry, tmp_path: Path) -> None:
    files = [BROKEN, *VALID, tmp_path / "missing.xml", BROKEN, VALID[2], VALID[0]]
    code, out, _ = run(["validate", "--format", "jsonl", "--workers", "2", *map(str, files)], registry.home)
    assert code == 2
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["file"] for r in rows] == [str(f) for f in files]
    assert all(list(r) == JSONL_KEYS for r in rows)
    assert [r["valid"] for r in rows] == [False, True, True, True, False, False, True, True]
    one = [json.loads(run(["validate", "--format", "jsonl", str(f)], registry.home)[1]) for f in (BROKEN, VALID[1])]
    assert [r["findings"] for r in (rows[0], rows[2])] == [r["findings"] for r in one]


def test_workers_must_be_positive(registry: Registry) -> None:
    assert run(["validate", "--workers", "0", str(BROKEN)], registry.home)[0] == 2


def test_json_format_streamed_is_the_same_text(registry: Registry) -> None:
    _, out, _ = run(["validate", "--format", "json", "--workers", "2", str(VALID[0]), str(BROKEN)], registry.home)
    assert out == json.dumps(json.loads(out), ensure_ascii=False, indent=2) + "\n"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    import einvoice_validate.cli as cli

    monkeypatch.setattr(cli, "PROGRESS_MIN_FILES", 3)
    args = ["--home", str(registry.home), "validate", "--format", "jsonl", *map(str, VALID)]
    out, err = io.StringIO(), _Terminal()
    assert main(args, stdout=out, stderr=err) == 0
    assert "3/3 documents" in err.getvalue() and len(out.getvalue().splitlines()) == 3
    out, plain = io.StringIO(), io.StringIO()
    assert main(args, stdout=out, stderr=plain) == 0
    assert "\r" not in plain.getvalue() and "documents" not in plain.getvalue()  # the rules' note only, if any


def test_default_workers_one_per_syntax_for_a_small_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    from einvoice_validate import cli

    monkeypatch.setattr(cli.os, "cpu_count", lambda: 2)
    ubl = REPO / "examples" / "xrechnung-ubl-invoice.xml"
    cii = REPO / "examples" / "xrechnung-cii-invoice.xml"
    assert cli._default_workers([ubl], threads=False) == 1
    assert cli._default_workers([ubl] * 50, threads=False) == 1  # one syntax, small: this process
    assert cli._default_workers([ubl, cii], threads=False) == 2  # two syntaxes: a worker each
    assert cli._default_workers([ubl] * 250, threads=False) == 2  # large: all cores
    # threads share one validator and cost nothing to start: one per core (never more than the files)
    assert cli._default_workers([ubl] * 250, threads=True) == 2
    assert cli._default_workers([ubl], threads=True) == 1
    monkeypatch.setattr(cli.os, "cpu_count", lambda: 1)
    assert cli._default_workers([ubl, cii], threads=False) == 1
