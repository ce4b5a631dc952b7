"""Preparation step ``compact-assertions``: each assertion's SVRL element built by one shared function.

``compact-assertions`` (v1, issue 21) replaces the literal ``svrl:failed-assert`` / ``svrl:successful-report``
element of an assertion by a call, ``<xsl:sequence select="ev:svrl-1(., 'BR-CO-15', 'fatal', '[BR-CO-15]-…')"/>``,
of a function that builds the same element: the same name, the same ``id``, ``flag`` and ``role`` values, the same
``location`` (computed by the same instruction, on the same node) and the same ``svrl:text``. One function per
shape (element, attributes present, how the location is computed) is added to the stylesheet. Saxon then compiles
one constant-argument call per assertion instead of an element constructor with three attribute instructions, a
template call and a text node. ``benchmarks/compile_time.py`` (fresh processes, medians, 2-core machine): CEN UBL
0.375 → 0.260 s and CEN CII 0.266 → 0.153 s on SaxonC, 1.02 → 0.76 s and 0.91 → 0.64 s on Saxon-HE Java; compiling
CEN is most of what a fresh process running one invoice waits for. Running is unchanged (the functions run only
for an assertion that fails; ``benchmarks/prepare_steps.py``: within the runs' noise).

An assertion is compacted only in the shapes the generators write (anything else stays as it is):

* ISO skeleton (CEN, CIUS-RO, Peppol, the national and French packs, Factur-X): ``id``, ``flag`` and ``role``
  as literal attributes or as ``xsl:attribute`` with constant content, the location as
  ``<xsl:attribute name="location"><xsl:apply-templates select="." mode="M"/></xsl:attribute>``;
* SchXslt (XRechnung): ``id`` and ``flag`` literal, ``location="{F(.)}"`` (one function call on the context node);

and in both a ``svrl:text`` holding literal text only (a text with ``xsl:value-of`` stays as it is). The literal
``test`` attribute (or ``xsl:attribute name="test"`` with constant content), a copy of the assertion's test that no
finding reads (:mod:`einvoice_validate.schematron.svrl`), is not written. Runs last: every step before it reads the
assertions' elements. The assertions are counted with their calls (``_count_assertions``).
"""

from __future__ import annotations

import re

from lxml import etree

from ._xslt import _COMPACT_PREFIX, _EV, _KEPT, _SVRL, _XSL, _x

_KEYS = ("id", "flag", "role")
"""The SVRL attributes a compacted assertion carries, in this order (each if present)."""
_DROPPED = "test"
_LOCATION_AVT = re.compile(r"\{\s*([A-Za-z_][\w.-]*:[A-Za-z_][\w.-]*|[A-Za-z_][\w.-]*)\s*\(\s*\.\s*\)\s*\}")
_XS = "http://www.w3.org/2001/XMLSchema"
_CALL = re.compile(re.escape(_COMPACT_PREFIX) + r"[0-9]+\(\.(?:, '(?:[^']|'')*')+\)")


def is_compact_call(select: str) -> bool:
    """``select`` is exactly a call this step writes: string literals only, so it reads nothing whatever they say
    (``resource_reads`` would otherwise see "document (BG-24)" in a rule's text as a call)."""
    return _CALL.fullmatch(select) is not None


def _constant(element: etree._Element) -> str | None:
    """The value of an ``xsl:attribute`` with constant content (its text as written, a text of white space only being
    none: XSLT strips such text nodes from a stylesheet), else None."""
    if len(element) or element.get("select") is not None or set(element.attrib) != {"name"}:
        return None
    text = element.text or ""
    return text if text.strip() else ""


def _literal(value: str) -> str:
    """``value`` as an XPath string literal."""
    return "'" + value.replace("'", "''") + "'"


