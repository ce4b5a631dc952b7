"""The settings of ``validate`` that a project can write down once: :data:`SETTINGS`, where they are found, and the
effective value of each with where it came from (``einvoice-validate config``).

Found as ruff finds its configuration: from the working directory upwards, the first folder holding one of
:data:`CONFIG_FILES` wins, and in one folder ``.einvoice-validate.toml`` before ``einvoice-validate.toml`` before
``pyproject.toml`` (which counts only with a ``[tool.einvoice-validate]`` table). Files in folders further up are
not read (no merging). The project's own files hold the keys at the top level, ``pyproject.toml`` in its table::

    # .einvoice-validate.toml                 # pyproject.toml
    ignore = ["BR-DE-TMP-"]                   [tool.einvoice-validate]
    fail-on = "warning"                       ignore = ["BR-DE-TMP-"]

Precedence, highest first: the command line; the file given with ``--config FILE`` (then nothing is searched),
else the file found; the defaults. ``--isolated`` reads no file. A key on the command line replaces the file's
value of that key (``--ignore X`` replaces the file's ``ignore`` list). An unknown key, a value of the wrong type
or an unknown choice is one line naming the file, the key and what is allowed (:class:`ConfigError`; exit 2).

``--rules-date`` is deliberately not a key: a date pinned in a forgotten file would keep a project on old rules.
``einvoice-validate config`` shows it all the same (:func:`command_line_only`), as a comment, so that what it prints
stays a valid configuration file.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from ._toml import toml_value
from .reports.words import LANGS
from .reports.writer import FORMATS
from .selection import FAIL_ON, Selection

__all__ = [
    "CLI_ORIGIN",
    "CONFIG_FILES",
    "DEFAULT_ORIGIN",
    "SETTINGS",
    "TOOL_TABLE",
    "ConfigError",
    "Effective",
    "Setting",
    "command_line_only",
    "find_config",
    "read_config",
    "resolve",
]

CONFIG_FILES = (".einvoice-validate.toml", "einvoice-validate.toml", "pyproject.toml")
TOOL_TABLE = "einvoice-validate"
CLI_ORIGIN = "command line"
DEFAULT_ORIGIN = "default"
MAX_CONFIG_BYTES = 1 << 20


class ConfigError(ValueError):
    """A configuration file that cannot be used, or a bad value in it: one line (the CLI exits with status 2)."""


Value = str | bool | tuple[str, ...] | None


def _patterns(key: str) -> Callable[[object], Value]:
    def parse(value: object) -> Value:
        strings = isinstance(value, list) and all(isinstance(v, str) for v in value)
        if not (isinstance(value, str) or strings):
            raise ValueError("must be a list of rule ids or families (strings)")
        try:
            selection = Selection.model_validate({key: value})
        except ValidationError as exc:
            raise ValueError(exc.errors()[0]["msg"].removeprefix("Value error, ")) from None
        patterns: tuple[str, ...] = getattr(selection, key)
        return patterns

    return parse


def _choice(choices: tuple[str, ...]) -> Callable[[object], Value]:
    def parse(value: object) -> Value:
        if value not in choices:
            raise ValueError(f"{value!r} is not one of: {', '.join(choices)}")
        assert isinstance(value, str)
        return value

    return parse


def _formats(value: object) -> Value:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(v, str) for v in items):
        raise ValueError(f"must be a format or a list of formats: {', '.join(FORMATS)}")
    for item in items:
        if item not in FORMATS:
            raise ValueError(f"{item!r} is not one of: {', '.join(FORMATS)}")
    return tuple(items)


def _boolean(value: object) -> Value:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {value!r}")
    return value


def _name(value: object) -> Value:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a profile name (see `einvoice-validate profiles`)")
    return value


@dataclass(frozen=True, slots=True)
class Setting:
    """One key: its name in a file (``fail-on``), on the command line (``--fail-on``, argparse ``fail_on``)."""

    key: str
    default: Value
    parse: Callable[[object], Value]
    help: str

    @property
    def dest(self) -> str:
        return self.key.replace("-", "_")

    @property
    def option(self) -> str:
        return f"--{self.key}"


SETTINGS: tuple[Setting, ...] = (
    Setting("select", (), _patterns("select"), "rule ids or families to report (default: all)"),
    Setting("ignore", (), _patterns("ignore"), "rule ids or families to leave out of the reports"),
    Setting("fail-on", "error", _choice(FAIL_ON), "the lowest severity of a reported finding that fails (exit 1)"),
    Setting("format", ("text",), _formats, "the report format(s)"),
    Setting("concise", False, _boolean, "text: the path once per file, short finding lines"),
    Setting("lang", "en", _choice(LANGS), "language of text, html, github and gitlab"),
    Setting("profile", None, _name, "force a profile by name"),
    Setting("xsd-gate", False, _boolean, "skip Schematron after XSD errors (KoSIT behaviour)"),
)
_BY_KEY = {s.key: s for s in SETTINGS}


def find_config(start: Path) -> Path | None:
    """The configuration file that applies in ``start`` (see the module docstring), or None."""
    folder = start.resolve()
    for candidate in (folder, *folder.parents):
        for name in CONFIG_FILES:
            path = candidate / name
            if not path.is_file():
                continue
            if name != "pyproject.toml" or _has_tool_table(path):
                return path
    return None


def _has_tool_table(path: Path) -> bool:
    try:
        data = _load(path)
    except ConfigError:  # a pyproject.toml we cannot read is not ours to judge, unless it names our table
        return f"[tool.{TOOL_TABLE}]" in path.read_text(encoding="utf-8", errors="replace")
    tool = data.get("tool")
    return isinstance(tool, dict) and TOOL_TABLE in tool


def _load(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES} bytes")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None


def read_config(path: Path) -> dict[str, Value]:
    """The settings in ``path`` (a ``pyproject.toml``: its ``[tool.einvoice-validate]`` table), checked."""
    data = _load(path)
    where = f"{path}"
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get(TOOL_TABLE) if isinstance(tool, dict) else None
        if table is None:
            raise ConfigError(f"{path}: has no [tool.{TOOL_TABLE}] table")
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: tool.{TOOL_TABLE} must be a table")
        data, where = table, f"{path} [tool.{TOOL_TABLE}]"
    values: dict[str, Value] = {}
    for key, raw in data.items():
        setting = _BY_KEY.get(key)
        if setting is None:
            hint = f" (did you mean {key.replace('_', '-')}?)" if key.replace("_", "-") in _BY_KEY else ""
            raise ConfigError(f"{where}: unknown key {key!r}{hint}; known: {', '.join(_BY_KEY)}")
        try:
            values[key] = setting.parse(raw)
        except ValueError as exc:
            raise ConfigError(f"{where}: {key}: {exc}") from None
    return values


@dataclass(frozen=True, slots=True)
class Effective:
    """The value of every setting and where it came from: :data:`CLI_ORIGIN`, the file, or
    :data:`DEFAULT_ORIGIN`."""

    values: dict[str, Value]
    origins: dict[str, str]
    file: Path | None

    def __getitem__(self, key: str) -> Value:
        return self.values[key]

    def selection(self) -> Selection:
        return Selection.model_validate(
            {"select": self.values["select"], "ignore": self.values["ignore"], "fail_on": self.values["fail-on"]}
        )

    def toml(self) -> str:
        """The settings as TOML (a valid ``.einvoice-validate.toml``), each with its origin as a comment."""
        lines = []
        for s in SETTINGS:
            value = self.values[s.key]
            text = f"# {s.key} is not set" if value is None else f"{s.key} = {toml_value(value)}"
            lines.append(_line(text, self.origins[s.key]))
        return "".join(lines)


def command_line_only(key: str, value: str, origin: str) -> str:
    """``config``'s line for a setting no file may hold (``rules-date``): a comment, so the output stays a valid
    configuration file."""
    return _line(f"# {key} = {toml_value(value)}", f"{origin}; no file may set it")


def _line(text: str, origin: str) -> str:
    return f"{text:<44} # {origin}\n"


def resolve(
    given: Mapping[str, object], *, start: Path | None = None, config: Path | None = None, isolated: bool = False
) -> Effective:
    """Every setting's effective value: ``given`` (the command line's values by argparse ``dest``; None: not
    given), then ``config`` or the file found from ``start`` (default: the working directory), then the defaults."""
    file: Path | None = None
    from_file: dict[str, Value] = {}
    if config is not None:
        if not config.is_file():
            raise ConfigError(f"--config {config}: no such file")
        file = config
    elif not isolated:
        file = find_config(start or Path(os.getcwd()))
    if file is not None:
        from_file = read_config(file)
    values: dict[str, Value] = {}
    origins: dict[str, str] = {}
    origin_of_file = str(file) if file is None or file.name != "pyproject.toml" else f"{file} [tool.{TOOL_TABLE}]"
    for s in SETTINGS:
        cli = given.get(s.dest)
        if cli is not None:
            try:
                values[s.key] = s.parse(list(cli) if isinstance(cli, tuple | list) else cli)
            except ValueError as exc:
                raise ConfigError(f"{s.option}: {exc}") from None
            origins[s.key] = f"{CLI_ORIGIN} ({s.option})"
        elif s.key in from_file:
            values[s.key], origins[s.key] = from_file[s.key], origin_of_file
        else:
            values[s.key], origins[s.key] = s.default, DEFAULT_ORIGIN
    return Effective(values, origins, file)
