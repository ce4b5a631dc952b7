"""Write the catalogue of the national CIUS packs (``rulesets/messages/national.toml``, issue 22).

UBL.BE 1.31, SI-UBL 2.0.3.13, NLCIUS-CII 1.0.3.13 and CIUS-PT 2.1.1 each carry their own copy of the EN 16931 rules
next to their national rules, all written in English (no Dutch or Portuguese rule text: the languages are checked
by ``tests/test_national.py``). Every official text of these packs that the other catalogue files do not hold
already is written here, its German text made, in this order, from:

1. the German text the catalogue has for the same official text under another rule id (UBL.BE writes the CEN
   syntax rules with lower-case ids and "A ubl invoice ...": the text with "A UBL" is looked up);
2. the sentence templates of ``tools/catalogue_syntax_de.py`` (UBL "should not include the ..." rules);
3. the sentence templates of :data:`TEMPLATES` (CIUS-PT's mechanical data-type rules: "The BT-22 does not meet the
   defined format: alphanumeric with size between 1 and 500.", "The BT-106 currencyID must be equal to BT-5.");
4. the hand-written texts of :data:`HAND` (official text -> German, and the business terms where the official
   text names elements instead of BT/BG ids: SI-UBL's and NLCIUS's BR-NL rules).

Nothing falls back to the English text: a text without German is listed and the script writes nothing (exit 1).

    python tools/catalogue_national.py            # (re)write rulesets/messages/national.toml
    python tools/catalogue_national.py --dry-run  # only report what is covered how

Needs the national packs installed in the rules home (``einvoice-validate rulesets install``). Afterwards
``python tools/catalogue.py check`` must report 0 missing texts and ``python tools/catalogue.py lint`` 0 problems.
"""

# ruff: noqa: E501  # the official texts are single long sentences, kept whole as dictionary keys
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tools"))

import catalogue_syntax_de as syntax  # noqa: E402

from einvoice_validate.messages import CATALOGUE_DIR, Variant, load_catalogue, natural_key, terms_in  # noqa: E402
from einvoice_validate.rulesets.catalogue import NATIONAL_PACKS, official_rule_texts, write_catalogue_file  # noqa: E402
from einvoice_validate.rulesets.registry import Registry  # noqa: E402

TARGET = CATALOGUE_DIR / "national.toml"

# --- templates: CIUS-PT's data-type rules (DT-CIUS-PT-*) ----------------------------------------------------------

_BTS = r"(?P<bts>BT-\d+(?:_\d+)?(?: and BT-\d+)*)"
_PREFIX = r"'(?P<prefix>#[^']+#)'"


def _subject(bts: str) -> tuple[str, bool]:
    """``BT-93 and BT-100`` -> (``BT-93 und BT-100``, plural)."""
    return bts.replace(" and ", " und "), " and " in bts


def _format(spec: str) -> str | None:
    """The German form of a CIUS-PT format description (what follows "the defined format: ")."""
    found = re.fullmatch(r"alphanumeric with size between (\d+) and (\d+)", spec)
    if found:
        return f"alphanumerisch mit einer Länge von {found[1]} bis {found[2]} Zeichen"
    found = re.fullmatch(
        r"decimal value with (\d+) decimal places and (\d+) unit places(, than can be negative)?", spec
    )
    if found:
        sign = ", auch negativ" if found[3] else ""
        return f"Dezimalzahl mit {found[1]} Nachkomma- und {found[2]} Vorkommastellen{sign}"
    found = re.fullmatch(r"value between (\d+\.\d+) and (\d+\.\d+)", spec)
    if found:
        return f"ein Wert zwischen {found[1]} und {found[2]}"
    if spec == "YYYY-MM-DD":
        return "JJJJ-MM-TT (YYYY-MM-DD)"
    found = re.fullmatch(r"value preceded by the country code, according to ISO code list 3166-1", spec)
    if found:
        return "der Wert mit vorangestelltem Ländercode nach ISO-Codeliste 3166-1"
    found = re.fullmatch(r"only admits the following values: (.+)", spec)
    if found:
        return f"nur die folgenden Werte sind zulässig: {found[1]}"
    return None


def _does_not_meet(m: re.Match[str]) -> str | None:
    spec = _format(m["spec"])
    if spec is None:
        return None
    subject, plural = _subject(m["bts"])
    verb = "entsprechen" if plural else "entspricht"
    return f"{subject} {verb} nicht dem vorgegebenen Format: {spec}."


def _prefixed_format(m: re.Match[str]) -> str | None:
    spec = _format(m["spec"])
    if spec is None:
        return None
    return f"{m['bts']} mit dem Präfix {m['prefix']} muss dem vorgegebenen Format entsprechen: {spec}."


def _prefix_required(m: re.Match[str]) -> str:
    return (
        f"{m['bts']} entspricht nicht dem vorgegebenen Format: Der Wert muss mit {m['prefix']} beginnen und mit "
        f"'#' enden.{m['tail'] and ' Das Suffix „-000“ muss für eine Gruppe von Elementen verwendet werden.'}"
    )


TEMPLATES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str | None]], ...] = (
    (re.compile(rf"The {_BTS} does not meet the defined format: (?P<spec>.+)\."), _does_not_meet),
    (
        re.compile(rf"The {_BTS} when prefixed with {_PREFIX}, have to meet the defined format: (?P<spec>.+)\."),
        _prefixed_format,
    ),
    (
        re.compile(
            rf"The {_BTS} does not meet the defined format: it is mandatory to prefix the value with the following "
            rf"{_PREFIX} and suffice with '#'\.(?P<tail> The sub-suffix \"-000\" must be used as a group of elements\.)?"
        ),
        _prefix_required,
    ),
    (
        re.compile(rf"The {_BTS} when prefixed with {_PREFIX},? only admits the following values: (?P<values>.+)\."),
        lambda m: f"{m['bts']} mit dem Präfix {m['prefix']} lässt nur die folgenden Werte zu: {m['values']}.",
    ),
    (
        re.compile(rf"The {_BTS} when prefixed with {_PREFIX},? must be unique\."),
        lambda m: f"{m['bts']} mit dem Präfix {m['prefix']} muss eindeutig sein.",
    ),
    (
        re.compile(rf"The {_BTS} when prefixed with {_PREFIX},? can only exist once\."),
        lambda m: f"{m['bts']} mit dem Präfix {m['prefix']} darf nur einmal vorkommen.",
    ),
    (
        re.compile(
            rf"The {_BTS} when prefixed with {_PREFIX},? is mandatory an element with the prefix '(?P<other>#[^']+#)'\."
        ),
        lambda m: (
            f"Ist {m['bts']} mit dem Präfix {m['prefix']} angegeben, ist ein Element mit dem Präfix '{m['other']}' Pflicht."
        ),
    ),
    (
        re.compile(rf"The {_BTS} currencyID must be equal to (?P<to>BT-\d+)\."),
        lambda m: (
            f"Das Attribut currencyID von {_subject(m['bts'])[0]} muss gleich {m['to']} sein."
            if not _subject(m["bts"])[1]
            else f"Die Attribute currencyID von {_subject(m['bts'])[0]} müssen gleich {m['to']} sein."
        ),
    ),
    (
        re.compile(rf"[Tt]he {_BTS} must be coded using ISO code list (?P<list>[\d-]+(?: alpha-\d)?)\.?"),
        lambda m: f"{m['bts']} muss nach der ISO-Codeliste {m['list']} codiert sein.",
    ),
    (
        re.compile(rf"The {_BTS} must belong to the UNCL (?P<list>\d+) code list\."),
        lambda m: f"{m['bts']} muss aus der Codeliste UNCL {m['list']} stammen.",
    ),
    (
        re.compile(rf"The {_BTS} identification scheme identifier MUST be coded using one of the ISO 6523 ICD list\."),
        lambda m: f"Die Kennung des Identifikationsschemas von {m['bts']} muss aus der Liste ISO 6523 ICD stammen.",
    ),
    (
        re.compile(rf"The {_BTS} identification scheme identifier does not meet the defined format: (?P<spec>.+)\."),
        lambda m: (
            f"Die Kennung des Identifikationsschemas von {m['bts']} entspricht nicht dem vorgegebenen Format: {s}."
            if (s := _format(m["spec"]))
            else None
        ),
    ),
    (
        re.compile(
            rf"The {_BTS} Unit code must be coded according to the UN/ECE Recommendation 20 with Rec 21 extension\."
        ),
        lambda m: (
            f"Der Einheitencode von {m['bts']} muss nach UN/ECE-Empfehlung 20 mit der Erweiterung aus Empfehlung 21 codiert sein."
        ),
    ),
)

# --- hand-written texts: official text -> (German, terms or None) --------------------------------------------------
# terms: the business terms of a rule whose official text names syntax elements instead of BT/BG ids (None: the
# BT/BG ids the texts name). SI-UBL and NLCIUS state the same BR-NL rule with UBL and CII paths.

_FILLED = " muss angegeben sein."

