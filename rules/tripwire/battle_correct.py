"""Ruling SG-7 (revised, issue 26): a resolved battle's booked condition corrected afterwards.

A referee who applied a round autosave as a game's end may receive the game's real last save
once the battle is resolved. The resolution is not done again (its dice were shown to the
players, and its salvage, VP, kills and training stand); instead the **condition** it booked is
corrected: each unit's damage (``UnitDamage``, the shape the resolution books: armour and
structure lost per location, critical hits, destroyed locations, ammunition) and each
person's hits are replaced with the later save's values, or with values the referee gives.

What follows from the new values and that the rules compute elsewhere follows here too: a person
newly at 5 hits rolls the death roll (L125, ``injuries.roll_death``, the resolution's own code
and roll name, dice seeded and recorded in the event as everywhere else); a person at 6 hits is
KIA (L125); the unit's repair is priced again from the corrected damage (``repair_line``, what
the resolution and ``mekref report`` use); a fate the later save gives otherwise is set the way
``mekref battle fate`` sets it (the caller decides a ``SetUnitFate`` for each).

Refused, with the reason, for a unit or person something after the resolution already acted on
(a repair or other spend changed its condition, a later battle, a sale or scrapping, a heal, a
referee's hit override): the correction would stand on a condition no longer booked.
Pure: reads the campaign state, rolls only the dice it is handed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field, replace

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Command, Event, RefereeNote, command_type, event_type
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import injuries
from mekref.rules.tripwire.battle_evolve import person_after
from mekref.rules.tripwire.battle_model import (
    Battle,
    BattleResolution,
    BattleStatus,
    PersonFate,
    PersonOutcome,
    RepairLine,
    UnitDamage,
    UnitOutcome,
)
from mekref.rules.tripwire.battle_resolution import repair_line
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables

_DEAD = (PersonFate.KIA, PersonFate.DIED_OF_WOUNDS)


@record
class UnitCorrection(Record):
    """A unit's corrected damage: replaces what the resolution booked for it."""

    unit_id: str
    damage: UnitDamage


@record
class PersonCorrection(Record):
    """A person's corrected hits (0-6): replace what the resolution booked for them."""

    person_id: str
    hits: int


@command_type("CorrectCondition")
@record
class CorrectCondition(Command):
    """Referee: correct the condition a resolved battle booked (ruling SG-7)."""

    battle_id: str
    note: RefereeNote
    units: tuple[UnitCorrection, ...] = ()
    people: tuple[PersonCorrection, ...] = ()


@record
class CorrectedUnit(Record):
    unit_id: str
    damage: UnitDamage
    repair: RepairLine  # priced from the corrected damage
    previous_total_sp: int  # the booked repair's total, for the note


@record
class CorrectedPerson(Record):
    person_id: str
    hits_before: int  # as booked by the resolution
    hits: int
    fate: PersonFate
    heal_cost_sp: int | None
    needs_hospital: bool
    death_roll: Roll | None = None  # rolled by this correction (L125)


@event_type("ConditionCorrected")
@record
class ConditionCorrected(Event):
    """A resolved battle's booked condition corrected; ``rolls`` holds the death rolls made."""

    battle_id: str
    units: tuple[CorrectedUnit, ...]
    people: tuple[CorrectedPerson, ...]
    actor: str
    note: RefereeNote | None = None  # the referee's word; None: a later save applied itself
    # The later save the correction comes from ("" for the referee's own values).
    source: str = field(default="", metadata=OMIT_IF_DEFAULT)
    file_sha256: str = field(default="", metadata=OMIT_IF_DEFAULT)  # that save's sha256
    notes: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)


def resolved_battle(state: CampaignState, battle_id: str) -> tuple[Battle, BattleResolution]:
    battle = state.battles.battles.get(battle_id)
    if battle is None:
        raise Refusal("unknown_battle", f"no battle {battle_id!r}")
    if battle.status is not BattleStatus.RESOLVED or battle.resolution is None:
        raise Refusal(
            "battle_open",
            f"battle {battle_id} is not resolved yet: nothing is booked to correct (a later "
            "save of its game supersedes the earlier one while it is open, ruling SG-7)",
        )
    return battle, battle.resolution


def _later_battles(state: CampaignState, battle: Battle) -> list[Battle]:
    book = state.battles.battles
    return [book[b] for b in book if book[b].number > battle.number]


