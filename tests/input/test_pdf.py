"""PDF input (ZUGFeRD / Factur-X): hostile and broken PDFs written here give the API's codes with a clear detail,
never a hang, a crash or a silent pass; the envelope checks; every entry point (library, CLI, batch, server)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from einvoice_validate import InputError, Report, Validator
from einvoice_validate.limits import Limits
from tests.bounded import run_bounded
from tests.conftest import CORPUS
from tests.facturx_pdf import bomb, make_pdf, xmp
from tests.hostile import pdf_with_streams

EN16931_XML = (CORPUS / "zugferd" / "ferd-examples" / "en16931" / "factur-x-1.xml").read_bytes()
MINIMUM_XML = (CORPUS / "zugferd" / "ferd-examples" / "minimum" / "factur-x-1.xml").read_bytes()
ZUGFERD_1_PDF = CORPUS / "zugferd" / "mustang-library" / "zugferd_invoice.pdf"


@pytest.fixture(scope="module")
def validator_() -> Validator:
    return Validator()


def _error(validator: Validator, data: bytes) -> InputError:
    with pytest.raises(InputError) as info:  # never a hang: test_hostile_pdfs_end_in_a_bounded_subprocess
        validator.validate(data)
    error = info.value
    assert error.message.en and error.message.de and error.detail
    return error


def _envelope_ids(report: Report) -> list[tuple[str, str]]:
    return sorted((f.rule_id, f.severity.value) for f in report.findings if f.rule_id.startswith("facturx.pdf."))


def test_a_good_pdf_is_validated_as_its_embedded_invoice(validator_: Validator) -> None:
    report = validator_.validate(make_pdf([("factur-x.xml", EN16931_XML)], metadata=xmp()))
    assert report.envelope == "pdf" and report.profile == "zugferd-en16931" and report.valid
    assert report.pdf is not None and report.pdf.attachment == "factur-x.xml"
    assert report.pdf.relationship == "Alternative" and report.pdf.pdfa == "3B"
    assert _envelope_ids(report) == []


def test_attachment_names_in_order_and_case(validator_: Validator) -> None:
    data = make_pdf([("xrechnung.xml", b"<x/>"), ("ZUGFeRD-Invoice.XML", EN16931_XML)], metadata=xmp(file_name="x"))
    report = validator_.validate(data)
    assert report.pdf is not None and report.pdf.attachment == "ZUGFeRD-Invoice.XML", "zugferd-invoice.xml first"
    assert ("facturx.pdf.attachment-name", "ERROR") in _envelope_ids(report)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"metadata": xmp(level="EXTENDED")}, [("facturx.pdf.xmp-profile", "ERROR")]),
        ({"metadata": xmp(level=None)}, [("facturx.pdf.xmp-profile", "ERROR")]),
        ({"metadata": None}, [("facturx.pdf.pdfa", "WARNING"), ("facturx.pdf.xmp-profile", "ERROR")]),
        ({"metadata": xmp(file_name="invoice.xml")}, [("facturx.pdf.attachment-name", "ERROR")]),
        ({"metadata": xmp(), "relationship": "Unspecified"}, [("facturx.pdf.relationship", "ERROR")]),
        ({"metadata": xmp(), "relationship": None}, [("facturx.pdf.relationship", "WARNING")]),
        ({"metadata": xmp(part="2")}, [("facturx.pdf.pdfa", "WARNING")]),
        ({"metadata": xmp(part=None)}, [("facturx.pdf.pdfa", "WARNING")]),
    ],
)
def test_envelope_checks(validator_: Validator, kwargs: dict[str, object], expected: list[tuple[str, str]]) -> None:
    report = validator_.validate(make_pdf([("factur-x.xml", EN16931_XML)], **kwargs))  # type: ignore[arg-type]
    assert _envelope_ids(report) == expected
    for finding in report.findings:
        if finding.rule_id.startswith("facturx.pdf."):
            assert finding.message.en != finding.message.de and finding.stage == "input"


def test_the_xmp_profile_matches_the_guideline_id(validator_: Validator) -> None:
    report = validator_.validate(make_pdf([("factur-x.xml", MINIMUM_XML)], metadata=xmp(level="MINIMUM")))
    assert report.profile == "zugferd-minimum" and _envelope_ids(report) == []
    report = validator_.validate(make_pdf([("factur-x.xml", MINIMUM_XML)], metadata=xmp(level="EN 16931")))
    [finding] = [f for f in report.findings if f.rule_id == "facturx.pdf.xmp-profile"]
    assert "'EN 16931'" in finding.message.en and "'MINIMUM'" in finding.message.de


HOSTILE = [
    ("no invoice", lambda: make_pdf([("invoice.txt", b"hello")]), "document.unsupported-type", "pdf-no-invoice"),
    ("no attachment", lambda: make_pdf([]), "document.unsupported-type", "pdf-no-invoice"),
    (
        "two invoices",
        lambda: make_pdf([("factur-x.xml", EN16931_XML), ("factur-x.xml", MINIMUM_XML)]),
        "document.unsupported-type",
        "pdf-several-invoices",
    ),
    (
        "encrypted",
        lambda: make_pdf([("factur-x.xml", EN16931_XML)], encrypt=True),
        "document.unreadable",
        "pdf-encrypted",
    ),
    (
        "unsupported filter",
        lambda: make_pdf([("factur-x.xml", EN16931_XML)], raw_filter="LZWDecode"),
        "document.unreadable",
        "pdf-filter",
    ),
    (
        "broken deflate",
        lambda: make_pdf([("factur-x.xml", b"not deflated")], raw_filter="FlateDecode"),
        "document.unreadable",
        "pdf-unreadable",
    ),
    (
        "deep name tree",
        lambda: make_pdf([("factur-x.xml", EN16931_XML)], name_tree_depth=40),
        "document.unreadable",
        "pdf-structure",
    ),
    ("not a pdf at all", lambda: b"%PDF-1.7\n" + b"\x00garbage" * 100, "document.unreadable", "pdf-unreadable"),
    ("attachment is not xml", lambda: make_pdf([("factur-x.xml", b"%PDF-1.4 no")]), "document.unreadable", None),
    ("zugferd 1.0", ZUGFERD_1_PDF.read_bytes, "document.unsupported-type", "zugferd-1"),
]


@pytest.mark.parametrize(("name", "make", "code", "reason"), HOSTILE)
def test_hostile_pdfs(validator_: Validator, name: str, make: object, code: str, reason: str | None) -> None:
    error = _error(validator_, make())  # type: ignore[operator]
    assert error.code == code, error.detail
    if reason is not None:
        assert error.reason == reason, error.detail


def test_decompression_bomb_stops_at_the_limit() -> None:
    small = Validator(limits=Limits(max_document_bytes=2 * 1024 * 1024))
    data = make_pdf([("factur-x.xml", bomb(64 * 1024 * 1024))], raw_filter="FlateDecode")
    assert len(data) < 200_000
    error = _error(small, data)
    assert (error.code, error.reason) == ("invoice.too-large", "attachment-bytes")


def test_huge_attachment_stops_at_the_limit() -> None:
    small = Validator(limits=Limits(max_document_bytes=1024 * 1024))
    payload = EN16931_XML + b"<!--" + b"x" * (1100 * 1024) + b"-->"
    data = make_pdf([("factur-x.xml", payload)])  # compressed well below the limit, over it once inflated
    assert len(data) < 1024 * 1024
    error = _error(small, data)
    assert (error.code, error.reason) == ("invoice.too-large", "attachment-bytes")


def test_a_broken_cross_reference_table_is_repaired(validator_: Validator) -> None:
    data = make_pdf([("factur-x.xml", EN16931_XML)], metadata=xmp())
    start = data.rindex(b"startxref")
    broken = data[:start] + b"startxref\n999999\n%%EOF\n"  # a wrong offset: qpdf rebuilds the table
    report = validator_.validate(broken)
    assert report.profile == "zugferd-en16931" and report.valid
    without = data[: data.rindex(b"xref")]  # no table, no trailer at all
    try:
        report = validator_.validate(without)
    except InputError as exc:  # a file qpdf cannot recover is unreadable, never a crash
        assert exc.code == "document.unreadable"
    else:
        assert report.envelope == "pdf"


def test_deeply_nested_objects(validator_: Validator) -> None:
    depth = 100_000
    body = b"[" * depth + b"]" * depth
    data = (
        b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names "
        + body
        + b" >> >> >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
        + b"trailer\n<< /Root 1 0 R >>\n%%EOF\n"
    )
    error = _error(validator_, data)
    assert error.code in ("document.unreadable", "document.unsupported-type")


def test_the_embedded_xml_goes_through_the_hardened_parser(validator_: Validator) -> None:
    evil = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'
    error = _error(validator_, make_pdf([("factur-x.xml", evil)]))
    assert (error.code, error.reason) == ("document.unreadable", "doctype")


def refusals(folder: str) -> None:
    """Run by :func:`test_hostile_pdfs_end_in_a_bounded_subprocess`: prints each PDF's error as JSON."""
    limits = json.loads((Path(folder) / "limits.json").read_text(encoding="utf-8"))
    out = {}
    for name, limit in limits.items():
        validator = Validator(limits=Limits(max_document_bytes=limit)) if limit else Validator()
        try:
            validator.validate(Path(folder) / f"{name}.pdf")
            out[name] = None
        except InputError as exc:
            out[name] = [exc.code, exc.reason]
    print(json.dumps(out))


