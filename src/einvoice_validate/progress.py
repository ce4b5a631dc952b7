"""The progress bar of a batch on a terminal's stderr: documents done of all, the rate, and the time remaining."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress", "format_eta"]

WINDOW_SECONDS = 20.0
"""The rate behind the estimate is that of the documents finished in the last this many seconds, so that the
start (compiling the packs) and a change of pace soon stop weighing on it."""
MIN_SECONDS = 1.0
"""No estimate before this much time has passed and two documents are done (the first ones include compiling)."""


def format_eta(seconds: float) -> str:
    """``0:07``, ``12:34``, ``1:02:03``."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """A one-line bar, redrawn at most ten times a second: ``[####....] 120/1000 documents, 35/s, ETA 0:25``.

    ``clock`` is for tests (default :func:`time.monotonic`)."""

    def __init__(
        self, total: int, err: TextIO, *, clear_before_output: bool, clock: Callable[[], float] | None = None
    ) -> None:
        self.total = total
        self.err = err
        self.clear_before_output = clear_before_output
        self._clock = clock or time.monotonic
        self.done = 0
        self.start = self._clock()
        self.last = 0.0
        self.shown = False
        self._recent: deque[float] = deque()

    def eta(self, now: float) -> float | None:
        """Seconds remaining at the recent rate; None while there is too little to go on."""
        if self.done < 2 or now - self.start < MIN_SECONDS or not self._recent:
            return None
        span = now - self._recent[0]
        if span <= 0 or len(self._recent) < 2:
            span, count = now - self.start, self.done
        else:
            count = len(self._recent) - 1
        return (self.total - self.done) * span / count if count else None

    def advance(self) -> None:
        self.done += 1
        now = self._clock()
        self._recent.append(now)
        while self._recent and now - self._recent[0] > WINDOW_SECONDS and len(self._recent) > 2:
            self._recent.popleft()
        if now - self.last >= 0.1 or self.done == self.total:
            self.last = now
            rate = self.done / max(now - self.start, 1e-9)
            width = 30
            filled = width * self.done // self.total
            bar = "#" * filled + "." * (width - filled)
            remaining = self.eta(now)
            if self.done == self.total:
                tail = f", {format_eta(now - self.start)}"
            else:
                tail = f", ETA {format_eta(remaining)}" if remaining is not None else ", ETA --:--"
            self.err.write(f"\r\x1b[K[{bar}] {self.done}/{self.total} documents, {rate:.0f}/s{tail}")
            self.err.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self.shown = False

    def finish(self) -> None:
        if self.shown:
            self.err.write("\n")
            self.err.flush()
            self.shown = False
