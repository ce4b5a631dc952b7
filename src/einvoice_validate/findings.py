"""The result models, which are the wire contract: ``Severity``, ``Message``, ``Finding``, ``Report``.

``model_dump(mode="json", by_alias=True)`` is exactly what the CLI and an embedding API emit. The models are
frozen and forbid extra fields, so a typo in a producer is an error, not a silently different payload.
"""

from __future__ import annotations

from datetime import date
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .syntaxes import bundled_names, check_report_names

__all__ = [
    "Finding",
    "Flag",
    "Message",
    "PdfEnvelope",
    "Report",
    "Severity",
    "Stage",
    "TermValue",
    "VersionChoice",
    "severity_of_flag",
]

Flag = Literal["fatal", "error", "warning", "information"]
"""The raw level as the rule pack states it (Schematron ``@flag``; XSD errors are ``error``)."""

Stage = Literal["input", "xsd", "schematron"]


class Severity(StrEnum):
    """What a finding means for the invoice: ERROR blocks issuing it, WARNING and INFO do not."""

    ERROR = "ERROR"
    WARNING = "WARNING"
    INFO = "INFO"


_FLAG_SEVERITY: dict[str, Severity] = {
    "fatal": Severity.ERROR,
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "warn": Severity.WARNING,
    "information": Severity.INFO,
    "info": Severity.INFO,
}


def severity_of_flag(flag: str | None) -> Severity:
    """Map a raw flag to a severity as the KoSIT report does: unknown or missing flags count as errors."""
    return _FLAG_SEVERITY.get((flag or "").strip().lower(), Severity.ERROR)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Message(_Model):
    """A finding's text in English and German; extra language keys only where the rule pack speaks another
    language: ``ro`` (CIUS-RO's Romanian), ``fr`` (FNFE-MPE's French rules), ``hr`` (HR-CIUS's Croatian rules); None
    and absent from the wire form otherwise."""

    en: str
    de: str
    ro: str | None = Field(default=None, exclude_if=lambda v: v is None)
    fr: str | None = Field(default=None, exclude_if=lambda v: v is None)
    hr: str | None = Field(default=None, exclude_if=lambda v: v is None)


class TermValue(_Model):
    """The value a business term has in the document (``values.py``): ``BT-112 = 994.18``."""

    term: str = Field(description="The business term (BT- id) the finding names")
    value: str = Field(description="Its text in the document, whitespace collapsed, cut at 80 characters")
    location: str | None = Field(
        description="The element it was read from, as a readable path (/Invoice/cac:InvoiceLine[2]/cbc:ID)"
    )


class Finding(_Model):
    """One rule violation or note, with the official rule id untouched."""

    rule_id: str = Field(alias="ruleId", description="The official rule id (BR-DE-15, cvc-complex-type.2.4.a, ...)")
    severity: Severity = Field(description="After the profile's severity overrides")
    flag: Flag = Field(description="The raw flag as the rule pack states it")
    stage: Stage
    location: str | None = Field(
        description="The element concerned, as one readable path for every pack (/Invoice/cac:Party[2]/cbc:ID, "
        "locations.py); None for the whole document, or when the pack's location is not a path (see packLocation)"
    )
    line: int | None = None
    column: int | None = None
    message: Message
    terms: tuple[str, ...] = Field(default=(), description="The EN 16931 business terms (BT-/BG- ids) concerned")
    values: tuple[TermValue, ...] = Field(
        default=(),
        description="The values of those terms read from the document, near the finding's element where the term "
        "repeats (values.py); empty when the document holds none or the viewer pack is not installed",
    )
    source: str = Field(description="Which pack said it, as id@version")
    pack_location: str | None = Field(
        default=None,
        alias="packLocation",
        description="The location exactly as the pack (SVRL @location) or the XSD validator gave it; may be no "
        "path at all (CIUS-RO gives attribute values such as 0088x)",
    )


class VersionChoice(_Model):
    """Which version of a pack ran because of the rules date (a profile listing several versions, issue 15)."""

    pack: str = Field(description="The version that ran, as id@version")
    rules_date: date = Field(alias="rulesDate", description="The date the version was chosen for (default: today)")
    candidates: tuple[str, ...] = Field(description="The versions the profile lists, as id@version")
    reason: str = Field(description="Why this one: its dates in force, and which version it replaces")


