"""Owns the translation of one libxml2 XSD validation error (an lxml ``error_log`` entry) into the Xerces
``cvc-*`` codes and English messages that the KoSIT validator reports.

* :class:`XsdIssue` - one Xerces-style finding (``code``, ``message``, ``line``, ``column``, ``path``).
* :func:`xerces_issues` - map ONE libxml2 log entry to the Xerces issue(s) it corresponds to
  (Xerces often reports two codes for one problem, e.g. ``cvc-datatype-valid.1.2.1`` followed by
  ``cvc-complex-type.2.2`` / ``cvc-type.3.1.3`` / ``cvc-attribute.3``).
* :data:`EMITTED_CODES` - every code a finding of the stage can carry.

Unknown libxml2 error types never get dropped: they become ``xsd.other`` issues carrying
libxml2's message. Line numbers follow Xerces: errors about an element's content (value, children,
missing children) are reported at its end tag, computed from the tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from .libxml2_log import HEAD_RE, VALUE_RE, expected_list, locate, raw_name, sourceline, xerces_qname
from .schema_index import SchemaInfo
from .schema_model import SimpleT
from .values import LANGUAGE_PATTERN, check_value, collapse

__all__ = [
    "EMITTED_CODES",
    "FALLBACK_CODE",
    "XsdIssue",
    "has_child_elements",
    "is_value_error",
    "map_entry",
    "xerces_issues",
]


FALLBACK_CODE = "xsd.other"


@dataclass(frozen=True)
class XsdIssue:
    """One XSD finding in Xerces' terms."""

    code: str
    message: str
    line: int
    column: int | None
    path: str | None


_FACET_CODES: dict[str, str] = {
    "SCHEMAV_CVC_DATATYPE_VALID_1_2_1": "cvc-datatype-valid.1.2.1",
    "SCHEMAV_CVC_DATATYPE_VALID_1_2_2": "cvc-datatype-valid.1.2.2",
    "SCHEMAV_CVC_DATATYPE_VALID_1_2_3": "cvc-datatype-valid.1.2.3",
    "SCHEMAV_CVC_ENUMERATION_VALID": "cvc-enumeration-valid",
    "SCHEMAV_CVC_PATTERN_VALID": "cvc-pattern-valid",
    "SCHEMAV_CVC_LENGTH_VALID": "cvc-length-valid",
    "SCHEMAV_CVC_MINLENGTH_VALID": "cvc-minLength-valid",
    "SCHEMAV_CVC_MAXLENGTH_VALID": "cvc-maxLength-valid",
    "SCHEMAV_CVC_MININCLUSIVE_VALID": "cvc-minInclusive-valid",
    "SCHEMAV_CVC_MAXINCLUSIVE_VALID": "cvc-maxInclusive-valid",
    "SCHEMAV_CVC_MINEXCLUSIVE_VALID": "cvc-minExclusive-valid",
    "SCHEMAV_CVC_MAXEXCLUSIVE_VALID": "cvc-maxExclusive-valid",
    "SCHEMAV_CVC_TOTALDIGITS_VALID": "cvc-totalDigits-valid",
    "SCHEMAV_CVC_FRACTIONDIGITS_VALID": "cvc-fractionDigits-valid",
    "SCHEMAV_FACET": "cvc-facet-valid",
}


