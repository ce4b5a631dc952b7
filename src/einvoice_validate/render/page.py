"""The page a person reads: the viewer's sections, made safe and self-contained, with every finding at its place.

From the viewer's output (:class:`.viewer.View`) and the validation report this module builds one HTML page:

* **safe**: no script at all (the official page's tab and download scripts are not used, ``on*`` attributes and
  ``script`` elements are dropped, links other than ``http(s):``, ``mailto:`` and in-page ones lose their
  address), a Content-Security-Policy that forbids every script and every fetch, the invoice's text always a
  text node (lxml escapes it: a note holding ``<script>`` stays text);
* **self-contained**: the viewer's CSS inline, an embedded attachment a ``data:`` link that downloads it (not
  in the printable variant), the five tabs one below the other with in-page links to each;
* **with the findings**: a summary at the top (verdict, counts, each finding with a link to its place), and at
  each place a note with the severity, rule id and message in the page's language; findings with no place on
  the view are listed apart.

Where a finding goes (:func:`place_findings`): the box of the invoice line or group its location is in (the
viewer's boxes carry ``data-ev-src``, the source element of the model element they show), then in that box the
fields of the finding's business terms (``data-title="BT-10"``); without terms, the field of the model element
whose source is the finding's element (or its nearest ancestor's): ``/Invoice/cac:InvoiceLine[2]/cbc:
InvoicedQuantity`` → BT-129 in the box of line 2. A term the box does not show is looked for on the whole page
(outside invoice lines first).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree
from lxml import html as lxml_html

from .._version import __version__
from .._words import WORDS, severity_label
from ..findings import Finding, Report, Severity
from ..locations import Locator
from ..parse import Document
from ..viewer import SECTIONS, XR_NS, Labels, View

__all__ = [
    "CSP",
    "PAGE_CSS",
    "WORDS_SHOW",
    "Placement",
    "build_page",
    "failed_fragment",
    "place_findings",
    "text_of",
    "viewer_fragment",
]

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
"""No script, no fetch of any kind: only the page's own inline styles and ``data:`` images."""

_XR_SRC = f"{{{XR_NS}}}src"
_XR_ID = f"{{{XR_NS}}}id"
_LINES = (f"{{{XR_NS}}}INVOICE_LINE", f"{{{XR_NS}}}SUB_INVOICE_LINE")
_ATTACHMENTS = f"{{{XR_NS}}}ADDITIONAL_SUPPORTING_DOCUMENTS"
_SAFE_LINK = re.compile(r"^\s*(https?:|mailto:)", re.IGNORECASE)
_BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*")
_SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}

