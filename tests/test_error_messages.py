"""Every error on a hostile or malformed input says its specific cause first, one sentence in English and one in
German, and the code after it (text report, CLI); the code's general meaning is no longer put in front."""

from __future__ import annotations

import io
import json
from datetime import date
from pathlib import Path

import pytest

from einvoice_validate import EInvoiceValidateError, InputError, Limits, Validator
from einvoice_validate.cli import main
from einvoice_validate.errors import Detail, message_for_code
from einvoice_validate.profiles import parse_rules_date
from einvoice_validate.reports.words import error_message, sentence
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron.engines import engine_rejects
from tests import hostile
from tests.facturx_pdf import bomb, make_pdf
from tests.input.test_not_xml import CASES as NOT_XML
from tests.input.test_types import CASES as NOT_AN_INVOICE

LIMITS = Limits(max_document_bytes=1_000_000, max_elements=1_000, max_attribute_length=4_096, max_text_length=100_000)


def _attribute() -> bytes:
    text = hostile.GOOD_UBL.read_text(encoding="utf-8")
    return text.replace('schemeID="EM"', 'schemeID="' + "E" * 5_000 + '"', 1).encode()


CASES: dict[str, bytes] = {
    **{f"not-xml/{name}": data for name, (data, _) in NOT_XML.items()},
    **{f"not-an-invoice/{name}": data for name, (data, _) in NOT_AN_INVOICE.items()},
    "billion-laughs": hostile.BILLION_LAUGHS,
    "quadratic-blowup": hostile.QUADRATIC_BLOWUP,
    "xinclude": b'<x xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="/etc/passwd"/></x>',
    "nested": hostile.nested(200),
    "too-many-elements": b"<Invoice>" + b"<a/>" * 2_000 + b"</Invoice>",
    "long-attribute": _attribute(),
    "long-text": hostile.with_attachment(1),
    "too-many-bytes": b"<a>" + b"x" * 1_000_001 + b"</a>",
    "latin1-declared-utf8": hostile.with_declaration(hostile.invoice_body(), "iso-8859-1", declared="UTF-8"),
    "utf8-declared-utf16": hostile.with_declaration(hostile.invoice_body(), "utf-8", declared="UTF-16"),
    "unknown-encoding": hostile.with_declaration(hostile.invoice_body(), "utf-8", declared="X-KLINGON-1"),
    "no-root": b'<?xml version="1.0"?><!-- nothing -->',
    "pdf/not-readable": b"%PDF-1.7\nthis is no PDF",
    "pdf/no-invoice": make_pdf([("other.txt", b"x")]),
    "pdf/two-invoices": make_pdf([("factur-x.xml", b"<a/>"), ("Factur-X.xml", b"<b/>")]),
    "pdf/encrypted": make_pdf([("factur-x.xml", b"<a/>")], encrypt=True),
    "pdf/lzw": make_pdf([("factur-x.xml", b"<a/>")], raw_filter="LZWDecode"),
    "pdf/bomb": make_pdf([("factur-x.xml", bomb(2_000_000))], raw_filter="FlateDecode"),
    "pdf/deep-tree": make_pdf([("factur-x.xml", b"<a/>")], name_tree_depth=40),
    "pdf/zugferd-1": make_pdf([("ZUGFeRD-invoice.xml", b"<a/>")]),
    "pdf/envelope-inside": make_pdf([("factur-x.xml", hostile.sbdh(hostile.invoice_body(hostile.GOOD_CII)))]),
}


@pytest.fixture(scope="module")
def validator_(registry: Registry) -> Validator:
    return Validator(rules_home=registry.home, limits=LIMITS)


def assert_specific_first(error: EInvoiceValidateError) -> None:
    """The message is the detail as a sentence in each language (German where the library wrote it): not the
    code's general sentence, and a German sentence for every detail the library writes."""
    message, general = error.message, message_for_code(error.code)
    assert message.en == sentence(error.detail), error.detail
    assert sentence(error.detail) not in message.de, f"no German for the detail {error.detail!r}"
    for text, meaning in ((message.en, general.en), (message.de, general.de)):
        assert meaning not in text and not text[0].islower() and text.endswith((".", "?", "!")), text
    assert error.to_dict()["message"] == message.model_dump(mode="json")


