"""Recording a BV the import did not give a unit (ruling R-VP-6).

A force imported without a BV table (``force import`` without ``--bv-table``) has units of no
BV. Battle VP are shares of BV destroyed (L419-L424), the end by attrition a share of BV
(L412): while a unit has no BV those figures are not known, never counted as 0. The referee
records the unit's BV here (MegaMek's figure for its design); every battle it fought is scored
again with it, the sides' battle VP are summed again in the order the battles were resolved
("victory points can't be reduced below 0", L414), and, when the unit was held when the
strategic map started, its BV joins its side's starting BV (R-VP-3).
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote, command_type, event_type
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_evolve import with_battle_vp
from mekref.rules.tripwire.battle_model import BattleStatus, Fate, SideOutcome
from mekref.rules.tripwire.battle_resolution import rescored
from mekref.rules.tripwire.campaign import Decider, Evolver
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState


@command_type("RecordUnitBv")
@record
class RecordUnitBv(Command):
    """Referee: give a unit imported without a BV its BV; its battles are scored again."""

    unit_id: str
    bv: int
    note: RefereeNote
    # Once the strategic map has started: whether the unit was held then (its BV joins its
    # side's starting BV, L412) or joined later. None before the map, where nothing asks.
    held_at_start: bool | None = None


@record
class RescoredBattle(Record):
    """A battle the unit fought, its sides scored again with the BV recorded."""

    battle_id: str
    sides: tuple[SideOutcome, ...]


@event_type("UnitBvRecorded")
@record
class UnitBvRecorded(Event):
    unit_id: str
    bv: int
    battles: tuple[RescoredBattle, ...]
    starting_side: str  # the side whose starting BV it joins; "" when none (R-VP-3)
    note: RefereeNote
    actor: str


def _with_bv(state: CampaignState, unit_id: str, bv: int) -> CampaignState:
    return replace(state, units={**state.units, unit_id: replace(state.units[unit_id], bv=bv)})


def _decide(state: CampaignState, cmd: RecordUnitBv, dice: Dice, rules: TripWire) -> list[Event]:
    unit = state.units.get(cmd.unit_id)
    if unit is None:
        raise Refusal("unknown_unit", f"no unit {cmd.unit_id!r}; see mekref report --json units")
    if cmd.bv <= 0:
        raise Refusal("bad_bv", f"a BV is a positive number (MegaMek's Units.txt), not {cmd.bv}")
    now = state.battles.bv_override.get(unit.unit_id, unit.bv)
    if now > 0:
        raise Refusal(
            "has_bv",
            f"unit {unit.unit_id} ({unit.chassis} {unit.model}) already has a BV of {now}: "
            "only a unit imported without one is given its BV here (R-VP-6)",
        )
    starting_side = ""
    if state.strategic is not None:
        if cmd.held_at_start is None:
            raise Refusal(
                "held_at_start",
                "the strategic map has started: say whether the unit was held then "
                "(--held-at-start: its BV joins its side's starting BV; L412 'starting combat "
                "effectiveness', R-VP-3) or joined later (--joined-later)",
            )
        if cmd.held_at_start:
            if state.battles.fates.get(unit.unit_id) is Fate.CAPTURED:
                raise Refusal(
                    "changed_sides",
                    f"unit {unit.unit_id} was captured: the side that held it when the map "
                    "started cannot be read from it now; record it --joined-later and set the "
                    "starting BV by the referee's word",
                )
            starting_side = unit.side_id
    after = _with_bv(state, unit.unit_id, cmd.bv)
    battles = tuple(
        RescoredBattle(battle_id=b.battle_id, sides=rescored(after, b.resolution, rules.tables))
        for b in sorted(state.battles.battles.values(), key=lambda b: b.number)
        if b.status is BattleStatus.RESOLVED
        and b.resolution is not None
        and any(u.unit_id == unit.unit_id for u in b.resolution.units)
    )
    return [
        UnitBvRecorded(
            unit_id=unit.unit_id,
            bv=cmd.bv,
            battles=battles,
            starting_side=starting_side,
            note=cmd.note,
            actor=cmd.actor,
        )
    ]


def _evolve(state: CampaignState, e: UnitBvRecorded) -> CampaignState:
    state = _with_bv(state, e.unit_id, e.bv)
    led = state.battles
    battles = led.battles
    for x in e.battles:
        b = battles[x.battle_id]
        if b.resolution is not None:
            battles = battles.with_battle(
                replace(b, resolution=replace(b.resolution, sides=x.sides))
            )
    # The battle VP summed again in the order the battles were resolved, as each resolution
    # added them: the floor of 0 (L414) makes the order count. Unknown VP add nothing (R-VP-6).
    vp: dict[str, int] = {}
    resolved = [b.resolution for b in battles.values() if b.resolution is not None]
    for res in sorted(resolved, key=lambda r: r.track):
        vp = with_battle_vp(vp, res.sides)
    state = replace(state, battles=replace(led, battles=battles, victory_points=vp))
    s = state.strategic
    if s is not None and e.starting_side:
        start = {**s.starting_bv, e.starting_side: s.starting_bv.get(e.starting_side, 0) + e.bv}
        state = replace(state, strategic=replace(s, starting_bv=start))
    return state


DECIDERS: dict[type[Command], Decider] = {RecordUnitBv: _decide}
EVOLVERS: dict[type[Event], Evolver] = {UnitBvRecorded: _evolve}
