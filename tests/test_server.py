"""The service's contract: every status and code, the exact problem members, ``instance``, ``Retry-After``,
``Allow``; the access rules with the lockout; the access log. Runs the ASGI application in-process (httpx's
ASGI transport); the validations go through a real worker pool, the failure modes through a stand-in pool."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from einvoice_validate import Report
from einvoice_validate.cli import main
from einvoice_validate.errors import EInvoiceValidateError, PoolBusy, RulesetError, WorkerDied
from einvoice_validate.pool import Pool, Validated
from einvoice_validate.rulesets import Registry
from einvoice_validate.server import ServerSettings, create_app
from einvoice_validate.server.access import create_key, load_keys, revoke_key
from einvoice_validate.wire import PROBLEM_MEMBERS
from tests.conftest import CORPUS

REPO = Path(__file__).resolve().parents[1]
GOOD = (REPO / "examples" / "xrechnung-ubl-invoice.xml").read_bytes()
BROKEN = (REPO / "examples" / "xrechnung-ubl-broken.xml").read_bytes()
VALIDATE = "/v1/invoices/validate"
XML = {"Content-Type": "application/xml"}


class StandIn:
    """A pool that answers at once (or raises ``outcome``), optionally after ``gate`` opens."""

    def __init__(self, outcome: BaseException | None = None, gate: asyncio.Event | None = None) -> None:
        self.outcome = outcome
        self.gate = gate
        self.ready = True

    def start(self) -> None:
        pass

    def close(self, timeout: float = 0) -> None:
        pass

    def stats(self) -> dict[str, int]:
        return {"workers": 1, "alive": 1}

    def worker_pids(self) -> list[int]:
        return []

    async def validate_json(self, data: bytes, *, profile: str | None = None) -> Validated:
        if self.gate is not None:
            await self.gate.wait()
        if self.outcome is not None:
            raise self.outcome
        return Validated(b'{"stand-in": true}', hashlib.sha256(data).hexdigest())


def call(app: Any, method: str, path: str, *, address: str = "127.0.0.1", **kw: Any) -> httpx.Response:
    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=(address, 4711))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.request(method, path, **kw)

    return asyncio.run(run())


def assert_problem(r: httpx.Response, status: int, code: str, instance: str = VALIDATE) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    doc: dict[str, Any] = r.json()
    assert tuple(doc) == PROBLEM_MEMBERS, doc
    assert (doc["type"], doc["status"], doc["code"], doc["instance"]) == ("about:blank", status, code, instance)
    assert doc["title"] and doc["detail"]
    return doc


@pytest.fixture(scope="module")
def pool(registry: Registry) -> Iterator[Pool]:
    with Pool(workers=1, prepare=("xrechnung-3.0-ubl-invoice",)) as p:
        yield p


@pytest.fixture(scope="module")
def app(pool: Pool) -> Any:
    return create_app(ServerSettings(max_body_bytes=200_000, body_timeout=0.5), pool=pool)


def stand_in_app(outcome: BaseException | None = None, **settings: Any) -> Any:
    return create_app(ServerSettings(**settings), pool=StandIn(outcome))


# --- validation -------------------------------------------------------------------------------------------


def test_report_for_a_valid_invoice(app: Any) -> None:
    r = call(app, "POST", VALIDATE, content=GOOD, headers=XML)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    report = Report.model_validate_json(r.content)
    assert report.valid and report.profile == "xrechnung-3.0-ubl-invoice"
    assert r.headers["x-document-sha256"] == hashlib.sha256(GOOD).hexdigest()


def test_an_invalid_invoice_is_a_report_with_all_findings(app: Any) -> None:
    r = call(app, "POST", VALIDATE, content=BROKEN, headers={"Content-Type": "text/xml; charset=utf-8"})
    assert r.status_code == 200
    body = r.json()
    assert body["valid"] is False and {"cvc-datatype-valid.1.2.1"} <= {f["ruleId"] for f in body["findings"]}
    assert {"ruleId", "severity", "location", "message", "source"} <= set(body["findings"][0])


def test_a_french_invoice_gets_the_french_rules(app: Any) -> None:
    """Issue 31: the French profile and why, FNFE's French text as message.fr (absent elsewhere)."""
    data = (CORPUS / "france" / "mutations" / "F202500001_INV_20250201_CII_Commentee_EN16931.m7-0.xml").read_bytes()
    body = call(app, "POST", VALIDATE, content=data, headers=XML).json()
    assert body["profile"] == "fr-ctc-cii" and body["profileReason"].startswith("French CTC invoice: ")
    french = [f for f in body["findings"] if f["ruleId"].startswith("BR-FR-")]
    assert french and all(set(f["message"]) == {"en", "de", "fr"} for f in french)
    assert all("fr" not in f["message"] for f in body["findings"] if f["source"].startswith("en16931"))
    forced = call(app, "POST", VALIDATE + "?profile=en16931-cii", content=data, headers=XML).json()
    assert forced["profile"] == "en16931-cii" and forced["profileReason"].startswith("chosen by the caller")


