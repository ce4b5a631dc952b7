"""The command line: argument parsing only; the work is in the library, the rendering in :mod:`.reports`.

Exit codes of ``validate``: 0 every document valid, 1 some document invalid (with a selection: some listed finding
at or above ``--fail-on``), 2 usage error or some document could not be validated. ``validate`` runs through
:func:`einvoice_validate.pool.batch.iter_validate`: results are printed as they arrive, in the order of the files.
Option defaults come from :class:`~einvoice_validate.Options`; the settings are resolved with the project's
configuration file by :mod:`.config`, the selection is :mod:`.selection`'s, the destinations
:mod:`.reports.output`'s.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import glob
import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, TextIO, get_args

from ._extras import SetupError, require, require_dependency
from ._version import __version__
from .config import CLI_ORIGIN, DEFAULT_ORIGIN, SETTINGS, ConfigError, command_line_only, resolve
from .errors import EInvoiceValidateError
from .findings import Message, Severity
from .limits import DEFAULT_LIMITS
from .messages import catalogue
from .options import Mode, Options
from .parse import Source
from .pool.batch import iter_validate
from .pool.routing import sniff_syntax
from .profiles import all_profiles, parse_rules_date
from .reports import Outcome
from .reports.output import OutputError, RunOutput, plan_output, view_target
from .reports.words import LANGS, WORDS, ignored_summary, summary, verdict
from .reports.writer import FORMATS
from .rulesets import InstalledPack, Registry
from .schematron.engines import (
    DEFAULT_ENGINE,
    ENGINE_ENV,
    ENGINES,
    LARGE_DOCUMENT_BYTES,
    STEADY_FROM_DOCUMENTS,
    engine_for,
    engine_named,
)
from .selection import pattern_matches
from .validator import Validator

if TYPE_CHECKING:
    from .config import Effective
    from .rulesets.status import PackState, VersionState

__all__ = ["EXIT_CODES", "command_parsers", "expand_paths", "main"]

EXIT_VALID, EXIT_INVALID, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE
EXIT_CODES: tuple[tuple[int, str], ...] = (
    (EXIT_VALID, "every document valid (and accepted, where the profile gives a verdict); a command done"),
    (
        EXIT_INVALID,
        "`validate`, `show`: some document invalid, or valid but rejected (a near-miss specification identifier); "
        "with a rule selection: some listed finding at or above `--fail-on`",
    ),
    (
        EXIT_ERROR,
        "a usage error; some document could not be validated; a rule pack missing, damaged or not installed "
        "(`ruleset.missing`, `ruleset.corrupt`); an install that failed; an extra not installed "
        "(`plan.feature-not-included`). The error is one line on stderr ending in its code",
    ),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C): `validate` prints the summary of the documents done so far first"),
    (EXIT_BROKEN_PIPE, "the reader of the output went away (`| head`): stopped quietly, as `cat` does"),
)
"""Every exit status of the command line and what it means (the documentation's table is written from this)."""
HOME_HELP = "rules home (default: $EINVOICE_VALIDATE_HOME or ~/.local/share/einvoice-validate)"
ACCEPTANCE_ENV = "EINVOICE_VALIDATE_ACCEPTANCE"
STDIN = "-"
FAMILY_ENDS = ("-", ".", "_", "*")
"""``rule ID`` lists a family for an id ending so (``BR-DE-``, ``BR-FR-01_``, ``UBL-CR-*``)."""

DEFAULTS = Options()
FILES_PER_WORKER = 100
"""Default ``--workers`` of worker processes (``saxonc``): one per this many files, up to all cores, and at least
one per syntax (UBL, CII) in the batch. A worker process costs a fresh interpreter (about 0.3 s) and its own
compilation of the packs of each syntax it meets (about 0.6 s of CPU per syntax, measured), which only pays off
over some hundred documents of one syntax; a batch of both syntaxes is faster with one worker per syntax (the
batch routes documents by syntax, see :mod:`einvoice_validate.pool.routing`), a small batch of one syntax in this
one process. Threads (``saxon-java``) share one validator and cost nothing to start: one per core."""
ENGINE_HELP = (
    "the XSLT engine: saxonc (no Java, fast start) or saxon-java (Saxon-HE for Java: faster once warm; needs the "
    "[java] extra and libsaxonhe-java); default $EINVOICE_VALIDATE_ENGINE, else chosen by the work: saxonc for "
    f"fewer than {STEADY_FROM_DOCUMENTS} files (a file of {LARGE_DOCUMENT_BYTES // (1024 * 1024)} MiB or more: "
    "saxon-java, when installed), saxon-java (when installed) for more and for serve"
)
MODE_HELP = (
    "threads over one shared validator (the default on saxon-java) or worker processes (the default on saxonc; "
    "isolates a crash of the engine)"
)

USAGE_CODE = "request.invalid-parameter"
"""The code a usage error ends in: a mistyped option, subcommand, profile or value (the API's code for a bad
parameter)."""
UNREADABLE_CODE = "request.unreadable"
"""The code of an input that names nothing to read (a pattern matching no file, a folder without invoices)."""

SHOW_USER = "show"  # _needed_packs: a viewer pack is needed by the show command, not by a profile
PROGRESS_MIN_FILES = 20
"""A progress bar is drawn (on a terminal's stderr only) from this many files on."""


class _Parser(argparse.ArgumentParser):
    """argparse with the house's error line: the usage of the command that was mistyped, then one line ending in
    its code, with the closest names for a mistyped option, subcommand or choice."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {_suggest(self, message)} ({USAGE_CODE})\n")


_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")


def _suggest(parser: argparse.ArgumentParser, message: str) -> str:
    """``message`` with "did you mean ...?" for an unknown option or an invalid choice (argparse's own words)."""
    if found := _CHOICE.search(message):
        choices = re.findall(r"'([^']*)'", found.group(2))
        close = difflib.get_close_matches(found.group(1), choices, n=3, cutoff=0.5)
        return message + (f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else "")
    if message.startswith("unrecognized arguments: "):
        options = [o for action in parser._actions for o in action.option_strings if o.startswith("--")]
        hints = []
        for word in message.removeprefix("unrecognized arguments: ").split():
            if word.startswith("-"):
                close = difflib.get_close_matches(word.split("=", 1)[0], options, n=2, cutoff=0.6)
                hints += [f"{word}: did you mean {' or '.join(close)}?"] if close else []
        return message + (f" ({'; '.join(hints)})" if hints else "")
    return message


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="einvoice-validate", description="Validate e-invoices offline with the official rule packs.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--home", type=Path, help=HOME_HELP)
    # The global options, accepted after the subcommand as well (SUPPRESS: not given there keeps the first)
    common = _Parser(add_help=False)
    common.add_argument("--home", type=Path, default=argparse.SUPPRESS, help=HOME_HELP)
    sub = _Subparsers(parser.add_subparsers(dest="command", required=True), common)
    settings = _settings_options()

    val = sub.add_parser("validate", help="validate invoice files", parents=[settings])
    val.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="files, directories (every *.xml and *.pdf below, recursively), glob patterns, or - (standard input)",
    )
    val.add_argument(
        "--workers",
        type=_positive_int,
        metavar="N",
        help=f"threads or worker processes (default: threads: one per core; processes: one per {FILES_PER_WORKER} "
        "files, up to all cores)",
    )
    val.add_argument(
        "--rules-date",
        metavar="YYYY-MM-DD",
        help="run the pack versions in force on this day where a profile lists several (default: today)",
    )
    val.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="write the report to this file, or to this folder one report per input and format (a folder: when it "
        "is one, ends with /, or several formats are given)",
    )
    val.add_argument(
        "--force",
        action="store_true",
        help="let -o replace existing files (never an input); without it a run refuses to overwrite a file it did not "
        "write",
    )
    val.add_argument(
        "--statistics",
        action="store_true",
        help="print how often each rule fired and in how many files (json with --format json/jsonl, else text) "
        "instead of the report on standard output; with -o the reports are written as well",
    )
    val.add_argument("--timings", action="store_true", help="json/jsonl: add each document's stage timings")
    val.add_argument("-q", "--quiet", action="store_true", help="text: only documents with errors or warnings")
    val.add_argument("--errors-only", action="store_true", help="text: list only ERROR findings")
    _runner_options(val, "; workers=1 on saxonc: none")

    config = sub.add_parser(
        "config",
        parents=[settings],
        help="print the settings validate uses here and where each comes from",
        description="The effective settings of `validate` in this folder (as TOML, each with its origin): the "
        "command line, then the configuration file (--config FILE, or the first of .einvoice-validate.toml, "
        "einvoice-validate.toml, pyproject.toml [tool.einvoice-validate] found from here upwards), then the "
        "defaults. The rules date, which no file may set, follows as a comment.",
    )
    config.add_argument("--rules-date", metavar="YYYY-MM-DD", help="the rules date validate would get (default: today)")

    rule = sub.add_parser(
        "rule",
        help="explain a rule: its text in German and English, terms, packs and versions, test and context",
        description="Everything about one rule id: the catalogue's texts (German, English, and the pack's own French "
        "or Romanian), the business terms, every installed pack version that contains it with the assertion's "
        "flag, context and test, and the profiles that run it. A rule stated once per business term (BR-FR-01: "
        "BR-FR-01_BT-1, BR-FR-01_BT-25, ...) is explained id by id. An id ending in -, ., _ or * lists the rules "
        "of that family.",
    )
    rule.add_argument(
        "id", metavar="ID", help="a rule id (BR-DE-15, BR-FR-01, cvc-complex-type.2.4.a) or family (BR-DE-)"
    )
    rule.add_argument("--lang", choices=LANGS, default="en", help="the language shown first and of the labels")
    rule.add_argument("--format", choices=("text", "json"), default="text")

    show = sub.add_parser(
        "show",
        help="show an invoice as a person reads it (the official XRechnung viewer), each finding at its place",
        description="Validate one invoice and render it with KoSIT's official viewer: one self-contained HTML page "
        "(no script, nothing fetched) or a PDF, with a summary of the findings at the top and each finding marked "
        "at the field or invoice line it concerns. Exit codes as for validate.",
    )
    show.add_argument("file", metavar="FILE", help="an invoice (XML or ZUGFeRD/Factur-X PDF), or - (standard input)")
    show.add_argument("--lang", choices=LANGS, default="en", help="language of the page (labels and messages)")
    show.add_argument("--format", choices=("html", "pdf"), default="html", help="html (default) or pdf ([pdf] extra)")
    show.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write to this file, or into this folder (one that exists, or ends with /) as NAME-view.html or .pdf "
        "(default: standard output)",
    )
    show.add_argument("--force", action="store_true", help="let -o replace an existing file (never the input)")
    show.add_argument("--profile", help="force a profile by name (see `profiles`)")
    show.add_argument("--rules-date", metavar="YYYY-MM-DD", help="the pack versions in force on this day")
    show.add_argument("--engine", choices=ENGINES, help=ENGINE_HELP)

    rs = sub.add_parser("rulesets", help="install, list or verify the rule packs")
    rs_sub = _Subparsers(rs.add_subparsers(dest="action", required=True), common)
    inst = rs_sub.add_parser(
        "install",
        help="install the packs: download the pinned upstream files, or copy from DIR",
        description="Without --from: download every pack's files from upstream (or a mirror), each checked "
        "against its sha256. With --from DIR: DIR laid out like the official rulesets/ (e.g. ../shared/rulesets), "
        "or holding the files `rulesets sources` lists, as downloaded (DIR/NAME or DIR/HOST/PATH).",
    )
    inst.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="DIR",
        help="install from this folder instead of downloading (no network access)",
    )
    inst.add_argument(
        "--mirror",
        metavar="URL",
        help="fetch https://HOST/PATH as URL/HOST/PATH (default: $EINVOICE_VALIDATE_MIRROR)",
    )
    inst.add_argument(
        "--acceptance",
        type=Path,
        metavar="DIR",
        help="the corpus holding the packs' acceptance sets, run after the install (default: "
        f"${ACCEPTANCE_ENV}, else the corpus/ folder beside --from DIR); a pack failing its set is refused",
    )
    inst.add_argument("packs", nargs="*", metavar="ID@VERSION", help="only these packs (default: all)")
    rs_sub.add_parser("list", help="list the known packs and whether they are installed (exit 2 if one is missing)")
    rs_sub.add_parser("verify", help="re-check every installed file against its manifest (exit 2 on any problem)")
    outdated = rs_sub.add_parser(
        "outdated",
        help="list the pack versions in force on a day, whether each is installed, and the later versions known",
        description="Offline, from the manifests: those this release ships and those in <home>/manifests/<id>/"
        "<version>.toml (a pack version published later: drop its manifest there, then `rulesets install` it).",
    )
    outdated.add_argument("--date", metavar="YYYY-MM-DD", help="the day to look at (default: today)")
    outdated.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    rs_sub.add_parser(
        "sources",
        help="list every address `install` downloads, with its sha256 (to fetch them elsewhere)",
        description="One line per address: URL, TAB, sha256 (of the archive where recorded, of the file for "
        "single files; '-' when not recorded: then each member is checked), TAB, the packs needing it.",
    )

    prof = sub.add_parser("profiles", help="list the profiles and the packs each runs today (or on --rules-date)")
    prof.add_argument("--rules-date", metavar="YYYY-MM-DD", help="the day to show (default: today)")

    srv = sub.add_parser("serve", help="run the validation service (HTTP; needs the [server] extra)")
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (non-loopback only with --keys)")
    srv.add_argument("--port", type=int, default=8080)
    srv.add_argument(
        "--workers", type=_positive_int, metavar="N", help="threads or worker processes (default: one per core)"
    )
    srv.add_argument("--keys", type=Path, metavar="FILE", help="access keys (see `keys create`); without: no keys")
    srv.add_argument(
        "--queue-size",
        type=_positive_int,
        metavar="N",
        help="documents waiting at most (default: threads: as many as can be served within 10 s; processes: 8 per "
        "worker)",
    )
    srv.add_argument("--max-body-bytes", type=_positive_int, metavar="N", help="largest body (default 100 MiB)")
    srv.add_argument("--body-timeout", type=float, metavar="S", default=30.0, help="seconds to receive a body")
    srv.add_argument("--max-in-flight", type=_positive_int, metavar="N", default=32, help="requests per client")
    srv.add_argument(
        "--max-connections", type=_positive_int, metavar="N", default=4096, help="connections open at once"
    )
    srv.add_argument(
        "--max-buffered-bytes",
        type=_positive_int,
        metavar="N",
        help="bytes of request bodies held at once, all requests together (default 256 MiB)",
    )
    srv.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        default="",
        help="comma-separated proxies (addresses or networks, '*': any) whose X-Forwarded-For is believed "
        "(default: none)",
    )
    srv.add_argument(
        "--max-documents",
        type=int,
        metavar="N",
        help="recycle a worker process after N documents, 0: never (default 5000 on saxonc, whose heap grows; never "
        "on saxon-java, whose collector bounds its heap and whose new worker would start with a cold JIT)",
    )
    srv.add_argument(
        "--prepare",
        action="append",
        default=[],
        metavar="PROFILE",
        help="compile this profile's packs before the server is ready (default: none; each compiles on its first "
        "request, which waits for it)",
    )
    srv.add_argument(
        "--background",
        action="append",
        default=[],
        metavar="PROFILE",
        help="compile this profile's packs right after start, while requests are taken ('all': every profile)",
    )
    srv.add_argument("--xsd-gate", action="store_true", help="skip Schematron after XSD errors (KoSIT behaviour)")
    _runner_options(srv)

    keys = sub.add_parser("keys", help="create, list or revoke the service's access keys (stored as checksums)")
    keys_sub = _Subparsers(keys.add_subparsers(dest="action", required=True), common)
    create = keys_sub.add_parser("create", help="create a key, print it once, store its checksum")
    create.add_argument("--keys", type=Path, metavar="FILE", required=True)
    create.add_argument("--permission", choices=("invoices", "admin"), default="invoices")
    listing = keys_sub.add_parser("list", help="list the keys (ids, permissions; never the keys)")
    listing.add_argument("--keys", type=Path, metavar="FILE", required=True)
    revoke = keys_sub.add_parser("revoke", help="revoke a key by its id")
    revoke.add_argument("--keys", type=Path, metavar="FILE", required=True)
    revoke.add_argument("id")
    return parser


