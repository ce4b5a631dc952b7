"""Oversized documents: ``invoice.too-large`` before parsing, for paths, bytes and streams; the limit is
configurable and a stream is never read further than the limit plus one byte."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from einvoice_validate import DEFAULT_LIMITS, InputError, Limits, Validator
from einvoice_validate.cli import main
from einvoice_validate.rulesets import Registry
from tests.hostile import GOOD_UBL


class CountingStream(io.RawIOBase):
    """An endless stream of spaces that counts what was read from it."""

    def __init__(self) -> None:
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = len(buffer)
        buffer[:n] = b" " * n
        self.served += n
        return n


def test_default_limit_is_documented() -> None:
    assert DEFAULT_LIMITS.max_document_bytes == 100 * 1024 * 1024
    assert "max_document_bytes" in (Limits.__doc__ or "")


@pytest.mark.parametrize("kind", ["bytes", "path", "stream"])
def test_over_the_limit_is_too_large(kind: str, tmp_path: Path) -> None:
    data = GOOD_UBL.read_bytes()
    limits = Limits(max_document_bytes=len(data) - 1)
    source: object
    if kind == "bytes":
        source = data
    elif kind == "path":
        source = tmp_path / "big.xml"
        source.write_bytes(data)
    else:
        source = io.BytesIO(data)
    with pytest.raises(InputError) as info:
        Validator(limits=limits).validate(source)  # type: ignore[arg-type]
    assert info.value.code == "invoice.too-large"
    assert str(len(data) - 1) in info.value.detail


def test_at_the_limit_is_validated() -> None:
    data = GOOD_UBL.read_bytes()
    report = Validator(limits=Limits(max_document_bytes=len(data))).validate(data)
    assert report.valid


def test_endless_stream_is_cut_at_the_limit() -> None:
    stream = CountingStream()
    limits = Limits(max_document_bytes=1_000_000)
    with pytest.raises(InputError) as info:
        Validator(limits=limits).validate(io.BufferedReader(stream))
    assert info.value.code == "invoice.too-large"
    # The buffered reader may read ahead one buffer, never the whole stream.
    assert stream.served <= limits.max_document_bytes + 1 + io.DEFAULT_BUFFER_SIZE


def test_cli_reports_too_large_with_exit_2(
    registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.xml"
    with big.open("wb") as fh:
        fh.truncate(DEFAULT_LIMITS.max_document_bytes + 1)  # sparse: no 100 MB written
    assert main(["--home", str(registry.home), "validate", str(big), "--format", "jsonl"]) == 2
    out = capsys.readouterr().out
    assert '"invoice.too-large"' in out
