"""A syntax is data (docs/design/syntax-is-data.md): the bundled declarations, the clash checks of a rules home's
own syntaxes, and the proof that a new document family needs no code: a family declared only in a temporary rules
home (a syntax file, a tiny XSD importing by address through its catalog, a tiny rule stylesheet written here, two
profiles: one with rules, one XSD only) validated through the library, the CLI and the pool.

No corpus, no official pack: each test builds its own rules home (about 2 s in all, most of it the pool's workers).
"""

from __future__ import annotations

import hashlib
import io
import json
from datetime import date
from pathlib import Path

import pytest

from einvoice_validate import Severity, Validator, iter_validate
from einvoice_validate.cli import main
from einvoice_validate.errors import InputError, ProfileError, RulesetError
from einvoice_validate.findings import Report
from einvoice_validate.parse import load
from einvoice_validate.pool.routing import sniff_syntax
from einvoice_validate.profiles import load_profiles
from einvoice_validate.rulesets import Registry, install
from einvoice_validate.rulesets.manifest import load_manifests
from einvoice_validate.schematron import readers
from einvoice_validate.syntaxes import SyntaxDeclaration, SyntaxDeclarationError, Syntaxes, bundled
from einvoice_validate.xsd.catalog import Catalog

DAY = date(2026, 9, 15)
MEMO = "urn:example:memo:1"
COMMON = "urn:example:memo:common:1"
UBL_INVOICE = "{urn:oasis:names:specification:ubl:schema:xsd:Invoice-2}Invoice"


# --- the bundled declarations ---------------------------------------------------------------------------------


def test_bundled_syntaxes_are_todays() -> None:
    registry = bundled()
    assert set(registry.syntaxes) >= {"ubl", "cii", "ksef-fa3", "fatturapa"}
    assert {t: (k.syntax, k.viewer) for t, k in registry.kinds.items() if k.syntax in ("ubl", "cii")} == {
        "ubl-invoice": ("ubl", "ubl-invoice"),
        "ubl-creditnote": ("ubl", "ubl-creditnote"),
        "ubl-reminder": ("ubl", None),  # OIOUBL's reminder (issue 44): no viewer
        "cii": ("cii", "cii"),
    }
    assert registry.roots[UBL_INVOICE].type == "ubl-invoice"
    # the readable paths' prefixes, as locations.py had them in code
    for namespace, prefix in {
        "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2": "cac",
        "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2": "cbc",
        "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2": "ext",
        "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2": "ubl",
        "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2": "cn",
        "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100": "rsm",
        "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100": "ram",
        "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100": "udt",
        "urn:un:unece:uncefact:data:standard:QualifiedDataType:100": "qdt",
        "http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader": "sh",
        "http://www.w3.org/2000/09/xmldsig#": "ds",
    }.items():
        assert registry.prefixes[namespace] == prefix
    # every bundled profile, manifest and acceptance set names a declared document type or syntax
    assert {p.root for p in load_profiles()} <= set(registry.kinds)
    assert {m.syntax for m in load_manifests().values()} <= {*registry.syntaxes, "any"}


def test_refused_root_is_data() -> None:
    zugferd_1 = b'<CrossIndustryDocument xmlns="urn:ferd:CrossIndustryDocument:invoice:1p0"/>'
    with pytest.raises(InputError) as caught:
        load(zugferd_1)
    assert (caught.value.code, caught.value.reason) == ("document.unsupported-type", "zugferd-1")
    with pytest.raises(InputError) as other:
        load(b'<Memo xmlns="urn:example:memo:1"/>')
    assert other.value.reason == "root"
    assert other.value.detail.startswith("the root element is {urn:example:memo:1}Memo; expected one of: ")
    for title in ("UN/CEFACT CrossIndustryInvoice", "UBL 2.1 Invoice", "UBL 2.1 CreditNote", "KSeF FA(3) Faktura"):
        assert title in other.value.detail
    assert "erwartet wird eines von: " in other.value.message.de and "UBL 2.1 Invoice" in other.value.message.de


