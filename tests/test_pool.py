"""The service pool, in both modes (threads over one shared validator on saxon-java, worker processes on
saxonc): ``await pool.validate`` gives the same reports as a Validator; a full queue is a clear busy outcome;
cancelled requests never receive another request's answer; a dead worker or an overrun costs only its document;
workers are recycled; the pool is usable from threads; it is ready at once and compiles on demand."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from einvoice_validate import Validator
from einvoice_validate.errors import InputError, PoolBusy, ProfileError, WorkerDied
from einvoice_validate.pool import Pool
from einvoice_validate.pool.worker import TEST_CRASH_ENV
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron.engines import ENGINE_ENV
from tests.bounded import run_bounded
from tests.conftest import CORPUS

REPO = Path(__file__).resolve().parents[1]
GOOD = (REPO / "examples" / "xrechnung-ubl-invoice.xml").read_bytes()
BROKEN = (REPO / "examples" / "xrechnung-ubl-broken.xml").read_bytes()
# Distinct documents of one syntax (a worker compiles UBL only): the good invoice with another note each.
VARIANTS = [GOOD.replace(b"<cbc:Note>", f"<cbc:Note>#{i} ".encode(), 1) for i in range(40)]


PROCESSES: dict[str, Any] = {"engine": "saxonc"}  # worker processes (the default mode on saxonc)
THREADS: dict[str, Any] = {"engine": "saxon-java"}  # threads over one validator (the default on saxon-java)
SAME = {"timings_ms", "engine"}  # what a report on either engine has in common with the saxonc validator's


@pytest.fixture(scope="module", params=["threads", "processes"])
def pool(request: pytest.FixtureRequest, registry: Registry) -> Iterator[Pool]:
    engine = THREADS if request.param == "threads" else PROCESSES
    with Pool(workers=2, queue_size=64, prepare=("xrechnung-3.0-ubl-invoice",), **engine) as p:
        assert p.mode == request.param
        yield p


def test_same_report_as_a_validator(pool: Pool, registry: Registry, validator: Validator) -> None:
    report = asyncio.run(pool.validate(BROKEN))
    single = validator if pool.engine == "saxonc" else Validator(rules_home=registry.home, engine="saxon-java")
    expected = single.validate(BROKEN)
    assert report.engine == pool.engine
    assert report.model_dump(exclude={"timings_ms"}) == expected.model_dump(exclude={"timings_ms"})
    assert not report.valid


def test_a_french_invoice_gets_the_french_rules(pool: Pool, validator: Validator) -> None:
    """Issue 31: a worker compiles the French packs on first use and gives the library's report."""
    data = (CORPUS / "france" / "mutations" / "UC1_F202500003_00-INV_20250701_UBL.m7-0.xml").read_bytes()
    report = asyncio.run(pool.validate(data))
    expected = validator.validate(data)  # saxonc; the same findings on saxon-java (tests/test_france.py)
    assert report.engine == pool.engine
    assert report.model_dump(exclude=SAME) == expected.model_dump(exclude=SAME)
    assert report.profile == "fr-ctc-ubl-invoice" and "French CTC invoice" in str(report.profile_reason)


def test_every_answer_belongs_to_its_document(pool: Pool) -> None:
    async def run() -> list[tuple[str | None, str]]:
        results = await asyncio.gather(*(pool.validate_json(d) for d in VARIANTS))
        return [(r.sha256, hashlib.sha256(d).hexdigest()) for r, d in zip(results, VARIANTS, strict=True)]

    pairs = asyncio.run(run())
    assert all(got == want for got, want in pairs)
    assert len({got for got, _ in pairs}) == len(VARIANTS)


def test_document_errors_keep_their_code_and_reason(pool: Pool) -> None:
    with pytest.raises(InputError) as info:
        asyncio.run(pool.validate(b"<!DOCTYPE x><x/>"))
    assert (info.value.code, info.value.reason) == ("document.unreadable", "doctype")


def test_usable_from_threads(pool: Pool) -> None:
    results: dict[int, bool] = {}

    def work(i: int) -> None:
        results[i] = pool.validate_blocking(VARIANTS[i]).valid

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results == dict.fromkeys(range(8), True)


