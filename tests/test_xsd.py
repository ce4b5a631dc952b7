"""Unit tests for einvoice_validate.xsd: libxml2 XSD errors -> Xerces (KoSIT) cvc codes.

Every expectation below is checked against the JDK's Xerces (javax.xml.validation), i.e. the validator the KoSIT
tool uses, on exactly these documents, in every run: the reference validator (``tools/run-reference.sh``, with a plan
of XSD-only lines written here) validates each case, and its codes, messages and lines must be the expected ones
and ours (:func:`test_every_case_is_what_xerces_says`).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from lxml import etree

from einvoice_validate.rulesets import Registry
from einvoice_validate.xsd.codes import FALLBACK_CODE, XsdIssue, xerces_issues
from einvoice_validate.xsd.schema_index import SchemaInfo, schema_info_for
from einvoice_validate.xsd.xerces import xerces_validate
from tests.conftest import SHARED
from tests.reference import PlanLine, Row, run_reference, write_plan

UBL_XSD = SHARED / "rulesets/xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd"
CII_XSD = SHARED / "rulesets/xsd/cii-d16b/CrossIndustryInvoice_100pD16B.xsd"

PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)

CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
UBL_HEAD = (
    '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" '
    'xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" '
    f'xmlns:cbc="{CBC}">'
)


def ubl(
    id_: str = "<cbc:ID>1</cbc:ID>",
    date: str = "<cbc:IssueDate>2024-01-01</cbc:IssueDate>",
    note: str = "",
    payable: str = '<cbc:PayableAmount currencyID="EUR">10.00</cbc:PayableAmount>',
    supplier: str = "<cac:Party/>",
    item: str = "<cac:Item/>",
) -> str:
    return (
        UBL_HEAD
        + id_
        + date
        + note
        + f"<cac:AccountingSupplierParty>{supplier}</cac:AccountingSupplierParty>"
        + "<cac:AccountingCustomerParty><cac:Party/></cac:AccountingCustomerParty>"
        + f"<cac:LegalMonetaryTotal>{payable}</cac:LegalMonetaryTotal>"
        + '<cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:LineExtensionAmount currencyID="EUR">10.00'
        + f"</cbc:LineExtensionAmount>{item}</cac:InvoiceLine></Invoice>"
    )


CII_HEAD = (
    '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" '
    'xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" '
    'xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">'
)


def cii(settlement: str = "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>", agreement: str = "") -> str:
    return (
        CII_HEAD
        + "<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:x</ram:ID>"
        + "</ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>"
        + "<rsm:ExchangedDocument><ram:ID>1</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime>"
        + '<udt:DateTimeString format="102">20240101</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>'
        + f"<rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeAgreement>{agreement}"
        + "</ram:ApplicableHeaderTradeAgreement><ram:ApplicableHeaderTradeDelivery/>"
        + f"<ram:ApplicableHeaderTradeSettlement>{settlement}</ram:ApplicableHeaderTradeSettlement>"
        + "</rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>"
    )


# The tiny schema's namespace is UBL CreditNote's, which no other case here uses: the reference picks a plan line by
# the root element's namespace, so this is how it validates these documents against the tiny schema.
TINY_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
TINY_XSD = f"""<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="{TINY_NS}" xmlns:t="{TINY_NS}"
    elementFormDefault="qualified">
  <xs:simpleType name="Code"><xs:restriction base="xs:token">
    <xs:enumeration value="A"/><xs:enumeration value="B"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Short"><xs:restriction base="xs:string">
    <xs:minLength value="2"/><xs:maxLength value="3"/></xs:restriction></xs:simpleType>
  <xs:complexType name="CodeType"><xs:simpleContent><xs:extension base="t:Code">
    <xs:attribute name="list" type="t:Code"/>
    <xs:attribute name="fix" type="xs:token" fixed="F"/>
    <xs:attribute name="s" type="t:Short"/>
  </xs:extension></xs:simpleContent></xs:complexType>
  <xs:element name="root"><xs:complexType><xs:sequence>
    <xs:element name="code" type="t:CodeType" minOccurs="0" maxOccurs="unbounded"/>
    <xs:element name="plain" type="t:Code" minOccurs="0" maxOccurs="unbounded"/>
    <xs:element name="int" type="xs:integer" minOccurs="0" maxOccurs="unbounded"/>
    <xs:element name="short" type="t:Short" minOccurs="0" maxOccurs="unbounded"/>
    <xs:element name="empty" minOccurs="0"><xs:complexType/></xs:element>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>
