"""When the French e-invoicing rules apply: the French CTC markers a document carries (issue 31).

France's reform (XP Z12-012 / Z12-014, checked by FNFE-MPE's "BR-FR" rules) gives French invoices no specification
identifier of their own in the EN16931 profile: the AFNOR examples carry the plain ``urn:cen.eu:en16931:2017`` (BT-24),
the CII EXTENDED-CTC-FR examples the Factur-X EXTENDED id, and no BR-FR rule tests BT-24 (phive-rules picks the French
rule set explicitly). So the project decides, from what the document itself declares. A document carries the French
CTC markers when it has at least one of:

* **BT-24 containing** ``extended-ctc-fr`` (``…#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr``, XP Z12-014 annex B);
* **BT-23**, the business process (UBL ``cbc:ProfileID``, CII ``BusinessProcessSpecifiedDocumentContextParameter``),
  equal to one of the reform's billing frameworks ("cadre de facturation": B1, S1, M1, …, M9), the codes BR-FR-08
  requires of every French invoice and no other scheme uses;
* an **electronic address** of the seller (BT-34) or the buyer (BT-49) in the scheme ``0225`` (ISO 6523 ICD 0225,
  the French CTC electronic address the reform's directory assigns, which BR-FR-21/22/23 check).

Each is something only an invoice of the French reform says about itself; none is a fact about a party (a French
seller invoicing a foreign buyer, outside the reform, carries none of them). The profile order and which
specification identifiers get the French rules are in ``rulesets/profiles.toml`` (profiles with ``requires =
"fr-ctc"``); the report's ``profileReason`` names the markers found. A caller can always force a profile.
"""

from __future__ import annotations

from .parse import Document, child_path

__all__ = ["BILLING_FRAMEWORKS", "CTC_ADDRESS_SCHEME", "EXTENDED_CTC_FR", "french_markers"]

BILLING_FRAMEWORKS: frozenset[str] = frozenset(
    [
        "B1",
        "S1",
        "M1",
        "B2",
        "S2",
        "M2",
        "S3",
        "B4",
        "S4",
        "M4",
        "S5",
        "S6",
        "B7",
        "S7",
        "B8",
        "S8",
        "M8",
        "B9",
        "S9",
        "M9",
    ]
)
"""BR-FR-08's list of billing frameworks (BT-23), FNFE-MPE 1.4.0 and 1.4.0.03 alike."""
CTC_ADDRESS_SCHEME = "0225"
"""ISO 6523 ICD of the French CTC electronic addresses (BT-34, BT-49)."""
EXTENDED_CTC_FR = "extended-ctc-fr"

_NS = {
    "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
    "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
}
# Children of the root only (plus the parties' fixed paths): a few element lookups, whatever the document's size.
# Keyed by syntax name: the syntaxes the BR-FR invoice rules are written for (a document of any other carries none).
_BT23 = {
    "ubl": "cbc:ProfileID",
    "cii": "rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID",
}
_CII_PARTY = (
    "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:{}/ram:URIUniversalCommunication/ram:URIID"
)
_ADDRESSES = {
    "ubl": (
        ("BT-34", "cac:AccountingSupplierParty/cac:Party/cbc:EndpointID"),
        ("BT-49", "cac:AccountingCustomerParty/cac:Party/cbc:EndpointID"),
    ),
    "cii": (("BT-34", _CII_PARTY.format("SellerTradeParty")), ("BT-49", _CII_PARTY.format("BuyerTradeParty"))),
}


def _steps(path: str) -> tuple[str, ...]:
    """``path`` (``prefix:name`` steps) as the tags of its steps, in Clark notation."""
    return tuple(f"{{{_NS[prefix]}}}{name}" for prefix, name in (step.split(":") for step in path.split("/")))


_BT23_PATH = {syntax: _steps(path) for syntax, path in _BT23.items()}
_ADDRESS_PATHS = {syntax: tuple((term, _steps(path)) for term, path in paths) for syntax, paths in _ADDRESSES.items()}


def french_markers(document: Document) -> tuple[str, ...]:
    """The French CTC markers ``document`` carries (see the module docstring), each as a short text naming the
    business term and its value, in the order above; empty when it carries none."""
    found: list[str] = []
    for spec in document.spec_ids:
        if EXTENDED_CTC_FR in spec:
            found.append(f"BT-24 '{spec}' names EXTENDED-CTC-FR")
            break
    root = document.tree.getroot()
    bt23 = _BT23_PATH.get(document.syntax)
    for element in child_path(root, bt23) if bt23 is not None else ():
        code = (element.text or "").strip()
        if code in BILLING_FRAMEWORKS:
            found.append(f"BT-23 '{code}' is a French billing framework (BR-FR-08)")
            break
    for term, path in _ADDRESS_PATHS.get(document.syntax, ()):
        if any((e.get("schemeID") or "").strip() == CTC_ADDRESS_SCHEME for e in child_path(root, path)):
            found.append(f"{term} is a French CTC electronic address (scheme {CTC_ADDRESS_SCHEME})")
    return tuple(found)
