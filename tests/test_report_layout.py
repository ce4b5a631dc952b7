"""Issue 27 point 5: the HTML report (and the text report where it applies) as a person reads it: long locations
wrap, PDF findings quote their lines, the root element's snippet leaves out the namespace declarations, the report's
language comes first, identical findings of one rule on one element are one card with a count, and the profile's
own findings (why these rules ran) come first."""

from __future__ import annotations

import io
import re
from pathlib import Path

from einvoice_validate.cli import main
from einvoice_validate.findings import Finding, Message, Report, Severity
from einvoice_validate.reports import Outcome
from einvoice_validate.reports.html import html_report
from einvoice_validate.reports.text import TextReport
from einvoice_validate.rulesets import Registry
from tests.conftest import KOSIT_PLAN_DAY

REPO = Path(__file__).resolve().parents[1]
BROKEN = REPO / "examples" / "xrechnung-ubl-broken.xml"


def _html(args: list[str], home: Path) -> str:
    out = io.StringIO()
    main(
        ["--home", str(home), "validate", "--rules-date", KOSIT_PLAN_DAY.isoformat(), "--format", "html", *args],
        stdout=out,
        stderr=io.StringIO(),
    )
    return out.getvalue()


def _cards(page: str) -> list[str]:
    return re.findall(r'<div class="finding [A-Z]+">.*?</div>', page, re.S)


def _finding(rule: str, location: str | None, severity: Severity = Severity.ERROR, line: int | None = None) -> Finding:
    return Finding(
        rule_id=rule,
        severity=severity,
        flag="fatal" if severity is Severity.ERROR else "information",
        stage="schematron",
        location=location,
        line=line,
        message=Message(en=f"{rule} in English", de=f"{rule} auf Deutsch"),
        source="p@1",
    )


def _report(*findings: Finding) -> Report:
    return Report(
        profile="en16931-cii",
        syntax="cii",
        document_type="cii",
        spec_id="x",
        packs=("p@1",),
        findings=findings,
        valid=not any(f.severity is Severity.ERROR for f in findings),
        accepted=None,
        engine="saxonc",
        timings_ms={},
    )


LONG = (
    "/CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem[3]"
    "/ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount"
)


def test_long_locations_wrap() -> None:
    page = html_report([Outcome("a.xml", _report(_finding("CII-DT-031", LONG)), None)])
    assert f'<code class="loc">{LONG}</code>' in page
    style = page[page.index("<style>") : page.index("</style>")]
    [rule] = re.findall(r"code\.loc\{([^}]*)\}", style)
    assert "overflow-wrap:anywhere" in rule and "word-break:break-all" in rule


def test_pdf_findings_quote_the_embedded_xml(registry: Registry, shared: Path) -> None:
    pdf = shared / "corpus" / "zugferd" / "mustang-validator" / "XMLinvalidV2PDF.pdf"
    page = _html([str(pdf)], registry.home)
    cards = [c for c in _cards(page) if "CII-DT-031" in c]
    assert cards and all("<pre>" in c for c in cards)
    # the marked line is the element the finding is on, in the XML taken out of the PDF
    assert all(re.search(r"<mark>[^<]*ChargeAmount currencyID|<mark>[^<]*Amount currencyID", c) for c in cards)


def test_root_findings_do_not_quote_namespace_declarations(registry: Registry) -> None:
    page = _html([str(BROKEN)], registry.home)
    [card] = [c for c in _cards(page) if '<code class="rule">BR-CO-15</code>' in c]
    snippet = card[card.index("<pre>") :]
    assert "&lt;ubl:Invoice" in snippet or "&lt;Invoice" in snippet
    assert "xmlns" not in snippet


def test_language_order_follows_lang() -> None:
    outcome = Outcome("a.xml", _report(_finding("BR-X", "/Invoice")), None)
    for lang, first, second in (("en", "en", "de"), ("de", "de", "en")):
        [card] = _cards(html_report([outcome], lang=lang))
        assert card.index(f'lang="{first}"') < card.index(f'lang="{second}"'), lang


def test_identical_findings_on_one_element_are_one_card() -> None:
    same = [_finding("CII-DT-031", LONG, line=26) for _ in range(3)]
    other = _finding("CII-DT-031", LONG.replace("[3]", "[2]"), line=20)
    outcome = Outcome("a.xml", _report(*same, other), None)
    cards = _cards(html_report([outcome]))
    assert len(cards) == 2
    assert '<span class="count">3 times</span>' in cards[0] and "count" not in cards[1]
    assert "3-mal" in html_report([outcome], lang="de")
    out = io.StringIO()
    text = TextReport(out)
    text.add(outcome)
    lines = [line for line in out.getvalue().splitlines() if "CII-DT-031" in line]
    assert len(lines) == 2 and "(3 times)" in lines[0] and "times" not in lines[1]


def test_profile_problem_comes_first(registry: Registry, shared: Path) -> None:
    pdf = shared / "corpus" / "zugferd" / "mustang-validator" / "XMLinvalidV2PDF.pdf"
    page = _html([str(pdf)], registry.home)
    profile = page.index('<code class="rule">profile.near-miss</code>')
    assert profile < page.index('<code class="rule">CII-DT-031</code>')
    assert page.index("Which rules ran") < profile
    assert page.count('<code class="rule">profile.near-miss</code>') == 1  # not again under Warnings


def test_long_locations_are_printed_whole_in_a_browser(tmp_path: Path) -> None:
    """Headless Chromium prints the page: a location wider than the page is wrapped, so all of it is on paper
    (an overflowing one is cut at the page's edge, as issue 27 saw it at ``…SpecifiedLineTradeAgreem``)."""
    from tests.test_html_browser import _printed

    deep = LONG + "".join(f"/ram:IncludedNote[{n}]/ram:SubjectCode" for n in range(2, 4))
    page = html_report([Outcome("a.xml", _report(_finding("CII-DT-031", deep)), None)])
    printed = "".join(_printed(page, tmp_path).split())
    assert deep in printed
