"""The translations ``tools/catalogue_france.py`` writes into ``rulesets/messages/france.toml`` (data only).

:data:`RULES`: (French or English rule text as a pattern, English, German). In a pattern ``%x%`` matches any text;
in a translation ``%x%`` repeats it, ``%x|map%`` translates it through :data:`MAPS` and ``%T%`` names the business
term(s) of the rule id (:data:`TERMS`). English ``None``: the official text is English already.
"""

# ruff: noqa: E501, RUF001  # official texts are long single sentences with French typography, kept whole
from __future__ import annotations

TERMS: dict[str, tuple[str, str]] = {
    "BT-1": ("Invoice number", "Rechnungsnummer"),
    "BT-2": ("Invoice issue date", "Rechnungsdatum"),
    "BT-3": ("Invoice type code", "Code für den Rechnungstyp"),
    "BT-4": ("Invoice type code", "Code für den Rechnungstyp"),  # sic: the CII id of BR-FR-CO-04 names BT-4
    "BT-5": ("Invoice currency code", "Code für die Rechnungswährung"),
    "BT-7": ("Value added tax point date", "Datum der Steuerfälligkeit"),
    "BT-9": ("Payment due date", "Fälligkeitsdatum der Zahlung"),
    "BT-18": ("Invoiced object identifier", "Kennung eines in Rechnung gestellten Objekts"),
    "BT-21": ("Invoice note subject code", "Code für den Betreff der Rechnungsbemerkung"),
    "BT-22": ("Invoice note", "Rechnungsbemerkung"),
    "BT-23": ("Business process type (billing framework)", "Geschäftsprozesstyp (Rechnungsrahmen)"),
    "BT-25": ("Preceding Invoice reference", "Nummer der vorausgegangenen Rechnung"),
    "BT-26": ("Preceding Invoice issue date", "Datum der vorausgegangenen Rechnung"),
    "BT-29": ("Seller identifier", "Kennung des Verkäufers"),
    "BT-30": ("Seller legal registration identifier (SIREN)", "Registrierungsnummer des Verkäufers (SIREN)"),
    "BT-31": ("Seller VAT identifier", "Umsatzsteuer-Identifikationsnummer des Verkäufers"),
    "BT-34": ("Seller electronic address", "Elektronische Adresse des Verkäufers"),
    "BT-46": ("Buyer identifier", "Kennung des Käufers"),
    "BT-47": ("Buyer legal registration identifier (SIREN)", "Registrierungsnummer des Käufers (SIREN)"),
    "BT-49": ("Buyer electronic address", "Elektronische Adresse des Käufers"),
    "BT-60": ("Payee identifier", "Kennung des Zahlungsempfängers"),
    "BT-71": ("Deliver to location identifier", "Kennung des Lieferorts"),
    "BT-72": ("Actual delivery date", "Tatsächliches Lieferdatum"),
    "BT-73": ("Invoicing period start date", "Anfangsdatum des Rechnungszeitraums"),
    "BT-74": ("Invoicing period end date", "Enddatum des Rechnungszeitraums"),
    "BT-92": ("Document level allowance amount", "Betrag des Abschlags auf Dokumentenebene"),
    "BT-93": ("Document level allowance base amount", "Grundbetrag des Abschlags auf Dokumentenebene"),
    "BT-95": ("Document level allowance VAT category code", "Umsatzsteuerkategorie des Abschlags auf Dokumentenebene"),
    "BT-96": ("Document level allowance VAT rate", "Umsatzsteuersatz des Abschlags auf Dokumentenebene"),
    "BT-99": ("Document level charge amount", "Betrag des Zuschlags auf Dokumentenebene"),
    "BT-100": ("Document level charge base amount", "Grundbetrag des Zuschlags auf Dokumentenebene"),
    "BT-102": ("Document level charge VAT category code", "Umsatzsteuerkategorie des Zuschlags auf Dokumentenebene"),
    "BT-103": ("Document level charge VAT rate", "Umsatzsteuersatz des Zuschlags auf Dokumentenebene"),
    "BT-106": ("Sum of Invoice line net amount", "Summe der Nettobeträge aller Rechnungspositionen"),
    "BT-107": ("Sum of allowances on document level", "Summe der Abschläge auf Dokumentenebene"),
    "BT-108": ("Sum of charges on document level", "Summe der Zuschläge auf Dokumentenebene"),
    "BT-109": ("Invoice total amount without VAT", "Gesamtbetrag der Rechnung ohne Umsatzsteuer"),
    "BT-110": ("Invoice total VAT amount", "Gesamtbetrag der Umsatzsteuer"),
    "BT-111": ("Invoice total VAT amount in accounting currency", "Gesamtbetrag der Umsatzsteuer in Buchungswährung"),
    "BT-112": ("Invoice total amount with VAT", "Gesamtbetrag der Rechnung mit Umsatzsteuer"),
    "BT-113": ("Paid amount", "Vorauszahlungsbetrag"),
    "BT-114": ("Rounding amount", "Rundungsbetrag"),
    "BT-115": ("Amount due for payment", "Fälliger Zahlungsbetrag"),
    "BT-116": ("VAT category taxable amount", "Steuerbasisbetrag der Kategorie"),
    "BT-117": ("VAT category tax amount", "Steuerbetrag der Kategorie"),
    "BT-118": ("VAT category code", "Code der Umsatzsteuerkategorie"),
    "BT-119": ("VAT category rate", "Umsatzsteuersatz der Kategorie"),
    "BT-123": ("Supporting document description", "Beschreibung des rechnungsbegründenden Dokuments"),
    "BT-128": ("Invoice line object identifier", "Objektkennung der Rechnungsposition"),
    "BT-129": ("Invoiced quantity", "In Rechnung gestellte Menge"),
    "BT-131": ("Invoice line net amount", "Nettobetrag der Rechnungsposition"),
    "BT-134": ("Invoice line period start date", "Anfangsdatum des Abrechnungszeitraums der Position"),
    "BT-135": ("Invoice line period end date", "Enddatum des Abrechnungszeitraums der Position"),
    "BT-136": ("Invoice line allowance amount", "Betrag des Abschlags auf Positionsebene"),
    "BT-137": ("Invoice line allowance base amount", "Grundbetrag des Abschlags auf Positionsebene"),
    "BT-141": ("Invoice line charge amount", "Betrag des Zuschlags auf Positionsebene"),
    "BT-142": ("Invoice line charge base amount", "Grundbetrag des Zuschlags auf Positionsebene"),
    "BT-146": ("Item net price", "Nettopreis des Artikels"),
    "BT-147": ("Item price discount", "Rabatt auf den Artikelpreis"),
    "BT-148": ("Item gross price", "Bruttopreis des Artikels"),
    "BT-149": ("Item price base quantity", "Basismenge zum Artikelpreis"),
    "BT-151": ("Invoiced item VAT category code", "Umsatzsteuerkategorie des Artikels"),
    "BT-152": ("Invoiced item VAT rate", "Umsatzsteuersatz des Artikels"),
    "BT-160": ("Item attribute name", "Name des Artikelattributs"),
    "BG-32": ("Item attributes", "Artikelattribute"),
    "EXT-FR-FE-02": ("Preceding invoice type code", "Typcode der vorausgegangenen Rechnung"),
    "EXT-FR-FE-06": ("Buyer agent identifier", "Kennung des Vertreters des Käufers"),
    "EXT-FR-FE-12": ("Buyer agent electronic address", "Elektronische Adresse des Vertreters des Käufers"),
    "EXT-FR-FE-29": ("Payer electronic address", "Elektronische Adresse des Zahlers"),
    "EXT-FR-FE-46": ("Payer identifier", "Kennung des Zahlers"),
    "EXT-FR-FE-52": ("Seller agent electronic address", "Elektronische Adresse des Vertreters des Verkäufers"),
    "EXT-FR-FE-69": ("Seller agent identifier", "Kennung des Vertreters des Verkäufers"),
    "EXT-FR-FE-75": ("Invoicee electronic address", "Elektronische Adresse des Rechnungsempfängers"),
    "EXT-FR-FE-92": ("Invoicee identifier", "Kennung des Rechnungsempfängers"),
    "EXT-FR-FE-98": ("Invoicer electronic address", "Elektronische Adresse des Rechnungsstellers"),
    "EXT-FR-FE-115": ("Invoicer identifier", "Kennung des Rechnungsstellers"),
    "EXT-FR-FE-121": ("Payee electronic address", "Elektronische Adresse des Zahlungsempfängers"),
    "EXT-FR-FE-134": ("Invoice line period start date", "Anfangsdatum des Abrechnungszeitraums der Position"),
    "EXT-FR-FE-135": ("Invoice line period end date", "Enddatum des Abrechnungszeitraums der Position"),
    "EXT-FR-FE-136": ("Line preceding invoice reference", "Nummer der vorausgegangenen Rechnung auf Positionsebene"),
    "EXT-FR-FE-137": ("Line preceding invoice type code", "Typcode der vorausgegangenen Rechnung auf Positionsebene"),
    "EXT-FR-FE-138": ("Line preceding invoice issue date", "Datum der vorausgegangenen Rechnung auf Positionsebene"),
    "EXT-FR-FE-146": ("Line deliver to location identifier", "Kennung des Lieferorts der Position"),
    "EXT-FR-FE-158": ("Line actual delivery date", "Tatsächliches Lieferdatum der Position"),
    "EXT-FR-FE-159": ("Item attribute code", "Code des Artikelattributs"),
    "EXT-FR-FE-163": ("Invoice line subtype", "Untertyp der Rechnungsposition"),
    "EXT-FR-FE-164": ("Line seller name", "Name des Verkäufers der Position"),
    "EXT-FR-FE-167": ("Line seller legal identifier", "Registrierungsnummer des Verkäufers der Position"),
    "EXT-FR-FE-177": ("Line seller country code", "Ländercode des Verkäufers der Position"),
    "EXT-FR-FE-181": ("Line total VAT amount", "Umsatzsteuerbetrag der Position"),
    "EXT-FR-FE-182": (
        "Line total VAT amount in accounting currency",
        "Umsatzsteuerbetrag der Position in Buchungswährung",
    ),
    "EXT-FR-FE-184": ("Line total amount with VAT", "Bruttobetrag der Position"),
    "EXT-FR-FE-BG-12": ("Line totals of a GROUP line", "Positionssummen einer GROUP-Position"),
}
"""The business terms the French rule ids name (EN 16931 names; FNFE-MPE's extensions EXT-FR-FE-* described)."""

# Words of the diagnostic prefixes ("Num Fact : {1} , Somme calculée : {2} , … [BR-FREXT-CO-10] - …"): replaced in
# order (longer first); the English variable names FNFE uses there (rate, basisAmount, SumBT131, …) stay.
DIAG_WORDS: tuple[tuple[str, str, str], ...] = (
    ("Somme calculée", "computed sum", "berechnete Summe"),
    ("Ecart calculé", "computed difference", "berechnete Abweichung"),
    ("BT110 présent", "BT110 present", "BT110 vorhanden"),
    ("Total HT", "total without VAT", "Summe netto"),
    ("Num Fact", "invoice no.", "Rechnungsnr."),
    ("NB ligne GROUP seller", "GROUP lines of the seller", "GROUP-Positionen des Verkäufers"),
    ("Numero de facture", "invoice number", "Rechnungsnummer"),
    (
        "Nb de Ligne GROUP avec Num fact",
        "GROUP lines with the invoice number",
        "GROUP-Positionen mit der Rechnungsnummer",
    ),
    ("NumFact de ligne", "line invoice numbers", "Rechnungsnummern der Positionen"),
    ("TTC", "with VAT", "brutto"),
    ("TVA", "VAT", "USt."),
)

_VALUE = ('Current value: " {1} ".', 'Aktueller Wert: " {1} ".')

