"""ZUGFeRD / Factur-X hybrid PDFs: the invoice XML embedded in a PDF/A-3, what the PDF says about it, and the
envelope checks (project-own ids ``facturx.pdf.*``).

:func:`extract_invoice` takes the PDF's bytes and returns the embedded invoice's bytes (which then go through the
same hardened XML parser as any document, :mod:`einvoice_validate.parse`) and a :class:`PdfEnvelope` for the
report. The PDF is read with pikepdf (qpdf): it repairs broken cross-reference tables, opens files encrypted with
an empty user password, and its object parser has its own nesting limits. The embedded-files name tree is walked
here, bounded in depth and entries (:class:`~einvoice_validate.limits.Limits`) and safe against loops; every
stream is decompressed with a bound, so a decompression bomb stops at the limit instead of filling the memory.

The invoice attachment is chosen by name, in this order: ``factur-x.xml`` (Factur-X, ZUGFeRD 2.1 onwards),
``zugferd-invoice.xml`` (ZUGFeRD 2.0), ``xrechnung.xml`` (XRechnung in ZUGFeRD). ZUGFeRD 1.0 wrote
``ZUGFeRD-invoice.xml`` (the same name but for case): its XML, a ``CrossIndustryDocument``, is refused by the parser
(``document.unsupported-type``, reason ``zugferd-1``): no current rule pack covers ZUGFeRD 1.0. Two embedded files
with the chosen name are refused as ambiguous.

:func:`envelope_findings` checks the envelope against the invoice: the XMP ``fx:ConformanceLevel`` matches the
profile the XML's guideline id names (``facturx.pdf.xmp-profile``), the attachment's name is the XMP's
``fx:DocumentFileName`` (``facturx.pdf.attachment-name``), its ``/AFRelationship`` is one Factur-X allows
(``facturx.pdf.relationship``: Data, Source or Alternative), the XMP declares PDF/A-3 (``facturx.pdf.pdfa``,
a warning). Full PDF/A conformance is not checked (``PdfEnvelope.pdfa_checked`` is always false).
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Iterator
from typing import Any

from lxml import etree

from .. import hardened
from .._extras import require_dependency
from ..errors import Detail, InputError
from ..findings import Finding, Flag, PdfEnvelope, severity_of_flag
from ..limits import DEFAULT_LIMITS, Limits
from ..messages import catalogue

__all__ = [
    "ATTACHMENT_NAMES",
    "CHECK_IDS",
    "RELATIONSHIPS",
    "envelope_findings",
    "extract_invoice",
]

ATTACHMENT_NAMES = ("factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml")
"""The invoice attachment's names, in the order one is chosen (case-insensitive)."""
RELATIONSHIPS = ("Data", "Source", "Alternative")
"""The /AFRelationship values Factur-X 1.0 (and ZUGFeRD 2.x) allow for the invoice attachment."""
CHECK_IDS = ("facturx.pdf.xmp-profile", "facturx.pdf.attachment-name", "facturx.pdf.relationship", "facturx.pdf.pdfa")

_PDFAID = "http://www.aiim.org/pdfa/ns/id/"
# Conformance levels by the guideline id they go with (substring of the XML's id, first match wins).
_LEVELS: tuple[tuple[str, str], ...] = (
    ("xrechnung", "XRECHNUNG"),
    (":extended", "EXTENDED"),
    (":basicwl", "BASIC WL"),
    (":basic", "BASIC"),
    (":minimum", "MINIMUM"),
    (":en16931", "EN 16931"),
)


def _unreadable(detail: Detail, reason: str) -> InputError:
    return InputError("document.unreadable", detail, reason=reason)


_QPDF_STREAM = re.compile(r"stream <[^>]*>: ")


def _qpdf_text(exc: BaseException) -> str:
    """qpdf's message without the name of our in-memory stream (``stream <_io.BytesIO object at 0x…>: ``), which
    differs on every call: a detail stays the same for the same bytes."""
    return _QPDF_STREAM.sub("", str(exc))[:300]


