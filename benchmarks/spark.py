"""Spark against the batch pool, in one run on the same files and cores: documents/s of
``einvoice_validate.spark.validate_files`` on ``local[N]`` and of ``BatchValidator(workers=N)``, both warm.

The files are the 66 XRechnung business cases, linked ``--copies`` times into a temporary folder (hard links: the
same bytes, no copies on disk), so Spark splits them into enough partitions to keep every core busy. Warm: both
sides first validate every file ``--warmup`` times unmeasured (Spark: whole jobs, so each Python worker has
compiled the UBL and CII packs; the pool: its workers the same), then ``--repeat`` measured passes, Spark's and
the pool's in turn (both stay up), so a change in the machine's other load hits both alike. Spark's
results are written to the ``noop`` sink, which computes every column and stores nothing.

Prints both rates, the ratio (target: Spark at least 0.8 x the pool), Spark's throughput per core and what that
means for 10 million invoices. The machine's other load still shows in the figures: run it more than once.

The engine is what each side chooses without being told (``saxon-java`` where installed: Spark's tasks run
``--task-cpus`` threads over one JVM per Python worker, the pool threads over one JVM) unless ``--engine`` says.

Usage: python benchmarks/spark.py [--cores N] [--copies N] [--warmup N] [--repeat N] [--engine NAME]
       [--task-cpus N]   (needs `make rulesets`)
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
CASES = sorted((SHARED / "corpus/xrechnung-testsuite/business-cases/standard").glob("*.xml"))
os.environ.setdefault("EINVOICE_VALIDATE_HOME", str(REPO / "build" / "rules-home"))


def link_files(folder: Path, copies: int) -> list[Path]:
    """``copies`` links to each business case in ``folder`` (copies where hard links are not possible)."""
    files = []
    for n in range(copies):
        for case in CASES:
            target = folder / f"{n:03d}-{case.name}"
            try:
                os.link(case, target)
            except OSError:
                shutil.copyfile(case, target)
            files.append(target)
    return files


def tree_cpu() -> float:
    """CPU seconds (user + system) used so far by this process and all its descendants (Linux /proc): the JVM and
    Spark's Python workers, the pool's workers."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry)] = int(fields[1])
        used[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    mine = {os.getpid()}
    grew = True
    while grew:
        more = {pid for pid, ppid in parent.items() if ppid in mine} - mine
        mine |= more
        grew = bool(more)
    return sum(used.get(pid, 0.0) for pid in mine)


def measure(
    cores: int, folder: Path, files: list[Path], warmup: int, repeat: int, engine: str | None, task_cpus: int
) -> tuple[tuple[float, float], tuple[float, float], int]:
    """(documents/s, CPU ms per document) of Spark and of the pool, and Spark's task count. Both stay up for the
    whole run and their measured passes alternate, so a change in the machine's other load hits both alike; while
    one side runs, the other is idle, so the CPU used by the whole process tree in a pass is that side's."""
    from pyspark.sql import SparkSession

    from einvoice_validate import BatchValidator
    from einvoice_validate.spark import validate_files

    os.environ["PYSPARK_PYTHON"] = sys.executable  # the workers run this interpreter (and this package)
    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("einvoice-validate-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.task.cpus", str(task_cpus))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        with BatchValidator(workers=cores, engine=engine) as pool:  # type: ignore[arg-type]
            print(f"the pool runs {pool.engine} ({pool.mode})")
            results = validate_files(spark, str(folder), options={"pathGlobFilter": "*.xml"}, engine=engine)  # type: ignore[arg-type]
            checked = results.where("error_code IS NULL AND valid IS NOT NULL").count()
            if checked != len(files):
                raise SystemExit(f"Spark validated {checked} of {len(files)} files")

            def spark_pass() -> tuple[float, float]:
                cpu, start = tree_cpu(), time.perf_counter()
                results.write.format("noop").mode("overwrite").save()
                return time.perf_counter() - start, tree_cpu() - cpu

            def pool_pass() -> tuple[float, float]:
                cpu, start = tree_cpu(), time.perf_counter()
                n = sum(1 for r in pool.iter_validate(files) if r.report is not None)
                if n != len(files):
                    raise SystemExit(f"the pool validated {n} of {len(files)} documents")
                return time.perf_counter() - start, tree_cpu() - cpu

            for _ in range(warmup):
                spark_pass()
                pool_pass()
            spark_time = pool_time = spark_cpu = pool_cpu = 0.0
            for _ in range(repeat):
                wall, cpu = spark_pass()
                spark_time, spark_cpu = spark_time + wall, spark_cpu + cpu
                wall, cpu = pool_pass()
                pool_time, pool_cpu = pool_time + wall, pool_cpu + cpu
            n = len(files) * repeat
            spark_figures = (n / spark_time, 1000 * spark_cpu / n)
            return spark_figures, (n / pool_time, 1000 * pool_cpu / n), results.rdd.getNumPartitions()
    finally:
        spark.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cores", type=int, default=2, help="local[N] and BatchValidator(workers=N) (default 2)")
    parser.add_argument("--copies", type=int, default=20, help="links to each business case (default 20)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured passes on both sides (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="measured passes on both sides (default 3)")
    parser.add_argument("--engine", help="both sides' engine (default: as each chooses it)")
    parser.add_argument("--task-cpus", type=int, default=1, help="spark.task.cpus: threads per task (default 1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="einvoice-spark-bench-") as tmp:
        files = link_files(Path(tmp), args.copies)
        print(
            f"{len(files)} documents ({len(CASES)} business cases x {args.copies}), {args.cores} cores, "
            f"warm-up {args.warmup} pass(es) on both sides, then {args.repeat} measured"
        )
        (spark, spark_cpu), (pool, pool_cpu), tasks = measure(
            args.cores, Path(tmp), files, args.warmup, args.repeat, args.engine, args.task_cpus
        )
    ratio = spark / pool
    per_core = spark / args.cores
    print(f"BatchValidator(workers={args.cores})   {pool:8.1f} doc/s   {pool_cpu:6.2f} CPU ms/doc")
    print(
        f"validate_files, local[{args.cores}]    {spark:8.1f} doc/s   {spark_cpu:6.2f} CPU ms/doc   "
        f"ratio {ratio:.2f} (target >= 0.8); by CPU per document {pool_cpu / spark_cpu:.2f}"
    )
    print(f"  ({tasks} Spark tasks a pass, one of them only listing the files over the size limit)")
    print(
        f"per core on Spark: {per_core:.1f} doc/s by the clock, {1000 / spark_cpu:.1f} doc/s by CPU (a core of its "
        "own); 10 million invoices, by the clock:"
    )
    for cores in (8, 64, 256):  # per-core throughput as measured here (2 cores, other load)
        hours = 10_000_000 / (per_core * cores) / 3600
        print(f"  {cores:4d} cores: {hours:6.2f} h")
    by_cpu = 10_000_000 * spark_cpu / 1000 / 3600
    print(f"  cores for 1 hour: {10_000_000 / (per_core * 3600):.0f} (by CPU: {by_cpu:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