MAPS: dict[str, dict[str, tuple[str, str]]] = {
    # VAT categories as FNFE names them (sometimes not the code's own name: translated as written)
    "cat": {
        "Autoliquidation": ("Reverse charge", "Umkehr der Steuerschuldnerschaft"),
        "Exonéré de TVA": ("Exempt from VAT", "Von der Umsatzsteuer befreit"),
        "IGIC - taxe des Canaries": ("IGIC, Canary Islands tax", "IGIC, Steuer der Kanarischen Inseln"),
        "IPSI - taxe de Ceuta et Melilla": ("IPSI, Ceuta and Melilla tax", "IPSI, Steuer von Ceuta und Melilla"),
        "Export hors UE": ("Export outside the EU", "Ausfuhr aus der EU"),
        "Taux zéro": ("Zero rated", "Nullsatz"),
        "Non soumis à TVA": ("Not subject to VAT", "Nicht der Umsatzsteuer unterliegend"),
        "Taux normal": ("Standard rated", "Normalsatz"),
        "Reverse charge": ("Reverse charge", "Umkehr der Steuerschuldnerschaft"),
        "Reverse Charge": ("Reverse Charge", "Umkehr der Steuerschuldnerschaft"),
        "Exempt from VAT": ("Exempt from VAT", "Von der Umsatzsteuer befreit"),
        "Canary Islands tax": ("Canary Islands tax", "Steuer der Kanarischen Inseln"),
        "Ceuta and Mellita tax": ("Ceuta and Mellita tax", "Steuer von Ceuta und Melilla"),
        "Export outside the EU": ("Export outside the EU", "Ausfuhr aus der EU"),
        "Intra-community supply": ("Intra-community supply", "Innergemeinschaftliche Lieferung"),
        "Not subject to VAT": ("Not subject to VAT", "Nicht der Umsatzsteuer unterliegend"),
        "Standard rated": ("Standard rated", "Normalsatz"),
        "Standard Rated": ("Standard Rated", "Normalsatz"),
        " Standard rated ": (" Standard rated ", "Normalsatz"),
        "Zero rated": ("Zero rated", "Nullsatz"),
        "Zero Rated": ("Zero Rated", "Nullsatz"),
    },
    "ex": {
        "Sans raisons d'exemption - ": ("Without exemption reasons: ", "Ohne Befreiungsgründe: "),
        "Sans raison d'exemption - ": ("Without exemption reason: ", "Ohne Befreiungsgrund: "),
        "Avec raisons d'exemption - ": ("With exemption reasons: ", "Mit Befreiungsgründen: "),
        "Without Exemption reason EN16931_2017 - ": ("", "Ohne Befreiungsgrund (EN16931_2017): "),
        "With Exemption reason EN16931_2026 - ": ("", "Mit Befreiungsgrund (EN16931_2026): "),
        "": ("", ""),
    },
    "rate": {
        ", pour chaque taux de TVA (BT-119)": (
            ", for each VAT category rate (BT-119),",
            ", für jeden Umsatzsteuersatz (BT-119),",
        ),
        ", for each different value of VAT rate (BT-119),": ("", ", für jeden Umsatzsteuersatz (BT-119),"),
        "": ("", ""),
    },
    "catcode": {
        "code de catégorie TVA": ("VAT category code", "Code der Umsatzsteuerkategorie"),
        "code catégorie": ("VAT category code", "Code der Umsatzsteuerkategorie"),
    },
    "fxtail": {
        'but only for lines where the "Subtype of invoice item" (BT-X-8) has the value "DETAIL" or is not specified. or the same rule but also taking into account the exemption reasons in Text (BT-120) and Code (BT-121) in BG-23 and the exemption reasons on each line (BT-X-96 / BT-X-97), on Document level Allowances (BT-173 / BT-174) and on Document Level Charges (BT-175 / BT-176) and on Service logistic charges (BT-X-591 / BT-X-592). One of the two rules must be followed, bearing in mind that ultimately only the second one will have to be followed.': (
            "",
            'jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (BT-X-8) den Wert "DETAIL" hat oder fehlt; oder dieselbe Regel unter zusätzlicher Berücksichtigung der Befreiungsgründe als Text (BT-120) und Code (BT-121) in BG-23 sowie der Befreiungsgründe jeder Position (BT-X-96 / BT-X-97), der Abschläge auf Dokumentenebene (BT-173 / BT-174), der Zuschläge auf Dokumentenebene (BT-175 / BT-176) und der Logistikgebühren (BT-X-591 / BT-X-592). Eine der beiden Regeln muss eingehalten werden; künftig wird nur noch die zweite gelten.',
        ),
        'but only for lines where the "Subtype of invoice item" (BT-X-8) has the value ""DETAIL" or is not specified. or the same rule but also taking into account the exemption reasons in Text (BT-120) and Code (BT-121) in BG-23 and the exemption reasons on each line (BT-X-96 / BT-X-97), on Document level Allowances (BT-173 / BT-174) and on Document Level Charges (BT-175 / BT-176) and on Service logistic charges (BT-X-591 / BT-X-592). One of the two rules must be followed, bearing in mind that ultimately only the second one will have to be followed.': (
            "",
            'jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (BT-X-8) den Wert "DETAIL" hat oder fehlt; oder dieselbe Regel unter zusätzlicher Berücksichtigung der Befreiungsgründe als Text (BT-120) und Code (BT-121) in BG-23 sowie der Befreiungsgründe jeder Position (BT-X-96 / BT-X-97), der Abschläge auf Dokumentenebene (BT-173 / BT-174), der Zuschläge auf Dokumentenebene (BT-175 / BT-176) und der Logistikgebühren (BT-X-591 / BT-X-592). Eine der beiden Regeln muss eingehalten werden; künftig wird nur noch die zweite gelten.',
        ),
        'but only for lines where the "Subtype of invoice item" (BT-X-8) has the value "DETAIL" or is not specified.': (
            "",
            'jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (BT-X-8) den Wert "DETAIL" hat oder fehlt.',
        ),
        'but only for lines where the "Subtype of invoice item" (BT-X-8) has the value ""DETAIL" or is not specified.': (
            "",
            'jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (BT-X-8) den Wert "DETAIL" hat oder fehlt.',
        ),
        'and where applicable the VAT exemption reason and specification code (BT-195, BT-174 and BT-176 and BT-X-592) and the Exemption reason text (BT-194, BT-173 and BT-175 and BT-X-591) are identical with the VAT category VAT exemption reason and specification code (BT-121) and VAT exemption reason text (BT-120), but only for lines where the "Subtype of invoice item" (BT-X-8) has the value "DETAIL" or is not specified.': (
            "",
            'und, wo zutreffend, der Code des Befreiungsgrunds (BT-195, BT-174, BT-176 und BT-X-592) und der Befreiungsgrund als Text (BT-194, BT-173, BT-175 und BT-X-591) mit Code (BT-121) und Text (BT-120) des Befreiungsgrunds der Kategorie übereinstimmen, jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (BT-X-8) den Wert "DETAIL" hat oder fehlt.',
        ),
        'and where applicable the VAT exemption reason and specification code (BT-195, BT-174 and BT-176 and BT-X-592) and the Exemption reason text (BT-194, BT-173 and BT-175 and BT-X-591) are identical with the VAT category VAT exemption reason and specification code (BT-121) and VAT exemption reason text (BT-120), but only for lines where the "Subtype of invoice item" (BT-X-8) has the value "DETAIL" or is not specified': (
            "",
            'und, wo zutreffend, der Code des Befreiungsgrunds (BT-195, BT-174, BT-176 und BT-X-592) und der Befreiungsgrund als Text (BT-194, BT-173, BT-175 und BT-X-591) mit Code (BT-121) und Text (BT-120) des Befreiungsgrunds der Kategorie übereinstimmen, jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (BT-X-8) den Wert "DETAIL" hat oder fehlt',
        ),
    },
    "note": {
        "aux frais de recouvrement": (
            "the fixed compensation for recovery costs",
            "der Pauschale für Beitreibungskosten",
        ),
        "aux pénalités de retard": ("late payment penalties", "den Verzugszinsen"),
        "à l’escompte ou à son absence": ("the early payment discount or its absence", "dem Skonto oder dessen Fehlen"),
        "indemnité forfaitaire pour frais de recouvrement": (
            "fixed compensation for recovery costs",
            "Pauschale für Beitreibungskosten",
        ),
        "pénalités de retard": ("late payment penalties", "Verzugszinsen"),
        "mention d’escompte ou d’absence d’escompte": (
            "early payment discount or its absence",
            "Skonto oder dessen Fehlen",
        ),
        "mention de taxe": ("tax statement", "Steuerhinweis"),
    },
    "untdid": {
        "": ("", ""),
        " Les autres codes définis dans la norme UNTDID 1001 ne doivent pas être utilisés.": (
            " The other codes of UNTDID 1001 must not be used.",
            " Die übrigen Codes der UNTDID 1001 dürfen nicht verwendet werden.",
        ),
    },
    "endpoint": {
        "cbc:EndpointID": ("cbc:EndpointID", "cbc:EndpointID"),
        "cbc:EndpointID du vendeur": ("the seller's cbc:EndpointID", "cbc:EndpointID des Verkäufers"),
    },
    "endpoint2": {
        "EndpointID du vendeur": ("the seller's EndpointID", "EndpointID des Verkäufers"),
        "cbc:EndpointID du vendeur": ("the seller's cbc:EndpointID", "cbc:EndpointID des Verkäufers"),
    },
    "notevalue": {
        "BT-22, contenu de la note": ("BT-22, the note text", "BT-22, Text der Bemerkung"),
        "cbc:Note": ("cbc:Note", "cbc:Note"),
    },
    "scheme": {
        "BT-49-1 (schemeID)": ("BT-49-1 (schemeID)", "BT-49-1 (schemeID)"),
        "BT-34-1 (schemeID)": ("BT-34-1 (schemeID)", "BT-34-1 (schemeID)"),
        "schemeID": ("schemeID", "schemeID"),
    },
    "or": {
        "'0231' ou '0002'": ("'0231' or '0002'", "'0231' oder '0002'"),
        "'0002'": ("'0002'", "'0002'"),
    },
    "objects": {
        "": ("invoiced object identifiers", "Kennungen in Rechnung gestellter Objekte"),
        " à la ligne": ("invoice line object identifiers", "Objektkennungen der Rechnungspositionen"),
    },
    "sub": {
        "Subtype of invoice line item": ("", "Untertyp der Rechnungsposition"),
        "Subtype of invoice item": ("", "Untertyp der Rechnungsposition"),
    },
    "subterm": {
        "EXT-FR-FE-163 / BT-X-8": ("", "EXT-FR-FE-163 / BT-X-8"),
        "BT-X-8": ("", "BT-X-8"),
        " BT-X-8": ("", "BT-X-8"),
    },
    "detail": {
        "DETAIL": ("", "DETAIL"),
        'Normal line item (standard case)" (DETAIL': ("", 'Normale Position (Standardfall)" (DETAIL'),
        'Regular item (standard case)" (DETAIL': ("", 'Normale Position (Standardfall)" (DETAIL'),
    },
}
"""Translations of text captured by a pattern (``%x|map%``), per value: (English, German)."""

