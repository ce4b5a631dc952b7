"""Owns the translation of libxml2 XSD validation errors (lxml ``error_log`` entries) into the
Xerces ``cvc-*`` error codes and English messages that the KoSIT validator reports, plus the small
cached schema index (:class:`SchemaInfo`) that this translation needs.

Public interface
----------------
* :class:`XsdIssue` - one Xerces-style finding (``code``, ``message``, ``line``, ``column``, ``path``).
* :func:`xerces_issues` - map ONE libxml2 log entry to the Xerces issue(s) it corresponds to
  (Xerces often reports two codes for one problem, e.g. ``cvc-datatype-valid.1.2.1`` followed by
  ``cvc-complex-type.2.2`` / ``cvc-type.3.1.3`` / ``cvc-attribute.3``).
* :func:`xerces_validate` - validate a whole tree with a compiled ``etree.XMLSchema`` and return the
  Xerces-style issues for all errors, including the errors Xerces reports *after* a content-model
  error (libxml2 skips the rest of the parent element after "This element is not expected";
  Xerces keeps validating those siblings against the matching declarations).
* :class:`SchemaInfo` / :func:`schema_info_for` - per-XSD index built once per process (cached)
  from the XSD files with lxml: global elements, named/anonymous types, content kind of every
  complex type (simple content / element-only / mixed / empty), child element declarations and
  simple-type facets. It answers "what is the declared type of this instance element?" by walking
  the instance ancestors through the content models (cached per ancestor name path).

Unknown libxml2 error types never get dropped: they become ``xsd.other`` issues carrying
libxml2's message. Line numbers follow Xerces: errors about an element's content (value, children,
missing children) are reported at its end tag, computed from the tree. Cost: SchemaInfo builds in
~10 ms (UBL) per process; the lazily compiled helper schemas used for the post-content-error
sub-validation take ~30 ms once, and are only built when such an error occurs.
"""

from __future__ import annotations

import copy
import functools
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol, cast

from lxml import etree

__all__ = [
    "EMITTED_CODES",
    "FALLBACK_CODE",
    "SchemaInfo",
    "XsdIssue",
    "issues_from_log",
    "schema_info_for",
    "xerces_issues",
    "xerces_validate",
]

XSD_NS = "http://www.w3.org/2001/XMLSchema"
_XS = "{" + XSD_NS + "}"
FALLBACK_CODE = "xsd.other"
_WRAP_NS = "urn:x-einvoice-validate:xsd-type-wrapper"


@dataclass(frozen=True)
class XsdIssue:
    """One XSD finding in Xerces' terms."""

    code: str
    message: str
    line: int
    column: int | None
    path: str | None


# --------------------------------------------------------------------------------------------
# Schema index
# --------------------------------------------------------------------------------------------

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


@dataclass
class _SimpleT:
    """A simple type flattened to: nearest built-in name + the facets of its derivation chain."""

    name: str  # display name (prefix-less local name or built-in name)
    builtin: str  # local name of the nearest XSD built-in ancestor, e.g. "decimal"
    variety: str = "atomic"  # atomic | list | union
    patterns: list[list[str]] = field(default_factory=list)  # one list per derivation step
    facets: dict[str, list[str]] = field(default_factory=dict)  # most derived wins (except enum)


@dataclass
class _TypeInfo:
    """What the mapping needs to know about a type definition."""

    key: str
    name: str  # display name, e.g. "AmountType" or "#AnonType_IndicatorString"
    kind: str  # simple | complex-simple | element-only | mixed | empty
    named: bool
    simple: _SimpleT | None = None
    children: dict[str, _Decl] = field(default_factory=dict)
    wildcard: bool = False
    attrs: dict[str, str] = field(default_factory=dict)  # attribute local name -> simple type key


@dataclass(frozen=True)
class _Decl:
    """An element declaration: its expanded name, type key and whether it is global."""

    clark: str
    type_key: str
    is_global: bool


