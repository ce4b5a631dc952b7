"""The schema index (:class:`SchemaInfo`): the declarations and types of one XSD that the Xerces mapping needs.

:func:`schema_info_for` gives the per-XSD index, built once per process (cached) from the XSD files with lxml:
global elements, named/anonymous types, content kind of every complex type (simple content / element-only / mixed /
empty), child element declarations and simple-type facets. It answers "what is the declared type of this instance
element?" by walking the instance ancestors through the content models (cached per ancestor name path). Cost:
SchemaInfo builds in ~10 ms (UBL) per process.
"""

from __future__ import annotations

import copy
import os
import threading

from lxml import etree

from .catalog import Catalog, catalog_parser
from .schema_model import XSD_NS, Decl, SimpleT, TypeInfo

__all__ = ["SchemaInfo", "schema_info_for"]

_XS = "{" + XSD_NS + "}"
_WRAP_NS = "urn:x-einvoice-validate:xsd-type-wrapper"

_FACETS = (
    "length",
    "minLength",
    "maxLength",
    "pattern",
    "enumeration",
    "whiteSpace",
    "maxInclusive",
    "maxExclusive",
    "minInclusive",
    "minExclusive",
    "totalDigits",
    "fractionDigits",
)


def _clark(ns: str | None, local: str) -> str:
    return f"{{{ns}}}{local}" if ns else local