RULES: tuple[tuple[str, str | None, str], ...] = (
    # ---- BR-FR-01 / 02: invoice numbers ----------------------------------------------------------------------------
    (
        "L'identifiant de facture%where% (%x%) ne doit pas dépasser 35 caractères. Valeur actuelle : \" {1} \". Veuillez vérifier que l'identifiant respecte cette limite.",
        'The %T% (%x%) must not exceed 35 characters. Current value: " {1} ". Please keep the identifier within this limit.',
        'Die %T% (%x%) darf höchstens 35 Zeichen lang sein. Aktueller Wert: " {1} ". Bitte halten Sie diese Grenze ein.',
    ),
    (
        'L\'identifiant de facture%where% (%x%) contient des caractères non autorisés. Valeur actuelle : " {1} ". Seuls les caractères alphanumériques et les symboles + - _ / sont autorisés, sans espaces.',
        'The %T% (%x%) contains characters that are not allowed. Current value: " {1} ". Only letters, digits and the symbols + - _ / are allowed, without spaces.',
        'Die %T% (%x%) enthält nicht zulässige Zeichen. Aktueller Wert: " {1} ". Zulässig sind nur Buchstaben, Ziffern und die Zeichen + - _ /, ohne Leerzeichen.',
    ),
    (
        "L'identifiant de facture (%x%) doit être composé uniquement de caractères alphanumériques (A-Z, a-z, 0-9) et peut contenir les caractères spéciaux autorisés : tiret (-), plus (+), tiret bas (_), barre oblique (/). Il ne doit pas contenir uniquement des espaces, ni commencer ou se terminer par un espace, ni contenir d'espaces consécutifs. Valeur actuelle : \" {1} \". Veuillez corriger le format de l'identifiant.",
        'The %T% (%x%) may consist only of letters and digits (A-Z, a-z, 0-9) and the allowed special characters hyphen (-), plus (+), underscore (_) and slash (/). It must not consist of spaces only, begin or end with a space, or contain consecutive spaces. Current value: " {1} ". Please correct the format of the identifier.',
        'Die %T% (%x%) darf nur aus Buchstaben und Ziffern (A-Z, a-z, 0-9) und den zulässigen Sonderzeichen Bindestrich (-), Plus (+), Unterstrich (_) und Schrägstrich (/) bestehen. Sie darf nicht nur aus Leerzeichen bestehen, nicht mit einem Leerzeichen beginnen oder enden und keine aufeinanderfolgenden Leerzeichen enthalten. Aktueller Wert: " {1} ". Bitte korrigieren Sie das Format der Kennung.',
    ),
    (
        "L'identifiant de facture référencée%where% (%x%) doit respecter le format autorisé : caractères alphanumériques et les symboles - + _ /. Il ne doit pas contenir uniquement des espaces, ni commencer ou se terminer par un espace, ni contenir d'espaces consécutifs. Valeur actuelle : \" {1} \". Veuillez corriger le format de l'identifiant.",
        'The %T% (%x%) must have the allowed format: letters, digits and the symbols - + _ /. It must not consist of spaces only, begin or end with a space, or contain consecutive spaces. Current value: " {1} ". Please correct the format of the identifier.',
        'Die %T% (%x%) muss das zulässige Format haben: Buchstaben, Ziffern und die Zeichen - + _ /. Sie darf nicht nur aus Leerzeichen bestehen, nicht mit einem Leerzeichen beginnen oder enden und keine aufeinanderfolgenden Leerzeichen enthalten. Aktueller Wert: " {1} ". Bitte korrigieren Sie das Format der Kennung.',
    ),
    # ---- BR-FR-03: years 2000-2099 -------------------------------------------------------------------------------
    (
        'La date d’émission%x% doit contenir une année comprise entre 2000 et 2099, au format AAAAMMJJ. Valeur actuelle : " {1} ". Veuillez vérifier que l’année est correcte et que le format est conforme.',
        'The %T%%x% must have a year between 2000 and 2099, in the format YYYYMMDD. Current value: " {1} ". Please check the year and the format.',
        'Das %T%%x% muss ein Jahr zwischen 2000 und 2099 im Format JJJJMMTT enthalten. Aktueller Wert: " {1} ". Bitte prüfen Sie Jahr und Format.',
    ),
    (
        'La date %what% (%x%) doit contenir une année entre 2000 et 2099. Valeur actuelle : " {1} ". Veuillez vérifier la validité de la date.',
        'The %T% (%x%) must have a year between 2000 and 2099. Current value: " {1} ". Please check the date.',
        'Das Datum „%T%“ (%x%) muss ein Jahr zwischen 2000 und 2099 enthalten. Aktueller Wert: " {1} ". Bitte prüfen Sie das Datum.',
    ),
    (
        'La date %what% doit contenir une année entre 2000 et 2099. Valeur actuelle : " {1} ". Veuillez vérifier la validité de la date.',
        'The %T% must have a year between 2000 and 2099. Current value: " {1} ". Please check the date.',
        'Das Datum „%T%“ muss ein Jahr zwischen 2000 und 2099 enthalten. Aktueller Wert: " {1} ". Bitte prüfen Sie das Datum.',
    ),
    # ---- BR-FR-04: invoice type codes -----------------------------------------------------------------------------
    (
        'Le code type de document%ref% (%x%) n’est pas autorisé. Valeurs acceptées : 380, 389, 393, 501, 386, 500, 384, 471, 472, 473, 261, 262, 381, 396, 502, 503. Valeur actuelle : " {1} ". Veuillez utiliser un code conforme à la liste autorisée.%more%',
        'The %T% (%x%) is not allowed. Accepted values: 380, 389, 393, 501, 386, 500, 384, 471, 472, 473, 261, 262, 381, 396, 502, 503. Current value: " {1} ". Please use a code of the allowed list.%more|untdid%',
        'Der %T% (%x%) ist nicht zulässig. Zulässige Werte: 380, 389, 393, 501, 386, 500, 384, 471, 472, 473, 261, 262, 381, 396, 502, 503. Aktueller Wert: " {1} ". Bitte verwenden Sie einen Code der zulässigen Liste.%more|untdid%',
    ),
    # ---- BR-FR-05 / 06: mandatory notes ---------------------------------------------------------------------------
    (
        "La mention relative %what% (code %c%) est absente. Elle est obligatoire dans les notes (%g%).",
        "The note on %what|note% (subject code %c%) is missing. It is mandatory in the invoice notes (%g%).",
        "Die Angabe zu %what|note% (Betreffcode %c%) fehlt. Sie ist in den Rechnungsbemerkungen (%g%) vorgeschrieben.",
    ),
    (
        "Le code sujet %c% (%what%) ne doit apparaître qu'une seule fois dans les notes (%g%).",
        "The note subject code %c% (%what|note%) may occur only once in the invoice notes (%g%).",
        "Der Betreffcode %c% (%what|note%) darf in den Rechnungsbemerkungen (%g%) nur einmal vorkommen.",
    ),
    # ---- BR-FR-08: billing framework ------------------------------------------------------------------------------
    (
        'La valeur du %mode% de facturation (%x%) est absente ou n’est pas autorisée. Valeurs acceptées : B1, S1, M1, B2, S2, M2, S3, B4, S4, M4, S5, S6, B7, S7, B8, S8, M8, B9, S9, M9. Valeur actuelle : " {1} ". Veuillez utiliser une valeur conforme à la liste des modes de facturation autorisés.',
        'The billing framework (%T%, %x%) is missing or not allowed. Accepted values: B1, S1, M1, B2, S2, M2, S3, B4, S4, M4, S5, S6, B7, S7, B8, S8, M8, B9, S9, M9. Current value: " {1} ". Please use a value of the list of allowed billing frameworks.',
        'Der Rechnungsrahmen (%T%, %x%) fehlt oder ist nicht zulässig. Zulässige Werte: B1, S1, M1, B2, S2, M2, S3, B4, S4, M4, S5, S6, B7, S7, B8, S8, M8, B9, S9, M9. Aktueller Wert: " {1} ". Bitte verwenden Sie einen Wert der Liste der zulässigen Rechnungsrahmen.',
    ),
    # ---- BR-FR-09 .. 13: SIRET, SIREN, addresses ------------------------------------------------------------------
    (
        'Le SIRET doit contenir 14 chiffres et commencer par le SIREN. SIRET : " {1} ", SIREN : " {2} ".',
        'The SIRET (%T%) must have 14 digits and begin with the SIREN. SIRET: " {1} ", SIREN: " {2} ".',
        'Die SIRET (%T%) muss 14 Ziffern haben und mit der SIREN beginnen. SIRET: " {1} ", SIREN: " {2} ".',
    ),
    (
        'Le SIREN du vendeur (%x%) est obligatoire et doit être composé exactement de 9 chiffres. Valeur actuelle : " {1} ". Veuillez renseigner un identifiant SIREN valide.',
        'The %T% (%x%) is mandatory and must consist of exactly 9 digits. Current value: " {1} ". Please give a valid SIREN.',
        'Die %T% (%x%) ist Pflicht und muss aus genau 9 Ziffern bestehen. Aktueller Wert: " {1} ". Bitte geben Sie eine gültige SIREN an.',
    ),
    (
        "Si une note contient le code sujet BAR avec la valeur 'B2B', alors le SIREN de l’acheteur (%x%) est obligatoire et doit être composé exactement de 9 chiffres. Valeur actuelle : \" {1} \". Veuillez renseigner un identifiant SIREN valide.",
        "If a note has the subject code BAR with the value 'B2B', the buyer's SIREN (%x%) is mandatory and must consist of exactly 9 digits (%T%). Current value: \" {1} \". Please give a valid SIREN.",
        "Hat eine Bemerkung den Betreffcode BAR mit dem Wert 'B2B', ist die SIREN des Käufers (%x%) Pflicht und muss aus genau 9 Ziffern bestehen (%T%). Aktueller Wert: \" {1} \". Bitte geben Sie eine gültige SIREN an.",
    ),
    (
        'Le %t% (%x%) est obligatoire. Valeur actuelle : %t2%=" {1} ".',
        'The %T% (%x|endpoint%) is mandatory. Current value: %t2%=" {1} ".',
        'Die %T% (%x|endpoint%) ist Pflicht. Aktueller Wert: %t2%=" {1} ".',
    ),
    (
        'Le %t% est obligatoire. Valeur actuelle : %t2%=" {1} ".',
        'The %T% is mandatory. Current value: %t2%=" {1} ".',
        'Die %T% ist Pflicht. Aktueller Wert: %t2%=" {1} ".',
    ),
    # ---- BR-FR-15 / 16: VAT categories and rates ------------------------------------------------------------------
    (
        'Code de catégorie de TVA invalide. Valeur actuelle : " {1} ". Veuillez utiliser un code valide : S, E, AE, K, G, O, Z.',
        'Invalid VAT category code (%T%). Current value: " {1} ". Please use a valid code: S, E, AE, K, G, O, Z.',
        'Ungültiger Code der Umsatzsteuerkategorie (%T%). Aktueller Wert: " {1} ". Bitte verwenden Sie einen gültigen Code: S, E, AE, K, G, O, Z.',
    ),
    (
        "Les codes 'L' et 'M' ne sont pas pertinents en France. Valeur actuelle : \" {1} \".",
        "The VAT category codes 'L' and 'M' do not apply in France (%T%). Current value: \" {1} \".",
        "Die Umsatzsteuerkategorien 'L' und 'M' gelten in Frankreich nicht (%T%). Aktueller Wert: \" {1} \".",
    ),
    (
        'Le taux de TVA (%x%) doit être exprimé en pourcentage sans symbole « % » et faire partie des valeurs autorisées. Taux fourni : " {1} ".',
        'The VAT rate (%x%) must be given as a percentage without the "%" sign and be one of the allowed values (%T%). Rate given: " {1} ".',
        'Der Umsatzsteuersatz (%x%) muss als Prozentwert ohne das Zeichen "%" angegeben werden und einer der zulässigen Werte sein (%T%). Angegebener Satz: " {1} ".',
    ),
    # ---- BR-FR-17 / 18: attachments -------------------------------------------------------------------------------
    (
        'Le code de qualification de la pièce jointe " {1} " est invalide. Il doit appartenir à la liste des codes autorisés. Veuillez corriger la valeur de BT-123.',
        'The attachment qualification code " {1} " is invalid: it must be one of the allowed codes. Please correct the %T%.',
        'Der Qualifizierungscode des Anhangs " {1} " ist ungültig: Er muss einer der zulässigen Codes sein. Bitte korrigieren Sie die %T%.',
    ),
    (
        'Il ne peut y avoir **qu’un seul** document additionnel (BG-24) dont la description (BT-123) est "LISIBLE". Nombre de documents trouvés : {1} . Veuillez supprimer les doublons ou corriger les descriptions.',
        'There may be **only one** additional supporting document (BG-24) whose description (BT-123) is "LISIBLE" (the readable copy). Documents found: {1} . Please remove the duplicates or correct the descriptions.',
        'Es darf **nur ein** rechnungsbegründendes Dokument (BG-24) mit der Beschreibung (BT-123) "LISIBLE" (lesbare Fassung) geben. Gefundene Dokumente: {1} . Bitte entfernen Sie die Doppel oder korrigieren Sie die Beschreibungen.',
    ),
    (
        'Il ne peut y avoir {1} document additionnel (cac:AdditionalDocumentReference) dont la description (cbc:DocumentDescription) est "LISIBLE". Nombre de documents trouvés : {2} . Veuillez supprimer les doublons ou corriger les descriptions.',
        'There may be {1} additional supporting document (cac:AdditionalDocumentReference) whose description (cbc:DocumentDescription, %T%) is "LISIBLE" (the readable copy). Documents found: {2} . Please remove the duplicates or correct the descriptions.',
        'Es darf {1} rechnungsbegründendes Dokument (cac:AdditionalDocumentReference) mit der Beschreibung (cbc:DocumentDescription, %T%) "LISIBLE" (lesbare Fassung) geben. Gefundene Dokumente: {2} . Bitte entfernen Sie die Doppel oder korrigieren Sie die Beschreibungen.',
    ),
    # ---- BR-FR-20 .. 26: BAR note, electronic addresses, private identifiers --------------------------------------
    (
        'Lorsqu’une note a pour code sujet « BAR » (%x%), la valeur associée (%y%) doit être l’une des suivantes : %list%. Valeur fournie : " {1} ". Veuillez corriger la valeur ou retirer le code sujet « BAR ».',
        'When a note has the subject code "BAR" (%x%), its value (%y|notevalue%) must be one of: %list%. Value given: " {1} ". Please correct the value or remove the subject code "BAR".',
        'Hat eine Bemerkung den Betreffcode "BAR" (%x%), muss ihr Wert (%y|notevalue%) einer der folgenden sein: %list%. Angegebener Wert: " {1} ". Bitte korrigieren Sie den Wert oder entfernen Sie den Betreffcode "BAR".',
    ),
    (
        'Si le traitement est BAR/B2B et que le type de document (%x%) n’est pas en autofacture (389, 501, 500, 471, 473, 261, 502), alors le BT-49 (%e%) doit commencer par le SIREN (%s%) et le %scheme% doit être égal à "0225". Valeurs actuelles : %values%',
        'If the processing is BAR/B2B and the document type (%x%) is not a self-billing type (389, 501, 500, 471, 473, 261, 502), the Buyer electronic address BT-49 (%e%) must begin with the SIREN (%s%) and its %scheme|scheme% must be "0225". Current values: %values%',
        'Ist die Verarbeitung BAR/B2B und der Dokumenttyp (%x%) keine Gutschrift im Gutschriftverfahren (389, 501, 500, 471, 473, 261, 502), muss die elektronische Adresse des Käufers BT-49 (%e%) mit der SIREN (%s%) beginnen und ihr %scheme|scheme% "0225" sein. Aktuelle Werte: %values%',
    ),
    (
        'Si le traitement est BAR/B2B et que le type de document (%x%) est en autofacture (389, 501, 500, 471, 473, 261, 502), alors le BT-34 (%e%) doit commencer par le SIREN (%s%) et le %scheme% doit être égal à "0225". Valeurs actuelles : %values%',
        'If the processing is BAR/B2B and the document type (%x%) is a self-billing type (389, 501, 500, 471, 473, 261, 502), the Seller electronic address BT-34 (%e|endpoint2%) must begin with the SIREN (%s%) and its %scheme|scheme% must be "0225". Current values: %values%',
        'Ist die Verarbeitung BAR/B2B und der Dokumenttyp (%x%) eine Gutschrift im Gutschriftverfahren (389, 501, 500, 471, 473, 261, 502), muss die elektronische Adresse des Verkäufers BT-34 (%e|endpoint2%) mit der SIREN (%s%) beginnen und ihr %scheme|scheme% "0225" sein. Aktuelle Werte: %values%',
    ),
    (
        'L\'adresse électronique (%x%) ne respecte pas le format autorisé. Valeur actuelle : " {1} ". Seuls les caractères alphanumériques et les symboles "-", "_", "." sont autorisés.',
        'The %T% (%x%) does not have the allowed format. Current value: " {1} ". Only letters, digits and the symbols "-", "_", "." are allowed.',
        'Die %T% (%x%) hat nicht das zulässige Format. Aktueller Wert: " {1} ". Zulässig sind nur Buchstaben, Ziffern und die Zeichen "-", "_", ".".',
    ),
    (
        'L\'identifiant privé (%x%) ne respecte pas le format autorisé. Valeur actuelle : " {1} ". Seuls les caractères alphanumériques et les symboles "-", "_", "." sont autorisés.',
        'The private identifier %T% (%x%) does not have the allowed format. Current value: " {1} ". Only letters, digits and the symbols "-", "_", "." are allowed.',
        'Die private Kennung %T% (%x%) hat nicht das zulässige Format. Aktueller Wert: " {1} ". Zulässig sind nur Buchstaben, Ziffern und die Zeichen "-", "_", ".".',
    ),
    (
        'L\'adresse électronique (%x%) dépasse 125 caractères. Valeur actuelle : " {1} ". Veuillez raccourcir cette valeur pour respecter la limite.',
        'The %T% (%x%) is longer than 125 characters. Current value: " {1} ". Please shorten it to the limit.',
        'Die %T% (%x%) ist länger als 125 Zeichen. Aktueller Wert: " {1} ". Bitte kürzen Sie den Wert auf die Grenze.',
    ),
    (
        'L\'identifiant privé (%x%) dépasse 100 caractères. Valeur actuelle : " {1} ". Veuillez raccourcir cette valeur pour respecter la limite.',
        'The private identifier %T% (%x%) is longer than 100 characters. Current value: " {1} ". Please shorten it to the limit.',
        'Die private Kennung %T% (%x%) ist länger als 100 Zeichen. Aktueller Wert: " {1} ". Bitte kürzen Sie den Wert auf die Grenze.',
    ),
    # ---- BR-FR-27 / 28: item attributes ---------------------------------------------------------------------------
    (
        "Le groupe Attribut d’article (BG-32) doit contenir soit un nom d’attribut d’article (BT-160 : %n%), soit un code d’attribut d’article (EXT-FR-FE-159 : %c%). Aucun des deux éléments n’a été trouvé dans le contexte %ctx%. Veuillez ajouter au moins l’un des deux éléments pour respecter la structure attendue.",
        "The Item attributes group (BG-32) must contain an Item attribute name (BT-160: %n%) or an item attribute code (EXT-FR-FE-159: %c%). Neither was found in the context %ctx%. Please add at least one of them.",
        "Die Gruppe Artikelattribute (BG-32) muss einen Namen des Artikelattributs (BT-160: %n%) oder einen Code des Artikelattributs (EXT-FR-FE-159: %c%) enthalten. Keines von beiden wurde im Kontext %ctx% gefunden. Bitte ergänzen Sie mindestens eines davon.",
    ),
    (
        'Le nom d’attribut d’article (%x%) ne doit pas être vide. Valeur actuelle : " {1} ". Veuillez fournir un nom d’attribut valide ou utiliser un code à la place.',
        'The %T% (%x%) must not be empty. Current value: " {1} ". Please give a valid attribute name or use a code instead.',
        'Der %T% (%x%) darf nicht leer sein. Aktueller Wert: " {1} ". Bitte geben Sie einen gültigen Attributnamen an oder verwenden Sie stattdessen einen Code.',
    ),
    (
        'Le code d’attribut d’article (%x%) ne doit pas être vide. Valeur actuelle : " {1} ". Veuillez fournir un code d’attribut valide ou utiliser un nom à la place.',
        'The %T% (%x%) must not be empty. Current value: " {1} ". Please give a valid attribute code or use a name instead.',
        'Der %T% (%x%) darf nicht leer sein. Aktueller Wert: " {1} ". Bitte geben Sie einen gültigen Attributcode an oder verwenden Sie stattdessen einen Namen.',
    ),
    (
        'La valeur d’attribut (%v%) ou la valeur (%q% avec unité de mesure) doivent être présents, mais pas les deux Valeur actuelle Value : " {1} ", Valeur actuelle Value Quantity : " {2} ". unité de mesure : " {3} " Veuillez fournir une valeur d’attribut valide ou utiliser une Valeur avec unité de mesure.',
        'Either the item attribute value (%v%) or the value with a unit of measure (%q%) must be present, but not both. Current Value: " {1} ", current Value Quantity: " {2} ", unit of measure: " {3} ". Please give a valid attribute value or a value with a unit of measure.',
        'Entweder der Wert des Artikelattributs (%v%) oder der Wert mit Maßeinheit (%q%) muss vorhanden sein, aber nicht beide. Aktueller Wert Value: " {1} ", aktueller Wert Value Quantity: " {2} ", Maßeinheit: " {3} ". Bitte geben Sie einen gültigen Attributwert oder einen Wert mit Maßeinheit an.',
    ),
    # ---- BR-FR-29 .. 32: invoiced objects, BAR notes, identifiers -------------------------------------------------
    (
        'L’identifiant associé au schéma "%s%" (%x%) ne doit pas être vide. Valeur actuelle : " {1} ".',
        'The identifier with the scheme "%s%" (%x%) must not be empty. Current value: " {1} ".',
        'Die Kennung mit dem Schema "%s%" (%x%) darf nicht leer sein. Aktueller Wert: " {1} ".',
    ),
    (
        'Parmi les identifiants d’objets facturés%where% (%t%), les schémas d’identification "AFL" et "AVV" ne doivent être présents qu’une seule fois chacun. Actuellement : AFL = {1} occurrence(s), AVV = {2} occurrence(s). Veuillez supprimer les doublons pour respecter la règle.',
        'Among the %where|objects% (%t%), the identification schemes "AFL" and "AVV" may each occur only once. Now: AFL = {1} time(s), AVV = {2} time(s). Please remove the duplicates.',
        'Unter den %where|objects% (%t%) dürfen die Kennungsschemata "AFL" und "AVV" jeweils nur einmal vorkommen. Derzeit: AFL = {1}-mal, AVV = {2}-mal. Bitte entfernen Sie die Doppel.',
    ),
    (
        "Lorsque plusieurs notes ont le code sujet « BAR » (BT-21), Il ne peut y avoir qu'une seule valeur associée (BT-22, contenu de la note) parmi l’une des suivantes : %list%. Valeur fournie : %given%. Veuillez corriger la valeur ou retirer le code sujet « BAR ».",
        'When several notes have the subject code "BAR" (BT-21), there may be only one value (BT-22, the note text) among: %list%. Values given: %given%. Please correct the value or remove the subject code "BAR".',
        'Haben mehrere Bemerkungen den Betreffcode "BAR" (BT-21), darf es nur einen Wert (BT-22, Text der Bemerkung) aus der folgenden Liste geben: %list%. Angegebene Werte: %given%. Bitte korrigieren Sie den Wert oder entfernen Sie den Betreffcode "BAR".',
    ),
    (
        "Tout identifiant légal d'une Partie avec schemeID = '0002' DOIT être composé de 9 chiffres.",
        "Every legal registration identifier of a party with schemeID = '0002' (SIREN) MUST consist of 9 digits.",
        "Jede Registrierungsnummer einer Partei mit schemeID = '0002' (SIREN) MUSS aus 9 Ziffern bestehen.",
    ),
    (
        "Tout identifiant d'une Partie avec schemeID = %s% DOIT être composé de 9 chiffres.",
        "Every identifier of a party with schemeID = %s|or% MUST consist of 9 digits.",
        "Jede Kennung einer Partei mit schemeID = %s|or% MUSS aus 9 Ziffern bestehen.",
    ),
    # ---- BR-FR-CO-*: conditions ----------------------------------------------------------------------------------
    (
        'Si le code type de la facture (BT-3) est égal à 262 (Avoir Remise Globale), alors : - Le numéro de contrat (BT-12) doit être présent - La période de facturation (BG-14) doit être renseignée (dates de début et de fin). Valeurs actuelles : BT-12=" {1} ", période=" {2} à {3} ".',
        'If the Invoice type code (BT-3) is 262 (consolidated credit note), then: - the Contract reference (BT-12) must be present - the Invoicing period (BG-14) must be given (start and end date). Current values: BT-12=" {1} ", period=" {2} to {3} ".',
        'Ist der Code für den Rechnungstyp (BT-3) 262 (Sammelgutschrift), dann: - muss die Vertragsnummer (BT-12) vorhanden sein - muss der Rechnungszeitraum (BG-14) angegeben sein (Anfangs- und Enddatum). Aktuelle Werte: BT-12=" {1} ", Zeitraum=" {2} bis {3} ".',
    ),
    (
        "Si le type de facture (BT-3) est une facture rectificative (384, 471, 472, 473), alors **une et une seule** référence à une facture antérieure (BT-25) avec sa date (BT-26) doit être présente. Nombre de références valides trouvées : {1} .",
        "If the Invoice type code (BT-3) is a corrective invoice (384, 471, 472, 473), there must be **exactly one** Preceding Invoice reference (BT-25) with its date (BT-26). Valid references found: {1} .",
        "Ist der Code für den Rechnungstyp (BT-3) eine berichtigte Rechnung (384, 471, 472, 473), muss es **genau eine** Nummer der vorausgegangenen Rechnung (BT-25) mit ihrem Datum (BT-26) geben. Gefundene gültige Verweise: {1} .",
    ),
    (
        "Si le type de facture (BT-3) est un avoir (261, 381, 396, 502, 503), alors : - soit au moins une référence à une facture antérieure (BT-25) avec sa date (BT-26) doit être présente au niveau entête, - soit chaque ligne (BG-25) sans subtype (EXT-FR-FE-163) ou avec subtype 'DETAIL' doit contenir une référence à une facture antérieure (EXT-FR-FE-136) avec sa date (EXT-FR-FE-138). Références entête trouvées : {1} .",
        "If the Invoice type code (BT-3) is a credit note (261, 381, 396, 502, 503), then either at least one Preceding Invoice reference (BT-25) with its date (BT-26) must be given at document level, or every invoice line (BG-25) without a line subtype (EXT-FR-FE-163) or with the subtype 'DETAIL' must have a line preceding invoice reference (EXT-FR-FE-136) with its date (EXT-FR-FE-138). References found at document level: {1} .",
        "Ist der Code für den Rechnungstyp (BT-3) eine Gutschrift (261, 381, 396, 502, 503), muss entweder auf Dokumentenebene mindestens eine Nummer der vorausgegangenen Rechnung (BT-25) mit ihrem Datum (BT-26) angegeben sein, oder jede Rechnungsposition (BG-25) ohne Untertyp (EXT-FR-FE-163) oder mit dem Untertyp 'DETAIL' muss eine vorausgegangene Rechnung auf Positionsebene (EXT-FR-FE-136) mit ihrem Datum (EXT-FR-FE-138) nennen. Verweise auf Dokumentenebene: {1} .",
    ),
    (
        "Si le type de facture (BT-3) est un avoir (261, 381, 396, 502, 503), alors : - soit au moins une référence à une facture antérieure (BT-25) avec sa date (BT-26) doit être présente au niveau entête, - soit chaque ligne (BG-25) doit contenir une référence à une facture antérieure (EXT-FR-FE-136) avec sa date (EXT-FR-FE-138). Références entête trouvées : {1} . Nbline : {2} LineREF : {3} N° Facture : {4}",
        "If the Invoice type code (BT-3) is a credit note (261, 381, 396, 502, 503), then either at least one Preceding Invoice reference (BT-25) with its date (BT-26) must be given at document level, or every invoice line (BG-25) must have a line preceding invoice reference (EXT-FR-FE-136) with its date (EXT-FR-FE-138). References found at document level: {1} . Lines: {2} , line references: {3} , invoice no.: {4}",
        "Ist der Code für den Rechnungstyp (BT-3) eine Gutschrift (261, 381, 396, 502, 503), muss entweder auf Dokumentenebene mindestens eine Nummer der vorausgegangenen Rechnung (BT-25) mit ihrem Datum (BT-26) angegeben sein, oder jede Rechnungsposition (BG-25) muss eine vorausgegangene Rechnung auf Positionsebene (EXT-FR-FE-136) mit ihrem Datum (EXT-FR-FE-138) nennen. Verweise auf Dokumentenebene: {1} . Positionen: {2} , Positionsverweise: {3} , Rechnungsnr.: {4}",
    ),
    (
        'La date d’échéance (BT-9), si présente, doit être postérieure ou égale à la date de facture (BT-2), sauf si la facture est de type acompte (386, 500, 503) ou si le cadre de facturation (BT-23) est B2, S2 ou M2. Valeurs actuelles : Date facture = " {1} ", Date échéance = " {2} ", Type = " {3} ", Cadre = " {4} ".',
        'The Payment due date (BT-9), if present, must not be before the Invoice issue date (BT-2), unless the invoice is a prepayment invoice (386, 500, 503) or the billing framework (BT-23) is B2, S2 or M2. Current values: invoice date = " {1} ", due date = " {2} ", type = " {3} ", framework = " {4} ".',
        'Das Fälligkeitsdatum der Zahlung (BT-9) darf, wenn vorhanden, nicht vor dem Rechnungsdatum (BT-2) liegen, außer bei einer Anzahlungsrechnung (386, 500, 503) oder wenn der Rechnungsrahmen (BT-23) B2, S2 oder M2 ist. Aktuelle Werte: Rechnungsdatum = " {1} ", Fälligkeitsdatum = " {2} ", Typ = " {3} ", Rahmen = " {4} ".',
    ),
    (
        'Si le cadre de facturation (BT-23) est B4, S4 ou M4 (factures définitives après acompte), alors le type de facture (BT-3) ne peut pas être une facture ou un avoir d’acompte (386, 500, 503). Valeurs actuelles : BT-23=" {1} ", BT-3=" {2} ".',
        'If the billing framework (BT-23) is B4, S4 or M4 (final invoices after a prepayment), the Invoice type code (BT-3) cannot be a prepayment invoice or prepayment credit note (386, 500, 503). Current values: BT-23=" {1} ", BT-3=" {2} ".',
        'Ist der Rechnungsrahmen (BT-23) B4, S4 oder M4 (Schlussrechnungen nach Anzahlung), darf der Code für den Rechnungstyp (BT-3) keine Anzahlungsrechnung oder Anzahlungsgutschrift sein (386, 500, 503). Aktuelle Werte: BT-23=" {1} ", BT-3=" {2} ".',
    ),
    (
        "Si le cadre de facturation (BT-23) est B2, S2 ou M2 (facture déjà payée), alors le montant déjà payé (BT-113) doit être égal au montant total TTC (BT-112). Montant payé : {1} , Montant total : {2} .",
        "If the billing framework (BT-23) is B2, S2 or M2 (invoice already paid), the Paid amount (BT-113) must equal the Invoice total amount with VAT (BT-112). Paid amount: {1} , total amount: {2} .",
        "Ist der Rechnungsrahmen (BT-23) B2, S2 oder M2 (bereits bezahlte Rechnung), muss der Vorauszahlungsbetrag (BT-113) gleich dem Gesamtbetrag der Rechnung mit Umsatzsteuer (BT-112) sein. Bezahlter Betrag: {1} , Gesamtbetrag: {2} .",
    ),
    (
        "Si le cadre de facturation (BT-23) est B2, S2 ou M2, alors le net à payer (BT-115) doit être égal à 0. Net à payer : {1} .",
        "If the billing framework (BT-23) is B2, S2 or M2, the Amount due for payment (BT-115) must be 0. Amount due: {1} .",
        "Ist der Rechnungsrahmen (BT-23) B2, S2 oder M2, muss der fällige Zahlungsbetrag (BT-115) 0 sein. Fälliger Betrag: {1} .",
    ),
    (
        "Si le cadre de facturation (BT-23) est B2, S2 ou M2, alors la date d’échéance (BT-9) doit être renseignée et correspondre à la date de paiement. Date d’échéance actuelle : {1} .",
        "If the billing framework (BT-23) is B2, S2 or M2, the Payment due date (BT-9) must be given and be the date of payment. Current due date: {1} .",
        "Ist der Rechnungsrahmen (BT-23) B2, S2 oder M2, muss das Fälligkeitsdatum der Zahlung (BT-9) angegeben sein und dem Zahlungsdatum entsprechen. Aktuelles Fälligkeitsdatum: {1} .",
    ),
    (
        "Si l’identifiant global %who% (%t%) est renseigné, alors son schéma (%s%) doit également être renseigné.",
        "If the %T% is given, its scheme identifier (%s%) must be given too.",
        "Ist die Angabe „%T%“ vorhanden, muss auch ihre Schemakennung (%s%) angegeben sein.",
    ),
    (
        "Chaque identifiant global du vendeur (BT-29) doit avoir un attribut schemeID (BT-29-1).",
        "Every Seller identifier (BT-29) must have a schemeID attribute (BT-29-1).",
        "Jede Kennung des Verkäufers (BT-29) muss ein Attribut schemeID (BT-29-1) haben.",
    ),
    (
        "Chaque schemeID ne peut apparaître qu’une seule fois %d% l'identifiant privé %who% (%t%).",
        "Each schemeID may occur only once among the private identifiers %T%.",
        "Jede schemeID darf unter den privaten Kennungen „%T%“ nur einmal vorkommen.",
    ),
    (
        'Si la devise de facture (BT-5) est différente de EUR, alors : - la devise de comptabilité (BT-6) doit être présente et égale à EUR, - le montant de TVA en devise de comptabilité (BT-111) doit être renseigné, - et sa devise (BT-111-1) doit être égale à EUR. Valeurs actuelles : BT-5=" {1} ", BT-6=" {2} ", BT-111=" {3} "/>".',
        'If the Invoice currency code (BT-5) is not EUR, then: - the VAT accounting currency code (BT-6) must be present and be EUR, - the Invoice total VAT amount in accounting currency (BT-111) must be given, - and its currency (BT-111-1) must be EUR. Current values: BT-5=" {1} ", BT-6=" {2} ", BT-111=" {3} "/>".',
        'Ist der Code für die Rechnungswährung (BT-5) nicht EUR, dann: - muss der Code für die Umsatzsteuer-Buchungswährung (BT-6) vorhanden und EUR sein, - muss der Gesamtbetrag der Umsatzsteuer in Buchungswährung (BT-111) angegeben sein, - und dessen Währung (BT-111-1) muss EUR sein. Aktuelle Werte: BT-5=" {1} ", BT-6=" {2} ", BT-111=" {3} "/>".',
    ),
    (
        "Si le schéma d’identification du vendeur (BT-29-1) est '0231', cela signifie qu’il est membre d’un assujetti unique. Dans ce cas, une note (BG-1) avec le code sujet 'TXD' (BT-21) et le texte 'MEMBRE_ASSUJETTI_UNIQUE' (BT-22) doit être présente.",
        "If the Seller identifier scheme (BT-29-1) is '0231', the seller is a member of a single VAT taxable person (VAT group). Then an invoice note (BG-1) with the subject code 'TXD' (BT-21) and the text 'MEMBRE_ASSUJETTI_UNIQUE' (BT-22) must be present.",
        "Ist das Schema der Kennung des Verkäufers (BT-29-1) '0231', ist der Verkäufer Mitglied einer Mehrwertsteuergruppe. Dann muss eine Rechnungsbemerkung (BG-1) mit dem Betreffcode 'TXD' (BT-21) und dem Text 'MEMBRE_ASSUJETTI_UNIQUE' (BT-22) vorhanden sein.",
    ),
    (
        "Si le schéma d’identification du vendeur (BT-29-1) est '0231', cela signifie qu’il est membre d’un assujetti unique. Dans ce cas, une note (BG-1) avec le code sujet 'TXD' (BT-21) et le texte 'MEMBRE_ASSUJETTI_UNIQUE' (BT-22) doit être présente et non \" {1} \"",
        "If the Seller identifier scheme (BT-29-1) is '0231', the seller is a member of a single VAT taxable person (VAT group). Then an invoice note (BG-1) with the subject code 'TXD' (BT-21) and the text 'MEMBRE_ASSUJETTI_UNIQUE' (BT-22) must be present, not \" {1} \"",
        "Ist das Schema der Kennung des Verkäufers (BT-29-1) '0231', ist der Verkäufer Mitglied einer Mehrwertsteuergruppe. Dann muss eine Rechnungsbemerkung (BG-1) mit dem Betreffcode 'TXD' (BT-21) und dem Text 'MEMBRE_ASSUJETTI_UNIQUE' (BT-22) vorhanden sein, nicht \" {1} \"",
    ),
    (
        'Si le vendeur est membre d’un assujetti unique (BT-29-1 = 0231), alors le bloc représentant fiscal (BG-11) doit être présent et contenir le numéro de TVA de l’assujetti unique (BT-63). État actuel : représentant fiscal {1} , numéro de TVA = " {2} ".',
        'If the seller is a member of a single VAT taxable person (BT-29-1 = 0231), the Seller tax representative party (BG-11) must be present with the VAT identifier of the VAT group (BT-63). Now: tax representative {1} , VAT identifier = " {2} ".',
        'Ist der Verkäufer Mitglied einer Mehrwertsteuergruppe (BT-29-1 = 0231), muss der Steuervertreter des Verkäufers (BG-11) mit der Umsatzsteuer-Identifikationsnummer der Gruppe (BT-63) vorhanden sein. Derzeit: Steuervertreter {1} , Umsatzsteuer-Identifikationsnummer = " {2} ".',
    ),
    # ---- BR-FR-DEC-*: number formats ------------------------------------------------------------------------------
    (
        "Le montant « %v% » est invalide.%sp%Il doit comporter au plus 2 décimales, être exprimé avec un point comme séparateur, et ne pas dépasser 19 caractères (hors séparateur). Le signe « - » est autorisé. Veuillez corriger ce montant.",
        'The amount "%v%" (%T%) is invalid: it must have at most 2 decimals, a point as the decimal separator, and at most 19 characters (without the separator). A leading "-" is allowed. Please correct the amount.',
        'Der Betrag "%v%" (%T%) ist ungültig: Er darf höchstens 2 Nachkommastellen haben, muss einen Punkt als Dezimaltrennzeichen verwenden und darf höchstens 19 Zeichen lang sein (ohne Trennzeichen). Ein vorangestelltes "-" ist erlaubt. Bitte korrigieren Sie den Betrag.',
    ),
    (
        "La quantité%base% « {1} » est invalide. Elle doit : - être un nombre avec au plus 4 décimales (séparateur « . »), - contenir au maximum 19 caractères (hors séparateur), - et peut commencer par un signe « - ». Veuillez corriger cette quantité pour respecter le format requis.",
        'The quantity " {1} " (%T%) is invalid. It must: - be a number with at most 4 decimals (separator "."), - have at most 19 characters (without the separator), - and may begin with a "-". Please correct the quantity.',
        'Die Menge " {1} " (%T%) ist ungültig. Sie muss: - eine Zahl mit höchstens 4 Nachkommastellen sein (Trennzeichen "."), - höchstens 19 Zeichen lang sein (ohne Trennzeichen), - und darf mit einem "-" beginnen. Bitte korrigieren Sie die Menge.',
    ),
    (
        "Le montant « {1} » est invalide. Il doit : - être un nombre strictement positif (sans signe « - »), sauf si Cadre de Facturation (BT-23) est S9, M9 ou B9 (bi-directionnel) - comporter au plus 6 décimales (séparateur « . »), - contenir au maximum 19 caractères (hors séparateur). Veuillez corriger ce montant pour respecter le format requis.",
        'The amount " {1} " (%T%) is invalid. It must: - be a strictly positive number (without "-"), unless the billing framework (BT-23) is S9, M9 or B9 (bidirectional) - have at most 6 decimals (separator "."), - have at most 19 characters (without the separator). Please correct the amount.',
        'Der Betrag " {1} " (%T%) ist ungültig. Er muss: - eine echt positive Zahl sein (ohne "-"), außer wenn der Rechnungsrahmen (BT-23) S9, M9 oder B9 ist (bidirektional) - höchstens 6 Nachkommastellen haben (Trennzeichen "."), - höchstens 19 Zeichen lang sein (ohne Trennzeichen). Bitte korrigieren Sie den Betrag.',
    ),
    (
        "Le montant « {1} » est invalide. Il doit : - être un nombre strictement positif (sans signe « - »), - comporter au plus 6 décimales (séparateur « . »), - contenir au maximum 19 caractères (hors séparateur). Veuillez corriger ce montant pour respecter le format requis.",
        'The amount " {1} " (%T%) is invalid. It must: - be a strictly positive number (without "-"), - have at most 6 decimals (separator "."), - have at most 19 characters (without the separator). Please correct the amount.',
        'Der Betrag " {1} " (%T%) ist ungültig. Er muss: - eine echt positive Zahl sein (ohne "-"), - höchstens 6 Nachkommastellen haben (Trennzeichen "."), - höchstens 19 Zeichen lang sein (ohne Trennzeichen). Bitte korrigieren Sie den Betrag.',
    ),
    (
        "Le taux de TVA « {1} » est invalide. Il doit : - être un nombre strictement positif (sans signe « - »), - comporter au plus 2 décimales (séparateur « . »), - contenir au maximum 4 caractères (hors séparateur). Veuillez corriger ce taux pour respecter le format requis.",
        'The VAT rate " {1} " (%T%) is invalid. It must: - be a strictly positive number (without "-"), - have at most 2 decimals (separator "."), - have at most 4 characters (without the separator). Please correct the rate.',
        'Der Umsatzsteuersatz " {1} " (%T%) ist ungültig. Er muss: - eine echt positive Zahl sein (ohne "-"), - höchstens 2 Nachkommastellen haben (Trennzeichen "."), - höchstens 4 Zeichen lang sein (ohne Trennzeichen). Bitte korrigieren Sie den Satz.',
    ),
)