class PdfEnvelope(_Model):
    """What a ZUGFeRD / Factur-X PDF said about the invoice embedded in it (``Report.pdf``)."""

    attachment: str = Field(description="The embedded file validated (factur-x.xml, zugferd-invoice.xml, ...)")
    relationship: str | None = Field(description="Its /AFRelationship (Data, Source, Alternative, ...), if any")
    conformance_level: str | None = Field(alias="conformanceLevel", description="XMP fx:ConformanceLevel")
    document_file_name: str | None = Field(alias="documentFileName", description="XMP fx:DocumentFileName")
    document_type: str | None = Field(alias="documentType", description="XMP fx:DocumentType")
    version: str | None = Field(description="XMP fx:Version")
    pdfa: str | None = Field(description="The PDF/A level the XMP declares (pdfaid:part + conformance, e.g. 3B)")
    pdfa_checked: Literal[False] = Field(
        default=False,
        alias="pdfaChecked",
        description="Always false: the PDF/A declaration is read, full PDF/A conformance is not checked",
    )
    xmp_error: str | None = Field(
        default=None,
        alias="xmpError",
        exclude_if=lambda v: v is None,
        description="Why the XMP metadata could not be read (not well-formed, a DOCTYPE, too large), if so",
    )


class Report(_Model):
    """The outcome of validating one document. ``valid`` is False as soon as one finding is an ERROR."""

    profile: str
    syntax: str = Field(
        description="The document's syntax (rulesets/syntaxes/: the bundled ones, or a rules home's own)",
        json_schema_extra=lambda schema: schema.update(examples=list(bundled_names())),
    )
    document_type: str = Field(
        alias="documentType",
        description="The document type its root element declares (one per root, unique across syntaxes)",
        json_schema_extra=lambda schema: schema.update(examples=[t for ts in bundled_names().values() for t in ts]),
    )
    spec_id: str | None = Field(alias="specId")
    envelope: Literal["sbdh", "pdf"] | None = Field(
        default=None,
        description="sbdh: the invoice was taken out of a Peppol StandardBusinessDocument envelope; pdf: out of a "
        "ZUGFeRD / Factur-X PDF (details in pdf)",
    )
    pdf: PdfEnvelope | None = Field(default=None, exclude_if=lambda v: v is None)
    profile_reason: str | None = Field(
        default=None,
        alias="profileReason",
        exclude_if=lambda v: v is None,
        description="Why this profile ran, in English: chosen by the caller, or which specification identifier "
        "(BT-24), envelope and French CTC markers matched (profiles.profile_reason); absent in reports of older "
        "releases",
    )
    packs: tuple[str, ...] = Field(description="The packs that ran, as id@version, in order")
    version_choices: tuple[VersionChoice, ...] = Field(
        default=(), alias="versionChoices", description="The packs whose version the rules date chose, and why"
    )
    findings: tuple[Finding, ...]
    valid: bool
    accepted: bool | None = Field(description="The KoSIT verdict (XRechnung profiles); None elsewhere")
    engine: Literal["saxonc", "saxon-java"] = Field(
        description="The XSLT engine that ran the Schematron packs: saxonc (SaxonC-HE) or saxon-java (Saxon-HE for "
        "Java); the findings are the same on both"
    )
    engine_reason: str | None = Field(
        default=None,
        alias="engineReason",
        exclude_if=lambda v: v is None,
        description="Why this engine ran, in English, where the document's size chose it (a large document runs on "
        "saxon-java: schematron.engines.engine_for_size); absent where the caller, the environment or the runner's "
        "kind of work chose",
    )
    timings_ms: dict[str, float] = Field(alias="timingsMs", description="Wall time per stage in milliseconds")

    @model_validator(mode="after")
    def _known_syntax(self) -> Report:
        check_report_names(self.syntax, self.document_type)
        return self

    @model_validator(mode="after")
    def _valid_matches_findings(self) -> Report:
        has_error = any(f.severity is Severity.ERROR for f in self.findings)
        if self.valid == has_error:
            raise ValueError("valid must be True exactly when no finding has severity ERROR")
        return self

    @property
    def errors(self) -> tuple[Finding, ...]:
        """The findings that block issuing the invoice."""
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)
