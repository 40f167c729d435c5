"""Read MegaMek ``.mtf`` Mek files (reference 5.1): ``key:value`` lines plus critical blocks.

Keys are case-insensitive (``Mass:`` and ``mass:`` both occur), ``#`` starts a comment line.
A critical block is a location header (``Left Arm:``) followed by up to 12 slot lines; the
``Weapons:N`` key is followed by N ``name, location`` lines. Keys the reader does not model
go to ``UnitDesign.extra`` with every value they had.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache, lru_cache

from mekref.adapters.megamek.design import (
    AmmoBin,
    CritSlot,
    EngineInfo,
    Equipment,
    LocationStats,
    RulesLevel,
    SystemKind,
    TechBase,
    UnitDesign,
    UnitFileError,
)
from mekref.adapters.megamek.structure_tables import mek_internal
from mekref.adapters.megamek.unit_kinds import LOCATION_NAMES, UnitKind

SLOTS_PER_LOCATION = 12

_CONFIGS: dict[str, UnitKind] = {
    "biped": UnitKind.BIPED_MEK,
    "quad": UnitKind.QUAD_MEK,
    "tripod": UnitKind.TRIPOD_MEK,
    "lam": UnitKind.LAM,
    "quadvee": UnitKind.QUADVEE,
}

_TECH_BASES: dict[str, TechBase] = {
    "inner sphere": TechBase.INNER_SPHERE,
    "clan": TechBase.CLAN,
    "mixed (is chassis)": TechBase.MIXED_IS_CHASSIS,
    "mixed (clan chassis)": TechBase.MIXED_CLAN_CHASSIS,
    # Very old files say just "Mixed"; MegaMek's MtfFile reads that as an IS chassis.
    "mixed": TechBase.MIXED_IS_CHASSIS,
}

# Armor labels -> (location index, rear?). Quad labels FRL/FLL/RRL/RLL and tripod CL are marked
# unverified in the reference; they follow MegaMek's location abbreviations.
_ARMOR_LABELS: dict[str, tuple[int, bool]] = {
    "hd": (0, False),
    "ct": (1, False),
    "rt": (2, False),
    "lt": (3, False),
    "ra": (4, False),
    "la": (5, False),
    "rl": (6, False),
    "ll": (7, False),
    "frl": (4, False),
    "fll": (5, False),
    "rrl": (6, False),
    "rll": (7, False),
    "cl": (8, False),
    "rtc": (1, True),
    "rtr": (2, True),
    "rtl": (3, True),
}

# System slot names as MTF writes them (MegaMek ``Mek.systemNames`` plus "Actuator").
_SYSTEMS: dict[str, SystemKind] = {
    "life support": SystemKind.LIFE_SUPPORT,
    "sensors": SystemKind.SENSORS,
    "cockpit": SystemKind.COCKPIT,
    "engine": SystemKind.ENGINE,
    "fusion engine": SystemKind.ENGINE,
    "gyro": SystemKind.GYRO,
    "shoulder": SystemKind.SHOULDER,
    "upper arm": SystemKind.UPPER_ARM,
    "lower arm": SystemKind.LOWER_ARM,
    "hand": SystemKind.HAND,
    "hip": SystemKind.HIP,
    "upper leg": SystemKind.UPPER_LEG,
    "lower leg": SystemKind.LOWER_LEG,
    "foot": SystemKind.FOOT,
    "avionics": SystemKind.AVIONICS,
    "landing gear": SystemKind.LANDING_GEAR,
}

_SLOT_SUFFIX = re.compile(r"\s*\((R|T|OMNIPOD|ARMORED)\)\s*$", re.IGNORECASE)
_ENGINE = re.compile(r"^\s*(\d+)\s+(.*?)\s*(?:\((IS|Clan)\))?\s*$", re.IGNORECASE)
_LEADING_INT = re.compile(r"^\s*(\d+)")

# Keys the reader turns into typed fields; everything else lands in ``extra``.
_MODELLED = frozenset(
    {
        "chassis", "model", "mul id", "config", "techbase", "era", "rules level", "mass",
        "engine", "structure", "heat sinks", "walk mp", "jump mp", "armor", "weapons", "uuid",
        "quirk",
    }
)  # fmt: skip


@cache
def _location_headers(kind: UnitKind) -> dict[str, int]:
    """Header text -> location index (cached: callers only read it)."""
    return {name.casefold(): index for index, name in enumerate(LOCATION_NAMES[kind])}


def _all_headers() -> frozenset[str]:
    names: set[str] = set()
    for kind in _CONFIGS.values():
        names.update(_location_headers(kind))
    return frozenset(names)


_HEADERS = _all_headers()


def decode_text(data: bytes) -> str:
    """Unit files are UTF-8 in practice; a few old ones are Windows-1252. Never fails."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _int(value: str, source: str, line: int, what: str) -> int:
    try:
        return int(value.strip())
    except ValueError:
        try:
            as_float = float(value.strip())
        except ValueError:
            raise UnitFileError(
                source, f"{what} is not a number: {value.strip()!r}", line
            ) from None
        if not as_float.is_integer():
            raise UnitFileError(source, f"{what} is not a whole number: {value!r}", line) from None
        return int(as_float)