def test_cancelled_requests_leave_the_pool_consistent(pool: Pool) -> None:
    async def run() -> None:
        tasks = [asyncio.create_task(pool.validate_json(d)) for d in VARIANTS[:30]]
        await asyncio.sleep(0.01)
        for t in tasks[::2]:
            t.cancel()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        kept = [(r, d) for r, d in zip(done, VARIANTS[:30], strict=True) if not isinstance(r, BaseException)]
        assert sum(isinstance(r, asyncio.CancelledError) for r in done) >= 1
        assert all(r.sha256 == hashlib.sha256(d).hexdigest() for r, d in kept)  # type: ignore[union-attr]
        # the next answers are their own, not results left over from cancelled requests
        after = await asyncio.gather(*(pool.validate_json(d) for d in VARIANTS[30:]))
        assert [r.sha256 for r in after] == [hashlib.sha256(d).hexdigest() for d in VARIANTS[30:]]

    before = pool.stats()["done"]
    asyncio.run(run())
    stats = pool.stats()
    assert stats["in_flight"] == 0 and stats["queued"] == 0
    assert stats["done"] - before < 40  # some cancelled requests never ran


@pytest.mark.parametrize("engine", [THREADS, PROCESSES], ids=["threads", "processes"])
def test_full_queue_is_busy_at_once(registry: Registry, engine: dict[str, Any]) -> None:
    with Pool(workers=1, queue_size=2, retry_after=3, **engine) as small:
        futures = []
        with pytest.raises(PoolBusy) as info:
            for d in VARIANTS:
                futures.append(small.submit(d))
        assert (info.value.code, info.value.retry_after) == ("invoice.busy", 3)
        assert 2 <= len(futures) <= 3  # at most one in the worker plus the two queued
        assert all(f.result(60).sha256 for f in futures)


def test_dead_worker_costs_only_its_document(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEST_CRASH_ENV, "crash.xml")
    with Pool(workers=1, **PROCESSES) as small:
        futures = [small.submit(d, name="crash.xml" if i == 2 else f"{i}.xml") for i, d in enumerate(VARIANTS[:5])]
        outcomes = [f.exception(60) for f in futures]
        assert [type(e).__name__ if e else None for e in outcomes] == [None, None, "WorkerDied", None, None]
        died = outcomes[2]
        assert isinstance(died, WorkerDied) and (died.code, died.reason) == ("server.error", "worker-died")
        assert small.stats()["deaths"] == 1 and small.ready
        deadline = time.monotonic() + 30
        while small.stats()["alive"] < 1:  # the replacement starts without waiting for another document
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_worker_killed_from_outside_while_idle_costs_nothing(registry: Registry) -> None:
    with Pool(workers=1, **PROCESSES) as small:
        assert small.validate_blocking(GOOD).valid
        os.kill(small.worker_pids()[0], signal.SIGKILL)
        time.sleep(0.2)
        assert small.validate_blocking(GOOD).valid


def test_timeout_stops_the_worker(registry: Registry) -> None:
    with Pool(workers=1, document_timeout=0.001, **PROCESSES) as small:
        with pytest.raises(WorkerDied) as info:
            small.validate_blocking(GOOD)
        assert info.value.reason == "timeout"
        assert small.stats()["timeouts"] == 1


def runaway_in_a_thread() -> None:
    """Run by :func:`test_a_runaway_document_in_a_thread_is_answered_at_the_limit` in a bounded subprocess (CEN UBL
    alone: one stylesheet to compile in the child's JVM)."""
    one = {"profile": "en16931-ubl-invoice", "prepare": ("en16931-ubl-invoice",)}
    with Pool(workers=2, document_timeout=5.0, **one, **THREADS) as small:
        assert small.validate_blocking(GOOD).valid  # compiled before start returned: off the documents' clock
        validator, original = small._validator, small._validator.validate

        def validate(source: Any, **kwargs: Any) -> Any:
            if source == b"<runaway/>":
                from java.lang import Thread

                Thread.sleep(3_600_000)
            return original(source, **kwargs)

        validator.validate = validate
        runaway = small.submit(b"<runaway/>")
        others = [small.submit(d) for d in VARIANTS[:6]]
        died = runaway.exception()
        assert isinstance(died, WorkerDied) and (died.code, died.reason) == ("server.error", "timeout")
        assert all(f.result().report().valid for f in others)
        assert small.validate_blocking(BROKEN).valid is False
        assert small.ready and small.stats()["timeouts"] == 1