class _LogEntryLike(Protocol):
    """The attributes of ``etree._LogEntry`` used here (lxml-stubs do not describe it)."""

    @property
    def type_name(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def path(self) -> str | None: ...


def _log_entries(log: object) -> list[_LogEntryLike]:
    return list(cast("Iterable[_LogEntryLike]", log))


def _sourceline(el: etree._Element) -> int | None:
    value: object = el.sourceline
    return value if isinstance(value, int) else None


def _clark(ns: str | None, local: str) -> str:
    return f"{{{ns}}}{local}" if ns else local


class SchemaInfo:
    """Cached structural index of one XSD (and everything it imports/includes).

    Build with :func:`schema_info_for` (cached per absolute path and process). Construction parses
    the XSD files once with lxml (no network, no entity resolution) and indexes them; the type
    definitions themselves are flattened lazily and memoised, so the per-error cost at validation
    time is a few dictionary look-ups.
    """

    def __init__(self, xsd_path: str) -> None:
        self.xsd_path = os.path.abspath(xsd_path)
        self._lock = threading.RLock()
        self.validate_lock = threading.Lock()
        self._docs: dict[str, etree._Element] = {}
        self._ns_files: dict[str, str] = {}
        self._named_types: dict[str, etree._Element] = {}
        self._global_elems: dict[str, etree._Element] = {}
        self._groups: dict[str, etree._Element] = {}
        self._attr_groups: dict[str, etree._Element] = {}
        self._global_attrs: dict[str, etree._Element] = {}
        self._type_cache: dict[str, _TypeInfo] = {}
        self._anon_nodes: dict[str, etree._Element] = {}
        self._anon_ids: dict[int, str] = {}
        self._path_cache: dict[tuple[str, ...], str | None] = {}
        self._wrapper: tuple[etree.XMLSchema, dict[str, str]] | None = None
        self._main_schema: etree.XMLSchema | None = None
        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
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
                if loc and "://" not in loc:
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
                self._main_schema = etree.XMLSchema(etree.parse(self.xsd_path))
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

    def _decl_of(self, node: etree._Element, is_global: bool) -> _Decl | None:
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
        return _Decl(_clark(ns, name), type_key, is_global)

    def global_decl(self, clark: str) -> _Decl | None:
        node = self._global_elems.get(clark)
        return self._decl_of(node, True) if node is not None else None

    # ---- type flattening ----------------------------------------------------------------
    def type_info(self, key: str) -> _TypeInfo | None:
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

    def _build_type(self, key: str) -> _TypeInfo | None:
        if key.startswith(_XS):
            local = key[len(_XS) :]
            if local in ("anyType",):
                return _TypeInfo(key, local, "mixed", True, wildcard=True)
            return _TypeInfo(key, local, "simple", True, simple=_SimpleT(local, local))
        node = self._type_node(key)
        if node is None:
            return None
        named = not key.startswith("#anon")
        display = node.get("name") or key.split("_", 1)[-1]
        if node.tag == _XS + "simpleType":
            simple = self._simple(node)
            return _TypeInfo(key, display, "simple", named, simple=simple)
        # complexType
        info = _TypeInfo(key, display, "empty", named)
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

    def _collect(self, node: etree._Element, info: _TypeInfo) -> None:
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

    def _collect_attrs(self, node: etree._Element, info: _TypeInfo) -> None:
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

    def attr_simple(self, el: etree._Element, attr: str) -> _SimpleT | None:
        """The simple type of attribute ``attr`` (local name) of instance element ``el``."""
        t = self.type_for(el)
        key = t.attrs.get(attr.rpartition("}")[2]) if t is not None else None
        at = self.type_info(key) if key is not None else None
        return at.simple if at is not None else None

    def _simple_content(self, sc: etree._Element) -> _SimpleT | None:
        for d in sc:
            if d.tag not in (_XS + "extension", _XS + "restriction"):
                continue
            base_key = self._qname(d, d.get("base", ""))
            base = self.type_info(base_key)
            st = copy.deepcopy(base.simple) if base is not None and base.simple else None
            if st is None:
                st = _SimpleT(base_key.rpartition("}")[2], "anySimpleType")
            if d.tag == _XS + "restriction":
                self._apply_facets(d, st)
            return st
        return None

    def _simple(self, node: etree._Element) -> _SimpleT:
        name = node.get("name") or "#AnonType"
        for d in node:
            if d.tag == _XS + "restriction":
                base_attr = d.get("base")
                base: _SimpleT | None = None
                if base_attr is not None:
                    bt = self.type_info(self._qname(d, base_attr))
                    base = copy.deepcopy(bt.simple) if bt is not None and bt.simple else None
                else:
                    for e in d:
                        if e.tag == _XS + "simpleType":
                            base = self._simple(e)
                if base is None:
                    base = _SimpleT(name, "anySimpleType")
                base.name = name
                self._apply_facets(d, base)
                return base
            if d.tag == _XS + "list":
                return _SimpleT(name, "anySimpleType", variety="list")
            if d.tag == _XS + "union":
                return _SimpleT(name, "anySimpleType", variety="union")
        return _SimpleT(name, "anySimpleType")

    @staticmethod
    def _apply_facets(restriction: etree._Element, st: _SimpleT) -> None:
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
    def decl_for(self, el: etree._Element) -> _Decl | None:
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

    def _decl_for_names(self, names: tuple[str, ...]) -> _Decl | None:
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
    def _encode_decl(decl: _Decl | None) -> str | None:
        if decl is None:
            return None
        return f"{decl.clark}\x00{decl.type_key}\x00{int(decl.is_global)}"

    @staticmethod
    def _decode_decl(enc: str | None) -> _Decl | None:
        if enc is None:
            return None
        clark, type_key, glob = enc.split("\x00")
        return _Decl(clark, type_key, glob == "1")

    def child_decl(self, parent_type_key: str | None, clark: str) -> _Decl | None:
        """Declaration of child ``clark`` inside the content model of a type, else the global one
        (this is Xerces' look-up order, also after a content-model error)."""
        if parent_type_key is not None:
            pt = self.type_info(parent_type_key)
            if pt is not None:
                d = pt.children.get(clark)
                if d is not None:
                    return d
        return self.global_decl(clark)

    def type_for(self, el: etree._Element) -> _TypeInfo | None:
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


def schema_info_for(xsd_path: str) -> SchemaInfo:
    """The process-wide cached :class:`SchemaInfo` for an XSD file."""
    key = os.path.abspath(xsd_path)
    with _INFO_LOCK:
        info = _INFO_CACHE.get(key)
        if info is None:
            info = SchemaInfo(key)
            _INFO_CACHE[key] = info
        return info


# --------------------------------------------------------------------------------------------
# Simple value checking (Xerces order), used where libxml2 does not report what Xerces does
# --------------------------------------------------------------------------------------------

_STRINGISH = {"string", "normalizedString", "anySimpleType"}


@functools.lru_cache(maxsize=64)
def _builtin_schema(builtin: str) -> etree.XMLSchema:
    doc = etree.fromstring(f'<xs:schema xmlns:xs="{XSD_NS}"><xs:element name="v" type="xs:{builtin}"/></xs:schema>')
    return etree.XMLSchema(doc)


def _collapse(value: str) -> str:
    return " ".join(value.split())


def _check_value(st: _SimpleT, raw: str) -> tuple[str, str] | None:
    """Xerces' first failing check for ``raw`` against ``st`` as (code, message), else None."""
    value = (
        raw
        if st.builtin == "string"
        else (re.sub(r"[\t\n\r]", " ", raw) if st.builtin == "normalizedString" else _collapse(raw))
    )
    for step in st.patterns:
        ok = False
        for p in step:
            try:
                if re.fullmatch(_xsd_regex(p), value):
                    ok = True
                    break
            except re.error:
                ok = True
                break
        if not ok:
            return (
                "cvc-pattern-valid",
                "Value '{}' is not facet-valid with respect to pattern '{}' for type '{}'.".format(
                    value, "|".join(step), st.name
                ),
            )
    if st.variety == "atomic" and st.builtin not in _STRINGISH | {"token"}:
        try:
            schema = _builtin_schema(st.builtin)
            probe = etree.Element("v")
            probe.text = value
            if not schema.validate(probe):
                if st.builtin == "language":
                    return (
                        "cvc-pattern-valid",
                        f"Value '{value}' is not facet-valid with respect to pattern '{_LANGUAGE_PATTERN}' "
                        "for type 'language'.",
                    )
                return (
                    "cvc-datatype-valid.1.2.1",
                    f"'{value}' is not a valid value for '{st.builtin}'.",
                )
        except etree.XMLSchemaParseError:
            pass
    length = len(value)
    f = st.facets
    if "maxLength" in f and length > int(f["maxLength"][0]):
        return (
            "cvc-maxLength-valid",
            f"Value '{value}' with length = '{length}' is not facet-valid with respect to maxLength "
            f"'{f['maxLength'][0]}' for type '{st.name}'.",
        )
    if "minLength" in f and length < int(f["minLength"][0]):
        return (
            "cvc-minLength-valid",
            f"Value '{value}' with length = '{length}' is not facet-valid with respect to minLength "
            f"'{f['minLength'][0]}' for type '{st.name}'.",
        )
    if "length" in f and length != int(f["length"][0]):
        return (
            "cvc-length-valid",
            f"Value '{value}' with length = '{length}' is not facet-valid with respect to length "
            f"'{f['length'][0]}' for type '{st.name}'.",
        )
    if "enumeration" in f and value not in f["enumeration"]:
        return (
            "cvc-enumeration-valid",
            "Value '{}' is not facet-valid with respect to enumeration '[{}]'. "
            "It must be a value from the enumeration.".format(value, ", ".join(f["enumeration"])),
        )
    return None


def _xsd_regex(p: str) -> str:
    """Best-effort translation of an XSD regular expression to Python ``re`` syntax."""
    out = p.replace("\\i", "[A-Za-z_:]").replace("\\I", "[^A-Za-z_:]")
    out = out.replace("\\c", "[-.0-9A-Za-z_:]").replace("\\C", "[^-.0-9A-Za-z_:]")
    out = re.sub(r"\\p\{[^}]*\}", ".", out)
    out = re.sub(r"\\P\{[^}]*\}", ".", out)
    return out


# --------------------------------------------------------------------------------------------
# Message parsing helpers
# --------------------------------------------------------------------------------------------

_HEAD_RE = re.compile(r"^Element '(?P<el>[^']*)'(?:, attribute '(?P<attr>[^']*)')?: (?P<detail>.*)$", re.S)
_EXPECTED_RE = re.compile(r"Expected is (?:one of )?\( (?P<list>.*) \)")
_VALUE_RE = re.compile(r"^(?:\[facet '[^']*'\] )?(?:The value )?'(?P<v>.*?)'(?: is not| has a length| is| does)", re.S)

_FACET_CODES: dict[str, str] = {
    "SCHEMAV_CVC_DATATYPE_VALID_1_2_1": "cvc-datatype-valid.1.2.1",
    "SCHEMAV_CVC_DATATYPE_VALID_1_2_2": "cvc-datatype-valid.1.2.2",
    "SCHEMAV_CVC_DATATYPE_VALID_1_2_3": "cvc-datatype-valid.1.2.3",
    "SCHEMAV_CVC_ENUMERATION_VALID": "cvc-enumeration-valid",
    "SCHEMAV_CVC_PATTERN_VALID": "cvc-pattern-valid",
    "SCHEMAV_CVC_LENGTH_VALID": "cvc-length-valid",
    "SCHEMAV_CVC_MINLENGTH_VALID": "cvc-minLength-valid",
    "SCHEMAV_CVC_MAXLENGTH_VALID": "cvc-maxLength-valid",
    "SCHEMAV_CVC_MININCLUSIVE_VALID": "cvc-minInclusive-valid",
    "SCHEMAV_CVC_MAXINCLUSIVE_VALID": "cvc-maxInclusive-valid",
    "SCHEMAV_CVC_MINEXCLUSIVE_VALID": "cvc-minExclusive-valid",
    "SCHEMAV_CVC_MAXEXCLUSIVE_VALID": "cvc-maxExclusive-valid",
    "SCHEMAV_CVC_TOTALDIGITS_VALID": "cvc-totalDigits-valid",
    "SCHEMAV_CVC_FRACTIONDIGITS_VALID": "cvc-fractionDigits-valid",
    "SCHEMAV_FACET": "cvc-facet-valid",
}

_SIMPLE_CODES: dict[str, str] = {
    "SCHEMAV_CVC_ELT_1": "cvc-elt.1.a",
    "SCHEMAV_CVC_ELT_2": "cvc-elt.2",
    "SCHEMAV_CVC_ELT_3_1": "cvc-elt.3.1",
    "SCHEMAV_CVC_ELT_3_2_1": "cvc-elt.3.2.1",
    "SCHEMAV_CVC_ELT_3_2_2": "cvc-elt.3.2.2",
    "SCHEMAV_CVC_ELT_4_1": "cvc-elt.4.1",
    "SCHEMAV_CVC_ELT_4_2": "cvc-elt.4.2",
    "SCHEMAV_CVC_ELT_4_3": "cvc-elt.4.3",
    "SCHEMAV_CVC_ELT_5_1_1": "cvc-elt.5.1.1",
    "SCHEMAV_CVC_ELT_5_2_1": "cvc-elt.5.2.1",
    "SCHEMAV_CVC_ELT_5_2_2_1": "cvc-elt.5.2.2.1",
    "SCHEMAV_CVC_ELT_5_2_2_2_1": "cvc-elt.5.2.2.2.1",
    "SCHEMAV_CVC_ELT_5_2_2_2_2": "cvc-elt.5.2.2.2.2",
    "SCHEMAV_CVC_ELT_6": "cvc-elt.6",
    "SCHEMAV_CVC_ELT_7": "cvc-elt.7",
    "SCHEMAV_CVC_TYPE_1": "cvc-type.1",
    "SCHEMAV_CVC_TYPE_2": "cvc-type.2",
    "SCHEMAV_CVC_TYPE_3_1_1": "cvc-type.3.1.1",
    "SCHEMAV_CVC_TYPE_3_1_2": "cvc-type.3.1.2",
    "SCHEMAV_CVC_COMPLEX_TYPE_1": "cvc-complex-type.1",
    "SCHEMAV_CVC_COMPLEX_TYPE_2_1": "cvc-complex-type.2.1",
    "SCHEMAV_CVC_COMPLEX_TYPE_2_3": "cvc-complex-type.2.3",
    "SCHEMAV_CVC_COMPLEX_TYPE_3_1": "cvc-complex-type.3.1",
    "SCHEMAV_CVC_COMPLEX_TYPE_3_2_1": "cvc-complex-type.3.2.2",
    "SCHEMAV_CVC_COMPLEX_TYPE_3_2_2": "cvc-complex-type.3.2.2",
    "SCHEMAV_CVC_COMPLEX_TYPE_4": "cvc-complex-type.4",
    "SCHEMAV_CVC_COMPLEX_TYPE_5_1": "cvc-complex-type.5.1",
    "SCHEMAV_CVC_COMPLEX_TYPE_5_2": "cvc-complex-type.5.2",
    "SCHEMAV_CVC_AU": "cvc-attribute.4",
    "SCHEMAV_CVC_ATTRIBUTE_1": "cvc-attribute.1",
    "SCHEMAV_CVC_ATTRIBUTE_2": "cvc-attribute.2",
    "SCHEMAV_CVC_ATTRIBUTE_3": "cvc-attribute.3",
    "SCHEMAV_CVC_ATTRIBUTE_4": "cvc-attribute.4",
    "SCHEMAV_CVC_IDC": "cvc-identity-constraint.4.1",
    "SCHEMAV_CVC_WILDCARD": "cvc-wildcard.2",
    "SCHEMAV_NOROOT": "cvc-elt.1.a",
    "SCHEMAV_UNDECLAREDELEM": "cvc-elt.1.a",
    "SCHEMAV_NOTNILLABLE": "cvc-elt.3.1",
    "SCHEMAV_ISABSTRACT": "cvc-elt.2",
}


def _raw_name(el: etree._Element | None, fallback_clark: str) -> str:
    """Element name as written in the instance (``prefix:local``), as Xerces prints it."""
    if el is not None and isinstance(el.tag, str):
        local = etree.QName(el).localname
        return f"{el.prefix}:{local}" if el.prefix else local
    return fallback_clark.rpartition("}")[2] if fallback_clark else "?"


def _xerces_qname(clark: str) -> str:
    clark = clark.strip()
    if clark.startswith("{"):
        ns, _, local = clark[1:].partition("}")
        return f'{{"{ns}":{local}}}'
    return clark


def _expected_list(detail: str) -> str | None:
    """libxml2's expected list '( {ns}a, {ns}b )' in Xerces' form '"ns":a, "ns":b'."""
    m = _EXPECTED_RE.search(detail)
    if not m:
        return None
    items = [i.strip() for i in m.group("list").split(",") if i.strip()]
    return ", ".join(_xerces_qname(i)[1:-1] if i.startswith("{") else i for i in items)


def _locate(entry_path: str | None, line: int, clark: str, tree: etree._ElementTree) -> etree._Element | None:
    """Find the instance element an error is about: walk libxml2's node path, else by line."""
    root = tree.getroot()
    if entry_path and entry_path.startswith("/"):
        steps = entry_path.strip("/").split("/")
        cur: etree._Element | None = None
        ok = True
        for i, step in enumerate(steps):
            m = re.fullmatch(r"(?P<name>[^\[\]]+)(?:\[(?P<idx>\d+)\])?", step)
            if not m:
                ok = False
                break
            name = m.group("name")
            idx = int(m.group("idx")) if m.group("idx") else 1
            cands: list[etree._Element] = []
            pool: Iterable[etree._Element] = [root] if i == 0 else (cur if cur is not None else [])
            for c in pool:
                if not isinstance(c.tag, str):
                    continue
                if name == "*":
                    cands.append(c)
                    continue
                prefix, _, local = name.rpartition(":")
                if etree.QName(c).localname == local and (c.prefix or "") == prefix:
                    cands.append(c)
            if i == 0 and name == "*":
                cands = [root]
            if len(cands) < idx:
                ok = False
                break
            cur = cands[idx - 1]
        if ok and cur is not None:
            return cur
    for el in root.iter():
        if isinstance(el.tag, str) and _sourceline(el) == line and (not clark or el.tag == clark):
            return el
    return None


# --------------------------------------------------------------------------------------------
# Mapping of one entry
# --------------------------------------------------------------------------------------------


def xerces_issues(
    entry: etree._LogEntry,
    tree: etree._ElementTree,
    schema_info: SchemaInfo | None = None,
) -> list[XsdIssue]:
    """Map one libxml2 schema-validation log entry to the Xerces issue(s) it corresponds to.

    ``tree`` is the validated document (used to find the offending element: its prefix, text and
    children). ``schema_info`` (see :func:`schema_info_for`) tells whether an element's type is a
    simple type (``cvc-type.3.1.3``) or a complex type with simple content
    (``cvc-complex-type.2.2``); without it, elements are assumed to be complex types with simple
    content (true for every UBL ``cbc:`` element and most CII elements).

    Returns ``[]`` only for the libxml2 follow-up value error that libxml2 adds after an
    "Element content is not allowed" error on the same element: the issues for that entry already
    contain Xerces' value check.
    """
    clark = ""
    m = _HEAD_RE.match(entry.message or "")
    if m:
        clark = m.group("el")
    el = _locate(entry.path, entry.line, clark, tree)
    return _map_entry(entry.type_name, entry.message or "", entry.line, entry.column, entry.path, el, schema_info)


def _map_entry(
    type_name: str,
    message: str,
    line: int,
    column: int | None,
    path: str | None,
    el: etree._Element | None,
    info: SchemaInfo | None,
) -> list[XsdIssue]:
    col = column if column else None
    m = _HEAD_RE.match(message)
    clark = m.group("el") if m else ""
    attr = m.group("attr") if m else None
    detail = (m.group("detail") if m else message).strip()
    ename = _raw_name(el, clark)

    def issue(code: str, text: str) -> XsdIssue:
        return XsdIssue(code, f"{code}: {text}", line, col, path)

    # Xerces reports content errors of an element (value, children) at its end tag.
    def end_issue(code: str, text: str) -> XsdIssue:
        end_line = _end_line(el) if el is not None else None
        if end_line is None:
            return issue(code, text)
        return XsdIssue(code, f"{code}: {text}", end_line, None, path)

    if type_name == "SCHEMAV_ELEMENT_CONTENT" or type_name == "SCHEMAV_CVC_COMPLEX_TYPE_2_4":
        expected = _expected_list(detail)
        if "Missing child element" in detail:
            # Xerces reports this at the end tag; libxml2 at the start tag.
            return [
                end_issue(
                    "cvc-complex-type.2.4.b",
                    "The content of element '{}' is not complete. One of '{{{}}}' is expected.".format(
                        ename, expected or ""
                    ),
                )
            ]
        if "not expected" in detail:
            if expected:
                return [
                    issue(
                        "cvc-complex-type.2.4.a",
                        f"Invalid content was found starting with element "
                        f"'{_xerces_qname(clark) if clark else ename}'. One of '{{{expected}}}' is expected.",
                    )
                ]
            return [
                issue(
                    "cvc-complex-type.2.4.d",
                    f"Invalid content was found starting with element '{ename}'. "
                    "No child element is expected at this point.",
                )
            ]
        return [issue(FALLBACK_CODE, message)]

    if type_name in ("SCHEMAV_CVC_COMPLEX_TYPE_2_2", "SCHEMAV_CVC_TYPE_3_1_2"):
        simple_typed = type_name == "SCHEMAV_CVC_TYPE_3_1_2"
        if simple_typed:
            head = end_issue(
                "cvc-type.3.1.2",
                f"Element '{ename}' is a simple type, so it must have no element information item [children].",
            )
            second_code = "cvc-type.3.1.3"
        else:
            head = end_issue(
                "cvc-complex-type.2.2",
                f"Element '{ename}' must have no element [children], and the value must be valid.",
            )
            second_code = "cvc-complex-type.2.2"
        out = [head]
        # Xerces then checks the character content it kept (usually '') against the simple type.
        t = info.type_for(el) if (info is not None and el is not None) else None
        if info is not None and el is not None and t is not None and t.simple is not None:
            kept = _value_after_children(el, info)
            bad = _check_value(t.simple, kept)
            if bad is not None:
                out.append(end_issue(bad[0], bad[1]))
                out.append(head if not simple_typed else end_issue(second_code, _type_313(kept, ename)))
        return out

    if type_name == "SCHEMAV_CVC_ELT_1" and "strict wildcard" in detail:
        return [
            issue(
                "cvc-complex-type.2.4.c",
                f"The matching wildcard is strict, but no declaration can be found for element '{ename}'.",
            )
        ]

    if type_name == "SCHEMAV_CVC_AU":
        fm = re.search(r"The value '(.*)' does not match the fixed value constraint '(.*)'", detail, re.S)
        given, fixed = (fm.group(1), fm.group(2)) if fm else ("", "")
        return [
            issue(
                "cvc-complex-type.3.1",
                f"Value '{given}' of attribute '{attr}' of element '{ename}' is not valid with respect to the "
                f"corresponding attribute use. Attribute '{attr}' has a fixed value of '{fixed}'.",
            )
        ]

    facet = _FACET_CODES.get(type_name)
    if facet is not None:
        vm = _VALUE_RE.match(detail)
        if vm:
            value = vm.group("v")
        elif el is not None and attr is not None:
            value = el.get(attr) or ""
        elif el is not None:
            value = _collapse(el.text or "")
        else:
            value = ""
        if attr is not None:
            st = info.attr_simple(el, attr) if (info is not None and el is not None) else None
            code, text = _facet_issue(facet, detail, value, st)
            tname = st.name if st is not None else _builtin_from_detail(detail) or "?"
            return [
                issue(code, text),
                issue(
                    "cvc-attribute.3",
                    f"The value '{value}' of attribute '{attr}' on element '{ename}' is not valid with respect "
                    f"to its type, '{tname}'.",
                ),
            ]
        t = info.type_for(el) if (info is not None and el is not None) else None
        if el is not None and t is not None and t.kind in ("complex-simple", "simple") and _has_child_elements(el):
            return []  # libxml2's follow-up to "Element content is not allowed" (see docstring)
        code, text = _facet_issue(facet, detail, value, t.simple if t is not None else None)
        first = end_issue(code, text)
        if t is not None and t.kind == "simple":
            return [first, end_issue("cvc-type.3.1.3", _type_313(value, ename))]
        return [
            first,
            end_issue(
                "cvc-complex-type.2.2",
                f"Element '{ename}' must have no element [children], and the value must be valid.",
            ),
        ]

    simple_code = _SIMPLE_CODES.get(type_name)
    if simple_code is not None:
        text = _simple_text(simple_code, detail, ename, attr)
        if simple_code in ("cvc-complex-type.2.1", "cvc-complex-type.2.3"):
            return [end_issue(simple_code, text)]
        return [issue(simple_code, text)]
    return [issue(FALLBACK_CODE, message)]


EMITTED_CODES: frozenset[str] = frozenset(
    {
        *_FACET_CODES.values(),
        *_SIMPLE_CODES.values(),
        "cvc-complex-type.2.4.a",
        "cvc-complex-type.2.4.b",
        "cvc-complex-type.2.4.c",
        "cvc-complex-type.2.4.d",
        "cvc-complex-type.2.2",
        "cvc-complex-type.3.1",
        "cvc-type.3.1.2",
        "cvc-type.3.1.3",
        "cvc-attribute.3",
        "cvc-pattern-valid",
        FALLBACK_CODE,
    }
)
"""Every code this module can give a finding (the message catalogue has texts for each)."""


def _type_313(value: str, ename: str) -> str:
    return f"The value '{value}' of element '{ename}' is not valid."


def _builtin_from_detail(detail: str) -> str | None:
    tm = re.search(r"atomic type 'xs:([A-Za-z]+)'", detail)
    return tm.group(1) if tm else None


_LANGUAGE_PATTERN = "([a-zA-Z]{1,8})(-[a-zA-Z0-9]{1,8})*"


def _facet_issue(code: str, detail: str, value: str, st: _SimpleT | None) -> tuple[str, str]:
    """Xerces code and message for a libxml2 value error (code already mapped from libxml2)."""
    tname = st.name if st is not None else "?"
    nums = re.findall(r"'(\d+)'", detail)
    if code == "cvc-datatype-valid.1.2.1":
        builtin = _builtin_from_detail(detail) or (st.builtin if st is not None else "anySimpleType")
        if builtin == "language":
            # Xerces derives xs:language with a pattern facet
            return (
                "cvc-pattern-valid",
                f"Value '{value}' is not facet-valid with respect to pattern '{_LANGUAGE_PATTERN}' "
                "for type 'language'.",
            )
        return code, f"'{value}' is not a valid value for '{builtin}'."
    if code == "cvc-enumeration-valid":
        sm = re.search(r"set \{(.*)\}", detail)
        enum = sm.group(1).replace("'", "") if sm else ""
        return code, (
            f"Value '{value}' is not facet-valid with respect to enumeration '[{enum}]'. It must be a value from the "
            "enumeration."
        )
    if code in ("cvc-minLength-valid", "cvc-maxLength-valid", "cvc-length-valid"):
        facet = code[4:-6]
        length = nums[-2] if len(nums) >= 2 else str(len(value))
        limit = nums[-1] if nums else "?"
        return code, (
            f"Value '{value}' with length = '{length}' is not facet-valid with respect to {facet} '{limit}' "
            f"for type '{tname}'."
        )
    if code == "cvc-pattern-valid":
        pm = re.search(r"pattern '(.*)'", detail)
        return code, (
            "Value '{}' is not facet-valid with respect to pattern '{}' for type '{}'.".format(
                value, pm.group(1) if pm else "?", tname
            )
        )
    clean = re.sub(r"^\[facet '[^']*'\] ", "", detail)
    return code, f"Value '{value}' is not facet-valid with respect to type '{tname}': {clean}"


def _end_line(el: etree._Element) -> int | None:
    """Line of ``el``'s end tag, assuming no line break inside tags after the last start tag."""
    start = _sourceline(el)
    if start is None:
        return None
    last = el
    for d in el.iterdescendants():
        last = d
    lines = _sourceline(last) or start
    lines += (last.text or "").count("\n")
    cur: etree._Element | None = last
    while cur is not None and cur is not el:
        lines += (cur.tail or "").count("\n")
        cur = cur.getparent()
    return lines


def _has_child_elements(el: etree._Element) -> bool:
    return any(isinstance(c.tag, str) for c in el)


def _value_after_children(el: etree._Element, info: SchemaInfo) -> str:
    """The character content Xerces validates for a simple-content element with element children.

    Xerces' buffer only keeps text when the last child element is itself of simple type or simple
    content; after an undeclared (lax) child it validates the empty string."""
    last: etree._Element | None = None
    for c in el:
        if isinstance(c.tag, str):
            last = c
    if last is None:
        return el.text or ""
    t = info.type_for(last)
    if t is not None and t.kind in ("simple", "complex-simple"):
        return last.tail or ""
    return ""


def _simple_text(code: str, detail: str, ename: str, attr: str | None) -> str:
    if code == "cvc-complex-type.4":
        am = re.search(r"attribute '([^']*)'", detail)
        return "Attribute '{}' must appear on element '{}'.".format(am.group(1) if am else "?", ename)
    if code == "cvc-complex-type.3.2.2":
        return "Attribute '{}' is not allowed to appear in element '{}'.".format(attr or "?", ename)
    if code == "cvc-complex-type.2.3":
        return f"Element '{ename}' cannot have character [children], because the type's content type is element-only."
    if code == "cvc-complex-type.2.1":
        return (
            f"Element '{ename}' must have no character or element information item [children], because the type's "
            "content type is empty."
        )
    if code == "cvc-type.3.1.2":
        return f"Element '{ename}' is a simple type, so it must have no element information item [children]."
    if code == "cvc-elt.1.a":
        return f"Cannot find the declaration of element '{ename}'."
    if code == "cvc-attribute.4":
        return "The value of attribute '{}' on element '{}' does not match its fixed value constraint: {}".format(
            attr or "?",
            ename,
            detail,
        )
    return "Element '{}'{}: {}".format(ename, f", attribute '{attr}'" if attr else "", detail)


# --------------------------------------------------------------------------------------------
# Whole-document validation, Xerces style
# --------------------------------------------------------------------------------------------


def xerces_validate(
    schema: etree.XMLSchema,
    tree: etree._ElementTree,
    schema_info: SchemaInfo | None = None,
) -> list[XsdIssue]:
    """Validate ``tree`` with ``schema`` and return all errors as Xerces-style issues.

    Besides mapping every log entry with :func:`xerces_issues`, this reproduces the errors Xerces
    reports after a content-model error ("not expected" element): libxml2 skips the rest of the
    parent element, Xerces validates the offending element and every following sibling against the
    matching declaration of the parent's content model (or the global declaration; undeclared
    elements are assessed laxly, i.e. their children are looked up globally). This needs
    ``schema_info``; the extra sub-validations only happen when such an error occurs.
    """
    schema.validate(tree)
    return issues_from_log(schema.error_log, tree, schema_info)


def issues_from_log(
    error_log: object,
    tree: etree._ElementTree,
    schema_info: SchemaInfo | None = None,
) -> list[XsdIssue]:
    """Like :func:`xerces_validate`, for a schema that has already validated ``tree`` (no second run)."""
    return _issues_from_entries(_log_entries(error_log), tree, schema_info, None)


def _issues_from_entries(
    entries: list[_LogEntryLike],
    tree: etree._ElementTree,
    info: SchemaInfo | None,
    node_map: Callable[[etree._Element], etree._Element] | None,
) -> list[XsdIssue]:
    out: list[XsdIssue] = []
    for entry in entries:
        m = _HEAD_RE.match(entry.message or "")
        clark = m.group("el") if m else ""
        el = _locate(entry.path, entry.line, clark, tree)
        orig = node_map(el) if (node_map is not None and el is not None) else el
        if orig is not None and node_map is not None:
            line = _sourceline(orig) or entry.line
            path: str | None = orig.getroottree().getpath(orig)
        else:
            line, path = entry.line, entry.path
        out.extend(_map_entry(entry.type_name, entry.message or "", line, entry.column, path, orig, info))
        if (
            info is not None
            and orig is not None
            and entry.type_name == "SCHEMAV_ELEMENT_CONTENT"
            and "not expected" in (entry.message or "")
        ):
            parent = orig.getparent()
            ptype = info.decl_for(parent) if parent is not None else None
            sib: etree._Element | None = orig
            while sib is not None:
                if isinstance(sib.tag, str):
                    out.extend(_continue(sib, ptype.type_key if ptype else None, info))
                sib = sib.getnext()
    return out


def _continue(el: etree._Element, parent_type: str | None, info: SchemaInfo) -> list[XsdIssue]:
    """Validate ``el`` (an original node) the way Xerces does after a content-model error."""
    decl = info.child_decl(parent_type, el.tag) if isinstance(el.tag, str) else None
    if decl is None:
        out: list[XsdIssue] = []
        for c in el:
            if isinstance(c.tag, str):
                out.extend(_continue(c, None, info))
        return out
    t = info.type_info(decl.type_key)
    if t is None:
        return []
    cp = copy.deepcopy(el)
    cp.tail = None
    if decl.is_global and info.global_decl(el.tag) == decl:
        schema = info.main_schema()
    elif t.named and t.kind != "simple":
        schema, names = info.wrapper_schema()
        wname = names.get(decl.type_key)
        if wname is None:
            return []
        cp.tag = wname
    else:
        if t.simple is not None and not _has_child_elements(el):
            bad = _check_value(t.simple, el.text or "")
            if bad is not None:
                line = _sourceline(el) or 0
                path = el.getroottree().getpath(el)
                second = (
                    (
                        "cvc-type.3.1.3",
                        "The value '{}' of element '{}' is not valid.".format(el.text or "", _raw_name(el, "")),
                    )
                    if t.kind == "simple"
                    else (
                        "cvc-complex-type.2.2",
                        "Element '{}' must have no element [children], and the value must be valid.".format(
                            _raw_name(el, "")
                        ),
                    )
                )
                return [
                    XsdIssue(bad[0], "{}: {}".format(*bad), line, None, path),
                    XsdIssue(second[0], "{}: {}".format(*second), line, None, path),
                ]
        return []
    doc = etree.ElementTree(cp)
    with info.validate_lock:  # the cached schemas are shared between threads
        schema.validate(doc)
        entries = _log_entries(schema.error_log)
    mapping = dict(zip(_elements(cp), _elements(el), strict=False))
    return _issues_from_entries(entries, doc, info, lambda n: mapping.get(n, el))


def _elements(root: etree._Element) -> Iterator[etree._Element]:
    for n in root.iter():
        if isinstance(n.tag, str):
            yield n
