"""Batch validation: input order, same findings as one process, per-document errors, a dying worker, loud
ruleset errors, bounded look-ahead, clean shutdown."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from einvoice_validate import (
    BatchResult,
    BatchValidator,
    ProfileError,
    RulesetError,
    Validator,
    iter_validate,
    validate_many,
)
from einvoice_validate.batch import _WINDOW_PER_WORKER, TEST_CRASH_ENV, WORKER_CRASHED, _choose, sniff_syntax
from einvoice_validate.parse import Source
from einvoice_validate.rulesets import Registry
from tests.conftest import CORPUS

pytestmark = pytest.mark.corpus

REPO = Path(__file__).resolve().parents[1]
GOOD = REPO / "examples" / "xrechnung-ubl-invoice.xml"
BROKEN = REPO / "examples" / "xrechnung-ubl-broken.xml"
GOOD_CII = REPO / "examples" / "xrechnung-cii-invoice.xml"


def _sample(n: int) -> list[Path]:
    """UBL and CII XRechnung cases and mutated (invalid) files, interleaved: several profiles, many findings."""
    good = sorted((CORPUS / "xrechnung-testsuite").rglob("*.xml"))
    bad = sorted((CORPUS / "mutations-dev").glob("*.xml"))
    assert len(good) >= n and len(bad) >= n, "the shared corpus is incomplete"
    mixed = [
        p for pair in zip(good[:: max(1, len(good) // n)], bad[:: max(1, len(bad) // n)], strict=False) for p in pair
    ]
    return mixed[:n]


def _findings(result: BatchResult) -> list[dict[str, Any]]:
    assert result.report is not None, result.error
    return [f.model_dump(mode="json", by_alias=True) for f in result.report.findings]


def _live_children() -> set[int] | None:
    """The pids of this process's children (Linux), or None when /proc cannot tell."""
    path = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
    if not path.exists():
        return None
    return {int(pid) for pid in path.read_text().split()}


def test_input_order_and_same_findings_as_one_process(registry: Registry, validator: Validator) -> None:
    files = _sample(30)
    results = list(iter_validate(files, workers=2, rules_home=registry.home))
    assert [r.index for r in results] == list(range(len(files)))
    assert [r.source for r in results] == [str(f) for f in files]
    assert sum(1 for r in results if r.report is not None and not r.report.valid) >= 10  # the mutations
    for path, result in zip(files, results, strict=True):
        expected = validator.validate(path)
        assert result.error is None
        assert result.report is not None
        assert result.report.profile == expected.profile
        assert (result.report.valid, result.report.accepted) == (expected.valid, expected.accepted)
        assert _findings(result) == [f.model_dump(mode="json", by_alias=True) for f in expected.findings], path


@pytest.mark.parametrize("workers", [1, 2])
def test_bad_inputs_are_per_document_errors(registry: Registry, tmp_path: Path, workers: int) -> None:
    sources: list[Any] = [
        GOOD,
        b"%PDF-1.7 not xml",
        tmp_path / "missing.xml",
        GOOD.read_bytes(),
        io.BytesIO(BROKEN.read_bytes()),
        io.StringIO("<Invoice/>"),  # a text stream
        12345,  # not a source at all
        b"<html/>",
        str(BROKEN),
    ]
    results = validate_many(sources, workers=workers, rules_home=registry.home)
    codes = [r.error.code if r.error else None for r in results]
    assert codes == [
        None,
        "document.unreadable",
        "request.unreadable",
        None,
        None,
        "request.unreadable",
        "request.unreadable",
        "document.unsupported-type",
        None,
    ]
    assert [r.valid for r in results] == [True, False, False, True, False, False, False, False, False]
    assert [r.source for r in results][:4] == [str(GOOD), "#1", str(tmp_path / "missing.xml"), "#3"]
    assert all((r.report is None) != (r.error is None) for r in results)


