"""Write the OIOUBL catalogue (``rulesets/messages/oioubl.toml``): every rule text of the installed OIOUBL packs.

OIOUBL's stylesheets (Denmark, Schematron 1.17.2; issue 44) write their rule texts in English (a few Danish words,
such as "Registreringsnummer", stay as they are). The official text is kept; the German is ours. Most texts are a
few mechanical sentences ("X element must be excluded", "Invalid X. Must contain a value", "No more than one X class
may be present"): the German sentence comes from a template per pattern (:data:`TEMPLATES`). The invoice and credit
note line calculations are translated clause by clause (:data:`CLAUSES`); a "PaymentMeansCode = N, ..." rule is
the German of its rest behind the same prefix. What is left is written by hand in :data:`HAND` (official text ->
German). Nothing falls back to the English text: a text without German is listed and the script writes nothing
(exit status 1).

    python tools/catalogue_oioubl_de.py            # (re)write rulesets/messages/oioubl.toml
    python tools/catalogue_oioubl_de.py --dry-run  # only report what is covered how

Needs the OIOUBL packs installed in the rules home (``einvoice-validate rulesets install``). Afterwards
``python tools/catalogue.py check`` must report 0 missing texts and ``python tools/catalogue.py lint`` 0 problems.
"""

# ruff: noqa: E501  # the official texts are single long sentences, kept whole as dictionary keys
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from einvoice_validate.messages import CATALOGUE_DIR, Variant, load_catalogue, natural_key  # noqa: E402
from einvoice_validate.rulesets.catalogue import official_rule_texts, write_catalogue_file  # noqa: E402
from einvoice_validate.rulesets.registry import Registry  # noqa: E402

TARGET = CATALOGUE_DIR / "oioubl.toml"

_N = r"(?P<x>[\w./:\\]+|\{\d+\})"  # an element, class or path name (or a runtime value standing for one)
_V = r"(?P<v>'[^']*')"  # a quoted value (or a runtime value in quotes)
TEMPLATES: tuple[tuple[str, str], ...] = (
    (rf"^{_N} element must be excluded$", r"Das Element \g<x> darf nicht verwendet werden"),
    (rf"^{_N} class must be excluded$", r"Die Klasse \g<x> darf nicht verwendet werden"),
    (rf"^No more than one {_N} class may be present$", r"Die Klasse \g<x> darf höchstens einmal vorkommen"),
    (rf"^No more than one {_N} element may be present$", r"Das Element \g<x> darf höchstens einmal vorkommen"),
    (rf"^One {_N} class must be present$", r"Die Klasse \g<x> muss genau einmal vorkommen"),
    (rf"^{_N} class must be present$", r"Die Klasse \g<x> muss vorhanden sein"),
    (rf"^Invalid {_N}\. Must contain a value(?P<dot>\.?)$", r"Ungültig: \g<x> muss einen Wert enthalten\g<dot>"),
    (rf"^Invalid {_N} \. Must contain a value(?P<dot>\.?)$", r"Ungültig: \g<x> muss einen Wert enthalten\g<dot>"),
    (rf"^Invalid {_N}\. Must be a value from the codelist$", r"Ungültig: \g<x> muss ein Wert aus der Codeliste sein"),
    (
        rf"^Invalid {_N}: {_V}\. Must be a value from the codelist$",
        r"Ungültiger Wert von \g<x>: \g<v>. Er muss ein Wert aus der Codeliste sein",
    ),
    (
        rf"^Invalid {_N}: {_V}\. Must be a value from the country codelist$",
        r"Ungültiger Wert von \g<x>: \g<v>. Er muss ein Wert aus der Länder-Codeliste sein",
    ),
    (rf"^Invalid {_N}\. Must have (?P<n>\d+) decimals$", r"Ungültig: \g<x> muss \g<n> Nachkommastellen haben"),
    (rf"^Invalid {_N} \. Must have (?P<n>\d+) decimals$", r"Ungültig: \g<x> muss \g<n> Nachkommastellen haben"),
    (rf"^Invalid {_N} ?\. Must not be zero$", r"Ungültig: \g<x> darf nicht null sein"),
    (rf"^Invalid {_N} ?\. Must not be negative$", r"Ungültig: \g<x> darf nicht negativ sein"),
    (rf"^Invalid {_N} ?\. Must not be negative or zero$", r"Ungültig: \g<x> darf weder negativ noch null sein"),
    (rf"^Invalid {_N}\. Must be {_V}$", r"Ungültig: \g<x> muss \g<v> sein"),
    (rf"^Invalid {_N}\. Must be {_V} or {_V.replace('v>', 'w>')}$", r"Ungültig: \g<x> muss \g<v> oder \g<w> sein"),
    (
        rf"^Invalid {_N}\. Must be either {_V} or {_V.replace('v>', 'w>')}$",
        r"Ungültig: \g<x> muss entweder \g<v> oder \g<w> sein",
    ),
    (rf"^Use either {_N} or {_N.replace('x>', 'y>')}$", r"Entweder \g<x> oder \g<y> verwenden"),
    (
        rf"^When PaymentMeansCode is '48', {_N} class must be excluded$",
        r"Bei PaymentMeansCode '48' darf die Klasse \g<x> nicht verwendet werden",
    ),
    (rf"^Root element must be {_N}$", r"Das Wurzelelement muss \g<x> sein"),
    (
        rf"^The documenttype does not match an OIOUBL {_N} and can not be validated by this schematron\.$",
        r"Der Dokumenttyp entspricht keinem OIOUBL-\g<x> und kann mit diesem Schematron nicht geprüft werden.",
    ),
    (
        rf"^Multilanguage error\. Replicated {_N} elements with same languageID attribute value(?P<rest>.*)$",
        r"Mehrsprachigkeitsfehler: mehrere Elemente \g<x> mit demselben Wert des Attributs languageID\g<rest>",
    ),
    (
        rf"^The attribute languageID should be used when more than one {_N} element is present$",
        r"Das Attribut languageID sollte verwendet werden, wenn mehr als ein Element \g<x> vorhanden ist",
    ),
    (
        rf"^Only use Delivery\.{_N} if not specified on header level \(Invoice\.Delivery\)$",
        r"Delivery.\g<x> nur verwenden, wenn es nicht auf Kopfebene (Invoice.Delivery) angegeben ist",
    ),
    (
        rf"^There is a {_N} for one or more Reminder lines where the currencyID does not equal the DocumentCurrencyCode$",
        r"In mindestens einer Mahnungszeile hat \g<x> eine currencyID ungleich DocumentCurrencyCode",
    ),
    (
        rf"^There is a {_N} for one or more CreditNoteLines where the currencyID does not equal the DocumentCurrencyCode$",
        r"In mindestens einer Gutschriftzeile (CreditNoteLine) hat \g<x> eine currencyID ungleich DocumentCurrencyCode",
    ),
    (
        rf"^There is a {_N} for one or more invoice lines where the currencyID does not equal the DocumentCurrencyCode$",
        r"In mindestens einer Rechnungszeile hat \g<x> eine currencyID ungleich DocumentCurrencyCode",
    ),
    (
        rf"^There is a {_N} where the currencyID does not equal the (?P<code>\w+)(?P<rest>.*)$",
        r"Ein \g<x> hat eine currencyID ungleich \g<code>\g<rest>",
    ),
    (
        rf"^schemeID = (?P<s>DK:\w+|EAN|GLN), {_N} must be a valid (?P<kind>\S+) number \(like (?P<like>'[^']*'), value found: (?P<found>'\{{1\}}')\)$",
        r"schemeID = \g<s>: \g<x> muss eine gültige \g<kind>-Nummer sein (etwa \g<like>, gefundener Wert: \g<found>)",
    ),
    (
        rf"^Invalid {_N}\. Must be of this form '(?P<form>[^']*)'$",
        r"Ungültig: \g<x> muss die Form '\g<form>' haben",
    ),
    (
        rf"^Invalid {_N} \. Must be of this form '(?P<form>[^']*)'$",
        r"Ungültig: \g<x> muss die Form '\g<form>' haben",
    ),
)

