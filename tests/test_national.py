"""The national CIUS (issue 22): UBL.BE 1.31, SI-UBL 2.0.3.13, NLCIUS-CII 1.0.3.13 and CIUS-PT 2.1.1.

* Parity with the reference run live (``tools/run-reference.sh`` with ``plan-national.tsv``, which chains the packs
  as phive-rules registers them): every document of ``corpus/national/`` and seeded mutations of each
  (``tests/mutate.py``, :data:`MUTANTS_PER_FILE` per document, written to a temporary folder) gets our matching
  profile, runs the same packs and gives the same places (``tests/reference.py``: per pack the (rule id, flag,
  location) multiset, the XSD (code, line) multiset). A document
  the reference routes nowhere (no CustomizationID) is compared as phive validates it, by its explicit profile:
  ours forced, the reference with a plan of that family's lines matching any id (written here).
* phive-rules' expected verdicts (``CTestFiles.java`` of the three modules) hold for the staged files they list.
* The preparation (every step, ``name-bracketed-asserts`` included) gives the official stylesheets' findings.
* Profile choice: by CustomizationID, before Peppol, the G-account note, the dates in force.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from lxml import etree

from einvoice_validate import Report, Validator
from einvoice_validate.cli import main
from einvoice_validate.errors import ProfileError
from einvoice_validate.messages import catalogue
from einvoice_validate.parse import load
from einvoice_validate.rulesets import Registry
from einvoice_validate.rulesets.catalogue import NATIONAL_PACKS, official_rule_texts
from einvoice_validate.rulesets.prepare import (
    DEFAULT_STEPS,
    bracketed_id,
    prepare_stylesheet,
    read_index,
    step_versions,
)
from einvoice_validate.rulesets.registry import sha256_file
from einvoice_validate.schematron.engines import get_engine
from einvoice_validate.validator import EXTENSION_NOTE, GENERIC_PROFILE_NOTE
from tests.assertions import count_assertions
from tests.conftest import CORPUS
from tests.mutate import Mutant, mutant_set, write_mutants
from tests.reference import Row, assert_parity, read_plan, reference_id, run_reference, write_plan
from tests.test_prepare import SVRL, XSL, _official, _outcome, _stop_code

pytestmark = [pytest.mark.corpus, pytest.mark.reference]  # most tests compare with the live reference

REPO = Path(__file__).resolve().parents[1]
NATIONAL = CORPUS / "national"
FAMILIES = {"ubl-be": 22, "si-ubl": 66, "nlcius-cii": 2, "cius-pt": 6}
PACKS = {
    "ubl-be": "ubl-be@1.31",
    "si-ubl": "si-ubl@2.0.3.13",
    "nlcius-cii": "nlcius-cii@1.0.3.13",
    "cius-pt": "cius-pt@2.1.1",
}
MUTANTS_PER_FILE = 4
PLAN = "plan-national.tsv"

# The reference's profile names (plan-national.tsv) -> ours.
PROFILES = {
    "ubl-be": "ubl-be-ubl-invoice",
    "ubl-be-cn": "ubl-be-ubl-creditnote",
    "si-ubl": "si-ubl-2.0-ubl-invoice",
    "si-ubl-cn": "si-ubl-2.0-ubl-creditnote",
    "nlcius-cii": "nlcius-cii",
    "cius-pt": "cius-pt-ubl-invoice",
    "cius-pt-cn": "cius-pt-ubl-creditnote",
}

FILES: list[Path] = sorted(NATIONAL.glob("*/*.xml")) if NATIONAL.is_dir() else []
MUTANTS: list[Mutant] = mutant_set(FILES, MUTANTS_PER_FILE)
FAMILY_OF = {p.name: p.parent.name for p in FILES}
FAMILY_OF.update({m.name: FAMILY_OF[m.base] for m in MUTANTS})

# phive-rules 432f0e9, src/test/java/.../mock/CTestFiles.java: the staged files it lists, good (no error) or bad (at
# least one error) for the VES of the version staged here. UBL.BE: listed as good cases for 1.31 (and the same files
# for 1.30, which the module's test runs; its loop stops at 1.30). SI-UBL 2.0.3.13 and NLCIUS-CII 1.0.3.13: the
# good and error lists. CIUS-PT 2.1.1: good cases.
PHIVE_GOOD = {
    "ubl-be": [f"UBLBE_BE0000000196_V01-150000{n:02d}.xml" for n in (2, 3, 4, 6, 8, 12, 13, 16, 18, 19, 21, 22, 23)]
    + [f"UBLBE_BE0000000196_V01-150000{n:02d}.xml" for n in (26, 27, 28, 30, 31, 32, 36)]
    + ["UBLBE_BE0000000196_V01-15000001 - DocumentStatusCode Converted.xml"],
    "si-ubl": [
        f"SI-UBL-2.0_{s}.xml"
        for s in (
            "BR-NL-10_ok_customer_not_nl",
            "BR-NL-10_ok_customer_not_nl_no_companyid",
            "BR-NL-10_ok_supplier_not_nl",
            "BR-NL-11_ok_negative_payment",
            "BR-NL-11_ok_no_payment",
            "BR-NL-12_ok",
            "BR-NL-13_ok",
            "BR-NL-1_ok_supplier_not_nl",
            "BR-NL-1_ok_supplier_oin",
            "BR-NL-20_warning_taxpointdate",
            "BR-NL-21_warning_descriptioncode",
            "BR-NL-24_warning_ref_issuedate",
            "BR-NL-26_warning_legalform",
            "BR-NL-27_warning_addressline_delivery",
            "BR-NL-27_warning_addressline_representative",
            "BR-NL-27_warning_addressline_seller",
            "BR-NL-28_warning_countrysub_seller",
            "BR-NL-29_warning_paymentmeansname",
            "BR-NL-2_ok_supplier_not_nl",
            "BR-NL-30_warning_financialaccount",
            "BR-NL-31_warning_branchid",
            "BR-NL-32_warning_linereasoncode",
            "BR-NL-32_warning_reasoncode",
            "BR-NL-34_warning_reasoncode",
            "BR-NL-34_warning_reasoncode_line",
            "BR-NL-35_warning_taxexemptionreason",
            "BR-NL-3_ok_not_nl",
            "BR-NL-4_ok_supplier_not_nl",
            "BR-NL-5_ok_taxpart_not_nl",
            "BR-NL-7_ok_384",
            "BR-NL-9_ok",
            "ok_allowance",
            "ok_charge",
            "ok_charge_line",
            "ok_full_negative_zero",
            "ok_minimal",
            "ok_negative",
            "ok_tax_category_O",
            "ok_unitcode",
            "UBL-CR-561_warning",
            "warning_empty_elements",
            "BR-NL-8_ok_381",  # the credit note VES
        )
    ],
    "nlcius-cii": ["NLCIUS-CII_ok_example.xml"],
    "cius-pt": [f"I_CIUS-PT_syntax-model - {s}.xml" for s in ("F_b", "F_c", "F_e", "F_f", "F", "ND")],
}
PHIVE_BAD = {
    "si-ubl": [
        "SI-UBL-2.0_UBL-SR-09_error_multiple_legalentity_registrationname.xml",
        "SI-UBL-2.0_UBL-SR-11_error_multiple_legalentity_companyid.xml",
        "SI-UBL-2.0_UBL-SR-17_error_multiple_legalentity_companyid.xml",
    ],
    "nlcius-cii": ["NLCIUS-CII_error_BR-NL-10.xml"],
}


def _forced_plan(family: str, folder: Path) -> Path:
    """``plan-national.tsv``'s lines of one family, matching any CustomizationID (phive's explicit VES)."""
    chosen = [
        dataclasses.replace(line, customization="*")
        for line in read_plan(PLAN)
        if line.profile.removesuffix("-cn") == family
    ]
    assert chosen, family
    return write_plan(chosen, folder / f"plan-{family}-forced.tsv")


def _run_reference(paths: list[Path], plan: str | Path) -> dict[str, Row]:
    return {path.name: row for path, row in run_reference(paths, plan).items()}


@pytest.fixture(scope="module")
def mutant_paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("national-mutants")
    return {p.name: p for p in write_mutants(MUTANTS, folder)}


@pytest.fixture(scope="module")
def paths(shared: Path, mutant_paths: dict[str, Path]) -> dict[str, Path]:
    return {p.name: p for p in FILES} | mutant_paths


@pytest.fixture(scope="module")
def reference(paths: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Row]:
    """The reference's row per file (corpus and mutants), run live once for the module; the files it routes
    nowhere again with their family's forced plan (``forced`` = True in the row)."""
    rows = _run_reference(list(paths.values()), PLAN)
    unrouted: dict[str, list[Path]] = {}
    for name, row in rows.items():
        if row.get("error") == "no-scenario":
            unrouted.setdefault(FAMILY_OF[name], []).append(paths[name])
    folder = tmp_path_factory.mktemp("national-plans")
    for family, files in unrouted.items():
        plan = _forced_plan(family, folder)
        for name, row in _run_reference(files, plan).items():
            rows[name] = {**row, "forced": True, "plan": str(plan)}
    return rows


