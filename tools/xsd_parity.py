"""XSD place parity check: our Xerces-style places (einvoice_validate.xsd) vs the reference.

For every invoice in <shared>/corpus/mutations-dev/, parse it with a hardened lxml parser, validate
it against the UBL 2.1 Invoice / CreditNote or CII D16B schema (chosen by root namespace, each
schema compiled once), map the libxml2 errors to Xerces codes and compare the multiset of (code, line)
with the reference's in reference.jsonl (``tests/reference.py``: ``xsd_places``; the column too once our
findings carry one, ``XSD_COLUMNS``). Prints one line per mismatching file and a summary.

Run:  .venv/bin/python tools/xsd_parity.py [-v]
Environment: EINVOICE_SHARED (default: <repo>/../shared).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter

from lxml import etree

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from einvoice_validate.xsd.schema_index import schema_info_for  # noqa: E402
from einvoice_validate.xsd.xerces import xerces_validate  # noqa: E402
from tests.reference import XSD_COLUMNS, xsd_places  # noqa: E402

SHARED = os.environ.get("EINVOICE_SHARED", os.path.join(os.path.dirname(REPO), "shared"))
CORPUS = os.path.join(SHARED, "corpus", "mutations-dev")
UBL = "urn:oasis:names:specification:ubl:schema:xsd:"
XSD = {
    UBL + "Invoice-2": "rulesets/xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd",
    UBL + "CreditNote-2": "rulesets/xsd/ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd",
    "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100": (
        "rulesets/xsd/cii-d16b/CrossIndustryInvoice_100pD16B.xsd"
    ),
}


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)
    schemas: dict[str, etree.XMLSchema] = {}
    with open(os.path.join(CORPUS, "reference.jsonl"), encoding="utf-8") as fh:
        refs = [json.loads(line) for line in fh]
    same = 0
    cats: Counter[str] = Counter()
    t0 = time.perf_counter()
    for ref in refs:
        tree = etree.parse(os.path.join(CORPUS, ref["file"]), parser)
        ns = etree.QName(tree.getroot()).namespace or ""
        rel = XSD.get(ns)
        if rel is None:
            print("MISMATCH {}: unknown root namespace {!r}".format(ref["file"], ns))
            continue
        path = os.path.join(SHARED, rel)
        if path not in schemas:
            schemas[path] = etree.XMLSchema(etree.parse(path, parser))
        issues = xerces_validate(schemas[path], tree, schema_info_for(path))
        ours = Counter((i.code, i.line, i.column if XSD_COLUMNS else None) for i in issues)
        theirs = xsd_places(ref)
        if ours == theirs:
            same += 1
            continue
        missing, extra = sorted(theirs - ours, key=str), sorted(ours - theirs, key=str)
        cats["missing " + ",".join(c for c, _, _ in missing) + " / extra " + ",".join(c for c, _, _ in extra)] += 1
        print("MISMATCH {}: missing={} extra={}".format(ref["file"], missing, extra))
        if verbose:
            for m in ref["xsd"]:
                print("   ref  {}:{} {}".format(m["line"], m["col"], m["message"][:160]))
            for i in issues:
                print(f"   ours {i.line} {i.message[:160]}")
    dt = time.perf_counter() - t0
    for k, v in cats.most_common():
        print(f"  {v:4d}  {k}")
    pct = 100.0 * same / len(refs)
    print(f"{same}/{len(refs)} files with the reference's XSD places ({pct:.1f}%, {dt:.1f}s)")
    return 0 if same == len(refs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