def _system_of(name: str) -> SystemKind | None:
    key = name.casefold()
    if key.endswith(" actuator"):
        key = key[: -len(" actuator")]
    return _SYSTEMS.get(key)


#: What a slot line says, apart from its index: ``(raw, name, system, rear, turret, omnipod,
#: armored)``. A file has ~100 slot lines, most of them the same few dozen texts (``-Empty-``,
#: actuators, heat sinks...): each distinct text is parsed once per process.
_SlotParts = tuple[str, str, SystemKind | None, bool, bool, bool, bool]


@lru_cache(maxsize=16384)
def _slot_parts(raw: str) -> _SlotParts:
    name = raw.strip()
    flags: set[str] = set()
    while "(" in name:
        match = _SLOT_SUFFIX.search(name)
        if match is None:
            break
        flags.add(match.group(1).upper())
        name = name[: match.start()].rstrip()
    return (
        raw.strip(),
        name,
        _system_of(name),
        "R" in flags,
        "T" in flags,
        "OMNIPOD" in flags,
        "ARMORED" in flags,
    )


@lru_cache(maxsize=65536)
def parse_crit_line(index: int, raw: str) -> CritSlot:
    """One slot line. Cached: a CritSlot is frozen, so designs may share equal ones."""
    return CritSlot(index, *_slot_parts(raw))


def _is_ammo(name: str) -> bool:
    return "ammo" in name.casefold()


def parse_mtf(text: str, source: str) -> UnitDesign:
    """Parse the text of one ``.mtf`` file. ``source`` names it in errors and in the design."""
    values: dict[str, list[str]] = defaultdict(list)
    key_lines: dict[str, int] = {}
    crit_blocks: dict[str, tuple[int, list[str]]] = {}
    weapons: list[tuple[int, str]] = []
    lines = [raw.strip() for raw in text.splitlines()]
    count_lines = len(lines)
    headers = _HEADERS

    def is_header(entry: str) -> bool:
        return entry[-1:] == ":" and entry[:-1].strip().casefold() in headers

    i = 0
    while i < count_lines:
        line_no = i + 1
        line = lines[i]
        i += 1
        if not line or line[0] == "#":
            continue
        if is_header(line):
            header = line[:-1].strip().casefold()
            if header in crit_blocks:
                raise UnitFileError(source, f"second critical block for {line[:-1]!r}", line_no)
            slots: list[str] = []
            # A block is up to 12 slot lines; a blank line or the next header ends it early
            # (old files write only the 6 meaningful head/leg lines).
            while i < count_lines and len(slots) < SLOTS_PER_LOCATION:
                entry = lines[i]
                if not entry:
                    if slots:
                        break
                    i += 1
                    continue
                if is_header(entry):
                    break
                if entry[0] != "#":
                    slots.append(entry)
                i += 1
            crit_blocks[header] = (line_no, slots)
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise UnitFileError(source, f"expected 'key:value', got {line!r}", line_no)
        key = key.casefold()
        if not key.isalnum():  # only a key with whitespace in it needs collapsing
            key = " ".join(key.split())
        value = value.strip()
        values[key].append(value)
        if key not in key_lines:
            key_lines[key] = line_no
        if key == "weapons":
            count = _int(value, source, line_no, "Weapons count")
            # MegaMek's MtfFile reads exactly N lines after "Weapons:N".
            while count > 0 and i < count_lines:
                entry = lines[i]
                if is_header(entry):
                    # A count larger than the list must not swallow the critical blocks.
                    break
                i += 1
                if not entry or entry[0] == "#":
                    continue
                weapons.append((i, entry))
                count -= 1
    return _build(source, values, key_lines, crit_blocks, weapons)


