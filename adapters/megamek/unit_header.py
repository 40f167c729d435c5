"""What the unit catalog keeps of a unit file, read without parsing the whole design.

The catalog needs seven fields per file (chassis, model, kind, tonnage, MUL id, UUID and the
alternate reporting name); the full readers also parse every critical slot, weapon and armor
value, which is nearly all of their time. :func:`parse_unit_header` reads those seven fields
and checks what they need: the required lines are there, the kind is known, the numbers are
numbers, the tech base is known, and a ``.blk``'s every block is closed. The rest of the file
(slots, weapons, armor, crew...) is checked when the design is loaded
(:func:`~mekref.adapters.megamek.unit_file.parse_unit_file`), with the same error.

The header is the same as the full parse's for every file, by construction: the fast paths
below read a field only where the full reader would read that same line, and whenever a file
is not plainly laid out (a field's line after the first critical block or weapon list of an
``.mtf``, an unusual line break, a required field missing or malformed), they hand the file to
the full reader, which returns the design or raises its usual, precise error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

from mekref.adapters.megamek import blk_parts, blk_reader, mtf_reader
from mekref.adapters.megamek.bfs_reader import parse_bfs
from mekref.adapters.megamek.design import UnitDesign, UnitFileError
from mekref.adapters.megamek.unit_file import (
    MAX_UNIT_FILE_BYTES,
    base_name,
    parse_unit_file,
    suffix_of,
)
from mekref.adapters.megamek.unit_kinds import UnitKind


@dataclass(frozen=True, slots=True)
class UnitHeader:
    chassis: str
    model: str
    kind: UnitKind
    tonnage: float | None
    mul_id: int | None
    uuid: str | None
    #: The alternate reporting name (MTF ``clanname:``), used to match ``getFullChassis()``.
    clan_name: str | None


def header_of(design: UnitDesign) -> UnitHeader:
    """The header of a fully parsed design: what :func:`parse_unit_header` must equal."""
    clan = design.extra.get("clanname", ())
    # Every field but the reporting name is the design's field of the same name.
    same = {f.name: getattr(design, f.name) for f in fields(UnitHeader) if f.name != "clan_name"}
    return UnitHeader(**same, clan_name=clan[0] if clan and clan[0] else None)


def parse_unit_header(data: bytes, name: str) -> UnitHeader:
    """The catalog's fields of one unit file (raises UnitFileError like ``parse_unit_file``)."""
    suffix = suffix_of(name)
    if len(data) <= MAX_UNIT_FILE_BYTES and suffix in (".mtf", ".blk"):
        text = _plain_text(mtf_reader.decode_text(data))
        if text is not None:
            found = mtf_header(text) if suffix == ".mtf" else blk_header(text)
            if found is not None:
                return found
    if suffix == ".bfs" and len(data) <= MAX_UNIT_FILE_BYTES:
        # A YAML file is small and libyaml's loader does the work; no shortcut is safe there.
        return header_of(parse_bfs(mtf_reader.decode_text(data), base_name(name)))
    return header_of(parse_unit_file(data, name))


