"""Loader for the official EN 16931 rule unit tests (``corpus/en16931-tests/*-unit-*`` and ``cii``).

Each test file is a VEFA ``<testSet>`` (namespace ``http://difi.no/xsd/vefa/validator/1.0``) whose
``configuration`` attribute names the syntax (``tc434-ubl`` or ``tc434-cii``). Every ``<test>`` holds one
``<assert>`` listing rule ids under ``<error>`` (must fire as ``fatal``), ``<warning>`` (must fire as
``warning``) and ``<success>`` (must not fire), plus one embedded Invoice, CreditNote or CrossIndustryInvoice
fragment. This module turns each ``<test>`` into a :class:`UnitCase` carrying the fragment as a standalone XML
string, ready for the Schematron stage.

Example:
    >>> from tests.conftest import CORPUS
    >>> from tests.suites import load_unit_cases
    >>> cases = load_unit_cases(CORPUS / "en16931-tests")
    >>> cases[0].id
    'Invoice-unit-UBL/BR-01.xml::1'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from lxml import etree

__all__ = [
    "UNIT_FOLDERS",
    "VEFA_NS",
    "Expectation",
    "Kind",
    "Syntax",
    "UnitCase",
    "UnitSuiteError",
    "iter_unit_cases",
    "load_unit_cases",
]

VEFA_NS = "http://difi.no/xsd/vefa/validator/1.0"
UNIT_FOLDERS: tuple[str, ...] = ("Invoice-unit-UBL", "CreditNote-unit-UBL", "cii")
"""The folders of ``en16931-tests`` that hold unit tests (``testfiles`` holds complete documents)."""

Kind = Literal["error", "warning", "success"]
Syntax = Literal["ubl", "cii"]
Expectation = tuple[Kind, str]

_V = f"{{{VEFA_NS}}}"
_KINDS: tuple[Kind, ...] = ("error", "warning", "success")
_KIND_OF_TAG: dict[str, Kind] = {f"{_V}{kind}": kind for kind in _KINDS}
_CONFIGURATIONS: dict[str, Syntax] = {"tc434-ubl": "ubl", "tc434-cii": "cii"}
_ROOT_SYNTAX: dict[str, Syntax] = {
    "{urn:oasis:names:specification:ubl:schema:xsd:Invoice-2}Invoice": "ubl",
    "{urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2}CreditNote": "ubl",
    "{urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100}CrossIndustryInvoice": "cii",
}


class UnitSuiteError(ValueError):
    """A test file does not have the expected VEFA ``testSet`` shape."""


@dataclass(frozen=True, slots=True)
class UnitCase:
    """One ``<test>`` of a test set.

    Attributes:
        id: ``<folder>/<file>::<n>``, ``n`` the 1-based position of the ``<test>`` in its file.
        path: the test file.
        syntax: ``ubl`` or ``cii``.
        xml: the embedded document as a standalone XML string (no XML declaration), every namespace
            declaration in scope at the fragment kept on its root.
        expectations: ``(kind, rule_id)`` pairs in document order, kind one of error, warning, success.
        description: the ``<description>`` text(s) of the assert, whitespace-normalised.
    """

    id: str
    path: Path
    syntax: Syntax
    xml: str
    expectations: tuple[Expectation, ...]
    description: str


def _parser() -> etree.XMLParser:
    # Hardened: no entity expansion, no DTD loading, no network access.
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False)


def _normalise(text: str | None) -> str:
    return " ".join((text or "").split())


def _expectations(test: etree._Element, where: str) -> tuple[tuple[Expectation, ...], str]:
    asserts = test.findall(f"{_V}assert")
    if not asserts:
        raise UnitSuiteError(f"{where}: <test> without <assert>")
    found: list[Expectation] = []
    descriptions: list[str] = []
    for assert_el in asserts:
        for child in assert_el.iterchildren(tag=etree.Element):
            name = etree.QName(child).localname
            if child.tag == f"{_V}description":
                descriptions.append(_normalise(child.text))
            elif (kind := _KIND_OF_TAG.get(child.tag)) is not None:
                rule_id = (child.text or "").strip()
                if not rule_id:
                    raise UnitSuiteError(f"{where}: empty <{name}>")
                found.append((kind, rule_id))
            else:
                raise UnitSuiteError(f"{where}: unexpected {child.tag} in <assert>")
    if not found:
        raise UnitSuiteError(f"{where}: <assert> has no error, warning or success")
    return tuple(found), " ".join(d for d in descriptions if d)


def _fragment(test: etree._Element, where: str) -> etree._Element:
    fragments = [c for c in test.iterchildren(tag=etree.Element) if not c.tag.startswith(_V)]
    if len(fragments) != 1:
        raise UnitSuiteError(f"{where}: expected one embedded document, found {len(fragments)}")
    return fragments[0]


def _syntax(configuration: str | None, fragment: etree._Element, where: str) -> Syntax:
    by_root = _ROOT_SYNTAX.get(fragment.tag)
    if by_root is None:
        raise UnitSuiteError(f"{where}: the embedded document is {fragment.tag}, not an invoice")
    by_config = _CONFIGURATIONS.get(configuration or "")
    if by_config is not None and by_config != by_root:
        raise UnitSuiteError(f"{where}: configuration {configuration!r} but a {by_root} document")
    return by_config or by_root


def _standalone(fragment: etree._Element) -> str:
    # Serialising the element in place (not a deepcopy, which drops unused inherited declarations) writes every
    # namespace declaration in scope onto the new root, also those of its ancestors, so a prefix used only in
    # text or attribute content still resolves.
    return etree.tostring(fragment, encoding="unicode", with_tail=False)


def cases_in_file(path: Path, folder: str) -> list[UnitCase]:
    """The cases of one test file, ``folder`` being the name used in the ids."""
    tree = etree.parse(str(path), _parser())
    if tree.docinfo.doctype:  # type: ignore[union-attr]  # (lxml-stubs)
        # Entities are never expanded; a reference left unexpanded would make the fragment unusable.
        raise UnitSuiteError(f"{path}: has a DOCTYPE declaration; DTDs and entities are refused")
    root = tree.getroot()
    if root.tag != f"{_V}testSet":
        raise UnitSuiteError(f"{path}: root is {root.tag}, not a VEFA testSet")
    configuration = root.get("configuration")
    cases: list[UnitCase] = []
    for n, test in enumerate(root.iterchildren(f"{_V}test"), start=1):
        case_id = f"{folder}/{path.name}::{n}"
        fragment = _fragment(test, case_id)
        expectations, description = _expectations(test, case_id)
        cases.append(
            UnitCase(
                id=case_id,
                path=path,
                syntax=_syntax(configuration, fragment, case_id),
                xml=_standalone(fragment),
                expectations=expectations,
                description=description,
            )
        )
    if not cases:
        raise UnitSuiteError(f"{path}: a testSet without <test>")
    return cases


def iter_unit_cases(tests_dir: Path, folders: tuple[str, ...] = UNIT_FOLDERS) -> Iterator[UnitCase]:
    """Every case under ``tests_dir/<folder>/*.xml``, folders in the given order, files sorted by name."""
    for folder in folders:
        for path in sorted((tests_dir / folder).glob("*.xml")):
            yield from cases_in_file(path, folder)


def load_unit_cases(tests_dir: Path, folders: tuple[str, ...] = UNIT_FOLDERS) -> list[UnitCase]:
    """:func:`iter_unit_cases` as a list."""
    return list(iter_unit_cases(tests_dir, folders))
