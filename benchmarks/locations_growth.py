"""How the cost of locating a finding grows with the number of same-named siblings (issue 40, item 7).

One UBL invoice with N empty ``cbc:Note`` elements (PEPPOL-EN16931-R008 reports each), every one located in the
ISO skeleton's spelling (``/*:Invoice[namespace-uri()='…'][1]/*:Note[namespace-uri()='…'][k]``) and once more by
:func:`readable_path` with one sibling index: the time per finding should stay the same from 1,000 to 10,000
(it grew linearly, the total quadratically, when every finding listed its siblings anew: 10,000 took 153 s).
The Schematron run itself is not measured here (the pack's own location template counts preceding siblings).

Usage: python benchmarks/locations_growth.py [N ...]   (default: 1000 10000)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from lxml import etree

from einvoice_validate.locations import Locator, SiblingIndex, parse_location, readable_path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "xrechnung-ubl-invoice.xml"
UBL = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"


def _document(count: int) -> etree._Element:
    text = EXAMPLE.read_text(encoding="utf-8")
    return etree.fromstring(text.replace("<cbc:Note>", "<cbc:Note/>" * count + "<cbc:Note>", 1).encode())


def _per_finding(count: int) -> tuple[float, float]:
    root = _document(count)
    locations = [
        f"/*:Invoice[namespace-uri()='{UBL}'][1]/*:Note[namespace-uri()='{CBC}'][{k}]" for k in range(1, count + 1)
    ]
    parse_location.cache_clear()
    locator = Locator(root)
    start = time.perf_counter()
    for location in locations:
        locator.place(location)
    located = (time.perf_counter() - start) / count
    notes = list(root.iterchildren(f"{{{CBC}}}Note"))[:count]
    siblings = SiblingIndex()
    start = time.perf_counter()
    for note in notes:
        readable_path(note, siblings=siblings)
    return located, (time.perf_counter() - start) / count


def main() -> int:
    counts = [int(a) for a in sys.argv[1:]] or [1000, 10000]
    first: tuple[float, float] | None = None
    for count in counts:
        located, paths = _per_finding(count)
        first = first or (located, paths)
        print(
            f"{count:>7} siblings: Locator.place {located * 1e6:7.1f} us/finding (x{located / first[0]:.2f}), "
            f"readable_path {paths * 1e6:6.1f} us/element (x{paths / first[1]:.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
