"""Generate a large invoice: the first line of an invoice repeated N times, with the totals made to add up again.

Without ``--from``, the project's own example ``examples/xrechnung-ubl-invoice.xml`` is the source (XRechnung UBL,
passes XSD, CEN and XRechnung at every size). With ``--from FILE`` any UBL Invoice or CreditNote or CII invoice is
(an official example: the large-invoice benchmark, ``benchmarks/large_invoices.py``, names the ones it uses): its
first line is repeated N times with distinct line ids (and item ids), the document-level allowances and charges go,
the VAT breakdown keeps the one category of that line (its exemption reason included) with the basis and the tax
recomputed, and the monetary totals follow (prepaid and rounding amounts go). What the source's rules say about
everything else stays as it was; a valid source gives a valid invoice as long as its first line alone makes sense.

Usage: python tools/make_large_invoice.py N OUT.xml [--from FILE] [--spec-id BT-24]
"""

from __future__ import annotations

import argparse
import copy
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from lxml import etree

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples/xrechnung-ubl-invoice.xml"
CAC = "{urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2}"
CBC = "{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}"
RAM = "{urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100}"
RSM = "{urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100}"
CENT = Decimal("0.01")


def _money(value: Decimal) -> str:
    return f"{value.quantize(CENT, ROUND_HALF_UP):.2f}"


def _set(parent: etree._Element | None, path: str, text: str) -> None:
    if parent is not None:
        for element in parent.findall(path):
            element.text = text


