"""Read a large untrusted XML file one record at a time, with the same safety as
:func:`~mekref.adapters.megamek.xml_safety.parse_untrusted_xml`.

A whole-tree parse costs about 13 times the file in memory before any of it is read (libxml2's
nodes plus lxml's bookkeeping), so a 200 MB battle file would need gigabytes. Here the bytes are
fed to a pull parser in slices; each element named ``tag`` (MegaMek's ``<entity>``) is handed to
the caller as soon as it is complete, after its subtree passed the shape limits, and is then
emptied, so the tree never holds more than one entity's elements plus an empty shell per entity
(kept so the caller's walk finds every entity in document order).

The checks are the whole-tree path's, done on bytes and as the stream goes, so both paths accept
and refuse the same documents: the size cap, no DTD and no entity, strict well-formedness (a
truncated file fails at its end, never reads as a shorter list), MegaMek's unescaped ``&`` read
as text with a notice, a declaration's encoding ignored in favour of the bytes (UTF-8, else
Windows-1252 with a notice), and per-subtree limits on elements, attributes, depth and text.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from lxml import etree

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_model import Notice
from mekref.adapters.megamek.xml_safety import (
    DEFAULT_LIMITS,
    ReadLimits,
    check_subtree_shape,
    count_descendants,
    decode_untrusted,
    refuse_dtd,
    refuse_unreadable,
    safe_parser_options,
    shape_within_limits,
    stray_ampersand_notice,
    syntax_error,
)

#: Bytes handed to the parser at a time: large enough that Python's per-slice work is noise,
#: small enough that each slice's copy costs nothing to speak of.
SLICE_BYTES = 1 << 20

BOM = b"\xef\xbb\xbf"
DECLARATION = re.compile(rb"\A(\s*)<\?xml[^>]*\?>")
_DTD = re.compile(rb"<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST)\b", re.IGNORECASE)
_STRAY_AMPERSAND = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)")
#: Bytes after a slice's last ``&`` that may be its reference, cut by the slice's end: they
#: wait for the next slice (the longest reference the pattern must see whole is "&#x" and hex).
_REFERENCE_TAIL = 16


@dataclass(frozen=True)
class StreamedDocument:
    """The document's root once the stream ended: every consumed element is an empty shell in
    place (no attributes, no children), every other element is whole."""

    root: etree._Element
    notices: tuple[Notice, ...]


#: Called with each complete ``tag`` element; returns whether it consumed it (then it is
#: emptied). An element in a place the caller does not read from is left whole.
Consumer = Callable[[etree._Element], bool]


def stream_untrusted_xml(
    data: bytes,
    path: str,
    *,
    tag: str,
    consume: Consumer,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> StreamedDocument:
    """Parse ``data`` strictly and safely, handing each complete ``tag`` element to
    ``consume``, or raise :class:`MulReadError` with the same reasons as the whole-tree parse."""
    notices: list[Notice] = []
    body = prepared_body(data, path, limits, notices)
    parser = etree.XMLPullParser(events=("end",), tag=tag, **safe_parser_options())
    escapes = Escapes(body.bytes)
    # Elements already emptied: the shape checks see the rest of the tree as it is.
    emptied = 0
    # A shape refusal waits for the end of the parse: a file that is also not well-formed is
    # refused for that, as the whole-tree read does. Meanwhile elements are only emptied.
    refused: MulReadError | None = None
    try:
        for piece in escapes.slices(body.ranges):
            parser.feed(piece)
            done = [cast(etree._Element, element) for _event, element in parser.read_events()]
            if not done:
                continue
            if refused is None:
                try:
                    emptied = _take(done, path, len(data), limits, emptied, consume)
                except MulReadError as exc:
                    refused = exc
            if refused is not None:
                for element in done:
                    _empty(element)
        root = parser.close()
    except etree.XMLSyntaxError as exc:
        raise syntax_error(exc, last_line(body.bytes, body.start), path) from None
    if refused is not None:
        raise refused
    if escapes.count:
        notices.append(stray_ampersand_notice(escapes.first_line(body.start), escapes.count))
    # The rest of the document: the shells, the record's sections and kills, unknown elements.
    check_subtree_shape(root, path, len(data), limits, depth=1, count=True, counted=emptied)
    return StreamedDocument(root, tuple(notices))


@dataclass(frozen=True)
class Body:
    """A document's bytes as the parser is to get them: UTF-8 from ``start`` on, and in
    ``ranges`` (the XML declaration left out)."""

    bytes: bytes
    start: int
    ranges: list[tuple[int, int]]


def prepared_body(data: bytes, path: str, limits: ReadLimits, notices: list[Notice]) -> Body:
    """The checks made on the bytes before any parsing (size cap, empty file, DTD), the text
    re-encoded if it was not UTF-8 (with a notice), and the ranges the parser reads."""
    refuse_unreadable(data, path, limits.max_bytes)
    body, start = data, len(BOM) if data.startswith(BOM) else 0
    if not is_utf8(body, start):
        # Rare (a file edited on Windows): the whole-tree path's decoding gives the same notice
        # and text, and the stream reads its UTF-8 re-encoding (one copy of the file).
        body, start = decode_untrusted(data, notices).encode("utf-8"), 0
    dtd = _DTD.search(body, start) if body.find(b"<!", start) >= 0 else None
    if dtd:
        line = body.count(b"\n", start, dtd.start()) + 1
        column = dtd.start() - max(body.rfind(b"\n", start, dtd.start()), start - 1)
        raise refuse_dtd(path, dtd.group(1).decode("ascii"), line, column)
    ranges = [(start, len(body))]
    declared = DECLARATION.match(body, start)
    if declared:
        # Keep the whitespace before it (and so every line number); drop the declaration,
        # whose encoding names what the bytes were, not what they are now.
        ranges = [(start, declared.end(1)), (declared.end(), len(body))]
    return Body(body, start, ranges)


def _take(
    done: list[etree._Element],
    path: str,
    size: int,
    limits: ReadLimits,
    emptied: int,
    consume: Consumer,
) -> int:
    """Check each complete element's subtree, hand it over and empty it; returns the elements
    emptied so far (each shell itself stays, counted with the rest of the document)."""
    for element in done:
        depth = sum(1 for _ in element.iterancestors()) + 1
        inside = count_descendants(element)
        if emptied + inside > limits.max_elements or not shape_within_limits(
            element, limits, depth=depth
        ):
            check_subtree_shape(
                element, path, size, limits, depth=depth, count=True, counted=emptied
            )
        if consume(element):
            _empty(element)
            emptied += inside
    return emptied


def _empty(element: etree._Element) -> None:
    # Its tail is the whitespace after it, part of its parent's text: kept. (The stubs do not
    # know the keyword.)
    cast(Any, element).clear(keep_tail=True)


class Escapes:
    """Cut the body into slices and escape MegaMek's stray ``&`` in each. A reference cut by a
    slice's end would be misjudged, so a slice ends before a late ``&``."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.count = 0
        self._first: int | None = None

    def slices(self, ranges: list[tuple[int, int]], size: int = SLICE_BYTES) -> Iterator[bytes]:
        for begin, end in ranges:
            at = begin
            while at < end:
                stop = min(at + size, end)
                if stop < end:
                    late = self.body.rfind(b"&", max(at, stop - _REFERENCE_TAIL), stop)
                    stop = late if late > at else stop
                yield self._escaped(at, stop)
                at = stop

    def _escaped(self, begin: int, end: int) -> bytes:
        piece = self.body[begin:end]
        found = _STRAY_AMPERSAND.search(piece) if b"&" in piece else None
        if found is None:
            return piece
        if self._first is None:
            self._first = begin + found.start()
        self.count += len(_STRAY_AMPERSAND.findall(piece))
        return _STRAY_AMPERSAND.sub(b"&amp;", piece)

    def first_line(self, start: int) -> int:
        return self.body.count(b"\n", start, self._first or start) + 1


def is_utf8(body: bytes, start: int) -> bool:
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for at in range(start, len(body), SLICE_BYTES):
            decoder.decode(body[at : at + SLICE_BYTES])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def last_line(body: bytes, start: int) -> int:
    end = len(body)
    while end > start and body[end - 1] in b" \t\r\n":
        end -= 1
    return body.count(b"\n", start, end) + 1