@pytest.fixture(scope="module")
def reports(paths: dict[str, Path], reference: dict[str, Row], validator: Validator) -> dict[str, Report]:
    out = {}
    for name, path in paths.items():
        row = reference[name]
        out[name] = validator.validate(path, profile=PROFILES[row["profile"]] if row.get("forced") else None)
    return out


def _assert_parity(name: str, reference: dict[str, Row], reports: dict[str, Report], registry: Registry) -> None:
    """The shared comparison (``tests/reference.py``; SI-UBL's id-less assertions, which the reference prints with no
    id, carry the id of their label: step name-bracketed-asserts), with the plan the row was made with."""
    row = reference[name]
    report = reports[name]
    assert_parity(row, report, registry, row.get("plan", PLAN), profiles=PROFILES)
    assert report.packs[1] == PACKS[FAMILY_OF[name]]


def test_the_corpus_is_complete(shared: Path) -> None:
    assert Counter(p.parent.name for p in FILES) == FAMILIES
    assert len(MUTANTS) == MUTANTS_PER_FILE * len(FILES)
    assert len({m.name for m in MUTANTS}) == len(MUTANTS), "unique mutant names"
    operations = Counter(op["op"] for m in MUTANTS for op in m.mutations)
    assert len(operations) == 9 and min(operations.values()) >= 10, operations


