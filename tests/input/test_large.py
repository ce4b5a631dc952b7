"""Large legitimate invoices: embedded attachments of 20 MB and more (under the size limit) validate."""

from __future__ import annotations

from einvoice_validate import Validator
from tests.hostile import with_attachment


def test_invoice_with_a_25_mb_attachment_is_valid() -> None:
    data = with_attachment(25)
    assert len(data) > 25 * 1024 * 1024
    report = Validator().validate(data)
    assert report.valid, [(f.rule_id, f.message.en) for f in report.findings]
    assert report.accepted
