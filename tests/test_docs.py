"""Every example of the README and the documentation site runs, and its output is the one the page quotes.

The pages: README.md and docs/ (less docs/design/ and docs/development/, pages written for the
project's engineers). One test per page; its code blocks run in order in a fresh folder holding a copy of
``examples/`` and a rules home over the installed packs (so that a page may add user packs):

- ``console``: each ``$ command`` runs (``einvoice-validate`` in this process, other commands with bash); the lines
  after it are its output (stdout and stderr), compared after normalising times and rates. ``# exit N`` after the
  command is its expected exit status (else 0). ``validate``, ``show``, ``profiles`` and ``config`` get the fixed
  rules date :data:`RULES_DATE` unless the command names one (results must not follow the machine's clock).
- ``sh``: each line runs the same way, its output not compared; ``serve ... &`` starts the server on a free port
  for the lines after it. Lines that need a network or build the release (:data:`NOT_HERE`) are not run here: each
  names where it is checked instead.
- ``python``: run (one namespace per page); a following ``text`` block with ``title="Output"`` is its output.
- ``toml``: parsed; a ``# .einvoice-validate.toml`` is read by ``einvoice-validate config``. ``yaml``: parsed, and
  each ``einvoice-validate`` line of its steps runs on a folder of invoices.

``EINVOICE_UPDATE_DOCS=1`` writes the outputs the program gives into the pages (review the diff).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from einvoice_validate.cli import main
from einvoice_validate.rulesets import Registry

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PAGES = [
    REPO / "README.md",
    *sorted(
        p
        for p in DOCS.rglob("*.md")
        if p.relative_to(DOCS).parts[0] not in ("design", "development") and p.name != "architecture.md"
    ),
]
RULES_DATE = "2026-11-25"
DATED = ("validate", "show", "profiles", "config")
UPDATE = os.environ.get("EINVOICE_UPDATE_DOCS") == "1"
BIN = Path(sys.executable).parent
NOT_HERE = {
    "make ": "the Makefile's targets are what CI runs (.ci/run)",
    "pip install": "make dist installs the wheel in a fresh virtual environment (tools/wheel-smoke.sh)",
    "wget ": "a download (tests/test_download.py serves the sources on 127.0.0.1)",
    "rulesets install\n": "a download (tests/test_download.py installs through the real download path)",
    "rulesets verify ||": "the rules home of a CI runner (tests/test_cli.py verifies one)",
    "twine upload": "publishing (make dist runs twine check on the same files)",
    "--from rules-download": "the files the line before downloads (tests/test_download.py installs such a folder)",
}
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```$", re.M | re.S)
TIMES = [
    (re.compile(r"\b\d+[.,]\d s, \d+[.,]\d/s\b"), "N s, N/s"),
    (re.compile(r"\b\d+(\.\d+)? ms\b"), "N ms"),
    (re.compile(r'"time": ?"?[\d.]+"?|time="[\d.]+"'), "time"),
]


@dataclass
class Block:
    lang: str
    info: str
    body: str
    start: int
    end: int


@dataclass
class Page:
    path: Path
    text: str
    blocks: list[Block] = field(default_factory=list)
    edits: list[tuple[Block, str]] = field(default_factory=list)


def blocks_of(path: Path) -> Page:
    text = path.read_text(encoding="utf-8")
    page = Page(path, text)
    for m in FENCE.finditer(text):
        page.blocks.append(Block(m.group(1), m.group(2).strip(), m.group(3), m.start(3), m.end(3)))
    return page


def clean(text: str, sandbox: Path) -> str:
    """The output as a page quotes it: the sandbox's path as ``/repo``, no trailing blanks."""
    text = text.replace(str(sandbox), "/repo").replace("\r\x1b[K", "")
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def normalise(text: str) -> str:
    """Times and rates, which differ from run to run, as ``N``."""
    for pattern, replacement in TIMES:
        text = pattern.sub(replacement, text)
    return text