def _open(data: bytes) -> Any:
    try:
        import pikepdf  # imported on first PDF only: validating XML never loads it
    except ImportError:  # a dependency, but an environment built with --no-deps may lack it: say what to install
        require_dependency("pikepdf", "PDF input")
        raise

    try:
        return pikepdf.open(io.BytesIO(data), attempt_recovery=True, suppress_warnings=True)
    except pikepdf.PasswordError as exc:
        raise _unreadable(Detail("detail.pdf-encrypted"), "pdf-encrypted") from exc
    except (pikepdf.PdfError, ValueError, RecursionError, OverflowError) as exc:
        raise _unreadable(Detail("detail.pdf-unreadable", _qpdf_text(exc)), "pdf-unreadable") from exc


def _name(value: Any) -> str:
    text = str(value)
    return text[1:] if text.startswith("/") else text


def _filters(stream: Any) -> list[str]:
    import pikepdf  # see _open: loaded with the first PDF

    raw = stream.get("/Filter")
    if raw is None:
        return []
    if isinstance(raw, pikepdf.Array):
        return [_name(f) for f in raw]
    return [_name(raw)]


def _bounded_bytes(stream: Any, cap: int, what: Detail) -> bytes:
    """The decoded content of ``stream``, refusing more than ``cap`` bytes before producing them."""
    import pikepdf  # see _open: loaded with the first PDF

    if not isinstance(stream, pikepdf.Stream):
        raise _unreadable(Detail("detail.pdf-not-a-stream", what), "pdf-structure")
    filters = _filters(stream)
    raw = bytes(stream.read_raw_bytes())
    if not filters:
        data = raw
    elif filters == ["FlateDecode"]:
        inflater = zlib.decompressobj()
        try:
            data = inflater.decompress(raw, cap + 1)
        except zlib.error as exc:
            raise _unreadable(Detail("detail.pdf-not-decompressed", what, exc), "pdf-unreadable") from exc
        if len(data) <= cap and stream.get("/DecodeParms") is not None:
            data = bytes(stream.read_bytes())  # a predictor (never longer than the inflated data just bounded)
    else:
        raise _unreadable(Detail("detail.pdf-filter", what, "/".join(filters)), "pdf-filter")
    if len(data) > cap:
        raise InputError(
            "invoice.too-large",
            Detail("detail.pdf-too-large", what, cap),
            reason="attachment-bytes",
        )
    return data


def _walk_names(node: Any, limits: Limits) -> Iterator[tuple[str, Any]]:
    """(name, file specification) pairs of the /EmbeddedFiles name tree, depth- and count-bounded, loop-safe."""
    import pikepdf  # see _open: loaded with the first PDF

    seen: set[tuple[int, int]] = set()
    count = 0
    stack: list[tuple[Any, int]] = [(node, 0)]
    while stack:
        current, depth = stack.pop()
        if not isinstance(current, pikepdf.Dictionary):
            continue
        key = current.objgen
        if key != (0, 0):
            if key in seen:
                continue
            seen.add(key)
        if depth > limits.max_pdf_name_tree_depth:
            raise _unreadable(
                Detail("detail.pdf-tree-depth", limits.max_pdf_name_tree_depth),
                "pdf-structure",
            )
        names = current.get("/Names")
        if isinstance(names, pikepdf.Array):
            items = list(names)
            for i in range(0, len(items) - 1, 2):
                count += 1
                if count > limits.max_pdf_embedded_files:
                    raise _unreadable(
                        Detail("detail.pdf-too-many-files", limits.max_pdf_embedded_files), "pdf-structure"
                    )
                yield str(items[i]), items[i + 1]
        kids = current.get("/Kids")
        if isinstance(kids, pikepdf.Array):
            stack.extend((kid, depth + 1) for kid in reversed(list(kids)))


