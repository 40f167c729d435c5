"""DropShip/AeroSpace landing zones and the engineers' temporary runway (L409-L410, rulings
T-LZ1 to T-LZ6 in docs/turn.md).

L409: "Spheroid DropShips can either land in DropPits or may attempt to land in an area with 7
clear hexes (requiring a Piloting Roll). Aerodyne DropShips may land on Runways or other
suitable flat areas e.g. Highways (requiring a Piloting Skill), or plains/desert (Engineers
require 1 campaign turn to prepare these creating a temporary runway)." L410: "AeroSpace
fighters have full VTOL abilities and do not require a runway. Conventional fighters do require
a runway, although as with Aerodyne DropShips can use temporary runways or roads."

A formation's DropShips carry its other units (T-O1, T-RS1): where it holds one, the DropShips
land it; otherwise its conventional fighters fly themselves (T-LZ4). Whether a DropShip is
aerodyne or spheroid is read from the design the campaign keeps (the ``.blk`` motion type);
without one it is not guessed (T-LZ5). mekref does not roll the Piloting rolls: it names them
for the referee (T-LZ3).
"""

from __future__ import annotations

from functools import cache

from mekref.hexmap import label
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.designs import stored_design_of
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.common import AEROSPACE, AIRFIELD, DROPSHIP
from mekref.rules.tripwire.turn.data import table_rows
from mekref.rules.tripwire.turn.engineering import DROPPORTS, engineers
from mekref.rules.tripwire.turn.mapdata import hex_at, hexmap_of
from mekref.rules.tripwire.turn.state import IN_ORBIT, Formation, FormationOrder, StrategicState

L409_SPHEROID = (
    "L409 'Spheroid DropShips can either land in DropPits or may attempt to land in an area "
    "with 7 clear hexes (requiring a Piloting Roll)'"
)
L409_AERODYNE = (
    "L409 'Aerodyne DropShips may land on Runways or other suitable flat areas e.g. Highways "
    "(requiring a Piloting Skill), or plains/desert (Engineers require 1 campaign turn to "
    "prepare these creating a temporary runway)'"
)
L410 = (
    "L410 'Conventional fighters do require a runway, although as with Aerodyne DropShips can "
    "use temporary runways or roads'"
)
#: The orders whose target is the hex a formation comes down in.
LANDS = frozenset({"orbital_insertion", "suborbital_hop", "combat_drop", "respond"})
_QUOTE = {"aerodyne": L409_AERODYNE, "spheroid": L409_SPHEROID, "conventional": L410}
_WHAT = {
    "aerodyne": "an aerodyne DropShip",
    "spheroid": "a spheroid DropShip",
    "conventional": "a conventional fighter",
}


@cache
def runway_terrains() -> frozenset[str]:
    """The map terrains engineers prepare a temporary runway in (``tables/landing.toml``)."""
    return frozenset(str(r["key"]) for r in table_rows("landing", "runway_terrain"))


@record
class Lander(Record):
    """A unit whose landing L409-L410 limits: ``kind`` aerodyne, spheroid or conventional."""

    unit_id: str
    name: str
    kind: str


def _name(state: CampaignState, unit_id: str) -> str:
    unit = state.units.get(unit_id)
    return unit_id if unit is None else f"{unit.chassis} {unit.model}".strip()


def dropship_motion(state: CampaignState, unit_id: str) -> str | None:
    """ "aerodyne" or "spheroid": the motion type of the DropShip's kept design (T-LZ5); None
    when no design is kept or it says neither."""
    stored = stored_design_of(state, unit_id)
    motion = "" if stored is None else stored.movement_mode.strip().casefold()
    return motion if motion in ("aerodyne", "spheroid") else None


def _dropship(state: CampaignState, unit_id: str, field: str) -> Lander:
    name = _name(state, unit_id)
    motion = dropship_motion(state, unit_id)
    if motion is not None:
        return Lander(unit_id=unit_id, name=name, kind=motion)
    stored = stored_design_of(state, unit_id)
    why = (
        "the campaign keeps no design for it"
        if stored is None
        else f"its design gives the motion type {stored.movement_mode!r}"
    )
    raise Refusal(
        "unknown_design",
        f"{field}: DropShip {name} (unit {unit_id}): {why}, so whether it is aerodyne or "
        f"spheroid cannot be told, and where it may land depends on it ({L409_SPHEROID}; "
        f"{L409_AERODYNE}); record its design with 'mekref force designs --units-dir DIR' "
        "(T-LZ5)",
    )


