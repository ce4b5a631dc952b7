"""Write the Factur-X catalogue (``rulesets/messages/facturx.toml``): every rule text of the installed ZUGFeRD packs.

The Factur-X stylesheets state most rules in a few mechanical sentences ("Element 'ram:X' must occur exactly 1
times.", "Value of '@schemeID' is not allowed.", "Element 'ram:X' is marked as not used in the given context.");
the German sentence comes from a template per pattern (:data:`TEMPLATES`). Texts that restate an EN 16931 rule
with CEN's wording take the German text the catalogue already has for that wording. What is left is written by
hand in :data:`HAND` (official text -> German). Nothing falls back to the English text: a text without German is
listed and the script writes nothing (exit status 1).

    python tools/catalogue_facturx_de.py            # (re)write rulesets/messages/facturx.toml
    python tools/catalogue_facturx_de.py --dry-run  # only report what is covered how

Needs the ZUGFeRD packs installed in the rules home (``einvoice-validate rulesets install``). Afterwards
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

TARGET = CATALOGUE_DIR / "facturx.toml"

_Q = r"'(?P<name>.+)'"
TEMPLATES: tuple[tuple[str, str], ...] = (
    (rf"^Value of {_Q} is not allowed\.$", "Der Wert von '{name}' ist nicht zulässig."),
    (rf"^Attribute {_Q} is required in this context\.$", "Das Attribut '{name}' ist in diesem Kontext erforderlich."),
    (
        rf"^Element {_Q} must occur exactly (?P<n>\d+) times\.$",
        "Das Element '{name}' muss genau {n}-mal vorkommen.",
    ),
    (
        rf"^Element {_Q} may occur at maximum (?P<n>\d+) times\.$",
        "Das Element '{name}' darf höchstens {n}-mal vorkommen.",
    ),
    (
        rf"^Element {_Q} must occur at least (?P<n>\d+) times\.$",
        "Das Element '{name}' muss mindestens {n}-mal vorkommen.",
    ),
    (
        rf"^Element variant {_Q} must occur exactly (?P<n>\d+) times\.$",
        "Die Elementvariante '{name}' muss genau {n}-mal vorkommen.",
    ),
    (
        rf"^Element variant {_Q} may occur at maximum (?P<n>\d+) times\.$",
        "Die Elementvariante '{name}' darf höchstens {n}-mal vorkommen.",
    ),
    (
        rf"^Element variant {_Q} must occur at least (?P<n>\d+) times\.$",
        "Die Elementvariante '{name}' muss mindestens {n}-mal vorkommen.",
    ),
    (
        rf"^Element {_Q} is marked as not used in the given context\.$",
        "Das Element '{name}' ist in diesem Kontext als nicht verwendet gekennzeichnet.",
    ),
    (
        rf"^Element variant {_Q} is marked as not used in the given context\.$",
        "Die Elementvariante '{name}' ist in diesem Kontext als nicht verwendet gekennzeichnet.",
    ),
    (
        r"^Attribute (?P<name>@[\w:.-]+)' marked as not used in the given context\.$",
        "Das Attribut '{name}' ist in diesem Kontext als nicht verwendet gekennzeichnet.",
    ),
)

# The VAT breakdown rules (BR-FXEXT-S/Z/E/AE/K/G/O/L/M-08 and the "shall contain in the VAT breakdown" rules) are
# one long sentence each, built from the same clauses: translated clause by clause, longest first.
CLAUSES: tuple[tuple[str, str], ...] = (
    (
        " or the same rule but also taking into account the exemption reasons in Text (BT-120) and Code (BT-121) in "
        "BG-23 and the exemption reasons on each line (BT-X-96 / BT-X-97), on Document level Allowances (BT-173 / "
        "BT-174) and on Document Level Charges (BT-175 / BT-176)",
        " oder dieselbe Regel unter Berücksichtigung der Befreiungsgründe als Text (BT-120) und Code (BT-121) in BG-23 "
        "und der Befreiungsgründe jeder Position (BT-X-96 / BT-X-97), der Nachlässe auf Dokumentenebene (BT-173 / "
        "BT-174) und der Zuschläge auf Dokumentenebene (BT-175 / BT-176)",
    ),
    (
        " and on Service logistic charges (BT-X-591 / BT-X-592). One of the two rules must be followed, bearing in mind "
        "that ultimately only the second one will have to be followed.",
        " und der Logistikgebühren (BT-X-591 / BT-X-592). Eine der beiden Regeln muss eingehalten werden; künftig "
        "wird nur noch die zweite gelten.",
    ),
    (
        ", and on Service logistic charges (BT-X-591 / BT-X-592). One of the two rules must be followed, bearing in "
        "mind that ultimately only the second one will have to be followed.",
        " und der Logistikgebühren (BT-X-591 / BT-X-592). Eine der beiden Regeln muss eingehalten werden; künftig "
        "wird nur noch die zweite gelten.",
    ),
    (
        "and where applicable the VAT exemption reason and specification code (BT-195, BT-174 and BT-176 and "
        "BT-X-592) and the Exemption reason text (BT-194, BT-173 and BT-175 and BT-X-591) are identical with the VAT "
        "category VAT exemption reason and specification code (BT-121) and VAT exemption reason text (BT-120)",
        "und, wo zutreffend, der Code (BT-195, BT-174, BT-176 und BT-X-592) und der Text (BT-194, BT-173, BT-175 und "
        "BT-X-591) des Befreiungsgrunds mit dem Code (BT-121) und dem Text (BT-120) des Befreiungsgrunds der "
        "Umsatzsteueraufschlüsselung übereinstimmen",
    ),
    (
        "In a VAT breakdown (BG-23), for each different value of VAT rate (BT-119), where ",
        "Für jeden Umsatzsteuersatz (BT-119) einer Umsatzsteueraufschlüsselung (BG-23) mit ",
    ),
    (
        "In a VAT breakdown (BG-23), for each different value of VAT rate (BT-119) where ",
        "Für jeden Umsatzsteuersatz (BT-119) einer Umsatzsteueraufschlüsselung (BG-23) mit ",
    ),
    ("In a VAT breakdown (BG-23) where ", "In einer Umsatzsteueraufschlüsselung (BG-23) mit "),
    ("VAT category code (BT-118) is equal to ", "dem Code der Umsatzsteuerkategorie (BT-118) "),
    ("), Absolute Value of (", ") gilt: |"),
    ("VAT category taxable amount (BT-116)", "Steuerbasisbetrag der Kategorie (BT-116)"),
    ("VAT category tax amount (BT-117)", "Steuerbetrag der Kategorie (BT-117)"),
    ("∑ Invoice line net amounts (BT-131)", "∑ Nettobeträge der Rechnungspositionen (BT-131)"),
    ("Σ Document level allowance amounts (BT-92)", "Σ Nachlässe auf Dokumentenebene (BT-92)"),
    ("Σ Document level charge amounts (BT-99)", "Σ Zuschläge auf Dokumentenebene (BT-99)"),
    ("Σ Logistics Service fee amounts (BT-x-272)", "Σ Logistikgebühren (BT-X-272)"),
    ("Σ Logistics Service fee amounts (BT-X-272)", "Σ Logistikgebühren (BT-X-272)"),
    ("Number of line net amounts (BT-131)", "Anzahl der Positionsnettobeträge (BT-131)"),
    ("Number of Document level allowance amounts (BT-92)", "Anzahl der Nachlässe auf Dokumentenebene (BT-92)"),
    ("Number of Document level allowance amounts (BT-99)", "Anzahl der Zuschläge auf Dokumentenebene (BT-99)"),
    ("Number of Document level charge amounts (BT-99)", "Anzahl der Zuschläge auf Dokumentenebene (BT-99)"),
    ("Number of Logistics Service fee amounts (BT-X-272)", "Anzahl der Logistikgebühren (BT-X-272)"),
    (")) <= 0,01 * ", ")| <= 0,01 * "),
    (
        "), where the VAT category code (BT-151, BT-95, BT-102, BT-X-273) is ",
        "), summiert über Positionen, Nachlässe, Zuschläge und Logistikgebühren mit dem Code der "
        "Umsatzsteuerkategorie (BT-151, BT-95, BT-102, BT-X-273) ",
    ),
    (
        'but only for lines where the "Subtype of invoice item" (BT-X-8) has the value ""DETAIL" or is not specified',
        'nur für Positionen, deren Untertyp (BT-X-8) "DETAIL" ist oder fehlt',
    ),
    (
        'but only for lines where the "Subtype of invoice item" (BT-X-8) has the value "DETAIL" or is not specified',
        'nur für Positionen, deren Untertyp (BT-X-8) "DETAIL" ist oder fehlt',
    ),
    (
        'and only for lines where the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "DETAIL" '
        "or is not specified",
        'nur für Positionen, deren Untertyp (EXT-FR-FE-163 / BT-X-8) "DETAIL" ist oder fehlt',
    ),
    (
        "An Invoice that contains an Invoice line (BG-25) where the ",
        "Eine Rechnung, die eine Rechnungsposition (BG-25), deren ",
    ),
    (
        '"Subtype of invoice line item" ( BT-X-8) has the value "DETAIL" or is not specified',
        'Untertyp (BT-X-8) "DETAIL" ist oder fehlt',
    ),
    (
        '"Subtype of invoice line item" (BT-X-8) has the value "DETAIL" or is not specified',
        'Untertyp (BT-X-8) "DETAIL" ist oder fehlt',
    ),
    (
        '"Subtype of invoice item" (BT-X-8) has the value "DETAIL" or is not specified',
        'Untertyp (BT-X-8) "DETAIL" ist oder fehlt',
    ),
    (
        '"Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "DETAIL" or is not specified',
        'Untertyp (EXT-FR-FE-163 / BT-X-8) "DETAIL" ist oder fehlt',
    ),
    (
        ", a Document level allowance (BG-20) or a Document level charge or tax (BG-21) or a Logistics Service Charge "
        "( BG-X-42) where the VAT category code (BT-151, BT-95, BT-102, or BT-X-273) is ",
        ", einen Nachlass auf Dokumentenebene (BG-20), einen Zuschlag auf Dokumentenebene (BG-21) oder eine "
        "Logistikgebühr (BG-X-42) mit dem Code der Umsatzsteuerkategorie (BT-151, BT-95, BT-102 oder BT-X-273) ",
    ),
    (
        " shall contain in the VAT breakdown (BG-23) at least one VAT category code (BT-118) equal with ",
        " enthält, muss in der Umsatzsteueraufschlüsselung (BG-23) mindestens einmal den Code der "
        "Umsatzsteuerkategorie (BT-118) ",
    ),
    (" is ", " gleich "),
)
_VAT_FAMILY = ("In a VAT breakdown (BG-23)", 'An Invoice that contains an Invoice line (BG-25) where the "Subtype')

# Official texts no template covers and the catalogue has no German for yet: written by hand.
HAND: dict[str, str] = {
    "Absolute Value of (Invoice total amount without VAT (BT-109) - ∑ Invoice line net amounts (BT-131) + Σ Document level allowance amounts (BT-92) - Σ Document level charge amounts (BT-99)) <= 0,01 * (Number of line net amounts (BT-131) + Number of Document level allowance amounts (BT-92) + Number of Document level charge amounts (BT-99)).": "|Gesamtsumme ohne Umsatzsteuer (BT-109) - ∑ Nettobeträge der Rechnungspositionen (BT-131) + Σ Nachlässe auf Dokumentenebene (BT-92) - Σ Zuschläge auf Dokumentenebene (BT-99)| <= 0,01 * (Anzahl der Positionsnettobeträge (BT-131) + Anzahl der Nachlässe auf Dokumentenebene (BT-92) + Anzahl der Zuschläge auf Dokumentenebene (BT-99)).",
    "Absolute Value of (Sum of Invoice line net amount (BT-106) - Σ Invoice line net amounts (BT-131))<= 0,01 * Number of line net amounts (BT-131).": "|Summe der Nettobeträge der Rechnungspositionen (BT-106) - Σ Nettobeträge der Rechnungspositionen (BT-131)| <= 0,01 * Anzahl der Positionsnettobeträge (BT-131).",
    "Absolute Value of (Sum of allowances on document level (BT-107) - Σ Document level allowance amounts (BT-92))<= 0,01 * Number of Document level allowance amounts (BT-92).": "|Summe der Nachlässe auf Dokumentenebene (BT-107) - Σ Nachlässe auf Dokumentenebene (BT-92)| <= 0,01 * Anzahl der Nachlässe auf Dokumentenebene (BT-92).",
    "Absolute Value of (Sum of charges on document level (BT-108) - Σ Document level charge amounts (BT-99) - Σ Logistics Service fee amounts (BT-x-272))<= 0,01 * (Number of Document level charge amounts (BT-99) + Number of Logistics Service fee amounts (BT-X-272)).": "|Summe der Zuschläge auf Dokumentenebene (BT-108) - Σ Zuschläge auf Dokumentenebene (BT-99) - Σ Logistikgebühren (BT-x-272)| <= 0,01 * (Anzahl der Zuschläge auf Dokumentenebene (BT-99) + Anzahl der Logistikgebühren (BT-X-272)).",
    "Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) -Paid amount (BT-113) + Rounding amount (BT-114) + Sum of Charge amount collected on behalf of a third party (BT-179).": "Fälliger Zahlungsbetrag (BT-115) = Gesamtsumme mit Umsatzsteuer (BT-112) - gezahlter Betrag (BT-113) + Rundungsbetrag (BT-114) + Summe der im Namen Dritter erhobenen Beträge (BT-179).",
    'An Invoice line (BG-25) shall have an Invoiced quantity unit of measure code (BT-130) if the "Subtype of invoice line item" (BT-X-8) has the value "Normal line item (standard case)" (DETAIL) or is not specified.': 'Eine Rechnungsposition (BG-25) muss einen Code der Maßeinheit der Menge (BT-130) haben, wenn ihr Untertyp (BT-X-8) "Normale Position (Standardfall)" (DETAIL) ist oder fehlt.',
    'An Invoice that contains an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Not subject to VAT" shall not contain the Seller VAT identifier (BT-31), the Seller tax representative VAT identifier (BT-63) or the Buyer VAT identifier (BT-46).': 'Eine Rechnung mit einer Rechnungsposition (BG-25), deren Code der Umsatzsteuerkategorie (BT-151) "Nicht steuerbar" ist, darf weder die Umsatzsteuer-Identifikationsnummer des Verkäufers (BT-31) noch die des Steuervertreters des Verkäufers (BT-63) noch die des Käufers (BT-46) enthalten.',
    'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is “Exempt from VAT” shall contain exactly one VAT breakdown (BG-23) with the VAT category code (BT-118) equal to "Exempt from VAT".': 'Eine Rechnung mit einer Rechnungsposition (BG-25), einem Nachlass (BG-20) oder einem Zuschlag (BG-21) auf Dokumentenebene mit dem Code der Umsatzsteuerkategorie (BT-151, BT-95 oder BT-102) „Steuerbefreit“ muss genau eine Umsatzsteueraufschlüsselung (BG-23) mit dem Code der Umsatzsteuerkategorie (BT-118) "Steuerbefreit" enthalten.',
    "Date time string with format attribute 205 shall be YYYYMMDDHHMMSS.": "Eine Datums- und Zeitangabe mit dem Formatattribut 205 muss die Form JJJJMMTTHHMMSS haben.",
    "Document MUST not contain empty elements. (still status warning)": "Das Dokument DARF KEINE leeren Elemente enthalten. (noch Status Warnung)",
    'Each "ID of parent line" (BT-X-304) must refer to an existing "ID of invoice item" (BT-126).': 'Jede "Kennung der übergeordneten Position" (BT-X-304) muss auf eine vorhandene "Kennung der Rechnungsposition" (BT-126) verweisen.',
    "Each Document level charge or tax (BG-21) shall contain a Document level charge or tax reason (BT-104) or a Document level charge reason code (BT-105) or Document level non-VAT tax code (BT-177), or both reason and code.": "Jeder Zuschlag auf Dokumentenebene (BG-21) muss einen Grund (BT-104), einen Code des Grundes (BT-105) oder einen Code der Nicht-Umsatzsteuer (BT-177) enthalten, oder Grund und Code.",
    'Each Invoice line (BG-25) shall be categorized with an Invoiced item VAT category code (BT-151) if the "Subtype of invoice line item" (BT-X-8) has the value "Normal line item (standard case)" (DETAIL) or is not specified.': 'Jede Rechnungsposition (BG-25) muss einen Code der Umsatzsteuerkategorie (BT-151) haben, wenn ihr Untertyp (BT-X-8) "Normale Position (Standardfall)" (DETAIL) ist oder fehlt.',
    'Each Invoice line (BG-25) shall contain the Item net price (BT-146) if the "Subtype of invoice line item" (BT-X-8) has the value "Normal line item (standard case)" (DETAIL) or is not specified.': 'Jede Rechnungsposition (BG-25) muss den Nettopreis des Artikels (BT-146) enthalten, wenn ihr Untertyp (BT-X-8) "Normale Position (Standardfall)" (DETAIL) ist oder fehlt.',
    'Each Invoice line (BG-25) shall have an Invoice line net amount (BT-131), if the "Subtype of invoice line item" (BT-X-8) has the value "DETAIL" or is not specified.': 'Jede Rechnungsposition (BG-25) muss einen Nettobetrag (BT-131) haben, wenn ihr Untertyp (BT-X-8) "DETAIL" ist oder fehlt.',
    "Each Invoice line charge or tax (BG-28) shall have an Invoice line charge or tax reason (BT-144), an Invoice line charge reason code (BT-145) or an Invoice line-level non-VAT tax type code (BT-193).": "Jeder Zuschlag auf Positionsebene (BG-28) muss einen Grund (BT-144), einen Code des Grundes (BT-145) oder einen Code der Nicht-Umsatzsteuer auf Positionsebene (BT-193) haben.",
    "Each Item attribute (BG-32) shall contain an Item attribute name (BT-160) or an Item attribute code (BT-X-11), or both.": "Jedes Artikelattribut (BG-32) muss einen Namen (BT-160) oder einen Code (BT-X-11) des Attributs enthalten, oder beides.",
    "Each Item attribute (BG-32) shall contain an Item attribute value (BT-161) or an Item attribute value with unit of measure (BT-X-12, with BT-X-12-0), but noth both.": "Jedes Artikelattribut (BG-32) muss entweder einen Wert (BT-161) oder einen Wert mit Maßeinheit (BT-X-12, mit BT-X-12-0) enthalten, aber nicht beides.",
    'Each invoice line item "INVOICE LINE" (BG-25) must contain the quantity of goods or services invoiced in the relevant line item as a line item "Invoiced quantity" (BT-129) if the "Subtype of invoice line item" (BT-X-8) has the value "Normal line item (standard case)" (DETAIL) or is not specified.': 'Jede Rechnungsposition "INVOICE LINE" (BG-25) muss die in ihr abgerechnete Menge der Waren oder Dienstleistungen als "Rechnungsmenge" (BT-129) enthalten, wenn ihr Untertyp (BT-X-8) "Normale Position (Standardfall)" (DETAIL) ist oder fehlt.',
    'For each different value of VAT rate (BT-119) where the VAT category code (BT-118) is equal to “S” ("Standard rated"), Absolute Value of (VAT category tax amount (BT-117) - VAT category taxable amount (BT-116) multiplied by the VAT category rate (BT-119)/100) <= 0,01 * ((Number of line net amounts (BT-131) + Number of Document level allowance amounts (BT-92) + Number of Document level allowance amounts (BT-99) + Number of Logistics Service fee amounts (BT-X-272)), where the VAT category code (BT-151, BT-95, BT-102, BT-X-273) is " Standard rated " (S), and the VAT rate (BT-152, BT-96, BT-103, BT-X-274) equals the VAT category rate (BT-119), and only for lines where the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "DETAIL" or is not specified or the same rule but also taking into account the exemption reasons in Text (BT-120) and Code (BT-121) in BG-23 and the exemption reasons on each line (BT-X-96 / BT-X-97), on Document level Allowances (BT-173 / BT-174) and on Document Level Charges (BT-175 / BT-176) and on Service logistic charges (BT-X-591 / BT-X-592). One of the two rules must be followed, bearing in mind that ultimately only the second one will have to be followed.': 'Für jeden Umsatzsteuersatz (BT-119) mit dem Code der Umsatzsteuerkategorie (BT-118) “S” ("Standard rated") gilt: |Steuerbetrag der Kategorie (BT-117) - Steuerbasisbetrag der Kategorie (BT-116) * Steuersatz der Kategorie (BT-119)/100| <= 0,01 * ((Anzahl der Positionsnettobeträge (BT-131) + Anzahl der Nachlässe auf Dokumentenebene (BT-92) + Anzahl der Zuschläge auf Dokumentenebene (BT-99) + Anzahl der Logistikgebühren (BT-X-272)), gezählt über Positionen, Nachlässe, Zuschläge und Logistikgebühren mit dem Code der Umsatzsteuerkategorie (BT-151, BT-95, BT-102, BT-X-273) " Standard rated " (S) und dem Umsatzsteuersatz (BT-152, BT-96, BT-103, BT-X-274) gleich dem Steuersatz der Kategorie (BT-119), nur für Positionen, deren Untertyp (EXT-FR-FE-163 / BT-X-8) "DETAIL" ist oder fehlt; oder dieselbe Regel unter Berücksichtigung der Befreiungsgründe als Text (BT-120) und Code (BT-121) in BG-23 und der Befreiungsgründe jeder Position (BT-X-96 / BT-X-97), der Nachlässe auf Dokumentenebene (BT-173 / BT-174), der Zuschläge auf Dokumentenebene (BT-175 / BT-176) und der Logistikgebühren (BT-X-591 / BT-X-592). Eine der beiden Regeln muss eingehalten werden; künftig wird nur noch die zweite gelten.',
    'For each item (BG-25), if the "ID of the parent line" (BT-X-304) is used, the "Subtype of the invoice item" (BT-X-8) must be specified.': 'Wenn bei einer Position (BG-25) die "Kennung der übergeordneten Position" (BT-X-304) angegeben ist, muss ihr Untertyp (BT-X-8) angegeben sein.',
    "If Invoice Total VAT amount (BT-110) ,where currency (BT-110-0) is equal to BT-5, is present, then the Absolute Value of (Invoice total amount with VAT (BT-112) - Invoice total amount without VAT (BT-109) - Invoice total VAT amount (BT-110)) <= 0,01 * (Number of line net amounts (BT-131) + Number of Document level allowance amounts (BT-92) + Number of Document level charges amounts (BT-99) + Number of Logistics Service fee amounts (BT-X-272). Else, Invoice total amount with VAT (BT-112) is equal to Invoice total amount without VAT (BT-109).": "Ist der Umsatzsteuergesamtbetrag (BT-110) in der Rechnungswährung (BT-110-0 gleich BT-5) angegeben, gilt |Gesamtsumme mit Umsatzsteuer (BT-112) - Gesamtsumme ohne Umsatzsteuer (BT-109) - Umsatzsteuergesamtbetrag (BT-110)| <= 0,01 * (Anzahl der Positionsnettobeträge (BT-131) + Anzahl der Nachlässe auf Dokumentenebene (BT-92) + Anzahl der Zuschläge auf Dokumentenebene (BT-99) + Anzahl der Logistikgebühren (BT-X-272)). Andernfalls ist die Gesamtsumme mit Umsatzsteuer (BT-112) gleich der Gesamtsumme ohne Umsatzsteuer (BT-109).",
    'If the "Subtype of invoice item" (BT-X-8) has the value "Subtotal" (GROUP) and the "Net amount of the invoice item" (BT-131) is specified, it must correspond to the sum of the BT-131 of the next lower levels for which the "Subtype of the invoice item" (BT-X-8) has the value "Regular item (standard case)" (DETAIL) or "Subtotal" (GROUP). As a consequence, all lower levels shall contain a BT-131 value, when BT-X-8 has the value DETAIL or GROUP.': 'Hat der Untertyp (BT-X-8) einer Position den Wert "Zwischensumme" (GROUP) und ist ihr Nettobetrag (BT-131) angegeben, muss er der Summe der BT-131 der direkt untergeordneten Positionen mit dem Untertyp (BT-X-8) "Normale Position (Standardfall)" (DETAIL) oder "Zwischensumme" (GROUP) entsprechen. Folglich müssen alle untergeordneten Positionen mit BT-X-8 DETAIL oder GROUP einen Wert BT-131 enthalten.',
    'If the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "GROUP" and if the "Invoice line net amount" (BT-131) is specified, all lower levels which has "Subtype of invoice line item" (EXT-FR-FE-163) equal to "GROUP" MUST contain a "Invoice line net amount" (BT-131) value.': 'Hat der Untertyp (EXT-FR-FE-163 / BT-X-8) einer Position den Wert "GROUP" und ist ihr Nettobetrag (BT-131) angegeben, MÜSSEN alle untergeordneten Positionen mit dem Untertyp (EXT-FR-FE-163) "GROUP" einen Nettobetrag (BT-131) enthalten.',
    "If the Invoice Free Text subject Code (BT-21) is specified, either the coded message free text (BT-X-5) or the message free text (BT-22) must be specified, or both. If both BT-X-5 and BT-22 are specified, both must have the same meaning.": "Ist der Code des Betreffs der Bemerkung zur Rechnung (BT-21) angegeben, muss der codierte Bemerkungstext (BT-X-5) oder der Bemerkungstext (BT-22) angegeben sein, oder beide. Sind BT-X-5 und BT-22 angegeben, müssen beide dasselbe bedeuten.",
    "If the invoice line item free text subject code (BT-X-10) is specified, either the coded invoice line item free text (BT-X-9) or the invoice line item free text (BT-127) must be specified, or both. If both BT-X-9 and BT-127 are specified, both must have the same meaning.": "Ist der Code des Betreffs der Bemerkung zur Rechnungsposition (BT-X-10) angegeben, muss der codierte Bemerkungstext der Position (BT-X-9) oder der Bemerkungstext der Position (BT-127) angegeben sein, oder beide. Sind BT-X-9 und BT-127 angegeben, müssen beide dasselbe bedeuten.",
    "Only a VAT registration ID may be provided for the following business partners: the line level Ship-To (BT-X-66), the line level Ultimate-Ship-To (BT-X-84), the Sales-Agent (BT-X-340), the Buyer-Tax-Representative (BT-X-367), the Product-Enduser (BT-X-144), the Buyer-Agent (BT-X-411), the document level Ship-To (BT-X-161), the document level Ultimate-Ship-To (BT-X-180), the Ship-From (BT-X-199), the Invoicer (BT-X-223), the Invoicee (BT-X-242), the document level Payee (BT-X-257), the Payer (BT-X-481), or the payment-term-specific Payee (BT-X-509).": "Für die folgenden Geschäftspartner darf nur eine Umsatzsteuer-Identifikationsnummer angegeben werden: abweichender Warenempfänger auf Positionsebene (BT-X-66), Endempfänger auf Positionsebene (BT-X-84), Handelsvertreter (BT-X-340), Steuervertreter des Käufers (BT-X-367), Endverbraucher (BT-X-144), Einkaufsvertreter (BT-X-411), abweichender Warenempfänger auf Dokumentenebene (BT-X-161), Endempfänger auf Dokumentenebene (BT-X-180), Versender (BT-X-199), Rechnungssteller (BT-X-223), Rechnungsempfänger (BT-X-242), Zahlungsempfänger auf Dokumentenebene (BT-X-257), Zahler (BT-X-481) oder Zahlungsempfänger einer Zahlungsbedingung (BT-X-509).",
    'The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where the VAT category code (BT-118) equals "Exempt from VAT" shall equal 0 (zero).': 'Der Steuerbetrag der Kategorie (BT-117) in einer Umsatzsteueraufschlüsselung (BG-23) mit dem Code der Umsatzsteuerkategorie (BT-118) "Steuerbefreit" muss 0 (null) sein.',
    "The allowed maximum number of decimals for the Sum of allowances on document level (BT-107) is 2.": "Die Summe der Nachlässe auf Dokumentenebene (BT-107) darf höchstens 2 Nachkommastellen haben.",
    "To ensure automated processing of the article attributes without bilateral reconciliation, only values from the code list UNTDED 6313+Factur-X-Extension should be used.": "Damit Artikelattribute ohne bilaterale Abstimmung automatisch verarbeitet werden können, sollten nur Werte der Codeliste UNTDED 6313 + Factur-X-Erweiterung verwendet werden.",
}


def clause_german(official: str) -> str | None:
    """The German of a VAT breakdown rule, clause by clause; None unless every clause was translated."""
    if not official.startswith(_VAT_FAMILY):
        return None
    text = official
    for english, german_text in CLAUSES:
        text = text.replace(english, german_text)
    unquoted = re.sub(r'\(?[“"][^”"]*[”"]\)?', "", text)  # the code names in quotes stay English
    for word in (" shall ", " where ", " Absolute ", " Invoice ", " amounts ", " only ", " the ", " equal "):
        if word in unquoted:
            return None
    if text.startswith("In einer") and not text.endswith("."):
        text += "."
    if "muss in der Umsatzsteueraufschlüsselung" in text:
        text = text.rstrip(".") + " enthalten."
    elif text.startswith("In einer"):
        text = text.rstrip(".") + "."
    return text


def german(official: str, known: dict[str, str]) -> tuple[str | None, str]:
    """The German text for ``official`` and how it was found (template, known, hand), or None."""
    for pattern, template in TEMPLATES:
        match = re.match(pattern, official)
        if match:
            return template.format(**match.groupdict()), "template"
    if official in known:
        return known[official], "known"
    clauses = clause_german(official)
    if clauses is not None:
        return clauses, "clauses"
    if official in HAND:
        return HAND[official], "hand"
    return None, "missing"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    others = [p for p in sorted(CATALOGUE_DIR.glob("*.toml")) if p != TARGET]
    known: dict[str, str] = {}
    elsewhere = load_catalogue(others)
    for variants in elsewhere.entries.values():
        for v in variants:
            de = v.text("de")
            if v.lang == "en" and de:
                known.setdefault(v.official, de)
    entries: dict[str, list[Variant]] = {}
    how: Counter[str] = Counter()
    missing: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for pack_key, rule_id, official in official_rule_texts(Registry()):
        if not pack_key.startswith("zugferd-") or (rule_id, official) in seen:
            continue
        if elsewhere.variant_for_official(rule_id, official) is not None:
            continue  # the same id with the same text as in CEN's packs: one entry, in CEN's family file
        seen.add((rule_id, official))
        de, kind = german(official, known)
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
