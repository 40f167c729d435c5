"""Setting up the strategic map, Day Zero placement and reorganising formations.

Day Zero (line 172): the Defender notes in secret where each formation is; the Attacker starts
at a pirate point (in orbit here) and lands with a free Orbital Insertion. Formations may be
reorganised at the start of any turn (line 178): units that stand together regroup freely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.hexmap import label, parse_label
from mekref.hexmap.geometry import LabelError
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote, command_type
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import captured_units
from mekref.rules.tripwire.commanders import commander_bonus, explain, refs
from mekref.rules.tripwire.design_record import StoredDesign
from mekref.rules.tripwire.holding import out_of_play
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import weather
from mekref.rules.tripwire.turn.common import known_side, strategic_of
from mekref.rules.tripwire.turn.events import FormationsPlaced, StrategicMapStarted
from mekref.rules.tripwire.turn.mapdata import _parse, hexmap_of
from mekref.rules.tripwire.turn.state import (
    IN_ORBIT,
    Formation,
    StrategicState,
    UnitMobility,
)

NEUTRAL_UNREST = 7  # line 398: "| 7 | Neutral |"

_AIR = {
    UnitKind.AEROSPACE_FIGHTER,
    UnitKind.CONVENTIONAL_FIGHTER,
    UnitKind.FIXED_WING_SUPPORT,
    UnitKind.SMALL_CRAFT,
    UnitKind.DROPSHIP,
}
_CONVENTIONAL_AIR = {UnitKind.CONVENTIONAL_FIGHTER, UnitKind.FIXED_WING_SUPPORT}
_ON_FOOT = {
    UnitKind.BIPED_MEK,
    UnitKind.QUAD_MEK,
    UnitKind.TRIPOD_MEK,
    UnitKind.LAM,
    UnitKind.QUADVEE,
    UnitKind.PROTOMEK,
    UnitKind.BATTLE_ARMOR,
    UnitKind.CONVENTIONAL_INFANTRY,
}
# The design file's motive type (MegaMek's names) -> the hexmap's movement mode.
_MOTIVE = {"tracked": "tracked", "wheeled": "wheeled", "hover": "hover", "vtol": "vtol"}
_LEGS = {"", "leg", "biped", "quad", "tripod", "jump", "foot"}
#: Quirks that matter on the strategic map: Rugged skips the weekly maintenance roll (T-M1).
RUGGED_QUIRKS = frozenset({"rugged_1", "rugged_2"})


@record
class DesignMobility(Record):
    """What a stored design says of a unit's strategic mobility (ruling T-SU1).

    ``None``: the design does not say (the set-up file must). Fuel points are not kept in the
    stored design, so an aerospace unit's fuel always comes from the set-up file.
    """

    walk_mp: int | None
    mode: str | None
    rugged: bool
    safe_thrust: int | None
    conventional: bool
    crew_slots: int | None


def design_mobility(design: StoredDesign) -> DesignMobility:
    """Walk/Cruise MP, movement mode, Rugged quirk, safe thrust and crew places of a design."""
    motive = design.movement_mode.strip().casefold()
    mode: str | None
    if design.kind is UnitKind.DROPSHIP:
        mode = "dropship"  # the Actions list tells DropShips from fighters (line 211, 213)
    elif design.kind in _AIR:
        mode = "aerospace"
    elif motive in _MOTIVE:
        mode = _MOTIVE[motive]
    elif design.kind in _ON_FOOT and motive in _LEGS:
        mode = "leg"
    else:
        mode = None  # wheeled/motorized infantry, naval, WiGE...: the file says
    walk: int | None
    if design.kind in _AIR:
        walk = design.safe_thrust if design.safe_thrust is not None else design.walk_mp
    elif design.kind is UnitKind.CONVENTIONAL_INFANTRY and design.walk_mp == 0:
        # The infantry file keeps no MP: foot infantry moves 1 (Total Warfare); other motive
        # types (jump, motorized, mechanized) the set-up file says (T-SU1).
        walk = 1 if motive in {"", "leg", "foot"} else None
    else:
        walk = design.walk_mp
    crew: int | None = None
    if design.kind in _AIR or design.kind.is_mek or design.kind is UnitKind.PROTOMEK:
        crew = 1 if design.kind not in {UnitKind.SMALL_CRAFT, UnitKind.DROPSHIP} else None
    elif design.kind in {UnitKind.CONVENTIONAL_INFANTRY, UnitKind.BATTLE_ARMOR}:
        crew = design.trooper_count
    return DesignMobility(
        walk_mp=walk,
        mode=mode,
        rugged=bool(RUGGED_QUIRKS & {q.strip().casefold() for q in design.quirks}),
        safe_thrust=design.safe_thrust if design.kind in _AIR else None,
        conventional=design.kind in _CONVENTIONAL_AIR,
        crew_slots=crew,
    )


@record
class FormationSpec(Record):
    formation_id: str
    name: str
    unit_ids: tuple[str, ...]
    hex: str = IN_ORBIT  # "CCRR", or "" for the pirate point / orbit
    # Not given: the Force Commander's Skill Bonus is derived from the commander's skills
    # (L26-34). Given, it must equal the derived one, unless ``commander_note`` records the
    # referee's override (who and why).
    commander_bonus: int | None = None
    carries_leader: bool = False
    baggage_person_days: int = 0
    commander_note: RefereeNote | None = None


@command_type("StartStrategicMap")
@record
class StartStrategicMap(Command):
    """Referee: the map (a bundled name, or its TOML text), who attacks, unit speeds, control."""

    map_name: str
    attacker: str
    defender: str
    mobility: tuple[UnitMobility, ...]
    map_text: str = ""
    control: tuple[tuple[str, str], ...] = ()  # location -> side at the start
    transports: tuple[tuple[str, str], ...] = ()  # WarChest pool -> the unit carrying it
    unrest: tuple[tuple[str, int], ...] = ()  # side -> unrest; 7 (Neutral) when not given
    sheets_per_engagement: int = 2


@command_type("PlaceFormations")
@record
class PlaceFormations(Command):
    """A side's formations: its secret Day Zero placement, or a reorganisation at turn start."""

    side_id: str
    day: int
    formations: tuple[FormationSpec, ...]


