"""The downloading installer against upstream as published, without the internet.

The archives and single files are built here from ``../shared/rulesets`` in the layout each upstream publishes
(written down below from the published files, independently of the manifests' ``sources``) and served on
127.0.0.1 by a plain file server laid out as ``HOST/PATH``: the mirror layout. Every pack is installed through
the real code path (``--mirror``), and the result is compared file by file with an install from
``../shared/rulesets``.

The manifests pin the sha256 of the real upstream archives, which archives built here cannot have: the tests
that install use manifests whose archive pins are replaced by the sha256 of the archives built here (each
extracted file is still checked against the manifest's own sha256), and one test shows that the real pin is
enforced.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import io
import json
import shutil
import threading
import urllib.parse
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pytest
from pydantic import ValidationError

from einvoice_validate import RulesetError, Validator
from einvoice_validate.cli import main
from einvoice_validate.findings import Severity
from einvoice_validate.rulesets import Manifest, Registry, download, install, load_manifests
from einvoice_validate.rulesets.download import addresses, mirrored

EN = "raw.githubusercontent.com/ConnectingEurope/eInvoicing-EN16931"
EN_COMMITS = {
    "1.3.16": "b6c9e06a59812fb1a83585da40923b3678a649ad",
    "1.3.15": "8263f86cb49cac1af63837194b0eff52c8601000",
}
EN_RELEASES = "github.com/ConnectingEurope/eInvoicing-EN16931/releases/download"
CII_D16B = "cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard"
PHIVE = "raw.githubusercontent.com/phax/phive-rules/ea02b79424f45a57bc3409b879f3204d78085692"
PHIVE_432 = "raw.githubusercontent.com/phax/phive-rules/432f0e9a8cff5c03d06625abe7a5fd8e7e346a64"
FNFE_LICENSE = "raw.githubusercontent.com/fnfempe/France_RFE/e9520ce398cc99bed4bab493773a494af8ca5aff/LICENSE"
FNFE_1404 = "raw.githubusercontent.com/fnfempe/France_RFE/97ba0f3d4ef2abed5780e9490d5c3a2be832ab1d/FNFE_RFE_INVOICE"
"""FNFE's tag v1.4.0.04 (issue 42): single files of the repository at the tag's commit."""
XRECHNUNG_ZIP = (
    "github.com/itplr-kosit/xrechnung-schematron/releases/download/v2.5.0/xrechnung-3.0.2-schematron-2.5.0.zip"
)
XRECHNUNG_260_ZIP = (
    "github.com/itplr-kosit/xrechnung-schematron/releases/download/v2.6.0/xrechnung-3.0.2-schematron-2.6.0.zip"
)
KOSIT_CONFIG = "itplr-kosit/validator-configuration-xrechnung"
CONFIG_NEW = "kosit-xrechnung-config@2026-08-31"
KOSIT_CONFIG_RAW = f"raw.githubusercontent.com/{KOSIT_CONFIG}/4b8cd64524d9af0b8b5db7d541ff7a2bf9827617"
KOSIT_CONFIG_ZIP = (
    f"github.com/{KOSIT_CONFIG}/releases/download/v2026-08-31/xrechnung-3.0.2-validator-configuration-2026-08-31.zip"
)
# The 2026-08-31 configuration is not available here: the archive built here stands in for it with the scenarios of
# 2026-01-31 and one customLevel more, to tell them apart (BR-TMP-5, a 2.6.0 warning, raised to an error).
NEW_LEVEL = '<customLevel level="error">BR-TMP-5</customLevel>'


def scenarios_2026_08_31(rulesets: Path) -> bytes:
    xml = (rulesets / "kosit-xrechnung-config/2026-01-31/scenarios.xml").read_text(encoding="utf-8")
    last = '<customLevel level="error">CII-SR-454</customLevel>'  # first in the scenario "EN16931 XRechnung (CII)"
    assert xml.index(last) > xml.index("<name>EN16931 XRechnung (CII)</name>")
    return xml.replace(last, last + NEW_LEVEL, 1).encode("utf-8")


def _zip(target: Path, members: dict[str, bytes]) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)


def _tree(folder: Path, prefix: str, skip: tuple[str, ...] = ()) -> dict[str, bytes]:
    return {
        prefix + p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.relative_to(folder).as_posix() not in skip
    }


def _put(root: Path, rel: str, data: bytes) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_bytes(data)


VIEWER_COMMIT = "0fb18c4d770b46bdd4bbd4ff2c714673996c3e05"
KSEF_DOCS = "d92d285b928896258afdb27f7150f9127ee18ada"
FATTURAPA = "ab534b87398e8cc783f74e808eff1d0dcf0b0fa5"
XMLDSIG = "www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd"


def build_upstream(rulesets: Path, root: Path) -> None:
    """Upstream's files, as published, under ``root/HOST/PATH``."""
    # OASIS: the whole UBL 2.1 package; the runtime schemas in xsdrt/ (no NOTICE: that one is ours).
    ubl = _tree(rulesets / "xsd/ubl-2.1", "xsdrt/", skip=("NOTICE",))
    _zip(
        root / "docs.oasis-open.org/ubl/os-UBL-2.1/UBL-2.1.zip",
        {"UBL-2.1.html": b"<html>stand-in</html>", **ubl, "xsd/README.txt": b"stand-in for the documented XSD"},
    )
    # CEN: release assets with schematron/, xslt/ and examples/ only; the licence lives in the repository.
    for version, commit in EN_COMMITS.items():
        base = rulesets / "en16931" / version
        _put(root, f"{EN}/{commit}/LICENSE.txt", (base / "LICENSE.txt").read_bytes())
        for syntax in ("ubl", "cii"):
            members = {**_tree(base / syntax / "schematron", "schematron/"), **_tree(base / syntax / "xslt", "xslt/")}
            members["examples/stand-in.xml"] = b"<Invoice/>"
            _zip(root / f"{EN_RELEASES}/validation-{version}/en16931-{syntax}-{version}.zip", members)
    # CII D16B: four files of the CEN repository at the 1.3.16 commit (a path with spaces).
    for path in sorted((rulesets / "xsd/cii-d16b").glob("*.xsd")):
        _put(root, f"{EN}/{EN_COMMITS['1.3.16']}/{CII_D16B}/{path.name}", path.read_bytes())
    # KoSIT: LICENSE, README, CHANGELOG at the root, the rules under schematron/.
    xr = rulesets / "xrechnung/2.5.0"
    _zip(
        root / XRECHNUNG_ZIP,
        {
            "CHANGELOG.md": b"# stand-in",
            "LICENSE": (xr / "LICENSE").read_bytes(),
            "README.md": b"# stand-in",
            **_tree(xr, "schematron/", skip=("LICENSE",)),
        },
    )
    # XRechnung 2.6.0 (issue 30): the three members staged in ../shared, laid out as in the 2.5.0 archive.
    xr = rulesets / "xrechnung/2.6.0"
    _zip(
        root / XRECHNUNG_260_ZIP,
        {
            "CHANGELOG.md": b"# stand-in",
            "LICENSE": (xr / "LICENSE").read_bytes(),
            **_tree(xr, "schematron/", skip=("LICENSE",)),
        },
    )
    # KoSIT configurations: 2026-01-31 as single files of the tag, 2026-08-31 as its release archive (see above).
    config = rulesets / "kosit-xrechnung-config/2026-01-31"
    for name in ("scenarios.xml", "LICENSE", "NOTICE"):
        _put(root, f"{KOSIT_CONFIG_RAW}/{name}", (config / name).read_bytes())
    _zip(
        root / KOSIT_CONFIG_ZIP,
        {
            "scenarios.xml": scenarios_2026_08_31(rulesets),
            "LICENSE": (config / "LICENSE").read_bytes(),
            "resources/ubl/2.1/xsd/maindoc/UBL-Invoice-2.1.xsd": b"<stand-in/>",
        },
    )
    # phive-rules: single files of the repository at the pinned commits (CIUS-RO; Peppol 2026.5, issue 15).
    for folder, resources, sheets in (
        ("cius-ro/1.0.9/xslt-phive", f"{PHIVE}/phive-rules-cius-ro/src/main/resources", "1.0.9"),
        ("peppol-bis/2026.5/xslt", f"{PHIVE_432}/phive-rules-peppol/src/main/resources", "openpeppol/2026.5/xslt"),
    ):
        for name in ("LICENSE", "NOTICE"):
            _put(root, f"{resources}/{name}", (rulesets / folder / name).read_bytes())
        for sheet in sorted((rulesets / folder).glob("*.xslt")):
            _put(root, f"{resources}/external/schematron/{sheets}/{sheet.name}", sheet.read_bytes())
    # phive-rules, ZUGFeRD 2.5.2 (zugferd/2.5.2/NOTICE): XSD per profile folder, stylesheets and code dbs side by
    # side, the module's LICENSE and NOTICE.
    zf = rulesets / "zugferd/2.5.2"
    zf_resources = f"{PHIVE_432}/phive-rules-zugferd/src/main/resources"
    for name in ("LICENSE", "NOTICE"):
        _put(root, f"{zf_resources}/{name}", (zf / "xslt" / name).read_bytes())
    for path in sorted((zf / "xslt").glob("FACTUR-X_*")):
        _put(root, f"{zf_resources}/external/schematron/2.5.2/{path.name}", path.read_bytes())
    for path in sorted((zf / "xsd").glob("*/*.xsd")):
        _put(root, f"{zf_resources}/external/schemas/2.5.2/{path.parent.name}/{path.name}", path.read_bytes())
    # phive-rules, the national CIUS (issue 22): one stylesheet per pack, each module's LICENSE and NOTICE.
    for folder, module, sheet_dir in (
        ("national/ubl-be/1.31", "ublbe", "ublbe/en16931/v1.31"),
        ("national/si-ubl/2.0.3.13", "simplerinvoicing", "simplerinvoicing"),
        ("national/nlcius-cii/1.0.3.13", "simplerinvoicing", "nlcius"),
        ("national/cius-pt/2.1.1", "cius-pt", "2.1.1"),
    ):
        resources = f"{PHIVE_432}/phive-rules-{module}/src/main/resources"
        for name in ("LICENSE", "NOTICE"):
            _put(root, f"{resources}/{name}", (rulesets / folder / name).read_bytes())
        for sheet in sorted((rulesets / folder / "xslt").glob("*.xslt")):
            _put(root, f"{resources}/external/schematron/{sheet_dir}/{sheet.name}", sheet.read_bytes())
    # phive-rules, Croatia (../shared/rulesets/SOURCES.md, "Croatia (HR-CIUS 2025 / eRačun) and Peppol PINT"): the
    # HR-CIUS stylesheet of each release in its version folder, the module's LICENSE and NOTICE; the Tax
    # Administration's XSD archive in the module's docs/, the schemas under "UBL2.1 eRačun/XsdUbl/" (a folder name
    # with a space and a non-ASCII letter, as is the archive's name).
    eracun = f"{PHIVE_432}/phive-rules-eracun"
    for name in ("LICENSE", "NOTICE"):
        _put(root, f"{eracun}/src/main/resources/{name}", (rulesets / "hr-cius/1.0.3" / name).read_bytes())
    for version in ("1.0.2", "1.0.3"):
        for sheet in sorted((rulesets / "hr-cius" / version / "xslt").glob("*.xslt")):
            _put(root, f"{eracun}/src/main/resources/external/schematron/{version}/{sheet.name}", sheet.read_bytes())
    _zip(
        root / f"{eracun}/docs/UBL2.1 eRačun 2026-04-15.zip",
        {
            "UBL2.1 eRačun/README.txt": b"stand-in",
            **_tree(rulesets / "hr-cius/xsd-eracun-2026-04-15", "UBL2.1 eRačun/XsdUbl/"),
        },
    )
    # phive-rules, Peppol PINT (same section): each jurisdiction's release folder under external/schematron/, the
    # stylesheets in xslt/ (by billing/selfbilling where there are both) except PINT-AE and PINT-OM, whose
    # billing/ and selfbilling/ folders sit in the release folder itself; the module's LICENSE and NOTICE.
    pint = f"{PHIVE_432}/phive-rules-peppol-pint/src/main/resources"
    for name in ("LICENSE", "NOTICE"):
        _put(root, f"{pint}/{name}", (rulesets / "peppol-pint/pint/1.1.3" / name).read_bytes())
    for release in sorted((rulesets / "peppol-pint").glob("*/*")):
        jurisdiction, version = release.parent.name, release.name
        inner = "" if jurisdiction in ("pint-ae", "pint-om") else "xslt/"
        for sheet in sorted((release / "xslt").rglob("*.xslt")):
            rel = sheet.relative_to(release / "xslt").as_posix()
            _put(root, f"{pint}/external/schematron/{jurisdiction}/{version}/{inner}{rel}", sheet.read_bytes())
    # KoSIT's viewer (issue 25): single files of the repository at the tag's commit, the stylesheets under src/xsl/,
    # the usage notes under doc/.
    viewer = rulesets / "visualization/xrechnung-visualization/2026-01-31"
    viewer_raw = (
        "raw.githubusercontent.com/itplr-kosit/xrechnung-visualization/0fb18c4d770b46bdd4bbd4ff2c714673996c3e05"
    )
    _put(root, f"{viewer_raw}/LICENSE", (viewer / "LICENSE").read_bytes())
    _put(root, f"{viewer_raw}/doc/usage.md", (viewer / "usage.md").read_bytes())
    for path in sorted((viewer / "xsl").rglob("*")):
        if path.is_file():
            _put(root, f"{viewer_raw}/src/xsl/{path.relative_to(viewer / 'xsl').as_posix()}", path.read_bytes())
    # FNFE-MPE (issue 31): phive-rules keeps FNFE's release archives in phive-rules-france/docs/, everything under a
    # top folder named like the archive (UBL/, CII/, Factur-X/, ... by profile); no licence inside: France_RFE's
    # LICENSE is a file of that repository.
    for version, name in (
        ("1.4.0", "2026_06_30_FNFE_SCHEMATRONS_FR_CTC_V1.4.0"),
        ("1.4.0.03", "2026_08_04_FNFE_RFE_INVOICE_V1.4.0.03"),
    ):
        fr = rulesets / "france" / version
        members = {f"{name}/README.md": b"# stand-in"}
        for syntax in ("UBL", "CII", "CDAR"):
            members.update(_tree(fr / syntax, f"{name}/{syntax}/"))
        _zip(root / f"{PHIVE_432}/phive-rules-france/docs/{name}.zip", members)
        _put(root, FNFE_LICENSE, (fr / "LICENSE").read_bytes())
    # FNFE-MPE 1.4.0.04 (issue 42): upstream's files are not known here; they stand here as the staged copy (BR-FR,
    # CDAR) and, for EXTENDED-CTC-FR (no copy here), as 1.4.0.03's: the download records what it gets.
    for rel in (
        "UBL/EN16931/2xslt/BR-FR-Flux2-Schematron-UBL.xslt",
        "CII/EN16931/2xslt/BR-FR-Flux2-Schematron-CII.xslt",
        "CDAR/2xslt/BR-FR-CDV-Schematron-CDAR.xslt",
    ):
        _put(root, f"{FNFE_1404}/{rel}", (rulesets / "france/1.4.0.04" / rel).read_bytes())
    for syntax in ("UBL", "CII"):
        rel = f"{syntax}/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-{syntax}.xslt"
        _put(root, f"{FNFE_1404}/{rel}", (rulesets / "france/1.4.0.03" / rel).read_bytes())
    # National formats beyond UBL and CII (issue 44): the KSeF schemas as files of CIRFMF/ksef-docs (faktury/schemy/FA/,
    # the licence at its root), FatturaPA's as a file of ph-fatturapa and the W3C signature schema at W3C's address
    # (the catalogs are ours: bundled), OIOUBL's official archive in phive-rules-oioubl/docs/ (its folders
    # Stylesheets/, Stylesheets/SCH/, Schemas/UBL_v2.1/, Dokumentation/; the other document types stand in as one).
    ksef, ksef_raw = rulesets / "poland-ksef/fa3-1-0E", "raw.githubusercontent.com/CIRFMF/ksef-docs/" + KSEF_DOCS
    _put(root, f"{ksef_raw}/LICENSE.txt", (ksef / "LICENSE.txt").read_bytes())
    for rel, data in _tree(ksef, "", skip=("LICENSE.txt", "catalog.xml")).items():
        _put(root, f"{ksef_raw}/faktury/schemy/FA/{rel}", data)
    fpa = rulesets / "italy-fatturapa/1.2.2"
    xsd = "Schema_del_file_xml_FatturaPA_v1.2.2.xsd"
    _put(root, f"raw.githubusercontent.com/phax/ph-fatturapa/{FATTURAPA}/docs/1.2.2/{xsd}", (fpa / xsd).read_bytes())
    _put(root, XMLDSIG, (fpa / "xmldsig-core-schema.xsd").read_bytes())
    oio = rulesets / "denmark-oioubl/1.17.2"
    _zip(
        root / f"{PHIVE_432}/phive-rules-oioubl/docs/OIOUBL_Schematron_2026-05-01_v1.17.2.ec0bcd89.zip",
        {
            **_tree(oio / "xslt", "Stylesheets/"),
            **_tree(oio / "schematron", "Stylesheets/SCH/"),
            **_tree(oio / "xsd", "Schemas/UBL_v2.1/"),
            "Stylesheets/OIOUBL_Order_Schematron.xsl": b"<stand-in/>",
            "Dokumentation/ReadmeUK.txt": (oio / "ReadmeUK.txt").read_bytes(),
        },
    )


