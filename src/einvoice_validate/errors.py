"""The exception tree: every way an input can fail to be *validated* (as opposed to being invalid).

An invalid invoice is a result (a :class:`~einvoice_validate.findings.Report` with findings). These exceptions
mean "could not validate". ``code`` is one of the invoicing API's codes (``../shared/api/CONTRACT.md``; the
code → HTTP status table is :data:`einvoice_validate.wire.STATUS`), so a client of the API can branch on it;
``reason`` is the finer distinction for library users and logs (never a code), ``detail`` the English text::

    EInvoiceValidateError                 (code, detail, reason)
    ├── InputError                        the caller's document cannot be validated
    │   ├── request.unreadable        400 the source could not be read        reason: io, type, text-stream
    │   ├── invoice.too-large         422 over a size limit                   reason: bytes, elements, text-length,
    │   │                                                                             attribute-length, attributes,
    │   │                                                                             children, attachment-bytes
    │   ├── document.unreadable       422 not usable as XML (or as PDF)       reason: empty, not-xml, encoding,
    │   │                                                                             doctype, xinclude, depth,
    │   │                                                                             pdf-unreadable, pdf-encrypted,
    │   │                                                                             pdf-structure, pdf-filter
    │   └── document.unsupported-type 415 well-formed, but no invoice we know  reason: root, envelope, no-profile,
    │                                                                                 pdf-no-invoice, zugferd-1,
    │                                                                                 pdf-several-invoices
    ├── ProfileError                      a forced profile, or another option, is unusable
    │   └── request.invalid-parameter 400                                     reason: profile-unknown,
    │                                                                                 profile-mismatch,
    │                                                                                 rules-date, option
    │                                         (option: any other option of ``Options``, e.g. an engine name)
    ├── PoolBusy                          invoice.busy 503: the pool's queue is full; retry after ``retry_after`` s
    ├── WorkerDied                        server.error 500: the worker (process or thread) holding the document
    │                                     died (reason: worker-died) or overran the time limit (timeout); the
    │                                     other documents are unaffected. An unexpected exception inside a worker (a
    │                                     bug) is ``server.error`` with reason ``internal``
    └── RulesetError                      an *operator* error, the installation cannot validate (never "silently
        │                                 green"); its codes are not the API's: at the HTTP boundary (wire.py)
        │                                 it becomes ``500 server.error`` and the code stays in the server's log
        ├── ruleset.missing               a pack (or one of its files) is not installed
        ├── ruleset.corrupt               a file's sha256 differs from its manifest
        ├── ruleset.invalid               a manifest or profile file cannot be read
        └── ruleset.install-failed        the installer could not fetch or copy a pack

Batch validation (:mod:`einvoice_validate.pool.batch`) gives the same codes per document (a dead worker:
``server.error`` with reason ``worker-died``). This module imports nothing of the package but its texts,
:mod:`einvoice_validate._error_texts` (which imports only the runtime catalogue and the ``Message`` model): every
other module may import it, and it is the bottom of the house (``make lint`` checks this).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# The texts (a leaf below this module: the catalogue's meaning of each code, the German of the details). An error's
# message and wire form are rendered there; the tree itself holds no text but the English ``detail``.
from ._error_texts import Detail, detail_or, error_object, message_for_code, os_reason
from ._error_texts import error_message as message_for_error

if TYPE_CHECKING:
    from .findings import Message

__all__ = [
    "ERROR_CODES",
    "REASONS",
    "RULESET_CODES",
    "Detail",
    "EInvoiceValidateError",
    "InputError",
    "PoolBusy",
    "ProfileError",
    "RulesetError",
    "WorkerDied",
    "detail_or",
    "message_for_code",
    "message_for_error",
    "os_reason",
]


ERROR_CODES: frozenset[str] = frozenset(
    {
        "request.unreadable",
        "invoice.too-large",
        "document.unreadable",
        "document.unsupported-type",
        "request.invalid-parameter",
        "invoice.busy",
        "server.error",
    }
)
"""Every code the library gives a caller: each one of the API's codes (``wire.STATUS`` has its status)."""

