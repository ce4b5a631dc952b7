"""The exception tree: every way an input can fail to be *validated* (as opposed to being invalid).

An invalid invoice is a result (a :class:`~einvoice_validate.findings.Report` with findings). These exceptions
mean "could not validate" and each carries a stable, documented ``code`` that API callers can rely on::

    EInvoiceValidateError                 (code: str, detail: str)
    ├── InputError                        the caller's document cannot be validated
    │   ├── request.unreadable            the source could not be read (missing file, I/O error, wrong type)
    │   ├── invoice.too-large             over limits.max_document_bytes (checked before parsing)
    │   ├── document.unreadable           not well-formed XML (line and column in the detail)
    │   ├── document.forbidden-construct  DOCTYPE / entity declarations (refused, never resolved)
    │   ├── document.limit-exceeded       nesting or node size beyond the configured limits
    │   └── document.unsupported-type     well-formed, but not a UBL Invoice/CreditNote or CII invoice
    ├── ProfileError                      profile.unknown / profile.mismatch (forced profile unusable)
    └── RulesetError                      the installation cannot validate: never "silently green"
        ├── ruleset.missing               a pack (or one of its files) is not installed
        ├── ruleset.corrupt               a file's sha256 differs from its manifest
        ├── ruleset.invalid               a manifest or profile file cannot be read
        └── ruleset.install-failed        the installer could not fetch or copy a pack

Batch validation (:mod:`einvoice_validate.batch`) reports these codes per document, plus one of its own that
is never raised, only given as a result's ``error.code``::

    worker.crashed                        the worker process validating this document died (Saxon crash, OOM
                                          kill, ...); the rest of the batch is unaffected
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .findings import Message

__all__ = [
    "ERROR_CODES",
    "EInvoiceValidateError",
    "InputError",
    "ProfileError",
    "RulesetError",
    "message_for_code",
]


ERROR_CODES: frozenset[str] = frozenset(
    {
        "request.unreadable",
        "invoice.too-large",
        "document.unreadable",
        "document.forbidden-construct",
        "document.limit-exceeded",
        "document.unsupported-type",
        "profile.unknown",
        "profile.mismatch",
        "profile.none",
        "ruleset.missing",
        "ruleset.corrupt",
        "ruleset.invalid",
        "ruleset.install-failed",
        "worker.crashed",
    }
)
"""Every error code the library gives (the documented vocabulary; the tree above explains each)."""


class EInvoiceValidateError(Exception):
    """Base class: the input could not be validated. ``code`` is stable, ``detail`` is for humans."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail

    @property
    def message(self) -> Message:
        """What the code means, in English and German (``rulesets/messages/project.toml``); the specifics
        (file, line and column, limit) are in ``detail``."""
        return message_for_code(self.code)

    def to_dict(self) -> dict[str, object]:
        """The wire form used by the CLI's ``json``/``jsonl`` output (``{"code", "message", "detail"}``)."""
        return {"code": self.code, "message": self.message.model_dump(mode="json"), "detail": self.detail}


def message_for_code(code: str) -> Message:
    """The English and German sentence for an error code (also used for batch-only codes)."""
    from .findings import Message
    from .messages import catalogue

    try:
        return catalogue().render_code(code)
    except KeyError:
        return Message(en=code, de=code)


class InputError(EInvoiceValidateError):
    """The document itself cannot be validated (unreadable, too large, hostile, unsupported)."""


class ProfileError(EInvoiceValidateError):
    """A profile asked for by name does not exist or does not fit the document."""


class RulesetError(EInvoiceValidateError):
    """A rule pack is missing, corrupted or cannot be installed."""
