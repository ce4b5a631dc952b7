"""The assertions of a stylesheet, official or prepared, read independently of the preparation's own code.

An assertion is an ``svrl:failed-assert`` / ``svrl:successful-report`` element, or, in a prepared copy, the call
that step ``compact-assertions`` puts in its place (``<xsl:sequence select="ev:svrl-N(., 'ID', …)"/>``: the rule id
is the first string argument). The element the compact functions build is not an assertion of its own.
"""

from __future__ import annotations

import re

from lxml import etree

XSL = "http://www.w3.org/1999/XSL/Transform"
SVRL = "http://purl.oclc.org/dsdl/svrl"
KEPT = (f"{{{SVRL}}}failed-assert", f"{{{SVRL}}}successful-report")
_CALL = re.compile(r"ev:svrl-[0-9]+\(\., '((?:[^']|'')*)'")


def _in_compact_function(element: etree._Element) -> bool:
    return any(
        a.tag == f"{{{XSL}}}function" and (a.get("name") or "").startswith("ev:svrl-") for a in element.iterancestors()
    )


def assertion_ids(root: etree._Element, *, copies: bool = True) -> list[str | None]:
    """The rule id of every assertion under ``root`` (None where an element has none), in document order;
    ``copies=False`` leaves out the copies in an ``xsl:catch`` (step ``isolate-rule-errors``' fallback)."""
    ids: list[str | None] = []
    for element in root.iter(*KEPT, f"{{{XSL}}}sequence"):
        if not copies and any(a.tag == f"{{{XSL}}}catch" for a in element.iterancestors()):
            continue
        if element.tag == f"{{{XSL}}}sequence":
            found = _CALL.match(element.get("select") or "")
            if found is not None:
                ids.append(found.group(1).replace("''", "'"))
        elif not _in_compact_function(element):
            attribute = element.find(f"{{{XSL}}}attribute[@name='id']")
            ids.append(element.get("id") or ("".join(attribute.itertext()).strip() if attribute is not None else None))
    return ids


def count_assertions(root: etree._Element) -> int:
    return len(assertion_ids(root))
