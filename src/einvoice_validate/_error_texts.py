"""The texts of the library's errors in English and German: an error code's general meaning and the details the
library writes, both from the project's catalogue (``rulesets/messages/project.toml`` and ``errors.toml``).

An error is raised as a code plus a :class:`Detail`: a key of the catalogue and its values. The catalogue renders it
in both languages (:meth:`~einvoice_validate.messages.Catalogue.render_code`), so the English can be reworded in
the catalogue without losing the German, and nothing reads English back. An error's ``detail`` is the English
(:mod:`einvoice_validate.errors`); a detail given as plain text (an operating system's or a parser's own words) has
no German of its own and is followed by the code's general meaning in German. :func:`error_message` makes of a
detail an error's message in both languages, the specific cause first, one sentence each
(``EInvoiceValidateError.message``, the reports, the CLI); :func:`error_object` is its wire form (the CLI's
``json``/``jsonl`` rows, ``to_dict()``).

This module sits below the exception tree: :mod:`~einvoice_validate.errors` renders its messages with it, and the
reports' words (:mod:`einvoice_validate.reports.words`) and the wire format (:mod:`einvoice_validate.wire`) take
their error texts from here. It imports only the runtime catalogue and the ``Message`` model.
"""

from __future__ import annotations

import errno
from typing import Any

from .findings import Message
from .messages import catalogue

__all__ = ["Detail", "detail_or", "error_message", "error_object", "message_for_code", "os_reason", "sentence"]


def message_for_code(code: str) -> Message:
    """The English and German sentence for an error code (what it means in general)."""
    try:
        return catalogue().render_code(code)
    except KeyError:
        return Message(en=code, de=code)


class Detail:
    """What went wrong, as a key of the catalogue (``rulesets/messages/errors.toml``) and its values; a value may be
    a detail itself (``Detail("detail.this-is", Detail("kind.pdf"), ...)``), rendered in the same language.

    ``InputError("document.unreadable", Detail("detail.nested-levels", 200), reason="depth")``: the error's
    ``detail`` is the English, its message both languages."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, *values: object) -> None:
        self.key = key
        self.values: tuple[str | Detail, ...] = tuple(v if isinstance(v, Detail) else str(v) for v in values)

    def render(self) -> Message:
        """The detail in English and German (the values as they are, their own details rendered too)."""
        parts = [v.render() if isinstance(v, Detail) else Message(en=v, de=v) for v in self.values]
        return catalogue().render_code(self.key, [p.en for p in parts], de_values=[p.de for p in parts])

    def __str__(self) -> str:
        return self.render().en

    def __repr__(self) -> str:
        return f"Detail({', '.join(repr(v) for v in (self.key, *self.values))})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Detail) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash((self.key, self.values))

    def __reduce__(self) -> tuple[object, ...]:
        return (Detail, (self.key, *self.values))


def detail_or(key: str, text: str) -> str | Detail:
    """The catalogue's detail ``key`` where the catalogue has it (in both languages), else ``text`` as it is."""
    return Detail(key) if catalogue().variants(key) else text


def os_reason(exc: OSError) -> str | Detail:
    """Why the operating system refused: a detail in both languages for the common cases, else its own words."""
    return detail_or(f"os.{errno.errorcode.get(exc.errno or 0, '')}", str(exc.strerror or exc))


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter upper case, a full stop at the end unless it ends with one."""
    text = text.strip()
    if text[:1].islower():
        text = text[0].upper() + text[1:]
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def error_message(code: str, detail: str | Detail) -> Message:
    """An error in English and German, the specific cause first: ``detail`` as one sentence in each language. The
    code's general meaning (:func:`message_for_code`) stands in for an empty detail, and follows a detail given as
    plain text (an operating system's or a parser's own words), so that the German reader gets it too."""
    if isinstance(detail, Detail):
        message = detail.render()
        return Message(en=sentence(message.en), de=sentence(message.de))
    if not detail.strip():
        return message_for_code(code)
    return Message(en=sentence(detail), de=f"{sentence(detail)} {message_for_code(code).de}")


def error_object(code: str, detail: str | Detail, message: Message | None = None) -> dict[str, Any]:
    """The error object of the CLI's ``json``/``jsonl`` output and of ``to_dict()``:
    ``{"code", "message": {"en", "de"}, "detail"}``, the message saying the specific cause (``detail``) in each
    language (:func:`error_message`, or ``message`` where the caller has it)."""
    message = message or error_message(code, detail)
    return {"code": code, "message": message.model_dump(mode="json"), "detail": str(detail)}
