"""The pre-commit hook (.pre-commit-hooks.yaml) on a repository of invoices built here: pre-commit (from PyPI)
installs the hook from this checkout, passes a valid invoice and stops the commit of a broken one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from einvoice_validate.rulesets import Registry

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
BIN = Path(sys.executable).parent


def test_the_hook_declaration() -> None:
    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "einvoice-validate" and hook["language"] == "python"
    assert hook["entry"].startswith("einvoice-validate validate")


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is a requirement of pre-commit")
def test_a_repository_of_invoices_runs_the_hook(registry: Registry, tmp_path: Path) -> None:
    if not (BIN / "pre-commit").exists():
        pytest.fail("pre-commit is not installed: it is part of the [dev] extra (make .venv/.installed)")
    rev = _git(REPO, "rev-parse", "HEAD")  # the hook as committed in this checkout (pre-commit clones it)
    invoices = tmp_path / "invoices"
    invoices.mkdir()
    _git(invoices, "init", "-q")
    _git(invoices, "config", "user.email", "test@example.invalid")
    _git(invoices, "config", "user.name", "test")
    (invoices / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {REPO}\n    rev: {rev}\n    hooks:\n      - id: einvoice-validate\n"
    )
    shutil.copy(EXAMPLES / "xrechnung-ubl-invoice.xml", invoices / "good.xml")
    (invoices / "notes.txt").write_text("not an invoice: the hook leaves it alone\n")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),  # the hook's environment, built from the clone
        "EINVOICE_VALIDATE_HOME": str(registry.home),
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    _git(invoices, "add", ".")
    done = subprocess.run(
        [str(BIN / "pre-commit"), "run"], cwd=invoices, env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "einvoice-validate" in done.stdout and "Passed" in done.stdout
    _git(invoices, "commit", "-q", "-m", "a valid invoice")
    shutil.copy(EXAMPLES / "xrechnung-ubl-broken.xml", invoices / "broken.xml")
    _git(invoices, "add", "broken.xml")
    done = subprocess.run(
        [str(BIN / "pre-commit"), "run"], cwd=invoices, env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 1 and "Failed" in done.stdout
    assert "broken.xml: INVALID, rejected" in done.stdout and "BR-DE-15" in done.stdout
    assert "good.xml" not in done.stdout  # only the files of the change