#: Line breaks that ``str.splitlines`` knows and ``re`` does not (besides ``\r``).
_ODD_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _plain_text(text: str) -> str | None:
    """The text with ``\\n`` line breaks only, between a leading and a trailing one (so every
    line starts after a ``\\n`` and ends before one), or None when it has line breaks that the
    fast paths' patterns would see differently from ``str.splitlines``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    for odd in _ODD_BREAKS:
        if odd in text:
            return None
    return f"\n{text}\n"


# ---- .mtf -----------------------------------------------------------------------------------

#: The ``.mtf`` keys the header reads, as the full reader normalises them.
_MTF_FIELDS = frozenset(
    {"chassis", "model", "config", "techbase", "mass", "mul id", "uuid", "clanname"}
)
#: A line of the case-folded body that the full reader would read as one of those keys.
_MTF_BODY_KEY = {
    key: re.compile(r"\n[^\S\n]*" + key.replace(" ", r"[^\S\n]+") + r"[^\S\n]*:")
    for key in _MTF_FIELDS
}


def _mtf_key(line: str) -> tuple[str, str] | None:
    """``(key, value)`` of a stripped, non-comment line as the full reader splits it."""
    key, sep, value = line.partition(":")
    if not sep:
        return None
    return " ".join(key.split()).casefold(), value


def mtf_header(text: str) -> UnitHeader | None:
    """The header of an ``.mtf`` text from :func:`_plain_text`, or None: read it in full.

    Up to the first critical block or ``Weapons:`` line (the head), every non-comment line is
    a ``key:value`` line to the full reader, read here the same way, and the first value of
    each key is what it keeps. A key of the header on any line of the body (where slot and
    weapon lines are read differently) sends the file to the full reader."""
    lines = text.split("\n")
    first: dict[str, str] = {}
    body = len(lines)
    for number, raw in enumerate(lines):
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        if line[-1] == ":" and line[:-1].strip().casefold() in mtf_reader._HEADERS:
            body = number
            break
        split = _mtf_key(line)
        if split is None:
            continue  # not a key:value line: the full reader refuses it when the design loads
        key, value = split
        if key == "weapons":
            body = number
            break
        if key in _MTF_FIELDS and key not in first:
            first[key] = value.strip()
    # A key the head lacks may still be on a line of the body that the full reader reads as
    # a key (after the critical blocks): then only the full reader knows its value.
    missing = [key for key in _MTF_FIELDS if key not in first]
    if missing:
        rest = "\n" + "\n".join(lines[body + 1 :])
        folded = rest.lower() if rest.isascii() else rest.casefold()
        for key in missing:
            if key.split()[0] in folded and _MTF_BODY_KEY[key].search(folded) is not None:
                return None
    chassis = first.get("chassis")
    mass = first.get("mass")
    if not chassis or not mass:
        return None
    config = (first.get("config") or "Biped").strip()
    kind = mtf_reader._CONFIGS.get(
        config.casefold().replace("omnimech", "").replace("omnimek", "").strip()
    )
    techbase = (first.get("techbase") or "Inner Sphere").strip().casefold()
    if kind is None or techbase not in mtf_reader._TECH_BASES:
        return None
    try:
        tonnage = float(mass)
        mul_text = first.get("mul id")
        mul_id = mtf_reader._int(mul_text, "", 0, "mul id") if mul_text else None
    except (ValueError, UnitFileError):
        return None
    clan = first.get("clanname")
    return UnitHeader(
        chassis=chassis,
        model=first.get("model") or "",
        kind=kind,
        tonnage=tonnage,
        mul_id=mul_id,
        uuid=first.get("uuid") or None,
        clan_name=clan or None,
    )


# ---- .blk -----------------------------------------------------------------------------------

# A line that is a tag once stripped: ``<Name>`` opens a block, ``</Name>`` closes one.
_BLK_TAG = re.compile(r"\n[^\S\n]*<(/?)([^<>\n]*)>[^\S\n]*(?=\n)")
_BLK_WANTED = frozenset(
    {"unittype", "superheavy", "name", "type", "tonnage", "model", "mul id:", "uuid", "clanname"}
)


def blk_header(text: str) -> UnitHeader | None:
    """The header of a ``.blk`` text from :func:`_plain_text`, or None: read it in full.

    Walks the tag lines only, as the full reader's block loop sees them (inside a block only
    its own close tag counts), and reads the first value of the first block of each wanted
    tag. A block never closed sends the file to the full reader, which names it."""
    blocks: dict[str, tuple[int, int]] = {}
    current: str | None = None
    opened_at = 0
    for match in _BLK_TAG.finditer(text):
        slash, name = match.group(1), match.group(2)
        if current is None:
            if not slash and name:
                current, opened_at = name.strip().casefold(), match.end()
            continue
        if slash and name and name.strip().casefold() == current:
            if current in _BLK_WANTED and current not in blocks:
                blocks[current] = (opened_at, match.start())
            current = None
    if current is not None:
        return None

    def value(tag: str) -> str | None:
        span = blocks.get(tag)
        if span is None:
            return None
        for line in text[span[0] : span[1]].split("\n"):
            line = line.strip()
            if line and not line.startswith("#"):
                return line
        return None

    unit_type = value("unittype")
    chassis = value("name")
    type_text = value("type")
    if unit_type is None or not chassis or type_text is None:
        return None
    kind, _support = blk_reader._UNIT_TYPES.get(
        unit_type.replace(" ", "").casefold(), (UnitKind.UNKNOWN, False)
    )
    if kind is UnitKind.TANK and "superheavy" in blocks:
        kind = UnitKind.SUPERHEAVY_TANK
    tonnage_text = value("tonnage")
    mul_text = value("mul id:")
    try:
        blk_reader.parse_tech_type(type_text)
        tonnage = None if tonnage_text is None else float(tonnage_text)
        mul_id = None if mul_text is None else mtf_reader._int(mul_text, "", 0, "mul id")
    except (ValueError, UnitFileError):
        return None
    if tonnage is None and kind not in blk_parts._NO_TONNAGE:
        return None
    clan = value("clanname")
    return UnitHeader(
        chassis=chassis,
        model=value("model") or "",
        kind=kind,
        tonnage=tonnage,
        mul_id=mul_id,
        uuid=value("uuid"),
        clan_name=clan or None,
    )
