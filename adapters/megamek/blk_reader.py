"""Read MegaMek ``.blk`` files (reference 5.2): ``<Tag>`` / values / ``</Tag>`` blocks.

Tags are case-insensitive (``<tonnage>`` and ``<Tonnage>`` both occur); ``#`` lines are comments.
Fluff blocks may hold HTML (``<p>``), so inside a block only the matching close tag ends it.
``<armor>`` lists one value per armored location in MegaMek index order, skipping index 0 for
ground units (tank Body, ProtoMek Body) and starting at the Nose for aero (``BLKFile.getBlock``).
"""

from __future__ import annotations

import re

from mekref.adapters.megamek.blk_parts import (
    _FIGHTERS,
    _LARGE_CRAFT,
    _NO_TONNAGE,
    _crew,
    _engine,
    _equipment,
    _ints,
    _is_equipment_tag,
    _location_names,
    _locations,
)
from mekref.adapters.megamek.blk_tags import (
    BlkDocument,
    _Reader,
    parse_blk_tags,
)
from mekref.adapters.megamek.design import (
    RulesLevel,
    TechBase,
    TransportBay,
    UnitDesign,
    UnitFileError,
)
from mekref.adapters.megamek.mtf_reader import decode_text
from mekref.adapters.megamek.structure_tables import (
    fighter_structural_integrity,
)
from mekref.adapters.megamek.unit_kinds import UnitKind

__all__ = ["BlkDocument", "decode_text", "parse_blk", "parse_blk_tags"]

# UnitType -> (kind, support vehicle?). MegaMek writes these in BLKFile.getBlock.
_UNIT_TYPES: dict[str, tuple[UnitKind, bool]] = {
    "tank": (UnitKind.TANK, False),
    "supporttank": (UnitKind.SUPPORT_TANK, True),
    "largesupporttank": (UnitKind.SUPERHEAVY_TANK, True),
    "vtol": (UnitKind.VTOL, False),
    "supportvtol": (UnitKind.SUPPORT_VTOL, True),
    "aero": (UnitKind.AEROSPACE_FIGHTER, False),
    "aerospacefighter": (UnitKind.AEROSPACE_FIGHTER, False),
    "convfighter": (UnitKind.CONVENTIONAL_FIGHTER, False),
    "fixedwingsupport": (UnitKind.FIXED_WING_SUPPORT, True),
    "smallcraft": (UnitKind.SMALL_CRAFT, False),
    "dropship": (UnitKind.DROPSHIP, False),
    "jumpship": (UnitKind.JUMPSHIP, False),
    "warship": (UnitKind.WARSHIP, False),
    "spacestation": (UnitKind.SPACE_STATION, False),
    "battlearmor": (UnitKind.BATTLE_ARMOR, False),
    "infantry": (UnitKind.CONVENTIONAL_INFANTRY, False),
    "protomech": (UnitKind.PROTOMEK, False),
    "protomek": (UnitKind.PROTOMEK, False),
    "gunemplacement": (UnitKind.GUN_EMPLACEMENT, False),
}


# BattleArmor weightclass codes (EntityWeightClass for BA: PA(L), Light, Medium, Heavy, Assault).
BA_WEIGHT_CLASSES = ("PA(L)", "Light", "Medium", "Heavy", "Assault")

_TECH = re.compile(
    r"^(?:(?P<base>IS|Clan)(?:\s+Level\s+(?P<level>\d))?"
    r"|Mixed \((?P<mixed>IS|Clan) Chassis\)(?:\s+(?P<tier>Advanced|Experimental|Unofficial))?)$",
    re.IGNORECASE,
)
_TIERS = {
    "advanced": RulesLevel.ADVANCED,
    "experimental": RulesLevel.EXPERIMENTAL,
    "unofficial": RulesLevel.UNOFFICIAL,
}

