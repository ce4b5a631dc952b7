"""SVRL → neutral events (pure: no Saxon, no profile logic). Unreadable SVRL is an error, never "no findings"."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

__all__ = ["SvrlError", "SvrlEvent", "parse_svrl"]

_SVRL = "{http://purl.oclc.org/dsdl/svrl}"
_FAILED = _SVRL + "failed-assert"
_REPORT = _SVRL + "successful-report"
_TEXT = _SVRL + "text"
_OUTPUT = _SVRL + "schematron-output"
_RUNTIME = "{urn:einvoice-validate:saxon}runtime-error"
# A dynamic error caught around one assertion (rulesets.prepare, step isolate-rule-errors).
_RULE_ERROR = "{urn:einvoice-validate:saxon}rule-error"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)


class SvrlError(Exception):
    """The stylesheet's output is not SVRL."""


@dataclass(frozen=True, slots=True)
class SvrlEvent:
    """A failed assert or successful report, as the pack states it, or a dynamic error.

    ``runtime-error``: the pack stopped (``id`` = the error code). ``rule-error``: one assertion raised a dynamic
    error and the pack went on (``id`` = the assertion's id, ``code`` = the error code, ``context`` = its rule's
    context, ``location`` = where the assertion would have reported)."""

    kind: str  # failed-assert | successful-report | runtime-error | rule-error
    id: str | None
    flag: str | None
    location: str | None
    text: str
    code: str | None = None
    context: str | None = None


def _normalise(text: str) -> str:
    return " ".join(text.split())


def parse_svrl(output: str) -> list[SvrlEvent]:
    """Read the wrapper's output: SVRL (with any ``rule-error`` events, in document order), or a single
    ``runtime-error`` event (``id`` = the error code)."""
    try:
        root = etree.fromstring(output.encode("utf-8"), _PARSER)
    except etree.XMLSyntaxError as exc:
        raise SvrlError(f"the stylesheet output is not XML: {exc}") from exc
    if root.tag == _RUNTIME:
        return [SvrlEvent("runtime-error", root.get("code") or "UNKNOWN", "fatal", None, _normalise(root.text or ""))]
    if root.tag != _OUTPUT:
        raise SvrlError(f"the stylesheet output has the root {root.tag}, not svrl:schematron-output")
    events = []
    for element in root.iter(_FAILED, _REPORT, _RULE_ERROR):
        if element.tag == _RULE_ERROR:
            events.append(
                SvrlEvent(
                    kind="rule-error",
                    id=element.get("id"),
                    flag="fatal",
                    location=element.get("location"),
                    text=_normalise(element.text or ""),
                    code=element.get("code") or "UNKNOWN",
                    context=element.get("context"),
                )
            )
            continue
        text_el = element.find(_TEXT)
        text = "".join(str(t) for t in text_el.itertext()) if text_el is not None else ""
        events.append(
            SvrlEvent(
                kind="failed-assert" if element.tag == _FAILED else "successful-report",
                id=element.get("id"),
                flag=element.get("flag") or element.get("role"),
                location=element.get("location"),
                text=_normalise(text),
            )
        )
    return events
