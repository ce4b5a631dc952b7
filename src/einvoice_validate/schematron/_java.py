"""The ``saxon-java`` engine, the only module that imports JPype: Saxon-HE for Java in this process's own JVM.

The JVM starts on first use, once per process (a JVM cannot be restarted in a process), with exactly one jar on
its class path: Saxon-HE as Debian's ``libsaxonhe-java`` installs it, checked against the sha256 pinned in
``rulesets/engines.toml`` before the JVM loads it (missing: ``ruleset.missing``; another file:
``ruleset.corrupt``). The stylesheets are compiled through the same wrapper as for ``saxonc``
(:func:`._shared.wrapper_text`) and give the same SVRL text, read by the same reader.

Thread-safe without a lock around runs: a compiled ``XsltExecutable`` is shared, each run gets its own
``Xslt30Transformer``, and JPype releases the GIL inside Java calls, so Python threads run stylesheets in
parallel. The document reaches Saxon as the bytes the hardened lxml parser accepted (UTF-8), or as lxml's
serialisation (other encodings, cut attachments), through a parser that refuses any DOCTYPE as well.
"""

from __future__ import annotations

import atexit
import contextlib
import faulthandler
import functools
import gc
import hashlib
import importlib.util
import os
import shutil
import threading
import tomllib
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._extras import missing_extra_text
from ..errors import Detail, RulesetError
from ..rulesets.manifest import bundled_dir
from ._shared import (
    ERROR_CODE,
    EV_NS,
    RUN_TEMPLATE,
    StylesheetRuntimeError,
    engine_rejects,
    part_template,
    pattern_parts,
    slimmed_utf8,
    wrapper_text,
)

if TYPE_CHECKING:
    from ..parse import Document

__all__ = [
    "JAR_ENV",
    "JVM_OPTIONS_ENV",
    "Beside",
    "JavaDocument",
    "JavaEngine",
    "JavaStylesheet",
    "before_exit",
    "detach_thread",
    "jar_path",
    "java_available",
    "java_thread",
    "start_jvm",
    "stop_java_thread",
    "unlink_collectors",
]

JAR_ENV = "EINVOICE_SAXON_JAR"
JVM_OPTIONS_ENV = "EINVOICE_JVM_OPTIONS"
# The parallel collector with a 160 MB young generation and a bounded heap (issue 21). Saxon allocates a great deal
# per document and keeps little: G1's write barriers and concurrent work cost the transformations about 10 % (the Java
# calls alone, 1.74-1.83 against 2.00-2.08 ms per business case), while the time spent collecting is tiny with either
# (0.006-0.03 ms per document). Ten alternating runs of one warm BatchValidator, 2 threads, the 66 business cases,
# quiet 2-core machine (the GC figures from the JVM's GarbageCollectorMXBeans): ParallelGC 490-535 doc/s (median 519)
# in 382-389 MB, G1 -Xmx768m 378-473 doc/s (median 418) in 319-467 MB; a run's JIT decides more than its collector,
# hence the runs. Before that (G1 chosen over the serial collector): the serial collector with a 64 MB young
# generation 223-228 doc/s (it collects in the validating thread), G1 with -Xmx512m 240 doc/s (it collects too often
# in a heap that small). The compiled EN 16931, XRechnung and CIUS-RO packs hold 45 MB after a full collection: the
# old generation grows only as far as what the packs keep.
# -Xrs: the JVM leaves SIGINT and SIGTERM to the host process (else its own handlers exit the process at once: a
# server in thread mode would not shut down gracefully, the CLI would not say "interrupted").
_DEFAULT_JVM_OPTIONS = ("-XX:+UseParallelGC", "-Xmx768m", "-Xmn160m", "-Xss8m", "-Xrs")
_DISALLOW_DOCTYPE = "http://apache.org/xml/features/disallow-doctype-decl"

_lock = threading.RLock()
_jvm: _Jvm | None = None
_compiled: dict[tuple[Path, str, str | None], JavaStylesheet] = {}
_compiling: dict[tuple[Path, str, str | None], threading.Lock] = {}


