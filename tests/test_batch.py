"""Batch validation: input order, same findings as one process (worker processes and threads over one shared
validator alike), per-document errors, a dying worker, overruns, loud ruleset errors, bounded look-ahead, clean
shutdown, the engine chosen by the work."""

from __future__ import annotations

import io
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from einvoice_validate import (
    BatchResult,
    BatchValidator,
    ProfileError,
    RulesetError,
    Validator,
    iter_validate,
    validate_many,
)
from einvoice_validate.parse import Source
from einvoice_validate.pool import batch as batch_module
from einvoice_validate.pool import routing
from einvoice_validate.pool.batch import _WINDOW_PER_WORKER, WORKER_CRASHED
from einvoice_validate.pool.routing import choose, sniff_syntax
from einvoice_validate.pool.slot import ProcessSlot, ThreadSlot
from einvoice_validate.pool.worker import TEST_CRASH_ENV
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron.engines import ENGINE_ENV, STEADY_FROM_DOCUMENTS
from tests.bounded import run_bounded
from tests.conftest import CORPUS

pytestmark = pytest.mark.corpus

REPO = Path(__file__).resolve().parents[1]
GOOD = REPO / "examples" / "xrechnung-ubl-invoice.xml"
BROKEN = REPO / "examples" / "xrechnung-ubl-broken.xml"
GOOD_CII = REPO / "examples" / "xrechnung-cii-invoice.xml"
WARM = ("xrechnung-3.0-ubl-invoice", "xrechnung-3.0-cii")  # the profiles of GOOD and GOOD_CII


