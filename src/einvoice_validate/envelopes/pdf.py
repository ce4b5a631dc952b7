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

:func:`envelope_findings` checks the envelope against the invoice: the XMP ``fx:ConformanceLevel`` is one of the
values Factur-X allows, spelled exactly (:data:`LEVELS`), and matches the profile the XML's guideline id names
(``facturx.pdf.xmp-profile``); XMP that cannot be read (not well-formed, a DOCTYPE, too large) is said to be so
(``facturx.pdf.xmp-unreadable``), not taken for metadata that declare nothing; the attachment's name is the XMP's
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
    "LEVELS",
    "RELATIONSHIPS",
    "envelope_findings",
    "extract_invoice",
]

ATTACHMENT_NAMES = ("factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml")
"""The invoice attachment's names, in the order one is chosen (case-insensitive)."""
RELATIONSHIPS = ("Data", "Source", "Alternative")
"""The /AFRelationship values Factur-X 1.0 (and ZUGFeRD 2.x) allow for the invoice attachment."""
CHECK_IDS = (
    "facturx.pdf.xmp-profile",
    "facturx.pdf.xmp-unreadable",
    "facturx.pdf.attachment-name",
    "facturx.pdf.relationship",
    "facturx.pdf.pdfa",
)
LEVELS = ("MINIMUM", "BASIC WL", "BASIC", "EN 16931", "EXTENDED", "XRECHNUNG")
"""The values of fx:ConformanceLevel that Factur-X 1.0 / ZUGFeRD 2.x allow (spelled exactly: ``BASICWL`` is not one;
Mustang reports it as an invalid value)."""

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
_REPR = re.compile(r"<[^<>]{0,200}? at 0x[0-9a-fA-F]+>")
_POSITION = re.compile(r",\s*line \d+, column \d+\s*$")


def _qpdf_text(exc: BaseException) -> str:
    """qpdf's message without the name of our in-memory stream (``stream <_io.BytesIO object at 0x…>: ``) and
    without any other object repr (a heap address): a detail stays the same for the same bytes."""
    return _REPR.sub("the PDF", _QPDF_STREAM.sub("", str(exc)))[:300]


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
    except Exception as exc:  # qpdf raises many types on a broken file (PdfError, QpdfRuntimeError, ValueError, ...)
        raise _unreadable(Detail("detail.pdf-unreadable", _qpdf_text(exc)), "pdf-unreadable") from exc


def _name(value: Any) -> str:
    try:
        text = str(value)
    except UnicodeDecodeError:  # a name that is not UTF-8 (/A#BA): as the PDF spells it (found by the campaign)
        text = bytes(value.unparse()).decode("latin-1")
    return text[1:] if text.startswith("/") else text


def _filters(stream: Any) -> list[str]:
    import pikepdf  # see _open: loaded with the first PDF

    raw = stream.get("/Filter")
    if raw is None:
        return []
    if isinstance(raw, pikepdf.Array):
        return [_name(f) for f in raw]
    return [_name(raw)]


def _parms(stream: Any, count: int) -> list[Any]:
    """The /DecodeParms dictionary (or None) of each of the stream's ``count`` filters."""
    import pikepdf  # see _open: loaded with the first PDF

    raw = stream.get("/DecodeParms")
    if isinstance(raw, pikepdf.Array):
        parms = [p if isinstance(p, pikepdf.Dictionary) else None for p in raw]
    else:
        parms = [raw if isinstance(raw, pikepdf.Dictionary) else None]
    return (parms + [None] * count)[:count]


def _inflate(data: bytes, budget: int, what: Detail) -> bytes:
    """``data`` inflated, but never more than ``budget + 1`` bytes of it, whatever the ratio."""
    try:
        return zlib.decompressobj().decompress(data, budget + 1)
    except zlib.error as exc:
        raise _unreadable(Detail("detail.pdf-not-decompressed", what, exc), "pdf-unreadable") from exc


def _integer(parms: Any, key: str, default: int) -> int:
    value = parms.get(key)
    try:
        return default if value is None else int(value)
    except (TypeError, ValueError):
        return -1  # not a number: refused by the caller's range checks