def _first(values: dict[str, list[str]], key: str) -> str | None:
    found = values.get(key)
    return found[0] if found else None


#: A 'Mek's movement mode by its configuration; any other is a biped's.
_MOVEMENT = {UnitKind.QUAD_MEK: "Quad", UnitKind.QUADVEE: "Quad", UnitKind.TRIPOD_MEK: "Tripod"}


def _config(source: str, text: str | None, line: int | None) -> tuple[UnitKind, bool]:
    """The 'Mek's kind by its ``Config:`` line, and whether it is an OmniMek."""
    config = (text or "Biped").strip()
    config_key = config.casefold().replace("omnimech", "").replace("omnimek", "").strip()
    kind = _CONFIGS.get(config_key)
    if kind is None:
        raise UnitFileError(source, f"unknown Config {config!r}", line)
    return kind, "omni" in config.casefold()


def _mass(source: str, text: str, line: int) -> float:
    try:
        return float(text)
    except ValueError:
        raise UnitFileError(source, f"mass is not a number: {text!r}", line) from None


def _engine(text: str | None) -> EngineInfo | None:
    """The ``Engine:`` line as a rating and a type; a line not in MegaMek's form is kept as
    the type, without a rating."""
    if not text:
        return None
    match = _ENGINE.match(text)
    if match is None:
        return EngineInfo(rating=None, type=text)
    kind_text = re.sub(r"\s*engine\s*$", "", match.group(2), flags=re.IGNORECASE)
    return EngineInfo(rating=int(match.group(1)), type=kind_text or "Fusion")


def _heat_sinks(text: str) -> tuple[int | None, str | None]:
    """The ``Heat Sinks:`` line: how many, and their type (the words after the number)."""
    match = _LEADING_INT.match(text)
    if match is None:
        return None, None
    return int(match.group(1)), text[match.end() :].strip()


def _build(
    source: str,
    values: dict[str, list[str]],
    key_lines: dict[str, int],
    crit_blocks: dict[str, tuple[int, list[str]]],
    weapons: list[tuple[int, str]],
) -> UnitDesign:
    def required(key: str) -> str:
        found = _first(values, key)
        if found is None or not found:
            raise UnitFileError(source, f"missing '{key}:' line")
        return found

    def number(key: str, default: int | None) -> int | None:
        found = _first(values, key)
        if found is None or not found:
            return default
        return _int(found, source, key_lines[key], key)

    chassis = required("chassis")
    model = _first(values, "model") or ""
    kind, omni = _config(source, _first(values, "config"), key_lines.get("config"))

    tech_base, rules_level = _tech(source, values, key_lines)
    mass_text = required("mass")
    tonnage = _mass(source, mass_text, key_lines["mass"])

    engine = _engine(_first(values, "engine"))

    structure = _first(values, "structure") or "Standard"
    heat_sinks, heat_type = _heat_sinks(_first(values, "heat sinks") or "")

    locations = _locations(source, kind, tonnage, structure, values, key_lines)
    crit_slots, ammo_bins = _crits(kind, crit_blocks)
    equipment = tuple(_weapon(kind, line, source) for line in weapons)

    mul_id = number("mul id", None)
    extra = {
        k: tuple(v) for k, v in values.items() if k not in _MODELLED and not k.endswith(" armor")
    }
    return UnitDesign(
        chassis=chassis,
        model=model,
        kind=kind,
        movement_mode=_MOVEMENT.get(kind, "Biped"),
        tonnage=tonnage,
        tech_base=tech_base,
        rules_level=rules_level,
        intro_year=number("era", None),
        walk_mp=number("walk mp", 0) or 0,
        jump_mp=number("jump mp", 0) or 0,
        engine=engine,
        structure_type=structure,
        armor_type=_first(values, "armor") or "Standard",
        locations=locations,
        crit_slots=crit_slots,
        equipment=equipment,
        ammo_bins=ammo_bins,
        mul_id=mul_id,
        uuid=_first(values, "uuid") or None,
        source_file=source,
        omni=omni,
        heat_sinks=heat_sinks,
        heat_sink_type=heat_type or None,
        quirks=tuple(values.get("quirk", ())),
        extra=extra,
    )


