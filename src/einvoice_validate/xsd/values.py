"""Simple value checking in Xerces' order (patterns, datatype, length facets, enumeration), used where libxml2
does not report what Xerces does (the text kept after element children, siblings skipped after a content error)."""

from __future__ import annotations

import functools
import re

from lxml import etree

from ..errors import Detail, RulesetError
from .schema_model import XSD_NS, SimpleT

__all__ = ["LANGUAGE_PATTERN", "check_value", "collapse"]

_STRINGISH = {"string", "normalizedString", "anySimpleType"}
LANGUAGE_PATTERN = "([a-zA-Z]{1,8})(-[a-zA-Z0-9]{1,8})*"


@functools.lru_cache(maxsize=64)
def _builtin_schema(builtin: str) -> etree.XMLSchema:
    doc = etree.fromstring(f'<xs:schema xmlns:xs="{XSD_NS}"><xs:element name="v" type="xs:{builtin}"/></xs:schema>')
    return etree.XMLSchema(doc)


@functools.lru_cache(maxsize=256)
def _pattern_schema(patterns: tuple[str, ...]) -> etree.XMLSchema:
    """One derivation step's pattern facets (a value must match one of them) on an element ``v``: libxml2 judges a
    value by XSD's own regular expressions (``\\p{L}``, ``\\i``, a literal ``$``), as it does in the document."""
    xs = f"{{{XSD_NS}}}"
    schema = etree.Element(xs + "schema", nsmap={"xs": XSD_NS})
    simple = etree.SubElement(etree.SubElement(schema, xs + "element", name="v"), xs + "simpleType")
    restriction = etree.SubElement(simple, xs + "restriction", base="xs:string")
    for pattern in patterns:
        etree.SubElement(restriction, xs + "pattern", value=pattern)
    return etree.XMLSchema(schema)


def _accepts(schema: etree.XMLSchema, value: str) -> bool:
    probe = etree.Element("v")
    probe.text = value
    return schema.validate(probe)


def collapse(value: str) -> str:
    return " ".join(value.split())


def check_value(st: SimpleT, raw: str) -> tuple[str, str] | None:
    """Xerces' first failing check for ``raw`` against ``st`` as (code, message), else None."""
    value = (
        raw
        if st.builtin == "string"
        else (re.sub(r"[\t\n\r]", " ", raw) if st.builtin == "normalizedString" else collapse(raw))
    )
    for step in st.patterns:
        try:
            schema = _pattern_schema(tuple(step))
        except etree.XMLSchemaParseError as exc:  # the schema loaded, so its model misread the pattern: never "valid"
            raise RulesetError("ruleset.invalid", Detail("detail.xsd-pattern", "|".join(step), st.name, exc)) from None
        if not _accepts(schema, value):
            return (
                "cvc-pattern-valid",
                "Value '{}' is not facet-valid with respect to pattern '{}' for type '{}'.".format(
                    value, "|".join(step), st.name
                ),
            )
    if st.variety == "atomic" and st.builtin not in _STRINGISH | {"token"}:
        try:
            if not _accepts(_builtin_schema(st.builtin), value):
                if st.builtin == "language":
                    return (
                        "cvc-pattern-valid",
                        f"Value '{value}' is not facet-valid with respect to pattern '{LANGUAGE_PATTERN}' "
                        "for type 'language'.",
                    )
                return (
                    "cvc-datatype-valid.1.2.1",
                    f"'{value}' is not a valid value for '{st.builtin}'.",
                )
        except etree.XMLSchemaParseError:
            pass
    length = len(value)
    f = st.facets
    if "maxLength" in f and length > int(f["maxLength"][0]):
        return (
            "cvc-maxLength-valid",
            f"Value '{value}' with length = '{length}' is not facet-valid with respect to maxLength "
            f"'{f['maxLength'][0]}' for type '{st.name}'.",
        )
    if "minLength" in f and length < int(f["minLength"][0]):
        return (
            "cvc-minLength-valid",
            f"Value '{value}' with length = '{length}' is not facet-valid with respect to minLength "
            f"'{f['minLength'][0]}' for type '{st.name}'.",
        )
    if "length" in f and length != int(f["length"][0]):
        return (
            "cvc-length-valid",
            f"Value '{value}' with length = '{length}' is not facet-valid with respect to length "
            f"'{f['length'][0]}' for type '{st.name}'.",
        )
    if "enumeration" in f and value not in f["enumeration"]:
        return (
            "cvc-enumeration-valid",
            "Value '{}' is not facet-valid with respect to enumeration '[{}]'. "
            "It must be a value from the enumeration.".format(value, ", ".join(f["enumeration"])),
        )
    return None