HAND: dict[str, tuple[str, tuple[str, ...] | None]] = {
    # --- SI-UBL 2.0.3.13: version rules (id-less upstream, named by the preparation: name-bracketed-asserts) ---
    "An invoice MUST have a customization identifier": (
        "Eine Rechnung muss eine Spezifikationskennung (CustomizationID) enthalten.",
        ("BT-24",),
    ),
    "A credit note MUST have a customization identifier": (
        "Eine Gutschrift muss eine Spezifikationskennung (CustomizationID) enthalten.",
        ("BT-24",),
    ),
    "This XML instance is NOT tagged as an SI-UBL 2.0 invoice or credit note; please check the CustomizationID value": (
        "Dieses XML-Dokument ist nicht als SI-UBL-2.0-Rechnung oder -Gutschrift gekennzeichnet; bitte den Wert von CustomizationID prüfen.",
        ("BT-24",),
    ),
    "This is not an SI-UBL 2.0 Invoice or CreditNote, validation cannot continue": (
        "Dies ist keine SI-UBL-2.0-Rechnung (Invoice) oder -Gutschrift (CreditNote); die Prüfung kann nicht fortgesetzt werden.",
        None,
    ),
    "Document should not contain empty elements.": ("Das Dokument sollte keine leeren Elemente enthalten.", None),
    # --- SI-UBL 2.0.3.13 (UBL): the BR-NL rules ---
    "For suppliers in the Netherlands the supplier MUST provide either a KVK or OIN number for its legal entity identifier (cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID with schemeID 0106 or 0190)": (
        "Für Lieferanten in den Niederlanden muss die Kennung der rechtlichen Registrierung des Lieferanten eine KVK- oder OIN-Nummer sein (cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID mit schemeID 0106 oder 0190).",
        ("BT-30",),
    ),
    "For suppliers in the Netherlands, the invoice MUST contain either the buyer reference (cbc:BuyerReference) or the order reference (cac:OrderReference/cbc:ID)": (
        "Für Lieferanten in den Niederlanden muss die Rechnung die Käuferreferenz (cbc:BuyerReference) oder die Bestellnummer (cac:OrderReference/cbc:ID) enthalten.",
        ("BT-10", "BT-13"),
    ),
    "For suppliers in the Netherlands the supplier's address (cac:AccountingSupplierParty/cac:Party/cac:PostalAddress) MUST contain street name (cbc:StreetName), city (cbc:CityName) and postal zone (cbc:PostalZone)": (
        "Für Lieferanten in den Niederlanden muss die Anschrift des Lieferanten (cac:AccountingSupplierParty/cac:Party/cac:PostalAddress) Straße (cbc:StreetName), Ort (cbc:CityName) und Postleitzahl (cbc:PostalZone) enthalten.",
        ("BG-5", "BT-35", "BT-37", "BT-38"),
    ),
    "For suppliers in the Netherlands, if the customer is in the Netherlands, the customer address (cac:AccountingCustomerParty/cac:Party/cac:PostalAddress) MUST contain the street name (cbc:StreetName), the city (cbc:CityName) and the postal zone (cbc:PostalZone)": (
        "Für Lieferanten in den Niederlanden muss, wenn der Kunde in den Niederlanden ansässig ist, die Anschrift des Kunden (cac:AccountingCustomerParty/cac:Party/cac:PostalAddress) Straße (cbc:StreetName), Ort (cbc:CityName) und Postleitzahl (cbc:PostalZone) enthalten.",
        ("BG-8", "BT-50", "BT-52", "BT-53"),
    ),
    "For suppliers in the Netherlands, if the fiscal representative is in the Netherlands, the representative's address (cac:TaxRepresentativeParty/cac:PostalAddress) MUST contain street name (cbc:StreetName), city (cbc:CityName) and postal zone (cbc:PostalZone)": (
        "Für Lieferanten in den Niederlanden muss, wenn der Steuerbevollmächtigte in den Niederlanden ansässig ist, dessen Anschrift (cac:TaxRepresentativeParty/cac:PostalAddress) Straße (cbc:StreetName), Ort (cbc:CityName) und Postleitzahl (cbc:PostalZone) enthalten.",
        ("BG-12", "BT-64", "BT-66", "BT-67"),
    ),
    "The invoice or credit note type code (cbc:InvoiceTypeCode/cbc:CreditNoteTypeCode) MUST have one of the following values: 380, 381, 384, 389": (
        "Der Code für den Rechnungs- oder Gutschriftstyp (cbc:InvoiceTypeCode/cbc:CreditNoteTypeCode) muss einen der folgenden Werte haben: 380, 381, 384, 389.",
        ("BT-3",),
    ),
    "If the invoice type code (cbc:InvoiceTypeCode) is 381, the document MUST use the CreditNote scheme": (
        "Ist der Code für den Rechnungstyp (cbc:InvoiceTypeCode) 381, muss das Dokument das Schema CreditNote verwenden.",
        ("BT-3",),
    ),
    "If the credit note type code (cbc:CreditNoteTypeCode) is 380, 384 or 389, the document MUST use the Invoice scheme": (
        "Ist der Code für den Gutschriftstyp (cbc:CreditNoteTypeCode) 380, 384 oder 389, muss das Dokument das Schema Invoice verwenden.",
        ("BT-3",),
    ),
    "For suppliers in the Netherlands, if the document is a corrective invoice (cbc:InvoiceTypeCode = 384), the document MUST contain an invoice reference (cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID)": (
        "Für Lieferanten in den Niederlanden muss eine korrigierte Rechnung (cbc:InvoiceTypeCode = 384) eine Referenz auf die vorausgegangene Rechnung enthalten (cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID).",
        ("BT-3", "BT-25"),
    ),
    "For suppliers in the Netherlands, if the customer is in the Netherlands, the customer's legal entity identifier (cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID) MUST be either a KVK (schemeID=0106) or OIN number (schemeID=0190)": (
        "Für Lieferanten in den Niederlanden muss, wenn der Kunde in den Niederlanden ansässig ist, die Kennung der rechtlichen Registrierung des Kunden (cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID) eine KVK-Nummer (schemeID=0106) oder eine OIN-Nummer (schemeID=0190) sein.",
        ("BT-47",),
    ),
    "For suppliers in the Netherlands, the payment means code (cac:PaymentMeans/cbc:PaymentMeansCode) MUST be one of 30, 48, 49, 57, 58 or 59": (
        "Für Lieferanten in den Niederlanden muss der Code für das Zahlungsmittel (cac:PaymentMeans/cbc:PaymentMeansCode) einer der Werte 30, 48, 49, 57, 58 oder 59 sein.",
        ("BT-81",),
    ),
    "The use of a payment service provider identifier (cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID) is not recommended for SEPA payments (cac:PaymentMeans/cbc:PaymentMeansCode = 58 or 59)": (
        "Die Angabe einer Kennung des Zahlungsdienstleisters (cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID) wird bei SEPA-Zahlungen (cac:PaymentMeans/cbc:PaymentMeansCode = 58 oder 59) nicht empfohlen.",
        ("BT-86", "BT-81"),
    ),
    "If an order line reference (BT-132) is used, there must be an order reference on the document level (BT-13)": (
        "Wird eine Referenz zur Bestellposition (BT-132) angegeben, muss auf Dokumentenebene eine Bestellnummer (BT-13) vorhanden sein.",
        None,
    ),
    "The use of a tax currency code (cbc:TaxCurrencyCode) is not recommended": (
        "Die Angabe eines Codes für die Umsatzsteuerwährung (cbc:TaxCurrencyCode) wird nicht empfohlen.",
        ("BT-6",),
    ),
    "The use of a tax point date (cbc:TaxPointDate) is not recommended, and its value will be ignored": (
        "Die Angabe eines Abrechnungsdatums der Umsatzsteuer (cbc:TaxPointDate) wird nicht empfohlen; ihr Wert wird nicht beachtet.",
        ("BT-7",),
    ),
    "The use of a tax point date code (cac:InvoicePeriod/cbc:DescriptionCode) is not recommended, and its value will be ignored": (
        "Die Angabe eines Codes des Umsatzsteuer-Abrechnungsdatums (cac:InvoicePeriod/cbc:DescriptionCode) wird nicht empfohlen; ihr Wert wird nicht beachtet.",
        ("BT-8",),
    ),
    "The use of a preceding invoice issue date (cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate) is not recommended": (
        "Die Angabe des Ausstellungsdatums der vorausgegangenen Rechnung (cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate) wird nicht empfohlen.",
        ("BT-26",),
    ),
    "The use of a seller tax registration identifier (cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID) is not recommended when the tax scheme is not VAT, since this is not applicable to suppliers in the Netherlands": (
        "Die Angabe einer Steuernummer des Verkäufers (cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID) wird nicht empfohlen, wenn das Steuerschema nicht VAT ist, da dies für Lieferanten in den Niederlanden nicht zutrifft.",
        ("BT-32",),
    ),
    "The use of the seller additional legal information field (cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyLegalForm) is not recommended, since this is not applicable for suppliers in the Netherlands": (
        "Die Angabe weiterer rechtlicher Informationen zum Verkäufer (cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyLegalForm) wird nicht empfohlen, da dies für Lieferanten in den Niederlanden nicht zutrifft.",
        ("BT-33",),
    ),
    "The use of the seller address line 3 (cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:AddressLine/cbc:Line) is not recommended": (
        "Die Angabe der Adresszeile 3 des Verkäufers (cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:AddressLine/cbc:Line) wird nicht empfohlen.",
        ("BT-162",),
    ),
    "The use of the customer address line 3 (cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cac:AddressLine/cbc:Line) is not recommended": (
        "Die Angabe der Adresszeile 3 des Käufers (cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cac:AddressLine/cbc:Line) wird nicht empfohlen.",
        ("BT-163",),
    ),
    "The use of the tax representative address line 3 (cac:TaxRepresentativePart/cac:PostalAddress/cac:AddressLine/cbc:Line) is not recommended": (
        "Die Angabe der Adresszeile 3 des Steuerbevollmächtigten (cac:TaxRepresentativeParty/cac:PostalAddress/cac:AddressLine/cbc:Line) wird nicht empfohlen.",
        ("BT-164",),
    ),
    "The use of the delivery address line 3 (cac:Delivery/cac:DeliveryLocation/cac:Address/cac:AddressLine/cbc:Line) is not recommended": (
        "Die Angabe der Adresszeile 3 der Lieferanschrift (cac:Delivery/cac:DeliveryLocation/cac:Address/cac:AddressLine/cbc:Line) wird nicht empfohlen.",
        ("BT-165",),
    ),
    "The use of a country subdivision (cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:CountrySubentity) is not recommended": (
        "Die Angabe einer Landesuntergliederung (cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:CountrySubentity) wird nicht empfohlen.",
        ("BT-39",),
    ),
    "The use of a country subdivision (cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cbc:CountrySubentity) is not recommended": (
        "Die Angabe einer Landesuntergliederung (cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cbc:CountrySubentity) wird nicht empfohlen.",
        ("BT-54",),
    ),
    "The use of a country subdivision (cac:TaxRepresentativePart/cac:PostalAddress/cbc:CountrySubentity) is not recommended": (
        "Die Angabe einer Landesuntergliederung (cac:TaxRepresentativeParty/cac:PostalAddress/cbc:CountrySubentity) wird nicht empfohlen.",
        ("BT-68",),
    ),
    "The use of a country subdivision (cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:CountrySubentity) is not recommended": (
        "Die Angabe einer Landesuntergliederung (cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:CountrySubentity) wird nicht empfohlen.",
        ("BT-79",),
    ),
    "The use of a payment means text (cac:PaymentMeans/cbc:PaymentMeansCode/@name) is not recommended": (
        "Die Angabe eines Textes zum Zahlungsmittel (cac:PaymentMeans/cbc:PaymentMeansCode/@name) wird nicht empfohlen.",
        ("BT-82",),
    ),
    "The use of a payment account name (cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:Name) is not recommended": (
        "Die Angabe eines Namens des Zahlungskontos (cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:Name) wird nicht empfohlen.",
        ("BT-85",),
    ),
    "The use of an allowance reason code (cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) is not recommended": (
        "Die Angabe eines Codes des Grundes für den Nachlass (cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) wird nicht empfohlen.",
        ("BT-98",),
    ),
    "The use of an allowance reason code (cac:InvoiceLine/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) is not recommended": (
        "Die Angabe eines Codes des Grundes für den Nachlass (cac:InvoiceLine/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) wird nicht empfohlen.",
        ("BT-140",),
    ),
    "The use of an allowance reason code (cac:CreditNoteLine/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) is not recommended": (
        "Die Angabe eines Codes des Grundes für den Nachlass (cac:CreditNoteLine/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) wird nicht empfohlen.",
        ("BT-140",),
    ),
    "The use of a charge reason code (cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) is not recommended": (
        "Die Angabe eines Codes des Grundes für den Zuschlag (cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) wird nicht empfohlen.",
        ("BT-105",),
    ),
    "The use of a charge reason code (cac:InvoiceLine/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) is not recommended": (
        "Die Angabe eines Codes des Grundes für den Zuschlag (cac:InvoiceLine/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) wird nicht empfohlen.",
        ("BT-145",),
    ),
    "The use of a charge reason code (cac:CreditNoteLine/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) is not recommended": (
        "Die Angabe eines Codes des Grundes für den Zuschlag (cac:CreditNoteLine/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode) wird nicht empfohlen.",
        ("BT-145",),
    ),
    "The use of a tax total in accounting currency (cac:TaxTotal/cbc:TaxAmount/@currencyID different than DocumentCurrencyCode) is not recommended": (
        "Die Angabe eines Gesamtbetrags der Umsatzsteuer in Abrechnungswährung (cac:TaxTotal/cbc:TaxAmount mit einem anderen @currencyID als DocumentCurrencyCode) wird nicht empfohlen.",
        ("BT-111",),
    ),
    "The use of a tax exemption reason code (cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode) is not recommended": (
        "Die Angabe eines Codes des Befreiungsgrunds (cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode) wird nicht empfohlen.",
        ("BT-121",),
    ),
    # --- NLCIUS-CII 1.0.3.13: the BR-NL rules ---
    "For suppliers in the Netherlands the supplier MUST provide either a KVK or OIN number for its legal entity identifier (ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID/@schemeID with schemeID 0106 or 0190)": (
        "Für Lieferanten in den Niederlanden muss die Kennung der rechtlichen Registrierung des Lieferanten eine KVK- oder OIN-Nummer sein (ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID/@schemeID mit schemeID 0106 oder 0190).",
        ("BT-30",),
    ),
    "For suppliers in the Netherlands, the invoice MUST contain either the buyer reference (ram:BuyerReference) or the order reference (ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID)": (
        "Für Lieferanten in den Niederlanden muss die Rechnung die Käuferreferenz (ram:BuyerReference) oder die Bestellnummer (ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID) enthalten.",
        ("BT-10", "BT-13"),
    ),
    "For suppliers in the Netherlands the supplier's address (ram:SellerTradeParty/PostalTradeAddres) MUST contain street name (ram:LineOne), city (ram:CityName) and postal zone (ram:PostcodeCode)": (
        "Für Lieferanten in den Niederlanden muss die Anschrift des Lieferanten (ram:SellerTradeParty/ram:PostalTradeAddress) Straße (ram:LineOne), Ort (ram:CityName) und Postleitzahl (ram:PostcodeCode) enthalten.",
        ("BG-5", "BT-35", "BT-37", "BT-38"),
    ),
    "For suppliers in the Netherlands, if the customer is in the Netherlands, the customer address (ram:BuyerTradeParty/PostalTradeAddres) MUST contain street name (ram:LineOne), city (ram:CityName) and postal zone (ram:PostcodeCode)": (
        "Für Lieferanten in den Niederlanden muss, wenn der Kunde in den Niederlanden ansässig ist, die Anschrift des Kunden (ram:BuyerTradeParty/ram:PostalTradeAddress) Straße (ram:LineOne), Ort (ram:CityName) und Postleitzahl (ram:PostcodeCode) enthalten.",
        ("BG-8", "BT-50", "BT-52", "BT-53"),
    ),
    "For suppliers in the Netherlands, if the fiscal representative is in the Netherlands, the representative's address (ram:SellerTaxRepresentativeTradeParty) MUST contain street name (ram:LineOne), city (ram:CityName) and postal zone": (
        "Für Lieferanten in den Niederlanden muss, wenn der Steuerbevollmächtigte in den Niederlanden ansässig ist, dessen Anschrift (ram:SellerTaxRepresentativeTradeParty) Straße (ram:LineOne), Ort (ram:CityName) und Postleitzahl enthalten.",
        ("BG-12", "BT-64", "BT-66", "BT-67"),
    ),
    "The invoice type code (ram:TypeCode) MUST have one of the following values: 380, 381, 384, 389": (
        "Der Code für den Rechnungstyp (ram:TypeCode) muss einen der folgenden Werte haben: 380, 381, 384, 389.",
        ("BT-3",),
    ),
    "For suppliers in the Netherlands, if the document is a corrective invoice (rsm:ExchangedDocument/ram:TypeCode = 384), the document MUST contain an invoice reference (/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:InvoiceReferencedDocument/ram:IssuerAssignedID)": (
        "Für Lieferanten in den Niederlanden muss eine korrigierte Rechnung (rsm:ExchangedDocument/ram:TypeCode = 384) eine Referenz auf die vorausgegangene Rechnung enthalten (/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:InvoiceReferencedDocument/ram:IssuerAssignedID).",
        ("BT-3", "BT-25"),
    ),
    "For suppliers in the Netherlands, if the customer is in the Netherlands, the customer's legal entity identifier (/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:SpecifiedLegalOrganization/ram:ID) MUST be either a KVK (schemeID=0106) or OIN number (schemeID=0190)": (
        "Für Lieferanten in den Niederlanden muss, wenn der Kunde in den Niederlanden ansässig ist, die Kennung der rechtlichen Registrierung des Kunden (/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:SpecifiedLegalOrganization/ram:ID) eine KVK-Nummer (schemeID=0106) oder eine OIN-Nummer (schemeID=0190) sein.",
        ("BT-47",),
    ),
    "For suppliers in the Netherlands, the supplier MUST provide a means of payment (rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementPaymentMeans) if the payment is from customer to supplier": (
        "Für Lieferanten in den Niederlanden muss der Lieferant ein Zahlungsmittel (rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementPaymentMeans) angeben, wenn die Zahlung vom Kunden an den Lieferanten geht.",
        ("BG-16",),
    ),
    "For suppliers in the Netherlands, the payment means code (ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode) MUST be one of 30, 48, 49, 57, 58 or 59": (
        "Für Lieferanten in den Niederlanden muss der Code für das Zahlungsmittel (ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode) einer der Werte 30, 48, 49, 57, 58 oder 59 sein.",
        ("BT-81",),
    ),
    "The use of a payment service provider identifier (ram:PayerSpecifiedDebtorFinancialInstitution/ram:BICID or ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID) is not recommended for SEPA payments (ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode = 58 or 59)": (
        "Die Angabe einer Kennung des Zahlungsdienstleisters (ram:PayerSpecifiedDebtorFinancialInstitution/ram:BICID oder ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID) wird bei SEPA-Zahlungen (ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode = 58 oder 59) nicht empfohlen.",
        ("BT-86", "BT-81"),
    ),
    "The use of a tax currency code (/*/ram:ApplicableHeaderTradeSettlement/ram:TaxCurrencyCode) is not recommended": (
        "Die Angabe eines Codes für die Umsatzsteuerwährung (/*/ram:ApplicableHeaderTradeSettlement/ram:TaxCurrencyCode) wird nicht empfohlen.",
        ("BT-6",),
    ),
    "The use of a tax point date (/*/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString) is not recommended, and its value will be ignored": (
        "Die Angabe eines Abrechnungsdatums der Umsatzsteuer (/*/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString) wird nicht empfohlen; ihr Wert wird nicht beachtet.",
        ("BT-7",),
    ),
    "The use of a tax point date code (/*/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:DueDateTypeCode) is not recommended, and its value will be ignored": (
        "Die Angabe eines Codes des Umsatzsteuer-Abrechnungsdatums (/*/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:DueDateTypeCode) wird nicht empfohlen; ihr Wert wird nicht beachtet.",
        ("BT-8",),
    ),
    "The use of an invoice note subject code (/rsm:ExchangedDocument/ram:IncludedNote/ram:SubjectCode) is not recommended. If deemed necessary the code shall be agreed upon with the receiving party.": (
        "Die Angabe eines Codes des Betreffs der Bemerkung zur Rechnung (/rsm:ExchangedDocument/ram:IncludedNote/ram:SubjectCode) wird nicht empfohlen. Ist er nötig, muss der Code mit dem Empfänger vereinbart werden.",
        ("BT-21",),
    ),
    # The official text names the invoice note subject code, its test the business process type (BT-23).
    "The use of an invoice note subject code (/*/rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID) is not recommended, unless desired by a particular network (such as PEPPOL)": (
        "Die Angabe des Elements /*/rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID (im Originaltext: Code des Betreffs der Bemerkung zur Rechnung) wird nicht empfohlen, außer ein bestimmtes Netzwerk (etwa PEPPOL) verlangt es.",
        ("BT-23",),
    ),
    "The use of a preceding invoice issue date (/*/ram:ApplicableHeaderTradeSettlement/ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString) is not recommended": (
        "Die Angabe des Ausstellungsdatums der vorausgegangenen Rechnung (/*/ram:ApplicableHeaderTradeSettlement/ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString) wird nicht empfohlen.",
        ("BT-26",),
    ),
    "The use of a seller tax registration identifier (/*/*/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID) is not recommended when the tax scheme is not VAT (VA), since this is not applicable to suppliers in the Netherlands": (
        "Die Angabe einer Steuernummer des Verkäufers (/*/*/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID) wird nicht empfohlen, wenn das Steuerschema nicht VAT (VA) ist, da dies für Lieferanten in den Niederlanden nicht zutrifft.",
        ("BT-32",),
    ),
    "The use of the seller additional legal information field (/*/*/am:SellerTradeParty/ram:Description) is not recommended, since this is not applicable for suppliers in the Netherlands": (
        "Die Angabe weiterer rechtlicher Informationen zum Verkäufer (/*/*/ram:SellerTradeParty/ram:Description) wird nicht empfohlen, da dies für Lieferanten in den Niederlanden nicht zutrifft.",
        ("BT-33",),
    ),
    "The use of the seller address line 3 (/*/*/ram:SellerTradeParty/ram:PostalTradeAddress/ram:LineThree) is not recommended, but allowed": (
        "Die Angabe der Adresszeile 3 des Verkäufers (/*/*/ram:SellerTradeParty/ram:PostalTradeAddress/ram:LineThree) wird nicht empfohlen, ist aber zulässig.",
        ("BT-162",),
    ),
    "The use of the customer address line 3 (/*/*/ram:BuyerTradeParty/ram:PostalTradeAddress/ram:LineThree) is not recommended, but allowed": (
        "Die Angabe der Adresszeile 3 des Käufers (/*/*/ram:BuyerTradeParty/ram:PostalTradeAddress/ram:LineThree) wird nicht empfohlen, ist aber zulässig.",
        ("BT-163",),
    ),
    "The use of the tax representative address line 3 (/*/*/ram:SellerTaxRepresentativeTradeParty/ram:PostalTradeAddress/ram:LineThree) is not recommended, but allowed": (
        "Die Angabe der Adresszeile 3 des Steuerbevollmächtigten (/*/*/ram:SellerTaxRepresentativeTradeParty/ram:PostalTradeAddress/ram:LineThree) wird nicht empfohlen, ist aber zulässig.",
        ("BT-164",),
    ),
    "The use of the delivery address line 3 (/*/*/ram:ShipToTradeParty/ram:PostalTradeAddress/ram:LineThree) is not recommended, but allowed": (
        "Die Angabe der Adresszeile 3 der Lieferanschrift (/*/*/ram:ShipToTradeParty/ram:PostalTradeAddress/ram:LineThree) wird nicht empfohlen, ist aber zulässig.",
        ("BT-165",),
    ),
    "The use of a country subdivision (/*/*/ram:SellerTradeParty/ram:PostalTradeAddress/ram:CountrySubDivisionName) is not recommended, but allowed": (
        "Die Angabe einer Landesuntergliederung (/*/*/ram:SellerTradeParty/ram:PostalTradeAddress/ram:CountrySubDivisionName) wird nicht empfohlen, ist aber zulässig.",
        ("BT-39",),
    ),
    "The use of a country subdivision (/*/*/ram:BuyerTradeParty/ram:PostalTradeAddress/ram:CountrySubDivisionName) is not recommended, but allowed": (
        "Die Angabe einer Landesuntergliederung (/*/*/ram:BuyerTradeParty/ram:PostalTradeAddress/ram:CountrySubDivisionName) wird nicht empfohlen, ist aber zulässig.",
        ("BT-54",),
    ),
    "The use of a country subdivision (/*/*/ram:SellerTaxRepresentativeTradeParty/ram:PostalTradeAddress/ram:CountrySubDivisionName) is not recommended, but allowed": (
        "Die Angabe einer Landesuntergliederung (/*/*/ram:SellerTaxRepresentativeTradeParty/ram:PostalTradeAddress/ram:CountrySubDivisionName) wird nicht empfohlen, ist aber zulässig.",
        ("BT-68",),
    ),
    "The use of a country subdivision (/*/*/ram:ShipToTradeParty/ram:PostalTradeAddress/ram:CountrySubDivisionName) is not recommended, but allowed": (
        "Die Angabe einer Landesuntergliederung (/*/*/ram:ShipToTradeParty/ram:PostalTradeAddress/ram:CountrySubDivisionName) wird nicht empfohlen, ist aber zulässig.",
        ("BT-79",),
    ),
    "The use of a payment means text (/*/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementPaymentMeans/ram:Information) is not recommended": (
        "Die Angabe eines Textes zum Zahlungsmittel (/*/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementPaymentMeans/ram:Information) wird nicht empfohlen.",
        ("BT-82",),
    ),
    "The use of a payment account name (/*/*/ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:AccountName) is not recommended": (
        "Die Angabe eines Namens des Zahlungskontos (/*/*/ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:AccountName) wird nicht empfohlen.",
        ("BT-85",),
    ),
    "/ [BR-NL-34] The use of an allowance reason code or charge reason code (ram:SpecifiedTradeAllowanceCharge/ram:ReasonCode) are not recommended, both on document level and on line level.": (
        "BR-NL-32 und BR-NL-34: Die Angabe eines Codes des Grundes für einen Nachlass oder Zuschlag (ram:SpecifiedTradeAllowanceCharge/ram:ReasonCode) wird weder auf Dokumenten- noch auf Positionsebene empfohlen.",
        ("BT-98", "BT-105", "BT-140", "BT-145"),
    ),
    "The use of a tax total in accounting currency (ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount@currencyID different than InvoiceCurrencyCode) is not recommended": (
        "Die Angabe eines Gesamtbetrags der Umsatzsteuer in Abrechnungswährung (ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount mit einem anderen @currencyID als InvoiceCurrencyCode) wird nicht empfohlen.",
        ("BT-111",),
    ),
    "The use of a tax exemption reason code (/*/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:ExemptionReasonCode) is not recommended": (
        "Die Angabe eines Codes des Befreiungsgrunds (/*/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:ExemptionReasonCode) wird nicht empfohlen.",
        ("BT-121",),
    ),
}

