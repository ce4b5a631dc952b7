"""The test suite's fixed clock in the Python processes it starts (pool workers, the CLI or a server started as a
subprocess, Spark's Python workers), as in the test process itself (``tests/conftest.py``).

``tests/conftest.py`` puts this folder on ``PYTHONPATH`` (so Python imports this module at start) and sets
``EINVOICE_TESTS_TODAY`` to the suite's day: the library's default date source (``date.today()`` in the modules that
fall back to it when no rules date is given) then gives that day. Without the variable nothing is changed. The
library has no hook for this: the modules are patched as they are imported.
"""

from __future__ import annotations

import datetime
import importlib.abc
import importlib.machinery
import os
import sys
import types

SOURCES = ("einvoice_validate.validator", "einvoice_validate.cli", "einvoice_validate.acceptance")


def _install(day: datetime.date) -> None:
    class Today(datetime.date):
        @classmethod
        def today(cls) -> datetime.date:
            return day

    class Loader(importlib.abc.Loader):
        def __init__(self, inner: importlib.abc.Loader) -> None:
            self.inner = inner

        def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
            return self.inner.create_module(spec)

        def exec_module(self, module: types.ModuleType) -> None:
            self.inner.exec_module(module)
            module.date = Today  # type: ignore[attr-defined]

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(
            self, name: str, path: object, target: types.ModuleType | None = None
        ) -> importlib.machinery.ModuleSpec | None:
            if name not in SOURCES:
                return None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(name, path, target)
                if spec is not None and spec.loader is not None:
                    spec.loader = Loader(spec.loader)
                    return spec
            return None

    sys.meta_path.insert(0, Finder())


if os.environ.get("EINVOICE_TESTS_TODAY"):
    _install(datetime.date.fromisoformat(os.environ["EINVOICE_TESTS_TODAY"]))
