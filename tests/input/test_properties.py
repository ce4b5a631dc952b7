"""Whatever bytes come in, ``Validator.validate`` gives a well-formed answer and never an unexpected exception.

Property-based (hypothesis), over: arbitrary bytes; byte-level mutations of the real example invoices
(truncation, deletions, insertions, replacements, flipped bytes, duplicated slices, XML-ish fragments, another
encoding declaration, another root element around or instead of the root); and structured mutations made with
lxml (elements removed, duplicated, moved or renamed, random text and attribute values, non-numeric and huge
amounts). The contract proven for every input:

* the result is a :class:`Report` (``valid`` a bool, every finding with a ruleId, a severity of ERROR, WARNING
  or INFO and a non-empty English and German message) or an :class:`EInvoiceValidateError` whose ``code`` is in
  ``ERROR_CODES`` and whose message has non-empty English and German text; any other exception fails;
* a document cut short (a strict prefix, missing more than the last ``>``) is refused as
  ``document.unreadable``, never reported, let alone valid;
* a document with a stylesheet runtime problem, a non-numeric amount, or another root element is never valid;
* a valid invoice re-encoded in another encoding (declared correctly) keeps its verdict and findings.

The runs are derandomised (the same examples on every run) and use no example database.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, note, settings
from hypothesis import strategies as st
from lxml import etree

from einvoice_validate import EInvoiceValidateError, Report, Severity, Validator
from einvoice_validate.errors import ERROR_CODES
from einvoice_validate.rulesets import Registry

REPO = Path(__file__).resolve().parents[2]
EXAMPLES: dict[str, bytes] = {p.name: p.read_bytes() for p in sorted((REPO / "examples").glob("*.xml"))}
VALID_EXAMPLES = [name for name in EXAMPLES if "broken" not in name]
SEVERITIES = {"ERROR", "WARNING", "INFO"}
RUNTIME_ERROR = "schematron.runtime-error"
CUT_SHORT = {("document.unreadable", "not-xml"), ("document.unreadable", "empty")}  # never a refused construct

COMMON = settings(
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


@pytest.fixture(scope="module")
def v(registry: Registry) -> Validator:
    """One validator for the whole module (packs compiled once); its rules home is the tested one."""
    validator = Validator()
    assert validator.registry.home == registry.home
    return validator


def check(v: Validator, data: bytes) -> Report | EInvoiceValidateError:
    """Validate ``data`` and check the contract of the answer; any other exception propagates (and fails)."""
    try:
        report = v.validate(data)
    except EInvoiceValidateError as exc:
        assert exc.code in ERROR_CODES, exc.code
        assert exc.message.en.strip() and exc.message.de.strip(), (exc.code, exc.message)
        assert isinstance(exc.detail, str)
        assert exc.to_dict()["code"] == exc.code
        return exc
    assert isinstance(report, Report)
    assert isinstance(report.valid, bool)
    for finding in report.findings:
        dumped = finding.model_dump(mode="json", by_alias=True)
        assert isinstance(dumped["ruleId"], str) and dumped["ruleId"].strip(), dumped
        assert dumped["severity"] in SEVERITIES, dumped
        assert finding.message.en.strip() and finding.message.de.strip(), dumped
        if finding.rule_id == RUNTIME_ERROR:
            assert finding.severity is Severity.ERROR, dumped
    assert report.valid == (not any(f.severity is Severity.ERROR for f in report.findings))
    if any(f.rule_id == RUNTIME_ERROR for f in report.findings):
        assert not report.valid
    return report


def outcome(result: Report | EInvoiceValidateError) -> str:
    """The kind of answer, for hypothesis' statistics (``--hypothesis-show-statistics``)."""
    if isinstance(result, EInvoiceValidateError):
        return f"error {result.code}"
    runtime = " with a runtime error" if any(f.rule_id == RUNTIME_ERROR for f in result.findings) else ""
    return f"report {'valid' if result.valid else 'invalid'}{runtime}"


def describe(result: Report | EInvoiceValidateError) -> str:
    if isinstance(result, EInvoiceValidateError):
        return f"error {result.code}: {result.detail[:300]}"
    return f"report valid={result.valid} findings={[f.rule_id for f in result.findings][:12]}"


# --- (1) arbitrary bytes ------------------------------------------------------------------------------------