WORDS_SHOW: dict[str, dict[str, str]] = {
    "en": {
        "title": "Invoice {}",
        "summary": "Validation result",
        "profile": "Profile",
        "packs": "Rule packs",
        "viewer": "Shown with the official XRechnung viewer (KoSIT xrechnung-visualization {}).",
        "findings": "Findings",
        "no-findings": "No findings: the invoice meets every rule of its profile.",
        "shown-at": "shown at",
        "apart": "Findings without a place on this view",
        "apart-why": "The viewer shows the EN 16931 business terms and the XRechnung extension; these findings "
        "concern elements it does not show (syntax details, extensions, elements of other profiles) or the "
        "document as a whole.",
        "coverage": "This view shows what KoSIT's semantic model of an invoice covers (EN 16931 and the XRechnung "
        "extension). Elements beyond it (ZUGFeRD EXTENDED or national extensions, UBL/CII elements outside EN "
        "16931) are not shown; findings about them are listed apart above.",
        "section-failed": "The viewer could not show this part of the invoice ({}: {}).",
        "attachment": "attachment ({} bytes; the printed page does not carry it)",
        "download": "download",
        "line": "line",
        "at": "at",
        "pdf": "PDF: invoice {} taken out of the PDF",
        "failed": "The viewer could not show this invoice ({}: {}); the findings are listed above.",
        "raw": "as written in the invoice: not a valid value, or a second one where one is expected",
    },
    "de": {
        "title": "Rechnung {}",
        "summary": "Prüfergebnis",
        "profile": "Profil",
        "packs": "Regelpakete",
        "viewer": "Dargestellt mit der offiziellen XRechnung-Visualisierung (KoSIT xrechnung-visualization {}).",
        "findings": "Befunde",
        "no-findings": "Keine Befunde: Die Rechnung erfüllt alle Regeln ihres Profils.",
        "shown-at": "angezeigt bei",
        "apart": "Befunde ohne Platz in dieser Ansicht",
        "apart-why": "Die Visualisierung zeigt die Geschäftsbegriffe der EN 16931 und der XRechnung-Erweiterung; "
        "diese Befunde betreffen Elemente, die sie nicht zeigt (Syntaxdetails, Erweiterungen, Elemente anderer "
        "Profile), oder das Dokument als Ganzes.",
        "coverage": "Diese Ansicht zeigt, was KoSITs semantisches Modell einer Rechnung abdeckt (EN 16931 und die "
        "XRechnung-Erweiterung). Elemente darüber hinaus (ZUGFeRD EXTENDED, nationale Erweiterungen, UBL-/CII-"
        "Elemente außerhalb der EN 16931) werden nicht angezeigt; Befunde zu ihnen sind oben gesondert aufgeführt.",
        "section-failed": "Dieser Teil der Rechnung konnte nicht dargestellt werden ({}: {}).",
        "attachment": "Anhang ({} Bytes; nicht in der Druckfassung enthalten)",
        "download": "herunterladen",
        "line": "Zeile",
        "at": "bei",
        "pdf": "PDF: Rechnung {} aus dem PDF entnommen",
        "failed": "Die Rechnung konnte nicht dargestellt werden ({}: {}); die Befunde stehen oben.",
        "raw": "wie in der Rechnung geschrieben: kein gültiger Wert, oder ein zweiter, wo einer erwartet wird",
    },
}

PAGE_CSS = """
html,body{height:auto}body{overflow-y:visible}
.menue a{display:inline-block;color:#fff;font:18px serif;padding:14px 0;margin-right:24px;text-decoration:none}
.menue a:hover{color:#ffb619}
.inhalt .divHide{display:block}
h2.ev-section{font:bold 20px sans-serif;margin:34px 0 6px;padding-bottom:4px;border-bottom:2px solid #0465a1}
.ev-summary{background:#fff;border:1px solid #ccc;padding:12px 16px;margin:0 0 20px;font-family:sans-serif}
.ev-summary h1{font-size:22px;margin:0 0 8px}
.ev-verdict{font-weight:bold;font-size:17px}.ev-ok{color:#11703a}.ev-bad{color:#b00020}
.ev-summary dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:6px 0}
.ev-summary dt{font-weight:bold}.ev-summary dd{margin:0;word-break:break-all}
.ev-list{margin:6px 0;padding-left:0;list-style:none}
.ev-list li{margin:4px 0;padding:4px 8px;border-left:5px solid #999;background:#f6f6f6}
.ev-list li.ev-ERROR,.ev-note.ev-ERROR{border-color:#b00020}
.ev-list li.ev-WARNING,.ev-note.ev-WARNING{border-color:#c77700}
.ev-list li.ev-INFO,.ev-note.ev-INFO{border-color:#1565c0}
.ev-where{color:#444;font-size:.9em}.ev-where code{word-break:break-all}
.ev-sev{font-weight:bold}.ev-rule{font-weight:bold;font-family:monospace}
.ev-hit{outline:3px solid #b00020;outline-offset:-1px;background:#fde8eb !important}
.ev-hit-WARNING{outline-color:#c77700;background:#fff3dc !important}
.ev-hit-INFO{outline-color:#1565c0;background:#e6f0fb !important}
.ev-note{display:block;margin:4px 0 2px;padding:3px 6px;border-left:4px solid #999;background:#fff;
 font:13px/1.35 sans-serif;color:#1a1a1a;text-align:left;white-space:normal}
.ev-note a,.ev-list a{color:#0465a1}
.ev-failed{border:1px solid #b00020;background:#fde8eb;padding:8px;margin:10px 0;font-family:sans-serif}
.ev-coverage{color:#444;font-size:.9em;margin-top:8px}
.ev-raw{font-style:italic;text-decoration:underline wavy #b00020}
@media print{
 body{background:#fff}.menue{display:none}
 .boxzeile,.rechnungsZeile,.boxtitel,.ev-note,.ev-list li{break-inside:avoid}
 .boxtitel{break-after:avoid}.inhalt{margin:0}
 h2.ev-section{break-after:avoid}
 @page{size:A4;margin:12mm}
}
"""


