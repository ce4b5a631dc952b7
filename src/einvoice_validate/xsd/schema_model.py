"""What the schema index (:mod:`.schema_index`) records: a simple type flattened to its nearest built-in and its
facets, a type definition as the mapping needs it, an element declaration."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["XSD_NS", "Decl", "SimpleT", "TypeInfo"]


XSD_NS = "http://www.w3.org/2001/XMLSchema"


@dataclass
class SimpleT:
    """A simple type flattened to: nearest built-in name + the facets of its derivation chain."""

    name: str  # display name (prefix-less local name or built-in name)
    builtin: str  # local name of the nearest XSD built-in ancestor, e.g. "decimal"
    variety: str = "atomic"  # atomic | list | union
    patterns: list[list[str]] = field(default_factory=list)  # one list per derivation step
    facets: dict[str, list[str]] = field(default_factory=dict)  # most derived wins (except enum)


@dataclass
class TypeInfo:
    """What the mapping needs to know about a type definition."""

    key: str
    name: str  # display name, e.g. "AmountType" or "#AnonType_IndicatorString"
    kind: str  # simple | complex-simple | element-only | mixed | empty
    named: bool
    simple: SimpleT | None = None
    children: dict[str, Decl] = field(default_factory=dict)
    wildcard: bool = False
    attrs: dict[str, str] = field(default_factory=dict)  # attribute local name -> simple type key


@dataclass(frozen=True)
class Decl:
    """An element declaration: its expanded name, type key and whether it is global."""

    clark: str
    type_key: str
    is_global: bool