def test_hostile_pdfs_end_in_a_bounded_subprocess(tmp_path: Path) -> None:
    """Every hostile PDF above, the bomb and the deep nesting included, is refused in one subprocess bounded in time
    (two minutes for all, each takes well under a second) and address space: none hangs or eats the memory."""
    cases: dict[str, tuple[bytes, int | None, str]] = {n: (make(), None, code) for n, make, code, _ in HOSTILE}  # type: ignore[operator]
    cases["bomb"] = (
        make_pdf([("factur-x.xml", bomb(64 * 1024 * 1024))], raw_filter="FlateDecode"),
        2 << 20,
        "invoice.too-large",
    )
    cases["nested"] = (
        b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Names "
        + b"[" * 100_000
        + b"]" * 100_000
        + b" >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
        None,
        "",
    )
    for name, (data, _, _) in cases.items():
        (tmp_path / f"{name}.pdf").write_bytes(data)
    (tmp_path / "limits.json").write_text(
        json.dumps({n: limit for n, (_, limit, _) in cases.items()}), encoding="utf-8"
    )
    got = json.loads(run_bounded("tests.input.test_pdf:refusals", str(tmp_path), timeout=120, memory_bytes=3 << 30))
    assert set(got) == set(cases) and all(got[n] is not None for n in cases), got
    assert {n: got[n][0] for n in cases if cases[n][2]} == {n: code for n, (_, _, code) in cases.items() if code}