@dataclass(slots=True)
class Placement:
    """Where one finding is shown: ``targets`` are the page's elements it is marked at (empty: listed apart)."""

    number: int
    finding: Finding
    targets: list[etree._Element] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)
    line: str | None = None
    """The title of the invoice line's box the finding is in ("Position: 2"), when it is in one."""


def text_of(element: etree._Element) -> str:
    """The text content of an element (lxml types ``itertext`` as str or bytes; it gives str here)."""
    return "".join(str(t) for t in element.itertext())


def _ancestors(path: str) -> Iterable[str]:
    """``path`` and each of its ancestors' readable paths, innermost first (readable paths have no "/" inside a
    step)."""
    while path.count("/") >= 1 and path != "/":
        yield path
        path = path.rsplit("/", 1)[0]


def _classes(element: etree._Element) -> list[str]:
    return (element.get("class") or "").split()


def _add_class(element: etree._Element, *names: str) -> None:
    current = _classes(element)
    element.set("class", " ".join(current + [n for n in names if n not in current]))


class _Index:
    """The view's boxes and model elements by the readable path of their source element."""

    def __init__(self, view: View, document: Document) -> None:
        root = document.tree.getroot()
        self.locator = locator = Locator(root, {k: v for k, v in root.nsmap.items() if k})
        self.root_path = "/" + etree.QName(root).localname
        self.boxes: dict[str, list[etree._Element]] = {}
        self.line_boxes: set[etree._Element] = set()
        self.model: dict[str, list[etree._Element]] = {}
        for element in view.model.iter():
            src = element.get(_XR_SRC)
            path = locator.place(src).path if src else None
            if path is not None and path != self.root_path:
                self.model.setdefault(path, []).append(element)
        self.raw_terms: dict[str, list[str]] = {}  # the values repair_model took out of the model
        for raw in view.raw:
            path = locator.place(raw.src).path if raw.src else None
            if path is not None and raw.term:
                self.raw_terms.setdefault(path, []).append(raw.term)
        for element in view.body.iter():
            src = element.get("data-ev-src")
            if src is None:
                continue
            path = locator.place(src).path
            del element.attrib["data-ev-src"]
            if path is None or path == self.root_path:
                continue
            self.boxes.setdefault(path, []).append(element)
            if any(m.tag in _LINES for m in self.model.get(path, ())):
                self.line_boxes.add(element)

    def box_of(self, location: str | None) -> tuple[str | None, list[etree._Element]]:
        for path in _ancestors(location or ""):
            if path in self.boxes:
                return path, self.boxes[path]
        return None, []

    def model_ids(self, location: str | None) -> tuple[str | None, list[str]]:
        """The business terms of the model element nearest to ``location`` (itself, else its ancestors)."""
        for path in _ancestors(location or ""):
            ids = [m.get(_XR_ID, "") for m in self.model.get(path, ()) if m.get(_XR_ID)]
            ids += self.raw_terms.get(path, [])
            if ids:
                return path, list(dict.fromkeys(ids))
        return None, []

    def in_line(self, element: etree._Element) -> bool:
        return any(a in self.line_boxes for a in element.iterancestors()) or element in self.line_boxes


