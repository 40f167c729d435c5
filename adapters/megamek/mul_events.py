"""Read a MUL file from the XML parser's events, building no tree: the usual path of
:func:`~mekref.adapters.megamek.mul_reader.read_mul_bytes`.

The tree reader builds libxml2's tree (about 13 times the file in memory), then asks lxml for
a Python proxy and an attribute list per element: most of its time. Here the same parser, with
the same safe options, calls back once per start tag with its attributes as a dict and once per
end tag, and the model is built from those directly. The few texts the model reads (a
location's name) and the entities' lines are read from the bytes (:mod:`mul_positions`).

The tree reader stays the reference. This one reads what MegaMek writes and returns ``None``
(read it with the tree reader) for anything else: whatever the tree reader refuses or reports
with a line (a bad value, an unknown element, a shape limit, a syntax or namespace error) and
whatever this reader could not tell apart from it (a DTD, comment, CDATA section or processing
instruction, a file that is not UTF-8, a reference in a text it reads, an element kept
verbatim). So both give the same model, notices, lines and errors for every file; the tests
compare them on real, mutated and crafted files. A refused file is read twice, which costs
nothing that matters.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

from lxml import etree

from mekref.adapters.megamek.mul_events_model import (
    LOCATION_FLAGS,
    EventError,
    armor_of,
    bomb_of,
    crew_of,
    entity_child,
    entity_state,
    kill_of,
    location_flag,
    location_of,
    location_state,
    mul_file,
    pilot_crew,
    slot_of,
)
from mekref.adapters.megamek.mul_model import (
    Bomb,
    Entity,
    Kill,
    Location,
    MulFile,
    Notice,
    RootKind,
    Section,
    Slot,
    sparse,
)
from mekref.adapters.megamek.mul_positions import Document, LocationNames, own_text
from mekref.adapters.megamek.xml_safety import (
    ReadLimits,
    safe_parser_options,
    stray_ampersand_notice,
)
from mekref.adapters.megamek.xml_stream import BOM, SLICE_BYTES, Escapes, is_utf8

#: The deepest element the reader reads (a record's slot); deeper ones are in subtrees it
#: ignores, whose depth _Reader._nested checks. A lower limit is left to the tree reader.
_MEGAMEK_DEPTH = 5
#: The declaration, wherever the byte order mark leaves it (``xml_stream``'s is anchored at 0).
_DECLARATION = re.compile(rb"(\s*)<\?xml[^>]*\?>")

# What an open element's children are read as: its state. The root's children, a record
# section's entities, and so on; _LEAF is any element whose children are ignored.
(_DOCUMENT, _UNIT, _RECORD, _SECTION, _KILLS, _ENTITY) = range(6)
(_LOCATION, _CREW, _BOMBS, _LEAF) = range(6, 10)
# An element whose children are not read is not a state on the stack: _Reader._leaf counts
# the open elements from it down, which spares a push and a pop for most elements.

_SECTIONS = {s.value: s for s in Section if s is not Section.UNIT}
Attrib = Mapping[str, str]
_make_entity = sparse(Entity)


def read_mul_events(data: bytes, path: str, limits: ReadLimits) -> MulFile | None:
    """The file's model, or ``None`` when it takes the tree reader (see the module's doc)."""
    plan = _plan(data, limits)
    if plan is None:
        return None
    escapes = Escapes(data)
    parser, reader = _take_parser()
    reader.begin(data, limits)
    paused = gc.isenabled()
    if paused:
        # The model is tens of thousands of objects that live on, and none in a cycle: the
        # collector would walk them again and again as they pile up (a quarter of the time of
        # a 20,000-unit file) for nothing to free. It resumes as soon as the parse is over.
        gc.disable()
    try:
        if b"&" in data or len(data) > SLICE_BYTES:
            for piece in escapes.slices(plan):
                parser.feed(piece)
        else:
            for begin, end in plan:
                parser.feed(data[begin:end])
        parser.close()
    except (etree.XMLSyntaxError, EventError, ValueError):
        return None  # the parser is dropped: it may be left mid-document
    finally:
        if paused:
            gc.enable()
    # The tree reader refuses a document with namespace errors, which the event parser only logs.
    clean = not len(parser.feed_error_log)
    notices = []
    if escapes.count:
        notices.append(stray_ampersand_notice(escapes.first_line(0), escapes.count))
    read = reader.finish(tuple(notices))
    if len(_IDLE) < _MAX_IDLE:
        _IDLE.append((parser, reader))
    return read if clean else None


#: Parsers with their readers, ready for the next file. Making one costs more than reading a
#: small file (libxml2's parser context, lxml's inspection of the target's methods). A parser
#: in use is out of the list, so no two threads share one (``list.pop`` and ``append`` are
#: atomic); a parser that raised is not put back.
_IDLE: list[tuple[etree.XMLParser, _Reader]] = []
_MAX_IDLE = 4


def _take_parser() -> tuple[etree.XMLParser, _Reader]:
    try:
        return _IDLE.pop()
    except IndexError:
        reader = _Reader()
        # (lxml's stubs expect every method a target may have; this one has a few.)
        return etree.XMLParser(target=cast(Any, reader), **safe_parser_options()), reader


def _plan(data: bytes, limits: ReadLimits) -> list[tuple[int, int]] | None:
    """The ranges of ``data`` to feed the parser (without the declaration, whose encoding the
    tree reader ignores too), or ``None``."""
    size = len(data)
    if not 0 < size <= limits.max_bytes or limits.max_depth < _MEGAMEK_DEPTH:
        return None
    start = len(BOM) if data.startswith(BOM) else 0
    if not data.isascii() and not _is_utf8(data, start):
        return None  # read as Windows-1252 by the tree reader, with a notice
    # The searches for single bytes run at memory speed; most files have no "!" or "?" at all.
    if data.find(b"!") >= 0 and data.find(b"<!") >= 0:
        return None  # a DTD (refused), a comment or a CDATA section
    declared = _DECLARATION.match(data, start)
    after = start
    ranges = [(start, size)]
    if declared is not None:
        after = declared.end()
        if data.find(b"\n", declared.end(1), after) >= 0:
            return None  # the tree reader drops it with its newlines: lines would differ
        ranges = [(start, declared.end(1)), (after, size)]
    if data.find(b"?", after) >= 0 and data.find(b"<?", after) >= 0:
        return None  # a processing instruction
    if data.find(b"\r") >= 0 and data.count(b"\r") != data.count(b"\r\n"):
        return None  # a lone carriage return: libxml2's line count is not ours
    if not _within_text_limit(data, limits.max_text_chars):
        return None
    # A file under 4 bytes per allowed element cannot hold too many; else count the start
    # tags (every "<" now opens a tag, ends one, or is the declaration's).
    max_elements = limits.max_elements
    if size >= 4 * max_elements:
        tags = data.count(b"<") - data.count(b"</") - (declared is not None)
        if tags > max_elements:
            return None
    return ranges


def _is_utf8(data: bytes, start: int) -> bool:
    if len(data) > SLICE_BYTES:
        return is_utf8(data, start)  # slice by slice: no copy of a large file
    try:
        data[start:].decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _within_text_limit(data: bytes, cap: int) -> bool:
    """Whether no text and no attribute value can be longer than ``cap`` characters: neither
    contains "<" (no CDATA here), so each lies in a run of bytes without one, and a run of
    2 * step - 1 bytes or more covers a whole aligned window of ``step`` bytes."""
    if len(data) <= cap:
        return True
    step = cap // 2 + 1
    if step < 1024:
        return False  # a tiny limit: the tree reader judges (and such files are small)
    find = data.find
    return all(find(b"<", at, at + step) >= 0 for at in range(0, len(data) - step + 1, step))


class _Reader:
    """The parser's target. Each open element has a state (how its children are read); the
    states of its ancestors wait on a stack. It has no ``data``: lxml then hands over no
    text at all, which spares making a string of every blank between two tags."""

    def __init__(self) -> None:
        self.begin(b"", _NO_LIMITS)

    def begin(self, body: bytes, limits: ReadLimits) -> None:
        """Set up for the next document (a reader and its parser read many, one at a time)."""
        self._body = body
        self._document = Document(body)
        self._names = LocationNames(self._document)
        self._entities_met = 0
        self._locations_met = 0
        self._battle_values_met = 0
        self._amp = b"&" in body
        self._max_attributes = limits.max_attributes
        self._max_depth = limits.max_depth
        self._state = _DOCUMENT
        self._states: list[int] = []
        self._leaf = 0
        self._root = RootKind.UNIT
        self._version: str | None = None
        self._entities: list[Entity] = []
        self._kills: list[Kill] = []
        self._gbv: int | None = None
        self._section = Section.UNIT
        self._plain: dict[Any, Slot] = {}
        self._notices: list[Notice] = []
        self._reported: set[str] = set()
        self._crew_attrib: Attrib = {}
        self._members: list[Attrib] = []
        self._entity_begin({})
        self._loc_values: dict[str, Any] = {}
        self._slots: list[Slot] = []

    def _entity_begin(self, state: dict[str, Any]) -> None:
        self._entity = state
        self._locations: list[Location] = []
        self._escape_craft: list[str] = []
        self._bombs: list[Bomb] | None = None

    # ---- the parser's calls ------------------------------------------------------------------

    def start(self, tag: str, attrib: Attrib) -> None:
        if len(attrib) > self._max_attributes:
            raise EventError
        if self._leaf:  # inside an element whose children are not read
            self._nested(tag)
            return
        state = self._state
        if self._amp and attrib and "&" in "".join(attrib.values()):
            attrib = _unescaped(attrib)
        if state == _LOCATION:
            # A location's children: most elements of a large file, most of them slots.
            self._leaf = 1
            if tag == "slot":
                key = (attrib.get("index"), attrib.get("type"), attrib.get("shots"))
                slot = self._plain.get(key)
                if slot is None or len(attrib) != 3 - (key[2] is None):
                    slot = slot_of(attrib, self._plain, key)
                self._slots.append(slot)
            else:
                self._location_child(tag, attrib)
        elif state == _ENTITY and tag == "pilot":
            self._leaf = 1
            self._entity["crew"] = pilot_crew(attrib)
        elif state == _ENTITY and tag == "location":
            self._states.append(state)
            self._state = _LOCATION
            self._loc_values = location_state(attrib, self._names, self._locations_met)
            self._slots = []
            self._locations_met += 1
        else:
            opened = _OPEN[state](self, tag, attrib)
            if opened == _LEAF:
                self._leaf = 1
            else:
                self._states.append(state)
                self._state = opened

    def _location_child(self, tag: str, attrib: Attrib) -> None:
        if tag == "armor":
            field, points = armor_of(attrib)
            self._loc_values[field] = points
        else:
            flag = LOCATION_FLAGS.get(tag)
            if flag is None:
                raise EventError  # an unknown element: the tree reader reports it with its line
            self._loc_values[flag] = location_flag(attrib, tag)

    def end(self, tag: str) -> None:
        leaf = self._leaf
        if leaf:
            self._leaf = leaf - 1
            return
        state = self._state
        self._state = self._states.pop()
        if state == _LOCATION:
            self._locations.append(location_of(self._loc_values, self._slots))
        elif state == _ENTITY:
            self._entity_end()
        elif state == _CREW:
            self._entity["crew"] = crew_of(self._crew_attrib, self._members)

    def close(self) -> None:
        return None

    def finish(self, notices: tuple[Notice, ...]) -> MulFile:
        """The document read, and nothing of it kept (the reader waits for the next one)."""
        notices += tuple(self._notices)
        read = mul_file(self._root, self._version, self._entities, self._kills, self._gbv, notices)
        # Let go of the document now (``begin`` sets up everything else for the next one).
        self._body = b""
        self._document = self._entity = self._entities = None  # type: ignore[assignment]
        return read

    # ---- the document and its sections -------------------------------------------------------

    def _root_open(self, tag: str, attrib: Attrib) -> int:
        self._version = attrib.get("version")
        if tag == "unit":
            return _UNIT
        if tag == "record":
            self._root = RootKind.RECORD
            return _RECORD
        raise EventError

    def _unit_child(self, tag: str, attrib: Attrib) -> int:
        if tag == "entity":
            return self._entity_open(attrib, Section.UNIT)
        if tag == "TotalGenericBattleValue":
            nth = self._battle_values_met
            self._battle_values_met += 1
            raw = own_text(self._body, b"<TotalGenericBattleValue", nth)
            self._gbv = int(raw.strip())
            return _LEAF
        raise EventError

    def _record_child(self, tag: str, attrib: Attrib) -> int:
        section = _SECTIONS.get(tag)
        if section is not None:
            self._section = section
            return _SECTION
        if tag == "kills":
            return _KILLS
        raise EventError

    def _section_child(self, tag: str, attrib: Attrib) -> int:
        if tag == "entity":
            return self._entity_open(attrib, self._section)
        raise EventError

    def _kills_child(self, tag: str, attrib: Attrib) -> int:
        if tag != "kill":
            raise EventError
        self._kills.append(kill_of(attrib))
        return _LEAF

    def _nested(self, tag: str) -> None:
        """An element inside one whose children are not read (the tree reader ignores it too):
        only its depth is checked, and counted if its start tag is read from the bytes."""
        self._leaf += 1
        if len(self._states) + self._leaf > self._max_depth:
            raise EventError
        self._met(tag)

    def _met(self, tag: str) -> None:
        # Not read, but its start tag is in the bytes: the next one of its name is not its.
        if tag == "entity":
            self._entities_met += 1
        elif tag == "location":
            self._locations_met += 1
        elif tag == "TotalGenericBattleValue":
            self._battle_values_met += 1

    # ---- entities ----------------------------------------------------------------------------

    def _entity_open(self, attrib: Attrib, section: Section) -> int:
        nth = self._entities_met
        self._entities_met += 1
        shape, state = entity_state(attrib, section, self._document, nth)
        self._entity_begin(state)
        for name in shape.unknown:
            if name not in self._reported:
                self._reported.add(name)
                message = f"unknown attribute {name}= on <entity> kept as-is"
                self._notices.append(Notice(self._document.line(nth), message))
        return _ENTITY

    def _entity_child(self, tag: str, attrib: Attrib) -> int:
        if tag == "crew":
            self._crew_attrib, self._members = attrib, []
            return _CREW
        if tag == "bombs":
            self._bombs = []
            return _BOMBS
        if entity_child(self._entity, self._escape_craft, tag, attrib):
            return _LEAF
        # An element kept verbatim, or one unknown to the model (the tree reader reports it
        # with its line), and location and pilot read in ``start``.
        raise EventError

    def _entity_end(self) -> None:
        state = self._entity
        if self._locations:
            state["locations"] = tuple(self._locations)
        if self._escape_craft:
            state["escape_craft"] = tuple(self._escape_craft)
        if self._bombs is not None:
            state["bombs"] = tuple(self._bombs)
        self._entities.append(_make_entity(state))

    # ---- crews and bombs ---------------------------------------------------------------------

    def _crew_child(self, tag: str, attrib: Attrib) -> int:
        if tag != "crewMember":
            raise EventError
        self._members.append(attrib)
        return _LEAF

    def _bombs_child(self, tag: str, attrib: Attrib) -> int:
        if tag == "bomb":
            cast(list[Bomb], self._bombs).append(bomb_of(attrib))
        else:
            self._met(tag)  # ignored, as the tree reader does
        return _LEAF


_NO_LIMITS = ReadLimits()

# How each state reads a child's start tag: plain functions, so that a reader holds no
# reference to itself and is freed as soon as the read is over. (A location's children,
# and an entity's locations and pilot, are read in ``start`` itself.)
_OPEN: list[Callable[[_Reader, str, Attrib], int]] = [
    _Reader._root_open,
    _Reader._unit_child,
    _Reader._record_child,
    _Reader._section_child,
    _Reader._kills_child,
    _Reader._entity_child,
    _Reader._entity_child,  # _LOCATION: read in ``start``
    _Reader._crew_child,
    _Reader._bombs_child,
]


def _unescaped(attrib: Attrib) -> dict[str, str]:
    """libxml2 hands an attribute's ``&`` to the event parser as ``&#38;`` when it does not
    substitute entities (``resolve_entities=False``); the tree holds ``&``."""
    return {k: v.replace("&#38;", "&") for k, v in attrib.items()}