def _engine_entry() -> dict[str, str]:
    path = bundled_dir() / "engines.toml"
    try:
        entry = tomllib.loads(path.read_text(encoding="utf-8"))["saxon-he-java"]
    except (OSError, tomllib.TOMLDecodeError, KeyError) as exc:
        raise RulesetError("ruleset.invalid", Detail("detail.cannot-read-engine-pin", path, exc)) from exc
    return {str(k): str(v) for k, v in entry.items()}


def jar_path() -> Path:
    """The verified Saxon-HE jar (``$EINVOICE_SAXON_JAR``, else where Debian's package puts it)."""
    entry = _engine_entry()
    jar = Path(os.environ.get(JAR_ENV) or entry["path"])
    package = entry["debian_package"]
    try:
        data = jar.read_bytes()
    except OSError as exc:
        raise RulesetError(
            "ruleset.missing",
            f"engine saxon-java: Saxon-HE for Java {entry['version']} not found at {jar} ({exc.strerror}); "
            f"install it with `apt-get install {package}` (or set {JAR_ENV})",
        ) from exc
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise RulesetError(
            "ruleset.corrupt",
            f"engine saxon-java: {jar} is not Saxon-HE {entry['version']} as pinned in engines.toml (sha256 differs)",
        )
    return jar


@functools.cache
def java_available() -> bool:
    """Whether this engine can run here: JPype installed, a JVM (``$JAVA_HOME`` or ``java`` on the path), the pinned
    jar in place (checked once per process; nothing is started or imported). A runner choosing the engine by the
    work asks this."""
    if _jvm is not None:
        return True
    if importlib.util.find_spec("jpype") is None:  # found, not imported (that takes a while: not at a server's start)
        return False
    java_home = os.environ.get("JAVA_HOME")
    if not (java_home and Path(java_home).is_dir()) and shutil.which("java") is None:
        return False  # no JVM to start
    try:
        jar_path()
    except RulesetError:  # the jar missing, or another file
        return False
    return True


def java_thread() -> Any:
    """The ``java.lang.Thread`` of the calling Python thread (attaching it to the JVM), for
    :func:`stop_java_thread`; None before the JVM runs."""
    if _jvm is None:
        return None
    return _jvm.thread_class.currentThread()


def detach_thread() -> None:
    """Detach the calling Python thread from the JVM (it is about to end; JPype attached it on its first call)."""
    if _jvm is not None:
        with contextlib.suppress(Exception):
            _jvm.thread_class.detach()


_before_exit: list[weakref.WeakMethod[Callable[[], None]]] = []
_exiting = False


def before_exit(callback: Callable[[], None]) -> None:
    """Run ``callback`` (a bound method, held weakly) when the interpreter exits, before JPype shuts the JVM down:
    a runner closes its threads (they detach from the JVM, else its destruction waits for them; one returning from
    Java while the interpreter finalises would abort the process)."""
    _before_exit.append(weakref.WeakMethod(callback))


def _run_before_exit() -> None:
    global _exiting
    for ref in reversed(_before_exit):
        callback = ref()
        if callback is not None:
            with contextlib.suppress(Exception):
                callback()
    _exiting = True  # a thread that would enter Java from now on gets an exception instead


def stop_java_thread(thread: Any) -> None:
    """Stop ``thread`` (from :func:`java_thread`) with ``Thread.stop``: a stylesheet running in it ends at once with
    ``java.lang.ThreadDeath``, raised in its Python thread; a thread running Python code gets it at its next call
    into Java (so a stopped thread must not take another document). Deprecated in Java but working on Java 17 and
    earlier (later versions refuse it: then nothing happens). The monitors it held are released; the objects it
    was using are its own (a transformer and a document per run), the shared compiled stylesheets are read-only."""
    with contextlib.suppress(Exception):  # UnsupportedOperationException on Java 20+
        thread.stop()