@pytest.mark.parametrize("name", [p.name for p in FILES])
def test_corpus_parity(name: str, reference: dict[str, Row], reports: dict[str, Report], registry: Registry) -> None:
    _assert_parity(name, reference, reports, registry)


@pytest.mark.parametrize("name", [m.name for m in MUTANTS])
def test_mutation_parity(name: str, reference: dict[str, Row], reports: dict[str, Report], registry: Registry) -> None:
    _assert_parity(name, reference, reports, registry)


def test_the_mutants_exercise_the_rules(reference: dict[str, Row], reports: dict[str, Report]) -> None:
    """The comparison above is not trivial: most mutants break a rule, some stop a pack in the reference (where
    ours reports the error per rule and goes on), some break the XSD."""
    rows = [reference[m.name] for m in MUTANTS]
    assert sum(1 for r in rows if r["findings"] or r["xsd"]) >= 0.85 * len(rows)
    assert sum(1 for r in rows if any(f["kind"] == "runtime-error" for f in r["findings"])) >= 20
    assert sum(1 for r in rows if r["xsd"]) >= 0.4 * len(rows)
    assert sum(1 for m in MUTANTS if not reports[m.name].valid) >= 0.7 * len(MUTANTS)
    # the rules that fired with an id (the reference reports SI-UBL's id-less asserts with none)
    fired = {f["id"] for r in rows for f in r["findings"] if f["kind"] != "runtime-error" and f["id"]}
    assert len(fired) >= 60 and any(i.startswith("BR-NL-") for i in fired) and any(i.startswith("ubl-") for i in fired)
    assert any(i.startswith(("BR-CIUS-PT-", "DT-CIUS-PT-")) for i in fired)