_MV = ("S8, B8, M8 ou S9, B9, M9", "S8, B8, M8 or S9, B9, M9", "S8, B8, M8 oder S9, B9, M9")
_GROUP_EN = 'a line (BG-25) with the line subtype "GROUP" and no parent line identifier'
_GROUP_DE = 'eine Position (BG-25) mit dem Untertyp "GROUP" und ohne Kennung einer übergeordneten Position'

RULES += (
    # ---- BR-FR-MV-* / BR-FR-BD-*: multi-vendor (B8/S8/M8) and bidirectional (B9/S9/M9) invoices -------------------
    (
        'Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9, chaque ligne (BG-25) doit contenir un sous-type de ligne (%x%). Valeur actuelle : " {1} ". Veuillez vérifier que le sous-type est renseigné, Veuillez vérifier que le sous-type est renseigné pour toutes les lignes.',
        'When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9, every invoice line (BG-25) must have a line subtype (%x%, %T%). Current value: " {1} ". Please make sure that every line has its subtype.',
        'Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9, muss jede Rechnungsposition (BG-25) einen Untertyp haben (%x%, %T%). Aktueller Wert: " {1} ". Bitte geben Sie den Untertyp für alle Positionen an.',
    ),
    (
        'Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9, chaque ligne (BG-25) doit contenir un sous-type de ligne EXT-FR-FE-163. Cadre de facturation " {1} ", ligne " {2} ". Numéro de facture : ligne " {3} ", Présence Bloc BillingReference avec num Fact (true / false) : " {4} ". Veuillez vérifier que le sous-type est renseigné pour toutes les lignes.',
        'When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9, every invoice line (BG-25) must have a line subtype (%T%). Billing framework " {1} ", line " {2} ". Invoice number: line " {3} ", BillingReference with an invoice number present (true / false): " {4} ". Please make sure that every line has its subtype.',
        'Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9, muss jede Rechnungsposition (BG-25) einen Untertyp haben (%T%). Rechnungsrahmen " {1} ", Position " {2} ". Rechnungsnummer: Position " {3} ", BillingReference mit Rechnungsnummer vorhanden (true / false): " {4} ". Bitte geben Sie den Untertyp für alle Positionen an.',
    ),
    (
        '%lead%Lorsque le cadre de facturation (BT-23) est S8, B8 ou M8, la facture doit contenir au moins une ligne (BG-25) avec le sous-type de ligne %x% égal à "GROUP" et sans identifiant de ligne parent %y%. Veuillez vérifier que cette ligne est présente.',
        f"%lead%When the billing framework (BT-23) is S8, B8 or M8, the invoice must contain at least {_GROUP_EN} (line subtype: %x%, %T%; parent line: %y%). Please make sure that this line is present.",
        f"%lead%Ist der Rechnungsrahmen (BT-23) S8, B8 oder M8, muss die Rechnung mindestens {_GROUP_DE} enthalten (Untertyp: %x%, %T%; übergeordnete Position: %y%). Bitte prüfen Sie, dass diese Position vorhanden ist.",
    ),
    (
        '%lead%Lorsque le cadre de facturation (BT-23) est S9, B9 ou M9, la facture doit contenir exactement deux ligne (BG-25) avec le sous-type de ligne (ram:LineStatusReasonCode) égal à "GROUP" et sans identifiant de ligne parent (ram:ParentLineID)%rest%',
        '%lead%When the billing framework (BT-23) is S9, B9 or M9, the invoice must contain exactly two lines (BG-25) with the line subtype (ram:LineStatusReasonCode) "GROUP" and no parent line identifier (ram:ParentLineID)%rest|bd02%',
        '%lead%Ist der Rechnungsrahmen (BT-23) S9, B9 oder M9, muss die Rechnung genau zwei Positionen (BG-25) mit dem Untertyp (ram:LineStatusReasonCode) "GROUP" und ohne Kennung einer übergeordneten Position (ram:ParentLineID) enthalten%rest|bd02%',
    ),
    (
        'Pour une ligne GROUP sans parent, une valeur d\'objet facturé (%x%) avec identifiant de schéma (%y%) = AFL doit être présente. Valeur actuelle : " {1} ".',
        'A GROUP line without a parent must have an invoice line object identifier (%x%, %T%) with the scheme identifier (%y%) AFL. Current value: " {1} ".',
        'Eine GROUP-Position ohne übergeordnete Position muss eine Objektkennung (%x%, %T%) mit der Schemakennung (%y%) AFL haben. Aktueller Wert: " {1} ".',
    ),
    (
        "Pour une ligne GROUP sans parent, une valeur d'objet facturé (BT-128) avec identifiant de schéma (BT-128-1) = AFL doit être présente (numéroe de sous-facture) : Ligne : {1}",
        "A GROUP line without a parent must have an Invoice line object identifier (BT-128) with the scheme identifier (BT-128-1) AFL (the sub-invoice number): line {1}",
        "Eine GROUP-Position ohne übergeordnete Position muss eine Objektkennung der Rechnungsposition (BT-128) mit der Schemakennung (BT-128-1) AFL haben (die Nummer der Teilrechnung): Position {1}",
    ),
    (
        'Pour une ligne GROUP sans parent, une valeur d\'objet facturé (%x%) avec identifiant de schéma (%y%) = AVV doit être présente et différente de %codes%. Valeur actuelle : " {1} ".',
        'A GROUP line without a parent must have an invoice line object identifier (%x%, %T%) with the scheme identifier (%y%) AVV, other than %codes|or%. Current value: " {1} ".',
        'Eine GROUP-Position ohne übergeordnete Position muss eine Objektkennung (%x%, %T%) mit der Schemakennung (%y%) AVV haben, die nicht %codes|or% ist. Aktueller Wert: " {1} ".',
    ),
    (
        "Pour une ligne GROUP sans parent, une valeur d'objet facturé (%x%) avec identifiant de schéma (%y%) = AVV doit être présente et différente de %codes% : Ligne : {1}",
        "A GROUP line without a parent must have an invoice line object identifier (%x%, %T%) with the scheme identifier (%y%) AVV, other than %codes|or%: line {1}",
        "Eine GROUP-Position ohne übergeordnete Position muss eine Objektkennung (%x%, %T%) mit der Schemakennung (%y%) AVV haben, die nicht %codes|or% ist: Position {1}",
    ),
    (
        'Ligne : {1} : Valeur actuelle : " {2} %q%. Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9 et que la ligne est de type GROUP sans parent, %what% (%x%) doit être renseigné.',
        'Line: {1} : current value: " {2} %q%. When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9 and the line is a GROUP line without a parent, the %T% (%x%) must be given.',
        'Position: {1} : aktueller Wert: " {2} %q%. Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9 und die Position eine GROUP-Position ohne übergeordnete Position, muss die Angabe „%T%“ (%x%) vorhanden sein.',
    ),
    (
        'Ligne : {1} , Valeur actuelle : " {2} ". Pour une ligne GROUP sans parent, le montant total avec TVA (%x%) doit être renseigné en devise de facture.',
        'Line: {1} , current value: " {2} ". A GROUP line without a parent must give its total VAT amount (%x%, %T%) in the invoice currency.',
        'Position: {1} , aktueller Wert: " {2} ". Eine GROUP-Position ohne übergeordnete Position muss ihren Umsatzsteuerbetrag (%x%, %T%) in der Rechnungswährung angeben.',
    ),
    (
        'Ligne : {1} , Devise de comptabilité : " {2} ", TVA en ligne : " {3} ". Pour une ligne GROUP sans parent, le montant total avec TVA (%x%) doit être renseigné en devise de comptabilisation (BT-6) si elle est renseignée.',
        'Line: {1} , accounting currency: " {2} ", line VAT: " {3} ". A GROUP line without a parent must give its total VAT amount (%x%, %T%) in the VAT accounting currency (BT-6) when that is given.',
        'Position: {1} , Buchungswährung: " {2} ", Umsatzsteuer der Position: " {3} ". Eine GROUP-Position ohne übergeordnete Position muss ihren Umsatzsteuerbetrag (%x%, %T%) in der Umsatzsteuer-Buchungswährung (BT-6) angeben, wenn diese angegeben ist.',
    ),
    (
        '%lead%Ligne GROUP : %n1% , Somme Sous lignes : %n2% , Nbre sous-lignes: %n3% . Valeur actuelle : " %n4% ". Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9, le total HT (%x%) de la ligne GROUP doit être égal (tolérance ±0,01 * nombre de sous-lignes) à la somme des totaux HT des lignes enfants dont le ParentLineID correspond à l\'identifiant de la ligne GROUP (ram:LineID).',
        '%lead|invoice%GROUP line: %n1% , sum of the sub-lines: %n2% , number of sub-lines: %n3% . Current value: " %n4% ". When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9, the net amount (%x%) of a GROUP line must equal (within ±0.01 × the number of sub-lines) the sum of the net amounts of its child lines, whose ParentLineID is the GROUP line\'s identifier (ram:LineID) (%T%).',
        '%lead|invoice%GROUP-Position: %n1% , Summe der Unterpositionen: %n2% , Anzahl der Unterpositionen: %n3% . Aktueller Wert: " %n4% ". Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9, muss der Nettobetrag (%x%) einer GROUP-Position (innerhalb von ±0,01 × Anzahl der Unterpositionen) gleich der Summe der Nettobeträge ihrer Unterpositionen sein, deren ParentLineID die Kennung der GROUP-Position (ram:LineID) ist (%T%).',
    ),
    (
        "IDligne {1} , ID parent ligne {2} , legalID : {3} , ParentlegalID : {4} . Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9, chaque ligne (BG-25) doit contenir un identifiant légal de vendeur (ram:ID). Si la ligne a un identifiant de ligne parent (ram:ParentLineID), cet identifiant doit être identique à celui de la ligne parent.",
        "Line {1} , parent line {2} , legalID: {3} , parent legalID: {4} . When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9, every invoice line (BG-25) must have a %T% (ram:ID). If the line has a parent line identifier (ram:ParentLineID), that identifier must be the parent line's.",
        "Position {1} , übergeordnete Position {2} , legalID: {3} , übergeordnete legalID: {4} . Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9, muss jede Rechnungsposition (BG-25) eine Angabe „%T%“ (ram:ID) haben. Hat die Position eine übergeordnete Position (ram:ParentLineID), muss diese Kennung die der übergeordneten Position sein.",
    ),
    (
        "IDligne {1} , ID parent ligne {2} , numfact en ligne {3} , numfact ligne parent : {4} . Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9, chaque ligne (BG-25) doit contenir un numéro de facture codifié AFL (%x%). Si la ligne a un identifiant de ligne parent (%y%), ce numéro doit être identique à celui de la ligne parent.",
        "Line {1} , parent line {2} , line invoice number {3} , parent line invoice number: {4} . When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9, every invoice line (BG-25) must have an invoice number with the scheme AFL (%x%, %T%). If the line has a parent line identifier (%y%), that number must be the parent line's.",
        "Position {1} , übergeordnete Position {2} , Rechnungsnummer der Position {3} , Rechnungsnummer der übergeordneten Position: {4} . Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9, muss jede Rechnungsposition (BG-25) eine Rechnungsnummer mit dem Schema AFL haben (%x%, %T%). Hat die Position eine übergeordnete Position (%y%), muss diese Nummer die der übergeordneten Position sein.",
    ),
    (
        "IDligne {1} , Raison exemption : {2} %sep% Num fact ligne: {3} . Lorsque le cadre de facturation (BT-23) est %codes%, chaque ligne (BG-25) doit contenir une raison d'exemption TVA en texte commençant par le numéro de sous-facture en ligne entre #.",
        "Line {1} , exemption reason: {2} %sep% line invoice number: {3} . When the billing framework (BT-23) is %codes|or%, every invoice line (BG-25) must have a VAT exemption reason text beginning with the line's sub-invoice number between # signs (%T%).",
        "Position {1} , Befreiungsgrund: {2} %sep% Rechnungsnummer der Position: {3} . Ist der Rechnungsrahmen (BT-23) %codes|or%, muss jede Rechnungsposition (BG-25) einen Befreiungsgrund als Text haben, der mit der Nummer der Teilrechnung der Position zwischen #-Zeichen beginnt (%T%).",
    ),
    (
        "Id Line Group : {1} , Numfact: {2} , Total TVA : {3} , Somme TVA : {4} . Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9, le montant total TVA de la ligne GROUP (EXT-FR-FE-181) doit être égal à la somme des montants de TVA des ventilations TVA (BT-117) dont la raison d'exemption (ram:ExemptionReason) commence par le numéro de facture en ligne (BT-128 avec ReferenceTypeCode = AFL) entre #.",
        "GROUP line: {1} , invoice number: {2} , VAT total: {3} , VAT sum: {4} . When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9, the total VAT amount of a GROUP line (EXT-FR-FE-181) must equal the sum of the VAT category tax amounts (BT-117) of the VAT breakdowns whose exemption reason (ram:ExemptionReason) begins with the line's invoice number (BT-128 with ReferenceTypeCode = AFL) between # signs.",
        "GROUP-Position: {1} , Rechnungsnummer: {2} , Umsatzsteuer gesamt: {3} , Summe Umsatzsteuer: {4} . Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9, muss der Umsatzsteuerbetrag einer GROUP-Position (EXT-FR-FE-181) gleich der Summe der Steuerbeträge (BT-117) der Aufschlüsselungen sein, deren Befreiungsgrund (ram:ExemptionReason) mit der Rechnungsnummer der Position (BT-128 mit ReferenceTypeCode = AFL) zwischen #-Zeichen beginnt.",
    ),
    (
        "Id Line Group : {1} , nb sous-ligne : {2} , TTC : {3} , TVA : {4} , HT : {5} Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9, si le montant total avec TVA (%x%) est présent pour une ligne GROUP sans parent, alors la différence entre ce montant et la somme du montant HT (%y%) et du montant TVA (%z%) doit être inférieure ou égale à 0,01 × le nombre de sous-lignes DETAIL. Valeur actuelle : \" {6} '.",
        "GROUP line: {1} , sub-lines: {2} , with VAT: {3} , VAT: {4} , without VAT: {5} When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9 and a GROUP line without a parent gives its total amount with VAT (%x%, %T%), the difference between that amount and the sum of its net amount (%y%) and its VAT amount (%z%) must not exceed 0.01 × the number of DETAIL sub-lines. Current value: \" {6} '.",
        "GROUP-Position: {1} , Unterpositionen: {2} , brutto: {3} , Umsatzsteuer: {4} , netto: {5} Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9 und gibt eine GROUP-Position ohne übergeordnete Position ihren Bruttobetrag (%x%, %T%) an, darf die Abweichung zwischen diesem Betrag und der Summe aus Nettobetrag (%y%) und Umsatzsteuerbetrag (%z%) höchstens 0,01 × Anzahl der DETAIL-Unterpositionen betragen. Aktueller Wert: \" {6} '.",
    ),
    (
        'Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9, si le Vendeur principal identifié dans le bloc Vendeur (BG-4) de la facture au travers de son identifiant légal (BT-30) dispose d\'un groupe de lignes de facturation, alors il doit exister au moins une ligne (BG-25) avec sous-type de ligne (EXT-FR-FE-163) = "GROUP" et sans identifiant de ligne Parent (EXT-FR-FE-162), pour laquelle le numéro de facture à la ligne (Valeur de BT-128 avec BT-128-1 = AFL) est égal au numéro de facture (BT-1).',
        'When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9 and the main seller, identified in the SELLER group (BG-4) by its legal registration identifier (BT-30), has a group of invoice lines, there must be at least one invoice line (BG-25) with the line subtype (EXT-FR-FE-163) "GROUP" and no parent line identifier (EXT-FR-FE-162) whose line invoice number (BT-128 with BT-128-1 = AFL) is the Invoice number (BT-1).',
        'Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9 und hat der Hauptverkäufer, bestimmt in der Gruppe VERKÄUFER (BG-4) durch seine Registrierungsnummer (BT-30), eine Gruppe von Rechnungspositionen, muss es mindestens eine Rechnungsposition (BG-25) mit dem Untertyp (EXT-FR-FE-163) "GROUP" und ohne übergeordnete Position (EXT-FR-FE-162) geben, deren Rechnungsnummer (BT-128 mit BT-128-1 = AFL) die Rechnungsnummer (BT-1) ist.',
    ),
    (
        "Lorsque le cadre de facturation (BT-23) est S8, B8, M8 ou S9, B9, M9, les numéros de facture à la ligne (ram:IssuerAssignedID avec ReferenceTypeCode = AFL) pour les lignes GROUP sans parent doivent être uniques. Veuillez vérifier que chaque numéro est distinct.",
        "When the billing framework (BT-23) is S8, B8, M8 or S9, B9, M9, the line invoice numbers (ram:IssuerAssignedID with ReferenceTypeCode = AFL, %T%) of the GROUP lines without a parent must be unique. Please make sure that each number is different.",
        "Ist der Rechnungsrahmen (BT-23) S8, B8, M8 oder S9, B9, M9, müssen die Rechnungsnummern der Positionen (ram:IssuerAssignedID mit ReferenceTypeCode = AFL, %T%) der GROUP-Positionen ohne übergeordnete Position eindeutig sein. Bitte prüfen Sie, dass jede Nummer verschieden ist.",
    ),
    (
        "Lorsque le cadre de facturation (BT-23) est S8, B8 ou M8, le code type de facture (ram:TypeCode) ne doit pas être l'un des types auto-facturés suivants : 389, 261, 501, 500, 502, 471, 473. Valeur actuelle : \" {1} '.",
        "When the billing framework (BT-23) is S8, B8 or M8, the Invoice type code (ram:TypeCode, BT-3) must not be one of the self-billing types 389, 261, 501, 500, 502, 471, 473. Current value: \" {1} '.",
        "Ist der Rechnungsrahmen (BT-23) S8, B8 oder M8, darf der Code für den Rechnungstyp (ram:TypeCode, BT-3) keiner der Gutschrifttypen 389, 261, 501, 500, 502, 471, 473 sein. Aktueller Wert: \" {1} '.",
    ),
    (
        "Lorsque le cadre de facturation (BT-23) est S9, B9 ou M9, le code type de facture (ram:TypeCode) DOIT être l'un des types auto-facturés suivants : 389, 261, 501, 500, 502, 471, 473. Valeur actuelle : \" {1} '.",
        "When the billing framework (BT-23) is S9, B9 or M9, the Invoice type code (ram:TypeCode, BT-3) MUST be one of the self-billing types 389, 261, 501, 500, 502, 471, 473. Current value: \" {1} '.",
        "Ist der Rechnungsrahmen (BT-23) S9, B9 oder M9, MUSS der Code für den Rechnungstyp (ram:TypeCode, BT-3) einer der Gutschrifttypen 389, 261, 501, 500, 502, 471, 473 sein. Aktueller Wert: \" {1} '.",
    ),
    (
        '%what% Facture antérieure manquant ligne {1} : Lorsque le cadre de facturation (BT-23) est %codes%, et pour les factures rectificatives et avoirs chaque ligne (BG-25) avec un sous-type de ligne (EXT-FR-FE-163) égal à "GROUP" et sans identifiant de ligne Parent (EXT-FR-FE-162) doit comprendre un identifiant de facture antérieure à la ligne (EXT-FR-FE-136) ainsi que sa date (EXT-FR-FE-138).',
        'Line {1} lacks the preceding invoice %what|numdate%: when the billing framework (BT-23) is %codes|or%, in corrective invoices and credit notes every invoice line (BG-25) with the line subtype (EXT-FR-FE-163) "GROUP" and no parent line identifier (EXT-FR-FE-162) must give a line preceding invoice reference (EXT-FR-FE-136) and its date (EXT-FR-FE-138).',
        'Der Position {1} fehlt %what|numdate% der vorausgegangenen Rechnung: Ist der Rechnungsrahmen (BT-23) %codes|or%, muss in berichtigten Rechnungen und Gutschriften jede Rechnungsposition (BG-25) mit dem Untertyp (EXT-FR-FE-163) "GROUP" und ohne übergeordnete Position (EXT-FR-FE-162) eine vorausgegangene Rechnung auf Positionsebene (EXT-FR-FE-136) mit ihrem Datum (EXT-FR-FE-138) nennen.',
    ),
    # ---- EXTENDED-CTC-FR-UBL: French texts of BR-FREXT-* -----------------------------------------------------------
    (
        "Écart absolu entre le montant total des lignes (BT-106) et la somme des montants nets ligne (BT-131) ≤ 0,01 € * nombre de lignes, pour lesquels le sous-type est absent ou égal à DETAIL",
        "The absolute difference between the Sum of Invoice line net amount (BT-106) and the sum of the Invoice line net amounts (BT-131) must not exceed €0.01 × the number of lines, counting the lines whose subtype is absent or DETAIL",
        "Die absolute Abweichung zwischen der Summe der Nettobeträge aller Rechnungspositionen (BT-106) und der Summe der Nettobeträge der Positionen (BT-131) darf höchstens 0,01 € × Anzahl der Positionen betragen; gezählt werden die Positionen ohne Untertyp oder mit dem Untertyp DETAIL",
    ),
    (
        "Écart absolu entre le total des remises (BT-107) et la somme des montants de remise (BT-92) ≤ 0,01 € * nombre de remises.",
        "The absolute difference between the Sum of allowances on document level (BT-107) and the sum of the Document level allowance amounts (BT-92) must not exceed €0.01 × the number of allowances.",
        "Die absolute Abweichung zwischen der Summe der Abschläge auf Dokumentenebene (BT-107) und der Summe der Abschlagsbeträge (BT-92) darf höchstens 0,01 € × Anzahl der Abschläge betragen.",
    ),
    (
        "Écart absolu entre le total des charges (BT-108) et la somme des montants de charge (BT-99) ≤ 0,01 € * nombre de charges.",
        "The absolute difference between the Sum of charges on document level (BT-108) and the sum of the Document level charge amounts (BT-99) must not exceed €0.01 × the number of charges.",
        "Die absolute Abweichung zwischen der Summe der Zuschläge auf Dokumentenebene (BT-108) und der Summe der Zuschlagsbeträge (BT-99) darf höchstens 0,01 € × Anzahl der Zuschläge betragen.",
    ),
    (
        "Écart absolu entre le montant total hors TVA (BT-109) et la somme des BT-131 pour lesquels le sous-type est absent ou égal à DETAIL, BT-92 et BT-99 ≤ 0,01 € * nombre total d’éléments.",
        "The absolute difference between the Invoice total amount without VAT (BT-109) and the sum of the BT-131 of the lines whose subtype is absent or DETAIL, BT-92 and BT-99 must not exceed €0.01 × the total number of items.",
        "Die absolute Abweichung zwischen dem Gesamtbetrag der Rechnung ohne Umsatzsteuer (BT-109) und der Summe aus BT-131 der Positionen ohne Untertyp oder mit dem Untertyp DETAIL, BT-92 und BT-99 darf höchstens 0,01 € × Gesamtzahl der Elemente betragen.",
    ),
    (
        "Si le montant de TVA (BT-110) est présent dans la devise du document (BT-5), alors l’écart absolu entre le montant TTC (BT-112) et la somme HT + TVA (BT-109 + BT-110) doit être ≤ 0,01 € * nombre total d’éléments. Sinon, BT-112 = BT-109.",
        "If the Invoice total VAT amount (BT-110) is given in the invoice currency (BT-5), the absolute difference between the Invoice total amount with VAT (BT-112) and the sum without VAT + VAT (BT-109 + BT-110) must not exceed €0.01 × the total number of items. Otherwise BT-112 = BT-109.",
        "Ist der Gesamtbetrag der Umsatzsteuer (BT-110) in der Rechnungswährung (BT-5) angegeben, darf die absolute Abweichung zwischen dem Gesamtbetrag mit Umsatzsteuer (BT-112) und der Summe aus Nettobetrag und Umsatzsteuer (BT-109 + BT-110) höchstens 0,01 € × Gesamtzahl der Elemente betragen. Andernfalls gilt BT-112 = BT-109.",
    ),
    (
        '%ex%Dans une ventilation TVA (BG-23)%rate% où le %cc% (BT-118) est "%c%" (%n%), l’écart absolu entre le montant taxable (BT-116) et la somme des montants nets ligne (BT-131) + charges (BT-99) - remises (BT-92) doit être ≤ 0,01 € * nombre total d’éléments concernés.',
        '%ex|ex%In a VAT breakdown (BG-23)%rate|rate% where the %cc|catcode% (BT-118) is "%c%" (%n|cat%), the absolute difference between the VAT category taxable amount (BT-116) and the sum of the Invoice line net amounts (BT-131) + charges (BT-99) - allowances (BT-92) must not exceed €0.01 × the total number of items concerned.',
        '%ex|ex%In einer Umsatzsteueraufschlüsselung (BG-23)%rate|rate% mit dem %cc|catcode% (BT-118) "%c%" (%n|cat%) darf die absolute Abweichung zwischen dem Steuerbasisbetrag (BT-116) und der Summe aus Nettobeträgen der Positionen (BT-131) + Zuschlägen (BT-99) - Abschlägen (BT-92) höchstens 0,01 € × Gesamtzahl der betroffenen Elemente betragen.',
    ),
    (
        'Dans une ventilation TVA (BG-23), pour chaque taux de TVA (BT-119) où le code catégorie (BT-118) est "S" (Taux normal), l’écart absolu entre le montant de TVA (BT-117) et le produit du montant taxable (BT-116) par le taux (BT-119) doit être ≤ 0,01 € * nombre total d’éléments concernés.',
        'In a VAT breakdown (BG-23), for each VAT category rate (BT-119) with the VAT category code (BT-118) "S" (Standard rated), the absolute difference between the VAT category tax amount (BT-117) and the VAT category taxable amount (BT-116) times the rate (BT-119) must not exceed €0.01 × the total number of items concerned.',
        'In einer Umsatzsteueraufschlüsselung (BG-23) darf für jeden Umsatzsteuersatz (BT-119) mit dem Code der Umsatzsteuerkategorie (BT-118) "S" (Normalsatz) die absolute Abweichung zwischen dem Steuerbetrag der Kategorie (BT-117) und dem Steuerbasisbetrag (BT-116) mal dem Satz (BT-119) höchstens 0,01 € × Gesamtzahl der betroffenen Elemente betragen.',
    ),
)

