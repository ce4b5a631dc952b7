"""The cost of locating findings (einvoice_validate.locations) on the hot path: every finding of a folder of
invalid documents resolved on its parsed document, cold (step parser cache empty) and warm.

Usage: python benchmarks/locations.py [DIR]   (default: ../shared/corpus/mutations-dev)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from einvoice_validate import EInvoiceValidateError, Validator
from einvoice_validate.locations import Locator, parse_location
from einvoice_validate.parse import Document, load

SHARED = Path(os.environ.get("EINVOICE_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else SHARED / "corpus/mutations-dev"
    validator = Validator()
    items: list[tuple[Document, list[str | None]]] = []
    for path in sorted(folder.glob("*.xml")):
        data = path.read_bytes()
        try:
            report = validator.validate(data)
        except EInvoiceValidateError:
            continue
        items.append((load(data), [f.pack_location for f in report.findings]))
    count = sum(len(locations) for _, locations in items)
    for label in ("cold", "warm"):
        if label == "cold":
            parse_location.cache_clear()
        start = time.perf_counter()
        for document, locations in items:
            root = document.tree.getroot()
            locator = Locator(root, {k: v for k, v in root.nsmap.items() if k})
            for location in locations:
                locator.place(location)
        elapsed = time.perf_counter() - start
        print(
            f"{label}: {len(items)} documents, {count} findings: {elapsed * 1e6 / max(count, 1):.1f} us/finding, "
            f"{elapsed * 1e6 / max(len(items), 1):.1f} us/document"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
