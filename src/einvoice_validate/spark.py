"""Validation on Apache Spark: invoices from files (``binaryFile``) or from a table column, one result row each.

A front end, like the CLI and the server: it runs the :class:`~einvoice_validate.Validator` over Spark
partitions with ``mapInArrow`` and turns each :class:`~einvoice_validate.Report` into a row of
:func:`result_schema`. PySpark is imported here only (``pip install 'einvoice-validate[spark]'``)::

    from einvoice_validate.spark import explode_findings, validate_files

    results = validate_files(spark, "s3a://archive/2026/*/*.xml")
    results.groupBy("valid").count().show()
    explode_findings(results).where("severity = 'ERROR'").groupBy("ruleId").count().show()

**One Validator per Python worker.** The function Spark ships to the executors is a :func:`functools.partial`
of a function of this module with the :class:`~einvoice_validate.Options` (pickled by reference: no Validator, no
compiled pack ever travels). On the executor, the first batch builds a
:class:`~einvoice_validate.BatchValidator` (one Validator) in a module-level cache; Spark reuses its Python
workers across tasks (``spark.python.worker.reuse``, on by default), so each worker compiles a pack once, on the
first document that needs it, and keeps it for every later task.

**Engine and threads.** Unless an engine is named, each executor takes the one for steady work (``saxon-java``
when its jar and JPype are installed there, else ``saxonc``; the ``engine`` column says which ran). On
``saxon-java`` a task validates with ``spark.task.cpus`` threads over its worker's one Validator (one JVM per
Python worker): give a task several cores (``spark.task.cpus=2`` on ``local[2]``) to have one JVM, warmed by every
document, instead of one per core. A document that takes longer than ``document_timeout`` is then a row with
``server.error`` (reason ``timeout``). On ``saxonc`` a task validates in its own thread, one document after the
other (threads do not help SaxonC), without a time limit.

**Rule packs on the executors** (the packs are data, never fetched while validating): either installed on every
node (``einvoice-validate rulesets install``) with ``spark.executorEnv.EINVOICE_VALIDATE_HOME`` pointing there, or
shipped with the job as an archive (:func:`rules_archive`) that Spark unpacks next to the workers
(``--archives rules.tar.gz#rules``, ``spark.archives``, or ``SparkContext.addArchive``), with ``rules_home="rules"``:
a relative rules home (argument or environment variable) is looked up in the folder where Spark unpacks the job's
files and archives (:meth:`pyspark.SparkFiles.getRootDirectory`), then in the worker's working directory.

**Errors.** A document that cannot be validated is a row with ``error_code`` (one of the API's codes,
:mod:`einvoice_validate.errors`), ``error_reason`` and ``error_detail``; ``valid`` and ``findings`` are then
null. An unexpected exception on one document (a bug) is such a row too (``server.error``, reason ``internal``):
one document must not stop a job over millions. A broken or missing rule installation is not a document's fault:
it raises :class:`~einvoice_validate.errors.RulesetError` in the task, which fails the job with a message naming
the executor, the rules home and how to ship the packs.
"""

from __future__ import annotations

import codecs
import functools
import os
import re
import socket
import sys
import tarfile
import threading
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union, get_args, get_origin

try:  # without the [spark] extra: MissingExtra's one line naming it, not a traceback
    from pyspark import SparkFiles, TaskContext
except ImportError:
    from ._extras import require

    require("spark", "einvoice_validate.spark")
    raise

from pydantic import BaseModel
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import to_arrow_schema
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    DataType,
    DoubleType,
    LongType,
    MapType,
    StringType,
    StructField,
    StructType,
)
from typing_extensions import Unpack

from ._extras import SetupError, require
from .errors import Detail, EInvoiceValidateError, InputError, RulesetError
from .findings import Finding, Report
from .options import OptionArgs, Options, build_options
from .pool.batch import BatchValidator
from .rulesets.registry import HOME_ENV, Registry, default_home
from .schematron.engines import engine_for

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "FINDING_TYPE",
    "RESULT_FIELDS",
    "SetupError",
    "check_session",
    "explode_findings",
    "finding_struct",
    "result_schema",
    "rules_archive",
    "validate_column",
    "validate_files",
]

