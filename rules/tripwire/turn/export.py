"""Scenario export: per side, a MegaMek unit list of its committed units, and a scenario sheet.

Every ``<entity>`` and crew member carries ``externalId`` = our UUID, so the battle files MegaMek
writes back map onto campaign objects without guessing. The unit's last known condition
(armor, internals, ammo, crits) comes from the MUL entity the daemon last read for it, when it
has one; otherwise the unit goes out as designed. Crew hits always come from the campaign;
abilities, edge and the commander flag as ``megamek_crew`` says (ruling R-CMD-4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import (
    Bomb,
    Crew,
    Entity,
    Location,
    MulFile,
    RootKind,
    Slot,
)
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.armour_split import front_and_rear
from mekref.rules.tripwire.battle_damage import STRUCTURAL_INTEGRITY
from mekref.rules.tripwire.battle_model import AmmoBinLoad, SlotDamage, UnitDamage
from mekref.rules.tripwire.commanders import commanders_among
from mekref.rules.tripwire.designs import design_of
from mekref.rules.tripwire.holding import in_play
from mekref.rules.tripwire.megamek_crew import CrewExport, crew_export, member_of
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.state import CampaignState, CampaignUnit
from mekref.rules.tripwire.turn.common import strategic_of
from mekref.rules.tripwire.turn.engagement import KIND_NAMES
from mekref.rules.tripwire.turn.landing import dropship_motion
from mekref.rules.tripwire.turn.secrecy import engagement_for
from mekref.rules.tripwire.turn.state import EngagementSetup, StrategicState

# MegaMek's movement-mode names ("type" attribute) for our strategic modes.
_MEGAMEK_MODE = {
    "tracked": "Tracked",
    "wheeled": "Wheeled",
    "hover": "Hover",
    "vtol": "VTOL",
    "aerospace": "Aerodyne",
    "dropship": "Spheroid",
}


def engagement(s: StrategicState, engagement_id: str) -> EngagementSetup:
    for e in s.engagements:
        if e.engagement_id == engagement_id:
            return e
    known = ", ".join(e.engagement_id for e in s.engagements) or "none today"
    raise Refusal("unknown_engagement", f"engagement_id: no engagement {engagement_id!r} ({known})")


def committed_units(
    state: CampaignState, e: EngagementSetup, side_id: str
) -> tuple[CampaignUnit, ...]:
    s = strategic_of(state)
    if side_id not in e.sides:
        raise Refusal("not_in_engagement", f"side: {side_id!r} does not fight in {e.engagement_id}")
    # A formation dissolved since (every unit left play) sends nobody; a unit that left play
    # (L145-L146: truly destroyed, or sold, scrapped) or its side (captured) goes out in no
    # later scenario file (R-VP-7).
    formations = [s.formations[fid] for fid in e.formations if fid in s.formations]
    ids = [u for f in formations if f.side_id == side_id for u in f.unit_ids]
    return tuple(
        state.units[u] for u in ids if in_play(state, u) and state.units[u].side_id == side_id
    )


def _mode(state: CampaignState, s: StrategicState, unit: CampaignUnit) -> str:
    mode = s.mobility[unit.unit_id].mode if unit.unit_id in s.mobility else "leg"
    if mode == "leg":
        return "Biped" if unit.kind is UnitKind.MEK else "Leg"
    if mode == "dropship":
        # A Gazelle is aerodyne, a Union spheroid: the kept design's motion type says which
        # (T-LZ5); "Spheroid" only when no design says otherwise.
        motion = dropship_motion(state, unit.unit_id)
        if motion is not None:
            return motion.capitalize()
    return _MEGAMEK_MODE.get(mode, mode.capitalize())


def damaged_locations(
    state: CampaignState, unit_id: str, design: UnitDesign
) -> tuple[Location, ...]:
    """The unit's locations as the battle rules last recorded them, laid on its design.

    Every ammunition bin goes out with its shots (the last battle file's count, else the
    standard load recorded at import); see :func:`lay_damage`.
    """
    damage = state.battles.unit_damage.get(unit_id)
    bins = (damage.ammo_bins if damage is not None else ()) or state.battles.loadouts.get(
        unit_id, ()
    )
    return lay_damage(damage, bins, design)


def lay_damage(
    damage: UnitDamage | None,
    bins: tuple[AmmoBinLoad, ...],
    design: UnitDesign,
    *,
    only_changes: bool = False,
) -> tuple[Location, ...]:
    """``damage`` laid on ``design`` as MegaMek's ``<location>`` elements.

    The campaign keeps each location's armor as one figure (front and rear together), and the
    rear's share where the file said it: front and rear then go out as they were; without it
    the loss is taken from the front first, then the rear (ruling T-X2). Locations the record
    does not name go out as designed. Every bin goes out with its shots, and every damaged
    critical slot as MegaMek writes it (``isHit``, ``isDestroyed``, ``isMissing``; ruling T-X3).
    ``only_changes``: write armor and structure only where they differ from the design, as
    MegaMek's ``EntityListFile.getLocString`` does (the end-of-game record).
    """
    if damage is None and not bins:
        return ()
    by_name = {loc.name: loc for loc in damage.locations} if damage is not None else {}
    slots = _slots_by_location(damage.damaged_slots if damage is not None else (), bins)
    out: list[Location] = []
    for spec in design.locations:
        rec = by_name.get(spec.name)
        written = slots.get(spec.name, ())
        if rec is None:
            if written:
                out.append(Location(index=spec.index, name=spec.name, slots=written))
            continue
        rear = spec.rear_armor
        destroyed = (rec.internal_max > 0 and rec.internal_now == 0) or rec.destroyed
        front_now, rear_now = front_and_rear(rec, spec.armor or 0, rear)
        armor = front_now if spec.armor is not None else None
        internal = rec.internal_now if spec.internal is not None else None
        if only_changes and destroyed:
            # MegaMek writes a destroyed location as ``<location isDestroyed="true"/>`` alone.
            armor = rear_now = internal = None
        elif only_changes:
            armor = None if armor == spec.armor else armor
            rear_now = None if rear_now == rear else rear_now
            internal = None if internal == spec.internal else internal
        if only_changes and not destroyed and (armor, rear_now, internal) == (None, None, None):
            if written:
                out.append(Location(index=spec.index, name=spec.name, slots=written))
            continue
        out.append(
            Location(
                index=spec.index,
                name=spec.name,
                armor=armor,
                rear=rear_now,
                internal=internal,
                destroyed=destroyed,
                slots=() if destroyed else written,
            )
        )
    return tuple(out)


def with_criticals(entity: Entity, damage: UnitDamage | None, design: UnitDesign) -> Entity:
    """``entity`` with what the campaign keeps outside locations and slots, as MegaMek's unit
    list writes it (ruling R-IMP-6): ``<motive>``, ``<turretlock>``, ``<tcriticals>``,
    ``<acriticals>``, ``<dcriticals>``, a location's ``<stabilizer isHit>``; and an aerospace
    unit's ``<structural integrity>`` when below the design's."""
    if damage is None:
        return entity
    si = next((loc for loc in damage.locations if loc.name == STRUCTURAL_INTEGRITY), None)
    if si is not None and si.internal_now < si.internal_max:
        entity = replace(entity, structural_integrity=si.internal_now)
    c = damage.criticals
    if c is None:
        return entity
    by_index = {loc.index: loc for loc in entity.locations}
    names = {spec.name: spec.index for spec in design.locations}
    for name in c.stabilisers:
        index = names.get(name)
        if index is not None:
            here = by_index.get(index, Location(index=index, name=name))
            by_index[index] = replace(here, stabilizer_hit=True)
    moved = bool(c.motive_damage or c.motive_penalty)
    return replace(
        entity,
        locations=tuple(by_index[i] for i in sorted(by_index)),
        motive_damage=c.motive_damage if moved else entity.motive_damage,
        motive_penalty=c.motive_penalty if moved else entity.motive_penalty,
        turret_lock=c.turret_lock if c.turret_lock is not None else entity.turret_lock,
        tank_crits=c.vehicle or entity.tank_crits,
        aero_crits=c.aero or entity.aero_crits,
        dropship_crits=c.dropship or entity.dropship_crits,
    )


def _slots_by_location(
    damaged: tuple[SlotDamage, ...], bins: tuple[AmmoBinLoad, ...]
) -> dict[str, tuple[Slot, ...]]:
    """Location name -> its written slots, in slot order: bins with their shots, damaged slots
    with their flags (a damaged bin is one slot carrying both)."""
    found: dict[str, dict[tuple[int, int], Slot]] = {}
    for n, b in enumerate(bins):
        key = (b.slot, 0) if b.slot is not None else (10_000, n)
        found.setdefault(b.location, {})[key] = Slot(index=b.slot, type=b.ammo_type, shots=b.shots)
    for n, d in enumerate(damaged):
        key = (d.slot, 0) if d.slot is not None else (20_000, n)
        here = found.setdefault(d.location, {})
        base = here.get(key, Slot(index=d.slot, type=d.item))
        here[key] = replace(base, is_hit=d.hit, is_destroyed=d.destroyed, is_missing=d.missing)
    return {name: tuple(v for _, v in sorted(slots.items())) for name, slots in found.items()}


def _crew(
    state: CampaignState, unit: CampaignUnit, last: Entity | None, crew_out: CrewExport
) -> Crew | None:
    people = [state.people[pid] for pid in unit.crew]
    members = [member_of(p) for p in people]
    if not members:
        return None
    implants = "::".join(crew_out.implants)
    if last is not None and last.crew is not None and len(last.crew.members) == len(members):
        # Keep what MegaMek told us about the seats (slots, portraits); ours win on the rest.
        kept = tuple(
            replace(
                old,
                name=new.name,
                nick=new.nick or old.nick,
                gender=new.gender or old.gender,
                clanperson=old.clanperson if new.clanperson is None else new.clanperson,
                gunnery=new.gunnery,
                piloting=new.piloting,
                toughness=new.toughness or old.toughness,
                hits=new.hits,
                external_id=new.external_id,
            )
            for old, new in zip(last.crew.members, members, strict=True)
        )
        extra = tuple((k, v) for k, v in last.crew.extra if k != "implants")
        base = replace(last.crew, members=kept, ejected=False, extra=extra)
    else:
        base = Crew(
            members=tuple(members), crew_type=None if len(members) == 1 else "crew", size=None
        )
    # The campaign's values win; a person kept without them (imported before they were kept)
    # goes out with what the last battle file said. The rules' commander values always win.
    return replace(
        base,
        init_bonus=crew_out.init_bonus or base.init_bonus,
        command_bonus=crew_out.command_bonus or (None if crew_out.ruled else base.command_bonus),
        advantages=crew_out.advantages or base.advantages,
        edge=crew_out.edge if crew_out.ruled else (crew_out.edge or base.edge),
        autoeject=base.autoeject if crew_out.autoeject is None else crew_out.autoeject,
        extra=base.extra + ((("implants", implants),) if implants else ()),
    )


def _entity(
    state: CampaignState,
    s: StrategicState,
    unit: CampaignUnit,
    last: Entity | None,
    design: UnitDesign | None,
    crew_out: CrewExport,
) -> Entity:
    crew = _crew(state, unit, last, crew_out)
    # L84: the bombs bought for it (R-BOMB-2), on external hardpoints as MegaMek's unit list
    # carries them (<bombs><bomb type=... load=... Internal="false"/>).
    bought = state.bombs.get(unit.unit_id, ())
    bombs = tuple(Bomb(type=name, load=n, internal=False) for name, n in bought) or None
    if last is not None:
        entity = replace(
            last, external_id=unit.unit_id, crew=crew, commander=crew_out.commander, line=None
        )
        return replace(entity, bombs=bombs) if bombs is not None else entity
    out = Entity(
        chassis=unit.chassis,
        model=unit.model,
        movement_mode=_mode(state, s, unit),
        commander=crew_out.commander,
        external_id=unit.unit_id,
        crew=crew,
        locations=damaged_locations(state, unit.unit_id, design) if design is not None else (),
        bombs=bombs,
    )
    if design is None:
        return out
    return with_criticals(out, state.battles.unit_damage.get(unit.unit_id), design)


def crew_exports(state: CampaignState, units: Sequence[CampaignUnit]) -> dict[str, CrewExport]:
    """Each unit's crew-wide export values (ruling R-CMD-4): the commander flag, commandB and
    commanders' edge from the rules, the rest from the imported list."""
    sides = {u.side_id for u in units}
    among = commanders_among(state, (u.unit_id for u in units), side_ids=sides)
    standings = {c.unit_id: c for c in among}
    return {
        u.unit_id: crew_export(
            f"{u.chassis} {u.model}".strip(),
            [state.people[p] for p in u.crew if p in state.people],
            standings.get(u.unit_id),
        )
        for u in units
    }


