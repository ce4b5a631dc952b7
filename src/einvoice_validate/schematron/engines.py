"""The XSLT engines that run the prepared Schematron stylesheets, behind one interface.

Two engines run the same prepared stylesheets through the same wrapper and give the same SVRL:

* ``saxonc``: SaxonC-HE 13 (``saxonche`` from the package index), Saxon compiled ahead of time. No
  Java needed, fast start (a fresh process validates its first invoice in under a second).
* ``saxon-java``: Saxon-HE for Java, the engine the official German validator (KoSIT) uses, driven in-process
  through JPype (``pip install einvoice-validate[java]``; the jar from Debian's ``libsaxonhe-java``, verified
  against its pinned sha256). Its JIT makes the same stylesheets run 2-3 x faster once warm, at the price of a
  JVM start (about 0.4 s) and slower first passes: for long-running servers and batch jobs.

:mod:`._saxon` is the only module importing saxonche and :mod:`._java` the only one importing JPype; what both
share (the wrapper around the official stylesheets, the attachment cut, the runtime error, the engine protocol) is
:mod:`._shared`, below them both; this module sits on top and chooses between them (:func:`engine_for`: an explicit
choice wins, else the work decides). Importing it loads neither engine.
"""

from __future__ import annotations

import os
from typing import Literal

# What both engines share, below them both; named here too, the engines' public face.
from ._shared import (
    SLIM_KEEP_CHARS,
    SLIM_MIN_CHARS,
    CompiledStylesheet,
    Engine,
    StylesheetRuntimeError,
    engine_rejects,
    slimmed_bytes,
    slimmed_text,
    wrapper_text,
)

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "ENGINE_ENV",
    "LARGE_DOCUMENT_BYTES",
    "SLIM_KEEP_CHARS",
    "SLIM_MIN_CHARS",
    "STEADY_FROM_DOCUMENTS",
    "CompiledStylesheet",
    "Engine",
    "EngineName",
    "StylesheetRuntimeError",
    "Work",
    "engine_for",
    "engine_for_size",
    "engine_name",
    "engine_named",
    "engine_rejects",
    "get_engine",
    "slimmed_bytes",
    "slimmed_text",
    "wrapper_text",
]

EngineName = Literal["saxonc", "saxon-java"]
"""The XSLT engines' names (:data:`ENGINES`); :class:`~einvoice_validate.options.Options` names one."""
ENGINES: tuple[EngineName, ...] = ("saxonc", "saxon-java")
DEFAULT_ENGINE: EngineName = "saxonc"  # one document in a fresh process: the fastest start
STEADY_ENGINE: EngineName = "saxon-java"  # a server or a long batch: the fastest once warm (when installed)
ENGINE_ENV = "EINVOICE_VALIDATE_ENGINE"  # the engine when none is named (a deployment's setting)
STEADY_FROM_DOCUMENTS = 100
"""A batch of this many documents or more is steady work (see :func:`engine_for`)."""
LARGE_DOCUMENT_BYTES = 4 * 1024 * 1024
"""A document of this many bytes or more runs on ``saxon-java`` when the work chooses the engine, even alone in a
fresh process (:func:`engine_for_size`): there its faster run outweighs starting the JVM and compiling the packs
(one invoice in a fresh process, the validating thread's CPU time, ``benchmarks/engine_by_size.py``)."""

Work = Literal["document", "steady"]
"""What a runner is about to do: validate a document or a few (``document``: a fresh process wants the fastest
start), or many documents over a long time (``steady``: a server, a long batch)."""


def engine_name(name: str | None = None) -> EngineName:
    """``name``, else ``$EINVOICE_VALIDATE_ENGINE``, else :data:`DEFAULT_ENGINE`; checked against :data:`ENGINES`."""
    chosen = name or os.environ.get(ENGINE_ENV) or DEFAULT_ENGINE
    if chosen not in ENGINES:
        raise ValueError(f"unknown engine {chosen!r}; choose one of {', '.join(ENGINES)}")
    return chosen


def engine_named(name: str | None = None) -> bool:
    """Whether an engine is named: ``name`` or ``$EINVOICE_VALIDATE_ENGINE`` (else the work chooses)."""
    return bool(name or os.environ.get(ENGINE_ENV))


def engine_for(work: Work | int, name: str | None = None) -> EngineName:
    """The engine a runner uses: ``name`` when given, else ``$EINVOICE_VALIDATE_ENGINE`` when set (an explicit
    choice always wins), else the one the work wants: ``saxonc`` for a document (no JVM to start, no JIT to warm:
    a fresh process validates one invoice in about 0.75 s), ``saxon-java`` for steady work (a server, a batch of
    :data:`STEADY_FROM_DOCUMENTS` documents or more, or of unknown length) when its jar and JPype are installed
    (it runs the packs 1.3-2 x faster once warm), else ``saxonc``. ``work`` may be a number of documents."""
    if engine_named(name):
        return engine_name(name)
    if isinstance(work, int):
        work = "steady" if work >= STEADY_FROM_DOCUMENTS else "document"
    if work == "document":
        return DEFAULT_ENGINE
    from ._java import java_available  # each engine's module loads when that engine is asked for

    return STEADY_ENGINE if java_available() else DEFAULT_ENGINE


def engine_for_size(size: int) -> tuple[EngineName, str | None]:
    """The engine for one document of ``size`` bytes when the work chooses (no engine named by the caller or the
    environment): ``saxon-java`` from :data:`LARGE_DOCUMENT_BYTES` on when it is installed, else
    :data:`DEFAULT_ENGINE`; and why, for a report, when the size chose (None: the default, for its start)."""
    if size < LARGE_DOCUMENT_BYTES:
        return DEFAULT_ENGINE, None
    from ._java import java_available  # see engine_for

    megabytes = f"{size / (1024 * 1024):.1f} MiB"
    if java_available():
        return STEADY_ENGINE, (
            f"a large document ({megabytes}, from {LARGE_DOCUMENT_BYTES // (1024 * 1024)} MiB on): Saxon-HE for "
            "Java runs it fastest"
        )
    return DEFAULT_ENGINE, f"a large document ({megabytes}): saxon-java would run it faster but is not installed"


def get_engine(name: str | None = None) -> Engine:
    """The engine called ``name`` (see :func:`engine_name`); creating it loads nothing yet."""
    name = engine_name(name)
    if name == "saxonc":
        from ._saxon import SaxonCEngine  # see engine_for

        return SaxonCEngine()
    from ._java import JavaEngine  # see engine_for

    return JavaEngine()
