"""One self-contained HTML page for one document or a batch (no network, no scripts): per document the verdict,
profile and packs, then the profile's own findings (``profile.*``: why these rules ran, which explains the rest),
then the findings grouped by severity with their texts (the report's language first), business terms and the
values found, line, readable location (wrapped, never wider than the page) and a snippet of the document around
the offending element (the XML embedded in a PDF for a PDF; namespace declarations left out); identical findings of
one rule on one element are one card with their count; then, folded, the invoice as ``show`` renders it (the
official viewer, each finding at its field), in a sandboxed frame of its own."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from html import escape
from xml.sax.saxutils import quoteattr

from .._version import __version__
from ..envelopes.pdf import extract_invoice
from ..errors import EInvoiceValidateError
from ..findings import Finding, PdfEnvelope, Severity
from . import Outcome, Tally, grouped, severity_counts
from .words import WORDS, ignored_groups, ignored_summary, severity_label
from .words import summary as words_summary

__all__ = ["MAX_INVOICE_VIEWS", "InvoiceView", "html_report"]

MAX_INVOICE_VIEWS = 100
"""The invoice view is embedded for this many documents of a run at most (about 50-100 KB each)."""

InvoiceView = Callable[[Outcome], str | None]
"""The ``show`` page of a document (HTML), or None when there is none to show."""

SNIPPET_LINES = 1
"""Lines shown before and after the offending element's line."""
SNIPPET_WIDTH = 160
"""A longer line (an embedded attachment) is cut."""
MAX_TAG_LINES = 40
"""How far back a start tag written over several lines is looked for."""
PROFILE_FINDINGS = "profile."
"""The findings about the profile chosen (their rule ids start so): shown first, they explain the rest."""
_XMLNS = re.compile(r"""\s+xmlns(?::[\w.-]+)?\s*=\s*(?:"[^"]*"|'[^']*')""")

_CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#1a1a1a;background:#fff}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;word-break:break-all}h3{font-size:1.05em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}
.verdict{font-weight:bold;font-size:1.1em}.ok{color:#11703a}.bad{color:#b00020}.nv{color:#7a1fa2}
dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:bold}dd{margin:0}
.finding{border-left:5px solid #999;padding:.4em .8em;margin:.8em 0;background:#f7f7f7}
.ERROR{border-color:#b00020}.WARNING{border-color:#c77700}.INFO{border-color:#1565c0}
.sev{font-weight:bold}.rule{font-weight:bold}.meta{color:#444;font-size:.9em}
p.text{margin:.3em 0}.lang{display:inline-block;min-width:2em;color:#666;font-size:.85em}
pre{background:#fff;border:1px solid #ddd;padding:.4em;overflow-x:auto;font-size:.85em}
pre mark{background:#ffe08a}
code.loc{overflow-wrap:anywhere;word-break:break-all}.finding p{overflow-wrap:anywhere}
.count{font-weight:bold;margin-left:.4em}.values code{background:#fff3cd;padding:0 .2em}
.profile-first{border:1px solid #1565c0;padding:.2em .8em;margin:.8em 0}
details.invoice{margin:1em 0}details.invoice summary{cursor:pointer;font-weight:bold}
details.invoice iframe{width:100%;height:80vh;border:1px solid #ccc}
"""


def _verdict(outcome: Outcome, words: dict[str, str]) -> str:
    report = outcome.report
    if report is None:
        return f'<p class="verdict nv">{escape(words["not-validated"])}</p>'
    text = words["valid"] if report.valid else words["invalid"]
    if report.accepted is not None:
        text += ", " + (words["accepted"] if report.accepted else words["rejected"])
    return f'<p class="verdict {"ok" if report.valid else "bad"}">{escape(text)}</p>'


def _element_name(location: str | None) -> str | None:
    """The local name of the element a readable path ends on (past any attribute or text step)."""
    if not location:
        return None
    for step in reversed(location.split("/")):
        if step and not step.startswith("@") and not step.endswith("()"):
            return step.split(":")[-1].split("[")[0]
    return None


def _snippet(lines: list[str] | None, line: int | None, location: str | None) -> str:
    if not lines or line is None or not 1 <= line <= len(lines):
        return ""
    # libxml2 gives the line where an element's start tag ends; a tag over several lines is shown from its "<"
    start = line
    name = _element_name(location)
    if name is not None:
        tag = re.compile(rf"<([\w.-]+:)?{re.escape(name)}(?![\w.-])")
        for n in range(line, max(0, line - MAX_TAG_LINES), -1):
            if tag.search(lines[n - 1]):
                start = n
                break
    first, last = max(1, start - SNIPPET_LINES), min(len(lines), line + SNIPPET_LINES)
    rows = []
    for n in range(first, last + 1):
        text = lines[n - 1].rstrip("\r\n")
        if "xmlns" in text:  # a root's start tag: its namespace declarations say nothing about the finding
            text = _XMLNS.sub("", text)
            if not text.strip():
                continue
        if len(text) > SNIPPET_WIDTH:
            text = text[:SNIPPET_WIDTH] + " …"
        row = f"{n:>5} | {escape(text)}"
        rows.append(f"<mark>{row}</mark>" if start <= n <= line else row)
    return "<pre>" + "\n".join(rows) + "</pre>"


def _finding(f: Finding, lines: list[str] | None, words: dict[str, str], lang: str, count: int = 1) -> str:
    where = []
    if f.line is not None:
        where.append(f"{escape(words['line'])} {f.line}" + (f":{f.column}" if f.column is not None else ""))
    if f.location:
        where.append(f'<code class="loc">{escape(f.location)}</code>')
    elif f.pack_location:
        where.append(escape(words["not-a-path"].format(f.pack_location)))
    terms = ", ".join(f.terms)
    # the report's language first, then the other one, then the pack's own (Romanian, French)
    texts = [(lang, getattr(f.message, lang))] + [(c, getattr(f.message, c)) for c in ("en", "de") if c != lang]
    times = f' <span class="count">{escape(words["times"].format(count))}</span>' if count > 1 else ""
    values = ", ".join(
        f"<code{' title=' + quoteattr(v.location) if v.location else ''}>{escape(f'{v.term} = {v.value}')}</code>"
        for v in f.values
    )
    return (
        f'<div class="finding {f.severity.value}">'
        f'<p><span class="sev">{escape(severity_label(f.severity, lang))}</span> '
        f'<code class="rule">{escape(f.rule_id)}</code>{times}'
        + (f" · {' · '.join(where)}" if where else "")
        + "</p>"
        + "".join(
            f'<p class="text" lang="{code}"><span class="lang">{code}</span> {escape(text)}</p>'
            for code, text in (*texts, ("ro", f.message.ro), ("fr", f.message.fr), ("hr", f.message.hr))
            if text
        )
        + (f'<p class="values">{escape(words["values"])}: {values}</p>' if values else "")
        + '<p class="meta">'
        + (f"{escape(words['terms'])}: {escape(terms)} · " if terms else "")
        + f"{escape(words['source'])}: {escape(f.source)}</p>"
        + _snippet(lines, f.line, f.location)
        + "</div>"
    )


def _invoice(page: str | None, words: dict[str, str]) -> str:
    if page is None:
        return ""
    # sandboxed: no script, an origin of its own (its styles and ids cannot touch this page); downloads of the
    # invoice's attachments stay possible
    return (
        f'<details class="invoice"><summary>{escape(words["invoice-view"])}</summary>'
        f'<iframe sandbox="allow-downloads" title="{escape(words["invoice-view"])}" srcdoc="{escape(page)}">'
        "</iframe></details>"
    )


def _document(n: int, outcome: Outcome, words: dict[str, str], lang: str, view: str | None = None) -> str:
    parts = [f'<section id="doc-{n}"><h2>{escape(outcome.name)}</h2>', _verdict(outcome, words)]
    report = outcome.report
    if report is None:
        error = outcome.error
        assert error is not None
        meaning = error.message.de if lang == "de" else error.message.en  # the specific cause first
        parts.append(
            f"<dl><dt>{escape(words['error'])}</dt><dd>{escape(meaning)} (<code>{escape(error.code)}</code>)</dd>"
            "</dl></section>"
        )
        return "".join(parts)
    parts.append(
        f"<dl><dt>{escape(words['profile'])}</dt><dd>{escape(report.profile)}"
        + (f' <span class="meta" lang="en">({escape(report.profile_reason)})</span>' if report.profile_reason else "")
        + "</dd>"
        f"<dt>{escape(words['packs'])}</dt><dd>{escape(', '.join(report.packs))}</dd>"
        + (f"<dt>BT-24</dt><dd><code>{escape(report.spec_id)}</code></dd>" if report.spec_id else "")
        + (f"<dt>SBDH</dt><dd>{escape(words['sbdh'])}</dd>" if report.envelope == "sbdh" else "")
        + (_pdf_terms(report.pdf, words) if report.pdf is not None else "")
        + "</dl>"
    )
    lines = _source_lines(outcome.data, report.pdf is not None)
    if not outcome.findings:
        parts.append(f"<p>{escape(words['no-findings'])}</p>")
    if outcome.ignored:
        parts.append(
            f'<p class="ignored">{escape(words["ignored"])}: {escape(ignored_groups(outcome.ignored, lang))}</p>'
        )
    first = [f for f in outcome.findings if f.rule_id.startswith(PROFILE_FINDINGS)]
    if first:  # why these rules ran (an unrecognised specification id): it explains the findings below
        parts.append(f'<div class="profile-first"><h3>{escape(words["profile-first"])}</h3>')
        parts.extend(_finding(f, lines, words, lang, n) for f, n in grouped(first))
        parts.append("</div>")
    for severity in Severity:
        group = [f for f in outcome.findings if f.severity is severity and not f.rule_id.startswith(PROFILE_FINDINGS)]
        if group:
            parts.append(f"<h3>{escape(severity_label(severity, lang, plural=True))} ({len(group)})</h3>")
            parts.extend(_finding(f, lines, words, lang, n) for f, n in grouped(group))
    parts.append(_invoice(view, words))
    parts.append("</section>")
    return "".join(parts)


def _source_lines(data: bytes | None, pdf: bool) -> list[str] | None:
    """The lines the findings' line numbers count: the XML itself, or the XML embedded in a PDF (read again)."""
    if data is None:
        return None
    if pdf and data.startswith(b"%PDF"):
        try:
            data = extract_invoice(data)[0]
        except EInvoiceValidateError:
            return None
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return None  # not XML text (an envelope this page cannot open)
    return data.decode("utf-8", errors="replace").splitlines()


def _overview(outcomes: list[Outcome], words: dict[str, str], lang: str) -> str:
    head = "".join(
        f"<th>{escape(h)}</th>"
        for h in (words["file"], words["verdict"], *(severity_label(s, lang, plural=True) for s in Severity))
    )
    rows = []
    for n, o in enumerate(outcomes):
        counts = severity_counts(o.findings)
        verdict = words["not-validated" if o.report is None else "valid" if o.report.valid else "invalid"]
        rows.append(
            f'<tr><td><a href="#doc-{n}">{escape(o.name)}</a></td><td>{escape(verdict)}</td>'
            + "".join(f"<td>{counts[s]}</td>" for s in Severity)
            + "</tr>"
        )
    return f"<h2>{escape(words['documents'])}</h2><table><tr>{head}</tr>{''.join(rows)}</table>"


def html_report(outcomes: Iterable[Outcome], lang: str = "en", invoice_view: InvoiceView | None = None) -> str:
    """The page for all ``outcomes`` (with an overview table when there is more than one); ``invoice_view``
    gives each document's ``show`` page, embedded for the first :data:`MAX_INVOICE_VIEWS` documents."""
    outcomes = list(outcomes)
    words = WORDS[lang]
    tally = Tally()
    for o in outcomes:
        tally.add(o)
    summary = words_summary(tally, lang)
    body = [f"<h1>{escape(words['title'])}</h1>", f'<p class="summary">{escape(summary)}</p>']
    ignored = ignored_summary(tally, lang)
    if ignored is not None:
        body.append(f'<p class="summary ignored">{escape(ignored)}</p>')
    if len(outcomes) > 1:
        body.append(_overview(outcomes, words, lang))
    for n, o in enumerate(outcomes):
        view = invoice_view(o) if invoice_view is not None and n < MAX_INVOICE_VIEWS else None
        body.append(_document(n, o, words, lang, view))
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta name="generator" content="einvoice-validate {escape(__version__)}">'
        f"<title>{escape(words['title'])}</title><style>{_CSS}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _pdf_terms(pdf: PdfEnvelope, words: dict[str, str]) -> str:
    unknown = "-"
    details = words["pdf-details"].format(
        pdf.relationship or unknown, pdf.conformance_level or unknown, pdf.pdfa or unknown
    )
    return f"<dt>PDF</dt><dd>{escape(words['pdf'].format(pdf.attachment))}; {escape(details)}</dd>"