REASONS: dict[str, tuple[str, ...]] = {
    "request.unreadable": ("io", "type", "text-stream"),
    "invoice.too-large": (
        "bytes",
        "elements",
        "text-length",
        "attribute-length",
        "attributes",
        "children",
        "attachment-bytes",
    ),
    "document.unreadable": (
        "empty",
        "not-xml",
        "encoding",
        "doctype",
        "xinclude",
        "depth",
        "engine-parser",
        "pdf-unreadable",
        "pdf-encrypted",
        "pdf-structure",
        "pdf-filter",
    ),
    "document.unsupported-type": (
        "root",
        "envelope",
        "no-profile",
        "pdf-no-invoice",
        "pdf-several-invoices",
        "zugferd-1",
    ),
    "request.invalid-parameter": ("profile-unknown", "profile-mismatch", "rules-date", "option"),
    "invoice.busy": ("queue-full",),
    "server.error": ("worker-died", "timeout", "internal"),
}
"""The ``reason`` values of each code (the finer distinctions a library user or a log may want)."""

RULESET_CODES: frozenset[str] = frozenset(
    {"ruleset.missing", "ruleset.corrupt", "ruleset.invalid", "ruleset.install-failed"}
)
"""The operator's codes (:class:`RulesetError`): a broken installation, not the caller's document."""


class EInvoiceValidateError(Exception):
    """Base class: the input could not be validated. ``code`` is stable, ``detail`` is for humans (English; given as
    a :class:`Detail`, a key of the catalogue and its values, it has its German too), ``reason`` (or None) says
    which of the code's cases it is (see the tree above)."""

    def __init__(self, code: str, detail: str | Detail, *, reason: str | None = None) -> None:
        self.code = code
        self.detail = str(detail)
        self.reason = reason
        self._detail = detail
        super().__init__(f"{code}: {self.detail}")

    def __reduce__(self) -> tuple[object, ...]:
        # keyword-only ``reason`` and the detail's key survive pickling (the worker processes send errors)
        return (_rebuild, (type(self), self.code, self._detail, self.reason))

    @property
    def message(self) -> Message:
        """The specific cause in English and German, one sentence each (:func:`message_for_error`); what the code
        means in general is :func:`message_for_code`."""
        return message_for_error(self.code, self._detail)

    def to_dict(self) -> dict[str, object]:
        """The wire form used by the CLI's ``json``/``jsonl`` output (``{"code", "message", "detail"}``)."""
        return error_object(self.code, self._detail)


def _rebuild(
    cls: type[EInvoiceValidateError], code: str, detail: str | Detail, reason: str | None
) -> EInvoiceValidateError:
    exc = cls.__new__(cls)
    EInvoiceValidateError.__init__(exc, code, detail, reason=reason)
    return exc


class InputError(EInvoiceValidateError):
    """The document itself cannot be validated (unreadable, too large, hostile, unsupported)."""


class ProfileError(EInvoiceValidateError):
    """A profile asked for by name does not exist or does not fit the document, or another option of the call is
    unusable (:class:`~einvoice_validate.options.Options`)."""


class RulesetError(EInvoiceValidateError):
    """A rule pack is missing, corrupted or cannot be installed."""


class PoolBusy(EInvoiceValidateError):
    """The worker pool's queue is full (``invoice.busy``): try again after ``retry_after`` seconds."""

    retry_after: int = 1

    def __init__(self, detail: str | Detail, *, retry_after: int = 1) -> None:
        super().__init__("invoice.busy", detail, reason="queue-full")
        self.retry_after = retry_after


class WorkerDied(EInvoiceValidateError):
    """The worker process (or thread) validating the document died (Saxon crash, OOM kill; reason
    ``worker-died``) or was stopped after the document's time limit (reason ``timeout``): ``server.error``."""

    def __init__(self, detail: str | Detail, *, reason: str = "worker-died") -> None:
        super().__init__("server.error", detail, reason=reason)