def _decl(**fields: object) -> SyntaxDeclaration:
    base: dict[str, object] = {"name": "memo", "title": "Memo", "provided_by": "user"}
    return SyntaxDeclaration.model_validate({**base, **fields})


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"name": "ubl"}, "the name 'ubl' is taken"),
        ({"name": "any"}, "the name 'any' is taken"),
        ({"document": [{"type": "cii", "title": "x", "root": "{urn:x}X"}]}, "the document type 'cii' is taken"),
        ({"document": [{"type": "memo", "title": "x", "root": UBL_INVOICE}]}, "belongs to another document type"),
        (
            {"prefixes": {"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2": "b"}},
            "has the prefix 'cbc' already",
        ),
        ({"prefixes": {"urn:a": "a", "urn:b": "a"}}, "a prefix stands for two of its namespaces"),
    ],
)
def test_user_syntax_clashes_are_refused(fields: dict[str, object], said: str) -> None:
    with pytest.raises(SyntaxDeclarationError, match=said):
        bundled().with_user([_decl(**fields)])


def test_a_prefix_may_name_namespaces_of_two_syntaxes() -> None:
    registry = bundled().with_user([_decl(prefixes={MEMO: "rsm"})])  # as CII and CDAR both say rsm
    assert registry.prefixes[MEMO] == "rsm"
    assert "rsm" not in registry.namespaces  # read back by local name, not guessed