def _fields(scope: Iterable[etree._Element], term: str) -> list[etree._Element]:
    found: list[etree._Element] = []
    for top in scope:
        found.extend(e for e in top.iter() if isinstance(e.tag, str) and e.get("data-title") == term)
    return found


def place_findings(view: View, document: Document, findings: Iterable[Finding]) -> list[Placement]:
    """Each finding with the elements of ``view.body`` it belongs at (see the module docstring), numbered in the
    order given. Reads (and removes) the boxes' ``data-ev-src``: once per view."""
    index = _Index(view, document)
    return [_place(view, index, number, finding) for number, finding in enumerate(findings, 1)]


def _field_hits(view: View, index: _Index, box: list[etree._Element], term: str) -> list[etree._Element]:
    """The fields showing ``term`` in ``box``; if it shows none, on the whole page (outside invoice lines first;
    for a finding inside a box, never in other lines)."""
    hits = _fields(box, term) if box else []
    if not hits:
        everywhere = _fields([view.body], term)
        hits = [h for h in everywhere if not index.in_line(h)] or (everywhere if not box else [])
    return hits


def _show_raw(view: View, index: _Index, words: dict[str, str]) -> None:
    """Put each value taken out of the model (:func:`.viewer.repair_model`) back on the page as written."""
    for raw in view.raw:
        path = index.locator.place(raw.src).path if raw.src else None
        box = index.box_of(path)[1]
        for hit in _field_hits(view, index, box, raw.term)[:1]:
            shown = text_of(hit).strip()
            span = _text("span", (" / " if shown else "") + raw.text, class_="ev-raw", title=words["raw"])
            hit.append(span)


def _note(placement: Placement, lang: str, anchor: str | None, *, full: bool = True) -> etree._Element:
    f = placement.finding
    note = etree.Element("span", {"class": f"ev-note ev-{f.severity.value}"})
    if anchor:
        note.set("id", anchor)
    link = etree.SubElement(note, "a", {"href": f"#ev-f-{placement.number}"})
    link.text = f"[{placement.number}]"
    link.tail = " "
    sev = etree.SubElement(note, "span", {"class": "ev-sev"})
    sev.text = severity_label(f.severity, lang)
    sev.tail = " "
    rule = etree.SubElement(note, "span", {"class": "ev-rule"})
    rule.text = f.rule_id
    if full:  # the message once, at the first field; the finding's other fields link to it
        rule.tail = ": " + _message(f, lang)
    return note


def _message(f: Finding, lang: str) -> str:
    return f.message.de if lang == "de" else f.message.en


def _mark(placements: list[Placement], lang: str) -> None:
    for placement in placements:
        severity = placement.finding.severity.value
        for n, target in enumerate(placement.targets):
            anchor = f"ev-at-{placement.number}" + (f"-{n + 1}" if n else "")
            note = _note(placement, lang, anchor, full=n == 0)
            if target.get("data-title") is None:  # a whole box (an invoice line, a party): at its title
                title = next((e for e in target.iter() if "boxtitel" in _classes(e)), None)
                if title is not None:
                    target = title
                    target.append(note)
                else:
                    target.insert(0, note)
            else:
                target.append(note)
            _add_class(target, "ev-hit", f"ev-hit-{severity}")


def _text(tag: str, text: str, **attrs: str) -> etree._Element:
    element = etree.Element(tag, {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()})
    element.text = text
    return element