HAND.update(
    {
        # --- CIUS-PT 2.1.1: its business rules (BR-CIUS-PT) and its restatements of CEN's rules ---
        "Invoiced item VAT exemption reason text shall occur maximum once": (
            "Der Text des Befreiungsgrunds zum in Rechnung gestellten Artikel darf höchstens einmal vorkommen.",
            None,
        ),
        "If Additional Supporting Documents (BG-24) is used, the External document location (BT-124) or the Attached document (BT-125) shall be filled, or both.": (
            "Werden rechnungsbegründende Unterlagen (BG-24) angegeben, muss der Speicherort des externen Dokuments (BT-124) oder das angehängte Dokument (BT-125) angegeben sein, oder beide.",
            None,
        ),
        "The Buyer identifier (BT-46) shall be filled.": ("Die Kennung des Käufers (BT-46)" + _FILLED, None),
        "The Buyer trading name (BT-45) shall be filled.": ("Der Handelsname des Käufers (BT-45)" + _FILLED, None),
        "The Buyer contact point (BT-56) or the Buyer contact telephone number (BT-57) or the Buyer contact email address (BT-58) shall be filled.": (
            "Die Kontaktstelle des Käufers (BT-56), die Telefonnummer der Kontaktstelle des Käufers (BT-57) oder die E-Mail-Adresse der Kontaktstelle des Käufers (BT-58)"
            + _FILLED,
            None,
        ),
        "The Buyer address line 3 (BT-163) shall be filled.": (
            "Die Adresszeile 3 des Käufers (BT-163)" + _FILLED,
            None,
        ),
        "The Contract reference (BT-12) shall be filled.": ("Die Vertragsnummer (BT-12)" + _FILLED, None),
        "The Deliver to party name (BT-70) shall be filled.": (
            "Der Name des Empfängers der Lieferung (BT-70)" + _FILLED,
            None,
        ),
        "The Actual delivery date (BT-72) or the Deliver to location identifier (BT-71) or the Deliver to Address (BG-15) or the Deliver to party name (BT-70) shall be filled.": (
            "Das tatsächliche Lieferdatum (BT-72), die Kennung des Lieferorts (BT-71), die Lieferanschrift (BG-15) oder der Name des Empfängers der Lieferung (BT-70)"
            + _FILLED,
            None,
        ),
        # CIUS-PT names the deliver-to terms "Seller ..." in these three: the BT ids are those of the delivery address.
        "Each Deliver to address (BG-15) shall contain a Seller address line 1 (BT-75).": (
            "Jede Lieferanschrift (BG-15) muss eine Adresszeile 1 der Lieferanschrift (BT-75) enthalten.",
            None,
        ),
        "Each Deliver to address (BG-15) shall contain a Seller city (BT-77).": (
            "Jede Lieferanschrift (BG-15) muss einen Ort der Lieferanschrift (BT-77) enthalten.",
            None,
        ),
        "Each Deliver to address (BG-15) shall contain a Seller post code (BT-78).": (
            "Jede Lieferanschrift (BG-15) muss eine Postleitzahl der Lieferanschrift (BT-78) enthalten.",
            None,
        ),
        "The Deliver to address line 3 (BT-165) shall be filled.": (
            "Die Adresszeile 3 der Lieferanschrift (BT-165)" + _FILLED,
            None,
        ),
        "The Despatch advice reference (BT-16) shall be filled.": (
            "Die Kennung der Versandanzeige (BT-16)" + _FILLED,
            None,
        ),
        "Each Document level allowance (BG-20) shall have a tax scheme.": (
            "Jeder Nachlass auf Dokumentenebene (BG-20) muss ein Steuerschema enthalten.",
            None,
        ),
        "Each Document level charge (BG-21) shall have a tax scheme.": (
            "Jeder Zuschlag auf Dokumentenebene (BG-21) muss ein Steuerschema enthalten.",
            None,
        ),
        "If Document Level Allowances (BG-20) is used, the Sum of allowances on document level (BT-107) shall be filled.": (
            "Werden Nachlässe auf Dokumentenebene (BG-20) angegeben, muss die Summe der Nachlässe auf Dokumentenebene (BT-107) angegeben sein.",
            None,
        ),
        "If Document Level Charges (BG-21) is used, the Sum of charges on document level (BT-108) shall be filled.": (
            "Werden Zuschläge auf Dokumentenebene (BG-21) angegeben, muss die Summe der Zuschläge auf Dokumentenebene (BT-108) angegeben sein.",
            None,
        ),
        "An Invoice shall contain the Seller VAT identifier (BT-31).": (
            "Eine Rechnung muss die Umsatzsteuer-Identifikationsnummer des Verkäufers (BT-31) enthalten.",
            None,
        ),
        "An Invoice shall contain the Seller VAT tax scheme (VAT).": (
            "Eine Rechnung muss das Umsatzsteuerschema des Verkäufers (VAT) enthalten.",
            ("BT-31",),
        ),
        "An Invoice shall contain the Buyer VAT identifier (BT-48).": (
            "Eine Rechnung muss die Umsatzsteuer-Identifikationsnummer des Käufers (BT-48) enthalten.",
            None,
        ),
        "An Invoice shall contain the Buyer VAT tax scheme (VAT).": (
            "Eine Rechnung muss das Umsatzsteuerschema des Käufers (VAT) enthalten.",
            ("BT-48",),
        ),
        "An Invoice shall contain the Document Totals (BG-22).": (
            "Eine Rechnung muss die Gesamtbeträge des Dokuments (BG-22) enthalten.",
            None,
        ),
        "An Invoice shall contain the Total VAT amount (BT-110).": (
            "Eine Rechnung muss den Gesamtbetrag der Umsatzsteuer (BT-110) enthalten.",
            None,
        ),
        "A Credit Note shall contain the Preceding Invoice Reference (BG-3).": (
            "Eine Gutschrift muss eine Referenz auf eine vorausgegangene Rechnung (BG-3) enthalten.",
            None,
        ),
        "An Invoice with type code equal to 383 or ND shall contain the Preceding Invoice Reference (BG-3).": (
            "Eine Rechnung mit dem Typcode 383 oder ND muss eine Referenz auf eine vorausgegangene Rechnung (BG-3) enthalten.",
            ("BT-3", "BG-3"),
        ),
        "An Invoice shall at least have one Deliver to address group (BG-15).": (
            "Eine Rechnung muss mindestens eine Lieferanschrift (BG-15) enthalten.",
            None,
        ),
        "Each Invoice line (BG-25) shall have a tax scheme.": (
            "Jede Rechnungsposition (BG-25) muss ein Steuerschema enthalten.",
            None,
        ),
        "The Referenced purchase order line reference (BT-132) shall be filled.": (
            "Die Referenz zur Bestellposition (BT-132)" + _FILLED,
            None,
        ),
        "The Invoice line object identifier (BT-128) shall be filled.": (
            "Die Objektkennung der Rechnungsposition (BT-128)" + _FILLED,
            None,
        ),
        "Invoice line charge reason code (BT-145) and Invoice line charge reason (BT144) shall indicate the same type of charge reason.": (
            "Der Code des Grundes für den Zuschlag auf Ebene der Rechnungsposition (BT-145) und der Grund für den Zuschlag auf Ebene der Rechnungsposition (BT144) müssen dieselbe Art von Zuschlagsgrund bezeichnen.",
            ("BT-145", "BT-144"),
        ),
        "The Item Buyer's identifier (BT-156) shall be filled.": (
            "Die Artikelnummer des Käufers (BT-156)" + _FILLED,
            None,
        ),
        "The Item Seller's identifier (BT-155) shall be filled.": (
            "Die Artikelnummer des Verkäufers (BT-155)" + _FILLED,
            None,
        ),
        "The Item standard identifier (BT-157) shall be filled.": (
            "Die standardisierte Artikelkennung (BT-157)" + _FILLED,
            None,
        ),
        "The Item country of origin (BT-159) shall be filled.": (
            "Das Ursprungsland des Artikels (BT-159)" + _FILLED,
            None,
        ),
        "The Item classification identifier (BT-158) shall be filled.": (
            "Der Code der Artikelklassifizierung (BT-158)" + _FILLED,
            None,
        ),
        # CIUS-PT carries the exemption reason of a line in an item attribute (BT-160, cf. DT-CIUS-PT-139).
        'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Exempt from VAT" shall have a VAT exemption reason code (BT-160) or VAT exemption reason text (BT-160).': (
            'Eine Rechnungsposition (BG-25), deren Code der Umsatzsteuerkategorie des in Rechnung gestellten Artikels (BT-151) "Steuerbefreit" lautet, muss einen Code oder Text des Befreiungsgrunds (als Artikelattribut, BT-160) enthalten.',
            None,
        ),
        'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Lower rate" shall not have a VAT exemption reason code (BT-160) or VAT exemption reason text (BT-160).': (
            'Eine Rechnungsposition (BG-25), deren Code der Umsatzsteuerkategorie des in Rechnung gestellten Artikels (BT-151) "ermäßigter Satz" lautet, darf weder einen Code noch einen Text des Befreiungsgrunds (als Artikelattribut, BT-160) enthalten.',
            None,
        ),
        'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Standard rated" shall not have a VAT exemption reason code (BT-160) or VAT exemption reason text (BT-160).': (
            'Eine Rechnungsposition (BG-25), deren Code der Umsatzsteuerkategorie des in Rechnung gestellten Artikels (BT-151) "Normalsatz" lautet, darf weder einen Code noch einen Text des Befreiungsgrunds (als Artikelattribut, BT-160) enthalten.',
            None,
        ),
        "The Item price charge are not allowed at the Price Details (BG-29).": (
            "Zuschläge auf den Artikelpreis sind in den Preisdetails (BG-29) nicht zulässig.",
            None,
        ),
        "The Item price discount (BT-147) shall be filled.": (
            "Der Rabatt auf den Artikelpreis (BT-147)" + _FILLED,
            None,
        ),
        "The Purchase order reference (BT-13) or the Sales order reference (BT-14) shall be filled, or both.": (
            "Die Bestellnummer (BT-13) oder die Auftragsnummer (BT-14) muss angegeben sein, oder beide.",
            None,
        ),
        "The Tender or lot reference (BT-17) shall be filled.": ("Die Vergabe- oder Losnummer (BT-17)" + _FILLED, None),
        "The Payee name (BT-59) shall be filled.": ("Der Name des Zahlungsempfängers (BT-59)" + _FILLED, None),
        "The Payee identifier (BT-60) or the Bank assigned creditor identifier (BT-90) shall be filled.": (
            "Die Kennung des Zahlungsempfängers (BT-60) oder die Gläubiger-Identifikationsnummer (BT-90)" + _FILLED,
            None,
        ),
        "The Payee legal registration identifier (BT-61) shall be filled.": (
            "Die Kennung der rechtlichen Registrierung des Zahlungsempfängers (BT-61)" + _FILLED,
            None,
        ),
        "The Payment account identifier (BT-84) or the Payment account name (BT-85) or the Payment service provider identifier (BT-86) shall be filled.": (
            "Die Kennung des Zahlungskontos (BT-84), der Name des Zahlungskontos (BT-85) oder die Kennung des Zahlungsdienstleisters (BT-86)"
            + _FILLED,
            None,
        ),
        "The Payment service provider identifier (BT-86) shall be filled.": (
            "Die Kennung des Zahlungsdienstleisters (BT-86)" + _FILLED,
            None,
        ),
        "The Mandate reference identifier (BT-89) or the Debited account identifier (BT-91) shall be filled.": (
            "Die Kennung der Mandatsreferenz (BT-89) oder die Kennung des zu belastenden Kontos (BT-91)" + _FILLED,
            None,
        ),
        "The Debited account identifier (BT-91) shall be filled.": (
            "Die Kennung des zu belastenden Kontos (BT-91)" + _FILLED,
            None,
        ),
        "The Payment card primary account number (BT-87) and the card Network identifier shall be filled.": (
            "Die primäre Kontonummer der Zahlungskarte (BT-87) und die Kennung des Kartennetzwerks müssen angegeben sein.",
            None,
        ),
        "The Payment terms (BT-20) shall be filled.": ("Die Zahlungsbedingungen (BT-20) müssen angegeben sein.", None),
        "The Project reference (BT-11) shall be filled.": ("Die Projektreferenz (BT-11)" + _FILLED, None),
        "The Receiving advice reference (BT-15) shall be filled.": (
            "Die Kennung der Empfangsbestätigung (BT-15)" + _FILLED,
            None,
        ),
        "The Seller identifier (BT-29) or the Bank assigned creditor identifier (BT-90) shall be filled.": (
            "Die Kennung des Verkäufers (BT-29) oder die Gläubiger-Identifikationsnummer (BT-90)" + _FILLED,
            None,
        ),
        "The Seller trading name (BT-28) shall be filled.": ("Der Handelsname des Verkäufers (BT-28)" + _FILLED, None),
        "The Seller contact point (BT-41) or the Seller contact telephone number (BT-42) or the Seller contact email address (BT-43) shall be filled.": (
            "Die Kontaktstelle des Verkäufers (BT-41), die Telefonnummer der Kontaktstelle des Verkäufers (BT-42) oder die E-Mail-Adresse der Kontaktstelle des Verkäufers (BT-43)"
            + _FILLED,
            None,
        ),
        "The Seller postal address (BG-5) shall contain a Seller address line 1 (BT-35).": (
            "Die Postanschrift des Verkäufers (BG-5) muss eine Adresszeile 1 des Verkäufers (BT-35) enthalten.",
            None,
        ),
        "The Seller postal address (BG-5) shall contain a Seller city (BT-37).": (
            "Die Postanschrift des Verkäufers (BG-5) muss einen Ort des Verkäufers (BT-37) enthalten.",
            None,
        ),
        "The Seller postal address (BG-5) shall contain a Seller post code (BT-38).": (
            "Die Postanschrift des Verkäufers (BG-5) muss eine Postleitzahl des Verkäufers (BT-38) enthalten.",
            None,
        ),
        "The Seller address line 3 (BT-162) shall be filled.": (
            "Die Adresszeile 3 des Verkäufers (BT-162)" + _FILLED,
            None,
        ),
        "The Tax representative address line 3 (BT-164) shall be filled.": (
            "Die Adresszeile 3 des Steuerbevollmächtigten (BT-164)" + _FILLED,
            None,
        ),
        "Each VATBReakdown (BG-23) shall have a VAT category rate (BT-119).": (
            "Jede Umsatzsteueraufschlüsselung (BG-23) muss einen Umsatzsteuersatz der Umsatzsteuerkategorie (BT-119) enthalten.",
            None,
        ),
        "Each VATBReakdown (BG-23) shall have a tax scheme.": (
            "Jede Umsatzsteueraufschlüsselung (BG-23) muss ein Steuerschema enthalten.",
            None,
        ),
        'A VATBReakdown (BG-23) with VAT Category code (BT-118) "Lower rate" the VAT category rate (BT-119) shall be greater than zero.': (
            'In einer Umsatzsteueraufschlüsselung (BG-23) mit dem Code der Umsatzsteuerkategorie (BT-118) "ermäßigter Satz" muss der Umsatzsteuersatz der Umsatzsteuerkategorie (BT-119) größer als null sein.',
            None,
        ),
        'A VATBReakdown (BG-23) with VAT Category code (BT-118) "Standard rate" the VAT category rate (BT-119) shall be greater than zero.': (
            'In einer Umsatzsteueraufschlüsselung (BG-23) mit dem Code der Umsatzsteuerkategorie (BT-118) "Normalsatz" muss der Umsatzsteuersatz der Umsatzsteuerkategorie (BT-119) größer als null sein.',
            None,
        ),
        'A VATBReakdown (BG-23) with VAT Category code (BT-118) "Exempt from VAT" the VAT category rate (BT-119) shall be 0 (zero).': (
            'In einer Umsatzsteueraufschlüsselung (BG-23) mit dem Code der Umsatzsteuerkategorie (BT-118) "Steuerbefreit" muss der Umsatzsteuersatz der Umsatzsteuerkategorie (BT-119) 0 (null) sein.',
            None,
        ),
        'In a Line VAT Information (BG-30) where the Invoiced item VAT category code (BT-151) is "Lower rate" the Invoiced item VAT rate (BT-152) shall be greater than zero.': (
            'In den Umsatzsteuerinformationen einer Rechnungsposition (BG-30) mit dem Code der Umsatzsteuerkategorie des in Rechnung gestellten Artikels (BT-151) "ermäßigter Satz" muss der Umsatzsteuersatz des in Rechnung gestellten Artikels (BT-152) größer als null sein.',
            None,
        ),
        # --- CIUS-PT 2.1.1: data-type rules (DT-CIUS-PT) the templates do not cover ---
        "The BT-3 only allows the following values: 380, 383, 386, 389, FT, FS, FR, ND, RP, RE, CS, LD, RA.": (
            "BT-3 lässt nur die folgenden Werte zu: 380, 383, 386, 389, FT, FS, FR, ND, RP, RE, CS, LD, RA.",
            None,
        ),
        "The BT-3 only allows the following values: 381, NC.": (
            "BT-3 lässt nur die folgenden Werte zu: 381, NC.",
            None,
        ),
        "The BT-8 only allows the following values: 3, 35, 432.": (
            "BT-8 lässt nur die folgenden Werte zu: 3, 35, 432.",
            None,
        ),
        "The BT-18 and BT-122 identification scheme identifier MUST be coded using a restriction of UNTDID 1153.": (
            "Die Kennung des Identifikationsschemas von BT-18 und BT-122 muss aus einer Teilmenge von UNTDID 1153 stammen.",
            None,
        ),
        "The Document type code only allows the following values: 130.": (
            "Der Dokumenttypcode lässt nur den Wert 130 zu.",
            ("BT-18",),
        ),
        "The BT-22 when prefixed with '#SOURCECURRENCYCODE#', MUST be coded using ISO code list 4217 alpha-3.": (
            "BT-22 mit dem Präfix '#SOURCECURRENCYCODE#' muss nach der ISO-Codeliste 4217 alpha-3 codiert sein.",
            None,
        ),
        "The BT-22 when prefixed with '#SOURCECURRENCYCODE#', is mandatory if an element with the prefix '#CALCULATIONRATE#' has been or will be referenced.": (
            "BT-22 mit dem Präfix '#SOURCECURRENCYCODE#' ist Pflicht, wenn ein Element mit dem Präfix '#CALCULATIONRATE#' angegeben ist.",
            None,
        ),
        "The BT-22 when prefixed with '#CALCULATIONRATE#', is mandatory if an element with the prefix '#SOURCECURRENCYCODE#' has been or will be referenced.": (
            "BT-22 mit dem Präfix '#CALCULATIONRATE#' ist Pflicht, wenn ein Element mit dem Präfix '#SOURCECURRENCYCODE#' angegeben ist.",
            None,
        ),
        "The BT-22 when prefixed with '#ADDITIONALPROPERTY#', have to meet the defined format for name: alphanumeric with size between 1 and 50.": (
            "BT-22 mit dem Präfix '#ADDITIONALPROPERTY#' muss für den Namen dem vorgegebenen Format entsprechen: alphanumerisch mit einer Länge von 1 bis 50 Zeichen.",
            None,
        ),
        "The BT-22 when prefixed with '#ADDITIONALPROPERTY#', have to meet the defined format for value: alphanumeric with size between 1 and 50.": (
            "BT-22 mit dem Präfix '#ADDITIONALPROPERTY#' muss für den Wert dem vorgegebenen Format entsprechen: alphanumerisch mit einer Länge von 1 bis 50 Zeichen.",
            None,
        ),
        "The BT-22 does not meet the defined format: it is mandatory to prefix the value with the following '#ADDITIONALPROPERTY#' and suffice with '#'. The value must consist of a first part for the name, separated by \"#\", and for a second part for the value.": (
            "BT-22 entspricht nicht dem vorgegebenen Format: Der Wert muss mit '#ADDITIONALPROPERTY#' beginnen und mit '#' enden. Er besteht aus einem ersten Teil für den Namen und, durch \"#\" getrennt, einem zweiten Teil für den Wert.",
            None,
        ),
        "The BT-22 when prefixed with '#NUMBER@ATCERTIFIEDPROGRAM#', is mandatory if an element with the prefix '#HASHCODE@ATCERTIFIEDPROGRAM#' or '#DESCRIPTION@ATCERTIFIEDPROGRAM#' has been or will be referenced.": (
            "BT-22 mit dem Präfix '#NUMBER@ATCERTIFIEDPROGRAM#' ist Pflicht, wenn ein Element mit dem Präfix '#HASHCODE@ATCERTIFIEDPROGRAM#' oder '#DESCRIPTION@ATCERTIFIEDPROGRAM#' angegeben ist.",
            None,
        ),
        "The BT-22 when prefixed with '#HASHCODE@ATCERTIFIEDPROGRAM#', is mandatory if an element with the prefix '#NUMBER@ATCERTIFIEDPROGRAM#' or '#DESCRIPTION@ATCERTIFIEDPROGRAM#' has been or will be referenced.": (
            "BT-22 mit dem Präfix '#HASHCODE@ATCERTIFIEDPROGRAM#' ist Pflicht, wenn ein Element mit dem Präfix '#NUMBER@ATCERTIFIEDPROGRAM#' oder '#DESCRIPTION@ATCERTIFIEDPROGRAM#' angegeben ist.",
            None,
        ),
        "The BT-24 only allows the following value: urn:cen.eu:en16931:2017#compliant#urn:feap.gov.pt:CIUS-PT: followed by the version identifier.": (
            "BT-24 lässt nur den Wert urn:cen.eu:en16931:2017#compliant#urn:feap.gov.pt:CIUS-PT: gefolgt von der Versionskennung zu.",
            None,
        ),
        "The BT-29 and BT-90 identification scheme identifier must be coded using one of the ISO 6523 ICD list or SEPA.": (
            "Die Kennung des Identifikationsschemas von BT-29 und BT-90 muss aus der Liste ISO 6523 ICD stammen oder SEPA sein.",
            None,
        ),
        "The BT-60 and BT-90 identification scheme identifier MUST be coded using one of the ISO 6523 ICD list or SEPA.": (
            "Die Kennung des Identifikationsschemas von BT-60 und BT-90 muss aus der Liste ISO 6523 ICD stammen oder SEPA sein.",
            None,
        ),
        "The BT-81 must be coded using UNCL4461 code list or the following values: CC, CD, CH, CI, CO, CS, DE, LC, MB, NU, OU, PR, TB, TR.": (
            "BT-81 muss aus der Codeliste UNCL4461 stammen oder einer der folgenden Werte sein: CC, CD, CH, CI, CO, CS, DE, LC, MB, NU, OU, PR, TB, TR.",
            None,
        ),
        "The BT-82 identification name does not meet the defined format: alphanumeric with size between 1 and 150.": (
            "Der Name in BT-82 entspricht nicht dem vorgegebenen Format: alphanumerisch mit einer Länge von 1 bis 150 Zeichen.",
            None,
        ),
        "The BT-83 does not meet the defined format: it is mandatory to prefix the value with the following '#REFERENCE@ATMPAYMENT#' or '#REFERENCE@DUCPAYMENT#' and suffice with '#'.": (
            "BT-83 entspricht nicht dem vorgegebenen Format: Der Wert muss mit '#REFERENCE@ATMPAYMENT#' oder '#REFERENCE@DUCPAYMENT#' beginnen und mit '#' enden.",
            None,
        ),
        "The Network identifier does not meet the defined format: alphanumeric with size between 1 and 200.": (
            "Die Kennung des Kartennetzwerks entspricht nicht dem vorgegebenen Format: alphanumerisch mit einer Länge von 1 bis 200 Zeichen.",
            ("BG-18",),
        ),
        "The Invoice allowance (BG-20) and/or charge (BG-21) tax scheme should be coded using a restriction of UN/ECE 5153.": (
            "Das Steuerschema der Nachlässe (BG-20) und Zuschläge (BG-21) auf Dokumentenebene sollte aus einer Teilmenge von UN/ECE 5153 stammen.",
            None,
        ),
        "The VATBReakdown (BG-23) tax scheme should be coded using a restriction of UN/ECE 5153.": (
            "Das Steuerschema der Umsatzsteueraufschlüsselung (BG-23) sollte aus einer Teilmenge von UN/ECE 5153 stammen.",
            None,
        ),
        "The Invoice line (BG-25) tax scheme should be coded using a restriction of UN/ECE 5153.": (
            "Das Steuerschema der Rechnungsposition (BG-25) sollte aus einer Teilmenge von UN/ECE 5153 stammen.",
            None,
        ),
        "The BT-125 does not meet the defined format: the maximum size per file is 5 Mb.": (
            "BT-125 entspricht nicht dem vorgegebenen Format: Eine Datei darf höchstens 5 MB groß sein.",
            None,
        ),
        "The BT-126 value must be unique.": ("Der Wert von BT-126 muss eindeutig sein.", None),
        "The BT-128 identification scheme identifier MUST be coded using a restriction of UNTDID 1153.": (
            "Die Kennung des Identifikationsschemas von BT-128 muss aus einer Teilmenge von UNTDID 1153 stammen.",
            None,
        ),
        "The BT-157 identifier scheme identifier MUST belong to the ISO 6523 ICD code list.": (
            "Die Kennung des Identifikationsschemas von BT-157 muss aus der Codeliste ISO 6523 ICD stammen.",
            None,
        ),
        "The BT-158 identification list must be coded using one of the UNTDID 7143 list.": (
            "Die Kennung der Klassifizierungsliste von BT-158 muss aus der Liste UNTDID 7143 stammen.",
            None,
        ),
        "The BT-158 identification list version identifier does not meet the defined format: alphanumeric with size between 1 and 20.": (
            "Die Versionskennung der Klassifizierungsliste von BT-158 entspricht nicht dem vorgegebenen Format: alphanumerisch mit einer Länge von 1 bis 20 Zeichen.",
            None,
        ),
        "The BT-160 does not meet the defined format: it is mandatory to fill out with '#ID@INVOICEDOCUMENTREFERENCE@BILLINGREFERENCE-000#'. The sub-suffix \"-000\" must be used as a group of elements.": (
            "BT-160 entspricht nicht dem vorgegebenen Format: Der Wert muss '#ID@INVOICEDOCUMENTREFERENCE@BILLINGREFERENCE-000#' lauten. Das Suffix „-000“ muss für eine Gruppe von Elementen verwendet werden.",
            None,
        ),
        "The BT-160 when fill out with '#TAXEXEMPTIONREASONCODE@CLASSIFIEDTAXCATEGORY#', can only exist once.": (
            "BT-160 mit dem Wert '#TAXEXEMPTIONREASONCODE@CLASSIFIEDTAXCATEGORY#' darf nur einmal vorkommen.",
            None,
        ),
        "The BT-160 when fill out with '#TAXEXEMPTIONREASON@CLASSIFIEDTAXCATEGORY#', can only exist once.": (
            "BT-160 mit dem Wert '#TAXEXEMPTIONREASON@CLASSIFIEDTAXCATEGORY#' darf nur einmal vorkommen.",
            None,
        ),
        "The BT-160 when fill out with '#LINEID@COMMITMENTLINEREFERENCE#', can only exist once.": (
            "BT-160 mit dem Wert '#LINEID@COMMITMENTLINEREFERENCE#' darf nur einmal vorkommen.",
            None,
        ),
        'An Invoice that contains Invoice lines (BG-25) with diferent VAT exemption reason codes, where the VAT category code (BT-151) is “Exempt from VAT”, shall contain exactly one VATBReakdown (BG-23) with the VAT category code (BT-118) equal to "Exempt from VAT", for each VAT exemption reason code (BT-121).': (
            'Eine Rechnung mit Rechnungspositionen (BG-25) mit unterschiedlichen Codes des Befreiungsgrunds, deren Code der Umsatzsteuerkategorie (BT-151) "Steuerbefreit" lautet, muss für jeden Code des Befreiungsgrunds (BT-121) genau eine Umsatzsteueraufschlüsselung (BG-23) mit dem Code der Umsatzsteuerkategorie (BT-118) "Steuerbefreit" enthalten.',
            None,
        ),
        "The BT-131 must equal the multiplication between the quantity (InvoicedQuantity) and the price (PriceAmount) divided by the base quantity (BaseQuantity) subtracted by the sum of the discounts and added the sum of the charges of the line, with an acceptance range of 1.00 € (it does not mean that this tolerance is accepted by the customer).": (
            "BT-131 muss der Menge (InvoicedQuantity) mal dem Preis (PriceAmount), geteilt durch die Basismenge (BaseQuantity), abzüglich der Summe der Nachlässe und zuzüglich der Summe der Zuschläge der Position entsprechen, mit einer Toleranz von 1,00 € (was nicht heißt, dass der Kunde diese Toleranz akzeptiert).",
            None,
        ),
        "The Item price base quantity (BT-149) shall be greater than zero.": (
            "Die Basismenge zum Artikelpreis (BT-149) muss größer als null sein.",
            None,
        ),
        "The BT-99 must equal the multiplication between the Document level charge base amount (BT-100) and the Document level charge percentage (BT-101), with an acceptance range of 1.00 € (it does not mean that this tolerance is accepted by the customer).": (
            "BT-99 muss dem Grundbetrag des Zuschlags auf Dokumentenebene (BT-100) mal dem Prozentsatz des Zuschlags auf Dokumentenebene (BT-101) entsprechen, mit einer Toleranz von 1,00 € (was nicht heißt, dass der Kunde diese Toleranz akzeptiert).",
            None,
        ),
        "The BT-92 must equal the multiplication between the Document level allowance base amount (BT-93) and the Document level allowance percentage (BT-94), with an acceptance range of 1.00 € (it does not mean that this tolerance is accepted by the customer).": (
            "BT-92 muss dem Grundbetrag des Nachlasses auf Dokumentenebene (BT-93) mal dem Prozentsatz des Nachlasses auf Dokumentenebene (BT-94) entsprechen, mit einer Toleranz von 1,00 € (was nicht heißt, dass der Kunde diese Toleranz akzeptiert).",
            None,
        ),
        "The BT-141 must equal the multiplication between the Invoice line charge base amount (BT-142) and the Invoice line charge percentage (BT-143), with an acceptance range of 1.00 € (it does not mean that this tolerance is accepted by the customer).": (
            "BT-141 muss dem Grundbetrag des Zuschlags auf Ebene der Rechnungsposition (BT-142) mal dem Prozentsatz des Zuschlags auf Ebene der Rechnungsposition (BT-143) entsprechen, mit einer Toleranz von 1,00 € (was nicht heißt, dass der Kunde diese Toleranz akzeptiert).",
            None,
        ),
        "The BT-136 must equal the multiplication between the Invoice line allowance base amount (BT-137) and the Invoice line allowance percentage (BT-138), with an acceptance range of 1.00 € (it does not mean that this tolerance is accepted by the customer).": (
            "BT-136 muss dem Grundbetrag des Nachlasses auf Ebene der Rechnungsposition (BT-137) mal dem Prozentsatz des Nachlasses auf Ebene der Rechnungsposition (BT-138) entsprechen, mit einer Toleranz von 1,00 € (was nicht heißt, dass der Kunde diese Toleranz akzeptiert).",
            None,
        ),
        "The BT-146 must equal the grossPrice (Item gross price) minus the discount (Item price discount), with an acceptance range of 1.00 € (it does not mean that this tolerance is accepted by the customer).": (
            "BT-146 muss dem Bruttopreis des Artikels abzüglich des Rabatts auf den Artikelpreis entsprechen, mit einer Toleranz von 1,00 € (was nicht heißt, dass der Kunde diese Toleranz akzeptiert).",
            ("BT-146", "BT-148", "BT-147"),
        ),
        "VAT category tax amount (BT-117) = VAT category taxable amount (BT-116) x (VAT category rate (BT-119) / 100), rounded to two decimals and with an acceptance range of 1.00 € (it does not mean that this tolerance is accepted by the customer).": (
            "Umsatzsteuerbetrag der Umsatzsteuerkategorie (BT-117) = Steuerbasisbetrag der Umsatzsteuerkategorie (BT-116) x (Umsatzsteuersatz der Umsatzsteuerkategorie (BT-119) / 100), auf zwei Nachkommastellen gerundet und mit einer Toleranz von 1,00 € (was nicht heißt, dass der Kunde diese Toleranz akzeptiert).",
            None,
        ),
        # --- UBL.BE 1.31: its own rules (ubl-BE) and its texts of CEN's and Peppol's rules ---
        "The last 4 to 6 digits of the Payment card primary account number (BT-87) shall be present if Payment card information (BG-18) is provided in the Invoice.": (
            "Werden Informationen zur Zahlungskarte (BG-18) angegeben, müssen die letzten 4 bis 6 Ziffern der primären Kontonummer der Zahlungskarte (BT-87) vorhanden sein.",
            None,
        ),
        "A ubl invoice should not include the AdditionalDocumentReference ID schemeID unless the ID equals '130'": (
            "Eine UBL-Rechnung sollte das Attribut schemeID des Elements AdditionalDocumentReference/ID nur enthalten, wenn die ID '130' ist.",
            None,
        ),
        "A ubl invoice shall not include the AdditionalDocumentReference referring to an Invoice Object Identifier should not include an Attachment": (
            "Eine UBL-Rechnung darf kein Element AdditionalDocumentReference enthalten, das auf eine Objektkennung der Rechnung verweist und einen Anhang (Attachment) hat.",
            ("BT-18",),
        ),
        "Payment ID shall occur maximum once": (
            "Die Verwendungszweck-Kennung (PaymentID) darf höchstens einmal vorkommen.",
            ("BT-83",),
        ),
        "Business process MUST be in the format 'urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0' where NN indicates the process number.": (
            "Der Geschäftsprozesstyp muss das Format 'urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0' haben, wobei NN die Prozessnummer ist.",
            ("BT-23",),
        ),
        "No more than one note is allowed on document level.": (
            "Auf Dokumentenebene ist höchstens eine Bemerkung zulässig.",
            ("BT-22",),
        ),
        "Specification identifier MUST have the value 'urn:cen.eu:en16931:2017#conformant#urn:UBL.BE:1.0.0.20180214'.": (
            "Die Spezifikationskennung muss den Wert 'urn:cen.eu:en16931:2017#conformant#urn:UBL.BE:1.0.0.20180214' haben.",
            ("BT-24",),
        ),
        "Only one invoiced object is allowed on document level": (
            "Auf Dokumentenebene ist nur eine Objektkennung der Rechnung zulässig.",
            ("BT-18",),
        ),
        "For Danish Suppliers, if specified, AccountingSupplierParty/PartyTaxScheme/CompanyID (DK VAT number) must start with DK followed by 8 digits": (
            "Bei dänischen Lieferanten muss AccountingSupplierParty/PartyTaxScheme/CompanyID (dänische USt-IdNr.), falls angegeben, mit DK gefolgt von 8 Ziffern beginnen.",
            ("BT-31",),
        ),
        "For Danish Suppliers PaymentID is mandatory and MUST start with 01#, 04# or 15# (kortartkode), and PayeeFinancialAccount/ID (Giro kontonummer) is mandatory and must be 7 characters long, when payment means equals 50 (Giro)": (
            "Bei dänischen Lieferanten sind bei Zahlungsmittel 50 (Giro) die PaymentID, die mit 01#, 04# oder 15# (kortartkode) beginnen muss, und PayeeFinancialAccount/ID (Giro-Kontonummer) mit genau 7 Zeichen Pflicht.",
            ("BT-81", "BT-83", "BT-84"),
        ),
        "For Danish Suppliers the PaymentID is mandatory and MUST start with 71#, 73# or 75# (kortartkode) and PayeeFinancialAccount/ID (Kreditornummer) is mandatory and must be exactly 8 characters long, when Payment means equals 93 (FIK)": (
            "Bei dänischen Lieferanten sind bei Zahlungsmittel 93 (FIK) die PaymentID, die mit 71#, 73# oder 75# (kortartkode) beginnen muss, und PayeeFinancialAccount/ID (Kreditornummer) mit genau 8 Zeichen Pflicht.",
            ("BT-81", "BT-83", "BT-84"),
        ),
        "If ItemClassification is provided from Danish suppliers, UNSPSC version 19.0501 should be used.": (
            "Geben dänische Lieferanten eine Artikelklassifizierung (ItemClassification) an, sollte UNSPSC in der Version 19.0501 verwendet werden.",
            ("BT-158",),
        ),
        "When specifying non-VAT Taxes, Danish suppliers MUST use the AllowanceChargeReasonCode=\"ZZZ\" and the 4-digit Tax category MUST be specified in 'AllowanceChargeReason'": (
            "Geben dänische Lieferanten andere Steuern als die Umsatzsteuer an, müssen sie AllowanceChargeReasonCode=\"ZZZ\" verwenden und die vierstellige Steuerkategorie in 'AllowanceChargeReason' angeben.",
            ("BT-104", "BT-105"),
        ),
        '"> [IT-R-004] BT-38 (Seller post code) - Italian suppliers MUST provide the postal address post code - I fornitori italiani devono indicare il CAP di residenza.': (
            "BT-38 (Postleitzahl des Verkäufers) - Italienische Lieferanten müssen die Postleitzahl der Postanschrift angeben.",
            None,
        ),
        "When greek supplier does not have a VAT number, the tax representative must be present": (
            "Hat ein griechischer Lieferant keine Umsatzsteuer-Identifikationsnummer, muss ein Steuerbevollmächtigter angegeben sein.",
            ("BT-31", "BG-11"),
        ),
        "If the Greek Suppliers do not have Greek VAT they must provide the full name of their tax representative in Greece": (
            "Haben griechische Lieferanten keine griechische Umsatzsteuer-Identifikationsnummer, müssen sie den vollständigen Namen ihres Steuerbevollmächtigten in Griechenland angeben.",
            ("BT-62",),
        ),
        "If the Greek Suppliers do not have Greek VAT, they must provide the VAT number of their tax representative": (
            "Haben griechische Lieferanten keine griechische Umsatzsteuer-Identifikationsnummer, müssen sie die Umsatzsteuer-Identifikationsnummer ihres Steuerbevollmächtigten angeben.",
            ("BT-63",),
        ),
        "At least two AdditionalDocumentReference elements must be present.": (
            "Es müssen mindestens zwei Elemente AdditionalDocumentReference vorhanden sein.",
            ("BG-24",),
        ),
        "cbc:DocumentType : CommercialInvoice or CreditNote must be specified": (
            "cbc:DocumentType: CommercialInvoice oder CreditNote muss angegeben sein.",
            ("BG-24",),
        ),
        'At least one element with cbc:ID "UBL.BE" should be present.': (
            'Es sollte mindestens ein Element mit cbc:ID "UBL.BE" vorhanden sein.',
            ("BG-24",),
        ),
        "cbc:DocumentType must be present": ("cbc:DocumentType muss vorhanden sein.", ("BG-24",)),
        "cac:Delivery/cac:DeliveryTerms/cbc:ID must be in BELM list : {1}": (
            "cac:Delivery/cac:DeliveryTerms/cbc:ID muss in der Liste BELM enthalten sein: {1}",
            None,
        ),
        "cac:Delivery/cac:DeliveryTerms/cbc:SpecialTerms must be in BELM Text list : {1}": (
            "cac:Delivery/cac:DeliveryTerms/cbc:SpecialTerms muss in der Textliste BELM enthalten sein: {1}",
            None,
        ),
        "cbc:SettlementDiscountPercent must be numeric and between 0 and 100": (
            "cbc:SettlementDiscountPercent muss eine Zahl zwischen 0 und 100 sein.",
            None,
        ),
        "cbc:SettlementDiscountPercent Amount must be filled in": (
            "Zu cbc:SettlementDiscountPercent muss der Betrag (Amount) angegeben sein.",
            None,
        ),
        "cbc:PaymentDueDate must be filled in and must be a date must be formatted YYYY-MM-DD.": (
            "cbc:PaymentDueDate muss angegeben und ein Datum im Format JJJJ-MM-TT (YYYY-MM-DD) sein.",
            None,
        ),
        "Invoice/cac:InvoiceLine/cac:TaxTotal/cbc:TaxAmount is Mandatory.": (
            "Invoice/cac:InvoiceLine/cac:TaxTotal/cbc:TaxAmount ist Pflicht.",
            None,
        ),
        "cac:cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Name must be in BTCC list : {1}": (
            "cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Name muss in der Liste BTCC enthalten sein: {1}",
            ("BG-23",),
        ),
        "cbc:TaxExemptionReasonCode must be in BVERC list : {1}": (
            "cbc:TaxExemptionReasonCode muss in der Liste BVERC enthalten sein: {1}",
            ("BT-121",),
        ),
        "cbc:TaxExemptionReason must be in BVERCText list : {1}": (
            "cbc:TaxExemptionReason muss in der Textliste BVERC enthalten sein: {1}",
            ("BT-120",),
        ),
        "cac:InvoiceLine/cac:TaxTotal/cbc:TaxAmount must be present and numeric : {1}": (
            "cac:InvoiceLine/cac:TaxTotal/cbc:TaxAmount muss vorhanden und eine Zahl sein: {1}",
            None,
        ),
        "cac:ClassifiedTaxCategory/cbc:Name must be present.": (
            "cac:ClassifiedTaxCategory/cbc:Name muss vorhanden sein.",
            ("BG-30",),
        ),
    }
)