def matches(expected: str, actual: str) -> bool:
    """Line by line; a line ``...`` stands for any number of lines."""
    want, got = expected.splitlines(), actual.splitlines()

    def at(i: int, j: int) -> bool:
        if i == len(want):
            return j == len(got)
        if want[i] == "...":
            return any(at(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and want[i] == got[j] and at(i + 1, j + 1)

    return at(0, 0)


class Runner:
    """Runs one page's commands in ``sandbox`` with its own rules home."""

    def __init__(self, sandbox: Path, home: Path) -> None:
        self.sandbox = sandbox
        self.env = {
            **os.environ,
            "EINVOICE_VALIDATE_HOME": str(home),
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            "COLUMNS": "120",
        }
        self.server: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.namespace: dict[str, object] = {"__name__": "__docs__"}

    def close(self) -> None:
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=60)
            self.server = None

    def skipped(self, line: str) -> str | None:
        """Why ``line`` is not run here (:data:`NOT_HERE`), else None."""
        code = line.split(" #", 1)[0].strip() + "\n"
        for start, reason in NOT_HERE.items():
            if start in code:
                return reason
        return None

    def command(self, line: str) -> tuple[int, str]:
        """Run one command line; its exit status and output (stdout, then stderr as they came)."""
        line = line.replace("8080", str(self.port)) if self.port else line
        code_part = line.split(" #", 1)[0].strip()
        if code_part.startswith("einvoice-validate serve"):  # in the background, on a free port, until the page ends
            self.close()
            return self.start_server(code_part.rstrip("&").strip()), ""
        stdin = None
        if " | einvoice-validate " in code_part and code_part.count("|") == 1:
            feed, code_part = code_part.split(" | ", 1)
            stdin = subprocess.run(
                feed, shell=True, cwd=self.sandbox, env=self.env, capture_output=True, check=True
            ).stdout
        if code_part.startswith("einvoice-validate ") and not re.search(r"[|><;&`$]", code_part):
            return self.in_process(shlex.split(code_part)[1:], stdin)
        done = subprocess.run(
            ["bash", "-c", code_part + " 2>&1"], cwd=self.sandbox, env=self.env, capture_output=True, timeout=300
        )
        return done.returncode, done.stdout.decode("utf-8", "replace")

    def in_process(self, args: list[str], stdin: bytes | None) -> tuple[int, str]:
        if args and args[0] in DATED and "--rules-date" not in args and "--help" not in args:
            args = [args[0], "--rules-date", RULES_DATE, *args[1:]]
        stream = io.StringIO()
        saved = dict(os.environ)
        cwd = os.getcwd()
        try:
            os.environ.clear()
            os.environ.update(self.env)
            os.chdir(self.sandbox)
            code = main(args, stdout=stream, stderr=stream, stdin=io.BytesIO(stdin or b""))
        finally:
            os.chdir(cwd)
            os.environ.clear()
            os.environ.update(saved)
        return code, stream.getvalue()

    def start_server(self, command: str) -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        args = [*shlex.split(command), "--port", str(self.port)]
        self.server = subprocess.Popen(
            [str(BIN / "einvoice-validate"), *args[1:]],
            cwd=self.sandbox,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            health = f"http://127.0.0.1:{self.port}/v1/health"
            with contextlib.suppress(OSError), urllib.request.urlopen(health, timeout=5) as answer:
                if answer.status == 200:
                    return 0
            if self.server.poll() is not None:
                return self.server.returncode or 1
            time.sleep(0.3)
        return 1

    def python(self, source: str) -> str:
        """Run a Python example; what it printed. Spark's tasks get this interpreter, as the Spark page says."""
        out = io.StringIO()
        cwd = os.getcwd()
        spark_python = os.environ.get("PYSPARK_PYTHON")
        try:
            os.chdir(self.sandbox)
            os.environ["PYSPARK_PYTHON"] = sys.executable
            with contextlib.redirect_stdout(out):
                exec(compile(source, "<docs>", "exec"), self.namespace)
        finally:
            os.chdir(cwd)
            if spark_python is None:
                os.environ.pop("PYSPARK_PYTHON", None)
            else:
                os.environ["PYSPARK_PYTHON"] = spark_python
        return out.getvalue()


def lines_of(body: str) -> list[str]:
    """Logical lines: a trailing backslash continues a line; blank lines and comments are dropped."""
    joined = re.sub(r"\\\n\s*", " ", body)
    return [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def expected_exit(line: str) -> int:
    found = re.search(r"#\s*exit (\d+)", line)
    return int(found.group(1)) if found else 0


def run_console(runner: Runner, page: Page, block: Block) -> None:
    chunks: list[tuple[str, list[str]]] = []
    for line in block.body.splitlines():
        if line.startswith("$ "):
            chunks.append((line[2:], []))
        else:
            assert chunks, f"{page.path.name}: output before any command in a console block"
            chunks[-1][1].append(line)
    new = []
    for command, output in chunks:
        code, got = runner.command(command)
        got = clean(got, runner.sandbox)
        assert code == expected_exit(command), f"{page.path.name}: `{command}` exited {code}:\n{got}"
        want = "\n".join(output).strip("\n")
        if UPDATE:
            new += [f"$ {command}", *([got] if got else [])]
        elif want:
            said = f"{page.path.name}: `{command}` printed\n{got}\n--- the page says\n{want}"
            assert matches(normalise(want), normalise(got)), said
    if UPDATE:
        page.edits.append((block, "\n".join(new)))


def run_sh(runner: Runner, page: Page, block: Block) -> None:
    for line in lines_of(block.body):
        if runner.skipped(line):
            continue
        code, got = runner.command(line)
        assert code == expected_exit(line), f"{page.path.name}: `{line}` exited {code}:\n{got}"


def run_yaml(runner: Runner, page: Page, block: Block) -> None:
    data = yaml.safe_load(block.body)
    commands: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("run", "script"):
                    commands.extend(value if isinstance(value, list) else [value])
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(data)
    invoices = runner.sandbox / "invoices"
    if not invoices.exists():
        shutil.copytree(runner.sandbox / "examples", invoices, ignore=shutil.ignore_patterns("user", "*.md"))
    for command in commands:
        if "einvoice-validate validate" in command:
            code, got = runner.command(command.split("&&")[-1].strip())
            assert code in (0, 1), f"{page.path.name}: `{command}` exited {code}:\n{got}"
        else:
            assert "einvoice-validate" not in command or runner.skipped(command), command


def run_toml(runner: Runner, page: Page, block: Block) -> None:
    tomllib.loads(block.body)
    first = block.body.splitlines()[0]
    if first.startswith("# .einvoice-validate.toml"):
        (runner.sandbox / "docs-config.toml").write_text(block.body, encoding="utf-8")
        code, got = runner.in_process(["config", "--config", "docs-config.toml"], None)
        assert code == 0, f"{page.path.name}: the configuration file is refused:\n{got}"


def run_page(page: Page, sandbox: Path, home: Path) -> None:
    runner = Runner(sandbox, home)
    try:
        blocks = page.blocks
        for i, block in enumerate(blocks):
            if block.lang == "console":
                run_console(runner, page, block)
            elif block.lang == "sh":
                run_sh(runner, page, block)
            elif block.lang == "python":
                got = runner.python(block.body)
                following = blocks[i + 1] if i + 1 < len(blocks) else None
                if following is not None and 'title="Output"' in following.info:
                    got = clean(got, sandbox)
                    if UPDATE:
                        page.edits.append((following, got))
                    else:
                        want = following.body.strip("\n")
                        said = f"{page.path.name}: the example printed\n{got}\n--- the page says\n{want}"
                        assert matches(normalise(want), normalise(got)), said
            elif block.lang == "yaml":
                run_yaml(runner, page, block)
            elif block.lang == "toml":
                run_toml(runner, page, block)
    finally:
        runner.close()
    if UPDATE and page.edits:
        text = page.text
        for block, new in sorted(page.edits, key=lambda e: -e[0].start):
            text = text[: block.start] + (new + "\n" if new else "") + text[block.end :]
        page.path.write_text(text, encoding="utf-8")


@pytest.fixture
def sandbox(tmp_path: Path, registry: Registry) -> tuple[Path, Path]:
    """A copy of the examples and a rules home whose packs are the installed ones (its user folder its own)."""
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    home = tmp_path / "rules-home"
    home.mkdir()
    for entry in registry.home.iterdir():
        if entry.name != "user":
            (home / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    return tmp_path, home


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(REPO)) for p in PAGES])
def test_every_example_of_the_page_runs(path: Path, sandbox: tuple[Path, Path]) -> None:
    page = blocks_of(path)
    run_page(page, *sandbox)


def test_the_readme_is_read_in_five_minutes() -> None:
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_every_shell_line_left_out_says_where_it_is_checked() -> None:
    runner = Runner(REPO, REPO)
    left_out = [
        (page.name, line)
        for page in PAGES
        for block in blocks_of(page).blocks
        if block.lang == "sh"
        for line in lines_of(block.body)
        if runner.skipped(line)
    ]
    assert all(runner.skipped(line) for _, line in left_out)
    # the commands left out are few: installing from an index or a download, building the release, publishing
    assert len(left_out) <= 16, left_out
