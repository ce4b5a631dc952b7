"""The message catalogue is the one source of the project's translations (issue 46): the tools in ``tools/`` hold
no German, and ``tools/catalogue.py fill`` writes a text only from the catalogue itself
(:class:`~einvoice_validate.rulesets.catalogue.Analogy`), leaving to a translator what it cannot tell."""

from __future__ import annotations

import ast
import re
from collections import Counter

import pytest

from einvoice_validate.messages import Catalogue, Variant, load_catalogue
from einvoice_validate.rulesets.catalogue import Analogy, _shape
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
def held_out(entries: dict[str, tuple[Variant, ...]]) -> tuple[Catalogue, list[tuple[str, Variant]]]:
    """The catalogue less every fifth entry, and the entries left out."""
    kept: dict[str, tuple[Variant, ...]] = {}
    out: list[tuple[str, Variant]] = []
    for i, (rule_id, variants) in enumerate(entries.items()):
        if i % 5 == 2:
            out += [(rule_id, v) for v in variants]
        else:
            kept[rule_id] = variants
    return Catalogue(kept), out


def test_fill_gives_back_what_the_catalogue_already_says(held_out: tuple[Catalogue, list[tuple[str, Variant]]]) -> None:
    """Of the texts left out that the rest of the catalogue has a model for (the same official text, or two texts of
    the same shape), fill gives back most as they were, another wording for a few (the same sentence translated two
    ways in two families); for the others, nothing: a translator writes those (most of France's, Croatia's and
    PINT's sentences occur once). Every language of the catalogue is told by the official text alone."""
    kept, out = held_out
    analogy = Analogy(kept)
    models = Counter((_shape(v.official)[0], v.lang) for variants in kept.entries.values() for v in variants)
    known = {(v.official, v.lang) for variants in kept.entries.values() for v in variants}
    counts = {True: Counter[str](), False: Counter[str]()}
    for _, v in out:
        assert analogy.language(v.official) == v.lang, v.official
        filled = analogy.complete(analogy.new_variant(v.official))
        modelled = (v.official, v.lang) in known or models[(_shape(v.official)[0], v.lang)] >= 2
        for name in {"en": ("de",), "de": ("en",), "fr": ("en", "de"), "hr": ("en", "de"), "ro+en": ("de",)}[v.lang]:
            got, was = getattr(filled, name), getattr(v, name)
            counts[modelled]["same" if got == was else "other" if got else "none"] += 1
    assert {v.lang for _, v in out} == {"en", "de", "fr", "hr", "ro+en"}
    assert counts[False] == {"none": counts[False].total()} and counts[False].total() > 300, counts
    with_model = counts[True].total()
    assert with_model > 600 and counts[True]["same"] > 0.8 * with_model, counts
    assert counts[True]["other"] < 0.03 * with_model, counts


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
    # a quoted value is no language's words: this Croatian text quotes English ones (compliant, conformant)
    assert analogy.language("Račun mora imati vrijednost 'urn:cen.eu:en16931:2017#compliant#conformant'") == "hr"
