"""French CDAR lifecycle messages (flow 6 "CDV") broken on purpose, made here from the phive-rules good cases of
``corpus/france-cdar-1.4.0.04/phive-cdar`` (whose 11 messages and one probe raise at most one warning): each edit
should raise the BR-FR-CDV rule named in its file name (the suites compare with FNFE's own stylesheet run directly,
since the Java reference validator has no CDAR scenario)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import CORPUS

CDAR = CORPUS / "france-cdar-1.4.0.04"
UC1_DEPOSITED = CDAR / "phive-cdar" / "UC1_F202500003_01-CDV-200_Deposee.xml"
UC4_DISPUTED = CDAR / "phive-cdar" / "UC4_F202500006_04-CDV-207_En_litige.xml"

_DOCUMENT_ID = b"<ram:ID>F202500003_200_20250701151000#380_20250701</ram:ID>"
_UNKNOWN = b"<ram:Colour>red</ram:Colour>"


def _edit(path: Path, old: bytes, new: bytes) -> bytes:
    data = path.read_bytes()
    assert data.count(old) == 1, (path.name, old)
    return data.replace(old, new)


def cdar_mutations() -> dict[str, bytes]:
    """File name (``cdar-<rule>--<what>.xml``) -> a broken lifecycle message that raises the rule it names."""
    return {
        "cdar-BR-FR-CDV-03--no-document-id.xml": _edit(UC1_DEPOSITED, _DOCUMENT_ID, b""),
        "cdar-BR-FR-CDV-02--mdt3.xml": _edit(
            UC1_DEPOSITED, b">urn.cpro.gouv.fr:1p0:CDV:invoice<", b">urn.cpro.gouv.fr:1p0:CDV:other<"
        ),
        "cdar-BR-FR-CDV-CL-01--mdt2.xml": _edit(UC1_DEPOSITED, b">REGULATED<", b">SOMETHING_ELSE<"),
        "cdar-BR-FR-CDV-CL-06--status-299.xml": _edit(
            UC1_DEPOSITED, b"<ram:ProcessConditionCode>200<", b"<ram:ProcessConditionCode>299<"
        ),
        "cdar-BR-FR-CDV-CL-09--reason.xml": _edit(UC4_DISPUTED, b">TX_TVA_ERR<", b">NOT_A_REASON<"),
        "cdar-BR-FR-CDV-15--no-reason.xml": _edit(UC4_DISPUTED, b"<ram:ReasonCode>TX_TVA_ERR</ram:ReasonCode>", b""),
        "cdar-xsd--unknown-element.xml": _edit(
            UC1_DEPOSITED, _DOCUMENT_ID, _DOCUMENT_ID + b"<ram:Colour>red</ram:Colour>"
        ),
    }


def write_cdar_mutations(folder: Path) -> dict[str, Path]:
    paths = {}
    for name, data in cdar_mutations().items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return paths
