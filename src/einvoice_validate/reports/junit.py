"""JUnit XML for CI systems: one ``testcase`` per document, one ``failure`` per ERROR finding (with ``--fail-on
warning``: per WARNING too), an ``error`` for a document that could not be validated; the other findings in
``system-out``, and what the selection left out there and in the property ``einvoice-validate.ignored``.

The layout is the one Jenkins, GitLab and GitHub test reporters read (Jenkins' ``junit-10.xsd``: several
``failure`` elements per test case allowed); tests/test_reports.py validates it against an XSD of that layout.
"""

from __future__ import annotations

from lxml import etree

from .._version import __version__
from ..findings import Finding
from . import Outcome, Tally
from .words import ignored_groups, ignored_summary

__all__ = ["junit_report"]


def _line(name: str, f: Finding) -> str:
    where = f"{name}:{f.line}" if f.line is not None else name
    return f"{where}: {f.severity.value} {f.rule_id} {f.message.en} ({f.location or f.pack_location or '-'})"


def junit_report(outcomes: list[Outcome], suite: str = "einvoice-validate") -> bytes:
    """The whole run as one ``testsuites`` document (UTF-8, with an XML declaration)."""
    tally = Tally()
    root = etree.Element("testsuites", name=suite)
    testsuite = etree.SubElement(root, "testsuite", name=suite)
    props = etree.SubElement(testsuite, "properties")
    etree.SubElement(props, "property", name="einvoice-validate.version", value=__version__)
    failures = errors = 0
    for outcome in outcomes:
        tally.add(outcome)
        report = outcome.report
        case = etree.SubElement(
            testsuite,
            "testcase",
            name=outcome.name,
            classname=f"einvoice-validate.{report.profile}" if report else "einvoice-validate",
        )
        if report is None:
            error = outcome.error
            assert error is not None
            errors += 1
            el = etree.SubElement(case, "error", message=f"{error.message.en} ({error.code})", type=error.code)
            el.text = f"{error.message.en} ({error.code})\nde: {error.message.de}"
            continue
        case.set("time", f"{sum(report.timings_ms.values()) / 1000:.3f}")
        other: list[str] = []
        for f in outcome.findings:
            if outcome.fails_on(f):
                failures += 1
                el = etree.SubElement(case, "failure", message=f"{f.rule_id}: {f.message.en}", type=f.rule_id)
                el.text = "\n".join(
                    (
                        _line(outcome.name, f),
                        f"de: {f.message.de}",
                        f"terms: {', '.join(f.terms) or '-'}; pack: {f.source}",
                    )
                )
            else:
                other.append(_line(outcome.name, f))
        if outcome.ignored:
            other.append(f"{outcome.name}: ignored by the selection: {ignored_groups(outcome.ignored, 'en')}")
        if other:
            etree.SubElement(case, "system-out").text = "\n".join(other)
    ignored = ignored_summary(tally, "en")
    if ignored is not None:
        etree.SubElement(props, "property", name="einvoice-validate.ignored", value=ignored)
    for el in (root, testsuite):
        el.set("tests", str(tally.files))
        el.set("failures", str(failures))
        el.set("errors", str(errors))
    testsuite.set("skipped", "0")
    return etree.tostring(root, encoding="UTF-8", xml_declaration=True, pretty_print=True)