class SchemaInfo:
    """Cached structural index of one XSD (and everything it imports/includes).

    Build with :func:`schema_info_for` (cached per absolute path and process). Construction parses
    the XSD files once with lxml (no network, no entity resolution) and indexes them; the type
    definitions themselves are flattened lazily and memoised, so the per-error cost at validation
    time is a few dictionary look-ups.
    """

    def __init__(self, xsd_path: str, catalog: Catalog | None = None) -> None:
        self.xsd_path = os.path.abspath(xsd_path)
        self._catalog = catalog  # the pack's imports by address (xsd/catalog.py)
        self._lock = threading.RLock()
        self.validate_lock = threading.Lock()
        self._docs: dict[str, etree._Element] = {}
        self._ns_files: dict[str, str] = {}
        self._named_types: dict[str, etree._Element] = {}
        self._global_elems: dict[str, etree._Element] = {}
        self._groups: dict[str, etree._Element] = {}
        self._attr_groups: dict[str, etree._Element] = {}
        self._global_attrs: dict[str, etree._Element] = {}
        self._type_cache: dict[str, TypeInfo] = {}
        self._anon_nodes: dict[str, etree._Element] = {}
        self._anon_ids: dict[int, str] = {}
        self._path_cache: dict[tuple[str, ...], str | None] = {}
        self._wrapper: tuple[etree.XMLSchema, dict[str, str]] | None = None
        self._main_schema: etree.XMLSchema | None = None
        parser = catalog_parser(catalog)
        self._load(self.xsd_path, parser)

    # ---- loading ------------------------------------------------------------------------
    def _load(self, path: str, parser: etree.XMLParser) -> None:
        if path in self._docs:
            return
        root = etree.parse(path, parser).getroot()
        self._docs[path] = root
        tns = root.get("targetNamespace")
        if tns is not None and tns not in self._ns_files:
            self._ns_files[tns] = path
        for child in root:
            if not isinstance(child.tag, str):
                continue
            name = child.get("name")
            if child.tag in (_XS + "complexType", _XS + "simpleType") and name:
                self._named_types.setdefault(_clark(tns, name), child)
            elif child.tag == _XS + "element" and name:
                self._global_elems.setdefault(_clark(tns, name), child)
            elif child.tag == _XS + "group" and name:
                self._groups.setdefault(_clark(tns, name), child)
            elif child.tag == _XS + "attributeGroup" and name:
                self._attr_groups.setdefault(_clark(tns, name), child)
            elif child.tag == _XS + "attribute" and name:
                self._global_attrs.setdefault(_clark(tns, name), child)
        for child in root:
            if child.tag in (_XS + "import", _XS + "include", _XS + "redefine"):
                loc = child.get("schemaLocation")
                mapped = self._catalog.map(loc) if loc and "://" in loc and self._catalog is not None else None
                if mapped is not None:
                    self._load(str(mapped), parser)
                elif loc and "://" not in loc:
                    target = os.path.normpath(os.path.join(os.path.dirname(path), loc))
                    if os.path.exists(target):
                        self._load(target, parser)

    @staticmethod
    def _tns(node: etree._Element) -> str | None:
        return node.getroottree().getroot().get("targetNamespace")

    @staticmethod
    def _qname(node: etree._Element, value: str) -> str:
        prefix, _, local = value.rpartition(":")
        ns = node.nsmap.get(prefix if prefix else None)
        return _clark(ns, local)

    # ---- main compiled schema (for sub-validation of global elements) -------------------
    def main_schema(self) -> etree.XMLSchema:
        with self._lock:
            if self._main_schema is None:
                parser = catalog_parser(self._catalog) if self._catalog is not None else None
                self._main_schema = etree.XMLSchema(etree.parse(self.xsd_path, parser))
            return self._main_schema

    # ---- element declarations -----------------------------------------------------------
    def _anon_key(self, node: etree._Element, hint: str) -> str:
        ident = id(node)
        key = self._anon_ids.get(ident)
        if key is None:
            key = f"#anon{len(self._anon_ids)}_{hint}"
            self._anon_ids[ident] = key
            self._anon_nodes[key] = node  # keeps the proxy (and id) alive
        return key

    def _decl_of(self, node: etree._Element, is_global: bool) -> Decl | None:
        ref = node.get("ref")
        if ref is not None:
            target = self._global_elems.get(self._qname(node, ref))
            return self._decl_of(target, True) if target is not None else None
        name = node.get("name")
        if not name:
            return None
        root = node.getroottree().getroot()
        tns = root.get("targetNamespace")
        if is_global:
            ns = tns
        else:
            form = node.get("form") or root.get("elementFormDefault") or "unqualified"
            ns = tns if form == "qualified" else None
        type_attr = node.get("type")
        if type_attr is not None:
            type_key = self._qname(node, type_attr)
        else:
            anon = None
            for c in node:
                if c.tag in (_XS + "complexType", _XS + "simpleType"):
                    anon = c
                    break
            type_key = self._anon_key(anon, name) if anon is not None else _XS + "anyType"
        return Decl(_clark(ns, name), type_key, is_global)

    def global_decl(self, clark: str) -> Decl | None:
        node = self._global_elems.get(clark)
        return self._decl_of(node, True) if node is not None else None

    # ---- type flattening ----------------------------------------------------------------
    def type_info(self, key: str) -> TypeInfo | None:
        with self._lock:
            cached = self._type_cache.get(key)
            if cached is not None:
                return cached
            info = self._build_type(key)
            if info is not None:
                self._type_cache[key] = info
            return info

    def _type_node(self, key: str) -> etree._Element | None:
        if key.startswith("#anon"):
            return self._anon_nodes.get(key)
        return self._named_types.get(key)

    def _build_type(self, key: str) -> TypeInfo | None:
        if key.startswith(_XS):
            local = key[len(_XS) :]
            if local in ("anyType",):
                return TypeInfo(key, local, "mixed", True, wildcard=True)
            return TypeInfo(key, local, "simple", True, simple=SimpleT(local, local))
        node = self._type_node(key)
        if node is None:
            return None
        named = not key.startswith("#anon")
        display = node.get("name") or key.split("_", 1)[-1]
        if node.tag == _XS + "simpleType":
            simple = self._simple(node)
            return TypeInfo(key, display, "simple", named, simple=simple)
        # complexType
        info = TypeInfo(key, display, "empty", named)
        mixed = node.get("mixed") == "true"
        for c in node:
            if c.tag == _XS + "simpleContent":
                info.kind = "complex-simple"
                info.simple = self._simple_content(c)
                for d in c:
                    if d.tag in (_XS + "extension", _XS + "restriction"):
                        base = self.type_info(self._qname(d, d.get("base", "")))
                        if base is not None:
                            info.attrs.update(base.attrs)
                        self._collect_attrs(d, info)
                return info
            if c.tag == _XS + "complexContent":
                if c.get("mixed") == "true":
                    mixed = True
                for d in c:
                    if d.tag == _XS + "extension":
                        base = self.type_info(self._qname(d, d.get("base", "")))
                        if base is not None:
                            info.children.update(base.children)
                            info.attrs.update(base.attrs)
                            info.wildcard = info.wildcard or base.wildcard
                            if base.kind in ("element-only", "mixed"):
                                info.kind = base.kind
                        self._collect(d, info)
                        self._collect_attrs(d, info)
                    elif d.tag == _XS + "restriction":
                        self._collect(d, info)
                        self._collect_attrs(d, info)
                break
        else:
            self._collect(node, info)
            self._collect_attrs(node, info)
        if (info.children or info.wildcard) and info.kind == "empty":
            info.kind = "element-only"
        if mixed:
            info.kind = "mixed"
        return info

    def _collect(self, node: etree._Element, info: TypeInfo) -> None:
        for c in node:
            tag = c.tag
            if tag in (_XS + "sequence", _XS + "choice", _XS + "all"):
                self._collect(c, info)
            elif tag == _XS + "element":
                decl = self._decl_of(c, False)
                if decl is not None:
                    info.children.setdefault(decl.clark, decl)
            elif tag == _XS + "group":
                ref = c.get("ref")
                grp = self._groups.get(self._qname(c, ref)) if ref else c
                if grp is not None:
                    self._collect(grp, info)
            elif tag == _XS + "any":
                info.wildcard = True

    def _collect_attrs(self, node: etree._Element, info: TypeInfo) -> None:
        for c in node:
            if c.tag == _XS + "attribute":
                ref = c.get("ref")
                decl = self._global_attrs.get(self._qname(c, ref)) if ref else c
                if decl is None:
                    continue
                name = decl.get("name")
                if not name:
                    continue
                type_attr = decl.get("type")
                if type_attr is not None:
                    info.attrs[name] = self._qname(decl, type_attr)
                else:
                    anon = next((x for x in decl if x.tag == _XS + "simpleType"), None)
                    info.attrs[name] = self._anon_key(anon, name) if anon is not None else _XS + "anySimpleType"
            elif c.tag == _XS + "attributeGroup":
                ref = c.get("ref")
                grp = self._attr_groups.get(self._qname(c, ref)) if ref else None
                if grp is not None:
                    self._collect_attrs(grp, info)

    def attr_simple(self, el: etree._Element, attr: str) -> SimpleT | None:
        """The simple type of attribute ``attr`` (local name) of instance element ``el``."""
        t = self.type_for(el)
        key = t.attrs.get(attr.rpartition("}")[2]) if t is not None else None
        at = self.type_info(key) if key is not None else None
        return at.simple if at is not None else None

    def _simple_content(self, sc: etree._Element) -> SimpleT | None:
        for d in sc:
            if d.tag not in (_XS + "extension", _XS + "restriction"):
                continue
            base_key = self._qname(d, d.get("base", ""))
            base = self.type_info(base_key)
            st = copy.deepcopy(base.simple) if base is not None and base.simple else None
            if st is None:
                st = SimpleT(base_key.rpartition("}")[2], "anySimpleType")
            if d.tag == _XS + "restriction":
                self._apply_facets(d, st)
            return st
        return None

    def _simple(self, node: etree._Element) -> SimpleT:
        name = node.get("name") or "#AnonType"
        for d in node:
            if d.tag == _XS + "restriction":
                base_attr = d.get("base")
                base: SimpleT | None = None
                if base_attr is not None:
                    bt = self.type_info(self._qname(d, base_attr))
                    base = copy.deepcopy(bt.simple) if bt is not None and bt.simple else None
                else:
                    for e in d:
                        if e.tag == _XS + "simpleType":
                            base = self._simple(e)
                if base is None:
                    base = SimpleT(name, "anySimpleType")
                base.name = name
                self._apply_facets(d, base)
                return base
            if d.tag == _XS + "list":
                return SimpleT(name, "anySimpleType", variety="list")
            if d.tag == _XS + "union":
                return SimpleT(name, "anySimpleType", variety="union")
        return SimpleT(name, "anySimpleType")

    @staticmethod
    def _apply_facets(restriction: etree._Element, st: SimpleT) -> None:
        enums: list[str] = []
        pats: list[str] = []
        for f in restriction:
            if not isinstance(f.tag, str) or not f.tag.startswith(_XS):
                continue
            local = f.tag[len(_XS) :]
            val = f.get("value")
            if local not in _FACETS or val is None:
                continue
            if local == "enumeration":
                enums.append(val)
            elif local == "pattern":
                pats.append(val)
            else:
                st.facets[local] = [val]
        if enums:
            st.facets["enumeration"] = enums
        if pats:
            st.patterns.append(pats)

    # ---- instance element -> declaration ------------------------------------------------
    def decl_for(self, el: etree._Element) -> Decl | None:
        """The declaration Xerces would use for ``el`` (walking down from the root)."""
        names: list[str] = []
        cur: etree._Element | None = el
        while cur is not None:
            if isinstance(cur.tag, str):
                names.append(cur.tag)
            cur = cur.getparent()
        names.reverse()
        decl = self._decl_for_names(tuple(names))
        return decl

    def _decl_for_names(self, names: tuple[str, ...]) -> Decl | None:
        cached = self._path_cache.get(names, "")
        if cached != "":
            return self._decode_decl(cached)
        if len(names) == 1:
            decl = self.global_decl(names[0])
        else:
            parent = self._decl_for_names(names[:-1])
            decl = self.child_decl(parent.type_key if parent else None, names[-1])
        with self._lock:
            self._path_cache[names] = self._encode_decl(decl)
        return decl

    @staticmethod
    def _encode_decl(decl: Decl | None) -> str | None:
        if decl is None:
            return None
        return f"{decl.clark}\x00{decl.type_key}\x00{int(decl.is_global)}"

    @staticmethod
    def _decode_decl(enc: str | None) -> Decl | None:
        if enc is None:
            return None
        clark, type_key, glob = enc.split("\x00")
        return Decl(clark, type_key, glob == "1")

    def child_decl(self, parent_type_key: str | None, clark: str) -> Decl | None:
        """Declaration of child ``clark`` inside the content model of a type, else the global one
        (this is Xerces' look-up order, also after a content-model error)."""
        if parent_type_key is not None:
            pt = self.type_info(parent_type_key)
            if pt is not None:
                d = pt.children.get(clark)
                if d is not None:
                    return d
        return self.global_decl(clark)

    def type_for(self, el: etree._Element) -> TypeInfo | None:
        decl = self.decl_for(el)
        return self.type_info(decl.type_key) if decl is not None else None

    # ---- wrapper schema for sub-validation of locally declared named types -------------
    def wrapper_schema(self) -> tuple[etree.XMLSchema, dict[str, str]]:
        """A schema declaring one global element per named complex type (compiled lazily, once).

        Used to validate, like Xerces does, the siblings that libxml2 skips after a
        content-model error when their declaration is local (CII)."""
        with self._lock:
            if self._wrapper is not None:
                return self._wrapper
            nsmap: dict[str, str] = {"xs": XSD_NS}
            prefixes: dict[str, str] = {}
            for i, ns in enumerate(sorted(self._ns_files)):
                prefixes[ns] = f"n{i}"
                nsmap[f"n{i}"] = ns
            root = etree.Element(_XS + "schema", nsmap=nsmap, targetNamespace=_WRAP_NS, elementFormDefault="qualified")
            for ns in sorted(self._ns_files):
                etree.SubElement(root, _XS + "import", namespace=ns, schemaLocation=self._ns_files[ns])
            names: dict[str, str] = {}
            for i, (key, node) in enumerate(sorted(self._named_types.items())):
                if node.tag != _XS + "complexType":
                    continue
                ns, _, local = key[1:].partition("}") if key.startswith("{") else ("", "", key)
                if ns not in prefixes:
                    continue
                wname = f"t{i}"
                etree.SubElement(root, _XS + "element", name=wname, type=f"{prefixes[ns]}:{local}")
                names[key] = f"{{{_WRAP_NS}}}{wname}"
            doc = etree.ElementTree(root)
            # imports are resolved relative to the wrapper's base URL: use absolute paths
            self._wrapper = (etree.XMLSchema(doc), names)
            return self._wrapper


_INFO_CACHE: dict[str, SchemaInfo] = {}
_INFO_LOCK = threading.Lock()


def schema_info_for(xsd_path: str, catalog: Catalog | None = None) -> SchemaInfo:
    """The process-wide cached :class:`SchemaInfo` for an XSD file (whose imports by address ``catalog`` maps)."""
    key = os.path.abspath(xsd_path)
    with _INFO_LOCK:
        info = _INFO_CACHE.get(key)
        if info is None:
            info = SchemaInfo(key, catalog)
            _INFO_CACHE[key] = info
        return info
