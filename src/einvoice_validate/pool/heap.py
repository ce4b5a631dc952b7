"""Settling the heap of a validating process: a full collection, then ``gc.freeze()``, after its first documents.

By the time a validating process has done a few hundred documents it holds what it keeps: the message catalogue,
the profiles, the XSD schema index, the Python side of the compiled packs (with the JVM's: some 75,000 objects and
300,000 references). Python's full (generation 2) collections walk all of it, 10-20 ms each with the GIL held, so
every validating thread and a server's event loop stop meanwhile; the documents' own short-lived objects set one off
about every 70 documents (issue 21: 30 full collections, 0.76 s, in 1,980 documents on one thread: about 10 % of
the time, and the server's latency tail, p99 58 ms at a median of 17 ms). ``gc.freeze()`` moves every object
alive to a permanent generation that collections skip: a full collection then walks only what came after (0.05
ms). With it the server answered 554 requests/s at p99 27 ms against 428 at 58 ms (``benchmarks/server.py``).

The freeze is process-wide. Its one cost: a garbage cycle among frozen objects is never reclaimed (reference
counting still frees everything else); the collection just before each freeze leaves only what is in flight at that
moment, at three marks in all (:data:`SETTLE_AFTER`); packs compiled later are frozen at the next mark. Runners take
``settle_heap=False`` for a host process that must keep its collector as it is.
"""

from __future__ import annotations

import gc
import logging
import threading

__all__ = ["SETTLE_AFTER", "HeapSettler"]

log = logging.getLogger("einvoice_validate.pool")

SETTLE_AFTER = (200, 2_000, 20_000)
"""The documents done (in this process) after which the heap is settled."""


class HeapSettler:
    """Counts the documents a process has done (:meth:`done`, from any thread) and settles the heap at each mark."""

    def __init__(self, enabled: bool = True, marks: tuple[int, ...] = SETTLE_AFTER) -> None:
        self.enabled = enabled
        self.settled = 0  # marks passed
        self._marks = marks
        self._done = 0
        self._lock = threading.Lock()

    def done(self) -> None:
        """One more document done; at a mark, settle (in the calling thread: one full collection, 10-20 ms)."""
        if not self.enabled:
            return
        with self._lock:
            self._done += 1
            due = self.settled < len(self._marks) and self._done >= self._marks[self.settled]
            if due:
                self.settled += 1
        if due:
            gc.collect()
            gc.freeze()
            log.debug("heap settled after %d documents: %d objects frozen", self._done, gc.get_freeze_count())