def test_clash_in_a_rules_home_is_ruleset_invalid(tmp_path: Path) -> None:
    home = _memo_home(tmp_path)
    (home / "user" / "syntaxes" / "cii.toml").write_text('name = "cii"\ntitle = "mine"\n', encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        Registry(home)
    assert caught.value.code == "ruleset.invalid" and "the name 'cii' is taken" in caught.value.detail
    (home / "user" / "syntaxes" / "cii.toml").unlink()
    bad_reason = '[[refused]]\nroot = "{urn:old}Memo"\nreason = "made-up"\ndetail = "old memos"\n'
    (home / "user" / "syntaxes" / "memo.toml").write_text(_MEMO_SYNTAX + bad_reason, encoding="utf-8")
    with pytest.raises(RulesetError, match="reason 'made-up'"):
        Registry(home)


def test_report_names_are_checked() -> None:
    fields = {"profile": "p", "spec_id": None, "packs": (), "findings": (), "valid": True, "accepted": None}
    fields |= {"engine": "saxonc", "timings_ms": {}}
    Report(syntax="cii", document_type="cii", **fields)  # type: ignore[arg-type]
    Report(syntax="memo", document_type="memo-note", **fields)  # type: ignore[arg-type]  # a rules home's own
    for syntax, document_type in (("ubl", "cii"), ("ubl", "ubl-order"), ("memo", "ubl-invoice"), ("UBL", "x")):
        with pytest.raises(ValueError):
            Report(syntax=syntax, document_type=document_type, **fields)  # type: ignore[arg-type]


# --- a family declared only in a rules home -----------------------------------------------------------------------

_MEMO_SYNTAX = f"""name = "memo"
title = "Example memos"

[prefixes]
"{MEMO}" = "m"
"{COMMON}" = "mc"

[[document]]
type = "memo-note"
title = "Example memo"
root = "{{{MEMO}}}Memo"
spec_id = ["@version"]
spec_id_name = "memo version"
"""
_MEMO_XSD = f"""<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:mc="{COMMON}" targetNamespace="{MEMO}"
    elementFormDefault="qualified">
  <xs:import namespace="{COMMON}" schemaLocation="https://example.invalid/memo/common-1.xsd"/>
  <xs:element name="Memo">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="Subject" type="xs:string"/>
        <xs:element ref="mc:Amount" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="version" type="xs:string" use="required"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
"""
_COMMON_XSD = f"""<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="{COMMON}"
    elementFormDefault="qualified">
  <xs:element name="Amount" type="xs:decimal"/>
</xs:schema>
"""
_CATALOG = """<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <rewriteSystem systemIdStartString="https://example.invalid/memo/" rewritePrefix="common/"/>
</catalog>
"""
# The shape of the ISO Schematron skeleton's XSLT 2.0 output (so the install-time preparation applies), one rule.
_RULES_XSL = f"""<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:svrl="http://purl.oclc.org/dsdl/svrl"
    xmlns:m="{MEMO}" xmlns:mc="{COMMON}" version="2.0">
  <xsl:template match="*" mode="schematron-get-full-path">
    <xsl:apply-templates mode="schematron-get-full-path" select="parent::*"/>
    <xsl:text>/*:</xsl:text><xsl:value-of select="local-name()"/>
    <xsl:text>[namespace-uri()='</xsl:text><xsl:value-of select="namespace-uri()"/><xsl:text>'][</xsl:text>
    <xsl:value-of select="1 + count(preceding-sibling::*[local-name() = local-name(current())])"/><xsl:text>]</xsl:text>
  </xsl:template>
  <xsl:template match="text()" priority="-1"/>
  <xsl:template match="/">
    <svrl:schematron-output schemaVersion="iso" title="memo rules">
      <svrl:active-pattern id="memo" name="memo"><xsl:apply-templates/></svrl:active-pattern>
      <xsl:apply-templates mode="M1" select="/"/>
    </svrl:schematron-output>
  </xsl:template>
  <xsl:template match="mc:Amount" mode="M1" priority="1000">
    <svrl:fired-rule context="mc:Amount"/>
    <xsl:choose>
      <xsl:when test="number(.) &gt; 0"/>
      <xsl:otherwise>
        <svrl:failed-assert test="number(.) &gt; 0">
          <xsl:attribute name="id">MEMO-01</xsl:attribute>
          <xsl:attribute name="flag">fatal</xsl:attribute>
          <xsl:attribute name="location">
            <xsl:apply-templates mode="schematron-get-full-path" select="."/>
          </xsl:attribute>
          <svrl:text>[MEMO-01]-An amount is positive.</svrl:text>
        </svrl:failed-assert>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:apply-templates mode="M1" select="@*|*"/>
  </xsl:template>
  <xsl:template match="text()" mode="M1" priority="-1"/>
  <xsl:template match="@*|node()" mode="M1" priority="-2"><xsl:apply-templates mode="M1" select="@*|*"/></xsl:template>
</xsl:stylesheet>
"""
_PROFILES = """[[profile]]
name = "memo-1"
title = "Example memos 1.0"
root = "memo-note"
match = "exact"
spec_ids = ["1.0"]
xsd = "memo-xsd@1.0"
schematron = ["memo-rules@1.0"]

[[profile]]
name = "memo-2"
title = "Example memos 2.0 (the schema alone)"
root = "memo-note"
match = "exact"
spec_ids = ["2.0"]
xsd = "memo-xsd@1.0"
schematron = []
"""


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _pack(home: Path, pack: str, head: str, files: dict[str, str], tail: str = "") -> None:
    folder = home / "user" / "packs" / pack / "1.0"
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    listed = "".join(f'"{rel}" = "{_sha(folder / rel)}"\n' for rel in files)
    manifest = f'id = "{pack}"\nversion = "1.0"\n{head}\n[files]\n{listed}{tail}'
    (home / "user" / "packs" / pack / "1.0.toml").write_text(manifest, encoding="utf-8")


def _memo_home(tmp_path: Path, output: str = "svrl") -> Path:
    """A rules home holding nothing but the memo family, its packs installed (the rule stylesheet prepared)."""
    home = tmp_path / "home"
    (home / "user" / "syntaxes").mkdir(parents=True)
    (home / "user" / "syntaxes" / "memo.toml").write_text(_MEMO_SYNTAX, encoding="utf-8")
    xsd_head = 'title = "Memo schema"\nkind = "xsd"\nsyntax = "memo"\ncatalog = "catalog.xml"\n[entries]\n'
    xsd_head += '"memo-note" = "memo.xsd"\n'
    _pack(
        home, "memo-xsd", xsd_head, {"memo.xsd": _MEMO_XSD, "common/common-1.xsd": _COMMON_XSD, "catalog.xml": _CATALOG}
    )
    rules_head = f'title = "Memo rules"\nsyntax = "memo"\nstylesheet = "rules.xsl"\noutput = "{output}"\n'
    messages = '[messages."MEMO-01"]\nen = "An amount is positive."\nde = "Ein Betrag ist positiv."\n'
    _pack(home, "memo-rules", rules_head, {"rules.xsl": _RULES_XSL}, messages)
    (home / "user" / "profiles.toml").write_text(_PROFILES, encoding="utf-8")
    install(Registry(home), packs=["memo-xsd@1.0", "memo-rules@1.0"])
    return home


def _memo(version: str = "1.0", amount: str = "5") -> bytes:
    return (
        f'<Memo xmlns="{MEMO}" xmlns:mc="{COMMON}" version="{version}">\n'
        f"  <Subject>Lunch</Subject>\n  <mc:Amount>{amount}</mc:Amount>\n</Memo>\n"
    ).encode()


@pytest.fixture(scope="module")
def memo_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _memo_home(tmp_path_factory.mktemp("memo"))


def _documents(folder: Path) -> dict[str, Path]:
    docs = {"ok": _memo(), "rule": _memo(amount="0"), "xsd": _memo(amount="five"), "xsd-only": _memo("2.0", "-1")}
    folder.mkdir(exist_ok=True)
    for name, data in docs.items():
        (folder / f"{name}.xml").write_bytes(data)
    return {name: folder / f"{name}.xml" for name in docs}


def _check(reports: dict[str, Report]) -> None:
    """What every front end must give on the four memos."""
    ok, rule, xsd, alone = reports["ok"], reports["rule"], reports["xsd"], reports["xsd-only"]
    assert (ok.syntax, ok.document_type, ok.spec_id, ok.profile) == ("memo", "memo-note", "1.0", "memo-1")
    assert ok.valid and ok.findings == () and ok.packs == ("memo-xsd@1.0", "memo-rules@1.0")
    assert ok.profile_reason == "memo version '1.0' is one of this profile's specification identifiers (a user profile)"
    [finding] = rule.findings
    assert (finding.rule_id, finding.severity, finding.stage, finding.source) == (
        "MEMO-01",
        Severity.ERROR,
        "schematron",
        "memo-rules@1.0",
    )
    assert (finding.location, finding.line) == ("/Memo/mc:Amount", 3)  # the syntax's own prefix
    assert (finding.message.en, finding.message.de) == ("An amount is positive.", "Ein Betrag ist positiv.")
    # the XSD through the pack's catalog: the imported type's error with Xerces' code and the line
    xsd_codes = [(f.rule_id, f.line, f.location) for f in xsd.findings if f.stage == "xsd"]
    assert ("cvc-datatype-valid.1.2.1", 3, "/Memo/mc:Amount") in xsd_codes
    assert not xsd.valid
    # XSD alone: the amount rule does not run, the report says so and lists what ran
    assert alone.profile == "memo-2" and alone.packs == ("memo-xsd@1.0",) and alone.valid
    assert alone.profile_reason is not None and "runs its XSD alone" in alone.profile_reason


def test_family_through_the_library(memo_home: Path, tmp_path: Path) -> None:
    validator = Validator(rules_home=memo_home, rules_date=DAY)
    docs = _documents(tmp_path)
    _check({name: validator.validate(path) for name, path in docs.items()})
    with pytest.raises(ProfileError) as caught:
        validator.validate(_memo("9.9"))
    assert (caught.value.code, caught.value.reason) == ("document.unsupported-type", "no-profile")
    # the bundled registry alone does not know the memo root: a validator of another rules home refuses it
    assert validator.syntaxes.kinds["memo-note"].provided_by == "user"
    with pytest.raises(InputError, match="expected one of"):
        load(_memo())


def test_family_through_the_cli(memo_home: Path, tmp_path: Path) -> None:
    docs = _documents(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["--home", str(memo_home), "validate", "--format", "json", "--rules-date", str(DAY), *map(str, docs.values())],
        stdout=out,
        stderr=err,
    )
    assert code == 1, err.getvalue()  # two memos are invalid
    body = json.loads(out.getvalue())
    rows = body if isinstance(body, list) else body["documents"]
    by_name = {Path(row["file"]).stem: row for row in rows}
    for name, row in by_name.items():
        assert row["error"] is None, (name, row["error"])
    assert by_name["rule"]["findings"][0]["ruleId"] == "MEMO-01"
    assert by_name["xsd-only"]["profile"] == "memo-2" and by_name["ok"]["valid"] is True


@pytest.mark.parametrize("mode", ["processes", "threads"])
def test_family_through_the_pool(memo_home: Path, tmp_path: Path, mode: str) -> None:
    docs = _documents(tmp_path)
    results = list(iter_validate(list(docs.values()), workers=2, mode=mode, rules_home=memo_home, rules_date=DAY))
    reports = {}
    for result in results:
        assert result.error is None, result.error
        assert result.report is not None
        reports[Path(result.source).stem] = result.report
    _check(reports)
    assert sniff_syntax(_memo(), Registry(memo_home).syntaxes) == "memo"
    assert sniff_syntax(_memo()) is None  # the bundled marks alone do not know it


def test_catalog_maps_nothing_outside_the_pack(tmp_path: Path) -> None:
    home = _memo_home(tmp_path)
    folder = home / "user" / "packs" / "memo-xsd" / "1.0"
    catalog = Catalog(folder / "catalog.xml", folder)
    assert catalog.map("https://example.invalid/memo/common-1.xsd") == (folder / "common" / "common-1.xsd").resolve()
    assert catalog.map("https://example.invalid/elsewhere/common-1.xsd") is None
    assert catalog.map("https://example.invalid/memo/../../../../home/user/syntaxes/memo.toml") is None
    # an address the catalog does not map is never fetched: the schema does not compile
    text = _MEMO_XSD.replace("https://example.invalid/memo/", "https://example.invalid/elsewhere/")
    (folder / "memo.xsd").write_text(text, encoding="utf-8")
    manifest = home / "user" / "packs" / "memo-xsd" / "1.0.toml"
    body = manifest.read_text(encoding="utf-8")
    old = body.split('"memo.xsd" = "')[1].split('"')[0]
    manifest.write_text(body.replace(old, _sha(folder / "memo.xsd")), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        Validator(rules_home=home, rules_date=DAY).validate(_memo())
    assert caught.value.code == "ruleset.invalid" and "cannot compile the XML schema" in caught.value.detail


def test_a_pack_names_the_reader_of_its_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader belongs to the pack (``output``): a registered reader reads a report that is not SVRL; an unknown
    name is ``ruleset.invalid``."""
    home = _memo_home(tmp_path, output="memo-report")
    with pytest.raises(RulesetError, match="no reader of rule output called 'memo-report'"):
        Validator(rules_home=home, rules_date=DAY).validate(_memo(amount="0"))

    seen: list[str] = []

    def memo_report(output: str) -> list[readers.SvrlEvent]:
        seen.append(output)
        return readers.parse_svrl(output)  # this pack happens to write SVRL: the point is who reads it

    monkeypatch.setitem(readers.READERS, "memo-report", memo_report)
    report = Validator(rules_home=home, rules_date=DAY).validate(_memo(amount="0"))
    assert [f.rule_id for f in report.findings] == ["MEMO-01"] and len(seen) == 1


def test_declaration_form_errors() -> None:
    with pytest.raises(ValueError, match="Clark notation"):
        _decl(document=[{"type": "memo", "title": "x", "root": "m:Memo"}])
    with pytest.raises(ValueError, match="an attribute"):
        _decl(document=[{"type": "memo", "title": "x", "root": "{urn:x}Memo", "spec_id": ["@a", "{urn:x}B"]}])
    assert isinstance(Syntaxes([_decl()]), Syntaxes)
