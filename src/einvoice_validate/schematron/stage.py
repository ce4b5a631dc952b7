"""The Schematron stage: one official pack (its prepared stylesheet) run on a document, its result (SVRL, or the
report format its manifest names: :mod:`.readers`) → findings."""

from __future__ import annotations

from collections.abc import Mapping

from ..findings import Finding, Flag, Message, severity_of_flag
from ..locations import Locator, Place
from ..messages import Rendered, catalogue, terms_in
from ..rulesets.registry import InstalledPack
from .engines import Engine, StylesheetRuntimeError, get_engine
from .readers import reader
from .svrl import SvrlError, SvrlEvent

__all__ = ["RUNTIME_ERROR", "SchematronStage"]

RUNTIME_ERROR = "schematron.runtime-error"

_FLAGS: dict[str, Flag] = {
    "fatal": "fatal",
    "error": "error",
    "warning": "warning",
    "warn": "warning",
    "information": "information",
    "info": "information",
}


class SchematronStage:
    """One compiled pack; ``custom_levels`` are the profile's per-rule severity overrides (KoSIT customLevel);
    ``engine`` runs it (default: ``saxonc``), on documents loaded by the same engine."""

    def __init__(self, pack: InstalledPack, custom_levels: Mapping[str, Flag], engine: Engine | None = None) -> None:
        self.source = pack.key
        self._read = reader(pack.manifest.output, pack.key)  # SVRL, or the pack's own report format
        # The prepared copy (rulesets.prepare): the official rules without the SVRL output no finding uses.
        path, checksum = pack.prepared("stylesheet")
        engine = engine or get_engine()
        self._stylesheet = engine.compile(path, checksum, pack.manifest.optimizer.get(engine.name))
        # how many parts of its patterns run one at a time (output(part=...)): SVRL packs on an engine that can
        self.parts: int = getattr(self._stylesheet, "parts", 0) if pack.manifest.output == "svrl" else 0
        self._levels = dict(custom_levels)
        self._texts = pack.manifest.messages  # a user pack's own texts (official packs: the catalogue)

    def run(self, document: object, locator: Locator | None = None) -> list[Finding]:
        """The findings on ``document`` (loaded by the engine); with ``locator`` (on the same document's lxml
        tree) each gets the readable path and line of its element, else the pack's location as it is."""
        return self.findings(self.output(document), locator)

    def output(self, document: object, part: int | None = None) -> str | StylesheetRuntimeError:
        """The stylesheet's output on ``document`` (of every pattern, or of part ``part`` of them: see
        :attr:`parts`), or the dynamic error that stopped it: the engine's part of :meth:`run`, which may run on
        another thread (a large document's packs side by side) than :meth:`findings`."""
        try:
            if part is None:
                return self._stylesheet.run(document)
            return self._stylesheet.run(document, part)  # type: ignore[call-arg]  # (parts > 0: saxon-java)
        except StylesheetRuntimeError as exc:
            return exc

    def findings(
        self, output: str | StylesheetRuntimeError | list[str | StylesheetRuntimeError], locator: Locator | None = None
    ) -> list[Finding]:
        """The findings of an :meth:`output`, or of the outputs of every part in order (see :meth:`run`): their
        events one part after the other, as the whole stylesheet writes them; a part that stopped stops the pack
        (its error alone, the first in order, as the whole stylesheet would have stopped there)."""
        events: list[SvrlEvent] = []
        for one in output if isinstance(output, list) else [output]:
            read = self._events(one)
            if read[:1] and read[0].kind == "runtime-error":
                events = read
                break
            events.extend(read)
        return [self._finding(e, locator) for e in events]

    def _events(self, output: str | StylesheetRuntimeError) -> list[SvrlEvent]:
        if isinstance(output, StylesheetRuntimeError):
            return [SvrlEvent("runtime-error", output.code, "fatal", None, output.message)]
        try:
            return self._read(output)
        except SvrlError as exc:
            return [SvrlEvent("runtime-error", "SVRL", "fatal", None, str(exc))]

    def _finding(self, event: SvrlEvent, locator: Locator | None) -> Finding:
        place = locator.place(event.location) if locator is not None else Place(event.location, None)
        if event.kind == "runtime-error":  # the pack stopped (an error outside its rules)
            return self._runtime_error(Place(None, None), None, (event.id or "", event.text), variant=0)
        if event.kind == "rule-error":
            # One rule raised (rulesets.prepare, step isolate-rule-errors); the pack's other rules ran.
            values = (", ".join((event.id or "").split()), event.context or "", event.code or "", event.text)
            return self._runtime_error(place, event.location, values, variant=1)
        rule_id = event.id or "UNSPECIFIC"
        flag = _FLAGS.get((event.flag or "").strip().lower(), "error")
        level = self._levels.get(rule_id)
        own = self._texts.get(rule_id)
        rendered = (
            Rendered(Message(en=own.en, de=own.de), terms_in(own.en, own.de), None)
            if own is not None
            else catalogue().render(rule_id, event.text)
        )
        return Finding(
            rule_id=rule_id,
            severity=severity_of_flag(level or flag),
            flag=flag,
            stage="schematron",
            location=place.path,
            line=place.line,
            message=rendered.message,
            terms=rendered.terms,
            source=self.source,
            pack_location=event.location,
        )

    def _runtime_error(self, place: Place, pack_location: str | None, values: tuple[str, ...], variant: int) -> Finding:
        return Finding(
            rule_id=RUNTIME_ERROR,
            severity=severity_of_flag("fatal"),
            flag="fatal",
            stage="schematron",
            location=place.path,
            line=place.line,
            message=catalogue().render_code(RUNTIME_ERROR, values, variant=variant),
            source=self.source,
            pack_location=pack_location,
        )
