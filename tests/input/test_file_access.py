"""No file named in a DOCTYPE is ever opened, nor libxml2's catalog, in any encoding, proven at the C level.

The reproducers of issue 40 (items 1-3): a ``<!DOCTYPE Invoice SYSTEM "…">`` (also a parameter entity and a
PUBLIC id) in UTF-8, UTF-16 and UTF-32 with and without a byte-order mark, UTF-7, and as a Factur-X attachment,
naming an existing file, a missing one, a directory, a FIFO and ``/dev/stdin``. A child process validates them all
under ``strace -f`` (every open, stat and access system call, of every thread); the test reads the trace and
asserts that none of those paths was touched, nor any catalog (``XML_CATALOG_FILES`` points at a file of our own,
and libxml2's built-in catalog path ends in ``xml/catalog``). Each answer is the same ``document.unreadable``
(reason ``doctype``) whatever the named file is (no existence oracle), and the child finishes at once (a read of
``/dev/stdin`` or of the FIFO would block it: its standard input is a pipe nobody writes to).

A control run proves the trace is not blind: a careless parser (lxml's ``collect_ids=False``, as the library had)
given one of the same documents does open the named file, and the trace shows it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from einvoice_validate.errors import InputError
from einvoice_validate.parse import load
from tests.hostile import DOCTYPE_ENCODINGS, GOOD_UBL, REPO, doctype_reproducers, encoded, invoice_body, run_bounded

TIMEOUT_S = 120  # "does not hang": the whole child takes a few seconds
TRACED = "open,openat,openat2,creat,stat,lstat,newfstatat,statx,access,faccessat,faccessat2,readlink,readlinkat"

CHILD = """
import json, sys
from pathlib import Path
from einvoice_validate import Validator
from einvoice_validate.errors import EInvoiceValidateError
mode, folder = sys.argv[1], Path(sys.argv[2])
if mode == "careless":
    from lxml import etree
    data = (folder / "utf-32-be.system-existing.xml").read_bytes()
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, collect_ids=False)
    try:
        etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        pass
    print(json.dumps({}))
    sys.exit(0)
validator = Validator(rules_date="2026-08-30")
answers = {}
for path in sorted(folder.glob("*.*")):
    try:
        validator.validate(path.read_bytes())
        answers[path.name] = "validated"
    except EInvoiceValidateError as exc:
        answers[path.name] = f"{exc.code}/{exc.reason}: {exc.detail}"
print(json.dumps(answers))
"""


def _strace() -> str:
    found = shutil.which("strace")
    if found is None:
        pytest.fail("strace is not installed: `make test` installs it (apt-get install strace)")
    return found


def _traced(mode: str, cases: Path, named: Path, tmp_path: Path) -> tuple[dict[str, str], str]:
    trace = tmp_path / f"{mode}.trace"
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO / "src"),
        "XML_CATALOG_FILES": str(named / "catalog.xml"),
    }
    command = [_strace(), "-f", "-qq", "-e", f"trace={TRACED}", "-o", str(trace), sys.executable, "-c", CHILD]
    returncode, stdout, stderr = run_bounded([*command, mode, str(cases)], env, TIMEOUT_S)
    assert returncode == 0, stderr[-3000:]
    return json.loads(stdout.strip().splitlines()[-1]), trace.read_text(errors="replace")


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """The cases' folder, the folder of the files they name, and the paths named (existing, missing, dir, fifo)."""
    root = tmp_path_factory.mktemp("file-access")
    named = root / "named"
    named.mkdir()
    (named / "existing.dtd").write_text('<!ENTITY x "secret">\n', encoding="ascii")
    (named / "directory").mkdir()
    os.mkfifo(named / "fifo")
    (named / "catalog.xml").write_text("<catalog/>\n", encoding="ascii")  # would be read if a catalog were consulted
    targets = {
        "existing": str(named / "existing.dtd"),
        "missing": str(named / "missing.dtd"),
        "directory": str(named / "directory"),
        "fifo": str(named / "fifo"),
        "stdin": "/dev/stdin",
    }
    cases = root / "cases"
    cases.mkdir()
    for name, data in doctype_reproducers(targets).items():
        (cases / name).write_bytes(data)
    return cases, named, targets


def test_no_file_named_in_a_doctype_is_opened(folders: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    cases, named, _ = folders
    answers, trace = _traced("validator", cases, named, tmp_path)
    assert len(answers) == len(list(cases.iterdir())) >= 60
    touched = [line for line in trace.splitlines() if str(named) in line or "/dev/stdin" in line]
    assert touched == [], "\n".join(touched[:20])
    catalogs = [line for line in trace.splitlines() if "xml/catalog" in line]
    assert catalogs == [], "\n".join(catalogs[:20])
    # One answer whatever the file is (no existence oracle) and whatever the encoding or the envelope
    external = {name: answers.pop(name) for name in list(answers) if name.startswith("external-stream-")}
    wrong = {name: answer for name, answer in answers.items() if not answer.startswith("document.unreadable/doctype")}
    assert wrong == {}
    assert len(set(answers.values())) == 1
    assert len(set(external.values())) == 1, external  # the stream's own (empty) data, whatever /F names


def test_the_trace_is_not_blind(folders: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    """The control: lxml with ``collect_ids=False`` (the library's former option) opens the file the DTD names."""
    cases, named, targets = folders
    _, trace = _traced("careless", cases, named, tmp_path)
    assert any(targets["existing"] in line for line in trace.splitlines())


@pytest.mark.parametrize("encoding", sorted(DOCTYPE_ENCODINGS))
def test_the_prolog_check_reads_every_encoding(encoding: str) -> None:
    """Before parsing: a DOCTYPE is refused in every encoding, and the same invoice without one is read."""
    body = invoice_body(GOOD_UBL)
    with pytest.raises(InputError) as info:
        load(encoded('<!DOCTYPE Invoice SYSTEM "x.dtd">\n' + body, encoding))
    assert (info.value.code, info.value.reason) == ("document.unreadable", "doctype")
    assert load(encoded(body, encoding)).document_type == "ubl-invoice"


def test_an_encoding_the_check_cannot_decode_is_refused() -> None:
    data = b'<?xml version="1.0" encoding="X-KLINGON-1"?><Invoice/>'
    with pytest.raises(InputError) as info:
        load(data)
    assert (info.value.code, info.value.reason) == ("document.unreadable", "encoding")