def _where(placement: Placement, labels: Labels, lang: str, words: dict[str, str]) -> etree._Element:
    f = placement.finding
    where = etree.Element("div", {"class": "ev-where"})
    if placement.targets:
        where.text = words["shown-at"] + " "
        link = etree.SubElement(where, "a", {"href": f"#ev-at-{placement.number}"})
        names = [f"{t} {labels.term(lang, t) or ''}".strip() for t in placement.terms] or [_box_name(placement)]
        if placement.terms and placement.line:
            names.append(placement.line)
        link.text = ", ".join(names)
    else:
        where.text = words["at"] + " "
        if f.location:
            etree.SubElement(where, "code").text = f.location
        elif f.pack_location:
            etree.SubElement(where, "code").text = f.pack_location
        else:
            where.text = "-"
    if f.line is not None:
        last = where[-1] if len(where) else None
        tail = f" ({words['line']} {f.line})"
        if last is not None:
            last.tail = (last.tail or "") + tail
        else:
            where.text = (where.text or "") + tail
    return where


def _title_text(box: etree._Element) -> str:
    """The title of a box (an invoice line, a party): its own text, without the notes put into it."""
    title = box if "boxtitel" in _classes(box) else next((e for e in box.iter() if "boxtitel" in _classes(e)), None)
    return " ".join((title.text or "").split()) if title is not None else "-"


def _box_name(placement: Placement) -> str:
    """What a finding marked at a whole box is shown at: the box's title."""
    return _title_text(placement.targets[0])


def _finding_item(placement: Placement, labels: Labels, lang: str, words: dict[str, str]) -> etree._Element:
    f = placement.finding
    item = etree.Element("li", {"class": f"ev-{f.severity.value}", "id": f"ev-f-{placement.number}"})
    item.text = f"[{placement.number}] "
    etree.SubElement(item, "span", {"class": "ev-sev"}).text = severity_label(f.severity, lang)
    item[-1].tail = " "
    etree.SubElement(item, "span", {"class": "ev-rule"}).text = f.rule_id
    item[-1].tail = ": " + _message(f, lang)
    item.append(_where(placement, labels, lang, words))
    return item


def _summary(
    report: Report | None, placements: list[Placement], labels: Labels, lang: str, number: str, viewer: str
) -> etree._Element:
    words, common = WORDS_SHOW[lang], WORDS[lang]
    section = etree.Element("section", {"id": "ev-summary", "class": "ev-summary"})
    section.append(_text("h1", words["title"].format(number).strip()))
    if report is not None:
        counts = {s: sum(1 for p in placements if p.finding.severity is s) for s in Severity}
        verdict = common["valid"] if report.valid else common["invalid"]
        if report.accepted is not None:
            verdict += ", " + (common["accepted"] if report.accepted else common["rejected"])
        verdict += " · " + common["counts"].format(*counts.values())
        section.append(_text("p", verdict, class_="ev-verdict " + ("ev-ok" if report.valid else "ev-bad")))
        info = etree.SubElement(section, "dl")
        info.append(_text("dt", words["profile"]))
        info.append(_text("dd", report.profile))
        info.append(_text("dt", words["packs"]))
        info.append(_text("dd", ", ".join(report.packs)))
        if report.pdf is not None:
            info.append(_text("dt", "PDF"))
            info.append(_text("dd", words["pdf"].format(report.pdf.attachment)))
    placed = [p for p in placements if p.targets]
    apart = [p for p in placements if not p.targets]
    if report is not None and not placements:
        section.append(_text("p", words["no-findings"]))
    if placed:
        section.append(_text("h2", f"{words['findings']} ({len(placed)})"))
        items = etree.SubElement(section, "ul", {"class": "ev-list"})
        items.extend(_finding_item(p, labels, lang, words) for p in placed)
    if apart:
        section.append(_text("h2", f"{words['apart']} ({len(apart)})"))
        section.append(_text("p", words["apart-why"], class_="ev-coverage"))
        items = etree.SubElement(section, "ul", {"class": "ev-list"})
        items.extend(_finding_item(p, labels, lang, words) for p in apart)
    section.append(_text("p", words["viewer"].format(viewer) + " " + words["coverage"], class_="ev-coverage"))
    return section