_SIMPLE_CODES: dict[str, str] = {
    "SCHEMAV_CVC_ELT_1": "cvc-elt.1.a",
    "SCHEMAV_CVC_ELT_2": "cvc-elt.2",
    "SCHEMAV_CVC_ELT_3_1": "cvc-elt.3.1",
    "SCHEMAV_CVC_ELT_3_2_1": "cvc-elt.3.2.1",
    "SCHEMAV_CVC_ELT_3_2_2": "cvc-elt.3.2.2",
    "SCHEMAV_CVC_ELT_4_1": "cvc-elt.4.1",
    "SCHEMAV_CVC_ELT_4_2": "cvc-elt.4.2",
    "SCHEMAV_CVC_ELT_4_3": "cvc-elt.4.3",
    "SCHEMAV_CVC_ELT_5_1_1": "cvc-elt.5.1.1",
    "SCHEMAV_CVC_ELT_5_2_1": "cvc-elt.5.2.1",
    "SCHEMAV_CVC_ELT_5_2_2_1": "cvc-elt.5.2.2.1",
    "SCHEMAV_CVC_ELT_5_2_2_2_1": "cvc-elt.5.2.2.2.1",
    "SCHEMAV_CVC_ELT_5_2_2_2_2": "cvc-elt.5.2.2.2.2",
    "SCHEMAV_CVC_ELT_6": "cvc-elt.6",
    "SCHEMAV_CVC_ELT_7": "cvc-elt.7",
    "SCHEMAV_CVC_TYPE_1": "cvc-type.1",
    "SCHEMAV_CVC_TYPE_2": "cvc-type.2",
    "SCHEMAV_CVC_TYPE_3_1_1": "cvc-type.3.1.1",
    "SCHEMAV_CVC_TYPE_3_1_2": "cvc-type.3.1.2",
    "SCHEMAV_CVC_COMPLEX_TYPE_1": "cvc-complex-type.1",
    "SCHEMAV_CVC_COMPLEX_TYPE_2_1": "cvc-complex-type.2.1",
    "SCHEMAV_CVC_COMPLEX_TYPE_2_3": "cvc-complex-type.2.3",
    "SCHEMAV_CVC_COMPLEX_TYPE_3_1": "cvc-complex-type.3.1",
    "SCHEMAV_CVC_COMPLEX_TYPE_3_2_1": "cvc-complex-type.3.2.2",
    "SCHEMAV_CVC_COMPLEX_TYPE_3_2_2": "cvc-complex-type.3.2.2",
    "SCHEMAV_CVC_COMPLEX_TYPE_4": "cvc-complex-type.4",
    "SCHEMAV_CVC_COMPLEX_TYPE_5_1": "cvc-complex-type.5.1",
    "SCHEMAV_CVC_COMPLEX_TYPE_5_2": "cvc-complex-type.5.2",
    "SCHEMAV_CVC_AU": "cvc-attribute.4",
    "SCHEMAV_CVC_ATTRIBUTE_1": "cvc-attribute.1",
    "SCHEMAV_CVC_ATTRIBUTE_2": "cvc-attribute.2",
    "SCHEMAV_CVC_ATTRIBUTE_3": "cvc-attribute.3",
    "SCHEMAV_CVC_ATTRIBUTE_4": "cvc-attribute.4",
    "SCHEMAV_CVC_IDC": "cvc-identity-constraint.4.1",
    "SCHEMAV_CVC_WILDCARD": "cvc-wildcard.2",
    "SCHEMAV_NOROOT": "cvc-elt.1.a",
    "SCHEMAV_UNDECLAREDELEM": "cvc-elt.1.a",
    "SCHEMAV_NOTNILLABLE": "cvc-elt.3.1",
    "SCHEMAV_ISABSTRACT": "cvc-elt.2",
}


def xerces_issues(
    entry: etree._LogEntry,
    tree: etree._ElementTree,
    schema_info: SchemaInfo | None = None,
) -> list[XsdIssue]:
    """Map one libxml2 schema-validation log entry to the Xerces issue(s) it corresponds to.

    ``tree`` is the validated document (used to find the offending element: its prefix, text and
    children). ``schema_info`` (see :func:`.schema_index.schema_info_for`) tells whether an element's type is a
    simple type (``cvc-type.3.1.3``) or a complex type with simple content
    (``cvc-complex-type.2.2``); without it, elements are assumed to be complex types with simple
    content (true for every UBL ``cbc:`` element and most CII elements).

    Returns ``[]`` only for the libxml2 follow-up value error that libxml2 adds after an
    "Element content is not allowed" error on the same element: the issues for that entry already
    contain Xerces' value check.
    """
    clark = ""
    m = HEAD_RE.match(entry.message or "")
    if m:
        clark = m.group("el")
    el = locate(entry.path, entry.line, clark, tree)
    return map_entry(entry.type_name, entry.message or "", entry.line, entry.column, entry.path, el, schema_info)