@settings(COMMON, max_examples=500)
@given(data=st.binary(max_size=4096))
@example(data=b"")
@example(data=b" \n\t")
@example(data=b"\xef\xbb\xbf")
@example(data=b"\xff\xfe")
@example(data=b"\x00" * 16)
@example(data=b"<")
@example(data=b"<?xml")
@example(data=b"<a/>")
def test_arbitrary_bytes(v: Validator, data: bytes) -> None:
    event(outcome(check(v, data)))


SHELLS: list[tuple[bytes, bytes]] = [
    (b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">', b"</Invoice>"),
    (b'<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2">', b"</CreditNote>"),
    (
        b'<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">',
        b"</rsm:CrossIndustryInvoice>",
    ),
]
_TOKENS = [
    *"<>/&;=\"' !?[]-#:xaIDNote7",
    "&amp;",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<a>",
    "</a>",
    "<b/>",
    "<cbc:ID>",
    "</cbc:ID>",
    "<cbc:Note>",
    "</cbc:Note>",
    "<cac:Party>",
    "</cac:Party>",
    ' xmlns:cbc="urn:x"',
    '<ram:ID xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">',
]
XMLISH = st.lists(st.sampled_from(_TOKENS), max_size=60).map("".join)


@settings(COMMON, max_examples=300)
@given(
    shell=st.sampled_from(SHELLS), body=st.one_of(XMLISH, st.binary(max_size=256).map(lambda b: b.decode("latin-1")))
)
@example(shell=SHELLS[0], body="")
@example(shell=SHELLS[2], body="")
def test_arbitrary_content_in_an_invoice_root(v: Validator, shell: tuple[bytes, bytes], body: str) -> None:
    """Random markup-like content inside a real root element: far more of it reaches the XSD and Schematron."""
    result = check(v, shell[0] + body.encode("utf-8") + shell[1])
    event(outcome(result))
    if isinstance(result, Report):
        assert not result.valid, "an invoice made of random content was reported valid"


# --- (2) byte-level mutations of the example invoices -------------------------------------------------------

FRAGMENTS: list[bytes] = [
    b"<",
    b">",
    b"&",
    b"&amp",
    b"&unknown;",
    b"&#0;",
    b"&#x110000;",
    b"&#xFFFE;",
    b"]]>",
    b"<![CDATA[",
    b"<![CDATA[x]]>",
    b"<!DOCTYPE ubl:Invoice>",
    b'<!ENTITY e "v">',
    b"<!--",
    b"-->",
    b"<!-- ok -->",
    b"<?",
    b"?>",
    b"<?pi data?>",
    b'<?xml version="1.0"?>',
    b"<a>",
    b"</a>",
    b"<a/>",
    b"<cbc:Note>",
    b"</cbc:Note>",
    b"</ubl:Invoice>",
    b"<zz:Unbound/>",
    b' xmlns="urn:example:other"',
    b' xmlns:cbc="urn:example:other"',
    b' a="1" a="2"',
    b'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="x.xml"/>',
    b"\x00",
    b"\x01",
    b"\x0b",
    b"\x1b",
    b"\x7f",
    b"\x80",
    b"\xc3\x28",
    b"\xed\xa0\x80",
    b"\xef\xbf\xbe",
    b"\xef\xbb\xbf",
    b"\xf4\x90\x80\x80",
    b"\xff\xfe",
    b"\r",
    b'"',
    b"'",
    b"=",
]
ENCODINGS: list[bytes] = [
    b"UTF-16",
    b"UTF-16LE",
    b"UTF-32",
    b"ISO-8859-1",
    b"windows-1252",
    b"US-ASCII",
    b"EBCDIC-US",
    b"Shift_JIS",
    b"UTF-7",
    b"bogus",
    b"",
    b"utf-8",
]
ROOT_NAMES: list[bytes] = [
    b"Invoice",
    b"ubl:CreditNote",
    b"ubl:Invoice2",
    b"cac:Invoice",
    b"rsm:CrossIndustryInvoice",
    b"zz:Invoice",
    b"html",
    b"_",
]
WRAPPERS: list[bytes] = [
    b"<wrapper>",
    b'<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/">',
    b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">',
    b'<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">',
]
ROOT_TAG = re.compile(rb"<([A-Za-z_][\w.:-]*)[\s/>]")
XML_DECL = re.compile(rb"^<\?xml[^>]*\?>")


class Mutated:
    """A mutated example: the operations applied (enough to reproduce it) and the resulting bytes.

    A plain class, so that hypothesis prints its short ``repr`` rather than every byte of ``data``.
    """

    __slots__ = ("data", "example", "never_valid", "ops")

    def __init__(self, example: str, ops: tuple[str, ...], data: bytes, never_valid: bool) -> None:
        self.example = example
        self.ops = ops
        self.data = data
        self.never_valid = never_valid  # the root was renamed or wrapped: this cannot be a valid invoice

    def __repr__(self) -> str:
        return f"Mutated({self.example!r}, ops={list(self.ops)!r}, {len(self.data)} bytes)"


def _boundaries(data: bytes) -> list[int]:
    """Positions just before and after markup (``<``, ``>``, ``&``, quotes): where mutations hurt most."""
    return sorted({m.start() for m in re.finditer(rb"[<>&\"']", data)} | {m.end() for m in re.finditer(rb">", data)})


@st.composite
def _position(draw: st.DrawFn, data: bytes) -> int:
    if not data:
        return 0
    marks = _boundaries(data)
    near_markup = draw(st.booleans())
    if marks and near_markup:
        return min(len(data), max(0, draw(st.sampled_from(marks)) + draw(st.integers(-2, 2))))
    return draw(st.integers(0, len(data)))


@st.composite
def _mutation(draw: st.DrawFn, data: bytes) -> tuple[str, bytes, str]:
    """One mutation of ``data``: (description, new data, ``"wrap"``/``"root"`` when it wrapped/renamed the root)."""
    kind = draw(
        st.sampled_from(
            ["truncate", "delete", "insert", "replace", "flip", "duplicate", "fragment", "encoding", "wrap", "root"]
        )
    )
    n = len(data)
    if kind == "truncate":
        at = draw(_position(data))
        return f"truncate at {at}", data[:at], ""
    if kind == "delete":
        at = draw(_position(data))
        length = draw(st.integers(1, 64))
        return f"delete {length} at {at}", data[:at] + data[at + length :], ""
    if kind == "insert":
        at = draw(_position(data))
        chunk = draw(st.binary(min_size=1, max_size=32))
        return f"insert {chunk!r} at {at}", data[:at] + chunk + data[at:], ""
    if kind == "replace":
        at = draw(_position(data))
        length = draw(st.integers(1, 32))
        chunk = draw(st.binary(min_size=1, max_size=32))
        return f"replace {length} at {at} by {chunk!r}", data[:at] + chunk + data[at + length :], ""
    if kind == "flip":
        if not n:
            return "flip (nothing)", data, ""
        flips = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, 255)), min_size=1, max_size=8))
        flipped = bytearray(data)
        for pos, mask in flips:
            flipped[pos] ^= mask
        return f"flip {flips}", bytes(flipped), ""
    if kind == "duplicate":
        at = draw(_position(data))
        length = draw(st.integers(1, 400))
        to = draw(_position(data))
        piece = data[at : at + length]
        return f"duplicate [{at}:{at + length}] to {to}", data[:to] + piece + data[to:], ""
    if kind == "fragment":
        at = draw(_position(data))
        fragment = draw(st.sampled_from(FRAGMENTS))
        return f"fragment {fragment!r} at {at}", data[:at] + fragment + data[at:], ""
    if kind == "encoding":
        encoding = draw(st.sampled_from(ENCODINGS))
        decl = XML_DECL.match(data)
        if decl is None or draw(st.booleans()):
            new_decl = b'<?xml version="1.0" encoding="' + encoding + b'"?>'
            rest = data[decl.end() :] if decl else data
            return f"declare encoding {encoding!r}", new_decl + rest, ""
        return "remove the XML declaration", data[decl.end() :].lstrip(), ""
    if kind == "wrap":
        wrapper = draw(st.sampled_from(WRAPPERS))
        name = wrapper[1:].split(b" ")[0].rstrip(b">")
        decl = XML_DECL.match(data)
        head, body = (data[: decl.end()], data[decl.end() :]) if decl else (b"", data)
        return f"wrap in {wrapper!r}", head + wrapper + body + b"</" + name + b">", "wrap"
    # kind == "root"
    match = _root_start(data)
    if match is None:
        return "replace the root (none found)", data, ""
    old = match.group(1)
    new = draw(st.one_of(st.sampled_from(ROOT_NAMES), st.from_regex(rb"\A[A-Za-z_][A-Za-z0-9_.-]{0,12}\Z")))
    if new == old:
        return "replace the root by itself", data, ""
    out = data[: match.start(1)] + new + data[match.end(1) :]
    end = out.rfind(b"</" + old + b">")
    if end >= 0:
        out = out[:end] + b"</" + new + b">" + out[end + len(old) + 3 :]
    return f"replace the root {old!r} by {new!r}", out, "root"


