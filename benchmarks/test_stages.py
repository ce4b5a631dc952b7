"""Micro benchmarks per stage on one XRechnung UBL business case (run with ``make bench``).

Absolute figures drift between machines; issue-level speed targets are ratios against the reference measured
in the same run, not these numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from einvoice_validate import Validator
from einvoice_validate.parse import load
from einvoice_validate.schematron._saxon import parse_document
from tests.conftest import CORPUS

DOC = CORPUS / "xrechnung-testsuite/business-cases/standard/01.01a-INVOICE_ubl.xml"


@pytest.fixture(scope="module")
def data() -> bytes:
    return Path(DOC).read_bytes()


def test_parse(benchmark: BenchmarkFixture, data: bytes) -> None:
    benchmark(load, data)


def test_xsd(benchmark: BenchmarkFixture, validator: Validator, data: bytes) -> None:
    doc = load(data)
    stages = validator._stages_for(validator.profiles[0])
    benchmark(stages.xsd.run, doc)


def test_saxon_parse(benchmark: BenchmarkFixture, data: bytes) -> None:
    text = load(data).text()
    benchmark(parse_document, text)


@pytest.mark.parametrize("index", [0, 1], ids=["en16931-ubl@1.3.15", "xrechnung-ubl@2.5.0"])
def test_schematron_pack(benchmark: BenchmarkFixture, validator: Validator, data: bytes, index: int) -> None:
    stage = validator._stages_for(validator.profiles[0]).schematron[index]
    node = parse_document(load(data).text())
    benchmark(stage.run, node)


def test_whole_validation(benchmark: BenchmarkFixture, validator: Validator, data: bytes) -> None:
    report = benchmark(validator.validate, data)
    assert report.accepted
