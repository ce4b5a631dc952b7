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
EN_RAW = "https://raw.githubusercontent.com/ConnectingEurope/eInvoicing-EN16931/{commit}/"
EN_RELEASE = EN_REPO + "/releases/download/validation-{v}/en16931-{s}-{v}.zip"
EN_1316 = "b6c9e06a59812fb1a83585da40923b3678a649ad"
PHIVE = "ea02b79424f45a57bc3409b879f3204d78085692"
PHIVE_RAW = f"https://raw.githubusercontent.com/phax/phive-rules/{PHIVE}/phive-rules-cius-ro/src/main/resources/"
UBL_ZIP = "https://docs.oasis-open.org/ubl/os-UBL-2.1/UBL-2.1.zip"
XR_ZIP = (
    "https://github.com/itplr-kosit/xrechnung-schematron/releases/download/v2.5.0/xrechnung-3.0.2-schematron-2.5.0.zip"
)
CII_D16B_DIR = "cii/schema/D16B%20SCRDM%20(Subset)/uncoupled%20clm/CII/uncefact/data/standard/"

# The sha256 of each archive as published. EN 16931 and XRechnung: the release zips as committed in
# phax/phive-rules at PHIVE (phive-rules-en16931/docs/{ubl,cii}/, phive-rules-xrechnung/docs/), recorded in
# ../shared/rulesets/SOURCES.md and checked against those blobs. UBL 2.1: the Git LFS object id (= sha256) of
# sources/16_os-UBL-2.1.zip in kduvekot/ubl-release-package (commit dbac955, 57,926,016 bytes), a copy
# downloaded from UBL_ZIP by that repository's tools/release_data.py.
ARCHIVE_SHA256 = {
    UBL_ZIP: "60b80d76394a8a2add90723ecb8e0e2e9d826775de9749df37a72d60703f86ed",
    EN_RELEASE.format(v="1.3.16", s="ubl"): "bafada015efbc5248bf5e05ad2191e1d9833ef96e9dd5f4bce420a747342da85",
    EN_RELEASE.format(v="1.3.16", s="cii"): "1cd53cb8a84d38aedc82c0caede217da983a7934dd663f793a092fd66443c561",
    EN_RELEASE.format(v="1.3.15", s="ubl"): "974901a9edac022f77f500c337e0804b458d25435dd56a353cfbfb12323f5d3b",
    EN_RELEASE.format(v="1.3.15", s="cii"): "dd7335b711f2f492a2e1d23d81f76fae7979857fd538502465b89681263280f4",
    XR_ZIP: "a0f3d82737759bee8591c298ff24983a8f1c667f85e45a34863c75a242bc6f43",
}

# id, version, kind, syntax, source_dir, files (relative to source_dir), entries, upstream, licence, title, and
# sources: where each file comes from for the downloading installer (Manifest.sources): an address, an archive
# address + "#" + member, or "bundled" (written by this project, kept in rulesets/packs/<id>/<version>/); the key
# "*" gives a prefix for every file not named (the file's path is appended).
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
        },
        "archives": [UBL_ZIP],
        "sources": {"NOTICE": "bundled", "*": UBL_ZIP + "#xsdrt/"},
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
        "upstream": {"repository": EN_REPO, "release": "validation-1.3.16", "commit": EN_1316},
        "archives": [],
        "sources": {"NOTICE": "bundled", "*": EN_RAW.format(commit=EN_1316) + CII_D16B_DIR},
    },
]
for version, commit in (
    ("1.3.16", EN_1316),
    ("1.3.15", "8263f86cb49cac1af63837194b0eff52c8601000"),
):
    for syntax, upper in (("ubl", "UBL"), ("cii", "CII")):
        release_zip = EN_RELEASE.format(v=version, s=syntax)
        sheet = f"{syntax}/xslt/EN16931-{upper}-validation.xslt"
        PACKS.append(
            {
                "id": f"en16931-{syntax}",
                "version": version,
                "kind": "schematron",
                "syntax": syntax,
                "title": f"CEN/TC 434 EN 16931 validation artefacts ({upper})",
                "source_dir": f"en16931/{version}",
                "files": [sheet, "LICENSE.txt"],
                "entries": {"stylesheet": sheet},
                "licence": "EUPL-1.2",
                "upstream": {"repository": EN_REPO, "release": f"validation-{version}", "commit": commit},
                "archives": [release_zip],
                # The release zips hold schematron/, xslt/ and examples/ only; the licence is the repository's.
                "sources": {
                    sheet: f"{release_zip}#xslt/EN16931-{upper}-validation.xslt",
                    "LICENSE.txt": EN_RAW.format(commit=commit) + "LICENSE.txt",
                },
            }
        )
