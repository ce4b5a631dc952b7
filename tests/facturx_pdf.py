"""Synthetic ZUGFeRD / Factur-X PDFs for the tests, written with pikepdf at run time (nothing is committed)."""

from __future__ import annotations

import io
import zlib
from collections.abc import Sequence

import pikepdf
from pikepdf import Array, Dictionary, Name, String

FX_NS = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"


def xmp(level: str | None = "EN 16931", file_name: str = "factur-x.xml", part: str | None = "3") -> bytes:
    """An XMP packet with the Factur-X properties (as elements) and a PDF/A declaration."""
    fx = (
        f'<rdf:Description rdf:about="" xmlns:fx="{FX_NS}">'
        "<fx:DocumentType>INVOICE</fx:DocumentType>"
        f"<fx:DocumentFileName>{file_name}</fx:DocumentFileName>"
        "<fx:Version>1.0</fx:Version>"
        + (f"<fx:ConformanceLevel>{level}</fx:ConformanceLevel>" if level is not None else "")
        + "</rdf:Description>"
    )
    pdfa = (
        f'<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="{part}" '
        'pdfaid:conformance="B"/>'
        if part is not None
        else ""
    )
    return (
        '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        f"{pdfa}{fx}</rdf:RDF></x:xmpmeta>"
        '<?xpacket end="w"?>'
    ).encode()


def make_pdf(
    files: Sequence[tuple[str, bytes]],
    *,
    relationship: str | None = "Alternative",
    metadata: bytes | None = None,
    raw_filter: str | None = None,
    encrypt: bool = False,
    name_tree_depth: int = 0,
) -> bytes:
    """A one-page PDF embedding ``files`` (name, content) in the /EmbeddedFiles name tree and the /AF array.

    ``raw_filter``: the file streams hold their content as given, declared with this filter (e.g. FlateDecode with
    content compressed by the caller, or LZWDecode); ``name_tree_depth``: the name tree's leaf under that many
    /Kids levels."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    names: list[object] = []
    af = []
    for name, data in files:
        stream = pdf.make_stream(data)
        stream.Type = Name.EmbeddedFile
        stream.Subtype = Name("/text#2Fxml")
        if raw_filter is not None:
            stream.Filter = Name("/" + raw_filter)
        spec = Dictionary(Type=Name.Filespec, F=String(name), UF=String(name), EF=Dictionary(F=stream))
        if relationship is not None:
            spec.AFRelationship = Name("/" + relationship)
        spec = pdf.make_indirect(spec)
        names += [String(name), spec]
        af.append(spec)
    tree = Dictionary(Names=Array(names))
    for _ in range(name_tree_depth):
        tree = Dictionary(Kids=Array([pdf.make_indirect(tree)]))
    pdf.Root.Names = Dictionary(EmbeddedFiles=tree)
    pdf.Root.AF = Array(af)
    if metadata is not None:
        pdf.Root.Metadata = pdf.make_stream(metadata, Type=Name.Metadata, Subtype=Name.XML)
    out = io.BytesIO()
    options: dict[str, object] = {"compress_streams": raw_filter is None}
    if encrypt:
        options["encryption"] = pikepdf.Encryption(user="secret", owner="owner")
    pdf.save(out, **options)  # type: ignore[arg-type]
    return out.getvalue()


def bomb(size: int) -> bytes:
    """``size`` zero bytes, deflated (about 1000:1)."""
    return zlib.compress(b"\0" * size, 9)