BINARY_FILE_MAX_LENGTH = "spark.sql.sources.binaryFile.maxLength"
"""Spark's own cap on the files ``binaryFile`` reads (a longer file fails the task, so it is never read)."""

# --- the result schema ----------------------------------------------------------------------------------------


def _spark_type(annotation: Any) -> tuple[DataType, bool]:
    """The Spark type of a pydantic field annotation, and whether it may be null."""
    origin = get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        args = get_args(annotation)
        present = [a for a in args if a is not type(None)]
        if len(present) != 1:
            raise TypeError(f"no Spark type for the union {annotation!r}")
        dtype, nullable = _spark_type(present[0])
        return dtype, nullable or len(present) < len(args)
    if origin is Literal:
        values = get_args(annotation)
        if all(isinstance(v, str) for v in values):
            return StringType(), False
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return LongType(), False
        raise TypeError(f"no Spark type for {annotation!r}")
    if origin in (tuple, list, set, frozenset):
        items = [a for a in get_args(annotation) if a is not Ellipsis]
        if len(set(items)) != 1:
            raise TypeError(f"no Spark type for {annotation!r} (a homogeneous sequence is needed)")
        element, element_nullable = _spark_type(items[0])
        return ArrayType(element, element_nullable), False
    if origin is dict:
        key, value = get_args(annotation)
        key_type, _ = _spark_type(key)
        value_type, value_nullable = _spark_type(value)
        return MapType(key_type, value_type, value_nullable), False
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel):
            return _model_struct(annotation), False
        if issubclass(annotation, Enum):
            members = [m.value for m in annotation]
            if all(isinstance(v, str) for v in members):
                return StringType(), False
        elif issubclass(annotation, bool):
            return BooleanType(), False
        elif issubclass(annotation, int):
            return LongType(), False
        elif issubclass(annotation, float):
            return DoubleType(), False
        elif issubclass(annotation, str):
            return StringType(), False
    raise TypeError(f"no Spark type for {annotation!r}: extend einvoice_validate.spark._spark_type")


def _model_struct(model: type[BaseModel]) -> StructType:
    """The struct of a model's wire form (``model_dump(mode="json", by_alias=True)``): its fields by wire name,
    in declaration order, then its computed fields. A field the dump may leave out (``exclude_if``) is nullable."""
    fields = []
    for name, info in model.model_fields.items():
        if info.exclude is True:
            continue
        dtype, nullable = _spark_type(info.annotation)
        wire = info.serialization_alias or info.alias or name
        fields.append(StructField(wire, dtype, nullable or info.exclude_if is not None))
    for name, computed in model.model_computed_fields.items():
        dtype, nullable = _spark_type(computed.return_type)
        fields.append(StructField(computed.alias or name, dtype, nullable))
    return StructType(fields)


def finding_struct() -> StructType:
    """The struct of one finding: the wire members of :class:`~einvoice_validate.Finding`, derived from the
    model (``ruleId``, ``severity``, ..., ``message`` as a struct of its languages), so ``to_json`` of it is the
    API's finding."""
    return _model_struct(Finding)


FINDING_TYPE: StructType = finding_struct()
""":func:`finding_struct`, computed once at import."""

RESULT_FIELDS: tuple[StructField, ...] = (
    StructField("profile", StringType(), True),
    StructField("profile_reason", StringType(), True),
    StructField("syntax", StringType(), True),
    StructField("document_type", StringType(), True),
    StructField("spec_id", StringType(), True),
    StructField("valid", BooleanType(), True),
    StructField("accepted", BooleanType(), True),
    StructField("engine", StringType(), True),
    StructField("error_code", StringType(), True),
    StructField("error_reason", StringType(), True),
    StructField("error_detail", StringType(), True),
    StructField("findings", ArrayType(FINDING_TYPE, False), True),
)
"""The columns of a result after its key column(s). A validated document has ``profile`` ... ``engine`` (the XSLT
engine that ran) and ``findings`` (possibly empty), and null ``error_*``; a document that could not be validated
has only ``error_code`` (one of the API's codes), ``error_reason`` and ``error_detail``. ``accepted`` is the KoSIT
verdict (XRechnung profiles), null elsewhere."""
_REPORT_COLUMNS = frozenset(f.name for f in RESULT_FIELDS) - {"error_code", "error_reason", "error_detail", "findings"}
"""The result columns a report fills (null for a document that could not be validated)."""


