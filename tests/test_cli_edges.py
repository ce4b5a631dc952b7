"""The command line's edges met by a new user (each failed before it was fixed): -o over an existing file, the note
on the rules said once per run, error lines ending in their code, did-you-mean, the summary's time, rate and
engine, Ctrl-C's partial summary, show's verdict words, a .pdf that is not a PDF, a pattern that matches nothing,
and the one progress bar."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from einvoice_validate import cli
from einvoice_validate.cli import main
from einvoice_validate.progress import Progress
from einvoice_validate.rulesets import Registry

REPO = Path(__file__).resolve().parents[1]
GOOD = REPO / "examples" / "xrechnung-ubl-invoice.xml"
CII = REPO / "examples" / "xrechnung-cii-invoice.xml"
BROKEN = REPO / "examples" / "xrechnung-ubl-broken.xml"
TODAY_NOTE = "rules.version-not-installed"  # 2026-11-25: the configuration 2026-08-31 is in force, not installed
DAY = "2026-11-25"


def run(args: list[str], home: Path, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["--home", str(home), *args], stdout=out, stderr=err, stdin=io.BytesIO(stdin) if stdin is not None else None
    )
    return code, out.getvalue(), err.getvalue()


# --- -o never replaces a file the run did not write -----------------------------------------------------------------


def test_o_does_not_overwrite_an_invoice_that_is_not_an_input(registry: Registry, tmp_path: Path) -> None:
    other = tmp_path / "other-invoice.xml"
    other.write_bytes(GOOD.read_bytes())
    code, out, err = run(["validate", "--rules-date", DAY, "-o", str(other), str(BROKEN)], registry.home)
    assert (code, out) == (2, "")
    assert err.endswith("is never overwritten (--force replaces it) (request.invalid-parameter)\n")
    assert other.read_bytes() == GOOD.read_bytes()
    code, _, _ = run(["validate", "--rules-date", DAY, "--force", "-o", str(other), str(BROKEN)], registry.home)
    assert code == 1 and other.read_text().startswith(f"{BROKEN}: INVALID")


def test_o_folder_replaces_its_own_reports_but_no_stranger(registry: Registry, tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    args = ["validate", "--rules-date", DAY, "--format", "json", "-o", f"{reports}/", str(GOOD)]
    assert run(args, registry.home)[0] == 0
    assert run(args, registry.home)[0] == 0  # its own reports, from the run before: replaced
    stranger = tmp_path / "elsewhere"
    stranger.mkdir()
    (stranger / f"{GOOD.stem}-report.json").write_text("mine")
    code, _, err = run([*args[:-2], f"{stranger}/", str(GOOD)], registry.home)
    assert code == 2 and "never overwritten" in err and (stranger / f"{GOOD.stem}-report.json").read_text() == "mine"


def test_show_o_does_not_overwrite_another_file(registry: Registry, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("not ours")
    code, _, err = run(["show", "--rules-date", DAY, str(GOOD), "-o", str(page)], registry.home)
    assert code == 2 and page.read_text() == "not ours" and err.endswith("(request.invalid-parameter)\n")


# --- the note on the rules: once per run, not on each report, never failing -----------------------------------------


def test_the_rules_note_is_said_once_and_fails_nothing(registry: Registry) -> None:
    files = [str(GOOD), str(CII), str(GOOD)]
    code, out, err = run(["validate", "--rules-date", DAY, "--fail-on", "warning", *files], registry.home)
    assert code == 0  # valid invoices: a note about the rules is no reason to fail them
    assert TODAY_NOTE not in out.split("\n\n")[0]  # not on any document's report
    assert err.count(f"({TODAY_NOTE})") == 1 and err.startswith("einvoice-validate: warning: On the rules date")
    summary = out.rstrip().splitlines()[-1]
    assert "0 warning(s)" in summary and f"1 note(s) on the rules: {TODAY_NOTE}" in summary
    code, out, _ = run(["validate", "--rules-date", DAY, "--quiet", *files], registry.home)
    assert out.count("\n") == 1  # --quiet: valid documents are not shown at all, only the summary


def test_ignoring_the_note_silences_it(registry: Registry) -> None:
    code, _, err = run(["validate", "--rules-date", DAY, "--ignore", TODAY_NOTE, str(GOOD)], registry.home)
    assert code == 0 and TODAY_NOTE not in err


# --- every error line ends in its code; did-you-mean with the subcommand's usage ------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["validate", "--formt", "json", "x.xml"], "--formt: did you mean --format"),
        (["valdate", "x.xml"], "did you mean 'validate'?"),
        (["validate", "--profile", "xrechnung", "x.xml"], "did you mean xrechnung-3.0-"),
        (["show", "--profile", "xrechnung-3.0-ubl-invoce", "x.xml"], "did you mean xrechnung-3.0-ubl-invoice"),
        (["rulesets", "instal"], "did you mean 'install'"),
        (["validate", "--fail-on", "warnings", "x.xml"], "did you mean 'warning'?"),
    ],
)
def test_a_typo_gets_a_suggestion_the_usage_and_a_code(registry: Registry, args: list[str], said: str) -> None:
    code, out, err = run(args, registry.home)
    assert code == 2 and out == ""
    command = " ".join(a for a in args[:2] if not a.startswith("-") and a in ("validate", "show", "rulesets"))
    if command:  # the usage of the subcommand that was mistyped, not the program's
        assert err.startswith(f"usage: einvoice-validate {command} "), err
    last = err.rstrip("\n").splitlines()[-1]
    assert said in last and last.endswith("(request.invalid-parameter)"), last


@pytest.mark.parametrize(
    ("args", "code_word"),
    [
        (["rule", "BR-DE-99"], "(request.invalid-parameter)"),
        (["validate", "nothing-here/*.xml"], "(request.unreadable)"),
        (["validate", "--format", "json,html", str(GOOD)], "(request.invalid-parameter)"),
        (["validate", "-o", str(GOOD), str(GOOD)], "(request.invalid-parameter)"),
    ],
)
def test_every_error_line_ends_in_its_code(registry: Registry, args: list[str], code_word: str) -> None:
    code, _, err = run(args, registry.home)
    assert code == 2 and err.count("\n") == 1 and err.endswith(f" {code_word}\n"), err


def test_a_configuration_error_ends_in_its_code(registry: Registry, tmp_path: Path) -> None:
    config = tmp_path / "strict.toml"
    config.write_text('fail-on = "critical"\n')
    code, _, err = run(["validate", "--config", str(config), str(GOOD)], registry.home)
    assert code == 2 and err.endswith("(request.invalid-parameter)\n") and "fail-on" in err


def test_no_files_in_a_folder_ends_in_its_code(registry: Registry, tmp_path: Path) -> None:
    code, _, err = run(["validate", str(tmp_path)], registry.home)
    assert code == 2 and err.endswith("(request.unreadable)\n")


# --- the summary: files, time, rate and engine; Ctrl-C's partial summary ---------------------------------------------


def test_the_summary_gives_time_rate_and_engine(registry: Registry) -> None:
    code, out, _ = run(["validate", "--rules-date", DAY, str(GOOD), str(BROKEN)], registry.home)
    last = out.rstrip().splitlines()[-1]
    assert code == 1 and re.search(r"^2 file\(s\): .*; \d+\.\d s, \d+\.\d/s, engine saxonc$", last), last


def test_ctrl_c_prints_the_partial_summary_then_130(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    real = cli.iter_validate

    def interrupted(*args: Any, **kwargs: Any) -> Iterator[Any]:
        results = real(*args, **kwargs)
        yield next(iter(results))
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "iter_validate", interrupted)
    code, out, err = run(["validate", "--rules-date", DAY, "--workers", "1", str(GOOD), str(BROKEN)], registry.home)
    assert code == 130 and err.rstrip().endswith("einvoice-validate: interrupted")
    assert out.rstrip().splitlines()[-1].startswith("1 file(s): 1 valid, 0 invalid")
    code, out, err = run(
        ["validate", "--rules-date", DAY, "--workers", "1", "--format", "jsonl", str(GOOD), str(BROKEN)],
        registry.home,
    )
    assert code == 130 and out.count("\n") == 1  # one row, then the summary on stderr
    assert err.rstrip().splitlines()[-2].startswith("1 file(s): 1 valid")


# --- show and validate say the same verdict --------------------------------------------------------------------------


def test_show_and_validate_give_the_same_verdict_words(registry: Registry, tmp_path: Path) -> None:
    _, out, _ = run(["validate", "--rules-date", DAY, str(BROKEN)], registry.home)
    _, _, err = run(["show", "--rules-date", DAY, str(BROKEN), "-o", str(tmp_path / "page.html")], registry.home)
    assert out.startswith(f"{BROKEN}: INVALID, rejected [") and err.startswith(f"{BROKEN}: INVALID, rejected [")


# --- a .pdf that is not a PDF, a pattern that matches nothing --------------------------------------------------------


def test_a_pdf_name_without_a_pdf_says_so(registry: Registry, tmp_path: Path) -> None:
    fake = tmp_path / "invoice.pdf"
    fake.write_text("this is a letter, not an invoice")
    code, out, _ = run(["validate", str(fake)], registry.home)
    assert code == 2 and "is named .pdf but is not a PDF" in out and "(document.unreadable)" in out
    code, out, _ = run(["validate", "--lang", "de", str(fake)], registry.home)
    assert "ist aber kein PDF" in out


def test_a_quoted_pattern_matching_nothing_says_so(registry: Registry, tmp_path: Path) -> None:
    code, out, err = run(["validate", f"{tmp_path}/*.xml"], registry.home)
    assert (code, out) == (2, "") and "no file matches the pattern" in err and "not found" not in err


# --- one progress bar ------------------------------------------------------------------------------------------------


def test_one_progress_bar_for_documents_and_downloads() -> None:
    assert not hasattr(cli, "_DownloadBar")
    err = io.StringIO()
    bar = Progress(None, err, unit="bytes", clock=lambda: 0.0)
    bar.update("a.zip", 500_000, 1_000_000)
    bar.update("a.zip", 1_000_000, 1_000_000)  # done: its line stays
    bar.update("b.xsd", 200_000, None)  # no size known: no bar
    lines = err.getvalue().split("\r\x1b[K")
    assert "a.zip" in lines[-2] and lines[-2].endswith("[##############################] 1.0/1.0 MB\n")
    assert lines[-1].startswith("b.xsd") and lines[-1].endswith(" 0.2 MB") and "[" not in lines[-1]
