"""The house rules' morale test in a TripWire campaign (their lines 105-133): ``mekref battle
morale``, an option of a campaign created with ``--house-rules``.

The house rules roll it (:func:`~mekref.rules.house_rules.morale.morale_test`, their tables as
data); the campaign records it per battle, and a unit whose total falls below 2 or above 12
makes no more morale checks in that battle (HOUSE-35). The unit's skill is its pilot's rank by
combined skill (HOUSE-14, HOUSE-27) unless the referee names it.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, command_type, event_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.house_option import OUT_OF_PLAY, require_house_rules
from mekref.rules.tripwire.house_seam import MoraleTest, morale_skill_for, morale_test, rank_name
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, PersonStatus

#: L105, quoted in the refusals.
L105 = (
    "L105: 'During a battle the opposing forces will take losses. The following rules apply "
    "only to 'Mechs and vehicles. Infantry uses the morale rules from Tactical Operations.'"
)


@command_type("TestMorale")
@record
class TestMorale(Command):
    """Referee: a unit's morale test in the end phase of a battle turn (house rules line 107).
    ``battle`` names the battle (its engagement or battle id); ``skill`` the unit skill when
    not its pilot's rank; ``situations`` the situation rows' keys."""

    __test__ = False  # a command, not a test class

    unit_id: str
    battle: str
    turn: int
    nationality: str
    situations: tuple[str, ...] = ()
    skill: str = ""


@event_type("HouseMoraleTested")
@record
class HouseMoraleTested(Event):
    """A unit's morale test (house rules lines 105-133) in one battle of a TripWire campaign."""

    side_id: str
    battle: str
    turn: int
    skill: str
    test: MoraleTest


def _skill(state: CampaignState, cmd: TestMorale) -> str:
    unit = state.units[cmd.unit_id]
    pilots = [
        state.people[p]
        for p in unit.crew
        if p in state.people and state.people[p].status is not PersonStatus.DEAD
    ]
    if not pilots:
        if cmd.skill:
            return cmd.skill
        raise Refusal(
            "no_skill",
            f"{cmd.unit_id} has no pilot on record: give the unit's skill (Green ... Elite)",
        )
    pilot = pilots[0]
    ranked = morale_skill_for(rank_name(pilot.piloting, pilot.gunnery), pilot.person_id)
    if cmd.skill and cmd.skill != ranked:
        raise Refusal(
            "skill_mismatch",
            f"{pilot.person_id} ({pilot.name}) is {ranked} by combined skill (HOUSE-27), not "
            f"{cmd.skill}",
        )
    return ranked


def decide(state: CampaignState, cmd: TestMorale, dice: Dice, _: TripWire) -> list[Event]:
    require_house_rules(state, "the morale test", L105)
    unit = state.units.get(cmd.unit_id)
    if unit is None:
        raise Refusal("unknown_unit", f"no unit {cmd.unit_id!r}")
    if unit.kind.is_infantry or not (unit.kind.is_vehicle or unit.kind.value == "mek"):
        raise Refusal("not_mek_or_vehicle", f"{cmd.unit_id} is {unit.kind.value}: {L105}")
    fate = state.battles.fates.get(cmd.unit_id, Fate.OPERATIONAL)
    if fate in OUT_OF_PLAY:
        raise Refusal(
            "out_of_play", f"{cmd.unit_id} is {fate.value.replace('_', ' ')}: it is in no battle"
        )
    if not cmd.battle.strip():
        raise Refusal("no_battle", "name the battle (its engagement or battle id)")
    if cmd.unit_id in state.house_morale_exempt.get(cmd.battle, ()):
        raise Refusal(
            "no_more_morale",
            f"{cmd.unit_id} no longer makes morale checks in {cmd.battle} (L107: 'If a unit "
            "gets a result of less than 2 or greater than 12, the unit no longer makes morale "
            "checks.')",
        )
    skill = _skill(state, cmd)
    test, roll, _dice = morale_test(
        dice, cmd.unit_id, cmd.turn, skill, cmd.nationality, tuple(cmd.situations)
    )
    return [
        HouseMoraleTested(
            side_id=unit.side_id,
            battle=cmd.battle,
            turn=cmd.turn,
            skill=skill,
            test=test,
            rolls=(roll,),
        )
    ]


def evolve(state: CampaignState, e: HouseMoraleTested) -> CampaignState:
    if not e.test.exempt_from_now:
        return state
    exempt = state.house_morale_exempt
    units = (*exempt.get(e.battle, ()), e.test.unit_id)
    return replace(state, house_morale_exempt={**exempt, e.battle: units})


def describe(e: HouseMoraleTested) -> str:
    """The test in words (house rules line 107's bands)."""
    t = e.test
    after = "; it makes no more morale checks in this battle" if t.exempt_from_now else ""
    return (
        f"{t.unit_id} morale ({e.battle}, turn {e.turn}): 2d6 {t.die_total} {t.modifier:+d} "
        f"({', '.join(t.reasons)}) = {t.total}: {t.result.replace('_', ' ')}{after}"
    )
