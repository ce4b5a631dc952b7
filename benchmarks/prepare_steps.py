"""What each preparation step costs or saves: per pack, the mean time per document of its prepared stylesheet with
each step switched on or off (``rulesets.prepare``), warm, under either engine (``--engine saxonc``, the default,
or ``saxon-java``: then use ``--wall`` and a longer ``--warmup``, its JIT and collector run on other threads).

The documents are parsed into Saxon once (attachments cut as the Validator does, unless ``--full-attachments``);
only the transforms are timed (``Stylesheet.run``: the wrapper, the stylesheet, the SVRL string). Variants of a
pack are measured interleaved, document by document (the order rotating), in the same process, so that a noisy
neighbour on the machine slows all of them alike, and by default as the process's CPU time (``--wall``: elapsed
time), which a neighbour disturbs less; the table gives the median and the mean over the measured passes (ms per
document) and the change of the median against all steps.

Variants: ``all`` (what the installer writes), ``all again`` (the same, compiled a second time: the noise floor
of the comparison), ``all - S`` for each step S, ``strip only`` (the preparation before
steps existed), ``rollback`` (all steps, but every ``xsl:try`` buffering its output: what
``rollback-output="no"`` saves), ``isolate per assertion`` (one ``xsl:try`` per assertion instead of per rule),
``isolate per rule + fallback`` (each rule's catch evaluates its assertions again, each in its own ``xsl:try``),
``guards with union steps`` (``guard-absence-tests`` with ``merge``: measured, not made the step's), and
two rewrites measured and not made steps (``rejected_rewrites.py``): ``all + one traversal`` (one walk over the
document for all patterns) and ``all + shared paths`` (each ``//`` path head evaluated once per document).

Usage: python benchmarks/prepare_steps.py [--passes N] [--warmup N] [--packs KEY,...] [--variants NAME,...]
[--full-attachments] [--wall | --thread] [--engine saxonc|saxon-java]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree
from rejected_rewrites import one_traversal, shared_paths  # this folder (run as a script)

from einvoice_validate.parse import load
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.prepare import (
    DEFAULT_STEPS,
    STEPS,
    Step,
    _guard_absence_tests,
    _isolate_rule_errors,
    prepare_stylesheet,
)
from einvoice_validate.schematron.engines import CompiledStylesheet, Engine, get_engine

SHARED = Path(os.environ.get("EINVOICE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
CASES = sorted((SHARED / "corpus/xrechnung-testsuite/business-cases/standard").glob("*.xml"))
RO_CASES = sorted((SHARED / "corpus/cius-ro/ubl-phive-testfiles").glob("*.xml"))
PACKS = (
    "en16931-ubl@1.3.15",
    "en16931-cii@1.3.15",
    "xrechnung-ubl@2.5.0",
    "xrechnung-cii@2.5.0",
    "en16931-ubl@1.3.16",
    "en16931-cii@1.3.16",
    "cius-ro-ubl@1.0.9",
)


def _per_assertion(root: etree._Element) -> None:
    _isolate_rule_errors(root, per_rule=False)


def _per_rule_fallback(root: etree._Element) -> None:
    _isolate_rule_errors(root, per_rule=True, fallback=True)


def _guards_with_union_steps(root: etree._Element) -> None:
    _guard_absence_tests(root, merge=True)


def _with(function: Callable[[etree._Element], None], name: str = "isolate-rule-errors") -> tuple[Step, ...]:
    """STEPS with another version of the step ``name``."""
    return tuple(Step(s.name, s.version, function) if s.name == name else s for s in STEPS)


def variants(data: bytes) -> dict[str, bytes]:
    out = {"all": prepare_stylesheet(data)}
    # the same stylesheet compiled a second time: the noise floor (two copies of one stylesheet differ by this much)
    out["all again"] = out["all"]
    for step in DEFAULT_STEPS:
        out[f"all - {step}"] = prepare_stylesheet(data, [s for s in DEFAULT_STEPS if s != step])
    out["strip only"] = prepare_stylesheet(data, ["strip-unused-output"])
    out["rollback"] = out["all"].replace(b' rollback-output="no"', b"")
    out["isolate per assertion"] = prepare_stylesheet(data, available=_with(_per_assertion))
    out["isolate per rule + fallback"] = prepare_stylesheet(data, available=_with(_per_rule_fallback))
    out["guards with union steps"] = prepare_stylesheet(
        data, available=_with(_guards_with_union_steps, "guard-absence-tests")
    )
    for name, rewrite in (("all + one traversal", one_traversal), ("all + shared paths", shared_paths)):
        root = etree.fromstring(out["all"], etree.XMLParser(huge_tree=True))
        rewrite(root)  # rejected_rewrites.py: measured, not steps
        out[name] = etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8")
    return out


def compile_variants(
    engine: Engine, folder: Path, name: str, sheets: dict[str, bytes]
) -> dict[str, CompiledStylesheet]:
    compiled = {}
    for i, (variant, text) in enumerate(sheets.items()):
        path = folder / str(i) / name
        path.parent.mkdir(parents=True)
        path.write_bytes(text)
        compiled[variant] = engine.compile(path, hashlib.sha256(text).hexdigest())
    return compiled


def time_pass(
    sheets: dict[str, CompiledStylesheet], docs: list[object], clock: Callable[[], float]
) -> dict[str, float]:
    """One pass: each document through every variant in turn (the order rotating from document to document)."""
    spent = dict.fromkeys(sheets, 0.0)
    order = list(sheets)
    for doc in docs:
        order = order[1:] + order[:1]
        for variant in order:
            start = clock()
            sheets[variant].run(doc)
            spent[variant] += clock() - start
    return {variant: seconds / len(docs) * 1000 for variant, seconds in spent.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passes", type=int, default=10, help="measured passes (default 10)")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured passes first (default 3)")
    parser.add_argument("--packs", default=",".join(PACKS))
    parser.add_argument("--full-attachments", action="store_true", help="hand Saxon attachments uncut")
    parser.add_argument("--wall", action="store_true", help="wall-clock time instead of the process's CPU time")
    parser.add_argument(
        "--thread", action="store_true", help="this thread's CPU time (the steadiest on a busy machine; not the JIT's)"
    )
    parser.add_argument("--variants", help="only these variants (comma-separated names; 'all' is always measured)")
    parser.add_argument("--engine", default="saxonc", help="saxonc (default) or saxon-java")
    args = parser.parse_args()
    engine = get_engine(args.engine)
    clock = time.perf_counter if args.wall else time.thread_time if args.thread else time.process_time
    registry = Registry()
    documents = [load(p.read_bytes()) for p in CASES]
    by_syntax = {
        syntax: [engine.load(d, slim_attachments=not args.full_attachments) for d in documents if d.syntax == syntax]
        for syntax in ("ubl", "cii")
    }
    ro_docs = [engine.load(load(p.read_bytes()), slim_attachments=not args.full_attachments) for p in RO_CASES]
    kind = "wall-clock" if args.wall else "CPU (thread_time)" if args.thread else "CPU (process_time)"
    print(f"{engine.name}, warm: {args.warmup} unmeasured passes, then {args.passes}; interleaved per document; {kind}")
    print(
        f"documents: {len(by_syntax['ubl'])} UBL + {len(by_syntax['cii'])} CII business cases, {len(ro_docs)} CIUS-RO"
    )
    print(f"{'pack':<22} {'variant':<30} {'median':>8} {'mean':>8} {'vs all':>8}  (ms per document; median of passes)")
    with tempfile.TemporaryDirectory(prefix="prepare-steps-") as tmp:
        for key in args.packs.split(","):
            pack = registry.get(key)
            official = pack.entry("stylesheet")
            texts = variants(official.read_bytes())
            if args.variants:
                wanted = {"all", *args.variants.split(",")}
                texts = {name: text for name, text in texts.items() if name in wanted}
            sheets = compile_variants(engine, Path(tmp) / key, official.name, texts)
            docs = ro_docs if key.startswith("cius-ro") else by_syntax[pack.manifest.syntax]
            times: dict[str, list[float]] = {v: [] for v in sheets}
            for n in range(args.warmup + args.passes):
                for variant, ms in time_pass(sheets, docs, clock).items():
                    if n >= args.warmup:
                        times[variant].append(ms)
            base = statistics.median(times["all"])
            for variant, values in times.items():
                median = statistics.median(values)
                change = f"{(median / base - 1) * 100:+.1f}%" if variant != "all" else ""
                print(f"{key:<22} {variant:<30} {median:8.3f} {statistics.mean(values):8.3f} {change:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