def scenario_notes(state: CampaignState, engagement_id: str, side_id: str) -> tuple[str, ...]:
    """Where the export's crew values differ from the imported list, and why (never silent)."""
    units = committed_units(state, engagement(strategic_of(state), engagement_id), side_id)
    crew = tuple(n for c in crew_exports(state, units).values() for n in c.notes)
    # A vehicle's driver and commander hits are kept as a count (the Heal Vehicle Crew row),
    # not as which seat: the files go out without them, said (R-IMP-6).
    hurt = tuple(
        f"{u.chassis} {u.model} ({u.unit_id}): {n} driver/commander hit(s) of its crew not "
        "written (the campaign keeps their count, not the seat): set them in MegaMek's unit "
        "dialog"
        for u in units
        if (n := state.battles.crew_damage.get(u.unit_id, 0)) > 0
    )
    return crew + hurt


def scenario_mul(
    state: CampaignState,
    engagement_id: str,
    side_id: str,
    last_seen: Mapping[str, Entity] | None = None,
    designs: Mapping[str, UnitDesign] | None = None,
) -> str:
    """The side's unit list for the engagement, as MegaMek reads it.

    ``last_seen``: the MegaMek entity last read for a unit, carried as is (with our ids);
    ``designs``: unit designs by unit id for units the campaign keeps no design for, to lay
    the battle rules' damage record on.
    """
    entities = tuple(
        e for _, e in scenario_entities(state, engagement_id, side_id, last_seen, designs)
    )
    return write_mul(MulFile(root=RootKind.UNIT, version=DEFAULT_WRITE_VERSION, entities=entities))