def _root_start(data: bytes) -> re.Match[bytes] | None:
    """The root's start tag: the first tag after the XML declaration, comments and processing instructions."""
    i = 0
    while (j := data.find(b"<", i)) >= 0:
        if data.startswith((b"<?", b"<!--"), j):
            close = b"?>" if data.startswith(b"<?", j) else b"-->"
            end = data.find(close, j + 2)
            if end < 0:
                return None
            i = end + len(close)
        else:
            return ROOT_TAG.match(data, j)
    return None


@st.composite
def mutated_examples(draw: st.DrawFn) -> Mutated:
    name = draw(st.sampled_from(list(EXAMPLES)))
    data = EXAMPLES[name]
    ops: list[str] = []
    wrapped = renamed = False
    for _ in range(draw(st.integers(1, 3))):
        op, data, effect = draw(_mutation(data))
        ops.append(op)
        wrapped = wrapped or effect == "wrap"
        renamed = renamed or effect == "root"
    if renamed:  # renamed, perhaps back again: what counts is the root's name in the end
        original, final = _root_start(EXAMPLES[name]), _root_start(data)
        assert original is not None
        renamed = final is None or final.group(1) != original.group(1)
    return Mutated(name, tuple(ops), data, wrapped or renamed)


@settings(COMMON, max_examples=1500)
@given(m=mutated_examples())
def test_byte_mutations(v: Validator, m: Mutated) -> None:
    note(repr(m))
    result = check(v, m.data)
    note(describe(result))
    event(outcome(result))
    if m.never_valid and isinstance(result, Report):
        assert not result.valid, "a document with another root element (or wrapped in one) was reported valid"


