"""``Validator``: holds the profiles and their compiled stages; reusable and safe to share after building.

Pipeline per document: hardened parse → profile → XSD → each Schematron pack (the document crosses into Saxon
once) → findings. Every stage runs, also after XSD errors, unless ``xsd_gate`` asks for the KoSIT behaviour.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from . import __version__
from .errors import ProfileError
from .findings import Finding, Report, Severity, VersionChoice
from .limits import DEFAULT_LIMITS, Limits
from .locations import Locator
from .parse import Document, Source, load
from .profiles import Profile, all_profiles, find_profile, profile_reason, select_profile
from .rulesets.registry import Registry
from .schematron import SchematronStage
from .schematron.engines import ENGINES, engine_name, get_engine
from .xsd import XsdStage

__all__ = ["ENGINES", "Validator", "engine_name"]

GENERIC_PROFILE_NOTE = "profile.en16931-only"


@dataclass(frozen=True, slots=True)
class _Stages:
    xsd: XsdStage
    schematron: tuple[SchematronStage, ...]
    slim_attachments: bool  # every pack reads attachments only for emptiness (Manifest.attachment_content)


class Validator:
    """Validates invoices; compiled packs are built on first use per profile and kept for the process.

    Args:
        profile: force this profile for every document (default: match each document, as KoSIT does).
        rules_home: where the packs are installed (default: :func:`~einvoice_validate.rulesets.default_home`).
        limits: document size and depth limits.
        xsd_gate: skip Schematron when XSD found errors (the KoSIT validator's behaviour). Off by default: the
            API promises every finding at once.
        rules_date: the day whose pack versions run where a profile lists several (default: the day of each
            validation; ``validate(rules_date=...)`` overrides it per call; see :meth:`Profile.packs_on`).
        engine: the XSLT engine, ``saxonc`` (default: no Java, fast start) or ``saxon-java`` (Saxon-HE for Java
            through JPype: faster once warm, for servers and batch jobs); default ``$EINVOICE_VALIDATE_ENGINE``,
            else ``saxonc``; see :mod:`.schematron.engines`.
    """

    def __init__(
        self,
        profile: str | None = None,
        *,
        rules_home: Path | None = None,
        limits: Limits = DEFAULT_LIMITS,
        xsd_gate: bool = False,
        engine: str | None = None,
        rules_date: date | None = None,
    ) -> None:
        self.engine = get_engine(engine)
        self.rules_date = rules_date
        self.registry = Registry(rules_home)
        self.profiles = all_profiles(self.registry.home)  # the rules home's user profiles first
        self.limits = limits
        self.xsd_gate = xsd_gate
        self.profile = profile
        if profile is not None:
            find_profile(profile, self.profiles)
        # Per profile and the pack versions the rules date chose: a date switch compiles nothing twice (the engine
        # also keeps each compiled stylesheet by checksum for the process).
        self._stages: dict[tuple[str, tuple[str, ...]], _Stages] = {}
        self._slim = True  # cut long attachments for packs that allow it (tests compare with False)
        self._lock = threading.Lock()

    def packs_for(
        self, profile: Profile, rules_date: date | None = None
    ) -> tuple[tuple[str, ...], tuple[VersionChoice, ...]]:
        """The Schematron packs ``profile`` runs on ``rules_date`` (default: today), and why (see
        :meth:`Profile.packs_on`)."""
        return profile.packs_on(rules_date or self.rules_date or date.today(), self.registry.manifests)

    def _stages_for(self, profile: Profile, keys: tuple[str, ...] | None = None) -> _Stages:
        if keys is None:
            keys = self.packs_for(profile)[0]
        with self._lock:
            stages = self._stages.get((profile.name, keys))
            if stages is None:
                xsd_pack = self.registry.get(profile.xsd)
                xsd_pack.verify()
                sch = []
                slim = True
                for key in keys:
                    pack = self.registry.get(key)
                    pack.verify()
                    sch.append(SchematronStage(pack, profile.custom_levels, self.engine))
                    slim = slim and pack.manifest.attachment_content == "emptiness"
                stages = _Stages(XsdStage(xsd_pack, profile.root), tuple(sch), slim)
                self._stages[(profile.name, keys)] = stages
            return stages

    def prepare(self, *profiles: str) -> None:
        """Compile the packs of ``profiles`` (default: all) now rather than on first use: the versions in force on
        the rules date (a profile with no version in force that day is skipped: its documents get the
        ``rules-date`` error when they come)."""
        wanted = set(profiles) or {p.name for p in self.profiles}
        for profile in self.profiles:
            if profile.name in wanted:
                try:
                    keys = self.packs_for(profile)[0]
                except ProfileError as exc:
                    if exc.reason == "rules-date":
                        continue
                    raise
                self._stages_for(profile, keys)

    def validate(self, source: Source, *, profile: str | None = None, rules_date: date | None = None) -> Report:
        """Validate one document. An invalid invoice is a report; :class:`EInvoiceValidateError` means the
        document could not be validated (unreadable, too large, unsupported, missing rule packs, no rules in force
        on ``rules_date``). ``rules_date`` (default: today) picks the pack versions in force on that day where a
        profile lists several (the report's ``version_choices`` say which and why)."""
        timings: dict[str, float] = {}
        start = time.perf_counter()
        document = load(source, self.limits)
        timings["parse"] = _ms(start)
        forced = profile or self.profile
        chosen = select_profile(document, self.profiles, forced)
        keys, choices = self.packs_for(chosen, rules_date)
        findings = list(self._run(document, chosen, timings, keys))
        valid = not any(f.severity is Severity.ERROR for f in findings)
        return Report(
            profile=chosen.name,
            profile_reason=profile_reason(document, chosen, forced is not None),
            syntax=document.syntax,
            document_type=document.document_type,
            spec_id=document.spec_id,
            envelope=document.envelope,
            pdf=document.pdf,
            packs=(chosen.xsd, *keys),
            version_choices=choices,
            findings=tuple(findings),
            valid=valid,
            accepted=valid if chosen.verdict == "kosit" else None,
            timings_ms=timings,
        )

    def iter_findings(
        self, source: Source, *, profile: str | None = None, rules_date: date | None = None
    ) -> Iterator[Finding]:
        """The findings of one document, stage by stage, lazily (later packs run only if iterated)."""
        timings: dict[str, float] = {}
        document = load(source, self.limits)
        chosen = select_profile(document, self.profiles, profile or self.profile)
        yield from self._run(document, chosen, timings, self.packs_for(chosen, rules_date)[0])

    def _run(
        self, document: Document, profile: Profile, timings: dict[str, float], keys: tuple[str, ...]
    ) -> Iterator[Finding]:
        if profile.match == "any" and not profile.knows_spec_id(document):
            yield _generic_note(document, profile)
        if document.pdf is not None:
            from .envelopes.pdf import envelope_findings

            yield from envelope_findings(document.pdf, document.spec_id, f"einvoice-validate@{__version__}")
        stages = self._stages_for(profile, keys)
        start = time.perf_counter()
        root = document.tree.getroot()
        # the XSD stage's paths use the document's own prefixes; the packs' locations are resolved on the same tree
        locator = Locator(root, {k: v for k, v in root.nsmap.items() if k})
        xsd_findings = stages.xsd.run(document, locator)
        for finding in xsd_findings:
            level = profile.custom_levels.get(finding.rule_id)
            yield finding if level is None else _with_level(finding, level)
        timings["xsd"] = _ms(start)
        if self.xsd_gate and xsd_findings:
            return
        start = time.perf_counter()
        saxon_doc = self.engine.load(document, slim_attachments=stages.slim_attachments and self._slim)
        timings["saxon-parse"] = _ms(start)
        for stage in stages.schematron:
            start = time.perf_counter()
            yield from stage.run(saxon_doc, locator)
            timings[stage.source] = _ms(start)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def _with_level(finding: Finding, level: str) -> Finding:
    from .findings import severity_of_flag

    return finding.model_copy(update={"severity": severity_of_flag(level)})


def _generic_note(document: Document, profile: Profile) -> Finding:
    from .messages import catalogue

    spec = document.spec_id
    values = (spec, profile.name) if spec is not None else (profile.name,)
    return Finding(
        rule_id=GENERIC_PROFILE_NOTE,
        severity=Severity.INFO,
        flag="information",
        stage="input",
        location=None,
        message=catalogue().render_code(GENERIC_PROFILE_NOTE, values, variant=0 if spec is not None else 1),
        terms=("BT-24",),
        source=f"einvoice-validate@{__version__}",
    )
