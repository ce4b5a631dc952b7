"""Preparation step ``name-not-used-reports``: an id for the Factur-X packs' id-less "not used" reports.

``name-not-used-reports`` (v1, issue 14) gives the Factur-X stylesheets' id-less reports ("Element 'ram:X' is
marked as not used in the given context.", "Attribute @schemeID' marked as not used in the given context.": 11 to
521 per profile) the id :data:`NOT_USED_ID`, set at install time in the prepared copy, so every finding has an id
the catalogue and the profile's severity overrides can name; the text (which element) and the location stay.
"""

from __future__ import annotations

import re

from lxml import etree

from ._xslt import _SVRL, _static_xsl_attribute

NOT_USED_ID = "facturx.not-used"
"""The id the preparation gives the Factur-X packs' id-less "not used in the given context" reports (project-own,
lower case and dotted like the project's other ids, so it is never mistaken for an official one)."""
_NOT_USED_TEXT = re.compile(
    r"^(Element( variant)? '[^']+' is|Attribute @[\w:.-]+'?) marked as not used in the given context\.$"
)


def not_used_id(rule_id: str | None, text: str) -> str | None:
    """The rule id of an assertion with official id ``rule_id`` and (whitespace-normalised) text ``text``: its own,
    or :data:`NOT_USED_ID` for an id-less "not used in the given context" report, else None."""
    if rule_id:
        return rule_id
    return NOT_USED_ID if _NOT_USED_TEXT.match(text) else None


def _name_not_used_reports(root: etree._Element) -> None:
    """Step ``name-not-used-reports``: an ``id`` for each id-less "not used in the given context" report."""
    for kept in root.iter(f"{{{_SVRL}}}successful-report"):
        if kept.get("id") is not None or _static_xsl_attribute(kept, "id") is not None:
            continue
        text_el = kept.find(f"{{{_SVRL}}}text")
        text = " ".join("".join(str(t) for t in text_el.itertext()).split()) if text_el is not None else ""
        if not_used_id(None, text) is not None:
            kept.set("id", NOT_USED_ID)
