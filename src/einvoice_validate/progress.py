"""The one progress bar of the command line, on a terminal's stderr: a batch's documents (done of all, the rate, the
time remaining) and the rule packs' downloads (a file's megabytes)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress", "format_eta"]

WINDOW_SECONDS = 20.0
"""The rate behind the estimate is that of the steps finished in the last this many seconds, so that the start
(compiling the packs) and a change of pace soon stop weighing on it."""
MIN_SECONDS = 1.0
"""No estimate before this much time has passed and two steps are done (the first ones include compiling)."""
WIDTH = 30
REDRAW_SECONDS = 0.1


def format_eta(seconds: float) -> str:
    """``0:07``, ``12:34``, ``1:02:03``."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """A one-line bar, redrawn at most ten times a second.

    Documents (:meth:`advance`): ``[####....] 120/1000 documents, 35/s, ETA 0:25``, the time it took once done.
    Bytes (:meth:`update`, ``unit="bytes"``): ``name [####....] 1.2/3.4 MB`` (without a bar when the size is not
    known); a new ``name`` starts a new line and a new count.

    Args:
        total: the steps (documents, or bytes) to do; None when not known.
        err: the terminal's stream.
        clear_before_output: erase the bar before the caller writes to the same terminal (:meth:`clear`).
        unit: ``documents`` or ``bytes``.
        clock: for tests (default :func:`time.monotonic`).
    """

    def __init__(
        self,
        total: int | None,
        err: TextIO,
        *,
        clear_before_output: bool = False,
        unit: str = "documents",
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.total = total
        self.err = err
        self.clear_before_output = clear_before_output
        self.unit = unit
        self._clock = clock or time.monotonic
        self.label = ""
        self.done = 0
        self.start = self._clock()
        self.last = float("-inf")
        self.shown = False
        self._recent: deque[float] = deque()

    def eta(self, now: float) -> float | None:
        """Seconds remaining at the recent rate; None while there is too little to go on."""
        if self.total is None or self.done < 2 or now - self.start < MIN_SECONDS or not self._recent:
            return None
        span = now - self._recent[0]
        if span <= 0 or len(self._recent) < 2:
            span, count = now - self.start, self.done
        else:
            count = len(self._recent) - 1
        return (self.total - self.done) * span / count if count else None

    def advance(self) -> None:
        """One more document done."""
        self.done += 1
        now = self._clock()
        self._recent.append(now)
        while self._recent and now - self._recent[0] > WINDOW_SECONDS and len(self._recent) > 2:
            self._recent.popleft()
        self._draw(now)

    def update(self, label: str, done: int, total: int | None) -> None:
        """``done`` of ``total`` bytes of ``label`` (a download's callback); a new label starts a new line."""
        if label != self.label:
            self.finish()
            self.label, self.start, self.last = label, self._clock(), float("-inf")
        self.done, self.total = done, total
        self._draw(self._clock())

    @property
    def finished(self) -> bool:
        return self.total is not None and self.done >= self.total

    def _draw(self, now: float) -> None:
        if now - self.last < REDRAW_SECONDS and not self.finished:
            return
        self.last = now
        bar = ""
        if self.total:
            filled = WIDTH * min(self.done, self.total) // self.total
            bar = "[" + "#" * filled + "." * (WIDTH - filled) + "] "
        if self.unit == "bytes":
            size = f"{self.done / 1e6:.1f}" + (f"/{self.total / 1e6:.1f}" if self.total else "") + " MB"
            line = f"{self.label[:40]:<40} {bar}{size}"
        else:
            rate = self.done / max(now - self.start, 1e-9)
            remaining = self.eta(now)
            if self.finished:
                tail = f", {format_eta(now - self.start)}"
            else:
                tail = f", ETA {format_eta(remaining)}" if remaining is not None else ", ETA --:--"
            line = f"{bar}{self.done}/{self.total} {self.unit}, {rate:.0f}/s{tail}"
        self.err.write(f"\r\x1b[K{line}")
        self.shown = True
        if self.unit == "bytes" and self.finished:  # a download done keeps its line
            self.err.write("\n")
            self.shown = False
        self.err.flush()

    def clear(self) -> None:
        """Erase the bar (before other output on the same terminal)."""
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self.shown = False

    def finish(self) -> None:
        """End the bar's line."""
        if self.shown:
            self.err.write("\n")
            self.err.flush()
            self.shown = False