def decide_start(
    state: CampaignState, cmd: StartStrategicMap, dice: Dice, rules: TripWire
) -> list[Event]:
    if state.strategic is not None:
        raise Refusal("already_started", "the strategic map is already set up")
    for role, side in (("attacker", cmd.attacker), ("defender", cmd.defender)):
        known_side(state, side, role)
    if cmd.attacker == cmd.defender:
        raise Refusal("bad_sides", "attacker: the attacker and the defender are different sides")
    try:
        hexmap = _parse(cmd.map_name, cmd.map_text)
    except (ValueError, KeyError) as exc:
        raise Refusal("bad_map", f"map_text: {exc}") from None
    names = {loc.name for loc in hexmap.locations}
    for loc, side in cmd.control:
        if loc not in names or side not in state.sides:
            raise Refusal("bad_control", f"control: {loc!r} held by {side!r} is not on this map")
    for pool_id, unit_id in cmd.transports:
        if pool_id not in state.pools or unit_id not in state.units:
            raise Refusal("bad_transport", f"transports: no pool {pool_id!r} or unit {unit_id!r}")
    for m in cmd.mobility:
        if m.unit_id not in state.units:
            raise Refusal("unknown_unit", f"mobility: no unit {m.unit_id!r} in the campaign")
        if m.walk_mp < 0:
            raise Refusal("bad_mobility", f"mobility: {m.unit_id} walk/cruise MP below 0")
    regions, rolls, _ = weather.roll_start(hexmap, dice)
    unrest = {s: NEUTRAL_UNREST for s in sorted(state.sides)} | dict(cmd.unrest)
    bv: dict[str, int] = {s: 0 for s in sorted(state.sides)}
    for unit in state.units.values():
        bv[unit.side_id] = bv.get(unit.side_id, 0) + unit.bv
    return [
        StrategicMapStarted(
            map_name=cmd.map_name,
            map_text=cmd.map_text,
            attacker=cmd.attacker,
            defender=cmd.defender,
            mobility=tuple(sorted(cmd.mobility, key=lambda m: m.unit_id)),
            control=tuple(sorted(cmd.control)),
            unrest=tuple(sorted(unrest.items())),
            weather=regions,
            starting_bv=tuple(sorted(bv.items())),
            sheets_per_engagement=cmd.sheets_per_engagement,
            transports=tuple(sorted(cmd.transports)),
            actor=cmd.actor,
            rolls=tuple(rolls),
        )
    ]