def make(lines: int, source: Path | None = None, spec_id: str | None = None) -> bytes:
    """The invoice of ``source`` (default: the project's XRechnung UBL example) with ``lines`` lines, and with
    ``spec_id`` as its specification identifier (BT-24) if given."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    tree = etree.parse(str(source or EXAMPLE), parser)
    root = tree.getroot()
    if root.tag == f"{RSM}CrossIndustryInvoice":
        _cii(root, lines)
        bt24 = f"{RSM}ExchangedDocumentContext/{RAM}GuidelineSpecifiedDocumentContextParameter/{RAM}ID"
    else:
        _ubl(root, lines)
        bt24 = f"{CBC}CustomizationID"
    if spec_id is not None:
        _set(root, bt24, spec_id)
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8")


def _repeat(parent: etree._Element, template: etree._Element, old: list[etree._Element], lines: int) -> list:
    """``lines`` copies of ``template`` where the old lines stood (the first old line's place)."""
    anchor = old[0].getprevious()
    tail = old[-1].tail
    for line in old:
        parent.remove(line)
    copies = []
    at = parent.index(anchor) + 1 if anchor is not None else 0
    for i in range(lines):
        line = copy.deepcopy(template)
        line.tail = tail
        parent.insert(at + i, line)
        copies.append(line)
    return copies


def _ubl(root: etree._Element, lines: int) -> None:
    kind = "CreditNote" if etree.QName(root).localname == "CreditNote" else "Invoice"
    old = root.findall(f"{CAC}{kind}Line")
    template = old[0]
    amount = Decimal(template.findtext(f"{CBC}LineExtensionAmount") or "0")
    category = template.find(f"{CAC}Item/{CAC}ClassifiedTaxCategory")
    cat_id = category.findtext(f"{CBC}ID") if category is not None else None
    rate = Decimal(category.findtext(f"{CBC}Percent") or "0") if category is not None else Decimal(0)
    for n, line in enumerate(_repeat(root, template, old, lines), start=1):
        _set(line, f"{CBC}ID", str(n))
        _set(line, f"{CAC}Item/{CAC}SellersItemIdentification/{CBC}ID", f"ART-{n:06d}")
    for charge in root.findall(f"{CAC}AllowanceCharge"):
        root.remove(charge)
    basis = amount * lines
    tax = (basis * rate / 100).quantize(CENT, ROUND_HALF_UP)
    for total in root.findall(f"{CAC}TaxTotal"):
        subtotals = total.findall(f"{CAC}TaxSubtotal")
        if not subtotals:
            total.getparent().remove(total)  # the tax currency's total: it would need a rate
            continue
        keep = next(
            (
                s
                for s in subtotals
                if s.findtext(f"{CAC}TaxCategory/{CBC}ID") == cat_id
                and Decimal(s.findtext(f"{CAC}TaxCategory/{CBC}Percent") or "0") == rate
            ),
            subtotals[0],
        )
        for s in subtotals:
            if s is not keep:
                total.remove(s)
        _set(total, f"{CBC}TaxAmount", _money(tax))
        _set(keep, f"{CBC}TaxableAmount", _money(basis))
        _set(keep, f"{CBC}TaxAmount", _money(tax))
        if category is not None:  # the line's category as the breakdown's (its id, rate and scheme)
            _set(keep, f"{CAC}TaxCategory/{CBC}ID", cat_id or "")
    legal = root.find(f"{CAC}LegalMonetaryTotal")
    assert legal is not None
    for name in ("AllowanceTotalAmount", "ChargeTotalAmount", "PrepaidAmount", "PayableRoundingAmount"):
        for element in legal.findall(f"{CBC}{name}"):
            legal.remove(element)
    for name, value in (
        ("LineExtensionAmount", basis),
        ("TaxExclusiveAmount", basis),
        ("TaxInclusiveAmount", basis + tax),
        ("PayableAmount", basis + tax),
    ):
        _set(legal, f"{CBC}{name}", _money(value))


def _cii(root: etree._Element, lines: int) -> None:
    transaction = root.find(f"{RSM}SupplyChainTradeTransaction")
    assert transaction is not None
    old = transaction.findall(f"{RAM}IncludedSupplyChainTradeLineItem")
    template = old[0]
    settlement = template.find(f"{RAM}SpecifiedLineTradeSettlement")
    assert settlement is not None
    amount = Decimal(
        settlement.findtext(f"{RAM}SpecifiedTradeSettlementLineMonetarySummation/{RAM}LineTotalAmount") or "0"
    )
    cat_id = settlement.findtext(f"{RAM}ApplicableTradeTax/{RAM}CategoryCode")
    rate = Decimal(settlement.findtext(f"{RAM}ApplicableTradeTax/{RAM}RateApplicablePercent") or "0")
    for n, line in enumerate(_repeat(transaction, template, old, lines), start=1):
        _set(line, f"{RAM}AssociatedDocumentLineDocument/{RAM}LineID", str(n))
        _set(line, f"{RAM}SpecifiedTradeProduct/{RAM}SellerAssignedID", f"ART-{n:06d}")
    header = transaction.find(f"{RAM}ApplicableHeaderTradeSettlement")
    assert header is not None
    for charge in header.findall(f"{RAM}SpecifiedTradeAllowanceCharge"):
        header.remove(charge)
    basis = amount * lines
    tax = (basis * rate / 100).quantize(CENT, ROUND_HALF_UP)
    taxes = header.findall(f"{RAM}ApplicableTradeTax")
    keep = next(
        (
            t
            for t in taxes
            if t.findtext(f"{RAM}CategoryCode") == cat_id
            and Decimal(t.findtext(f"{RAM}RateApplicablePercent") or "0") == rate
        ),
        taxes[0],
    )
    for t in taxes:
        if t is not keep:
            header.remove(t)
    _set(keep, f"{RAM}CalculatedAmount", _money(tax))
    _set(keep, f"{RAM}BasisAmount", _money(basis))
    _set(keep, f"{RAM}LineTotalBasisAmount", _money(basis))
    _set(keep, f"{RAM}AllowanceChargeBasisAmount", "0.00")
    sums = header.find(f"{RAM}SpecifiedTradeSettlementHeaderMonetarySummation")
    assert sums is not None
    for name in ("ChargeTotalAmount", "AllowanceTotalAmount", "TotalPrepaidAmount", "RoundingAmount"):
        for element in sums.findall(f"{RAM}{name}"):
            sums.remove(element)
    currency = header.findtext(f"{RAM}InvoiceCurrencyCode")
    for element in sums.findall(f"{RAM}TaxTotalAmount"):
        if element.get("currencyID") not in (None, currency):
            sums.remove(element)  # the tax currency's total: it would need a rate
    for name, value in (
        ("LineTotalAmount", basis),
        ("TaxBasisTotalAmount", basis),
        ("TaxTotalAmount", tax),
        ("GrandTotalAmount", basis + tax),
        ("DuePayableAmount", basis + tax),
    ):
        _set(sums, f"{RAM}{name}", _money(value))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lines", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--from", dest="source", type=Path, default=None)
    parser.add_argument("--spec-id", default=None, help="the specification identifier (BT-24) to write")
    args = parser.parse_args(argv)
    args.out.write_bytes(make(args.lines, args.source, args.spec_id))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