# The line calculations of the invoice and credit note stylesheets (F-INV/F-CRN rules): clause by clause, longest
# first; what remains are names, operators and runtime values, the same in both languages.
CLAUSES: tuple[tuple[str, str], ...] = (
    (
        "cannot be evaluated since either 'cbc:CalculationRate', 'cbc:MathematicOperatorCode' or both are not present in ",
        "kann nicht geprüft werden, da 'cbc:CalculationRate', 'cbc:MathematicOperatorCode' oder beide fehlen in ",
    ),
    (
        "(when '../cac:PricingExchangeRate' is present with MathematicOperatorCode = 'multiply' and OrderableUnitFactorRate is not present)",
        "(wenn '../cac:PricingExchangeRate' mit MathematicOperatorCode = 'multiply' vorhanden ist und OrderableUnitFactorRate fehlt)",
    ),
    (
        "(when '../cac:PricingExchangeRate' is present with MathematicOperatorCode = 'divide' and OrderableUnitFactorRate is not present)",
        "(wenn '../cac:PricingExchangeRate' mit MathematicOperatorCode = 'divide' vorhanden ist und OrderableUnitFactorRate fehlt)",
    ),
    (
        "(when '../cac:PricingExchangeRate' is present with MathematicOperatorCode = 'multiply')",
        "(wenn '../cac:PricingExchangeRate' mit MathematicOperatorCode = 'multiply' vorhanden ist)",
    ),
    (
        "(when '../cac:PricingExchangeRate' is present with MathematicOperatorCode = 'divide')",
        "(wenn '../cac:PricingExchangeRate' mit MathematicOperatorCode = 'divide' vorhanden ist)",
    ),
    ("unitCode and Price.BaseQuantity unitCode are not equal)", "und Price.BaseQuantity haben verschiedene unitCode)"),
    ("unitCode and Price.BaseQuantity unitCode are equal)", "und Price.BaseQuantity haben denselben unitCode)"),
    (
        "Invoice line '{1}' with lineExtensionAmount ({2}) must equal ",
        "Rechnungszeile '{1}' mit lineExtensionAmount ({2}) muss gleich sein: ",
    ),
    (
        "CreditNote line '{1}' with lineExtensionAmount ({2}) must equal ",
        "Gutschriftzeile '{1}' mit lineExtensionAmount ({2}) muss gleich sein: ",
    ),
    ("Invoice line '{1}' with lineExtensionAmount ({2}) ", "Rechnungszeile '{1}' mit lineExtensionAmount ({2}) "),
    ("CreditNote line '{1}' with lineExtensionAmount ({2}) ", "Gutschriftzeile '{1}' mit lineExtensionAmount ({2}) "),
)
_LINE_RULE = ("Invoice line '{1}'", "CreditNote line '{1}'")

