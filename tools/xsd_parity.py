"""XSD code parity check: our Xerces-style codes (einvoice_validate.xsd) vs the reference.

For every invoice in <shared>/corpus/mutations-dev/, parse it with a hardened lxml parser, validate
it against the UBL 2.1 Invoice / CreditNote or CII D16B schema (chosen by root namespace, each
schema compiled once), map the libxml2 errors to Xerces codes and compare the SET of codes with the
set of codes in reference.jsonl. Prints one line per mismatching file and a summary.

Run:  cd /work/main && PYTHONPATH=src /tmp/venv/bin/python tools/xsd_parity.py [-v]
Environment: EINVOICE_SHARED (default: <repo>/../shared).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter

from lxml import etree

from einvoice_validate.xsd.schema_index import schema_info_for
from einvoice_validate.xsd.xerces import xerces_validate

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
        ours = {i.code for i in issues}
        theirs = {m["message"].split(":", 1)[0] for m in ref["xsd"]}
        if ours == theirs:
            same += 1
            continue
        missing, extra = sorted(theirs - ours), sorted(ours - theirs)
        cats["missing " + ",".join(missing) + " / extra " + ",".join(extra)] += 1
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
    print(f"{same}/{len(refs)} files with identical XSD code sets ({pct:.1f}%, {dt:.1f}s)")
    return 0 if same == len(refs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
