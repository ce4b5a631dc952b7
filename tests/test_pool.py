"""The service pool: ``await pool.validate`` gives the same reports as a Validator; a full queue is a clear busy
outcome; cancelled requests never receive another request's answer; a dead worker costs only its document;
workers are recycled; the pool is usable from threads."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from einvoice_validate import Validator
from einvoice_validate.errors import InputError, PoolBusy, WorkerDied
from einvoice_validate.pool import Pool
from einvoice_validate.pool.worker import TEST_CRASH_ENV
from einvoice_validate.rulesets import Registry
from tests.conftest import CORPUS

REPO = Path(__file__).resolve().parents[1]
GOOD = (REPO / "examples" / "xrechnung-ubl-invoice.xml").read_bytes()
BROKEN = (REPO / "examples" / "xrechnung-ubl-broken.xml").read_bytes()
# Distinct documents of one syntax (a worker compiles UBL only): the good invoice with another note each.
VARIANTS = [GOOD.replace(b"<cbc:Note>", f"<cbc:Note>#{i} ".encode(), 1) for i in range(40)]


@pytest.fixture(scope="module")
def pool(registry: Registry) -> Iterator[Pool]:
    with Pool(workers=2, queue_size=64, prepare=("xrechnung-3.0-ubl-invoice",)) as p:
        yield p


def test_same_report_as_a_validator(pool: Pool, validator: Validator) -> None:
    report = asyncio.run(pool.validate(BROKEN))
    expected = validator.validate(BROKEN)
    assert report.model_dump(exclude={"timings_ms"}) == expected.model_dump(exclude={"timings_ms"})
    assert not report.valid


def test_a_french_invoice_gets_the_french_rules(pool: Pool, validator: Validator) -> None:
    """Issue 31: a worker compiles the French packs on first use and gives the library's report."""
    data = (CORPUS / "france" / "mutations" / "UC1_F202500003_00-INV_20250701_UBL.m7-0.xml").read_bytes()
    report = asyncio.run(pool.validate(data))
    expected = validator.validate(data)
    assert report.model_dump(exclude={"timings_ms"}) == expected.model_dump(exclude={"timings_ms"})
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


def test_full_queue_is_busy_at_once(registry: Registry) -> None:
    with Pool(workers=1, queue_size=2, prepare=False, retry_after=3) as small:
        futures = []
        with pytest.raises(PoolBusy) as info:
            for d in VARIANTS:
                futures.append(small.submit(d))
        assert (info.value.code, info.value.retry_after) == ("invoice.busy", 3)
        assert 2 <= len(futures) <= 3  # at most one in the worker plus the two queued
        assert all(f.result(60).sha256 for f in futures)


def test_dead_worker_costs_only_its_document(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEST_CRASH_ENV, "crash.xml")
    with Pool(workers=1, prepare=False) as small:
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
    with Pool(workers=1, prepare=False) as small:
        assert small.validate_blocking(GOOD).valid
        os.kill(small.worker_pids()[0], signal.SIGKILL)
        time.sleep(0.2)
        assert small.validate_blocking(GOOD).valid


def test_timeout_stops_the_worker(registry: Registry) -> None:
    with Pool(workers=1, prepare=False, document_timeout=0.001) as small:
        with pytest.raises(WorkerDied) as info:
            small.validate_blocking(GOOD)
        assert info.value.reason == "timeout"


def test_workers_are_recycled(registry: Registry) -> None:
    with Pool(workers=1, prepare=False, max_documents=2) as small:
        pids = []
        for d in VARIANTS[:6]:
            assert small.validate_blocking(d).valid
            pids.append(small.worker_pids())
        assert small.stats()["recycled"] == 3
        assert len({tuple(p) for p in pids}) >= 3


def test_prepared_workers_are_replaced_without_losing_capacity(registry: Registry) -> None:
    """With ``prepare``, the replacement compiles while the old worker keeps answering, then takes over."""
    with Pool(workers=1, prepare=("xrechnung-3.0-ubl-invoice",), max_documents=2) as small:
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


def test_validator_options_reach_every_workers_validator(registry: Registry) -> None:
    """Keywords the pool does not know are passed to each worker's Validator untouched (e.g. the engine)."""
    pool = Pool(workers=1, prepare=("xrechnung-3.0-ubl-invoice",), validator_options={"engine": "no-such-engine"})
    with pytest.raises(RuntimeError, match="unknown engine 'no-such-engine'"):
        pool.start()
    pool.close()


def test_a_national_cius_invoice(pool: Pool, validator: Validator) -> None:
    """Issue 22: an SI-UBL invoice gets its national rules in a worker as in a Validator (the worker compiles the
    pack on first use)."""
    data = (CORPUS / "national/si-ubl/SI-UBL-2.0_BR-NL-3_error_no_postal.xml").read_bytes()
    report = asyncio.run(pool.validate(data))
    assert report.model_dump(exclude={"timings_ms"}) == validator.validate(data).model_dump(exclude={"timings_ms"})
    assert report.profile == "si-ubl-2.0-ubl-invoice" and [f.rule_id for f in report.errors] == ["BR-NL-3"]