def test_an_unrouted_document_is_compared_as_phive_runs_it(
    reference: dict[str, Row], reports: dict[str, Report]
) -> None:
    name = "SI-UBL-2.0_error_no_customizationid.xml"
    assert reference[name]["forced"] and reference[name]["profile"] == "si-ubl"
    assert sorted(reference_id(f) for f in reference[name]["findings"]) == ["BII2-T10-R001", "BR-01"]
    assert not reports[name].valid
    # Matched (no profile given), it has no spec id: EN 16931 with the note saying so, as any such document.
    auto = Validator(rules_home=Registry().home).validate(NATIONAL / "si-ubl" / name)
    assert auto.profile == "en16931-ubl-invoice" and GENERIC_PROFILE_NOTE in {f.rule_id for f in auto.findings}


@pytest.mark.parametrize(
    ("family", "name", "good"),
    [(f, n, True) for f, names in PHIVE_GOOD.items() for n in names]
    + [(f, n, False) for f, names in PHIVE_BAD.items() for n in names],
)
def test_phive_expected_verdicts(family: str, name: str, good: bool, reports: dict[str, Report]) -> None:
    report = reports[name]
    assert FAMILY_OF[name] == family
    assert report.valid is good, [(f.rule_id, f.severity.value) for f in report.errors]
    if good:  # phive's good cases may carry warnings (e.g. BR-NL-20), never an error
        assert all(f.severity.value != "ERROR" for f in report.findings)


def test_phive_lists_cover_the_staged_files() -> None:
    listed = {n for names in (*PHIVE_GOOD.values(), *PHIVE_BAD.values()) for n in names}
    assert listed <= {p.name for p in FILES}
    assert len(listed) == 74  # of 96: the other staged SI-UBL files are not in phive's lists for 2.0.3.13


# --- profile choice ------------------------------------------------------------------------------------------------


def _with_customization(path: Path, new: str) -> bytes:
    data = path.read_bytes()
    old = re.search(rb"<cbc:CustomizationID>([^<]*)</cbc:CustomizationID>", data)
    assert old is not None
    return data.replace(old.group(0), f"<cbc:CustomizationID>{new}</cbc:CustomizationID>".encode(), 1)


SI_UBL = NATIONAL / "si-ubl" / "SI-UBL-2.0_ok_minimal.xml"
UBL_BE = NATIONAL / "ubl-be" / "UBLBE_BE0000000196_V01-15000003.xml"


def test_national_profiles_come_before_peppol(validator: Validator) -> None:
    """SI-UBL documents carry Peppol's ProfileID (BT-23); an id naming both a national CIUS and Peppol BIS gets the
    national rules (profiles.toml: national block before Peppol)."""
    assert b"urn:fdc:peppol.eu:2017:poacc:billing:01:1.0" in SI_UBL.read_bytes()
    assert validator.validate(SI_UBL).profile == "si-ubl-2.0-ubl-invoice"
    peppol = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"
    both = peppol + "#conformant#urn:UBL.BE:1.0.0.20180214"
    assert validator.validate(_with_customization(UBL_BE, both)).profile == "ubl-be-ubl-invoice"
    assert validator.validate(_with_customization(SI_UBL, peppol)).profile == "peppol-bis-3.0-ubl-invoice"
    plain = validator.validate(_with_customization(SI_UBL, "urn:cen.eu:en16931:2017"))
    assert plain.profile == "en16931-ubl-invoice"


def test_a_g_account_invoice_gets_si_ubl_and_a_note(validator: Validator) -> None:
    gaccount = "urn:cen.eu:en16931:2017#compliant#urn:fdc:nen.nl:nlcius:v1.0#conformant#urn:fdc:nen.nl:gaccount:v1.0"
    report = validator.validate(_with_customization(SI_UBL, gaccount))
    assert report.profile == "si-ubl-2.0-ubl-invoice" and report.packs[1] == "si-ubl@2.0.3.13"
    [note] = [f for f in report.findings if f.rule_id == EXTENSION_NOTE]
    assert (note.severity.value, note.stage, note.terms) == ("INFO", "input", ("BT-24",))
    assert "G-account extension 1.0.13" in note.message.en and "G-account extension 1.0.13" in note.message.de
    assert "nicht installiert" in note.message.de and gaccount in note.message.en
    assert report.valid  # the note is information; SI-UBL 2.0.3.13 treats the G-account id as its own
    assert not any(f.rule_id == EXTENSION_NOTE for f in validator.validate(SI_UBL).findings)