@dataclass
class Server:
    root: Path
    url: str
    requests: list[str] = field(default_factory=list)
    fail_first: dict[str, list[int]] = field(default_factory=dict)
    """path -> HTTP statuses to answer before serving the file (one per request)."""


def _handler(server: Server) -> type[http.server.SimpleHTTPRequestHandler]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urllib.parse.unquote(self.path)
            server.requests.append(path)
            queued = server.fail_first.get(path)
            if queued:
                self.send_error(queued.pop(0))
                return
            super().do_GET()

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@pytest.fixture(scope="module")
def server(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("upstream")
    build_upstream(shared / "rulesets", root)
    state = Server(root, "")
    handler = functools.partial(_handler(state), directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(autouse=True)
def _no_retry_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(download, "RETRY_WAIT_S", 0.0)


def _host_path(url: str) -> Path:
    parts = urllib.parse.urlsplit(url)
    return Path(parts.netloc + urllib.parse.unquote(parts.path))


def repinned(root: Path) -> dict[str, Manifest]:
    """The manifests with each archive pinned to the sha256 of the archive built here."""
    result = {}
    for key, manifest in load_manifests().items():
        archives = tuple(
            a.model_copy(update={"sha256": hashlib.sha256((root / _host_path(a.url)).read_bytes()).hexdigest()})
            for a in manifest.upstream.archives
        )
        upstream = manifest.upstream.model_copy(update={"archives": archives})
        result[key] = manifest.model_copy(update={"upstream": upstream})
    return result


def _files(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def downloaded(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Registry:
    registry = Registry(tmp_path_factory.mktemp("home-mirror"), repinned(server.root))
    server.requests.clear()
    install(registry, mirror=server.url)
    return registry


def test_every_pack_installs_from_upstream_shaped_archives(
    downloaded: Registry, server: Server, shared: Path, tmp_path: Path
) -> None:
    copied = Registry(tmp_path / "home-shared", downloaded.manifests)
    notes: list[str] = []
    install(copied, shared / "rulesets", on_note=notes.append)
    # 9 + ZUGFeRD 10 + Peppol 3 + national 4 + viewer + XRechnung 2.6.0 2 + KoSIT configurations 2 + France 8
    # + issue 42: France 1.4.0.04 4, the CDAR rules 3 and schema 1 + Croatia: HR-CIUS 2 and the eRačun XSD
    # + Peppol PINT 28 (the generic rules; per jurisdiction its rules and its copy of the shared rules, PINT-EU's
    # EN 16931-aligned rules) + issue 44: KSeF 1, FatturaPA 1, OIOUBL 4
    assert len(downloaded.installed()) == len(load_manifests()) == 84
    # the 2026-08-31 configuration comes only from its archive, EXTENDED-CTC-FR 1.4.0.04 only from upstream, neither
    # of which ../shared/rulesets holds; BR-FR 1.4.0.04 (UBL, CII, CDAR) is installed from its staged copy, and said so
    extended = {"fr-extended-ctc-ubl@1.4.0.04", "fr-extended-ctc-cii@1.4.0.04"}
    assert {p.key for p in downloaded.installed()} - {p.key for p in copied.installed()} == {CONFIG_NEW, *extended}
    assert any(n.startswith(f"{CONFIG_NEW} (in force from 2026-08-31) not installed") for n in notes)
    assert len(notes) == 6
    skipped = {n.split(" ")[0] for n in notes if "not installed: it comes only from" in n}
    assert skipped == {CONFIG_NEW, *extended}
    staged = {n.split(":")[0] for n in notes if "installed the staged copy" in n}
    assert staged == {"fr-ctc-ubl@1.4.0.04", "fr-ctc-cii@1.4.0.04", "fr-cdar@1.4.0.04"}
    for pack in copied.installed():
        assert pack.problems() == [], pack.key
        other = downloaded.get(pack.key)
        ours, theirs = _files(pack.directory), _files(other.directory)
        if pack.key in staged:  # the same bytes here, but the record says where they came from
            assert (pack.installed_from(), other.installed_from()) == ("staged", "upstream")
            del ours["manifest.json"], theirs["manifest.json"]
        assert ours == theirs, f"{pack.key}: download and --from differ"


def test_a_pack_pinned_by_its_archive_records_its_members(downloaded: Registry, shared: Path, tmp_path: Path) -> None:
    """The 2026-08-31 configuration: its members' bytes are not known in advance; the archive's pin vouches for
    them on the download path, their sha256 are recorded at install and verified ever after."""
    pack = downloaded.get(CONFIG_NEW)
    assert load_manifests()[CONFIG_NEW].files == {"scenarios.xml": "", "LICENSE": ""}
    recorded = json.loads((pack.directory / "manifest.json").read_text(encoding="utf-8"))["files"]
    assert recorded["scenarios.xml"] == hashlib.sha256(scenarios_2026_08_31(shared / "rulesets")).hexdigest()
    assert recorded == {rel: hashlib.sha256((pack.directory / rel).read_bytes()).hexdigest() for rel in recorded}
    assert pack.problems() == []
    assert pack.scenarios()["EN16931 XRechnung (CII)"].custom_levels["BR-TMP-5"] == "error"
    # ever after: a changed member, or a changed record, is refused
    copy = tmp_path / "home"
    shutil.copytree(downloaded.home, copy, ignore=shutil.ignore_patterns("acceptance"))
    changed = Registry(copy, downloaded.manifests).get(CONFIG_NEW)
    (changed.directory / "LICENSE").write_text("changed", encoding="utf-8")
    assert [(code, rel) for code, rel, _ in changed.problems()] == [("ruleset.corrupt", "LICENSE")]
    record = json.loads((changed.directory / "manifest.json").read_text(encoding="utf-8"))
    record["files"]["LICENSE"] = hashlib.sha256(b"changed").hexdigest()
    record["upstream"]["archives"][0]["sha256"] = "0" * 64
    (changed.directory / "manifest.json").write_text(json.dumps(record), encoding="utf-8")
    [(code, rel, detail)] = changed.problems()
    assert (code, rel) == (
        "ruleset.corrupt",
        "manifest.json",
    ) and "not a record of this pack's pinned upstream files" in detail
    (changed.directory / "manifest.json").unlink()
    assert changed.problems()[0][0] == "ruleset.missing"


def test_each_address_is_fetched_once(downloaded: Registry, server: Server) -> None:
    counts = Counter(server.requests)
    assert max(counts.values()) == 1, [p for p, n in counts.items() if n > 1]
    expected = {"/" + _host_path(a.url).as_posix() for a in addresses(downloaded.manifests.values())}
    assert set(counts) == expected
    assert "/" + XRECHNUNG_ZIP in counts  # one download for both XRechnung packs


def test_the_real_archive_pin_is_enforced(server: Server, tmp_path: Path) -> None:
    # The real manifests pin the real release zip; the one built here differs, so it is refused.
    with pytest.raises(RulesetError) as info:
        install(Registry(tmp_path / "home"), None, ["xrechnung-ubl@2.5.0"], mirror=server.url)
    assert info.value.code == "ruleset.corrupt"
    assert "xrechnung-3.0.2-schematron-2.5.0.zip" in info.value.detail and "pins" in info.value.detail
    assert Registry(tmp_path / "home").installed() == []
    # issue 30: the archives of 2.6.0 and of the 2026-08-31 configuration, pinned to the official sha256
    for key, name in (
        ("xrechnung-cii@2.6.0", "xrechnung-3.0.2-schematron-2.6.0.zip"),
        (CONFIG_NEW, "xrechnung-3.0.2-validator-configuration-2026-08-31.zip"),
    ):
        with pytest.raises(RulesetError) as info:
            install(Registry(tmp_path / "home"), None, [key], mirror=server.url)
        assert info.value.code == "ruleset.corrupt" and name in info.value.detail and "pins" in info.value.detail
    assert Registry(tmp_path / "home").installed() == []


def test_an_archive_whose_members_differ_from_the_recorded_ones_is_refused(server: Server, tmp_path: Path) -> None:
    """XRechnung 2.6.0's members have sha256 recorded from another copy: an archive that matches its pin but whose
    member differs is reported, not preferred silently."""
    flat = tmp_path / "downloads"
    other = flat / Path(XRECHNUNG_260_ZIP).name
    with zipfile.ZipFile(server.root / XRECHNUNG_260_ZIP) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    members["LICENSE"] += b"\n"
    _zip(other, members)
    manifests = repinned(server.root)
    key = "xrechnung-ubl@2.6.0"
    archive = (
        manifests[key]
        .upstream.archives[0]
        .model_copy(update={"sha256": hashlib.sha256(other.read_bytes()).hexdigest()})
    )
    manifests[key] = manifests[key].model_copy(
        update={"upstream": manifests[key].upstream.model_copy(update={"archives": (archive,)})}
    )
    with pytest.raises(RulesetError) as info:
        install(Registry(tmp_path / "home", manifests), flat, [key])
    assert info.value.code == "ruleset.corrupt"
    assert "file LICENSE" in info.value.detail and "The archive matches its pinned sha256" in info.value.detail
    assert "refused, not preferred silently" in info.value.detail
    assert Registry(tmp_path / "home", manifests).installed() == []


def test_the_staged_copy_of_2_6_0_is_checked_against_the_recorded_members(shared: Path, tmp_path: Path) -> None:
    source = tmp_path / "rulesets"
    shutil.copytree(shared / "rulesets/xrechnung/2.6.0", source / "xrechnung/2.6.0")
    [pack] = install(Registry(tmp_path / "a"), source, ["xrechnung-cii@2.6.0"])
    assert pack.problems() == []
    sheet = source / "xrechnung/2.6.0/cii/XRechnung-CII-validation.xsl"
    sheet.write_bytes(sheet.read_bytes().replace(b"BR-TMP-5", b"BR-TMP-9", 1))
    with pytest.raises(RulesetError) as info:
        install(Registry(tmp_path / "b"), source, ["xrechnung-cii@2.6.0"])
    assert info.value.code == "ruleset.corrupt" and "XRechnung-CII-validation.xsl" in info.value.detail


def test_a_pack_known_only_by_its_archive_needs_that_archive(server: Server, tmp_path: Path) -> None:
    manifests = repinned(server.root)
    # an unpacked copy cannot be checked (no sha256 for its members)
    unpacked = tmp_path / "unpacked"
    _put(unpacked, "kosit-xrechnung-config/2026-08-31/scenarios.xml", b"<x/>")
    with pytest.raises(RulesetError) as info:
        install(Registry(tmp_path / "a", manifests), unpacked, [CONFIG_NEW])
    assert info.value.code == "ruleset.install-failed" and "can only come from its archive" in info.value.detail
    # asked for by name from a folder without its archive: missing; in the default set: skipped, with a note
    (tmp_path / "empty").mkdir()
    with pytest.raises(RulesetError) as missing:
        install(Registry(tmp_path / "b", manifests), tmp_path / "empty", [CONFIG_NEW])
    assert missing.value.code == "ruleset.missing"
    notes: list[str] = []
    only = {CONFIG_NEW: manifests[CONFIG_NEW]}
    assert install(Registry(tmp_path / "c", only), tmp_path / "empty", on_note=notes.append) == []
    assert "xrechnung-3.0.2-validator-configuration-2026-08-31.zip" in notes[0] and "sha256" in notes[0]
    # the archive in a folder of downloads (by name) is enough
    flat = tmp_path / "flat"
    flat.mkdir()
    shutil.copyfile(server.root / KOSIT_CONFIG_ZIP, flat / Path(KOSIT_CONFIG_ZIP).name)
    [pack] = install(Registry(tmp_path / "d", only), flat, on_note=notes.append)
    assert pack.key == CONFIG_NEW and pack.problems() == [] and len(notes) == 1


def test_with_the_2026_08_31_configuration_installed_its_scenarios_apply(downloaded: Registry) -> None:
    from tests.test_versions import two_attachments

    validator = Validator(rules_home=downloaded.home)
    validator.registry = Registry(downloaded.home, downloaded.manifests)
    report = validator.validate(two_attachments(), rules_date=date(2026, 9, 1))
    assert report.packs == ("cii-d16b@D16B", "en16931-cii@1.3.16", "xrechnung-cii@2.6.0")
    assert not [f for f in report.findings if f.rule_id == "rules.version-not-installed"]
    assert report.version_choices[0].pack == CONFIG_NEW
    (tmp5,) = [f for f in report.findings if f.rule_id == "BR-TMP-5"]
    assert tmp5.flag == "warning" and tmp5.severity is Severity.ERROR  # the customLevel of the archive built here
    assert report.accepted is False
    before = validator.validate(two_attachments(), rules_date=date(2026, 8, 30))
    assert before.version_choices[0].pack == "kosit-xrechnung-config@2026-01-31" and before.accepted is True


def test_mirror_maps_host_and_path() -> None:
    url = "https://raw.githubusercontent.com/o/r/abc/a%20b/c.xsd"
    assert (
        mirrored(url, "http://127.0.0.1:8000/m/")
        == "http://127.0.0.1:8000/m/raw.githubusercontent.com/o/r/abc/a%20b/c.xsd"
    )
    assert mirrored(url, None) == url


def test_a_mirror_must_be_http(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="http"):
        install(Registry(tmp_path / "home"), None, ["cii-d16b@D16B"], mirror="/some/folder")


def test_a_server_error_is_retried(server: Server, tmp_path: Path) -> None:
    license_path = f"/{EN}/{EN_COMMITS['1.3.16']}/LICENSE.txt"
    server.fail_first[license_path] = [503]
    server.requests.clear()
    registry = Registry(tmp_path / "home", repinned(server.root))
    [pack] = install(registry, None, ["en16931-cii@1.3.16"], mirror=server.url)
    assert pack.problems() == []
    assert server.requests.count(license_path) == 2


def test_a_missing_file_fails_at_once_naming_the_address(server: Server, tmp_path: Path) -> None:
    license_path = f"/{EN}/{EN_COMMITS['1.3.16']}/LICENSE.txt"
    server.fail_first[license_path] = [404]
    server.requests.clear()
    with pytest.raises(RulesetError) as info:
        install(Registry(tmp_path / "home", repinned(server.root)), None, ["en16931-cii@1.3.16"], mirror=server.url)
    assert info.value.code == "ruleset.install-failed"
    detail = info.value.detail
    assert "HTTP 404" in detail and "https://raw.githubusercontent.com/" in detail and server.url in detail
    assert "rulesets sources" in detail and "--from DIR" in detail
    assert server.requests.count(license_path) == 1


def test_a_download_over_the_size_limit_is_refused(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(download, "MAX_DOWNLOAD_BYTES", 10_000)
    with pytest.raises(RulesetError) as info:
        install(Registry(tmp_path / "home", repinned(server.root)), None, ["ubl-2.1@2.1"], mirror=server.url)
    assert info.value.code == "ruleset.install-failed" and "limit of 10000" in info.value.detail


def test_from_a_folder_of_downloads(server: Server, tmp_path: Path) -> None:
    keys = ["ubl-2.1@2.1", "cii-d16b@D16B", "en16931-cii@1.3.15", "cius-ro-ubl@1.0.9"]
    manifests = repinned(server.root)
    # As `wget -x` leaves them (HOST/PATH): the served tree itself.
    by_path = install(Registry(tmp_path / "a", manifests), server.root, keys)
    # By name, all in one folder.
    flat = tmp_path / "flat"
    flat.mkdir()
    for address in addresses(manifests[k] for k in keys):
        shutil.copyfile(server.root / _host_path(address.url), flat / _host_path(address.url).name)
    by_name = install(Registry(tmp_path / "b", manifests), flat, keys)
    for one, two in zip(by_path, by_name, strict=True):
        assert one.problems() == [] and _files(one.directory) == _files(two.directory)
    (flat / "LICENSE.txt").unlink()
    with pytest.raises(RulesetError) as info:
        install(Registry(tmp_path / "c", manifests), flat, ["en16931-cii@1.3.15"])
    assert info.value.code == "ruleset.missing" and "LICENSE.txt" in info.value.detail
    assert "unpacked official layout" in info.value.detail


def test_manifest_paths_cannot_leave_the_pack_folder() -> None:
    raw = load_manifests()["en16931-cii@1.3.16"].model_dump()
    for bad in ("../escape.xsl", "/etc/passwd", "a/../../b"):
        data = {**raw, "files": {bad: "0" * 64}, "sources": {bad: "bundled"}}
        with pytest.raises(ValidationError):
            Manifest.model_validate(data)


def test_cli_sources_lists_every_address() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["rulesets", "sources"], stdout=out, stderr=err) == 0
    rows = [line.split("\t") for line in out.getvalue().splitlines()]
    # 15 + ZUGFeRD: 4 XSD files x 5 profiles, a stylesheet and a code db x 5, LICENSE and NOTICE (shared);
    # + Peppol: 3 stylesheets, LICENSE and NOTICE of phive-rules-peppol; + national CIUS: 4 stylesheets, LICENSE and
    # NOTICE of three phive-rules modules (SI-UBL and NLCIUS-CII share theirs); + the viewer's 11 files; + issue 30:
    # the XRechnung 2.6.0 archive, the three files of configuration 2026-01-31 and the archive of 2026-08-31; + France:
    # 2 FNFE archives, France_RFE's LICENSE; + issue 42: the five stylesheets of FNFE's tag v1.4.0.04, whose sha256
    # is not known in advance ("-": recorded at install); + Croatia: 2 HR-CIUS stylesheets, LICENSE and NOTICE of
    # phive-rules-eracun, the eRačun XSD archive; + Peppol PINT: 28 stylesheets, LICENSE and NOTICE of
    # phive-rules-peppol-pint; + issue 44: 5 KSeF files, FatturaPA's schema and W3C's, OIOUBL's archive
    assert len(rows) == len(addresses(load_manifests().values())) == 129
    for url, sha, packs in rows:
        assert url.startswith("https://") and packs
        assert len(sha) == 64 or (sha == "-" and url.startswith(f"https://{FNFE_1404}/")), url
    by_url = {url: (sha, packs) for url, sha, packs in rows}
    assert by_url["https://" + KOSIT_CONFIG_ZIP] == (
        "2530cd107c414511c5d0462ec10f886910395abfca820db82e83d70bf01221a8",
        CONFIG_NEW,
    )


def test_cli_install_through_a_mirror(server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(download.MIRROR_ENV, server.url)
    out, err = io.StringIO(), io.StringIO()
    code = main(["--home", str(tmp_path / "home"), "rulesets", "install", "cii-d16b@D16B"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert "through the mirror" in err.getvalue() and "installed cii-d16b@D16B" in out.getvalue()


def test_cli_verify_and_list_name_every_missing_pack(tmp_path: Path) -> None:
    for action in ("verify", "list"):
        out, err = io.StringIO(), io.StringIO()
        assert main(["--home", str(tmp_path / "empty"), "rulesets", action], stdout=out, stderr=err) == 2
        for key in load_manifests():
            assert f"Pack {key} is not installed" in err.getvalue(), (action, key)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_cli_draws_a_progress_bar_on_a_terminal_only(server: Server, tmp_path: Path) -> None:
    args = ["rulesets", "install", "--mirror", server.url, "cii-d16b@D16B"]
    terminal, pipe = _Terminal(), io.StringIO()
    assert main(["--home", str(tmp_path / "a"), *args], stdout=io.StringIO(), stderr=terminal) == 0
    assert "\r" in terminal.getvalue() and "CrossIndustryInvoice_100pD16B.xsd" in terminal.getvalue()
    assert main(["--home", str(tmp_path / "b"), *args], stdout=io.StringIO(), stderr=pipe) == 0
    assert "\r" not in pipe.getvalue() and "MB" not in pipe.getvalue()


def test_cli_list_names_an_incomplete_pack(server: Server, tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert main(["--home", str(home), "rulesets", "install", "--mirror", server.url, "cii-d16b@D16B"]) == 0
    (home / "packs/cii-d16b/D16B/NOTICE").unlink()
    out, err = io.StringIO(), io.StringIO()
    assert main(["--home", str(home), "rulesets", "list"], stdout=out, stderr=err) == 2
    assert "INCOMPLETE" in out.getvalue() and "cii-d16b@D16B (1 file(s) missing, e.g. NOTICE)" in err.getvalue()
