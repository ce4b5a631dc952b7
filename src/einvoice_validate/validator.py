"""``Validator``: holds the profiles and their compiled stages; reusable and safe to share after building.

Pipeline per document: hardened parse → profile → XSD → each Schematron pack (the document crosses into Saxon
once) → findings. Every stage runs, also after XSD errors, unless ``xsd_gate`` asks for the KoSIT behaviour.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from lxml import etree
from typing_extensions import Unpack

from ._version import __version__
from .envelopes.sbdh import is_sbdh
from .errors import ProfileError
from .findings import Finding, Report, Severity, VersionChoice, severity_of_flag
from .locations import Locator
from .messages import catalogue
from .options import OptionArgs, Options, build_options, rules_date_of
from .parse import Document, Source, load
from .profiles import (
    NearMiss,
    Plan,
    Profile,
    StandIn,
    all_profiles,
    find_profile,
    near_miss,
    profile_reason,
    select_profile,
)
from .rulesets.registry import Registry
from .schematron import SchematronStage
from .schematron.engines import (
    ENGINES,
    Engine,
    engine_for_size,
    engine_name,
    engine_named,
    get_engine,
    slimmed_bytes,
)
from .values import TermValues, wants_values
from .xsd import XsdStage

__all__ = ["BESIDE_TAGS", "ENGINES", "Validator", "engine_name"]

GENERIC_PROFILE_NOTE = "profile.en16931-only"
EXTENSION_NOTE = "profile.extension-not-checked"
VERSION_NOT_INSTALLED = "rules.version-not-installed"
"""The finding of a version in force on the rules date that the rules home lacks (:class:`~.profiles.StandIn`)."""
NEAR_MISS = "profile.near-miss"
"""The finding of a specification id naming a known family in a version or form no profile knows (issue 27)."""
T = TypeVar("T")
MAX_PLANS = 1024
"""Plans kept per validator (one per profile and rules date met); beyond, the cache starts over."""
BESIDE_TAGS = 8_000
"""A document with this many ``<`` or more (start and end tags: about 4,000 elements, 160 lines of the official
examples) runs on two threads when it can (``Options.parallel_packs``): at 200 lines (270-300 KB, 9,400-9,700 ``<``)
that took 17-24 % off the time, at 100 lines (4,800-4,900) nothing (XRechnung UBL and Peppol, warm, two cores). Counted
as elements on the parsed tree (:func:`_many_tags`), not by size: a business case of 420 KB holds 350 (and an
attachment), and runs on one thread."""
_BESIDE_MIN_BYTES = 128 * 1024  # smaller documents are not counted (8,000 tags would be 16 bytes each)
_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@dataclass(frozen=True, slots=True)
class _Stages:
    xsd: XsdStage
    schematron: tuple[SchematronStage, ...]
    slim_attachments: bool  # every pack reads attachments only for emptiness (Manifest.attachment_content)


class Validator:
    """Validates invoices; compiled packs are built on first use per profile and kept for the process. Safe to
    share between threads (each profile's packs are compiled once; on ``saxon-java`` runs are concurrent).

    Args:
        profile: force this profile for every document (default: match each document, as KoSIT does).
        options: an :class:`~einvoice_validate.options.Options` (default: all defaults); the keywords below
            override it, and build it when it is not given.
        **option_args: the fields of :class:`~einvoice_validate.options.Options`: ``rules_home``, ``limits``,
            ``xsd_gate``, ``engine`` (default: ``$EINVOICE_VALIDATE_ENGINE``, else ``saxonc``: one validator, the
            fastest start; runners choose by the work), ``rules_date`` (a date or ``YYYY-MM-DD``;
            ``validate(rules_date=...)`` overrides it per call, see :meth:`Profile.plan_on`),
            ``version_not_installed`` (the severity of the ``rules.version-not-installed`` finding: ``WARNING``,
            the default, or ``ERROR`` for strict callers: such a report is never valid), ``near_miss`` (the
            severity of the ``profile.near-miss`` finding, likewise), ...

    Raises:
        ProfileError: an option is unusable (``request.invalid-parameter``, see :class:`Options`).
    """

    def __init__(
        self, profile: str | None = None, /, *, options: Options | None = None, **option_args: Unpack[OptionArgs]
    ) -> None:
        if profile is not None:
            option_args["profile"] = profile
        self.options = options = build_options(options, option_args)
        self.engine = get_engine(options.engine)
        # Neither the caller nor the environment named an engine: the work chooses, per document, by its size
        # (engine_for_size: a large document runs on saxon-java, started when the first one comes).
        self._by_size = not engine_named(options.engine)
        self._engines: dict[str, Engine] = {self.engine.name: self.engine}
        self.rules_date = options.rules_date
        self.version_not_installed = options.version_not_installed
        self.near_miss = options.near_miss
        self.registry = Registry(options.rules_home)
        self.syntaxes = self.registry.syntaxes  # the bundled syntaxes and the rules home's own
        self.profiles = all_profiles(self.registry.home, self.syntaxes)  # the rules home's user profiles first
        self.limits = options.limits
        self.xsd_gate = options.xsd_gate
        self.profile = options.profile
        if self.profile is not None:
            find_profile(self.profile, self.profiles)
        # Per profile and the pack versions the rules date chose: a date switch compiles nothing twice (the engine
        # also keeps each compiled stylesheet by checksum for the process).
        self._stages: dict[tuple[str, tuple[str, ...], str | None, str], _Stages] = {}
        self._plans: dict[tuple[str, date], Plan] = {}
        self._slim = True  # cut long attachments for packs that allow it (tests compare with False)
        self._lock = threading.Lock()
        self._values = TermValues(self.registry, self.engine)  # the findings' values (values.py)
        self._compiling: dict[tuple[str, tuple[str, ...], str | None, str], threading.Lock] = {}
        self._parallel = options.parallel_packs and _CORES > 1
        self._in_flight = 0  # validate() calls under way: a second thread only helps a validator otherwise idle
        self._run_ms: dict[tuple[str, int | None], float] = {}  # a pack's run (whole or a part): its last time, ms

    def packs_for(
        self, profile: Profile, rules_date: date | str | None = None
    ) -> tuple[tuple[str, ...], tuple[VersionChoice, ...]]:
        """The Schematron packs ``profile`` runs on ``rules_date`` (default: today), and why (see
        :meth:`plan_for`)."""
        plan = self.plan_for(profile, rules_date)
        return plan.packs, plan.choices

    def plan_for(self, profile: Profile, rules_date: date | str | None = None) -> Plan:
        """What ``profile`` runs on ``rules_date`` (a date or ``YYYY-MM-DD``; default: the validator's, else today)
        with the packs of this rules home (:meth:`Profile.plan_on`); kept per profile and date."""
        day = rules_date_of(rules_date) or self.rules_date or date.today()
        plan = self._plans.get((profile.name, day))
        if plan is None:
            plan = profile.plan_on(day, self.registry.manifests, self.registry)
            with self._lock:
                if len(self._plans) >= MAX_PLANS:
                    self._plans.clear()
                self._plans[(profile.name, day)] = plan
        return plan

    def _engine_for(self, document: Document) -> tuple[Engine, str | None]:
        """The engine for ``document`` and why, when its size chose it (None: the validator's own engine)."""
        return self._engine_for_size(len(document.data))

    def _engine_for_size(self, size: int) -> tuple[Engine, str | None]:
        if not self._by_size:
            return self.engine, None
        name, reason = engine_for_size(size)
        engine = self._engines.get(name)
        if engine is None:
            with self._lock:
                engine = self._engines.get(name)
                if engine is None:
                    engine = self._engines[name] = get_engine(name)
        return engine, reason

    def _stages_for(self, profile: Profile, plan: Plan | None = None, engine: Engine | None = None) -> _Stages:
        if plan is None:
            plan = self.plan_for(profile)
        engine = engine or self.engine
        cache_key = (profile.name, plan.packs, plan.configuration, engine.name)
        stages = self._stages.get(cache_key)  # compiled: no lock (threads validate concurrently)
        if stages is not None:
            return stages
        with self._lock:  # one lock per profile and versions: threads compile different profiles at once
            own = self._compiling.setdefault(cache_key, threading.Lock())
        with own:
            stages = self._stages.get(cache_key)
            if stages is None:
                xsd_pack = self.registry.get(profile.xsd)
                xsd_pack.verify()
                if plan.configuration is not None:
                    self.registry.get(plan.configuration).verify()
                sch = []
                slim = True
                for key in plan.packs:
                    pack = self.registry.get(key)
                    pack.verify()
                    sch.append(SchematronStage(pack, plan.custom_levels, engine))
                    slim = slim and pack.manifest.attachment_content == "emptiness"
                stages = _Stages(XsdStage(xsd_pack, profile.root), tuple(sch), slim)
                self._stages[cache_key] = stages
            return stages

    def prepare(self, *profiles: str) -> None:
        """Compile the packs of ``profiles`` (default: all) now rather than on first use: the versions in force on
        the rules date (a profile with no version in force that day is skipped: its documents get the
        ``rules-date`` error when they come)."""
        wanted = set(profiles) or {p.name for p in self.profiles}
        for profile in self.profiles:
            if profile.name in wanted:
                try:
                    plan = self.plan_for(profile)
                except ProfileError as exc:
                    if exc.reason == "rules-date":
                        continue
                    raise
                self._stages_for(profile, plan)

    def load(self, source: Source) -> Document:
        """Read, parse and classify one document with this validator's limits and syntaxes (:func:`.parse.load`)."""
        return load(source, self.limits, self.syntaxes)

    def _early_tree(self, early: list[_Early], counted: list[bool]) -> Callable[[etree._ElementTree, bytes], None]:
        """The :data:`.parse.Parsed` callback of a validation that may take a second thread: for a large UTF-8
        document (no envelope to unwrap) on an engine that runs threads in parallel, Saxon's tree is built from the
        bytes beside the limit checks and the XSD stage (with long attachments cut, the way the packs will most
        likely want it: :meth:`_run` checks, and builds it again otherwise); appended to ``early``; whether the
        document has :data:`BESIDE_TAGS` tags, appended to ``counted`` (for :meth:`validate`). (Started from the
        bytes before lxml parses them, when they plainly need no cut, it took nothing off: the two parses slowed each
        other, lxml's from 35-45 to 52-73 ms at 2,000 lines of XRechnung UBL, and the runs began no sooner.)"""

        def parsed(tree: etree._ElementTree, data: bytes) -> None:
            many = _many_tags(tree.getroot(), len(data))
            counted.append(many)
            if not many or is_sbdh(tree.getroot()):
                return
            if (tree.docinfo.encoding or "UTF-8").upper() not in ("UTF-8", "UTF8"):
                return
            engine, _ = self._engine_for_size(len(data))
            side, load_utf8 = getattr(engine, "beside", None), getattr(engine, "load_utf8", None)
            if side is None or load_utf8 is None:
                return
            cut = slimmed_bytes(tree, data) if self._slim else None  # None: no long attachment, or no cut
            payload = data if cut is None else cut
            handle = side([lambda: _timed(lambda: load_utf8(payload))])
            early.append(_Early(handle, cut is not None, engine.name))

        return parsed

    def validate(self, source: Source, *, profile: str | None = None, rules_date: date | str | None = None) -> Report:
        """Validate one document. An invalid invoice is a report; :class:`EInvoiceValidateError` means the
        document could not be validated (unreadable, too large, unsupported, missing rule packs, no rules in force
        on ``rules_date``). ``rules_date`` (a date or ``YYYY-MM-DD``; default: today) picks the pack versions in force
        on that day where a profile lists several (the report's ``version_choices`` say which and why)."""
        timings: dict[str, float] = {}
        with self._lock:
            self._in_flight += 1
            alone = self._in_flight == 1 and self._parallel
        early: list[_Early] = []  # Saxon's tree of a large document, started beside the limit checks
        counted: list[bool] = []  # whether the parsed document has BESIDE_TAGS tags (counted once, when alone)
        try:
            start = time.perf_counter()
            document = load(source, self.limits, self.syntaxes, self._early_tree(early, counted) if alone else None)
            timings["parse"] = _ms(start)
            forced = profile or self.profile
            chosen = select_profile(document, self.profiles, forced)
            plan = self.plan_for(chosen, rules_date)
            miss = None if forced is not None else near_miss(document, chosen, self.profiles)
            engine, engine_reason = self._engine_for(document)
            beside = alone and (counted[0] if counted else _many_tags(document.tree.getroot(), len(document.data)))
            tree = early[0] if early else None
            findings = list(self._run(document, chosen, timings, plan, miss, engine, beside=beside, early=tree))
        finally:
            for started in early:
                started.handle.cancel()  # taken and done already, unless the document failed before its packs
            with self._lock:
                self._in_flight -= 1
        if any(wants_values(f) for f in findings):  # only then: a valid invoice costs nothing
            start = time.perf_counter()
            findings = self._values.attach(document, findings)
            timings["values"] = _ms(start)
        valid = not any(f.severity is Severity.ERROR for f in findings)
        accepted = valid if chosen.verdict == "kosit" else None
        if miss is not None and miss.verdict:
            accepted = False  # a near miss of a family with a verdict: never accepted (README, near misses)
        return Report(
            profile=chosen.name,
            profile_reason=profile_reason(document, chosen, forced is not None),
            syntax=document.syntax,
            document_type=document.document_type,
            spec_id=document.spec_id,
            envelope=document.envelope,
            pdf=document.pdf,
            packs=(chosen.xsd, *plan.packs),
            version_choices=plan.choices,
            findings=tuple(findings),
            valid=valid,
            accepted=accepted,
            engine=engine.name,
            engine_reason=engine_reason,
            timings_ms=timings,
        )

    def iter_findings(
        self, source: Source, *, profile: str | None = None, rules_date: date | str | None = None
    ) -> Iterator[Finding]:
        """The findings of one document, stage by stage, lazily (later packs run only if iterated)."""
        timings: dict[str, float] = {}
        document = self.load(source)
        forced = profile or self.profile
        chosen = select_profile(document, self.profiles, forced)
        miss = None if forced is not None else near_miss(document, chosen, self.profiles)
        engine, _ = self._engine_for(document)
        yield from self._run(document, chosen, timings, self.plan_for(chosen, rules_date), miss, engine)

    def _run(
        self,
        document: Document,
        profile: Profile,
        timings: dict[str, float],
        plan: Plan,
        miss: NearMiss | None = None,
        engine: Engine | None = None,
        *,
        beside: bool = False,
        early: _Early | None = None,
    ) -> Iterator[Finding]:
        engine = engine or self.engine
        for stand_in in plan.stand_ins:
            yield _not_installed(stand_in, plan.rules_date, self.version_not_installed)
        if miss is not None:
            yield _near_miss(document, profile, miss, self.near_miss)
        elif profile.match == "any" and profile.spec_ids and not profile.knows_spec_id(document):
            yield _generic_note(document, profile)
        for rules in profile.unchecked_for(document):
            yield _extension_note(document, profile, rules)
        if document.pdf is not None:
            from .envelopes.pdf import envelope_findings  # loaded by parse.load with the first PDF

            yield from envelope_findings(document.pdf, document.spec_id, f"einvoice-validate@{__version__}")
        stages = self._stages_for(profile, plan, engine)
        # A large document on an engine that runs threads in parallel (beside: see validate) takes a second thread:
        # Saxon's tree is built beside the limit checks (early: see validate) or the XSD stage, then the two threads
        # share the packs' runs. The findings come in the same order either way: only the engine's runs move, the
        # findings are made on this thread.
        side: Callable[[list[Callable[[], object]]], Any] | None = getattr(engine, "beside", None) if beside else None
        slim = stages.slim_attachments and self._slim
        helpers: list[Any] = []
        try:
            loading = None
            if early is not None:
                helpers.append(early.handle)
                # the tree started beside the limit checks, when it is the one this engine and these packs want
                if side is not None and early.engine == engine.name and (slim or not early.cut):
                    loading = early.handle
            if side is not None and loading is None:
                loading = side([lambda: _timed(lambda: engine.load(document, slim_attachments=slim))])
                helpers.append(loading)
            start = time.perf_counter()
            # the XSD stage's paths use the document's own prefixes (the root's, read when the first location is
            # resolved); the packs' locations are resolved on the same tree
            locator = Locator(document.tree.getroot(), conventional=self.syntaxes.prefixes)
            xsd_findings = stages.xsd.run(document, locator, self.limits.max_xsd_findings)
            for finding in xsd_findings:
                level = plan.custom_levels.get(finding.rule_id)
                yield finding if level is None else _with_level(finding, level)
            timings["xsd"] = _ms(start)
            if self.xsd_gate and xsd_findings:
                return
            if loading is not None:
                [(saxon_doc, took)] = loading.result()
                timings["saxon-parse"] = took
            else:
                start = time.perf_counter()
                saxon_doc = engine.load(document, slim_attachments=slim)
                timings["saxon-parse"] = _ms(start)
            if side is None or sum(max(stage.parts, 1) for stage in stages.schematron) < 2:
                for stage in stages.schematron:
                    start = time.perf_counter()
                    yield from stage.run(saxon_doc, locator)
                    timings[stage.source] = _ms(start)
                return
            # The runs (a pack whole, or one part of its patterns: SchematronStage.parts), taken one at a time by
            # whichever of the two threads is free, the longest first (as long as the same run took last time; before
            # that, the packs that run whole first, then in the packs' order); the findings are made here, pack by pack.
            sources = [stage.source for stage in stages.schematron]
            units = deque(
                _longest_first(
                    [
                        (index, part)
                        for index, stage in enumerate(stages.schematron)
                        for part in (range(stage.parts) if stage.parts else (None,))
                    ],
                    sources,
                    self._run_ms,
                )
            )
            done: dict[tuple[int, int | None], tuple[object, float]] = {}

            def take() -> None:
                while True:
                    try:
                        index, part = units.popleft()  # (atomic: the two threads never take the same run)
                    except IndexError:
                        return
                    stage = stages.schematron[index]
                    done[(index, part)] = _timed(functools.partial(stage.output, saxon_doc, part))

            others = side([take])
            helpers.append(others)
            take()
            others.result()
            for (index, part), (_, took) in done.items():
                self._run_ms[(sources[index], part)] = took
            for index, stage in enumerate(stages.schematron):
                runs = [done[(index, part)] for part in (range(stage.parts) if stage.parts else (None,))]
                timings[stage.source] = round(sum(took for _, took in runs), 3)
                outputs = [output for output, _ in runs]
                yield from stage.findings(outputs if stage.parts else outputs[0], locator)  # type: ignore[arg-type]
        finally:
            for helper in helpers:
                helper.cancel()  # done already, unless this thread stops early (a stop, an error, the XSD gate)


@dataclass(frozen=True, slots=True)
class _Early:
    """Saxon's tree of a document, started beside its limit checks (:meth:`Validator._early_tree`)."""

    handle: Any  # the engine's Beside, giving [(tree, ms)]
    cut: bool  # built with long attachments cut
    engine: str


def _longest_first(
    units: list[tuple[int, int | None]], sources: list[str], took: dict[tuple[str, int | None], float]
) -> list[tuple[int, int | None]]:
    """A document's pack runs (``(pack index, part)``, ``part`` None for a pack run whole; ``sources[index]`` its
    pack) in the order two threads take them: the longest first, by how long the same run took last time
    (``took``), so that the threads end close together; a run never measured counts as the longest when its pack
    runs whole and as the shortest when it is a part (sorted is stable: ties keep the packs' order)."""

    def expected(unit: tuple[int, int | None]) -> float:
        index, part = unit
        return took.get((sources[index], part), math.inf if part is None else 0.0)

    return sorted(units, key=expected, reverse=True)


def _many_tags(root: etree._Element, size: int) -> bool:
    """Whether a document of ``size`` bytes whose parsed root is ``root`` has :data:`BESIDE_TAGS` tags: its nodes
    counted on the tree (a start and an end tag each) up to the number that decides. Counting the bytes' ``<``
    instead cost 70 µs a time for the business cases that reach the size by a long attachment (200 KB, 150-220
    elements; the tree: 10-15 µs), and was done twice."""
    if size < _BESIDE_MIN_BYTES:
        return False
    return next(itertools.islice(root.iter(), max(BESIDE_TAGS // 2 - 1, 0), None), None) is not None


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def _timed(work: Callable[[], T]) -> tuple[T, float]:
    """What ``work`` gives and how long it took (ms), on the thread that runs it."""
    start = time.perf_counter()
    return work(), _ms(start)


def _with_level(finding: Finding, level: str) -> Finding:
    return finding.model_copy(update={"severity": severity_of_flag(level)})


@functools.lru_cache(maxsize=256)
def _not_installed(stand_in: StandIn, rules_date: date | None, severity: Severity) -> Finding:
    """The ``rules.version-not-installed`` finding: which version is in force, which ran instead, how to install
    (the same on every document of a plan: made once, findings are immutable)."""
    day = rules_date.isoformat() if rules_date else ""
    command = f"einvoice-validate rulesets install {stand_in.in_force}"
    values = (day, stand_in.in_force, stand_in.instead, command)
    return Finding(
        rule_id=VERSION_NOT_INSTALLED,
        severity=severity,
        flag="error" if severity is Severity.ERROR else "warning",
        stage="input",
        location=None,
        message=catalogue().render_code(VERSION_NOT_INSTALLED, values, variant=0 if stand_in.kind == "pack" else 1),
        source=f"einvoice-validate@{__version__}",
    )


def _near_miss(document: Document, ran: Profile, miss: NearMiss, severity: Severity) -> Finding:
    """The ``profile.near-miss`` finding (catalogue variants: 0 the id names the family and the closest profile
    matches exact ids, 1 by substring; 2 and 3 the same where only the PDF's XMP names it; 4 the closest ran)."""
    spec = document.spec_id or ""
    closest = miss.closest
    known = ", ".join(f"'{k}'" for k in closest.spec_ids)
    if miss.ran:
        values: tuple[str, ...] = (spec, miss.family.name, ", ".join(f"'{k}'" for k in miss.family.known_ids))
        values, variant = (*values, closest.name), 4
    elif miss.xmp_level is not None:
        values = (miss.xmp_level, miss.family.name, spec, closest.name, known, f"{ran.title} ({ran.name})")
        variant = 2 if closest.match == "exact" else 3
    else:
        values = (spec, miss.family.name, closest.name, known, f"{ran.title} ({ran.name})")
        variant = 0 if closest.match == "exact" else 1
    flag = "error" if severity is Severity.ERROR else "warning"
    return _note(NEAR_MISS, values, variant).model_copy(update={"severity": severity, "flag": flag})


def _generic_note(document: Document, profile: Profile) -> Finding:
    spec = document.spec_id
    values = (spec, profile.name) if spec is not None else (profile.name,)
    return _note(GENERIC_PROFILE_NOTE, values, 0 if spec is not None else 1)


def _extension_note(document: Document, profile: Profile, rules: str) -> Finding:
    return _note(EXTENSION_NOTE, (document.spec_id or "", rules, profile.name), 0)


def _note(rule_id: str, values: tuple[str, ...], variant: int) -> Finding:
    """An INFO finding of the input stage about the profile chosen (BT-24: the specification identifier)."""
    return Finding(
        rule_id=rule_id,
        severity=Severity.INFO,
        flag="information",
        stage="input",
        location=None,
        message=catalogue().render_code(rule_id, values, variant=variant),
        terms=("BT-24",),
        source=f"einvoice-validate@{__version__}",
    )