def test_versions_in_force(validator: Validator, registry: Registry) -> None:
    manifests = registry.manifests
    assert {k: str(manifests[k].valid_from) for k in PACKS.values()} == {
        "ubl-be@1.31": "2024-07-26",
        "si-ubl@2.0.3.13": "2026-08-17",
        "nlcius-cii@1.0.3.13": "2026-08-17",
        "cius-pt@2.1.1": "2021-02-26",
    }
    report = validator.validate(SI_UBL, rules_date=date(2026, 8, 17))
    [choice] = report.version_choices
    assert choice.pack == "si-ubl@2.0.3.13" and "from 2026-08-17" in choice.reason
    with pytest.raises(ProfileError, match="no version of si-ubl is in force on 2026-08-16") as before:
        validator.validate(SI_UBL, rules_date=date(2026, 8, 16))
    assert before.value.code == "request.invalid-parameter" and before.value.reason == "rules-date"
    assert validator.validate(UBL_BE, rules_date=date(2026, 1, 1)).valid  # Belgium's B2B mandate


# --- preparation ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_prepared_and_official_give_the_same_findings(
    family: str, registry: Registry, mutant_paths: dict[str, Path]
) -> None:
    """Every step, on the family's corpus documents and their mutants: the official findings wherever the official
    stylesheet does not stop (SI-UBL's id-less assertions with the id of their label); where it stops, the
    prepared copy reports the error per rule and goes on."""
    pack = registry.get(PACKS[family])
    engine = get_engine()
    official = engine.compile(*_official(pack))
    prepared = engine.compile(*pack.prepared())
    files = [p for p in FILES if p.parent.name == family]
    files += [mutant_paths[m.name] for m in MUTANTS if FAMILY_OF[m.name] == family]
    stopped = with_findings = 0
    for path in files:
        text = load(path.read_bytes()).text()
        expected = _outcome(official, text)
        ours = _outcome(prepared, text)
        code = _stop_code(expected)
        if code is not None:
            stopped += 1
            assert isinstance(ours, list) and _stop_code(ours) is None, path.name
            assert code in {e.code for e in ours if e.kind == "rule-error"}, path.name
            continue
        assert isinstance(expected, list) and isinstance(ours, list)
        named = [e if e.id else dataclasses.replace(e, id=bracketed_id(e.text)) for e in expected]
        assert ours == named, path.name
        with_findings += bool(expected)
    assert with_findings >= len(files) // 3
    if family != "nlcius-cii":  # 2 documents, 8 mutants: none stops NLCIUS
        assert stopped, "the sample must have documents that stop the official stylesheet"


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_installed_copies_have_every_step(family: str, registry: Registry) -> None:
    """Deterministic, recorded and checksummed; the SVRL output nobody reads stripped, each rule's errors isolated
    in its own xsl:try, the "shall not be used" asserts guarded, the attribute walk skipped (CIUS-PT's stylesheet
    never walks attributes), as for CEN's packs (tests/test_prepare.py)."""
    pack = registry.get(PACKS[family])
    official, official_sha = _official(pack)
    data = official.read_bytes()
    path, checksum = pack.prepared()
    assert path.read_bytes() == prepare_stylesheet(data) and sha256_file(path) == checksum
    index = read_index(pack.directory)
    assert index is not None and index.steps == step_versions(DEFAULT_STEPS)
    assert index.entries["stylesheet"].source_sha256 == official_sha
    root = etree.fromstring(path.read_bytes(), etree.XMLParser(huge_tree=True))
    original = etree.fromstring(data, etree.XMLParser(huge_tree=True))
    assert count_assertions(root) == count_assertions(original) > 800
    assert not any(True for _ in root.iter(f"{{{SVRL}}}fired-rule", f"{{{SVRL}}}active-pattern"))
    rules = [t for t in root.iter(f"{{{XSL}}}template") if count_assertions(t)]
    assert len(rules) > 100 and all(any(True for _ in t.iter(f"{{{XSL}}}try")) for t in rules)
    guards = [g for g in root.iter(f"{{{XSL}}}if") if (g.get("test") or "").startswith("exists((")]
    assert sum(1 for g in guards for _ in g.iter(f"{{{XSL}}}choose")) > 400
    assert b'select="@*|*"' not in path.read_bytes()
    assert (b'select="@*|*"' in data) is (family != "cius-pt")


