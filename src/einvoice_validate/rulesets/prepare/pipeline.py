"""The preparation's pipeline: the steps in order, a stylesheet through them, a pack's prepared copies and their index.

Each step lives in its own module (``strip_unused_output.py``, ``isolate_rule_errors.py``, …: what it rewrites and
why, in its docstring); this module orders them (:data:`STEPS`), applies them (:func:`prepare_stylesheet`), refuses a
prepared copy that would still read a resource at run time (:func:`resource_reads`) and writes the prepared copies
and ``prepared.json`` (:func:`prepare_pack_dir`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ...errors import Detail, RulesetError
from ._xslt import _KEPT, _PARSER, PreparationError, _count, _count_assertions, _x
from .compact_assertions import _compact_assertions, is_compact_call
from .distribute_union_steps import _distribute_union_steps
from .drop_empty_rule_reports import _drop_empty_rule_reports
from .exclude_result_namespaces import _exclude_result_namespaces
from .guard_absence_tests import _guard_absence_tests
from .hoist_document_constants import _hoist_document_constants
from .index_attribute_names import _index_attribute_names
from .index_location_positions import _index_location_positions
from .index_pattern_predicates import _index_pattern_predicates
from .index_sibling_lookups import _index_sibling_lookups
from .inline_code_db import _inline_code_db
from .isolate_rule_errors import _isolate_rule_errors
from .name_bracketed_asserts import _name_bracketed_asserts, bracketed_id
from .name_not_used_reports import _name_not_used_reports, not_used_id
from .relative_patterns import _relative_patterns
from .skip_attribute_walk import _skip_attribute_walk
from .skip_text_walk import _skip_text_walk
from .strip_unused_output import _strip_unused_output

# The format of prepared.json (2: with the list of steps and their versions).
PREPARATION_VERSION = 2
PREPARED_DIR = "prepared"
PREPARED_INDEX = "prepared.json"

# XPath functions that read a resource at run time (by a URI the document could influence); none may remain in a
# prepared stylesheet. XSLT instructions that read or write other resources likewise.
RESOURCE_FUNCTIONS = (
    "document",
    "doc",
    "doc-available",
    "unparsed-text",
    "unparsed-text-lines",
    "unparsed-text-available",
    "collection",
    "uri-collection",
    "json-doc",
    "transform",
    "load-xquery-module",
)
RESOURCE_INSTRUCTIONS = ("import", "include", "import-schema", "result-document", "source-document", "merge-source")
_RESOURCE_CALL = re.compile(
    r"(?<![\w.:-])(?:[A-Za-z_][\w.-]*:)?(" + "|".join(re.escape(f) for f in RESOURCE_FUNCTIONS) + r")\s*\("
)
_DOCUMENT_PARAM = re.compile(r"(?<![\w.:-])document\(\s*\$([\w.-]+)\s*\)")


def assigned_id(rule_id: str | None, text: str) -> str | None:
    """The id a finding of an assertion with official id ``rule_id`` and text ``text`` (with its label, if any) has
    after the preparation: its own; for an id-less one :data:`NOT_USED_ID` (a Factur-X "not used" report, step
    ``name-not-used-reports``) or the text's leading ``[rule id]`` (step ``name-bracketed-asserts``); else None (the
    preparation refuses it)."""
    return not_used_id(rule_id, " ".join(text.split())) or bracketed_id(text)


def resource_reads(root: etree._Element) -> list[str]:
    """Every place in a stylesheet that reads a resource at run time: the instructions of
    :data:`RESOURCE_INSTRUCTIONS` and each attribute value calling a function of :data:`RESOURCE_FUNCTIONS`
    (XSLT 2.0 holds XPath only in attributes; a text value template needs XSLT 3.0's ``expand-text``, refused too)."""
    found = [f"xsl:{name}" for name in RESOURCE_INSTRUCTIONS for _ in root.iter(_x(name))]
    # SchXslt's entry template reads document($schxslt.validate.initial-document-uri): a global parameter only the
    # caller can set (our engines never set stylesheet parameters), so no document can choose what it reads.
    params = {p.get("name") for p in root.iterchildren(_x("param"))}

    def caller_only(match: re.Match[str]) -> str:
        return "" if match.group(1) in params else match.group(0)

    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in ((str(n), str(v)) for n, v in element.attrib.items()):
            if element.tag == _x("sequence") and name == "select" and is_compact_call(value):
                continue  # compact-assertions: a call with string literals only
            if name == "expand-text" and value.strip() in ("yes", "true", "1"):
                found.append(f"expand-text on {element.tag}")
            match = _RESOURCE_CALL.search(_DOCUMENT_PARAM.sub(caller_only, value))
            if match:
                found.append(f"{match.group(1)}() in @{name} of {etree.QName(element).localname}: {value[:80]}")
    return found


@dataclass(frozen=True, slots=True)
class Step:
    """One named, versioned rewrite of the preparation (a new version whenever its output can change)."""

    name: str
    version: int
    apply: Callable[..., None]
    uses_resources: bool = False
    """The step is called as ``apply(root, resources)``: the pack's files next to the stylesheet, by name."""
    outputs: tuple[str, ...] = ("svrl",)
    """The report formats (``Manifest.output``) of the stylesheets the step is written for: every step today
    rewrites the ISO skeleton's and SchXslt's SVRL output; a pack writing another format (OIOUBL's ``<Error>``
    report) gets none of them (:func:`steps_for`)."""


STEPS: tuple[Step, ...] = (
    Step("distribute-union-steps", 1, _distribute_union_steps),
    Step("inline-code-db", 1, _inline_code_db, uses_resources=True),
    Step("name-not-used-reports", 1, _name_not_used_reports),
    Step("name-bracketed-asserts", 1, _name_bracketed_asserts),
    Step("strip-unused-output", 1, _strip_unused_output),
    Step("guard-absence-tests", 3, _guard_absence_tests),
    Step("isolate-rule-errors", 2, _isolate_rule_errors),
    Step("skip-attribute-walk", 1, _skip_attribute_walk),
    Step("compact-assertions", 1, _compact_assertions),
    Step("skip-text-walk", 1, _skip_text_walk),
    Step("drop-empty-rule-reports", 1, _drop_empty_rule_reports),
    Step("relative-patterns", 1, _relative_patterns),
    Step("hoist-document-constants", 2, _hoist_document_constants),
    Step("index-sibling-lookups", 2, _index_sibling_lookups),
    Step("index-attribute-names", 1, _index_attribute_names),
    Step("index-location-positions", 2, _index_location_positions),
    Step("index-pattern-predicates", 1, _index_pattern_predicates),
    Step("exclude-result-namespaces", 1, _exclude_result_namespaces),
)
"""Every step, in the order they are applied. ``distribute-union-steps`` comes first, so every later step sees the
match patterns Saxon 9.9 compiles (``skip-attribute-walk`` judges each alternative's last step,
``isolate-rule-errors`` copies the pattern into a rule error's context); the steps that only set ids
(``name-not-used-reports``, ``name-bracketed-asserts``) come before ``isolate-rule-errors``, which needs every
assertion's id for the rule errors it writes; ``compact-assertions`` comes after every step that reads the
assertions' SVRL elements; ``skip-text-walk``, ``drop-empty-rule-reports`` (SchXslt's walk and report) and
``relative-patterns`` (after ``isolate-rule-errors`` has copied each rule's pattern as written into its errors'
context) read none and come late; ``hoist-document-constants`` and ``index-sibling-lookups`` rewrite the rules'
expressions as every earlier step left them, the latter after the former (it reads the global variables the former
adds: ``$G/…`` paths, lookups keyed on a hoisted value), and ``index-attribute-names`` after both (it rewrites
the global variables ``hoist-document-constants`` leaves, ``not(//@N)``); ``index-location-positions`` rewrites the
location templates and functions the earlier steps leave as they are; ``index-pattern-predicates`` comes last: it
rewrites match patterns only, after every step that reads them (``isolate-rule-errors`` has copied each pattern as
written into its rule errors' context, ``relative-patterns`` has dropped leading ``//``);
``exclude-result-namespaces`` sets attributes on the root element and SchXslt's report elements only, after every
step that may add literal result elements."""

DEFAULT_STEPS: tuple[str, ...] = tuple(step.name for step in STEPS)
"""The steps the installer applies to a pack writing SVRL."""


def steps_for(output: str) -> tuple[str, ...]:
    """The steps the installer applies to a pack whose stylesheet writes the report format ``output``
    (``Manifest.output``): those written for it (:attr:`Step.outputs`), in order; none for a format no step knows
    (the prepared copy is then the official stylesheet, checked like every prepared copy by :func:`resource_reads`)."""
    return tuple(step.name for step in STEPS if output in step.outputs)


def step_versions(names: Sequence[str] = DEFAULT_STEPS, available: Sequence[Step] = STEPS) -> dict[str, int]:
    """``name → version`` of the named steps, in application order (what ``prepared.json`` records)."""
    unknown = set(names) - {step.name for step in available}
    if unknown:
        raise ValueError(f"unknown preparation steps: {sorted(unknown)}")
    return {step.name: step.version for step in available if step.name in names}


def prepare_stylesheet(
    data: bytes,
    steps: Sequence[str] = DEFAULT_STEPS,
    available: Sequence[Step] = STEPS,
    resources: Mapping[str, bytes] | None = None,
) -> bytes:
    """The prepared form of one official stylesheet with the named ``steps``, applied in the order of
    ``available`` (:data:`STEPS`; a benchmark may pass other versions of a step) whatever the order given.
    ``resources``: the pack's files next to the stylesheet (name → content) that ``inline-code-db`` may inline.
    Deterministic: same input, same steps, same bytes."""
    chosen = step_versions(steps, available)
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as exc:
        raise PreparationError(f"the stylesheet is not well-formed XML: {exc}") from exc
    if root.tag not in (_x("stylesheet"), _x("transform")):
        raise PreparationError(f"the root element is {root.tag}, not xsl:stylesheet")
    if any(True for _ in root.iter(_x("import"), _x("include"))):
        # The prepared copy lives in another folder: relative references would point elsewhere.
        raise PreparationError("the stylesheet imports or includes other stylesheets")
    kept_before = _count(root, _KEPT)
    if kept_before == 0 and chosen:  # the steps rewrite SVRL output (steps_for: none for another format)
        raise PreparationError("the stylesheet has no svrl:failed-assert or svrl:successful-report")
    for step in available:
        if step.name in chosen:
            if step.uses_resources:
                step.apply(root, resources or {})
            else:
                step.apply(root)
            if _count_assertions(root) != kept_before:
                raise PreparationError(f"step {step.name} changed the number of assertions (this is a bug)")
    # The whole document: the licence comments before the root element stay.
    result: bytes = etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8")
    return result


@dataclass(frozen=True, slots=True)
class PreparedEntry:
    """One prepared stylesheet as recorded in ``prepared.json``."""

    path: str  # relative to the pack folder
    sha256: str
    source: str  # the official file it was made from (relative to the pack folder)
    source_sha256: str


@dataclass(frozen=True, slots=True)
class PreparedIndex:
    """``prepared.json``: the format version, the steps applied (name → version, in order) and the prepared copy
    of each entry point."""

    version: int
    entries: dict[str, PreparedEntry]  # entry name (``stylesheet``) → prepared copy
    steps: dict[str, int]

    def to_json(self) -> str:
        body = {
            "preparation": self.version,
            "steps": [{"name": name, "version": version} for name, version in self.steps.items()],
            "entries": {
                name: {"path": e.path, "sha256": e.sha256, "source": e.source, "source_sha256": e.source_sha256}
                for name, e in sorted(self.entries.items())
            },
        }
        return json.dumps(body, indent=2, sort_keys=True) + "\n"


def read_index(pack_dir: Path) -> PreparedIndex | None:
    """The pack's ``prepared.json``, or None when there is none; unreadable content is ``ruleset.corrupt``."""
    path = pack_dir / PREPARED_INDEX
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RulesetError("ruleset.corrupt", Detail("detail.cannot-read", path, exc)) from exc
    try:
        body = json.loads(raw)
        entries = {
            str(name): PreparedEntry(str(e["path"]), str(e["sha256"]), str(e["source"]), str(e["source_sha256"]))
            for name, e in body["entries"].items()
        }
        steps = {str(step["name"]): int(step["version"]) for step in body.get("steps", [])}
        return PreparedIndex(int(body["preparation"]), entries, steps)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RulesetError("ruleset.corrupt", Detail("detail.prepared-index-invalid", path, exc)) from exc


def stylesheet_resources(pack_dir: Path, rel: str, files: Collection[str]) -> dict[str, bytes]:
    """The pack's files in the folder of the stylesheet ``rel`` (only files the manifest lists and checksums)."""
    folder = str(Path(rel).parent.as_posix())
    prefix = "" if folder in ("", ".") else folder + "/"
    return {
        other[len(prefix) :]: (pack_dir / other).read_bytes()
        for other in files
        if other != rel and other.startswith(prefix) and "/" not in other[len(prefix) :]
    }


def prepare_pack_dir(
    pack_dir: Path, entries: dict[str, str], pack_key: str, files: Collection[str] = (), output: str = "svrl"
) -> PreparedIndex:
    """Write the prepared copy of each stylesheet entry (``name → path relative to pack_dir``) and
    ``prepared.json``. Files are written to a temporary name and renamed: a reader never sees half a file.
    ``files``: the pack's files (manifest, already verified) that ``inline-code-db`` may inline. ``output``: the
    report format the stylesheet writes (``Manifest.output``), which chooses the steps (:func:`steps_for`).
    Raises ``ruleset.install-failed`` when a stylesheet cannot be prepared or its prepared copy would still
    read a resource at run time (:func:`resource_reads`)."""
    prepared: dict[str, tuple[str, bytes, bytes]] = {}
    steps = steps_for(output)
    for name, rel in sorted(entries.items()):
        source = pack_dir / rel
        data = source.read_bytes()
        try:
            out = prepare_stylesheet(data, steps, resources=stylesheet_resources(pack_dir, rel, files))
            reads = resource_reads(etree.fromstring(out, _PARSER))
            if reads:
                raise PreparationError(f"the prepared copy would read resources at run time: {'; '.join(reads[:3])}")
        except PreparationError as exc:
            raise RulesetError("ruleset.install-failed", Detail("detail.cannot-prepare", pack_key, rel, exc)) from exc
        prepared[name] = (rel, data, out)
    return write_prepared(pack_dir, f"{PREPARED_DIR}/{{rel}}", prepared, step_versions(steps))


def write_prepared(
    pack_dir: Path, target: str, outputs: Mapping[str, tuple[str, bytes, bytes]], steps: dict[str, int]
) -> PreparedIndex:
    """Write each prepared output (entry name → its source path, the source's bytes, the output) to ``target``
    (a path in the pack folder, ``{rel}`` standing for the source path) and ``prepared.json`` recording them."""
    entries = {}
    for name, (rel, data, out) in outputs.items():
        target_rel = target.format(rel=rel)
        write_atomic(pack_dir / target_rel, out)
        entries[name] = PreparedEntry(
            target_rel, hashlib.sha256(out).hexdigest(), rel, hashlib.sha256(data).hexdigest()
        )
    index = PreparedIndex(PREPARATION_VERSION, entries, steps)
    write_atomic(pack_dir / PREPARED_INDEX, index.to_json().encode("utf-8"))
    return index


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".prepare-", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
