"""Install-time preparation: a rewritten copy of each official Schematron stylesheet, by named, versioned steps.

The official compiled stylesheets write a full SVRL report: besides the ``svrl:failed-assert`` /
``svrl:successful-report`` elements the findings come from, one ``svrl:fired-rule`` per rule that fired on
each context node, ``svrl:active-pattern`` headers, ``svrl:ns-prefix-in-attribute-values`` declarations, and
(SchXslt) a ``svrl:metadata`` block and ``svrl:suppressed-rule`` notes. The KoSIT build drops the fired-rule
output too (``remove-dead-apply-templates.xsl``). Producing, serialising and reading that output is work
without a result, so the installer writes a *prepared* copy of each pack's stylesheet, next to the official
file (which stays untouched), and the Schematron stage compiles the copy:

``<pack dir>/prepared/<entry path>``, its sha256 recorded in ``<pack dir>/prepared.json`` together with the
sha256 of the official file it came from, :data:`PREPARATION_VERSION` (the format of ``prepared.json``) and
the rewrite steps applied with their versions. The copy is verified like the official files; a changed
preparation (another step list, or a new version of a step) or a changed official file invalidates it.

The preparation is an ordered list of named, versioned rewrite steps (:data:`STEPS`), each a function on the
stylesheet's XML (lxml); :func:`prepare_stylesheet` applies a chosen subset (benchmarks and tests switch steps
off for comparison), the installer the default list (:data:`DEFAULT_STEPS`). Each step works for the three
generators in use (CEN's ISO-skeleton ``.xslt``, KoSIT's SchXslt ``.xsl``, phive's ISO-skeleton ``.xslt`` for
CIUS-RO) and keeps the number of assertions (``svrl:failed-assert`` / ``svrl:successful-report`` elements, or the
calls ``compact-assertions`` puts in their place). Every step rewrites SVRL output (``Step.outputs``): a pack whose
stylesheet writes another report (``Manifest.output``: OIOUBL's ``<Error>`` report) gets no step
(:func:`steps_for`), and its prepared copy is the official stylesheet, checked for resource reads like every copy.

The package: :mod:`.pipeline` (the steps in order, :func:`prepare_stylesheet`, :func:`prepare_pack_dir`,
``prepared.json``) over one module per step, named after it (``distribute_union_steps.py``, ``inline_code_db.py``,
``name_not_used_reports.py``, ``name_bracketed_asserts.py``, ``strip_unused_output.py``, ``guard_absence_tests.py``,
``isolate_rule_errors.py``, ``skip_attribute_walk.py``, ``compact_assertions.py``, ``skip_text_walk.py``,
``drop_empty_rule_reports.py``, ``relative_patterns.py``, ``hoist_document_constants.py``,
``index_sibling_lookups.py``, ``index_attribute_names.py``, ``index_location_positions.py``,
``index_pattern_predicates.py``, ``exclude_result_namespaces.py``: what the step
rewrites and why, in its docstring), over what they share (``_xslt.py``; for the steps that rewrite expressions, an
XPath parser, ``_xpath.py``, and the judgements on its trees, ``_constants.py``). A step imports no other step
(``[tool.importlinter]``, contract ``prepare``).
"""

from __future__ import annotations

from ._xslt import PreparationError
from ._xslt import _closing_paren as _closing_paren  # benchmarks/rejected_rewrites.py
from .distribute_union_steps import distribute_union_steps  # the function: it shadows its module's name here
from .guard_absence_tests import GUARD_MIN_RUN
from .guard_absence_tests import _guard_absence_tests as _guard_absence_tests  # benchmarks/prepare_steps.py
from .guard_absence_tests import _union as _union  # tests/test_prepare.py
from .isolate_rule_errors import _isolate_rule_errors as _isolate_rule_errors  # benchmarks/prepare_steps.py
from .name_bracketed_asserts import bracketed_id
from .name_not_used_reports import NOT_USED_ID, not_used_id
from .pipeline import (
    DEFAULT_STEPS,
    PREPARATION_VERSION,
    PREPARED_DIR,
    PREPARED_INDEX,
    RESOURCE_FUNCTIONS,
    RESOURCE_INSTRUCTIONS,
    STEPS,
    PreparedEntry,
    PreparedIndex,
    Step,
    assigned_id,
    prepare_pack_dir,
    prepare_stylesheet,
    read_index,
    resource_reads,
    step_versions,
    steps_for,
    stylesheet_resources,
    write_atomic,
    write_prepared,
)

__all__ = [
    "DEFAULT_STEPS",
    "GUARD_MIN_RUN",
    "NOT_USED_ID",
    "PREPARATION_VERSION",
    "PREPARED_DIR",
    "PREPARED_INDEX",
    "RESOURCE_FUNCTIONS",
    "RESOURCE_INSTRUCTIONS",
    "STEPS",
    "PreparationError",
    "PreparedEntry",
    "PreparedIndex",
    "Step",
    "assigned_id",
    "bracketed_id",
    "distribute_union_steps",
    "not_used_id",
    "prepare_pack_dir",
    "prepare_stylesheet",
    "read_index",
    "resource_reads",
    "step_versions",
    "steps_for",
    "stylesheet_resources",
    "write_atomic",
    "write_prepared",
]