for syntax, upper in (("ubl", "UBL"), ("cii", "CII")):
    sheet = f"{syntax}/XRechnung-{upper}-validation.xsl"
    PACKS.append(
        {
            "id": f"xrechnung-{syntax}",
            "version": "2.5.0",
            "kind": "schematron",
            "syntax": syntax,
            "title": f"KoSIT XRechnung 3.0.2 Schematron 2.5.0 ({upper})",
            "source_dir": "xrechnung/2.5.0",
            "files": [sheet, "LICENSE"],
            "entries": {"stylesheet": sheet},
            "licence": "Apache-2.0",
            "upstream": {
                "repository": "https://github.com/itplr-kosit/xrechnung-schematron",
                "release": "v2.5.0",
                "commit": "c4eb3dae54d65d60875a85c392122b5721a1108d",
            },
            "archives": [XR_ZIP],
            "sources": {sheet: f"{XR_ZIP}#schematron/{sheet}", "LICENSE": f"{XR_ZIP}#LICENSE"},
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
            "commit": PHIVE,
        },
        "archives": [],
        # Three files of a 1.2 GB tree: fetched one by one at the pinned commit, not as a commit archive.
        "sources": {
            "xslt-phive/EN16931-CIUS_RO-UBL-validation.xslt": PHIVE_RAW
            + "external/schematron/1.0.9/EN16931-CIUS_RO-UBL-validation.xslt",
            "xslt-phive/LICENSE": PHIVE_RAW + "LICENSE",
            "xslt-phive/NOTICE": PHIVE_RAW + "NOTICE",
            "NOTICE": "bundled",
        },
    }
)

# Peppol BIS Billing 3.0, release 2026.5 (BIS Billing 3.0.21, Self-Billing 3.0.2), as phive-rules keeps it: three
# packs from one folder, run as Peppol runs them (its own CEN copy, then the Peppol rules or the self-billing rules).
PEPPOL_PHIVE = "432f0e9a8cff5c03d06625abe7a5fd8e7e346a64"
PEPPOL_RAW = f"https://raw.githubusercontent.com/phax/phive-rules/{PEPPOL_PHIVE}/phive-rules-peppol/src/main/resources/"
PEPPOL_XSLT = PEPPOL_RAW + "external/schematron/openpeppol/2026.5/xslt/"
for pack_id, sheet, title in (
    (
        "peppol-bis-cen-ubl",
        "CEN-EN16931-UBL.xslt",
        "Peppol BIS Billing 3.0 2026.5: Peppol's copy of the CEN EN 16931 rules (UBL)",
    ),
    ("peppol-bis-ubl", "PEPPOL-EN16931-UBL.xslt", "Peppol BIS Billing 3.0 2026.5: Peppol rules (UBL)"),
    ("peppol-bis-sb-ubl", "PEPPOL-EN16931-UBL-SB.xslt", "Peppol BIS Self-Billing 3.0 2026.5: Peppol rules (UBL)"),
):
    PACKS.append(
        {
            "id": pack_id,
            "version": "2026.5",
            "kind": "schematron",
            "syntax": "ubl",
            "title": title,
            "source_dir": "peppol-bis/2026.5",
            "files": [f"xslt/{sheet}", "xslt/LICENSE", "xslt/NOTICE", "NOTICE"],
            "entries": {"stylesheet": f"xslt/{sheet}"},
            "licence": "OpenPeppol copyright (CEN part EUPL-1.2); compiled XSLT: Apache-2.0 (phive-rules); see NOTICE",
            "upstream": {
                "repository": "https://github.com/phax/phive-rules",
                "release": "OpenPeppol BIS Billing 3.0 release 2026.5 (phive-rules openpeppol/2026.5)",
                "commit": PEPPOL_PHIVE,
            },
            "archives": [],
            "sources": {
                f"xslt/{sheet}": PEPPOL_XSLT + sheet,
                "xslt/LICENSE": PEPPOL_RAW + "LICENSE",
                "xslt/NOTICE": PEPPOL_RAW + "NOTICE",
                "NOTICE": "bundled",
            },
        }
    )

