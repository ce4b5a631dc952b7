"""The texts of the library's errors in English and German: an error code's general meaning and the details the
library writes, both from the project's catalogue (``rulesets/messages/project.toml`` and ``errors.toml``).

An error is raised as a code plus a :class:`Detail`: a key of the catalogue and its values. The catalogue renders it
in both languages (:meth:`~einvoice_validate.messages.Catalogue.render_code`), so the English can be reworded in
the catalogue without losing the German, and nothing reads English back. An error's ``detail`` is the English
(:mod:`einvoice_validate.errors`); a detail given as plain text (an operating system's or a parser's own words) has
no German of its own and is followed by the code's general meaning in German. :func:`error_message` makes of a
detail an error's message in both languages, the specific cause first, one sentence each
(``EInvoiceValidateError.message``, the reports, the CLI); :func:`error_object` is its wire form (the CLI's
``json``/``jsonl`` rows, ``to_dict()``).

This module sits below the exception tree: :mod:`~einvoice_validate.errors` renders its messages with it, and the
reports' words (:mod:`einvoice_validate.reports.words`) and the wire format (:mod:`einvoice_validate.wire`) take
their error texts from here. It imports only the runtime catalogue and the ``Message`` model.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Callable
from functools import cache
from typing import Any

from .findings import Message
from .messages import catalogue

__all__ = [
    "Detail",
    "detail_in",
    "detail_or",
    "error_message",
    "error_object",
    "message_for_code",
    "os_reason",
    "sentence",
]


def message_for_code(code: str) -> Message:
    """The English and German sentence for an error code (what it means in general)."""
    try:
        return catalogue().render_code(code)
    except KeyError:
        return Message(en=code, de=code)


class Detail:
    """What went wrong, as a key of the catalogue (``rulesets/messages/errors.toml``) and its values; a value may be
    a detail itself (``Detail("detail.this-is", Detail("kind.pdf"), ...)``), rendered in the same language.

    ``InputError("document.unreadable", Detail("detail.nested-levels", 200), reason="depth")``: the error's
    ``detail`` is the English, its message both languages."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, *values: object) -> None:
        self.key = key
        self.values: tuple[str | Detail, ...] = tuple(v if isinstance(v, Detail) else str(v) for v in values)

    def render(self) -> Message:
        """The detail in English and German (the values as they are, their own details rendered too)."""
        parts = [v.render() if isinstance(v, Detail) else Message(en=v, de=v) for v in self.values]
        return catalogue().render_code(self.key, [p.en for p in parts], de_values=[p.de for p in parts])

    def __str__(self) -> str:
        return self.render().en

    def __repr__(self) -> str:
        return f"Detail({', '.join(repr(v) for v in (self.key, *self.values))})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Detail) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash((self.key, self.values))

    def __reduce__(self) -> tuple[object, ...]:
        return (Detail, (self.key, *self.values))


def detail_or(key: str, text: str) -> str | Detail:
    """The catalogue's detail ``key`` where the catalogue has it (in both languages), else ``text`` as it is."""
    return Detail(key) if catalogue().variants(key) else text


def os_reason(exc: OSError) -> str | Detail:
    """Why the operating system refused: a detail in both languages for the common cases, else its own words."""
    return detail_or(f"os.{errno.errorcode.get(exc.errno or 0, '')}", str(exc.strerror or exc))


# --- LEGACY (removed when every raise site gives a Detail): English details read back into German ---

_KINDS_DE = {
    "a PDF file": "eine PDF-Datei",
    "a ZIP archive": "ein ZIP-Archiv",
    "a PNG image": "ein PNG-Bild",
    "a JPEG image": "ein JPEG-Bild",
    "a GIF image": "ein GIF-Bild",
    "an MS Office (OLE) file": "eine MS-Office-Datei (OLE)",
    "JSON, not XML": "JSON, kein XML",
}
_OS_DE = {
    "No such file or directory": "Datei oder Verzeichnis nicht gefunden",
    "Permission denied": "Keine Berechtigung",
    "Is a directory": "ist ein Verzeichnis",
    "File name too long": "Dateiname zu lang",
}