def test_forced_profile(app: Any) -> None:
    assert call(app, "POST", VALIDATE + "?profile=xrechnung-3.0-ubl-invoice", content=GOOD, headers=XML).is_success
    doc = assert_problem(
        call(app, "POST", VALIDATE + "?profile=nope", content=GOOD, headers=XML), 400, "request.invalid-parameter"
    )
    assert "unknown profile nope" in doc["detail"]
    mismatch = call(app, "POST", VALIDATE + "?profile=xrechnung-3.0-cii", content=GOOD, headers=XML)
    assert "is for cii documents" in assert_problem(mismatch, 400, "request.invalid-parameter")["detail"]
    assert_problem(call(app, "POST", VALIDATE + "?x=1", content=GOOD, headers=XML), 400, "request.invalid-parameter")


def test_a_national_cius_invoice(app: Any) -> None:
    """Issue 22: a Dutch SI-UBL credit note is checked against SI-UBL 2.0.3.13, forced or matched."""
    data = (CORPUS / "national/si-ubl/SI-UBL-2.0_BR-NL-8_ok_381.xml").read_bytes()
    for query in ("", "?profile=si-ubl-2.0-ubl-creditnote"):
        r = call(app, "POST", VALIDATE + query, content=data, headers=XML)
        assert r.status_code == 200, r.text
        report = Report.model_validate_json(r.content)
        assert (report.profile, report.packs, report.valid) == (
            "si-ubl-2.0-ubl-creditnote",
            ("ubl-2.1@2.1", "si-ubl@2.0.3.13"),
            True,
        )
        assert [c.pack for c in report.version_choices] == ["si-ubl@2.0.3.13"]


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    [
        (b"<Invoice><a></Invoice>", 422, "document.unreadable", "not well-formed"),
        (b"", 422, "document.unreadable", "empty"),
        (b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', 422, "document.unreadable", "DOCTYPE"),
        (b"%PDF-1.7 ...", 422, "document.unreadable", "PDF"),
        (b"<a xmlns='urn:x'/>", 415, "document.unsupported-type", "root element"),
    ],
)
def test_bodies_that_cannot_be_validated(app: Any, body: bytes, status: int, code: str, words: str) -> None:
    assert words in assert_problem(call(app, "POST", VALIDATE, content=body, headers=XML), status, code)["detail"]


def test_body_over_the_limit(app: Any) -> None:
    big = GOOD + b"<!--" + b"x" * 250_000 + b"-->"
    assert_problem(call(app, "POST", VALIDATE, content=big, headers=XML), 413, "request.too-large")

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: reading stops at the limit
        for _ in range(100):
            yield b"x" * 10_000

    assert_problem(call(app, "POST", VALIDATE, content=chunks(), headers=XML), 413, "request.too-large")


def test_body_arriving_too_slowly(app: Any) -> None:
    async def slow() -> AsyncIterator[bytes]:
        yield GOOD[:100]
        await asyncio.sleep(1.0)
        yield GOOD[100:]

    assert_problem(call(app, "POST", VALIDATE, content=slow(), headers=XML), 408, "request.too-slow")


# --- HTTP-level errors ------------------------------------------------------------------------------------


def test_unknown_path() -> None:
    app = stand_in_app()
    assert_problem(call(app, "GET", "/v1/nothing"), 404, "request.not-found", "/v1/nothing")
    assert_problem(
        call(app, "POST", "/invoices/validate", content=GOOD), 404, "request.not-found", "/invoices/validate"
    )


def test_wrong_method_names_the_allowed_ones() -> None:
    app = stand_in_app()
    r = call(app, "GET", VALIDATE)
    assert_problem(r, 405, "request.method-not-allowed")
    assert r.headers["allow"] == "POST"
    r = call(app, "POST", "/v1/health")
    assert_problem(r, 405, "request.method-not-allowed", "/v1/health")
    assert set(r.headers["allow"].split(", ")) == {"GET", "HEAD"}