def evolve_started(state: CampaignState, e: StrategicMapStarted) -> CampaignState:
    s = StrategicState(
        map_name=e.map_name,
        map_text=e.map_text,
        attacker=e.attacker,
        defender=e.defender,
        sheets_per_engagement=e.sheets_per_engagement,
        transports=dict(e.transports),
        mobility={m.unit_id: m for m in e.mobility},
        control=dict(e.control),
        unrest=dict(e.unrest),
        weather={w.region: w for w in e.weather},
        starting_bv=dict(e.starting_bv),
        vp={side: 0 for side in sorted(state.sides)},
    )
    return replace(state, strategic=s)


def _hex(text: str, field: str) -> str:
    if text == IN_ORBIT:
        return text
    try:
        return label(parse_label(text))
    except LabelError as exc:
        raise Refusal("illegal_path", f"{field}: {exc}") from None


def _check_units(
    state: CampaignState,
    s: StrategicState,
    side_id: str,
    unit_ids: Sequence[str],
    field: str,
    seen: set[str],
) -> None:
    """Refuse a unit that is not the side's, is in two formations, has no movement or is out
    of play; each one checked is added to ``seen``."""
    for uid in unit_ids:
        unit = state.units.get(uid)
        if unit is None or unit.side_id != side_id:
            raise Refusal("not_your_unit", f"{field}.unit_ids: {uid!r} is not a unit of yours")
        if uid in seen:
            raise Refusal("duplicate_unit", f"{field}.unit_ids: {uid} is in two formations")
        if uid not in s.mobility:
            raise Refusal("no_mobility", f"{field}.unit_ids: no walk/cruise MP for {uid}")
        gone = out_of_play(state, uid)
        if gone:  # R-VP-7: a wreck is no force to place (L146)
            raise Refusal("out_of_play", f"{field}.unit_ids: {uid}: {gone}")
        seen.add(uid)


def _formation(
    spec: FormationSpec,
    side_id: str,
    where: str,
    olds: list[Formation],
    day_zero: bool,
    override: int | None,
) -> Formation:
    """The formation ``spec`` places, with the counters it keeps from the formations its units
    came from (``olds``)."""
    return Formation(
        formation_id=spec.formation_id,
        side_id=side_id,
        name=spec.name,
        unit_ids=tuple(spec.unit_ids),
        hex=where,
        # A regrouped formation keeps the worst of its units' counters (ruling T-F1).
        fatigue=max((f.fatigue for f in olds), default=0),
        days_since_maintenance=max((f.days_since_maintenance for f in olds), default=0),
        days_on_rations=max((f.days_on_rations for f in olds), default=0),
        baggage_person_days=spec.baggage_person_days
        if day_zero
        else sum(f.baggage_person_days for f in olds if f.formation_id == spec.formation_id),
        commander_bonus=override or 0,
        carries_leader=spec.carries_leader,
        last_recruit_day=max((f.last_recruit_day for f in olds), default=-7),
        commander_note=spec.commander_note if override is not None else None,
        # L153: a force element "retains its Formation Type" (a kept id keeps it).
        formation_type=next(
            (f.formation_type for f in olds if f.formation_id == spec.formation_id), ""
        ),
    )


