"""Install-time preparation: a copy of each official Schematron stylesheet without the output no finding uses.

The official compiled stylesheets write a full SVRL report: besides the ``svrl:failed-assert`` /
``svrl:successful-report`` elements the findings come from, one ``svrl:fired-rule`` per rule that fired on
each context node, ``svrl:active-pattern`` headers, ``svrl:ns-prefix-in-attribute-values`` declarations, and
(SchXslt) a ``svrl:metadata`` block and ``svrl:suppressed-rule`` notes. The KoSIT build drops the fired-rule
output too (``remove-dead-apply-templates.xsl``). Producing, serialising and reading that output is work
without a result, so the installer writes a *prepared* copy of each pack's stylesheet, next to the official
file (which stays untouched), and the Schematron stage compiles the copy:

``<pack dir>/prepared/<entry path>``, its sha256 recorded in ``<pack dir>/prepared.json`` together with the
sha256 of the official file it came from and :data:`PREPARATION_VERSION`. The copy is verified like the
official files; a changed preparation (a new version here) or a changed official file invalidates it.

What is removed, on the stylesheet's XML (lxml), for the three generators in use (CEN's ISO-skeleton
``.xslt``, KoSIT's SchXslt ``.xsl``, phive's ISO-skeleton ``.xslt`` for CIUS-RO):

* every ``svrl:fired-rule``, ``svrl:suppressed-rule``, ``svrl:ns-prefix-in-attribute-values`` and
  ``svrl:metadata`` literal result element, with its content;
* ``xsl:comment`` instructions directly inside ``svrl:schematron-output`` or a SchXslt ``schxslt:rule``;
* every ``svrl:active-pattern`` literal result element. In the ISO skeleton it holds an
  ``<xsl:apply-templates/>`` that walks the whole document in the default mode, where the only templates
  are ``match="/"`` (never selected from there) and empty ones (``match="text()"``): it cannot output
  anything. It is removed only after checking exactly that on the stylesheet; otherwise it stays.

Everything removed is output our SVRL reader ignores, computed by expressions that cannot raise a dynamic
error (string literals, ``document-uri()``, ``base-uri()``, ``current-dateTime()``, ``system-property()``,
stylesheet parameters). The assertions, their tests, ids, flags, locations and texts are untouched:
:func:`prepare_stylesheet` checks that the number of ``svrl:failed-assert`` and ``svrl:successful-report``
elements is unchanged, and the tests compare the findings of both versions on corpus files.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..errors import RulesetError
from .registry import InstalledPack

__all__ = [
    "PREPARATION_VERSION",
    "PREPARED_DIR",
    "PREPARED_INDEX",
    "PreparationError",
    "PreparedEntry",
    "PreparedIndex",
    "prepare_pack",
    "prepare_pack_dir",
    "prepare_stylesheet",
    "read_index",
]

PREPARATION_VERSION = 1
PREPARED_DIR = "prepared"
PREPARED_INDEX = "prepared.json"

_XSL = "http://www.w3.org/1999/XSL/Transform"
_SVRL = "http://purl.oclc.org/dsdl/svrl"
_SCHXSLT = "https://doi.org/10.5281/zenodo.1495494"
_DROPPED = tuple(f"{{{_SVRL}}}{name}" for name in ("fired-rule", "suppressed-rule", "ns-prefix-in-attribute-values"))
_METADATA = f"{{{_SVRL}}}metadata"
_ACTIVE_PATTERN = f"{{{_SVRL}}}active-pattern"
_COMMENT_PARENTS = (f"{{{_SVRL}}}schematron-output", f"{{{_SCHXSLT}}}rule")
_KEPT = tuple(f"{{{_SVRL}}}{name}" for name in ("failed-assert", "successful-report"))
# A hardened parser: the stylesheets are official data, but nothing is resolved or fetched all the same.
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)


class PreparationError(Exception):
    """The stylesheet does not have the shape the preparation relies on."""


def _x(name: str) -> str:
    return f"{{{_XSL}}}{name}"


def _drop(element: etree._Element) -> None:
    """Remove ``element`` (and its content), keeping any non-blank text that followed it."""
    parent = element.getparent()
    if parent is None:
        raise PreparationError("cannot remove the root element")
    tail = element.tail
    if tail is not None and tail.strip():
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def _default_mode_is_inert(root: etree._Element) -> bool:
    """True if applying templates in the default mode to the document's children can output nothing.

    Children of the document node are elements, text, comments and processing instructions: the built-in
    rules recurse into elements, copy text, and drop comments and processing instructions. That walk is
    silent when every template of the default mode either matches only ``/`` (the document node, which a
    walk over children never reaches) or has an empty body, and text is caught by such an empty template.
    """
    if any(True for _ in root.iter(_x("mode"))):  # XSLT 3.0 mode declarations (on-no-match=...): not analysed
        return False
    text_is_caught = False
    for template in root.iter(_x("template")):
        mode = template.get("mode")
        if mode is not None and "#default" not in mode.split() and "#all" not in mode.split():
            continue
        match = template.get("match")
        if match is None:  # a named template without a mode is not part of the default mode
            continue
        empty = len(template) == 0 and not (template.text or "").strip()
        if match.strip() == "/":
            continue
        if not empty:
            return False
        if match.strip() in ("text()", "node()", "text() | @*", "@* | text()", "node() | @*", "@* | node()"):
            text_is_caught = True
    return text_is_caught


def _active_pattern_is_inert(element: etree._Element, default_mode_inert: bool) -> bool:
    """Only ``xsl:attribute`` instructions and a plain ``<xsl:apply-templates/>`` in an inert default mode."""
    for child in element:
        if not isinstance(child.tag, str):
            continue  # comments in the stylesheet
        if child.tag == _x("attribute"):
            continue
        plain = child.get("select") is None and child.get("mode") is None and len(child) == 0
        if child.tag == _x("apply-templates") and default_mode_inert and plain:
            continue
        return False
    return True


def _count(root: etree._Element, tags: tuple[str, ...]) -> int:
    return sum(1 for _ in root.iter(*tags))


def prepare_stylesheet(data: bytes) -> bytes:
    """The prepared form of one official stylesheet (deterministic: same input, same bytes)."""
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
    if kept_before == 0:
        raise PreparationError("the stylesheet has no svrl:failed-assert or svrl:successful-report")

    for element in list(root.iter(*_DROPPED)):
        _drop(element)
    for element in list(root.iter(_METADATA)):
        parent = element.getparent()
        # SchXslt: <xsl:variable name="metadata" as="element()?"><svrl:metadata>…: empty content = ().
        if parent is None or parent.tag != _x("variable") or parent.get("as") != "element()?":
            raise PreparationError("svrl:metadata outside the SchXslt metadata variable")
        _drop(element)
    for element in list(root.iter(_x("comment"))):
        parent = element.getparent()
        if parent is not None and parent.tag in _COMMENT_PARENTS:
            _drop(element)
    inert = _default_mode_is_inert(root)
    for element in list(root.iter(_ACTIVE_PATTERN)):
        if _active_pattern_is_inert(element, inert):
            _drop(element)

    if _count(root, _KEPT) != kept_before:
        raise PreparationError("the preparation changed the number of assertions (this is a bug)")
    if _count(root, (*_DROPPED, _METADATA)):
        raise PreparationError("unused SVRL output is left after the preparation (this is a bug)")
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
    """``prepared.json``: the preparation version and the prepared copy of each entry point."""

    version: int
    entries: dict[str, PreparedEntry]  # entry name (``stylesheet``) → prepared copy

    def to_json(self) -> str:
        body = {
            "preparation": self.version,
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
        raise RulesetError("ruleset.corrupt", f"cannot read {path}: {exc}") from exc
    try:
        body = json.loads(raw)
        entries = {
            str(name): PreparedEntry(str(e["path"]), str(e["sha256"]), str(e["source"]), str(e["source_sha256"]))
            for name, e in body["entries"].items()
        }
        return PreparedIndex(int(body["preparation"]), entries)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RulesetError("ruleset.corrupt", f"{path} is not a valid index of prepared stylesheets: {exc}") from exc


def prepare_pack_dir(pack_dir: Path, entries: dict[str, str], pack_key: str) -> PreparedIndex:
    """Write the prepared copy of each stylesheet entry (``name → path relative to pack_dir``) and
    ``prepared.json``. Files are written to a temporary name and renamed: a reader never sees half a file.
    Raises ``ruleset.install-failed`` when a stylesheet cannot be prepared."""
    prepared: dict[str, PreparedEntry] = {}
    for name, rel in sorted(entries.items()):
        source = pack_dir / rel
        data = source.read_bytes()
        try:
            out = prepare_stylesheet(data)
        except PreparationError as exc:
            raise RulesetError(
                "ruleset.install-failed", f"pack {pack_key}: cannot prepare the stylesheet {rel}: {exc}"
            ) from exc
        target_rel = f"{PREPARED_DIR}/{rel}"
        _write_atomic(pack_dir / target_rel, out)
        prepared[name] = PreparedEntry(
            target_rel, hashlib.sha256(out).hexdigest(), rel, hashlib.sha256(data).hexdigest()
        )
    index = PreparedIndex(PREPARATION_VERSION, prepared)
    _write_atomic(pack_dir / PREPARED_INDEX, index.to_json().encode("utf-8"))
    return index


def prepare_pack(pack: InstalledPack) -> PreparedIndex | None:
    """(Re)write the prepared copies of an installed pack, after checking its official files.

    For a pack installed by an older version: the installer calls :func:`prepare_pack_dir` itself. Returns
    None for a pack without stylesheets (XSD)."""
    if pack.manifest.kind != "schematron":
        return None
    for rel, expected in pack.manifest.files.items():
        path = pack.directory / rel
        if not path.is_file():
            raise RulesetError("ruleset.missing", f"pack {pack.key}: file {rel} ({path}): not installed")
        if hashlib.sha256(path.read_bytes()).hexdigest() != expected:
            raise RulesetError("ruleset.corrupt", f"pack {pack.key}: file {rel} ({path}): sha256 differs")
    return prepare_pack_dir(pack.directory, {"stylesheet": pack.manifest.entries["stylesheet"]}, pack.key)


def _write_atomic(path: Path, data: bytes) -> None:
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