def test_a_dying_worker_costs_only_its_document(
    registry: Registry, validator: Validator, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _sample(12)
    victim = files[5]
    monkeypatch.setenv(TEST_CRASH_ENV, victim.name)  # test-only hook: the worker holding it calls os._exit(70)
    results = list(iter_validate(files, workers=2, rules_home=registry.home))
    assert [r.source for r in results] == [str(f) for f in files]
    crashed = [r for r in results if r.error is not None]
    assert [r.index for r in crashed] == [5]
    assert crashed[0].error is not None
    assert crashed[0].error.code == WORKER_CRASHED and "exit code 70" in crashed[0].error.detail
    for path, result in zip(files, results, strict=True):
        if path != victim:
            assert _findings(result) == [
                f.model_dump(mode="json", by_alias=True) for f in validator.validate(path).findings
            ]


def test_missing_rules_home_fails_the_batch(tmp_path: Path) -> None:
    for workers in (1, 2):
        with pytest.raises(RulesetError) as info:
            list(iter_validate([GOOD, GOOD, GOOD], workers=workers, rules_home=tmp_path / "empty-home"))
        assert info.value.code == "ruleset.missing"


def test_unknown_profile_fails_at_call_time(registry: Registry) -> None:
    for workers in (1, 2):
        with pytest.raises(ProfileError):
            iter_validate([GOOD], workers=workers, profile="nope", rules_home=registry.home)
    with pytest.raises(ValueError):
        iter_validate([GOOD], workers=0)


class _Counted:
    """``count`` copies of ``source``, consumed lazily; ``taken`` says how many the batch has taken so far."""

    def __init__(self, source: Source, count: int) -> None:
        self.source, self.count, self.taken = source, count, 0

    def __iter__(self) -> Iterator[Source]:
        for _ in range(self.count):
            self.taken += 1
            yield self.source


def test_sources_are_consumed_lazily_within_the_window(registry: Registry) -> None:
    sources = _Counted(GOOD, 24)
    window = _WINDOW_PER_WORKER * 2  # 2 workers
    assert window < 24  # the test needs more sources than fit in the window
    seen = 0
    for result in iter_validate(sources, workers=2, rules_home=registry.home):
        assert result.index == seen
        seen += 1
        # taken counts documents handed to the pool; `seen` have been handed out, so at most `window` are in flight
        assert sources.taken - (seen - 1) <= window, (sources.taken, seen)
        if seen == 1:
            assert sources.taken <= window
    assert seen == sources.taken == 24


def test_stopping_early_stops_the_workers(registry: Registry) -> None:
    before = _live_children()
    if before is None:
        pytest.skip("needs /proc")
    results = iter_validate([GOOD, GOOD_CII] * 25, workers=2, rules_home=registry.home)  # two syntaxes: two workers
    first = next(results)
    assert first.valid
    during = _live_children()
    assert during is not None and len(during - before) == 2
    results.close()
    assert _live_children() == before


def test_workers_1_runs_in_process(registry: Registry) -> None:
    before = _live_children()
    results = iter_validate([GOOD, BROKEN], workers=1, rules_home=registry.home)
    assert next(results).valid
    if before is not None:
        assert _live_children() == before
    assert not next(results).valid


def test_batch_validator_keeps_its_workers(registry: Registry) -> None:
    before = _live_children()
    with BatchValidator(workers=2, rules_home=registry.home) as batch:
        # two syntaxes: both workers start (a small batch of one syntax starts one)
        assert [r.valid for r in batch.iter_validate([GOOD, BROKEN, GOOD_CII])] == [True, False, True]
        first = _live_children()
        assert [r.valid for r in batch.validate_many([BROKEN, GOOD_CII, GOOD, GOOD])] == [False, True, True, True]
        if before is not None:
            assert first is not None and len(first - before) == 2
            assert _live_children() == first  # the same two processes
        results = batch.iter_validate([GOOD] * 10)
        next(results)
        results.close()  # abandoned: the busy worker is dropped, the pool goes on
        assert [r.valid for r in batch.iter_validate([GOOD, BROKEN])] == [True, False]
    if before is not None:
        assert _live_children() == before


def test_sniff_syntax() -> None:
    ubl = GOOD.read_bytes()
    cii = next((CORPUS / "xrechnung-testsuite").rglob("*uncefact.xml")).read_bytes()
    assert sniff_syntax(ubl) == "ubl"
    assert sniff_syntax(str(GOOD)) == "ubl"
    assert sniff_syntax(cii) == "cii"
    assert sniff_syntax(ubl.decode().encode("utf-16")) is None  # no hint: any worker takes it
    assert sniff_syntax(b"%PDF-1.7") is None
    assert sniff_syntax("/nonexistent/file.xml") is None
    # the first namespace wins: a CII invoice that mentions UBL further on is CII
    mention = b"<!-- urn:oasis:names:specification:ubl:schema:xsd:Invoice-2 -->"
    assert sniff_syntax(cii.replace(b"</rsm:CrossIndustryInvoice>", mention)) == "cii"


@pytest.mark.parametrize(
    ("have", "others", "waiting", "starved", "expected"),
    [
        (set(), set(), ["ubl", "cii"], False, 0),  # a fresh worker, nobody has anything: the oldest
        (set(), {"ubl"}, ["ubl", "ubl", "cii"], False, 2),  # a fresh worker takes the syntax nobody has
        ({"cii"}, {"ubl"}, ["ubl", "cii"], False, 1),  # a worker takes a document of its own syntax
        ({"cii"}, {"ubl"}, [None, "cii"], False, 0),  # an unknown syntax goes to any worker
        ({"cii"}, set(), ["ubl", "ubl"], False, 0),  # a syntax no worker has
        ({"cii"}, {"ubl"}, ["ubl", "ubl"], True, 0),  # left idle too long: take on the other syntax
        ({"cii"}, {"ubl"}, ["ubl", "ubl"], False, None),  # the tail of a batch: not worth compiling UBL
        (set(), {"ubl"}, ["ubl"], False, None),  # a small batch of one syntax starts no second worker
    ],
)
def test_choose_routes_by_syntax(
    have: set[str], others: set[str], waiting: list[str | None], starved: bool, expected: int | None
) -> None:
    assert _choose(have, others, waiting, starved) == expected


def test_a_mixed_batch_keeps_one_syntax_per_worker(registry: Registry) -> None:
    """Alternating UBL and CII documents on two workers: each worker compiles and holds the packs of one syntax
    only (half the memory of holding both), and the results are those of one process."""
    business = sorted((CORPUS / "xrechnung-testsuite/business-cases/standard").glob("*.xml"))
    ubl = [p for p in business if p.name.endswith("_ubl.xml")][:12]
    cii = [p for p in business if p.name.endswith("_uncefact.xml")][:12]
    files = [p for pair in zip(ubl, cii, strict=True) for p in pair]
    with BatchValidator(workers=2, rules_home=registry.home) as batch:
        results = batch.validate_many(files)
        assert sorted(tuple(sorted(w.syntaxes)) for w in batch._pool) == [("cii",), ("ubl",)]
    assert [r.index for r in results] == list(range(len(files)))
    assert [r.report.syntax if r.report else None for r in results] == ["ubl", "cii"] * 12


def test_a_small_batch_of_one_syntax_starts_one_worker(registry: Registry) -> None:
    before = _live_children()
    if before is None:
        pytest.skip("needs /proc")
    with BatchValidator(workers=2, rules_home=registry.home) as batch:
        assert [r.valid for r in batch.iter_validate([GOOD, BROKEN, GOOD])] == [True, False, True]
        assert len(batch._pool) == 1
        during = _live_children()
        assert during is not None and len(during - before) == 1


def test_a_long_batch_of_one_syntax_uses_every_worker(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker left idle takes on a syntax it has not compiled once it has idled long enough in all (shortened
    here from seconds to milliseconds), so a long batch of one syntax keeps every core busy."""
    import einvoice_validate.batch as batch_module

    monkeypatch.setattr(batch_module, "HELP_AFTER_SECONDS", 0.01)
    with BatchValidator(workers=2, rules_home=registry.home) as batch:
        assert all(r.valid for r in batch.iter_validate([GOOD] * 40))
        assert [sorted(w.syntaxes) for w in batch._pool] == [["ubl"], ["ubl"]]


def test_bytes_waiting_in_the_parent_are_capped(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    """Byte sources wait in the parent only up to a byte cap (here 1 byte: one per worker), whatever the window."""
    import einvoice_validate.batch as batch_module

    monkeypatch.setattr(batch_module, "_WAITING_BYTES", 1)
    monkeypatch.setattr(batch_module, "_WINDOW_PER_WORKER", 100)
    monkeypatch.setattr(batch_module, "HELP_AFTER_SECONDS", 3600.0)  # one syntax: one worker, results in order
    sources = _Counted(GOOD.read_bytes(), 30)
    results = iter_validate(sources, workers=2, rules_home=registry.home)
    assert next(results).valid
    assert sources.taken <= 1 + 2 + 1  # the one validated, two waiting (one per worker), the one that tipped the cap
    assert sum(1 for _ in results) == 29
