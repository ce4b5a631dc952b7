"""The Schematron mechanics on a tiny hand-written stylesheet: SVRL mapping, flags, overrides, runtime errors."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from lxml import etree

from einvoice_validate import Validator
from einvoice_validate.findings import Severity
from einvoice_validate.parse import load
from einvoice_validate.rulesets import InstalledPack, Manifest
from einvoice_validate.rulesets.prepare import prepare_pack_dir
from einvoice_validate.schematron import RUNTIME_ERROR, SchematronStage
from einvoice_validate.schematron.engines import get_engine
from einvoice_validate.schematron.svrl import SvrlError, _is_empty_output, parse_svrl

SVRL = "http://purl.oclc.org/dsdl/svrl"

# A stand-in for a compiled Schematron pack: two rules (/ and amount), in the shape the ISO skeleton produces.
MINI = f"""<xsl:stylesheet version="2.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:svrl="{SVRL}">
  <xsl:template match="/">
    <svrl:schematron-output>
      <svrl:fired-rule context="/doc"/>
      <xsl:if test="not(/doc/id)">
        <svrl:failed-assert id="MINI-01" flag="fatal" location="/doc[1]" test="id">
          <svrl:text>[MINI-01]   An id   must be present.</svrl:text>
        </svrl:failed-assert>
      </xsl:if>
      <xsl:if test="/doc/note">
        <svrl:successful-report id="MINI-02" flag="warning" location="/doc[1]/note[1]" test="note">
          <svrl:text>[MINI-02] A note "<xsl:value-of select="/doc/note"/>" is present.</svrl:text>
        </svrl:successful-report>
      </xsl:if>
      <xsl:apply-templates select="/doc/amount" mode="amount"/>
    </svrl:schematron-output>
  </xsl:template>
  <xsl:template match="amount" mode="amount">
    <xsl:if test="xs:decimal(.) lt 0">
      <svrl:failed-assert id="MINI-03" flag="information" location="/doc[1]/amount[1]">
        <svrl:text>negative</svrl:text>
      </svrl:failed-assert>
    </xsl:if>
  </xsl:template>
