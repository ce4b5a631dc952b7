"""An XSD pack's XML catalog (``Manifest.catalog``): the schemas' imports by address mapped to files of the pack, so
that nothing is fetched while validating (KSeF FA(3) imports the Ministry's base schemas by URL, FatturaPA the W3C
signature schema).

The catalog is an OASIS XML Catalog (``urn:oasis:names:tc:entity:xmlns:xml:catalog``) of ``system``, ``uri``,
``rewriteSystem`` and ``rewriteURI`` entries, read once. :class:`CatalogResolver` hands lxml the mapped file for
each address (libxml2 asks it while compiling the schema); an address the catalog does not map, or a mapping to a
file outside the pack folder, is left to libxml2, which has no network: the schema does not compile
(``ruleset.invalid``), nothing is fetched.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lxml import etree

__all__ = ["Catalog", "CatalogResolver", "catalog_parser"]

_CATALOG = "{urn:oasis:names:tc:entity:xmlns:xml:catalog}"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


class Catalog:
    """The mappings of one catalog file, its targets inside ``folder`` (the pack's)."""

    def __init__(self, path: Path, folder: Path) -> None:
        self.path = path
        self.folder = folder.resolve()
        self._exact: dict[str, Path] = {}
        self._prefixes: list[tuple[str, Path]] = []
        base = path.resolve().parent
        for element in etree.parse(str(path), _PARSER).getroot().iter():
            tag = element.tag
            if tag in (_CATALOG + "system", _CATALOG + "uri"):
                name = element.get("systemId") if tag == _CATALOG + "system" else element.get("name")
                target = element.get("uri")
                if name and target:
                    self._exact.setdefault(name, base / target)
            elif tag in (_CATALOG + "rewriteSystem", _CATALOG + "rewriteURI"):
                start = element.get("systemIdStartString") or element.get("uriStartString")
                prefix = element.get("rewritePrefix")
                if start and prefix is not None:
                    self._prefixes.append((start, base / prefix))
        self._prefixes.sort(key=lambda entry: -len(entry[0]))  # the longest start string wins (OASIS catalogs)

    def map(self, address: str) -> Path | None:
        """The file of the pack that ``address`` stands for, or None (not in the catalog, or outside the pack)."""
        target = self._exact.get(address)
        if target is None:
            for start, prefix in self._prefixes:
                if address.startswith(start):
                    target = prefix / address[len(start) :]
                    break
        if target is None:
            return None
        resolved = target.resolve()
        return resolved if resolved.is_relative_to(self.folder) and resolved.is_file() else None


class CatalogResolver(etree.Resolver):
    """Resolves the addresses a schema imports by through a :class:`Catalog` (lxml asks it for each)."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__()
        self.catalog = catalog

    # lxml calls resolve(url, public id, context); its stubs know neither the context nor resolve_filename
    def resolve(self, system_url: str | None, public_id: str | None, context: Any) -> Any:  # type: ignore[override]
        target = self.catalog.map(system_url) if system_url else None
        if target is None:
            return None
        return self.resolve_filename(str(target), context)  # type: ignore[attr-defined]


def catalog_parser(catalog: Catalog | None) -> etree.XMLParser:
    """A hardened parser for schema files (no entities, no network), resolving through ``catalog`` when given."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    if catalog is not None:
        parser.resolvers.add(CatalogResolver(catalog))
    return parser
