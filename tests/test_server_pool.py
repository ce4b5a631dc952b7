"""The server's scheduling (:class:`~einvoice_validate.pool.remote.RemotePool`), without an engine process: a
stand-in link records what would be sent and the test answers it. Admission by deadline (a document that would
wait past ``queue_wait`` is busy at once, with the seconds beyond it in ``Retry-After``), the large lane (a
4,000-line invoice never holds more than ``workers - 1`` threads, the typical documents keep the rest), the
window (the engine never holds more than two documents per thread), and a cancelled request that never reaches
the engine. The engine process itself (a real one, killed under load) is in ``tests/test_server_load.py``."""

from __future__ import annotations

import asyncio
import pickle
import socket
import struct
from typing import Any

import pytest

from einvoice_validate.errors import PoolBusy
from einvoice_validate.pool import Validated
from einvoice_validate.pool.remote import ENGINE_JVM_OPTIONS, LARGE_LINES, RemotePool, _Link, line_count, many_lines
from einvoice_validate.pool.worker import read_exact, recv

TYPICAL = b"<Invoice><cac:InvoiceLine>1</cac:InvoiceLine></Invoice>"
LARGE = b"<Invoice>" + b"<cac:InvoiceLine>1</cac:InvoiceLine>" * (LARGE_LINES + 1) + b"</Invoice>"