def _sanitise(body: etree._Element) -> None:
    """No script, no event handler, no link but http(s), mailto and in-page ones (the invoice writes link
    addresses: BT-124)."""
    for element in list(body.iter()):
        if not isinstance(element.tag, str):
            continue
        if element.tag in ("script", "noscript", "iframe", "object", "embed", "form", "base", "meta", "link"):
            element.getparent().remove(element)  # type: ignore[union-attr]
            continue
        for name in list(element.attrib):
            if str(name).lower().startswith("on"):
                del element.attrib[name]
        href = element.get("href")
        if href is not None and not href.startswith("#") and not _SAFE_LINK.match(href):
            del element.attrib["href"]
        elif href is not None and not href.startswith("#"):
            element.set("rel", "noopener noreferrer")


def _attachments(view: View, index: _Index, words: dict[str, str], printable: bool) -> None:
    """Each embedded attachment (BT-125) as a ``data:`` link that downloads it (as plain bytes, so a browser
    never renders it), instead of the viewer's script; in the printable page, its size only."""
    for path, boxes in index.boxes.items():
        model = next((m for m in index.model.get(path, ()) if m.tag == _ATTACHMENTS), None)
        if model is None:
            continue
        attached = model.find(f"{{{XR_NS}}}Attached_document")
        for box in boxes:
            for hidden in [e for e in box.iter("div") if e.get("style") == "display:none;" and e.get("id")]:
                hidden.getparent().remove(hidden)  # type: ignore[union-attr]
            for link in [a for a in box.iter("a") if (a.get("href") or "").startswith("#")]:
                content = text_of(attached) if attached is not None else ""
                if not _BASE64.fullmatch(content):
                    link.getparent().remove(link)  # type: ignore[union-attr]
                    continue
                data = re.sub(r"\s+", "", content)
                try:
                    size = len(base64.b64decode(data, validate=True))
                except (binascii.Error, ValueError):
                    link.getparent().remove(link)  # type: ignore[union-attr]
                    continue
                name = (attached.get("filename") if attached is not None else None) or "attachment"
                if printable:
                    span = _text("span", words["attachment"].format(size))
                    span.tail = link.tail
                    link.getparent().replace(link, span)  # type: ignore[union-attr]
                else:
                    link.attrib.clear()
                    link.set("href", "data:application/octet-stream;base64," + data)
                    link.set("download", name)
                    link.text = f"{name} ({words['download']}, {size} B)"


def _drop_empty_rows(body: etree._Element) -> None:
    """For print: the rows whose fields are all empty (and carry no finding) are left out."""
    for row in list(body.iter("div")):
        if "boxzeile" not in _classes(row) or row.get("role") != "listitem":
            continue
        fields = [e for e in row.iter() if e.get("data-title") is not None]
        if fields and not any(text_of(f).strip() or "ev-hit" in _classes(f) for f in fields):
            row.getparent().remove(row)  # type: ignore[union-attr]


def _sections(body: etree._Element, labels: Labels, lang: str, words: dict[str, str]) -> None:
    for element in list(body):
        name = element.get("id") or element.get("data-ev-section")
        if name not in SECTIONS:
            continue
        heading = _text("h2", labels.key(lang, name), class_="ev-section")
        element.addprevious(heading)
        if element.get("class") == "ev-section-failed":
            heading.set("id", name)
            element.set("class", "ev-failed")
            element.text = words["section-failed"].format(element.get("data-ev-code"), (element.text or "").strip())
            for attr in ("data-ev-section", "data-ev-code"):
                del element.attrib[attr]


def _box_failures(body: etree._Element, words: dict[str, str]) -> None:
    for element in list(body.iter("div")):
        if element.get("class") == "ev-box-failed":
            element.set("class", "ev-failed")
            element.text = words["section-failed"].format(element.get("data-ev-code"), (element.text or "").strip())
            del element.attrib["data-ev-code"]


