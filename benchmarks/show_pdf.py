"""What ``show`` costs, and the PDF renderers it could use, on the same invoice (issue 25).

Times, warm and in this process: validating, rendering the page (viewer + findings) and WeasyPrint's PDF (the
one ``show --format pdf`` uses); then, as fresh processes each (as a command would run them), headless Chromium
printing the same page, and Apache FOP (Debian's ``fop``, when installed) on the viewer's own XSL-FO
(``xr-pdf.xsl`` from ``../shared``, run by SaxonC here on the model ``show`` maps). Prints the best wall and
CPU seconds, PDF pages, and whether every font is embedded (``pdffonts``).

Usage: .venv/bin/python benchmarks/show_pdf.py [INVOICE] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
VIEWER = SHARED / "rulesets" / "visualization" / "xrechnung-visualization" / "2026-01-31" / "xsl"


def _best(run: Callable[[], object], repeat: int) -> str:
    """The best wall time of ``repeat`` runs, and the CPU time (this process and its children) of that run: on a
    machine shared with others the CPU time is the steadier figure."""
    best = (float("inf"), 0.0)
    for _ in range(repeat):
        start, cpu = time.perf_counter(), _cpu()
        run()
        best = min(best, (time.perf_counter() - start, _cpu() - cpu))
    return f"{best[0]:.3f} s wall, {best[1]:.3f} s CPU"


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _pdf_facts(pdf: Path) -> str:
    if shutil.which("pdfinfo") is None or shutil.which("pdffonts") is None:
        return ""
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    pages = next((line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")), "?")
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout.splitlines()[2:]
    embedded = all(row.split()[-5] == "yes" for row in fonts if row.strip())
    return f"{pages} pages, {pdf.stat().st_size // 1024} KB, fonts {'all embedded' if embedded else 'NOT embedded'}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("invoice", nargs="?", default=str(REPO / "examples" / "xrechnung-ubl-broken.xml"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from einvoice_validate import Validator
    from einvoice_validate.parse import load
    from einvoice_validate.render import Renderer
    from einvoice_validate.render.pdf import html_to_pdf

    renderer = Renderer(Validator())
    data = Path(args.invoice).read_bytes()
    start = time.perf_counter()
    report = renderer.validator.validate(data)
    page = renderer.page(load(data), report, "en", printable=True)
    print(f"first run (compiles the packs and the viewer): {time.perf_counter() - start:.2f} s")
    validate = _best(lambda: renderer.validator.validate(data), args.repeat)
    render = _best(lambda: renderer.page(load(data), report, "en", printable=True), args.repeat)
    print(f"warm: validate {validate}; render the page {render}")

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        html = work / "page.html"
        html.write_bytes(page)
        pdf = work / "weasyprint.pdf"
        seconds = _best(lambda: pdf.write_bytes(html_to_pdf(page)), max(1, args.repeat // 2))
        print(f"WeasyPrint (in process, warm): {seconds}; {_pdf_facts(pdf)}")

        chromium = shutil.which("chromium")
        if chromium:
            out = work / "chromium.pdf"
            command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                       f"--user-data-dir={work / 'profile'}", "--no-pdf-header-footer", f"--print-to-pdf={out}",
                       html.as_uri()]  # fmt: skip
            seconds = _best(lambda: subprocess.run(command, check=True, capture_output=True), max(1, args.repeat // 2))
            print(f"Chromium (fresh process each): {seconds}; {_pdf_facts(out)}")
        else:
            print("Chromium: not installed (make browser)")

        fop = shutil.which("fop")
        if fop and VIEWER.is_dir():
            from saxonche import PySaxonProcessor

            processor = PySaxonProcessor(license=False)
            xslt = processor.new_xslt30_processor()
            to_fo = xslt.compile_stylesheet(stylesheet_file=str(VIEWER / "xr-pdf.xsl"))
            to_fo.set_parameter("lang", processor.make_string_value("en"))
            to_fo.set_parameter("foengine", processor.make_string_value("fop"))
            # the model as show maps it (the official mapping stops on an impossible date: see viewer.py)
            from lxml import etree

            model = etree.tostring(renderer.viewer.view(load(data)).model, encoding="unicode")
            fo = work / "invoice.fo"
            fo.write_text(to_fo.transform_to_string(xdm_node=processor.parse_xml(xml_text=model)), encoding="utf-8")
            out = work / "fop.pdf"
            command = [fop, "-q", "-fo", str(fo), "-pdf", str(out)]
            seconds = _best(lambda: subprocess.run(command, check=True, capture_output=True), max(1, args.repeat // 2))
            print(f"FOP on the official XSL-FO (fresh JVM each, no findings): {seconds}; {_pdf_facts(out)}")
        else:
            print("FOP: not installed (apt-get install fop) or no ../shared viewer folder")
    return 0


if __name__ == "__main__":
    sys.exit(main())
