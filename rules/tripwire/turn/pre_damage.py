"""The house rules' random pre-battle damage in a TripWire campaign (their lines 134-152):
``mekref battle pre-damage``, an option of a campaign created with ``--house-rules``.

The house rules roll it (:func:`~mekref.rules.house_rules.random_damage.roll_pre_battle_damage`,
their tables as data); the TripWire rolled-damage code lays it on the unit's stored condition
(:func:`~mekref.rules.tripwire.turn.day_damage.pre_battle`, as T-DM1 does for a maintenance
critical or a bombing), so the report prices it and the next engagement export writes it.
Rulings HOUSE-31 to HOUSE-34 in docs/house-rules.md.
"""

from __future__ import annotations

from mekref.adapters.megamek.design import UnitDesign
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, command_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.designs import design_of
from mekref.rules.tripwire.house_option import require_house_rules, unit_in_play
from mekref.rules.tripwire.house_seam import (
    SUPPORTED_KINDS,
    PreBattleDamage,
    load_house_tables,
    roll_pre_battle_damage,
)
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import day_damage
from mekref.rules.tripwire.turn import rolled_damage as rd
from mekref.rules.tripwire.turn.common import strategic_of
from mekref.rules.tripwire.turn.day import Day

#: L134, quoted in the refusal of a campaign without the house rules.
L134 = (
    "L134: 'Utilize the random damage table to represent units that have been engaged in "
    "combat before the actual battle.'"
)


@command_type("RollPreBattleDamage")
@record
class RollPreBattleDamage(Command):
    """Referee: roll the house rules' random pre-battle damage for one unit (lines 134-152)
    and lay it on its stored condition. Only in a campaign created with the house rules."""

    unit_id: str


def weapons_of(design: UnitDesign) -> tuple[str, ...]:
    """The weapons L143/L144 choose from: the design's mounted equipment but its ammunition
    (a vehicle's file lists both in one block; a 'Mech's Weapons section has no ammunition)."""
    return tuple(e.name for e in design.equipment if "ammo" not in e.name.lower())


def table_words(rolled: PreBattleDamage) -> tuple[str, ...]:
    """Each table roll in words: the count die, then each 3d6 with the row's text."""
    tables = load_house_tables()
    rows = {r.int("roll"): r for r in tables.rows("random_damage", "row")}
    times = rolled.count_roll // tables.rule("random_damage", "count").int("divide_by")
    out = [
        f"count die {rolled.count_roll}: {times} roll(s) on the Random Damage Table "
        "(L134: 1d6 halved, rounded down)"
    ]
    for r in rolled.results:
        text = rows[r.roll].ref.source.strip().strip("|").split("|", 1)[-1].strip()
        out.append(f"3d6 {r.roll} (L{r.line}): {text}")
    return tuple(out)


def decide(state: CampaignState, cmd: RollPreBattleDamage, dice: Dice, _: TripWire) -> list[Event]:
    require_house_rules(state, "pre-battle damage", L134)
    unit = unit_in_play(state, cmd.unit_id, "it fights no battle to be damaged before (HOUSE-34)")
    design = design_of(state, cmd.unit_id)
    if design is None:
        raise Refusal(
            "no_design",
            f"{cmd.unit_id}: the campaign keeps no design for it, so the damage has nowhere to "
            "land: record one with 'mekref force designs --units-dir DIR'",
        )
    if design.kind not in SUPPORTED_KINDS:
        raise Refusal(
            "no_hit_location_table",
            f"{cmd.unit_id}: random pre-battle damage is for biped and four-legged 'Mechs and "
            f"ground vehicles (HOUSE-20, HOUSE-21), not {design.kind.value.replace('_', ' ')}",
        )
    d = Day(state, strategic_of(state), dice)
    condition = rd.condition_of(
        unit,
        design,
        state.battles.unit_damage.get(cmd.unit_id),
        state.battles.loadouts.get(cmd.unit_id),
    )
    bins = rd.bins_now(design, condition, state.battles.loadouts.get(cmd.unit_id, ()))
    rolled, rolls, d.dice = roll_pre_battle_damage(
        d.dice,
        cmd.unit_id,
        weapons=weapons_of(design),
        ammo_types=rd.ammo_types(design, bins),
        kind=design.kind,
        locations=tuple(loc.name for loc in condition.locations),
    )
    day_damage.pre_battle(d, cmd.unit_id, design, rolled, rolls, table_words(rolled))
    return d.events
