"""Preparation step ``strip-unused-output``: the SVRL output no finding uses, removed.

``strip-unused-output`` (v1) removes:

* every ``svrl:fired-rule``, ``svrl:suppressed-rule``, ``svrl:ns-prefix-in-attribute-values`` and
  ``svrl:metadata`` literal result element, with its content;
* ``xsl:comment`` instructions directly inside ``svrl:schematron-output`` or a SchXslt ``schxslt:rule``;
* every ``svrl:active-pattern`` literal result element. In the ISO skeleton it holds an
  ``<xsl:apply-templates/>`` that walks the whole document in the default mode, where the only templates
  are ``match="/"`` (never selected from there) and empty ones (``match="text()"``): it cannot output
  anything. It is removed only after checking exactly that on the stylesheet; otherwise it stays.

Everything it removes is output our SVRL reader ignores, computed by expressions that cannot raise a dynamic
error (string literals, ``document-uri()``, ``base-uri()``, ``current-dateTime()``, ``system-property()``,
stylesheet parameters). The assertions, their tests, ids, flags, locations and texts are untouched:
:func:`prepare_stylesheet` checks that the number of ``svrl:failed-assert`` and ``svrl:successful-report``
elements is unchanged, and the tests compare the findings of both versions on corpus files.
"""

from __future__ import annotations

from lxml import etree

from ._xslt import _SCHXSLT, _SVRL, PreparationError, _count, _drop, _x

_DROPPED = tuple(f"{{{_SVRL}}}{name}" for name in ("fired-rule", "suppressed-rule", "ns-prefix-in-attribute-values"))
_METADATA = f"{{{_SVRL}}}metadata"
_ACTIVE_PATTERN = f"{{{_SVRL}}}active-pattern"
_COMMENT_PARENTS = (f"{{{_SVRL}}}schematron-output", f"{{{_SCHXSLT}}}rule")


def _default_mode_is_inert(root: etree._Element) -> bool:
    """True if applying templates in the default mode to the document's children can output nothing.

    Children of the document node are elements, text, comments and processing instructions: the built-in
    rules recurse into elements, copy text, and drop comments and processing instructions. That walk is
    silent when every template of the default mode either matches only ``/`` (the document node, which a
    walk over children never reaches) or has an empty body, and text is caught by such an empty template.
    """
    if any(True for _ in root.iter(_x("mode"))):  # XSLT 3.0 mode declarations (on-no-match=...): not analysed
        return False
    text_is_caught = False
    for template in root.iter(_x("template")):
        mode = template.get("mode")
        if mode is not None and "#default" not in mode.split() and "#all" not in mode.split():
            continue
        match = template.get("match")
        if match is None:  # a named template without a mode is not part of the default mode
            continue
        empty = len(template) == 0 and not (template.text or "").strip()
        if match.strip() == "/":
            continue
        if not empty:
            return False
        if match.strip() in ("text()", "node()", "text() | @*", "@* | text()", "node() | @*", "@* | node()"):
            text_is_caught = True
    return text_is_caught


def _active_pattern_is_inert(element: etree._Element, default_mode_inert: bool) -> bool:
    """Only ``xsl:attribute`` instructions and a plain ``<xsl:apply-templates/>`` in an inert default mode."""
    for child in element:
        if not isinstance(child.tag, str):
            continue  # comments in the stylesheet
        if child.tag == _x("attribute"):
            continue
        plain = child.get("select") is None and child.get("mode") is None and len(child) == 0
        if child.tag == _x("apply-templates") and default_mode_inert and plain:
            continue
        return False
    return True


def _strip_unused_output(root: etree._Element) -> None:
    """Step ``strip-unused-output``: remove the SVRL output no finding uses (see the module docstring)."""
    for element in list(root.iter(*_DROPPED)):
        _drop(element)
    for element in list(root.iter(_METADATA)):
        parent = element.getparent()
        # SchXslt: <xsl:variable name="metadata" as="element()?"><svrl:metadata>…: empty content = ().
        if parent is None or parent.tag != _x("variable") or parent.get("as") != "element()?":
            raise PreparationError("svrl:metadata outside the SchXslt metadata variable")
        _drop(element)
    for element in list(root.iter(_x("comment"))):
        parent = element.getparent()
        if parent is not None and parent.tag in _COMMENT_PARENTS:
            _drop(element)
    inert = _default_mode_is_inert(root)
    for element in list(root.iter(_ACTIVE_PATTERN)):
        if _active_pattern_is_inert(element, inert):
            _drop(element)
    if _count(root, (*_DROPPED, _METADATA)):
        raise PreparationError("unused SVRL output is left after the preparation (this is a bug)")
