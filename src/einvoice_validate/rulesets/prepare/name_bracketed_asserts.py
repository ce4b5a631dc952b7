"""Preparation step ``name-bracketed-asserts``: an id for an id-less assertion whose text starts with it in brackets.

``name-bracketed-asserts`` (v1, issue 22) gives an id-less assertion whose text starts with its rule id in brackets
that id (:func:`bracketed_id`): SI-UBL 2.0.3.13's ``[BII2-T10-R001]``, ``[SI-V20-INV-R000]``, ``[SI-INV-R000]`` and
FNFE's EXTENDED-CTC-FR-CII ``[BR-CO-27]-Either the IBAN…`` (no flag either) and ``[BR-FXEXT-04]-To ensure…``
(issue 31), where the ``.sch`` forgot the ``id``: the label is the id the pack itself means (FNFE's ``.sch`` has
the same rule, disabled, with ``id="BR-CO-27"``; its BR-FXEXT-04 is Factur-X's, word for word). The reference
reports them with no id; a finding here never has an empty one. The flag stays as the pack gives it (none: an
error). Any other assertion without an id still fails the preparation (``isolate-rule-errors`` needs each
assertion's id). :func:`assigned_id` says which id a finding of a given assertion has after the preparation.
"""

from __future__ import annotations

import re

from lxml import etree

from ._xslt import _KEPT, _SVRL, _static_xsl_attribute

_BRACKETED_ID = re.compile(r"^\s*\[([A-Za-z][A-Za-z0-9_.-]*)\]")


def bracketed_id(text: str) -> str | None:
    """The rule id an assertion writes at the start of its text (``[SI-V20-INV-R000]-This XML instance ...``)."""
    found = _BRACKETED_ID.match(text)
    return found.group(1) if found else None


def _name_bracketed_asserts(root: etree._Element) -> None:
    """Step ``name-bracketed-asserts`` (v1, issue 22): an ``id`` for each id-less assertion whose text starts with
    its rule id in brackets. SI-UBL 2.0.3.13's four "SI-UBL-VERSION" assertions ([BII2-T10-R001] "An invoice MUST
    have a customization identifier", twice; [SI-V20-INV-R000]; [SI-INV-R000]) carry no ``id`` attribute: the
    reference reports them with no id, the message catalogue and ``isolate-rule-errors`` need one. The label is
    the id the pack itself gives the rule; the text (label included) and the location stay. FNFE's
    EXTENDED-CTC-FR-CII has two more ([BR-CO-27], [BR-FXEXT-04]; issue 31)."""
    for kept in root.iter(*_KEPT):
        if kept.get("id") is not None or _static_xsl_attribute(kept, "id") is not None:
            continue
        text_el = kept.find(f"{{{_SVRL}}}text")
        found = bracketed_id("".join(str(t) for t in text_el.itertext())) if text_el is not None else None
        if found is not None:
            kept.set("id", found)