@pytest.mark.parametrize("accept", ["text/html", "application/xml", "application/json;q=0"])
def test_accept_without_json(accept: str) -> None:
    r = call(stand_in_app(), "POST", VALIDATE, content=GOOD, headers={**XML, "Accept": accept})
    assert_problem(r, 406, "request.not-acceptable")


@pytest.mark.parametrize("accept", ["*/*", "application/json", "application/problem+json", "text/html, application/*"])
def test_accept_with_json(accept: str) -> None:
    assert call(stand_in_app(), "POST", VALIDATE, content=GOOD, headers={**XML, "Accept": accept}).status_code == 200


@pytest.mark.parametrize("content_type", [None, "application/json", "text/plain", "multipart/form-data"])
def test_unsupported_content_type(content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    r = call(stand_in_app(), "POST", VALIDATE, content=GOOD, headers=headers)
    assert_problem(r, 415, "request.unsupported-media-type")


def test_full_queue_is_503_with_retry_after() -> None:
    r = call(stand_in_app(PoolBusy("16 waiting", retry_after=2)), "POST", VALIDATE, content=GOOD, headers=XML)
    assert_problem(r, 503, "invoice.busy")
    assert r.headers["retry-after"] == "2"


def test_dead_worker_is_500_server_error() -> None:
    r = call(stand_in_app(WorkerDied("exit code -9")), "POST", VALIDATE, content=GOOD, headers=XML)
    assert_problem(r, 500, "server.error")


def test_broken_installation_is_500_without_the_operators_detail() -> None:
    app = stand_in_app(RulesetError("ruleset.corrupt", "/srv/secret/packs/x.xsl: sha256 differs"))
    doc = assert_problem(call(app, "POST", VALIDATE, content=GOOD, headers=XML), 500, "server.error")
    assert "secret" not in doc["detail"] and "ruleset" not in json.dumps(doc)


def test_unexpected_library_code_is_500() -> None:
    app = stand_in_app(EInvoiceValidateError("made.up", "x"))
    assert_problem(call(app, "POST", VALIDATE, content=GOOD, headers=XML), 500, "server.error")


def test_too_many_in_flight_from_one_client() -> None:
    async def run() -> list[int]:
        gate = asyncio.Event()
        app = create_app(ServerSettings(max_in_flight_per_client=2), pool=StandIn(gate=gate))
        one = httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=("10.0.0.1", 1)), base_url="http://t")
        other = httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=("10.0.0.2", 1)), base_url="http://t")
        async with one, other:
            held = [asyncio.create_task(one.post(VALIDATE, content=GOOD, headers=XML)) for _ in range(2)]
            await asyncio.sleep(0.05)
            refused = await one.post(VALIDATE, content=GOOD, headers=XML)
            assert_problem(refused, 429, "rate-limit.concurrency")
            assert refused.headers["retry-after"] == "1"
            elsewhere = asyncio.create_task(other.post(VALIDATE, content=GOOD, headers=XML))
            gate.set()
            return [r.status_code for r in await asyncio.gather(*held, elsewhere)]

    assert asyncio.run(run()) == [200, 200, 200]


def test_health_says_only_whether_it_is_ready() -> None:
    r = call(stand_in_app(), "GET", "/v1/health")
    assert (r.status_code, r.json()) == (200, {"status": "ready"})
    pool = StandIn()
    pool.ready = False
    r = call(create_app(ServerSettings(), pool=pool), "GET", "/v1/health")
    assert (r.status_code, r.json()) == (503, {"status": "not-ready"})


def test_health_details() -> None:
    r = call(stand_in_app(), "GET", "/v1/health?details")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ready" and body["version"] and "xrechnung-ubl@2.5.0" in body["packs"]
    assert body["workers"]["workers"] == 1 and body["stopped_workers"] == []


def test_one_access_log_line_per_request(caplog: pytest.LogCaptureFixture) -> None:
    app = stand_in_app()
    with caplog.at_level(logging.INFO, logger="einvoice_validate.access"):
        call(app, "POST", VALIDATE, content=GOOD, headers=XML)
        call(app, "GET", "/v1/nowhere")
    lines = [r.getMessage() for r in caplog.records if r.name == "einvoice_validate.access"]
    assert len(lines) == 2
    assert '"POST /v1/invoices/validate" 200' in lines[0]
    assert '"GET /v1/nowhere" 404' in lines[1] and "code=request.not-found" in lines[1]


# --- access -----------------------------------------------------------------------------------------------


