"""Well-formed XML that is not an invoice: ``document.unsupported-type``, naming the root it found."""

from __future__ import annotations

import pytest

from einvoice_validate import InputError, Validator
from tests.hostile import invoice_body, sbdh

ORDER = (
    b'<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2" '
    b'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>1</cbc:ID></Order>'
)
CASES = {
    "ubl-order": (ORDER, "Order"),
    "invoice-without-namespace": (b"<Invoice><ID>1</ID></Invoice>", "{}Invoice"),
    "invoice-in-wrong-namespace": (b'<Invoice xmlns="urn:example:invoice"/>', "urn:example:invoice"),
    "cii-d22b-namespace": (
        b'<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:99"/>',
        "CrossIndustryInvoice",
    ),
    "xhtml": (b'<html xmlns="http://www.w3.org/1999/xhtml"><body>Rechnung</body></html>', "html"),
    "svrl-report": (b'<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl"/>', "schematron-output"),
    "order-in-sbdh": (sbdh(ORDER.decode()), "inside the StandardBusinessDocument"),
    "empty-sbdh": (sbdh(""), "0 payload"),
    "two-invoices-in-sbdh": (sbdh(invoice_body(), invoice_body()), "2 payload"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_not_an_invoice(name: str) -> None:
    data, hint = CASES[name]
    with pytest.raises(InputError) as info:
        Validator().validate(data)
    assert info.value.code == "document.unsupported-type"
    assert hint in info.value.detail