# The dates from which a pack version is in force, and until which (inclusive; absent: open). Validation picks, among
# the versions a profile lists, the one in force on the rules date with the latest start (Manifest.in_force).
# EN 16931: the "Last update" date in each release's Schematron header for 1.3.15 (2025-10-16) and the release date of
# validation-1.3.16 (2026-04-14, SOURCES.md). Peppol 2026.5: mandatory from 2026-08-17 (phive-rules valid-from, NOTICE).
# ZUGFeRD 2.5.2 / Factur-X 1.09.2: effective from 2026-09-01 (SOURCES.md); its profiles pin 2.5.2, so the date is shown
# (`rulesets list`), not used to choose, until a second release is installed beside it.
IN_FORCE: dict[str, tuple[str, str | None]] = {
    "en16931-ubl@1.3.15": ("2025-10-16", None),
    "en16931-cii@1.3.15": ("2025-10-16", None),
    "en16931-ubl@1.3.16": ("2026-04-14", None),
    "en16931-cii@1.3.16": ("2026-04-14", None),
    "peppol-bis-cen-ubl@2026.5": ("2026-08-17", None),
    "peppol-bis-ubl@2026.5": ("2026-08-17", None),
    "peppol-bis-sb-ubl@2026.5": ("2026-08-17", None),
    **{
        f"zugferd-{p}{kind}@2.5.2": ("2026-09-01", None)
        for p in ("minimum", "basicwl", "basic", "en16931", "extended")
        for kind in ("", "-xsd")
    },
}


# ZUGFeRD 2.5.2 / Factur-X 1.09.2 (issue 14): per profile an XSD pack (the CII D22B profile subset) and a Schematron
# pack (the compiled stylesheet and the code-db file it reads; the preparation inlines that file, see
# rulesets/prepare.py step inline-code-db). Files as committed in phax/phive-rules at PHIVE_ZF, fetched one by one.
PHIVE_ZF = "432f0e9a8cff5c03d06625abe7a5fd8e7e346a64"
PHIVE_ZF_RAW = f"https://raw.githubusercontent.com/phax/phive-rules/{PHIVE_ZF}/phive-rules-zugferd/src/main/resources/"
ZUGFERD_PROFILES = (
    ("minimum", "MINIMUM", "MINIMUM"),
    ("basicwl", "BASIC-WL", "BASIC WL"),
    ("basic", "BASIC", "BASIC"),
    ("en16931", "EN16931", "EN 16931"),
    ("extended", "EXTENDED", "EXTENDED"),
)
ZF_UPSTREAM = {
    "repository": "https://github.com/phax/phive-rules",
    "release": "ZUGFeRD 2.5.2 / Factur-X 1.09.2 (phive-rules main, 'Added ZF 2.5.2')",
    "commit": PHIVE_ZF,
}
for folder, upper, title in ZUGFERD_PROFILES:
    PACKS.append(
        {
            "id": f"zugferd-{folder}-xsd",
            "version": "2.5.2",
            "kind": "xsd",
            "syntax": "cii",
            "title": f"ZUGFeRD 2.5.2 / Factur-X 1.09.2 {title}: XML Schema (CII D22B profile subset)",
            "source_dir": f"zugferd/2.5.2/xsd/{folder}",
            "files": ["*"],
            "entries": {"cii": f"FACTUR-X_{upper}.xsd"},
            "licence": "as published by FeRD / FNFE-MPE (no licence text in the files; not verified)",
            "upstream": ZF_UPSTREAM,
            "archives": [],
            "sources": {"*": f"{PHIVE_ZF_RAW}external/schemas/2.5.2/{folder}/"},
        }
    )
    sheet = f"xslt/FACTUR-X_{upper}.xslt"
    codedb = f"xslt/FACTUR-X_{upper}_codedb.xml"
    PACKS.append(
        {
            "id": f"zugferd-{folder}",
            "version": "2.5.2",
            "kind": "schematron",
            "syntax": "cii",
            "title": f"ZUGFeRD 2.5.2 / Factur-X 1.09.2 {title}: Schematron (compiled XSLT) and its code lists",
            "source_dir": "zugferd/2.5.2",
            "files": [sheet, codedb, "xslt/LICENSE", "xslt/NOTICE"],
            "entries": {"stylesheet": sheet},
            "licence": "FeRD / FNFE-MPE rules (no licence text in the files); compiled XSLT: Apache-2.0 (phive-rules)",
            "upstream": ZF_UPSTREAM,
            "archives": [],
            "sources": {
                sheet: f"{PHIVE_ZF_RAW}external/schematron/2.5.2/FACTUR-X_{upper}.xslt",
                codedb: f"{PHIVE_ZF_RAW}external/schematron/2.5.2/FACTUR-X_{upper}_codedb.xml",
                "xslt/LICENSE": PHIVE_ZF_RAW + "LICENSE",
                "xslt/NOTICE": PHIVE_ZF_RAW + "NOTICE",
            },
        }
    )