def test_pdf_by_path_and_file_object(validator_: Validator, tmp_path: Path) -> None:
    data = make_pdf([("factur-x.xml", EN16931_XML)], metadata=xmp())
    path = tmp_path / "invoice.pdf"
    path.write_bytes(data)
    assert validator_.validate(path).envelope == "pdf"
    assert validator_.validate(str(path)).envelope == "pdf"
    assert validator_.validate(io.BytesIO(data)).envelope == "pdf"


def test_cli_picks_up_pdfs_in_directories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from einvoice_validate.cli import main

    (tmp_path / "a.pdf").write_bytes(make_pdf([("factur-x.xml", EN16931_XML)], metadata=xmp()))
    (tmp_path / "b.xml").write_bytes(EN16931_XML)
    (tmp_path / "c.txt").write_bytes(b"ignored")
    assert main(["validate", "--format", "jsonl", "--workers", "1", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert '"envelope": "pdf"' in lines[0] and '"profile": "zugferd-en16931"' in lines[0]
    assert '"profile": "en16931-cii"' in lines[1]


def test_batch_passes_pdf_bytes_through() -> None:
    from einvoice_validate.pool.batch import validate_many

    data = make_pdf([("factur-x.xml", MINIMUM_XML)], metadata=xmp(level="MINIMUM"))
    results = validate_many([data, data], workers=2)
    assert [r.report.profile if r.report else r.error for r in results] == ["zugferd-minimum"] * 2
    assert all(r.report is not None and r.report.pdf is not None for r in results)


def test_server_accepts_application_pdf() -> None:
    from einvoice_validate.pool import Pool
    from einvoice_validate.server import ServerSettings, create_app
    from tests.test_server import VALIDATE, call

    data = make_pdf([("factur-x.xml", MINIMUM_XML)], metadata=xmp(level="MINIMUM"))
    with Pool(workers=1, prepare=("zugferd-minimum",)) as pool:
        app = create_app(ServerSettings(), pool=pool)
        r = call(app, "POST", VALIDATE, content=data, headers={"Content-Type": "application/pdf"})
        assert r.status_code == 200, r.text
        body = r.json()
        assert (body["profile"], body["envelope"], body["pdf"]["attachment"]) == (
            "zugferd-minimum",
            "pdf",
            "factur-x.xml",
        )
        r = call(app, "POST", VALIDATE, content=make_pdf([]), headers={"Content-Type": "application/pdf"})
        assert r.status_code == 415 and r.json()["code"] == "document.unsupported-type"


# --- issue 40: XMP that cannot be read, and a conformance level spelled wrong ------------------------------------


@pytest.mark.parametrize(
    ("metadata", "said"),
    [
        (xmp().replace(b"</x:xmpmeta>", b"</x:xmpmet>"), "not well-formed XML at line 1"),
        (b'<!DOCTYPE x SYSTEM "/etc/passwd">' + xmp(), "DOCTYPE"),
        (xmp()[:-40], "not well-formed XML"),
    ],
    ids=["not-well-formed", "doctype", "cut-short"],
)
def test_unreadable_xmp_is_reported_for_what_it_is(validator_: Validator, metadata: bytes, said: str) -> None:
    """It declares the profile, but cannot be read: not "the XMP does not declare the profile"."""
    # written as given (pikepdf's own save would replace XMP it cannot parse)
    report = validator_.validate(pdf_with_streams(EN16931_XML, {}, metadata))
    assert _envelope_ids(report) == [("facturx.pdf.xmp-unreadable", "ERROR")]
    finding = next(f for f in report.findings if f.rule_id == "facturx.pdf.xmp-unreadable")
    assert said in finding.message.en and said in finding.message.de
    assert finding.message.de.startswith("Die XMP-Metadaten des PDF sind nicht lesbar")
    assert report.pdf is not None and report.pdf.xmp_error is not None
    assert "xmpError" in report.model_dump(mode="json", by_alias=True)["pdf"]


@pytest.mark.parametrize("level", ["BASICWL", "basic wl", "EN16931", "Comfort"])
def test_a_conformance_level_factur_x_does_not_allow_is_reported(validator_: Validator, level: str) -> None:
    """Mustang reports BASICWL as an invalid value; it passed silently (the comparison ignored spaces)."""
    report = validator_.validate(make_pdf([("factur-x.xml", EN16931_XML)], metadata=xmp(level=level)))
    assert _envelope_ids(report) == [("facturx.pdf.xmp-profile", "ERROR")]
    finding = next(f for f in report.findings if f.rule_id == "facturx.pdf.xmp-profile")
    assert f"'{level}'" in finding.message.en and "BASIC WL" in finding.message.en
    assert "keiner der Werte" in finding.message.de


def test_a_readable_xmp_gives_no_xmp_error(validator_: Validator) -> None:
    report = validator_.validate(make_pdf([("factur-x.xml", EN16931_XML)], metadata=xmp()))
    assert report.pdf is not None and report.pdf.xmp_error is None
    assert "xmpError" not in report.model_dump(mode="json", by_alias=True)["pdf"]