@pytest.mark.parametrize("case", CASES)
def test_the_specific_cause_first_in_both_languages(case: str, validator_: Validator) -> None:
    with pytest.raises(InputError) as info:
        validator_.validate(CASES[case])
    assert_specific_first(info.value)


@pytest.mark.parametrize(
    "source",
    [io.StringIO("<Invoice/>"), 3.5, "<Invoice>looks like XML</Invoice>", "/no/such/invoice.xml"],
    ids=["text-stream", "type", "xml-as-str", "missing-file"],
)
def test_unreadable_sources_too(source: object, validator_: Validator) -> None:
    with pytest.raises(InputError) as info:
        validator_.validate(source)  # type: ignore[arg-type]
    assert info.value.code == "request.unreadable"
    assert_specific_first(info.value)


def test_the_profile_and_rules_date_errors_too(validator_: Validator) -> None:
    calls: list[dict[str, object]] = [
        {"profile": "nope"},
        {"profile": "xrechnung-3.0-ubl-invoice"},  # for the other syntax
        {"profile": "en16931-cii", "rules_date": date(1999, 1, 1)},  # before CEN 1.3.15 came into force
    ]
    for kwargs in calls:
        with pytest.raises(EInvoiceValidateError) as info:
            validator_.validate(hostile.GOOD_CII, **kwargs)  # type: ignore[arg-type]
        assert_specific_first(info.value)
    with pytest.raises(EInvoiceValidateError) as info:
        parse_rules_date("2026-13-01")
    assert_specific_first(info.value)


@pytest.mark.parametrize(
    "error",
    [
        engine_rejects("Content is not allowed in prolog."),
        InputError("document.unreadable", Detail("detail.null-document", "xml")),  # as spark.py raises them
        InputError("document.unreadable", Detail("detail.unencodable", repr("€"), 12, "us-ascii")),
    ],
    ids=["engine-parser", "spark-null", "spark-encoding"],
)
def test_the_details_of_the_engines_and_spark_too(error: InputError) -> None:
    assert_specific_first(error)


def test_a_detail_without_german_keeps_the_code_s_meaning_after_it() -> None:
    message = error_message("document.unreadable", "libfoo says: bad thing")
    assert message.en == "Libfoo says: bad thing."
    assert message.de == "Libfoo says: bad thing. " + message_for_code("document.unreadable").de
    assert error_message("server.error", "") == message_for_code("server.error")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_text_report_and_json_rows(lang: str, registry: Registry, tmp_path: Path) -> None:
    names = ["not-xml/empty", "not-xml/unclosed-tag", "billion-laughs", "not-an-invoice/ubl-order", "pdf/encrypted"]
    files = []
    for n, name in enumerate(names):
        files.append(tmp_path / f"{n}.{'pdf' if name.startswith('pdf/') else 'xml'}")
        files[-1].write_bytes(CASES[name])
    out = io.StringIO()
    args = ["validate", "--home", str(registry.home), "--workers", "1", "--lang", lang, *map(str, files)]
    assert main(args, stdout=out, stderr=io.StringIO()) == 2
    lines = [line for line in out.getvalue().splitlines() if ": NOT VALIDATED: " in line or "NICHT GEPRÜFT: " in line]
    assert len(lines) == len(files)
    label = "NICHT GEPRÜFT" if lang == "de" else "NOT VALIDATED"
    jsonl = io.StringIO()
    main([*args, "--format", "jsonl"], stdout=jsonl, stderr=io.StringIO())
    for path, line, row in zip(files, lines, jsonl.getvalue().splitlines(), strict=True):
        error = json.loads(row)["error"]
        assert line == f"{path}: {label}: {error['message'][lang]} ({error['code']})"
        assert error["message"]["en"] == sentence(error["detail"])