@pytest.fixture
def keyed(tmp_path: Path) -> tuple[Any, dict[str, str], Path]:
    path = tmp_path / "keys.jsonl"
    keys = {}
    for name, permission in (("invoices", "invoices"), ("admin", "admin"), ("revoked", "invoices")):
        keys[name], entry = create_key(path, permission)  # type: ignore[arg-type]
        if name == "revoked":
            assert revoke_key(path, entry.id)
    settings = ServerSettings(keys_file=path, lockout_failures=3, lockout_seconds=60)
    return create_app(settings, pool=StandIn()), keys, path


def test_keys_are_stored_only_as_checksums(keyed: tuple[Any, dict[str, str], Path]) -> None:
    _, keys, path = keyed
    text = path.read_text()
    assert all(key not in text for key in keys.values())
    assert all(key.split("_", 2)[2] not in text for key in keys.values())
    stored = load_keys(path)
    assert {e.sha256 for e in stored} == {hashlib.sha256(k.encode()).hexdigest() for k in keys.values()}
    assert (path.stat().st_mode & 0o777) == 0o600


def test_valid_keys_in_either_header(keyed: tuple[Any, dict[str, str], Path]) -> None:
    app, keys, _ = keyed
    key = keys["invoices"]
    assert call(app, "POST", VALIDATE, content=GOOD, headers={**XML, "Authorization": f"Bearer {key}"}).is_success
    assert call(app, "POST", VALIDATE, content=GOOD, headers={**XML, "X-API-Key": key}).is_success


@pytest.mark.parametrize(
    "headers",
    [{}, {"X-API-Key": "ev_00000000_nope"}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer "}],
)
def test_missing_or_wrong_key_is_401(keyed: tuple[Any, dict[str, str], Path], headers: dict[str, str]) -> None:
    app, _, _ = keyed
    assert_problem(call(app, "POST", VALIDATE, content=GOOD, headers={**XML, **headers}), 401, "auth.invalid-api-key")


def test_revoked_and_tampered_keys_are_401(keyed: tuple[Any, dict[str, str], Path]) -> None:
    app, keys, _ = keyed
    for key in (keys["revoked"], keys["invoices"][:-1] + ("A" if keys["invoices"][-1] != "A" else "B")):
        r = call(app, "POST", VALIDATE, content=GOOD, headers={**XML, "X-API-Key": key}, address="10.1.1.1")
        assert_problem(r, 401, "auth.invalid-api-key")


def test_key_without_the_permission_is_403(keyed: tuple[Any, dict[str, str], Path]) -> None:
    app, keys, _ = keyed
    r = call(app, "POST", VALIDATE, content=GOOD, headers={**XML, "X-API-Key": keys["admin"]})
    assert_problem(r, 403, "auth.insufficient-scope")


def test_lockout_after_repeated_invalid_keys(keyed: tuple[Any, dict[str, str], Path]) -> None:
    app, keys, _ = keyed
    wrong = {**XML, "X-API-Key": "ev_12345678_wrong"}
    for _ in range(3):
        assert_problem(
            call(app, "POST", VALIDATE, content=GOOD, headers=wrong, address="10.9.9.9"), 401, "auth.invalid-api-key"
        )
    good = {**XML, "X-API-Key": keys["invoices"]}
    r = call(app, "POST", VALIDATE, content=GOOD, headers=good, address="10.9.9.9")  # even a valid key waits
    assert_problem(r, 429, "auth.too-many-failures")
    assert 55 <= int(r.headers["retry-after"]) <= 60
    assert call(app, "POST", VALIDATE, content=GOOD, headers=good, address="10.9.9.8").is_success  # others unaffected


def test_keys_cli_prints_the_key_once_and_stores_its_checksum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "k.jsonl"
    assert main(["keys", "create", "--keys", str(path), "--permission", "invoices"]) == 0
    key = capsys.readouterr().out.strip()
    assert key.startswith("ev_") and key not in path.read_text()
    assert main(["keys", "list", "--keys", str(path)]) == 0
    listing = capsys.readouterr().out
    assert key.split("_")[1] in listing and key not in listing


def test_serve_refuses_a_public_host_without_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "0.0.0.0", "--port", "1"]) == 2
    assert "loopback only" in capsys.readouterr().err


def test_serve_without_packs_says_what_to_install(tmp_path: Path) -> None:
    """One line naming the command that installs the packs, exit 2 (no traceback), before anything listens."""
    done = subprocess.run(
        [sys.executable, "-m", "einvoice_validate", "--home", str(tmp_path), "serve", "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "ruleset.missing" in lines[0] and "einvoice-validate rulesets install" in lines[0]


def test_bad_settings_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--forwarded-allow-ips", "not-an-address"]) == 2
    assert "does not appear to be an IPv4 or IPv6" in capsys.readouterr().err