# "PaymentMeansCode = N, <rest>" (and "PaymentMeansCode = 50 or PaymentChannelCode = DK:GIRO, <rest>"): the rest
# in German behind the same prefix.
PAYMENT_REST: dict[str, str] = {
    "Account ID must be no more than 34 characters": "Account ID darf höchstens 34 Zeichen lang sein",
    "Account ID must must not be empty.": "Account ID darf nicht leer sein.",
    "AccountID must be no more than 8 characters": "AccountID darf höchstens 8 Zeichen lang sein",
    "FinancialInstitutionBranch/Address class is mandatory": "die Klasse FinancialInstitutionBranch/Address ist Pflicht",
    "FinancialInstitutionBranch/ID (Registreringsnummer) element is mandatory, when PaymentChannelCode equals ZZZ": "das Element FinancialInstitutionBranch/ID (Registreringsnummer) ist Pflicht, wenn PaymentChannelCode gleich ZZZ ist",
    "FinancialInstitutionBranch/ID (Registreringsnummer) element is not used, when PaymentChannelCode equals IBAN": "das Element FinancialInstitutionBranch/ID (Registreringsnummer) wird nicht verwendet, wenn PaymentChannelCode gleich IBAN ist",
    "FinancialInstitutionBranch/Name element is mandatory": "das Element FinancialInstitutionBranch/Name ist Pflicht",
    "ID element is mandatory": "das Element ID ist Pflicht",
    "InstructionNote element not allowed": "das Element InstructionNote ist nicht erlaubt",
    "Invalid listID. Must be 'urn:oioubl:codelist:paymentchannelcode-1.1'": "ungültig: listID muss 'urn:oioubl:codelist:paymentchannelcode-1.1' sein",
    "PaymentChannelCode must equal IBAN or ZZZ": "PaymentChannelCode muss IBAN oder ZZZ sein",
    "PaymentNote must be no more than 20 characters": "PaymentNote darf höchstens 20 Zeichen lang sein",
    "Account ID element is mandatory": "das Element Account ID ist Pflicht",
    "Account ID must be no more than 10 characters": "Account ID darf höchstens 10 Zeichen lang sein",
    "CreditAccount class not allowed": "die Klasse CreditAccount ist nicht erlaubt",
    "FinancialInstitutionBranch/ID (Registreringsnummer) element is mandatory": "das Element FinancialInstitutionBranch/ID (Registreringsnummer) ist Pflicht",
    "FinancialInstitutionBranch/ID (Registreringsnummer) must be no more than 4 numerical characters": "FinancialInstitutionBranch/ID (Registreringsnummer) darf höchstens 4 Ziffern haben",
    "PayeeFinancialAccount class is mandatory": "die Klasse PayeeFinancialAccount ist Pflicht",
    "PayeeFinancialAccount class is mandatory.": "die Klasse PayeeFinancialAccount ist Pflicht.",
    "PaymentChannelCode must equal DK:BANK": "PaymentChannelCode muss DK:BANK sein",
    "For DK:BANK, Account ID must be 10 characters": "bei DK:BANK muss Account ID 10 Zeichen lang sein",
    "For DK:BANK, FinancialInstitutionBranch/ID (Registreringsnummer) must be 4 numerical characters": "bei DK:BANK muss FinancialInstitutionBranch/ID (Registreringsnummer) aus 4 Ziffern bestehen",
    "For IBAN, Account ID must be at least 18 characters": "bei IBAN muss Account ID mindestens 18 Zeichen lang sein",
    "For IBAN, Account ID must be no more than 34 characters": "bei IBAN darf Account ID höchstens 34 Zeichen lang sein",
    "For IBAN, ID element is mandatory": "bei IBAN ist das Element ID Pflicht",
    "If present, PaymentChannelCode must equal IBAN or DK:BANK": "wenn vorhanden, muss PaymentChannelCode IBAN oder DK:BANK sein",
    "InstructionID must be no more than 60 characters": "InstructionID darf höchstens 60 Zeichen lang sein",
    "Use either PaymentChannelCode or InstructionID element": "entweder das Element PaymentChannelCode oder InstructionID verwenden",
    "PayeeFinancialAccount.ID must consist of 7 or 8 numerical characters.": "PayeeFinancialAccount.ID muss aus 7 oder 8 Ziffern bestehen.",
    "InstructionID is mandatory when PaymentID equals 04 or 15": "InstructionID ist Pflicht, wenn PaymentID 04 oder 15 ist",
    "InstructionID must be no more than 16 characters": "InstructionID darf höchstens 16 Zeichen lang sein",
    "InstructionNote only allowed if PaymentID equals 01": "InstructionNote ist nur erlaubt, wenn PaymentID 01 ist",
    "PayeeFinancialAccount.ID element is mandatory.": "das Element PayeeFinancialAccount.ID ist Pflicht.",
    "PaymentChannelCode must equal DK:GIRO": "PaymentChannelCode muss DK:GIRO sein",
    "PaymentID element is mandatory": "das Element PaymentID ist Pflicht",
    "PaymentID must equal 01, 04 or 15": "PaymentID muss 01, 04 oder 15 sein",
    "PayeeFinancialAccount.ID must be used": "PayeeFinancialAccount.ID muss verwendet werden",
    "when PaymentChannelCode is used it must be 'IBAN'.": "wenn PaymentChannelCode verwendet wird, muss es 'IBAN' sein.",
    "AccountID must be 8 characters": "AccountID muss 8 Zeichen lang sein",
    "InstructionID is mandatory when PaymentID equals 71 or 75": "InstructionID ist Pflicht, wenn PaymentID 71 oder 75 ist",
    "InstructionID must be a numeric value when PaymentID equals 71 or 75.": "InstructionID muss numerisch sein, wenn PaymentID 71 oder 75 ist.",
    "InstructionID must be equal to 15 characters (when PaymentID equals 71)": "InstructionID muss 15 Zeichen lang sein (wenn PaymentID 71 ist)",
    "InstructionID must be equal to 16 characters (when PaymentID equals 75)": "InstructionID muss 16 Zeichen lang sein (wenn PaymentID 75 ist)",
    "InstructionID only allowed if PaymentID equals 71 or 75": "InstructionID ist nur erlaubt, wenn PaymentID 71 oder 75 ist",
    "InstructionNote only allowed if PaymentID equals 73 or 75": "InstructionNote ist nur erlaubt, wenn PaymentID 73 oder 75 ist",
    "PaymentChannelCode must equal DK:FIK": "PaymentChannelCode muss DK:FIK sein",
    "PaymentID must equal 71, 73 or 75": "PaymentID muss 71, 73 oder 75 sein",
    "InstructionID element not allowed": "das Element InstructionID ist nicht erlaubt",
    "PayeeFinancialAccount class not allowed": "die Klasse PayeeFinancialAccount ist nicht erlaubt",
    "PayerFinancialAccount class not allowed": "die Klasse PayerFinancialAccount ist nicht erlaubt",
    'PaymentChannelCode element only allowed with value = "DK:NEMKONTO"': 'das Element PaymentChannelCode ist nur mit dem Wert "DK:NEMKONTO" erlaubt',
    "PaymentID element not allowed": "das Element PaymentID ist nicht erlaubt",
}
_PAYMENT = re.compile(r"^(?P<prefix>PaymentMeansCode = \d+(?: or PaymentChannelCode = DK:GIRO)?), (?P<rest>.+)$")