def _unpredict(data: bytes, parms: Any, what: Detail) -> bytes:
    """Undo a TIFF (2) or PNG (10-15) predictor (ISO 32000-1, 7.4.4.4), in rows of the data's own bytes: the output
    is never longer than ``data`` (qpdf allocates a row of /Columns bytes and pads a short last row to it: 1 KB
    with /Columns 10⁹ became gigabytes, issue 40). Python loops over bytes: the caller bounds ``data`` by
    ``Limits.max_pdf_predicted_bytes``."""
    predictor = _integer(parms, "/Predictor", 1)
    if predictor == 1:
        return data
    colors = _integer(parms, "/Colors", 1)
    bits = _integer(parms, "/BitsPerComponent", 8)
    columns = _integer(parms, "/Columns", 1)
    readable = predictor in (10, 11, 12, 13, 14, 15) or (predictor == 2 and bits == 8)
    if not readable or not 1 <= colors <= 256 or bits not in (1, 2, 4, 8, 16):
        raise _unreadable(Detail("detail.pdf-predictor", what, predictor, colors, bits), "pdf-filter")
    if columns < 1:
        raise _unreadable(Detail("detail.pdf-predictor-columns", what, columns), "pdf-filter")
    row = (colors * bits * columns + 7) // 8
    if predictor == 2:
        return _tiff(data, row, colors)
    return _png(data, row, max(1, colors * bits // 8), what)


def _tiff(data: bytes, row: int, step: int) -> bytes:
    out = bytearray(data)
    for start in range(0, len(out), row):
        for i in range(start + step, min(start + row, len(out))):
            out[i] = (out[i] + out[i - step]) & 0xFF
    return bytes(out)


def _png(data: bytes, row: int, bpp: int, what: Detail) -> bytes:
    out = bytearray()
    prior = bytearray(min(row, len(data)))
    for start in range(0, len(data), row + 1):
        tag, cur = data[start], bytearray(data[start + 1 : start + 1 + row])
        width = len(cur)
        if tag == 1:
            for i in range(bpp, width):
                cur[i] = (cur[i] + cur[i - bpp]) & 0xFF
        elif tag == 2:
            for i in range(width):
                cur[i] = (cur[i] + prior[i]) & 0xFF
        elif tag == 3:
            for i in range(width):
                left = cur[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + ((left + prior[i]) >> 1)) & 0xFF
        elif tag == 4:
            for i in range(width):
                a = cur[i - bpp] if i >= bpp else 0
                b, c = prior[i], prior[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        elif tag != 0:
            raise _unreadable(Detail("detail.pdf-predictor-row", what, tag), "pdf-filter")
        out += cur
        prior[:width] = cur
    return bytes(out)


def _bounded_bytes(stream: Any, cap: int, what: Detail, predicted_cap: int) -> bytes:
    """The decoded content of ``stream``, never holding more than ``cap`` decoded bytes (``predicted_cap`` where a
    predictor is to be undone, in Python): every filter (FlateDecode, in a chain too) and predictor is decoded here
    with that budget, never by qpdf (whose predictors allocate by the stream's own /Columns)."""
    import pikepdf  # see _open: loaded with the first PDF

    if not isinstance(stream, pikepdf.Stream):
        raise _unreadable(Detail("detail.pdf-not-a-stream", what), "pdf-structure")
    filters = _filters(stream)
    if any(f != "FlateDecode" for f in filters):
        raise _unreadable(Detail("detail.pdf-filter", what, "/".join(filters)[:200]), "pdf-filter")
    data = bytes(stream.read_raw_bytes())
    for parms in _parms(stream, len(filters)):
        if parms is None or _integer(parms, "/Predictor", 1) == 1:
            data = _inflate(data, cap, what)
            if len(data) > cap:
                raise InputError(
                    "invoice.too-large", Detail("detail.pdf-too-large", what, cap), reason="attachment-bytes"
                )
            continue
        budget = min(cap, predicted_cap)
        data = _inflate(data, budget, what)
        if len(data) > budget:
            raise InputError(
                "invoice.too-large", Detail("detail.pdf-predicted-too-large", what, budget), reason="attachment-bytes"
            )
        data = _unpredict(data, parms, what)  # never longer than its input
    if len(data) > cap:
        raise InputError("invoice.too-large", Detail("detail.pdf-too-large", what, cap), reason="attachment-bytes")
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


def _xmp(pdf: Any, limits: Limits) -> tuple[dict[str, str], str | None]:
    """The Factur-X properties (``ConformanceLevel``, ``DocumentFileName``, ``DocumentType``, ``Version``, in any
    of the Factur-X / ZUGFeRD / XRechnung XMP namespaces, as elements or attributes) and ``pdfaid:part`` /
    ``pdfaid:conformance``; empty when there is no XMP. The second value says why the XMP could not be read, if it
    could not (not well-formed, a DOCTYPE, too large, an unreadable stream): reported for what it is, not as
    metadata that declare nothing."""
    stream = pdf.Root.get("/Metadata")
    if stream is None:
        return {}, None
    try:
        data = _bounded_bytes(stream, limits.max_pdf_xmp_bytes, Detail("part.xmp"), limits.max_pdf_predicted_bytes)
        hardened.refuse_markup_declarations(data)
        root = etree.fromstring(data, hardened.parser(huge_tree=False))
    except InputError as exc:
        return {}, exc.detail
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        return {}, f"not well-formed XML at line {line}, column {column}: {_POSITION.sub('', exc.msg or '')[:200]}"
    except hardened.ExternalReferenceRefused:  # never reached while the hardened options hold
        return {}, "the document has a DOCTYPE declaration"
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
    return props, None


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
            xml = _bounded_bytes(
                stream, limits.max_document_bytes, Detail("part.embedded-file", name), limits.max_pdf_predicted_bytes
            )
            xmp, xmp_error = _xmp(pdf, limits)
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
            xmp_error=xmp_error,
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
    if envelope.xmp_error is not None:
        add("facturx.pdf.xmp-unreadable", "error", 0, envelope.xmp_error)
    elif level is None:
        add("facturx.pdf.xmp-profile", "error", 1)
    elif level not in LEVELS:
        add("facturx.pdf.xmp-profile", "error", 2, level, ", ".join(LEVELS))
    elif expected is not None and _norm(level) != _norm(expected):
        add("facturx.pdf.xmp-profile", "error", 0, level, spec_id or "", expected)
    if envelope.document_file_name is not None and envelope.document_file_name != envelope.attachment:
        add("facturx.pdf.attachment-name", "error", 0, envelope.attachment, envelope.document_file_name)
    if envelope.relationship is None:
        add("facturx.pdf.relationship", "warning", 1, envelope.attachment)
    elif envelope.relationship not in RELATIONSHIPS:
        add("facturx.pdf.relationship", "error", 0, envelope.relationship, envelope.attachment)
    if envelope.pdfa is None:
        if envelope.xmp_error is None:  # unreadable XMP: said once, above
            add("facturx.pdf.pdfa", "warning", 1)
    elif not envelope.pdfa.startswith("3"):
        add("facturx.pdf.pdfa", "warning", 0, envelope.pdfa)
    return found
