"""Where the event reader's elements stand in the file's bytes (:mod:`mul_events`).

The parser's events carry no position and, in that reader, no text: asking lxml for the text
between tags cost a third of the parse again, for the few texts the model reads. Those are
read from the bytes instead: an entity's line, a location's name, the generic battle value.
The n-th start tag of a name in the bytes is the n-th the parser met (it meets them in
document order), so the reader only counts them, and the lines and names are found when one
is first read (:class:`~mekref.adapters.megamek.mul_model.FromTag`), all at once.

That holds in the files the event reader takes (:func:`mul_events._plan`): no comment, CDATA
section or processing instruction (where "<entity" could stand as text), UTF-8, no lone
carriage return (libxml2 counts one as a line). The bytes are let go once both are found.
"""

from __future__ import annotations

import re
from typing import Any

from mekref.adapters.megamek.mul_vocabulary import BLOWN_OFF_SUFFIX

#: A whole start tag, its values quoted either way (the parser found it well-formed).
_START_TAG = re.compile(rb"""<[^\s/>]+(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*/?>""")
#: What may stand before a value's opening quote (34 is the code of '"').
_BEFORE_VALUE = b"= \t\r\n"
_ENTITY = re.compile(rb"<entity[\s/>]")
_LOCATION = re.compile(rb"<location[\s/>]")
#: The five references XML predefines, and character references (no others: no DTD).
_REFERENCE = re.compile(r"&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);")
_PREDEFINED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


class Document:
    """A file's bytes, kept until its entities' lines and locations' names are first read."""

    def __init__(self, body: bytes) -> None:
        self._body: bytes | None = body
        self._lines: list[int] = []
        self._names: list[tuple[str, bool]] = []

    def line(self, nth: int) -> int:
        """The line of the n-th ``<entity>`` (lxml's: the line its start tag ends on)."""
        self._find()
        return self._lines[nth]

    def location(self, nth: int) -> tuple[str, bool]:
        """The n-th ``<location>``'s name, and whether it says the location was blown off."""
        self._find()
        return self._names[nth]

    def _find(self) -> None:
        body = self._body
        if body is None:
            return
        lines: list[int] = []
        line, counted = 1, 0
        for found in _ENTITY.finditer(body):
            end = _tag_end(body, found.start())
            line += body.count(b"\n", counted, end)
            counted = end
            lines.append(line)
        names: list[tuple[str, bool]] = []
        made: dict[bytes, tuple[str, bool]] = {}
        for found in _LOCATION.finditer(body):
            raw = _location_text(body, found.start())
            named = made.get(raw)
            if named is None:
                named = made[raw] = _named(" ".join(text(raw).split()))
            names.append(named)
        # Set whole, then the bytes let go: a thread reading beside this one finds either
        # the bytes or both lists.
        self._lines, self._names = lines, names
        self._body = None


def _tag_end(body: bytes, at: int) -> int:
    """Where the start tag at ``at`` ends (its ``>``)."""
    end = body.find(b">", at)
    # That ">" ends the tag if it follows a value's closing quote and no value is quoted with
    # "'" (MegaMek's way); else the tag is matched whole, values and all.
    if body[end - 1] != 34 or body[end - 2] in _BEFORE_VALUE or body.find(b"'", at, end) >= 0:
        found = _START_TAG.match(body, at)
        end = found.end() - 1 if found is not None else end
    return end


def _location_text(body: bytes, at: int) -> bytes:
    """The text that names the location at ``at``, as the tree reader takes it: its own text,
    or the text after it when it has neither text nor children (MegaMek writes a destroyed
    location as ``<location .../> Name``)."""
    end = _tag_end(body, at)
    after = body.find(b"<", end + 1)
    raw = body[end + 1 : after]  # its text; after "/>", the text after it
    if body[end - 1] != 47 and body[after + 1 : after + 2] == b"/":  # no children
        own = text(raw)
        if not own or own.isspace():
            end = body.find(b">", after)  # the text after its end tag
            raw = body[end + 1 : body.find(b"<", end + 1)]
    return raw


def _named(name: str) -> tuple[str, bool]:
    # The suffix follows the name after a space; with an empty name only its words remain.
    if f" {name}".endswith(BLOWN_OFF_SUFFIX):
        return f" {name}"[: -len(BLOWN_OFF_SUFFIX)].strip(), True
    return name, False


def text(raw: bytes) -> str:
    """The text of raw bytes between two tags, as the parser gives it: references decoded
    (and a stray ``&``, which the readers take as text, kept)."""
    decoded = raw.decode("utf-8")
    if "&" in decoded:
        decoded = _REFERENCE.sub(_decode_reference, decoded)
    return decoded


def _decode_reference(found: re.Match[str]) -> str:
    name = found.group(1)
    if name[0] != "#":
        return _PREDEFINED[name]
    return chr(int(name[2:], 16) if name[1] == "x" else int(name[1:]))


def own_text(body: bytes, needle: bytes, nth: int) -> str:
    """The text the n-th start tag ``needle`` opens, up to its first child or its end ("" for
    none). For the rare elements read so (one per file at most): it scans from the start."""
    pattern = re.compile(re.escape(needle) + rb"[\s/>]")
    for count, found in enumerate(pattern.finditer(body)):
        if count == nth:
            end = _tag_end(body, found.start())
            if body[end - 1] == 47:
                return ""
            return text(body[end + 1 : body.find(b"<", end + 1)])
    raise ValueError(f"no start tag {needle!r} number {nth}")


class LocationNames:
    """The shape (:class:`~mekref.adapters.megamek.mul_model.FromTag`) of a file's locations:
    their names, and blown off when the name says so, from the document."""

    def __init__(self, document: Document) -> None:
        self.document = document

    def read(self, field: str, state: dict[str, Any], default: object) -> Any:
        name, blown_off = self.document.location(state["_nth"])
        if field == "name":
            return name
        if field == "blown_off":
            return blown_off
        return default
