"""Splitting XPath text at top-level separators: the one tokeniser the preparation steps (install time) and the
location mapping (each finding's SVRL location) share."""

from __future__ import annotations

__all__ = ["split_outside"]


def split_outside(text: str, separators: str, opening: str, closing: str) -> tuple[list[str], bool]:
    """``text`` split at ``separators`` outside the ``opening``/``closing`` brackets and string literals, and
    whether the brackets and quotes were balanced at the end (the parts are only meaningful when they were)."""
    parts: list[str] = []
    depth = 0
    quote = ""
    current: list[str] = []
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        elif ch in separators and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return parts, not quote and depth == 0