def test_a_runaway_document_in_a_thread_is_answered_at_the_limit(registry: Registry) -> None:
    """Thread mode: a document stuck inside Java (for an hour) gets ``server.error`` (reason ``timeout``) at the
    limit, its thread is stopped and replaced, the pool stays ready and answers the next documents. In a subprocess
    bounded far below the hour: it must not wait for the document."""
    run_bounded("tests.test_pool:runaway_in_a_thread", timeout=300)


def test_workers_are_recycled(registry: Registry) -> None:
    with Pool(workers=1, max_documents=2, **PROCESSES) as small:
        pids = []
        for d in VARIANTS[:6]:
            assert small.validate_blocking(d).valid
            pids.append(small.worker_pids())
        assert small.stats()["recycled"] == 3
        assert len({tuple(p) for p in pids}) >= 3


def test_prepared_workers_are_replaced_without_losing_capacity(registry: Registry) -> None:
    """With ``prepare``, the replacement compiles while the old worker keeps answering, then takes over."""
    with Pool(workers=1, prepare=("xrechnung-3.0-ubl-invoice",), max_documents=2, **PROCESSES) as small:
        first = small.worker_pids()
        deadline = time.monotonic() + 60
        seen = set()
        while time.monotonic() < deadline:
            assert small.validate_blocking(GOOD).valid
            seen.add(tuple(small.worker_pids()))
            if small.worker_pids()[0] != first[0] and len(small.worker_pids()) == 1:
                break
        assert small.worker_pids()[0] != first[0]
        assert any(len(p) == 2 for p in seen)  # old and new side by side while the new one compiled


@pytest.mark.parametrize("engine", [THREADS, PROCESSES], ids=["threads", "processes"])
def test_options_reach_every_workers_validator(registry: Registry, engine: dict[str, Any]) -> None:
    """The pool's options are its validators' (here a forced profile and the rules date as text)."""
    with Pool(workers=1, profile="en16931-ubl-invoice", rules_date="2026-04-13", **engine) as small:
        report = small.validate_blocking(GOOD)
    assert report.profile == "en16931-ubl-invoice" and report.engine == engine["engine"]
    assert [str(c.rules_date) for c in report.version_choices] == ["2026-04-13"]


def test_a_bad_option_is_refused_when_the_pool_is_made(registry: Registry) -> None:
    with pytest.raises(ProfileError) as info:
        Pool(workers=1, engine="no-such-engine")  # type: ignore[arg-type]
    assert (info.value.code, info.value.reason) == ("request.invalid-parameter", "option")


def test_ready_at_once_and_compiled_on_demand(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool compiles nothing before it is ready (the server is ready in seconds); the first document of a profile
    waits for its packs (never fails); ``background`` profiles are compiled right after the start."""
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    # The background compile waits at a gate the test opens: a pool ready while it waits was ready before compiling
    # (how fast: benchmarks/server.py). The timer only opens the gate for a start that waits (it then fails).
    gate, prepare = threading.Event(), Validator.prepare

    def held(self: Validator, *names: str) -> None:
        gate.wait()
        prepare(self, *names)

    monkeypatch.setattr(Validator, "prepare", held)
    safety = threading.Timer(120, gate.set)
    safety.start()
    with Pool(workers=2, background=("xrechnung-3.0-cii",)) as fresh:
        assert fresh.ready and not gate.is_set() and fresh.stats()["compiled"] == 0
        gate.set()
        safety.cancel()
        assert fresh.engine == "saxon-java" or fresh.mode == "processes"  # steady work: saxon-java when installed
        assert fresh.validate_blocking(GOOD).valid  # compiled now, on demand
        deadline = time.monotonic() + 120
        while fresh.mode == "threads" and fresh.stats()["compiled"] < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        if fresh.mode == "threads":
            assert fresh.stats()["compiled"] == 1


def test_a_national_cius_invoice(pool: Pool, validator: Validator) -> None:
    """Issue 22: an SI-UBL invoice gets its national rules in a worker as in a Validator (the worker compiles the
    pack on first use)."""
    data = (CORPUS / "national/si-ubl/SI-UBL-2.0_BR-NL-3_error_no_postal.xml").read_bytes()
    report = asyncio.run(pool.validate(data))
    assert report.engine == pool.engine
    assert report.model_dump(exclude=SAME) == validator.validate(data).model_dump(exclude=SAME)
    assert report.profile == "si-ubl-2.0-ubl-invoice" and [f.rule_id for f in report.errors] == ["BR-NL-3"]