# Official texts no template covers: written by hand.
HAND: dict[str, str] = {
    "Address is mandatory when ID is not specified": "Address ist Pflicht, wenn keine ID angegeben ist",
    "AddressLine elements not allowed for a StructuredDK address type": "Elemente AddressLine sind beim Adresstyp StructuredDK nicht erlaubt",
    "AddressLine elements not allowed for a StructuredLax address type": "Elemente AddressLine sind beim Adresstyp StructuredLax nicht erlaubt",
    "AllowanceCharge.Amount can not be negative, if CreditedQuantity or Price.PriceAmount is not negative.": "AllowanceCharge.Amount darf nicht negativ sein, wenn CreditedQuantity oder Price.PriceAmount nicht negativ ist.",
    "AllowanceCharge.Amount can not be negative, if InvoicedQuantity or Price.PriceAmount is not negative.": "AllowanceCharge.Amount darf nicht negativ sein, wenn InvoicedQuantity oder Price.PriceAmount nicht negativ ist.",
    "AllowanceTotalAmount is mandatory when AllowanceCharge classes (with ChargeIndicator='false') are present": "AllowanceTotalAmount ist Pflicht, wenn Klassen AllowanceCharge (mit ChargeIndicator='false') vorhanden sind",
    "Amount must equal BaseAmount * MultiplierFactorNumeric": "Amount muss gleich BaseAmount * MultiplierFactorNumeric sein",
    "An Unstructured address is only allowed to have AddressLine elements": "Eine Adresse vom Typ Unstructured darf nur Elemente AddressLine haben",
    "At least one field in the Contact class should be specified": "Mindestens ein Feld der Klasse Contact sollte angegeben sein",
    "Attribute mimeCode must be a value from the codelist": "Das Attribut mimeCode muss ein Wert aus der Codeliste sein",
    "Attribute unitCode must be used for {1}": "Das Attribut unitCode muss für {1} verwendet werden",
    "Can only be false if proforma invoice (InvoiceTypeCode = '325')": "Darf nur bei einer Proformarechnung (InvoiceTypeCode = '325') false sein",
    "ChargeTotalAmount is mandatory when AllowanceCharge classes (with ChargeIndicator='true') are present": "ChargeTotalAmount ist Pflicht, wenn Klassen AllowanceCharge (mit ChargeIndicator='true') vorhanden sind",
    "Contact element must be excluded": "Das Element Contact darf nicht verwendet werden",
    "EndTime must be greater or equal to StartTime": "EndTime muss größer oder gleich StartTime sein",
    "Exactly one TaxTotal class must contain VAT (Moms)": "Genau eine Klasse TaxTotal muss die Umsatzsteuer (Moms) enthalten",
    "FinancialInstitutionBranch/ID (Registreringsnummer) must contain a numerical value": "FinancialInstitutionBranch/ID (Registreringsnummer) muss einen numerischen Wert enthalten",
    "For each CreditNoteLine, LineExtensionAmount must be present and contain a value.": "Jede CreditNoteLine muss ein LineExtensionAmount mit einem Wert enthalten.",
    "ID is required for a StructuredID address type": "Beim Adresstyp StructuredID ist ID erforderlich",
    "ID must be unique within the document instance": "ID muss innerhalb des Dokuments eindeutig sein",
    "ID should be used when more than one instance of the PaymentTerms class is present": "ID sollte verwendet werden, wenn die Klasse PaymentTerms mehr als einmal vorkommt",
    "If AdditionalItemProperty/Name equals 'EmissionFactorCalculationUnit' then AdditionalItemProperty/Value must have a valid UnitCode value from the codelist urn:un:unece:uncefact:codelist:specification:66411:2001.": "Ist AdditionalItemProperty/Name gleich 'EmissionFactorCalculationUnit', muss AdditionalItemProperty/Value ein gültiger UnitCode aus der Codeliste urn:un:unece:uncefact:codelist:specification:66411:2001 sein.",
    "If AdditionalItemProperty/Name is 'CalculationRate', then the AdditionalItemProperty/Value must be a valid numeric value": "Ist AdditionalItemProperty/Name gleich 'CalculationRate', muss AdditionalItemProperty/Value ein gültiger numerischer Wert sein",
    "If AdditionalItemProperty/Name is 'EmissionFactor', then another AdditionalItemProperty/Name = 'EmissionFactorSource' must exist": "Ist AdditionalItemProperty/Name gleich 'EmissionFactor', muss es ein weiteres AdditionalItemProperty mit Name = 'EmissionFactorSource' geben",
    "If AdditionalItemProperty/Name is 'EmissionFactor', then the AdditionalItemProperty/Value must be a valid numeric value": "Ist AdditionalItemProperty/Name gleich 'EmissionFactor', muss AdditionalItemProperty/Value ein gültiger numerischer Wert sein",
    "If AdditionalItemProperty/Name is 'EmissionFactorSource', then AdditionalItemProperty/Value must be either 'Database' or 'Internal'": "Ist AdditionalItemProperty/Name gleich 'EmissionFactorSource', muss AdditionalItemProperty/Value 'Database' oder 'Internal' sein",
    "If ID not specified, Address is mandatory": "Ist keine ID angegeben, ist Address Pflicht",
    "If Percent is greater than 0, TaxSubtotal/TaxAmount must be correctly calculated within a tolerance of +/- 1. Values found: - TaxCategory/ID: {1} - TaxAmount (TaxSubtotal): {2} - TaxableAmount: {3} - TaxCategory/Percent: {4} - Calculated TaxAmount (rounded): {5} - Difference: {6}": "Ist Percent größer als 0, muss TaxSubtotal/TaxAmount mit einer Toleranz von +/- 1 richtig berechnet sein. Gefundene Werte: - TaxCategory/ID: {1} - TaxAmount (TaxSubtotal): {2} - TaxableAmount: {3} - TaxCategory/Percent: {4} - berechneter TaxAmount (gerundet): {5} - Differenz: {6}",
    "If used, use INCO terms (ID = 'INCOTERMS')": "Wenn verwendet, INCO-Klauseln angeben (ID = 'INCOTERMS')",
    "Invalid AccountingCustomerParty/Contact/ID. Must contain a value.": "Ungültig: AccountingCustomerParty/Contact/ID muss einen Wert enthalten.",
    "Invalid CreditNote/ID (Creditnote number). Must contain a value.": "Ungültig: CreditNote/ID (Gutschriftnummer) muss einen Wert enthalten.",
    "Invalid CustomizationID. Must be either 'OIOUBL-2.01', 'OIOUBL-2.02' or 'OIOUBL-2.1'": "Ungültig: CustomizationID muss 'OIOUBL-2.01', 'OIOUBL-2.02' oder 'OIOUBL-2.1' sein",
    "Invalid Invoice/ID (Invoice number). Must contain a value.": "Ungültig: Invoice/ID (Rechnungsnummer) muss einen Wert enthalten.",
    "Invalid Item Property Group ID in InvoiceLine. Must contain a value": "Ungültig: die ID der Item Property Group in InvoiceLine muss einen Wert enthalten",
    "Invalid LineExtensionAmount. Must have at least 2 decimals": "Ungültig: LineExtensionAmount muss mindestens 2 Nachkommastellen haben",
    "Invalid LineExtensionAmount. No more than 4 decimals": "Ungültig: LineExtensionAmount darf höchstens 4 Nachkommastellen haben",
    "Invalid MathematicOperatorCode. Must either be 'multiply' or 'divide'": "Ungültig: MathematicOperatorCode muss 'multiply' oder 'divide' sein",
    "Invalid Name for InvoiceLine. Must contain a value": "Ungültig: Name der InvoiceLine muss einen Wert enthalten",
    "Invalid TransactionCurrencyTaxAmount. Must be negative if TaxTotal/TaxAmount is negative, and must be be positive if TaxTotal/TaxAmount is positive": "Ungültig: TransactionCurrencyTaxAmount muss negativ sein, wenn TaxTotal/TaxAmount negativ ist, und positiv, wenn TaxTotal/TaxAmount positiv ist",
    "Invalid UBLExtension/ID when UBLExtension/ExtensionAgencyID is equal to 'Digitaliseringsstyrelsen'. ID must be an assigned value between '1001' and '1999'.": "Ungültig: UBLExtension/ID bei UBLExtension/ExtensionAgencyID gleich 'Digitaliseringsstyrelsen'. ID muss ein vergebener Wert zwischen '1001' und '1999' sein.",
    "Invalid UBLVersionID. Must be '2.0' or '2.1'": "Ungültig: UBLVersionID muss '2.0' oder '2.1' sein",
    "Invalid VAT TaxAmount - When TaxCategory/ID are 'StandardRated' and TaxableAmount > 0 ({1}) TaxAmount can't be '({2})' unless calculated vat '({3})' are less then 0.005": "Ungültiger Umsatzsteuerbetrag (TaxAmount): Ist TaxCategory/ID 'StandardRated' und TaxableAmount > 0 ({1}), darf TaxAmount nicht '({2})' sein, außer die berechnete Umsatzsteuer '({3})' ist kleiner als 0.005",
    "Invalid cac:CertificateTypeCode: '{1}' Must be a value from the codelist: PackagingMarkedLabelAccreditationCode from GS1 Global Data Dictionary.": "Ungültiger Wert von cac:CertificateTypeCode: '{1}'. Er muss ein Wert aus der Codeliste PackagingMarkedLabelAccreditationCode des GS1 Global Data Dictionary sein.",
    "Invalid schemeID. Must be '{1}' or '{2}' or '{3}' or '{4}' or '{5}' or '{6}'": "Ungültig: schemeID muss '{1}', '{2}', '{3}', '{4}', '{5}' oder '{6}' sein",
    "Invalid schemeID. Must be a valid scheme for PartyLegalEntity/CompanyID": "Ungültig: schemeID muss ein für PartyLegalEntity/CompanyID gültiges Schema sein",
    "Invalid schemeID. Must be a valid scheme for PartyTaxScheme/CompanyID": "Ungültig: schemeID muss ein für PartyTaxScheme/CompanyID gültiges Schema sein",
    "Invalid schemeID. Must be either '{1}', '{2}', '{3}' or '{4}'": "Ungültig: schemeID muss '{1}', '{2}', '{3}' oder '{4}' sein",
    "Invalid schemeID. Must be either '{1}', '{2}', '{3}' or '{4}'.": "Ungültig: schemeID muss '{1}', '{2}', '{3}' oder '{4}' sein.",
    "Invalid schemeID: '{1}'. Must be a value from the codelist: '{2}'": "Ungültiger Wert von schemeID: '{1}'. Er muss ein Wert aus der Codeliste '{2}' sein",
    "Invalid unitCode: '{1}'. Must be a value from the codelist urn:un:unece:uncefact:codelist:specification:66411:2001.": "Ungültiger Wert von unitCode: '{1}'. Er muss ein Wert aus der Codeliste urn:un:unece:uncefact:codelist:specification:66411:2001 sein.",
    "Invalid {1}. Must not be negative or zero, unless it has been converted from PEPPOL BIS3": "Ungültig: {1} darf weder negativ noch null sein, außer es wurde aus PEPPOL BIS3 umgewandelt",
    "Invalid {1}. Must not be negative, unless it has been converted from PEPPOL BIS3": "Ungültig: {1} darf nicht negativ sein, außer es wurde aus PEPPOL BIS3 umgewandelt",
    "Invoice/OrderReference is mandatory when OrderLineReference class is present": "Invoice/OrderReference ist Pflicht, wenn die Klasse OrderLineReference vorhanden ist",
    "Multilanguage error. Replicated PartyName classes with same Name@languageID attribute value": "Mehrsprachigkeitsfehler: mehrere Klassen PartyName mit demselben Wert des Attributs Name@languageID",
    "MultiplierFactorNumeric must be a positive number": "MultiplierFactorNumeric muss eine positive Zahl sein",
    "Name must correspond to the value of TaxScheme/ID": "Name muss dem Wert von TaxScheme/ID entsprechen",
    "Name must equal 'Moms' when TaxScheme/ID equals '63' (Moms)": "Name muss 'Moms' sein, wenn TaxScheme/ID '63' (Moms) ist",
    "Name should only be used within NES profiles": "Name sollte nur in NES-Profilen verwendet werden",
    "One Item class must be present when CreditNoteLine/BillingReference is not specified": "Die Klasse Item muss genau einmal vorkommen, wenn CreditNoteLine/BillingReference nicht angegeben ist",
    "One PaymentAlternativeExchangeRate class must be present when PaymentAlternativeCurrencyCode element is used": "Die Klasse PaymentAlternativeExchangeRate muss genau einmal vorkommen, wenn das Element PaymentAlternativeCurrencyCode verwendet wird",
    "One PaymentExchangeRate class must be present when PaymentCurrencyCode element is used": "Die Klasse PaymentExchangeRate muss genau einmal vorkommen, wenn das Element PaymentCurrencyCode verwendet wird",
    "One Price class must be present when CreditNoteLine/BillingReference is not specified": "Die Klasse Price muss genau einmal vorkommen, wenn CreditNoteLine/BillingReference nicht angegeben ist",
    "One PricingExchangeRate class must be present when PricingCurrencyCode element is used": "Die Klasse PricingExchangeRate muss genau einmal vorkommen, wenn das Element PricingCurrencyCode verwendet wird",
    "One TransactionCurrencyTaxAmount element must be present when TaxCurrencyCode element is used": "Das Element TransactionCurrencyTaxAmount muss genau einmal vorkommen, wenn das Element TaxCurrencyCode verwendet wird",
    "One or more TaxTotal class must be present": "Die Klasse TaxTotal muss mindestens einmal vorkommen",
    "One or more TaxTotal classes must be present": "Die Klasse TaxTotal muss mindestens einmal vorkommen",
    "Only Region, District, and/or Country/IdentificationCode can be used for a StructuredRegion address type": "Beim Adresstyp StructuredRegion dürfen nur Region, District und/oder Country/IdentificationCode verwendet werden",
    "Only the ID is used for a StructuredID address type": "Beim Adresstyp StructuredID wird nur die ID verwendet",
    "PartyName/Name is mandatory if PartyIdentification/ID is not found": "PartyName/Name ist Pflicht, wenn PartyIdentification/ID fehlt",
    "PartyName/Name is mandatory in TaxRepresentativeParty": "PartyName/Name ist in TaxRepresentativeParty Pflicht",
    "PartyTaxScheme is mandatory in TaxRepresentativeParty": "PartyTaxScheme ist in TaxRepresentativeParty Pflicht",
    "PartyTaxScheme/TaxScheme is mandatory in TaxRepresentativeParty": "PartyTaxScheme/TaxScheme ist in TaxRepresentativeParty Pflicht",
    "PartyIdentification element must be excluded": "Das Element PartyIdentification darf nicht verwendet werden",
    "PayableAmount is calculated incorrectly": "PayableAmount ist falsch berechnet",
    "PayableAmount is calculated incorrectly - PayableAmount ('{1}' ) don't match total calculation ('{2}' )": "PayableAmount ist falsch berechnet: PayableAmount ('{1}' ) entspricht nicht der berechneten Summe ('{2}' )",
    "PayableRoundingAmount is mandatory when TaxTotal/RoundingAmount elements are present": "PayableRoundingAmount ist Pflicht, wenn Elemente TaxTotal/RoundingAmount vorhanden sind",
    "PaymentMeans/ID should be used when more than one instance of the PaymentMeans class is present.": "PaymentMeans/ID sollte verwendet werden, wenn die Klasse PaymentMeans mehr als einmal vorkommt.",
    "PostalAddress/AddressFormatCode is mandatory in TaxRepresentativeParty": "PostalAddress/AddressFormatCode ist in TaxRepresentativeParty Pflicht",
    "PostalZone is mandatory for a StructuredDK address type": "Beim Adresstyp StructuredDK ist PostalZone Pflicht",
    "PrepaidAmount is mandatory when PrepaidPayment/PaidAmount elements are present": "PrepaidAmount ist Pflicht, wenn Elemente PrepaidPayment/PaidAmount vorhanden sind",
    "Region or District or Country/IdentificationCode is required for a StructuredRegion address type": "Beim Adresstyp StructuredRegion ist Region, District oder Country/IdentificationCode erforderlich",
    "Specifying different TaxScheme.ID in same TaxTotal class is not allowed.": "Verschiedene TaxScheme.ID in derselben Klasse TaxTotal sind nicht erlaubt.",
    "Specifying the same TaxSubtotal.TaxCategory.ID in one TaxTotal class is not allowed": "Dieselbe TaxSubtotal.TaxCategory.ID mehrfach in einer Klasse TaxTotal ist nicht erlaubt",
    "TaxAmount of '{1}' must equal the sum of all following TaxSubtotal/TaxAmount '{2}'": "TaxAmount '{1}' muss gleich der Summe aller folgenden TaxSubtotal/TaxAmount '{2}' sein",
    "TaxCurrencyCode must be either DKK or EUR": "TaxCurrencyCode muss DKK oder EUR sein",
    "TaxInclusiveAmount is calculated incorrectly": "TaxInclusiveAmount ist falsch berechnet",
    "TaxTypeCode is not allowed when TaxScheme/ID equals '63' (Moms)": "TaxTypeCode ist nicht erlaubt, wenn TaxScheme/ID '63' (Moms) ist",
    "TaxTypeCode must be a value from the '{1}' codelist when TaxScheme/ID is different from '63' or 'VAT' (Moms)": "TaxTypeCode muss ein Wert aus der Codeliste '{1}' sein, wenn TaxScheme/ID weder '63' noch 'VAT' (Moms) ist",
    "The AddressFormatCode under JurisdictionRegionAddress must always equal 'StructuredRegion'": "AddressFormatCode unter JurisdictionRegionAddress muss immer 'StructuredRegion' sein",
    "The EndDate must be greater or equal to the startdate": "EndDate muss größer oder gleich dem Anfangsdatum sein",
    "The LegalMonetaryTotal/PayableRoundingAmount must NOT be less then -10.00 or greater then 10.00.": "LegalMonetaryTotal/PayableRoundingAmount darf NICHT kleiner als -10.00 oder größer als 10.00 sein.",
    "The TaxCategory/Percent must contain a decimal value with maximum 2 decimals.": "TaxCategory/Percent muss eine Dezimalzahl mit höchstens 2 Nachkommastellen enthalten.",
    "The ValidityPeriod class may only be used when Preordering is the case": "Die Klasse ValidityPeriod darf nur bei einer Vorbestellung verwendet werden",
    "The attribute Name@languageID should be used when more than one PartyName class is present": "Das Attribut Name@languageID sollte verwendet werden, wenn mehr als eine Klasse PartyName vorhanden ist",
    "The profile '{1}' is not allowed in the document type '{2}'": "Das Profil '{1}' ist im Dokumenttyp '{2}' nicht erlaubt",
    "The sum of AllowanceCharge/Amount elements (with ChargeIndicator='false') must equal AllowanceTotalAmount": "Die Summe der Elemente AllowanceCharge/Amount (mit ChargeIndicator='false') muss gleich AllowanceTotalAmount sein",
    "The sum of AllowanceCharge/Amount elements (with ChargeIndicator='true') must equal cbc:ChargeTotalAmount": "Die Summe der Elemente AllowanceCharge/Amount (mit ChargeIndicator='true') muss gleich cbc:ChargeTotalAmount sein",
    "The sum of CreditNoteLine/LineExtensionAmount ('{1}') elements must equal LineExtensionAmount ('{2}')": "Die Summe der Elemente CreditNoteLine/LineExtensionAmount ('{1}') muss gleich LineExtensionAmount ('{2}') sein",
    "The sum of InvoiceLine/LineExtensionAmount ('{1}') elements must equal LegalMonetaryTotal/LineExtensionAmount ('{2}')": "Die Summe der Elemente InvoiceLine/LineExtensionAmount ('{1}') muss gleich LegalMonetaryTotal/LineExtensionAmount ('{2}') sein",
    "The sum of PaymentTerms/Amount elements or the value of the first PaymentTerms/Amount must equal PayableAmount": "Die Summe der Elemente PaymentTerms/Amount oder der Wert des ersten PaymentTerms/Amount muss gleich PayableAmount sein",
    "The sum of PrepaidPayment/PaidAmount elements must equal PrepaidAmount": "Die Summe der Elemente PrepaidPayment/PaidAmount muss gleich PrepaidAmount sein",
    "The sum of TaxTotal/RoundingAmount elements must equal PayableRoundingAmount": "Die Summe der Elemente TaxTotal/RoundingAmount muss gleich PayableRoundingAmount sein",
    "The sum of TaxTotal/TaxSubtotal/TaxAmount elements must equal TaxExclusiveAmount": "Die Summe der Elemente TaxTotal/TaxSubtotal/TaxAmount muss gleich TaxExclusiveAmount sein",
    "The taxable amount on the {1} when currency: '{2}', Tax Category ID: '{3}' and Tax Scheme ID: '{4}', does not match the sum of taxable amounts from the invoice or credit note lines, after adjusting for allowances (discounts) and charges (fees). A rounding difference of up to +/- 1 is allowed. Values found: - Taxable amount on the {5}: {6} - Calculated taxable amount (sum of lines adjusted for discounts and charges): {7} - Difference: {8}": "Der steuerpflichtige Betrag auf {1} (Währung '{2}', Tax Category ID '{3}', Tax Scheme ID '{4}') entspricht nicht der Summe der steuerpflichtigen Beträge der Rechnungs- oder Gutschriftzeilen nach Nachlässen (Rabatten) und Zuschlägen (Gebühren). Eine Rundungsdifferenz von bis zu +/- 1 ist erlaubt. Gefundene Werte: - steuerpflichtiger Betrag auf {5}: {6} - berechneter steuerpflichtiger Betrag (Summe der Zeilen nach Nachlässen und Zuschlägen): {7} - Differenz: {8}",
    "The value of unitCode attribute should be a valid UOM measure": "Der Wert des Attributs unitCode sollte eine gültige Maßeinheit sein",
    "The values in cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID on lines, total, and on cac:AllowanceCharge/cac:TaxCategory/cbc:ID must correspond. Values found - cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID: {1} - (cac:InvoiceLine | cac:CreditNoteLine)/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID: {2} - cac:AllowanceCharge/cac:TaxCategory/cbc:ID: {3}": "Die Werte von cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID auf den Zeilen, in der Summe und in cac:AllowanceCharge/cac:TaxCategory/cbc:ID müssen einander entsprechen. Gefundene Werte - cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID: {1} - (cac:InvoiceLine | cac:CreditNoteLine)/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID: {2} - cac:AllowanceCharge/cac:TaxCategory/cbc:ID: {3}",
    "There must be a EndDate if you have a EndTime": "Ist EndTime angegeben, muss es ein EndDate geben",
    "There must be a FirstName if the FamilyName is not present": "Fehlt FamilyName, muss es einen FirstName geben",
    "There must be a StartDate if you have a StartTime": "Ist StartTime angegeben, muss es ein StartDate geben",
    "There must be an OrderReference class for this profileID": "Für diese ProfileID muss es eine Klasse OrderReference geben",
    "There should be either a BuildingNumber or a Postbox for a StructuredDK address type": "Beim Adresstyp StructuredDK sollte es eine BuildingNumber oder eine Postbox geben",
    "There should be either a StreetName or a Postbox for a StructuredDK address type": "Beim Adresstyp StructuredDK sollte es einen StreetName oder eine Postbox geben",
    "TransactionCurrencyTaxAmount only valid when TaxCategory/ID = 'StandardRated'": "TransactionCurrencyTaxAmount ist nur bei TaxCategory/ID = 'StandardRated' zulässig",
    "Use a Valid UNSPSC 19.0501 code": "Einen gültigen Code aus UNSPSC 19.0501 verwenden",
    "Using the same TaxScheme ID in two different TaxTotal classes are not allowed.": "Dieselbe TaxScheme ID in zwei verschiedenen Klassen TaxTotal ist nicht erlaubt.",
    'When "TaxCategory/ID" is "ZeroRated", "TaxAmount" and "Percent" must be 0."> Values found: - TaxCategoty/ID: {1} - TaxCategory/Percent: {2} - TaxAmount: {3}': 'Ist "TaxCategory/ID" gleich "ZeroRated", müssen "TaxAmount" und "Percent" 0 sein."> Gefundene Werte: - TaxCategoty/ID: {1} - TaxCategory/Percent: {2} - TaxAmount: {3}',
    "When 'TaxCategory\\ID' = 'StandardRated', 'TaxCategory\\Percent' must be present and greater than 0.00. Found value: '{1}'.": "Ist 'TaxCategory\\ID' = 'StandardRated', muss 'TaxCategory\\Percent' vorhanden und größer als 0.00 sein. Gefundener Wert: '{1}'.",
    "When Contact/OtherCommunication is used, the element Contact/OtherCommunication/Value must be filled out.": "Wird Contact/OtherCommunication verwendet, muss das Element Contact/OtherCommunication/Value ausgefüllt sein.",
    "When Country is used, the element Country/IdentificationCode must be filled out": "Wird Country verwendet, muss das Element Country/IdentificationCode ausgefüllt sein",
    "When DocumentTypeCode equals 'PersonalSecure', the ID must be either '1' or '2'.": "Ist DocumentTypeCode gleich 'PersonalSecure', muss ID '1' oder '2' sein.",
    "When ID is used under Address the attribute schemeID is used to give an addressregister": "Wird ID unter Address verwendet, gibt das Attribut schemeID das Adressregister an",
    "When MultiplierFactorNumeric is used, BaseAmount is mandatory": "Wird MultiplierFactorNumeric verwendet, ist BaseAmount Pflicht",
    "When PaymentMeansCode = 50 and PaymentID = '04' or '15', InstructionID must be numeric.": "Bei PaymentMeansCode = 50 und PaymentID = '04' oder '15' muss InstructionID numerisch sein.",
    "When PaymentMeansCode = 50 and PaymentID = '04' or '15', InstructionID must not be blank.": "Bei PaymentMeansCode = 50 und PaymentID = '04' oder '15' darf InstructionID nicht leer sein.",
    "When PaymentMeansCode is '48', the CardAccount class must be used": "Bei PaymentMeansCode '48' muss die Klasse CardAccount verwendet werden",
    "When PerUnitAmount is used, BaseUnitMeasure is mandatory": "Wird PerUnitAmount verwendet, ist BaseUnitMeasure Pflicht",
    "When TaxCategory/TaxScheme/Id is VAT, the TaxCategory/Percent must be present.": "Ist TaxCategory/TaxScheme/Id gleich VAT, muss TaxCategory/Percent vorhanden sein.",
    "When using ExternalReference, URI is mandatory": "Wird ExternalReference verwendet, ist URI Pflicht",
    "cac:CertificateTypeCode must contain a value.": "cac:CertificateTypeCode muss einen Wert enthalten.",
    "cbc:CertificateType must contain a value.": "cbc:CertificateType muss einen Wert enthalten.",
    "cbc:ID must contain a value.": "cbc:ID muss einen Wert enthalten.",
    "if Name is 'NetEmissionQuantity', then its Value must equal EmissionFactor * Quantity (InvoicedQuantity / CreditedQuantity)\" Values found - NetEmissionQuantity value {1}' - NetEmissionFactor value {2}' - Quantity {3}'": "Ist Name gleich 'NetEmissionQuantity', muss sein Value gleich EmissionFactor * Quantity (InvoicedQuantity / CreditedQuantity) sein\" Gefundene Werte - Wert von NetEmissionQuantity {1}' - Wert von NetEmissionFactor {2}' - Quantity {3}'",
    "schemeID = DK:P, ID must be a valid P number (like '1234567890', value found: '{1}')": "schemeID = DK:P: ID muss eine gültige P-Nummer sein (etwa '1234567890', gefundener Wert: '{1}')",
    "schemeID attribute must be present on an address ID": "Eine Adress-ID muss das Attribut schemeID haben",
    "when ID equals 'Factoring', Note element is mandatory (factoring note)": "Ist ID gleich 'Factoring', ist das Element Note Pflicht (Factoring-Hinweis)",
}