def _file_name(spec: Any, fallback: str) -> str:
    for key in ("/UF", "/F"):
        value = spec.get(key)
        if value is not None:
            return str(value)
    return fallback


def _embedded_files(pdf: Any, limits: Limits) -> list[tuple[str, Any]]:
    """(file name, file specification) of every embedded file: the /EmbeddedFiles name tree and the catalogue's
    /AF array (Factur-X requires both; either is enough to find the invoice), without duplicates."""
    import pikepdf  # see _open: loaded with the first PDF

    found: list[tuple[str, Any]] = []
    seen: set[tuple[int, int]] = set()

    def add(name: str, spec: Any) -> None:
        if not isinstance(spec, pikepdf.Dictionary):
            return
        key = spec.objgen
        if key != (0, 0) and key in seen:
            return
        seen.add(key)
        found.append((_file_name(spec, name), spec))

    root = pdf.Root
    names = root.get("/Names")
    tree = names.get("/EmbeddedFiles") if isinstance(names, pikepdf.Dictionary) else None
    if tree is not None:
        for name, spec in _walk_names(tree, limits):
            add(name, spec)
    af = root.get("/AF")
    if isinstance(af, pikepdf.Array):
        for i, spec in enumerate(af):
            if i >= limits.max_pdf_embedded_files:
                raise _unreadable(Detail("detail.pdf-af-entries", limits.max_pdf_embedded_files), "pdf-structure")
            add("", spec)
    return found


def _xmp(pdf: Any, limits: Limits) -> dict[str, str]:
    """The Factur-X properties (``ConformanceLevel``, ``DocumentFileName``, ``DocumentType``, ``Version``, in any
    of the Factur-X / ZUGFeRD / XRechnung XMP namespaces, as elements or attributes) and ``pdfaid:part`` /
    ``pdfaid:conformance``. Empty when there is no XMP or it cannot be read (the checks then say so)."""
    stream = pdf.Root.get("/Metadata")
    if stream is None:
        return {}
    try:
        data = _bounded_bytes(stream, limits.max_pdf_xmp_bytes, Detail("part.xmp"))
        hardened.refuse_markup_declarations(data)
        root = etree.fromstring(data, hardened.parser(huge_tree=False))
    except (InputError, etree.XMLSyntaxError, hardened.ExternalReferenceRefused):
        return {}
    props: dict[str, str] = {}

    def take(namespace: str | None, local: str, value: str | None) -> None:
        if value is None or not namespace:
            return
        if "pdfa:CrossIndustryDocument" in namespace and local in (
            "ConformanceLevel",
            "DocumentFileName",
            "DocumentType",
            "Version",
        ):
            props.setdefault(local, value.strip())
        elif namespace == _PDFAID and local in ("part", "conformance"):
            props.setdefault(f"pdfaid:{local}", value.strip())

    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        qname = etree.QName(element)
        if len(element) == 0:
            take(qname.namespace, qname.localname, element.text)
        for attr, value in element.attrib.items():
            aq = etree.QName(attr)
            take(aq.namespace, aq.localname, str(value))
    return props