def map_entry(
    type_name: str,
    message: str,
    line: int,
    column: int | None,
    path: str | None,
    el: etree._Element | None,
    info: SchemaInfo | None,
) -> list[XsdIssue]:
    col = column if column else None
    m = HEAD_RE.match(message)
    clark = m.group("el") if m else ""
    attr = m.group("attr") if m else None
    detail = (m.group("detail") if m else message).strip()
    ename = raw_name(el, clark)

    def issue(code: str, text: str) -> XsdIssue:
        return XsdIssue(code, f"{code}: {text}", line, col, path)

    # Xerces reports content errors of an element (value, children) at its end tag.
    def end_issue(code: str, text: str) -> XsdIssue:
        end_line = _end_line(el) if el is not None else None
        if end_line is None:
            return issue(code, text)
        return XsdIssue(code, f"{code}: {text}", end_line, None, path)

    if type_name == "SCHEMAV_ELEMENT_CONTENT" or type_name == "SCHEMAV_CVC_COMPLEX_TYPE_2_4":
        expected = expected_list(detail)
        if "Missing child element" in detail:
            # Xerces reports this at the end tag; libxml2 at the start tag.
            return [
                end_issue(
                    "cvc-complex-type.2.4.b",
                    "The content of element '{}' is not complete. One of '{{{}}}' is expected.".format(
                        ename, expected or ""
                    ),
                )
            ]
        if "not expected" in detail:
            if expected:
                return [
                    issue(
                        "cvc-complex-type.2.4.a",
                        f"Invalid content was found starting with element "
                        f"'{xerces_qname(clark) if clark else ename}'. One of '{{{expected}}}' is expected.",
                    )
                ]
            return [
                issue(
                    "cvc-complex-type.2.4.d",
                    f"Invalid content was found starting with element '{ename}'. "
                    "No child element is expected at this point.",
                )
            ]
        return [issue(FALLBACK_CODE, message)]

    if type_name in ("SCHEMAV_CVC_COMPLEX_TYPE_2_2", "SCHEMAV_CVC_TYPE_3_1_2"):
        simple_typed = type_name == "SCHEMAV_CVC_TYPE_3_1_2"
        if simple_typed:
            head = end_issue(
                "cvc-type.3.1.2",
                f"Element '{ename}' is a simple type, so it must have no element information item [children].",
            )
            second_code = "cvc-type.3.1.3"
        else:
            head = end_issue(
                "cvc-complex-type.2.2",
                f"Element '{ename}' must have no element [children], and the value must be valid.",
            )
            second_code = "cvc-complex-type.2.2"
        out = [head]
        # Xerces then checks the character content it kept (usually '') against the simple type.
        t = info.type_for(el) if (info is not None and el is not None) else None
        if info is not None and el is not None and t is not None and t.simple is not None:
            kept = _value_after_children(el, info)
            bad = check_value(t.simple, kept)
            if bad is not None:
                out.append(end_issue(bad[0], bad[1]))
                out.append(head if not simple_typed else end_issue(second_code, _type_313(kept, ename)))
        return out

    if type_name == "SCHEMAV_CVC_ELT_1" and "strict wildcard" in detail:
        return [
            issue(
                "cvc-complex-type.2.4.c",
                f"The matching wildcard is strict, but no declaration can be found for element '{ename}'.",
            )
        ]

    if type_name == "SCHEMAV_CVC_AU":
        fm = re.search(r"The value '(.*)' does not match the fixed value constraint '(.*)'", detail, re.S)
        given, fixed = (fm.group(1), fm.group(2)) if fm else ("", "")
        return [
            issue(
                "cvc-complex-type.3.1",
                f"Value '{given}' of attribute '{attr}' of element '{ename}' is not valid with respect to the "
                f"corresponding attribute use. Attribute '{attr}' has a fixed value of '{fixed}'.",
            )
        ]

    facet = _FACET_CODES.get(type_name)
    if facet is not None:
        vm = VALUE_RE.match(detail)
        if vm:
            value = vm.group("v")
        elif el is not None and attr is not None:
            value = el.get(attr) or ""
        elif el is not None:
            value = collapse(el.text or "")
        else:
            value = ""
        if attr is not None:
            st = info.attr_simple(el, attr) if (info is not None and el is not None) else None
            code, text = _first_check(st, el.get(attr) if el is not None else None) or _facet_issue(
                facet, detail, value, st
            )
            tname = st.name if st is not None else _builtin_from_detail(detail) or "?"
            return [
                issue(code, text),
                issue(
                    "cvc-attribute.3",
                    f"The value '{value}' of attribute '{attr}' on element '{ename}' is not valid with respect "
                    f"to its type, '{tname}'.",
                ),
            ]
        t = info.type_for(el) if (info is not None and el is not None) else None
        if el is not None and t is not None and t.kind in ("complex-simple", "simple") and has_child_elements(el):
            return []  # libxml2's follow-up to "Element content is not allowed" (see docstring)
        simple = t.simple if t is not None else None
        raw = (el.text or "") if el is not None else None
        code, text = _first_check(simple, raw) or _facet_issue(facet, detail, value, simple)
        first = end_issue(code, text)
        if t is not None and t.kind == "simple":
            return [first, end_issue("cvc-type.3.1.3", _type_313(value, ename))]
        return [
            first,
            end_issue(
                "cvc-complex-type.2.2",
                f"Element '{ename}' must have no element [children], and the value must be valid.",
            ),
        ]

    simple_code = _SIMPLE_CODES.get(type_name)
    if simple_code is not None:
        text = _simple_text(simple_code, detail, ename, attr)
        if simple_code in ("cvc-complex-type.2.1", "cvc-complex-type.2.3"):
            return [end_issue(simple_code, text)]
        return [issue(simple_code, text)]
    return [issue(FALLBACK_CODE, message)]