def result_schema(keys: Sequence[StructField] = (StructField("path", StringType(), False),)) -> StructType:
    """The schema of :func:`validate_files` (``path`` first) or of :func:`validate_column` (its key columns)."""
    return StructType([*keys, *RESULT_FIELDS])


# --- the public functions (driver side) -----------------------------------------------------------------------


def _options(validation: Options | None, args: OptionArgs) -> Options:
    """The options the executors get, checked now on the driver (an unknown profile is the caller's mistake: said
    at once, not once per row); the rules home and the engine stay as given (resolved on each executor)."""
    return build_options(validation, args)


def validate_files(
    spark: SparkSession,
    paths_or_glob: str | Sequence[str],
    *,
    options: Mapping[str, str] | None = None,
    files_per_task: int = 1000,
    validation: Options | None = None,
    **option_args: Unpack[OptionArgs],
) -> DataFrame:
    """Validate the files Spark's ``binaryFile`` source reads from ``paths_or_glob``: one row per file.

    Args:
        spark: the session.
        paths_or_glob: a path, a glob (``s3a://bucket/2026/*/*.xml``) or a list of them, anything
            ``spark.read.format("binaryFile").load`` takes.
        options: options of the ``binaryFile`` source, e.g. ``{"recursiveFileLookup": "true",
            "pathGlobFilter": "*.xml"}``. Pass folders (with ``pathGlobFilter`` or ``recursiveFileLookup``)
            rather than a glob over files: Spark lists each file a glob matched in a task of its own.
        files_per_task: about how many files one task validates. Spark's own split of small files (some 30 a
            task, from ``spark.sql.files.openCostInBytes``) makes its per-task cost (tens of ms in a Python
            worker) a large part of the work; the files are put in ``ceil(files / files_per_task)`` tasks instead,
            at least four per core of ``spark.sparkContext.defaultParallelism`` (Spark puts the largest files
            together: small tasks even the load out), never more than Spark's split.
        validation, **option_args: the :class:`~einvoice_validate.Options` (``profile``, ``limits``, ``xsd_gate``,
            ``engine``, ``rules_date``, ``document_timeout``, as for :class:`~einvoice_validate.Validator`; ``mode``
            is not used) and keywords overriding them. ``rules_home`` is the rules home on the executors (see the
            module docstring); default ``$EINVOICE_VALIDATE_HOME`` on the executor, else the default home.

    Returns:
        A DataFrame of :func:`result_schema` with ``path`` (the file's URI) as key. A file larger than
        ``limits.max_document_bytes`` (or than Spark's ``spark.sql.sources.binaryFile.maxLength``) is never
        read: its row has ``invoice.too-large``.

    Raises:
        ProfileError: an option is unusable, e.g. ``profile`` names no profile (at once, on the driver).
        SetupError: the executors' Python cannot import this package (see :func:`check_session`).
    """
    opts = _options(validation, option_args)
    check_session(spark)
    limits = opts.limits
    reader = spark.read.format("binaryFile")
    for key, value in (options or {}).items():
        reader = reader.option(key, value)
    paths = [paths_or_glob] if isinstance(paths_or_glob, str) else list(paths_or_glob)
    files = reader.load(paths)  # lists the files once; both branches below share the listing
    cap = limits.max_document_bytes
    spark_cap = spark.conf.get(BINARY_FILE_MAX_LENGTH, None)
    if spark_cap:
        cap = min(cap, int(spark_cap.rstrip("b")))
    # binaryFile evaluates a filter on `length` before it reads a file's content
    readable = files.where(F.col("length") <= cap).select("path", "content")
    tasks = _task_count(spark, files, files_per_task)
    if tasks is not None:
        readable = readable.coalesce(tasks)
    schema = result_schema((StructField("path", StringType(), False),))
    validated = readable.mapInArrow(
        functools.partial(_validate_batches, column="content", keys=("path",), options=opts), schema
    )
    too_large = (
        # metadata only (binaryFile reads no content for these columns): one task is enough, not one per batch
        files.coalesce(1)
        .where(F.col("length") > cap)
        .select(
            F.col("path"),
            *[F.lit(None).cast(f.dataType).alias(f.name) for f in RESULT_FIELDS if f.name in _REPORT_COLUMNS],
            F.lit("invoice.too-large").alias("error_code"),
            F.lit("bytes").alias("error_reason"),
            F.format_string(f"the document has %d bytes or more; the limit is {cap} bytes", F.col("length")).alias(
                "error_detail"
            ),
            F.lit(None).cast(RESULT_FIELDS[-1].dataType).alias("findings"),
        )
    )
    return validated.unionByName(too_large)