def _shape(kept: etree._Element) -> tuple[tuple[str, tuple[str, ...], str, str], dict[str, str], str] | None:
    """``((element, attribute names, location kind, location operand), attribute values, text)`` of an assertion
    in a shape this step compacts, else None."""
    values: dict[str, str] = {}
    location: tuple[str, str] | None = None
    for name, value in kept.attrib.items():
        name = str(name)
        if name == _DROPPED:
            continue
        if name == "location":
            found = _LOCATION_AVT.fullmatch(str(value))
            if found is None:
                return None
            location = ("function", found.group(1))
        elif name in _KEYS and "{" not in value and "}" not in value:
            values[name] = str(value)
        else:
            return None
    text: str | None = None
    for child in kept:
        if (child.tail or "").strip():
            return None
        if not isinstance(child.tag, str):
            continue  # a comment in the stylesheet writes nothing
        if child.tag == _x("attribute") and child.get("name") == "location" and location is None:
            apply = [c for c in child if isinstance(c.tag, str)]
            if (
                len(apply) != 1
                or apply[0].tag != _x("apply-templates")
                or set(apply[0].attrib) != {"select", "mode"}
                or apply[0].get("select") != "."
                or len(apply[0])
                or (child.text or "").strip()
                or (apply[0].tail or "").strip()
                or set(child.attrib) != {"name"}
            ):
                return None
            location = ("mode", apply[0].get("mode") or "")
        elif child.tag == _x("attribute"):
            name, constant = child.get("name") or "", _constant(child)
            if constant is None or name in values or (name not in _KEYS and name != _DROPPED):
                return None
            if name != _DROPPED:
                values[name] = constant
        elif child.tag == f"{{{_SVRL}}}text" and text is None and not len(child) and not child.attrib:
            text = child.text or ""
        else:
            return None
    if location is None or text is None or (kept.text or "").strip() or "id" not in values:
        return None
    prefix = location[1].partition(":")[0] if ":" in location[1] else None
    root = kept.getroottree().getroot()
    if prefix is not None and kept.nsmap.get(prefix) != root.nsmap.get(prefix):
        return None  # the function, at the top level, would read the operand's prefix otherwise
    names = tuple(k for k in _KEYS if k in values)
    return (etree.QName(kept).localname, names, *location), values, text


def _function(name: str, shape: tuple[str, tuple[str, ...], str, str]) -> etree._Element:
    """The function building an assertion's element of ``shape`` (see :func:`_shape`)."""
    element, names, kind, operand = shape
    function = etree.Element(_x("function"), nsmap={"xsl": _XSL, "ev": _EV, "svrl": _SVRL, "xs": _XS})
    function.attrib.update({"name": name, "as": "element()", "exclude-result-prefixes": "#all"})
    for param in ("node", *names, "text"):
        etree.SubElement(function, _x("param")).attrib.update(
            {"name": param, "as": "node()" if param == "node" else "xs:string"}
        )
    out = etree.SubElement(function, f"{{{_SVRL}}}{element}")
    for key in names:
        etree.SubElement(out, _x("attribute"), name=key, select=f"${key}")
    if kind == "mode":
        location = etree.SubElement(out, _x("attribute"), name="location")
        etree.SubElement(location, _x("apply-templates"), select="$node", mode=operand)
    else:
        etree.SubElement(out, _x("attribute"), name="location", select=f"{operand}($node)")
    text = etree.SubElement(out, f"{{{_SVRL}}}text")
    etree.SubElement(text, _x("value-of"), select="$text")
    return function


def _compact_assertions(root: etree._Element) -> None:
    """Step ``compact-assertions``: see the module docstring."""
    functions: dict[tuple[str, tuple[str, ...], str, str], str] = {}
    for kept in list(root.iter(*_KEPT)):
        found = _shape(kept)
        if found is None:
            continue
        shape, values, text = found
        name = functions.get(shape)
        if name is None:
            name = functions[shape] = f"{_COMPACT_PREFIX}{len(functions) + 1}"
        arguments = [".", *(_literal(values[k]) for k in shape[1]), _literal(text)]
        call = etree.Element(_x("sequence"), nsmap={"ev": _EV}, select=f"{name}({', '.join(arguments)})")
        call.tail = kept.tail
        parent = kept.getparent()
        assert parent is not None  # an assertion is never the stylesheet's root
        parent.replace(kept, call)
    for shape, name in functions.items():
        root.append(_function(name, shape))
