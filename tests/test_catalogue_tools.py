"""The message catalogue is the one source of the project's translations (issue 46): the tools in ``tools/`` hold
no German, and ``tools/catalogue.py fill`` writes a text only from the catalogue itself
(:class:`~einvoice_validate.rulesets.catalogue.Analogy`), leaving to a translator what it cannot tell."""

from __future__ import annotations

import ast
import re

import pytest

from einvoice_validate.messages import Catalogue, Variant, load_catalogue
from einvoice_validate.rulesets.catalogue import Analogy
from tests.conftest import REPO

_GERMAN = re.compile(r"[äöüßÄÖÜ]|\b(?:der|die|das|und|nicht|muss|sollte|eine?|Rechnung|Element[es]?)\b")


def test_the_tools_hold_no_german() -> None:
    found = []
    for path in sorted((REPO / "tools").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
            if re.search("[äöüßÄÖÜ]", text) or len(_GERMAN.findall(text)) >= 2:
                found.append(f"{path.name}:{node.lineno}: {text[:60]!r}")
    assert not found, found


@pytest.fixture(scope="module")
def entries() -> dict[str, tuple[Variant, ...]]:
    return load_catalogue().entries


@pytest.fixture(scope="module")
def held_out(entries: dict[str, tuple[Variant, ...]]) -> tuple[Analogy, list[tuple[str, Variant]]]:
    """The catalogue less every fifth entry, and the entries left out."""
    kept: dict[str, tuple[Variant, ...]] = {}
    out: list[tuple[str, Variant]] = []
    for i, (rule_id, variants) in enumerate(entries.items()):
        if i % 5 == 2:
            out += [(rule_id, v) for v in variants]
        else:
            kept[rule_id] = variants
    return Analogy(Catalogue(kept)), out


def test_fill_gives_back_what_the_catalogue_already_says(held_out: tuple[Analogy, list[tuple[str, Variant]]]) -> None:
    """Of the texts left out, the catalogue gives back most as they were, another wording for a few (the same
    sentence translated two ways in two families), and nothing for the rest (a translator writes those)."""
    analogy, out = held_out
    same = other = none = 0
    for _, v in out:
        assert analogy.language(v.official) == v.lang, v.official
        blank = analogy.new_variant(v.official)
        filled = analogy.complete(blank)
        for name in {"en": ("de",), "de": ("en",), "fr": ("en", "de"), "ro+en": ("de",)}[v.lang]:
            got = getattr(filled, name)
            same, other, none = (
                same + (got == getattr(v, name)),
                other + (got != getattr(v, name) and bool(got)),
                none + (not got),
            )
    total = same + other + none
    assert total > 900 and same > 0.55 * total and other < 0.03 * total, (same, other, none)


def test_fill_puts_the_values_of_a_new_text_into_the_catalogue_s_sentence(
    entries: dict[str, tuple[Variant, ...]],
) -> None:
    analogy = Analogy(Catalogue(entries))
    text = analogy.text("Element 'ram:NewThing' must occur exactly 4 times.", "en", "de")
    assert text == "Das Element 'ram:NewThing' muss genau 4-mal vorkommen."
    path = "A UBL invoice should not include the InvoiceLine Item NewThing NewerThing"
    assert analogy.text(path, "en", "de") == (
        "Eine UBL-Rechnung sollte das Element InvoiceLine/Item/NewThing/NewerThing nicht enthalten."
    )
    assert analogy.text("A sentence no rule has ever said about BT-1.", "en", "de") is None
    assert analogy.language("Le BT-1 doit être renseigné.") == "fr"
    assert analogy.language("Die Rechnung muss eine Kennung enthalten.") == "de"