class _Jvm:
    """The JVM's Saxon objects, created once per process."""

    def __init__(self) -> None:
        try:  # JPype and the JVM load with the first Java engine, never on import
            import jpype
            import jpype.config
            import jpype.imports
            import jpype.nio
        except ImportError as exc:  # the CLI says so before it starts (MissingExtra); a worker process says it here
            raise RulesetError("ruleset.missing", missing_extra_text("the saxon-java engine", "java")) from exc
        jar = jar_path()
        if not jpype.isJVMStarted():
            atexit.register(_run_before_exit)  # after JPype's own exit hook (registered on import): runs before it
            _boot(jpype, jar)
        # By class name, not through JPype's import hook: a Python package named like a Java domain on sys.path
        # (Spark's Python workers have one called org) would shadow it.
        jclass = jpype.JClass
        ByteArrayInputStream, OutputStream = jclass("java.io.ByteArrayInputStream"), jclass("java.io.OutputStream")
        PrintStream, StringReader = jclass("java.io.PrintStream"), jclass("java.io.StringReader")
        SAXParserFactory = jclass("javax.xml.parsers.SAXParserFactory")
        SAXSource, StandardLogger = (
            jclass("javax.xml.transform.sax.SAXSource"),
            jclass("net.sf.saxon.lib.StandardLogger"),
        )
        Processor, QName = jclass("net.sf.saxon.s9api.Processor"), jclass("net.sf.saxon.s9api.QName")
        SaxonApiException, InputSource = (
            jclass("net.sf.saxon.s9api.SaxonApiException"),
            jclass("org.xml.sax.InputSource"),
        )
        self.optimizer_options = jclass("net.sf.saxon.expr.parser.OptimizerOptions")  # Manifest.optimizer
        self.thread_class = jclass("java.lang.Thread")
        self.transformer_exception = jclass("javax.xml.transform.TransformerException")

        self.jpype = jpype
        self.byte_array = jpype.JArray(jpype.JByte)  # the type, made once (JArray() builds a class per call)
        self.direct_buffer = jpype.nio.convertToDirectBuffer
        self.processor = Processor(False)
        # Saxon would print warnings (e.g. an error while matching a pattern, which counts as no match) on the
        # process's stderr; what matters reaches the caller as findings or exceptions.
        silent = StandardLogger(PrintStream(OutputStream.nullOutputStream()))
        config = self.processor.getUnderlyingConfiguration()
        config.setLogger(silent)
        config.setErrorListener(self.error_listener([]))  # parse errors reach us as exceptions
        self.run_name = QName(EV_NS, RUN_TEMPLATE)
        self.qname = QName
        self.api_exception = SaxonApiException
        self.byte_stream = ByteArrayInputStream
        self.string_reader = StringReader
        self.byte_output = jclass("java.io.ByteArrayOutputStream")
        self.utf8 = jclass("java.nio.charset.StandardCharsets").UTF_8
        self.sax_source = SAXSource
        self.input_source = InputSource
        factory = SAXParserFactory.newInstance()
        factory.setNamespaceAware(True)
        factory.setFeature(_DISALLOW_DOCTYPE, True)  # lxml refused DOCTYPEs already; never resolve one here
        self.parser_factory = factory
        self.local = threading.local()
        # Defence in depth: prepared stylesheets read no resource at run time (rulesets.prepare refuses any that
        # would, at install), so every run-time document()/doc() request is refused here too, whatever it names.
        self.refuse_all = jpype.JProxy("javax.xml.transform.URIResolver", dict={"resolve": _refuse})

    def error_listener(self, errors: list[str]) -> Any:
        """A Java ``ErrorListener`` collecting a compilation's errors into ``errors`` (Saxon would print them, and
        its warnings, on the process's stderr)."""

        def record(exc: Any) -> None:
            errors.append(str(exc.getMessageAndLocation()))

        listener = {"warning": lambda exc: None, "error": record, "fatalError": record}
        return self.jpype.JProxy("javax.xml.transform.ErrorListener", dict=listener)

    def builder(self) -> tuple[Any, Any]:
        """This thread's document builder and XML reader (neither is thread-safe)."""
        local = self.local
        if not hasattr(local, "reader"):
            local.reader = self.parser_factory.newSAXParser().getXMLReader()
            local.builder = self.processor.newDocumentBuilder()
        return local.builder, local.reader


