"""A Peppol StandardBusinessDocument envelope: the invoice inside is validated, and the report says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from einvoice_validate import InputError, Validator
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


def _refused(data: bytes) -> InputError:
    with pytest.raises(InputError) as caught:
        Validator().validate(data)
    wire = caught.value.to_dict()
    assert wire["message"]["en"] and wire["message"]["de"] and wire["message"]["en"] != wire["message"]["de"]
    return caught.value


def test_a_nested_envelope_is_refused_not_unwrapped_twice() -> None:
    inner = sbdh(invoice_body(GOOD_UBL)).decode().split("?>", 1)[1]
    error = _refused(sbdh(inner))
    assert (error.code, error.reason) == ("document.unsupported-type", "root")
    assert "StandardBusinessDocumentHeader}StandardBusinessDocument;" in error.detail


@pytest.mark.parametrize(
    ("payloads", "reason"),
    [
        ((), "envelope"),  # nothing after the header
        (("not an element",), "envelope"),
        ((invoice_body(GOOD_UBL), invoice_body(GOOD_CII)), "envelope"),  # two invoices: which one?
        (('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>',), "root"),  # not an invoice
    ],
    ids=["empty", "text", "two-invoices", "an-order"],
)
def test_an_envelope_without_exactly_one_invoice_is_refused(payloads: tuple[str, ...], reason: str) -> None:
    error = _refused(sbdh(*payloads) if payloads else sbdh(""))
    assert (error.code, error.reason) == ("document.unsupported-type", reason)


def test_a_payload_the_header_misnames_is_validated_as_what_it_is() -> None:
    """The header says UBL Invoice (DocumentIdentification Standard and Type), the payload is a CII invoice: the
    payload decides the syntax and profile, with the findings it has bare."""
    data = sbdh(invoice_body(GOOD_CII))
    assert b"<Standard>urn:oasis:names:specification:ubl:schema:xsd:Invoice-2</Standard>" in data
    wrapped, bare = Validator().validate(data), Validator().validate(GOOD_CII)
    assert (wrapped.envelope, wrapped.syntax, wrapped.profile) == ("sbdh", "cii", bare.profile)
    assert _summary(wrapped.findings) == _summary(bare.findings)
