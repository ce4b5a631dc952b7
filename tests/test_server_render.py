"""``POST /v1/invoices/render`` (issue 25): the invoice shown as one page with its findings, rendered in the worker
pool, behind the same access rules, checks and limits as validate. The pages come from a real pool of worker
processes (one for the module; one test in thread mode on saxon-java); the failure modes from a stand-in pool."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from lxml import html as lxml_html

from einvoice_validate._extras import MissingExtra
from einvoice_validate.errors import PoolBusy
from einvoice_validate.pool import Pool, Rendered
from einvoice_validate.rulesets import Registry
from einvoice_validate.server import ServerSettings, create_app
from einvoice_validate.server import app as app_module
from einvoice_validate.server.access import create_key
from tests.test_server import BROKEN, GOOD, XML, StandIn, assert_problem, call

RENDER = "/v1/invoices/render"
PROFILE = "xrechnung-3.0-ubl-invoice"
SAFE_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
}
# the summary's heading in each language: the page is in the language asked for
HEADINGS = {"en": ("Overview", "Findings"), "de": ("Übersicht", "Befunde")}


class PageStandIn(StandIn):
    """The stand-in pool of tests/test_server.py, also answering pages."""

    async def render(self, data: bytes, *, lang: str = "en", fmt: str = "html", profile: str | None = None) -> Rendered:
        if self.outcome is not None:
            raise self.outcome
        return Rendered(b"<!DOCTYPE html><p>stand-in</p>", "text/html; charset=utf-8", hashlib.sha256(data).hexdigest())


@pytest.fixture(scope="module")
def pool(registry: Registry) -> Iterator[Pool]:
    with Pool(workers=1, engine="saxonc", prepare=(PROFILE,)) as p:
        assert p.mode == "processes"
        yield p


@pytest.fixture(scope="module")
def app(pool: Pool) -> Any:
    return create_app(ServerSettings(max_body_bytes=200_000, body_timeout=0.5), pool=pool)


def _page(r: httpx.Response, lang: str) -> Any:
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    assert {k: r.headers[k] for k in SAFE_HEADERS} == SAFE_HEADERS
    page = lxml_html.fromstring(r.content)
    assert page.get("lang") == lang
    assert not page.xpath("//script | //iframe | //object | //embed")  # the page needs no script: the CSP allows none
    return page


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_valid_and_a_broken_invoice_are_pages_with_their_findings(app: Any, lang: str) -> None:
    good = call(app, "POST", f"{RENDER}?lang={lang}", content=GOOD, headers=XML)
    page = _page(good, lang)
    assert good.headers["x-document-sha256"] == hashlib.sha256(GOOD).hexdigest()
    assert HEADINGS[lang][0] in page.text_content() and "RE-2025-00417" in page.text_content()
    assert "cvc-datatype-valid.1.2.1" not in page.text_content()

    broken = call(app, "POST", f"{RENDER}?lang={lang}&format=html", content=BROKEN, headers=XML)
    page = _page(broken, lang)  # an invalid invoice is a page (200), its findings on it
    assert broken.headers["x-document-sha256"] == hashlib.sha256(BROKEN).hexdigest()
    text = page.text_content()
    assert "cvc-datatype-valid.1.2.1" in text and HEADINGS[lang][1] in text


def test_a_hostile_note_stays_text(app: Any) -> None:
    note = "&lt;script&gt;document.title='pwned'&lt;/script&gt;"
    data = re.sub(rb"<cbc:Note>[^<]*</cbc:Note>", f"<cbc:Note>{note}</cbc:Note>".encode(), GOOD, count=1)
    r = call(app, "POST", RENDER, content=data, headers=XML)
    page = _page(r, "en")
    assert b"<script>document.title" not in r.content and b"&lt;script&gt;document.title='pwned'" in r.content
    assert "<script>document.title='pwned'</script>" in page.xpath("//*[@data-title='BT-22']")[0].text_content()


def test_a_forced_profile_and_the_parameters(app: Any) -> None:
    assert call(app, "POST", f"{RENDER}?profile={PROFILE}&lang=de", content=GOOD, headers=XML).status_code == 200
    for query, words in (
        ("?lang=fr", "lang must be one of de, en, not 'fr'"),
        ("?format=docx", "format must be one of html, pdf, not 'docx'"),
        ("?profile=nope", "unknown profile nope"),
        ("?page=2", "unknown parameter(s): page"),
    ):
        r = call(app, "POST", RENDER + query, content=GOOD, headers=XML)
        assert words in assert_problem(r, 400, "request.invalid-parameter", RENDER)["detail"]


def test_a_pdf(app: Any) -> None:
    r = call(app, "POST", f"{RENDER}?format=pdf&lang=de", content=BROKEN, headers={**XML, "Accept": "application/pdf"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/pdf" and r.content.startswith(b"%PDF-")
    assert r.headers["x-document-sha256"] == hashlib.sha256(BROKEN).hexdigest()
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["cache-control"] == "no-store"


def test_a_pdf_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(extra: str, feature: str) -> None:
        raise MissingExtra(feature, extra, ("weasyprint",))

    monkeypatch.setattr(app_module, "require", missing)
    app = create_app(ServerSettings(), pool=PageStandIn())
    r = call(app, "POST", f"{RENDER}?format=pdf", content=GOOD, headers=XML)
    doc = assert_problem(r, 406, "request.not-acceptable", RENDER)
    assert "pip install 'einvoice-validate[pdf]'" in doc["detail"] and "\n" not in doc["detail"]


@pytest.mark.parametrize(
    ("query", "accept", "status"),
    [
        ("", "text/html", 200),
        ("", "text/*;q=0.5, application/json", 200),
        ("?format=pdf", "application/pdf", 200),
        ("", "application/json", 406),
        ("", "text/html;q=0", 406),
        ("?format=pdf", "text/html", 406),
    ],
)
def test_accept(query: str, accept: str, status: int) -> None:
    r = call(
        create_app(ServerSettings(), pool=PageStandIn()), "POST", RENDER + query, content=GOOD,
        headers={**XML, "Accept": accept},
    )  # fmt: skip
    assert r.status_code == status, r.text
    if status == 406:
        assert_problem(r, 406, "request.not-acceptable", RENDER)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"<Invoice><a></Invoice>", 422, "document.unreadable"),
        (b"%PDF-1.7 ...", 422, "document.unreadable"),
        (b"<a xmlns='urn:x'/>", 415, "document.unsupported-type"),
    ],
)
def test_a_document_that_cannot_be_shown_is_the_problem_of_validate(
    app: Any, body: bytes, status: int, code: str
) -> None:
    shown = assert_problem(call(app, "POST", RENDER, content=body, headers=XML), status, code, RENDER)
    validated = call(app, "POST", "/v1/invoices/validate", content=body, headers=XML).json()
    assert shown["detail"] == validated["detail"]


def test_the_limits_of_validate(app: Any) -> None:
    big = GOOD + b"<!--" + b"x" * 250_000 + b"-->"
    assert_problem(call(app, "POST", RENDER, content=big, headers=XML), 413, "request.too-large", RENDER)
    r = call(app, "POST", RENDER, content=GOOD, headers={"Content-Type": "application/json"})
    assert_problem(r, 415, "request.unsupported-media-type", RENDER)


def test_busy_and_not_ready_are_503() -> None:
    r = call(create_app(ServerSettings(), pool=PageStandIn(PoolBusy("8 waiting", retry_after=3))), "POST", RENDER,
             content=GOOD, headers=XML)  # fmt: skip
    assert_problem(r, 503, "invoice.busy", RENDER)
    assert r.headers["retry-after"] == "3"
    pool = PageStandIn()
    pool.ready = False
    r = call(create_app(ServerSettings(), pool=pool), "POST", RENDER, content=GOOD, headers=XML)
    assert_problem(r, 503, "invoice.busy", RENDER)
    assert int(r.headers["retry-after"]) >= 5


def test_a_key_is_required_when_keys_are_configured(tmp_path: Path) -> None:
    path = tmp_path / "keys.jsonl"
    key, _ = create_key(path, "invoices")
    admin, _ = create_key(path, "admin")
    app = create_app(ServerSettings(keys_file=path), pool=PageStandIn())
    assert_problem(call(app, "POST", RENDER, content=GOOD, headers=XML), 401, "auth.invalid-api-key", RENDER)
    r = call(app, "POST", RENDER, content=GOOD, headers={**XML, "X-API-Key": admin})
    assert_problem(r, 403, "auth.insufficient-scope", RENDER)
    r = call(app, "POST", RENDER, content=GOOD, headers={**XML, "Authorization": f"Bearer {key}"})
    assert r.status_code == 200 and r.content.startswith(b"<!DOCTYPE html>")


def test_get_is_not_allowed() -> None:
    r = call(create_app(ServerSettings(), pool=PageStandIn()), "GET", RENDER)
    assert_problem(r, 405, "request.method-not-allowed", RENDER)
    assert r.headers["allow"] == "POST"


def test_thread_mode_renders_with_the_shared_validator(registry: Registry) -> None:
    """Threads over one saxon-java validator: the viewer runs on its engine too."""
    with Pool(workers=1, engine="saxon-java") as pool:
        assert pool.mode == "threads"
        r = call(create_app(ServerSettings(), pool=pool), "POST", f"{RENDER}?lang=de", content=BROKEN, headers=XML)
    assert "cvc-datatype-valid.1.2.1" in _page(r, "de").text_content()
