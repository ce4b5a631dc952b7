"""Rule selection (issue 28): the patterns, select against ignore, fail-on, and what a selection leaves out of a
report, on reports built here (no rule pack runs) and on a real one."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from einvoice_validate import Finding, Ignored, Message, Selection, Severity, Validator
from einvoice_validate.selection import ALWAYS_SELECTED, IgnoredTally, pattern_matches
from tests.test_cli import BROKEN
from tests.test_france import FRANCE, TODAY_RULES
from tests.test_wire import _report as report


def finding(rule_id: str, severity: Severity = Severity.ERROR, line: int | None = 3) -> Finding:
    flag = {"ERROR": "fatal", "WARNING": "warning", "INFO": "information"}[severity.value]
    return Finding(
        rule_id=rule_id,
        severity=severity,
        flag=flag,
        stage="schematron",
        location="/Invoice",
        line=line,
        message=Message(en=f"{rule_id} text", de=f"{rule_id} Text"),
        source="pack@1",
    )


@pytest.mark.parametrize(
    ("pattern", "rule_id", "expected"),
    [
        ("BR-DE-15", "BR-DE-15", True),
        ("br-de-15", "BR-DE-15", True),  # case-insensitive
        ("BR-DE-1", "BR-DE-15", False),  # an id is not a prefix of a longer number
        ("BR-DE-1", "BR-DE-1", True),
        ("BR-DE-", "BR-DE-15", True),  # a family ends at the id's own '-'
        ("BR-DE", "BR-DE-15", True),
        ("BR-DE", "BR-DEX-09", False),
        ("BR-DE-", "BR-DEX-09", False),
        ("UBL-CR-", "UBL-CR-001", True),
        ("cvc-", "cvc-complex-type.2.4.a", True),
        ("cvc-complex-type", "cvc-complex-type.2.4.a", True),  # '.' is a boundary too
        ("cvc-complex-type.2", "cvc-complex-type.2.4.a", True),
        ("cvc-complex-type.2", "cvc-complex-type.24", False),
        ("BR-DE-1*", "BR-DE-15", True),  # a raw prefix only with '*'
        ("BR-DE-1*", "BR-DE-1", True),
        ("BR-DE-1*", "BR-DE-2", False),
        ("*", "anything.at-all", True),
        ("ALL", "BR-01", True),
        ("BR-", "BR-CO-15", True),
        ("BR-CO-15", "BR-CO-15a", False),
        ("BR-FR-01", "BR-FR-01_BT-1", True),  # '_' too: a French rule's ids per business term
        ("BR-FR-01", "BR-FR-01_EXT-FR-FE-136-1", True),
        ("BR-FR-01", "BR-FR-010_BT-1", False),
        ("BR-FR-01_BT-1", "BR-FR-01_BT-1-1", True),
        ("BR-FR-01_BT-1", "BR-FR-01_BT-10", False),
        ("BR-RO-020", "BR-RO-020_1", True),  # CIUS-RO's and CIUS-PT's variants of one rule
        ("DT-CIUS-PT-020", "DT-CIUS-PT-020_10.1", True),
    ],
)
def test_pattern_matches(pattern: str, rule_id: str, expected: bool) -> None:
    assert pattern_matches(pattern, rule_id) is expected


def test_longest_pattern_wins_and_ignore_on_a_tie() -> None:
    broad_ignore = Selection(select=("BR-",), ignore=("BR-DE-",))
    assert broad_ignore.left_out_by("BR-DE-15") == "BR-DE-"
    assert broad_ignore.keeps("BR-CO-15")
    assert broad_ignore.left_out_by("UBL-CR-001") is None  # not selected at all
    narrow_select = Selection(select=("BR-DE-15",), ignore=("BR-DE-",))
    assert narrow_select.keeps("BR-DE-15") and narrow_select.left_out_by("BR-DE-16") is None  # not selected
    tie = Selection(select=("BR-DE-",), ignore=("BR-DE-",))
    assert tie.left_out_by("BR-DE-15") == "BR-DE-"
    everything = Selection(ignore=("BR-DE-15",))  # no select: every rule, then the ignore
    assert everything.keeps("BR-DE-16") and not everything.keeps("BR-DE-15")


def test_apply_keeps_the_verdict_and_counts_what_it_left_out() -> None:
    r = report(
        finding("BR-DE-15"),
        finding("BR-DE-15", line=9),
        finding("BR-DE-TMP-32", Severity.INFO),
        finding("UBL-CR-001", Severity.WARNING),
        finding("BR-CO-15"),
    )
    selected = Selection(select=("BR-",), ignore=("BR-DE-",)).apply(r)
    assert selected.report is r and selected.report.valid is False
    assert [f.rule_id for f in selected.findings] == ["BR-CO-15"]
    assert selected.fails
    assert {(i.rule_id, i.severity, i.count, i.pattern) for i in selected.ignored} == {
        ("BR-DE-15", Severity.ERROR, 2, "BR-DE-"),
        ("BR-DE-TMP-32", Severity.INFO, 1, "BR-DE-"),
        ("UBL-CR-001", Severity.WARNING, 1, None),
    }
    assert Selection(ignore=("BR-",)).apply(r).fails is False  # only a warning listed: passes on errors


def test_fail_on_warning() -> None:
    warned = report(finding("UBL-CR-001", Severity.WARNING), finding("BR-DE-TMP-32", Severity.INFO))
    assert not Selection().apply(warned).fails
    assert Selection(fail_on="warning").apply(warned).fails
    assert not Selection(fail_on="warning", ignore=("UBL-CR-",)).apply(warned).fails


def test_default_selection_is_the_official_verdict() -> None:
    r = report(finding("BR-01"), finding("UBL-CR-001", Severity.WARNING))
    selected = Selection().apply(r)
    assert not Selection().active
    assert selected.findings == r.findings and selected.ignored == () and selected.fails is (not r.valid)


@pytest.mark.parametrize(
    "bad", [{"ignore": ("BR DE",)}, {"select": ("",)}, {"ignore": ("a,b",)}, {"fail_on": "info"}, {"extra": 1}]
)
def test_bad_selections_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Selection.model_validate(bad)


def test_a_comma_separated_string_is_a_list_of_patterns() -> None:
    assert Selection.model_validate({"ignore": "BR-DE-, UBL-CR-"}).ignore == ("BR-DE-", "UBL-CR-")


def test_ignored_tally_groups_per_pattern_over_a_run() -> None:
    tally = IgnoredTally()
    tally.add([Ignored(rule_id="BR-DE-15", severity=Severity.ERROR, count=2, pattern="BR-DE-")])
    tally.add([])
    tally.add(
        [
            Ignored(rule_id="BR-DE-15", severity=Severity.ERROR, count=1, pattern="BR-DE-"),
            Ignored(rule_id="UBL-CR-001", severity=Severity.WARNING, count=4, pattern=None),
        ]
    )
    assert tally.total == 7 and tally.documents == 2
    assert [(i.pattern, i.rule_id, i.count) for i in tally.items()] == [
        ("BR-DE-", "BR-DE-15", 3),
        (None, "UBL-CR-001", 4),
    ]


def test_on_a_real_report(validator: Validator) -> None:
    r = validator.validate(BROKEN)
    selected = Selection(ignore=("cvc-", "BR-CO-15")).apply(r)
    assert [f.rule_id for f in selected.findings if f.severity is Severity.ERROR] == ["BR-DE-15"]
    assert sorted((i.pattern or "", i.rule_id) for i in selected.ignored) == [
        ("BR-CO-15", "BR-CO-15"),
        ("cvc-", "cvc-complex-type.2.2"),
        ("cvc-", "cvc-datatype-valid.1.2.1"),
    ]
    assert selected.fails and not r.valid


def test_the_note_of_rules_not_in_force_is_listed_unless_ignored() -> None:
    note = finding("rules.version-not-installed", Severity.WARNING)
    r = report(note, finding("BR-DE-15"), finding("BR-CO-15"))
    assert {note.rule_id} == ALWAYS_SELECTED
    selected = Selection(select=("BR-DE-",)).apply(r)  # no select pattern takes it: listed all the same
    assert [f.rule_id for f in selected.findings] == ["rules.version-not-installed", "BR-DE-15"]
    assert [(i.rule_id, i.pattern) for i in selected.ignored] == [("BR-CO-15", None)]
    for pattern in ("rules.", "rules.version-not-installed", "*"):  # an ignore that takes it leaves it out, and says so
        quiet = Selection(select=("BR-DE-",), ignore=(pattern,)).apply(r)
        assert [f.rule_id for f in quiet.findings] == ["BR-DE-15"]
        assert ("rules.version-not-installed", pattern) in [(i.rule_id, i.pattern) for i in quiet.ignored]
    assert Selection(fail_on="warning").apply(report(note)).fails  # strict callers fail on it


def test_on_a_french_report(validator: Validator) -> None:
    """The French rules' ids: ``BR-FR-16`` takes ``BR-FR-16_BT-119`` (its id for BT-119), not
    ``BR-FR-DEC-04_BT-119``."""
    r = validator.validate(
        FRANCE / "mutations/UC12_F202600025_SOUS-LIGNE_CII_Commentee_EXTENDED.m7-1.xml", rules_date=TODAY_RULES
    )
    assert {"BR-FR-16_BT-119", "BR-FR-DEC-04_BT-119", "BR-FXEXT-S-08"} <= {f.rule_id for f in r.findings}
    selected = Selection(select=("BR-FR-",), ignore=("BR-FR-16",)).apply(r)
    assert [f.rule_id for f in selected.findings] == ["BR-FR-DEC-04_BT-119"]
    left_out = {(i.rule_id, i.pattern) for i in selected.ignored}
    assert ("BR-FR-16_BT-119", "BR-FR-16") in left_out and ("BR-FXEXT-S-08", None) in left_out
    assert selected.fails and not r.valid