_TOLERANCE = ", with an acceptance range of 1.00 € (it does not mean that this tolerance is accepted by the customer)."
_TOLERANCE_DE = ", mit einer Toleranz von 1,00 € (was nicht heißt, dass der Kunde diese Toleranz akzeptiert)."


def _from_catalogue(official: str, known: dict[str, str]) -> tuple[str, str] | None:
    """The German text of the catalogue for ``official`` written as CEN writes it: CIUS-PT's "VATBReakdown", curly
    quotes, its category "Lower rate" (AA, stated as CEN states "Standard rated") and its 1.00 € tolerance suffix;
    UBL.BE's "A ubl invoice". (German, how) or None."""
    text, how = official, []
    if text.endswith(_TOLERANCE):
        text, suffix = text[: -len(_TOLERANCE)] + ".", _TOLERANCE_DE
        how.append("tolerance")
    else:
        suffix = ""
    rewritten = re.sub(r"^A ubl (invoice|credit note)", lambda m: f"A UBL {m[1]}", text)
    rewritten = rewritten.replace("VATBReakdown", "VAT breakdown").replace("“", '"').replace("”", '"')
    lower = "Lower rate" in rewritten
    candidates = [rewritten]
    if lower:
        candidates = [
            rewritten.replace("Lower rate", "Standard rated"),
            rewritten.replace("Lower rate", "Standard rate"),
        ]
    for candidate in candidates:
        for form in (candidate, candidate.replace("VAT breakdown", "VAT Breakdown", 1)):
            de = known.get(form)
            if de is None:
                continue
            if lower:
                if "Normalsatz" not in de:
                    continue
                de = de.replace("Normalsatz", "ermäßigter Satz")
                how.append("Lower rate")
            if suffix:
                de = de.removesuffix(".") + suffix
            if form != official:
                how.append("as CEN writes it")
            return de, "the catalogue's text" + (f" ({', '.join(how)})" if how else "")
    return None


