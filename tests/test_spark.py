"""Validation on Spark (local[2]): the same findings as ``validate_many``, bad rows as error rows, the result
schema derived from the Finding model, one Validator per Python worker, rule packs shipped as an archive, and a
loud failure when an executor has no packs."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from pyspark.errors import PythonException
from pyspark.sql import DataFrame, Row, SparkSession
from pyspark.sql import functions as F

from einvoice_validate import BatchResult, Finding, Limits, ProfileError, Validator, validate_many
from einvoice_validate.findings import Message
from einvoice_validate.rulesets import Registry
from einvoice_validate.schematron.engines import engine_for
from einvoice_validate.spark import (
    FINDING_TYPE,
    RESULT_FIELDS,
    explode_findings,
    result_arrow_schema,
    result_schema,
    rules_archive,
    validate_column,
    validate_files,
)
from tests.conftest import CORPUS

pytestmark = pytest.mark.corpus

BUSINESS = CORPUS / "xrechnung-testsuite/business-cases/standard"
MUTATIONS = CORPUS / "mutations-dev"
REPO = Path(__file__).resolve().parents[1]
STEADY = engine_for("steady")  # what the executors choose (the same machine)


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    """One local[2] session for the whole run (starting the JVM costs seconds); its Python workers run this
    interpreter, so they import this checkout of the package."""
    old = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("einvoice-validate-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    if old is None:
        os.environ.pop("PYSPARK_PYTHON", None)
    else:
        os.environ["PYSPARK_PYTHON"] = old


def _local(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def _normalised(path: Path) -> Path:
    """Absolute and without "." or "..", symbolic links left as they are (Hadoop's Path does no more)."""
    return Path(os.path.normpath(os.path.abspath(path)))


def _wire(findings: Any) -> list[dict[str, Any]]:
    """A row's findings back in their wire form, through the model (which drops ``message.ro`` when null)."""
    return [Finding.model_validate(f).model_dump(mode="json", by_alias=True) for f in findings]


def _assert_same(row: dict[str, Any], expected: BatchResult, where: object) -> None:
    """A result row says what ``validate_many`` said about the same document."""
    if expected.error is not None:
        assert (row["error_code"], row["error_reason"], row["valid"]) == (
            expected.error.code,
            expected.error.reason,
            None,
        ), where
        assert row["error_detail"] and row["findings"] is None, where
        return
    report = expected.report
    assert report is not None
    assert row["error_code"] is None, (where, row["error_detail"])
    got = (row["profile"], row["profile_reason"], row["syntax"], row["document_type"], row["spec_id"], row["valid"])
    want = (report.profile, report.profile_reason, report.syntax, report.document_type, report.spec_id, report.valid)
    assert row["accepted"] == report.accepted, where
    assert row["engine"] == report.engine, where  # both chose the engine for steady work
    assert got == want, where
    wire = [f.model_dump(mode="json", by_alias=True) for f in report.findings]
    assert _wire(row["findings"]) == wire, where
    # the struct itself is the wire form, members in the same order (only a null message.ro is added)
    for struct, want_finding in zip(row["findings"], wire, strict=True):
        assert list(struct) == list(want_finding), where
        assert {k: v for k, v in struct["message"].items() if v is not None} == want_finding["message"], where


def _rows(df: DataFrame) -> list[dict[str, Any]]:
    return [r.asDict(recursive=True) for r in df.collect()]


# --- the schema ---------------------------------------------------------------------------------------------------


def test_finding_struct_is_the_wire_form_of_a_finding(validator: Validator) -> None:
    report = validator.validate(MUTATIONS / "01.01a-INVOICE_ubl.m1-1.xml")
    assert report.findings, "a mutation has findings"
    for finding in report.findings:
        wire = finding.model_dump(mode="json", by_alias=True)
        assert FINDING_TYPE.fieldNames() == list(wire)
    message = FINDING_TYPE["message"].dataType
    languages = [info.alias or name for name, info in Message.model_fields.items()]
    assert message.fieldNames() == languages  # type: ignore[attr-defined]
    assert FINDING_TYPE["ruleId"].nullable is False and FINDING_TYPE["location"].nullable is True
    assert message["ro"].nullable is True  # type: ignore[index]  # left out of the wire form when null


def test_result_schema_is_explicit() -> None:
    schema = result_schema()
    assert schema.fieldNames()[0] == "path"
    assert schema.fieldNames()[1:] == [f.name for f in RESULT_FIELDS]
    assert schema["findings"].dataType.simpleString().startswith("array<struct<ruleId:string,severity:string")


@pytest.mark.parametrize("large", [False, True])
def test_the_result_columns_keep_their_arrow_types(large: bool) -> None:
    """PySpark's mapping gives the Arrow types the hand-written one gave before issue 46 (spelled out here)."""
    import pyarrow as pa
    from pyspark.sql import types as T

    def arrow(dtype: T.DataType) -> pa.DataType:
        if isinstance(dtype, T.ArrayType):
            return pa.list_(pa.field("element", arrow(dtype.elementType), dtype.containsNull))
        if isinstance(dtype, T.MapType):
            key = pa.field("key", arrow(dtype.keyType), False)
            return pa.map_(key, pa.field("value", arrow(dtype.valueType), dtype.valueContainsNull))
        if isinstance(dtype, T.StructType):
            return pa.struct([pa.field(f.name, arrow(f.dataType), f.nullable) for f in dtype.fields])
        string, binary = (pa.large_string(), pa.large_binary()) if large else (pa.string(), pa.binary())
        simple = {T.StringType: string, T.BinaryType: binary, T.BooleanType: pa.bool_(), T.LongType: pa.int64()}
        return {**simple, T.DoubleType: pa.float64()}[type(dtype)]

    want = pa.schema([pa.field(f.name, arrow(f.dataType), f.nullable) for f in RESULT_FIELDS])
    assert result_arrow_schema(large).equals(want, check_metadata=True)


# --- the same findings as validate_many -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus_files() -> list[Path]:
    files = sorted(BUSINESS.glob("*.xml")) + sorted(MUTATIONS.glob("*.xml"))
    assert len(files) >= 600, "the shared corpus is incomplete"
    return files


@pytest.fixture(scope="module")
def expected(corpus_files: list[Path], registry: Registry) -> dict[Path, BatchResult]:
    results = validate_many(corpus_files, workers=2, rules_home=registry.home, engine=STEADY)
    return dict(zip(corpus_files, results, strict=True))


def test_validate_files_gives_the_findings_of_validate_many(
    spark: SparkSession, corpus_files: list[Path], expected: dict[Path, BatchResult]
) -> None:
    # the rules home comes from $EINVOICE_VALIDATE_HOME (tests/conftest.py), inherited by the executors
    # folders and a file-name filter: a glob over files makes Spark list each matched file in a task of its own
    results = validate_files(spark, [str(BUSINESS), str(MUTATIONS)], options={"pathGlobFilter": "*.xml"})
    assert results.schema.fieldNames() == result_schema().fieldNames()
    # Spark reports each file by its normalised path: absolute, no "..", symbolic links kept (a shared folder given as
    # repo/../shared, itself a link, is reported as <parent>/shared/...): both sides compared normalised that way
    given = {_normalised(path): path for path in corpus_files}
    rows = {given.get(_normalised(_local(r["path"])), _local(r["path"])): r for r in _rows(results)}
    assert sorted(rows) == sorted(corpus_files)
    for path, row in rows.items():
        _assert_same(row, expected[path], path)
    invalid = sum(1 for r in rows.values() if r["valid"] is False)
    assert invalid >= 400, "the mutations are invalid"


@pytest.mark.parametrize("as_text", [False, True], ids=["bytes", "str"])
def test_validate_column_gives_the_findings_of_validate_many(
    spark: SparkSession, corpus_files: list[Path], expected: dict[Path, BatchResult], as_text: bool
) -> None:
    sample = corpus_files[::12]
    data = [(i, p.name, p.read_text("utf-8") if as_text else p.read_bytes()) for i, p in enumerate(sample)]
    df = spark.createDataFrame(data, f"id long, supplier string, xml {'string' if as_text else 'binary'}")
    results = validate_column(df.repartition(3), "xml")
    assert results.columns[:2] == ["id", "supplier"]
    rows = _rows(results)
    assert sorted(r["id"] for r in rows) == list(range(len(sample)))
    for row in rows:
        path = sample[row["id"]]
        assert row["supplier"] == path.name
        _assert_same(row, expected[path], path)


def test_national_cius_files(spark: SparkSession, validator: Validator) -> None:
    """Issue 22: the Portuguese and Dutch CII test files get their national rules on the executors too."""
    folders = [CORPUS / "national/cius-pt", CORPUS / "national/nlcius-cii"]
    rows = _rows(validate_files(spark, [str(f) for f in folders], options={"pathGlobFilter": "*.xml"}))
    assert len(rows) == 8
    for row in rows:
        path = _local(row["path"])
        report = validator.validate(next(f / path.name for f in folders if (f / path.name).is_file()))
        assert row["profile"] in ("cius-pt-ubl-invoice", "nlcius-cii") and row["profile"] == report.profile
        assert _wire(row["findings"]) == [f.model_dump(mode="json", by_alias=True) for f in report.findings]
    assert sorted(r["valid"] for r in rows) == [False, True, True, True, True, True, True, True]  # BR-NL-10


def test_a_french_invoice_gets_the_french_rules(spark: SparkSession, validator: Validator) -> None:
    """Issue 31: the French profile, why it was chosen, and FNFE's French texts beside English and German."""
    path = CORPUS / "france" / "mutations" / "F202500001_INV_20250201_CII_Commentee_EN16931.m7-0.xml"
    df = spark.createDataFrame([("FR", path.read_bytes())], "supplier string, xml binary")
    (row,) = _rows(validate_column(df, "xml", keys="supplier"))
    expected = validator.validate(path)
    assert row["profile"] == expected.profile == "fr-ctc-cii"
    assert row["profile_reason"] == expected.profile_reason and "French CTC invoice" in row["profile_reason"]
    french = [f for f in row["findings"] if f["ruleId"].startswith("BR-FR-")]
    assert french and all(f["message"]["fr"] and f["message"]["de"] for f in french)


def test_formats_beyond_ubl_and_cii(spark: SparkSession, registry: Registry) -> None:
    """Issue 44: a KSeF FA(3) invoice, FatturaPA's FPR02 (invalid as published) and an OIOUBL reminder get their
    profiles, verdicts and findings on the executors (saxonc: OIOUBL's stylesheet compiles there in seconds)."""
    day = "2026-09-15"
    files = [
        CORPUS / "poland-ksef/FA_3_Przyklad_1.xml",
        CORPUS / "italy-fatturapa/IT01234567890_FPR02.xml",
        CORPUS / "denmark-oioubl/OIOUBL_Reminder_v2p2.xml",
    ]
    df = spark.createDataFrame([(p.name, p.read_bytes()) for p in files], "name string, xml binary").coalesce(1)
    rows = {r["name"]: r for r in _rows(validate_column(df, "xml", keys="name", engine="saxonc", rules_date=day))}
    validator = Validator(rules_home=registry.home, rules_date=day, engine="saxonc")
    for path in files:
        row, report = rows[path.name], validator.validate(path)
        assert (row["profile"], row["valid"], row["profile_reason"]) == (
            report.profile,
            report.valid,
            report.profile_reason,
        )
        assert _wire(row["findings"]) == [f.model_dump(mode="json", by_alias=True) for f in report.findings]
    assert [rows[p.name]["profile"] for p in files] == ["ksef-fa3", "fatturapa-1.2.2", "oioubl-reminder"]
    assert [f["ruleId"] for f in rows[files[1].name]["findings"]] == ["cvc-complex-type.2.4.d"]


def test_explode_findings_counts_rules(spark: SparkSession, corpus_files: list[Path]) -> None:
    sample = [p for p in corpus_files if p.parent == MUTATIONS][:40]
    df = spark.createDataFrame([(p.name[:5], p.read_bytes()) for p in sample], "supplier string, xml binary")
    results = validate_column(df, "xml", keys="supplier")
    exploded = explode_findings(results)
    assert exploded.columns[: len(results.columns) - 1] == [c for c in results.columns if c != "findings"]
    assert exploded.columns[len(results.columns) - 1 :] == FINDING_TYPE.fieldNames()
    counts = {
        (r["supplier"], r["ruleId"]): r["count"]
        for r in exploded.where(F.col("severity") == "ERROR").groupBy("supplier", "ruleId").count().collect()
    }
    want: dict[tuple[str, str], int] = {}
    for row in _rows(results):
        for f in row["findings"] or []:
            if f["severity"] == "ERROR":
                key = (row["supplier"], f["ruleId"])
                want[key] = want.get(key, 0) + 1
    assert counts == want and sum(want.values()) >= 40


def test_explode_findings_renames_clashing_columns(spark: SparkSession) -> None:
    xml = (MUTATIONS / "01.01a-INVOICE_ubl.m1-1.xml").read_bytes()
    df = spark.createDataFrame([("erp-7", xml)], "source string, xml binary")
    exploded = explode_findings(validate_column(df, "xml"))
    rows = exploded.collect()
    # the XRechnung pack's findings, and today's note that the 2026-08-31 configuration is not installed (issue 30)
    sources = ("xrechnung", "einvoice-validate@")
    assert rows and all(r["source"] == "erp-7" and r["finding_source"].startswith(sources) for r in rows)


# --- bad rows -------------------------------------------------------------------------------------------------


def test_bad_rows_are_error_rows_with_the_codes_of_validate_many(spark: SparkSession, registry: Registry) -> None:
    good = (BUSINESS / "01.01a-INVOICE_ubl.xml").read_text("utf-8")
    latin1 = good.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"', 1).replace("<cbc:Note>", "<cbc:Note>Größe ", 1)
    latin1 = "".join(c if ord(c) < 256 else "?" for c in latin1)  # (the case has a few characters beyond Latin-1)
    assert "ISO-8859-1" in latin1[:100] and "Größe" in latin1
    ascii_euro = good.replace('encoding="UTF-8"', 'encoding="US-ASCII"', 1).replace("<cbc:Note>", "<cbc:Note>€", 1)
    huge = b"<Invoice>" + b"x" * 300_000 + b"</Invoice>"
    cases: dict[str, tuple[bytes | None, str | None]] = {
        "not-xml": (b"%PDF-1.7 not xml", None),
        "empty": (b"", None),
        "whitespace": (b"   \n", None),
        "null": (None, None),
        "doctype": (b'<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', None),
        "not-an-invoice": (b"<order/>", None),
        "truncated": (good.encode()[:2000], None),
        "huge": (huge, None),
        "text-latin1": (None, latin1),
        "text-not-xml": (None, "hello, not XML"),
        "text-euro-in-ascii": (None, ascii_euro),
        "text-good": (None, good),
    }
    df = spark.createDataFrame(
        [(name, data, text) for name, (data, text) in cases.items()], "name string, xml binary, text string"
    )
    limits = Limits(max_document_bytes=256 * 1024)
    rows = _rows(validate_column(df.where(F.col("text").isNull()), "xml", keys="name", limits=limits))
    rows += _rows(validate_column(df.where(F.col("xml").isNull()), "text", keys="name", limits=limits))
    by_name = {r["name"]: r for r in rows}
    assert set(by_name) == set(cases) | {"null"}
    assert (by_name["null"]["error_code"], by_name["null"]["error_reason"]) == ("document.unreadable", "empty")
    assert (by_name["text-euro-in-ascii"]["error_code"], by_name["text-euro-in-ascii"]["error_reason"]) == (
        "document.unreadable",
        "encoding",
    )
    # every other row says what validate_many says about the same bytes (text: as its declaration encodes it)
    names = [n for n in cases if n not in ("null", "text-euro-in-ascii")]
    sources = [
        data if data is not None else text.encode("iso-8859-1" if n == "text-latin1" else "utf-8")
        for n in names
        for data, text in [cases[n]]
        if data is not None or text is not None
    ]
    want = validate_many(sources, workers=1, rules_home=registry.home, limits=limits, engine=STEADY)
    for name, result in zip(names, want, strict=True):
        _assert_same(by_name[name], result, name)
    assert by_name["huge"]["error_code"] == "invoice.too-large"
    assert by_name["text-latin1"]["valid"] is True and by_name["text-good"]["valid"] is True
    assert by_name["not-xml"]["error_code"] == "document.unreadable"


def test_validate_column_refuses_other_column_types_and_unknown_profiles(spark: SparkSession) -> None:
    df = spark.createDataFrame([(1, b"<x/>")], "n long, xml binary")
    with pytest.raises(TypeError, match="binary or string"):
        validate_column(df, "n")
    with pytest.raises(ValueError, match="no column 'nope'"):
        validate_column(df, "xml", keys=["nope"])
    with pytest.raises(ProfileError):
        validate_column(df, "xml", profile="no-such-profile")


def test_large_files_are_never_read(spark: SparkSession, tmp_path: Path) -> None:
    (tmp_path / "small.xml").write_bytes(b"not xml at all")
    (tmp_path / "large.xml").write_bytes(b"<x>" + b"y" * 40_000 + b"</x>")
    rows = {
        _local(r["path"]).name: r
        for r in _rows(validate_files(spark, str(tmp_path), limits=Limits(max_document_bytes=10_000)))
    }
    assert (rows["small.xml"]["error_code"], rows["small.xml"]["error_reason"]) == ("document.unreadable", "not-xml")
    assert (rows["large.xml"]["error_code"], rows["large.xml"]["error_reason"]) == ("invoice.too-large", "bytes")
    assert "40007 bytes" in rows["large.xml"]["error_detail"] and "10000" in rows["large.xml"]["error_detail"]
    # a file over Spark's own binaryFile cap would fail the task if read: it gets an error row instead
    spark.conf.set("spark.sql.sources.binaryFile.maxLength", "20000")
    try:
        rows = {_local(r["path"]).name: r for r in _rows(validate_files(spark, str(tmp_path)))}
    finally:
        spark.conf.unset("spark.sql.sources.binaryFile.maxLength")
    assert rows["large.xml"]["error_code"] == "invoice.too-large"
    assert rows["small.xml"]["error_code"] == "document.unreadable"


# --- the workers and their rule packs -------------------------------------------------------------------------


def test_one_validator_per_python_worker_kept_across_tasks(spark: SparkSession) -> None:
    def probe(batches: Iterator[Any]) -> Iterator[Any]:
        import os

        import pyarrow as pa

        from einvoice_validate import Options
        from einvoice_validate import spark as module

        validator, _, _ = module._worker_batch(Options())
        for batch in batches:
            n = batch.num_rows
            yield pa.RecordBatch.from_pydict({"pid": [os.getpid()] * n, "validator": [id(validator)] * n})

    seen: list[Row] = []
    for _ in range(2):  # two jobs of 8 tasks each
        seen += spark.range(0, 16, numPartitions=8).mapInArrow(probe, "pid long, validator long").collect()
    pids = {r["pid"] for r in seen}
    # two task slots: without reuse each of the 16 tasks would have a worker of its own
    assert len(pids) <= 4 < len(seen), "Spark reuses its Python workers"
    for pid in pids:
        assert len({r["validator"] for r in seen if r["pid"] == pid}) == 1, "one Validator per worker, kept"


def test_rules_shipped_as_an_archive(
    spark: SparkSession, registry: Registry, tmp_path: Path, expected: dict[Path, BatchResult]
) -> None:
    archive = rules_archive(tmp_path / "rules.tar.gz", registry.home)
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert names and all(n.startswith("packs/") for n in names)
    assert any(n.endswith("xrechnung-ubl/2.5.0") for n in names)
    spark.sparkContext.addArchive(f"{archive}#einvoice-rules")  # what --archives rules.tar.gz#einvoice-rules does
    files = [BUSINESS / "01.01a-INVOICE_ubl.xml", MUTATIONS / "01.01a-INVOICE_uncefact.m1-1.xml"]
    df = spark.createDataFrame([(str(p), p.read_bytes()) for p in files], "file string, xml binary")
    rows = _rows(validate_column(df, "xml", rules_home="einvoice-rules"))  # relative: where Spark unpacked it
    assert len(rows) == 2
    for row in rows:
        _assert_same(row, expected[Path(row["file"])], row["file"])


def test_rules_archive_refuses_an_empty_home(tmp_path: Path) -> None:
    from einvoice_validate import RulesetError

    with pytest.raises(RulesetError, match="no rule pack is installed"):
        rules_archive(tmp_path / "rules.tar.gz", tmp_path / "empty-home")


def test_an_executor_without_packs_fails_the_job_loudly(spark: SparkSession, tmp_path: Path) -> None:
    home = tmp_path / "no-packs-here"
    with pytest.raises(PythonException) as info:
        validate_files(spark, str(BUSINESS / "01.01a-INVOICE_ubl.xml"), rules_home=home).collect()
    text = str(info.value)
    assert "ruleset.missing" in text and "not usable on this executor" in text
    assert str(home) in text and "the rules_home argument" in text
    assert "--archives rules.tar.gz#rules" in text and "spark.executorEnv.EINVOICE_VALIDATE_HOME" in text


def test_a_missing_pack_fails_the_job_loudly(spark: SparkSession, registry: Registry, tmp_path: Path) -> None:
    # a rules home with every pack but the UBL XSD (links to the installed ones; a missing XRechnung version would
    # have an earlier one stand in for it, issue 30)
    home = tmp_path / "partial-home"
    for pack in registry.installed():
        if pack.key != "ubl-2.1@2.1":
            target = home / pack.directory.relative_to(registry.home)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(pack.directory)
    cii = (BUSINESS / "01.01a-INVOICE_uncefact.xml").read_bytes()
    ubl = (BUSINESS / "01.01a-INVOICE_ubl.xml").read_bytes()
    ok = _rows(validate_column(spark.createDataFrame([("cii", cii)], "k string, xml binary"), "xml", rules_home=home))
    assert ok[0]["valid"] is True  # the CII packs are all there
    df = spark.createDataFrame([("cii", cii), ("ubl", ubl)], "k string, xml binary")
    with pytest.raises(PythonException) as info:
        validate_column(df, "xml", rules_home=home).collect()
    text = str(info.value)
    assert "ruleset.missing" in text and "ubl-2.1@2.1" in text and str(home) in text
    assert "--archives" in text


# --- the executors' Python: checked before the first job ----------------------------------------------------

_JOB = """
from pyspark.sql import SparkSession
from einvoice_validate.spark import validate_files
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false").config("spark.driver.host", "127.0.0.1")
         .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
validate_files(spark, {examples!r}, options={{"pathGlobFilter": "*.xml"}}).collect()
print("validated")
"""


def test_executors_without_the_package_fail_before_the_job_with_the_fix(tmp_path: Path) -> None:
    """The driver in a virtual environment that is not activated: PYSPARK_PYTHON unset, so Spark starts
    ``python3`` from the PATH, here a fresh virtual environment without the package."""
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    ours = str(Path(sys.executable).parent)
    path = os.pathsep.join([str(bare / "bin"), *(p for p in os.environ["PATH"].split(os.pathsep) if p != ours)])
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")}
    env["PATH"] = path
    done = subprocess.run(
        [sys.executable, "-c", _JOB.format(examples=str(REPO / "examples"))],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-3000:]
    assert "validated" not in done.stdout
    last = done.stderr.splitlines()[-1]
    assert last == (
        "einvoice-validate: the Python that Spark starts for its tasks (python3 from the PATH, as PYSPARK_PYTHON is "
        f"not set, i.e. {bare / 'bin' / 'python3'}) cannot run einvoice_validate.spark (ModuleNotFoundError: No "
        "module named 'einvoice_validate'). Set PYSPARK_PYTHON to a Python that has einvoice-validate[spark], e.g. "
        f"PYSPARK_PYTHON={sys.executable} (this driver's), before the SparkSession is created (or "
        "spark.pyspark.python); on a cluster, install it on every node (or ship an environment with --archives) "
        "(plan.feature-not-included)"
    )
    # no task failed: no Java stack trace, no Python traceback
    for noise in ("Traceback", "Py4JJavaError", "PythonException", "at org.apache", "ERROR Executor"):
        assert noise not in done.stderr, noise


def test_the_session_is_checked_once_per_application(spark: SparkSession) -> None:
    from einvoice_validate import spark as module

    module.check_session(spark)
    assert spark.sparkContext.applicationId in module._checked_apps
    tracker = spark.sparkContext.statusTracker()
    jobs = len(tracker.getJobIdsForGroup(None))
    module.check_session(spark)
    assert len(tracker.getJobIdsForGroup(None)) == jobs, "checked once: no second probe job"


def test_a_python_spark_cannot_start_is_said_before_the_job(spark: SparkSession) -> None:
    from einvoice_validate import spark as module
    from einvoice_validate.spark import SetupError

    context = spark.sparkContext
    saved = context.pythonExec
    module._checked_apps.discard(context.applicationId)
    context.pythonExec = "/nonexistent/python3"  # as PYSPARK_PYTHON=/nonexistent/python3 would have made it
    try:
        with pytest.raises(SetupError) as info:
            validate_files(spark, str(REPO / "examples"))
    finally:
        context.pythonExec = saved
    assert str(info.value).startswith(
        "the Python that Spark starts for its tasks (/nonexistent/python3) cannot run einvoice_validate.spark "
        "(Spark cannot start /nonexistent/python3: "
    )
    assert "Set PYSPARK_PYTHON to a Python that has einvoice-validate[spark]" in str(info.value)
    module.check_session(spark)  # the session's own Python passes (and is remembered)
    assert context.applicationId in module._checked_apps
