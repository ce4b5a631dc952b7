"""What the preparation does to compiling: per pack, the time to compile its prepared stylesheet (through the
engine's wrapper, as the Schematron stage does) and the resident memory after, with all steps and with all but one,
each compile in a fresh process (a process compiles a stylesheet once; a fresh CLI run is the case it matters for),
the variants interleaved run by run so that a noisy neighbour slows them alike; the medians are printed.

Usage: python benchmarks/compile_time.py [--runs 5] [--engine saxonc|saxon-java] [--without compact-assertions]
       [--packs en16931-ubl@1.3.16,...]   (needs `make rulesets`)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.prepare import DEFAULT_STEPS, prepare_stylesheet, stylesheet_resources

PACKS = "en16931-ubl@1.3.16,en16931-cii@1.3.16,xrechnung-ubl@2.6.0,xrechnung-cii@2.6.0"

_CHILD = """
import json, resource, sys, time
from pathlib import Path
from einvoice_validate.schematron.engines import get_engine
engine = get_engine(sys.argv[1])
engine.compile(Path(sys.argv[3]), "warm-up")  # the engine's own start (a JVM, SaxonC's first use) is not counted
start = time.perf_counter()
engine.compile(Path(sys.argv[2]), "measured")
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
_TINY = (
    '<xsl:stylesheet version="2.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
    '<xsl:template match="/"><a/></xsl:template></xsl:stylesheet>'
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per variant (default 5)")
    parser.add_argument("--engine", default="saxonc")
    parser.add_argument("--without", default="compact-assertions", help="the step left out in the second variant")
    parser.add_argument("--packs", default=PACKS)
    args = parser.parse_args()
    registry = Registry(None)
    variants = {"all": list(DEFAULT_STEPS), f"all - {args.without}": [s for s in DEFAULT_STEPS if s != args.without]}
    with tempfile.TemporaryDirectory() as tmp:
        tiny = Path(tmp) / "tiny.xsl"
        tiny.write_text(_TINY)
        print(f"engine {args.engine}, {args.runs} fresh processes per variant; median compile time and max RSS")
        for key in args.packs.split(","):
            pack = registry.get(key)
            official = pack.entry("stylesheet")
            rel = official.relative_to(pack.directory).as_posix()
            resources = stylesheet_resources(pack.directory, rel, pack.manifest.files)
            paths = {}
            for name, steps in variants.items():
                path = Path(tmp) / f"{len(paths)}{official.suffix}"
                path.write_bytes(prepare_stylesheet(official.read_bytes(), steps, resources=resources))
                paths[name] = path
            figures: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
            for _ in range(args.runs):
                for name, path in paths.items():
                    out = subprocess.run(
                        [sys.executable, "-c", _CHILD, args.engine, str(path), str(tiny)],
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    figures[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
            base = statistics.median(f["seconds"] for f in figures["all"])
            for name, runs in figures.items():
                seconds = statistics.median(f["seconds"] for f in runs)
                rss = statistics.median(f["rss_mb"] for f in runs)
                print(f"  {key:<22} {name:<32} {seconds:6.3f} s ({seconds / base:4.2f} x all)  {rss:6.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
