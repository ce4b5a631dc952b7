"""Preparation step ``inline-code-db``: the pack's code lists read through ``document()`` inlined as static variables.

``inline-code-db`` (v1, issue 14) replaces each ``document('NAME')`` call whose argument is a string literal
naming a file of the pack next to the stylesheet (the Factur-X stylesheets' ``FACTUR-X_<P>_codedb.xml`` code
lists, 18 to 420 calls each) by a global variable holding that file's content: a *static* variable (XSLT 3.0)
whose value is ``parse-xml('<the code db>')``, computed once when the stylesheet is compiled. The prepared
stylesheet then reads no file at run time: it cannot be made to read anything but the pack's own, checksummed
code lists; and per document it is faster than the official ``document()`` (EXTENDED: about 9.5 ms against
20.5 ms per corpus document under SaxonC, ``benchmarks/pdf_input.py``). Any other ``document()`` argument
(an expression, a path, an address) fails the preparation. Whatever the steps, :func:`prepare_pack_dir` refuses a
prepared stylesheet that still calls a function or instruction reading a resource at run time
(:data:`RESOURCE_FUNCTIONS`, :data:`RESOURCE_INSTRUCTIONS`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from lxml import etree

from ._xslt import _PARSER, PreparationError, _drop, _x

_DOCUMENT_LITERAL = re.compile(r"(?<![\w.:-])document\(\s*(?:'([^'/\\:]+)'|\"([^\"/\\:]+)\")\s*\)")
_CODE_DB_VARIABLE = "einvoice-validate-code-db-{n}"


def _inline_code_db(root: etree._Element, resources: Mapping[str, bytes]) -> None:
    """Step ``inline-code-db``: each ``document('NAME')`` with NAME in ``resources`` → a global variable."""
    names: dict[str, str] = {}
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for attr, value in element.attrib.items():
            value = str(value)
            if "document(" not in value:
                continue

            def replace(match: re.Match[str]) -> str:
                name = match.group(1) or match.group(2)
                if name not in resources:
                    raise PreparationError(f"document({name!r}) names no file of the pack next to the stylesheet")
                if name not in names:
                    names[name] = _CODE_DB_VARIABLE.format(n=len(names) + 1)
                return "$" + names[name]

            element.set(attr, _DOCUMENT_LITERAL.sub(replace, value))
    if not names:
        return
    existing = {v.get("name") for v in root.iter(_x("variable"), _x("param"))}
    anchor = next((i for i, child in enumerate(root) if child.tag == _x("template")), len(root))
    for name, variable in sorted(names.items(), key=lambda item: item[1]):
        if variable in existing:
            raise PreparationError(f"the stylesheet already has a variable {variable}")
        try:
            content = etree.fromstring(resources[name], _PARSER)
        except etree.XMLSyntaxError as exc:
            raise PreparationError(f"{name} is not well-formed XML: {exc}") from exc
        # A static variable: evaluated once, when the stylesheet is compiled (XSLT 3.0; both engines run the 2.0
        # stylesheets as a 3.0 processor). Literal result elements instead would build the tree on every run
        # (about 30% slower than document(), which Saxon caches; see benchmarks/pdf_input.py).
        for node in list(content.iter(etree.Comment, etree.ProcessingInstruction)):
            _drop(node)
        text = etree.tostring(content, encoding="unicode").replace("'", "''")
        holder = etree.Element(_x("variable"), name=variable, static="yes", select=f"parse-xml('{text}')")
        holder.tail = "\n"
        comment = etree.Comment(f" {name}, inlined at install time (step inline-code-db) ")
        comment.tail = "\n"
        root.insert(anchor, comment)
        root.insert(anchor + 1, holder)
        anchor += 2