def _pdf_part(what: str) -> str:
    """``embedded file factur-x.xml`` → ``die eingebettete Datei factur-x.xml`` (the PDF details' subjects)."""
    if what.startswith("embedded file "):
        return f"die eingebettete Datei {what.removeprefix('embedded file ')}"
    return {"XMP metadata": "die XMP-Metadaten"}.get(what, what)


def _kind(m: re.Match[str]) -> str:
    return _KINDS_DE.get(m["kind"], m["kind"])


_DETAILS_DE: tuple[tuple[str, Callable[[re.Match[str]], str]], ...] = tuple(
    (pattern, build)
    for pattern, build in (
        (r"this is (?P<kind>.+?); (?P<rest>not well-formed XML .*)", lambda m: f"das ist {_kind(m)}; {_de(m['rest'])}"),
        (
            r"not well-formed XML at line (?P<l>\d+), column (?P<c>\d+): (?P<msg>.*)",
            lambda m: f"kein wohlgeformtes XML in Zeile {m['l']}, Spalte {m['c']} (libxml2: {m['msg']})",
        ),
        (
            r"cannot read (?P<name>.+): (?P<why>[^:]+)",
            lambda m: f"{m['name']} kann nicht gelesen werden: {_OS_DE.get(m['why'], m['why'])}",
        ),
        (r"the document is empty", lambda m: "das Dokument ist leer"),
        (r"the document is blank", lambda m: "das Dokument enthält nur Leerraum"),
        (
            r"the document has a DOCTYPE declaration.*",
            lambda m: "das Dokument hat eine DOCTYPE-Deklaration; DTDs und Entitäten werden abgelehnt (nie aufgelöst)",
        ),
        (
            r"the document declares the encoding (?P<e>.+), which is not one this library reads",
            lambda m: f"das Dokument erklärt die Kodierung {m['e']}, die diese Bibliothek nicht liest",
        ),
        (
            r"the document has XInclude elements.*",
            lambda m: "das Dokument enthält XInclude-Elemente; sie werden abgelehnt (nie aufgelöst)",
        ),
        (
            r"elements are nested (?:too deeply \(line (?P<l>\d+)\)|deeper than (?P<n>\d+) levels)",
            lambda m: (
                "die Elemente sind zu tief verschachtelt "
                + (f"(Zeile {m['l']})" if m["l"] else f"(mehr als {m['n']} Ebenen)")
            ),
        ),
        (
            r"the document has (?P<n>\d+) bytes or more; the limit is (?P<cap>\d+) bytes",
            lambda m: f"das Dokument hat {m['n']} Bytes oder mehr; die Grenze liegt bei {m['cap']} Bytes",
        ),
        (
            r"the document has more than (?P<n>\d+) elements",
            lambda m: f"das Dokument hat mehr als {m['n']} Elemente",
        ),
        (
            r"a text node is longer than (?P<n>\d+) characters",
            lambda m: f"ein Textknoten ist länger als {m['n']} Zeichen",
        ),
        (
            r"an attribute value is longer than (?P<n>\d+) characters",
            lambda m: f"ein Attributwert ist länger als {m['n']} Zeichen",
        ),
        (
            r"the root element(?P<inside> inside the StandardBusinessDocument)? is (?P<q>\S+); expected one of: "
            r"(?P<types>.*)",
            lambda m: (
                f"das Wurzelelement{' im StandardBusinessDocument' if m['inside'] else ''} ist {m['q']}; "
                f"erwartet wird eines von: {m['types']}"
            ),
        ),
        (
            r"pack (?P<p>\S+) is not installed in (?P<home>.+?); run `(?P<cmd>[^`]+)`(?P<rest>.*)",
            lambda m: (
                f"das Regelwerk {m['p']} ist in {m['home']} nicht installiert; `{m['cmd']}` ausführen"
                + (" (Download; oder `--from DIR`)" if m["rest"] else "")
            ),
        ),
        (
            r"unknown profile (?P<n>\S+); known: (?P<known>.*)",
            lambda m: f"unbekanntes Profil {m['n']}; bekannt: {m['known']}",
        ),
        (
            r"profile (?P<n>\S+) is for (?P<root>\S+) documents; this one is a (?P<t>\S+)",
            lambda m: f"das Profil {m['n']} ist für {m['root']}-Dokumente; dieses ist ein {m['t']}",
        ),
        (
            r"no profile applies to a (?P<t>\S+) document",
            lambda m: f"kein Profil passt auf ein Dokument vom Typ {m['t']}",
        ),
        (r"the PDF cannot be read: (?P<why>.*)", lambda m: f"das PDF kann nicht gelesen werden (qpdf: {m['why']})"),
        (
            r"the PDF is encrypted and needs a password.*",
            lambda m: "das PDF ist verschlüsselt und braucht ein Passwort; es kann nicht gelesen werden",
        ),
        (
            r"the PDF's (?P<name>\S+) is itself an envelope \((?P<kind>\w+)\), not an invoice",
            lambda m: f"die Datei {m['name']} im PDF ist selbst ein Umschlag ({m['kind']}), keine Rechnung",
        ),
        (
            r"the PDF's (?P<what>.+?) is not a stream",
            lambda m: f"{_pdf_part(m['what'])} des PDF ist kein Datenstrom",
        ),
        (
            r"the PDF's (?P<what>.+?) cannot be decompressed: (?P<why>.*)",
            lambda m: f"{_pdf_part(m['what'])} des PDF lässt sich nicht entpacken (zlib: {m['why']})",
        ),
        (
            r"the PDF's (?P<what>.+?) is encoded with (?P<f>\S+); only FlateDecode or no filter is read",
            lambda m: (
                f"{_pdf_part(m['what'])} des PDF ist mit {m['f']} kodiert; gelesen wird nur FlateDecode "
                "oder ungefiltert"
            ),
        ),
        (
            r"the PDF's (?P<what>.+?) is larger than (?P<n>\d+) bytes once decompressed",
            lambda m: f"{_pdf_part(m['what'])} des PDF ist entpackt größer als {m['n']} Bytes",
        ),
        (
            r"the PDF's embedded-files tree is nested deeper than (?P<n>\d+) levels",
            lambda m: f"der Baum der eingebetteten Dateien des PDF ist tiefer als {m['n']} Ebenen verschachtelt",
        ),
        (
            r"the PDF has more than (?P<n>\d+) embedded files",
            lambda m: f"das PDF hat mehr als {m['n']} eingebettete Dateien",
        ),
        (
            r"the PDF's /AF array has more than (?P<n>\d+) entries",
            lambda m: f"das /AF-Array des PDF hat mehr als {m['n']} Einträge",
        ),
        (
            r"the PDF holds no ZUGFeRD / Factur-X invoice \(embedded files: (?P<files>.*); expected one of "
            r"(?P<names>.*)\)",
            lambda m: (
                f"das PDF enthält keine ZUGFeRD-/Factur-X-Rechnung (eingebettete Dateien: "
                f"{'keine' if m['files'] == 'none' else m['files']}; erwartet wird eine von {m['names']})"
            ),
        ),
        (
            r"the PDF holds (?P<n>\d+) embedded files named (?P<name>\S+): .*",
            lambda m: (
                f"das PDF enthält {m['n']} eingebettete Dateien namens {m['name']}: welche die Rechnung ist, "
                "ist nicht eindeutig"
            ),
        ),
        (
            r"the document is a ZUGFeRD 1\.0 invoice .*",
            lambda m: (
                "das Dokument ist eine ZUGFeRD-1.0-Rechnung (CrossIndustryDocument); ZUGFeRD 1.0 wird nicht "
                "unterstützt, nur ZUGFeRD 2.x / Factur-X, XRechnung, EN 16931 (UBL, CII) und die anderen Profile"
            ),
        ),
        (
            r"cannot read the stream: (?P<why>.*)",
            lambda m: f"der Datenstrom kann nicht gelesen werden: {_OS_DE.get(m['why'], m['why'])}",
        ),
        (
            r"the file object must be opened in binary mode",
            lambda m: "das Dateiobjekt muss im Binärmodus geöffnet sein",
        ),
        (
            r"cannot validate a (?P<t>\S+): pass bytes, a path or a binary file",
            lambda m: f"ein {m['t']} kann nicht geprüft werden: bytes, einen Pfad oder eine Binärdatei übergeben",
        ),
        (r"the document has no root element", lambda m: "das Dokument hat kein Wurzelelement"),
        (
            r"not readable as XML: (?P<why>.*)",
            lambda m: f"als XML nicht lesbar (lxml: {m['why']})",
        ),
        (
            r"the StandardBusinessDocument envelope holds (?P<n>\d+) payload elements; expected one invoice",
            lambda m: (
                f"der StandardBusinessDocument-Umschlag enthält {m['n']} Nutzdaten-Elemente; erwartet wird "
                "genau eine Rechnung"
            ),
        ),
        (
            r"the XSLT engine's XML parser cannot read the document: (?P<why>.*)",
            lambda m: f"der XML-Parser der XSLT-Engine kann das Dokument nicht lesen ({m['why']})",
        ),
        (
            r"the PDF's embedded file (?P<name>.+) has no content stream",
            lambda m: f"die eingebettete Datei {m['name']} des PDF hat keinen Inhaltsdatenstrom",
        ),
        (
            r"the rules date (?P<d>.+) is not a date YYYY-MM-DD",
            lambda m: f"das Regeldatum {m['d']} ist kein Datum der Form JJJJ-MM-TT",
        ),
        (
            r"profile (?P<p>\S+): no version of (?P<pack>\S+) is in force on (?P<on>\S+) \((?P<dates>.*)\)",
            lambda m: f"Profil {m['p']}: am {m['on']} gilt keine Version von {m['pack']} ({m['dates']})",
        ),
        (r"no document: (?P<c>.+) is null", lambda m: f"kein Dokument: {m['c']} ist null"),
        (
            r"the text has a character \((?P<c>.+) at offset (?P<o>\d+)\) that its declared encoding (?P<e>\S+) "
            r"cannot hold",
            lambda m: (
                f"der Text enthält ein Zeichen ({m['c']} an Stelle {m['o']}), das seine erklärte Kodierung "
                f"{m['e']} nicht darstellen kann"
            ),
        ),
        (
            r"a str is taken as a path.*",
            lambda m: (
                "ein str gilt als Pfad, und dieser sieht nach XML-Text aus; das Dokument als bytes "
                "(z. B. text.encode()) oder als Pfad übergeben"
            ),
        ),
    )
)


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...]:
    # compiled on first use: the CLI imports this module on every run
    return tuple((re.compile(pattern, re.DOTALL), build) for pattern, build in _DETAILS_DE)