EMITTED_CODES: frozenset[str] = frozenset(
    {
        *_FACET_CODES.values(),
        *_SIMPLE_CODES.values(),
        "cvc-complex-type.2.4.a",
        "cvc-complex-type.2.4.b",
        "cvc-complex-type.2.4.c",
        "cvc-complex-type.2.4.d",
        "cvc-complex-type.2.2",
        "cvc-complex-type.3.1",
        "cvc-type.3.1.2",
        "cvc-type.3.1.3",
        "cvc-attribute.3",
        "cvc-pattern-valid",
        FALLBACK_CODE,
    }
)
"""Every code the XSD stage can give a finding (the message catalogue has texts for each)."""


def is_value_error(type_name: str) -> bool:
    """Whether a libxml2 error type is a value's datatype or facet error (Xerces reports the first such check that
    fails for a value, once: :func:`map_entry` names it, whichever of them libxml2 logged)."""
    return type_name in _FACET_CODES


def _first_check(st: SimpleT | None, raw: str | None) -> tuple[str, str] | None:
    """Xerces' first failing check of a value (patterns, then the datatype, then the length facets and the
    enumeration: :func:`.values.check_value`) where the simple type is known; None: libxml2's error stands (the
    numeric facets, which Xerces checks last)."""
    return check_value(st, raw) if st is not None and raw is not None else None


def _type_313(value: str, ename: str) -> str:
    return f"The value '{value}' of element '{ename}' is not valid."


def _builtin_from_detail(detail: str) -> str | None:
    tm = re.search(r"atomic type 'xs:([A-Za-z]+)'", detail)
    return tm.group(1) if tm else None


