"""``show``: the invoice rendered with the official viewer, each finding at its field or line (issue 25).

Every profile the corpus reaches renders; on ``mutations-dev`` every finding is checked on the rendered page (the
field it is marked at shows one of its business terms, ``data-title="BT-n"``, or the term of the element its
location names; a finding on an invoice line is marked inside that line's box); an invoice with hostile text stays
text in a real browser; the PDF embeds its fonts; the viewer pack is verified and reads nothing at run time.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree
from lxml import html as lxml_html

from einvoice_validate import Report, Validator
from einvoice_validate.cli import main
from einvoice_validate.errors import EInvoiceValidateError, RulesetError
from einvoice_validate.locations import Locator
from einvoice_validate.parse import load
from einvoice_validate.profiles import all_profiles, select_profile
from einvoice_validate.render import VIEWER_PACK, Renderer
from einvoice_validate.render.page import viewer_fragment
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.registry import InstalledPack
from einvoice_validate.schematron.engines import get_engine
from einvoice_validate.viewer import SECTIONS, XR_NS, Viewer, check_reads

from .hostile import GOOD_UBL, invoice_body

REPO = Path(__file__).resolve().parents[1]
BROKEN = REPO / "examples" / "xrechnung-ubl-broken.xml"
SCREENSHOTS = REPO / "build" / "show-screenshots"
SEVERITY_ORDER = {"ERROR": 0, "WARNING": 1, "INFO": 2}

# Where the corpus has documents of each profile (unit-test fragments and mutations excluded).
SAMPLE_FOLDERS = (
    "xrechnung-testsuite",
    "en16931-examples",
    "en16931-tests/testfiles",
    "cius-ro",
    "peppol-bis/examples",
    "peppol-bis/self-billing-examples",
    "peppol-bis/national-examples",
    "zugferd/ferd-examples",
    "zugferd/mustang-validator",
    "zugferd/mustang-library",
    "national",
    "france",
)
# The profiles the corpus had documents of when this test was written (other profiles are rendered too when found;
# the corpus has no XRechnung UBL CreditNote and no Peppol self-billing CreditNote).
EXPECTED_PROFILES = {
    "xrechnung-3.0-ubl-invoice",
    "xrechnung-3.0-extension-ubl-invoice",
    "xrechnung-3.0-cii",
    "xrechnung-3.0-extension-cii",
    "xrechnung-3.0-cvd-ubl-invoice",
    "xrechnung-3.0-cvd-cii",
    "cius-ro-ubl-invoice",
    "peppol-bis-3.0-ubl-invoice",
    "peppol-bis-3.0-ubl-creditnote",
    "peppol-bis-3.0-selfbilling-ubl-invoice",
    "zugferd-minimum",
    "zugferd-basicwl",
    "zugferd-basic",
    "zugferd-en16931",
    "zugferd-extended",
    "en16931-ubl-invoice",
    "en16931-ubl-creditnote",
    "en16931-cii",
}


@pytest.fixture(scope="session")
def renderer(validator: Validator) -> Renderer:
    return Renderer(validator)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed; `make test` installs it (apt-get install chromium poppler-utils)")
    return path


def _page(content: bytes) -> etree._Element:
    return lxml_html.document_fromstring(content)


def _samples(shared: Path, registry: Registry) -> dict[str, Path]:
    """The first corpus document (sorted by path) of each profile."""
    profiles = all_profiles(registry.home)
    found: dict[str, Path] = {}
    for folder in SAMPLE_FOLDERS:
        for path in sorted((shared / "corpus" / folder).rglob("*")):
            if path.suffix.lower() not in (".xml", ".pdf") or "mutations" in path.parts or "unit-" in str(path):
                continue
            try:
                profile = select_profile(load(path), profiles, None).name
            except EInvoiceValidateError:  # not an invoice, or no profile: not a sample
                continue
            found.setdefault(profile, path)
    return found


def test_every_profile_of_the_corpus_renders(shared: Path, registry: Registry, renderer: Renderer) -> None:
    samples = _samples(shared, registry)
    assert set(samples) >= EXPECTED_PROFILES, sorted(EXPECTED_PROFILES - set(samples))
    for profile, path in sorted(samples.items()):
        shown = renderer.show(path, lang="de")
        assert shown.report.profile == profile
        page = _page(shown.content)
        text = page.text_content()
        assert not page.xpath("//*[contains(@class, 'ev-failed')]"), (profile, path)
        for section in SECTIONS:
            assert page.get_element_by_id(section) is not None, (profile, section)
        assert "???" not in text, (profile, path)  # a label the viewer's l10n files lack
        number = load(path).tree.getroot()
        invoice_id = number.findtext("{*}ID") or number.findtext("{*}ExchangedDocument/{*}ID") or ""
        assert invoice_id.strip() in page.findtext(".//h1"), (profile, path)


def test_a_pdf_invoice_renders_the_embedded_xml(shared: Path, renderer: Renderer) -> None:
    pdf = next(p for p in sorted((shared / "corpus" / "zugferd").rglob("*.pdf")) if "ZUGFeRD-invoice" not in p.name)
    shown = renderer.show(pdf, lang="en")
    assert shown.report.envelope == "pdf"
    page = _page(shown.content)
    assert "taken out of the PDF" in page.text_content()
    assert not page.xpath("//*[contains(@class, 'ev-failed')]")


def _line_steps(location: str) -> int | None:
    """The position of the invoice line a readable path is in (1 when the path names the only line)."""
    match = re.search(
        r"/(?:cac:InvoiceLine|cac:CreditNoteLine|ram:IncludedSupplyChainTradeLineItem)(?:\[(\d+)\])?", location
    )
    if match is None or "SubInvoiceLine" in location:
        return None
    return int(match.group(1) or 1)


def _line_ids(root: etree._Element) -> list[str]:
    """The identifier (BT-126) of each invoice line, in order ("" where a mutation deleted it)."""
    lines = root.xpath(
        "/*/*[local-name()='InvoiceLine' or local-name()='CreditNoteLine'] | "
        "/*/*[local-name()='SupplyChainTradeTransaction']/*[local-name()='IncludedSupplyChainTradeLineItem']"
    )
    ids = [
        line.xpath(
            "string(*[local-name()='ID'] | *[local-name()='AssociatedDocumentLineDocument']/*[local-name()='LineID'])"
        )
        for line in lines
    ]
    return [" ".join(str(i).split()) for i in ids]


def _line_box_title(note: etree._Element) -> str | None:
    """The title of the invoice line box (``BT-126``, "Position: ID") the note is in, if any."""
    for ancestor in note.iterancestors():
        parent = ancestor.getparent()
        if parent is not None and parent.get("id") == "details":
            title = next((e for e in ancestor.iter() if e.get("data-title") == "BT-126"), None)
            return None if title is None else " ".join((title.text or "").split())
    return None


def test_findings_of_the_mutations_land_on_their_fields(
    shared: Path, mutation_reports: dict[str, Report], renderer: Renderer
) -> None:
    viewer = renderer.viewer
    stats: Counter[str] = Counter()
    wrong: list[str] = []
    for name, report in sorted(mutation_reports.items()):
        document = load(shared / "corpus" / "mutations-dev" / name)
        view = viewer.view(document, "en")
        root = document.tree.getroot()
        locator = Locator(root, {k: v for k, v in root.nsmap.items() if k})
        # the business term of each model element, by the readable path of its source element
        model_terms: dict[str, set[str]] = {}
        for m in view.model.iter():
            path = locator.place(m.get(f"{{{XR_NS}}}src")).path if m.get(f"{{{XR_NS}}}src") else None
            if path and m.get(f"{{{XR_NS}}}id"):
                model_terms.setdefault(path, set()).add(m.get(f"{{{XR_NS}}}id", ""))
        for raw in view.raw:
            path = locator.place(raw.src).path
            if path:
                model_terms.setdefault(path, set()).add(raw.term)
        fragment = viewer_fragment(view, document, report, viewer.labels, "en", viewer="test")
        assert not [e for e in fragment.iter() if "ev-failed" in (e.get("class") or "")], name
        titles = {e.get("data-title") for e in fragment.iter() if e.get("data-title")}
        ordered = sorted(report.findings, key=lambda f: SEVERITY_ORDER[f.severity.value])
        notes = {e.get("id"): e for e in fragment.iter("span") if (e.get("id") or "").startswith("ev-at-")}
        lines = _line_ids(root)
        for n, finding in enumerate(ordered, 1):
            stats["findings"] += 1
            at = [e for key, e in notes.items() if key == f"ev-at-{n}" or key.startswith(f"ev-at-{n}-")]
            if finding.terms and titles & set(finding.terms):
                assert at, f"{name}: {finding.rule_id} {finding.terms} is shown nowhere, though the page has the field"
            if not at:
                stats["apart"] += 1
                continue
            stats["placed"] += 1
            wanted = set(finding.terms)
            if not wanted:  # the term of the element the location names, or of its nearest shown ancestor
                path = finding.location or ""
                while path.count("/") > 1 and path not in model_terms:
                    path = path.rsplit("/", 1)[0]
                wanted = model_terms.get(path, set())
            for note in at:
                field = note.getparent()
                assert field is not None
                if field.get("data-title") is not None and "boxtitel" not in (field.get("class") or ""):
                    if field.get("data-title") not in wanted:
                        wrong.append(f"{name}: {finding.rule_id} at {field.get('data-title')}, wanted {wanted}")
                    stats["on-field"] += 1
                else:
                    stats["on-box"] += 1
            line = _line_steps(finding.location or "")
            if line is not None and line <= len(lines):
                title = _line_box_title(at[0])
                if title is not None:
                    stats["in-line"] += 1
                    assert title.endswith(lines[line - 1]), f"{name}: {finding.rule_id} in {title!r}, line {line}"
    print(dict(stats))
    assert not wrong, wrong[:20]
    assert stats["placed"] >= 0.9 * stats["findings"], dict(stats)
    assert stats["in-line"] > 50, dict(stats)


def _hostile() -> bytes:
    body = invoice_body(GOOD_UBL)
    note = "&lt;script&gt;document.title='pwned'&lt;/script&gt;&lt;img src=x onerror=\"document.title='pwned2'\"&gt;"
    body = re.sub(r"<cbc:Note>[^<]*</cbc:Note>", f"<cbc:Note>{note}</cbc:Note>", body, count=1)
    reference = (
        "<cac:AdditionalDocumentReference><cbc:ID>A 1</cbc:ID>"
        "<cbc:DocumentDescription>&lt;b onmouseover=alert(1)&gt;x&lt;/b&gt;</cbc:DocumentDescription><cac:Attachment>"
        '<cbc:EmbeddedDocumentBinaryObject mimeCode="text/html" filename="x\');document.title=\'pwned3\';//.html">'
        "PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==</cbc:EmbeddedDocumentBinaryObject>"
        "<cac:ExternalReference><cbc:URI>javascript:document.title='pwned4'</cbc:URI></cac:ExternalReference>"
        "</cac:Attachment></cac:AdditionalDocumentReference>"
    )
    body = body.replace("</cac:OrderReference>", "</cac:OrderReference>" + reference, 1)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + body).encode("utf-8")


def test_hostile_invoice_text_stays_text(renderer: Renderer, tmp_path: Path) -> None:
    shown = renderer.show(_hostile(), lang="en")
    page = _page(shown.content)
    assert not page.xpath("//script | //img | //iframe | //object | //embed | //b")
    assert not [a for e in page.iter() for a in e.attrib if str(a).lower().startswith("on")]
    assert not [e for e in page.iter("a") if "javascript" in (e.get("href") or "").lower()]
    note = page.xpath("//*[@data-title='BT-22']")[0].text_content()
    assert "<script>document.title='pwned'</script>" in note
    download = next(e for e in page.iter("a") if e.get("download"))
    assert download.get("href").startswith("data:application/octet-stream;base64,")  # never rendered as HTML
    csp = page.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")[0]
    assert "default-src 'none'" in csp and "script-src" not in csp
    # in a real browser: nothing ran, and the note's text is on the page as written
    html = tmp_path / "hostile.html"
    html.write_bytes(shown.content)
    dom = subprocess.run(
        [_tool("chromium"), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", html.as_uri()],
        check=True, capture_output=True, text=True, timeout=120,
    ).stdout  # fmt: skip
    assert "pwned" not in re.search(r"<title>(.*?)</title>", dom, re.S).group(1)  # type: ignore[union-attr]
    assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in dom


def _screenshot(content: bytes, name: str, tmp_path: Path) -> Path:
    from PIL import Image

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    html = tmp_path / f"{name}.html"
    html.write_bytes(content)
    full = tmp_path / f"{name}.png"
    subprocess.run(
        [_tool("chromium"), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,1800", f"--screenshot={full}", html.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    kept = SCREENSHOTS / f"{name}.png"
    with Image.open(full) as image:  # kept small: half size, 64 colours
        image.convert("RGB").resize((600, 900)).quantize(64).save(kept, optimize=True)
    return full


def _red_pixels(path: Path) -> int:
    from PIL import Image

    with Image.open(path) as image:
        data = image.convert("RGB").tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for r, g, b in pixels if r > 150 and g < 40 and b < 70)  # the ERROR outline, #b00020


@pytest.mark.parametrize("lang", ["de", "en"])
def test_screenshots_of_a_valid_and_a_broken_invoice(renderer: Renderer, tmp_path: Path, lang: str) -> None:
    valid = renderer.show(GOOD_UBL, lang=lang)
    broken = renderer.show(BROKEN, lang=lang)
    assert valid.report.valid and not broken.report.valid
    assert _red_pixels(_screenshot(valid.content, f"valid-{lang}", tmp_path)) == 0
    assert _red_pixels(_screenshot(broken.content, f"broken-{lang}", tmp_path)) > 500
    words = {"de": ("Rechnung", "Käuferreferenz", "FEHLER"), "en": ("Invoice", "Buyer reference", "ERROR")}[lang]
    text = _page(broken.content).text_content()
    assert all(w in text for w in words)
    buyer_reference = _page(broken.content).xpath("//*[@data-title='BT-10' and contains(@class, 'ev-hit')]")
    assert buyer_reference and "BR-DE-15" in buyer_reference[0].text_content()


def test_show_cli_writes_html_and_pdf(registry: Registry, tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["--home", str(registry.home), "show", str(GOOD_UBL)], stdout=out, stderr=err) == 0
    assert out.getvalue().startswith("<!DOCTYPE html>") and "valid" in err.getvalue()
    pdf = tmp_path / "broken.pdf"
    code = main(["show", str(BROKEN), "--lang", "de", "--format", "pdf", "-o", str(pdf)], stdout=out, stderr=err)
    assert code == 1 and pdf.read_bytes().startswith(b"%PDF-")
    fonts = subprocess.run([_tool("pdffonts"), str(pdf)], check=True, capture_output=True, text=True).stdout
    rows = [line.split() for line in fonts.splitlines()[2:] if line.strip()]
    assert rows and all("yes" in row[-5:-3] for row in rows), fonts  # every font embedded
    text = subprocess.run([_tool("pdftotext"), str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    assert "BR-DE-15" in text and "Käuferreferenz" in text
    assert main(["show", str(tmp_path / "missing.xml")], stdout=out, stderr=err) == 2
    assert main(["show", "-"], stdout=out, stderr=err, stdin=io.BytesIO(BROKEN.read_bytes())) == 1


def test_pdf_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import weasyprint raises ImportError
    err = io.StringIO()
    assert main(["show", str(GOOD_UBL), "--format", "pdf", "-o", "/dev/null"], stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue().count("\n") == 1 and "pip install 'einvoice-validate[pdf]'" in err.getvalue()


def _pack_copy(registry: Registry, tmp_path: Path) -> InstalledPack:
    pack = registry.get(VIEWER_PACK)
    copy = tmp_path / "viewer"
    shutil.copytree(pack.directory, copy)
    return InstalledPack(pack.manifest, copy)


@pytest.mark.parametrize(
    "change",
    [
        '<xsl:variable name="x" select="doc(\'/etc/hostname\')"/>',
        '<xsl:template match="xr:Buyer_name"><xsl:value-of select="unparsed-text(.)"/></xsl:template>',
        '<xsl:include href="../../../../../../etc/x.xsl"/>',
    ],
)
def test_viewer_stylesheets_may_read_nothing_at_run_time(registry: Registry, tmp_path: Path, change: str) -> None:
    pack = _pack_copy(registry, tmp_path)
    check_reads(pack)  # the official files: only what the wrappers replace
    html = pack.directory / "xsl" / "xrechnung-html.xsl"
    html.write_text(html.read_text(encoding="utf-8").replace("</xsl:stylesheet>", change + "</xsl:stylesheet>"))
    with pytest.raises(RulesetError) as raised:
        check_reads(pack)
    assert raised.value.code == "ruleset.invalid"


def test_viewer_pack_is_verified(registry: Registry, tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as missing:
        Viewer(Registry(tmp_path / "empty-home"), get_engine())
    assert missing.value.code == "ruleset.missing"
    pack = _pack_copy(registry, tmp_path)
    (pack.directory / "xsl" / "l10n" / "en.xml").write_text("<properties/>")
    home = tmp_path / "home"
    (home / "packs" / pack.manifest.id).mkdir(parents=True)
    shutil.move(str(pack.directory), home / "packs" / pack.manifest.id / pack.manifest.version)
    with pytest.raises(RulesetError) as corrupt:
        Viewer(Registry(home), get_engine())
    assert corrupt.value.code == "ruleset.corrupt"


def test_render_invoice_raises_the_usual_errors_and_pages_an_invalid_invoice(renderer: Renderer) -> None:
    from einvoice_validate.render import render_invoice

    with pytest.raises(EInvoiceValidateError) as unreadable:
        render_invoice(b"<Invoice><a></Invoice>", renderer=renderer)
    assert unreadable.value.code == "document.unreadable"
    page = _page(render_invoice(BROKEN.read_bytes(), lang="de", renderer=renderer))
    assert "UNGÜLTIG" in page.findtext(".//p[@class='ev-verdict ev-bad']")


def test_the_html_report_folds_in_the_invoice_view(registry: Registry) -> None:
    out = io.StringIO()
    main(["--home", str(registry.home), "validate", "--format", "html", str(GOOD_UBL), str(BROKEN)], stdout=out)
    page = _page(out.getvalue().encode("utf-8"))
    frames = page.xpath("//details[@class='invoice']/iframe")
    assert len(frames) == 2 and all(f.get("sandbox") == "allow-downloads" for f in frames)
    inner = _page(frames[1].get("srcdoc").encode("utf-8"))
    assert "BR-DE-15" in inner.xpath("//*[@data-title='BT-10']")[0].text_content()


def test_both_engines_render_the_same_page(registry: Registry, renderer: Renderer) -> None:
    java = Renderer(Validator(rules_home=registry.home, engine="saxon-java"))
    assert java.show(BROKEN, lang="de").content == renderer.show(BROKEN, lang="de").content


def test_viewer_checks_its_stylesheets_before_the_first_compile_not_before(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    from einvoice_validate import viewer as viewer_module

    checked: list[str] = []
    monkeypatch.setattr(viewer_module, "check_reads", lambda pack: checked.append(pack.key))
    shown = Viewer(registry, get_engine())
    assert checked == []  # the values of findings read the mapping's text only: no check, no compile
    assert shown.labels.term("en", "BT-1") and shown.css and shown.numbers
    assert checked == []
    shown._mapping("ubl-invoice")
    shown._mapping("cii")
    assert checked == [shown.pack.key]  # once, before the first compile