def command_parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every command's parser with its name (``""`` for the program, ``"rulesets install"``, ...), in the order of
    the help (the documentation's reference is written from these)."""
    return command_parsers_of(_parser())


def command_parsers_of(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """:func:`command_parsers` of ``parser``."""
    found: list[tuple[str, argparse.ArgumentParser]] = []

    def walk(name: str, parser: argparse.ArgumentParser) -> None:
        found.append((name, parser))
        for action in parser._actions:  # argparse has no public way to list subcommands
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    walk(f"{name} {sub_name}".strip(), sub)

    walk("", parser)
    return found


def _runner_options(parser: argparse.ArgumentParser, timeout_note: str = "") -> None:
    """The options of :class:`~einvoice_validate.Options` both ``validate`` and ``serve`` take (defaults from it)."""
    parser.add_argument("--engine", choices=ENGINES, help=ENGINE_HELP)
    parser.add_argument("--mode", choices=get_args(Mode), help=MODE_HELP)
    parser.add_argument(
        "--document-timeout",
        type=float,
        metavar="S",
        default=DEFAULTS.document_timeout,
        help=f"seconds per document (default {DEFAULTS.document_timeout:g}{timeout_note})",
    )


class _Subparsers:
    """``add_parser`` with the global options (``common``) as a parent, so they may follow the subcommand."""

    def __init__(self, action: Any, common: argparse.ArgumentParser) -> None:
        self._action = action
        self._common = common

    def add_parser(
        self, name: str, parents: Sequence[argparse.ArgumentParser] = (), **kwargs: Any
    ) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = self._action.add_parser(name, parents=[self._common, *parents], **kwargs)
        return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: BinaryIO | None = None,
) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = _parser()
    try:  # argparse writes its help to stdout and its errors to stderr: the streams given here
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args, extras = parser.parse_known_args(argv)
            if extras:  # said by the subcommand that was given, with its usage and the closest options
                _command_parser(parser, args).error(f"unrecognized arguments: {' '.join(extras)}")
            _check_profile(parser, args)
    except SystemExit as exc:  # argparse: --help/--version exit 0, usage errors exit 2
        return int(exc.code) if isinstance(exc.code, int) else EXIT_ERROR
    try:
        return _run(args, out, err, stdin)
    except KeyboardInterrupt:  # Ctrl-C: the workers ignore SIGINT and are stopped by the batch's cleanup
        print("einvoice-validate: interrupted", file=err)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (| head): stop quietly, as cat does
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
        return EXIT_BROKEN_PIPE


def _command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``args`` were parsed for (``rulesets install``: that one)."""
    path = " ".join(p for p in (getattr(args, "command", None), getattr(args, "action", None)) if p)
    found = dict(command_parsers_of(parser))
    while path and path not in found:
        path = path.rsplit(" ", 1)[0] if " " in path else ""
    return found.get(path, parser)


def _check_profile(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A ``--profile`` no profile has: a usage error of the command, with the closest names."""
    name = getattr(args, "profile", None)
    if not name:
        return
    try:
        home = Registry(args.home).home
        names = [p.name for p in all_profiles(home)]
    except (EInvoiceValidateError, OSError):
        return  # the run says what is wrong with the rules home
    if name in names:
        return
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5) or [n for n in names if n.startswith(name)][:3]
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    _command_parser(parser, args).error(f"unknown profile {name!r}{hint} (`einvoice-validate profiles` lists them)")


