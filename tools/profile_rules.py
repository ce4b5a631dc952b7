"""Which templates of a prepared stylesheet cost the time: Saxon-HE for Java's timing profile, warm.

Compiles an installed pack's prepared stylesheet with tracing (Saxon-HE 9.9 through JPype, the jar verified as
for the ``saxon-java`` engine), runs it ``--warmup`` times over the business cases of its syntax, then once more
per document with a ``TimingTraceListener`` (the profile behind Saxon's ``-TP``), and prints the templates by
their share of the net time (time in the template itself, without the templates it calls). A tracing build runs
slower than a plain one; the shares are what this is for.

Usage: python tools/profile_rules.py PACK [--warmup N] [--passes N] [--top N]
       e.g. python tools/profile_rules.py en16931-ubl@1.3.15   (needs `make rulesets` and the [java] extra)
"""

from __future__ import annotations

import argparse
import html
import os
import re
import tempfile
from collections import Counter
from pathlib import Path

SHARED = Path(os.environ.get("EINVOICE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
CASES = SHARED / "corpus/xrechnung-testsuite/business-cases/standard"
_ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
_CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pack", help="an installed Schematron pack, e.g. en16931-ubl@1.3.15")
    parser.add_argument("--warmup", type=int, default=25)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()

    from einvoice_validate.rulesets import Registry
    from einvoice_validate.schematron._java import _java

    pack = Registry().get(args.pack)
    stylesheet = pack.prepared_stylesheet()
    _java()  # starts the JVM with the verified jar
    from java.io import ByteArrayInputStream, File, FileOutputStream, PrintStream
    from javax.xml.transform.stream import StreamSource
    from net.sf.saxon.lib import StandardLogger
    from net.sf.saxon.s9api import Processor
    from net.sf.saxon.trace import TimingTraceListener

    processor = Processor(False)
    compiler = processor.newXsltCompiler()
    compiler.setCompileWithTracing(True)
    executable = compiler.compile(StreamSource(File(str(stylesheet))))
    pattern = "*ubl*.xml" if pack.manifest.syntax == "ubl" else "*uncefact*.xml"
    builder = processor.newDocumentBuilder()
    documents = [
        builder.build(StreamSource(ByteArrayInputStream(path.read_bytes()))) for path in sorted(CASES.glob(pattern))
    ]

    def run(document: object, listener: object = None) -> None:
        transformer = executable.load30()
        transformer.setGlobalContextItem(document)
        if listener is not None:
            transformer.setTraceListener(listener)
        transformer.applyTemplates(document, processor.newSerializer(File(os.devnull)))

    for _ in range(args.warmup):
        for document in documents:
            run(document)
    net: Counter[tuple[str, str]] = Counter()
    with tempfile.TemporaryDirectory(prefix="profile-rules-") as tmp:
        report = Path(tmp) / "profile.html"
        for _ in range(args.passes):
            for document in documents:
                listener = TimingTraceListener()
                listener.setOutputDestination(StandardLogger(PrintStream(FileOutputStream(str(report)))))
                run(document, listener)
                for row in _ROW.findall(report.read_text(encoding="utf-8")):
                    cells = [html.unescape(re.sub("<.*?>", "", c)).strip() for c in _CELL.findall(row)]
                    if len(cells) >= 8:  # module, line, instruction, count, gross avg/total, net avg/total
                        net[(cells[1], " ".join(cells[2].split())[:100])] += float(cells[7])
    total = sum(net.values())
    runs = len(documents) * args.passes
    print(f"{args.pack} ({stylesheet.name}): net time by template, {len(documents)} documents x {args.passes}, warm")
    for (line, what), ms in net.most_common(args.top):
        print(f"{100 * ms / total:5.1f}%  {ms / runs:7.3f} ms/doc  line {line:>6}  {what}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