"""


@pytest.fixture(scope="module")
def ubl_schema() -> tuple[etree.XMLSchema, SchemaInfo]:
    return etree.XMLSchema(etree.parse(str(UBL_XSD), PARSER)), schema_info_for(str(UBL_XSD))


@pytest.fixture(scope="module")
def cii_schema() -> tuple[etree.XMLSchema, SchemaInfo]:
    return etree.XMLSchema(etree.parse(str(CII_XSD), PARSER)), schema_info_for(str(CII_XSD))


def tiny(body: str) -> str:
    return f'<root xmlns="{TINY_NS}">{body}</root>'


@pytest.fixture(scope="module")
def tiny_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("xsd") / "tiny.xsd"
    path.write_text(TINY_XSD, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def tiny_schema(tiny_path: Path) -> tuple[etree.XMLSchema, SchemaInfo]:
    return etree.XMLSchema(etree.parse(str(tiny_path), PARSER)), schema_info_for(str(tiny_path))


def run(schema: tuple[etree.XMLSchema, SchemaInfo], xml: str) -> list[XsdIssue]:
    tree = etree.ElementTree(etree.fromstring(xml.encode("utf-8"), PARSER))
    return xerces_validate(schema[0], tree, schema[1])


def codes(issues: list[XsdIssue]) -> list[str]:
    return [i.code for i in issues]


# ---- UBL ------------------------------------------------------------------------------------

UBL_CASES: list[tuple[str, str, list[str]]] = [
    ("valid", ubl(), []),
    ("missing required element", ubl(date=""), ["cvc-complex-type.2.4.a"]),
    ("unexpected element", ubl(note="<cbc:Foo>1</cbc:Foo>"), ["cvc-complex-type.2.4.a"]),
    (
        "no element expected",
        ubl(
            supplier="<cac:Party><cac:PartyTaxScheme><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>"
            "<cbc:CompanyID>1</cbc:CompanyID></cac:PartyTaxScheme></cac:Party>"
        ),
        ["cvc-complex-type.2.4.d"],
    ),
    (
        "incomplete content",
        ubl(item="<cac:Item><cac:SellersItemIdentification/></cac:Item>"),
        ["cvc-complex-type.2.4.b"],
    ),
    (
        "bad decimal",
        ubl(payable='<cbc:PayableAmount currencyID="EUR">1,5</cbc:PayableAmount>'),
        ["cvc-datatype-valid.1.2.1", "cvc-complex-type.2.2"],
    ),
    (
        "bad date",
        ubl(date="<cbc:IssueDate>2024-02-30</cbc:IssueDate>"),
        ["cvc-datatype-valid.1.2.1", "cvc-complex-type.2.2"],
    ),
    (
        "empty required decimal",
        ubl(payable='<cbc:PayableAmount currencyID="EUR"></cbc:PayableAmount>'),
        ["cvc-datatype-valid.1.2.1", "cvc-complex-type.2.2"],
    ),
    ("empty identifier is fine for XSD", ubl(id_="<cbc:ID></cbc:ID>"), []),
    (
        "unknown attribute",
        ubl(payable='<cbc:PayableAmount currencyID="EUR" foo="1">10</cbc:PayableAmount>'),
        ["cvc-complex-type.3.2.2"],
    ),
    (
        "missing required attribute",
        ubl(payable="<cbc:PayableAmount>10</cbc:PayableAmount>"),
        ["cvc-complex-type.4"],
    ),
    (
        "bad attribute value (xs:language)",
        ubl(note='<cbc:Note languageID="not a language">x</cbc:Note>'),
        ["cvc-pattern-valid", "cvc-attribute.3"],
    ),
    (
        "element child in decimal",
        ubl(
            payable='<cbc:PayableAmount currencyID="EUR">7<cbc:UnknownElement>x</cbc:UnknownElement>'
            "</cbc:PayableAmount>"
        ),
        ["cvc-complex-type.2.2", "cvc-datatype-valid.1.2.1", "cvc-complex-type.2.2"],
    ),
    (
        "element child in text",
        ubl(note="<cbc:Note>x<cbc:UnknownElement>x</cbc:UnknownElement></cbc:Note>"),
        ["cvc-complex-type.2.2"],
    ),
    (
        "misplaced element, later error still reported (Xerces continues)",
        ubl(id_="", note="<cbc:ID>1</cbc:ID>", payable='<cbc:PayableAmount currencyID="EUR">abc</cbc:PayableAmount>'),
        ["cvc-complex-type.2.4.a", "cvc-datatype-valid.1.2.1", "cvc-complex-type.2.2"],
    ),
]


@pytest.mark.parametrize(("name", "xml", "expected"), UBL_CASES, ids=[c[0] for c in UBL_CASES])
def test_ubl_codes(ubl_schema: tuple[etree.XMLSchema, SchemaInfo], name: str, xml: str, expected: list[str]) -> None:
    assert codes(run(ubl_schema, xml)) == expected


def test_ubl_messages_match_xerces(ubl_schema: tuple[etree.XMLSchema, SchemaInfo]) -> None:
    issues = run(ubl_schema, ubl(payable='<cbc:PayableAmount currencyID="EUR">1,5</cbc:PayableAmount>'))
    assert [i.message for i in issues] == [
        "cvc-datatype-valid.1.2.1: '1,5' is not a valid value for 'decimal'.",
        "cvc-complex-type.2.2: Element 'cbc:PayableAmount' must have no element [children], "
        "and the value must be valid.",
    ]
    assert all(i.path == "/*/cac:LegalMonetaryTotal/cbc:PayableAmount" for i in issues)
    issues = run(ubl_schema, ubl(item="<cac:Item><cac:SellersItemIdentification/></cac:Item>"))
    assert issues[0].message == (
        "cvc-complex-type.2.4.b: The content of element 'cac:SellersItemIdentification' is not complete. "
        f"One of '{{\"{CBC}\":ID}}' is expected."
    )
    issues = run(ubl_schema, ubl(payable="<cbc:PayableAmount>10</cbc:PayableAmount>"))
    assert issues[0].message == "cvc-complex-type.4: Attribute 'currencyID' must appear on element 'cbc:PayableAmount'."


def test_incomplete_content_is_reported_at_end_tag(ubl_schema: tuple[etree.XMLSchema, SchemaInfo]) -> None:
    xml = ubl(item="<cac:Item>\n<cac:SellersItemIdentification>\n</cac:SellersItemIdentification>\n</cac:Item>")
    issues = run(ubl_schema, xml)
    assert codes(issues) == ["cvc-complex-type.2.4.b"]
    assert issues[0].line == 3  # Xerces: end tag of cac:SellersItemIdentification


def test_per_entry_api_and_default_schema_info(ubl_schema: tuple[etree.XMLSchema, SchemaInfo]) -> None:
    schema, info = ubl_schema
    tree = etree.ElementTree(etree.fromstring(ubl(date="<cbc:IssueDate>x</cbc:IssueDate>").encode(), PARSER))
    assert not schema.validate(tree)
    entries: list[Any] = list(cast(Any, schema.error_log))
    assert len(entries) == 1
    with_info = xerces_issues(entries[0], tree, info)
    without_info = xerces_issues(entries[0], tree)
    assert codes(with_info) == codes(without_info) == ["cvc-datatype-valid.1.2.1", "cvc-complex-type.2.2"]
    assert with_info[0].line == 1
    assert with_info[0].path == "/*/cbc:IssueDate"


def test_unknown_libxml2_error_is_kept(ubl_schema: tuple[etree.XMLSchema, SchemaInfo]) -> None:
    tree = etree.ElementTree(etree.fromstring(ubl().encode(), PARSER))
    fake: Any = SimpleNamespace(
        type_name="SCHEMAV_SOMETHING_NEW", message="Element 'x': something odd.", line=7, column=3, path="/*"
    )
    issues = xerces_issues(fake, tree, ubl_schema[1])
    assert issues == [XsdIssue(FALLBACK_CODE, f"{FALLBACK_CODE}: Element 'x': something odd.", 7, 3, "/*")]


# ---- CII ------------------------------------------------------------------------------------

CII_CASES: list[tuple[str, str, list[str]]] = [
    ("valid", cii(), []),
    (
        "bad boolean in simple-typed element",
        cii(
            settlement="<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:SpecifiedTradeAllowanceCharge>"
            "<ram:ChargeIndicator><udt:Indicator>yes</udt:Indicator></ram:ChargeIndicator>"
            "</ram:SpecifiedTradeAllowanceCharge>"
        ),
        ["cvc-datatype-valid.1.2.1", "cvc-type.3.1.3"],
    ),
    (
        "empty amount",
        cii(
            settlement="<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>"
            "<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount></ram:LineTotalAmount>"
            "<ram:TaxBasisTotalAmount>1</ram:TaxBasisTotalAmount><ram:GrandTotalAmount>1</ram:GrandTotalAmount>"
            "<ram:DuePayableAmount>1</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>"
        ),
        ["cvc-datatype-valid.1.2.1", "cvc-complex-type.2.2"],
    ),
    ("text in element-only content", cii(agreement="oops"), ["cvc-complex-type.2.3"]),
    (
        "duplicate element, later siblings still validated (local declarations)",
        cii(
            settlement="<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>"
            "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:SpecifiedTradeAllowanceCharge>"
            "<ram:ChargeIndicator><udt:Indicator>x</udt:Indicator></ram:ChargeIndicator>"
            "<ram:ActualAmount>abc</ram:ActualAmount></ram:SpecifiedTradeAllowanceCharge>"
        ),
        [
            "cvc-complex-type.2.4.a",
            "cvc-datatype-valid.1.2.1",
            "cvc-type.3.1.3",
            "cvc-datatype-valid.1.2.1",
            "cvc-complex-type.2.2",
        ],
    ),
    (
        "undeclared root",
        '<rsm:Foo xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>',
        ["cvc-elt.1.a"],
    ),
]


@pytest.mark.parametrize(("name", "xml", "expected"), CII_CASES, ids=[c[0] for c in CII_CASES])
def test_cii_codes(cii_schema: tuple[etree.XMLSchema, SchemaInfo], name: str, xml: str, expected: list[str]) -> None:
    assert codes(run(cii_schema, xml)) == expected


def test_cii_simple_type_message(cii_schema: tuple[etree.XMLSchema, SchemaInfo]) -> None:
    xml = cii(
        settlement="<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:SpecifiedTradeAllowanceCharge>"
        "<ram:ChargeIndicator><udt:Indicator>yes</udt:Indicator></ram:ChargeIndicator>"
        "</ram:SpecifiedTradeAllowanceCharge>"
    )
    assert [i.message for i in run(cii_schema, xml)] == [
        "cvc-datatype-valid.1.2.1: 'yes' is not a valid value for 'boolean'.",
        "cvc-type.3.1.3: The value 'yes' of element 'udt:Indicator' is not valid.",
    ]


# ---- facets, attributes, fixed values (tiny schema) -----------------------------------------

TINY_CASES: list[tuple[str, str, list[str]]] = [
    ("enumeration in simple content", "<code>C</code>", ["cvc-enumeration-valid", "cvc-complex-type.2.2"]),
    ("enumeration in attribute", '<code list="C">A</code>', ["cvc-enumeration-valid", "cvc-attribute.3"]),
    ("minLength in attribute", '<code s="x">A</code>', ["cvc-minLength-valid", "cvc-attribute.3"]),
    ("fixed attribute", '<code fix="G">A</code>', ["cvc-complex-type.3.1"]),
    ("enumeration in simple type", "<plain>Z</plain>", ["cvc-enumeration-valid", "cvc-type.3.1.3"]),
    ("maxLength in simple type", "<short>abcd</short>", ["cvc-maxLength-valid", "cvc-type.3.1.3"]),
    ("integer", "<int>1.5</int>", ["cvc-datatype-valid.1.2.1", "cvc-type.3.1.3"]),
    (
        "element child in simple type",
        "<plain>A<x/></plain>",
        ["cvc-type.3.1.2", "cvc-enumeration-valid", "cvc-type.3.1.3"],
    ),
    (
        "element child in enumerated simple content",
        "<code>A<x/></code>",
        ["cvc-complex-type.2.2", "cvc-enumeration-valid", "cvc-complex-type.2.2"],
    ),
    ("text in empty content", "<empty>x</empty>", ["cvc-complex-type.2.1"]),
]


@pytest.mark.parametrize(("name", "body", "expected"), TINY_CASES, ids=[c[0] for c in TINY_CASES])
def test_tiny_codes(tiny_schema: tuple[etree.XMLSchema, SchemaInfo], name: str, body: str, expected: list[str]) -> None:
    assert codes(run(tiny_schema, tiny(body))) == expected


def test_tiny_messages(tiny_schema: tuple[etree.XMLSchema, SchemaInfo]) -> None:
    issues = run(tiny_schema, tiny('<code s="x">A</code>'))
    assert [i.message for i in issues] == [
        "cvc-minLength-valid: Value 'x' with length = '1' is not facet-valid with respect to minLength '2' "
        "for type 'Short'.",
        "cvc-attribute.3: The value 'x' of attribute 's' on element 'code' is not valid with respect to its "
        "type, 'Short'.",
    ]
    issues = run(tiny_schema, tiny('<code fix="G">A</code>'))
    assert issues[0].message == (
        "cvc-complex-type.3.1: Value 'G' of attribute 'fix' of element 'code' is not valid with respect to the "
        "corresponding attribute use. Attribute 'fix' has a fixed value of 'F'."
    )


def test_schema_info_is_cached_and_knows_content_kinds() -> None:
    info = schema_info_for(str(CII_XSD))
    assert schema_info_for(str(CII_XSD)) is info
    tree = etree.fromstring(
        cii(
            settlement="<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:SpecifiedTradeAllowanceCharge>"
            "<ram:ChargeIndicator><udt:Indicator>true</udt:Indicator></ram:ChargeIndicator>"
            "</ram:SpecifiedTradeAllowanceCharge>"
        ).encode()
    )
    indicator = tree.find(".//{urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100}Indicator")
    currency = tree.find(
        ".//{urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100}InvoiceCurrencyCode"
    )
    assert indicator is not None and currency is not None
    ind_type = info.type_for(indicator)
    cur_type = info.type_for(currency)
    assert ind_type is not None and ind_type.kind == "simple"
    assert cur_type is not None and cur_type.kind == "complex-simple"


def test_a_value_is_judged_by_xsd_regular_expressions() -> None:
    """libxml2 judges a value against the facets (issue 46): ``\\p{L}`` was read as "any character" and a literal
    ``$`` as the end of the text, so ``1`` and ``a`` passed."""
    from einvoice_validate.xsd.schema_model import SimpleT
    from einvoice_validate.xsd.values import check_value

    letters = SimpleT(name="LettersType", builtin="string", patterns=[[r"\p{L}+"]])
    assert check_value(letters, "Müller") is None
    assert check_value(letters, "1") == (
        "cvc-pattern-valid",
        r"Value '1' is not facet-valid with respect to pattern '\p{L}+' for type 'LettersType'.",
    )
    dollar = SimpleT(name="PriceType", builtin="string", patterns=[["[0-9]+", r"\$[0-9]+"], ["[0-9$]{2}"]])
    assert check_value(dollar, "$5") is None and check_value(dollar, "12") is None
    assert check_value(dollar, "5$")[0] == "cvc-pattern-valid"
    assert check_value(dollar, "123")[0] == "cvc-pattern-valid"  # the second step


def test_a_pattern_that_cannot_be_compiled_never_passes() -> None:
    from einvoice_validate.errors import RulesetError
    from einvoice_validate.xsd.schema_model import SimpleT
    from einvoice_validate.xsd.values import check_value

    broken = SimpleT(name="BrokenType", builtin="string", patterns=[["[a-"]])
    with pytest.raises(RulesetError, match=r"pattern '\[a-' of type BrokenType cannot be compiled") as caught:
        check_value(broken, "a")
    assert caught.value.code == "ruleset.invalid"


# ---- every case against the reference's Xerces, live ---------------------------------------------------------

LIVE = [(f"ubl/{n}", x, e) for n, x, e in UBL_CASES] + [(f"cii/{n}", x, e) for n, x, e in CII_CASES]
LIVE += [(f"tiny/{n}", tiny(b), e) for n, b, e in TINY_CASES]
# Where our message is not Xerces' (the codes and lines are), with the reason: a strict xfail, so a fix shows up.
_CUT_LIST = (
    "cvc-complex-type.2.4.a's list of expected elements stops after ten: libxml2 names at most ten in its message "
    "(the library rewrites libxml2's list), Xerces names every element the content model allows there"
)
KNOWN_MESSAGE_DIFFERENCES = {
    "ubl/unexpected element": _CUT_LIST,
    "cii/duplicate element, later siblings still validated (local declarations)": _CUT_LIST,
}


@pytest.fixture(scope="module")
def xerces(tiny_path: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Row]:
    """The reference's row for each case (one run): UBL Invoice documents against UBL 2.1, CII against D16B, the
    tiny schema's documents (UBL CreditNote's namespace) against the tiny schema; XSD only."""
    folder = tmp_path_factory.mktemp("xerces")
    plan = write_plan(
        [
            PlanLine("ubl", "ubl-invoice", "*", str(UBL_XSD), ()),
            PlanLine("cii", "cii", "*", str(CII_XSD), ()),
            PlanLine("tiny", "ubl-creditnote", "*", str(tiny_path), ()),
        ],
        folder / "plan-xsd.tsv",
    )
    paths = {}
    for i, (name, xml, _) in enumerate(LIVE):
        paths[name] = folder / f"case-{i}.xml"
        paths[name].write_text(xml, encoding="utf-8")
    rows = run_reference(paths.values(), plan)
    return {name: rows[path] for name, path in paths.items()}


@pytest.mark.reference
@pytest.mark.parametrize(
    ("name", "xml", "expected"),
    [
        pytest.param(*c, marks=pytest.mark.xfail(strict=True, reason=KNOWN_MESSAGE_DIFFERENCES[c[0]]))
        if c[0] in KNOWN_MESSAGE_DIFFERENCES
        else c
        for c in LIVE
    ],
    ids=[c[0] for c in LIVE],
)
def test_every_case_is_what_xerces_says(
    name: str,
    xml: str,
    expected: list[str],
    xerces: dict[str, Row],
    ubl_schema: tuple[etree.XMLSchema, SchemaInfo],
    cii_schema: tuple[etree.XMLSchema, SchemaInfo],
    tiny_schema: tuple[etree.XMLSchema, SchemaInfo],
) -> None:
    """The case's expected codes are Xerces' (the reference run just now), and so are our codes, messages and lines,
    in order (our XSD findings have no column yet: tests/reference.py, XSD_COLUMNS)."""
    row = xerces[name]
    assert row["profile"] == name.split("/")[0]
    theirs = [(e["message"], e["line"]) for e in row["xsd"]]
    assert [m.split(":", 1)[0] for m, _ in theirs] == expected
    schema = {"ubl": ubl_schema, "cii": cii_schema, "tiny": tiny_schema}[row["profile"]]
    ours = run(schema, xml)
    assert [(i.code, i.line) for i in ours] == [(m.split(":", 1)[0], line) for m, line in theirs]
    assert [(i.message, i.line) for i in ours] == theirs


def test_the_type_index_is_read_with_the_first_invalid_document(
    monkeypatch: pytest.MonkeyPatch, registry: Registry
) -> None:
    """The XSD stage reads its schema's declared types (for Xerces' codes) when a document first fails the schema,
    not when it is built: a valid invoice in a fresh process does without it."""
    from einvoice_validate import Validator
    from einvoice_validate.xsd import stage as stage_module

    read: list[str] = []

    def counted(path: str, catalog: object = None) -> SchemaInfo:
        read.append(path)
        return schema_info_for(path, catalog)  # type: ignore[arg-type]

    monkeypatch.setattr(stage_module, "schema_info_for", counted)
    validator = Validator(rules_home=registry.home)
    case = SHARED / "corpus/xrechnung-testsuite/business-cases/standard/01.01a-INVOICE_ubl.xml"
    assert not [f for f in validator.validate(case).findings if f.stage == "xsd"]
    assert read == []
    broken = case.read_bytes().replace(b"<cbc:IssueDate>2016-04-04", b"<cbc:IssueDate>2016-04-4x", 1)
    findings = [f for f in validator.validate(broken).findings if f.stage == "xsd"]
    assert [f.rule_id for f in findings] == ["cvc-datatype-valid.1.2.1", "cvc-complex-type.2.2"]  # (the index says so)
    assert len(read) == 1
