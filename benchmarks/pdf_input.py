"""ZUGFeRD / Factur-X: what reading a PDF costs per document, and what inlining the code db saves.

1. PDF extraction (``envelopes.pdf.extract_invoice``: open with pikepdf, walk the embedded files, inflate the invoice
   with a bound, read the XMP), warm, per corpus PDF; and the whole validation of the PDF against the validation of
   its extracted XML with the same profile (the difference is the envelope's cost).
2. The Factur-X stylesheets with their code db inlined (the installed prepared copy, step ``inline-code-db``)
   against the same preparation without that step, written next to the official file so that its 18 to 420
   ``document('FACTUR-X_<P>_codedb.xml')`` calls resolve: transform time per document over the corpus XML of that
   profile (the XSD-valid files the reference routes there, with plan-full.tsv or plan-zugferd.tsv), warm, one
   variant after the other on the same documents.

Times are the process's CPU time (``time.process_time``), medians over the passes, in ms. The machine is shared:
expect a few percent of noise.

Usage: python benchmarks/pdf_input.py [--passes N] [--warmup N] [--engine saxonc|saxon-java] [--skip-inline]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from einvoice_validate import Validator
from einvoice_validate.envelopes.pdf import extract_invoice
from einvoice_validate.errors import InputError
from einvoice_validate.parse import load
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.prepare import DEFAULT_STEPS, prepare_stylesheet, stylesheet_resources
from einvoice_validate.schematron.engines import get_engine

SHARED = Path(os.environ.get("EINVOICE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
ZUGFERD = SHARED / "corpus" / "zugferd"
PROFILES = ("minimum", "basicwl", "basic", "en16931", "extended")


def _median_ms(fn: Callable[[], object], passes: int, warmup: int) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(passes):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def pdf_extraction(passes: int, warmup: int, engine: str) -> None:
    validator = Validator(engine=engine)
    print(f"{'PDF':58} {'bytes':>8} {'extract ms':>10} {'validate PDF':>12} {'validate XML':>12}")
    extract_all = []
    for path in sorted(ZUGFERD.rglob("*.pdf")):
        data = path.read_bytes()
        try:
            xml, _ = extract_invoice(data)
            report = validator.validate(data)
        except InputError as exc:
            print(f"{path.relative_to(ZUGFERD).as_posix():58} {len(data):8} not validated: {exc.code} ({exc.reason})")
            continue
        extract = _median_ms(lambda d=data: extract_invoice(d), passes, warmup)
        whole = _median_ms(lambda d=data: validator.validate(d), passes, warmup)
        alone = _median_ms(lambda x=xml, p=report.profile: validator.validate(x, profile=p), passes, warmup)
        extract_all.append(extract)
        print(f"{path.relative_to(ZUGFERD).as_posix():58} {len(data):8} {extract:10.2f} {whole:12.2f} {alone:12.2f}")
    print(f"extraction per PDF: median {statistics.median(extract_all):.2f} ms, max {max(extract_all):.2f} ms\n")


def code_db_inlining(passes: int, warmup: int, engine_name: str) -> None:
    registry = Registry()
    engine = get_engine(engine_name)
    # plan-zugferd.tsv's run sends the plain EN 16931 id to the Factur-X EN16931 profile too
    reference = sorted(
        {
            row
            for name in ("reference.jsonl", "reference.zugferd-plan.jsonl")
            for row in (ZUGFERD / name).read_text(encoding="utf-8").splitlines()
        }
    )
    print(f"{'pack':26} {'docs':>4} {'inlined ms':>10} {'document() ms':>13} {'change':>7}")
    for profile in PROFILES:
        pack = registry.get(f"zugferd-{profile}@2.5.2")
        files = sorted(
            {
                row.split('"file": "', 1)[1].split('"', 1)[0]
                for row in reference
                if f'"profile": "zugferd-{profile}"' in row and '"xsd": []' in row
            }
        )
        docs = [load(ZUGFERD / name) for name in files]
        if not docs:
            continue
        rel = pack.manifest.entries["stylesheet"]
        official = pack.directory / rel
        without = [s for s in DEFAULT_STEPS if s != "inline-code-db"]
        data = prepare_stylesheet(
            official.read_bytes(), without, resources=stylesheet_resources(pack.directory, rel, pack.manifest.files)
        )
        beside = official.with_name(f".bench-{official.name}")
        beside.write_bytes(data)
        try:
            inlined_path, inlined_sum = pack.prepared()
            inlined = engine.compile(inlined_path, inlined_sum)
            loading = engine.compile(beside, hashlib.sha256(data).hexdigest())
            loaded = [engine.load(d, slim_attachments=True) for d in docs]

            def run_all(sheet: object, items: list[object] = loaded) -> None:
                for item in items:
                    sheet.run(item)  # type: ignore[attr-defined]

            a = _median_ms(lambda s=inlined: run_all(s), passes, warmup) / len(docs)
            b = _median_ms(lambda s=loading: run_all(s), passes, warmup) / len(docs)
            print(f"{pack.key:26} {len(docs):4} {a:10.2f} {b:13.2f} {100 * (a - b) / b:+6.1f}%")
        finally:
            beside.unlink(missing_ok=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--engine", default="saxonc")
    parser.add_argument("--skip-inline", action="store_true")
    args = parser.parse_args()
    pdf_extraction(args.passes, args.warmup, args.engine)
    if not args.skip_inline:
        code_db_inlining(args.passes, args.warmup, args.engine)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