def _run(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: BinaryIO | None) -> int:
    if args.home is not None and args.home.exists() and not args.home.is_dir():
        print(f"einvoice-validate: The rules home {args.home} is not a directory. (ruleset.missing)", file=err)
        return EXIT_ERROR
    try:
        if args.command == "validate":
            return _validate(args, out, err, stdin)
        if args.command == "rulesets":
            return _rulesets(args, out, err)
        if args.command == "show":
            return _show(args, out, err, stdin)
        if args.command == "serve":
            return _serve(args, err)
        if args.command == "keys":
            return _keys(args, out, err)
        if args.command == "config":
            return _config(args, out, err)
        if args.command == "rule":
            return _rule(args, out, err)
        return _profiles(args, out)
    except EInvoiceValidateError as exc:  # the specific cause first (in German with validate --lang de), the code
        message = exc.message.de if getattr(args, "lang", "en") == "de" else exc.message.en
        print(f"einvoice-validate: {message} ({exc.code})", file=err)
        return EXIT_ERROR
    except SetupError as exc:  # an extra (or a dependency) not installed: one line saying what to install
        print(f"einvoice-validate: {exc} ({exc.code})", file=err)
        return EXIT_ERROR
    except (ConfigError, OutputError) as exc:  # a bad configuration file or value, an impossible -o: one line
        print(f"einvoice-validate: {exc} ({USAGE_CODE})", file=err)
        return EXIT_ERROR
    except _NothingToRead as exc:  # a pattern matching no file, folders without invoices
        print(f"einvoice-validate: {exc} ({UNREADABLE_CODE})", file=err)
        return EXIT_ERROR
    except BrokenPipeError:
        raise
    except OSError as exc:  # an unusable rules home (unreadable, not writable) or output: no traceback
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"einvoice-validate: {exc.strerror or exc}{where} ({UNREADABLE_CODE})", file=err)
        return EXIT_ERROR