def test_the_si_ubl_version_rules_are_named_by_the_preparation(registry: Registry) -> None:
    pack = registry.get("si-ubl@2.0.3.13")
    official = _official(pack)[0].read_bytes()
    prepared = pack.prepared_stylesheet().read_bytes()
    for rule in ("BII2-T10-R001", "SI-V20-INV-R000", "SI-INV-R000"):
        assert f'id="{rule}"'.encode() not in official and f"[{rule}]".encode() in official
        assert f'id="{rule}"'.encode() in prepared
    assert sha256_file(_official(pack)[0]) == pack.manifest.files[pack.manifest.entries["stylesheet"]]


# --- messages ------------------------------------------------------------------------------------------------------


def test_the_packs_write_english_only(registry: Registry) -> None:
    """No rule text of the four packs is Dutch or Portuguese (so no ``nl``/``pt`` message keys are needed); the only
    foreign halves are Italian, in UBL.BE's copies of Peppol's IT-R rules (English first, as in Peppol's catalogue)."""
    foreign = re.compile(r"\b(moet|niet|worden|factuur|deve|não|obrigatório|fatura|valor|devono)\b", re.I)
    texts = [(k, r, t) for k, r, t in official_rule_texts(registry) if k.startswith(NATIONAL_PACKS)]
    assert len({k for k, _, _ in texts}) == 4 and len(texts) > 3000
    foreign_texts = {r for _, r, t in texts if foreign.search(t)}
    assert foreign_texts == {"IT-R-001", "IT-R-002", "IT-R-003", "IT-R-004"}


def test_findings_in_both_languages_with_their_terms(reports: dict[str, Report]) -> None:
    findings = [f for r in reports.values() for f in r.findings if f.stage == "schematron" and f.rule_id[0].isalpha()]
    assert len(findings) > 500
    assert all(f.message.en != f.message.de for f in findings), "every national finding has its German text"
    by_rule = {f.rule_id: f for f in findings}
    assert by_rule["BR-NL-10"].terms == ("BT-47",)
    assert "rechtlichen Registrierung des Kunden" in by_rule["BR-NL-10"].message.de
    assert by_rule["BR-NL-1"].terms == ("BT-30",)


def test_the_catalogue_names_the_terms_of_the_br_nl_rules() -> None:
    """BR-NL texts name UBL/CII paths, not BT ids: the catalogue gives each its business terms."""
    cat = catalogue()
    for rule in ("BR-NL-1", "BR-NL-2", "BR-NL-3", "BR-NL-10", "BR-NL-12", "BR-NL-27-1", "BR-NL-35"):
        variants = cat.variants(rule)
        assert variants and all(v.all_terms() for v in variants), rule


# --- front ends ----------------------------------------------------------------------------------------------------


def test_cli(registry: Registry) -> None:
    files = [
        NATIONAL / "nlcius-cii" / "NLCIUS-CII_error_BR-NL-10.xml",
        NATIONAL / "cius-pt" / "I_CIUS-PT_syntax-model - F.xml",
    ]
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["--home", str(registry.home), "validate", "--format", "jsonl", *map(str, files)], stdout=out, stderr=err
    )
    assert code == 1, err.getvalue()
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(r["profile"], r["valid"]) for r in rows] == [("nlcius-cii", False), ("cius-pt-ubl-invoice", True)]
    assert [f["ruleId"] for f in rows[0]["findings"]] == ["BR-NL-10"]
    code = main(["--home", str(registry.home), "profiles"], stdout=(out := io.StringIO()), stderr=err)
    assert code == 0 and all(p in out.getvalue() for p in PROFILES.values())
