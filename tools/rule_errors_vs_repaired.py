"""Issue 13, check (c): the ``mutations-dev`` files whose pack the reference stops with a runtime error, compared
with the reference run on the same file with the offending value repaired.

For each such file, every mutation that can raise a dynamic error (``value``, ``empty``, ``duplicate``,
``unknown``, from ``mutations.jsonl``) is undone on its own; the first single repair after which the reference
reports no runtime error is "the repaired file". Then, pack by pack, our findings on the *broken* file are
compared with the reference's on the *repaired* one, as multisets of (rule id, flag, location):

* ``exact``: equal, except the findings of the rules our rule-level runtime errors name (rules that read the
  broken value and could not be evaluated; how many findings of theirs the repaired file has is printed);
* ``other-rules``: besides those, findings of rules that read the broken value and *could* be evaluated on it
  (e.g. a duplicated element seen by a count, an empty amount compared as a string); listed for review;
* ``no-repair``: no single undo removes the reference's runtime error (listed, not compared).

Usage::

    EINVOICE_VALIDATE_HOME=… python tools/rule_errors_vs_repaired.py [--limit N] [--json OUT]

Runs the Java reference (``tools/run-reference.sh``) once on all repaired candidates.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from einvoice_validate import Report, Validator
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron import RUNTIME_ERROR

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
MUTATIONS = SHARED / "corpus" / "mutations-dev"
RULE = re.compile(r"^The rule with the context .* \(assertions (?P<ids>[^()]*)\) could not be evaluated: ")
RAISING = ("value", "empty", "duplicate", "unknown")
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True)

Key = tuple[str, str, str | None]  # rule id, flag, location


def _local(element: etree._Element) -> str:
    return etree.QName(element).localname


def _leaves(root: etree._Element, name: str) -> Iterator[etree._Element]:
    for element in root.iter():
        if isinstance(element.tag, str) and _local(element) == name:
            yield element


def undo(root: etree._Element, mutation: dict[str, Any]) -> bool:
    """Undo one mutation in place; False when it cannot be located."""
    op = mutation["op"]
    if op == "value":
        for element in _leaves(root, mutation["el"]):
            if (element.text or "") == mutation["new"] and len(element) == 0:
                element.text = mutation["old"]
                return True
    elif op == "empty":
        for element in _leaves(root, mutation["el"]):
            if not (element.text or "").strip() and len(element) == 0:
                element.text = mutation["old"]
                return True
    elif op == "duplicate":
        for element in _leaves(root, mutation["el"]):
            following = element.getnext()
            if following is not None and following.tag == element.tag:
                same = (following.text, dict(following.attrib), len(following)) == (
                    element.text,
                    dict(element.attrib),
                    len(element),
                )
                if same and etree.tostring(following, with_tail=False) == etree.tostring(element, with_tail=False):
                    element.tail, following.tail = following.tail, element.tail
                    element.getparent().remove(following)  # type: ignore[union-attr]
                    return True
    elif op == "unknown":
        for element in _leaves(root, mutation["parent"]):
            for child in element:
                if isinstance(child.tag, str) and _local(child) == "UnknownElement":
                    tail = child.tail
                    element.remove(child)
                    if tail:
                        element.text = (element.text or "") + tail
                    return True
    return False


@dataclass
class Case:
    file: str
    packs: list[str]  # stylesheet names the reference stopped
    candidates: list[tuple[dict[str, Any], Path]] = field(default_factory=list)
    repaired_by: dict[str, Any] | None = None
    verdict: str = ""
    details: dict[str, Any] = field(default_factory=dict)


def _reference(paths: list[Path]) -> dict[str, dict[str, Any]]:
    proc = subprocess.run(
        ["bash", str(REPO / "tools/run-reference.sh"), *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return {str(Path(str(r["file"])).resolve()): r for r in rows}


def _ours(report: Report, key: str) -> tuple[Counter[Key], set[str], int]:
    findings = [f for f in report.findings if f.source == key]
    named: set[str] = set()
    errors = 0
    for f in findings:
        if f.rule_id == RUNTIME_ERROR:
            errors += 1
            m = RULE.match(f.message.en)
            if m:
                named.update(m.group("ids").split(", "))
    kept = Counter((f.rule_id, str(f.flag), f.pack_location) for f in findings if f.rule_id != RUNTIME_ERROR)
    return kept, named, errors


def compare(limit: int = 0, step: int = 1) -> list[Case]:
    """The comparison for the files whose pack the reference stops (every ``step``-th, at most ``limit``)."""
    reference = {
        row["file"]: row
        for row in (json.loads(x) for x in (MUTATIONS / "reference.jsonl").read_text().splitlines() if x.strip())
    }
    mutations = {
        row["file"]: row["mutations"]
        for row in (json.loads(x) for x in (MUTATIONS / "mutations.jsonl").read_text().splitlines() if x.strip())
    }
    cases = [
        Case(name, sorted({f["pack"] for f in row["findings"] if f["kind"] == "runtime-error"}))
        for name, row in sorted(reference.items())
        if any(f["kind"] == "runtime-error" for f in row["findings"])
    ]
    cases = cases[::step]
    if limit:
        cases = cases[:limit]
    with tempfile.TemporaryDirectory(prefix="repaired-") as tmp:
        for case in cases:
            data = (MUTATIONS / case.file).read_bytes()
            for i, mutation in enumerate(m for m in mutations[case.file] if m["op"] in RAISING):
                root = etree.fromstring(data, _PARSER)
                if undo(root, mutation):
                    path = Path(tmp) / f"{i}-{case.file}"
                    path.write_bytes(etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8"))
                    case.candidates.append((mutation, path))
        rows = _reference([p for c in cases for _, p in c.candidates])
        validator = Validator()
        registry = Registry()
        sheets = {
            k: Path(m.entries["stylesheet"]).name for k, m in registry.manifests.items() if m.kind == "schematron"
        }
        for case in cases:
            repaired = next(
                (
                    (m, rows[str(p.resolve())])
                    for m, p in case.candidates
                    if not any(f["kind"] == "runtime-error" for f in rows[str(p.resolve())]["findings"])
                ),
                None,
            )
            if repaired is None:
                case.verdict = "no-repair"
                continue
            case.repaired_by, row = repaired
            report = validator.validate(MUTATIONS / case.file)
            verdict = "exact"
            for key in report.packs:
                sheet = sheets.get(key)
                if sheet is None:
                    continue
                theirs = Counter((f["id"], f["flag"], f["location"]) for f in row["findings"] if f["pack"] == sheet)
                ours, named, errors = _ours(report, key)
                missing = {k for k in theirs - ours if k[0] not in named}
                lost = sum(n for k, n in (theirs - ours).items() if k[0] in named)
                if lost:
                    case.details.setdefault(key, {})["lost"] = lost  # findings of the rules that raised
                extra = set(ours - theirs)
                if missing or extra:
                    verdict = "other-rules"
                    case.details.setdefault(key, {}).update(
                        {
                            "named": sorted(named),
                            "missing": sorted(str(k[:2]) for k in missing),
                            "extra": sorted(str(k[:2]) for k in extra),
                        }
                    )
                if sheet in case.packs and not errors:
                    verdict = "other-rules"
                    case.details.setdefault(key, {})["note"] = "no rule-level runtime error"
            case.verdict = verdict
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=0, help="only the first N files (0: all)")
    parser.add_argument("--json", type=Path, help="write the per-file results here")
    args = parser.parse_args(argv)
    cases = compare(args.limit)
    counts = Counter(c.verdict for c in cases)
    print(f"files whose pack the reference stops: {len(cases)} ({sum(len(c.packs) for c in cases)} pack runs)")
    for verdict, n in sorted(counts.items()):
        print(f"  {verdict}: {n}")
    lost = [(c.file, d["lost"]) for c in cases for d in c.details.values() if d.get("lost")]
    print(f"findings of the raising rules that the repaired file gives (lost with the rule): {lost}")
    for case in cases:
        if case.verdict != "exact":
            print(f"{case.file}: {case.verdict} {json.dumps(case.details)}")
    if args.json:
        args.json.write_text(
            "".join(
                json.dumps({"file": c.file, "verdict": c.verdict, "repaired_by": c.repaired_by, "details": c.details})
                + "\n"
                for c in cases
            ),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
