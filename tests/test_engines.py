"""The two XSLT engines (``saxonc``, ``saxon-java``) give the same findings; choosing and verifying an engine.

The other Schematron suites (official unit tests, parity, corpus, prepare) run on both engines too: ``make test``
runs them a second time with ``EINVOICE_VALIDATE_ENGINE=saxon-java``. Here both engines run side by side in one
process on the same documents.
"""

from __future__ import annotations

import hashlib
import json
import threading
import tomllib
from pathlib import Path

import pytest

from einvoice_validate import BatchValidator, InputError, ProfileError, RulesetError, Validator, validate_many
from einvoice_validate import validator as validator_module
from einvoice_validate.cli import main
from einvoice_validate.findings import Finding, Report
from einvoice_validate.parse import load as InputDocument
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron import RUNTIME_ERROR, SchematronStage
from einvoice_validate.schematron import _java as java_module
from einvoice_validate.schematron import engines as engines_module
from einvoice_validate.schematron._java import JAR_ENV, JavaEngine, jar_path
from einvoice_validate.schematron._shared import pattern_parts
from einvoice_validate.schematron.engines import (
    ENGINE_ENV,
    ENGINES,
    StylesheetRuntimeError,
    engine_for_size,
    engine_name,
)
from tests.bounded import run_bounded
from tests.conftest import CORPUS, REPO
from tests.hostile import empty_notes

BUSINESS_CASES = sorted((CORPUS / "xrechnung-testsuite/business-cases/standard").glob("*.xml"))
MUTATIONS = sorted((CORPUS / "mutations-dev").glob("*.xml"))

# Where the engines differ, with the reason (each entry must really differ).
KNOWN_DIFFERENCES = {
    "ubl_b2g_example9.m1-6.xml": (
        "CIUS-RO's BR-CO-14 `xs:decimal(cbc:TaxAmount) = ... or not(cac:TaxSubtotal)` on a doubled TaxAmount: "
        "Saxon 9.9 (Java) evaluates the left operand and stops with XPTY0004, SaxonC 13 the right one (true), as "
        "XPath 2.0 section 2.3.4 allows; see tests/test_parity.py"
    ),
    "CII-BR-CO-10-RoundingIssue.m1-6.xml": (
        "TaxTotalAmount 'abc', read by BR-CO-15 in CEN CII's root rule: Saxon 9.9 (Java) evaluates the conversion "
        "and raises FORG0001 (the root rule becomes one rule-level runtime error), SaxonC 13 decides the test on "
        "another operand first and skips the error, as XPath 2.0 section 2.3.4 allows. Before rule errors were "
        "isolated (issue 13) both engines stopped the whole pack, which hid the difference; invalid either way"
    ),
}


def _key(finding: Finding) -> tuple[str, str, str, str | None, str]:
    """A finding as both engines must give it. A runtime error's text is the engine's own wording (Saxon 9.9
    and 13 phrase the same error differently): only its error code, which leads the text, is compared."""
    text = finding.message.en
    if finding.rule_id == RUNTIME_ERROR:
        text = text.split(":", 1)[0]
    return (finding.rule_id, finding.flag, finding.severity, finding.location, text)


def _outcome(report: Report) -> list[tuple[str, str, str, str | None, str]]:
    return [_key(f) for f in report.findings]


@pytest.fixture(scope="module")
def engines(registry: Registry) -> dict[str, Validator]:
    return {name: Validator(rules_home=registry.home, engine=name) for name in ENGINES}


def _cases() -> list[object]:
    return [
        pytest.param(p, id=p.name, marks=pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[p.name]))
        if p.name in KNOWN_DIFFERENCES
        else pytest.param(p, id=p.name)
        for p in BUSINESS_CASES + MUTATIONS
    ]


@pytest.mark.corpus
@pytest.mark.parametrize("path", _cases())
def test_both_engines_give_the_same_findings(path: Path, engines: dict[str, Validator]) -> None:
    data = path.read_bytes()
    saxonc, java = (_outcome(engines[name].validate(data)) for name in ENGINES)
    assert java == saxonc


def test_the_known_differences_leave_the_verdict_alone(engines: dict[str, Validator]) -> None:
    for name in KNOWN_DIFFERENCES:
        data = (CORPUS / "mutations-dev" / name).read_bytes()
        assert not any(engines[e].validate(data).valid for e in ENGINES), name