def extract_invoice(data: bytes, limits: Limits = DEFAULT_LIMITS) -> tuple[bytes, PdfEnvelope]:
    """The invoice XML embedded in the PDF ``data`` and what the PDF says about it.

    Raises :class:`InputError`: ``document.unreadable`` (not readable as PDF, encrypted with a password, a broken
    structure, an unsupported stream filter), ``invoice.too-large`` (the attachment is larger than
    ``limits.max_document_bytes`` decompressed), ``document.unsupported-type`` (no invoice attachment, two with
    the chosen name, or only ZUGFeRD 1.0's)."""
    with _open(data) as pdf:
        try:
            files = _embedded_files(pdf, limits)
            by_name: dict[str, list[tuple[str, Any]]] = {}
            for name, spec in files:
                by_name.setdefault(name.lower(), []).append((name, spec))
            chosen = next((n for n in ATTACHMENT_NAMES if n in by_name), None)
            if chosen is None:
                listed = ", ".join(sorted(n for n, _ in files)[:10]) or Detail("part.none")
                raise InputError(
                    "document.unsupported-type",
                    Detail("detail.pdf-no-invoice", listed, ", ".join(ATTACHMENT_NAMES)),
                    reason="pdf-no-invoice",
                )
            candidates = by_name[chosen]
            if len(candidates) > 1:
                raise InputError(
                    "document.unsupported-type",
                    Detail("detail.pdf-several-invoices", len(candidates), chosen),
                    reason="pdf-several-invoices",
                )
            name, spec = candidates[0]
            ef = spec.get("/EF")
            stream = None if ef is None else (ef.get("/F") or ef.get("/UF"))
            if stream is None:
                raise _unreadable(Detail("detail.pdf-no-content", name), "pdf-structure")
            xml = _bounded_bytes(stream, limits.max_document_bytes, Detail("part.embedded-file", name))
            xmp = _xmp(pdf, limits)
        except InputError:
            raise
        except Exception as exc:  # pikepdf raises many types on broken objects: all are "unreadable"
            raise _unreadable(
                Detail("detail.pdf-unreadable", f"{type(exc).__name__}: {_qpdf_text(exc)}"), "pdf-unreadable"
            ) from exc
        relationship = spec.get("/AFRelationship")
        part, conformance = xmp.get("pdfaid:part"), xmp.get("pdfaid:conformance")
        envelope = PdfEnvelope(
            attachment=name,
            relationship=None if relationship is None else _name(relationship),
            conformance_level=xmp.get("ConformanceLevel"),
            document_file_name=xmp.get("DocumentFileName"),
            document_type=xmp.get("DocumentType"),
            version=xmp.get("Version"),
            pdfa=None if part is None else f"{part}{conformance or ''}",
        )
    return xml, envelope


def _level_for(spec_id: str | None) -> str | None:
    if spec_id is None:
        return None
    if spec_id.strip() == "urn:cen.eu:en16931:2017":
        return "EN 16931"
    for needle, level in _LEVELS:
        if needle in spec_id:
            return level
    return None


def _norm(level: str) -> str:
    return "".join(level.upper().split())


def envelope_findings(envelope: PdfEnvelope, spec_id: str | None, source: str) -> list[Finding]:
    """The envelope checks of a PDF against the invoice's guideline id ``spec_id`` (see the module docstring)."""
    found: list[Finding] = []

    def add(rule_id: str, flag: Flag, variant: int, *values: str) -> None:
        found.append(
            Finding(
                rule_id=rule_id,
                severity=severity_of_flag(flag),
                flag=flag,
                stage="input",
                location=None,
                message=catalogue().render_code(rule_id, values, variant=variant),
                terms=("BT-24",) if rule_id == "facturx.pdf.xmp-profile" else (),
                source=source,
            )
        )

    expected = _level_for(spec_id)
    level = envelope.conformance_level
    if level is None:
        add("facturx.pdf.xmp-profile", "error", 1)
    elif expected is not None and _norm(level) != _norm(expected):
        add("facturx.pdf.xmp-profile", "error", 0, level, spec_id or "", expected)
    if envelope.document_file_name is not None and envelope.document_file_name != envelope.attachment:
        add("facturx.pdf.attachment-name", "error", 0, envelope.attachment, envelope.document_file_name)
    if envelope.relationship is None:
        add("facturx.pdf.relationship", "warning", 1, envelope.attachment)
    elif envelope.relationship not in RELATIONSHIPS:
        add("facturx.pdf.relationship", "error", 0, envelope.relationship, envelope.attachment)
    if envelope.pdfa is None:
        add("facturx.pdf.pdfa", "warning", 1)
    elif not envelope.pdfa.startswith("3"):
        add("facturx.pdf.pdfa", "warning", 0, envelope.pdfa)
    return found
