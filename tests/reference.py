"""The reference validator as every parity suite's yardstick: its plans, its runs, and the comparison of places.

* **Plans** (``../shared/reference/plan-*.tsv``) are read as ``RefValidate.java`` reads them: lines in order,
  blank and ``#`` lines skipped, columns profile, root kind, customization substring (``*``: any), XSD, XSLTs. A
  document runs the **first** line whose kind matches and whose substring is in its customization id
  (:func:`route`); a profile named on several lines is routed by that rule, never by a dictionary of profile names.
* **Runs**: :func:`run_reference` starts ``tools/run-reference.sh`` once on many files, with a plan of
  ``../shared/reference`` by name or one written here (:func:`write_plan`), and gives the row of each file.
* **Comparison** (:func:`assert_parity`): the reference's row against our report. The profile, and the packs
  chosen with their versions: each stylesheet and the schema the reference ran is identified by its **content
  digest** (a pack whose official file has those bytes), not by its file name (CEN 1.3.15 and 1.3.16 share
  their names, so do XRechnung 2.5.0 and 2.6.0). Then per pack key (``id@version``) the multiset of
  (rule id, raw flag, pack location) for Schematron, and the multiset of (code, line) for XSD (the column too
  once our XSD findings carry one: :data:`XSD_COLUMNS`): a location, a line or a duplicate count that differs
  fails. A reference finding of a pack we did not run fails. Where the reference stopped a pack with a runtime
  error, ours reports the error per rule and goes on (issue 13): our findings there hold every one of the
  reference's, with at least one rule-level ``schematron.runtime-error`` carrying a location.

The reference prints an id-less assertion with id null and a flag-less one with flag null: ours carries the id the
preparation gives it (:func:`einvoice_validate.rulesets.prepare.assigned_id`: a Factur-X "not used" report, a
label in brackets) and the raw flag ``error`` (an assertion without flag is an error).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

from einvoice_validate import Report
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.prepare import assigned_id
from einvoice_validate.rulesets.registry import sha256_file
from einvoice_validate.schematron import RUNTIME_ERROR
from tests.conftest import REPO, SHARED

__all__ = [
    "DERIVED_FOR_SAXON_99",
    "XSD_COLUMNS",
    "PlanLine",
    "Row",
    "assert_parity",
    "our_places",
    "our_xsd_places",
    "packs_of_line",
    "plan_line",
    "read_plan",
    "read_rows",
    "reference_id",
    "route",
    "run_reference",
    "schematron_places",
    "write_plan",
    "xsd_places",
]

RULESETS = SHARED / "rulesets"
PLANS = SHARED / "reference"
Row = dict[str, Any]

# A stylesheet the reference runs in place of an official one it cannot compile (Saxon-HE 9.9): the derived file
# (by its path in the shared rulesets) -> the official file it stands for. SOURCES.md: "derived-saxon99 ... two match
# patterns rewritten so that Saxon-HE 9.9 compiles it; otherwise byte-identical ... the product should use the
# original"; the French suites prove the original and the derived file give the same findings.
DERIVED_FOR_SAXON_99 = "derived-saxon99"


@dataclass(frozen=True, slots=True)
class PlanLine:
    """One line of a reference plan (paths relative to the shared rulesets folder, or absolute)."""

    profile: str
    kind: str
    customization: str
    xsd: str
    xslts: tuple[str, ...]

    def tsv(self) -> str:
        return "\t".join((self.profile, self.kind, self.customization, self.xsd, ",".join(self.xslts)))


def _plan_path(plan: str | Path) -> Path:
    path = Path(plan)
    return path if path.is_absolute() else PLANS / path


@cache
def read_plan(plan: str | Path) -> tuple[PlanLine, ...]:
    """Every line of ``plan`` (a plan of ``../shared/reference`` by name, or a path), in order, as RefValidate
    reads it."""
    lines = []
    for line in _plan_path(plan).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        xslts = tuple(cols[4].split(",")) if len(cols) > 4 and cols[4].strip() else ()
        lines.append(PlanLine(cols[0], cols[1], cols[2], cols[3], xslts))
    return tuple(lines)


def route(plan: str | Path | Sequence[PlanLine], kind: str, customization: str) -> PlanLine | None:
    """The line the reference runs for a document of root ``kind`` and customization id ``customization``: the
    first whose kind matches and whose substring is ``*`` or in the id (``RefValidate.check``); None: no scenario."""
    lines = read_plan(plan) if isinstance(plan, (str, Path)) else plan
    for line in lines:
        if line.kind == kind and (line.customization == "*" or line.customization in customization):
            return line
    return None


def plan_line(plan: str | Path | Sequence[PlanLine], row: Row) -> PlanLine:
    """The line the reference ran for ``row`` (routed again from its kind and customization id), checked to be
    the profile the row names."""
    line = route(plan, row["kind"], row["customization"])
    assert line is not None, f"{row['file']}: the plan routes it nowhere, the reference to {row.get('profile')}"
    assert line.profile == row["profile"], f"{row['file']}: the plan gives {line.profile}, the row {row['profile']}"
    return line


def write_plan(lines: Iterable[PlanLine], path: Path) -> Path:
    """A plan of one's own for :func:`run_reference` (its paths relative to the shared rulesets, or absolute)."""
    path.write_text("".join(line.tsv() + "\n" for line in lines), encoding="utf-8")
    return path


