"""One error vocabulary: the code → status table against the API's contract and the README, every raise site of
the library against it, and the problem documents' exact members."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from einvoice_validate import Finding, InputError, Report, RulesetError, Severity
from einvoice_validate.errors import ERROR_CODES, REASONS, RULESET_CODES, PoolBusy, ProfileError, WorkerDied
from einvoice_validate.findings import Message
from einvoice_validate.syntaxes import bundled
from einvoice_validate.wire import (
    FINDING_EXTRA_MEMBERS,
    PROBLEM_MEMBERS,
    STATUS,
    error_object,
    invalid_invoice,
    problem,
    problem_for_error,
    status_of,
)
from tests.conftest import SHARED

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "einvoice_validate"
CONTRACT = SHARED / "api" / "CONTRACT.md"


def _contract_table() -> dict[str, int]:
    text = CONTRACT.read_text(encoding="utf-8")
    table: dict[str, int] = {}
    for status, codes in re.findall(r"^\| (\d{3}) \| (.+) \|$", text, re.M):
        for code in re.findall(r"[a-z][a-z-]*\.[a-z][a-z-]*", re.sub(r"\([^)]*\)", "", codes)):
            table[code] = int(status)
    return table


def test_status_table_is_the_contracts() -> None:
    if not CONTRACT.is_file():
        pytest.fail(f"the API contract is not at {CONTRACT}; set EINVOICE_SHARED")
    contract = _contract_table()
    assert len(contract) > 40
    assert dict(STATUS) == contract


def test_every_library_code_is_an_api_code_and_has_reasons() -> None:
    assert STATUS.keys() >= ERROR_CODES
    assert set(REASONS) == ERROR_CODES
    assert not RULESET_CODES & STATUS.keys()
    assert status_of("document.unreadable") == 422 and status_of("document.unsupported-type") == 415


DATA = "<from data>"


def _raise_sites() -> list[tuple[str, str, str | None]]:
    """(file, code, reason) of every ``XxxError("code", ..., reason=...)`` call in the package's source."""
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ("InputError", "ProfileError", "RulesetError", "EInvoiceValidateError"):
                continue
            if not node.args or not isinstance(node.args[0], ast.Constant):
                continue
            reason = next((k.value for k in node.keywords if k.arg == "reason"), None)
            # a reason read from data (a refused root's, rulesets/syntaxes/): checked below against REASONS
            reason_text = reason.value if isinstance(reason, ast.Constant) else None if reason is None else DATA
            found.append((f"{path.name}:{node.lineno}", node.args[0].value, reason_text))
    return found


def test_every_raise_site_uses_a_code_of_the_vocabulary_with_a_known_reason() -> None:
    sites = _raise_sites()
    assert len(sites) > 30
    for where, code, reason in sites:
        if code in RULESET_CODES:
            continue
        assert code in ERROR_CODES, where
        assert reason in (None, DATA) or reason in REASONS[code], (where, code, reason)
        if where.startswith(("parse.py", "profiles.py")):  # the input checks name their case, always
            assert reason is not None, where


def test_refused_roots_have_reasons_of_the_vocabulary() -> None:
    refused = bundled().refused.values()
    assert refused and all(r.reason in REASONS["document.unsupported-type"] for r in refused)


def test_problem_has_exactly_the_api_members() -> None:
    doc = problem("document.unreadable", "not well-formed XML at line 2", "/v1/invoices/validate")
    assert doc == {
        "type": "about:blank",
        "title": "Unprocessable Content",
        "status": 422,
        "code": "document.unreadable",
        "detail": "not well-formed XML at line 2",
        "instance": "/v1/invoices/validate",
    }
    assert tuple(doc) == PROBLEM_MEMBERS
    assert problem("invoice.busy", "x", "/v1/x")["title"] == "Service Unavailable"
    assert problem("request.invalid", "x", "/v1/x", errors=[{"field": "a"}])["errors"] == [{"field": "a"}]


