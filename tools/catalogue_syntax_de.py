"""Write the German texts of the syntax binding rules (``rulesets/messages/en16931-syntax.toml``).

The UBL-CR, CII-SR and CII-DT rules are large families of mechanical sentences ("A UBL invoice should not include
the X", "X should not be present", ...). This script classifies every official text by its sentence pattern,
produces the German sentence from a template and rewrites the file. Texts no template covers (UBL-SR, UBL-DT, the
odd UBL-CR / CII-SR / CII-DT sentences, anything naming BT/BG ids or conditions) are written by hand in
:data:`HAND`, keyed by rule id and official text. Nothing falls back to the English text: if a text is left
without German, the script lists it, writes nothing and exits with status 1.

    python tools/catalogue_syntax_de.py            # fill ``de`` of every entry and rewrite the file
    python tools/catalogue_syntax_de.py --dry-run  # only classify and report (counts, unmatched texts)

Afterwards: ``python tools/catalogue.py lint rulesets/messages/en16931-syntax.toml`` must report 0 problems.

Conventions: XML names stay literal; a UBL element path given as space separated names is written with ``/``
(``AccountingSupplierParty/Party/PostalAddress/BlockName``); a name starting with a lower-case letter or ``@`` is
an attribute (``schemeID``, ``listID``, ``@format``), every other name an element. Obvious misspellings of element
names in the official texts (``Xpath``, ``Descriprion``, ...; checked against the Schematron tests) are written
with the real element name (:data:`ELEMENT_TYPOS`).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from einvoice_validate.messages import Variant, load_catalogue  # noqa: E402
from einvoice_validate.rulesets.catalogue import write_catalogue_file  # noqa: E402

CATALOGUE_FILE = REPO / "rulesets" / "messages" / "en16931-syntax.toml"

# Misspelled / shortened element names of the official texts -> the element the rule's test names.
ELEMENT_TYPOS: dict[str, str] = {
    "Xpath": "XPath",
    "DocumenDescription": "DocumentDescription",
    "Descriprion": "Description",
    "External": "ExternalReference",
    "CalulationSequenceNumeric": "CalculationSequenceNumeric",
    "BareCodeSymbologyID": "BarcodeSymbologyID",
    "CorporationStockAmount": "CorporateStockAmount",
    "IssuerNumberID": "IssueNumberID",
    "ValidationPeriod": "ValidityPeriod",
    "PrimaryAccountNumber": "PrimaryAccountNumberID",
    "PayerSpecifiedDebtorFincancialInstitution": "PayerSpecifiedDebtorFinancialInstitution",
}

_NAME = r"[A-Z][A-Za-z0-9]*"
_PATH = rf"{_NAME}(?:[ /]{_NAME})*"
_UBL_DOC = r"A UBL (?P<doc>invoice|credit note) (?P<modal>should|shall) not include the "

DOCUMENT = {"invoice": "Eine UBL-Rechnung", "credit note": "Eine UBL-Gutschrift"}
NOT_MODAL = {"should": "sollte", "shall": "darf"}


def path(text: str) -> str:
    """Space or slash separated names -> ``A/B/C``, misspelled names corrected."""
    return "/".join(ELEMENT_TYPOS.get(name, name) for name in re.split(r"[ /]", text))


def node(name: str) -> str:
    """``Element X`` or ``Attribut x`` (lower-case first letter or ``@``: an attribute, named without ``@``)."""
    if name[:1] == "@" or name[:1].islower():
        return f"Attribut {name.removeprefix('@')}"
    return f"Element {path(name)}"


# --- templates ------------------------------------------------------------------------------------------------


def ubl_element(m: re.Match[str]) -> str:
    return f"{DOCUMENT[m['doc']]} {NOT_MODAL[m['modal']]} das Element {path(m['path'])} nicht enthalten."


def ubl_attribute(m: re.Match[str]) -> str:
    owner = f" des Elements {path(m['path'])}" if m["path"] else ""
    return f"{DOCUMENT[m['doc']]} {NOT_MODAL[m['modal']]} das Attribut {m['attr']}{owner} nicht enthalten."


def ubl_scheme_identifier(m: re.Match[str]) -> str:
    modal = NOT_MODAL[m["modal"]]
    return f"{DOCUMENT[m['doc']]} {modal} keine Schemakennung (Attribut schemeID) für {path(m['path'])} enthalten."


def not_present(m: re.Match[str]) -> str:
    return f"Das {node(m['name'])} sollte nicht vorhanden sein."


def not_used(m: re.Match[str]) -> str:
    return f"Das {node(m['name'])} darf nicht verwendet werden."


def maximum_once(m: re.Match[str]) -> str:
    modal = {"should": "sollte", "shall": "darf"}[m["modal"]]
    return f"Das Element {path(m['path'])} {modal} höchstens einmal vorhanden sein."


def exactly_once(m: re.Match[str]) -> str:
    return f"Das Element {path(m['name'])} muss genau einmal vorhanden sein."


def at_most_once_in(m: re.Match[str]) -> str:
    return f"Das Element {path(m['name'])} darf in {m['parent']} höchstens einmal vorkommen."


def only_one(m: re.Match[str]) -> str:
    modal = {"should": "sollte", "shall": "darf"}[m["modal"]]
    return f"Es {modal} nur ein Element {path(m['path'])} vorhanden sein."


@dataclasses.dataclass(frozen=True)
class Template:
    name: str
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str]], str]


TEMPLATES: tuple[Template, ...] = (
    Template(
        "UBL: should not include the <element path>",
        re.compile(_UBL_DOC + rf"(?P<path>{_PATH})"),
        ubl_element,
    ),
    Template(
        "UBL: should not include the <path> scheme identifier",
        re.compile(_UBL_DOC + rf"(?P<path>{_PATH}) scheme identifier"),
        ubl_scheme_identifier,
    ),
    Template(
        "UBL: should not include the [<path>] <attribute>",
        re.compile(_UBL_DOC + rf"(?:(?P<path>{_PATH}) )?(?P<attr>[a-z][A-Za-z]*)"),
        ubl_attribute,
    ),
    Template(
        "CII: <name> should not be present",
        re.compile(r"(?P<name>@?[A-Za-z]+?)\s*should not be present"),
        not_present,
    ),
    Template(
        "CII: <name> shall not be used.",
        re.compile(r"(?P<name>[A-Za-z]+) shall not be used\."),
        not_used,
    ),
    Template(
        "CII: <path> should|shall exist maximum once",
        re.compile(rf"(?P<path>{_NAME}(?: {_NAME})*) (?P<modal>should|shall) exist maximum once\.?"),
        maximum_once,
    ),
    Template(
        "CII: <name> must exist exactly once",
        re.compile(rf"(?P<name>{_NAME}) must exist exactly once\.?"),
        exactly_once,
    ),
    Template(
        "CII: <name> shall occur at most once in <parent>.",
        re.compile(rf"(?P<name>{_NAME}) shall occur at most once in (?P<parent>{_NAME})\."),
        at_most_once_in,
    ),
    Template(
        "CII: Only one <path> should|shall be present",
        re.compile(rf"Only one (?P<path>{_NAME}(?: {_NAME})*) (?P<modal>should|shall) be present"),
        only_one,
    ),
)

# --- hand-written texts: (rule id, official text) -> German ------------------------------------------------------

_UBL_SR_MAX_ONCE: dict[str, tuple[str, str]] = {
    # rule id -> (official subject, German subject with article); the sentence is "<subject> darf höchstens ..."
    "UBL-SR-01": ("Contract identifier", "Die Vertragsnummer"),
    "UBL-SR-02": ("Receive advice identifier", "Die Kennung der Empfangsbestätigung"),
    "UBL-SR-03": ("Despatch advice identifier", "Die Kennung der Versandanzeige"),
    "UBL-SR-04": ("Invoice object identifier", "Die Kennung des in Rechnung gestellten Objekts"),
    "UBL-SR-06": ("Preceding invoice reference", "Die Referenz auf eine vorausgegangene Rechnung"),
    "UBL-SR-08": ("Invoice period", "Der Abrechnungszeitraum"),
    "UBL-SR-09": ("Seller name", "Der Name des Verkäufers"),
    "UBL-SR-10": ("Seller trader name", "Der Handelsname des Verkäufers"),
    "UBL-SR-11": ("Seller legal registration identifier", "Die Kennung der rechtlichen Registrierung des Verkäufers"),
    "UBL-SR-12": ("Seller VAT identifier", "Die Umsatzsteuer-Identifikationsnummer des Verkäufers"),
    "UBL-SR-13": ("Seller tax registration", "Die Steuernummer des Verkäufers"),
    "UBL-SR-15": ("Buyer name", "Der Name des Käufers"),
    "UBL-SR-16": ("Buyer identifier", "Die Kennung des Käufers"),
    "UBL-SR-17": ("Buyer legal registration identifier", "Die Kennung der rechtlichen Registrierung des Käufers"),
    "UBL-SR-18": ("Buyer VAT identifier", "Die Umsatzsteuer-Identifikationsnummer des Käufers"),
    "UBL-SR-25": ("Deliver to party name", "Der Name des Empfängers der Lieferung"),
    "UBL-SR-26": ("Payment reference", "Der Verwendungszweck"),
    "UBL-SR-27": ("Payment means text", "Der Text zum Zahlungsmittel"),
    "UBL-SR-28": ("Mandate reference identifier", "Die Kennung der Mandatsreferenz"),
    "UBL-SR-29": ("Bank creditor reference", "Die Gläubiger-Identifikationsnummer"),
    "UBL-SR-30": ("Document level allowance reason", "Der Grund für den Nachlass auf Dokumentenebene"),
    "UBL-SR-31": ("Document level charge reason", "Der Grund für den Zuschlag auf Dokumentenebene"),
    "UBL-SR-32": ("VAT exemption reason text", "Der Text des Befreiungsgrunds"),
    "UBL-SR-33": ("Supporting document description", "Die Beschreibung des rechnungsbegründenden Dokuments"),
    "UBL-SR-34": ("Invoice line note", "Der Freitext zur Rechnungsposition"),
    "UBL-SR-35": ("Referenced purchase order line identifier", "Die Referenz auf die Bestellposition"),
    "UBL-SR-36": ("Invoice line period", "Der Abrechnungszeitraum der Rechnungsposition"),
    "UBL-SR-37": ("Item price discount", "Der Rabatt auf den Artikelpreis"),
    "UBL-SR-40": ("Buyer trade name", "Der Handelsname des Käufers"),
    "UBL-SR-45": ("Due Date", "Das Fälligkeitsdatum"),
    "UBL-SR-46": ("Payment means text", "Der Text zum Zahlungsmittel"),
    "UBL-SR-49": ("Value tax point date", "Das Umsatzsteuer-Abrechnungsdatum"),
    "UBL-SR-50": ("Item description", "Die Artikelbeschreibung"),
    "UBL-SR-52": ("Document reference", "Die Dokumentreferenz"),
}

_UBL_DT_ABSENT: dict[str, tuple[str, str]] = {
    # rule id -> (official text, German subject); the sentence is "<subject> sollte nicht vorhanden sein."
    "UBL-DT-08": ("Scheme name attribute", "Das Attribut für den Schemanamen (schemeName)"),
    "UBL-DT-09": ("Scheme agency name attribute", "Das Attribut für den Namen der Schema-Agentur (schemeAgencyName)"),
    "UBL-DT-10": ("Scheme data uri attribute", "Das Attribut für die Daten-URI des Schemas (schemeDataURI)"),
    "UBL-DT-11": ("Scheme uri attribute", "Das Attribut für die URI des Schemas (schemeURI)"),
    "UBL-DT-12": ("Format attribute", "Das Formatattribut (format)"),
    "UBL-DT-13": (
        "Unit code list identifier attribute",
        "Das Attribut für die Kennung der Codeliste der Maßeinheit (unitCodeListIdentifier)",
    ),
    "UBL-DT-14": (
        "Unit code list agency identifier attribute",
        "Das Attribut für die Kennung der Agentur der Codeliste der Maßeinheit (unitCodeListAgencyIdentifier)",
    ),
    "UBL-DT-15": (
        "Unit code list agency name attribute",
        "Das Attribut für den Namen der Agentur der Codeliste der Maßeinheit (unitCodeListAgencyName)",
    ),
    "UBL-DT-16": (
        "List agency name attribute",
        "Das Attribut für den Namen der Agentur der Codeliste (listAgencyName)",
    ),
    "UBL-DT-17": ("List name attribute", "Das Attribut für den Namen der Codeliste (listName)"),
    "UBL-DT-18": ("Name attribute", "Das Namensattribut (name)"),
    "UBL-DT-19": ("Language identifier attribute", "Das Attribut für die Sprachkennung (languageID)"),
    "UBL-DT-20": ("List uri attribute", "Das Attribut für die URI der Codeliste (listURI)"),
    "UBL-DT-21": ("List scheme uri attribute", "Das Attribut für die Schema-URI der Codeliste (listSchemeURI)"),
    "UBL-DT-22": (
        "Language local identifier attribute",
        "Das Attribut für die Kennung des Gebietsschemas der Sprache (languageLocaleID)",
    ),
    "UBL-DT-23": ("Uri attribute", "Das URI-Attribut (uri)"),
    "UBL-DT-24": (
        "Currency code list version id",
        "Die Versionskennung der Codeliste der Währung (Attribut currencyCodeListVersionID)",
    ),
    "UBL-DT-25": ("CharacterSetCode attribute", "Das Attribut characterSetCode"),
    "UBL-DT-26": ("EncodingCode attribute", "Das Attribut encodingCode"),
    "UBL-DT-27": ("Scheme Agency ID attribute", "Das Attribut für die Kennung der Schema-Agentur (schemeAgencyID)"),
    "UBL-DT-28": ("List Agency ID attribute", "Das Attribut für die Kennung der Agentur der Codeliste (listAgencyID)"),
}

_PAYEE = ", if the Payee is different from the Seller"
_PAYEE_DE = ", wenn der Zahlungsempfänger nicht der Verkäufer ist."
_TAXREP = ", if the Seller has a tax representative"
_TAXREP_DE = ", wenn der Verkäufer einen Steuerbevollmächtigten hat."
_MAX = " shall occur maximum once"
_MAX_DE_SG = " darf höchstens einmal vorkommen"
_MAX_DE_PL = " dürfen höchstens einmal vorkommen"
_ALLOWANCE_CHARGE = "Each Specified Trade Allowance Charge (BG-20)(BG-21)"
_ALLOWANCE_CHARGE_DE = "Jedes Element SpecifiedTradeAllowanceCharge (BG-20)(BG-21)"

_HAND_UBL: dict[tuple[str, str], str] = {
    ("UBL-CR-001", "A UBL invoice should not include extensions"): (
        "Eine UBL-Rechnung sollte keine Erweiterungen (UBLExtensions) enthalten."
    ),
    ("UBL-CR-002", "A UBL invoice should not include the UBLVersionID or it should be 2.1"): (
        "Eine UBL-Rechnung sollte das Element UBLVersionID nicht enthalten; ist es vorhanden,"
        " sollte sein Wert 2.1 sein."
    ),
    ("UBL-CR-660", "A UBL invoice should not include the Country Identification code listID"): (
        "Eine UBL-Rechnung sollte das Attribut listID des Elements Country/IdentificationCode nicht enthalten."
    ),
    (
        "UBL-CR-665",
        "A UBL invoice should not include the AdditionalDocumentReference ID schemeID unless the DocumentTypeCode"
        " equals '130'",
    ): (
        "Eine UBL-Rechnung sollte das Attribut schemeID des Elements AdditionalDocumentReference/ID nicht enthalten,"
        " es sei denn, DocumentTypeCode hat den Wert '130'."
    ),
    (
        "UBL-CR-666",
        "A UBL invoice shall not include an AdditionalDocumentReference simultaneously referring an Invoice Object"
        " Identifier and an Attachment",
    ): (
        "Eine UBL-Rechnung darf kein Element AdditionalDocumentReference enthalten, das gleichzeitig auf eine"
        " Kennung des in Rechnung gestellten Objekts und auf einen Anhang (Attachment) verweist."
    ),
    (
        "UBL-CR-673",
        "A UBL invoice shall not include an AdditionalDocumentReference simultaneously referring an Invoice Object"
        " Identifier and an Document Description",
    ): (
        "Eine UBL-Rechnung darf kein Element AdditionalDocumentReference enthalten, das gleichzeitig auf eine"
        " Kennung des in Rechnung gestellten Objekts und auf eine Dokumentbeschreibung (DocumentDescription) verweist."
    ),
    ("UBL-CR-667", "A UBL invoice should not include a Buyer Item Identification schemeID"): (
        "Eine UBL-Rechnung sollte das Attribut schemeID der Artikelkennung des Käufers"
        " (BuyersItemIdentification/ID) nicht enthalten."
    ),
    ("UBL-CR-668", "A UBL invoice should not include a Sellers Item Identification schemeID"): (
        "Eine UBL-Rechnung sollte das Attribut schemeID der Artikelkennung des Verkäufers"
        " (SellersItemIdentification/ID) nicht enthalten."
    ),
    ("UBL-CR-669", "A UBL invoice should not include a Price Allowance Reason Code"): (
        "Eine UBL-Rechnung sollte keinen Code des Grundes für den Nachlass auf den Preis"
        " (Price/AllowanceCharge/AllowanceChargeReasonCode) enthalten."
    ),
    ("UBL-CR-670", "A UBL invoice should not include a Price Allowance Reason"): (
        "Eine UBL-Rechnung sollte keinen Grund für den Nachlass auf den Preis"
        " (Price/AllowanceCharge/AllowanceChargeReason) enthalten."
    ),
    ("UBL-CR-671", "A UBL invoice should not include a Price Allowance Multiplier Factor"): (
        "Eine UBL-Rechnung sollte keinen Multiplikationsfaktor für den Nachlass auf den Preis"
        " (Price/AllowanceCharge/MultiplierFactorNumeric) enthalten."
    ),
    ("UBL-SR-05", "Payment terms" + _MAX): "Die Zahlungsbedingungen" + _MAX_DE_PL + ".",
    ("UBL-SR-07", "If there is a preceding invoice reference, the preceding invoice number shall be present"): (
        "Wenn eine Referenz auf eine vorausgegangene Rechnung vorhanden ist, muss die Nummer der vorausgegangenen"
        " Rechnung angegeben sein."
    ),
    ("UBL-SR-14", "Seller additional legal information" + _MAX): (
        "Die weiteren rechtlichen Informationen zum Verkäufer" + _MAX_DE_PL + "."
    ),
    ("UBL-SR-19", "Payee name" + _MAX + _PAYEE): "Der Name des Zahlungsempfängers" + _MAX_DE_SG + _PAYEE_DE,
    ("UBL-SR-20", "Payee identifier" + _MAX + _PAYEE): "Die Kennung des Zahlungsempfängers" + _MAX_DE_SG + _PAYEE_DE,
    ("UBL-SR-21", "Payee legal registration identifier" + _MAX + _PAYEE): (
        "Die Kennung der rechtlichen Registrierung des Zahlungsempfängers" + _MAX_DE_SG + _PAYEE_DE
    ),
    ("UBL-SR-22", "Seller tax representative name" + _MAX + _TAXREP): (
        "Der Name des Steuerbevollmächtigten des Verkäufers" + _MAX_DE_SG + _TAXREP_DE
    ),
    ("UBL-SR-23", "Seller tax representative VAT identifier" + _MAX + _TAXREP): (
        "Die Umsatzsteuer-Identifikationsnummer des Steuerbevollmächtigten des Verkäufers" + _MAX_DE_SG + _TAXREP_DE
    ),
    ("UBL-SR-24", "Deliver to information" + _MAX): "Die Lieferinformationen" + _MAX_DE_PL + ".",
    ("UBL-SR-39", "Project reference shall occur maximum once."): "Die Projektreferenz" + _MAX_DE_SG + ".",
    ("UBL-SR-42", "Party tax scheme shall occur maximum twice in accounting supplier party"): (
        "Das Steuerschema der Partei (PartyTaxScheme) darf beim Verkäufer (AccountingSupplierParty) höchstens"
        " zweimal vorkommen."
    ),
    (
        "UBL-SR-43",
        "Scheme identifier shall only be used for invoiced object (document type code with value 130 or 50)",
    ): (
        "Eine Schemakennung (schemeID) darf nur für die Kennung des in Rechnung gestellten Objekts verwendet werden"
        " (Dokumenttypcode mit dem Wert 130 oder 50)."
    ),
    ("UBL-SR-43", "Scheme identifier shall only be used for invoiced object (document type code with value 130)"): (
        "Eine Schemakennung (schemeID) darf nur für die Kennung des in Rechnung gestellten Objekts verwendet werden"
        " (Dokumenttypcode mit dem Wert 130)."
    ),
    (
        "UBL-SR-44",
        "An Invoice may only have one unique PaymentID, but the PaymentID may be used for multiple PaymentMeans",
    ): (
        "Eine Rechnung darf nur eine eindeutige PaymentID haben; diese PaymentID darf jedoch für mehrere"
        " PaymentMeans verwendet werden."
    ),
    ("UBL-SR-47", "When there are more than one payment means code, they shall be equal"): (
        "Wenn mehr als ein Code für das Zahlungsmittel vorhanden ist, müssen alle gleich sein."
    ),
    ("UBL-SR-48", "Invoice lines shall have one and only one classified tax category."): (
        "Jede Rechnungsposition muss genau eine Steuerkategorie (ClassifiedTaxCategory) haben."
    ),
    ("UBL-SR-51", "An address can only have one third line."): "Eine Anschrift darf nur eine dritte Adresszeile haben.",
    ("UBL-SR-53", "CompanyID (VAT Identifier) must be stated when providing the PartyTaxScheme/TaxScheme/ID."): (
        "Das Element CompanyID (Umsatzsteuer-Identifikationsnummer) muss angegeben werden,"
        " wenn PartyTaxScheme/TaxScheme/ID angegeben wird."
    ),
    ("UBL-SR-54", "An Invoice shall contain maximum one Payment Card account (BG-18)."): (
        "Eine Rechnung darf höchstens ein Zahlungskartenkonto (BG-18) enthalten."
    ),
    ("UBL-SR-55", "An Invoice shall contain maximum one Payment Mandate (BG-19)."): (
        "Eine Rechnung darf höchstens ein Lastschriftmandat (BG-19) enthalten."
    ),
    ("UBL-SR-56", "An Invoice shall contain maximum one Originator document reference identifier (BT-17)."): (
        "Eine Rechnung darf höchstens eine Vergabenummer (BT-17) enthalten."
    ),
    ("UBL-DT-01", "Amounts shall be decimal up to two fraction digits"): (
        "Beträge müssen Dezimalzahlen mit höchstens zwei Nachkommastellen sein."
    ),
    ("UBL-DT-06", "Binary object elements shall contain the mime code attribute"): (
        "Elemente mit Binärobjekten müssen das Attribut für den MIME-Code (mimeCode) enthalten."
    ),
    ("UBL-DT-07", "Binary object elements shall contain the file name attribute"): (
        "Elemente mit Binärobjekten müssen das Attribut für den Dateinamen (filename) enthalten."
    ),
}

_HAND_CII: dict[tuple[str, str], str] = {
    ("CII-SR-046", "schemeID must be present if GlobalID is present"): (
        "Das Attribut schemeID muss vorhanden sein, wenn GlobalID vorhanden ist."
    ),
    ("CII-SR-119", "Only allowances on price a price should be present"): (
        "Beim Preis sollten nur Nachlässe (keine Zuschläge) vorhanden sein."
    ),
    ("CII-SR-449", "Only one delivery to location identifier should be present (either the ID or the Global ID)"): (
        "Es sollte nur eine Kennung des Lieferorts vorhanden sein (entweder ID oder GlobalID)."
    ),
    ("CII-SR-450", "Only one buyer identifier should be present (either the ID or the Global ID)"): (
        "Es sollte nur eine Kennung des Käufers vorhanden sein (entweder ID oder GlobalID)."
    ),
    ("CII-SR-451", "Only one payee identifier should be present (either the ID or the Global ID)"): (
        "Es sollte nur eine Kennung des Zahlungsempfängers vorhanden sein (entweder ID oder GlobalID)."
    ),
    ("CII-SR-455", "DefinedTradeContact of SellerTradeParty shall exist maximum once"): (
        "Das Element DefinedTradeContact von SellerTradeParty darf höchstens einmal vorhanden sein."
    ),
    ("CII-SR-456", "DefinedTradeContact of BuyerTradeParty shall exist maximum once"): (
        "Das Element DefinedTradeContact von BuyerTradeParty darf höchstens einmal vorhanden sein."
    ),
    ("CII-SR-457", "IssuerAssignedID with TypeCode 50 should exist maximum once"): (
        "Das Element IssuerAssignedID mit TypeCode 50 sollte höchstens einmal vorhanden sein."
    ),
    ("CII-SR-458", "IssuerAssignedID with TypeCode 130 should exist maximum once"): (
        "Das Element IssuerAssignedID mit TypeCode 130 sollte höchstens einmal vorhanden sein."
    ),
    ("CII-SR-463", _ALLOWANCE_CHARGE + " shall contain a Charge Indicator."): (
        _ALLOWANCE_CHARGE_DE + " muss das Element ChargeIndicator (Zuschlagsindikator) enthalten."
    ),
    ("CII-SR-471", _ALLOWANCE_CHARGE + " shall contain a VAT category code (BT-95)."): (
        _ALLOWANCE_CHARGE_DE + " muss einen Code der Umsatzsteuerkategorie (BT-95) enthalten."
    ),
    ("CII-SR-472", _ALLOWANCE_CHARGE + " should contain a VAT rate (BT-96)."): (
        _ALLOWANCE_CHARGE_DE + " sollte einen Umsatzsteuersatz (BT-96) enthalten."
    ),
    ("CII-SR-464", "Only one BT-86 element is allowed on an invoice."): (
        "In einer Rechnung ist nur ein Element BT-86 (Kennung des Zahlungsdienstleisters) zulässig."
    ),
    ("CII-SR-465", "Only one BT-41 element is allowed on an invoice."): (
        "In einer Rechnung ist nur ein Element BT-41 (Kontaktstelle des Verkäufers) zulässig."
    ),
    ("CII-SR-466", "Only one BT-56 element is allowed on an invoice."): (
        "In einer Rechnung ist nur ein Element BT-56 (Kontaktstelle des Käufers) zulässig."
    ),
    (
        "CII-SR-467",
        "All Payment means type codes (BT-81) shall have the same value across all"
        " SpecifiedTradeSettlementPaymentMeans.",
    ): (
        "Alle Codes für das Zahlungsmittel (BT-81) müssen in allen SpecifiedTradeSettlementPaymentMeans denselben"
        " Wert haben."
    ),
    (
        "CII-SR-468",
        "All Payment means texts (BT-82) shall have the same value across all SpecifiedTradeSettlementPaymentMeans.",
    ): (
        "Alle Texte zum Zahlungsmittel (BT-82) müssen in allen SpecifiedTradeSettlementPaymentMeans denselben"
        " Wert haben."
    ),
    ("CII-SR-469", "Payment reference (BT-83) shall occur at most once in the document."): (
        "Der Verwendungszweck (BT-83) darf im Dokument höchstens einmal vorkommen."
    ),
    ("CII-SR-470", "Either the IBAN or a Proprietary ID (BT-84) shall be used."): (
        "Es muss entweder die IBAN oder eine proprietäre Kennung (BT-84) verwendet werden."
    ),
    ("CII-SR-474", "An invoice line shall not contain more than one AdditionalReferencedDocument with TypeCode 130."): (
        "Eine Rechnungsposition darf nicht mehr als ein Element AdditionalReferencedDocument mit TypeCode 130"
        " enthalten."
    ),
    ("CII-SR-475", "Only one AdditionalReferencedDocument Name BT-123 is allowed with TypeCode 916."): (
        "Bei TypeCode 916 ist nur ein Element AdditionalReferencedDocument/Name (BT-123) zulässig."
    ),
    (
        "CII-SR-476",
        "Only one AdditionalReferencedDocument AttachmentBinaryObject BT-125 is allowed with TypeCode 916.",
    ): "Bei TypeCode 916 ist nur ein Element AdditionalReferencedDocument/AttachmentBinaryObject (BT-125) zulässig.",
    ("CII-DT-037", "TypeCode shall be 'VAT'"): "Das Element TypeCode muss den Wert 'VAT' haben.",
    ("CII-DT-097", "Date time string with format attribute 102 shall be YYYYMMDD."): (
        "Eine Datumsangabe mit dem Formatattribut 102 muss die Form YYYYMMDD (Jahr, Monat, Tag) haben."
    ),
}


def _hand() -> dict[tuple[str, str], str]:
    hand = {**_HAND_UBL, **_HAND_CII}
    for rule_id, (subject, german) in _UBL_SR_MAX_ONCE.items():
        for ending in ("", "."):
            hand[(rule_id, subject + _MAX + ending)] = german + _MAX_DE_SG + "."
    for rule_id, (subject, german) in _UBL_DT_ABSENT.items():
        hand[(rule_id, subject + " should not be present")] = german + " sollte nicht vorhanden sein."
    return hand


HAND = _hand()

# --- driver ---------------------------------------------------------------------------------------------------


def german(rule_id: str, official: str, hand: dict[tuple[str, str], str]) -> tuple[str, str] | None:
    """(German text, how it was made) or None when neither the hand-written texts nor a template covers it."""
    if (rule_id, official) in hand:
        return hand[(rule_id, official)], "hand-written"
    for template in TEMPLATES:
        m = template.pattern.fullmatch(official)
        if m:
            return template.build(m), template.name
    return None


def translate(entries: dict[str, tuple[Variant, ...]]) -> tuple[dict[str, list[Variant]], Counter[str], list[str]]:
    """The entries with ``de`` filled, the count per template and the texts nothing covered."""
    out: dict[str, list[Variant]] = {}
    counts: Counter[str] = Counter()
    missing: list[str] = []
    used: set[tuple[str, str]] = set()
    for rule_id, variants in entries.items():
        out[rule_id] = []
        for v in variants:
            result = german(rule_id, v.official, HAND)
            if result is None:
                missing.append(f"{rule_id}\t{v.official}")
                out[rule_id].append(v)
                continue
            text, how = result
            if how == "hand-written":
                used.add((rule_id, v.official))
            counts[how] += 1
            out[rule_id].append(dataclasses.replace(v, de=text))
    stale = {k for k in HAND if k[0] in entries} - used
    # UBL-SR texts exist with and without a final full stop; only the variant in the file is used.
    stale = {k for k in stale if (k[0], k[1].rstrip(".")) not in used and (k[0], k[1] + ".") not in used}
    missing.extend(f"{rid}\t{text}\t(hand-written text matches no entry)" for rid, text in sorted(stale))
    return out, counts, missing


def report(counts: Counter[str], missing: list[str]) -> bool:
    """Print how many texts each way covered and every text left without German; True when none is left."""
    for how, n in counts.most_common():
        print(f"{n:5d}  {how}")
    print(f"{sum(counts.values()):5d}  total")
    if missing:
        print(f"\n{len(missing)} texts without German:", file=sys.stderr)
        for line in missing:
            print(line, file=sys.stderr)
    return not missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="classify and report, do not rewrite the file")
    parser.add_argument("file", nargs="?", type=Path, default=CATALOGUE_FILE)
    args = parser.parse_args(argv)
    entries = load_catalogue([args.file]).entries
    out, counts, missing = translate(entries)
    if not report(counts, missing):
        return 1
    if not args.dry_run:
        write_catalogue_file(args.file, out)
        print(f"wrote {args.file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