def _tech(
    source: str, values: dict[str, list[str]], key_lines: dict[str, int]
) -> tuple[TechBase, RulesLevel | None]:
    """The tech base (Inner Sphere when the file names none) and the rules level, if one of
    MegaMek's."""
    tech_text = _first(values, "techbase") or "Inner Sphere"
    tech_base = _TECH_BASES.get(tech_text.strip().casefold())
    if tech_base is None:
        raise UnitFileError(source, f"unknown techbase {tech_text!r}", key_lines.get("techbase"))
    text = _first(values, "rules level")
    level = _int(text, source, key_lines["rules level"], "rules level") if text else None
    if level is None or level not in RulesLevel._value2member_map_:
        return tech_base, None
    return tech_base, RulesLevel(level)


def _locations(
    source: str,
    kind: UnitKind,
    tonnage: float,
    structure: str,
    values: dict[str, list[str]],
    key_lines: dict[str, int],
) -> tuple[LocationStats, ...]:
    names = LOCATION_NAMES[kind]
    front: dict[int, int] = {}
    rear: dict[int, int] = {}
    for key, found in values.items():
        if not key.endswith(" armor"):
            continue
        label = key[: -len(" armor")].strip()
        target = _ARMOR_LABELS.get(label)
        if target is None or target[0] >= len(names):
            raise UnitFileError(source, f"unknown armor location {label.upper()!r}", key_lines[key])
        # Patchwork armor writes "LA Armor:Ferro-Fibrous(Inner Sphere):14": the points come last.
        points = _int(found[0].rsplit(":", 1)[-1], source, key_lines[key], f"{label} armor")
        (rear if target[1] else front)[target[0]] = points
    internal = mek_internal(tonnage, kind, structure) or {}
    has_rear = {1, 2, 3}
    return tuple(
        LocationStats(
            index=index,
            name=name,
            armor=front.get(index, 0),
            rear_armor=rear.get(index, 0) if index in has_rear else None,
            internal=internal.get(index),
        )
        for index, name in enumerate(names)
    )


def _crits(
    kind: UnitKind, crit_blocks: dict[str, tuple[int, list[str]]]
) -> tuple[dict[int, tuple[CritSlot, ...]], tuple[AmmoBin, ...]]:
    headers = _location_headers(kind)
    names = LOCATION_NAMES[kind]
    slots: dict[int, tuple[CritSlot, ...]] = {}
    ammo: list[AmmoBin] = []
    for header, (_line, entries) in crit_blocks.items():
        index = headers.get(header)
        if index is None:
            # A header of another configuration (e.g. "Front Left Leg:" in a biped): keep the
            # crits out of the layout rather than guess a location.
            continue
        parsed = tuple(parse_crit_line(n, raw) for n, raw in enumerate(entries, start=1))
        slots[index] = parsed
        for slot in parsed:
            if slot.system is None and _is_ammo(slot.name):
                ammo_type, _, shots = slot.name.partition(":")
                ammo.append(
                    AmmoBin(
                        location=index,
                        location_name=names[index],
                        ammo_type=ammo_type.strip(),
                        slot=slot.index,
                        shots=int(shots) if shots.strip().isdigit() else None,
                    )
                )
    return slots, tuple(ammo)


def _weapon(kind: UnitKind, entry: tuple[int, str], source: str) -> Equipment:
    line_no, raw = entry
    name, _, where = raw.rpartition(",")
    if not name:
        raise UnitFileError(source, f"weapon line without a location: {raw!r}", line_no)
    where = where.strip()
    rear = False
    if where.endswith("(R)"):
        rear, where = True, where[:-3].strip()
    headers = _location_headers(kind)
    index = headers.get(where.casefold(), -1)
    # Some writers prefix a count ("2 Medium Laser"); keep the name as written.
    return Equipment(
        name=name.strip(),
        location=index,
        location_name=where,
        raw=raw,
        rear=rear or name.strip().endswith("(R)"),
    )
