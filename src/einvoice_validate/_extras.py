"""What a front end needs beyond the core package (the extras of ``pyproject.toml``), and the one error it gives.

A front end calls :func:`require` before it uses an extra: it checks, without importing anything, that the extra's
modules can be found, and raises :class:`MissingExtra`, whose message is one line naming what to run::

    require("spark", "einvoice_validate.spark")
    # MissingExtra: einvoice_validate.spark needs the [spark] extra (pyspark, pyarrow, pandas are not installed):
    #               pip install 'einvoice-validate[spark]'

Every such problem of the environment (an extra not installed, Spark's executors starting a Python without the
package) is a :class:`SetupError`: one line saying what to install or set. The CLI prints it as
``einvoice-validate: <line>`` and exits 2; a script that does not catch it gets the same line and exit status 2
instead of a traceback (:func:`_exit_on_setup_error`), and an interactive session the line alone. It stays an
exception a caller can catch (``MissingExtra`` is an ``ImportError`` too).

This module imports nothing of the package and nothing outside the standard library.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import sys
import threading
from types import TracebackType

__all__ = [
    "DEPENDENCIES",
    "DISTRIBUTION",
    "EXIT_SETUP",
    "EXTRAS",
    "PROG",
    "SETUP_CODE",
    "MissingDependency",
    "MissingExtra",
    "SetupError",
    "install_command",
    "missing_extra_text",
    "require",
    "require_dependency",
]

DISTRIBUTION = "einvoice-validate"
PROG = "einvoice-validate"
EXIT_SETUP = 2
"""The exit status of a front end that cannot run here (the CLI's usage and error status)."""
SETUP_CODE = "plan.feature-not-included"
"""The code a :class:`SetupError` line ends in: what was asked for is not part of this installation (an extra or a
dependency not installed), the API's code for a feature not included."""

EXTRAS: dict[str, tuple[str, ...]] = {
    "java": ("jpype",),
    "pdf": ("weasyprint",),
    "server": ("starlette", "uvicorn"),
    "spark": ("pyspark", "pyarrow", "pandas"),
}
"""Each extra of ``pyproject.toml`` with the modules its front end imports (``httptools`` and ``uvloop`` of
``[server]`` are optional speed-ups uvicorn does without). ``tests/test_extras.py`` checks it against
``pyproject.toml``."""


DEPENDENCIES: dict[str, str] = {"pikepdf": "pikepdf>=9,<11"}
"""Dependencies of the core package that only one kind of input needs, imported on first use (PDF input), with their
requirement as ``pyproject.toml`` states it (checked by ``tests/test_extras.py``): an environment built without
them (``pip install --no-deps``) validates XML and says what to install at the first PDF."""


class SetupError(Exception):
    """This environment cannot run a front end; the message is one line saying what to install or set.

    Its :attr:`code` is the API's code for a feature this installation does not include; the CLI ends the line
    with it, as it ends every error line with a code."""

    code = SETUP_CODE

    def __init__(self, message: str) -> None:
        super().__init__(message)
        _exit_on_setup_error()


class MissingExtra(SetupError, ImportError):
    """An extra is not installed: ``extra`` names it, ``missing`` its modules not found, ``command`` the fix."""

    def __init__(self, feature: str, extra: str, missing: tuple[str, ...]) -> None:
        self.extra = extra
        self.missing = missing
        self.command = install_command(extra)
        super().__init__(missing_extra_text(feature, extra, missing))
        self.name = missing[0]  # ImportError's attribute: the module not found


class MissingDependency(SetupError, ImportError):
    """A dependency of the core package (:data:`DEPENDENCIES`) is not installed; ``command`` installs it."""

    def __init__(self, feature: str, module: str) -> None:
        self.command = f"pip install '{DEPENDENCIES[module]}'"
        super().__init__(
            f"{feature} needs {module}, a dependency of {DISTRIBUTION} that is not installed here: {self.command}"
        )
        self.name = module


def install_command(extra: str) -> str:
    """``pip install 'einvoice-validate[extra]'``."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def missing_extra_text(feature: str, extra: str, missing: tuple[str, ...] | None = None) -> str:
    """The one line of :class:`MissingExtra` (also for an error of another class, e.g. in a worker process)."""
    modules = EXTRAS[extra] if missing is None else missing
    verb = "is" if len(modules) == 1 else "are"
    return f"{feature} needs the [{extra}] extra ({', '.join(modules)} {verb} not installed): {install_command(extra)}"


def require(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtra` unless every module of ``extra`` (:data:`EXTRAS`) can be imported here.

    ``feature`` is what needs it, as the user asked for it (``serve``, ``--engine saxon-java``,
    ``einvoice_validate.spark``). Nothing is imported (``importlib.util.find_spec``): a few microseconds."""
    missing = tuple(name for name in EXTRAS[extra] if importlib.util.find_spec(name) is None)
    if missing:
        raise MissingExtra(feature, extra, missing)


def require_dependency(module: str, feature: str) -> None:
    """Raise :class:`MissingDependency` unless ``module`` (one of :data:`DEPENDENCIES`) can be imported here."""
    if importlib.util.find_spec(module) is None:
        raise MissingDependency(feature, module)


# --- an uncaught SetupError: one line and exit status 2, not a traceback ------------------------------------

_hook_lock = threading.Lock()
_previous_hook: list[object] = []


def _exit_on_setup_error() -> None:
    """Put :func:`_setup_error_hook` in front of ``sys.excepthook`` (once; everything else goes on to the hook
    that was there)."""
    with _hook_lock:
        if not _previous_hook:
            _previous_hook.append(sys.excepthook)
            sys.excepthook = _setup_error_hook


def _setup_error_hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    previous = _previous_hook[0] if _previous_hook else sys.__excepthook__
    if not isinstance(value, SetupError):
        previous(kind, value, tb)  # type: ignore[operator]
        return
    print(f"{PROG}: {value} ({value.code})", file=sys.stderr)
    if hasattr(sys, "ps1") or sys.flags.interactive:
        return  # an interactive session goes on
    # Python exits with 1 after an uncaught exception, whatever a hook does; the exit handlers run first, as
    # they would, then the process ends with the front ends' status
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    os._exit(EXIT_SETUP)
