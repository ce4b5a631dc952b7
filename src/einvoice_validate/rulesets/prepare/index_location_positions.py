"""Preparation step ``index-location-positions``: a finding's location counts its element's same-named siblings once.

Each finding's location (``/Invoice[1]/cac:InvoiceLine[1999]/…``) gives every step its position among the element's
same-named siblings. The ISO skeleton counts them for each finding
(``count(preceding-sibling::*[local-name()=local-name(current()) and namespace-uri() = namespace-uri(current())])``),
SchXslt likewise (``<xsl:number level="single"/>`` for each step): a warning on every line of 2,000 lines counts two
million siblings (Factur-X's empty ``ram:BuyerAssignedID`` on 1,000 lines: 3.4 s of a 3.7 s run, issue 41).

``index-location-positions`` (v1, issue 41) adds one global variable, a map from each child of a crowded element
(more than :data:`CROWDED` element children: the lines' parent) of the validated document (``generate-id()``) to its
position among the children of its parent with its expanded name (a group by parent, local name and namespace:
``xsl:for-each-group`` keeps document order), built once, when the first location is computed (Saxon evaluates a
global variable when first read: a document without findings never builds it), and reads the position there. An
element the map does not hold (in a small family of siblings, or of another tree) is counted as before. The same
positions, hence byte for byte the same locations. Factur-X EN 16931, a warning on each of 10,000 lines, Saxon-HE
Java warm: 9.7 s, of which 6.7 s locations (3.0 s with constant locations); with the map of every element 5.4 s
(its half-million entries cost the collector); with the crowded ones only, see the step's commit.

v2 (issue 41): the map is read only for an element whose parent is crowded (``exists(../*[CROWDED + 1])``, which
counts at most that many children), so a document whose findings all lie outside crowded families never builds it,
and an element is crowded above 64 element children, not 16: the root element of a typical invoice has 20-40
children, so before, the first finding of every pack built the map of the whole document (the root's children among
it). Warm, Saxon-HE for Java, the 33 UBL business cases (most with an XRechnung information finding, few with a CEN
one), ``KnockOut.java`` (v2 against v1, 9 rounds, two runs each): XRechnung UBL 2.6.0 0.87 and 0.80 of the time, CEN
UBL 0.96 and 0.98. Counting up to 64 same-named siblings for a step costs less than building the map for one
finding; a document with more lines than that builds it as before. Proof: ``benchmarks/prepare_proof.py --steps
index-location-positions --engine saxon-java``: every pack it changes (64, up to 713 documents each, large invoices
among them), 0 differ.
"""

from __future__ import annotations

from lxml import etree

from ._xslt import _x

__all__ = ["POSITIONS"]

POSITIONS = "einvoice-validate.positions"
"""The global map variable (in no namespace: a prefix would be copied into the output)."""
_ISO_COUNT = (
    "count(preceding-sibling::*[local-name()=local-name(current()) and namespace-uri() = namespace-uri(current())])"
)
_LOOKUP = f"${POSITIONS}(generate-id())"
CROWDED = 64
"""The map holds the children of elements with more than this many element children (invoice lines, among them):
counting at most this many siblings costs less than a map entry for every element of the document, and less than
building the map for a document whose findings lie outside such families (v2; v1: 16)."""
_CROWDED_PARENT = f"exists(../*[{CROWDED + 1}])"


def _map(root: etree._Element) -> None:
    variable = etree.SubElement(root, _x("variable"))
    variable.set("name", POSITIONS)
    variable.set("as", "map(*)")
    variable.tail = "\n"
    built = etree.SubElement(variable, _x("map"))
    group = etree.SubElement(built, _x("for-each-group"))
    group.set("select", f"//*[*[{CROWDED + 1}]]/*")
    group.set("group-by", "concat(generate-id(..), ' ', local-name(), ' ', namespace-uri())")
    each = etree.SubElement(group, _x("for-each"))
    each.set("select", "current-group()")
    entry = etree.SubElement(each, _x("map-entry"))
    entry.set("key", "generate-id()")
    entry.set("select", "position()")


def _iso(root: etree._Element) -> int:
    """The ISO skeleton's count (the ``preceding`` variable of ``schematron-get-full-path``)."""
    found = 0
    for variable in root.iter(_x("variable")):
        select = variable.get("select")
        if select is None or "".join(select.split()) != "".join(_ISO_COUNT.split()):
            continue
        variable.set("select", f"if ({_CROWDED_PARENT} and exists({_LOOKUP})) then {_LOOKUP} - 1 else {select}")
        found += 1
    return found


def _schxslt(root: etree._Element) -> int:
    """SchXslt's ``<xsl:variable name="position"><xsl:number level="single"/></xsl:variable>`` in its location
    function: for an element the map holds, its position from the map."""
    found = 0
    for number in list(root.iter(_x("number"))):
        variable = number.getparent()
        if (
            variable is None
            or variable.tag != _x("variable")
            or len(variable) != 1
            or {str(k): str(v) for k, v in number.attrib.items()} != {"level": "single"}
            or variable.get("select") is not None
            or variable.get("as") is not None
            or (variable.text or "").strip()
            or (number.tail or "").strip()
        ):
            continue
        choose = etree.SubElement(variable, _x("choose"))
        when = etree.SubElement(choose, _x("when"))
        when.set("test", f". instance of element() and {_CROWDED_PARENT} and exists({_LOOKUP})")
        value = etree.SubElement(when, _x("value-of"))
        value.set("select", _LOOKUP)
        otherwise = etree.SubElement(choose, _x("otherwise"))
        variable.remove(number)
        number.tail = None
        otherwise.append(number)
        found += 1
    return found


def _index_location_positions(root: etree._Element) -> None:
    """Step ``index-location-positions`` (see the module docstring)."""
    if any(v.get("name") == POSITIONS for v in root.iter(_x("variable"))):
        return
    if _iso(root) + _schxslt(root):
        _map(root)
