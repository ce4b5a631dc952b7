"""Before/after figures of the national CIUS (issue 22): the reference's findings per document against ours.

Runs the reference (``tools/run-reference.sh`` with ``plan-national.tsv``) on ``corpus/national/`` and on seeded
mutations of it (``tests/mutate.py``, ``--count`` per document, written to ``build/national-parity/``), then our
validator twice: **after** (each document's matching profile: the national rules) and **before** (the EN 16931
profile of its document type, which is what every national document got before the national packs). A document
counts as the same when our Schematron rule ids and flags (as a multiset) and our XSD codes are the reference's;
where the reference stopped a pack with a runtime error, ours must hold all its findings. A document the reference
routes nowhere (no CustomizationID) is left out of "after" here (``tests/test_national.py`` compares it as phive
runs it, by its explicit profile).

    .venv/bin/python tools/national_parity.py [--count 8] [--engine saxonc|saxon-java]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from einvoice_validate import Report, Validator  # noqa: E402
from einvoice_validate.rulesets.prepare import bracketed_id  # noqa: E402
from einvoice_validate.schematron import RUNTIME_ERROR  # noqa: E402
from tests.conftest import SHARED  # noqa: E402
from tests.mutate import mutant_set, write_mutants  # noqa: E402
from tests.reference import run_reference  # noqa: E402

FALLBACK = {"ubl-invoice": "en16931-ubl-invoice", "ubl-creditnote": "en16931-ubl-creditnote", "cii": "en16931-cii"}


def same(row: dict[str, object], report: Report) -> bool:
    findings = row.get("findings") or []
    assert isinstance(findings, list)
    stopped = any(f["kind"] == "runtime-error" for f in findings)
    expected = Counter(
        (f["id"] or bracketed_id(f["text"] or ""), f["flag"]) for f in findings if f["kind"] != "runtime-error"
    )
    ours = Counter(
        (f.rule_id, f.flag) for f in report.findings if f.stage == "schematron" and f.rule_id != RUNTIME_ERROR
    )
    schematron = not (expected - ours) if stopped else ours == expected
    xsd = row.get("xsd") or []
    assert isinstance(xsd, list)
    return schematron and {f.rule_id for f in report.findings if f.stage == "xsd"} == {
        e["message"].split(":", 1)[0] for e in xsd
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=8, help="mutants per document (default 8, as mutations-dev)")
    parser.add_argument("--engine", default=None)
    args = parser.parse_args()
    files = sorted((SHARED / "corpus" / "national").glob("*/*.xml"))
    family = {p.name: p.parent.name for p in files}
    mutants = mutant_set(files, args.count)
    family.update({m.name: family[m.base] for m in mutants})
    paths = files + write_mutants(mutants, REPO / "build" / "national-parity")
    rows = {path.name: row for path, row in run_reference(paths, "plan-national.tsv").items()}
    validator = Validator(engine=args.engine)
    counts: Counter[tuple[str, str, str]] = Counter()
    for path in paths:
        row = rows[path.name]
        where = "corpus" if path in files else "mutants"
        counts[(where, family[path.name], "documents")] += 1
        before = validator.validate(path, profile=FALLBACK[row["kind"]])
        counts[(where, family[path.name], "before")] += same(row, before)
        if "error" not in row:
            counts[(where, family[path.name], "after")] += same(row, validator.validate(path))
            counts[(where, family[path.name], "routed")] += 1
    print(f"{'':8} {'family':11} {'documents':>9} {'before':>7} {'after':>13}")
    for where in ("corpus", "mutants"):
        for fam in ("ubl-be", "si-ubl", "nlcius-cii", "cius-pt", "all"):

            def n(what: str, where: str = where, fam: str = fam) -> int:
                return sum(v for (w, f, k), v in counts.items() if w == where and (fam in ("all", f)) and k == what)

            after = f"{n('after')}/{n('routed')}"
            print(f"{where:8} {fam:11} {n('documents'):9} {n('before'):7} {after:>13}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