def _facet_issue(code: str, detail: str, value: str, st: SimpleT | None) -> tuple[str, str]:
    """Xerces code and message for a libxml2 value error (code already mapped from libxml2)."""
    tname = st.name if st is not None else "?"
    nums = re.findall(r"'(\d+)'", detail)
    if code == "cvc-datatype-valid.1.2.1":
        builtin = _builtin_from_detail(detail) or (st.builtin if st is not None else "anySimpleType")
        if builtin == "language":
            # Xerces derives xs:language with a pattern facet
            return (
                "cvc-pattern-valid",
                f"Value '{value}' is not facet-valid with respect to pattern '{LANGUAGE_PATTERN}' for type 'language'.",
            )
        return code, f"'{value}' is not a valid value for '{builtin}'."
    if code == "cvc-enumeration-valid":
        sm = re.search(r"set \{(.*)\}", detail)
        enum = sm.group(1).replace("'", "") if sm else ""
        return code, (
            f"Value '{value}' is not facet-valid with respect to enumeration '[{enum}]'. It must be a value from the "
            "enumeration."
        )
    if code in ("cvc-minLength-valid", "cvc-maxLength-valid", "cvc-length-valid"):
        facet = code[4:-6]
        length = nums[-2] if len(nums) >= 2 else str(len(value))
        limit = nums[-1] if nums else "?"
        return code, (
            f"Value '{value}' with length = '{length}' is not facet-valid with respect to {facet} '{limit}' "
            f"for type '{tname}'."
        )
    if code == "cvc-pattern-valid":
        pm = re.search(r"pattern '(.*)'", detail)
        return code, (
            "Value '{}' is not facet-valid with respect to pattern '{}' for type '{}'.".format(
                value, pm.group(1) if pm else "?", tname
            )
        )
    clean = re.sub(r"^\[facet '[^']*'\] ", "", detail)
    return code, f"Value '{value}' is not facet-valid with respect to type '{tname}': {clean}"


def _end_line(el: etree._Element) -> int | None:
    """Line of ``el``'s end tag, assuming no line break inside tags after the last start tag."""
    start = sourceline(el)
    if start is None:
        return None
    last = el
    for d in el.iterdescendants():
        last = d
    lines = sourceline(last) or start
    lines += (last.text or "").count("\n")
    cur: etree._Element | None = last
    while cur is not None and cur is not el:
        lines += (cur.tail or "").count("\n")
        cur = cur.getparent()
    return lines


def has_child_elements(el: etree._Element) -> bool:
    return any(isinstance(c.tag, str) for c in el)


def _value_after_children(el: etree._Element, info: SchemaInfo) -> str:
    """The character content Xerces validates for a simple-content element with element children.

    Xerces' buffer only keeps text when the last child element is itself of simple type or simple
    content; after an undeclared (lax) child it validates the empty string."""
    last: etree._Element | None = None
    for c in el:
        if isinstance(c.tag, str):
            last = c
    if last is None:
        return el.text or ""
    t = info.type_for(last)
    if t is not None and t.kind in ("simple", "complex-simple"):
        return last.tail or ""
    return ""


def _simple_text(code: str, detail: str, ename: str, attr: str | None) -> str:
    if code == "cvc-complex-type.4":
        am = re.search(r"attribute '([^']*)'", detail)
        return "Attribute '{}' must appear on element '{}'.".format(am.group(1) if am else "?", ename)
    if code == "cvc-complex-type.3.2.2":
        return "Attribute '{}' is not allowed to appear in element '{}'.".format(attr or "?", ename)
    if code == "cvc-complex-type.2.3":
        return f"Element '{ename}' cannot have character [children], because the type's content type is element-only."
    if code == "cvc-complex-type.2.1":
        return (
            f"Element '{ename}' must have no character or element information item [children], because the type's "
            "content type is empty."
        )
    if code == "cvc-type.3.1.2":
        return f"Element '{ename}' is a simple type, so it must have no element information item [children]."
    if code == "cvc-elt.1.a":
        return f"Cannot find the declaration of element '{ename}'."
    if code == "cvc-attribute.4":
        return "The value of attribute '{}' on element '{}' does not match its fixed value constraint: {}".format(
            attr or "?",
            ename,
            detail,
        )
    return "Element '{}'{}: {}".format(ename, f", attribute '{attr}'" if attr else "", detail)