def test_problem_refuses_what_the_api_does_not_say() -> None:
    with pytest.raises(KeyError):
        problem("document.forbidden-construct", "x", "/v1/x")
    with pytest.raises(ValueError):
        problem("server.error", "x", "v1/invoices")  # instance is a request path
    with pytest.raises(ValueError):
        problem("invoice.invalid", "x", "/v1/invoices")  # findings are required
    with pytest.raises(ValueError):
        problem("server.error", "x", "/v1/x", findings=[])


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (InputError("document.unreadable", "DOCTYPE", reason="doctype"), 422, "document.unreadable"),
        (InputError("invoice.too-large", "big", reason="bytes"), 422, "invoice.too-large"),
        (ProfileError("request.invalid-parameter", "unknown profile x", reason="profile-unknown"), 400, None),
        (PoolBusy("queue full", retry_after=2), 503, "invoice.busy"),
        (WorkerDied("exit code -9"), 500, "server.error"),
        (RulesetError("ruleset.missing", "/home/op/secret/packs missing"), 500, "server.error"),
        (InputError("made.up", "x"), 500, "server.error"),
    ],
)
def test_problem_for_error(exc: InputError, status: int, code: str | None) -> None:
    doc = problem_for_error(exc, "/v1/invoices/validate")
    assert doc["status"] == status and doc["code"] == (code or exc.code)
    assert tuple(doc) == PROBLEM_MEMBERS
    if isinstance(exc, RulesetError):
        assert "secret" not in doc["detail"]  # the operator's paths stay in the log
    elif doc["code"] == exc.code:
        assert doc["detail"] == exc.detail


def test_reason_survives_pickling() -> None:
    import pickle

    exc = pickle.loads(pickle.dumps(WorkerDied("exit code 70")))
    assert (type(exc), exc.code, exc.reason, exc.detail) == (WorkerDied, "server.error", "worker-died", "exit code 70")


def _finding(rule: str, severity: Severity) -> Finding:
    return Finding(
        rule_id=rule,
        severity=severity,
        flag="fatal" if severity is Severity.ERROR else "warning",
        stage="schematron",
        location="/Invoice",
        message=Message(en="e", de="d"),
        source="xrechnung-ubl@2.5.0",
    )


def _report(*findings: Finding) -> Report:
    return Report(
        profile="p",
        syntax="ubl",
        document_type="ubl-invoice",
        spec_id=None,
        packs=(),
        findings=findings,
        valid=not any(f.severity is Severity.ERROR for f in findings),
        accepted=None,
        engine="saxonc",
        timings_ms={},
    )


def test_report_with_errors_is_invoice_invalid_with_all_findings() -> None:
    report = _report(_finding("BR-DE-15", Severity.ERROR), _finding("BR-DE-21", Severity.WARNING))
    doc = invalid_invoice(report)
    assert doc is not None
    assert (doc["status"], doc["code"], doc["instance"], doc["title"]) == (
        422,
        "invoice.invalid",
        "/v1/invoices",
        "Unprocessable Content",
    )
    assert [f["ruleId"] for f in doc["findings"]] == ["BR-DE-15", "BR-DE-21"]
    assert "BR-DE-15" in doc["detail"] and "BR-DE-21" not in doc["detail"]
    api_members = {"ruleId", "severity", "location", "message", "source"}
    assert api_members <= set(doc["findings"][0])
    extras = {"flag", "stage", "line", "column", "terms", "values", "packLocation"}
    assert set(doc["findings"][0]) - api_members == extras
    assert set(FINDING_EXTRA_MEMBERS) == extras
    assert doc["findings"][0]["message"] == {"en": "e", "de": "d"}


def test_warnings_alone_do_not_stop_issuing() -> None:
    assert invalid_invoice(_report(_finding("BR-DE-21", Severity.WARNING))) is None
    assert invalid_invoice(_report()) is None


def test_error_object_of_the_cli() -> None:
    obj = error_object("server.error", "the worker died")
    assert set(obj) == {"code", "message", "detail"} and obj["code"] == "server.error"
    assert obj["message"]["en"] != obj["message"]["de"]
    assert WorkerDied("the worker died").to_dict() == obj
