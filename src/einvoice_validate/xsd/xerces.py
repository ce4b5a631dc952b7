"""Whole-document validation, Xerces style: every libxml2 log entry mapped by :mod:`.codes`, plus the errors
Xerces reports after a content-model error, which libxml2 skips.

* :func:`xerces_validate` - validate a whole tree with a compiled ``etree.XMLSchema`` and return the
  Xerces-style issues for all errors, including the errors Xerces reports *after* a content-model
  error (libxml2 skips the rest of the parent element after "This element is not expected";
  Xerces keeps validating those siblings against the matching declarations).
* :func:`issues_from_log` - the same for a schema that has already validated the tree (the stage's way).

Cost: the lazily compiled helper schemas used for the post-content-error sub-validation take ~30 ms once,
and are only built when such an error occurs.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator

from lxml import etree

from .codes import XsdIssue, has_child_elements, is_value_error, map_entry
from .libxml2_log import HEAD_RE, LineIndex, LogEntryLike, locate, log_entries, raw_name, sourceline
from .schema_index import SchemaInfo
from .values import check_value

__all__ = ["capped_issues_from_log", "issues_from_log", "xerces_validate"]


def xerces_validate(
    schema: etree.XMLSchema,
    tree: etree._ElementTree,
    schema_info: SchemaInfo | None = None,
) -> list[XsdIssue]:
    """Validate ``tree`` with ``schema`` and return all errors as Xerces-style issues.

    Besides mapping every log entry like :func:`.codes.xerces_issues`, this reproduces the errors Xerces
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
    return _issues_from_entries(log_entries(error_log), tree, schema_info, None)


def capped_issues_from_log(
    error_log: object, tree: etree._ElementTree, schema_info: SchemaInfo | None, cap: int
) -> tuple[list[XsdIssue], int]:
    """The first ``cap`` issues of the log and at least how many more there are (issues past the cap, plus the
    entries never mapped): a document with 200,000 schema errors costs the mapping of about ``cap`` of them."""
    entries = log_entries(error_log)
    out: list[XsdIssue] = []
    lines = LineIndex(tree)
    valued: set[tuple[str, str | None]] = set()
    for n, entry in enumerate(entries):
        if len(out) >= cap:
            return out[:cap], len(out) - cap + len(entries) - n
        out.extend(_entry_issues(entry, tree, schema_info, None, lines, valued, cap - len(out)))
    return out[:cap], max(0, len(out) - cap)


def _issues_from_entries(
    entries: list[LogEntryLike],
    tree: etree._ElementTree,
    info: SchemaInfo | None,
    node_map: Callable[[etree._Element], etree._Element] | None,
) -> list[XsdIssue]:
    out: list[XsdIssue] = []
    lines = LineIndex(tree)
    valued: set[tuple[str, str | None]] = set()
    for entry in entries:
        out.extend(_entry_issues(entry, tree, info, node_map, lines, valued))
    return out


def _entry_issues(
    entry: LogEntryLike,
    tree: etree._ElementTree,
    info: SchemaInfo | None,
    node_map: Callable[[etree._Element], etree._Element] | None,
    lines: LineIndex,
    valued: set[tuple[str, str | None]],
    budget: int | None = None,
) -> list[XsdIssue]:
    """The issues of one log entry; past ``budget`` issues the following siblings of a content-model error are
    not assessed any further (a flood of 300,000 siblings would each be validated anew). ``valued``: the (element's
    path, attribute) whose value error is reported already: libxml2 logs each failing facet of a value (minLength
    and enumeration), Xerces only the first (:func:`.codes.map_entry` names it)."""
    out: list[XsdIssue] = []
    m = HEAD_RE.match(entry.message or "")
    clark = m.group("el") if m else ""
    el = locate(entry.path, entry.line, clark, tree, lines)
    if el is not None and is_value_error(entry.type_name):
        key = (tree.getpath(el), m.group("attr") if m else None)
        if key in valued:
            return out
        valued.add(key)
    orig = node_map(el) if (node_map is not None and el is not None) else el
    if orig is not None and node_map is not None:
        line = sourceline(orig) or entry.line
        path: str | None = orig.getroottree().getpath(orig)
    else:
        line, path = entry.line, entry.path
    out.extend(map_entry(entry.type_name, entry.message or "", line, entry.column, path, orig, info))
    if (
        info is not None
        and orig is not None
        and entry.type_name == "SCHEMAV_ELEMENT_CONTENT"
        and "not expected" in (entry.message or "")
    ):
        parent = orig.getparent()
        ptype = info.decl_for(parent) if parent is not None else None
        sib: etree._Element | None = orig
        while sib is not None and (budget is None or len(out) <= budget):
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
        if t.simple is not None and not has_child_elements(el):
            bad = check_value(t.simple, el.text or "")
            if bad is not None:
                line = sourceline(el) or 0
                path = el.getroottree().getpath(el)
                second = (
                    (
                        "cvc-type.3.1.3",
                        "The value '{}' of element '{}' is not valid.".format(el.text or "", raw_name(el, "")),
                    )
                    if t.kind == "simple"
                    else (
                        "cvc-complex-type.2.2",
                        "Element '{}' must have no element [children], and the value must be valid.".format(
                            raw_name(el, "")
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
        entries = log_entries(schema.error_log)
    mapping = dict(zip(_elements(cp), _elements(el), strict=False))
    return _issues_from_entries(entries, doc, info, lambda n: mapping.get(n, el))


def _elements(root: etree._Element) -> Iterator[etree._Element]:
    for n in root.iter():
        if isinstance(n.tag, str):
            yield n