# --- truncation: a document cut short is unreadable ---------------------------------------------------------


def _cut_limit(name: str) -> int:
    """Cuts below this are strict prefixes missing more than the final ``>`` of the root's end tag."""
    return len(EXAMPLES[name].rstrip()) - 1


@st.composite
def truncations(draw: st.DrawFn) -> tuple[str, int]:
    name = draw(st.sampled_from(list(EXAMPLES)))
    limit = _cut_limit(name)
    data = EXAMPLES[name][:limit]
    cut = draw(st.one_of(st.integers(0, limit - 1), _position(data).filter(lambda p: p < limit)))
    return name, cut


def assert_cut_is_unreadable(v: Validator, name: str, at: int) -> None:
    assert 0 <= at < _cut_limit(name)
    data = EXAMPLES[name][:at]
    where = f"{name} cut at {at} of {len(EXAMPLES[name])} bytes, ending ...{data[-40:]!r}"
    result = check(v, data)
    assert isinstance(result, EInvoiceValidateError), f"{where}: a truncated document was validated: {describe(result)}"
    assert (result.code, result.reason) in CUT_SHORT, f"{where}: {describe(result)}"


@settings(COMMON, max_examples=300)
@given(cut=truncations())
def test_truncated_document_is_unreadable(v: Validator, cut: tuple[str, int]) -> None:
    assert_cut_is_unreadable(v, *cut)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_cut_is_unreadable(v: Validator, name: str) -> None:
    """Exhaustively (each cut is refused in well under a millisecond): every strict prefix of the example that
    misses more than the final ``>`` is ``document.unreadable``. All failing cuts are listed at once."""
    data = EXAMPLES[name]
    wrong: list[str] = []
    for at in range(_cut_limit(name)):
        try:
            result = check(v, data[:at])
        except Exception as exc:  # collected, reported below with the cut
            wrong.append(f"cut at {at} (...{data[max(0, at - 12) : at]!r}): raised {exc!r}")
            continue
        if not isinstance(result, EInvoiceValidateError) or (result.code, result.reason) not in CUT_SHORT:
            wrong.append(f"cut at {at} (...{data[max(0, at - 12) : at]!r}): {describe(result)}")
    assert not wrong, f"{len(wrong)} cuts of {name} are not document.unreadable:\n" + "\n".join(wrong[:40])


