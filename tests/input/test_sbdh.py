"""A Peppol StandardBusinessDocument envelope: the invoice inside is validated, and the report says so."""

from __future__ import annotations

import json
from pathlib import Path

from einvoice_validate import Validator
from einvoice_validate.cli import main
from einvoice_validate.rulesets import Registry
from tests.hostile import BROKEN_UBL, GOOD_CII, GOOD_UBL, invoice_body, sbdh


def _summary(findings: object) -> list[tuple[str, str | None]]:
    return [(f.rule_id, f.location) for f in findings]  # type: ignore[attr-defined]


def test_valid_invoice_in_envelope() -> None:
    report = Validator().validate(sbdh(invoice_body(GOOD_UBL)))
    assert report.envelope == "sbdh"
    assert report.valid and report.accepted
    assert report.profile == "xrechnung-3.0-ubl-invoice"


def test_cii_in_envelope() -> None:
    report = Validator().validate(sbdh(invoice_body(GOOD_CII)))
    assert report.envelope == "sbdh" and report.valid and report.syntax == "cii"


def test_broken_invoice_in_envelope_has_the_same_findings() -> None:
    bare = Validator().validate(BROKEN_UBL)
    wrapped = Validator().validate(sbdh(invoice_body(BROKEN_UBL)))
    assert bare.envelope is None
    assert _summary(wrapped.findings) == _summary(bare.findings)
    # XSD findings keep the line numbers of the file as it was sent (inside the envelope)
    xsd = [f for f in wrapped.findings if f.stage == "xsd"]
    offset = sbdh(invoice_body(BROKEN_UBL)).decode().split("\n").index(invoice_body(BROKEN_UBL).split("\n")[0])
    bare_lines = [f.line for f in bare.findings if f.stage == "xsd"]
    assert [f.line for f in xsd] == [line + offset - 1 for line in bare_lines if line is not None]


def test_cli_says_it_unwrapped(registry: Registry, tmp_path: Path, capsys: object) -> None:
    path = tmp_path / "sbd.xml"
    path.write_bytes(sbdh(invoice_body(GOOD_UBL)))
    assert main(["--home", str(registry.home), "validate", str(path)]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "Peppol SBDH envelope" in out
    assert main(["--home", str(registry.home), "validate", "--format", "jsonl", str(path)]) == 0
    row = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert row["envelope"] == "sbdh"
