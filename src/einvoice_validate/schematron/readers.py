"""The readers of a rule pack's result, by the name its manifest gives (``Manifest.output``): each a function from
the stylesheet's output to neutral events (:class:`~.svrl.SvrlEvent`), raising :class:`~.svrl.SvrlError` when the
output cannot be read (never "no findings").

The reader belongs to the pack, not to the syntax (docs/design/syntax-is-data.md): a pack writing SVRL (every pack
today, the default) needs none of its own; a pack writing another report format (OIOUBL's stylesheets write
``<Error>`` elements whose text carries the rule id) gets a reader here, registered under the name its manifest
gives.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import RulesetError
from .svrl import SvrlEvent, parse_svrl

__all__ = ["READERS", "Reader", "reader"]

Reader = Callable[[str], list[SvrlEvent]]

READERS: dict[str, Reader] = {"svrl": parse_svrl}
"""Every reader by name."""


def reader(name: str, pack: str) -> Reader:
    """The reader called ``name`` (a pack's ``output``); an unknown one is ``ruleset.invalid``, naming ``pack``."""
    found = READERS.get(name)
    if found is None:
        raise RulesetError(
            "ruleset.invalid", f"pack {pack}: no reader of rule output called {name!r}; known: {', '.join(READERS)}"
        )
    return found
