"""The XSD stage: one compiled ``XMLSchema`` per schema file and process; libxml2 errors become findings
with the Xerces ``cvc-…`` codes that the KoSIT validator reports (mapping in :mod:`.codes`,
whole documents in :mod:`.xerces`)."""

from __future__ import annotations

import threading
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

_cache: dict[tuple[Path, str], tuple[etree.XMLSchema, threading.Lock]] = {}
_lock = threading.Lock()


def _schema(path: Path, checksum: str, catalog: Catalog | None = None) -> tuple[etree.XMLSchema, threading.Lock]:
    """The compiled schema of ``path``, shared by every stage of the process, and the lock its validations take
    (an ``XMLSchema``'s ``error_log`` belongs to the object: two threads validating with it at once, even for two
    stages of different profiles, would read each other's errors)."""
    key = (path, checksum)
    with _lock:
        cached = _cache.get(key)
        if cached is None:
            # Schema files come from the verified rules home; imports are relative files (or addresses the pack's
            # catalog maps to its files), never network.
            parser = (
                catalog_parser(catalog)
                if catalog is not None
                else etree.XMLParser(resolve_entities=False, no_network=True)
            )
            try:
                schema = etree.XMLSchema(etree.parse(str(path), parser))
            except (etree.XMLSchemaParseError, etree.XMLSyntaxError, OSError) as exc:
                raise RulesetError("ruleset.invalid", Detail("detail.xsd-not-compiled", path, exc)) from exc
            cached = _cache[key] = (schema, threading.Lock())
        return cached


class XsdStage:
    """Validates a document against the schema of one entry point of an XSD pack."""

    def __init__(self, pack: InstalledPack, entry: str) -> None:
        self.source = pack.key
        path = pack.entry(entry)
        where = pack.catalog()
        catalog = Catalog(where, pack.directory) if where is not None else None
        self._schema, self._lock = _schema(path, pack.manifest.files[pack.manifest.entries[entry]], catalog)
        self._info = schema_info_for(str(path), catalog)  # declared types, for Xerces' codes (built once, cached)

    def run(
        self, document: Document, locator: Locator | None = None, max_findings: int = DEFAULT_LIMITS.max_xsd_findings
    ) -> list[Finding]:
        """The schema's findings; with ``locator`` their paths in the readable style (libxml2's kept as
        ``pack_location``). At most ``max_findings`` are listed, then one ``xsd.more-errors`` finding saying how
        many more libxml2 reported (they are neither mapped, located nor rendered)."""
        # Long attachments that libxml2 would accept as base64 (checked here, by its rule, far faster) are
        # validated as "AAAA": the same findings without libxml2 reading megabytes (see attachments.py).
        cuts = [(e, "AAAA", text) for e, text in long_attachments(document.tree) if libxml2_base64_valid(text)]
        with self._lock, replaced(cuts):
            if self._schema.validate(document.tree):
                return []
            issues, more = capped_issues_from_log(self._schema.error_log, document.tree, self._info, max_findings)
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
