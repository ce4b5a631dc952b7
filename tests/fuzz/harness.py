"""The fuzz campaign of issue 40: atheris (libFuzzer) over one reused ``Validator``, structure-aware mutations
(:mod:`tests.fuzz.mutators`), a seed corpus built at run time from ``../shared/corpus`` (never copied into the
repository).

Invariants, checked on every input (a violation is a crash: libFuzzer saves the input as ``crash-*``):

* the only exception is the library's own (:class:`EInvoiceValidateError`) with a code of the API's
  (``ERROR_CODES``, or ``RULESET_CODES``) and, for the API's codes, one of its ``REASONS``;
* a report's findings each carry a rule id, a severity and both languages;
* no descriptor of the process points at a sentinel file (:data:`~tests.fuzz.mutators.SENTINEL`), and no socket is
  open to anywhere (``/proc/self/fd`` after every input); the system calls of the whole run are checked by
  :mod:`tests.fuzz.check_trace` when the campaign runs under ``strace`` (``make fuzz``, the short run of the tests);
* an input ends within libFuzzer's ``-timeout`` and the process stays under ``-rss_limit_mb``; the peak memory
  may grow by at most 300 MB while one input is validated (inputs that compile a profile's packs for the first
  time excepted).

The slowest inputs are kept in ``<workdir>/slowest.json`` (seconds, size, what kind, SHA-256 prefix), as the run
goes.

Usage: python -m tests.fuzz.harness WORKDIR [libFuzzer flags, e.g. -max_total_time=1800 -seed=1]
(``EINVOICE_FUZZ_SEEDS=small``: seeds from the examples and two PDFs only, as the tests' short run uses)
(``make fuzz FUZZ_SECONDS=1800``; the corpus grows in ``WORKDIR/corpus``, crashes land in ``WORKDIR``).
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import sys
import time
from pathlib import Path

import atheris

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
GROWTH_BYTES = 300 * 1024 * 1024
SEEDS_PER_FOLDER = 6
"""Seeds taken from each corpus folder (the smallest files: fast executions), plus every PDF."""

with atheris.instrument_imports(include=["einvoice_validate"]):
    from einvoice_validate import Validator
    from einvoice_validate.errors import ERROR_CODES, REASONS, RULESET_CODES, EInvoiceValidateError
    from einvoice_validate.findings import Report

from tests.fuzz.check_trace import MARKER  # noqa: E402  (after the instrumented imports)
from tests.fuzz.mutators import SENTINEL, make_sentinels, mutate  # noqa: E402


def build_seed_corpus(folder: Path, small: bool = False) -> int:
    """The seeds: from every folder of ``../shared/corpus`` its smallest XML files, every PDF, and the examples
    (``small``: the examples and two Factur-X PDFs, for the short run of the tests: few profiles to compile)."""
    folder.mkdir(parents=True, exist_ok=True)
    corpus = SHARED / "corpus"
    chosen: list[Path] = sorted((REPO / "examples").glob("*.xml"))
    if small:
        chosen += sorted((corpus / "zugferd").rglob("*.pdf"))[:2]
        for path in chosen:
            data = path.read_bytes()
            (folder / hashlib.sha256(data).hexdigest()[:16]).write_bytes(data)
        return len(chosen)
    groups: dict[Path, list[Path]] = {}
    for path in corpus.rglob("*"):
        if path.suffix.lower() == ".pdf":
            chosen.append(path)
        elif path.suffix.lower() == ".xml":
            groups.setdefault(path.parent, []).append(path)
    for files in groups.values():
        chosen.extend(sorted(files, key=lambda p: (p.stat().st_size, p.name))[:SEEDS_PER_FOLDER])
    for path in chosen:
        data = path.read_bytes()
        (folder / hashlib.sha256(data).hexdigest()[:16]).write_bytes(data)
    return len(chosen)


class Campaign:
    """The target: one validator, the invariants, the slowest inputs."""

    def __init__(self, workdir: Path) -> None:
        self.validator = Validator(rules_date="2026-08-30")
        self.workdir = workdir
        self.slowest: list[tuple[float, int, str, str]] = []
        self.sentinel = str(SENTINEL)

    def run(self, data: bytes) -> None:
        compiled = len(self.validator._stages)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        start = time.perf_counter()
        try:
            report = self.validator.validate(data)
        except EInvoiceValidateError as exc:
            self._check_error(exc)
            outcome = f"{exc.code}/{exc.reason}"
        else:
            self._check_report(report)
            outcome = f"report:{report.profile}"
        elapsed = time.perf_counter() - start
        self._check_descriptors()
        if len(self.validator._stages) == compiled:  # no pack compiled for this input: its own cost
            growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
            assert growth < GROWTH_BYTES, f"peak memory grew by {growth >> 20} MB on one input ({outcome})"
            self._note(elapsed, data, outcome)

    @staticmethod
    def _check_error(exc: EInvoiceValidateError) -> None:
        assert exc.code in ERROR_CODES | RULESET_CODES, exc.code
        if exc.code in ERROR_CODES and exc.reason is not None:
            assert exc.reason in REASONS[exc.code], (exc.code, exc.reason)
        assert exc.detail and exc.message.en and exc.message.de
        assert " at 0x" not in exc.detail, exc.detail  # no object repr: the same detail for the same bytes

    @staticmethod
    def _check_report(report: Report) -> None:
        for finding in report.findings:
            assert finding.rule_id and finding.severity is not None, finding
            assert finding.message.en and finding.message.de, finding.rule_id

    def _check_descriptors(self) -> None:
        for fd in os.listdir("/proc/self/fd"):
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                continue
            assert not target.startswith(self.sentinel) and target != "/dev/stdin", f"fd {fd} -> {target}"

    def _note(self, elapsed: float, data: bytes, outcome: str) -> None:
        if len(self.slowest) >= 10 and elapsed <= self.slowest[-1][0]:
            return
        kind = "pdf" if data.startswith(b"%PDF") else "xml"
        entry = (round(elapsed, 3), len(data), f"{kind} -> {outcome}", hashlib.sha256(data).hexdigest()[:16])
        self.slowest = sorted([*self.slowest, entry], reverse=True)[:10]
        slow = self.workdir / "slow"
        slow.mkdir(exist_ok=True)
        (slow / entry[3]).write_bytes(data)
        (self.workdir / "slowest.json").write_text(json.dumps(self.slowest, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str]) -> None:
    workdir = Path(argv[1]).resolve()
    corpus = workdir / "corpus"
    if not corpus.is_dir() or not any(corpus.iterdir()):
        small = os.environ.get("EINVOICE_FUZZ_SEEDS") == "small"
        print(f"seed corpus: {build_seed_corpus(corpus, small)} files from {SHARED / 'corpus'}", flush=True)
    make_sentinels()
    campaign = Campaign(workdir)
    flags = [f for f in argv[2:] if f.startswith("-")]
    if not any(f.startswith("-max_len=") for f in flags):
        flags.append("-max_len=8388608")
    dirs = [a for a in argv[2:] if not a.startswith("-")] or [str(corpus)]
    os.chdir(workdir)  # crash-* and timeout-* files land here

    def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
        return mutate(data, max_size, seed, atheris.Mutate)[:max_size]

    atheris.Setup([argv[0], *flags, *dirs], campaign.run, custom_mutator=custom_mutator)
    os.path.exists(MARKER)  # the trace is checked from this system call on (tests.fuzz.check_trace)
    atheris.Fuzz()


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        raise SystemExit(__doc__)
    main(sys.argv)