# --- (3) structured mutations with lxml ---------------------------------------------------------------------

_XML_CHARS = st.characters(
    codec="utf-8", exclude_categories=["Cs"], exclude_characters="\ufffe\uffff" + "".join(map(chr, range(0x20)))
) | st.sampled_from("\t\n\r")
TEXTS = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "7x",
            "x7",
            "NaN",
            "INF",
            "-INF",
            "-0",
            "+1",
            "1e3",
            "1E-400",
            "0x10",
            "1,5",
            "1.2.3",
            "\u0661\u0662",  # Arabic-Indic digits
            "\uff11\uff12",  # fullwidth digits
            "\u00a0",
            "2025-02-30",
            "9999-99-99",
            "#SKONTO#TAGE=x#PROZENT=y#",
            "&amp;",
            "]]>",
            "<a/>",
        ]
    ),
    st.integers(1, 20_000).map(lambda n: "9" * n),
    st.integers(1, 20_000).map(lambda n: "-" + "9" * n),
    st.integers(1, 5_000).map(lambda n: "0." + "0" * n + "1"),
    st.integers(1, 200_000).map(lambda n: "x" * n),
    st.text(_XML_CHARS, max_size=64),
)
NON_NUMERIC = st.sampled_from(["7x", "x", "", " ", "NaN", "INF", "1,5", "0x10", "1.2.3", "\uff11", "1e3", "--1"])
_DECIMAL = re.compile(r"\A[ \t\n\r]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[ \t\n\r]*\Z")  # xs:decimal's lexical space


class Edited:
    """An example edited with lxml (plain class: hypothesis prints the short ``repr``)."""

    __slots__ = ("data", "example", "non_numeric_amount", "ops")

    def __init__(self, example: str, ops: tuple[str, ...], data: bytes, non_numeric_amount: bool) -> None:
        self.example = example
        self.ops = ops
        self.data = data
        self.non_numeric_amount = non_numeric_amount  # a leaf *Amount element holds no xs:decimal (in the end)

    def __repr__(self) -> str:
        return f"Edited({self.example!r}, ops={list(self.ops)!r}, {len(self.data)} bytes)"


def _elements(root: etree._Element) -> list[etree._Element]:
    return [el for el in root.iter() if isinstance(el.tag, str)]


def _amounts(root: etree._Element) -> list[etree._Element]:
    """The leaf elements named ``*Amount`` (every one is an xs:decimal in UBL and CII)."""
    return [el for el in _elements(root) if etree.QName(el).localname.endswith("Amount") and len(el) == 0]


def _path(el: etree._Element) -> str:
    return el.getroottree().getpath(el)


@st.composite
def edited_examples(draw: st.DrawFn) -> Edited:
    name = draw(st.sampled_from(list(EXAMPLES)))
    root = etree.fromstring(EXAMPLES[name], etree.XMLParser(resolve_entities=False, no_network=True))
    ops: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        elements = _elements(root)
        el = elements[draw(st.integers(0, len(elements) - 1))]
        parent = el.getparent()
        kind = draw(st.sampled_from(["remove", "duplicate", "move", "text", "attribute", "rename", "amount"]))
        if kind == "amount":
            amounts = _amounts(root)
            if not amounts:
                continue
            el = amounts[draw(st.integers(0, len(amounts) - 1))]
            value = draw(NON_NUMERIC)
            ops.append(f"amount {_path(el)} = {value!r}")
            el.text = value
        elif kind == "text":
            value = draw(TEXTS)
            ops.append(f"text {_path(el)} = {value[:40]!r} ({len(value)} chars)")
            el.text = value
        elif kind == "attribute":
            attr = draw(st.sampled_from(["currencyID", "schemeID", "unitCode", "listID", "format", "other"]))
            value = draw(st.one_of(st.sampled_from(["", "EUR", "XXX", "7x", "0088"]), st.text(_XML_CHARS, max_size=32)))
            ops.append(f"attribute {_path(el)} @{attr} = {value!r}")
            el.set(attr, value)
        elif parent is None:
            continue  # the root is not removed, moved or duplicated here (the byte mutations replace it)
        elif kind == "remove":
            ops.append(f"remove {_path(el)}")
            parent.remove(el)
        elif kind == "duplicate":
            ops.append(f"duplicate {_path(el)}")
            el.addnext(copy.deepcopy(el))
        elif kind == "move":
            target = elements[draw(st.integers(0, len(elements) - 1))]
            if target is el or any(a is el for a in target.iterancestors()):
                continue
            ops.append(f"move {_path(el)} into {_path(target)}")
            target.append(el)
        else:  # rename
            local = draw(st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_]{0,16}\Z"))
            ops.append(f"rename {_path(el)} to {local!r}")
            el.tag = etree.QName(etree.QName(el).namespace, local).text
    data = etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8")
    return Edited(name, tuple(ops), data, any(not _DECIMAL.match(el.text or "") for el in _amounts(root)))