def test_java_engine_runs_concurrently_from_threads(engines: dict[str, Validator]) -> None:
    java = engines["saxon-java"]
    data = [p.read_bytes() for p in BUSINESS_CASES[:12] + MUTATIONS[:12]]
    expected = [_outcome(java.validate(d)) for d in data]
    results: dict[int, list[list[tuple[str, str, str, str | None, str]]]] = {}

    def work(n: int) -> None:
        results[n] = [_outcome(java.validate(d)) for d in data]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[n] == expected for n in range(3))


def test_the_java_parser_refuses_a_doctype_too(tmp_path: Path) -> None:
    """Saxon only ever sees what the hardened lxml parser accepted; should anything else reach it, its own parser
    refuses a DOCTYPE instead of resolving entities."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    hostile = f'<!DOCTYPE x [<!ENTITY e SYSTEM "{secret.as_uri()}">]><x>&e;</x>'
    with pytest.raises(InputError) as caught:
        JavaEngine().parse_text(hostile)
    assert caught.value.code == "document.unreadable"
    assert "DOCTYPE" in caught.value.detail and "TOP-SECRET" not in caught.value.detail


@pytest.mark.parametrize("engine", ENGINES)
def test_a_document_only_lxml_can_read_is_unreadable_not_a_crash(engine: str, registry: Registry) -> None:
    """U+FEFF opening a processing instruction's target: a name character for libxml2 (XML 1.0 fifth edition),
    not for the engines' parsers (found by the property tests)."""
    data = (Path(__file__).resolve().parents[1] / "examples" / "cius-ro-ubl-invoice.xml").read_bytes()
    at = data.index(b"<?xml") + 2
    with pytest.raises(InputError) as caught:
        Validator(rules_home=registry.home, engine=engine).validate(data[:at] + "\ufeff".encode() + data[at:])
    assert caught.value.code == "document.unreadable" and "processing instruction" in caught.value.detail
    assert caught.value.reason == "engine-parser"


def test_the_jar_is_verified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = jar_path()
    # the installed jar is the pinned one: its digest against the pin of rulesets/engines.toml, read here
    pin = tomllib.loads((REPO / "rulesets" / "engines.toml").read_text(encoding="utf-8"))["saxon-he-java"]["sha256"]
    assert hashlib.sha256(real.read_bytes()).hexdigest() == pin
    monkeypatch.setenv(JAR_ENV, str(tmp_path / "absent.jar"))
    with pytest.raises(RulesetError) as missing:
        jar_path()
    assert missing.value.code == "ruleset.missing" and "apt-get install libsaxonhe-java" in missing.value.detail
    other = tmp_path / "other.jar"
    other.write_bytes(real.read_bytes()[:-1] + b"x")
    monkeypatch.setenv(JAR_ENV, str(other))
    with pytest.raises(RulesetError) as corrupt:
        jar_path()
    assert corrupt.value.code == "ruleset.corrupt"


def test_choosing_an_engine(monkeypatch: pytest.MonkeyPatch, registry: Registry) -> None:
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    assert engine_name() == "saxonc"
    assert engine_name("saxon-java") == "saxon-java"
    monkeypatch.setenv(ENGINE_ENV, "saxon-java")
    assert engine_name() == "saxon-java"
    assert Validator(rules_home=registry.home).engine.name == "saxon-java"
    assert Validator(rules_home=registry.home, engine="saxonc").engine.name == "saxonc"
    with pytest.raises(ProfileError, match=r"option engine: .*'xalan'") as info:
        Validator(rules_home=registry.home, engine="xalan")  # type: ignore[arg-type]
    assert (info.value.code, info.value.reason) == ("request.invalid-parameter", "option")