# ---- French CTC rules (issue 31) ------------------------------------------------------------------------------------
# FNFE-MPE's validation artefacts for XP Z12-012 V1.4 ("BR-FR"), versions 1.4.0 (2026-06-30) and 1.4.0.03 (2026-08-04),
# as FNFE ships them compiled (2xslt/): per syntax the BR-FR-Flux2 rules (the standard variant: every rule fatal, as
# phive-rules registers them) and EXTENDED-CTC-FR (the French extended profile, run instead of CEN). Each file is a
# member of the release archive as committed in phax/phive-rules (docs/; 1.4.0 = the fnfe-mpe.org archive, 1.4.0.03 =
# phive's trimmed copy of the GitHub source archive of fnfempe/France_RFE tag v1.4.0.03), the licence France_RFE's
# LICENSE (Apache 2.0) at the commit SOURCES.md records. The _WARNING variants, the CDAR (lifecycle message) rules and
# the archives' copies of CEN and Factur-X are not packs here (SOURCES.md, "French CTC").
FR_PHIVE_DOCS = f"https://raw.githubusercontent.com/phax/phive-rules/{PEPPOL_PHIVE}/phive-rules-france/docs/"
FR_LICENSE = "https://raw.githubusercontent.com/fnfempe/France_RFE/e9520ce398cc99bed4bab493773a494af8ca5aff/LICENSE"
FR_RELEASES = {
    # version: (archive name, folder inside the archive, release text)
    "1.4.0": (
        "2026_06_30_FNFE_SCHEMATRONS_FR_CTC_V1.4.0.zip",
        "2026_06_30_FNFE_SCHEMATRONS_FR_CTC_V1.4.0",
        "FNFE-MPE V1.4.0 (2026-06-30): the fnfe-mpe.org release archive, as committed in phive-rules docs/",
    ),
    "1.4.0.03": (
        "2026_08_04_FNFE_RFE_INVOICE_V1.4.0.03.zip",
        "2026_08_04_FNFE_RFE_INVOICE_V1.4.0.03",
        "FNFE-MPE 1.4.0.03 (2026-08-04): fnfempe/France_RFE tag v1.4.0.03, phive-rules' copy in docs/",
    ),
}
ARCHIVE_SHA256.update(
    {
        FR_PHIVE_DOCS + "2026_06_30_FNFE_SCHEMATRONS_FR_CTC_V1.4.0.zip": (
            "9c77785655cb8fde7dbc7329363073763f9f53204e219af274ba1393a8cdf7de"
        ),
        FR_PHIVE_DOCS + "2026_08_04_FNFE_RFE_INVOICE_V1.4.0.03.zip": (
            "27f11b728e5afc8dc103de6287379b64889c9e8bbc4eb4b6fd785d897aec314d"
        ),
    }
)
FRENCH_PACKS = (
    # pack id, syntax, stylesheet (relative to the version folder), title
    ("fr-ctc-ubl", "ubl", "UBL/EN16931/2xslt/BR-FR-Flux2-Schematron-UBL.xslt", "French CTC rules BR-FR (UBL)"),
    ("fr-ctc-cii", "cii", "CII/EN16931/2xslt/BR-FR-Flux2-Schematron-CII.xslt", "French CTC rules BR-FR (CII)"),
    (
        "fr-extended-ctc-ubl",
        "ubl",
        "UBL/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-UBL.xslt",
        "French EXTENDED-CTC-FR profile rules (UBL; a modified copy of CEN 1.3.16 + BR-FREXT)",
    ),
    (
        "fr-extended-ctc-cii",
        "cii",
        "CII/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-CII.xslt",
        "French EXTENDED-CTC-FR profile rules (CII; Factur-X EXTENDED rules + BR-FREXT)",
    ),
)
for version, (archive, folder, release) in FR_RELEASES.items():
    archive_url = FR_PHIVE_DOCS + archive
    for pack_id, syntax, sheet, title in FRENCH_PACKS:
        PACKS.append(
            {
                "id": pack_id,
                "version": version,
                "kind": "schematron",
                "syntax": syntax,
                "title": f"FNFE-MPE {version}: {title}",
                "source_dir": f"france/{version}",
                "files": [sheet, "LICENSE"],
                "entries": {"stylesheet": sheet},
                "licence": "Apache-2.0 (fnfempe/France_RFE LICENSE; the .sch headers name an 'EUPL 1.4.0')",
                "upstream": {
                    "repository": "https://github.com/phax/phive-rules",
                    "release": release,
                    "commit": PEPPOL_PHIVE,
                },
                "archives": [archive_url],
                "sources": {sheet: f"{archive_url}#{folder}/{sheet}", "LICENSE": FR_LICENSE},
            }
        )
