"""Where the time goes: a warm ``Validator`` in this process over the 66 XRechnung business cases, the mean of
each stage's ``Report.timings_ms`` per document (a pack's figure is averaged over all documents, so a UBL pack
counts only on the UBL half), what the stages do not cover (building findings and the report), and the CPU time of
the validating thread per document (on a busy machine the elapsed times include waiting for a core; this does not).

``--split`` (``saxon-java`` only) divides the validating thread's CPU time by what it does: inside Java (the
stylesheet runs, Saxon's tree build) and each piece of Python around them (the parse with its checks, the XSD stage,
the hand-over of the bytes, SVRL reading, findings, choosing the profile, the report); the figures are CPU times
measured in place, after the Java runs (Python runs slower there than alone: its caches are cold), so the part
left to the stylesheets is what no Python cut can remove.

Measured with it and around it (issue 41, 2026-11-29, saxon-java, one core): the stylesheets 58 % of the validating
thread's CPU in place (``--split``). A compiled CEN UBL stylesheet on the UBL business cases' trees took 0.93 ms per
document alone in a loop, 1.47 ms run after the other three packs' stylesheets (no Python between) and 1.64 ms after
a whole validation: most of the slowdown in place comes from the other stylesheets, not from the Python around
them. Two ideas rejected on that: all of a document's pack runs first and their findings after (fresh processes
alternating, 8 rounds: no gain, within the noise), and sending one syntax's documents to one thread (a thread
validating only UBL, only CII or both alternating: 3.65, 3.65 and 3.40 ms of CPU per document).

Measured and rejected on 2026-11-29 (second session; fresh processes alternating, one core, 150 warm passes, then
50 measured): JVM options beside the defaults of ``schematron/_java.py``. Transparent huge pages
(``-XX:+UseTransparentHugePages``), C2 alone (``-XX:-TieredCompilation``), both, larger inlining limits and young
generations of 12, 32 and 160 MB all landed within one another's spread: on a busy machine the same options gave
282-452 documents per second from one process to the next, on a quiet one 515-540 for all of them. The JIT goes on
compiling for about 150 passes over the business cases (its compiler threads used 19 % of the CPU after 30 passes,
nothing after 150): a figure needs ``--warmup`` of that order. Python's share: sampled with py-spy (``--native``)
over two threads of one ``Validator``, about 30 % of the validating threads' samples wait for the GIL, most of them
just back from a call into Java; 20 trivial Java calls more per stylesheet run cost about 5 % of the two threads'
rate, so the dozen setters and allocations a document makes (tree, transformer, serializer) cost about 1-2 %: not
worth Java code of our own. The XSD stage's lock (one compiled schema for every thread) showed no cost in the mix
either: ``benchmarks/duel.py --workers 2 --baseline`` 682 against 686 documents per second; it went anyway
(``xsd/stage.py``), since it serialised the stage outright (two threads validating only XSD: no faster than one).

Measured on 2026-11-29 (third session; the machine shared with two other benchmarking engineers, so only what was
measured in one process, or in isolation, counts). How much of a validation holds the GIL: py-spy ``record --gil``
over one thread validating the business cases in a loop, 30.6 % of its wall time (two threads: 59 %). Of those
samples, the Python side of the calls into Java (JPype's argument conversion and dispatch: about 20 calls per
document, tree build and two pack runs) about 17 %, pydantic about 5 %, the long attachments' handling (base64 check,
cut) about 11 % (only on the 24 cases that hold one). Saxon's tree of 01.01a (6.7 KB): 85-99 µs in Java alone, 167-186
µs through ``JavaEngine.load_utf8`` (six calls). A Java class of our own doing a document's calls in one would
take most of that 17 % away: estimated 3-5 % of two threads' rate, not built (Java code to build and ship).
Rejected: answering from the bytes before walking the tree (no ``BinaryObject``: no long attachment; no ``XInclude``
and no ``&#``: no XInclude; no ``0225``: no French CTC address): CPython 3.11 searches a short pattern a few bytes
at a time, ``b"&#" in data`` took 0.10 ms for a 91 KB case, ``b"0225"`` 0.05 ms, against 0.003 ms for the XInclude
walk in C and 0.03 ms for all the French markers, and the attachments' walk (0.013 ms) was no slower than the search
plus the walk of the cases that hold one. Python's switch interval at 0.5 ms instead of 5 ms (two threads, one
process, alternating blocks, 12 rounds): median ratio 1.02, within the noise; three validating threads instead of
two: no gain. SaxonC's optimizer flags do not change its compile time (CEN UBL and XRechnung UBL, fresh processes:
0.42-0.58 s of CPU with ``lvmt``, none or ``m``).

Measured on 2026-11-29 (fourth session, a quiet machine). ``--split``, 100 warm-up passes: the stylesheets 56.5 %,
the parse 10.3 %, the XSD stage 7.8 %, Saxon's tree 7.2 %, SVRL reading 2.2 %, the profile 2.2 %, the hand-over 1.4
%, findings 1.1 %, the report 1.0 %, the rest 10.3 %; py-spy over one validating thread: 26.6 % of the samples
outside Java and the XSD stage (lxml's parse included), no piece above 5 %. The Java part (stylesheets and tree) is
64 %: with every other piece free (libxml2's parse and XSD validation too) the rate would rise at most 1.56 x, about
2 x the reference; 1.6 x the reference (from 1.29 x) needs a fifth of all the CPU cut, more than half of what is not
Java, whose largest pieces are libxml2's (the stylesheets: ``benchmarks/knockout.py``). The calls into Java, warm,
alone (01.01a): the tree's hand-over 68 µs, of which Saxon's build 47-50 µs and the bytes' copy 7 µs, each other
call 1-2 µs: a Java class of our own doing a document's calls in one would save some 40 µs of 3 ms (1.3 %, the
in-place figures above are inflated by cold caches): rejected. A large document's tags were counted in its bytes
twice (70 µs each for a 200 KB business case, most of it an attachment's base64): now once, on the parsed tree
(10-15 µs). ``BatchValidator`` with two threads: the caller's thread 0.083 ms of CPU per document, the validating
threads 3.1 ms, the JVM's own 0.09 ms; worker processes instead of threads (saxon-java, both warm 200 passes in one
driving process, 10 alternating rounds): 0.83 (542 against 686 documents per second). SaxonC holds the GIL while it
compiles (a thread doing lxml work waits for the compilation to end): compiling a profile's stylesheets on threads
of their own beside the XSD schema overlapped nothing (XRechnung's stages took 0.41 s in a fresh process either
way); built, measured, backed out.

Usage: python benchmarks/stage_times.py [--repeat N] [--warmup N] [--engine saxonc|saxon-java] [--full-attachments]
       [--cases DIR|FILE] [--split]   (DIR: another folder of documents, e.g. ../shared/corpus/mutations-dev:
                        invalid ones, whose findings are located on the document, see einvoice_validate.locations)
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from einvoice_validate import EInvoiceValidateError, Validator

SHARED = Path(os.environ.get("EINVOICE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
CASES = sorted((SHARED / "corpus/xrechnung-testsuite/business-cases/standard").glob("*.xml"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured passes (a JIT needs about 20)")
    parser.add_argument("--engine", default=None, help="saxonc (default) or saxon-java")
    parser.add_argument("--full-attachments", action="store_true", help="hand Saxon attachments uncut")
    parser.add_argument("--cases", type=Path, help="every *.xml of this folder (or this one file) instead")
    parser.add_argument("--split", action="store_true", help="the validating thread's CPU by piece (saxon-java)")
    args = parser.parse_args()
    files = CASES if args.cases is None else [args.cases] if args.cases.is_file() else sorted(args.cases.glob("*.xml"))
    data = [p.read_bytes() for p in files]
    split: Counter[str] = Counter()
    if args.split:
        if args.engine != "saxon-java":
            parser.error("--split needs --engine saxon-java")
        _instrument(split)
    validator = Validator(engine=args.engine)
    validator._slim = not args.full_attachments
    data = [d for d in data if _validates(validator, d)]  # documents that cannot be validated do not count
    for _ in range(args.warmup):  # warm-up: compile every pack the cases need (and warm a JIT)
        for d in data:
            validator.validate(d)
    totals: Counter[str] = Counter()
    split.clear()
    start = time.perf_counter()
    cpu_start = time.thread_time()
    for _ in range(args.repeat):
        for d in data:
            totals.update(validator.validate(d).timings_ms)
    elapsed = time.perf_counter() - start
    cpu = time.thread_time() - cpu_start
    split = Counter(split)  # the measured passes only (the count of findings below validates once more)
    n = args.repeat * len(data)
    findings = sum(len(validator.validate(d).findings) for d in data)
    print(f"{findings / len(data):.1f} findings per document")
    print(f"{len(data)} documents x {args.repeat}: {n / elapsed:.1f} doc/s, {elapsed / n * 1000:.2f} ms/doc")
    for stage, ms in totals.items():
        print(f"  {stage:<24} {ms / n:6.2f} ms")
    print(f"  {'outside the stages':<24} {elapsed / n * 1000 - sum(totals.values()) / n:6.2f} ms")
    # CPU time of this thread (the validating one; not a JIT's or another process's): the steadiest figure on a busy
    # machine, where the elapsed times above include waiting for a core.
    print(f"CPU time of the validating thread: {cpu / n * 1000:.2f} ms/doc")
    if args.split:
        print("  by piece (CPU of the validating thread, in place):")
        for piece, ns in sorted(split.items(), key=lambda kv: -kv[1]):
            print(f"  {piece:<40} {ns / n / 1e6:6.3f} ms {ns / 1e9 / cpu * 100:5.1f} %")
        rest = cpu - sum(split.values()) / 1e9
        print(f"  {'python: the rest (validate, values, ...)':<40} {rest / n * 1000:6.3f} ms {rest / cpu * 100:5.1f} %")
    return 0


def _instrument(split: Counter[str]) -> None:
    """Wrap the pieces of one validation so that each adds its CPU time (of the calling thread) to ``split``
    (an outer piece's figure leaves out the pieces inside it)."""
    from einvoice_validate import validator as validator_module
    from einvoice_validate.schematron import _java, stage
    from einvoice_validate.xsd import stage as xsd_stage

    inner = [0]  # CPU counted by wrapped pieces called inside the running one

    def wrap(owner: Any, name: str, piece: str) -> None:
        function: Callable[..., Any] = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            outer, inner[0] = inner[0], 0
            start = time.thread_time_ns()
            try:
                return function(*args, **kwargs)
            finally:
                spent = time.thread_time_ns() - start
                split[piece] += spent - inner[0]
                inner[0] = outer + spent

        setattr(owner, name, timed)

    wrap(_java.JavaStylesheet, "run", "java: the stylesheets")
    wrap(_java, "_build", "java: Saxon's tree build")
    wrap(_java, "_java_bytes", "python: hand-over of the bytes")
    wrap(validator_module, "load", "python: parse (lxml and its checks)")
    wrap(xsd_stage.XsdStage, "run", "python: XSD stage (libxml2)")
    wrap(stage.SchematronStage, "_finding", "python: findings of the packs")
    for name in ("select_profile", "near_miss", "profile_reason"):
        wrap(validator_module, name, "python: profile, near miss, reason")
    wrap(validator_module, "Report", "python: the report (pydantic)")
    reader = stage.reader

    def timed_reader(*args: Any) -> Callable[[str], Any]:
        read = reader(*args)

        def timed_read(output: str) -> Any:
            start = time.thread_time_ns()
            try:
                return read(output)
            finally:
                split["python: SVRL reading"] += time.thread_time_ns() - start

        return timed_read

    stage.reader = timed_reader  # read by each SchematronStage as it is made


def _validates(validator: Validator, data: bytes) -> bool:
    try:
        validator.validate(data)
    except EInvoiceValidateError:
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