def test_a_batch_and_the_cli_run_the_engine_asked_for(registry: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    """Each worker builds its validator with the engine named (its own JVM for saxon-java); the CLI's output is
    the same on both engines."""
    files = [*BUSINESS_CASES[:3], *MUTATIONS[:3]]
    outcomes = {}
    for engine in ENGINES:
        results = validate_many(files, workers=2, rules_home=registry.home, engine=engine)
        outcomes[engine] = [_outcome(r.report) for r in results if r.report is not None]
        assert len(outcomes[engine]) == len(files)
    assert outcomes["saxonc"] == outcomes["saxon-java"]
    with pytest.raises(ProfileError, match="option engine"):
        BatchValidator(workers=2, rules_home=registry.home, engine="xalan")  # type: ignore[arg-type]

    printed = {}
    examples = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.xml"))
    for engine in ENGINES:
        args = ["--home", str(registry.home), "validate", "--format", "jsonl", "--engine", engine]
        code = main([*args, *map(str, examples)])
        rows = capsys.readouterr().out
        assert code == 1 and rows.count("\n") == len(examples)  # one example is broken on purpose
        assert rows.count(f'"engine": "{engine}"') == len(examples)  # every row says which engine ran
        printed[engine] = rows.replace(f'"engine": "{engine}"', '"engine": ...')
    assert printed["saxonc"] == printed["saxon-java"]


def test_a_large_document_runs_on_saxon_java_when_the_work_chooses(
    monkeypatch: pytest.MonkeyPatch, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unless an engine is named, each document's size chooses: from LARGE_DOCUMENT_BYTES on saxon-java (when
    installed), and the report says why; a named engine is never switched (here the threshold is lowered to the
    size of a business case instead of making a 4 MiB invoice)."""
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    small, large = BUSINESS_CASES[0], max(BUSINESS_CASES, key=lambda p: p.stat().st_size)
    monkeypatch.setattr(engines_module, "LARGE_DOCUMENT_BYTES", large.stat().st_size)
    assert engine_for_size(small.stat().st_size) == ("saxonc", None)
    name, why = engine_for_size(large.stat().st_size)
    assert name == "saxon-java" and why is not None and "large document" in why
    chosen = Validator(rules_home=registry.home)
    first, second, third = chosen.validate(small), chosen.validate(large), chosen.validate(small)
    assert (first.engine, second.engine, third.engine) == ("saxonc", "saxon-java", "saxonc")
    assert first.engine_reason is None and second.engine_reason == why
    assert "engineReason" in second.model_dump(mode="json", by_alias=True)
    assert "engineReason" not in first.model_dump(mode="json", by_alias=True)
    assert _outcome(second) == _outcome(Validator(rules_home=registry.home, engine="saxonc").validate(large))
    named = Validator(rules_home=registry.home, engine="saxonc").validate(large)
    assert (named.engine, named.engine_reason) == ("saxonc", None)
    monkeypatch.setenv(ENGINE_ENV, "saxonc")
    assert Validator(rules_home=registry.home).validate(large).engine == "saxonc"
    monkeypatch.delenv(ENGINE_ENV)
    # the CLI on a few files (the work chooses saxonc) keeps the choice per file open; --engine closes it
    for named, engines in ((None, ["saxonc", "saxon-java"]), ("saxonc", ["saxonc", "saxonc"])):
        args = ["--home", str(registry.home), "validate", "--format", "jsonl", "--workers", "1"]
        main([*args, *(["--engine", named] if named else []), str(small), str(large)])
        rows = [json.loads(row) for row in capsys.readouterr().out.splitlines()]
        assert [row["engine"] for row in rows] == engines, named
    monkeypatch.setattr(java_module, "java_available", lambda: False)
    name, why = engine_for_size(large.stat().st_size)
    assert name == "saxonc" and why is not None and "not installed" in why


def _full(report: Report) -> tuple[list[dict[str, object]], bool, set[str]]:
    return [f.model_dump() for f in report.findings], report.valid, set(report.timings_ms)


def test_a_large_documents_packs_run_side_by_side_with_the_same_report(
    monkeypatch: pytest.MonkeyPatch, registry: Registry
) -> None:
    """From BESIDE_TAGS on (lowered here to every document) a saxon-java validator otherwise idle builds Saxon's
    tree beside the XSD stage and shares the packs' runs between two threads: the same findings in the same order,
    also with the XSD gate (the tree's thread is then cancelled), with rule errors and failed packs among them. With
    the thresholds as they are, a business case with a large attachment (420 KB, 709 tags) keeps to one thread, and
    12,000 empty notes (140 KB, a finding each) take two, with the same findings."""
    monkeypatch.setattr(validator_module, "_CORES", 2)
    started: list[int] = []
    beside = JavaEngine.beside

    def counted(self: JavaEngine, work: list[object]) -> java_module.Beside:
        started.append(len(work))
        return beside(self, work)  # type: ignore[arg-type]

    monkeypatch.setattr(JavaEngine, "beside", counted)
    one, two = (Validator(rules_home=registry.home, engine="saxon-java", parallel_packs=flag) for flag in (False, True))
    attachment = (CORPUS / "xrechnung-testsuite/business-cases/standard/03.07a-INVOICE_ubl.xml").read_bytes()
    assert len(attachment) > 400_000 and _full(two.validate(attachment)) == _full(one.validate(attachment))
    assert started == []
    notes = empty_notes(12_000)
    loads: list[str] = []
    load, load_utf8 = JavaEngine.load, JavaEngine.load_utf8
    monkeypatch.setattr(JavaEngine, "load", lambda self, *a, **k: loads.append("load") or load(self, *a, **k))
    monkeypatch.setattr(JavaEngine, "load_utf8", lambda self, data: loads.append("utf8") or load_utf8(self, data))
    many = two.validate(notes)
    assert loads == ["utf8"]  # the tree was started beside the limit checks, from the bytes, and taken
    assert _full(many) == _full(one.validate(notes)) and len(many.findings) >= 12_000
    assert started == [1, 1]  # the tree, then the runs
    monkeypatch.setattr(validator_module, "BESIDE_TAGS", 0)
    monkeypatch.setattr(validator_module, "_BESIDE_MIN_BYTES", 0)
    documents = [attachment] + [p.read_bytes() for p in BUSINESS_CASES[:4] + MUTATIONS[:40]]
    for gate in (False, True):
        one, two = (
            Validator(rules_home=registry.home, engine="saxon-java", xsd_gate=gate, parallel_packs=flag)
            for flag in (False, True)
        )
        started.clear()
        for data in documents:
            assert _full(two.validate(data)) == _full(one.validate(data))
        # each document: the tree beside the XSD stage, then (unless the XSD gate stopped it) the shared runs
        assert started.count(1) >= len(documents) and len(started) > len(documents)
    sources = {f.source for d in documents for f in one.validate(d).findings}
    assert len(sources) >= 3  # findings of XSD and of more than one pack were compared


def sleeping_work_is_cancelled() -> None:
    """(In a subprocess: tests/bounded.py.) A Beside cancelled while its work sleeps inside Java ends at once; the
    work after it never starts; result() raises what stopped it."""
    from einvoice_validate.schematron._java import Beside, start_jvm

    start_jvm()
    sleep = java_module._java().thread_class.sleep
    after: list[int] = []
    beside = Beside([lambda: sleep(600_000), lambda: after.append(1)])
    while beside._java is None:  # attached: from here on the stop reaches the work
        threading.Event().wait(0.01)
    beside.cancel(grace=60)
    assert not beside._thread.is_alive() and after == []
    with pytest.raises(Exception, match="ThreadDeath"):
        beside.result()


def a_stopped_waiter_cancels_its_beside() -> None:
    """(In a subprocess.) A runner stops an overrunning document by stopping its thread's Java thread: a thread
    waiting in Beside.result() for work sleeping inside Java gets the stop within a poll, and its cancel() ends the
    work too (as Validator._run does in its finally)."""
    from einvoice_validate.schematron._java import Beside, java_thread, start_jvm, stop_java_thread

    start_jvm()
    sleep = java_module._java().thread_class.sleep
    seen: list[object] = []
    helpers: list[Beside] = []
    ready = threading.Event()
    waiter_java: list[object] = []

    def wait() -> None:
        waiter_java.append(java_thread())
        beside = Beside([lambda: sleep(600_000)])
        helpers.append(beside)
        ready.set()
        try:
            beside.result()
        except Exception as exc:
            seen.append(exc)
        finally:
            beside.cancel(grace=60)
            java_module.detach_thread()

    waiter = threading.Thread(target=wait)
    waiter.start()
    ready.wait(60)
    stop_java_thread(waiter_java[0])
    waiter.join(60)
    assert not waiter.is_alive() and "ThreadDeath" in repr(seen)
    assert not helpers[0]._thread.is_alive()


@pytest.mark.parametrize("target", ["sleeping_work_is_cancelled", "a_stopped_waiter_cancels_its_beside"])
def test_work_beside_a_document_stops_with_it(target: str) -> None:
    run_bounded(f"tests.test_engines:{target}", timeout=120)


def test_a_pack_run_in_parts_gives_the_findings_of_the_whole(registry: Registry) -> None:
    """On saxon-java a skeleton stylesheet runs in parts of its patterns (the wrapper's part templates; the CEN
    packs' three patterns, one a part): read one after the other they give the whole run's findings, in its order
    (benchmarks/parts_proof.py: every installed pack on every corpus document of its syntax); a part that stops
    stops the pack with its own error, the first in order, as the whole run would have stopped there."""
    engine = JavaEngine()
    compared = 0
    for key, documents in (("en16931-ubl@1.3.16", MUTATIONS), ("en16931-cii@1.3.16", MUTATIONS)):
        stage = SchematronStage(registry.get(key), {}, engine)
        assert stage.parts == 3
        for path in documents:
            document = engine.load(InputDocument(path))
            whole = stage.findings(stage.output(document))
            assert stage.findings([stage.output(document, n) for n in range(3)]) == whole, path.name
            compared += len(whole)
    assert compared > 50
    first, second = StylesheetRuntimeError("FORG0001", "first"), StylesheetRuntimeError("XPTY0004", "second")
    document = engine.load(InputDocument(MUTATIONS[0]))
    stopped = stage.findings([stage.output(document, 0), second, stage.output(document, 2)])
    assert [f.rule_id for f in stopped] == [RUNTIME_ERROR] and "XPTY0004" in stopped[0].message.en
    both = stage.findings([first, second, stage.output(document, 2)])
    assert len(both) == 1 and "FORG0001" in both[0].message.en


def test_patterns_are_cut_into_at_most_three_parts_of_consecutive_patterns() -> None:
    def root(count: int) -> str:
        applies = "".join(f'<xsl:apply-templates mode="M{n}" select="/"/>' for n in range(count))
        return (
            f'<xsl:stylesheet xmlns:svrl="http://purl.oclc.org/dsdl/svrl"><xsl:template match="/">'
            f"<svrl:schematron-output>{applies}</svrl:schematron-output></xsl:template></xsl:stylesheet>"
        )

    assert pattern_parts(root(1)) == ()
    assert pattern_parts(root(2)) == (("M0",), ("M1",))
    assert pattern_parts(root(3)) == (("M0",), ("M1",), ("M2",))
    assert pattern_parts(root(13)) == tuple(
        tuple(f"M{n}" for n in part) for part in (range(5), range(5, 9), range(9, 13))
    )


def test_a_character_beyond_the_bmp_comes_back_from_java(engines: dict[str, Validator]) -> None:
    """U+10000 as an amount: Saxon-HE for Java names it in the SVRL (a rule's runtime error); the output crossed
    back through JPype's string conversion, which failed on it (UnicodeDecodeError: a crash, not a report). It now
    crosses as UTF-8 bytes: a report with the same findings as on saxonc (their rule ids: the runtime error's text
    is each engine's own)."""
    text = BUSINESS_CASES[0].read_text(encoding="utf-8")
    head, sep, tail = text.partition('<cbc:LineExtensionAmount currencyID="EUR">')
    data = (head + sep + "\U00010000" + tail[tail.index("<") :]).encode("utf-8")
    reports = {name: engines[name].validate(data) for name in ENGINES}
    assert [f.rule_id for f in reports["saxon-java"].findings] == [f.rule_id for f in reports["saxonc"].findings]
    assert RUNTIME_ERROR in {f.rule_id for f in reports["saxon-java"].findings}


def test_the_two_threads_take_a_documents_longest_runs_first() -> None:
    from einvoice_validate.validator import _longest_first

    units = [(0, 0), (0, 1), (0, 2), (1, None)]
    sources = ["en16931-ubl@1.3.16", "xrechnung-ubl@2.6.0"]
    # nothing measured yet: the pack that runs whole first, then the parts in the packs' order
    assert _longest_first(units, sources, {}) == [(1, None), (0, 0), (0, 1), (0, 2)]
    took = {("en16931-ubl@1.3.16", 0): 110.0, ("en16931-ubl@1.3.16", 1): 70.0, ("en16931-ubl@1.3.16", 2): 25.0}
    took[("xrechnung-ubl@2.6.0", None)] = 60.0
    assert _longest_first(units, sources, took) == [(0, 0), (0, 1), (1, None), (0, 2)]


def collections_stay_apart() -> None:
    """(In a subprocess.) Started as the engine starts it, the JVM's collections are no longer coupled to Python's:
    JPype's callback is out of ``gc.callbacks`` (:func:`unlink_collectors`). The control: with the callback put back
    (and its "inside a collection" mark cleared, as the end of a Python collection clears it), a collection of the
    JVM sets off a full Python collection on JPype's own thread: the work the engine's start takes away."""
    import gc

    import _jpype
    import jpype

    from einvoice_validate.schematron._java import start_jvm, unlink_collectors

    start_jvm()
    assert not any(callback is _jpype._collect for callback in gc.callbacks)
    assert unlink_collectors() is False, "already apart"
    full: list[str] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2 and threading.current_thread() is not threading.main_thread():
            full.append(threading.current_thread().name)

    gc.callbacks.append(watch)
    gc.callbacks.append(_jpype._collect)  # the control: coupled again
    _jpype._collect("stop", {})
    jpype.JClass("java.lang.System").gc()
    while not full:  # (bounded by the parent: run_bounded)
        threading.Event().wait(0.05)


def test_a_collection_of_the_jvm_sets_off_no_full_python_collection() -> None:
    run_bounded("tests.test_engines:collections_stay_apart", timeout=120)