def line_german(official: str) -> str | None:
    """The German of an invoice or credit note line calculation, clause by clause; None unless it is one."""
    if not official.startswith(_LINE_RULE):
        return None
    text = official
    for english, german_text in CLAUSES:
        text = text.replace(english, german_text)
    for word in (" must ", " when ", " with ", " present", " equal", "Invoice line", "CreditNote line", " since "):
        if word in text:
            return None
    return text


def german(official: str) -> tuple[str | None, str]:
    """The German text for ``official`` and how it was found (template, clauses, payment, hand), or None."""
    if official in HAND:
        return HAND[official], "hand"
    for pattern, template in TEMPLATES:
        match = re.match(pattern, official)
        if match:
            return match.expand(template), "template"
    line = line_german(official)
    if line is not None:
        return line, "clauses"
    payment = _PAYMENT.match(official)
    if payment is not None and payment["rest"] in PAYMENT_REST:
        prefix = payment["prefix"].replace(" or ", " oder ")
        return f"{prefix}: {PAYMENT_REST[payment['rest']]}", "payment"
    return None, "missing"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    entries: dict[str, list[Variant]] = {}
    how: Counter[str] = Counter()
    missing: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    elsewhere = load_catalogue([p for p in sorted(CATALOGUE_DIR.glob("*.toml")) if p != TARGET])
    for pack_key, rule_id, official in official_rule_texts(Registry()):
        if not pack_key.startswith("oioubl-") or (rule_id, official) in seen:
            continue
        if elsewhere.variant_for_official(rule_id, official) is not None:
            continue  # not expected (OIOUBL's ids are its own), but one entry per id and text in any case
        seen.add((rule_id, official))
        de, kind = german(official)
        how[kind] += 1
        if de is None:
            missing.append((rule_id, official))
            continue
        entries.setdefault(rule_id, []).append(Variant(official=official, de=de))
    print(", ".join(f"{k}: {n}" for k, n in sorted(how.items())), file=sys.stderr)
    for rule_id, official in missing:
        print(f"no German text: {rule_id}\t{official}")
    if missing or args.dry_run:
        return 1 if missing else 0
    write_catalogue_file(TARGET, {k: entries[k] for k in sorted(entries, key=natural_key)})
    print(f"wrote {TARGET.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