# ---- EXTENDED-CTC-FR: English texts (German is ours) ------------------------------------------------------------------
RULES += (
    (
        '%ex%In a VAT breakdown (BG-23)%rate% where VAT category code (BT-118) is equal to “%c%” ("%n%"), Absolute Value of (VAT category taxable amount (BT-116) - ∑ Invoice line net amounts (BT-131) + Σ Document level allowance amounts (BT-92) - Σ Document level charge amounts (BT-99) - Σ Logistics Service fee amounts (BT-%x%-272)) <= 0,01 * ((Number of line net amounts (BT-131) + Number of Document level allowance amounts (BT-92) + Number of Document level charge amounts (BT-99) + Number of Logistics Service fee amounts (BT-X-272)), where the VAT category code (BT-151, BT-95, BT-102, BT-X-273) is "%n2%" (%c2%), %tail%',
        None,
        '%ex|ex%In einer Umsatzsteueraufschlüsselung (BG-23)%rate|rate% mit dem Code der Umsatzsteuerkategorie (BT-118) „%c%“ ("%n|cat%") darf der Betrag von (Steuerbasisbetrag (BT-116) - ∑ Nettobeträge der Positionen (BT-131) + Σ Abschläge auf Dokumentenebene (BT-92) - Σ Zuschläge auf Dokumentenebene (BT-99) - Σ Logistikgebühren (BT-%x%-272)) höchstens 0,01 * ((Anzahl der Nettobeträge der Positionen (BT-131) + Anzahl der Abschläge auf Dokumentenebene (BT-92) + Anzahl der Zuschläge auf Dokumentenebene (BT-99) + Anzahl der Logistikgebühren (BT-X-272)) betragen, wobei der Code der Umsatzsteuerkategorie (BT-151, BT-95, BT-102, BT-X-273) "%n2|cat%" (%c2%) ist, %tail|fxtail%',
    ),
    (
        'For each different value of VAT rate (BT-119) where the VAT category code (BT-118) is equal to “S” ("Standard rated"), Absolute Value of (VAT category tax amount (BT-117) - VAT category taxable amount (BT-116) multiplied by the VAT category rate (BT-119)/100) <= 0,01 * ((Number of line net amounts (BT-131) + Number of Document level allowance amounts (BT-92) + Number of Document level allowance amounts (BT-99) + Number of Logistics Service fee amounts (BT-X-272)), where the VAT category code (BT-151, BT-95, BT-102, BT-X-273) is " Standard rated " (S), and the VAT rate (BT-152, BT-96, BT-103, BT-X-274) equals the VAT category rate (BT-119), and only for lines where the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "DETAIL" or is not specified or the same rule but also taking into account the exemption reasons in Text (BT-120) and Code (BT-121) in BG-23 and the exemption reasons on each line (BT-X-96 / BT-X-97), on Document level Allowances (BT-173 / BT-174) and on Document Level Charges (BT-175 / BT-176) and on Service logistic charges (BT-X-591 / BT-X-592). One of the two rules must be followed, bearing in mind that ultimately only the second one will have to be followed.',
        None,
        'Für jeden Umsatzsteuersatz (BT-119) mit dem Code der Umsatzsteuerkategorie (BT-118) „S“ ("Normalsatz") darf der Betrag von (Steuerbetrag der Kategorie (BT-117) - Steuerbasisbetrag (BT-116) mal Umsatzsteuersatz der Kategorie (BT-119)/100) höchstens 0,01 * ((Anzahl der Nettobeträge der Positionen (BT-131) + Anzahl der Abschläge auf Dokumentenebene (BT-92) + Anzahl der Zuschläge auf Dokumentenebene (BT-99) + Anzahl der Logistikgebühren (BT-X-272)) betragen, wobei der Code der Umsatzsteuerkategorie (BT-151, BT-95, BT-102, BT-X-273) "Normalsatz" (S) ist und der Umsatzsteuersatz (BT-152, BT-96, BT-103, BT-X-274) dem Satz der Kategorie (BT-119) entspricht, jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (EXT-FR-FE-163 / BT-X-8) den Wert "DETAIL" hat oder fehlt; oder dieselbe Regel unter zusätzlicher Berücksichtigung der Befreiungsgründe als Text (BT-120) und Code (BT-121) in BG-23 sowie der Befreiungsgründe jeder Position (BT-X-96 / BT-X-97), der Abschläge auf Dokumentenebene (BT-173 / BT-174), der Zuschläge auf Dokumentenebene (BT-175 / BT-176) und der Logistikgebühren (BT-X-591 / BT-X-592). Eine der beiden Regeln muss eingehalten werden; künftig wird nur noch die zweite gelten.',
    ),
    (
        'An Invoice that contains an Invoice line (BG-25) where the "%s%" (%st%) has the value "DETAIL" or is not specified, a Document level allowance (BG-20) or a Document level charge or tax (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is %q1%%c%%q2% ("%n%") shall contain in the VAT breakdown (BG-23) at least one VAT category code (BT-118) equal with %q3%%c2%%q4% ("%n2%").',
        None,
        'Eine Rechnung mit einer Rechnungsposition (BG-25), deren "%s|sub%" (%st|subterm%) den Wert "DETAIL" hat oder fehlt, einem Abschlag auf Dokumentenebene (BG-20) oder einem Zuschlag bzw. einer Steuer auf Dokumentenebene (BG-21) mit der Umsatzsteuerkategorie (BT-151, BT-95 oder BT-102) "%c%" ("%n|cat%") muss in der Umsatzsteueraufschlüsselung (BG-23) mindestens einmal den Code der Umsatzsteuerkategorie (BT-118) "%c2%" ("%n2|cat%") enthalten.',
    ),
    (
        'Absolute Value of (Sum of Invoice line net amount (BT-106) - Σ Invoice line net amounts (BT-131))<= 0,01 * Number of line net amounts (BT-131), where the VAT category code (BT-151, BT-95, BT-102, BT-X-273) is "Zero rated" (Z), but only for lines where the "Subtype of invoice item" (BT-X-8) has the value "Regular item (standard case)" (DETAIL) or is not specified.',
        None,
        'Der Betrag von (Summe der Nettobeträge aller Rechnungspositionen (BT-106) - Σ Nettobeträge der Positionen (BT-131)) darf höchstens 0,01 * Anzahl der Nettobeträge der Positionen (BT-131) betragen, wobei der Code der Umsatzsteuerkategorie (BT-151, BT-95, BT-102, BT-X-273) "Nullsatz" (Z) ist, jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (BT-X-8) den Wert "Normale Position (Standardfall)" (DETAIL) hat oder fehlt.',
    ),
    (
        "Absolute Value of (Sum of allowances on document level (BT-107) - Σ Document level allowance amounts (BT-92))<= 0,01 * Number of Document level allowance amounts (BT-92).",
        None,
        "Der Betrag von (Summe der Abschläge auf Dokumentenebene (BT-107) - Σ Abschläge auf Dokumentenebene (BT-92)) darf höchstens 0,01 * Anzahl der Abschläge auf Dokumentenebene (BT-92) betragen.",
    ),
    (
        "Absolute Value of (Sum of charges on document level (BT-108) - Σ Document level charge amounts (BT-99) - Σ Logistics Service fee amounts (BT-x-272))<= 0,01 * (Number of Document level charge amounts (BT-99) + Number of Logistics Service fee amounts (BT-X-272)).",
        None,
        "Der Betrag von (Summe der Zuschläge auf Dokumentenebene (BT-108) - Σ Zuschläge auf Dokumentenebene (BT-99) - Σ Logistikgebühren (BT-x-272)) darf höchstens 0,01 * (Anzahl der Zuschläge auf Dokumentenebene (BT-99) + Anzahl der Logistikgebühren (BT-X-272)) betragen.",
    ),
    (
        'Absolute Value of (Invoice total amount without VAT (BT-109) - ∑ Invoice line net amounts (BT-131) + Σ Document level allowance amounts (BT-92) - Σ Document level charge amounts (BT-99)) <= 0,01 * (Number of line net amounts (BT-131) + Number of Document level allowance amounts (BT-92) + Number of Document level charge amounts (BT-99)), where the VAT category code (BT-151, BT-95, BT-102, BT-X-273) is "Zero rated" (Z), but only for lines where the "Subtype of invoice item" (BT-X-8) has the value "Regular item (standard case)" (DETAIL) or is not specified.',
        None,
        'Der Betrag von (Gesamtbetrag der Rechnung ohne Umsatzsteuer (BT-109) - ∑ Nettobeträge der Positionen (BT-131) + Σ Abschläge auf Dokumentenebene (BT-92) - Σ Zuschläge auf Dokumentenebene (BT-99)) darf höchstens 0,01 * (Anzahl der Nettobeträge der Positionen (BT-131) + Anzahl der Abschläge auf Dokumentenebene (BT-92) + Anzahl der Zuschläge auf Dokumentenebene (BT-99)) betragen, wobei der Code der Umsatzsteuerkategorie (BT-151, BT-95, BT-102, BT-X-273) "Nullsatz" (Z) ist, jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (BT-X-8) den Wert "Normale Position (Standardfall)" (DETAIL) hat oder fehlt.',
    ),
    (
        'If Invoice Total VAT amount (BT-110), where currency (BT-110-0) is equal to BT-5, is present, then the Absolute Value of (Invoice total amount with VAT (BT-112) - Invoice total amount without VAT (BT-109) - Invoice total VAT amount (BT-110)) <= 0,01 * (Number of line net amounts (BT-131) + Number of Document level allowance amounts (BT-92) + Number of Document level charges amounts (BT-99) + Number of Logistics Service fee amounts (BT-X-272), but only for lines where the "Subtype of invoice item" (BT-X-8) has the value "Regular item (standard case)" (DETAIL) or is not specified. Else, Invoice total amount with VAT (BT-112) is equal to Invoice total amount without VAT (BT-109), where the VAT category code (BT-151, BT-95, BT-102, BT-X-273) is "Zero rated" (Z).',
        None,
        'Ist der Gesamtbetrag der Umsatzsteuer (BT-110) in der Währung BT-5 (BT-110-0) vorhanden, darf der Betrag von (Gesamtbetrag der Rechnung mit Umsatzsteuer (BT-112) - Gesamtbetrag der Rechnung ohne Umsatzsteuer (BT-109) - Gesamtbetrag der Umsatzsteuer (BT-110)) höchstens 0,01 * (Anzahl der Nettobeträge der Positionen (BT-131) + Anzahl der Abschläge auf Dokumentenebene (BT-92) + Anzahl der Zuschläge auf Dokumentenebene (BT-99) + Anzahl der Logistikgebühren (BT-X-272)) betragen, jedoch nur für Positionen, deren "Untertyp der Rechnungsposition" (BT-X-8) den Wert "Normale Position (Standardfall)" (DETAIL) hat oder fehlt. Andernfalls ist der Gesamtbetrag der Rechnung mit Umsatzsteuer (BT-112) gleich dem Gesamtbetrag ohne Umsatzsteuer (BT-109), wobei der Code der Umsatzsteuerkategorie (BT-151, BT-95, BT-102, BT-X-273) "Nullsatz" (Z) ist.',
    ),
    (
        'Each invoice item "INVOICE LINE" (BG-25) must contain the quantity of goods or services invoiced in the relevant item as a line item "Invoiced quantity" (BT-129) if the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "DETAIL" or is not specified..',
        None,
        'Jede Rechnungsposition (BG-25) muss die in Rechnung gestellte Menge der Waren oder Dienstleistungen als "In Rechnung gestellte Menge" (BT-129) enthalten, wenn ihr "Untertyp der Rechnungsposition" (EXT-FR-FE-163 / BT-X-8) den Wert "DETAIL" hat oder fehlt.',
    ),
    (
        '%lead% (BG-25) shall have an %what% (BT-%n%)%c% if the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "%d%" or is not specified%end%',
        None,
        'Jede Rechnungsposition (BG-25) muss %what|lineterm% (BT-%n%) haben, wenn ihr "Untertyp der Rechnungsposition" (EXT-FR-FE-163 / BT-X-8) den Wert "%d|detail%" hat oder fehlt.',
    ),
    (
        '%lead% (BG-25) shall contain the Item net price (BT-146)%c% if the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "DETAIL" or is not specified%end%',
        None,
        'Jede Rechnungsposition (BG-25) muss den Nettopreis des Artikels (BT-146) enthalten, wenn ihr "Untertyp der Rechnungsposition" (EXT-FR-FE-163 / BT-X-8) den Wert "DETAIL" hat oder fehlt.',
    ),
    (
        '%lead% (BG-25) shall be categorized with an Invoiced item VAT category code (BT-151)%c% if the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "%d%) or is not specified.',
        None,
        'Jede Rechnungsposition (BG-25) muss eine Umsatzsteuerkategorie des Artikels (BT-151) haben, wenn ihr "Untertyp der Rechnungsposition" (EXT-FR-FE-163 / BT-X-8) den Wert "%d|detail%) hat oder fehlt.',
    ),
    (
        '%lead% (BG-25) shall be categorized with an Invoiced item VAT category code (BT-151)%c% if the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "DETAIL" or is not specified.',
        None,
        'Jede Rechnungsposition (BG-25) muss eine Umsatzsteuerkategorie des Artikels (BT-151) haben, wenn ihr "Untertyp der Rechnungsposition" (EXT-FR-FE-163 / BT-X-8) den Wert "DETAIL" hat oder fehlt.',
    ),
    (
        "Each Document level charge (BG-21) shall have a Document level charge reason (BT-104) or a Document level charge reason code (BT-105) or a Document level non VAT Tax reason code (BT-177)..",
        None,
        "Jeder Zuschlag auf Dokumentenebene (BG-21) muss einen Grund des Zuschlags (BT-104), einen Code für den Grund des Zuschlags (BT-105) oder einen Code für eine sonstige (nicht Umsatz-)Steuer auf Dokumentenebene (BT-177) haben.",
    ),
    (
        "Each Invoice line charge (BG-28) shall have an Invoice line charge reason (BT-144) or an Invoice line charge reason code (BT-145) or an Invoice line non VAT tax reason code (BT-193).",
        None,
        "Jeder Zuschlag auf Positionsebene (BG-28) muss einen Grund des Zuschlags (BT-144), einen Code für den Grund des Zuschlags (BT-145) oder einen Code für eine sonstige (nicht Umsatz-)Steuer auf Positionsebene (BT-193) haben.",
    ),
    (
        "Each Item attribute (BG-32) shall contain an Item attribute name (BT-160) or an Item attribute Code (EXT-FR-FE-159).",
        None,
        "Jedes Artikelattribut (BG-32) muss einen Namen des Artikelattributs (BT-160) oder einen Code des Artikelattributs (EXT-FR-FE-159) enthalten.",
    ),
    (
        "Each Item attribute (BG-32) shall contain an Item attribute Value (BT-161) or an Item ValueQuantity (EXT-FR-FE-160) with @unitCode (EXT-FR-FE-161) and not both.",
        None,
        "Jedes Artikelattribut (BG-32) muss einen Wert des Artikelattributs (BT-161) oder eine Wertmenge (EXT-FR-FE-160) mit @unitCode (EXT-FR-FE-161) enthalten, aber nicht beides.",
    ),
    (
        "Any identifier identification scheme identifier MUST be coded using one of the ISO 6523 ICD list + BY and SE.",
        None,
        "Jede Schemakennung einer Kennung MUSS ein Code der ISO-6523-ICD-Liste oder BY bzw. SE sein.",
    ),
    (
        "Coded allowance reasons on Gross Price MUST belong to the UNCL 5189 code list",
        None,
        "Codierte Gründe für Abschläge auf den Bruttopreis MÜSSEN der Codeliste UNCL 5189 angehören",
    ),
    (
        "Coded charge reasons MUST belong to the UNCL 7161 code list",
        None,
        "Codierte Gründe für Zuschläge MÜSSEN der Codeliste UNCL 7161 angehören",
    ),
    (
        'Coded charge reasons MUST belong to the UNCL 5153 except "VAT" code list',
        None,
        'Codierte Gründe für Zuschläge MÜSSEN der Codeliste UNCL 5153 ohne "VAT" angehören',
    ),
    (
        "ListID for Charges and Tax reason code, if present%c% SHALL be equal to 7161 or 5153",
        None,
        "Die ListID des Codes für den Grund eines Zuschlags oder einer Steuer MUSS, wenn vorhanden, 7161 oder 5153 sein",
    ),
    (
        "For Mime code in attribute use MIMEMediaType.",
        None,
        "Für den MIME-Code im Attribut ist MIMEMediaType zu verwenden.",
    ),
    ("INCOTERMS shall be in restricted code list", None, "INCOTERMS müssen der eingeschränkten Codeliste angehören"),
    (
        "Object identifier identification scheme identifier MUST be coded using a restriction of UNTDID 1153.",
        None,
        "Die Schemakennung einer Objektkennung MUSS mit einer Teilmenge von UNTDID 1153 codiert sein.",
    ),
    (
        "only values from the code list UNTDID 6313+Factur-X-Extension should be used on Item attribute code",
        None,
        "Für den Code des Artikelattributs sollten nur Werte der Codeliste UNTDID 6313 + Factur-X-Erweiterung verwendet werden",
    ),
    (
        "To ensure automated processing of the article attributes without bilateral reconciliation, only values from the code list UNTDED 6313+Factur-X-Extension should be used.",
        None,
        "Damit Artikelattribute ohne bilaterale Abstimmung automatisch verarbeitet werden können, sollten nur Werte der Codeliste UNTDED 6313 + Factur-X-Erweiterung verwendet werden.",
    ),
    (
        "The code for the subtype of the invoice line item (EXT-FR-FE-163) must be used from the Line Status Reason code list.",
        None,
        "Der Code für den Untertyp der Rechnungsposition (EXT-FR-FE-163) muss der Codeliste Line Status Reason entnommen sein.",
    ),
    (
        'For each item (BG-25), if the "ID of the parent line" (BT-X-304 / EXT-FR-FE-162) is used, the "Subtype of the invoice item" (BT-X-8 / EXT-FR-FE-163) must be specified."',
        None,
        'Für jede Position (BG-25) gilt: Ist die "Kennung der übergeordneten Position" (BT-X-304 / EXT-FR-FE-162) angegeben, muss der "Untertyp der Rechnungsposition" (BT-X-8 / EXT-FR-FE-163) angegeben sein."',
    ),
    (
        'If the "Identifier of the parent line" (EXT-FR-FE-162) is used, the "Subtype of the invoice line item" (EXT-FR-FE-163) must be specified',
        None,
        'Ist die "Kennung der übergeordneten Position" (EXT-FR-FE-162) angegeben, muss der "Untertyp der Rechnungsposition" (EXT-FR-FE-163) angegeben sein',
    ),
    (
        'If the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "GROUP" and if the "Invoice line net amount" (BT-131) is specified, it MUST correspond to the sum of the "Invoice line net amount" (BT-131) of the next lower level for which the "Subtype of the invoice line item" (EXT-FR-FE-163) has the value "DETAIL" or "GROUP".',
        None,
        'Hat der "Untertyp der Rechnungsposition" (EXT-FR-FE-163 / BT-X-8) den Wert "GROUP" und ist der "Nettobetrag der Rechnungsposition" (BT-131) angegeben, MUSS dieser der Summe der "Nettobeträge der Rechnungsposition" (BT-131) der nächstniedrigeren Ebene entsprechen, deren "Untertyp der Rechnungsposition" (EXT-FR-FE-163) den Wert "DETAIL" oder "GROUP" hat.',
    ),
    (
        'Each "Identifier of parent line" (EXT-FR-FE-162) must refer to an existing "Invoice line Identifier" (BT-126) of another invoice line (BG-25).',
        None,
        'Jede "Kennung der übergeordneten Position" (EXT-FR-FE-162) muss auf eine vorhandene "Kennung der Rechnungsposition" (BT-126) einer anderen Rechnungsposition (BG-25) verweisen.',
    ),
    (
        'If the "Subtype of invoice line item" (EXT-FR-FE-163 / BT-X-8) has the value "GROUP" and if the "Invoice line net amount" (BT-131) is specified, all lower levels which has "Subtype of invoice line item" (EXT-FR-FE-163) equal to "GROUP" MUST contain a "Invoice line net amount" (BT-131) value.',
        None,
        'Hat der "Untertyp der Rechnungsposition" (EXT-FR-FE-163 / BT-X-8) den Wert "GROUP" und ist der "Nettobetrag der Rechnungsposition" (BT-131) angegeben, MÜSSEN alle niedrigeren Ebenen mit dem "Untertyp der Rechnungsposition" (EXT-FR-FE-163) "GROUP" einen "Nettobetrag der Rechnungsposition" (BT-131) enthalten.',
    ),
    ("TypeCode should not be present", None, "TypeCode sollte nicht vorhanden sein"),
    ("ReferenceTypeCode should not be present", None, "ReferenceTypeCode sollte nicht vorhanden sein"),
    ("FormattedIssueDateTime should not be present", None, "FormattedIssueDateTime sollte nicht vorhanden sein"),
    (
        "This value in TaxApplicableTradeCurrencyExchange should not be present",
        None,
        "Dieser Wert in TaxApplicableTradeCurrencyExchange sollte nicht vorhanden sein",
    ),
    ("ChargeAmount should exist maximum once", None, "ChargeAmount sollte höchstens einmal vorkommen"),
    (
        "ApplicableTradeDeliveryTerms should not be present except for ram:DeliveryTypeCode for INCOTERMS %level% level and location on ram:ApplicableTradeDeliveryTerms/ram:RelevantTradeLocation/cbc:Name",
        None,
        "ApplicableTradeDeliveryTerms sollte nicht vorhanden sein, außer ram:DeliveryTypeCode für INCOTERMS auf %level|level% und dem Ort in ram:ApplicableTradeDeliveryTerms/ram:RelevantTradeLocation/cbc:Name",
    ),
    (
        "A UBL invoice should not include the DeliveryTerms except ID and location cac:DeliveryLocation/cbc:Name (for INCOTERMS)%line%",
        None,
        "Eine UBL-Rechnung sollte keine DeliveryTerms enthalten außer ID und Ort cac:DeliveryLocation/cbc:Name (für INCOTERMS)%line|level%",
    ),
    (
        'Invoice lines shall have one and only one classified tax category, if no subtype and subtype = "DETAIL", else no more than 1.',
        None,
        'Rechnungspositionen ohne Untertyp oder mit dem Untertyp "DETAIL" müssen genau eine Umsatzsteuerkategorie haben, andere höchstens eine.',
    ),
    (
        "Either the IBAN or a Proprietary ID (BT-84) shall be used.",
        None,
        "Es muss entweder die IBAN oder eine proprietäre Kennung (BT-84) angegeben werden.",
    ),
)

