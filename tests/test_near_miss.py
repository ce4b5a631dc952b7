"""Near-miss specification ids and first-contact errors (issue 27, points 1 and 3).

A document whose BT-24 (or PDF XMP level) names a known family (``[[family]]`` in ``rulesets/profiles.toml``) in a
version or form no profile knows gets a WARNING ``profile.near-miss`` naming the closest profile (ERROR with
``Validator(near_miss=Severity.ERROR)``), is not accepted where the family has a verdict, exits 1, and ``-q`` shows
it. Plain unknown ids keep the INFO ``profile.en16931-only``. Then the one-line errors of the CLI and its exit codes
(README, "Exit codes").
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from einvoice_validate import ProfileError, Severity, Validator
from einvoice_validate.cli import EXIT_CODES, main
from einvoice_validate.rulesets import Registry
from einvoice_validate.validator import GENERIC_PROFILE_NOTE, NEAR_MISS
from tests.conftest import CORPUS, REPO
from tests.facturx_pdf import make_pdf, xmp

pytestmark = pytest.mark.corpus

XR_UBL = CORPUS / "xrechnung-testsuite" / "business-cases" / "standard" / "01.01a-INVOICE_ubl.xml"
XR_CII = CORPUS / "xrechnung-testsuite" / "business-cases" / "standard" / "01.01a-INVOICE_uncefact.xml"
PEPPOL = CORPUS / "peppol-bis" / "examples" / "Allowance-example.xml"
SI_UBL = CORPUS / "national" / "si-ubl" / "SI-UBL-2.0_BR-NL-12_ok.xml"
NLCIUS_CII = CORPUS / "national" / "nlcius-cii" / "NLCIUS-CII_ok_example.xml"
CIUS_PT = CORPUS / "national" / "cius-pt" / "I_CIUS-PT_syntax-model - F.xml"
FX_BASIC = CORPUS / "zugferd" / "ferd-examples" / "basic" / "factur-x-1.xml"
XR12_PDF = CORPUS / "zugferd" / "mustang-validator" / "invalidXRechnung.pdf"


def _first(folder: Path, needle: str) -> Path:
    return next(p for p in sorted(folder.rglob("*.xml")) if needle in p.read_text(encoding="utf-8", errors="ignore"))


def _variant(path: Path, old: str, new: str) -> bytes:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    return text.replace(old, new).encode("utf-8")


# (name, document, old, new, family named, closest profile, accepted)
NEAR_MISSES = [
    ("xrechnung_3.1 UBL", XR_UBL, "xrechnung_3.0", "xrechnung_3.1", "XRechnung", "xrechnung-3.0-ubl-invoice", False),
    (
        "xrechnung_2.3 CII",
        XR_CII,
        "urn:xeinkauf.de:kosit:xrechnung_3.0",
        "urn:xoev-de:kosit:standard:xrechnung_2.3",
        "XRechnung",
        "xrechnung-3.0-cii",
        False,
    ),
    ("peppol 3.1", PEPPOL, "billing:3.0", "billing:3.1", "Peppol BIS", "peppol-bis-3.0-ubl-invoice", None),
    ("si-ubl v2.0", SI_UBL, "nlcius:v1.0", "nlcius:v2.0", "SI-UBL", "si-ubl-2.0-ubl-invoice", None),
    ("nlcius-cii v2.0", NLCIUS_CII, "nlcius:v1.0", "nlcius:v2.0", "NLCIUS", "nlcius-cii", None),
    ("ubl.be lower case", None, "urn:UBL.BE:", "urn:ubl.be:", "UBL.BE", "ubl-be-ubl-invoice", None),
    ("cius-pt lower case", CIUS_PT, "CIUS-PT:", "cius-pt:", "CIUS-PT", "cius-pt-ubl-invoice", None),
    ("factur-x comfort", FX_BASIC, "1p0:basic", "1p0:comfort", "Factur-X", "zugferd-basic", None),
]


@pytest.mark.parametrize(
    ("document", "old", "new", "family", "closest", "accepted"),
    [case[1:] for case in NEAR_MISSES],
    ids=[case[0] for case in NEAR_MISSES],
)
def test_near_miss_is_a_warning_naming_the_closest_profile(
    validator: Validator, document: Path | None, old: str, new: str, family: str, closest: str, accepted: bool | None
) -> None:
    path = document or _first(CORPUS / "national" / "ubl-be", old)
    report = validator.validate(_variant(path, old, new))
    assert report.profile.startswith("en16931-")  # the family's profiles did not apply
    misses = [f for f in report.findings if f.rule_id == NEAR_MISS]
    assert len(misses) == 1 and misses[0].severity is Severity.WARNING and misses[0].stage == "input"
    text = misses[0].message
    assert family in text.en and closest in text.en and new in text.en and "EN 16931" in text.en
    assert family in text.de and closest in text.de and text.de != text.en
    assert GENERIC_PROFILE_NOTE not in {f.rule_id for f in report.findings}  # the warning replaces the note
    assert report.accepted is accepted


def test_a_french_id_in_an_unknown_version_runs_the_french_rules_and_says_so(validator: Validator) -> None:
    folder = CORPUS / "france"
    doc = _first(folder, "1p0:extended-ctc-fr")
    report = validator.validate(_variant(doc, "1p0:extended-ctc-fr", "2p0:extended-ctc-fr"))
    assert report.profile.startswith("fr-extended-ctc-")  # matched by substring: the rules ran
    (miss,) = [f for f in report.findings if f.rule_id == NEAR_MISS]
    assert miss.severity is Severity.WARNING
    assert "2p0:extended-ctc-fr" in miss.message.en and report.profile in miss.message.en
    assert "1p0:extended-ctc-fr" in miss.message.en  # the known version
    assert not [f for f in validator.validate(doc).findings if f.rule_id == NEAR_MISS]  # the known id: none


@pytest.mark.parametrize(
    ("folder", "old", "new", "rule"),
    [
        (CORPUS / "cius-ro", "CIUS-RO:1.0.1", "CIUS-RO:1.0.8", "BR-RO-001"),
        (CORPUS / "national" / "ubl-be", "urn:UBL.BE:1.0.0.20180214", "urn:UBL.BE:9.9", "PEPPOL-EN16931-R004"),
    ],
    ids=["cius-ro 1.0.8", "ubl.be 9.9"],
)
def test_families_whose_packs_check_the_version_reject_it_themselves(
    validator: Validator, folder: Path, old: str, new: str, rule: str
) -> None:
    """A guard, not new behaviour: these profiles match by substring and their packs reject an unknown version."""
    report = validator.validate(_variant(_first(folder, old), old, new))
    assert not report.valid and rule in {f.rule_id for f in report.findings}


def test_strict_callers_make_it_an_error(registry: Registry) -> None:
    strict = Validator(rules_home=registry.home, near_miss=Severity.ERROR)
    report = strict.validate(_variant(XR_UBL, "xrechnung_3.0", "xrechnung_3.1"))
    (miss,) = [f for f in report.findings if f.rule_id == NEAR_MISS]
    assert miss.severity is Severity.ERROR and miss.flag == "error"
    assert report.valid is False and report.accepted is False
    with pytest.raises(ProfileError, match="near_miss") as info:  # checked with the other options (Options)
        Validator(rules_home=registry.home, near_miss=Severity.INFO)
    assert info.value.code == "request.invalid-parameter"


def test_plain_unknown_ids_keep_the_documented_fallback(validator: Validator) -> None:
    for data in (
        _variant(XR_UBL, "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0", "urn:example:x"),
        # Peppol BIS has no CII profile: no near miss, the note "checked against EN 16931 only" stays
        _variant(XR_CII, "urn:xeinkauf.de:kosit:xrechnung_3.0", "urn:fdc:peppol.eu:2017:poacc:billing:3.0"),
    ):
        report = validator.validate(data)
        ids = {f.rule_id for f in report.findings}
        assert GENERIC_PROFILE_NOTE in ids and NEAR_MISS not in ids and report.accepted is None


def test_a_forced_profile_is_no_near_miss(validator: Validator) -> None:
    data = _variant(XR_UBL, "xrechnung_3.0", "xrechnung_3.1")
    report = validator.validate(data, profile="en16931-ubl-invoice")
    assert NEAR_MISS not in {f.rule_id for f in report.findings}


def test_the_xrechnung_1_2_pdf_is_a_near_miss(validator: Validator) -> None:
    report = validator.validate(XR12_PDF)
    (miss,) = [f for f in report.findings if f.rule_id == NEAR_MISS]
    assert "xrechnung_1.2" in miss.message.en and "xrechnung-3.0-cii" in miss.message.en
    assert report.accepted is False


def test_a_pdf_whose_xmp_names_the_family(validator: Validator) -> None:
    xml = _variant(FX_BASIC, "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic", "urn:example:invoice")
    report = validator.validate(make_pdf([("factur-x.xml", xml)], metadata=xmp("EXTENDED")))
    (miss,) = [f for f in report.findings if f.rule_id == NEAR_MISS]
    assert "'EXTENDED'" in miss.message.en and "ZUGFeRD / Factur-X" in miss.message.en
    assert "urn:example:invoice" in miss.message.de


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_quiet_shows_a_near_miss_and_a_rejected_document_exits_1(tmp_path: Path, validator: Validator) -> None:
    path = tmp_path / "xr31.xml"
    path.write_bytes(_variant(XR_UBL, "xrechnung_3.0", "xrechnung_3.1"))
    code, out, _ = _cli("validate", "-q", str(path))
    assert code == 1
    assert f"{path}: valid, rejected [en16931-ubl-invoice]" in out and f"WARNING {NEAR_MISS}" in out
    clean = validator.validate(PEPPOL)
    assert clean.valid and not [f for f in clean.findings if f.severity is not Severity.INFO]
    code, out, _ = _cli("validate", "-q", str(PEPPOL))  # no error, no warning: nothing but the summary
    assert code == 0 and str(PEPPOL) not in out
    code, out, _ = _cli("validate", "-q", str(XR_UBL))  # the rules' own note is the run's, said once, not the file's
    assert code == 0 and str(XR_UBL) not in out and "rules.version-not-installed" in out


# ---- point 3: one-line errors and the exit codes of the README ------------------------------------------------


def test_a_user_pack_copied_but_not_installed_says_so(tmp_path: Path, registry: Registry) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "packs").symlink_to(registry.home / "packs", target_is_directory=True)
    shutil.copytree(REPO / "examples" / "user", home / "user")
    code, _, err = _cli("--home", str(home), "validate", str(XR_UBL))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "is in the rules home" in err and "not installed yet" in err and "older version" not in err
    assert "run `einvoice-validate rulesets install house-rules@1.0`" in err and err.rstrip().endswith(
        "(ruleset.missing)"
    )


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_install_from_a_folder_that_is_not_there(tmp_path: Path, kind: str) -> None:
    source = tmp_path / "nonexistent"
    if kind == "file":
        source.write_text("x")
    code, out, err = _cli("--home", str(tmp_path / "home"), "rulesets", "install", "--from", str(source))
    what = "Directory not found" if kind == "missing" else "Not a directory"
    assert (code, out) == (2, "")
    assert err == f"einvoice-validate: {what}: {source}. (ruleset.install-failed)\n"
    assert not (tmp_path / "home").exists()  # nothing was started


def test_serve_without_packs_is_one_line_exit_2(tmp_path: Path) -> None:
    code, _, err = _cli("--home", str(tmp_path / "empty"), "serve", "--port", "1")
    assert code == 2
    assert err.count("\n") == 1 and "No rule packs are installed" in err and err.rstrip().endswith("(ruleset.missing)")


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError


def test_exit_codes_of_the_readme(tmp_path: Path) -> None:
    """Every code of the documented table (docs/reference/exit-codes.md is written from ``cli.EXIT_CODES``; 130,
    Ctrl-C, is tested in tests/test_reports.py with a real signal)."""
    assert {code for code, _ in EXIT_CODES} == {0, 1, 2, 130, 141}
    broken = tmp_path / "broken.xml"
    broken.write_bytes(_variant(XR_UBL, "xrechnung_3.0", "xrechnung_3.1"))  # valid but rejected: exit 1
    assert _cli("validate", str(XR_UBL))[0] == 0
    assert _cli("validate", str(broken))[0] == 1
    assert _cli("validate", str(tmp_path / "absent.xml"))[0] == 2
    assert _cli("validate", "--no-such-option")[0] == 2
    assert main(["validate", str(XR_UBL)], stdout=_ClosedPipe(), stderr=io.StringIO()) == 141
