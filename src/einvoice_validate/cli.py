"""The command line: argument parsing and rendering (text, json, jsonl) only; the work is in the library.

Exit codes of ``validate``: 0 every document valid, 1 some document invalid, 2 usage error or some document
could not be validated.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from . import __version__
from .errors import EInvoiceValidateError
from .findings import Report, Severity

__all__ = ["main"]

EXIT_VALID, EXIT_INVALID, EXIT_ERROR = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="einvoice-validate", description="Validate e-invoices offline with the official rule packs."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--home", type=Path, help="rules home (default: $EINVOICE_VALIDATE_HOME or ~/.local/share/einvoice-validate)"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    val = sub.add_parser("validate", help="validate invoice files")
    val.add_argument("files", nargs="+", metavar="FILE")
    val.add_argument("--profile", help="force a profile by name (see `profiles`)")
    val.add_argument("--format", choices=("text", "json", "jsonl"), default="text")
    val.add_argument("--xsd-gate", action="store_true", help="skip Schematron after XSD errors (KoSIT behaviour)")

    rs = sub.add_parser("rulesets", help="install, list or verify the rule packs")
    rs_sub = rs.add_subparsers(dest="action", required=True)
    inst = rs_sub.add_parser("install", help="install the packs (copy from DIR, or download the pinned releases)")
    inst.add_argument(
        "--from", dest="source", type=Path, metavar="DIR", help="a folder laid out like the official rulesets/"
    )
    inst.add_argument("packs", nargs="*", metavar="ID@VERSION", help="only these packs (default: all)")
    rs_sub.add_parser("list", help="list the known packs and whether they are installed")
    rs_sub.add_parser("verify", help="re-check every installed file against its manifest")

    sub.add_parser("profiles", help="list the profiles and their packs")
    return parser


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse: --help/--version exit 0, usage errors exit 2
        return int(exc.code) if isinstance(exc.code, int) else EXIT_ERROR
    try:
        if args.command == "validate":
            return _validate(args, out, err)
        if args.command == "rulesets":
            return _rulesets(args, out, err)
        return _profiles(out)
    except EInvoiceValidateError as exc:
        print(f"einvoice-validate: {exc.code}: {exc.detail}", file=err)
        return EXIT_ERROR


def _validate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .validator import Validator

    validator = Validator(args.profile, rules_home=args.home, xsd_gate=args.xsd_gate)
    worst = EXIT_VALID
    rows: list[dict[str, Any]] = []
    for name in args.files:
        report: Report | None = None
        error: EInvoiceValidateError | None = None
        try:
            report = validator.validate(Path(name))
        except EInvoiceValidateError as exc:
            if exc.code.startswith("ruleset."):
                raise  # the installation is broken: no file can be validated
            error = exc
        if error is not None:
            worst = EXIT_ERROR
        elif report is not None and not report.valid:
            worst = max(worst, EXIT_INVALID)
        if args.format == "text":
            _print_text(name, report, error, out)
        else:
            row = _row(name, report, error)
            if args.format == "jsonl":
                print(json.dumps(row, ensure_ascii=False), file=out, flush=True)
            else:
                assert report is None or isinstance(report, Report)
                if report is not None:
                    row.update(
                        report.model_dump(mode="json", by_alias=True, include={"spec_id", "packs", "timings_ms"})
                    )
                rows.append(row)
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2), file=out)
    return worst


def _row(name: str, report: Report | None, error: EInvoiceValidateError | None) -> dict[str, Any]:
    """The jsonl contract: exactly these keys, spelled so."""
    return {
        "file": name,
        "profile": report.profile if report else None,
        "valid": report.valid if report else False,
        "accepted": report.accepted if report else None,
        "findings": [f.model_dump(mode="json", by_alias=True) for f in report.findings] if report else [],
        "error": error.to_dict() if error else None,
    }


def _print_text(name: str, report: Report | None, error: EInvoiceValidateError | None, out: TextIO) -> None:
    if error is not None or report is None:
        assert error is not None
        print(f"{name}: NOT VALIDATED ({error.code}): {error.detail}", file=out)
        return
    counts = {s: sum(1 for f in report.findings if f.severity is s) for s in Severity}
    verdict = "valid" if report.valid else "INVALID"
    if report.accepted is not None:
        verdict += ", accepted" if report.accepted else ", rejected"
    print(
        f"{name}: {verdict} [{report.profile}] "
        f"{counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), {counts[Severity.INFO]} info",
        file=out,
    )
    for f in report.findings:
        where = f" at {f.location}" if f.location else ""
        if f.line is not None:
            where += f" (line {f.line})"
        print(f"  {f.severity.value:<7} {f.rule_id:<24} {f.message.en}{where}  [{f.source}]", file=out)


def _rulesets(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .rulesets import Registry, install

    registry = Registry(args.home)
    if args.action == "install":
        for pack in install(registry, args.source, args.packs or None):
            print(f"installed {pack.key} -> {pack.directory}", file=out)
        return EXIT_VALID
    if args.action == "list":
        installed = {p.key for p in registry.installed()}
        print(f"rules home: {registry.home}", file=out)
        for key, manifest in sorted(registry.manifests.items()):
            state = "installed" if key in installed else "missing"
            print(f"  {key:<22} {manifest.kind:<10} {state:<9} {manifest.title}", file=out)
        return EXIT_VALID
    bad = 0
    packs = registry.installed()
    if not packs:
        print(f"no packs installed in {registry.home}", file=err)
        return EXIT_ERROR
    for pack in packs:
        problems = pack.problems()
        bad += len(problems)
        state = "ok" if not problems else "BROKEN"
        print(f"{pack.key:<22} {state} ({len(pack.manifest.files)} files)", file=out)
        for code, rel, detail in problems:
            print(f"  {code}: {rel}: {detail}", file=out)
    return EXIT_VALID if bad == 0 else EXIT_ERROR


def _profiles(out: TextIO) -> int:
    from .profiles import load_profiles

    for p in load_profiles():
        print(f"{p.name:<38} {p.root:<15} {p.xsd} + {', '.join(p.schematron)}", file=out)
    return EXIT_VALID