def viewer_fragment(
    view: View,
    document: Document,
    report: Report | None,
    labels: Labels,
    lang: str,
    *,
    viewer: str,
    printable: bool = False,
) -> etree._Element:
    """The summary and the invoice's sections as one ``div`` (see the module docstring); ``printable``: for
    print (attachments by their size only, rows without any value left out)."""
    words = WORDS_SHOW[lang]
    findings = sorted(report.findings, key=lambda f: _SEVERITY_ORDER[f.severity]) if report is not None else []
    index = _Index(view, document)
    placements = [_place(view, index, number, finding) for number, finding in enumerate(findings, 1)]
    _sanitise(view.body)
    _show_raw(view, index, words)
    _attachments(view, index, words, printable)
    _mark(placements, lang)
    if printable:
        _drop_empty_rows(view.body)
    _sections(view.body, labels, lang, words)
    _box_failures(view.body, words)
    number = next((text_of(e) for e in view.model.iterchildren(f"{{{XR_NS}}}Invoice_number")), "")
    fragment = etree.Element("div", {"class": "ev-invoice"})
    fragment.append(_summary(report, placements, labels, lang, number, viewer))
    fragment.extend(list(view.body))
    return fragment


def _place(view: View, index: _Index, number: int, finding: Finding) -> Placement:
    placement = Placement(number, finding)
    box = index.box_of(finding.location)[1]
    if box and box[0] in index.line_boxes:
        placement.line = _title_text(box[0])
    terms = list(finding.terms)
    if not terms:
        terms = index.model_ids(finding.location)[1]
    for term in terms:
        hits = _field_hits(view, index, box, term)
        if hits:
            placement.terms.append(term)
            placement.targets.extend(h for h in hits if h not in placement.targets)
    if not placement.targets and box:
        placement.targets = [box[0]]  # the line or group itself: no field of it shows the element
    return placement


def failed_fragment(
    report: Report | None, labels: Labels, lang: str, viewer: str, code: str, message: str
) -> etree._Element:
    """The summary and every finding (none has a place), for an invoice the viewer could not show at all."""
    findings = sorted(report.findings, key=lambda f: _SEVERITY_ORDER[f.severity]) if report is not None else []
    placements = [Placement(n, f) for n, f in enumerate(findings, 1)]
    fragment = etree.Element("div", {"class": "ev-invoice"})
    fragment.append(_summary(report, placements, labels, lang, "", viewer))
    fragment.append(_text("p", WORDS_SHOW[lang]["failed"].format(code, message), class_="ev-failed"))
    return fragment


def _nav(labels: Labels, lang: str) -> etree._Element:
    nav = etree.Element("div", {"class": "menue", "role": "navigation"})
    inner = etree.SubElement(nav, "div", {"class": "innen"})
    for target, text in (("ev-summary", WORDS_SHOW[lang]["summary"]), *((s, labels.key(lang, s)) for s in SECTIONS)):
        etree.SubElement(inner, "a", {"href": f"#{target}"}).text = text
    return nav


def build_page(
    fragments: list[etree._Element], labels: Labels, lang: str, css: str, *, title: str, with_nav: bool = True
) -> bytes:
    """One HTML page around ``fragments`` (from :func:`viewer_fragment`), UTF-8 bytes."""
    page = etree.Element("html", {"lang": lang})
    head = etree.SubElement(page, "head")
    etree.SubElement(head, "meta", {"charset": "utf-8"})
    etree.SubElement(head, "meta", {"http-equiv": "Content-Security-Policy", "content": CSP})
    etree.SubElement(head, "meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"})
    etree.SubElement(head, "meta", {"name": "generator", "content": f"einvoice-validate {__version__}"})
    head.append(_text("title", title))
    head.append(_text("style", css))
    head.append(_text("style", PAGE_CSS))
    body = etree.SubElement(page, "body")
    main = etree.SubElement(body, "div", {"role": "main"})
    if with_nav:
        main.append(_nav(labels, lang))
    content = etree.SubElement(etree.SubElement(main, "div", {"class": "inhalt"}), "div", {"class": "innen"})
    content.extend(fragments)
    return bytes(lxml_html.tostring(page, doctype="<!DOCTYPE html>", encoding="utf-8", method="html"))