def german(official: str, known: dict[str, str]) -> tuple[str, tuple[str, ...] | None, str] | None:
    """(German text, terms, how it was made) or None when nothing covers ``official``."""
    found = _from_catalogue(official, known)
    if found is not None:
        return found[0], None, found[1]
    upper = re.sub(r"^A ubl (invoice|credit note)", lambda m: f"A UBL {m[1]}", official)
    if official in HAND:
        text, terms = HAND[official]
        return text, terms, "hand-written"
    found = syntax.german("", upper, {})
    if found is not None:
        return found[0], None, f"syntax template: {found[1]}"
    for pattern, build in TEMPLATES:
        m = pattern.fullmatch(official)
        if m is not None and (text := build(m)) is not None:
            return text, None, f"template: {pattern.pattern[:40]}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="classify and report, do not write the file")
    args = parser.parse_args(argv)
    others = load_catalogue([p for p in sorted(CATALOGUE_DIR.glob("*.toml")) if p != TARGET])
    known = {v.official: v.de for vs in others.entries.values() for v in vs if v.lang == "en" and v.de}
    entries: dict[str, list[Variant]] = {}
    counts: Counter[str] = Counter()
    missing: list[str] = []
    used: set[str] = set()
    seen: set[tuple[str, str]] = set()
    for pack_key, rule_id, official in official_rule_texts(Registry()):
        if not pack_key.startswith(NATIONAL_PACKS) or (rule_id, official) in seen:
            continue
        seen.add((rule_id, official))
        if others.variant_for_official(rule_id, official) is not None:
            continue  # the same rule and text as in CEN's or Peppol's packs: their entry serves
        found = german(official, known)
        if found is None:
            missing.append(f"{pack_key}\t{rule_id}\t{official}")
            continue
        text, terms, how = found
        used.add(official) if how == "hand-written" else None
        counts[how.split(":")[0]] += 1
        if terms is not None and terms == terms_in(official):
            terms = None  # the texts name them already
        entries.setdefault(rule_id, []).append(Variant(official=official, de=text, terms=terms))
    stale = sorted(set(HAND) - used)
    missing += [f"(hand-written text matches no rule text)\t{text}" for text in stale]
    if not syntax.report(counts, missing):
        return 1
    if not args.dry_run:
        ordered = {k: entries[k] for k in sorted(entries, key=natural_key)}
        write_catalogue_file(TARGET, ordered)
        print(f"wrote {TARGET.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