def unit_acted_on(state: CampaignState, battle: Battle, outcome: UnitOutcome) -> str:
    """Why the unit's booked condition may no longer be corrected ("" when it may)."""
    uid, led = outcome.unit_id, state.battles
    if uid in led.sold or uid in led.scrapped:
        return "it was sold or scrapped since"
    later = [b.battle_id for b in _later_battles(state, battle) if uid in b.unit_ids]
    if later:
        return f"it fought in battle {later[0]} since"
    if led.unit_damage.get(uid) != outcome.damage:
        return "its condition changed since (a repair, a re-arm or rolled damage)"
    return ""


def _person_acted_on(state: CampaignState, battle: Battle, outcome: PersonOutcome) -> str:
    person = state.people.get(outcome.person_id)
    if person is None:
        return "the campaign no longer has them"
    if outcome.fate in _DEAD:
        return (
            f"the resolution booked them {outcome.fate.value.replace('_', ' ')}; a death stands "
            "(its roll was shown, L125)"
        )
    for later in _later_battles(state, battle):
        crews = {p.person_id for f in later.files for u in f.units for p in u.crew}
        if outcome.person_id in crews:
            return f"they fought in battle {later.battle_id} since"
    if person.hits != outcome.hits:
        return (
            f"their hits changed since ({person.hits}, booked {outcome.hits}: a heal or an "
            "override)"
        )
    return ""


def _name_of(state: CampaignState, unit_id: str) -> str:
    unit = state.units.get(unit_id)
    return f"{unit.chassis} {unit.model} ({unit_id[:8]})" if unit else unit_id


def _person_name(state: CampaignState, person_id: str) -> str:
    person = state.people.get(person_id)
    return person.name if person else person_id


def corrected_person(
    outcome: PersonOutcome, hits: int, dice: Dice, t: TripWireTables
) -> tuple[CorrectedPerson, Dice]:
    """The person at ``hits``, with what the resolution does at those hits: KIA at 6 (L125),
    the death roll at 5 unless the resolution already rolled it for them (the roll stands)."""
    kia = t.injury_rules.kia_hits
    if not 0 <= hits <= kia:
        raise Refusal("bad_hits", f"hits run from 0 to {kia}, got {hits}")
    alive_fate: PersonFate = (
        outcome.fate
        if outcome.fate in (PersonFate.CAPTURED, PersonFate.RECOVERED)
        else (PersonFate.ACTIVE if hits == 0 else PersonFate.INJURED)
    )
    fate: PersonFate = alive_fate
    roll: Roll | None = None
    if injuries.is_dead(hits, t):
        fate = PersonFate.KIA
    elif injuries.death_roll_due(hits, t) and outcome.death_roll is None:
        result, dice = injuries.roll_death(dice, outcome.person_id, t)
        roll = result.roll
        if result.dies:
            fate = PersonFate.DIED_OF_WOUNDS
    alive = fate not in _DEAD
    return (
        CorrectedPerson(
            person_id=outcome.person_id,
            hits_before=outcome.hits,
            hits=hits,
            fate=fate,
            heal_cost_sp=injuries.heal_cost(hits, t) if alive and 0 < hits < kia else None,
            needs_hospital=alive and injuries.needs_hospital(hits, t),
            death_roll=roll,
        ),
        dice,
    )


def correction(
    state: CampaignState,
    battle: Battle,
    units: Mapping[str, UnitDamage],
    people: Mapping[str, int],
    dice: Dice,
    *,
    actor: str,
    note: RefereeNote | None,
    source: str = "",
    notes: Iterable[str] = (),
) -> ConditionCorrected:
    """The event replacing ``battle``'s booked damage of ``units`` and hits of ``people``;
    refused for a unit or person the battle did not book or that was acted on since."""
    t = load_tables()
    res = battle.resolution
    if res is None:
        raise Refusal("battle_open", f"battle {battle.battle_id} is not resolved yet")
    booked_units = {o.unit_id: o for o in res.units}
    booked_people = {p.person_id: p for p in res.people}
    out_units: list[CorrectedUnit] = []
    for uid in sorted(units):
        outcome = booked_units.get(uid)
        if outcome is None:
            raise Refusal(
                "not_in_battle", f"battle {battle.battle_id} booked no outcome for unit {uid}"
            )
        why = unit_acted_on(state, battle, outcome)
        if why:
            raise Refusal(
                "acted_on_since",
                f"{_name_of(state, uid)}: its booked condition is not corrected: {why} "
                "(ruling SG-7); correct what it stands on first, or leave it as booked",
            )
        damage = units[uid]
        out_units.append(
            CorrectedUnit(
                unit_id=uid,
                damage=damage,
                repair=repair_line(state.units[uid], damage, t),
                previous_total_sp=outcome.repair.total_sp,
            )
        )
    out_people: list[CorrectedPerson] = []
    rolls: list[Roll] = []
    for pid in sorted(people):
        p_outcome = booked_people.get(pid)
        if p_outcome is None:
            raise Refusal(
                "not_in_battle",
                f"battle {battle.battle_id} booked no outcome for {_person_name(state, pid)}",
            )
        why = _person_acted_on(state, battle, p_outcome)
        if why:
            raise Refusal(
                "acted_on_since",
                f"{_person_name(state, pid)}: the booked hits are not corrected: {why} "
                "(ruling SG-7)",
            )
        corrected, dice = corrected_person(p_outcome, people[pid], dice, t)
        if corrected.death_roll is not None:
            rolls.append(corrected.death_roll)
        out_people.append(corrected)
    return ConditionCorrected(
        battle_id=battle.battle_id,
        units=tuple(out_units),
        people=tuple(out_people),
        actor=actor,
        note=note,
        source=source,
        notes=tuple(notes),
        rolls=tuple(rolls),
    )