def _boot(jpype: Any, jar: Path) -> None:
    """Start the JVM from a thread of its own that leaves it at once.

    At exit JPype destroys the JVM, which waits for its non-daemon threads. The thread that created the JVM is one
    of them whatever it does later, so if it were a thread of the caller's (a worker of a thread pool) the exit
    would hang once that thread had ended; the other threads that call into Java detach when they end (the
    runners' threads do: :func:`detach_thread`; runners close before JPype's exit hook: :func:`before_exit`). Not
    destroying the JVM (``jpype.config.destroy_jvm = False``) avoids the wait but aborted 3 exits in 10
    ("FATAL: exception not rethrown")."""
    options = os.environ.get(JVM_OPTIONS_ENV)
    failed: list[BaseException] = []
    # Python's faulthandler (pytest enables it for a session) must not sit under the JVM's signal handlers: the JVM
    # raises SIGSEGV on purpose (implicit null checks, safepoints) and handles it, and faulthandler.disable() after the
    # JVM started (pytest's at the end of the session) puts back the handler from before it, so the JVM's next such
    # signal, at the latest while it is destroyed at exit, killed the process (signal 11, seen with OIOUBL's packs).
    if faulthandler.is_enabled():
        faulthandler.disable()

    def start() -> None:
        try:
            jpype.startJVM(
                *(options.split() if options else _DEFAULT_JVM_OPTIONS),
                classpath=[str(jar)],
                convertStrings=False,
                interrupt=False,  # Ctrl-C is the host's (a KeyboardInterrupt), not the JVM's (it would exit at once)
            )
            jpype.JClass("java.lang.Thread").detach()
        except BaseException as exc:
            failed.append(exc)

    booting = threading.Thread(target=start, name="einvoice-jvm-start")
    booting.start()
    booting.join()
    if failed:
        raise failed[0]
    unlink_collectors()


def unlink_collectors() -> bool:
    """Stop JPype from coupling Python's garbage collector with the JVM's (True if it was coupled here).

    JPype (1.x, ``native/common/jp_gc.cpp``) runs a full Python collection (``PyGC_Collect``, with the GIL) after every
    collection of the JVM, from its "Python Reference Queue" thread, and a Python collection that sees the process's
    malloc'd memory grow calls ``System.gc()``: a full, stop-the-world collection of the JVM's heap. At the pace of a
    validating process the JVM's young generation fills every few dozen documents: measured (issue 41, two threads
    over one warm ``Validator``, the 66 business cases, ``gc.callbacks``), full Python collections of 40-50 ms each,
    12-20 % of the time in three runs, with the GIL held, so both validating threads stood still; with
    the heap frozen (``pool/heap.py``) they cost 2 ms each, and one ``System.gc()`` took 79 ms. Python's own
    collections (by its allocation counts) and the JVM's stay as they are; only the coupling goes: JPype's
    callback reports a collection as started (its "inside a Python collection" mark, under which it triggers
    nothing) and is then removed from ``gc.callbacks``, so the mark stays. Without that callback (another JPype),
    nothing changes."""
    try:
        import _jpype  # type: ignore[import-not-found]

        collect = _jpype._collect
    except (ImportError, AttributeError):
        return False
    if not any(callback is collect for callback in gc.callbacks):
        return False
    collect("start", {})
    gc.callbacks[:] = [callback for callback in gc.callbacks if callback is not collect]
    return True


def _refuse(href: Any, base: Any) -> Any:
    assert _jvm is not None
    raise _jvm.transformer_exception(f"einvoice-validate: a stylesheet may read no document at run time ({href})")


def start_jvm() -> None:
    """Start the JVM and Saxon now (a server's warm-up) rather than with the first document."""
    _java()


def _java() -> _Jvm:
    global _jvm
    if _exiting:
        raise RuntimeError("the interpreter is exiting: no more calls into the JVM")
    if _jvm is not None:
        return _jvm
    with _lock:
        if _jvm is None:
            _jvm = _Jvm()
        return _jvm


class JavaDocument:
    """A document inside the JVM's Saxon (an ``XdmNode``), built once per validation, shared by every pack."""

    __slots__ = ("node",)

    def __init__(self, node: Any) -> None:
        self.node = node


