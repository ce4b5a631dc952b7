"""Acceptance sets: a pack proves itself where it is installed (``Manifest.acceptance``, run by ``rulesets install``).

A pack's acceptance set is a list of documents its upstream (or the project, from the corpora the tests use) says
must pass: XRechnung's test-suite business cases must be accepted, the EN 16931 examples valid, and so on. After
the installer has put the packs in place it calls :class:`AcceptanceRunner` for each pack that names a set: every
document of the set is validated, with this rules home, on the pack's rules date (``Acceptance.rules_date``, else
its ``valid_from``), by the profile that matches it (or the one the set forces for its document type); the
documents whose plan does not run the pack (as its XSD or one of its rule packs) are left out, at least one must
run it, and each must be ``accepted`` (the KoSIT verdict) or ``valid``. A failure makes the installer refuse the
pack (its previous folder is put back).

Runs are cached by checksum in ``<home>/acceptance/<id>@<version>.json``: the digest of the documents, the rules
date, this library's version and the installed bytes (files and prepared copies) of every pack the documents'
plans use. An install that changes none of these (``make rulesets`` run again) does not validate anything again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ._version import __version__
from .errors import EInvoiceValidateError, RulesetError
from .findings import Report
from .profiles import select_profile
from .rulesets.manifest import Acceptance
from .rulesets.prepare import PREPARED_INDEX
from .rulesets.registry import InstalledPack, Registry
from .validator import Validator

__all__ = [
    "ACCEPTANCE_DIR",
    "AcceptanceResult",
    "AcceptanceRunner",
    "acceptance_documents",
    "acceptance_record",
    "set_digest",
]

ACCEPTANCE_DIR = "acceptance"
"""``<home>/acceptance/<id>@<version>.json``: the last passing run of each pack's set (the cache)."""


def acceptance_documents(corpus: Path, acceptance: Acceptance) -> list[Path]:
    """The documents of ``acceptance`` in the corpus folder ``corpus``: the ``*.xml`` files (any case) directly in
    each of its folders, less ``exclude``, sorted by path."""
    found: list[Path] = []
    for folder in acceptance.folders:
        directory = corpus / folder
        if directory.is_dir():
            found += [
                p
                for p in directory.iterdir()
                if p.is_file() and p.suffix.lower() == ".xml" and p.name not in acceptance.exclude
            ]
    return sorted(found)