def landers(
    state: CampaignState, s: StrategicState, f: Formation, field: str
) -> tuple[Lander, ...]:
    """The units of ``f`` whose landing zone L409-L410 limits (T-LZ4): its DropShips, which
    carry the rest; without one, its conventional fighters. Aerospace fighters are VTOL (L410)."""
    mobility = [s.mobility[u] for u in f.unit_ids if u in s.mobility]
    ships = [m.unit_id for m in mobility if m.mode == DROPSHIP]
    if ships:
        return tuple(_dropship(state, u, field) for u in ships)
    return tuple(
        Lander(unit_id=m.unit_id, name=_name(state, m.unit_id), kind="conventional")
        for m in mobility
        if m.mode == AEROSPACE and m.conventional
    )


@record
class Zone(Record):
    """What a hex offers a landing side."""

    dropport: bool  # a standing DropPort: DropPits and runways
    airfield: bool  # a standing DropPort or aerospace repair facility (T-RS2)
    runway: bool  # a temporary runway the side's engineers prepared (T-LZ1)
    road: bool  # a road of the map runs through it (T-LZ3)


def zone(s: StrategicState, side_id: str, hex_label: str) -> Zone:
    m = hexmap_of(s)
    h = hex_at(hex_label)
    loc = m.location_at(h)
    standing = set() if loc is None else set(loc.facilities) - set(s.destroyed.get(loc.name, ()))
    return Zone(
        dropport=bool(standing & DROPPORTS),
        airfield=bool(standing & AIRFIELD),
        runway=hex_label in s.runways.get(side_id, ()),
        road=any(h in road.path for road in m.roads),
    )


def check(
    state: CampaignState, s: StrategicState, f: Formation, hex_label: str, field: str
) -> tuple[str, ...]:
    """Whether ``f`` may come down in ``hex_label`` (L409-L410): a refusal naming the unit,
    the line and what to do, or the Piloting rolls the landing asks for (T-LZ3), as notes."""
    if hex_label == IN_ORBIT:
        return ()
    hex_label = label(hex_at(hex_label))
    found = landers(state, s, f, field)
    if not found:
        return ()
    z = zone(s, f.side_id, hex_label)
    rolls: list[str] = []
    for x in found:
        if x.kind == "spheroid":
            if not z.dropport:
                rolls.append(_roll(x, hex_label, "outside a DropPort's DropPits"))
            continue
        if z.airfield or z.runway:
            continue
        if z.road:
            rolls.append(_roll(x, hex_label, "on the road"))
            continue
        raise Refusal(
            "no_runway",
            f"{field}: {x.name} (unit {x.unit_id}) is {_WHAT[x.kind]} and {hex_label} has no "
            f"runway: no standing DropPort or airfield, no temporary runway of {f.side_id}, no "
            f"road ({_QUOTE[x.kind]}); prepare a runway there first (a formation with engineers "
            "standing in the hex, order prepare_runway, a day's work in plains) or land "
            "elsewhere (T-LZ1)",
        )
    return tuple(rolls)


def _roll(x: Lander, hex_label: str, where: str) -> str:
    return (
        f"{x.name} (unit {x.unit_id}) lands in {hex_label} {where}: a Piloting roll is due "
        f"({_QUOTE[x.kind]}); mekref does not roll it: the referee has it rolled "
        "(MegaMek, Total Warfare's landing rules) (T-LZ3)"
    )


def landing_hexes(order: FormationOrder) -> tuple[str, ...]:
    """Where an order brings a formation down, as the order reads (T-LZ4): a landing's or a
    Respond's target hex, and the last hex of the path it moves along."""
    out: list[str] = []
    if order.target is not None and order.action in LANDS:
        out.append(order.target)
    if order.path and order.path[-1] not in out:
        out.append(order.path[-1])
    return tuple(out)


def check_prepare(
    state: CampaignState, s: StrategicState, f: Formation, order: FormationOrder, field: str
) -> str:
    """The hex where ``f``'s engineers prepare a temporary runway today, or a refusal."""
    if f.hex == IN_ORBIT:
        raise Refusal("illegal_path", f"{field}.action: {f.formation_id} is in orbit; land first")
    terrain = hexmap_of(s).terrain_at(hex_at(f.hex))
    if terrain not in runway_terrains():
        raise Refusal(
            "bad_target",
            f"{field}.action: {f.formation_id} stands in {f.hex} ({terrain}); engineers prepare "
            f"a temporary runway in {', '.join(sorted(runway_terrains()))} ({L409_AERODYNE}) "
            "(T-LZ1)",
        )
    if f.hex in s.runways.get(f.side_id, ()):
        raise Refusal(
            "bad_target", f"{field}.action: {f.side_id} has a temporary runway in {f.hex} already"
        )
    if not engineers(state, f):
        raise Refusal(
            "wrong_units",
            f"{field}.action: {f.formation_id} has no combat engineers (infantry with an "
            f"engineer specialization, T-EN1); {L409_AERODYNE}",
        )
    return f.hex
