"""The readers of a rule pack's result, by the name its manifest gives (``Manifest.output``): each a function from
the stylesheet's output to neutral events (:class:`~.svrl.SvrlEvent`), raising :class:`~.svrl.SvrlError` when the
output cannot be read (never "no findings").

The reader belongs to the pack, not to the syntax (docs/design/syntax-is-data.md): a pack writing SVRL (every pack
today, the default) needs none of its own; a pack writing another report format (OIOUBL's stylesheets write
``<Error>`` elements whose text carries the rule id) gets a reader here, registered under the name its manifest
gives.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..errors import RulesetError
from .svrl import SvrlError, SvrlEvent, output_root, parse_svrl

__all__ = ["READERS", "Reader", "parse_oioubl_errors", "reader"]

Reader = Callable[[str], list[SvrlEvent]]

# OIOUBL's element names are its only severities (every rule of 1.17.2 writes <Error>, also the W-* ones).
_OIOUBL_FLAGS = {"Error": "error", "Warning": "warning"}
_OIOUBL_ID = re.compile(r"^\[([^\[\]\s]+)\]")  # the label every description of 1.17.2 starts with
# A step of OIOUBL's Xpath: name() of the element (the document's own prefix, or none) and its position among the
# siblings of that name.
_OIOUBL_STEP = re.compile(r"^(?:(?P<prefix>[\w.-]+):)?(?P<local>[\w.-]+)\[(?P<n>\d+)\]$")


def _normalise(text: str) -> str:
    return " ".join(text.split())


def _oioubl_location(xpath: str) -> str | None:
    """OIOUBL's ``<Xpath>`` (``/Invoice[1]/cac:AccountingSupplierParty[1]/...``: each element's ``name()``, so the
    document's own prefixes) as a location :class:`~einvoice_validate.locations.Locator` reads: an unprefixed step is
    in the document's default namespace, which the path does not say, so it is written ``*:name`` (any namespace;
    the root is matched by its local name in any case). Not a path of that form: None (no location, never a guess)."""
    steps = "".join(xpath.split()).split("/")
    if len(steps) < 2 or steps[0] != "":
        return None
    out = []
    for step in steps[1:]:
        m = _OIOUBL_STEP.match(step)
        if m is None:
            return None
        out.append(f"{m['prefix'] or '*'}:{m['local']}[{m['n']}]")
    return "/" + "/".join(out)


def parse_oioubl_errors(output: str) -> list[SvrlEvent]:
    """OIOUBL's report (``output = "oioubl-errors"``): ``<Schematron><Information>…</Information><Error
    context="…"><Pattern>test</Pattern><Description>[F-LIB403] text</Description><Xpath>/Invoice[1]/…</Xpath>
    </Error>…</Schematron>``. Each ``Error`` is a finding: its rule id the ``[…]`` label its description starts with,
    its severity the element's name, its place the ``Xpath``, its text the description (the catalogue takes the
    label off). The engines' ``runtime-error`` is one ``runtime-error`` event; anything else is a
    :class:`~.svrl.SvrlError`."""
    root = output_root(output)
    if isinstance(root, SvrlEvent):
        return [root]
    if root.tag != "Schematron":
        raise SvrlError(f"the stylesheet output has the root {root.tag}, not OIOUBL's Schematron report")
    events = []
    for element in root:
        if not isinstance(element.tag, str) or element.tag == "Information":
            continue
        flag = _OIOUBL_FLAGS.get(element.tag)
        if flag is None:
            raise SvrlError(f"the OIOUBL report has an element {element.tag} (known: Information, Error, Warning)")
        description = _normalise(element.findtext("Description") or "")
        found = _OIOUBL_ID.match(description)
        xpath = element.findtext("Xpath")
        events.append(
            SvrlEvent(
                kind="failed-assert",
                id=found.group(1) if found else None,
                flag=flag,
                location=_oioubl_location(xpath) if xpath else None,
                text=description,
            )
        )
    return events


READERS: dict[str, Reader] = {"svrl": parse_svrl, "oioubl-errors": parse_oioubl_errors}
"""Every reader by name."""


def reader(name: str, pack: str) -> Reader:
    """The reader called ``name`` (a pack's ``output``); an unknown one is ``ruleset.invalid``, naming ``pack``."""
    found = READERS.get(name)
    if found is None:
        raise RulesetError(
            "ruleset.invalid", f"pack {pack}: no reader of rule output called {name!r}; known: {', '.join(READERS)}"
        )
    return found