def scenario_entities(
    state: CampaignState,
    engagement_id: str,
    side_id: str,
    last_seen: Mapping[str, Entity] | None = None,
    designs: Mapping[str, UnitDesign] | None = None,
) -> tuple[tuple[CampaignUnit, Entity], ...]:
    """The side's committed units with the MegaMek entity each goes out as (the unit list's and
    the scenario file's one source of condition)."""
    s = strategic_of(state)
    e = engagement(s, engagement_id)
    seen = last_seen or {}
    # The design the campaign kept at import; ``designs`` only fills in for units without one.
    known = designs or {}
    units = committed_units(state, e, side_id)
    crews = crew_exports(state, units)
    return tuple(
        (
            u,
            _entity(
                state,
                s,
                u,
                seen.get(u.unit_id),
                design_of(state, u.unit_id) or known.get(u.unit_id),
                crews[u.unit_id],
            ),
        )
        for u in units
    )


def _turn(t: int | None) -> str:
    return (
        "cannot arrive (immobile)"
        if t is None
        else ("deployed at the start" if t == 0 else f"turn {t}")
    )


def _unit_lines(state: CampaignState, units: Sequence[CampaignUnit]) -> list[str]:
    """The sheet's units table, with the bombs each one bought."""
    lines = [
        "",
        "## Units",
        "",
        "| unit | crew | externalId |",
        "|---|---|---|",
    ]
    for u in units:
        crew = ", ".join(
            f"{state.people[p].name} ({state.people[p].gunnery}/{state.people[p].piloting})"
            for p in u.crew
        )
        lines.append(f"| {u.chassis} {u.model} | {crew} | `{u.unit_id}` |")
    loaded = [(u, state.bombs[u.unit_id]) for u in units if state.bombs.get(u.unit_id)]
    if loaded:
        lines += ["", "Bombs bought (line 84), in the unit list:"]
        for u, bought in loaded:
            lines.append(
                f"- {u.chassis} {u.model}: " + ", ".join(f"{n} x {name}" for name, n in bought)
            )
    return lines


