"""Where a pack's stylesheet spends its time: each rule (or each pattern) knocked out in turn, the stylesheet timed
with and without it, warm, on the business cases of its syntax (``KnockOut.java``: one JVM per variant, the two
measured in alternating blocks; Saxon-HE for Java, trees built once). A rule knocked out is its template removed: the
node it matched then gets the pattern's next rule or its default walk, so the time the removal saves is about the
time of the rule's tests. ``again`` (the stylesheet against a copy of itself) gives the noise floor: on the project's
2-core machine the ratio of two copies moves by 3-4 % from run to run, so only what stands out beyond that counts.

Variants: ``--what patterns`` (every rule removed, then each pattern's rules removed: what walking the document costs
and what each pattern adds) or ``--what rules`` (each rule of ``--modes`` removed alone, sorted by what it saves).

Measured for issue 41 (CEN UBL 1.3.16 prepared, the 33 UBL business cases, 15 rounds; ``again`` 0.998): with no
rule at all the walk is 9 % of the time; the model pattern (M11) without its rules 0.54 of it, the syntax pattern
(M12) 0.55, the code lists (M13) 0.90. In M12 (``--what rules --modes M12``) one rule stands out, the one on the root
element (0.70: its 727 assertions, most of them guarded "shall not be used" ones; the guards alone about 9 % in an
earlier run), every other rule 0.90-1.0. The time is spread over many rules: no one rewrite halves it.

Then (2026-11-29, 9 rounds): inside that root rule (variants written by hand, the same runner) its unguarded
assertions 0.78, of them the 21 ``not(//@N)`` attribute tests 0.81 (the step ``index-attribute-names`` came of it);
XRechnung UBL 2.6.0 (``--what rules``): the root rule 0.68, and in it BR-DE-TMP-32 alone 0.76: an information finding
on nearly every business case, whose location built the positions map of the whole document (``index-location-
positions`` v2 came of it); CEN UBL's M11 (``--modes M11``), XRechnung CII and CEN CII (``--modes M10,M11``): no rule
below 0.74, most 0.9-1.0, with ``again`` at 0.89-1.07 on that evening's machine. Measured and not made steps (the
stylesheet against itself rewritten, 9 rounds): XRechnung CII's empty-element rule with its cheap tests first
(``*[not(*) and not(normalize-space()) and not(name() = ...)]``) 0.95, 0.98, 0.99; CEN UBL's ``ends-with(name(),
'Amount')`` patterns as ``ends-with(local-name(), ...)`` 0.94, 0.98.

A run's fixed cost (2026-11-29, session 8). XRechnung UBL 2.6.0 seemed to take 0.44 ms per run on an empty
``<Invoice/>`` (``JavaStylesheet.run``, 400 warm-up runs, then 1,000). That was mostly the JIT: the same loop in rounds
of 2,000 runs went 617, 341, 133, 170, 101, 126, 98, 131 µs (01.01a: 996, 717, 331, ... 183-217 µs); Saxon's
interpreter needs some 10,000 runs of a stylesheet before its time settles (the duel's warm-up is 200 passes). Warm
(``FixedCost.java``: 20,000 runs of warm-up, thread CPU time, variants in one JVM, the median of the rounds' ratios),
the empty invoice costs 79 µs on XRechnung (and is no empty run: 7 findings on the root), 97-106 µs on CEN (11); a
stylesheet that writes one element 1.6 µs; the hand-over through JPype 9-10 µs more per run. What it is made of,
each a variant written by hand against the prepared copy (XRechnung, empty / 01.01a): the root element's namespace
declarations on every element of the report (``exclude-result-prefixes="#all"``) 0.76 / 0.91; the root rule
(``/ubl:Invoice | /cn:CreditNote``) removed 0.56 / 0.79; ``schxslt:location`` returning a constant 0.73 / 0.96 (3 µs
a finding); every rule removed (SchXslt's report in temporary trees, the global parameters, the walk) 0.21 / 0.24.
CEN on 01.01a (295-366 µs): both root rules removed 0.46 (M11's 0.72, M12's 0.74); M11's 40 tests reading ``//`` as
``true()`` 0.78, but the same with the ``//cac:X`` steps read from global variables 1.05, or from a key on
``node-name()`` 1.07: the scans cost nothing, the predicates on what they find do (``normalize-space(upper-case(
cbc:ID))`` and the like, again for each VAT category); M12's three guards of ``guard-absence-tests`` 18 µs, its 76
unguarded tests about 53 µs. The JFR profile of XRechnung's empty run (``jfr print --events jdk.ExecutionSample``,
1 ms sampling) put 13 % in ``NamespaceReducer.isNeeded`` alone, 20 % under namespace handling: the step
``exclude-result-namespaces`` came of it (XRechnung's run 0.79 empty, 0.91 on 01.01a; CEN's 0.91 empty; the SVRL
reader 6.4 -> 1.4 µs on CEN's empty report, 25 -> 18 µs on XRechnung's for 01.01a; through ``JavaStylesheet.run``
and the reader, the 20 UBL cases among the 33 smallest, 21 rounds: XRechnung 0.89, CEN 0.95, some 70 µs of a
document's 3.0-3.3 ms of CPU; ``duel.py --workers 1 --engine saxon-java --smallest 33 --baseline`` on a busy machine:
1.42x and 1.36x the reference against the baseline's 1.20x and 1.22x, an A/A run 1.22x against 1.21x, so most of
that gap is the machine's noise, not the step). Left as they are: the root rules'
tests (the work of the rules themselves: no rewrite found that is exact and cheaper), SchXslt's report assembly (the
grouping by pattern needs the temporary tree; writing findings straight out would change their order).

Then (2026-11-29, fourth session): a JFR profile of CEN UBL prepared, warm, 60 s over the 33 UBL business cases
(long attachments cut), 464 µs a run: flat. ``TinyTree.getNode`` 7 %, ``AxisExpression.iterate`` 5.7 %, ``Block``
5.6 %, ``Choose.getCondition`` 5.5 %, ``name()`` 4.4 %, argument evaluation 4.1 %, ``Rule.matches`` 3.3 %, nothing
else above 3 %. ``ends-with(name(), ...)`` as ``ends-with(local-name(), ...)`` in the two rules that test every
element (``UBL-DT-01``, ``UBL-DT-06/07``; the same for a suffix without a colon) 1.031 and 0.967 in two runs of this
runner (15 rounds of 3 and of 20 passes): within the noise, not a step. Whitespace-only text nodes stripped from
Saxon's tree (``WhitespaceStrippingPolicy.ALL``, which is not exact: string values of elements change) 0.965 on
CEN UBL and 0.94 on XRechnung UBL: the most it could give, not worth a proof.

Usage: python benchmarks/knockout.py [--pack en16931-ubl@1.3.16] [--what patterns|rules] [--modes M11,M12]
       [--rounds 21] [--passes 3] [--limit N]   (needs `make rulesets`)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from einvoice_validate.rulesets import Registry

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
CASES = SHARED / "corpus/xrechnung-testsuite/business-cases/standard"
JAR = os.environ.get("EINVOICE_SAXON_JAR", "/usr/share/java/Saxon-HE.jar")
CLASSES = REPO / "build/knockout"
# A rule of the ISO skeleton: a template of a pattern's mode with a (non-negative) priority; the patterns' default
# templates (text(), @*|node()) have negative ones and stay. The prepared stylesheets nest no template in another.
_PATTERN = re.compile(r'<xsl:apply-templates mode="([^"]+)" select="/"\s*/>')
# (SchXslt writes the priority before the mode; its patterns are the modes of such templates.)
_RULE = re.compile(r'<xsl:template\b(?=[^>]*\bmode="([^"]+)")(?=[^>]*\bpriority="\d+")[^>]*>.*?</xsl:template>', re.S)


def variants(text: str, what: str, modes: set[str] | None) -> dict[str, str]:
    patterns = set(_PATTERN.findall(text))  # the modes the root template applies: the patterns (not helper modes)
    rules = [rule for rule in _RULE.finditer(text) if not patterns or rule.group(1) in patterns]

    def without(chosen: list[re.Match[str]]) -> str:
        out = text
        for rule in sorted(chosen, key=lambda m: -m.start()):
            out = out[: rule.start()] + out[rule.end() :]
        return out

    found: dict[str, str] = {"again": text}
    if what == "patterns":
        found["no rules (the walk alone)"] = without(rules)
        for mode in dict.fromkeys(r.group(1) for r in rules):
            found[f"pattern {mode} without its rules"] = without([r for r in rules if r.group(1) == mode])
    else:
        for rule in rules:
            if modes is None or rule.group(1) in modes:
                line = text.count("\n", 0, rule.start()) + 1
                match = re.search(r'match="([^"]*)"', rule.group(0))
                found[f"line {line} ({rule.group(1)}): {match.group(1)[:60] if match else '?'}"] = without([rule])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pack", default="en16931-ubl@1.3.16")
    parser.add_argument("--what", choices=("patterns", "rules"), default="patterns")
    parser.add_argument("--modes", help="--what rules: only the rules of these pattern modes (comma-separated)")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--passes", type=int, default=3, help="passes over the documents per measured block")
    parser.add_argument("--limit", type=int, help="at most this many variants")
    args = parser.parse_args()
    pack = Registry().get(args.pack)
    stylesheet = pack.prepared_stylesheet()
    text = stylesheet.read_text(encoding="utf-8")
    syntax = "uncefact" if "cii" in args.pack else "ubl"
    documents = [str(p) for p in sorted(CASES.glob(f"*_{syntax}.xml"))]
    CLASSES.mkdir(parents=True, exist_ok=True)
    subprocess.run(["javac", "-cp", JAR, "-d", str(CLASSES), str(REPO / "benchmarks/KnockOut.java")], check=True)
    found = variants(text, args.what, set(args.modes.split(",")) if args.modes else None)
    if args.limit:
        found = dict(list(found.items())[: args.limit])
    print(f"{args.pack}: {len(documents)} business cases, {args.rounds} rounds of {args.passes} passes per variant")
    rows = []
    # the variants sit beside the stylesheet (its relative references, if any, still resolve)
    with tempfile.TemporaryDirectory(dir=stylesheet.parent) as folder:
        base = Path(folder) / "base.xsl"
        base.write_text(text, encoding="utf-8")
        for n, (name, variant) in enumerate(found.items()):
            path = Path(folder) / f"v{n}.xsl"
            path.write_text(variant, encoding="utf-8")
            cmd = ["java", "-Xmx1g", "-XX:+UseParallelGC", "-cp", f"{JAR}:{CLASSES}", "KnockOut", str(base), str(path)]
            out = subprocess.run(
                [*cmd, str(args.rounds), str(args.passes), *documents], check=True, capture_output=True, text=True
            ).stdout.split("\t")
            row = (name, float(out[1]), float(out[2]), float(out[3])) if len(out) == 4 else (name, 0.0, 0.0, 0.0)
            print(f"  {row[0]:<70} {row[1]:6.3f}  {row[3]:+.4f} ms/doc (base {row[2]:.4f})", flush=True)
            rows.append(row)
    print("sorted by the time a variant saves:")
    for name, ratio, _, diff in sorted(rows, key=lambda r: r[3]):
        print(f"  {name:<70} {ratio:6.3f}  {diff:+.4f} ms/doc")
    return 0


if __name__ == "__main__":
    sys.exit(main())
