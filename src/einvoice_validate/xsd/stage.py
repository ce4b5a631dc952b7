"""The XSD stage: compiled ``XMLSchema`` copies per schema file and process (one per validation running at a time);
libxml2 errors become findings with the Xerces ``cvc-…`` codes that the KoSIT validator reports (mapping in
:mod:`.codes`, whole documents in :mod:`.xerces`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from lxml import etree

from ..attachments import libxml2_base64_valid, long_attachments, replaced
from ..errors import Detail, RulesetError
from ..findings import Finding, Severity
from ..limits import DEFAULT_LIMITS
from ..locations import Locator
from ..messages import catalogue
from ..parse import Document
from ..rulesets.registry import InstalledPack
from .catalog import Catalog, catalog_parser
from .schema_index import schema_info_for
from .xerces import capped_issues_from_log

__all__ = ["MORE_ERRORS", "XsdStage"]

MORE_ERRORS = "xsd.more-errors"
"""The finding that closes a capped list of schema findings (``Limits.max_xsd_findings``)."""


class _Schemas:
    """The compiled copies of one schema file, shared by every stage of the process: one per validation running at
    the same time. An ``XMLSchema`` owns its ``error_log`` (two threads validating with one object at once, even for
    two stages of different profiles, would read each other's errors), so each validation takes a copy of its own
    (:meth:`taken`) rather than waiting for the one copy: a second copy is compiled the first time two threads
    validate against the schema at once (UBL's invoice schema: 24 ms and 4 MB), and there are never more copies than
    threads that validated at once. Reading a failed document's errors also validates parts of it again with helper
    schemas that the stages of this file share: that takes :attr:`errors_lock`."""

    def __init__(self, compile_one: Callable[[], etree.XMLSchema]) -> None:
        self._compile = compile_one
        self._free = [compile_one()]
        self._lock = threading.Lock()
        self.errors_lock = threading.Lock()

    @contextmanager
    def taken(self) -> Iterator[etree.XMLSchema]:
        with self._lock:
            schema = self._free.pop() if self._free else None
        if schema is None:
            schema = self._compile()  # (the same files compiled before: an error here is one of the machine's)
        try:
            yield schema
        finally:
            with self._lock:
                self._free.append(schema)


_cache: dict[tuple[Path, str], _Schemas] = {}
_lock = threading.Lock()


def _schema(path: Path, checksum: str, catalog: Catalog | None = None) -> _Schemas:
    """The compiled copies of the schema of ``path`` (:class:`_Schemas`), shared by every stage of the process."""
    key = (path, checksum)

    def compile_one() -> etree.XMLSchema:
        # Schema files come from the verified rules home; imports are relative files (or addresses the pack's
        # catalog maps to its files), never network.
        parser = (
            catalog_parser(catalog) if catalog is not None else etree.XMLParser(resolve_entities=False, no_network=True)
        )
        try:
            return etree.XMLSchema(etree.parse(str(path), parser))
        except (etree.XMLSchemaParseError, etree.XMLSyntaxError, OSError) as exc:
            raise RulesetError("ruleset.invalid", Detail("detail.xsd-not-compiled", path, exc)) from exc

    with _lock:
        cached = _cache.get(key)
        if cached is None:
            cached = _cache[key] = _Schemas(compile_one)
        return cached


class XsdStage:
    """Validates a document against the schema of one entry point of an XSD pack."""

    def __init__(self, pack: InstalledPack, entry: str) -> None:
        self.source = pack.key
        path = pack.entry(entry)
        where = pack.catalog()
        catalog = Catalog(where, pack.directory) if where is not None else None
        self._schema = _schema(path, pack.manifest.files[pack.manifest.entries[entry]], catalog)
        self._path, self._catalog = str(path), catalog  # schema_info_for's, read with the first invalid document

    def run(
        self, document: Document, locator: Locator | None = None, max_findings: int = DEFAULT_LIMITS.max_xsd_findings
    ) -> list[Finding]:
        """The schema's findings; with ``locator`` their paths in the readable style (libxml2's kept as
        ``pack_location``). At most ``max_findings`` are listed, then one ``xsd.more-errors`` finding saying how
        many more libxml2 reported (they are neither mapped, located nor rendered)."""
        # Long attachments that libxml2 would accept as base64 (checked here, by its rule, far faster) are
        # validated as "AAAA": the same findings without libxml2 reading megabytes (see attachments.py).
        cuts = [(e, "AAAA", text) for e, text in long_attachments(document.tree) if libxml2_base64_valid(text)]
        with self._schema.taken() as schema, replaced(cuts):
            if schema.validate(document.tree):
                return []
            with self._schema.errors_lock:
                # the declared types, for Xerces' codes (read once per process: 15 ms off a valid invoice's start)
                info = schema_info_for(self._path, self._catalog)
                issues, more = capped_issues_from_log(schema.error_log, document.tree, info, max_findings)
        findings = []
        texts = catalogue()
        for issue in issues:
            path = locator.place(issue.path).path if locator is not None and issue.path else issue.path
            rendered = texts.render(issue.code, _text(issue.code, issue.message))
            findings.append(
                Finding(
                    rule_id=issue.code,
                    severity=Severity.ERROR,
                    flag="error",
                    stage="xsd",
                    location=path,
                    line=issue.line,
                    column=issue.column,
                    message=rendered.message,
                    source=self.source,
                    pack_location=issue.path,
                )
            )
        if more:
            findings.append(
                Finding(
                    rule_id=MORE_ERRORS,
                    severity=Severity.ERROR,
                    flag="error",
                    stage="xsd",
                    location=None,
                    message=texts.render_code(MORE_ERRORS, (str(more), str(max_findings))),
                    source=self.source,
                )
            )
        return findings


def _text(code: str, message: str) -> str:
    # The xsd.other fallback keeps libxml2's whole message (it has no code prefix).
    # KoSIT's report shows the Xerces message without its leading code (the code is the ruleId).
    return message.removeprefix(f"{code}: ")