def _build(jvm: _Jvm, source: Any) -> JavaDocument:
    builder, reader = jvm.builder()
    try:
        return JavaDocument(builder.build(jvm.sax_source(reader, source)))
    except jvm.api_exception as exc:
        raise engine_rejects(exc.getMessage()) from exc


def _text(jvm: _Jvm, string: Any) -> str:
    """A Java string as Python text, by its UTF-8 bytes (see :meth:`JavaStylesheet.run`)."""
    return bytes(string.getBytes(jvm.utf8)).decode("utf-8", "replace")


def _java_bytes(jvm: _Jvm, data: bytes) -> Any:
    """``data`` as a Java ``byte[]``. JPype's ``JArray(JByte)(data)`` converts element by element (about 0.14 ms for
    the business cases' 90 KB on average); a direct ``ByteBuffer`` over the Python bytes (no copy) read into a new
    array by Java's own bulk copy costs a tenth of that. The buffer is read at once, while ``data`` is alive."""
    array = jvm.byte_array(len(data))
    jvm.direct_buffer(data).get(array)
    return array


class JavaStylesheet:
    """A compiled, wrapped stylesheet; runs are independent (one transformer each) and may be concurrent.

    ``parts``: how many parts of its patterns :meth:`run` can run one at a time (``part=0``, ``1``: see
    :func:`._shared.pattern_parts`; 0 when it runs whole only): a large document's pack on two threads."""

    def __init__(self, jvm: _Jvm, executable: Any, path: Path, parts: int = 0) -> None:
        self._jvm = jvm
        self._executable = executable
        self.path = path
        self.parts = parts
        self._part_names = [jvm.qname(EV_NS, part_template(n)) for n in range(parts)]

    def run(self, document: JavaDocument, part: int | None = None) -> str:
        """The SVRL (or ``ev:runtime-error``) as a string: of every pattern, or of those of ``part``."""
        jvm = _java()
        # The output crosses as UTF-8 bytes: JPype's conversion of a Java string holding a character beyond the
        # BMP (U+10000 in an amount, echoed by an error's description) failed with UnicodeDecodeError.
        stream = jvm.byte_output()
        name = jvm.run_name if part is None else self._part_names[part]
        try:
            transformer = self._executable.load30()
            transformer.setURIResolver(jvm.refuse_all)
            # Global context item: the XRechnung stylesheets read it (else XPDY0002).
            transformer.setGlobalContextItem(document.node)
            transformer.callTemplate(name, jvm.processor.newSerializer(stream))
        except jvm.api_exception as exc:  # errors xsl:try cannot catch (e.g. in global variables)
            text = _text(jvm, exc.getMessage() or exc.toString()).strip()
            code = exc.getErrorCode()
            found = ERROR_CODE.search(text)
            name = str(code.getLocalName()) if code is not None else (found.group(1) if found else "SAXON")
            raise StylesheetRuntimeError(name, text) from exc
        result = bytes(stream.toByteArray()).decode("utf-8")
        if not result:
            raise StylesheetRuntimeError("SAXON", f"{self.path.name} produced no output")
        return result


class Beside:
    """Work done on a thread of its own beside the calling one (a large document's Saxon tree while the caller checks
    its limits and runs the XSD stage, its packs' runs shared with the caller): each of ``work`` in turn, their
    results in that order from :meth:`result`.

    Stopping stays what it is for one thread. A runner stops an overrunning document by stopping its validating
    thread's Java thread (:func:`stop_java_thread`); that thread waits for this one in short steps, each ending
    with a call into Java, where the stop reaches it, and the caller then calls :meth:`cancel`, which stops this
    thread's Java thread too (and skips what has not started). The thread detaches from the JVM when it ends."""

    _POLL = 0.05  # seconds between the waiting thread's calls into Java (where a stop reaches it)

    def __init__(self, work: Sequence[Callable[[], Any]]) -> None:
        self._work = list(work)
        self._results: list[Any] = []
        self._error: BaseException | None = None
        self._java: Any = None
        self._cancelled = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="einvoice-beside", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._java = java_thread()  # attaches this thread: from here on cancel() can stop it
            for item in self._work:
                if self._cancelled:
                    break
                self._results.append(item())
        except BaseException as exc:  # ThreadDeath after cancel(), or the work's own error: the caller's to raise
            self._error = exc
        finally:
            self._done.set()
            detach_thread()

    def result(self) -> list[Any]:
        """The results, once every piece of work is done; the work's exception, if it raised one."""
        jvm = _java()
        while not self._done.wait(self._POLL):
            jvm.thread_class.currentThread()  # a call into Java: a stop of the waiting thread arrives here
        if self._error is not None:
            raise self._error
        return self._results

    def cancel(self, grace: float = 2.0) -> None:
        """Stop the work if it is still running (its Java thread as :func:`stop_java_thread` does) and wait up to
        ``grace`` seconds for the thread to come back (it must not be inside Java when the interpreter exits)."""
        if self._done.is_set():
            return
        self._cancelled = True
        if self._java is not None:
            stop_java_thread(self._java)
        self._thread.join(grace)


