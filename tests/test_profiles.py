"""Profile matching, forced profiles, and the profile data checked against the KoSIT configuration itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from einvoice_validate import InputError, ProfileError, Validator
from einvoice_validate.parse import load
from einvoice_validate.profiles import load_profiles, select_profile
from einvoice_validate.rulesets import load_manifests

XR = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
CIUS_RO = "urn:cen.eu:en16931:2017#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.1"
UBL = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
UBL_CN = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"


def ubl(spec: str | None, root: str = "Invoice", ns: str = UBL) -> bytes:
    cid = f"<cbc:CustomizationID>{spec}</cbc:CustomizationID>" if spec is not None else ""
    return f'<{root} xmlns="{ns}" xmlns:cbc="{CBC}">{cid}<cbc:ID>1</cbc:ID></{root}>'.encode()


def cii(spec: str) -> bytes:
    return (
        f'<rsm:CrossIndustryInvoice xmlns:rsm="{RSM}" xmlns:ram="{RAM}"><rsm:ExchangedDocumentContext>'
        f"<ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>{spec}</ram:ID>"
        "</ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext></rsm:CrossIndustryInvoice>"
    ).encode()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (ubl(XR), "xrechnung-3.0-ubl-invoice"),
        (ubl(XR + "#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0"), "xrechnung-3.0-extension-ubl-invoice"),
        (ubl(XR + "#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9"), "xrechnung-3.0-cvd-ubl-invoice"),
        (ubl(XR, "CreditNote", UBL_CN), "xrechnung-3.0-ubl-creditnote"),
        (cii(XR), "xrechnung-3.0-cii"),
        (cii(XR + "#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0"), "xrechnung-3.0-extension-cii"),
        (ubl(CIUS_RO), "cius-ro-ubl-invoice"),
        (ubl(CIUS_RO, "CreditNote", UBL_CN), "cius-ro-ubl-creditnote"),
        (ubl("urn:cen.eu:en16931:2017"), "en16931-ubl-invoice"),
        (ubl(XR + " "), "en16931-ubl-invoice"),  # KoSIT compares exactly: trailing space is another id
        (ubl("urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_2.3"), "en16931-ubl-invoice"),
        (ubl(None), "en16931-ubl-invoice"),
        (cii("urn:factur-x.eu:1p0:en16931"), "en16931-cii"),
    ],
)
def test_matching(data: bytes, expected: str) -> None:
    assert select_profile(load(data), load_profiles(), None).name == expected


def test_forced_profile() -> None:
    doc = load(ubl("urn:cen.eu:en16931:2017"))
    assert select_profile(doc, load_profiles(), "xrechnung-3.0-ubl-invoice").name == "xrechnung-3.0-ubl-invoice"
    with pytest.raises(ProfileError) as mismatch:
        select_profile(doc, load_profiles(), "xrechnung-3.0-cii")
    assert (mismatch.value.code, mismatch.value.reason) == ("request.invalid-parameter", "profile-mismatch")
    with pytest.raises(ProfileError) as unknown:
        select_profile(doc, load_profiles(), "no-such-profile")
    assert (unknown.value.code, unknown.value.reason) == ("request.invalid-parameter", "profile-unknown")


def test_unknown_root_is_unsupported() -> None:
    order = b'<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"><ID>1</ID></Order>'
    with pytest.raises(InputError) as info:
        load(order)
    assert info.value.code == "document.unsupported-type"
    assert "Order" in info.value.detail


def test_generic_profile_adds_an_info_note(validator: Validator) -> None:
    # An id naming no known family (a Factur-X-looking one is a near miss: tests/test_near_miss.py)
    report = validator.validate(cii("urn:example.com:1p0:en16931"))
    [note] = [f for f in report.findings if f.rule_id == "profile.en16931-only"]
    assert note.severity.value == "INFO" and "urn:example.com:1p0:en16931" in note.message.en
    plain = validator.validate(cii("urn:cen.eu:en16931:2017"))
    assert not [f for f in plain.findings if f.rule_id == "profile.en16931-only"]


def test_profiles_reference_known_packs() -> None:
    manifests = load_manifests()
    for profile in load_profiles():
        assert manifests[profile.xsd].kind == "xsd"
        assert profile.root in manifests[profile.xsd].entries
        for key in profile.candidate_keys(manifests):
            if manifests[key].kind == "configuration":  # an edition (issue 30): its pins follow
                assert profile.configuration is not None and key.startswith(profile.configuration.split("@")[0])
                continue
            assert manifests[key].kind == "schematron"
            assert manifests[key].syntax == profile.syntax


# --- the profile data against the KoSIT configuration it mirrors ----------------------------------------------

S = {"s": "http://www.xoev.de/de/validator/framework/1/scenarios"}
# KoSIT build layout of configuration 2026-01-31 → our packs (see shared/rulesets/SOURCES.md)
KOSIT_RESOURCES = {
    "resources/ubl/2.1/xsd/maindoc/UBL-Invoice-2.1.xsd": "ubl-2.1@2.1",
    "resources/ubl/2.1/xsd/maindoc/UBL-CreditNote-2.1.xsd": "ubl-2.1@2.1",
    "resources/cii/16b/xsd/CrossIndustryInvoice_100pD16B.xsd": "cii-d16b@D16B",
    "resources/ubl/2.1/xsl/EN16931-UBL-validation.xsl": "en16931-ubl@1.3.15",
    "resources/cii/16b/xsl/EN16931-CII-validation.xsl": "en16931-cii@1.3.15",
    "resources/xrechnung/3.0.2/xsl/XRechnung-UBL-validation.xsl": "xrechnung-ubl@2.5.0",
    "resources/xrechnung/3.0.2/xsl/XRechnung-CII-validation.xsl": "xrechnung-cii@2.5.0",
}


def test_xrechnung_profiles_mirror_the_kosit_scenarios(shared: Path, validator: Validator) -> None:
    """The edition of configuration 2026-01-31, as planned from the installed configuration (read at install from
    its upstream template), against the resolved scenarios file (derived in ../shared independently)."""
    from datetime import date

    config = etree.parse(str(shared / "rulesets/kosit-xrechnung-config/2026-01-31/scenarios.resolved.xml"))
    by_scenario = {p.kosit_scenario: p for p in load_profiles() if p.kosit_scenario}
    xrechnung = [
        sc for sc in config.iterfind("s:scenario", S) if "XRechnung" in (sc.findtext("s:name", namespaces=S) or "")
    ]
    assert len(xrechnung) == 8
    assert set(by_scenario) == {sc.findtext("s:name", namespaces=S) for sc in xrechnung}
    for sc in xrechnung:
        profile = by_scenario[sc.findtext("s:name", namespaces=S)]
        assert profile.configuration == "kosit-xrechnung-config@*"
        match = sc.findtext("s:match", namespaces=S) or ""
        assert re.findall(r"'([^']+)'", match) == list(profile.spec_ids), profile.name
        root = {"invoice:Invoice": "ubl-invoice", "creditnote:CreditNote": "ubl-creditnote"}.get(
            match.split("/")[1].split("[")[0], "cii"
        )
        assert profile.root == root
        xsd = sc.findtext("s:validateWithXmlSchema/s:resource/s:location", namespaces=S)
        assert KOSIT_RESOURCES[xsd or ""] == profile.xsd
        plan = validator.plan_for(profile, date(2026, 8, 30))
        sch = [r.text for r in sc.iterfind("s:validateWithSchematron/s:resource/s:location", S)]
        assert [KOSIT_RESOURCES[r or ""] for r in sch] == list(plan.packs)
        levels = {c.text: c.get("level") for c in sc.iterfind(".//s:customLevel", S)}
        assert levels == plan.custom_levels, profile.name
        assert plan.configuration == "kosit-xrechnung-config@2026-01-31"
        assert profile.verdict == "kosit"