def set_digest(corpus: Path, documents: Sequence[Path]) -> str:
    """The sha256 of a set of documents: of the lines ``<path relative to corpus> TAB <sha256>``, sorted."""
    lines = sorted(
        f"{p.relative_to(corpus).as_posix()}\t{hashlib.sha256(p.read_bytes()).hexdigest()}" for p in documents
    )
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def acceptance_record(home: Path, key: str) -> dict[str, object] | None:
    """The cached record of the pack's last passing acceptance run in the rules home ``home``, if any."""
    try:
        body = json.loads((home / ACCEPTANCE_DIR / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) else None


@dataclass(frozen=True, slots=True)
class AcceptanceResult:
    """One pack's passing acceptance run: how many documents ran the pack (``documents``), how many of the set
    did not (``left_out``), on which rules date, and whether it was the cached result of an earlier run."""

    pack: str
    title: str
    documents: int
    left_out: int
    rules_date: date
    cached: bool


class AcceptanceRunner:
    """Runs acceptance sets from the corpus folder ``corpus`` with the packs of ``registry`` (the installer's
    ``accept`` hook: raises ``ruleset.install-failed`` when a pack fails its set). ``on_result`` hears about each
    pack that passed."""

    def __init__(
        self,
        corpus: Path,
        registry: Registry,
        on_result: Callable[[AcceptanceResult], None] | None = None,
    ) -> None:
        self.corpus = corpus
        self.registry = registry
        self.on_result = on_result
        self._validator: Validator | None = None
        self._reports: dict[tuple[Path, str | None, date], Report] = {}

    def validator(self) -> Validator:
        """One validator for every set of this install (each pack compiled once), on the installer's registry."""
        if self._validator is None:
            self._validator = Validator(rules_home=self.registry.home)
            self._validator.registry = self.registry  # the installer's manifests
        return self._validator

    def __call__(self, pack: InstalledPack) -> None:
        acceptance = pack.manifest.acceptance
        if acceptance is None:
            return
        what = f"pack {pack.key}: its acceptance set ({acceptance.title})"
        documents = acceptance_documents(self.corpus, acceptance)
        if not documents:
            raise RulesetError("ruleset.install-failed", f"{what} has no documents in {self.corpus}")
        digest = set_digest(self.corpus, documents)
        if acceptance.sha256 is not None and digest != acceptance.sha256:
            raise RulesetError(
                "ruleset.install-failed",
                f"{what}: the documents in {self.corpus} are not the set the manifest names (digest {digest}, "
                f"manifest says {acceptance.sha256})",
            )
        day = acceptance.rules_date or pack.manifest.valid_from or date.today()
        runs, left_out = self._plans(pack, acceptance, documents, day)
        if not runs:
            raise RulesetError("ruleset.install-failed", f"{what}: no document of the set runs the pack on {day}")
        used = sorted({key for _, _, keys in runs for key in keys})
        fingerprint = self._fingerprint(digest, day, acceptance, used)
        record = acceptance_record(self.registry.home, pack.key)
        if record is not None and record.get("fingerprint") == fingerprint:
            self._tell(AcceptanceResult(pack.key, acceptance.title, len(runs), left_out, day, cached=True))
            return
        failures = []
        for path, forced, _ in runs:
            report = self._report(path, forced, day)
            passed = report.accepted is True if acceptance.expect == "accepted" else report.valid
            if not passed:
                errors = sorted({f.rule_id for f in report.errors})
                failures.append(f"{path.relative_to(self.corpus)} ({report.profile}: {', '.join(errors) or 'no'})")
        if failures:
            more = f" and {len(failures) - 5} more" if len(failures) > 5 else ""
            raise RulesetError(
                "ruleset.install-failed",
                f"{what} is not {acceptance.expect} on {day} for {len(failures)} of {len(runs)} documents: "
                f"{'; '.join(failures[:5])}{more}",
            )
        body = {
            "pack": pack.key,
            "fingerprint": fingerprint,
            "documents": len(runs),
            "left_out": left_out,
            "rules_date": day.isoformat(),
            "packs": used,
        }
        target = self.registry.home / ACCEPTANCE_DIR / f"{pack.key}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(body, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        self._tell(AcceptanceResult(pack.key, acceptance.title, len(runs), left_out, day, cached=False))

    def _plans(
        self, pack: InstalledPack, acceptance: Acceptance, documents: list[Path], day: date
    ) -> tuple[list[tuple[Path, str | None, tuple[str, ...]]], int]:
        """The documents whose plan on ``day`` runs the pack, each with its forced profile and every pack it uses."""
        validator = self.validator()
        runs = []
        left_out = 0
        for path in documents:
            try:
                document = validator.load(path)
                forced = acceptance.profiles.get(document.document_type)
                profile = select_profile(document, validator.profiles, forced)
                if pack.key != profile.xsd and pack.key not in profile.candidate_keys(self.registry.manifests):
                    left_out += 1  # a profile that never runs the pack (another syntax)
                    continue
                plan = validator.plan_for(profile, day)
            except EInvoiceValidateError as exc:
                if isinstance(exc, RulesetError):
                    raise
                raise RulesetError(
                    "ruleset.install-failed", f"pack {pack.key}: acceptance document {path}: {exc.code}: {exc.detail}"
                ) from exc
            if pack.key == profile.xsd or pack.key in plan.packs:  # its schema, or a rule pack of the plan
                runs.append((path, forced, (profile.xsd, *plan.packs, *filter(None, [plan.configuration]))))
            else:
                left_out += 1
        return runs, left_out

    def _report(self, path: Path, forced: str | None, day: date) -> Report:
        """The report on one document (kept: the UBL and CII packs of one version share their set)."""
        key = (path, forced, day)
        report = self._reports.get(key)
        if report is None:
            report = self._reports[key] = self.validator().validate(path, profile=forced, rules_date=day)
        return report

    def _fingerprint(self, digest: str, day: date, acceptance: Acceptance, used: list[str]) -> str:
        packs = {}
        for key in used:
            installed = self.registry.get(key)
            index = installed.directory / PREPARED_INDEX
            prepared = hashlib.sha256(index.read_bytes()).hexdigest() if index.is_file() else None
            packs[key] = {"files": installed.files(), "prepared": prepared}
        body = {
            "library": __version__,
            "set": digest,
            "rules_date": day.isoformat(),
            "expect": acceptance.expect,
            "profiles": acceptance.profiles,
            "packs": packs,
        }
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()

    def _tell(self, result: AcceptanceResult) -> None:
        if self.on_result is not None:
            self.on_result(result)
