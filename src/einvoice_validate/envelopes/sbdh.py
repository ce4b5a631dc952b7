"""The Peppol StandardBusinessDocument (SBDH) envelope: recognising it on a parsed root and taking out the invoice.

Unlike a PDF, the envelope is XML: :mod:`einvoice_validate.parse` parses and checks it once (hardened, within the
limits), then asks this module for the invoice inside. Nothing here parses.
"""

from __future__ import annotations

import copy

from lxml import etree

from ..errors import Detail, InputError

__all__ = ["SBDH_NS", "detach", "is_sbdh", "unwrap_sbdh"]

SBDH_NS = "http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"
_DOCUMENT = f"{{{SBDH_NS}}}StandardBusinessDocument"
_HEADER = f"{{{SBDH_NS}}}StandardBusinessDocumentHeader"


def is_sbdh(root: etree._Element) -> bool:
    """Whether ``root`` is a Peppol StandardBusinessDocument."""
    return root.tag == _DOCUMENT


def unwrap_sbdh(root: etree._Element) -> etree._Element:
    """The invoice inside a Peppol StandardBusinessDocument (the element after the header)."""
    payload = [el for el in root if isinstance(el.tag, str) and el.tag != _HEADER]
    if len(payload) != 1:
        raise InputError(
            "document.unsupported-type",
            Detail("detail.sbdh-payload", len(payload)),
            reason="envelope",
        )
    return payload[0]


def detach(invoice: etree._Element) -> tuple[etree._ElementTree, bytes]:
    """The invoice alone, as its own document (tree and bytes): lxml copies the namespace declarations it
    inherits from the envelope onto its root. The copy keeps the source line numbers for XSD findings."""
    root = copy.deepcopy(invoice)
    return etree.ElementTree(root), etree.tostring(root, encoding="UTF-8", xml_declaration=True)