_MODELLED = frozenset(
    {
        "unittype", "name", "model", "mul id:", "year", "type", "motion_type", "transporters",
        "cruisemp", "jumpingmp", "safethrust", "engine_type", "armor", "tonnage",
        "internal_type", "armor_type", "structural_integrity", "designtype", "crew", "officers",
        "gunners", "passengers", "marines", "battlearmor", "otherpassenger", "life_boat",
        "escape_pod", "trooper count", "weightclass", "squad_size", "squadn", "uuid", "omni",
        "heatsinks", "sink_type", "quirks",
    }
)  # fmt: skip


def parse_tech_type(text: str) -> tuple[TechBase, RulesLevel | None]:
    """``IS Level 2`` -> (Inner Sphere, standard); see ``BLKFile.setTechLevel``."""
    match = _TECH.match(" ".join(text.split()))
    if match is None:
        raise ValueError(f"unknown tech type {text!r}")
    if match.group("mixed"):
        base = (
            TechBase.MIXED_IS_CHASSIS
            if match.group("mixed").casefold() == "is"
            else TechBase.MIXED_CLAN_CHASSIS
        )
        tier = match.group("tier")
        return base, _TIERS[tier.casefold()] if tier else RulesLevel.STANDARD
    base = TechBase.INNER_SPHERE if match.group("base").casefold() == "is" else TechBase.CLAN
    level = match.group("level")
    if level is None:
        return base, RulesLevel.STANDARD
    number = int(level)
    return base, RulesLevel(number) if number in RulesLevel._value2member_map_ else None


def parse_transporter(raw: str) -> TransportBay:
    """One ``<transporters>`` line, as ``BLKFile.addTransports`` splits it."""
    text = raw.strip().casefold()
    omnipod = text.endswith(":omni")
    if omnipod:
        text = text[: -len(":omni")]
    if text.startswith("arts"):
        text = text[4:]
    kind, _, rest = text.partition(":")
    fields = rest.split(":") if rest else []

    def field(n: int) -> str:
        return fields[n].strip() if len(fields) > n else ""

    def as_int(value: str) -> int | None:
        try:
            return int(float(value)) if value else None
        except ValueError:
            return None

    try:
        capacity = float(field(0)) if field(0) else None
    except ValueError:
        capacity = None
    if kind == "dockingcollar":
        capacity = 1.0
    return TransportBay(
        kind=kind,
        capacity=capacity,
        doors=as_int(field(1)),
        bay_number=as_int(field(2)),
        raw=raw.strip(),
        omnipod=omnipod,
    )


def _unit_type(doc: BlkDocument, r: _Reader, source: str) -> tuple[str, UnitKind, bool]:
    """The file's UnitType as written, the kind it is, and whether it is a support vehicle."""
    unit_type = r.text("unittype")
    if unit_type is None:
        raise UnitFileError(source, "no <UnitType> block: cannot tell what kind of unit this is")
    # A UnitType this reader does not know (MegaMek keeps adding some, e.g. building
    # entities) is not a broken file: it reads as UNKNOWN, with every tag kept in ``extra``.
    kind, support = _UNIT_TYPES.get(
        unit_type.replace(" ", "").casefold(), (UnitKind.UNKNOWN, False)
    )
    if kind is UnitKind.TANK and "superheavy" in doc.tags:
        kind = UnitKind.SUPERHEAVY_TANK
    return unit_type, kind, support


def _troopers(kind: UnitKind, r: _Reader, source: str) -> tuple[int | None, int | None, int | None]:
    """Troopers of a battle armor squad or an infantry platoon, and the platoon's squads
    (their size and count); None for other units."""
    trooper_count: int | None = None
    squad_size = squad_count = None
    if kind is UnitKind.BATTLE_ARMOR:
        trooper_count = r.integer("trooper count", 4)
    if kind is UnitKind.CONVENTIONAL_INFANTRY:
        squad_size = r.integer("squad_size")
        squad_count = r.integer("squadn")
        if squad_size is None or squad_count is None:
            raise UnitFileError(source, "infantry without <squad_size> and <squadn>")
        trooper_count = squad_size * squad_count
    return trooper_count, squad_size, squad_count


