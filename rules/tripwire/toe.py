"""Salvage you keep, and crews you seat: the TO&E after a battle.

L136: the side that controls the field takes control of an immobile 'Mech "and may either keep
it (only if they have space in there TO&E) or sell it". A captured unit waits in the captor's
``Salvage`` company (:func:`mekref.rules.tripwire.battles._change_sides`) until it is kept
(``KeepSalvage``: it joins a company and lance with a free slot) or sold (``DisposeUnit``).
A unit without a crew (a kept unit, one whose crew died or was captured) gets one with
``SeatCrew``: a person of the side in no unit (hired, a spare, rescued or ransomed).

TO&E space is the force construction limits (``force_construction.toml``: L9 three lances on
the Union, L11 12 'Mechs and 2 fighters, L15 15 vehicles and 8 platoons or a battle armor
squad). Rulings R-KEEP-1, R-KEEP-2, R-SEAT-1 and R-SEAT-2 (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import field, replace
from functools import cache
from typing import Any

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote, command_type, event_type
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tables import SourceRef, load_toml, rows, section, source_of, str_list_field
from mekref.rules.tripwire.campaign import person_of
from mekref.rules.tripwire.holding import SALVAGE_COMPANY as SALVAGE_COMPANY
from mekref.rules.tripwire.holding import WRECKED, crew_aboard, out_of_play
from mekref.rules.tripwire.model import CompanyRole, UnitKind, UnitRole
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, PersonStatus
from mekref.rules.tripwire.table_loader import Limit

#: The enemy's command flags do not come with a kept unit.
_COMMAND_ROLES = frozenset({UnitRole.FORCE_COMMANDER, UnitRole.LANCE_LEADER})

Decider = Callable[[CampaignState, Any, Dice, TripWire], list[Event]]
Evolver = Callable[[CampaignState, Any], CampaignState]


# --- messages ---------------------------------------------------------------------------------


@command_type("KeepSalvage")
@record
class KeepSalvage(Command):
    """Keep a captured unit: it leaves Salvage for a company and lance of its new side.

    L136: "may either keep it (only if they have space in there TO&E) or sell it". ``note``:
    the referee's word to keep it without space (recorded in the event).
    """

    unit_id: str
    company: str
    lance: str
    note: RefereeNote | None = None


@command_type("SeatCrew")
@record
class SeatCrew(Command):
    """Seat a person of the side who is in no unit (hired, spare, rescued) in a unit without
    a crew (a kept salvage unit, one whose crew died or was captured)."""

    unit_id: str
    person_id: str
    # The referee's word to seat a person of another type (R-SEAT-2), recorded in the event.
    note: RefereeNote | None = None


@event_type("SalvageKept")
@record
class SalvageKept(Event):
    unit_id: str
    side_id: str
    company: str
    lance: str
    actor: str
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@event_type("CrewSeated")
@record
class CrewSeated(Event):
    unit_id: str
    person_id: str
    released: tuple[str, ...]  # the former crew (dead, captive or gone): now in no unit
    actor: str
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


# --- the table --------------------------------------------------------------------------------


@record
class ToeTables(Record):
    keep: SourceRef
    truly_destroyed: SourceRef
    same_type: SourceRef
    transfer: SourceRef
    infantry: SourceRef
    seat_types: dict[UnitKind, str]  # kind -> the L124 type name
    hired_types: dict[str, str]  # Recruit column -> the L124 type name of a hire from it


@cache
def toe_tables() -> ToeTables:
    data: dict[str, Any] = load_toml("mekref.rules.tripwire.tables", "toe.toml")
    types = {
        UnitKind(kind): str(r["name"])
        for r in rows(data, "seat_type")
        for kind in str_list_field(r, "kinds")
    }
    return ToeTables(
        keep=source_of(section(data, "keep")),
        truly_destroyed=source_of(section(data, "truly_destroyed")),
        same_type=source_of(section(data, "same_type")),
        transfer=source_of(section(data, "transfer")),
        infantry=source_of(section(data, "infantry")),
        seat_types=types,
        hired_types={str(r["recruit_column"]): str(r["name"]) for r in rows(data, "seat_type")},
    )


# --- shared judgements ------------------------------------------------------------------------


def unit_gone(state: CampaignState, unit_id: str) -> str:
    """Why the unit is no longer a working part of its side's TO&E; "" while it is (the one
    judgement of :func:`mekref.rules.tripwire.holding.out_of_play`)."""
    return out_of_play(state, unit_id)


def company_role(kinds: Iterable[UnitKind]) -> CompanyRole:
    """Alpha/Bravo ('Mechs and fighters) or Charlie (the rest), read from what a company holds:
    a 'Mech company when 'Mechs and fighters are more than half its units (as ``force
    import`` decides it)."""
    listed = list(kinds)
    meks = sum(1 for k in listed if k in (UnitKind.MEK, UnitKind.AEROSPACE_FIGHTER))
    return CompanyRole.MEK_COMPANY if meks * 2 > len(listed) else CompanyRole.SUPPORT_COMPANY


def _name(unit: CampaignUnit) -> str:
    return f"{unit.chassis} {unit.model}".strip()


def _space(
    unit: CampaignUnit,
    held: list[CampaignUnit],
    lances: set[str],
    lance: str,
    role: CompanyRole,
    t: TripWire,
) -> tuple[str, Limit] | None:
    """Why ``unit`` does not fit the company (``held``: the units holding a slot there), with
    the limit it breaks; None when it fits (ruling R-KEEP-1)."""
    f = t.tables.force
    kind = unit.kind
    if role is CompanyRole.MEK_COMPANY:
        counts, union = f["mek_company.counts"], f["mek_company.lances"]
        if kind is UnitKind.MEK:
            meks = [u for u in held if u.kind is UnitKind.MEK] + [unit]
            compact = sum(1 for u in meks if UnitRole.COMPACT in u.roles)
            over = len(meks) - counts.int("meks")
            if over > compact:
                return (
                    f"the company holds {len(meks) - 1} 'Mechs of the {counts.int('meks')} "
                    f"allowed, more only with the compact quirk ({compact} compact with this one)",
                    counts,
                )
            if lance not in lances:
                return (
                    f"a 'Mech joins one of the company's lances ({', '.join(sorted(lances))}): "
                    f"the Union carries {union.int('count')}",
                    union,
                )
            return None
        if kind is UnitKind.AEROSPACE_FIGHTER:
            fighters = sum(1 for u in held if u.kind is UnitKind.AEROSPACE_FIGHTER)
            if fighters >= counts.int("fighters"):
                return (
                    f"the company holds {fighters} aerospace fighters of the "
                    f"{counts.int('fighters')} allowed",
                    counts,
                )
            return None
        return (f"a {kind.value} has no place in a 'Mech company (R-FORCE-3)", union)
    vehicles, infantry = f["support_company.vehicles"], f["support_company.infantry"]
    if kind.is_vehicle:
        n = sum(1 for u in held if u.kind.is_vehicle)
        if n >= vehicles.int("max"):
            return (f"the company holds {n} vehicles of the {vehicles.int('max')} allowed",
                    vehicles)  # fmt: skip
        return None
    if kind.is_infantry:
        platoons = sum(1 for u in held if u.kind is UnitKind.CONVENTIONAL_INFANTRY)
        squads = sum(1 for u in held if u.kind is UnitKind.BATTLE_ARMOR)
        if kind is UnitKind.BATTLE_ARMOR and (platoons or squads >= 1):
            return (
                f"the Gazelle houses 8 platoons or one battle armor squad (R-FORCE-4); it holds "
                f"{platoons} platoon(s) and {squads} squad(s)",
                infantry,
            )
        if kind is UnitKind.CONVENTIONAL_INFANTRY and (
            squads or platoons >= infantry.int("max_platoons")
        ):
            return (
                f"the company holds {platoons} platoon(s) and {squads} battle armor "
                f"squad(s): at most {infantry.int('max_platoons')} platoons, or one squad",
                infantry,
            )
        return None
    return (f"a {kind.value} has no place in the support company", vehicles)


# --- decisions --------------------------------------------------------------------------------


def _unit(state: CampaignState, unit_id: str) -> CampaignUnit:
    unit = state.units.get(unit_id)
    if unit is None:
        raise Refusal("unknown_unit", f"no unit {unit_id!r}")
    return unit


def _named(given: str, names: list[str]) -> str | None:
    """The name ``given`` stands for: itself, else the one name it begins (without case), as
    the report prints "Alpha Company" and the referee types "Alpha"; None when none or several
    fit (ruling R-KEEP-3)."""
    if given in names:
        return given
    fits = (
        [n for n in names if n.lower().startswith(given.strip().lower())] if given.strip() else []
    )
    return fits[0] if len(fits) == 1 else None


def _decide_keep(
    state: CampaignState, cmd: KeepSalvage, dice: Dice, rules: TripWire
) -> list[Event]:
    tt = toe_tables()
    unit = _unit(state, cmd.unit_id)
    if unit.unit_id in state.battles.sold or unit.unit_id in state.battles.scrapped:
        raise Refusal("unit_gone", f"{_name(unit)} was sold or scrapped", tt.keep)
    if unit.company != SALVAGE_COMPANY:
        raise Refusal(
            "not_salvage",
            f"{_name(unit)} is in {unit.company}/{unit.lance}, not salvage waiting to be kept or "
            "sold",
            tt.keep,
        )
    if state.battles.fates.get(unit.unit_id) in WRECKED:
        raise Refusal(
            "truly_destroyed",
            f"{_name(unit)} is truly destroyed and can never return to operation: scrap it "
            "(mekref spend scrap) instead of keeping it",
            tt.truly_destroyed,
        )
    mine = [
        u
        for u in state.units.values()
        if u.side_id == unit.side_id and u.company != SALVAGE_COMPANY and u.unit_id != unit.unit_id
    ]
    companies = sorted({u.company for u in mine})
    company = _named(cmd.company, companies)
    if company is None:
        raise Refusal(
            "unknown_company",
            f"side {unit.side_id!r} has no company {cmd.company!r} (it has "
            f"{', '.join(companies) or 'none'})",
            tt.keep,
        )
    if not cmd.lance.strip():
        raise Refusal("bad_lance", "name the lance the unit joins", tt.keep)
    members = [u for u in mine if u.company == company]
    held = [u for u in members if not unit_gone(state, u.unit_id)]
    role = company_role(u.kind for u in members)
    lances = {u.lance for u in members}
    lance = _named(cmd.lance, sorted(lances)) or cmd.lance
    cmd = replace(cmd, company=company, lance=lance)
    why = _space(unit, held, lances, cmd.lance, role, rules)
    if why is not None and cmd.note is None:
        text, limit = why
        raise Refusal(
            "no_toe_space",
            f"{_name(unit)} cannot join {cmd.company}/{cmd.lance}: {text}. L136: keep it "
            f"'only if they have space in there TO&E': sell it (mekref salvage sell), or the "
            "referee keeps it with --referee NAME --reason TEXT",
            limit.ref,
        )
    return [
        SalvageKept(
            unit_id=unit.unit_id,
            side_id=unit.side_id,
            company=cmd.company,
            lance=cmd.lance,
            actor=cmd.actor,
            note=cmd.note,
        )
    ]


def _decide_seat(state: CampaignState, cmd: SeatCrew, dice: Dice, rules: TripWire) -> list[Event]:
    tt = toe_tables()
    unit = _unit(state, cmd.unit_id)
    person = person_of(state, cmd.person_id)
    gone = unit_gone(state, unit.unit_id)
    if gone:
        raise Refusal("unit_gone", f"{_name(unit)}: {gone}", tt.truly_destroyed)
    if unit.company == SALVAGE_COMPANY:
        raise Refusal(
            "not_kept",
            f"{_name(unit)} is salvage not yet kept: keep it in a company with space first "
            "(mekref salvage keep)",
            tt.keep,
        )
    if person.side_id != unit.side_id:
        raise Refusal("other_side", f"{person.name} is not of side {unit.side_id}")
    if person.status is PersonStatus.DEAD:
        raise Refusal("dead", f"{person.name} is dead")
    captor = state.battles.captured_people.get(person.person_id)
    if captor is not None:
        raise Refusal(
            "captive",
            f"{person.name} is held captive by {captor}: ransomed (L351) they are free to serve",
        )
    seat_type = tt.seat_types.get(unit.kind)
    if seat_type is None:
        raise Refusal(
            "no_seat",
            f"a {unit.kind.value} is not crewed one person at a time: infantry and battle armor "
            "are made up with new troopers or by combining (mekref spend combine), a DropShip "
            "crew by mekref spend dropship-crew",
            tt.infantry,
        )
    crewed = _active_crew(state, unit)
    if crewed:
        raise Refusal(
            "crewed",
            f"{_name(unit)} is crewed by {', '.join(crewed)}; a pilot on medical leave is "
            "replaced with mekref spend seat",
        )
    if person.unit_id is not None and person.unit_id != unit.unit_id:
        current = state.units.get(person.unit_id)
        if current is not None and person.person_id in crew_aboard(state, current):
            raise Refusal(
                "assigned",
                f"{person.name} is assigned to {_name(current)}: 'MechWarriors/Crew may not be "
                "transferred from one unit to another'",
                tt.transfer,
            )
    current = state.units.get(person.unit_id) if person.unit_id is not None else None
    # R-SEAT-2: the type of the unit they last crewed, else the type they were hired as.
    before = tt.seat_types.get(current.kind) if current is not None else person.seat_type
    if before is not None and before != seat_type and cmd.note is None:
        crews = "crews a" if current is not None else "was hired as a"
        raise Refusal(
            "not_same_type",
            f"{person.name} {crews} {before}, not a {seat_type}: a unit is crewed by "
            "a person 'of the same type (e.g. BattleMech, or Vehicle)'; the referee "
            "may seat them anyway with --referee NAME --reason TEXT",
            tt.same_type,
        )
    return [
        CrewSeated(
            unit_id=unit.unit_id,
            person_id=person.person_id,
            released=tuple(p for p in unit.crew if p != person.person_id),
            actor=cmd.actor,
            note=cmd.note,
        )
    ]


def _active_crew(state: CampaignState, unit: CampaignUnit) -> list[str]:
    return [state.people[p].name for p in crew_aboard(state, unit)]


# --- evolution --------------------------------------------------------------------------------


def _evolve_kept(state: CampaignState, e: SalvageKept) -> CampaignState:
    unit = state.units[e.unit_id]
    kept = replace(unit, company=e.company, lance=e.lance, roles=unit.roles - _COMMAND_ROLES)
    return replace(state, units={**state.units, e.unit_id: kept})


def _evolve_seated(state: CampaignState, e: CrewSeated) -> CampaignState:
    units = dict(state.units)
    people = dict(state.people)
    person = people[e.person_id]
    old = units.get(person.unit_id) if person.unit_id is not None else None
    if old is not None and old.unit_id != e.unit_id:
        # A wrecked, sold or scrapped unit's crew list no longer names the person.
        units[old.unit_id] = replace(old, crew=tuple(p for p in old.crew if p != e.person_id))
    for pid in e.released:
        if pid in people and people[pid].unit_id == e.unit_id:
            people[pid] = replace(people[pid], unit_id=None)
    people[e.person_id] = replace(person, unit_id=e.unit_id)
    units[e.unit_id] = replace(units[e.unit_id], crew=(e.person_id,))
    return replace(state, units=units, people=people)


DECIDERS: dict[type[Command], Decider] = {
    KeepSalvage: _decide_keep,
    SeatCrew: _decide_seat,
}

EVOLVERS: dict[type[Event], Evolver] = {
    SalvageKept: _evolve_kept,
    CrewSeated: _evolve_seated,
}
