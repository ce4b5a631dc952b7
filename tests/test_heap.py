"""The heap of a validating process is settled after its first documents (pool/heap.py), and only when asked."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from einvoice_validate.pool.heap import SETTLE_AFTER, HeapSettler


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_the_heap_is_frozen_at_each_mark_and_not_between() -> None:
    settler = HeapSettler(marks=(3, 6))
    for _ in range(2):
        settler.done()
    assert (settler.settled, gc.get_freeze_count()) == (0, 0)
    settler.done()
    assert settler.settled == 1
    first = gc.get_freeze_count()
    assert first > 0
    kept = [[] for _ in range(100)]  # objects made after the first freeze
    gc.unfreeze()  # what a later freeze moves is everything alive again
    for _ in range(3):
        settler.done()
    assert settler.settled == 2
    assert gc.get_freeze_count() >= len(kept)  # the objects made since are frozen too
    for _ in range(10):
        settler.done()
    assert settler.settled == 2  # no mark left


def test_garbage_cycles_are_collected_before_the_freeze() -> None:
    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a
    watch = [0]
    gc.callbacks.append(lambda phase, info: watch.__setitem__(0, watch[0] + (phase == "stop")))
    try:
        del a, b
        HeapSettler(marks=(1,)).done()
    finally:
        gc.callbacks.pop()
    assert watch[0] >= 1  # a full collection ran first
    assert not any(type(o).__name__ == "Node" for o in gc.get_objects())


def test_switched_off_it_leaves_the_collector_alone() -> None:
    settler = HeapSettler(enabled=False, marks=(1,))
    for _ in range(5):
        settler.done()
    assert (settler.settled, gc.get_freeze_count()) == (0, 0)


def test_threads_counting_at_once_settle_each_mark_once() -> None:
    settler = HeapSettler(marks=(50, 100))
    threads = [threading.Thread(target=lambda: [settler.done() for _ in range(40)]) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert settler.settled == 2


def test_the_marks_are_few_and_rising() -> None:
    assert list(SETTLE_AFTER) == sorted(set(SETTLE_AFTER)) and len(SETTLE_AFTER) <= 5


def test_the_runners_settle_in_thread_mode_unless_told_not_to() -> None:
    from einvoice_validate import BatchValidator, Pool

    with BatchValidator(workers=1, engine="saxon-java", mode="threads") as batch:
        assert batch._heap.enabled
    with BatchValidator(workers=1, engine="saxon-java", mode="threads", settle_heap=False) as batch:
        assert not batch._heap.enabled
    assert Pool(workers=1, engine="saxon-java", mode="threads")._heap.enabled
    pool = Pool(workers=1, engine="saxon-java", mode="threads", settle_heap=False)
    assert not pool._heap.enabled and not pool._config.settle_heap
    # worker processes settle their own heap: the parent's stays as it is
    assert not Pool(workers=1, engine="saxonc", mode="processes")._heap.enabled
    assert Pool(workers=1, engine="saxonc", mode="processes")._config.settle_heap
