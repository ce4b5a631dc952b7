"""The Schematron mechanics on a tiny hand-written stylesheet: SVRL mapping, flags, overrides, runtime errors."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from einvoice_validate.findings import Severity
from einvoice_validate.rulesets import InstalledPack, Manifest
from einvoice_validate.rulesets.prepare import prepare_pack_dir
from einvoice_validate.schematron import RUNTIME_ERROR, SchematronStage
from einvoice_validate.schematron.engines import get_engine
from einvoice_validate.schematron.svrl import SvrlError, parse_svrl

SVRL = "http://purl.oclc.org/dsdl/svrl"

# A stand-in for a compiled Schematron pack: asserts on /doc, in the shape the ISO skeleton produces.
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
      <xsl:if test="/doc/amount and xs:decimal(/doc/amount) lt 0">
        <svrl:failed-assert id="MINI-03" flag="information" location="/doc[1]/amount[1]">
          <svrl:text>negative</svrl:text>
        </svrl:failed-assert>
      </xsl:if>
    </svrl:schematron-output>
  </xsl:template>
</xsl:stylesheet>
"""


@pytest.fixture(scope="module")
def mini_pack(tmp_path_factory: pytest.TempPathFactory) -> InstalledPack:
    folder = tmp_path_factory.mktemp("mini")
    (folder / "mini.xsl").write_text(MINI, encoding="utf-8")
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
        files={"mini.xsl": hashlib.sha256(MINI.encode()).hexdigest()},
    )
    prepare_pack_dir(folder, {"stylesheet": "mini.xsl"}, manifest.key)  # what the installer does
    return InstalledPack(manifest, folder)


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
    # the stage keeps working for the next document
    assert stage.run(get_engine().parse_text("<doc><id>1</id><amount>-1</amount></doc>"))[0].rule_id == "MINI-03"


def test_same_stylesheet_is_compiled_once(mini_pack: InstalledPack) -> None:
    assert SchematronStage(mini_pack, {})._stylesheet is SchematronStage(mini_pack, {"X": "error"})._stylesheet


def test_unreadable_svrl_is_an_error_not_silence() -> None:
    with pytest.raises(SvrlError):
        parse_svrl("<html/>")
    with pytest.raises(SvrlError):
        parse_svrl("not xml")


def test_svrl_without_findings() -> None:
    assert parse_svrl(f'<svrl:schematron-output xmlns:svrl="{SVRL}"><svrl:fired-rule/></svrl:schematron-output>') == []


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