def _sample(n: int) -> list[Path]:
    """UBL and CII XRechnung cases and mutated (invalid) files, interleaved: several profiles, many findings."""
    good = sorted((CORPUS / "xrechnung-testsuite").rglob("*.xml"))
    bad = sorted((CORPUS / "mutations-dev").glob("*.xml"))
    assert len(good) >= n and len(bad) >= n, "the shared corpus is incomplete"
    mixed = [
        p for pair in zip(good[:: max(1, len(good) // n)], bad[:: max(1, len(bad) // n)], strict=False) for p in pair
    ]
    return mixed[:n]


def _findings(result: BatchResult) -> list[dict[str, Any]]:
    assert result.report is not None, result.error
    return [f.model_dump(mode="json", by_alias=True) for f in result.report.findings]


def _started(batch: BatchValidator) -> list[ProcessSlot]:
    """The slots of a batch whose worker process has started."""
    return [s for s in batch.slots if isinstance(s, ProcessSlot) and s.proc is not None]


def _live_children() -> set[int] | None:
    """The pids of this process's children (Linux; started by any of its threads), or None when /proc cannot
    tell."""
    tasks = Path(f"/proc/{os.getpid()}/task")
    if not (tasks / str(os.getpid()) / "children").exists():
        return None
    found: set[int] = set()
    for task in tasks.iterdir():
        try:
            found |= {int(pid) for pid in (task / "children").read_text().split()}
        except OSError:  # the thread ended meanwhile
            continue
    return found


@pytest.fixture(scope="module")
def java_validator(registry: Registry) -> Validator:
    return Validator(rules_home=registry.home, engine="saxon-java")


def _processes(workers: int) -> dict[str, Any]:
    """A batch of worker processes (saxonc), whatever the batch's length and the environment."""
    return {"workers": workers, "engine": "saxonc"}


@pytest.mark.parametrize(
    ("engine", "mode"),
    [("saxonc", "processes"), ("saxon-java", "threads"), ("saxon-java", "processes")],
    ids=["saxonc-processes", "saxon-java-threads", "saxon-java-processes"],
)
def test_input_order_and_same_reports_as_one_validator(
    registry: Registry, validator: Validator, java_validator: Validator, engine: str, mode: str
) -> None:
    """Threads over one shared validator and worker processes give, document by document, the reports of a
    single Validator on the same engine (all but the timings)."""
    files = _sample(30)
    single = java_validator if engine == "saxon-java" else validator
    with BatchValidator(workers=2, rules_home=registry.home, engine=engine, mode=mode) as batch:  # type: ignore[arg-type]
        assert batch.mode == mode
        results = list(batch.iter_validate(files))
    assert [r.index for r in results] == list(range(len(files)))
    assert [r.source for r in results] == [str(f) for f in files]
    assert sum(1 for r in results if r.report is not None and not r.report.valid) >= 10  # the mutations
    for path, result in zip(files, results, strict=True):
        expected = single.validate(path)
        assert result.error is None and result.report is not None
        assert result.report.engine == engine
        assert result.report.model_dump(exclude={"timings_ms"}) == expected.model_dump(exclude={"timings_ms"}), path


@pytest.mark.parametrize(("workers", "engine"), [(1, "saxonc"), (2, "saxonc"), (2, "saxon-java")])
def test_bad_inputs_are_per_document_errors(registry: Registry, tmp_path: Path, workers: int, engine: str) -> None:
    sources: list[Any] = [
        GOOD,
        b"%PDF-1.7 not xml",
        tmp_path / "missing.xml",
        GOOD.read_bytes(),
        io.BytesIO(BROKEN.read_bytes()),
        io.StringIO("<Invoice/>"),  # a text stream
        12345,  # not a source at all
        b"<html/>",
        str(BROKEN),
    ]
    results = validate_many(sources, workers=workers, rules_home=registry.home, engine=engine)  # type: ignore[arg-type]
    codes = [r.error.code if r.error else None for r in results]
    assert codes == [
        None,
        "document.unreadable",
        "request.unreadable",
        None,
        None,
        "request.unreadable",
        "request.unreadable",
        "document.unsupported-type",
        None,
    ]
    assert [r.valid for r in results] == [True, False, False, True, False, False, False, False, False]
    assert [r.source for r in results][:4] == [str(GOOD), "#1", str(tmp_path / "missing.xml"), "#3"]
    assert all((r.report is None) != (r.error is None) for r in results)


def test_a_dying_worker_costs_only_its_document(
    registry: Registry, validator: Validator, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _sample(12)
    victim = files[5]
    monkeypatch.setenv(TEST_CRASH_ENV, victim.name)  # test-only hook: the worker holding it calls os._exit(70)
    results = list(iter_validate(files, rules_home=registry.home, **_processes(2)))
    assert [r.source for r in results] == [str(f) for f in files]
    crashed = [r for r in results if r.error is not None]
    assert [r.index for r in crashed] == [5]
    assert crashed[0].error is not None
    assert crashed[0].error.code == WORKER_CRASHED and "exit code 70" in crashed[0].error.detail
    for path, result in zip(files, results, strict=True):
        if path != victim:
            assert _findings(result) == [
                f.model_dump(mode="json", by_alias=True) for f in validator.validate(path).findings
            ]


def test_missing_rules_home_fails_the_batch(tmp_path: Path) -> None:
    for workers, engine in ((1, "saxonc"), (2, "saxonc"), (2, "saxon-java")):
        with pytest.raises(RulesetError) as info:
            list(iter_validate([GOOD, GOOD, GOOD], workers=workers, rules_home=tmp_path / "empty-home", engine=engine))  # type: ignore[arg-type]
        assert info.value.code == "ruleset.missing"


def test_unknown_profile_fails_at_call_time(registry: Registry) -> None:
    for workers in (1, 2):
        with pytest.raises(ProfileError):
            iter_validate([GOOD], workers=workers, profile="nope", rules_home=registry.home)
    with pytest.raises(ValueError):
        iter_validate([GOOD], workers=0)


class _Counted:
    """``count`` copies of ``source``, consumed lazily; ``taken`` says how many the batch has taken so far."""

    def __init__(self, source: Source, count: int) -> None:
        self.source, self.count, self.taken = source, count, 0

    def __iter__(self) -> Iterator[Source]:
        for _ in range(self.count):
            self.taken += 1
            yield self.source


def test_sources_are_consumed_lazily_within_the_window(registry: Registry) -> None:
    sources = _Counted(GOOD, 24)
    window = _WINDOW_PER_WORKER * 2  # 2 workers
    assert window < 24  # the test needs more sources than fit in the window
    seen = 0
    for result in iter_validate(sources, rules_home=registry.home, **_processes(2)):
        assert result.index == seen
        seen += 1
        # taken counts documents handed to the pool; `seen` have been handed out, so at most `window` are in flight
        assert sources.taken - (seen - 1) <= window, (sources.taken, seen)
        if seen == 1:
            assert sources.taken <= window
    assert seen == sources.taken == 24


def test_stopping_early_stops_the_workers(registry: Registry) -> None:
    before = _live_children()
    if before is None:
        pytest.skip("needs /proc")
    results = iter_validate([GOOD, GOOD_CII] * 25, rules_home=registry.home, **_processes(2))  # two syntaxes: two
    first = next(results)
    assert first.valid
    during = _live_children()
    assert during is not None and len(during - before) == 2
    results.close()
    assert _live_children() == before


def test_workers_1_runs_in_process(registry: Registry) -> None:
    before = _live_children()
    results = iter_validate([GOOD, BROKEN], rules_home=registry.home, **_processes(1))
    assert next(results).valid
    if before is not None:
        assert _live_children() == before
    assert not next(results).valid


def test_batch_validator_keeps_its_workers(registry: Registry) -> None:
    before = _live_children()
    with BatchValidator(rules_home=registry.home, **_processes(2)) as batch:
        # two syntaxes: both workers start (a small batch of one syntax starts one)
        assert [r.valid for r in batch.iter_validate([GOOD, BROKEN, GOOD_CII])] == [True, False, True]
        first = _live_children()
        assert [r.valid for r in batch.validate_many([BROKEN, GOOD_CII, GOOD, GOOD])] == [False, True, True, True]
        # the workers fill the cores: none of them takes a second thread for one document (Options.parallel_packs)
        assert batch.options.parallel_packs and not batch._config.options.parallel_packs
        if before is not None:
            assert first is not None and len(first - before) == 2
            assert _live_children() == first  # the same two processes
        results = batch.iter_validate([GOOD] * 10)
        next(results)
        results.close()  # abandoned: the busy worker is dropped, the pool goes on
        assert [r.valid for r in batch.iter_validate([GOOD, BROKEN])] == [True, False]
    if before is not None:
        assert _live_children() == before


def test_sniff_syntax() -> None:
    ubl = GOOD.read_bytes()
    cii = next((CORPUS / "xrechnung-testsuite").rglob("*uncefact.xml")).read_bytes()
    assert sniff_syntax(ubl) == "ubl"
    assert sniff_syntax(str(GOOD)) == "ubl"
    assert sniff_syntax(cii) == "cii"
    assert sniff_syntax(ubl.decode().encode("utf-16")) is None  # no hint: any worker takes it
    assert sniff_syntax(b"%PDF-1.7") is None
    assert sniff_syntax("/nonexistent/file.xml") is None
    # the first namespace wins: a CII invoice that mentions UBL further on is CII
    mention = b"<!-- urn:oasis:names:specification:ubl:schema:xsd:Invoice-2 -->"
    assert sniff_syntax(cii.replace(b"</rsm:CrossIndustryInvoice>", mention)) == "cii"


@pytest.mark.parametrize(
    ("have", "others", "waiting", "starved", "expected"),
    [
        (set(), set(), ["ubl", "cii"], False, 0),  # a fresh worker, nobody has anything: the oldest
        (set(), {"ubl"}, ["ubl", "ubl", "cii"], False, 2),  # a fresh worker takes the syntax nobody has
        ({"cii"}, {"ubl"}, ["ubl", "cii"], False, 1),  # a worker takes a document of its own syntax
        ({"cii"}, {"ubl"}, [None, "cii"], False, 0),  # an unknown syntax goes to any worker
        ({"cii"}, set(), ["ubl", "ubl"], False, 0),  # a syntax no worker has
        ({"cii"}, {"ubl"}, ["ubl", "ubl"], True, 0),  # left idle too long: take on the other syntax
        ({"cii"}, {"ubl"}, ["ubl", "ubl"], False, None),  # the tail of a batch: not worth compiling UBL
        (set(), {"ubl"}, ["ubl"], False, None),  # a small batch of one syntax starts no second worker
    ],
)
def test_choose_routes_by_syntax(
    have: set[str], others: set[str], waiting: list[str | None], starved: bool, expected: int | None
) -> None:
    assert choose(have, others, waiting, starved) == expected


def test_a_mixed_batch_keeps_one_syntax_per_worker(registry: Registry) -> None:
    """Alternating UBL and CII documents on two workers: each worker compiles and holds the packs of one syntax
    only (half the memory of holding both), and the results are those of one process."""
    business = sorted((CORPUS / "xrechnung-testsuite/business-cases/standard").glob("*.xml"))
    ubl = [p for p in business if p.name.endswith("_ubl.xml")][:12]
    cii = [p for p in business if p.name.endswith("_uncefact.xml")][:12]
    files = [p for pair in zip(ubl, cii, strict=True) for p in pair]
    with BatchValidator(rules_home=registry.home, **_processes(2)) as batch:
        results = batch.validate_many(files)
        assert sorted(tuple(sorted(w.syntaxes)) for w in batch.slots) == [("cii",), ("ubl",)]
    assert [r.index for r in results] == list(range(len(files)))
    assert [r.report.syntax if r.report else None for r in results] == ["ubl", "cii"] * 12


def test_a_small_batch_of_one_syntax_starts_one_worker(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(routing, "HELP_AFTER_SECONDS", 3600.0)  # however long compiling takes on a busy machine
    before = _live_children()
    if before is None:
        pytest.skip("needs /proc")
    with BatchValidator(rules_home=registry.home, **_processes(2)) as batch:
        assert [r.valid for r in batch.iter_validate([GOOD, BROKEN, GOOD])] == [True, False, True]
        assert len(_started(batch)) == 1
        during = _live_children()
        assert during is not None and len(during - before) == 1


def test_a_long_batch_of_one_syntax_uses_every_worker(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker left idle takes on a syntax it has not compiled once it has idled long enough in all (shortened
    here from seconds to milliseconds), so a long batch of one syntax keeps every core busy."""
    monkeypatch.setattr(routing, "HELP_AFTER_SECONDS", 0.01)
    with BatchValidator(rules_home=registry.home, **_processes(2)) as batch:
        assert all(r.valid for r in batch.iter_validate([GOOD] * 40))
        assert [sorted(w.syntaxes) for w in batch.slots] == [["ubl"], ["ubl"]]


def test_bytes_waiting_in_the_parent_are_capped(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    """Byte sources wait in the parent only up to a byte cap (here 1 byte: one per worker), whatever the window."""
    monkeypatch.setattr(batch_module, "_WAITING_BYTES", 1)
    monkeypatch.setattr(batch_module, "_WINDOW_PER_WORKER", 100)
    monkeypatch.setattr(routing, "HELP_AFTER_SECONDS", 3600.0)  # one syntax: one worker, results in order
    sources = _Counted(GOOD.read_bytes(), 30)
    results = iter_validate(sources, rules_home=registry.home, **_processes(2))
    assert next(results).valid
    assert sources.taken <= 1 + 2 + 1  # the one validated, two waiting (one per worker), the one that tipped the cap
    assert sum(1 for _ in results) == 29


# --- threads over one shared validator (saxon-java) ------------------------------------------------------------


def _java_sleep(seconds: float) -> None:
    """A runaway stylesheet, as far as the runner can tell: a call into Java that does not come back."""
    from java.lang import Thread

    Thread.sleep(int(seconds * 1000))


def _slowed(batch: BatchValidator, slow: dict[str, Any]) -> None:
    """Make the batch's thread slots take ``slow[name]`` (a callable) before validating that document (by its source
    name: in thread mode the slots get the bytes, read in the caller's thread)."""
    for slot in batch.slots:
        assert isinstance(slot, ThreadSlot)
        original = slot._work

        def work(job: Any, original: Any = original) -> Any:
            action = slow.get(os.path.basename(job.name))
            if action is not None:
                action()
            return original(job)

        slot._work = work


@pytest.fixture
def victims(tmp_path: Path) -> dict[str, Path]:
    """Copies of the good invoice under names the tests single out."""
    names = ("runaway.xml", "stuck.xml", "dies.xml")
    for name in names:
        (tmp_path / name).write_bytes(GOOD.read_bytes())
    return {name: tmp_path / name for name in names}


def test_threads_run_in_this_process(registry: Registry) -> None:
    before = _live_children()
    with BatchValidator(workers=2, rules_home=registry.home, engine="saxon-java") as batch:
        assert (batch.mode, batch.engine) == ("threads", "saxon-java")
        results = batch.validate_many([GOOD, BROKEN, GOOD_CII] * 3)
        if before is not None:
            assert _live_children() == before  # no worker process
    assert [r.valid for r in results] == [True, False, True] * 3
    assert {r.report.engine for r in results if r.report} == {"saxon-java"}


def test_threads_validating_two_profiles_of_one_schema_get_their_own_xsd_findings(registry: Registry) -> None:
    """Two profiles share one compiled XML schema (and its error log): threads validating documents of both at
    once each get their own document's XSD findings (a lock per schema, not per profile's stage)."""
    from einvoice_validate.parse import load

    validator = Validator(rules_home=registry.home, engine="saxonc")
    files = sorted((CORPUS / "mutations-dev").glob("*ubl*.m1-*.xml"))[:60]
    by_name = {p.name: p for p in validator.profiles}
    stages = [validator._stages_for(by_name[n]).xsd for n in ("en16931-ubl-invoice", "xrechnung-3.0-ubl-invoice")]
    assert stages[0]._schema is stages[1]._schema

    def seen(stage: Any, source: Path) -> list[tuple[str, str | None, int | None]]:
        return [(f.rule_id, f.location, f.line) for f in stage.run(load(source, validator.limits))]

    wanted = [seen(stages[0], f) for f in files]
    assert sum(1 for w in wanted if w) >= 20  # enough documents with XSD errors to mix them up
    wrong: list[Path] = []

    def work(stage: Any) -> None:
        for _ in range(3):
            wrong.extend(f for f, w in zip(files, wanted, strict=True) if seen(stage, f) != w)

    threads = [threading.Thread(target=work, args=(stage,)) for stage in stages]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


def test_a_thread_validating_against_a_schema_does_not_wait_for_another(registry: Registry) -> None:
    """While one thread holds the compiled schema (a validation under way), another validates against the same
    schema with a copy of its own, and each document gets its own findings; the copies are kept for reuse."""
    from einvoice_validate.parse import load

    validator = Validator(rules_home=registry.home, engine="saxonc")
    stage = validator._stages_for({p.name: p for p in validator.profiles}["xrechnung-3.0-ubl-invoice"]).xsd
    broken = [f.rule_id for f in stage.run(load(BROKEN, validator.limits))]
    seen: list[list[str]] = []

    def validate_broken() -> None:
        seen.append([f.rule_id for f in stage.run(load(BROKEN, validator.limits))])

    with stage._schema.taken() as held:  # a validation that has not finished
        worker = threading.Thread(target=validate_broken)
        worker.start()
        worker.join(60)
        assert not worker.is_alive(), "the second validation waited for the first one's schema"
        assert held.validate(load(GOOD, validator.limits).tree)
    assert broken and seen == [broken]
    assert len(stage._schema._free) == 2  # both copies back, for the next two validations at once


# The bounded scenarios run one small profile (CEN UBL alone: one stylesheet to compile in the child's JVM).
BOUNDED = {"profile": "en16931-ubl-invoice", "engine": "saxon-java", "workers": 2}


def runaway_in_a_thread(home: str, folder: str) -> None:
    """Run by :func:`test_a_runaway_document_in_a_thread_is_stopped_at_the_limit` in a bounded subprocess."""
    files = [GOOD, Path(folder) / "runaway.xml", BROKEN, GOOD, GOOD]
    # The limit is far above a document's seconds on a busy machine, far below the runaway's hour.
    with BatchValidator(rules_home=home, document_timeout=5.0, **BOUNDED) as batch:  # type: ignore[arg-type]
        batch._validator.prepare(BOUNDED["profile"])  # compiled off the documents' clock
        assert [r.valid for r in batch.validate_many([GOOD, BROKEN])] == [True, False]  # JVM warm enough
        _slowed(batch, {"runaway.xml": lambda: _java_sleep(3600)})
        results = batch.validate_many(files)
        assert batch._watchdog is not None
        while batch._watchdog.stuck:  # the stopped thread comes back at once (the bound of the subprocess)
            time.sleep(0.05)
        assert batch._watchdog.stuck == 0 and batch._watchdog.timeouts == 1
        assert [r.valid for r in batch.validate_many([GOOD, BROKEN, GOOD])] == [True, False, True]
    error = results[1].error
    assert error is not None and (error.code, error.reason) == (WORKER_CRASHED, "timeout")
    assert [r.valid for i, r in enumerate(results) if i != 1] == [True, False, True, True]


def test_a_runaway_document_in_a_thread_is_stopped_at_the_limit(registry: Registry, victims: dict[str, Path]) -> None:
    """A document stuck inside Java (for an hour) gets ``server.error`` (reason ``timeout``) at the limit; its
    thread is stopped (``Thread.stop``) and replaced; the other documents and the next batch are unaffected. In a
    subprocess bounded far below the hour: it must not wait for the document."""
    folder = str(victims["runaway.xml"].parent)
    run_bounded("tests.test_batch:runaway_in_a_thread", str(registry.home), folder, timeout=300)


def stuck_outside_java(home: str, folder: str) -> None:
    """Run by :func:`test_a_thread_stuck_outside_java_is_answered_at_the_limit` in a bounded subprocess."""
    release = threading.Event()
    with BatchValidator(rules_home=home, document_timeout=5.0, **BOUNDED) as batch:  # type: ignore[arg-type]
        batch._validator.prepare(BOUNDED["profile"])
        batch.validate_many([GOOD, GOOD])
        _slowed(batch, {"stuck.xml": lambda: release.wait(3600)})
        first = next(batch.iter_validate([Path(folder) / "stuck.xml"]))
        results = batch.validate_many([GOOD, BROKEN, GOOD])  # on the fresh thread and the other one
        assert batch._watchdog is not None and batch._watchdog.stuck == 1
        release.set()
        while batch._watchdog.stuck:
            time.sleep(0.05)
        assert batch._watchdog.stuck == 0  # it came back; its result went nowhere
    assert first.error is not None and (first.error.code, first.error.reason) == (WORKER_CRASHED, "timeout")
    assert [r.valid for r in results] == [True, False, True]


def test_a_thread_stuck_outside_java_is_answered_at_the_limit(registry: Registry, victims: dict[str, Path]) -> None:
    """A thread busy in Python cannot be stopped: its document is answered at the limit all the same (the thread
    waits an hour; the subprocess is bounded far below), a fresh thread takes its place, and the stuck one is
    counted until it comes back (its result is dropped)."""
    folder = str(victims["stuck.xml"].parent)
    run_bounded("tests.test_batch:stuck_outside_java", str(registry.home), folder, timeout=300)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the thread's death, on purpose
def test_a_thread_that_dies_costs_only_its_document(registry: Registry, victims: dict[str, Path]) -> None:
    def die() -> None:
        raise SystemExit("the thread ends here")

    with BatchValidator(workers=2, rules_home=registry.home, engine="saxon-java") as batch:
        _slowed(batch, {"dies.xml": die})
        results = batch.validate_many([GOOD, victims["dies.xml"], BROKEN, GOOD_CII, GOOD])
        assert [r.valid for r in batch.validate_many([GOOD] * 4)] == [True] * 4  # the slot has a new thread
    error = results[1].error
    assert error is not None and (error.code, error.reason) == (WORKER_CRASHED, "worker-died")
    assert [r.valid for i, r in enumerate(results) if i != 1] == [True, False, True, True]


def overrun_in_a_process(home: str) -> None:
    """Run by :func:`test_an_overrun_stops_its_worker_process` in a bounded subprocess."""
    with BatchValidator(rules_home=home, document_timeout=0.001, **_processes(2)) as batch:
        results = batch.validate_many([GOOD, GOOD_CII])
    assert [(r.error.code, r.error.reason) if r.error else None for r in results] == [
        (WORKER_CRASHED, "timeout"),
        (WORKER_CRASHED, "timeout"),
    ]


def test_an_overrun_stops_its_worker_process(registry: Registry) -> None:
    run_bounded("tests.test_batch:overrun_in_a_process", str(registry.home), timeout=180)


def test_a_bug_on_one_document_is_its_error_result(registry: Registry, victims: dict[str, Path]) -> None:
    def bug() -> None:
        raise KeyError("a bug")

    with BatchValidator(workers=2, rules_home=registry.home, engine="saxon-java") as batch:
        _slowed(batch, {"dies.xml": bug})
        results = batch.validate_many([victims["dies.xml"], GOOD])
    error = results[0].error
    assert error is not None and (error.code, error.reason) == ("server.error", "internal")
    assert "KeyError" in error.detail and results[1].valid


# --- the engine chosen by the work ------------------------------------------------------------------------------


def test_the_length_of_a_batch_chooses_the_engine(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    from einvoice_validate.schematron._java import java_available

    monkeypatch.delenv(ENGINE_ENV, raising=False)
    short = validate_many([GOOD, BROKEN], workers=1, rules_home=registry.home)  # a list: its length is known
    assert {r.report.engine for r in short if r.report} == {"saxonc"}
    steady = "saxon-java" if java_available() else "saxonc"
    assert BatchValidator(workers=1, rules_home=registry.home).engine == steady  # keeps its workers: many batches
    assert BatchValidator(workers=1, rules_home=registry.home, documents=STEADY_FROM_DOCUMENTS).engine == steady
    assert BatchValidator(workers=1, rules_home=registry.home, documents=STEADY_FROM_DOCUMENTS - 1).engine == "saxonc"
    unknown = list(iter_validate(iter([GOOD]), workers=1, rules_home=registry.home))  # a generator: many
    assert unknown[0].report is not None and unknown[0].report.engine == steady


def test_an_explicit_engine_always_wins(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    batch = BatchValidator(workers=1, rules_home=registry.home, engine="saxonc", documents=10_000)
    assert batch.engine == "saxonc"
    monkeypatch.setenv(ENGINE_ENV, "saxonc")
    assert BatchValidator(workers=1, rules_home=registry.home).engine == "saxonc"
    assert BatchValidator(workers=1, rules_home=registry.home, documents=10_000).engine == "saxonc"
    monkeypatch.setenv(ENGINE_ENV, "saxon-java")
    assert validate_many([GOOD], workers=1, rules_home=registry.home)[0].report.engine == "saxon-java"  # type: ignore[union-attr]