# FNFE-MPE's note (V1.4.0, "APPLICATION"): 1.4.0 applies on reception from its publication (2026-06-30), on sending
# from 2026-09-01; phive-rules registers 1.4.0 and 1.4.0.03 from 2026-09-01, 1.4.0 deprecated. Here: 1.4.0 from its
# publication, 1.4.0.03 (the hotfix phive runs) from 2026-09-01, when it replaces 1.4.0 (latest start wins). No
# version before 2026-06-30 is shipped (1.3.1): a rules date before then is a rules-date error for these profiles.
IN_FORCE.update(
    {
        **{f"{pack_id}@1.4.0": ("2026-06-30", None) for pack_id, *_ in FRENCH_PACKS},
        **{f"{pack_id}@1.4.0.03": ("2026-09-01", None) for pack_id, *_ in FRENCH_PACKS},
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
    # Peppol 2026.5: the CEN copy is CEN 1.3.16's rules; the Peppol rules name a BinaryObject only for @mimeCode and
    # @filename, and read leaf content only in PEPPOL-EN16931-R008 "no empty elements" (as XRechnung's merged copy).
    "peppol-bis-cen-ubl@2026.5",
    "peppol-bis-ubl@2026.5",
    "peppol-bis-sb-ubl@2026.5",
    # Factur-X 1.09.2 (issue 14): the rules whose context is a ram:AttachmentBinaryObject test @mimeCode, @filename
    # and the mimeCode code list, or report the element as not used (test true()); other rules count them; the only
    # rule reading every leaf's text is the "no empty elements" one (context //*[not(*) and not(normalize-space())]).
    *(f"zugferd-{p}@2.5.2" for p in ("minimum", "basicwl", "basic", "en16931", "extended")),
    # FNFE-MPE 1.4.0 / 1.4.0.03 (issue 31): BR-FR names no BinaryObject at all (BR-FR-17/18 read the document
    # reference's description and type code); EXTENDED-CTC-FR's rules on a BinaryObject test @mimeCode, @filename
    # and its existence (UBL-DT-06/07, BR-FREXT-CL-24, CII-DT-022, CII-SR-325), and no rule of the four reads every
    # leaf's text (the wildcard contexts are //*[ends-with(name(), 'Amount')...] and '...DocumentContextParameter').
    *(f"fr-{k}-{s}@{v}" for k in ("ctc", "extended-ctc") for s in ("ubl", "cii") for v in ("1.4.0", "1.4.0.03")),
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
    in_force = IN_FORCE.get(f"{pack['id']}@{pack['version']}")
    if in_force is not None:
        lines.append(f"valid_from = {in_force[0]}")
        if in_force[1] is not None:
            lines.append(f"valid_until = {in_force[1]}")
    lines += [f"source_dir = {toml_str(str(pack['source_dir']))}", "", "[entries]"]
    entries = pack["entries"]
    assert isinstance(entries, dict)
    lines += [f"{toml_str(k)} = {toml_str(v)}" for k, v in entries.items()]
    lines += ["", "[upstream]"]
    upstream = pack["upstream"]
    assert isinstance(upstream, dict)
    lines += [f"{k} = {toml_str(v)}" for k, v in upstream.items()]
    archives = pack["archives"]
    assert isinstance(archives, list)
    for url in archives:
        lines += ["", "[[upstream.archives]]", f"url = {toml_str(url)}"]
        if url in ARCHIVE_SHA256:
            lines.append(f"sha256 = {toml_str(ARCHIVE_SHA256[url])}")
    sources = pack["sources"]
    assert isinstance(sources, dict)
    lines += ["", "[sources]  # where each file comes from: an address, archive#member, or bundled (see Manifest)"]
    lines += [f"{toml_str(f)} = {toml_str(sources.get(f, str(sources.get('*', '')) + f))}" for f in files]
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
