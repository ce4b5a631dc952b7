"""Write the rule-pack manifests in ``rulesets/packs/`` from a folder laid out like ``../shared/rulesets``.

The metadata (ids, versions, upstream addresses, licences) is written here by the project; the file list and
checksums are read from the source folder so that a new upstream release is a re-run, not hand-typed hashes.

Usage: python tools/write_manifests.py [SOURCE_DIR]   (default: ../shared/rulesets)
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

EN_REPO = "https://github.com/ConnectingEurope/eInvoicing-EN16931"
EN_RELEASE = EN_REPO + "/releases/download/validation-{v}/en16931-{s}-{v}.zip"

# id, version, kind, syntax, source_dir, files (relative to source_dir), entries, upstream, licence, title
PACKS: list[dict[str, object]] = [
    {
        "id": "ubl-2.1",
        "version": "2.1",
        "kind": "xsd",
        "syntax": "ubl",
        "title": "OASIS UBL 2.1 XML Schema (xsdrt), Invoice and CreditNote",
        "source_dir": "xsd/ubl-2.1",
        "files": ["*"],
        "entries": {
            "ubl-invoice": "maindoc/UBL-Invoice-2.1.xsd",
            "ubl-creditnote": "maindoc/UBL-CreditNote-2.1.xsd",
        },
        "licence": "OASIS IPR Policy (see NOTICE)",
        "upstream": {
            "repository": "https://docs.oasis-open.org/ubl/os-UBL-2.1/",
            "release": "UBL 2.1 OASIS Standard (2013-11-04)",
            "archive": "https://docs.oasis-open.org/ubl/os-UBL-2.1/UBL-2.1.zip",
            "archive_prefix": "xsdrt/",
        },
    },
    {
        "id": "cii-d16b",
        "version": "D16B",
        "kind": "xsd",
        "syntax": "cii",
        "title": "UN/CEFACT Cross Industry Invoice D16B (SCRDM subset, uncoupled code lists)",
        "source_dir": "xsd/cii-d16b",
        "files": ["*"],
        "entries": {"cii": "CrossIndustryInvoice_100pD16B.xsd"},
        "licence": "UN/CEFACT copyright notice (see NOTICE)",
        "upstream": {
            "repository": EN_REPO,
            "release": "validation-1.3.16",
            "commit": "b6c9e06a59812fb1a83585da40923b3678a649ad",
            "archive": EN_REPO + "/archive/b6c9e06a59812fb1a83585da40923b3678a649ad.zip",
            "archive_prefix": "eInvoicing-EN16931-b6c9e06a59812fb1a83585da40923b3678a649ad/"
            "cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard/",
        },
    },
]
for version, commit in (
    ("1.3.16", "b6c9e06a59812fb1a83585da40923b3678a649ad"),
    ("1.3.15", "8263f86cb49cac1af63837194b0eff52c8601000"),
):
    for syntax, upper in (("ubl", "UBL"), ("cii", "CII")):
        PACKS.append(
            {
                "id": f"en16931-{syntax}",
                "version": version,
                "kind": "schematron",
                "syntax": syntax,
                "title": f"CEN/TC 434 EN 16931 validation artefacts ({upper})",
                "source_dir": f"en16931/{version}",
                "files": [f"{syntax}/xslt/EN16931-{upper}-validation.xslt", "LICENSE.txt"],
                "entries": {"stylesheet": f"{syntax}/xslt/EN16931-{upper}-validation.xslt"},
                "licence": "EUPL-1.2",
                "upstream": {
                    "repository": EN_REPO,
                    "release": f"validation-{version}",
                    "commit": commit,
                    "archive": EN_RELEASE.format(v=version, s=syntax),
                    "archive_dest": f"{syntax}/",
                },
            }
        )
for syntax, upper in (("ubl", "UBL"), ("cii", "CII")):
    PACKS.append(
        {
            "id": f"xrechnung-{syntax}",
            "version": "2.5.0",
            "kind": "schematron",
            "syntax": syntax,
            "title": f"KoSIT XRechnung 3.0.2 Schematron 2.5.0 ({upper})",
            "source_dir": "xrechnung/2.5.0",
            "files": [f"{syntax}/XRechnung-{upper}-validation.xsl", "LICENSE"],
            "entries": {"stylesheet": f"{syntax}/XRechnung-{upper}-validation.xsl"},
            "licence": "Apache-2.0",
            "upstream": {
                "repository": "https://github.com/itplr-kosit/xrechnung-schematron",
                "release": "v2.5.0",
                "commit": "c4eb3dae54d65d60875a85c392122b5721a1108d",
                "archive": "https://github.com/itplr-kosit/xrechnung-schematron/releases/download/"
                "v2.5.0/xrechnung-3.0.2-schematron-2.5.0.zip",
                "archive_sha256": "a0f3d82737759bee8591c298ff24983a8f1c667f85e45a34863c75a242bc6f43",
                "archive_prefix": "schematron/",
            },
        }
    )
PACKS.append(
    {
        "id": "cius-ro-ubl",
        "version": "1.0.9",
        "kind": "schematron",
        "syntax": "ubl",
        "title": "ANAF CIUS-RO 1.0.9, combined stylesheet (CEN 1.3.8-based copy + BR-RO rules)",
        "source_dir": "cius-ro/1.0.9",
        "files": [
            "xslt-phive/EN16931-CIUS_RO-UBL-validation.xslt",
            "xslt-phive/LICENSE",
            "xslt-phive/NOTICE",
            "NOTICE",
        ],
        "entries": {"stylesheet": "xslt-phive/EN16931-CIUS_RO-UBL-validation.xslt"},
        "licence": "ANAF: no licence file (CEN-derived parts EUPL-1.2); compiled XSLT: Apache-2.0 (phive-rules)",
        "upstream": {
            "repository": "https://github.com/phax/phive-rules",
            "release": "phive-rules-parent-pom-4.5.3",
            "commit": "ea02b79424f45a57bc3409b879f3204d78085692",
            "archive": "https://github.com/phax/phive-rules/archive/ea02b79424f45a57bc3409b879f3204d78085692.zip",
            "archive_prefix": "phive-rules-ea02b79424f45a57bc3409b879f3204d78085692/"
            "phive-rules-cius-ro/src/main/resources/external/schematron/1.0.9/",
            "archive_dest": "xslt-phive/",
        },
    }
)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


# Schematron packs reviewed to read an embedded attachment's content only for emptiness (Manifest.attachment_content,
# schematron/_saxon.slimmed_text): every XPath expression that names a BinaryObject element tests its attributes or
# its existence; the only rules reading any leaf's content are XRechnung's PEPPOL-EN16931-R008 "no empty elements".
ATTACHMENT_CONTENT_REVIEWED = {
    "en16931-ubl@1.3.15",
    "en16931-ubl@1.3.16",
    "en16931-cii@1.3.15",
    "en16931-cii@1.3.16",
    "xrechnung-ubl@2.5.0",
    "xrechnung-cii@2.5.0",
    "cius-ro-ubl@1.0.9",
}


def render(pack: dict[str, object], source: Path) -> str:
    base = source / str(pack["source_dir"])
    patterns = pack["files"]
    assert isinstance(patterns, list)
    if patterns == ["*"]:
        files = sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())
    else:
        files = [str(p) for p in patterns]
    lines = [
        "# Rule pack manifest, written by einvoice-validate (tools/write_manifests.py).",
        "# The artefacts themselves are official upstream files: they are installed, never committed.",
        f"id = {toml_str(str(pack['id']))}",
        f"version = {toml_str(str(pack['version']))}",
        f"kind = {toml_str(str(pack['kind']))}",
        f"syntax = {toml_str(str(pack['syntax']))}",
        f"title = {toml_str(str(pack['title']))}",
        f"licence = {toml_str(str(pack['licence']))}",
    ]
    if f"{pack['id']}@{pack['version']}" in ATTACHMENT_CONTENT_REVIEWED:
        lines.append('attachment_content = "emptiness"')
    lines += [f"source_dir = {toml_str(str(pack['source_dir']))}", "", "[entries]"]
    entries = pack["entries"]
    assert isinstance(entries, dict)
    lines += [f"{toml_str(k)} = {toml_str(v)}" for k, v in entries.items()]
    lines += ["", "[upstream]"]
    upstream = pack["upstream"]
    assert isinstance(upstream, dict)
    lines += [f"{k} = {toml_str(v)}" for k, v in upstream.items()]
    lines += ["", "[files]  # path relative to the pack folder = sha256"]
    lines += [f"{toml_str(f)} = {toml_str(sha256(base / f))}" for f in files]
    return "\n".join(lines) + "\n"


def main() -> int:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "rulesets"
    out = REPO / "rulesets" / "packs"
    for pack in PACKS:
        target = out / str(pack["id"]) / f"{pack['version']}.toml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render(pack, source), encoding="utf-8")
        print(target.relative_to(REPO))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