@settings(COMMON, max_examples=900)
@given(e=edited_examples())
def test_structured_mutations(v: Validator, e: Edited) -> None:
    note(repr(e))
    result = check(v, e.data)
    note(describe(result))
    event(outcome(result))
    if e.non_numeric_amount:
        # xs:decimal refuses it, the Schematron casts may stop with a runtime error: whatever else, never valid
        assert not (isinstance(result, Report) and result.valid), (
            f"a non-numeric amount was reported valid: {describe(result)}"
        )


@settings(COMMON, max_examples=100)
@given(name=st.sampled_from(VALID_EXAMPLES), value=NON_NUMERIC, which=st.integers(0, 1000))
def test_non_numeric_amount_is_never_valid(v: Validator, name: str, value: str, which: int) -> None:
    root = etree.fromstring(EXAMPLES[name])
    amounts = _amounts(root)
    target = amounts[which % len(amounts)]
    target.text = value
    note(f"{name}: {_path(target)} = {value!r}")
    result = check(v, etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8"))
    assert isinstance(result, Report), describe(result)
    assert not result.valid, describe(result)
    assert any(f.severity is Severity.ERROR for f in result.findings)


# --- re-encoding keeps the verdict --------------------------------------------------------------------------


def _without_declaration(text: str) -> bytes:
    return re.sub(r"^<\?xml[^>]*\?>\s*", "", text, count=1).encode("utf-8")


REENCODINGS: dict[str, Callable[[str], bytes]] = {
    "utf-8-bom": lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),
    "utf-16-le-bom": lambda text: b"\xff\xfe" + text.replace('"UTF-8"', '"UTF-16"', 1).encode("utf-16-le"),
    "utf-16-be-bom": lambda text: b"\xfe\xff" + text.replace('"UTF-8"', '"UTF-16"', 1).encode("utf-16-be"),
    "iso-8859-1": lambda text: text.replace('"UTF-8"', '"ISO-8859-1"', 1).encode("latin-1", "xmlcharrefreplace"),
    "iso-8859-15": lambda text: text.replace('"UTF-8"', '"ISO-8859-15"', 1).encode("iso8859-15", "xmlcharrefreplace"),
    "windows-1252": lambda text: text.replace('"UTF-8"', '"windows-1252"', 1).encode("cp1252", "xmlcharrefreplace"),
    "us-ascii": lambda text: text.replace('"UTF-8"', '"US-ASCII"', 1).encode("ascii", "xmlcharrefreplace"),
    "no-declaration": _without_declaration,
}


@pytest.mark.parametrize("encoding", list(REENCODINGS))
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_reencoded_invoice_keeps_its_verdict(v: Validator, name: str, encoding: str) -> None:
    text = EXAMPLES[name].decode("utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    original = check(v, EXAMPLES[name])
    reencoded = check(v, REENCODINGS[encoding](text))
    assert isinstance(original, Report) and isinstance(reencoded, Report), describe(reencoded)
    assert (reencoded.profile, reencoded.valid) == (original.profile, original.valid)
    assert [(f.rule_id, f.severity) for f in reencoded.findings] == [(f.rule_id, f.severity) for f in original.findings]