def _extra(doc: BlkDocument, kind: UnitKind, unit_type: str) -> dict[str, tuple[str, ...]]:
    """The tags this reader does not model, kept as they are (with the unknown UnitType and
    any text outside the tags)."""
    extra = {k: v for k, v in doc.tags.items() if k not in _MODELLED and not _is_equipment_tag(k)}
    if kind is UnitKind.UNKNOWN:
        extra["unittype"] = (unit_type,)
    if doc.stray:
        extra["(outside tags)"] = tuple(f"line {n}: {t}" for n, t in doc.stray)
    return extra


def _ba_weight_class(kind: UnitKind, weight_class: int | None) -> str | None:
    return (
        BA_WEIGHT_CLASSES[weight_class]
        if kind is UnitKind.BATTLE_ARMOR
        and weight_class is not None
        and 0 <= weight_class < len(BA_WEIGHT_CLASSES)
        else None
    )


def parse_blk(text: str, source: str) -> UnitDesign:
    doc = parse_blk_tags(text, source)
    r = _Reader(doc)
    unit_type, kind, support = _unit_type(doc, r, source)

    chassis = r.text("name")
    if not chassis:
        raise UnitFileError(source, "no <Name> block (the chassis)")
    type_text = r.text("type")
    if type_text is None:
        raise UnitFileError(source, "no <type> block (tech base and rules level)")
    try:
        tech_base, rules_level = parse_tech_type(type_text)
    except ValueError as exc:
        raise r.error("type", str(exc)) from None

    tonnage = r.number("tonnage")
    # Infantry, battle armor and gun emplacements state no tonnage (MegaMek computes it).
    if tonnage is None and kind not in _NO_TONNAGE:
        raise UnitFileError(source, "no <tonnage> block")

    walk = r.integer("cruisemp", 0) or 0
    jump = r.integer("jumpingmp", 0) or 0
    safe_thrust = r.integer("safethrust") if kind.is_aero else None
    movement = r.text("motion_type") or ""

    armor_values = tuple(_ints(r, "armor"))
    names = _location_names(kind, armor_values, r)
    trooper_count, squad_size, squad_count = _troopers(kind, r, source)
    locations = _locations(kind, tonnage or 0.0, names, armor_values, trooper_count, r)

    si: int | None = None
    if kind in _FIGHTERS:
        si = fighter_structural_integrity(kind, tonnage or 0.0, safe_thrust or 0)
    elif kind.is_aero:
        si = r.integer("structural_integrity")

    engine = _engine(r, kind, support, movement, tonnage or 0.0, walk, safe_thrust)
    equipment, ammo = _equipment(doc, names)
    bays = tuple(parse_transporter(line) for line in r.all("transporters") if line.strip())
    weight_class = r.integer("weightclass")

    extra = _extra(doc, kind, unit_type)
    sink_type = r.integer("sink_type")
    return UnitDesign(
        chassis=chassis,
        model=r.text("model") or "",
        kind=kind,
        movement_mode=movement,
        tonnage=tonnage,
        tech_base=tech_base,
        rules_level=rules_level,
        intro_year=r.integer("year"),
        walk_mp=0 if kind.is_aero else walk,
        jump_mp=jump,
        safe_thrust=safe_thrust,
        engine=engine,
        structure_type=str(r.integer("internal_type", 0)),
        armor_type=str(r.integer("armor_type", 0)),
        locations=locations,
        structural_integrity=si,
        equipment=equipment,
        ammo_bins=ammo,
        bays=bays,
        crew=_crew(r) if kind in _LARGE_CRAFT else None,
        trooper_count=trooper_count,
        ba_weight_class=_ba_weight_class(kind, weight_class),
        squad_size=squad_size,
        squad_count=squad_count,
        mul_id=r.integer("mul id:"),
        uuid=r.text("uuid"),
        source_file=source,
        omni=(r.integer("omni", 0) or 0) == 1,
        support_vehicle=support,
        heat_sinks=r.integer("heatsinks"),
        heat_sink_type={0: "Single", 1: "Double"}.get(sink_type) if sink_type is not None else None,
        quirks=r.all("quirks"),
        extra=extra,
    )
