"""A BLK file as tags: the ``<tag>``...``</tag>`` blocks MegaMek writes, read into a
:class:`BlkDocument`, the typed reader of a tag's values, and one line of an equipment block.
The layer under :mod:`.blk_reader` and :mod:`.blk_parts`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mekref.adapters.megamek.design import (
    Equipment,
    UnitFileError,
)

# BLKFile engine codes (FUSION = 0 ... EXTERNAL = 13).
ENGINE_CODES: dict[int, str] = {
    0: "Fusion",
    1: "ICE",
    2: "XL",
    3: "XXL",
    4: "Light",
    5: "Compact",
    6: "Fuel Cell",
    7: "Fission",
    8: "None",
    9: "Maglev",
    10: "Steam",
    11: "Battery",
    12: "Solar",
    13: "External",
}


_OPEN = re.compile(r"^<([^<>/][^<>]*)>$")


_CLOSE = re.compile(r"^</([^<>]+)>$")


_BA_SHOTS = re.compile(r":Shots(\d+)#$", re.IGNORECASE)


_PROTO_SHOTS = re.compile(r"\s\((\d+)\)$")


_TRAILING_SUFFIX = re.compile(r"\s*\((ST|PT|T|FL|FR|RL|RR|R)\)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class BlkDocument:
    """The raw tag blocks of a BLK file: lower-cased tag -> values, and where each opened."""

    source: str
    tags: dict[str, tuple[str, ...]]
    lines: dict[str, int]
    #: Non-blank text found outside any block, with its line (kept, never silently dropped).
    stray: tuple[tuple[int, str], ...]


def parse_blk_tags(text: str, source: str) -> BlkDocument:
    tags: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int] = {}
    stray: list[tuple[int, str]] = []
    current: str | None = None
    current_name = ""
    opened_at = 0
    values: list[str] = []
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if current is None:
            if not line or line.startswith("#"):
                continue
            match = _OPEN.match(line)
            if match is None:
                stray.append((line_no, line))
                continue
            current_name = match.group(1).strip()
            current, opened_at, values = current_name.casefold(), line_no, []
            continue
        close = _CLOSE.match(line)
        if close is not None and close.group(1).strip().casefold() == current:
            # MegaMek's BuildingBlock keeps the first block of a name; later ones are kept
            # under a numbered key so nothing disappears.
            key = current
            n = 2
            while key in tags:
                key, n = f"{current}#{n}", n + 1
            tags[key] = tuple(values)
            lines[key] = opened_at
            current = None
            continue
        if line.startswith("#") or not line:
            continue
        # Anything else, even "</p>" from HTML fluff, is a value: a misplaced close tag shows
        # up as this block never closing, which is reported at its opening line.
        values.append(line)
    if current is not None:
        raise UnitFileError(
            source, f"<{current_name}> is never closed (truncated file?)", opened_at
        )
    return BlkDocument(source=source, tags=tags, lines=lines, stray=tuple(stray))


class _Reader:
    """Typed access to a BlkDocument, raising UnitFileError with the tag's line."""

    def __init__(self, doc: BlkDocument) -> None:
        self.doc = doc

    def text(self, tag: str) -> str | None:
        found = self.doc.tags.get(tag)
        if not found:
            return None
        return found[0]

    def all(self, tag: str) -> tuple[str, ...]:
        return self.doc.tags.get(tag, ())

    def error(self, tag: str | None, message: str) -> UnitFileError:
        line = self.doc.lines.get(tag) if tag else None
        return UnitFileError(self.doc.source, message, line)

    def integer(self, tag: str, default: int | None = None) -> int | None:
        found = self.text(tag)
        if found is None:
            return default
        try:
            return int(found)
        except ValueError:
            try:
                as_float = float(found)
            except ValueError:
                raise self.error(tag, f"<{tag}> is not a number: {found!r}") from None
            if not as_float.is_integer():
                raise self.error(tag, f"<{tag}> is not a whole number: {found!r}") from None
            return int(as_float)

    def number(self, tag: str) -> float | None:
        found = self.text(tag)
        if found is None:
            return None
        try:
            return float(found)
        except ValueError:
            raise self.error(tag, f"<{tag}> is not a number: {found!r}") from None


def parse_equipment_line(raw: str, location: int, location_name: str) -> Equipment:
    """An equipment line: ``(R) (B) Name``, ``Name:20`` (bay ammo), ``Name:Body:Shots2#`` (BA),
    ``Name (10)`` (ProtoMek ammo), ``Name:OMNI``, ``Name(T)``, ``Name:SIZE:2.0``."""
    text = raw.strip()
    rear = bay = False
    while True:
        upper = text[:4].upper()
        if upper == "(R) ":
            rear, text = True, text[4:].lstrip()
        elif upper == "(B) ":
            bay, text = True, text[4:].lstrip()
        else:
            break
    shots: int | None = None
    modifiers: list[str] = []
    match = _BA_SHOTS.search(text)
    if match is not None:
        shots, text = int(match.group(1)), text[: match.start()]
    size_at = text.upper().find(":SIZE:")
    if size_at > 0:
        modifiers.append(text[size_at + 1 :])
        text = text[:size_at]
    head, *parts = text.split(":")
    for part in parts:
        part = part.strip()
        if part.isdigit() and shots is None:
            shots = int(part)
        elif part:
            modifiers.append(part)
    name = head.strip()
    while (suffix := _TRAILING_SUFFIX.search(name)) is not None:
        if suffix.group(1).upper() == "R":
            rear = True
        else:
            modifiers.append(f"({suffix.group(1).upper()})")
        name = name[: suffix.start()].rstrip()
    proto = _PROTO_SHOTS.search(name)
    if proto is not None and "ammo" in name.casefold():
        shots, name = int(proto.group(1)), name[: proto.start()].rstrip()
    return Equipment(
        name=name,
        location=location,
        location_name=location_name,
        raw=raw.strip(),
        rear=rear,
        bay_start=bay,
        shots=shots,
        modifiers=tuple(modifiers),
    )