class JavaEngine:
    """The ``saxon-java`` engine: see :mod:`.engines`."""

    name = "saxon-java"

    def load(self, document: Document, *, slim_attachments: bool = False) -> JavaDocument:
        data = slimmed_utf8(document) if slim_attachments else None
        if data is None:
            if (document.tree.docinfo.encoding or "UTF-8").upper() in ("UTF-8", "UTF8"):
                data = document.data
            else:
                # lxml's serialisation (another encoding) has no XML declaration: as UTF-8 bytes it crosses into the
                # JVM ten times faster than as a Java string (JPype converts str char by char).
                data = document.text().encode("utf-8")
        return self.load_utf8(data)

    def load_utf8(self, data: bytes) -> JavaDocument:
        """A document from UTF-8 bytes the hardened parser read (what :meth:`load` hands over: a caller that has
        made those bytes itself, e.g. before the document is classified)."""
        jvm = _java()
        return _build(jvm, jvm.input_source(jvm.byte_stream(_java_bytes(jvm, data))))

    def beside(self, work: Sequence[Callable[[], Any]]) -> Beside:
        """Run ``work`` on a thread of its own while the caller goes on (:class:`Beside`): Saxon runs in parallel
        threads on one JVM, with the GIL released."""
        return Beside(work)

    def parse_text(self, text: str) -> JavaDocument:
        jvm = _java()
        return _build(jvm, jvm.input_source(jvm.string_reader(text)))

    def compile(self, path: Path, checksum: str, optimizer: str | None = None) -> JavaStylesheet:
        key = (path.resolve(), checksum, optimizer)
        cached = _compiled.get(key)
        if cached is not None:
            return cached
        with _lock:  # one lock per stylesheet: threads compile different stylesheets at once (2 cores, 2 syntaxes)
            own = _compiling.setdefault(key, threading.Lock())
        with own:
            cached = _compiled.get(key)
            if cached is not None:
                return cached
            jvm = _java()
            errors: list[str] = []
            try:
                compiler = jvm.processor.newXsltCompiler()
                compiler.setErrorListener(jvm.error_listener(errors))
                if optimizer is not None:  # Manifest.optimizer, for this compilation only
                    info = compiler.getUnderlyingCompilerInfo()
                    # within the edition's optimisations: Saxon-HE 9.9 does not cut the flags down to HE's itself
                    # (an EE flag such as JIT left on compiles templates without a body)
                    info.setOptimizerOptions(info.getOptimizerOptions().intersect(jvm.optimizer_options(optimizer)))
                try:
                    parts = pattern_parts(key[0].read_text(encoding="utf-8"))
                except (OSError, UnicodeError):
                    parts = ()  # (the compilation says what is wrong)
                source = jvm.sax_source(jvm.input_source(jvm.string_reader(wrapper_text(key[0], parts))))
                executable = compiler.compile(source)
            except jvm.api_exception as exc:
                details = "; ".join(errors) or str(exc)
                raise RulesetError("ruleset.invalid", Detail("detail.stylesheet-not-compiled", path, details)) from exc
            compiled = JavaStylesheet(jvm, executable, key[0], len(parts))
            _compiled[key] = compiled
            return compiled
