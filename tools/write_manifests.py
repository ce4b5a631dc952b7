"""Write the rule-pack manifests in ``rulesets/packs/`` from a folder laid out like ``../shared/rulesets``.

The metadata (ids, versions, upstream addresses, licences) is written here by the project; the file list and
checksums are read from the source folder so that a new upstream release is a re-run, not hand-typed hashes.

Usage: python tools/write_manifests.py [SOURCE_DIR]   (default: ../shared/rulesets)
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from einvoice_validate._toml import toml_value as toml_str  # noqa: E402
from einvoice_validate.acceptance import acceptance_documents, set_digest  # noqa: E402
from einvoice_validate.rulesets.manifest import Acceptance  # noqa: E402

EN_REPO = "https://github.com/ConnectingEurope/eInvoicing-EN16931"
EN_RAW = "https://raw.githubusercontent.com/ConnectingEurope/eInvoicing-EN16931/{commit}/"
EN_RELEASE = EN_REPO + "/releases/download/validation-{v}/en16931-{s}-{v}.zip"
EN_1316 = "b6c9e06a59812fb1a83585da40923b3678a649ad"
PHIVE = "ea02b79424f45a57bc3409b879f3204d78085692"
PHIVE_RAW = f"https://raw.githubusercontent.com/phax/phive-rules/{PHIVE}/phive-rules-cius-ro/src/main/resources/"
UBL_ZIP = "https://docs.oasis-open.org/ubl/os-UBL-2.1/UBL-2.1.zip"
XR_RELEASE = (
    "https://github.com/itplr-kosit/xrechnung-schematron/releases/download/v{v}/xrechnung-3.0.2-schematron-{v}.zip"
)
XR_ZIP = XR_RELEASE.format(v="2.5.0")
XR_260_ZIP = XR_RELEASE.format(v="2.6.0")
KOSIT_CONFIG_REPO = "https://github.com/itplr-kosit/validator-configuration-xrechnung"
KOSIT_CONFIG_2026_01_31 = "4b8cd64524d9af0b8b5db7d541ff7a2bf9827617"  # tag v2026-01-31
KOSIT_CONFIG_2026_08_31_ZIP = (
    KOSIT_CONFIG_REPO + "/releases/download/v2026-08-31/xrechnung-3.0.2-validator-configuration-2026-08-31.zip"
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
    # Summer 2026 (issue 30): the official archives' sha256 as SOURCES.md records them (section "KoSIT XRechnung
    # Schematron 2.6.0"); neither archive could be obtained here.
    XR_260_ZIP: "ca5e07afd04e72cd283d581590ffff3a15f4aac9d2f40c993345d78e67ea22b4",
    KOSIT_CONFIG_2026_08_31_ZIP: "2530cd107c414511c5d0462ec10f886910395abfca820db82e83d70bf01221a8",
}


# id, version, kind, syntax, source_dir, files (relative to source_dir), entries, upstream, licence, title, and
# sources: where each file comes from for the downloading installer (Manifest.sources): an address, an archive
# address + "#" + member, or "bundled" (written by this project, kept in rulesets/packs/<id>/<version>/); the key
# "*" gives a prefix for every file not named (the file's path is appended).
def schematron_pack(
    pack_id: str,
    version: str,
    syntax: str,
    title: str,
    source_dir: str,
    sources: dict[str, str],
    licence: str,
    upstream: dict[str, str],
    archives: list[str],
    **more: object,
) -> dict[str, object]:
    """A Schematron pack whose files are its stylesheet (the first of ``sources``) and the rest of ``sources``."""
    sheet = next(iter(sources))
    return {
        "id": pack_id,
        "version": version,
        "kind": "schematron",
        "syntax": syntax,
        "title": title,
        "source_dir": source_dir,
        "files": list(sources),
        "entries": {"stylesheet": sheet},
        "licence": licence,
        "upstream": upstream,
        "archives": archives,
        "sources": sources,
        **more,
    }


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
        # The release zips hold schematron/, xslt/ and examples/ only; the licence is the repository's.
        PACKS.append(
            schematron_pack(
                f"en16931-{syntax}",
                version,
                syntax,
                f"CEN/TC 434 EN 16931 validation artefacts ({upper})",
                f"en16931/{version}",
                {
                    sheet: f"{release_zip}#xslt/EN16931-{upper}-validation.xslt",
                    "LICENSE.txt": EN_RAW.format(commit=commit) + "LICENSE.txt",
                },
                "EUPL-1.2",
                {"repository": EN_REPO, "release": f"validation-{version}", "commit": commit},
                [release_zip],
            )
        )
# XRechnung Schematron: 2.5.0 (the official archive, unpacked in ../shared/rulesets/xrechnung/2.5.0) and 2.6.0
# (issue 30: three members of the official archive, staged from a third-party copy whose build checks that archive's
# pin; their sha256 are recorded here from that copy, so the manifest is pinned by the archive: a download whose
# members differ from them is refused, see Manifest.pinned_by).
for version, commit, archive, pinned_by in (
    ("2.5.0", "c4eb3dae54d65d60875a85c392122b5721a1108d", XR_ZIP, "files"),
    ("2.6.0", None, XR_260_ZIP, "archive"),
):
    for syntax, upper in (("ubl", "UBL"), ("cii", "CII")):
        sheet = f"{syntax}/XRechnung-{upper}-validation.xsl"
        upstream = {"repository": "https://github.com/itplr-kosit/xrechnung-schematron", "release": f"v{version}"}
        if commit is not None:
            upstream["commit"] = commit
        sources = {sheet: f"{archive}#schematron/{sheet}", "LICENSE": f"{archive}#LICENSE"}
        title = f"KoSIT XRechnung 3.0.2 Schematron {version} ({upper})"
        PACKS.append(
            schematron_pack(
                f"xrechnung-{syntax}",
                version,
                syntax,
                title,
                f"xrechnung/{version}",
                sources,
                "Apache-2.0",
                upstream,
                [archive],
                pinned_by=pinned_by,
            )
        )

# KoSIT validator configurations for XRechnung (issue 30): the dated editions of the XRechnung profiles. Each pins the
# pack version that stands for each Schematron resource its scenarios run (by file name); its scenarios.xml is read at
# install (rulesets/configuration.py). 2026-01-31: the upstream template of the git tag (../shared/rulesets/
# kosit-xrechnung-config/2026-01-31/scenarios.xml; its @token@ placeholders are in texts and paths only).
# 2026-08-31: only its release archive's sha256 is known (SOURCES.md); its members are recorded when it is installed.
KOSIT_RESOURCES = {
    "2026-01-31": ("1.3.15", "2.5.0"),
    "2026-08-31": ("1.3.16", "2.6.0"),
}


def kosit_resources(cen: str, xrechnung: str) -> dict[str, str]:
    return {
        "EN16931-UBL-validation.xsl": f"en16931-ubl@{cen}",
        "EN16931-CII-validation.xsl": f"en16931-cii@{cen}",
        "XRechnung-UBL-validation.xsl": f"xrechnung-ubl@{xrechnung}",
        "XRechnung-CII-validation.xsl": f"xrechnung-cii@{xrechnung}",
    }


KOSIT_CONFIG_RAW = (
    f"https://raw.githubusercontent.com/itplr-kosit/validator-configuration-xrechnung/{KOSIT_CONFIG_2026_01_31}/"
)
PACKS.append(
    {
        "id": "kosit-xrechnung-config",
        "version": "2026-01-31",
        "kind": "configuration",
        "syntax": "any",
        "title": "KoSIT validator configuration XRechnung 3.0.2, release 2026-01-31 (XRechnung 2.5.0 over CEN 1.3.15)",
        "source_dir": "kosit-xrechnung-config/2026-01-31",
        "files": ["scenarios.xml", "LICENSE", "NOTICE"],
        "entries": {"scenarios": "scenarios.xml"},
        "licence": "Apache-2.0",
        "upstream": {"repository": KOSIT_CONFIG_REPO, "release": "v2026-01-31", "commit": KOSIT_CONFIG_2026_01_31},
        "archives": [],
        "resources": kosit_resources(*KOSIT_RESOURCES["2026-01-31"]),
        "sources": {name: KOSIT_CONFIG_RAW + name for name in ("scenarios.xml", "LICENSE", "NOTICE")},
    }
)
PACKS.append(
    {
        "id": "kosit-xrechnung-config",
        "version": "2026-08-31",
        "kind": "configuration",
        "syntax": "any",
        "title": "KoSIT validator configuration XRechnung 3.0.2, release 2026-08-31 (XRechnung 2.6.0 over CEN 1.3.16)",
        "source_dir": "kosit-xrechnung-config/2026-08-31",
        # Members of the release archive, their bytes unknown here: recorded at install (Manifest.pinned_by).
        "files": {"scenarios.xml": "", "LICENSE": ""},
        "entries": {"scenarios": "scenarios.xml"},
        "licence": "Apache-2.0",
        "upstream": {"repository": KOSIT_CONFIG_REPO, "release": "v2026-08-31"},
        "archives": [KOSIT_CONFIG_2026_08_31_ZIP],
        "pinned_by": "archive",
        "resources": kosit_resources(*KOSIT_RESOURCES["2026-08-31"]),
        "sources": {name: f"{KOSIT_CONFIG_2026_08_31_ZIP}#{name}" for name in ("scenarios.xml", "LICENSE")},
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
# XRechnung (issue 30): each KoSIT configuration release from its date (the date in its name, the day KoSIT puts it
# in force: 2026-08-31 for the summer 2026 release), and the XRechnung Schematron it pins from the same day.
IN_FORCE: dict[str, tuple[str, str | None]] = {
    "kosit-xrechnung-config@2026-01-31": ("2026-01-31", None),
    "kosit-xrechnung-config@2026-08-31": ("2026-08-31", None),
    "xrechnung-ubl@2.5.0": ("2026-01-31", None),
    "xrechnung-cii@2.5.0": ("2026-01-31", None),
    "xrechnung-ubl@2.6.0": ("2026-08-31", None),
    "xrechnung-cii@2.6.0": ("2026-08-31", None),
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
# rulesets/prepare/inline_code_db.py). Files as committed in phax/phive-rules at PHIVE_ZF, fetched one by one.
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


# ---- National CIUS (issue 22): UBL.BE, SI-UBL, NLCIUS CII, CIUS-PT ------------------------------------------------
# As phive-rules registers them (phive-rules-{ublbe,simplerinvoicing,cius-pt}/src/main/java/.../*Validation.java):
# the UBL 2.1 or CII D16B XSD, then the one national stylesheet, which carries its own copy of the EN 16931 rules.
# Files as committed in phax/phive-rules at PHIVE_NATIONAL (../shared/rulesets/SOURCES.md, "National CIUS").
PHIVE_NATIONAL = "432f0e9a8cff5c03d06625abe7a5fd8e7e346a64"
NATIONAL_RAW = (
    f"https://raw.githubusercontent.com/phax/phive-rules/{PHIVE_NATIONAL}/phive-rules-{{module}}/src/main/resources/"
)
NATIONAL_PACKS = (
    # id, version, module, stylesheet under external/schematron/, title, licence, release
    (
        "ubl-be",
        "1.31",
        "ublbe",
        "ublbe/en16931/v1.31/GLOBALUBL.BE.xslt",
        "UBL.BE 1.31 (Belgium, GLOBALUBL.BE): EN 16931 rules and the UBL.BE rules in one stylesheet",
        "UBL.BE (ubl.be): no licence text published (CEN-derived parts reused with CEN's permission); "
        "compiled XSLT: Apache-2.0 (phive-rules)",
        "UBL.BE 1.31 (phive-rules 3.1.12, 'Added support for UBL.BE 1.31')",
    ),
    (
        "si-ubl",
        "2.0.3.13",
        "simplerinvoicing",
        "simplerinvoicing/si-ubl-2.0.3.13.xslt",
        "SI-UBL 2.0.3.13 (Netherlands, NLCIUS for UBL): EN 16931 rules and the BR-NL rules in one stylesheet",
        "MIT (Stichting Simplerinvoicing, SimplerInvoicing/validation; CEN-derived parts EUPL-1.2); "
        "packaged by phive-rules (Apache-2.0)",
        "SI-UBL 2.0.3.13 (phive-rules 4.3.3, SimplerInvoicing release of 2026-05-21)",
    ),
    (
        "nlcius-cii",
        "1.0.3.13",
        "simplerinvoicing",
        "nlcius/nlcius-cii-1.0.3.13.xslt",
        "NLCIUS-CII 1.0.3.13 (Netherlands, NLCIUS for CII): EN 16931 rules and the BR-NL rules in one stylesheet",
        "MIT (Stichting Simplerinvoicing, SimplerInvoicing/validation; CEN-derived parts EUPL-1.2); "
        "packaged by phive-rules (Apache-2.0)",
        "NLCIUS-CII 1.0.3.13 (phive-rules 4.3.3, SimplerInvoicing release of 2026-05-21)",
    ),
    (
        "cius-pt",
        "2.1.1",
        "cius-pt",
        "2.1.1/urn_feap.gov.pt_CIUS-PT_2.1.1.xslt",
        "CIUS-PT 2.1.1 (Portugal, eSPap): EN 16931 rules and the CIUS-PT rules in one stylesheet",
        "eSPap (feap.gov.pt): no licence text published (CEN-derived parts EUPL-1.2); "
        "compiled XSLT: Apache-2.0 (phive-rules)",
        "CIUS-PT 2.1.1 (phive-rules 2.1.10, 'Added support for Portuguese CIUS-PT 2.1.1')",
    ),
)
for pack_id, version, module, upstream_sheet, title, licence, release in NATIONAL_PACKS:
    raw = NATIONAL_RAW.format(module=module)
    sheet = "xslt/" + upstream_sheet.rsplit("/", 1)[1]
    PACKS.append(
        {
            "id": pack_id,
            "version": version,
            "kind": "schematron",
            "syntax": "cii" if pack_id == "nlcius-cii" else "ubl",
            "title": title,
            "source_dir": f"national/{pack_id}/{version}",
            "files": [sheet, "LICENSE", "NOTICE"],
            "entries": {"stylesheet": sheet},
            "licence": licence,
            "upstream": {
                "repository": "https://github.com/phax/phive-rules",
                "release": release,
                "commit": PHIVE_NATIONAL,
            },
            "archives": [],
            "sources": {
                sheet: f"{raw}external/schematron/{upstream_sheet}",
                "LICENSE": raw + "LICENSE",
                "NOTICE": raw + "NOTICE",
            },
        }
    )
# In force (README, "National CIUS", cites each source):
# * UBL.BE 1.31: no effective date is published (ubl.be lists the current version only); from its publication: the
#   official archive "GLOBALUBL.BE V1.31.zip" (phive-rules-ublbe/docs/) holds GLOBALUBL.BE.sch dated 2024-07-26,
#   added to phive-rules the same day (commit 3f0f807).
# * SI-UBL 2.0.3.13: "In effect as of 2026-08-17" (SimplerInvoicingValidation.java, VID_SI_INVOICE_V2_0_3_13).
# * NLCIUS-CII 1.0.3.13: released 2026-05-21 in the same SimplerInvoicing repository release as SI-UBL 2.0.3.13
#   (phive-rules 4.3.3); each such release has one effective date for all its sets (SimplerInvoicing/validation,
#   Changelog: "This release will be in effect as of ..."): 2026-08-17.
# * CIUS-PT 2.1.1: eSPap's revision table ("Legenda & Revisões" in Representacao_Sintaxica_CIUS-PT_UBL2.1.xlsx,
#   phive-rules-cius-pt/docs/2.1.1/): version 2.1.1, "Concluído e publicado" 2021-02-26.
IN_FORCE.update(
    {
        "ubl-be@1.31": ("2024-07-26", None),
        "si-ubl@2.0.3.13": ("2026-08-17", None),
        "nlcius-cii@1.0.3.13": ("2026-08-17", None),
        "cius-pt@2.1.1": ("2021-02-26", None),
    }
)
# ---- end of National CIUS ---------------------------------------------------------------------------------------
# ---- French CTC rules (issue 31) --------------------------------------------------------------------------------
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
# ---- end of French CTC rules -----------------------------------------------------------------------------------
# ---- National formats beyond UBL and CII (issue 44): Poland KSeF FA(3), Italy FatturaPA, Denmark OIOUBL ----------
# ../shared/rulesets/SOURCES.md, section "France FNFE-MPE 1.4.0.04, Poland KSeF FA(3), Denmark OIOUBL 1.17.2, Italy
# FatturaPA 1.2.2", parts 3 to 5. KSeF FA(3) and FatturaPA publish no machine-readable rules beyond their schemas:
# their profiles run the XSD alone. The two catalogs (catalog.xml) were written when the files were staged: they map
# the schemas' imports by address to the pack's files and ship with the package (bundled).
KSEF_DOCS = "d92d285b928896258afdb27f7150f9127ee18ada"  # CIRFMF/ksef-docs, tag 2.6.0 (schema files of 23e1ce5b)
KSEF_RAW = f"https://raw.githubusercontent.com/CIRFMF/ksef-docs/{KSEF_DOCS}/"
FATTURAPA_COMMIT = "ab534b87398e8cc783f74e808eff1d0dcf0b0fa5"  # phax/ph-fatturapa (docs/1.2.2, added in 453a1fe0)
FATTURAPA_RAW = f"https://raw.githubusercontent.com/phax/ph-fatturapa/{FATTURAPA_COMMIT}/docs/1.2.2/"
# The W3C signature schema the FatturaPA schema imports, at the address it imports it by. The staged copy comes from
# Debian's libxml-security-java (SOURCES.md); it was not compared with the bytes W3C serves: a download that differs
# is refused by its sha256 (install --from is not affected).
XMLDSIG_URL = "https://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd"
# OIOUBL 1.17.2: the official Nemhandel archive as committed in phax/phive-rules (phive-rules-oioubl/docs/, added in
# 1a7fe4f6), its sha256 as SOURCES.md records it (checked against that blob). The archive's folders: Stylesheets/
# (the compiled stylesheets, XSLT 2.0), Stylesheets/SCH/ (their Schematron), Schemas/UBL_v2.1/ (OIOUBL's annotated
# UBL 2.1 schemas), Dokumentation/ (the readme: release notes, no licence text).
OIOUBL_ZIP = (
    f"https://raw.githubusercontent.com/phax/phive-rules/{PEPPOL_PHIVE}/phive-rules-oioubl/docs/"
    "OIOUBL_Schematron_2026-05-01_v1.17.2.ec0bcd89.zip"
)
ARCHIVE_SHA256[OIOUBL_ZIP] = "d8b84ac521abacebde7d15f799f2fcb6dfce01f98ca706fe3c09b7c13c5d4bff"
OIOUBL_UPSTREAM = {
    "repository": "https://github.com/phax/phive-rules",
    "release": "OIOUBL 2.1 Schematron 1.17.2 (Nemhandel archive of 2026-05-01, as committed in phive-rules docs/)",
    "commit": PEPPOL_PHIVE,
}
OIOUBL_LICENCE = "Erhvervsstyrelsen / Nemhandel (no licence text in the archive); OASIS UBL 2.1 schemas (OASIS IPR)"
PACKS += [
    {
        "id": "ksef-fa3-xsd",
        "version": "1-0E",
        "kind": "xsd",
        "syntax": "ksef-fa3",
        "title": "KSeF FA(3) XML Schema 1-0E (Poland, Ministry of Finance) with its base schemas",
        "source_dir": "poland-ksef/fa3-1-0E",
        "files": ["*"],
        "entries": {"ksef-fa3": "schemat_FA(3)_v1-0E.xsd"},
        "catalog": "catalog.xml",
        "licence": "MIT (CIRFMF/ksef-docs LICENSE.txt, Ministerstwo Finansów)",
        "upstream": {
            "repository": "https://github.com/CIRFMF/ksef-docs",
            "release": "2.6.0 (faktury/schemy/FA/)",
            "commit": KSEF_DOCS,
        },
        "archives": [],
        "sources": {
            "catalog.xml": "bundled",
            "LICENSE.txt": KSEF_RAW + "LICENSE.txt",
            "*": KSEF_RAW + "faktury/schemy/FA/",
        },
    },
    {
        "id": "fatturapa-xsd",
        "version": "1.2.2",
        "kind": "xsd",
        "syntax": "fatturapa",
        "title": "FatturaPA 1.2.2 XML Schema (Italy, Agenzia delle Entrate / SdI) with the W3C signature schema",
        "source_dir": "italy-fatturapa/1.2.2",
        "files": ["*"],
        "entries": {"fatturapa": "Schema_del_file_xml_FatturaPA_v1.2.2.xsd"},
        "catalog": "catalog.xml",
        "licence": "Agenzia delle Entrate (public administration publication, no licence text); xmldsig: W3C",
        "upstream": {
            "repository": "https://github.com/phax/ph-fatturapa",
            "release": "FatturaPA 1.2.2 (ph-fatturapa docs/1.2.2)",
            "commit": FATTURAPA_COMMIT,
        },
        "archives": [],
        "sources": {
            "catalog.xml": "bundled",
            "xmldsig-core-schema.xsd": XMLDSIG_URL,
            "*": FATTURAPA_RAW,
        },
    },
    {
        "id": "oioubl-xsd",
        "version": "1.17.2",
        "kind": "xsd",
        "syntax": "ubl",
        "title": "OIOUBL 2.1: UBL 2.1 XML Schema as OIOUBL ships it (Invoice, CreditNote, Reminder)",
        "source_dir": "denmark-oioubl/1.17.2/xsd",
        "files": ["*"],
        "entries": {
            "ubl-invoice": "maindoc/UBL-Invoice-2.1.xsd",
            "ubl-creditnote": "maindoc/UBL-CreditNote-2.1.xsd",
            "ubl-reminder": "maindoc/UBL-Reminder-2.1.xsd",
        },
        "licence": OIOUBL_LICENCE,
        "upstream": OIOUBL_UPSTREAM,
        "archives": [OIOUBL_ZIP],
        "sources": {"*": OIOUBL_ZIP + "#Schemas/UBL_v2.1/"},
    },
]
for doc in ("Invoice", "CreditNote", "Reminder"):
    sheet = f"xslt/OIOUBL_{doc}_Schematron.xsl"
    PACKS.append(
        {
            "id": f"oioubl-{doc.lower()}",
            "version": "1.17.2",
            "kind": "schematron",
            "syntax": "ubl",
            "title": f"OIOUBL 2.1 Schematron 1.17.2 ({doc}): Nemhandel's stylesheet (XSLT 2.0; <Error> report)",
            "source_dir": "denmark-oioubl/1.17.2",
            "files": [sheet, "ReadmeUK.txt"],
            "entries": {"stylesheet": sheet},
            # the stylesheets write <Schematron><Error>...<Description>[rule id] text</Description>...</Error>, not SVRL
            "output": "oioubl-errors",
            # SaxonC-HE 13.1.1's loop lifting fails on the Invoice and CreditNote stylesheets ("Bad parent pointer in
            # expression tree", LoopLifter; compiled through the wrapper, the process dies): SaxonC compiles them
            # without it (the Reminder's too, alike). Saxon-HE 9.9 compiles them with it, and runs them about twice
            # as fast with it: its defaults stay.
            "optimizer": {"saxonc": "-l"},
            # reviewed: the rules naming a BinaryObject (F-LIB095/171/284 and the mimeCode lists) test its existence
            # and @mimeCode; no rule reads an Attachment's, a DocumentReference's or any ancestor's string value (the
            # rules reading '.' have leaf contexts: UUIDs, amounts, currency and certificate codes)
            "attachment_content": "emptiness",
            "licence": OIOUBL_LICENCE,
            "upstream": OIOUBL_UPSTREAM,
            "archives": [OIOUBL_ZIP],
            "sources": {
                sheet: f"{OIOUBL_ZIP}#Stylesheets/OIOUBL_{doc}_Schematron.xsl",
                "ReadmeUK.txt": f"{OIOUBL_ZIP}#Dokumentation/ReadmeUK.txt",
            },
        }
    )
# In force: OIOUBL Schematron 1.17.2 from 2026-05-18 (12:00, the day's change counts as the new version's: dates are
# whole days here); the OIOUBL schemas ship with it. KSeF FA(3) 1-0E: the structure KSeF takes from 2026-02-01 (KSeF
# 2.0; large companies from then, every VAT payer from 2026-04-01). FatturaPA 1.2.2: no start date recorded here
# (shown as always); each profile pins its XSD, so these dates are shown and start the acceptance runs.
IN_FORCE.update(
    {
        "ksef-fa3-xsd@1-0E": ("2026-02-01", None),
        **{f"oioubl-{kind}@1.17.2": ("2026-05-18", None) for kind in ("xsd", "invoice", "creditnote", "reminder")},
    }
)
# ---- end of the national formats beyond UBL and CII ------------------------------------------------------------
# The official XRechnung viewer (issue 25): KoSIT's stylesheets that map UBL/CII to the semantic model (xr:invoice)
# and render it as HTML, with their German and English labels and the page's CSS. Only what `show` runs is installed:
# not the viewer's scripts (the page carries none) nor its XSL-FO stylesheets (the PDF is printed from the HTML).
VIEWER_COMMIT = "0fb18c4d770b46bdd4bbd4ff2c714673996c3e05"
VIEWER_RAW = f"https://raw.githubusercontent.com/itplr-kosit/xrechnung-visualization/{VIEWER_COMMIT}/"
VIEWER_XSL = [
    "xsl/ubl-invoice-xr.xsl",
    "xsl/ubl-creditnote-xr.xsl",
    "xsl/cii-xr.xsl",
    "xsl/common-xr.xsl",
    "xsl/functions.xsl",
    "xsl/xrechnung-html.xsl",
    "xsl/xrechnung-viewer.css",
    "xsl/l10n/de.xml",
    "xsl/l10n/en.xml",
]
PACKS.append(
    {
        "id": "xrechnung-visualization",
        "version": "2026-01-31",
        "kind": "viewer",
        "syntax": "any",
        "title": "KoSIT XRechnung visualization (UBL/CII -> semantic model -> HTML, German and English)",
        "source_dir": "visualization/xrechnung-visualization/2026-01-31",
        "files": [*VIEWER_XSL, "usage.md", "LICENSE"],
        "entries": {
            "ubl-invoice": "xsl/ubl-invoice-xr.xsl",
            "ubl-creditnote": "xsl/ubl-creditnote-xr.xsl",
            "cii": "xsl/cii-xr.xsl",
            "html": "xsl/xrechnung-html.xsl",
            "css": "xsl/xrechnung-viewer.css",
            "l10n-de": "xsl/l10n/de.xml",
            "l10n-en": "xsl/l10n/en.xml",
        },
        "licence": "Apache-2.0",
        "upstream": {
            "repository": "https://github.com/itplr-kosit/xrechnung-visualization",
            "release": "v2026-01-31",
            "commit": VIEWER_COMMIT,
        },
        "archives": [],
        "sources": {
            **{rel: f"{VIEWER_RAW}src/{rel}" for rel in VIEWER_XSL},
            "usage.md": VIEWER_RAW + "doc/usage.md",
            "LICENSE": VIEWER_RAW + "LICENSE",
        },
    }
)
# The official acceptance set of each Schematron pack (Manifest.acceptance; run by `rulesets install`): corpus folders
# under ../shared/corpus the tests already use (corpus/README.md states what each must give); their digest is taken
# from there. XSD packs are exercised by the same documents.
XRECHNUNG_CASES = {
    "title": "XRechnung test suite v2026-01-31, business cases (standard, extension): all accepted",
    "folders": ["xrechnung-testsuite/business-cases/standard", "xrechnung-testsuite/business-cases/extension"],
    "expect": "accepted",
}
XRECHNUNG_CASES_260 = {
    **XRECHNUNG_CASES,
    # The 2026-08-31 test suite (sha256 1e81ef75..., not obtained) changes dummy IBANs and whitespace only (SOURCES.md).
    "title": "XRechnung test suite v2026-01-31, business cases (standard, extension; the 2026-08-31 release changes "
    "only dummy IBANs and whitespace in them): all accepted",
}
EN_EXAMPLES = {
    syntax: {
        "title": f"CEN EN 16931 examples ({syntax.upper()}, tag validation-1.3.16): valid with the EN 16931 profile",
        "folders": [f"en16931-examples/{syntax}"],
        "profiles": (
            {"ubl-invoice": "en16931-ubl-invoice", "ubl-creditnote": "en16931-ubl-creditnote"}
            if syntax == "ubl"
            else {"cii": "en16931-cii"}
        ),
    }
    for syntax in ("ubl", "cii")
}
PEPPOL_EXAMPLES = "OpenPeppol examples of release 2026.5 (phive-rules test files): valid"
SI_UBL_ERROR_CASES = [
    f"SI-UBL-2.0_{case}.xml"
    for case in (
        "BR-NL-10_error_customer_no_companyid",
        "BR-NL-10_error_customer_schemeid",
        "BR-NL-10_error_empty",
        "BR-NL-11_error_no_paymentmeans",
        "BR-NL-1_error_empty",
        "BR-NL-1_error_wrong_scheme",
        "BR-NL-3_error_no_postal",
        "BR-NL-3_error_no_streetname",
        "BR-NL-4_error_no_streetname",
        "BR-NL-5_error_no_city",
        "BR-NL-5_error_no_postal",
        "BR-NL-5_error_no_streetname",
        "BR-NL-7_error_381_invoice",
        "BR-NL-7_error_382",
        "BR-NL-7_error_388",
        "BR-NL-7_error_invoicetypecode_string",
        "BR-NL-8_error_CN_not_381",
        "BR-NL-8_error_CN_not_381_2",
        "BR-NL-9_error_no_reference_whitespace_customizationid",
        "BR-S-08_error",
        "UBL-SR-09_error_multiple_legalentity_registrationname",
        "UBL-SR-11_error_multiple_legalentity_companyid",
        "UBL-SR-17_error_multiple_legalentity_companyid",
        "error_no_customizationid",
    )
]
FRENCH_EXAMPLES = {
    "title": "AFNOR example invoices of XP Z12-012 annex B V1.2 and XP Z12-014 annex B V1.3 (UBL and CII, EN16931 "
    "and EXTENDED-CTC-FR): valid with the French profiles",
    "folders": ["france/xp-z12-012-annexB-v1.2", "france/xp-z12-014-annexB-v1.3"],
}
ACCEPTANCE: dict[str, dict[str, object]] = {
    **{f"en16931-{syntax}@{v}": EN_EXAMPLES[syntax] for syntax in ("ubl", "cii") for v in ("1.3.15", "1.3.16")},
    **{f"xrechnung-{syntax}@2.5.0": XRECHNUNG_CASES for syntax in ("ubl", "cii")},
    **{f"xrechnung-{syntax}@2.6.0": XRECHNUNG_CASES_260 for syntax in ("ubl", "cii")},
    "cius-ro-ubl@1.0.9": {
        "title": "phive-rules CIUS-RO 1.0.9 test files: valid (ubl_b2g_example6.xml is invalid upstream: BR-S-08)",
        "folders": ["cius-ro/ubl-phive-testfiles"],
        "exclude": ["ubl_b2g_example6.xml"],
    },
    "peppol-bis-cen-ubl@2026.5": {
        "title": PEPPOL_EXAMPLES,
        "folders": ["peppol-bis/examples", "peppol-bis/self-billing-examples"],
    },
    "peppol-bis-ubl@2026.5": {"title": PEPPOL_EXAMPLES, "folders": ["peppol-bis/examples"]},
    "peppol-bis-sb-ubl@2026.5": {"title": PEPPOL_EXAMPLES, "folders": ["peppol-bis/self-billing-examples"]},
    **{
        f"zugferd-{p}@2.5.2": {
            "title": f"FeRD examples of ZUGFeRD 2.5.2 {p.upper()} (phive-rules good cases): valid",
            "folders": [f"zugferd/ferd-examples/{p}"],
            # The plain EN 16931 id is Factur-X EN16931 only out of a PDF: these are bare XML, so it is forced.
            **({"profiles": {"cii": "zugferd-en16931"}} if p == "en16931" else {}),
        }
        for p in ("minimum", "basicwl", "basic", "en16931", "extended")
    },
    # National CIUS (issue 22): phive-rules' good cases (CTestFiles.java of each module, as tests/test_national.py
    # lists them); the staged files it lists as errors, or does not list, are left out.
    "ubl-be@1.31": {
        "title": "phive-rules UBL.BE 1.31 test files: phive's good cases, valid",
        "folders": ["national/ubl-be"],
        "exclude": ["UBLBE_BE0000000196_V01-15000015.xml"],
    },
    "si-ubl@2.0.3.13": {
        "title": "phive-rules SI-UBL 2.0 test files: phive's good cases (ok and warning), valid",
        "folders": ["national/si-ubl"],
        "exclude": SI_UBL_ERROR_CASES,
    },
    "nlcius-cii@1.0.3.13": {
        "title": "phive-rules NLCIUS-CII 1.0.3 test files: phive's good case, valid",
        "folders": ["national/nlcius-cii"],
        "exclude": ["NLCIUS-CII_error_BR-NL-10.xml"],
    },
    "cius-pt@2.1.1": {"title": "phive-rules CIUS-PT 2.1.1 test files: valid", "folders": ["national/cius-pt"]},
    # French CTC rules (issue 31): the official AFNOR example invoices (XP Z12-012 annex B V1.2, XP Z12-014 annex B
    # V1.3; corpus/france/README.md: all valid), each with the French profile its markers and BT-24 choose; the
    # seeded mutations (corpus/france/mutations/) are not in the folders. The eight packs share the set: a document
    # whose plan does not run the pack (the other syntax; the EN16931 examples for EXTENDED-CTC-FR) is left out.
    **{
        f"fr-{kind}-{syntax}@{version}": FRENCH_EXAMPLES
        for kind in ("ctc", "extended-ctc")
        for syntax in ("ubl", "cii")
        for version in ("1.4.0", "1.4.0.03")
    },
    # National formats (issue 44): the official examples (corpus READMEs say what each must give). FatturaPA: FPR02
    # is invalid as published (ContattiTrasmittente), ph-bad-* is a test case meant to fail.
    "ksef-fa3-xsd@1-0E": {
        "title": "Ministry of Finance FA(3) examples (and the PDF generator's sample): valid",
        "folders": ["poland-ksef"],
    },
    "fatturapa-xsd@1.2.2": {
        "title": "Official FatturaPA 1.2.2 examples FPA01-03, FPR01, FPR03: valid (FPR02 is invalid as published)",
        "folders": ["italy-fatturapa"],
        "exclude": ["IT01234567890_FPR02.xml", "ph-bad-IT01234567890_FPA01.xml"],
    },
    **{
        f"oioubl-{kind}@1.17.2": {
            "title": "Official OIOUBL 2.1 examples of the 1.17.2 archive (Invoice, CreditNote, Reminder): valid",
            "folders": ["denmark-oioubl"],
        }
        for kind in ("xsd", "invoice", "creditnote", "reminder")
    },
}


# ---- France FNFE-MPE 1.4.0.04 and the CDAR lifecycle messages (issue 42) -----------------------------------------
# 1.4.0.04 (fnfempe/France_RFE tag v1.4.0.04, re-published 2026-09-04, tag commit 97ba0f3d...): fatal mode on
# reception by 2026-10-01 at the latest and on emission from 2026-10-01 (the files' own header; SOURCES.md, "France
# FNFE-MPE 1.4.0.04"). No sha256 of upstream's 1.4.0.04 files is known here, so the download path is pinned by the
# tag's commit (Manifest.pinned_by = "commit": each file fetched from its address at that commit, its sha256 recorded
# at install). ../shared/rulesets/france/1.4.0.04 holds a staged copy that is NOT upstream's bytes (the .sch
# transcribed from a public text index, the XSLT derived from FNFE's 1.4.0.03 XSLT by the same edits): BR-FR UBL, CII
# and CDAR, which `rulesets install --from DIR` installs as such (Manifest.staged) and says so. EXTENDED-CTC-FR 1.4.0.04
# has no copy here: its manifests pin the download only, and until it is installed the EXTENDED-CTC-FR profiles run
# 1.4.0.03 in its place and every report says so (rules.version-not-installed).
# CDAR (the lifecycle messages, flow 6 "CDV"): a syntax of its own (rulesets/syntaxes/cdar.toml); its XSD is the
# CDAR D22B schema FNFE ships in its 1.4.0 archive (CDAR/1xsd-CDAR_D22B_uncoupled/), its rules BR-FR-CDV by version
# as for the invoices: 1.4.0 from 2026-06-30, 1.4.0.03 from 2026-09-01, 1.4.0.04 from 2026-10-01.
FR_TAG_COMMIT = "97ba0f3d4ef2abed5780e9490d5c3a2be832ab1d"
FR_TAG_RAW = f"https://raw.githubusercontent.com/fnfempe/France_RFE/{FR_TAG_COMMIT}/FNFE_RFE_INVOICE/"
FR_LICENSE_SHA256 = "c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4"
FR_CDAR_SHEET = "CDAR/2xslt/BR-FR-CDV-Schematron-CDAR.xslt"
FR_STAGED_NOTE = (
    "FNFE-MPE 1.4.0.04 as staged in ../shared/rulesets/france/1.4.0.04: the BR-FR rules transcribed from a public "
    "text index of phive-rules' copies (.sch, character counts checked) and the stylesheet derived from FNFE's "
    "1.4.0.03 XSLT by the same edits (see its SOURCES.md, 'France FNFE-MPE 1.4.0.04'): not the official archive's bytes"
)
FR_1404 = (
    # pack id, syntax, stylesheet, title, staged here
    *((pack_id, syntax, sheet, title, "extended" not in pack_id) for pack_id, syntax, sheet, title in FRENCH_PACKS),
    ("fr-cdar", "cdar", FR_CDAR_SHEET, "French CTC lifecycle message rules BR-FR-CDV (CDAR)", True),
)
for pack_id, syntax, sheet, title, staged_here in FR_1404:
    PACKS.append(
        {
            "id": pack_id,
            "version": "1.4.0.04",
            "kind": "schematron",
            "syntax": syntax,
            "title": f"FNFE-MPE 1.4.0.04: {title}",
            "source_dir": "france/1.4.0.04",
            "files": {sheet: "", "LICENSE": FR_LICENSE_SHA256},
            "entries": {"stylesheet": sheet},
            "licence": "Apache-2.0 (fnfempe/France_RFE LICENSE; the .sch headers name an 'EUPL 1.4.0')",
            "upstream": {
                "repository": "https://github.com/fnfempe/France_RFE",
                "release": "FNFE-MPE 1.4.0.04 (2026-09-04): fnfempe/France_RFE tag v1.4.0.04",
                "commit": FR_TAG_COMMIT,
            },
            "archives": [],
            "pinned_by": "commit",
            "sources": {sheet: FR_TAG_RAW + sheet, "LICENSE": FR_LICENSE},
            **({"staged": {"note": FR_STAGED_NOTE}} if staged_here else {}),
            # reviewed as 1.4.0.03's (BR-FR and BR-FR-CDV name no BinaryObject); EXTENDED-CTC-FR 1.4.0.04: not seen here
            "attachment_content": "full" if "extended" in pack_id else "emptiness",
        }
    )
for version, (archive, folder, release) in FR_RELEASES.items():  # the CDAR rules of 1.4.0 and 1.4.0.03
    archive_url = FR_PHIVE_DOCS + archive
    PACKS.append(
        {
            "id": "fr-cdar",
            "version": version,
            "kind": "schematron",
            "syntax": "cdar",
            "title": f"FNFE-MPE {version}: French CTC lifecycle message rules BR-FR-CDV (CDAR)",
            "source_dir": f"france/{version}",
            "files": [FR_CDAR_SHEET, "LICENSE"],
            "entries": {"stylesheet": FR_CDAR_SHEET},
            "licence": "Apache-2.0 (fnfempe/France_RFE LICENSE; the .sch headers name an 'EUPL 1.4.0')",
            "upstream": {
                "repository": "https://github.com/phax/phive-rules",
                "release": release,
                "commit": PEPPOL_PHIVE,
            },
            "archives": [archive_url],
            "sources": {FR_CDAR_SHEET: f"{archive_url}#{folder}/{FR_CDAR_SHEET}", "LICENSE": FR_LICENSE},
            "attachment_content": "emptiness",  # no rule names a BinaryObject (a lifecycle message has none)
        }
    )
FR_140_ARCHIVE = FR_PHIVE_DOCS + FR_RELEASES["1.4.0"][0]
CDAR_XSD_DIR = "CDAR/1xsd-CDAR_D22B_uncoupled/"
CDAR_XSD_FILES = (  # CrossDomainAcknowledgementAndResponse_100pD22B + each of these
    ".xsd",
    "_urn_un_unece_uncefact_codelist_standard_UNECE_ContactFunctionCode_D22A.xsd",
    "_urn_un_unece_uncefact_codelist_standard_UNECE_DocumentNameCode_D22A.xsd",
    "_urn_un_unece_uncefact_codelist_standard_UNECE_DocumentStatusCode_D22A.xsd",
    "_urn_un_unece_uncefact_codelist_standard_UNECE_MessageFunctionCode_Acknowledgement_D22A.xsd",
    "_urn_un_unece_uncefact_codelist_standard_UNECE_PartyRoleCode_D22A.xsd",
    "_urn_un_unece_uncefact_codelist_standard_UNECE_ReferenceTypeCode_D22A.xsd",
    "_urn_un_unece_uncefact_codelist_standard_UNECE_StatusCode_D22A.xsd",
    "_urn_un_unece_uncefact_codelist_standard_UNECE_TimePointFormatCode_D21B.xsd",
    "_urn_un_unece_uncefact_data_standard_QualifiedDataType_100.xsd",
    "_urn_un_unece_uncefact_data_standard_ReusableAggregateBusinessInformationEntity_100.xsd",
    "_urn_un_unece_uncefact_data_standard_UnqualifiedDataType_100.xsd",
    "_urn_un_unece_uncefact_identifierlist_standard_ISO_ISOAlpha2LanguageCode_2006-10-27.xsd",
    "_urn_un_unece_uncefact_identifierlist_standard_ISO_ISOTwo-letterCountryCode_SecondEdition2006.xsd",
)
PACKS.append(
    {
        "id": "cdar-d22b",
        "version": "D22B",
        "kind": "xsd",
        "syntax": "cdar",
        "title": "UN/CEFACT Cross Domain Acknowledgement and Response D22B (uncoupled code lists), FNFE-MPE's copy",
        "source_dir": "france/1.4.0",
        "files": [f"{CDAR_XSD_DIR}CrossDomainAcknowledgementAndResponse_100pD22B{suffix}" for suffix in CDAR_XSD_FILES],
        "entries": {"cdar": f"{CDAR_XSD_DIR}CrossDomainAcknowledgementAndResponse_100pD22B.xsd"},
        "licence": "UN/CEFACT XML schema (its copyright notice in each file), in FNFE-MPE's 1.4.0 archive",
        "upstream": {
            "repository": "https://github.com/phax/phive-rules",
            "release": FR_RELEASES["1.4.0"][2],
            "commit": PEPPOL_PHIVE,
        },
        "archives": [FR_140_ARCHIVE],
        "sources": {"*": f"{FR_140_ARCHIVE}#{FR_RELEASES['1.4.0'][1]}/"},
    }
)
IN_FORCE.update(
    {
        **{f"{pack_id}@1.4.0.04": ("2026-10-01", None) for pack_id, *_ in FR_1404},
        "fr-cdar@1.4.0": ("2026-06-30", None),
        "fr-cdar@1.4.0.03": ("2026-09-01", None),
    }
)
CDAR_GOOD_CASES = {
    "title": "phive-rules' French CDAR lifecycle messages (AFNOR use cases UC1, UC4, UC5; good cases): valid",
    "folders": ["france-cdar-1.4.0.04/phive-cdar"],
}
ACCEPTANCE.update(
    {
        **{
            f"fr-{kind}-{syntax}@1.4.0.04": FRENCH_EXAMPLES
            for kind in ("ctc", "extended-ctc")
            for syntax in ("ubl", "cii")
        },
        "fr-cdar@1.4.0": CDAR_GOOD_CASES,
        "fr-cdar@1.4.0.03": CDAR_GOOD_CASES,
        # phive's 1.4.0.04 test folder holds 7 of the 11 (corpus/france-cdar-1.4.0.04/expected.json)
        "fr-cdar@1.4.0.04": {
            **CDAR_GOOD_CASES,
            "title": "phive-rules' French CDAR lifecycle messages of its 1.4.0.04 test folder (good cases): valid",
            "exclude": [
                "UC1_F202500003_01-CDV-200_Deposee_POUR_PPF.xml",
                "UC1_F202500003_03-CDV-203_Mise_a_disposition.xml",
                "UC1_F202500003_06-CDV-211_Paiement_transmis.xml",
                "UC1_F202500003_07-CDV-212_Encaissee_POUR_PPF.xml",
            ],
        },
    }
)
# ---- end of France 1.4.0.04 and CDAR ---------------------------------------------------------------------------


def acceptance_lines(key: str, corpus: Path) -> list[str]:
    spec = ACCEPTANCE.get(key)
    if spec is None:
        return []
    acceptance = Acceptance.model_validate(spec)
    digest = set_digest(corpus, acceptance_documents(corpus, acceptance))
    lines = ["", "[acceptance]  # the official acceptance set, run by `rulesets install` (see Manifest.acceptance)"]
    lines.append(f"title = {toml_str(acceptance.title)}")
    lines.append(f"folders = {toml_str(acceptance.folders)}")
    if acceptance.expect != "valid":
        lines.append(f"expect = {toml_str(acceptance.expect)}")
    if acceptance.exclude:
        lines.append(f"exclude = {toml_str(acceptance.exclude)}")
    if acceptance.profiles:
        lines.append(f"profiles = {toml_str(acceptance.profiles)}")
    lines.append(f"sha256 = {toml_str(digest)}")
    return lines


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
    # 2.6.0 (issue 30): the rules naming a BinaryObject are 2.5.0's, plus BR-TMP-5, which counts the
    # ram:AttachmentBinaryObject elements of a BG-24; leaf content is read only by PEPPOL-EN16931-R008 (emptiness).
    "xrechnung-ubl@2.6.0",
    "xrechnung-cii@2.6.0",
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
    # National CIUS (issue 22): their CEN copies as above; their own rules name a BinaryObject only for @mimeCode
    # (BR-CL-24) and @filename, and read leaf text only in the "no empty elements" rule. Not CIUS-PT: its
    # DT-CIUS-PT rule on cbc:EmbeddedDocumentBinaryObject tests the content's length (matches(., '^(.{1,6826666})$')).
    "ubl-be@1.31",
    "si-ubl@2.0.3.13",
    "nlcius-cii@1.0.3.13",
    # FNFE-MPE 1.4.0 / 1.4.0.03 (issue 31): BR-FR names no BinaryObject at all (BR-FR-17/18 read the document
    # reference's description and type code); EXTENDED-CTC-FR's rules on a BinaryObject test @mimeCode, @filename
    # and its existence (UBL-DT-06/07, BR-FREXT-CL-24, CII-DT-022, CII-SR-325), and no rule of the four reads every
    # leaf's text (the wildcard contexts are //*[ends-with(name(), 'Amount')...] and '...DocumentContextParameter').
    *(f"fr-{k}-{s}@{v}" for k in ("ctc", "extended-ctc") for s in ("ubl", "cii") for v in ("1.4.0", "1.4.0.03")),
}


# ---- Croatia (HR-CIUS 2025 / eRačun) and Peppol PINT (issue 42) ----------------------------------------------------
# Files as committed in phax/phive-rules at HR_PINT_PHIVE (../shared/rulesets/SOURCES.md, "Added 2026-11-28: Croatia
# (HR-CIUS 2025 / eRačun) and Peppol PINT"), fetched one by one; the Tax Administration's eRačun XSD set from its
# official archive as committed in phive's docs/ (the archive's sha256 as SOURCES.md records it).
HR_PINT_PHIVE = "432f0e9a8cff5c03d06625abe7a5fd8e7e346a64"
HR_RAW = f"https://raw.githubusercontent.com/phax/phive-rules/{HR_PINT_PHIVE}/phive-rules-eracun/"
HR_XSD_ZIP = HR_RAW + "docs/UBL2.1%20eRa%C4%8Dun%202026-04-15.zip"
ARCHIVE_SHA256[HR_XSD_ZIP] = "549ced211d2b463db0e5821ed9e604580140aa1870ee8636d207206d872c8388"
HR_RELEASES = {
    # version: the Tax Administration's archive the .sch comes from (SOURCES.md)
    "1.0.2": "HRUBLSchematron-2026-01-24.zip (2026-01-24)",
    "1.0.3": "HRUBLSchematron-06032026-ispravak.zip (2026-03-06, a correction release)",
}
for version, archive in HR_RELEASES.items():
    sheet = "xslt/HR-CIUS-EXT-EN16931-UBL.xslt"
    PACKS.append(
        schematron_pack(
            "hr-cius",
            version,
            "ubl",
            f"HR-CIUS 2025 {version} (Croatia, eRačun): the HR-BR rules and the HR extension's rules (UBL), run "
            "after CEN EN 16931 1.3.15",
            f"hr-cius/{version}",
            {
                sheet: f"{HR_RAW}src/main/resources/external/schematron/{version}/HR-CIUS-EXT-EN16931-UBL.xslt",
                "LICENSE": HR_RAW + "src/main/resources/LICENSE",
                "NOTICE": HR_RAW + "src/main/resources/NOTICE",
            },
            "Porezna uprava (Croatian Tax Administration): no licence file in its archives (CEN-derived parts "
            "reproduced with CEN's permission); compiled XSLT: Apache-2.0 (phive-rules)",
            {
                "repository": "https://github.com/phax/phive-rules",
                "release": f"HR-CIUS-EXT-EN16931-UBL {version}, official archive {archive}, compiled by phive-rules",
                "commit": HR_PINT_PHIVE,
            },
            [],
        )
    )
HR_XSD_FILES = [
    *(
        f"common/{name}"
        for name in (
            "CCTS_CCT_SchemaModule-2.1.xsd",
            "HRExtensionAggregateComponents-1.xsd",
            "UBL-CommonAggregateComponents-2.1.xsd",
            "UBL-CommonBasicComponents-2.1.xsd",
            "UBL-CommonExtensionComponents-2.1.xsd",
            "UBL-CommonSignatureComponents-2.1.xsd",
            "UBL-CoreComponentParameters-2.1.xsd",
            "UBL-ExtensionContentDataType-2.1.xsd",
            "UBL-QualifiedDataTypes-2.1.xsd",
            "UBL-SignatureAggregateComponents-2.1.xsd",
            "UBL-SignatureBasicComponents-2.1.xsd",
            "UBL-UnqualifiedDataTypes-2.1.xsd",
            "UBL-XAdESv132-2.1.xsd",
            "UBL-XAdESv132.xsd",
            "UBL-XAdESv141-2.1.xsd",
            "UBL-XAdESv141.xsd",
            "UBL-xmldsig-core-schema-2.1.xsd",
        )
    ),
    "maindoc/UBL-CreditNote-2.1.xsd",
    "maindoc/UBL-Invoice-2.1.xsd",
]
PACKS.append(
    {
        "id": "hr-eracun-xsd",
        "version": "2026-04-15",
        "kind": "xsd",
        "syntax": "ubl",
        "title": "Croatian Tax Administration's UBL 2.1 XML Schema for eRačun (stricter ExtensionContent: "
        "HRFISK20Data or a signature only)",
        "source_dir": "hr-cius/xsd-eracun-2026-04-15",
        "files": HR_XSD_FILES,
        "entries": {
            "ubl-invoice": "maindoc/UBL-Invoice-2.1.xsd",
            "ubl-creditnote": "maindoc/UBL-CreditNote-2.1.xsd",
        },
        "licence": "no licence file (OASIS UBL 2.1 schemas, OASIS IPR Policy, with the Tax Administration's HR "
        "extension)",
        "upstream": {
            "repository": "https://github.com/phax/phive-rules",
            "release": "UBL2.1 eRačun 2026-04-15 (the Tax Administration's archive, as committed in phive-rules docs/)",
            "commit": HR_PINT_PHIVE,
        },
        "archives": [HR_XSD_ZIP],
        "sources": {rel: f"{HR_XSD_ZIP}#UBL2.1 eRačun/XsdUbl/{rel}" for rel in HR_XSD_FILES},
    }
)
# In force. Croatia: phive sets no dates (SOURCES.md). B2B e-invoicing under Fiscalization 2.0 is mandatory from
# 2026-01-01, and HR-BR-40 rejects any document issued before that day. 1.0.2 from 2026-01-01: of the versions phive
# still runs it is the oldest (1.0.0 of 2025-10-28 and 1.0.1 of 2026-01-20 are deprecated there and are not shipped
# here); it was published on 2026-01-24 as a correction ("HR-BR-30 aligned with EN"), so documents of the mandate's
# first three weeks get it rather than no rules at all. 1.0.3 from 2026-03-06, the date of its official archive
# ("HRUBLSchematron-06032026-ispravak.zip"), not 2026-03-12 (when phive added it). A rules date before 2026-01-01 is a
# rules-date error for the Croatian profiles (docs/explanation/families.md, Croatia). The eRačun XSD is pinned by its
# profiles; its date (the archive's) is shown only.
IN_FORCE.update(
    {
        "hr-cius@1.0.2": ("2026-01-01", None),
        "hr-cius@1.0.3": ("2026-03-06", None),
        "hr-eracun-xsd@2026-04-15": ("2026-04-15", None),
    }
)

# Peppol PINT: per jurisdiction release (and per billing / self-billing variant) the files phive chains: the shared
# PINT rules as that release ships them (PINT-UBL-validation-preprocessed, pack "<id>-shared"), PINT-EU's
# EN16931-aligned rules ("pint-eu-en16931") and the jurisdiction's rules (PINT-jurisdiction-aligned-rules, pack
# "<id>"); the generic ("wildcard") PINT release has the shared rules only ("pint-generic"). Byte-identical copies
# stay separate packs: each is a member of its own release, and a later release of one jurisdiction may change it.
PINT_RAW = (
    f"https://raw.githubusercontent.com/phax/phive-rules/{HR_PINT_PHIVE}/phive-rules-peppol-pint/src/main/resources/"
)
PINT_SHEETS = {
    "shared": ("PINT-UBL-validation-preprocessed.xslt", "the shared PINT rules (ibr-*)"),
    "en16931": ("PINT-EN16931-aligned-rules.xslt", "the EN 16931-aligned rules"),
    "": ("PINT-jurisdiction-aligned-rules.xslt", "the jurisdiction's rules"),
}
PINT_RELEASES = (
    # pack id, version, staged folder (under peppol-pint/), upstream folder (under external/schematron/), variants
    # (staged subfolder, upstream subfolder, pack id suffix), sheets, title, valid_from (SOURCES.md: phive's
    # validFrom, or its comment "from ..." where it sets none)
    (
        "pint-generic",
        "1.1.3",
        "pint/1.1.3",
        "pint/1.1.3/xslt",
        (("", "", ""),),
        ("shared",),
        "Peppol PINT 1.1.3 (generic, 'wildcard')",
        "2026-06-05",
    ),
    (
        "pint-ae",
        "2026.5",
        "pint-ae/2026.5",
        "pint-ae/2026.5",
        (("billing", "billing", ""), ("selfbilling", "selfbilling", "-sb")),
        ("shared", ""),
        "Peppol PINT-AE 2026.5 (United Arab Emirates)",
        "2026-05-28",
    ),
    (
        "pint-aunz",
        "1.1.3",
        "pint-aunz/1.1.3",
        "pint-aunz/1.1.3/xslt",
        (("billing", "billing", ""), ("selfbilling", "selfbilling", "-sb")),
        ("shared", ""),
        "Peppol PINT A-NZ 1.1.3 (Australia, New Zealand)",
        "2026-05-21",
    ),
    (
        "pint-eu",
        "1.1.1",
        "pint-eu/1.1.1",
        "pint-eu/1.1.1/xslt",
        (("", "", ""),),
        ("shared", "en16931", ""),
        "Peppol PINT-EU 1.1.1 (EU jurisdiction)",
        "2026-06-09",
    ),
    (
        "pint-jp",
        "1.1.3",
        "pint-jp/1.1.3",
        "pint-jp/1.1.3/xslt",
        (("", "", ""),),
        ("shared", ""),
        "Peppol PINT-JP 1.1.3 (Japan, qualified invoice)",
        "2026-05-18",
    ),
    (
        "pint-jp-ntr",
        "1.1.3",
        "pint-jp-ntr/1.1.3",
        "pint-jp-ntr/1.1.3/xslt",
        (("", "", ""),),
        ("shared", ""),
        "Peppol PINT-JP 1.1.3 for non-tax-registered businesses",
        "2026-05-18",
    ),
    (
        "pint-jp-sb",
        "1.1.3",
        "pint-jp-sb/1.1.3",
        "pint-jp-sb/1.1.3/xslt",
        (("", "", ""),),
        ("shared", ""),
        "Peppol PINT-JP 1.1.3 self-billing",
        "2026-05-18",
    ),
    (
        "pint-my",
        "1.3.1",
        "pint-my/1.3.1",
        "pint-my/1.3.1/xslt",
        (("billing", "billing", ""), ("selfbilling", "selfbilling", "-sb")),
        ("shared", ""),
        "Peppol PINT-MY 1.3.1 (Malaysia)",
        "2026-06-05",
    ),
    (
        "pint-om",
        "1.0.1",
        "pint-om/1.0.1",
        "pint-om/1.0.1",
        (("billing", "billing", ""), ("selfbilling", "selfbilling", "-sb")),
        ("shared", ""),
        "Peppol PINT-OM 1.0.1 (Oman)",
        "2026-07-17",
    ),
    (
        "pint-sg",
        "1.4.1",
        "pint-sg/1.4.1",
        "pint-sg/1.4.1/xslt",
        (("", "", ""),),
        ("shared", ""),
        "Peppol PINT-SG 1.4.1 (Singapore)",
        "2026-05-25",
    ),
)
PINT_PACKS: list[str] = []
for base_id, version, staged, upstream_dir, variants, kinds, release_title, valid_from in PINT_RELEASES:
    for staged_sub, upstream_sub, suffix in variants:
        variant_title = release_title + (", self-billing" if suffix == "-sb" else "")
        for kind in kinds:
            name, what = PINT_SHEETS[kind]
            pack_id = base_id + suffix + ("" if not kind or base_id == "pint-generic" else f"-{kind}")
            sheet = "/".join(p for p in ("xslt", staged_sub, name) if p)
            upstream_path = "/".join(p for p in (upstream_dir, upstream_sub, name) if p)
            PACKS.append(
                schematron_pack(
                    pack_id,
                    version,
                    "ubl",
                    f"{variant_title}: {what}",
                    f"peppol-pint/{staged}",
                    {
                        sheet: f"{PINT_RAW}external/schematron/{upstream_path}",
                        "LICENSE": PINT_RAW + "LICENSE",
                        "NOTICE": PINT_RAW + "NOTICE",
                    },
                    "OpenPeppol artefacts (no licence file in the resource archives); compiled XSLT and packaging: "
                    "Apache-2.0 (phive-rules)",
                    {
                        "repository": "https://github.com/phax/phive-rules",
                        "release": f"{release_title}, as phive-rules-peppol-pint ships it",
                        "commit": HR_PINT_PHIVE,
                    },
                    [],
                )
            )
            PINT_PACKS.append(f"{pack_id}@{version}")
            IN_FORCE[f"{pack_id}@{version}"] = (valid_from, None)
# Attachments (ATTACHMENT_CONTENT_REVIEWED above), reviewed in the compiled stylesheets (every rule context, assert
# and report test, message value-of and global variable). HR-CIUS 1.0.2 and 1.0.3 name no BinaryObject, Attachment
# or document reference; the one rule reading every leaf's text is HR-BR-33 "no empty elements" (context
# //*[not(*) and not(normalize-space())], outside signatures): emptiness. Run after CEN 1.3.15 (reviewed above).
# PINT, all 28 stylesheets: the rules on a BinaryObject test @mimeCode (a code list) and @filename (contexts
# //*[ends-with(name(), 'BinaryObject')] and cbc:EmbeddedDocumentBinaryObject[@mimeCode]); PINT-EU's DE rule compares
# the @filename of attachments; the rest names cac:Attachment / cac:AdditionalDocumentReference only for existence,
# counts, or their cbc:ID, DocumentTypeCode, DocumentDescription, UUID or ExternalReference/URI; the wildcard contexts
# read elements named *Time or *Amount, and PINT-EU's "no empty elements" (//*[not(*) and not(normalize-space())])
# emptiness; no test or message reads an ancestor's string value (the Invoice or CreditNote, a document reference,
# an attachment).
ATTACHMENT_CONTENT_REVIEWED.update({*(f"hr-cius@{v}" for v in HR_RELEASES), *PINT_PACKS})
# Acceptance: phive's example documents of each jurisdiction (corpus/hr-pint/README.md: all valid but PINT-MY's
# billing-CompleteSample_LHDN-CreditNote.xml, which the OASIS UBL 2.1 XSD rejects: cbc:DueDate in a CreditNote).
# Generic PINT has no examples of its own: the PINT-EU, PINT-JP and PINT-SG examples, whose releases ship the generic
# 1.1.3 shared rules byte for byte, with the generic profile forced. JP self-billing 1.1.3 has no examples anywhere
# (SOURCES.md): no acceptance set (tests/test_versions.py names the exception). Croatia: no official examples are
# public; the corpus's synthetic documents (tools/hrgen.py in ../shared, expectations from the reference only) stand in,
# and the title says so.
for key in PINT_PACKS:
    pack_id = key.split("@")[0]
    if pack_id.startswith("pint-jp-sb"):
        continue
    if pack_id == "pint-generic":
        ACCEPTANCE[key] = {
            "title": "phive-rules' PINT-EU, PINT-JP and PINT-SG example documents (their releases ship the generic "
            "PINT 1.1.3 rules byte for byte), with the generic PINT profile: valid",
            "folders": ["hr-pint/pint-eu", "hr-pint/pint-jp", "hr-pint/pint-sg"],
            "profiles": {"ubl-invoice": "pint-generic-ubl-invoice", "ubl-creditnote": "pint-generic-ubl-creditnote"},
        }
        continue
    folder = pack_id.removesuffix("-shared").removesuffix("-en16931").removesuffix("-sb")
    ACCEPTANCE[key] = {
        "title": f"phive-rules' {folder.upper()} example documents (billing and self-billing), valid",
        "folders": [f"hr-pint/{folder}"],
        **({"exclude": ["billing-CompleteSample_LHDN-CreditNote.xml"]} if folder == "pint-my" else {}),
    }
for version in HR_RELEASES:
    ACCEPTANCE[f"hr-cius@{version}"] = {
        "title": "synthetic HR-CIUS invoices and credit notes written for the corpus (no official examples are "
        "public; their expected results come from the reference only): valid",
        "folders": ["hr-pint/hr-cius"],
    }
# ---- end of Croatia and Peppol PINT -------------------------------------------------------------------------------


def render(pack: dict[str, object], source: Path) -> str:
    base = source / str(pack["source_dir"])
    patterns = pack["files"]
    known: dict[str, str] = {}
    if isinstance(patterns, dict):  # members of a pinned archive whose bytes are not known here: sha256 ""
        known = {str(k): str(v) for k, v in patterns.items()}
        files = list(known)
    elif patterns == ["*"]:
        files = sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())
    else:
        assert isinstance(patterns, list)
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
    if (
        f"{pack['id']}@{pack['version']}" in ATTACHMENT_CONTENT_REVIEWED
        or pack.get("attachment_content") == "emptiness"
    ):
        lines.append('attachment_content = "emptiness"')
    in_force = IN_FORCE.get(f"{pack['id']}@{pack['version']}")
    if in_force is not None:
        lines.append(f"valid_from = {in_force[0]}")
        if in_force[1] is not None:
            lines.append(f"valid_until = {in_force[1]}")
    if pack.get("pinned_by", "files") != "files":
        lines.append(f"pinned_by = {toml_str(str(pack['pinned_by']))}")
    if pack.get("catalog") is not None:
        lines.append(f"catalog = {toml_str(str(pack['catalog']))}")
    if pack.get("output", "svrl") != "svrl":
        lines.append(f"output = {toml_str(str(pack['output']))}")
    optimizer = pack.get("optimizer")
    if isinstance(optimizer, dict) and optimizer:
        lines.append(
            "optimizer = { " + ", ".join(f"{toml_str(k)} = {toml_str(v)}" for k, v in optimizer.items()) + " }"
        )
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
    resources = pack.get("resources")
    if isinstance(resources, dict):
        lines += ["", "[resources]  # the pack standing for each Schematron resource of the scenarios (by file name)"]
        lines += [f"{toml_str(k)} = {toml_str(v)}" for k, v in resources.items()]
    if known:
        lines += ["", '[files]  # path relative to the pack folder = sha256 ("": recorded at install, see pinned_by)']
    else:
        lines += ["", "[files]  # path relative to the pack folder = sha256"]
    lines += [f"{toml_str(f)} = {toml_str(known[f] if f in known else sha256(base / f))}" for f in files]
    staged = pack.get("staged")
    if isinstance(staged, dict):  # a copy that is not upstream's bytes, in the source folder (Manifest.staged)
        lines += ["", "[staged]  # installed by `rulesets install --from DIR` where DIR holds it; not upstream's bytes"]
        lines += [f"note = {toml_str(str(staged['note']))}", "", "[staged.files]  # sha256 of the staged copy"]
        lines += [f"{toml_str(f)} = {toml_str(sha256(base / f))}" for f in files]
    lines += acceptance_lines(f"{pack['id']}@{pack['version']}", source.parent / "corpus")
    return "\n".join(lines) + "\n"


def main() -> int:
    shared = Path(os.environ.get("EINVOICE_SHARED", REPO.parent / "shared"))
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else shared / "rulesets"
    out = REPO / "rulesets" / "packs"
    for pack in PACKS:
        target = out / str(pack["id"]) / f"{pack['version']}.toml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render(pack, source), encoding="utf-8")
        print(target.relative_to(REPO))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
