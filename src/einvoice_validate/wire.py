"""The invoicing API's wire format, in one place for the CLI and the server: the code → HTTP status table,
RFC 9457 problem documents with exactly the API's members, and the wire form of a finding.

The table is the API's (``../shared/api/CONTRACT.md``): a code outside it is one no client can branch on, so the
library gives only codes of this table (:data:`~einvoice_validate.errors.ERROR_CODES`), and an operator's error
(:class:`~einvoice_validate.errors.RulesetError`, a broken installation) becomes ``500 server.error`` here.

A problem document has the members ``type`` (``about:blank``), ``title`` (the HTTP reason phrase), ``status``,
``code``, ``detail`` (English), ``instance`` (the request path: the API's paths begin with ``/v1``; a request
to a path outside them gets ``404 request.not-found`` with that path), plus ``findings``
with ``invoice.invalid`` and ``errors`` with ``request.invalid``; nothing else.

The CLI's ``json``/``jsonl`` rows carry a document's error as :func:`error_object` (code, message in English
and German, detail). A finding on the wire is :meth:`Finding.model_dump` in JSON mode by alias: the API's members
``ruleId``, ``severity``, ``location``, ``message`` (``de``, ``en``) and ``source``, plus the stable extras in
:data:`FINDING_EXTRA_MEMBERS` (and ``message.ro`` for CIUS-RO's Romanian texts, ``message.fr`` for FNFE-MPE's French
ones, ``message.hr`` for HR-CIUS's Croatian ones: the pack's own language, absent elsewhere). ``location`` is the
element's readable path, the same style for every pack (``/Invoice/cac:Party[2]/cbc:ID``,
:mod:`einvoice_validate.locations`), or null for a finding about the whole document or when the pack's location is
not a path; ``packLocation`` keeps the pack's own spelling.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from ._error_texts import error_object
from .errors import EInvoiceValidateError, RulesetError
from .findings import Finding, Report

__all__ = [
    "FINDING_EXTRA_MEMBERS",
    "PROBLEM_MEDIA_TYPE",
    "PROBLEM_MEMBERS",
    "STATUS",
    "TITLES",
    "error_object",
    "finding",
    "invalid_invoice",
    "problem",
    "problem_for_error",
    "status_of",
]

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_MEMBERS = ("type", "title", "status", "code", "detail", "instance")
FINDING_EXTRA_MEMBERS = ("flag", "stage", "line", "column", "terms", "values", "packLocation")
"""Members of a finding beyond the API's five: the raw flag of the pack, the stage (input, xsd, schematron), the
line and column (XSD findings), the EN 16931 business terms concerned, the values of those terms in the document
(``values``: a list of ``{"term": "BT-112", "value": "994.18", "location": "/Invoice/cac:LegalMonetaryTotal/
cbc:TaxInclusiveAmount"}``, :class:`~einvoice_validate.findings.TermValue`, read by :mod:`.values`; empty when the
document holds none), the pack's own location."""

ISSUE_INSTANCE = "/v1/invoices"
"""The instance of ``invoice.invalid`` on the API's issuing path."""

_BY_STATUS: dict[int, tuple[str, ...]] = {
    400: (
        "request.unreadable",
        "request.invalid",
        "request.invalid-parameter",
        "request.invalid-format",
        "webhook.unknown-event",
    ),
    401: ("auth.invalid-api-key",),
    402: (
        "plan.document-limit",
        "plan.seller-limit",
        "plan.country-not-included",
        "plan.feature-not-included",
        "billing.read-only",
        "plan.trial-ended",
    ),
    403: ("auth.insufficient-scope", "sandbox.live-only", "seller.not-verified"),
    404: (
        "request.not-found",
        "invoice.not-found",
        "seller.not-found",
        "delivery.not-found",
        "document.not-found",
        "webhook.not-found",
        "webhook.delivery-not-found",
    ),
    405: ("request.method-not-allowed",),
    406: ("request.not-acceptable",),
    408: ("request.too-slow",),
    409: (
        "invoice.duplicate-number",
        "idempotency.conflict",
        "delivery.duplicate",
        "api-key.limit",
        "sandbox.limit",
        "webhook.removed",
        "webhook.delivery-pending",
        "webhook.limit",
    ),
    413: ("request.too-large", "document.too-large"),
    415: ("request.unsupported-media-type", "document.unsupported-type"),
    422: ("invoice.invalid", "idempotency.key-reused", "invoice.too-large", "document.unreadable"),
    429: (
        "auth.too-many-failures",
        "rate-limit.exceeded",
        "rate-limit.concurrency",
        "tenant.heavy-work-running",
        "delivery.email-limit",
        "webhook.too-many",
    ),
    500: ("server.error",),
    503: ("invoice.busy", "inbound.busy", "sandbox.busy"),
}

STATUS: Mapping[str, int] = {code: status for status, codes in _BY_STATUS.items() for code in codes}
"""Every code of the API with its HTTP status."""

TITLES: Mapping[int, str] = {
    status: {413: "Content Too Large", 422: "Unprocessable Content"}.get(status, HTTPStatus(status).phrase)
    for status in _BY_STATUS
}
"""The ``title`` of each status: RFC 9110's reason phrase (fixed here, so it does not change with Python's
``http.HTTPStatus``, which says "Unprocessable Entity" before 3.13)."""

_OPERATOR_DETAIL = "the service cannot validate now: its rule packs are not usable (the operator has been told)"


def status_of(code: str) -> int:
    """The HTTP status of one of the API's codes (``KeyError`` for any other code)."""
    return STATUS[code]


def problem(
    code: str,
    detail: str,
    instance: str,
    *,
    findings: Sequence[Finding] | None = None,
    errors: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The problem document of ``code``: exactly the API's members, ``findings`` only with ``invoice.invalid``
    (required there) and ``errors`` only with ``request.invalid``.

    Raises:
        KeyError: ``code`` is not one of the API's codes.
        ValueError: ``findings`` / ``errors`` given with another code, or missing with theirs.
    """
    status = STATUS[code]
    if not instance.startswith("/"):
        raise ValueError(f"a problem's instance is a request path, not {instance!r}")
    if (findings is not None) != (code == "invoice.invalid"):
        raise ValueError("findings go with invoice.invalid, and only with it")
    if errors is not None and code != "request.invalid":
        raise ValueError("errors go with request.invalid only")
    doc: dict[str, Any] = {
        "type": "about:blank",
        "title": TITLES[status],
        "status": status,
        "code": code,
        "detail": detail,
        "instance": instance,
    }
    if findings is not None:
        doc["findings"] = [finding(f) for f in findings]
    if errors is not None:
        doc["errors"] = [dict(e) for e in errors]
    return doc


def problem_for_error(exc: EInvoiceValidateError, instance: str) -> dict[str, Any]:
    """The problem document of a library error. An operator's error (``ruleset.*``) or any code outside the
    API's table is ``500 server.error`` without the operator's detail (file paths stay in the server's log)."""
    if isinstance(exc, RulesetError) or exc.code not in STATUS:
        return problem("server.error", _OPERATOR_DETAIL, instance)
    return problem(exc.code, exc.detail, instance)


def invalid_invoice(report: Report, instance: str = ISSUE_INSTANCE) -> dict[str, Any] | None:
    """What issuing answers for ``report``: ``422 invoice.invalid`` with all its findings when one of them is an
    ERROR (WARNING and INFO do not stop issuing), else None."""
    errors = report.errors
    if not errors:
        return None
    noun = "finding has" if len(errors) == 1 else "findings have"
    detail = f"{len(errors)} {noun} severity ERROR ({', '.join(sorted({f.rule_id for f in errors}))})"
    return problem("invoice.invalid", detail, instance, findings=report.findings)


def finding(f: Finding) -> dict[str, Any]:
    """The wire form of a finding (see the module docstring for its members)."""
    return f.model_dump(mode="json", by_alias=True)
