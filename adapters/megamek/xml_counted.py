"""Parse a whole untrusted XML document with its shape counted while the tree is built.

:func:`~mekref.adapters.megamek.xml_safety.parse_untrusted_xml` checks a document's shape
after libxml2 has built the whole tree. That is fine for a file read from disk (its size cap
bounds the tree), but a savegame is gzipped: 65 KB of gzip unzip to 67 MB of ``<a/>``, 16.8
million elements whose tree took 2.4 GB before any count ran (and then broke libxml2's XPath).
Here the bytes go to a pull parser in small slices and every start and end tag is counted as
it is parsed, so a document with too many elements or too deep a nesting is refused as soon as
it passes the limit, with the tree at most one slice past it.

The other checks are the whole-tree read's and give the same reasons (they share
:mod:`.xml_stream`'s byte-level preparation): the size cap, no DTD and no entity, strict
well-formedness, MegaMek's unescaped ``&`` read as text with a notice, UTF-8 else Windows-1252
with a notice, and the attribute and text limits, checked in C once the (bounded) tree is
complete. One difference: the whole-tree read refuses a document that is both over a limit and
not well-formed for its syntax; here the limit is met first, and wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from lxml import etree

from mekref.adapters.megamek.mul_model import Notice
from mekref.adapters.megamek.xml_safety import (
    DEFAULT_LIMITS,
    ReadLimits,
    check_attributes_and_text,
    refuse_depth,
    refuse_elements,
    safe_parser_options,
    stray_ampersand_notice,
    syntax_error,
)
from mekref.adapters.megamek.xml_stream import Escapes, last_line, prepared_body

#: Bytes fed to the parser at a time. A slice holds at most 16,384 elements (``<a/>`` is the
#: smallest), so a document is refused with its tree at most that far past the element limit;
#: the real savegame (1.3 MB of XML) is 20 slices, whose Python cost is noise.
COUNT_SLICE_BYTES = 64 * 1024


@dataclass(frozen=True)
class CountedDocument:
    root: etree._Element
    notices: tuple[Notice, ...]
    #: The document's elements, counted while it was parsed.
    elements: int


def parse_counted_xml(
    data: bytes, path: str, *, limits: ReadLimits = DEFAULT_LIMITS
) -> CountedDocument:
    """Parse ``data`` strictly and safely, refusing it (:class:`MulReadError`) as soon as it
    has more elements or deeper nesting than ``limits`` allow."""
    notices: list[Notice] = []
    body = prepared_body(data, path, limits, notices)
    parser = etree.XMLPullParser(events=("start", "end"), **safe_parser_options())
    escapes = Escapes(body.bytes)
    shape = _Shape(path, limits)
    try:
        for piece in escapes.slices(body.ranges, COUNT_SLICE_BYTES):
            parser.feed(piece)
            shape.count(parser)
        root = parser.close()
    except etree.XMLSyntaxError as exc:
        # What was parsed before the error is counted first: libxml2 stops a document nested
        # 256 deep itself, and the limit is the reason a person should read.
        shape.count(parser)
        raise syntax_error(exc, last_line(body.bytes, body.start), path) from None
    if escapes.count:
        notices.append(stray_ampersand_notice(escapes.first_line(body.start), escapes.count))
    # Attributes per element and text lengths, in C over a tree the counts above bounded.
    check_attributes_and_text(root, path, len(data), limits)
    return CountedDocument(root, tuple(notices), shape.elements)


class _Shape:
    """The elements and the nesting depth so far, from the parser's start and end events."""

    def __init__(self, path: str, limits: ReadLimits) -> None:
        self.path = path
        self.limits = limits
        self.elements = 0
        self.depth = 0

    def count(self, parser: etree.XMLPullParser) -> None:
        limits = self.limits
        for event, element in parser.read_events():
            if event == "end":
                self.depth -= 1
                continue
            self.elements += 1
            self.depth += 1
            if self.elements > limits.max_elements:
                raise refuse_elements(self.path, self.elements, limits, at_least=True)
            if self.depth > limits.max_depth:
                line: object = cast(etree._Element, element).sourceline
                raise refuse_depth(self.path, limits, line if isinstance(line, int) else None)