MAPS.update(
    {
        "bd02": {
            ". Veuillez vérifier que cette ligne est présente.": (
                ". Please make sure that these lines are present.",
                ". Bitte prüfen Sie, dass diese Positionen vorhanden sind.",
            ),
            ", pour lesquelles l'une a pour ID legal Vendeur à la ligne (EXT-FR-FE-167) l'ID légal du VENDEUR (BT-30). Veuillez vérifier qu'il y a une ligne GROUP avec ID Vendeur de ligne = ID VENDEUR (BT-30).": (
                ", one of which has as its line seller legal identifier (EXT-FR-FE-167) the legal identifier of the SELLER (BT-30). Please make sure that there is a GROUP line with line seller identifier = SELLER identifier (BT-30).",
                ", von denen eine als Registrierungsnummer des Verkäufers der Position (EXT-FR-FE-167) die Registrierungsnummer des VERKÄUFERS (BT-30) hat. Bitte prüfen Sie, dass es eine GROUP-Position mit Verkäuferkennung der Position = Kennung des VERKÄUFERS (BT-30) gibt.",
            ),
            ", pour lesquelles l'une a pour ID légale de Vendeur à la ligne (EXT-FR-FE-167) l'ID légal de l'ACHETEUR (BT-47). Veuillez vérifier qu'il y a une ligne GROUP avec ID Vendeur de ligne = ID ACHETEUR (BT-47).": (
                ", one of which has as its line seller legal identifier (EXT-FR-FE-167) the legal identifier of the BUYER (BT-47). Please make sure that there is a GROUP line with line seller identifier = BUYER identifier (BT-47).",
                ", von denen eine als Registrierungsnummer des Verkäufers der Position (EXT-FR-FE-167) die Registrierungsnummer des KÄUFERS (BT-47) hat. Bitte prüfen Sie, dass es eine GROUP-Position mit Verkäuferkennung der Position = Kennung des KÄUFERS (BT-47) gibt.",
            ),
        },
        "invoice": {
            "": ("", ""),
            "Num Fact : {1} - ": ("Invoice no.: {1} - ", "Rechnungsnr.: {1} - "),
        },
        "numdate": {
            "Num": ("reference", "die Nummer"),
            "Date": ("date", "das Datum"),
        },
        "lineterm": {
            "Invoiced quantity": ("", "eine In Rechnung gestellte Menge"),
            "Invoiced quantity unit of measure code": ("", "einen Code der Maßeinheit der Menge"),
            "Invoice line net amount": ("", "einen Nettobetrag der Rechnungsposition"),
        },
        "level": {
            "line": ("", "Positionsebene"),
            "Document": ("", "Dokumentenebene"),
            "": ("", ""),
            " on line level": ("", " auf Positionsebene"),
        },
    }
)
MAPS["or"].update(
    {
        "S8, B8, M8 ou S9, B9, M9": ("S8, B8, M8 or S9, B9, M9", "S8, B8, M8 oder S9, B9, M9"),
        "S8, B8 ou M8": ("S8, B8 or M8", "S8, B8 oder M8"),
        "S9, B9 ou M9": ("S9, B9 or M9", "S9, B9 oder M9"),
        "M8/S8/B8": ("M8/S8/B8", "M8/S8/B8"),
    }
)
