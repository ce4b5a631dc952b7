"""The reproducers of issue 40, each timed through a warm Validator, with the growth of the process's peak memory:
the issue's "done when" is a code within 2 s and under 300 MB each (the tests check the code and memory in a
bounded child: tests/input/test_bounded.py; the times are measured here, not asserted).

Usage: python benchmarks/hostile.py
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

from einvoice_validate import EInvoiceValidateError, Validator
from tests.hostile import (
    FRENCH_CII,
    GOOD_CII,
    GOOD_UBL,
    doctype_reproducers,
    empty_notes,
    postcode_flood,
    predictor_bombs,
    undeclared_attributes,
)


def _cases(folder: Path) -> dict[str, bytes]:
    (folder / "passwd").write_text("root:x:0:0\n", encoding="ascii")
    named = doctype_reproducers({"file": str(folder / "passwd"), "missing": str(folder / "missing")})
    bombs = predictor_bombs()
    return {
        "1 utf-32 DOCTYPE /etc/passwd-like": named["utf-32-be.system-file.xml"],
        "1 utf-16be no BOM DOCTYPE": named["utf-16-be.system-file.xml"],
        "1 same, as a Factur-X attachment": named["utf-32-be.system-file.pdf"],
        "3 DOCTYPE naming a missing file": named["utf-32-be.system-missing.xml"],
        "4 predictor bomb (TIFF, 10^9 columns)": bombs["tiff-columns-attachment"],
        "4 same on the XMP": bombs["tiff-columns-xmp"],
        "5 predictor bomb (PNG, 2^28 columns)": bombs["png-columns-attachment"],
        "6 200,000 undeclared attributes": undeclared_attributes(200_000),
        "7 4,000 empty elements (UBL)": empty_notes(4_000),
        "7 10,000 empty elements (UBL)": empty_notes(10_000),
        "8 300,000 empty elements in a French postcode": postcode_flood(300_000),
    }


def main() -> int:
    validator = Validator(rules_date="2026-08-30")
    for warm in (GOOD_UBL, GOOD_CII, FRENCH_CII):
        validator.validate(warm)
    with tempfile.TemporaryDirectory() as tmp:
        cases = _cases(Path(tmp))
        for name, data in cases.items():
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            start = time.perf_counter()
            try:
                outcome = f"report, {len(validator.validate(data).findings)} findings"
            except EInvoiceValidateError as exc:
                outcome = f"{exc.code}/{exc.reason}"
            elapsed = time.perf_counter() - start
            growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024
            print(f"{name:48} {elapsed:7.2f} s  +{growth:4} MB peak  {outcome}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