</xsl:stylesheet>
"""


def _pack(folder: Path, sheet: str) -> InstalledPack:
    (folder / "mini.xsl").write_text(sheet, encoding="utf-8")
    manifest = Manifest(
        id="mini",
        version="1",
        kind="schematron",
        syntax="ubl",
        title="mini",
        licence="test",
        source_dir=".",
        entries={"stylesheet": "mini.xsl"},
        upstream={"repository": "https://example.invalid", "release": "1"},
        files={"mini.xsl": hashlib.sha256(sheet.encode()).hexdigest()},
    )
    prepare_pack_dir(folder, {"stylesheet": "mini.xsl"}, manifest.key)  # what the installer does
    return InstalledPack(manifest, folder)


@pytest.fixture(scope="module")
def mini_pack(tmp_path_factory: pytest.TempPathFactory) -> InstalledPack:
    return _pack(tmp_path_factory.mktemp("mini"), MINI)


def test_failed_assert_and_report(mini_pack: InstalledPack) -> None:
    stage = SchematronStage(mini_pack, {})
    findings = stage.run(get_engine().parse_text("<doc><note>hello</note></doc>"))
    assert [(f.rule_id, f.flag, f.severity) for f in findings] == [
        ("MINI-01", "fatal", Severity.ERROR),
        ("MINI-02", "warning", Severity.WARNING),
    ]
    # Not in the catalogue: the official text (without its [id] label) stands in both languages.
    assert findings[0].message.en == findings[0].message.de == "An id must be present."
    assert findings[1].message.en == 'A note "hello" is present.'
    assert findings[1].location == "/doc[1]/note[1]"
    assert all(f.source == "mini@1" and f.stage == "schematron" for f in findings)


def test_custom_level_changes_severity_not_flag(mini_pack: InstalledPack) -> None:
    stage = SchematronStage(mini_pack, {"MINI-01": "warning", "MINI-02": "error"})
    first, second = stage.run(get_engine().parse_text("<doc><note>x</note></doc>"))
    assert (first.flag, first.severity) == ("fatal", Severity.WARNING)
    assert (second.flag, second.severity) == ("warning", Severity.ERROR)


def test_runtime_error_becomes_a_finding(mini_pack: InstalledPack) -> None:
    stage = SchematronStage(mini_pack, {})
    [finding] = stage.run(get_engine().parse_text("<doc><id>1</id><amount>7x</amount></doc>"))
    assert finding.rule_id == RUNTIME_ERROR
    assert finding.severity is Severity.ERROR and finding.source == "mini@1"
    assert "FORG0001" in finding.message.en and "7x" in finding.message.en
    # the error of one assertion (rulesets.prepare, isolate-rule-errors): it names the rule, has its location
    assert finding.location == "/doc[1]/amount[1]"
    assert finding.message.en.startswith("The rule with the context amount (assertions MINI-03) could not be")
    assert "MINI-03" in finding.message.de and "FORG0001" in finding.message.de
    # the stage keeps working for the next document
    assert stage.run(get_engine().parse_text("<doc><id>1</id><amount>-1</amount></doc>"))[0].rule_id == "MINI-03"


def test_other_rules_still_report_after_a_rule_error(mini_pack: InstalledPack) -> None:
    stage = SchematronStage(mini_pack, {})
    findings = stage.run(get_engine().parse_text("<doc><note>n</note><amount>7x</amount></doc>"))
    assert [(f.rule_id, f.location is not None) for f in findings] == [
        ("MINI-01", True),
        ("MINI-02", True),
        (RUNTIME_ERROR, True),
    ]


def test_an_error_in_a_global_variable_still_stops_the_pack(tmp_path: Path) -> None:
    """Global variables are evaluated outside every rule: such an error stops the pack, as before (one finding
    without location)."""
    sheet = MINI.replace(
        '<xsl:template match="/">',
        '<xsl:variable name="total" select="xs:decimal(/doc/amount)"/><xsl:template match="/">',
    ).replace("xs:decimal(.) lt 0", "$total lt 0")
    pack = _pack(tmp_path, sheet)
    [finding] = SchematronStage(pack, {}).run(get_engine().parse_text("<doc><id>1</id><amount>7x</amount></doc>"))
    assert finding.rule_id == RUNTIME_ERROR and finding.location is None
    assert finding.message.en.startswith("The rule pack stopped with the dynamic error FORG0001")


def test_same_stylesheet_is_compiled_once(mini_pack: InstalledPack) -> None:
    assert SchematronStage(mini_pack, {})._stylesheet is SchematronStage(mini_pack, {"X": "error"})._stylesheet


def test_unreadable_svrl_is_an_error_not_silence() -> None:
    with pytest.raises(SvrlError):
        parse_svrl("<html/>")
    with pytest.raises(SvrlError):
        parse_svrl("not xml")


def test_svrl_without_findings() -> None:
    assert parse_svrl(f'<svrl:schematron-output xmlns:svrl="{SVRL}"><svrl:fired-rule/></svrl:schematron-output>') == []


EMPTY_SVRL = f'<?xml version="1.0" encoding="UTF-8"?><svrl:schematron-output xmlns:svrl="{SVRL}" title="t"/>'


@pytest.mark.parametrize(
    "output",
    [
        EMPTY_SVRL,
        f'<svrl:schematron-output xmlns:svrl="{SVRL}"/>',
        f'<svrl:schematron-output xmlns:svrl="{SVRL}" title="a&gt;b" xmlns:x="urn:x"/>\n',
    ],
)
def test_empty_svrl_is_read_without_a_tree(output: str) -> None:
    assert _is_empty_output(output)
    assert parse_svrl(output) == []


@pytest.mark.parametrize(
    "output",
    [
        EMPTY_SVRL.replace("/>", '><svrl:failed-assert id="R"/></svrl:schematron-output>'),  # content: parsed
        EMPTY_SVRL.replace(SVRL, "urn:not-svrl"),  # another namespace: refused by the parser
        EMPTY_SVRL + "<extra/>",  # two roots: refused by the parser
        f'<svrl:schematron-output xmlns:svrl="{SVRL}" title="a>b"/>',  # a bare ">" in a value: parsed
        '<svrl:schematron-output xmlns:svrl="urn:x" xmlns:y="http://purl.oclc.org/dsdl/svrl"/>',
    ],
)
def test_anything_but_empty_svrl_is_parsed(output: str) -> None:
    assert not _is_empty_output(output)


def test_an_empty_output_by_its_text_is_what_the_parser_reads(shared: Path, validator: Validator) -> None:
    """The shortcut and the parser agree on the outputs of the real packs (the business cases are valid)."""
    seen = 0
    for path in sorted((shared / "corpus/xrechnung-testsuite/business-cases/standard").glob("*.xml"))[:6]:
        document = load(path.read_bytes())
        report = validator.validate(path)
        profile = next(p for p in validator.profiles if p.name == report.profile)
        saxon = validator.engine.load(document)
        for stage in validator._stages_for(profile).schematron:
            output = stage._stylesheet.run(saxon)
            if _is_empty_output(output):
                seen += 1
                root = etree.fromstring(output.encode())
                assert root.tag == f"{{{SVRL}}}schematron-output" and len(root) == 0
    assert seen, "no empty output met"


def test_svrl_role_is_used_when_flag_is_missing() -> None:
    out = (
        f'<svrl:schematron-output xmlns:svrl="{SVRL}"><svrl:failed-assert id="R" role="warn" location="/a">'
        "<svrl:text>t</svrl:text></svrl:failed-assert></svrl:schematron-output>"
    )
    [event] = parse_svrl(out)
    assert (event.id, event.flag, event.kind) == ("R", "warn", "failed-assert")


def test_importing_the_package_does_not_load_saxon(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = "import sys, einvoice_validate; assert 'saxonche' not in sys.modules, 'saxonche loaded on import'"
    subprocess.run([sys.executable, "-c", code], check=True)
