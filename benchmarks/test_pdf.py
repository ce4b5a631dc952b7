"""Micro benchmarks of PDF input (run with ``make bench``): extracting the invoice from a ZUGFeRD / Factur-X PDF of
the corpus, and the whole validation of that PDF. ``benchmarks/pdf_input.py`` prints the per-document table for
every corpus PDF and the code-db inlining comparison."""

from __future__ import annotations

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from einvoice_validate import Validator
from einvoice_validate.envelopes.pdf import extract_invoice
from tests.conftest import CORPUS

PDFS = {
    "basicwl": CORPUS / "zugferd/mustang-validator/validAvoir_FR_type380_BASICWL.pdf",
    "en16931-277k": CORPUS / "zugferd/mustang-validator/Facture_F20180027.pdf",
    "repaired": CORPUS / "zugferd/mustang-validator/corruptedV2PDF.pdf",
}


@pytest.fixture(scope="module", params=sorted(PDFS))
def pdf(request: pytest.FixtureRequest) -> bytes:
    return PDFS[request.param].read_bytes()


@pytest.mark.benchmark(group="pdf-extract")
def test_extract(benchmark: BenchmarkFixture, pdf: bytes) -> None:
    xml, envelope = benchmark(extract_invoice, pdf)
    assert xml and envelope.attachment


@pytest.mark.benchmark(group="pdf-validate")
def test_validate_pdf(benchmark: BenchmarkFixture, validator: Validator, pdf: bytes) -> None:
    report = benchmark(validator.validate, pdf)
    assert report.envelope == "pdf"