class _NothingToRead(ValueError):
    """The inputs name no document to validate."""


def _settings_options() -> argparse.ArgumentParser:
    """The options of ``validate`` that a configuration file may also set (:data:`einvoice_validate.config.SETTINGS`):
    their defaults are None here, so that :func:`einvoice_validate.config.resolve` sees what the command line gave."""
    parser = argparse.ArgumentParser(add_help=False)
    help_of = {s.key: s.help for s in SETTINGS}
    for key in ("select", "ignore"):
        parser.add_argument(
            f"--{key}",
            action="extend",
            type=_comma_list,
            metavar="IDS",
            help=f"{help_of[key]}: ids and families (BR-DE-15, BR-DE-, UBL-CR-), comma-separated or repeated",
        )
    parser.add_argument("--fail-on", choices=("error", "warning"), help=f"{help_of['fail-on']} (default: error)")
    parser.add_argument(
        "--format",
        action="extend",
        type=_comma_list,
        metavar="FORMAT",
        help=f"{', '.join(FORMATS)} (default text; several with -o FOLDER): text (people), json or jsonl (the same "
        "rows), junit (CI), sarif (code scanning), html (one page), github (Actions annotations), gitlab (Code "
        "Quality)",
    )
    parser.add_argument("--concise", action=argparse.BooleanOptionalAction, help=help_of["concise"])
    parser.add_argument("--lang", choices=LANGS, help="language of text, html, github and gitlab (default: en)")
    parser.add_argument("--profile", help="force a profile by name (see `profiles`)")
    parser.add_argument("--xsd-gate", action=argparse.BooleanOptionalAction, help=help_of["xsd-gate"])
    parser.add_argument("--config", type=Path, metavar="FILE", help="use this configuration file (nothing searched)")
    parser.add_argument("--isolated", action="store_true", help="read no configuration file")
    return parser


def _comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def expand_paths(arguments: Sequence[str], exclude: Path | None = None) -> list[str]:
    """Files as given; directories: every ``*.xml`` and ``*.pdf`` (ZUGFeRD / Factur-X) below them (recursively,
    any case of the suffix, sorted), but not below ``exclude`` (the ``-o`` folder of the reports); patterns the
    shell did not expand (``*``, ``?``, ``[``, ``**``): their matches, sorted (one matching nothing is an error: a
    quoted pattern, not a missing file). A name that is none of these is kept, so that it is reported as
    unreadable."""
    found: list[str] = []
    skip = os.path.realpath(exclude) if exclude is not None else None
    for arg in arguments:
        if os.path.isdir(arg):
            found.extend(_xml_below(arg, skip))
        elif not os.path.exists(arg) and glob.has_magic(arg):
            matches = sorted(glob.glob(arg, recursive=True))
            for match in matches:
                if os.path.isdir(match):
                    found.extend(_xml_below(match, skip))
                else:
                    found.append(match)
            if not matches:
                raise _NothingToRead(f"no file matches the pattern {arg!r}")
        else:
            found.append(arg)
    return found