def decide_place(
    state: CampaignState, cmd: PlaceFormations, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_of(state)
    known_side(state, cmd.side_id, "side_id")
    if cmd.day != s.day:
        raise Refusal("wrong_day", f"day: formations are organised for day {s.day}, not {cmd.day}")
    hexmap = hexmap_of(s)
    day_zero = cmd.side_id not in s.placed
    current = {u: f for f in s.formations.values() if f.side_id == cmd.side_id for u in f.unit_ids}
    seen: set[str] = set()
    built: list[Formation] = []
    ids = [spec.formation_id for spec in cmd.formations]
    if len(set(ids)) != len(ids):
        raise Refusal("duplicate_id", "formations: a formation id appears twice")
    for fid in ids:
        other = s.formations.get(fid)
        if other is not None and other.side_id != cmd.side_id:
            raise Refusal("duplicate_id", f"formations: the id {fid!r} is taken")
    for i, spec in enumerate(cmd.formations):
        field = f"formations[{i}]"
        if not spec.unit_ids:
            raise Refusal("empty_formation", f"{field}.unit_ids: a formation has units")
        _check_units(state, s, cmd.side_id, spec.unit_ids, field, seen)
        where = _hex(spec.hex, f"{field}.hex")
        override = _commander_override(state, cmd.side_id, spec, field)
        sources = {current[u].formation_id: current[u] for u in spec.unit_ids if u in current}
        if day_zero:
            if cmd.side_id == s.attacker and where != IN_ORBIT:
                raise Refusal(
                    "pirate_point",
                    f'{field}.hex: the attacker starts at a pirate point (hex ""), '
                    "and lands with an orbital_insertion order",
                )
            if where != IN_ORBIT and not hexmap.in_bounds(parse_label(where)):
                raise Refusal("illegal_path", f"{field}.hex: {where} is off the map")
        else:
            # Captured units stand where they were taken (ruling T-F7).
            stands = {f.hex for f in sources.values()} | {
                s.captured_at[u] for u in spec.unit_ids if u not in current and u in s.captured_at
            }
            if not stands:
                # Units in no formation (captured, newly recruited) join where the side already
                # stands: one of its formations' hexes, a location it holds, or orbit (T-F2).
                held = {
                    label(loc.hex)
                    for loc in hexmap.locations
                    if s.control.get(loc.name) == cmd.side_id
                }
                mine = {f.hex for f in s.formations.values() if f.side_id == cmd.side_id}
                stands = {where} if where in held | mine | {IN_ORBIT} else {"elsewhere"}
            if stands != {where}:
                raise Refusal(
                    "reorganise_apart",
                    f"{field}.hex: only units standing together in {where or 'orbit'} can form "
                    f"a formation there (they stand in {sorted(stands)})",
                )
        olds = list(sources.values())
        built.append(_formation(spec, cmd.side_id, where, olds, day_zero, override))
    return [
        FormationsPlaced(side_id=cmd.side_id, day=cmd.day, formations=tuple(built), actor=cmd.actor)
    ]


def _commander_override(
    state: CampaignState, side_id: str, spec: FormationSpec, field: str
) -> int | None:
    """The referee's override of the derived commander bonus; None: the derived one counts.

    A typed bonus equal to the derived one changes nothing; one that differs is refused with
    the rule, unless the referee's note records who overrides and why.
    """
    if spec.commander_bonus is None:
        if spec.commander_note is not None:
            raise Refusal(
                "bad_override",
                f"{field}.commander_note: an override gives the commander_bonus it sets",
            )
        return None
    derived, present = commander_bonus(state, side_id, spec.unit_ids)
    if spec.commander_note is not None:
        return spec.commander_bonus
    if spec.commander_bonus != derived:
        raise Refusal(
            "commander_bonus",
            f"{field}.commander_bonus: {spec.commander_bonus} typed, but the commander's skills "
            f"give +{derived} ({explain(present)}); leave it out to use the derived bonus, or "
            "override it with the referee's name and reason",
            refs().bonus,
        )
    return None


def evolve_placed(state: CampaignState, e: FormationsPlaced) -> CampaignState:
    s = strategic_of(state)
    kept = {k: f for k, f in s.formations.items() if f.side_id != e.side_id}
    kept.update({f.formation_id: f for f in e.formations})
    placed = tuple(sorted({*s.placed, e.side_id}))
    # Reorganising voids the side's orders for the day: they named the old formations.
    orders = {**s.orders, e.side_id: ()}
    captured_at = captured_units.formed(s, (u for f in e.formations for u in f.unit_ids))
    return replace(
        state,
        strategic=replace(
            s,
            formations=dict(sorted(kept.items())),
            placed=placed,
            orders=orders,
            captured_at=captured_at,
        ),
    )
