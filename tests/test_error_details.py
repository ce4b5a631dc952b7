"""Errors are raised as a code plus a detail of the catalogue (issue 46): the catalogue renders the English and the
German, so rewording the English never loses the German, and no expression reads English back."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from einvoice_validate import InputError
from einvoice_validate import _error_texts as texts
from einvoice_validate.errors import Detail
from einvoice_validate.messages import PLACEHOLDER, Catalogue, Variant, catalogue
from einvoice_validate.parse import load
from tests.conftest import REPO


def test_a_reworded_english_detail_keeps_its_german(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test double of the catalogue words the detail of an empty document otherwise: the English follows, the
    German stays."""
    real = catalogue()
    entries = {key: real.variants(key) for key in ("detail.empty", "document.unreadable")}
    [empty] = entries["detail.empty"]
    entries["detail.empty"] = (Variant(official="there is nothing in the document", de=empty.de),)
    monkeypatch.setattr(texts, "catalogue", lambda: Catalogue(entries))
    with pytest.raises(InputError) as info:
        load(b"")
    assert info.value.detail == "there is nothing in the document"
    assert info.value.message.en == "There is nothing in the document."
    assert info.value.message.de == "Das Dokument ist leer."


def test_a_detail_keeps_its_german_through_a_worker_process() -> None:
    error = InputError("document.unreadable", Detail("detail.this-is", Detail("kind.pdf"), "x"), reason="not-xml")
    again = pickle.loads(pickle.dumps(error))
    assert (again.detail, again.reason, again.message) == (error.detail, "not-xml", error.message)
    assert again.message.de.startswith("Das ist eine PDF-Datei; x")


def _details_raised() -> list[tuple[str, int, str]]:
    """Every ``Detail("key", ...)`` written in the package: (where, values given, key)."""
    found = []
    for path in sorted((REPO / "src" / "einvoice_validate").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Detail":
                key = node.args[0] if node.args else None
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    where = f"{Path(path).relative_to(REPO)}:{node.lineno}"
                    found.append((where, len(node.args) - 1, key.value))
    return found


def test_every_detail_raised_is_in_the_catalogue_with_as_many_values() -> None:
    raised = _details_raised()
    assert len(raised) > 55
    for where, given, key in raised:
        [variant] = catalogue().variants(key) or [None]
        assert variant is not None, f"{where}: {key} is not in rulesets/messages/errors.toml"
        wanted = {int(n) for n in PLACEHOLDER.findall(variant.official)}
        assert wanted == set(range(1, given + 1)) == {int(n) for n in PLACEHOLDER.findall(variant.de or "")}, where