def _xml_below(directory: str, skip: str | None = None) -> list[str]:
    files: list[str] = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if skip is None or os.path.realpath(os.path.join(root, d)) != skip)
        files.extend(os.path.join(root, n) for n in sorted(names) if n.lower().endswith((".xml", ".pdf")))
    return files


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _default_workers(files: Sequence[str | Path], threads: bool) -> int:
    """See :data:`FILES_PER_WORKER`. The syntaxes are sniffed (the first bytes of each file) only for a batch small
    enough for them to matter."""
    cores = os.cpu_count() or 1
    if threads:
        return max(1, min(cores, len(files)))
    workers = min(cores, len(files) // FILES_PER_WORKER)
    if workers < cores and len(files) > 1:
        syntaxes = {sniff_syntax(str(f)) for f in files[: FILES_PER_WORKER * cores]} - {None}
        workers = max(workers, min(cores, len(syntaxes)))
    return max(1, workers)


def _validate(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: BinaryIO | None) -> int:
    # `validate`'s own modules (3 ms): the other commands' start does without them
    from .progress import Progress
    from .reports.statistics import Statistics

    settings = _settings(args, err)
    files = expand_paths(args.files, exclude=Path(args.output) if args.output else None)
    if not files:
        raise _NothingToRead("no files to validate (no *.xml or *.pdf in the directories given)")
    plan = plan_output(args.format, args.output, files, force=args.force)
    sources: list[Source] = list(files)
    if STDIN in files:  # read once, then validated like a file (named "-")
        data = (stdin or sys.stdin.buffer).read()
        sources = [data if f == STDIN else f for f in files]
    _require_for(args.engine, files)
    engine = engine_for(len(files), args.engine)
    options = Options.model_validate(
        {
            "profile": args.profile,
            "rules_home": args.home,
            "xsd_gate": args.xsd_gate,
            # saxonc chosen by the work: each document's size may still choose (a large one: saxon-java)
            "engine": engine if engine_named(args.engine) or engine != DEFAULT_ENGINE else None,
            "rules_date": args.rules_date,
            "document_timeout": args.document_timeout,
            "mode": args.mode,
        }
    )
    threads = (options.mode or ("threads" if engine == "saxon-java" else "processes")) == "threads"
    workers = min(args.workers or _default_workers(files, threads), len(files))
    progress = (
        Progress(len(files), err, clear_before_output=_isatty(out))
        if len(files) >= PROGRESS_MIN_FILES and _isatty(err)
        else None
    )
    selection = settings.selection()
    statistics = Statistics() if args.statistics else None
    worst = EXIT_VALID
    said: set[str] = set()  # the notes on the rules already said on stderr
    interrupted = False
    with RunOutput(
        plan,
        None if statistics is not None and plan.path is None else out,
        lang=args.lang,
        timings=args.timings,
        quiet=args.quiet,
        errors_only=args.errors_only,
        concise=args.concise,
        timed=True,
        rules_home=args.home,
        engine=args.engine,
    ) as output:
        try:
            for result in iter_validate(sources, workers=workers, options=options):
                source = sources[result.index]
                outcome = Outcome(
                    files[result.index],
                    result.report,
                    _pdf_named(files[result.index], result.error),
                    source if isinstance(source, bytes) else None,
                    selection,
                )
                if outcome.error is not None:
                    worst = EXIT_ERROR
                elif outcome.fails:
                    worst = max(worst, EXIT_INVALID)
                if progress is not None and progress.clear_before_output:
                    progress.clear()
                _say_notes(outcome, said, args.lang, err, progress)
                output.add(result.index, outcome)
                if statistics is not None:
                    statistics.add(outcome)
                if progress is not None:
                    progress.advance()
        except KeyboardInterrupt:  # Ctrl-C: the summary of what was done, then 130 (the workers are stopped)
            interrupted = True
        finally:
            if progress is not None:
                progress.finish()
        output.close()
    if statistics is not None:
        fmt = "json" if {"json", "jsonl"} & set(plan.formats) else "text"
        if fmt == "json":
            print(json.dumps(statistics.as_json(), ensure_ascii=False, indent=2), file=out)
        else:
            out.write(statistics.text(args.lang))
    if plan.path is not None:  # the reports are in files: the summary on stderr (the CI log)
        _print_summary(output, plan.path, args.lang, err)
    if interrupted:  # the summary of the documents done, where the report did not say it (text on stdout does)
        if plan.path is None and "text" not in plan.formats:
            print(summary(output.tally, args.lang, timed=True), file=err)
        print("einvoice-validate: interrupted", file=err)
        return EXIT_INTERRUPTED
    return worst


def _say_notes(outcome: Outcome, said: set[str], lang: str, err: TextIO, progress: Any) -> None:
    """Each note on the rules (a version in force not installed) once per run, on stderr, when first met."""
    for note in outcome.notes:
        if note.message.en in said:
            continue
        said.add(note.message.en)
        if progress is not None:
            progress.clear()
        text = note.message.de if lang == "de" else note.message.en
        print(f"einvoice-validate: {note.severity.value.lower()}: {text} ({note.rule_id})", file=err)


@dataclass(frozen=True, slots=True)
class _NotAPdf:
    """A file named ``.pdf`` that is neither a PDF nor XML: said so (``document.unreadable``)."""

    code: str
    detail: str
    message: Message
    reason: str = "not-xml"


def _pdf_named(name: str, error: Any) -> Any:
    """``error`` of ``name``, said as "not a PDF" when the name ends in ``.pdf`` and the content has no PDF header
    (it was then read as XML, which it is not either)."""
    if error is None or error.code != "document.unreadable" or not name.lower().endswith(".pdf"):
        return error
    try:
        with open(name, "rb") as fh:
            head = fh.read(1024)
    except OSError:
        return error
    if b"%PDF-" in head:
        return error
    en = f"The file is named .pdf but is not a PDF (it has no %PDF- header), nor readable as XML: {error.detail}"
    de = (
        "Die Datei heißt .pdf, ist aber kein PDF (ohne Kopfzeile %PDF-) und auch nicht als XML lesbar: "
        f"{error.message.de}"
    )
    return _NotAPdf("document.unreadable", en, Message(en=en, de=de))


def _settings(args: argparse.Namespace, err: TextIO) -> Effective:
    """Resolve the settings with the configuration file (:mod:`.config`) and write the effective values back
    onto ``args``; warn (stderr) about a selection pattern that matches no rule id the catalogue knows."""
    given = {s.dest: getattr(args, s.dest, None) for s in SETTINGS}
    effective = resolve(given, config=args.config, isolated=args.isolated)
    for s in SETTINGS:
        setattr(args, s.dest, effective[s.key])
    _warn_unknown_patterns(effective, err)
    return effective


def _warn_unknown_patterns(effective: Effective, err: TextIO) -> None:
    selection = effective.selection()
    patterns = [("select", p) for p in selection.select] + [("ignore", p) for p in selection.ignore]
    if not patterns:
        return
    known = list(catalogue().entries)
    for key, pattern in patterns:
        if not any(pattern_matches(pattern, rid) for rid in known):
            print(
                f"einvoice-validate: warning: {key} {pattern!r} ({effective.origins[key]}) matches no rule id the "
                "catalogue knows (a typo? `einvoice-validate rule ID` looks one up)",
                file=err,
            )


def _print_summary(output: RunOutput, path: Path, lang: str, err: TextIO) -> None:
    print(f"{summary(output.tally, lang, timed=True)} -> {path}", file=err)
    ignored = ignored_summary(output.tally, lang)
    if ignored is not None:
        print(ignored, file=err)


def _config(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``config``: the effective settings as TOML, each with its origin, and the rules date."""
    effective = _settings(args, err)
    day = parse_rules_date(args.rules_date) if args.rules_date else date.today()
    here = Path(os.getcwd())
    if args.isolated:
        source = "none read (--isolated)"
    elif args.config is not None:
        source = f"{effective.file} (--config)"
    elif effective.file is not None:
        source = f"{effective.file} (found from {here} upwards)"
    else:
        source = f"none found from {here} upwards"
    print(f"# the settings of `einvoice-validate validate` in {here}", file=out)
    print(f"# configuration file: {source}", file=out)
    out.write(effective.toml())
    origin = f"{CLI_ORIGIN} (--rules-date)" if args.rules_date else f"{DEFAULT_ORIGIN}: today"
    out.write(command_line_only("rules-date", day.isoformat(), origin))
    return EXIT_VALID


def _rule(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``rule ID``: one rule explained; a rule stated per term (``BR-FR-01``: ``BR-FR-01_BT-1``, ...) each of its
    ids explained; a family (``BR-DE-``, or a name that is no id but a family's) listed."""
    # `rule` only: with the catalogue tools and the preparation's id scan (20 ms)
    from .ruleinfo import lookup_rules, rule_ids_of, rules_matching, similar_rules

    family = args.id.endswith(FAMILY_ENDS)
    infos = [] if family else lookup_rules([args.id], Registry(args.home))
    if infos and not infos[0].known and (ids := rule_ids_of(args.id)):
        infos = lookup_rules(ids, Registry(args.home))
    if infos and infos[0].known:
        if args.format == "json":
            shown = [info.as_json() for info in infos]
            print(json.dumps(shown[0] if len(shown) == 1 else shown, ensure_ascii=False, indent=2), file=out)
        else:
            out.write("\n".join(info.text(args.lang) for info in infos))
        return EXIT_VALID
    rules = rules_matching(args.id)
    if rules:
        if args.format == "json":
            print(json.dumps([{"ruleId": r, "en": t} for r, t in rules], ensure_ascii=False, indent=2), file=out)
        for rule_id, text in rules if args.format == "text" else ():
            print(f"{rule_id:<24} {text}", file=out)
        return EXIT_VALID
    if family:
        print(f"einvoice-validate: no rule id the catalogue knows starts with {args.id!r} ({USAGE_CODE})", file=err)
    else:
        close = similar_rules(args.id)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        print(
            f"einvoice-validate: no rule {args.id} in the catalogue or the installed packs{hint} ({USAGE_CODE})",
            file=err,
        )
    return EXIT_ERROR


def _show(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: BinaryIO | None) -> int:
    from .render import Renderer  # `show` only: the viewer, lxml.html (35 ms)

    if args.format == "pdf" and args.output is None and (_isatty(out) or not hasattr(out, "buffer")):
        print(
            f"einvoice-validate: show --format pdf writes binary data: give -o FILE (or redirect it) ({USAGE_CODE})",
            file=err,
        )
        return EXIT_ERROR
    rules_date = parse_rules_date(args.rules_date) if args.rules_date else None
    target = view_target(args.output, args.file, args.format, force=args.force) if args.output is not None else None
    source = (stdin or sys.stdin.buffer).read() if args.file == STDIN else args.file
    renderer = Renderer(Validator(rules_home=args.home, engine=args.engine))
    shown = renderer.show(source, lang=args.lang, fmt=args.format, profile=args.profile, rules_date=rules_date)
    if target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(shown.content)
    elif args.format == "pdf":
        out.buffer.write(shown.content)  # checked above: a real stream
        out.flush()
    else:
        out.write(shown.content.decode("utf-8"))
    report, words = shown.report, WORDS[args.lang]
    said = verdict(report.valid, report.accepted, args.lang)  # the words of validate's verdict line
    counts = [sum(1 for f in report.findings if f.severity is s) for s in Severity]
    where = f" -> {target}" if target is not None else ""
    print(f"{args.file}: {said} [{report.profile}] {words['counts'].format(*counts)}{where}", file=err)
    return EXIT_VALID if report.valid and report.accepted is not False else EXIT_INVALID


def _require_for(engine: str | None, files: Sequence[str]) -> None:
    """What the run needs beyond the core package, checked before any document is read (a worker process would
    otherwise meet it first): the [java] extra for the saxon-java engine, pikepdf for PDF files."""
    if engine == "saxon-java":
        require("java", "--engine saxon-java")
    elif engine is None and os.environ.get(ENGINE_ENV) == "saxon-java":
        require("java", f"the saxon-java engine (${ENGINE_ENV})")
    if any(f.lower().endswith(".pdf") for f in files):
        require_dependency("pikepdf", "PDF input")


def _rulesets(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    registry = Registry(args.home)
    if args.action == "install":
        return _install(registry, args, out, err)
    if args.action == "sources":
        from .rulesets.download import addresses  # urllib and ssl, for this listing only

        for address in addresses(registry.manifests[k] for k in sorted(registry.manifests)):
            print(f"{address.url}\t{address.sha256 or '-'}\t{' '.join(address.packs)}", file=out)
        return EXIT_VALID
    if args.action == "outdated":
        return _outdated(registry, args, out)
    needed = _needed_packs(registry)
    installed = {p.key: p for p in registry.installed()}
    absent = sorted(key for key in needed if key not in installed)
    stood_in = _stand_ins(registry, absent, needed)
    missing = [key for key in absent if key not in stood_in]
    if args.action == "list":  # a quick look: files present (`verify` checks their sha256)
        print(f"rules home: {registry.home}", file=out)
        print(
            f"  {'pack':<22} {'version':<10} {'kind':<13} {'origin':<8} {'in force':<16} {'state':<13} title",
            file=out,
        )
        incomplete = []
        for key, manifest in sorted(registry.manifests.items()):
            state = "not installed" if key in stood_in else "missing"
            if key in installed:
                gone = [rel for rel in manifest.files if not (installed[key].directory / rel).is_file()]
                state = "INCOMPLETE" if gone else _installed_state(installed[key])
                if gone:
                    incomplete.append(f"{key} ({len(gone)} file(s) missing, e.g. {gone[0]})")
            print(
                f"  {manifest.id:<22} {manifest.version:<10} {manifest.kind:<13} {manifest.provided_by:<8} "
                f"{manifest.in_force_text():<16} {state:<13} {manifest.title}",
                file=out,
            )
        _report_missing(missing, needed, registry, err)
        _report_stood_in(stood_in, err)
        for entry in incomplete:
            print(f"einvoice-validate: Pack {entry}; run `rulesets install` again. (ruleset.missing)", file=err)
        return EXIT_ERROR if missing or incomplete else EXIT_VALID
    from .acceptance import acceptance_record  # `rulesets check` / `install` only (15 ms)

    broken = []
    for key, pack in sorted(installed.items()):
        problems = pack.problems()
        record = acceptance_record(registry.home, key) if pack.manifest.acceptance is not None else None
        accepted = f", acceptance set passed on {record.get('documents')} document(s)" if record else ""
        staged = ", the staged copy: not upstream's files" if _installed_state(pack) == "staged copy" else ""
        print(
            f"{key:<34} {'ok' if not problems else 'BROKEN'} ({len(pack.manifest.files)} files{accepted}{staged})",
            file=out,
        )
        for code, rel, detail in problems:
            print(f"  {code}: {rel + ': ' if rel else ''}{detail}", file=out)
        if problems:
            broken.append(key)
    for key in absent:
        print(f"{key:<34} {'NOT INSTALLED' if key in stood_in else 'MISSING'}", file=out)
    _report_missing(missing, needed, registry, err)
    _report_stood_in(stood_in, err)
    if broken:
        print(
            f"einvoice-validate: Damaged pack(s): {', '.join(broken)}; "
            "run `einvoice-validate rulesets install` again. (ruleset.corrupt)",
            file=err,
        )
    return EXIT_ERROR if missing or broken else EXIT_VALID


def _outdated(registry: Registry, args: argparse.Namespace, out: TextIO) -> int:
    """``rulesets outdated``: every pack of the catalogue on a day (:mod:`.rulesets.status`), with the profiles that
    may run each version (a later version no profile lists, because a profile pins its versions, is said to be)."""
    from .rulesets.status import pack_states  # `rulesets outdated` only

    day = parse_rules_date(args.date) if args.date else date.today()
    needed = _needed_packs(registry)
    states = pack_states(registry, day)
    if args.format == "json":
        body = {
            "date": day.isoformat(),
            "rulesHome": str(registry.home),
            "packs": [_state_json(state, needed) for state in states],
        }
        print(json.dumps(body, indent=2, ensure_ascii=False), file=out)
        return EXIT_VALID
    print(f"rules home: {registry.home}; on {day.isoformat()}:", file=out)
    print(f"  {'pack':<26} {'in force':<12} {'since':<11} {'installed':<34} later versions known", file=out)
    for state in states:
        current = state.in_force
        version = current.version if current is not None else "-"
        since = str(current.valid_from or "always") if current is not None else "-"
        if current is None:
            held = "(none in force)"
        elif current.installed:
            held = "staged copy" if current.installed_from == "staged" else "yes"
        else:
            held = f"NO: {state.stand_in.version} stands in" if state.stand_in is not None else "NO"
        later = "; ".join(_later_text(v, needed) for v in state.newer) or "-"
        print(f"  {state.id:<26} {version:<12} {since:<11} {held:<34} {later}", file=out)
    return EXIT_VALID


def _later_text(version: VersionState, needed: dict[str, list[str]]) -> str:
    held = {"upstream": " (installed)", "staged": " (installed: staged copy)", None: ""}[version.installed_from]
    known = "" if version.catalogue == "bundled" else f" [{version.catalogue}]"
    unused = "" if version.key in needed else ", no profile lists it"
    return f"{version.version} {version.in_force_text()}{held}{known}{unused}"


def _version_json(version: VersionState, needed: dict[str, list[str]]) -> dict[str, object]:
    return {
        "version": version.version,
        "validFrom": version.valid_from.isoformat() if version.valid_from else None,
        "validUntil": version.valid_until.isoformat() if version.valid_until else None,
        "installed": version.installed,
        "installedFrom": version.installed_from,
        "catalogue": version.catalogue,
        "usedBy": [name for name in needed.get(version.key, []) if name != SHOW_USER],
    }


def _state_json(state: PackState, needed: dict[str, list[str]]) -> dict[str, object]:
    return {
        "id": state.id,
        "kind": state.kind,
        "title": state.title,
        "inForce": _version_json(state.in_force, needed) if state.in_force is not None else None,
        "standIn": state.stand_in.version if state.stand_in is not None else None,
        "newer": [_version_json(v, needed) for v in state.newer],
    }


def _installed_state(pack: InstalledPack) -> str:
    """``installed``, or ``staged copy`` for a pack installed from its staged copy (``Manifest.staged``: not
    upstream's files)."""
    try:
        return "staged copy" if pack.installed_from() == "staged" else "installed"
    except EInvoiceValidateError:  # no readable record: `verify` names the problem
        return "installed"


def _stand_ins(registry: Registry, absent: list[str], needed: dict[str, list[str]]) -> dict[str, str]:
    """The absent packs that an installed version stands in for, each with what stands in: every profile that may
    run it still plans, on the first day it is in force (else today), with a stand-in for it (see
    :meth:`Profile.plan_on`). Anything else absent is missing (``ruleset.missing``)."""
    profiles = {p.name: p for p in all_profiles(registry.home)}
    found: dict[str, str] = {}
    for key in absent:
        manifest = registry.manifests[key]
        if needed[key] == [SHOW_USER]:
            continue  # the viewer: nothing stands in for it
        users = [profiles[name] for name in needed[key]]
        if any(key == p.xsd or key in p.schematron for p in users):
            continue  # pinned: nothing else may stand in
        day = manifest.valid_from or date.today()
        instead = []
        try:
            for profile in users:
                plan = profile.plan_on(day, registry.manifests, registry)
                instead += [s.instead for s in plan.stand_ins if s.in_force == key]
        except EInvoiceValidateError:
            continue
        if instead:
            found[key] = f"{', '.join(dict.fromkeys(instead))} stands in for it"
    return found


def _report_stood_in(stood_in: dict[str, str], err: TextIO) -> None:
    for key, instead in stood_in.items():
        print(
            f"einvoice-validate: {key} is not installed: {instead} where it is in force (reports say so); "
            f"install: einvoice-validate rulesets install {key} (rules.version-not-installed)",
            file=err,
        )


def _needed_packs(registry: Registry) -> dict[str, list[str]]:
    """Every pack some profile (official, or the rules home's user profiles) may run, with the profiles."""
    needed: dict[str, list[str]] = {}
    for profile in all_profiles(registry.home):
        for key in (profile.xsd, *profile.candidate_keys(registry.manifests)):
            needed.setdefault(key, []).append(profile.name)
    for key, manifest in registry.manifests.items():
        if manifest.kind == "viewer":  # no profile runs it: `show` does
            needed.setdefault(key, []).append(SHOW_USER)
    return needed


def _report_missing(missing: list[str], needed: dict[str, list[str]], registry: Registry, err: TextIO) -> None:
    for key in missing:
        names = needed[key]
        more = f" and {len(names) - 2} more" if len(names) > 2 else ""
        users = "`einvoice-validate show`" if names == [SHOW_USER] else f"the profile(s) {', '.join(names[:2])}{more}"
        print(
            f"einvoice-validate: Pack {key} is not installed in {registry.home} (needed by {users}). (ruleset.missing)",
            file=err,
        )
    if missing:
        print(
            "  install: einvoice-validate rulesets install   (download; or --from DIR, see `rulesets install --help`)",
            file=err,
        )


def _install(registry: Registry, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # the installer and its downloads (urllib, ssl) load for `rulesets install` only
    from .rulesets.download import MIRROR_ENV
    from .rulesets.installer import check_source, install

    check_source(args.source)  # a --from folder that is not there: one line, exit 2 (issue 27)

    mirror = args.mirror or os.environ.get(MIRROR_ENV) or None
    user_only = bool(args.packs) and all(
        k in registry.manifests and registry.manifests[k].provided_by == "user" for k in args.packs
    )
    if user_only:
        print(f"checking and preparing the user pack(s) in {registry.home / 'user'} (nothing is fetched)", file=err)
    elif args.source is not None:
        print(f"installing the rule packs from {args.source} into {registry.home} (no network access)", file=err)
    elif mirror:
        print(f"downloading the rule packs through the mirror {mirror} into {registry.home}", file=err)
    else:
        print(
            f"downloading the rule packs from upstream into {registry.home} (`rulesets sources` lists the addresses)",
            file=err,
        )
    from .progress import Progress  # the one progress bar (documents, or a download's bytes)

    bar = Progress(None, err, unit="bytes") if args.source is None and not user_only and _isatty(err) else None
    corpus = _acceptance_corpus(args)
    accept = None
    if corpus is not None:
        from .acceptance import AcceptanceResult, AcceptanceRunner  # `install` only (15 ms)

        def told(result: AcceptanceResult) -> None:
            how = "(unchanged since its last run)" if result.cached else f"on {result.rules_date}"
            print(f"accepted {result.pack}: {result.documents} document(s) of its acceptance set {how}", file=err)

        accept = AcceptanceRunner(corpus, registry, told)
    elif not user_only:
        print(
            f"no acceptance corpus (--acceptance DIR or ${ACCEPTANCE_ENV}): the acceptance sets are not run", file=err
        )
    try:
        packs = install(
            registry,
            args.source,
            args.packs or None,
            mirror=mirror,
            on_progress=bar.update if bar else None,
            accept=accept,
            on_note=lambda note: print(f"einvoice-validate: {note}", file=err),
        )
    finally:
        if bar is not None:
            bar.finish()
    for pack in packs:
        print(f"installed {pack.key} -> {pack.directory}", file=out)
    return EXIT_VALID


def _acceptance_corpus(args: argparse.Namespace) -> Path | None:
    """The acceptance corpus: ``--acceptance``, ``$EINVOICE_VALIDATE_ACCEPTANCE``, or ``corpus/`` beside the
    ``--from`` folder when there is one."""
    if args.acceptance is not None:
        return Path(args.acceptance)
    if os.environ.get(ACCEPTANCE_ENV):
        return Path(os.environ[ACCEPTANCE_ENV])
    if args.source is not None and (Path(args.source).parent / "corpus").is_dir():
        return Path(args.source).parent / "corpus"
    return None


def _serve(args: argparse.Namespace, err: TextIO) -> int:
    require("server", "serve")  # one line naming the pip install, exit 2 (cli._run); tests/test_server_extra.py
    _require_for(args.engine, [])
    # Starlette and uvicorn, for `serve` only (about 90 ms)
    from .server.run import NotLoopback, serve
    from .server.settings import ServerSettings

    options = Options.model_validate(
        {
            "rules_home": args.home,
            "xsd_gate": args.xsd_gate,
            "engine": args.engine,
            "document_timeout": args.document_timeout,
            "mode": args.mode,
        }
    )
    defaults = ServerSettings()
    max_body = args.max_body_bytes or DEFAULT_LIMITS.max_document_bytes
    try:
        settings = ServerSettings(
            host=args.host,
            port=args.port,
            workers=args.workers,
            queue_size=args.queue_size,
            max_body_bytes=max_body,
            max_buffered_bytes=args.max_buffered_bytes or max(defaults.max_buffered_bytes, max_body),
            max_connections=args.max_connections,
            forwarded_allow_ips=tuple(a.strip() for a in args.forwarded_allow_ips.split(",") if a.strip()),
            body_timeout=args.body_timeout,
            max_in_flight_per_client=args.max_in_flight,
            max_documents=args.max_documents,
            keys_file=args.keys,
            prepare=tuple(args.prepare),
            background=True if "all" in args.background else tuple(args.background),
            options=options,
        )
    except ValueError as exc:
        print(f"einvoice-validate: {exc} ({USAGE_CODE})", file=err)
        return EXIT_ERROR
    try:
        return EXIT_VALID if serve(settings) else EXIT_ERROR
    except NotLoopback as exc:
        print(f"einvoice-validate: {exc} ({USAGE_CODE})", file=err)
        return EXIT_ERROR


def _keys(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .server.access import create_key, load_keys, revoke_key  # `keys` only

    if args.action == "create":
        key, entry = create_key(args.keys, args.permission)
        print(key, file=out)
        print(
            f"key {entry.id} ({entry.permission}) stored as a checksum in {args.keys}; it is shown only now", file=err
        )
        return EXIT_VALID
    if args.action == "list":
        for e in load_keys(args.keys):
            print(f"{e.id}  {e.permission:<8} {e.created}{'  revoked' if e.revoked else ''}", file=out)
        return EXIT_VALID
    if revoke_key(args.keys, args.id):
        return EXIT_VALID
    print(f"einvoice-validate: no key {args.id} in {args.keys} ({USAGE_CODE})", file=err)
    return EXIT_ERROR


def _profiles(args: argparse.Namespace, out: TextIO) -> int:
    """Each profile, its document type and the packs it runs on the day (today, or ``--rules-date``); an entry
    listing several versions shows how it is written and which version that day picks."""
    day = parse_rules_date(args.rules_date) if args.rules_date else date.today()
    registry = Registry(args.home)
    manifests = registry.manifests
    print(f"packs in force on {day.isoformat()}:", file=out)
    for p in all_profiles(registry.home):
        notes = []
        try:
            plan = p.plan_on(day, manifests, registry)
            entries = dict(zip(plan.packs[plan.edition_packs :], p.schematron, strict=True))
            runs = [f"{k} (of {plan.edition})" for k in plan.packs[: plan.edition_packs]]
            runs += [k if entries[k] == k else f"{k} (of {entries[k]})" for k in plan.packs[plan.edition_packs :]]
            for stand_in in plan.stand_ins:
                notes.append(
                    f"  rules.version-not-installed: {stand_in.in_force} is in force but not installed: "
                    f"{stand_in.instead} {'stands in' if stand_in.kind == 'pack' else 'lends its scenarios'}; "
                    f"install: einvoice-validate rulesets install {stand_in.in_force}"
                )
        except EInvoiceValidateError as exc:
            runs = [f"NONE ({exc.detail})"]
        origin = f" (user, on {p.extends})" if p.provided_by == "user" else ""
        packs = f"{p.xsd} + {', '.join(runs)}" if runs else f"{p.xsd} (the XSD alone)"
        print(f"{p.name + origin:<42} {p.root:<15} {packs}", file=out)
        for note in notes:
            print(note, file=out)
    return EXIT_VALID