def _de(detail: str) -> str:
    for pattern, build in _compiled():
        m = pattern.fullmatch(detail)
        if m is not None:
            return build(m)
    return detail


def detail_in(detail: str, lang: str) -> str:
    """``detail`` in ``lang`` (German where the library wrote it, else unchanged)."""
    return _de(detail) if lang == "de" else detail


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter upper case, a full stop at the end unless it ends with one."""
    text = text.strip()
    if text[:1].islower():
        text = text[0].upper() + text[1:]
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def error_message(code: str, detail: str | Detail) -> Message:
    """An error in English and German, the specific cause first: ``detail`` as one sentence in each language. The
    code's general meaning (:func:`message_for_code`) stands in for an empty detail, and follows a detail given as
    plain text (an operating system's or a parser's own words), so that the German reader gets it too."""
    if isinstance(detail, Detail):
        message = detail.render()
        return Message(en=sentence(message.en), de=sentence(message.de))
    if not detail.strip():
        return message_for_code(code)
    german = _de(detail)
    de = sentence(german) if german != detail else f"{sentence(detail)} {message_for_code(code).de}"
    return Message(en=sentence(detail), de=de)


def error_object(code: str, detail: str | Detail, message: Message | None = None) -> dict[str, Any]:
    """The error object of the CLI's ``json``/``jsonl`` output and of ``to_dict()``:
    ``{"code", "message": {"en", "de"}, "detail"}``, the message saying the specific cause (``detail``) in each
    language (:func:`error_message`, or ``message`` where the caller has it)."""
    message = message or error_message(code, detail)
    return {"code": code, "message": message.model_dump(mode="json"), "detail": str(detail)}