class Link:
    """Stands in for the socket to the engine: keeps what was sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[Any, ...]] = []

    def send(self, message: tuple[Any, ...]) -> None:
        self.sent.append(message)


def stand_in(workers: int = 2, per_document: float = 1.0, queue_wait: float = 10.0) -> tuple[RemotePool, Link]:
    pool = RemotePool(workers=workers, queue_wait=queue_wait)
    link = Link()
    pool._started = True
    pool._link = link  # type: ignore[assignment]
    pool._per_document = per_document
    return pool, link


def answer(pool: RemotePool, message: tuple[Any, ...], took: float = 1.0) -> None:
    ident, data = message[0], message[1]
    pool._on_reply(pool._link, (ident, "ok", Validated(b"{}", str(len(data))), (took, 0, 0, 0)))  # type: ignore[arg-type]


def test_lines_are_counted_in_every_syntax() -> None:
    assert line_count(LARGE) == LARGE_LINES + 1
    assert line_count(b"<a><ram:IncludedSupplyChainTradeLineItem/></a>") == 0  # empty: no closing tag
    assert line_count(b"<a><x:IncludedSupplyChainTradeLineItem></x:IncludedSupplyChainTradeLineItem></a>") == 1
    assert line_count(b"<cac:CreditNoteLine></cac:CreditNoteLine>" * 3) == 3


def test_many_lines_is_the_count_beyond_the_lane_threshold() -> None:
    assert many_lines(LARGE) and not many_lines(TYPICAL)
    exactly = b"<Invoice>" + b"<cac:InvoiceLine>1</cac:InvoiceLine>" * LARGE_LINES + b"</Invoice>"
    assert line_count(exactly) == LARGE_LINES and not many_lines(exactly)
    # other tags ending in "Line>" pass the first scan; the marks' own count decides
    addresses = b"<Invoice>" + b"<cbc:AddressLine>1</cbc:AddressLine>" * (3 * LARGE_LINES) + b"</Invoice>"
    assert not many_lines(addresses)
    items = b"<rsm:X>" + b"<ram:IncludedSupplyChainTradeLineItem>1</ram:IncludedSupplyChainTradeLineItem>" * 501
    assert many_lines(items + b"</rsm:X>")


def test_many_lines_skips_no_mark_at_block_edges_or_next_to_attachments() -> None:
    # many_lines looks for marks only near a ">" (4 KB blocks): every mark, wherever it falls, still counts; the
    # answer is always the exact count's (line_count), for every syntax's mark and for an attachment's base64
    tag = b"cbc:EmbeddedDocumentBinaryObject"
    attachment = b"<%s>%s</%s>" % (tag, b"TGluZUxpbmVMaW5l" * 4096, tag)
    marks = (b"cac:InvoiceLine", b"cac:CreditNoteLine", b"ram:IncludedSupplyChainTradeLineItem")
    for mark in marks:
        line = b"<%s>1</%s>" % (mark, mark)
        for lines in (LARGE_LINES, LARGE_LINES + 1):
            for shift in range(0, 64, 7):  # the marks straddle the blocks' edges at every offset
                body = b" " * shift + line * lines
                for doc in (body, attachment + body, body + attachment, attachment + body + attachment):
                    assert many_lines(doc) == (line_count(doc) > LARGE_LINES) == (lines > LARGE_LINES)
    # each mark's "Line" at the end of a block without a ">", its ">" the first byte of the next block
    spaced = (b">" + b" " * (8192 - 12) + b"InvoiceLine") * (2 * LARGE_LINES + 2) + b">"
    assert line_count(spaced) == LARGE_LINES + 1 and many_lines(spaced)
    assert not many_lines(b"Line>" * (2 * LARGE_LINES + 2))  # marks bound it, they do not replace it


def test_a_document_goes_to_the_engine_as_its_own_bytes_after_the_message() -> None:
    async def run() -> None:
        ours, theirs = socket.socketpair()
        pool = RemotePool(workers=1)
        _, link = await asyncio.get_running_loop().connect_accepted_socket(lambda: _Link(pool), ours)
        payload = bytes(range(256)) * 1000
        link.send((7, payload, "xrechnung-3.0-ubl", None, False))
        link.send((8, b"", None, ("de", "html"), True))
        await asyncio.sleep(0)
        fd = theirs.fileno()
        ident, size, profile, render, large = await asyncio.to_thread(recv, fd)
        assert (ident, size, profile, render, large) == (7, len(payload), "xrechnung-3.0-ubl", None, False)
        assert await asyncio.to_thread(read_exact, fd, size) == payload
        assert await asyncio.to_thread(recv, fd) == (8, 0, None, ("de", "html"), True)
        link.transport.close()
        theirs.close()

    asyncio.run(run())


def test_the_engines_replies_are_read_however_the_socket_cuts_them() -> None:
    replies = [(i, "ok", Validated(b"{}" * i * 50, f"{i:064x}"), (0.01, 0, 0, i)) for i in range(1, 4)]
    stream = b"".join(struct.pack(">Q", len(b)) + b for b in (pickle.dumps(r, protocol=5) for r in replies))

    class Pool:
        def __init__(self) -> None:
            self.got: list[Any] = []

        def _on_reply(self, link: Any, reply: Any) -> None:
            self.got.append(reply)

    async def read(cuts: list[int]) -> list[Any]:
        pool = Pool()
        link = _Link(pool)  # type: ignore[arg-type]
        for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
            link.data_received(stream[start:end])
        assert not link.buffer  # nothing left over
        return pool.got

    async def run() -> None:
        for cuts in ([], [3], [8], [9], list(range(1, len(stream))), [len(stream) // 3, len(stream) // 2]):
            assert await read(cuts) == replies, cuts

    asyncio.run(run())


def test_a_document_that_would_wait_past_the_deadline_is_busy_at_once() -> None:
    async def run() -> tuple[int, PoolBusy, int]:
        # 1 s per document on 2 threads, 10 s allowed: the 23rd document would wait 10.5 s
        pool, link = stand_in(per_document=1.0, queue_wait=10.0)
        tasks = []
        busy: PoolBusy | None = None
        for _ in range(40):
            task = asyncio.create_task(pool.validate_json(TYPICAL))
            await asyncio.sleep(0)
            if task.done() and isinstance(task.exception(), PoolBusy):
                busy = task.exception()  # type: ignore[assignment]
                break
            tasks.append(task)
        assert busy is not None
        sent = len(link.sent)
        answered = 0
        while answered < len(tasks):  # answering frees room: the waiting documents are sent
            answer(pool, link.sent[answered])
            answered += 1
        await asyncio.gather(*tasks)
        return len(tasks), busy, sent

    admitted, busy, sent = asyncio.run(run())
    assert admitted == 22  # ahead of the 23rd: 22 documents, 2 of them taken at once, then 10.5 s
    assert busy.code == "invoice.busy" and busy.retry_after >= 1
    assert sent == 4  # the window: 2 per thread (the large lane has threads of its own)


def test_a_large_invoice_never_takes_every_thread() -> None:
    async def run() -> None:
        pool, link = stand_in(per_document=0.01)
        large = [asyncio.create_task(pool.validate_json(LARGE)) for _ in range(2)]
        typical = [asyncio.create_task(pool.validate_json(TYPICAL + b" " * i)) for i in range(5)]
        await asyncio.sleep(0)
        kinds = [len(m[1]) > 1000 for m in link.sent]
        assert kinds.count(True) == 1  # one large at a time on 2 threads: the other waits in the server
        assert kinds.count(False) == 4  # the typical ones fill the workers' window meanwhile (the lane is apart)
        assert [m[-1] for m in link.sent] == kinds  # the engine is told which is large (it runs on the lane's thread)
        assert pool.stats()["large"] == 2
        answered: set[int] = set()
        while len(answered) < 5:
            for message in [m for m in link.sent if len(m[1]) < 1000 and m[0] not in answered]:
                answered.add(message[0])
                answer(pool, message)
        await asyncio.gather(*typical)  # answered while the large one still runs
        first = next(m for m in link.sent if len(m[1]) > 1000)
        answer(pool, first, took=30.0)
        await large[0]
        assert [len(m[1]) > 1000 for m in link.sent].count(True) == 2  # now the second large one goes
        answer(pool, link.sent[-1], took=30.0)
        await large[1]

    asyncio.run(run())


def test_a_cancelled_request_never_reaches_the_engine() -> None:
    async def run() -> None:
        pool, link = stand_in(per_document=0.01)
        held = [asyncio.create_task(pool.validate_json(TYPICAL + b" " * i)) for i in range(4)]  # the window
        await asyncio.sleep(0)
        waiting = asyncio.create_task(pool.validate_json(TYPICAL + b"<!-- cancelled -->"))
        await asyncio.sleep(0)
        assert pool.stats()["queued"] == 1
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert pool.stats()["queued"] == 0
        for message in list(link.sent):
            answer(pool, message)
        await asyncio.gather(*held)
        assert all(b"cancelled" not in m[1] for m in link.sent)

    asyncio.run(run())


def test_the_engine_jvm_fits_the_memory_budget_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EINVOICE_JVM_OPTIONS", raising=False)
    assert RemotePool()._env["EINVOICE_JVM_OPTIONS"] == " ".join(ENGINE_JVM_OPTIONS)
    assert "-Xmn48m" in ENGINE_JVM_OPTIONS and "-Xrs" in ENGINE_JVM_OPTIONS  # the young generation; SIGTERM is ours
    monkeypatch.setenv("EINVOICE_JVM_OPTIONS", "-Xmx2g -Xrs")
    assert RemotePool()._env["EINVOICE_JVM_OPTIONS"] == "-Xmx2g -Xrs"


@pytest.mark.corpus
def test_a_real_engine_process_validates_renders_and_is_replaced_when_killed(registry: Any) -> None:
    """One engine process (saxon-java, one thread): a report, a page, a problem; killed holding a document: that
    document gets ``server.error`` (worker-died), a new engine process takes the next one."""
    import importlib.util
    import os
    import signal
    from pathlib import Path

    from einvoice_validate.errors import EInvoiceValidateError, WorkerDied
    from einvoice_validate.options import Options

    repo = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("make_large_invoice", repo / "tools" / "make_large_invoice.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    make = tool.make

    good = (repo / "examples" / "xrechnung-ubl-invoice.xml").read_bytes()

    async def run() -> None:
        pool = RemotePool(
            workers=1,
            prepare=("xrechnung-3.0-ubl-invoice",),
            options=Options(rules_home=registry.home, engine="saxon-java"),
        )
        await asyncio.to_thread(pool.start)
        await pool.attach()
        try:
            report = await pool.validate(good)
            assert report.valid and report.profile == "xrechnung-3.0-ubl-invoice"
            page = await pool.render(good, lang="de")
            assert page.media_type.startswith("text/html") and b"<html" in page.content.lower()
            with pytest.raises(EInvoiceValidateError) as caught:
                await pool.validate_json(b"not xml")
            assert caught.value.code != "server.error"  # the document's own problem, from the engine
            first = pool.worker_pids()
            held = asyncio.create_task(pool.validate_json(make(2000)))  # seconds of work: killed while held
            await asyncio.sleep(0)
            os.kill(first[0], signal.SIGKILL)
            with pytest.raises(WorkerDied):
                await held
            report = await pool.validate(good)  # waits for the new engine process
            assert report.valid and pool.worker_pids() != first and pool.stats()["deaths"] == 1
        finally:
            await pool.aclose(30)
        assert pool.worker_pids() == []

    asyncio.run(run())


def test_a_large_lane_thread_runs_at_a_lower_cpu_priority() -> None:
    """The engine's lane threads (``Pool(lane=...)``) are niced, Java's work on them too (it runs on the same
    native thread); the workers' threads keep the process's priority."""
    import os
    import threading

    from einvoice_validate.pool.job import Job
    from einvoice_validate.pool.slot import LANE_NICE, ThreadSlot, Watchdog

    seen: dict[int, int] = {}

    def run(nice: int) -> int:
        jobs: list[Job | None] = [Job(nice, "document", b"<a/>"), None]

        def work(job: Job) -> Validated:
            seen[job.index] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
            return Validated(b"{}", None)

        watchdog = Watchdog()
        slot = ThreadSlot(0, lambda _: jobs.pop(0), lambda *_: None, 60.0, work, watchdog, False, nice=nice)
        slot.start()
        slot.join(30)
        watchdog.close()
        return seen[nice]

    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert run(0) == base
    assert run(LANE_NICE) == min(19, base + LANE_NICE)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == base  # the caller's own is untouched
