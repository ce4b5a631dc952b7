"""Preparation step ``index-attribute-names``: the document's attributes walked once, not once per attribute name.

CEN's UBL syntax rules (UBL-DT-*, on the root element, in every pack built on them: CEN, Peppol, PINT, CIUS-RO,
CIUS-PT, UBL.BE, SI-UBL, FNFE's UBL packs) test the whole document for each attribute that shall not be used:
``not(//@schemeName)``, ``not(//@listAgencyName)``, ... (21 names). ``hoist-document-constants`` already makes each a
global variable, evaluated once per document; each is still its own walk over every node and its attributes.

``index-attribute-names`` (v1, issue 41) adds one global variable holding the names of the document's attributes in
no namespace, ``distinct-values(//@*[namespace-uri() = '']/local-name())`` (one walk), and rewrites each global
variable whose whole expression is ``not(//@N)``, ``empty(//@N)``, ``exists(//@N)`` or ``boolean(//@N)``, with ``N``
an unprefixed name (an attribute test's unprefixed name is in no namespace, whatever the default namespaces), into a
lookup: ``not($names = 'N')``. Only global variables: their context item is the validated document, as that of the
variable added, so ``//`` starts from the same root in both; the step needs at least :data:`MIN_NAMES` of them
(one walk for one name saves nothing). The value is the same on every document; the one difference is where an error
would be raised (``//`` without a context item or outside a document: XPDY0002 or XPDY0050), in the added
variable instead of the rewritten one, with the same code; the engines always set the document as the global
context item. Measured on CEN UBL 1.3.16, the 33 UBL business cases, warm Saxon-HE for Java: the pack without the
step takes 9.0 % longer (``benchmarks/prepare_steps.py --engine saxon-java --wall --warmup 20 --passes 40 --packs
en16931-ubl@1.3.16 --variants "all again,all - index-attribute-names"``; "all again" -0.4 %); with the step the
stylesheet alone took 0.86-0.95 of its time in three runs of ``KnockOut.java`` (15 rounds each, 0.06-0.09 ms per
document). Proof, finding for finding: ``benchmarks/prepare_proof.py --steps index-attribute-names --engine
saxon-java``: the 10 packs it changes, 713 documents each, 0 differ.
"""

from __future__ import annotations

import re

from lxml import etree

from ._constants import fresh_name
from ._xslt import _x

NAMES_PREFIX = "einvoice-validate.attribute-names-"
"""The name of the variable this step adds (in no namespace: a prefix would be copied into the output)."""
MIN_NAMES = 2
_TEST = re.compile(r"^\s*(not|empty|exists|boolean)\s*\(\s*//\s*@\s*([A-Za-z_][\w.-]*)\s*\)\s*$")


def _index_attribute_names(root: etree._Element) -> None:
    """Step ``index-attribute-names`` (see the module docstring)."""
    found = []
    for variable in root.iterchildren(_x("variable")):
        match = _TEST.match(variable.get("select") or "")
        if match and not len(variable):
            found.append((variable, match.group(1), match.group(2)))
    if len(found) < MIN_NAMES:
        return
    taken = {str(v.get("name")) for v in root.iter(_x("variable"), _x("param"))}
    name = fresh_name(NAMES_PREFIX, taken, 1)
    names = root.makeelement(_x("variable"))
    names.set("name", name)
    names.set("select", "distinct-values(//@*[namespace-uri() = '']/local-name())")
    names.tail = "\n"
    root.insert(root.index(found[0][0]), names)
    for variable, function, attribute in found:
        lookup = f"${name} = '{attribute}'"
        variable.set("select", f"not({lookup})" if function in ("not", "empty") else f"({lookup})")