def decide_correct(state: CampaignState, cmd: CorrectCondition, dice: Dice) -> list[Event]:
    """The referee's own values (``mekref battle correct --person NAME --hits N``)."""
    battle, _ = resolved_battle(state, cmd.battle_id)
    if not cmd.units and not cmd.people:
        raise Refusal("nothing_to_correct", "name a unit's damage or a person's hits to correct")
    units = {u.unit_id: u.damage for u in cmd.units}
    people = {p.person_id: p.hits for p in cmd.people}
    if len(units) != len(cmd.units) or len(people) != len(cmd.people):
        raise Refusal("duplicate", "a unit or person is named twice")
    return [correction(state, battle, units, people, dice, actor=cmd.actor, note=cmd.note)]


def evolve_corrected(state: CampaignState, e: ConditionCorrected) -> CampaignState:
    led = state.battles
    battle = led.battles[e.battle_id]
    res = battle.resolution
    assert res is not None  # decided on a resolved battle
    by_unit = {u.unit_id: u for u in e.units}
    by_person = {p.person_id: p for p in e.people}
    units = tuple(
        replace(o, damage=by_unit[o.unit_id].damage, repair=by_unit[o.unit_id].repair)
        if o.unit_id in by_unit
        else o
        for o in res.units
    )
    outcomes = tuple(_person_outcome(o, by_person.get(o.person_id)) for o in res.people)
    people = dict(state.people)
    for c in e.people:
        person = people[c.person_id]
        rolled = c.death_roll is not None or person.death_rolled
        people[c.person_id] = person_after(person, c.hits, c.fate, rolled)
    resolution = replace(res, units=units, people=outcomes)
    new_led = replace(
        led,
        battles=led.battles.with_battle(
            replace(
                battle,
                resolution=resolution,
                corrected_by=(*battle.corrected_by, e.file_sha256)
                if e.file_sha256
                else battle.corrected_by,
            )
        ),
        unit_damage={**led.unit_damage, **{u.unit_id: u.damage for u in e.units}},
    )
    return replace(state, battles=new_led, people=people)


def _person_outcome(
    outcome: PersonOutcome, corrected: CorrectedPerson | None = None
) -> PersonOutcome:
    if corrected is None:
        return outcome
    return replace(
        outcome,
        hits=corrected.hits,
        fate=corrected.fate,
        heal_cost_sp=corrected.heal_cost_sp,
        needs_hospital=corrected.needs_hospital,
        death_roll=corrected.death_roll or outcome.death_roll,
    )


def describe(state: CampaignState, e: ConditionCorrected) -> list[str]:
    """One line per change, as ``battle correct`` and ``battle ingest`` print them."""
    lines = []
    for u in e.units:
        d = u.damage
        lines.append(
            f"{_name_of(state, u.unit_id)}: damage now armour lost {d.armor_lost}, structure "
            f"lost {d.internal_lost}, critical hits {d.critical_hits}; repair "
            f"{u.repair.total_sp} SP (was {u.previous_total_sp} SP)"
        )
    for p in e.people:
        line = f"{_person_name(state, p.person_id)}: {p.hits} hit(s), was {p.hits_before}"
        if p.death_roll is not None:
            verdict = "dies" if p.fate is PersonFate.DIED_OF_WOUNDS else "lives"
            line += f"; death roll (L125) {p.death_roll.total}: {verdict}"
        elif p.fate is PersonFate.KIA:
            line += "; killed in action (L125: 6 hits)"
        lines.append(line)
    lines += list(e.notes)
    return lines


__all__ = [
    "ConditionCorrected",
    "CorrectCondition",
    "CorrectedPerson",
    "CorrectedUnit",
    "PersonCorrection",
    "UnitCorrection",
    "correction",
    "decide_correct",
    "describe",
    "evolve_corrected",
    "resolved_battle",
]
