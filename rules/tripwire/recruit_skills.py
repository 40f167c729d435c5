"""Rolling a recruit's skills (L232, ruling R-HIRE-3).

L232: "Roll personnel skills using Total Warfare." L233: "Purchasing Experienced personnel – Pilots
or crews with different experience levels cost different amounts of Support Points." The side
chooses the training level it pays for (lines 234-240); the skills are rolled on Total Warfare's
Random Skills Table for that level (``tables/random_skills.toml``, as MegaMek rolls it): 1D6 for
Gunnery, 1D6 for Piloting, each named and kept in the ``PersonHired`` event.
"""

from __future__ import annotations

from dataclasses import field, replace
from functools import cache
from typing import Any

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Command, Event, RefereeNote, command_type
from mekref.rules.record_type import record
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal
from mekref.rules.tables import load_toml, rows, str_field
from mekref.rules.tripwire.battle_spending import HirePerson, PersonHired
from mekref.rules.tripwire.campaign import Decider
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.spending_people import hire_events
from mekref.rules.tripwire.state import CampaignState

#: L47: "There should be a maximum difference of 2 between Gunnery and Piloting".
MAX_GAP = 2
#: The training levels of the table (L232), the rows ``level_columns`` reads.
RECRUIT_LEVELS = ("Very Green", "Green", "Regular", "Veteran", "Elite")


@cache
def _table() -> dict[str, Any]:
    return load_toml("mekref.rules.tripwire.tables", "random_skills.toml")


@cache
def level_columns() -> dict[str, tuple[int, ...]]:
    """Training level -> the skill column each face of the 1D6 reads."""
    return {str_field(r, "name"): tuple(r["columns"]) for r in rows(_table(), "level")}


def _skills() -> tuple[tuple[int, ...], tuple[int, ...]]:
    (row,) = rows(_table(), "skills")
    return tuple(row["gunnery"]), tuple(row["piloting"])


def skills_for(level: str, gunnery_die: int, piloting_die: int) -> tuple[int, int]:
    """The Random Skills Table: Gunnery and Piloting for two 1D6 faces at a training level,
    the worse skill brought within 2 of the other (L47, R-HIRE-3)."""
    columns = level_columns()[level]
    gunnery_row, piloting_row = _skills()
    gunnery = gunnery_row[columns[gunnery_die - 1]]
    piloting = piloting_row[columns[piloting_die - 1]]
    if piloting > gunnery + MAX_GAP:
        piloting = gunnery + MAX_GAP
    if gunnery > piloting + MAX_GAP:
        gunnery = piloting + MAX_GAP
    return gunnery, piloting


@command_type("HireRecruit")
@record
class HireRecruit(Command):
    """Hire a pilot or crew at a training level, its skills rolled (L232); the id is the
    caller's. Everything else is as ``HirePerson`` (R-HIRE-2, R-SEAT-2)."""

    person_id: str
    side_id: str
    pool_id: str
    name: str
    level: str = field(metadata={"allowed": RECRUIT_LEVELS})  # the table's rows, any case
    vehicle_crew: bool = False
    hire_as: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


def _decide(state: CampaignState, cmd: HireRecruit, dice: Dice, rules: TripWire) -> list[Event]:
    levels = level_columns()
    if cmd.level not in levels:
        raise Refusal(
            "bad_level",
            f"level: skills are rolled for {', '.join(levels)}, not {cmd.level!r} (L232 'Roll "
            "personnel skills using Total Warfare'; a Civilian has no combat skills to roll)",
        )
    if cmd.person_id in state.people:
        raise Refusal("duplicate_id", f"person id {cmd.person_id!r} is taken")
    rolls: list[Roll] = []
    for what in ("gunnery", "piloting"):
        roll, dice = dice.roll(f"recruit {what}, {cmd.person_id}", 1)
        rolls.append(roll)
    gunnery, piloting = skills_for(cmd.level, rolls[0].total, rolls[1].total)
    hire = built_from(HirePerson, cmd, gunnery=gunnery, piloting=piloting)
    events = hire_events(state, hire, bought_level=cmd.level)
    return [
        replace(e, rolls=tuple(rolls), rolled_level=cmd.level) if isinstance(e, PersonHired) else e
        for e in events
    ]


DECIDERS: dict[type[Command], Decider] = {HireRecruit: _decide}
