"""Validator configurations as packs (KoSIT's ``scenarios.xml``): their scenarios read once, at install.

A configuration pack (``kind = "configuration"``) holds a KoSIT validator configuration's ``scenarios.xml`` as
upstream publishes it (the template of the git tag, with ``@token@`` placeholders in texts and resource paths,
or the built file of a release archive: both read alike). At install :func:`prepare_configuration` reads each
scenario's name, the Schematron resources it runs (by file name, in order) and its ``customLevel`` overrides,
checks that the manifest pins a pack for every such resource (:attr:`Manifest.resources`), and writes the result
to ``prepared/scenarios.json``, recorded with its sha256 and the sha256 of ``scenarios.xml`` in
``prepared.json`` (the index prepared stylesheets use, with the reader's version as its one step), so the
registry verifies it like a prepared stylesheet. Validation reads that file (:func:`load_scenarios`), never the
XML.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, cast, get_args

from lxml import etree

from ..errors import Detail, RulesetError
from ..findings import Flag

if TYPE_CHECKING:
    from .manifest import Manifest
    from .prepare import PreparedIndex

__all__ = [
    "READER_STEPS",
    "SCENARIOS",
    "SCENARIOS_NS",
    "Scenario",
    "load_scenarios",
    "prepare_configuration",
    "read_scenarios",
]

SCENARIOS_NS = "http://www.xoev.de/de/validator/framework/1/scenarios"
SCENARIOS = "scenarios"
"""The entry name of a configuration's ``scenarios.xml`` (``Manifest.entries``) and of its prepared form."""
READER_STEPS: dict[str, int] = {"read-scenarios": 1}
"""What ``prepared.json`` records for a configuration (a new version whenever the reader's output can change)."""

_S = f"{{{SCENARIOS_NS}}}"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
_FLAGS = frozenset(get_args(Flag))


@dataclass(frozen=True, slots=True)
class Scenario:
    """One scenario of a configuration: its name, the Schematron resources it runs (file names, in order) and its
    severity overrides (rule id → level)."""

    name: str
    schematron: tuple[str, ...]
    custom_levels: Mapping[str, Flag] = field(default_factory=dict)


def read_scenarios(data: bytes) -> tuple[Scenario, ...]:
    """The scenarios of a ``scenarios.xml``, in file order. Raises ``ValueError`` on anything unexpected."""
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"not well-formed XML: {exc}") from exc
    if root.tag != f"{_S}scenarios":
        raise ValueError(f"the root element is {root.tag}, not scenarios ({SCENARIOS_NS})")
    scenarios: list[Scenario] = []
    for element in root.iterchildren(f"{_S}scenario"):
        name = " ".join((element.findtext(f"{_S}name") or "").split())
        if not name:
            raise ValueError("a scenario without a name")
        resources = tuple(
            PurePosixPath((location.text or "").strip()).name
            for location in element.iterfind(f"{_S}validateWithSchematron/{_S}resource/{_S}location")
        )
        if "" in resources:
            raise ValueError(f"scenario {name}: a Schematron resource without a location")
        levels: dict[str, Flag] = {}
        for custom in element.iter(f"{_S}customLevel"):
            rule, level = (custom.text or "").strip(), (custom.get("level") or "").strip()
            if not rule or level not in _FLAGS:
                raise ValueError(f"scenario {name}: customLevel {rule!r} with the level {level!r}")
            if levels.get(rule, level) != level:
                raise ValueError(f"scenario {name}: two levels for {rule}")
            levels[rule] = cast(Flag, level)
        scenarios.append(Scenario(name, resources, levels))
    names = [s.name for s in scenarios]
    if not scenarios or len(set(names)) != len(names):
        raise ValueError("no scenarios, or two with the same name")
    return tuple(scenarios)


def _to_json(scenarios: tuple[Scenario, ...], source_sha256: str) -> bytes:
    body = {
        "source_sha256": source_sha256,
        "scenarios": [
            {"name": s.name, "schematron": list(s.schematron), "custom_levels": dict(s.custom_levels)}
            for s in scenarios
        ],
    }
    return (json.dumps(body, indent=2, sort_keys=True) + "\n").encode("utf-8")


def load_scenarios(path: Path, source_sha256: str) -> dict[str, Scenario]:
    """The scenarios :func:`prepare_configuration` wrote, by name; ``source_sha256``: the ``scenarios.xml`` they
    must have been read from. Anything else is ``ruleset.corrupt``."""
    try:
        body = json.loads(path.read_bytes())
        if body["source_sha256"] != source_sha256:
            raise ValueError("read from another scenarios.xml")
        found = {}
        for raw in body["scenarios"]:
            levels = {str(k): str(v) for k, v in raw["custom_levels"].items()}
            if not set(levels.values()) <= _FLAGS:
                raise ValueError(f"unknown levels in {raw['name']}")
            found[str(raw["name"])] = Scenario(
                str(raw["name"]), tuple(str(r) for r in raw["schematron"]), cast(dict[str, Flag], levels)
            )
        return found
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RulesetError("ruleset.corrupt", Detail("detail.scenarios-unusable", path, exc)) from exc


def prepare_configuration(pack_dir: Path, manifest: Manifest) -> PreparedIndex:
    """Read the configuration's scenarios (see the module docstring) into ``prepared/scenarios.json`` and
    ``prepared.json``. A configuration that cannot be read, or whose scenarios run a Schematron resource the
    manifest pins to no pack, is ``ruleset.install-failed``."""
    from .prepare import PREPARED_DIR, write_prepared  # the preparation (12 ms) loads at install, not at every start

    rel = manifest.entries[SCENARIOS]
    data = (pack_dir / rel).read_bytes()
    try:
        scenarios = read_scenarios(data)
        unpinned = sorted({r for s in scenarios for r in s.schematron} - set(manifest.resources))
        if unpinned:
            raise ValueError(f"its scenarios run {', '.join(unpinned)}, for which the manifest pins no pack")
    except ValueError as exc:
        raise RulesetError(
            "ruleset.install-failed", Detail("detail.scenarios-unreadable", manifest.key, rel, exc)
        ) from exc
    out = _to_json(scenarios, hashlib.sha256(data).hexdigest())
    return write_prepared(
        pack_dir, f"{PREPARED_DIR}/{SCENARIOS}.json", {SCENARIOS: (rel, data, out)}, dict(READER_STEPS)
    )
