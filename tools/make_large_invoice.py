"""Generate a valid XRechnung UBL invoice with N lines (for the large-invoice benchmarks).

Starts from the project's own example ``examples/xrechnung-ubl-invoice.xml``: its first line (19 % VAT) is
repeated N times with distinct ids and the VAT breakdown and totals are recomputed, so the result passes XSD,
CEN and XRechnung.

Usage: python tools/make_large_invoice.py N OUT.xml
"""

from __future__ import annotations

import copy
import sys
from decimal import Decimal
from pathlib import Path

from lxml import etree

REPO = Path(__file__).resolve().parents[1]
CAC = "{urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2}"
CBC = "{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}"


def make(lines: int) -> bytes:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_blank_text=True)
    root = etree.parse(str(REPO / "examples/xrechnung-ubl-invoice.xml"), parser).getroot()
    template = root.find(f"{CAC}InvoiceLine")
    assert template is not None
    for old in root.findall(f"{CAC}InvoiceLine"):
        root.remove(old)
    amount = Decimal("0")
    for i in range(1, lines + 1):
        line = copy.deepcopy(template)
        line.find(f"{CBC}ID").text = str(i)  # type: ignore[union-attr]
        qty = Decimal(i % 7 + 1)
        price = Decimal("4.50")
        line.find(f"{CBC}InvoicedQuantity").text = str(qty)  # type: ignore[union-attr]
        line.find(f"{CBC}LineExtensionAmount").text = f"{qty * price:.2f}"  # type: ignore[union-attr]
        line.find(f"{CAC}Item/{CAC}SellersItemIdentification/{CBC}ID").text = f"ART-{i:06d}"  # type: ignore[union-attr]
        amount += qty * price
        root.append(line)
    tax = (amount * Decimal("0.19")).quantize(Decimal("0.01"))
    total = root.find(f"{CAC}TaxTotal")
    assert total is not None
    subtotals = total.findall(f"{CAC}TaxSubtotal")
    for extra in subtotals[1:]:
        total.remove(extra)
    total.find(f"{CBC}TaxAmount").text = f"{tax:.2f}"  # type: ignore[union-attr]
    subtotals[0].find(f"{CBC}TaxableAmount").text = f"{amount:.2f}"  # type: ignore[union-attr]
    subtotals[0].find(f"{CBC}TaxAmount").text = f"{tax:.2f}"  # type: ignore[union-attr]
    legal = root.find(f"{CAC}LegalMonetaryTotal")
    assert legal is not None
    for name, value in (
        ("LineExtensionAmount", amount),
        ("TaxExclusiveAmount", amount),
        ("TaxInclusiveAmount", amount + tax),
        ("PayableAmount", amount + tax),
    ):
        legal.find(f"{CBC}{name}").text = f"{value:.2f}"  # type: ignore[union-attr]
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    Path(argv[1]).write_bytes(make(int(argv[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
