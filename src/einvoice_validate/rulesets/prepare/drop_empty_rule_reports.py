"""Preparation step ``drop-empty-rule-reports``: a SchXslt rule writes its report element only when it reports.

SchXslt (XRechnung's stylesheets) writes a ``schxslt:rule`` element into a temporary report for every rule that
fires on a node: an empty one where the pattern had already matched the node, one holding the failed assertions
otherwise, and at the end copies, pattern by pattern, the children of the ``schxslt:rule`` elements of that pattern
into the SVRL (``../schxslt:rule[@pattern = current()/@id]/node()``). An invoice of 300 elements fires hundreds of
rules and fails a handful, so most of those elements are empty, and the final regrouping looks at every one of them
once per pattern.

``drop-empty-rule-reports`` (v1, issue 21) removes the empty ``schxslt:rule`` literal elements and writes each other
one only when its content has something: ``<schxslt:rule pattern="P">BODY</schxslt:rule>`` becomes
``<xsl:variable name="einvoice-validate.rule-report" as="node()*">BODY</xsl:variable><xsl:if
test="exists($einvoice-validate.rule-report)"><schxslt:rule pattern="P"><xsl:sequence
select="$einvoice-validate.rule-report"/></schxslt:rule></xsl:if>`` (a name in no namespace, so that the
literal result elements in BODY keep exactly their in-scope namespaces, and one no variable of the stylesheet has).
The children of the rule elements, in the same order, are what they were, so the SVRL is the same, byte for byte.
It applies only where that regrouping is the only expression reading ``schxslt:rule`` elements, and leaves alone a
rule element holding literal content (it is never empty), declaring namespaces of its own, or inside an
``xsl:catch`` (a rule error's report). ``benchmarks/prepare_steps.py --engine saxon-java --thread``: XRechnung 2.6.0
UBL 12 %, CII 11 % faster, the control within 1 % (SaxonC 12 %, 19 %).
"""

from __future__ import annotations

from lxml import etree

from ._xslt import _SCHXSLT, _XSL, _drop, _x

_RULE = f"{{{_SCHXSLT}}}rule"
_REGROUPING = "../schxslt:rule[@pattern = current()/@id]/node()"
_VARIABLE = "einvoice-validate.rule-report"


def _only_the_regrouping_reads_rules(root: etree._Element) -> bool:
    """Every expression naming ``schxslt:rule`` is SchXslt's regrouping, the namespace has that prefix only, and no
    variable has the step's name."""
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag in (_x("variable"), _x("param")) and element.get("name") == _VARIABLE:
            return False
        if any(uri == _SCHXSLT and prefix != "schxslt" for prefix, uri in element.nsmap.items()):
            return False
        for value in element.attrib.values():
            if "schxslt:rule" in value and value.strip() != _REGROUPING:
                return False
    return True


def _drop_empty_rule_reports(root: etree._Element) -> None:
    """Step ``drop-empty-rule-reports``: a SchXslt rule writes its report element only when it reports."""
    rules = list(root.iter(_RULE))
    if not rules or not _only_the_regrouping_reads_rules(root):
        return
    for rule in rules:
        parent = rule.getparent()
        if parent is None or parent.tag not in (_x("when"), _x("otherwise"), _x("try")):
            continue  # not the shape SchXslt writes in a rule template
        if any(a.tag == _x("catch") for a in rule.iterancestors()) or rule.nsmap != parent.nsmap:
            continue
        children = [c for c in rule if isinstance(c.tag, str)]
        if (rule.text or "").strip() or any((c.tail or "").strip() for c in rule):
            continue  # literal text: always written
        if not children and not any(True for _ in rule):
            _drop(rule)
            continue
        if any(etree.QName(c).namespace != _XSL for c in children) or len(children) != len(rule):
            continue  # a literal result element (always written), or a comment or PI among the children
        variable = etree.Element(_x("variable"), {"name": _VARIABLE, "as": "node()*"})
        variable.text = rule.text
        for child in children:
            variable.append(child)
        written = etree.Element(_x("if"), {"test": f"exists(${_VARIABLE})"})
        element = etree.SubElement(written, _RULE, {str(k): str(v) for k, v in rule.attrib.items()})
        etree.SubElement(element, _x("sequence"), select=f"${_VARIABLE}")
        index = parent.index(rule)
        written.tail = rule.tail
        parent.remove(rule)
        parent.insert(index, variable)
        parent.insert(index + 1, written)
