"""SVRL → neutral events (pure: no Saxon, no profile logic). Unreadable SVRL is an error, never "no findings".

Most documents pass most packs: their SVRL is one empty ``svrl:schematron-output`` element (the prepared
stylesheets write nothing else, ``rulesets.prepare`` step ``strip-unused-output``). That output is recognised by
its text alone (:func:`_is_empty_output`), without building a tree: 0.03 ms per pack and document, and one release
and re-acquisition of the GIL fewer for threads sharing a validator (issue 21). Anything else is parsed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

__all__ = ["SvrlError", "SvrlEvent", "output_root", "parse_svrl"]

_SVRL = "{http://purl.oclc.org/dsdl/svrl}"
_FAILED = _SVRL + "failed-assert"
_REPORT = _SVRL + "successful-report"
_TEXT = _SVRL + "text"
_OUTPUT = _SVRL + "schematron-output"
_RUNTIME = "{urn:einvoice-validate:saxon}runtime-error"
# A dynamic error caught around one assertion (rulesets.prepare, step isolate-rule-errors).
_RULE_ERROR = "{urn:einvoice-validate:saxon}rule-error"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
# One self-closed svrl:schematron-output element, the only markup besides an XML declaration: attribute values hold no
# "<" (the serialiser escapes it), so "[^<>]*" cannot step over a child; a ">" inside a value only makes it not match.
_EMPTY_OUTPUT = re.compile(r"(?:<\?xml[^<>]*\?>)?\s*<svrl:schematron-output(?:\s[^<>]*)?/>\s*")
_SVRL_BINDING = f'xmlns:svrl="{_SVRL[1:-1]}"'


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


def _is_empty_output(output: str) -> bool:
    """``output`` is a ``svrl:schematron-output`` element (its prefix bound to the SVRL namespace) with no content.
    (Any other output has a third ``<``: counted first, since the pattern takes long to fail on a long start tag.)"""
    return output.count("<") <= 2 and _EMPTY_OUTPUT.fullmatch(output) is not None and _SVRL_BINDING in output


def output_root(output: str) -> etree._Element | SvrlEvent:
    """The root element of a stylesheet's output as the engines' wrapper gives it (any report format), or the one
    ``runtime-error`` event (``id`` = the error code) when the pack stopped; output that is not XML is a
    :class:`SvrlError`."""
    try:
        root = etree.fromstring(output.encode("utf-8"), _PARSER)
    except etree.XMLSyntaxError as exc:
        raise SvrlError(f"the stylesheet output is not XML: {exc}") from exc
    if root.tag == _RUNTIME:
        return SvrlEvent("runtime-error", root.get("code") or "UNKNOWN", "fatal", None, _normalise(root.text or ""))
    return root


def parse_svrl(output: str) -> list[SvrlEvent]:
    """Read the wrapper's output: SVRL (with any ``rule-error`` events, in document order), or a single
    ``runtime-error`` event (``id`` = the error code)."""
    if _is_empty_output(output):
        return []
    root = output_root(output)
    if isinstance(root, SvrlEvent):
        return [root]
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