def scenario_sheet(state: CampaignState, engagement_id: str, side_id: str) -> str:
    """A Markdown sheet for one side: objectives, map sheets, deployment, arrivals, weather."""
    s = strategic_of(state)
    e = engagement(s, engagement_id)
    units = committed_units(state, e, side_id)
    # The side's own cut, the same one its view and event stream show.
    e = engagement_for(e, side_id, {fid: f.side_id for fid, f in s.formations.items()})
    names = {sid: state.sides[sid].name for sid in e.sides}
    enemy = [x for x in e.sides if x != side_id]
    lines = [
        f"# Engagement {e.engagement_id}: {names[side_id]} — day {e.day}, hex {e.hex}",
        "",
        f"- **Kind:** {KIND_NAMES.get(e.kind, e.kind)}"
        + (f" ({names[e.attacker]} attacking)" if e.attacker else ""),
        f"- **Opponent:** {', '.join(names[x] for x in enemy)}",
        f"- **Terrain:** {e.terrain}; **weather:** {e.weather}",
        f"- **Map sheets:** {', '.join(e.map_sheets) or 'referee to choose'}",
        f"- **Ambush:** {names[e.ambusher] + ' ambushes' if e.ambusher else 'none'} "
        # The totals (2d6 + rest/guard + Skill Bonus, L281): the dice alone are in the report.
        f"(totals with modifiers: {', '.join(f'{names[x]} {t}' for x, t in e.ambush_totals)})",
        "- **Initiative:** +2 command centre"
        if side_id in e.command_centre
        else "- **Initiative:** no command centre bonus",
        "",
        "## Tactical objective",
        "",
        f"{dict(e.objectives).get(side_id, 'stand_up_fight').replace('_', ' ').capitalize()} "
        "(write it down before the scenario starts, line 283).",
        "",
        "## Deployment and arrival",
        "",
        "| formation | lance | walking MP | arrives |",
        "|---|---|---|---|",
    ]
    for a in e.arrivals:
        if a.side_id == side_id and a.formation_id in s.formations:
            lines.append(
                f"| {s.formations[a.formation_id].name} | {a.lance} | {a.walk_mp} "
                f"| {_turn(a.turn)} |"
            )
    lines += [
        "",
        "Units with MASC or a SuperCharger may roll to enter a turn earlier (line 305).",
    ]
    lines += _unit_lines(state, units)
    lines += ["", "## Artillery and baggage", ""]
    lines.append(
        "Declare how many map sheets away off-table artillery deploys and where the baggage train "
        "stands (line 308)."
        + (
            " As the assaulting side you choose these distances (line 322)."
            if e.attacker == side_id
            else ""
        )
    )
    air = [(uid, left) for sid, uid, left in e.aerospace if sid == side_id]
    lines += ["", "## Aerospace support", ""]
    if air:
        for uid, left in air:
            lines.append(
                f"- {state.units[uid].chassis} {state.units[uid].model}: "
                f"arrives with {left} fuel points"
            )
    else:
        lines.append("None able to arrive with 100 fuel points and fuel to return (line 316).")
    mine = e.notes
    if mine:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in mine]
    return "\n".join(lines) + "\n"
