"""Preparation step ``exclude-result-namespaces``: the report carries the namespaces its names use, no others.

A literal result element copies every namespace in scope where it stands in the stylesheet: the root element of the
official stylesheets declares the prefixes their rules read (``cac``, ``cbc``, ``cn``, ``ubl``, ``xs``, ``sch``,
SchXslt's own, …: 13 to 16), so the SVRL root element and every element built on the way carries them all. Each
run writes them (Saxon's namespace reducer checks each one on each element, the serialiser writes about 800
bytes of declarations), they cross into Python, and the SVRL reader reads them again: on the nearly always empty
report of a pack the declarations are most of its text. SchXslt (XRechnung) builds its report in temporary trees
first, so each of its elements carries and copies them twice more.

``exclude-result-namespaces`` (v1, issue 41) sets ``exclude-result-prefixes="#all"`` on the stylesheet's root
element (a literal result element then gets only the namespaces its own name and attributes use, and those it
declares itself), and ``xsl:inherit-namespaces="no"`` on SchXslt's report containers (``schxslt:report``,
``schxslt:document``, ``schxslt:pattern``, ``schxslt:rule``), so the findings copied out of them do not take the
SchXslt namespace along. The report's elements, attributes and texts are the same; only unused namespace
declarations go (``benchmarks/prepare_proof.py --steps exclude-result-namespaces --infoset``: each node's name,
attributes, text and tail the same, in the same order). Nothing reads a namespace declaration of the report: the
SVRL reader reads names by namespace URI, and locations are resolved with the validated document's prefixes. The
prepared stylesheets read no namespace nodes of what they build (no ``namespace::``, ``in-scope-prefixes``,
``namespace-uri-for-prefix`` or ``resolve-QName``: checked, else the step leaves the stylesheet as it is).

Measured (issue 41; how a run's fixed cost splits: ``benchmarks/knockout.py``): warm Saxon-HE for Java, the
prepared copies with and without the step in one JVM (``benchmarks/FixedCost.java``, 31 rounds, the median of the
rounds' ratios), XRechnung UBL 0.79 on an empty invoice (7 findings), 0.91 on 01.01a; CEN UBL 0.91 on the empty
invoice, within the noise on 01.01a. The SVRL reader: 6.4 -> 1.4 µs on CEN's empty report, 25 -> 18 µs on
XRechnung's for 01.01a. Proof: ``benchmarks/prepare_proof.py --steps exclude-result-namespaces --infoset``, on both
engines: the 64 packs writing SVRL, 12 to 713 documents each, 0 differ.
"""

from __future__ import annotations

import re

from lxml import etree

from ._xslt import _SCHXSLT, _XSL

_CONTAINERS = tuple(f"{{{_SCHXSLT}}}{name}" for name in ("report", "document", "pattern", "rule"))
_READS_NAMESPACES = re.compile(
    r"namespace::|(?<![\w.:-])(?:in-scope-prefixes|namespace-uri-for-prefix|resolve-QName)\s*\("
)
_EXCLUDE = "exclude-result-prefixes"


def _reads_namespace_nodes(root: etree._Element) -> bool:
    """Whether an expression of the stylesheet may read the namespaces of a node (of what it builds, or any)."""
    return any(
        _READS_NAMESPACES.search(str(value))
        for element in root.iter()
        if isinstance(element.tag, str)
        for value in element.attrib.values()
    )


def _exclude_result_namespaces(root: etree._Element) -> None:
    """Step ``exclude-result-namespaces`` (see the module docstring)."""
    if _reads_namespace_nodes(root):
        return
    root.set(_EXCLUDE, "#all")  # an xsl:stylesheet's own attribute: no namespace
    for element in root.iter(*_CONTAINERS):
        element.set(f"{{{_XSL}}}inherit-namespaces", "no")
