"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``, installed by ``make test``) prints
the page to PDF, and the PDF's text (``pdftotext``, Debian's ``poppler-utils``) must show what a person needs:
the verdict, profile and packs, each finding's rule id, line, German and English text, its business terms and
the snippet of the offending element. Text that is hidden or not rendered is not in the printed page."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from einvoice_validate.cli import main
from einvoice_validate.rulesets import Registry
from tests.conftest import KOSIT_PLAN_DAY

# the examples' findings as the reference's plan-kosit.tsv gives them (examples/README.md): XRechnung 2.5.0
DAY = ["--rules-date", KOSIT_PLAN_DAY.isoformat()]

REPO = Path(__file__).resolve().parents[1]
BROKEN = REPO / "examples" / "xrechnung-ubl-broken.xml"
VALID = REPO / "examples" / "xrechnung-cii-invoice.xml"


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed; `make test` installs it (apt-get install chromium poppler-utils)")
    return path


def _printed(page: str, tmp_path: Path) -> str:
    html = tmp_path / "report.html"
    html.write_text(page, encoding="utf-8")
    pdf = tmp_path / "report.pdf"
    subprocess.run(
        [
            _tool("chromium"),
            "--headless",
            "--no-sandbox",  # tests may run as root (containers)
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            html.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    text = subprocess.run([_tool("pdftotext"), "-layout", str(pdf), "-"], check=True, capture_output=True, text=True)
    return " ".join(text.stdout.split())  # one line: the page wraps long texts


def test_the_report_renders_and_shows_what_a_person_needs(registry: Registry, tmp_path: Path) -> None:
    out = io.StringIO()
    main(["--home", str(registry.home), "validate", *DAY, "--format", "html", str(VALID), str(BROKEN)], stdout=out)
    text = _printed(out.getvalue(), tmp_path)
    assert "E-invoice validation report" in text
    assert "2 file(s): 1 valid, 1 invalid, 0 not validated; findings: 4 error(s)" in text
    assert "INVALID, rejected" in text and "valid, accepted" in text
    assert "xrechnung-3.0-ubl-invoice" in text and "xrechnung-ubl@2.5.0" in text
    assert "Errors (4)" in text
    assert re.search(r"ERROR BR-DE-15 · line 12 · /Invoice", text)
    assert 'Das Element "Buyer reference" (BT-10) muss übermittelt werden.' in text
    assert 'The element "Buyer reference" (BT-10) shall be provided.' in text
    assert "Business terms: BT-10" in text
    assert re.search(r"ERROR cvc-datatype-valid\.1\.2\.1 · line 16 · /Invoice/cbc:IssueDate", text)
    assert "16 | <cbc:IssueDate>2025-02-30</cbc:IssueDate>" in text  # the snippet


def test_the_german_page(registry: Registry, tmp_path: Path) -> None:
    out = io.StringIO()
    main(["--home", str(registry.home), "validate", *DAY, "--format", "html", "--lang", "de", str(BROKEN)], stdout=out)
    text = _printed(out.getvalue(), tmp_path)
    assert "Prüfbericht E-Rechnung" in text and "UNGÜLTIG, abgelehnt" in text and "Fehler (4)" in text
    assert re.search(r"FEHLER BR-DE-15 · Zeile 12 · /Invoice", text)
    assert "Geschäftsbegriffe: BT-10" in text
