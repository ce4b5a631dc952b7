"""Micro benchmarks per stage on XRechnung UBL business cases (run with ``make bench``): a typical one and the
largest (410 KiB: 400 KB of it an embedded PDF, which reaches Saxon cut short, or in full through a temporary
file, see ``schematron._saxon.to_saxon``).

Absolute figures drift between machines; issue-level speed targets are ratios against the reference measured
in the same run, not these numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from einvoice_validate import Validator
from einvoice_validate.parse import load
from einvoice_validate.schematron._saxon import to_saxon
from einvoice_validate.schematron.svrl import parse_svrl
from tests.conftest import CORPUS

CASES = CORPUS / "xrechnung-testsuite/business-cases/standard"
DOCS = {"01.01a": CASES / "01.01a-INVOICE_ubl.xml", "03.07a-large": CASES / "03.07a-INVOICE_ubl.xml"}


@pytest.fixture(scope="module", params=sorted(DOCS))
def data(request: pytest.FixtureRequest) -> bytes:
    return Path(DOCS[request.param]).read_bytes()


def test_parse(benchmark: BenchmarkFixture, data: bytes) -> None:
    benchmark(load, data)


def test_xsd(benchmark: BenchmarkFixture, validator: Validator, data: bytes) -> None:
    doc = load(data)
    stages = validator._stages_for(validator.profiles[0])
    benchmark(stages.xsd.run, doc)


@pytest.mark.parametrize("slim", [True, False], ids=["attachments-cut", "full"])
def test_saxon_parse(benchmark: BenchmarkFixture, data: bytes, slim: bool) -> None:
    benchmark(to_saxon, load(data), slim_attachments=slim)


@pytest.mark.parametrize("index", [0, 1], ids=["en16931-ubl@1.3.15", "xrechnung-ubl@2.5.0"])
def test_schematron_pack(benchmark: BenchmarkFixture, validator: Validator, data: bytes, index: int) -> None:
    stage = validator._stages_for(validator.profiles[0]).schematron[index]
    benchmark(stage.run, to_saxon(load(data), slim_attachments=True))


@pytest.mark.parametrize("index", [0, 1], ids=["en16931-ubl@1.3.15", "xrechnung-ubl@2.5.0"])
def test_svrl_read(benchmark: BenchmarkFixture, validator: Validator, data: bytes, index: int) -> None:
    stage = validator._stages_for(validator.profiles[0]).schematron[index]
    benchmark(parse_svrl, stage._stylesheet.run(to_saxon(load(data), slim_attachments=True)))


def test_whole_validation(benchmark: BenchmarkFixture, validator: Validator, data: bytes) -> None:
    report = benchmark(validator.validate, data)
    assert report.accepted