def read_rows(path: Path) -> dict[str, Row]:
    """A stored reference run (``reference*.jsonl``): file -> row."""
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return {row["file"]: row for row in rows}


def run_reference(paths: Iterable[Path], plan: str | Path, *, timeout: float = 900) -> dict[Path, Row]:
    """The reference run live on ``paths`` with ``plan`` (``REFERENCE_PLAN``): each path (as given) -> its row.
    A generous timeout: the run must end, not be fast (one JVM, every pack compiled once)."""
    paths = list(paths)
    proc = subprocess.run(
        ["bash", str(REPO / "tools/run-reference.sh"), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "REFERENCE_PLAN": str(plan)},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(rows) == len(paths), f"{len(rows)} rows for {len(paths)} files: {proc.stderr[-2000:]}"
    # run-reference.sh passes each file as `realpath -s` (absolute, symbolic links kept): one thread, in order
    by_file = {os.path.abspath(p): p for p in paths}
    out = {by_file[row["file"]]: row for row in rows}
    assert len(out) == len(paths), "a file given twice"
    return out


# --- identity of what ran, by content -------------------------------------------------------------------------


def _official(rel: str) -> Path:
    """The file the reference's plan path stands for: itself, or for a ``derived-saxon99`` copy the official file
    of the same name in the same version folder (there must be exactly one)."""
    path = Path(rel) if Path(rel).is_absolute() else RULESETS / rel
    parts = PurePosixPath(rel).parts
    if DERIVED_FOR_SAXON_99 not in parts:
        return path
    version_dir = RULESETS.joinpath(*parts[: parts.index(DERIVED_FOR_SAXON_99)])
    found = [p for p in version_dir.rglob(path.name) if DERIVED_FOR_SAXON_99 not in p.parts]
    assert len(found) == 1, f"{rel}: no single official file for the derived one: {found}"
    return found[0]


@cache
def _digest(path: Path) -> str:
    return sha256_file(path)


def _sheet_digests(registry: Registry) -> dict[str, str]:
    """Schematron pack key -> the sha256 of its official stylesheet (as installed and verified)."""
    return _pack_digests(registry)[0]


@cache
def _pack_digests(registry: Registry) -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    sheets: dict[str, str] = {}
    schemas: dict[str, frozenset[str]] = {}
    for pack in registry.installed():
        manifest = pack.manifest
        files = pack.files()
        if manifest.kind == "schematron":
            sheets[pack.key] = files[manifest.entries["stylesheet"]]
        elif manifest.kind == "xsd":
            schemas[pack.key] = frozenset(files[rel] for rel in manifest.entries.values())
    return sheets, schemas


def _schematron_packs(report: Report, registry: Registry) -> list[str]:
    sheets = _sheet_digests(registry)
    return [k for k in report.packs if k in sheets]


def _xsd_packs(report: Report, registry: Registry) -> list[str]:
    schemas = _pack_digests(registry)[1]
    return [k for k in report.packs if k in schemas]


def packs_of_line(line: PlanLine, registry: Registry, ran: Iterable[str] = ()) -> tuple[str | None, list[str]]:
    """Our packs that hold the files ``line`` runs, by content: the XSD pack whose entries include its schema, and
    for each stylesheet the Schematron pack whose official stylesheet it is (None where no installed pack has it).
    Where several packs hold the same bytes (Peppol PINT's releases each ship a copy of the shared PINT rules,
    byte-identical across six of them), the one of ``ran`` (the packs our report ran)."""
    sheets, schemas = _pack_digests(registry)
    schema = _digest(_official(line.xsd))
    xsd = [k for k, digests in schemas.items() if schema in digests]
    ours = []
    ours_ran = set(ran)
    for rel in line.xslts:
        digest = _digest(_official(rel))
        keys = [k for k, d in sheets.items() if d == digest]
        if len(keys) > 1:
            keys = [k for k in keys if k in ours_ran] or keys
        assert len(keys) <= 1, f"{rel}: several packs have this stylesheet: {keys}"
        ours.append(keys[0] if keys else f"(no installed pack has {rel})")
    return (xsd[0] if len(xsd) == 1 else None), ours


# --- the places ---------------------------------------------------------------------------------------------------

Place = tuple[str, str, str | None]
XsdPlace = tuple[str, int | None, int | None]


def reference_id(finding: Mapping[str, Any]) -> str:
    """A reference finding's rule id as ours carries it (the id the preparation gives an id-less assertion)."""
    rule_id = assigned_id(finding["id"], finding.get("text") or "")
    assert rule_id, f"an id-less finding our preparation would refuse: {finding}"
    return rule_id


def schematron_places(findings: Iterable[Mapping[str, Any]], sheet: str) -> Counter[Place]:
    """The reference's (rule id, raw flag, location) multiset of one stylesheet (by the file name it prints)."""
    return Counter(
        (reference_id(f), f["flag"] or "error", f["location"])
        for f in findings
        if f["pack"] == sheet and f["kind"] != "runtime-error"
    )


def our_places(report: Report, key: str) -> Counter[Place]:
    return Counter(
        (f.rule_id, f.flag, f.pack_location) for f in report.findings if f.source == key and f.rule_id != RUNTIME_ERROR
    )


# Xerces gives each XSD error the column where its parser stood (the end of the start or end tag); our XSD findings
# carry no column yet (libxml2 reports none: Finding.column is None). Until they do, the places compared are (code,
# line) and tests/test_parity.py::test_xsd_columns_are_the_references is a strict xfail comparing the columns too:
# when the library gives them, it passes, and this becomes True.
XSD_COLUMNS = False


def xsd_places(row: Row, *, columns: bool = XSD_COLUMNS) -> Counter[XsdPlace]:
    """The reference's (Xerces code, line, column) multiset (column None unless ``columns``)."""
    return Counter((e["message"].split(":", 1)[0], e["line"], e["col"] if columns else None) for e in row["xsd"])


def our_xsd_places(report: Report, *, columns: bool = XSD_COLUMNS) -> Counter[XsdPlace]:
    return Counter((f.rule_id, f.line, f.column if columns else None) for f in report.findings if f.stage == "xsd")


def _diff(expected: Counter[Any], ours: Counter[Any]) -> str:
    return f"missing {sorted(expected - ours, key=str)}, extra {sorted(ours - expected, key=str)}"


def assert_parity(
    row: Row,
    report: Report,
    registry: Registry,
    plan: str | Path | Sequence[PlanLine],
    *,
    profiles: Mapping[str, str | tuple[str, ...]] | None = None,
    stands_for: Mapping[str, str | None] | None = None,
) -> None:
    """Our report against the reference's row for the same document, run with ``plan``.

    Args:
        profiles: the reference's profile names -> ours (or the few of ours one of its names covers: the
            reference matches XRechnung's id by substring, we tell its extension and CVD ids apart); when given,
            our profile must be the one named.
        stands_for: a difference of choice the caller declares (with its reason there), for a document the project
            routes elsewhere on purpose: our pack key -> the reference's pack key it is compared with (Peppol's
            CEN copy where plan-kosit runs CEN 1.3.16), or None for a pack of ours that reference does not run
            (not compared here: the caller compares it with another plan).
    """
    assert "error" not in row, f"the reference did not validate it: {row}"
    line = plan_line(plan, row)
    if profiles is not None:
        allowed = profiles[row["profile"]]
        allowed = (allowed,) if isinstance(allowed, str) else allowed
        assert report.profile in allowed, f"profile {report.profile}, the reference's {line.profile} is {allowed}"
    expected_xsd, expected_sheets = packs_of_line(line, registry, _schematron_packs(report, registry))
    declared = dict(stands_for or {})
    ours_by_key = {declared.get(k, k): k for k in _schematron_packs(report, registry)}
    ours_by_key.pop(None, None)
    ran = list(ours_by_key)
    assert ran == expected_sheets, f"{report.profile} runs {ran}, the reference's {line.profile} {expected_sheets}"
    assert _xsd_packs(report, registry) == [expected_xsd], f"schema {_xsd_packs(report, registry)}, plan {line.xsd}"

    names = [Path(x).name for x in line.xslts]
    assert len(set(names)) == len(names), f"{line.profile}: two stylesheets of one name, the row cannot tell them apart"
    printed = {f["pack"] for f in row["findings"]}
    assert printed <= set(names), f"findings of stylesheets the plan does not run: {printed - set(names)}"
    stopped = {f["pack"] for f in row["findings"] if f["kind"] == "runtime-error"}
    for name, key in zip(names, expected_sheets, strict=True):
        ours_key = ours_by_key[key]
        expected = schematron_places(row["findings"], name)
        ours = our_places(report, ours_key)
        errors = [f for f in report.findings if f.source == ours_key and f.rule_id == RUNTIME_ERROR]
        if name not in stopped:
            assert ours == expected, f"{ours_key}: {_diff(expected, ours)}"
            assert not errors, f"{ours_key}: runtime errors the reference does not have"
        else:
            assert not expected - ours, f"{ours_key} (the reference stopped it): missing {sorted(expected - ours)}"
            assert errors and all(f.location for f in errors), f"{ours_key}: no rule-level runtime error"
    if stopped:
        assert not report.valid, "a document with a runtime error is never valid"
    expected_places, ours_places = xsd_places(row), our_xsd_places(report)
    assert ours_places == expected_places, f"XSD {expected_xsd}: {_diff(expected_places, ours_places)}"