def _task_count(spark: SparkSession, files: DataFrame, files_per_task: int) -> int | None:
    """How many tasks validate the files (see :func:`validate_files`), or None where Spark does not say how many
    files it listed (Spark Connect)."""
    if files_per_task < 1:
        raise ValueError(f"files_per_task must be at least 1, not {files_per_task}")
    jdf = getattr(files, "_jdf", None)
    if jdf is None:
        return None
    count = len(jdf.inputFiles())  # counted in the JVM, from the listing load() made: no names cross py4j
    return max(-(-count // files_per_task), 4 * spark.sparkContext.defaultParallelism, 1)


def validate_column(
    df: DataFrame,
    column: str,
    *,
    keys: str | Sequence[str] | None = None,
    validation: Options | None = None,
    **option_args: Unpack[OptionArgs],
) -> DataFrame:
    """Validate invoices held in a column of ``df``, as XML bytes (``binary``) or text (``string``).

    Text is encoded as its XML declaration says (UTF-8 without one), so the parser sees the bytes the declaration
    describes; text its declared encoding cannot hold is ``document.unreadable`` (reason ``encoding``). A null
    is ``document.unreadable`` (reason ``empty``).

    Args:
        df: the table.
        column: the column holding the documents.
        keys: the columns kept in the result, first (default: every column but ``column``).
        validation, **option_args: as for :func:`validate_files`.

    Returns:
        A DataFrame of :func:`result_schema` with the key columns first.

    Raises:
        TypeError: ``column`` is neither binary nor string.
        ValueError: a key names no column of ``df``, or a key column has a result column's name.
        ProfileError: an option is unusable, e.g. ``profile`` names no profile.
        SetupError: the executors' Python cannot import this package (see :func:`check_session`).
    """
    opts = _options(validation, option_args)
    check_session(df.sparkSession)
    dtype = df.schema[column].dataType
    if not isinstance(dtype, BinaryType | StringType):
        raise TypeError(f"column {column!r} is {dtype.simpleString()}; invoices are binary or string")
    wanted = [c for c in df.columns if c != column] if keys is None else [keys] if isinstance(keys, str) else keys
    unknown = [k for k in wanted if k not in df.columns]
    if unknown:
        raise ValueError(f"no column {', '.join(map(repr, unknown))} in the DataFrame")
    clash = [k for k in wanted if k in {f.name for f in RESULT_FIELDS}]
    if clash:
        raise ValueError(f"key column(s) {clash} have the name of a result column; rename them first")
    schema = result_schema([df.schema[k] for k in wanted])
    fn = functools.partial(_validate_batches, column=column, keys=tuple(wanted), options=opts)
    return df.select(*dict.fromkeys([*wanted, column])).mapInArrow(fn, schema)


def explode_findings(results: DataFrame) -> DataFrame:
    """One row per finding of a result DataFrame, the finding's members as columns (``ruleId``, ``severity``,
    ``location``, ``message``, ``source``, ...) next to every other column but ``findings``; a finding member
    whose name a column already has is called ``finding_<name>``. Documents without findings (or not validated)
    have no row. Example: which rules fail most, per supplier::

        explode_findings(results).where("severity = 'ERROR'").groupBy("supplier", "ruleId").count()
    """
    kept = [c for c in results.columns if c != "findings"]
    exploded = results.select(*kept, F.explode("findings").alias("__finding"))
    members = [
        F.col(f"__finding.`{name}`").alias(f"finding_{name}" if name in kept else name)
        for name in FINDING_TYPE.fieldNames()
    ]
    return exploded.select(*kept, *members)


def rules_archive(destination: str | os.PathLike[str], rules_home: str | os.PathLike[str] | None = None) -> Path:
    """Write the installed packs of ``rules_home`` (default: this process's rules home) to a ``.tar.gz`` that
    Spark can unpack next to the workers: ``spark-submit --archives rules.tar.gz#rules`` (or ``spark.archives``,
    or ``SparkContext.addArchive``), then ``validate_files(..., rules_home="rules")``.

    Every installed pack is verified first (sha256 of each file), so a broken home is not shipped.

    Raises:
        RulesetError: no pack is installed there, or one is incomplete or corrupted.
    """
    registry = Registry(Path(rules_home) if rules_home is not None else None)
    installed = registry.installed()
    if not installed:
        raise RulesetError(
            "ruleset.missing", f"no rule pack is installed in {registry.home}; run `einvoice-validate rulesets install`"
        )
    for pack in installed:
        pack.verify()
    destination = Path(destination)
    with tarfile.open(destination, "w:gz") as tar:
        for pack in installed:
            tar.add(pack.directory, arcname=str(pack.directory.relative_to(registry.home)))
    return destination


# --- before the first job: can the executors import this package? -------------------------------------------

_checked_apps: set[str] = set()
_check_lock = threading.Lock()


def check_session(spark: SparkSession) -> None:
    """Check, once per Spark application, that the Python Spark starts on the executors can import this package,
    with one small task; :func:`validate_files` and :func:`validate_column` call it before their job.

    A driver running in a virtual environment that is not activated starts the executors' Python as ``python3``
    from the ``PATH`` (``PYSPARK_PYTHON`` unset): without this check every task of the job would die in Spark's
    worker with ``ModuleNotFoundError: No module named 'einvoice_validate'`` under a Java stack trace.

    Raises:
        MissingExtra: this Python lacks the ``[spark]`` extra (PySpark, pyarrow, pandas).
        SetupError: the executors' Python cannot import the package (or cannot run a Python task at all): the
            message says which Python that is and what to set (``PYSPARK_PYTHON`` or ``spark.pyspark.python``).
    """
    require("spark", "einvoice_validate.spark")  # pyarrow and pandas too, which mapInArrow needs on the driver
    try:
        context = spark.sparkContext
    except Exception:  # Spark Connect has no RDDs (and the driver does not know the executors' Python): not checked
        return
    with _check_lock:
        if context.applicationId in _checked_apps:
            return
    try:
        python, problem = context.parallelize([0], 1).map(_probe()).collect()[0]
    except Exception as exc:  # the task itself failed: Spark could not start or run the executors' Python
        python, problem = None, _python_error(exc)
        if problem is None:
            raise
    if problem is not None:
        raise SetupError(_executor_python_text(context.pythonExec, python, problem))
    with _check_lock:
        _checked_apps.add(context.applicationId)


def _probe() -> Callable[[int], tuple[str, str | None]]:
    """The probe task's function. Defined inside this function so that Spark's cloudpickle ships it by value: the
    executors need not import this package to run it (the standard library only, no pyarrow either)."""

    def probe(_: int) -> tuple[str, str | None]:
        # inside, so that the function shipped by value carries its imports (see the docstring)
        import importlib.util
        import sys

        try:
            import einvoice_validate  # noqa: F401  (the package and its dependencies: every task imports them)
        except Exception as exc:
            return sys.executable, f"{type(exc).__name__}: {exc}"
        missing = [name for name in ("pyarrow", "pandas") if importlib.util.find_spec(name) is None]
        if missing:  # mapInArrow needs them on the executors too (looked for only: importing pandas takes a second)
            return sys.executable, f"{', '.join(missing)} not installed"
        return sys.executable, None

    return probe


_PYTHON_ERROR = re.compile(r"^\s*((?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)): (.+)$", re.MULTILINE)


def _python_error(exc: BaseException) -> str | None:
    """The Python exception (last line of the worker's traceback) in a failed task's error, or the reason Spark
    could not start the Python worker; None when the failure is none of these."""
    text = str(exc)
    started = re.search(r"Cannot run program \"([^\"]+)\"[^:]*: (.+)", text)
    if started:
        return f"Spark cannot start {started.group(1)}: {started.group(2).strip()}"
    if "PythonException" not in text and "Traceback" not in text:
        return None
    found = [m for m in _PYTHON_ERROR.finditer(text) if "py4j" not in m.group(1).lower()]
    return f"{found[-1].group(1)}: {found[-1].group(2).strip()}" if found else None


def _executor_python_text(executable: str, python: str | None, problem: str) -> str:
    if executable == "python3" and not os.environ.get("PYSPARK_PYTHON"):
        which = "python3 from the PATH, as PYSPARK_PYTHON is not set"
    else:
        which = executable
    if python and python != executable:
        which += f", i.e. {python}"
    return (
        f"the Python that Spark starts for its tasks ({which}) cannot run einvoice_validate.spark ({problem}). "
        f"Set PYSPARK_PYTHON to a Python that has einvoice-validate[spark], e.g. PYSPARK_PYTHON={sys.executable} "
        "(this driver's), before the SparkSession is created (or spark.pyspark.python); on a cluster, install it "
        "on every node (or ship an environment with --archives)"
    )


# --- the executor side ----------------------------------------------------------------------------------------

_batches: dict[tuple[Options, int], BatchValidator] = {}
_batches_lock = threading.Lock()


def _worker_batch(options: Options) -> tuple[BatchValidator, Path, str]:
    """This worker process's batch validator for ``options`` (built on first use, then kept: one Validator), its
    rules home and where that home came from (for messages). On ``saxon-java`` it runs the task's
    ``spark.task.cpus`` threads, on ``saxonc`` this thread."""
    home, origin = _resolve_home(None if options.rules_home is None else str(options.rules_home))
    engine = engine_for("steady", options.engine)
    threads = _task_cpus() if engine == "saxon-java" else 1
    resolved = options.replace(
        rules_home=home, engine=engine, mode="threads" if engine == "saxon-java" else "processes"
    )
    key = (resolved, threads)
    with _batches_lock:
        batch = _batches.get(key)
        if batch is None:
            if not (home / "packs").is_dir():
                raise RulesetError("ruleset.missing", _on_executor("no rule packs are installed there", home, origin))
            batch = BatchValidator(workers=threads, options=resolved)
            _batches[key] = batch
    return batch, home, origin


def _task_cpus() -> int:
    task = TaskContext.get()
    return max(1, int(task.cpus())) if task is not None else 1


def _resolve_home(given: str | None) -> tuple[Path, str]:
    if given is not None:
        spec, origin = given, "the rules_home argument"
    elif os.environ.get(HOME_ENV):
        spec, origin = os.environ[HOME_ENV], f"${HOME_ENV} on the executor"
    else:
        return default_home(), f"the default home (no rules_home given, ${HOME_ENV} not set on the executor)"
    path = Path(spec)
    if path.is_absolute():
        return path, origin
    places = [Path(SparkFiles.getRootDirectory())] if SparkFiles._is_running_on_worker else []
    places.append(Path.cwd())
    for place in places:
        if (place / path).is_dir():
            return place / path, f"{origin}, {spec!r} found in {place}"
    return places[0] / path, f"{origin}, {spec!r} looked up in {' and '.join(map(str, places))}"


def _on_executor(detail: str, home: Path, origin: str) -> str:
    where = f"host {socket.gethostname()}, Python worker pid {os.getpid()}"
    executor = os.environ.get("SPARK_EXECUTOR_ID")
    if executor:
        where = f"executor {executor}, {where}"
    task = TaskContext.get()
    if task is not None:
        where += f", stage {task.stageId()} partition {task.partitionId()} attempt {task.attemptNumber()}"
    return (
        f"the rule packs are not usable on this executor ({where}): {detail}. Rules home: {home} (from {origin}). "
        "Ship the packs with the job: write an archive with einvoice_validate.spark.rules_archive('rules.tar.gz'), "
        "submit with --archives rules.tar.gz#rules (or spark.archives, or SparkContext.addArchive) and pass "
        "rules_home='rules'; or install them on every node (einvoice-validate rulesets install) and set "
        f"spark.executorEnv.{HOME_ENV} to that folder"
    )


def _validate_batches(
    batches: Iterator[pa.RecordBatch], *, column: str, keys: tuple[str, ...], options: Options
) -> Iterator[pa.RecordBatch]:
    """The function ``mapInArrow`` runs: the key columns as they came, then one result per document."""
    import pyarrow as pa  # on the executors, with PySpark's Arrow path only

    batch_validator, home, origin = _worker_batch(options)
    for batch in batches:
        large = pa.types.is_large_binary(batch.schema.field(column).type) or pa.types.is_large_string(
            batch.schema.field(column).type
        )
        results_schema = result_arrow_schema(large)
        documents = batch.column(column).to_pylist()
        rows: list[dict[str, Any]] = [{}] * len(documents)
        sources: list[bytes] = []
        where: list[int] = []  # the row of each source
        for i, document in enumerate(documents):
            try:
                if document is None:
                    raise InputError("document.unreadable", Detail("detail.null-document", column), reason="empty")
                sources.append(_text_bytes(document) if isinstance(document, str) else document)
                where.append(i)
            except EInvoiceValidateError as exc:
                rows[i] = _error_row(exc.code, exc.reason, exc.detail)
        try:
            for result in batch_validator.iter_validate(sources):
                error = result.error
                row = _report_row(result.report) if result.report is not None else None
                if row is None and error is not None:
                    row = _error_row(error.code, error.reason, error.detail)
                rows[where[result.index]] = row or {}
        except RulesetError as exc:
            raise RulesetError(exc.code, _on_executor(exc.detail, home, origin)) from exc
        results = pa.RecordBatch.from_pylist(rows, schema=results_schema)
        key_fields = [batch.schema.field(k) for k in keys]
        yield pa.RecordBatch.from_arrays(
            [*(batch.column(k) for k in keys), *results.columns], schema=pa.schema([*key_fields, *results_schema])
        )


def _report_row(report: Report) -> dict[str, Any]:
    return {
        "profile": report.profile,
        "profile_reason": report.profile_reason,
        "syntax": report.syntax,
        "document_type": report.document_type,
        "spec_id": report.spec_id,
        "valid": report.valid,
        "accepted": report.accepted,
        "engine": report.engine,
        "findings": [f.model_dump(mode="json", by_alias=True) for f in report.findings],
    }


def _error_row(code: str, reason: str | None, detail: str) -> dict[str, Any]:
    return {"error_code": code, "error_reason": reason, "error_detail": detail}


_DECLARED_ENCODING = re.compile(r"""<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']""")


def _text_bytes(text: str) -> bytes:
    """XML text as the bytes its declaration describes (UTF-8 without one)."""
    text = text.removeprefix("\ufeff")
    found = _DECLARED_ENCODING.match(text, 0, 200)
    encoding = found.group(1) if found else "utf-8"
    try:
        codecs.lookup(encoding)
    except LookupError:
        encoding = "utf-8"  # the parser refuses the unknown declared encoding itself (document.unreadable)
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise InputError(
            "document.unreadable",
            Detail("detail.unencodable", repr(text[exc.start]), exc.start, encoding),
            reason="encoding",
        ) from None


def result_arrow_schema(large: bool) -> pa.Schema:
    """The Arrow form Spark expects back for :data:`RESULT_FIELDS`, by PySpark's own mapping (large strings and
    binaries when Spark sends large types)."""
    return to_arrow_schema(StructType(list(RESULT_FIELDS)), prefers_large_types=large)
