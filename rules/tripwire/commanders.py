"""Force commanders: level, skill bonus and edge derived from their skills, and when they count.

L26: "Force commanders provide an initiative bonus while they are in play and not in Forced
Withdrawal or Truly Destroyed. Each Commander (Company or Lance) also has edge point they can
spend which reset each battle." L29: "Commanders gain a Skill Bonis to Initiative and to
strategic rolls based on ether training level." The bonus and the edge come from the L30-34
table (``tables/commanders.toml``) at the training level of the person in the commander's seat
(``tables/training_levels.toml``, ruling R-SKILL-1); nothing about them is typed by hand.

Rulings R-CMD-1 to R-CMD-3 (docs/rulings.md) say who the commander is, when the bonus is lost
and which rolls take it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from mekref.rules.record_type import Record, record
from mekref.rules.tables import SourceRef, load_toml, section, source_of
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.model import UnitRole
from mekref.rules.tripwire.skills import commander_benefits, training_level
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, PersonStatus
from mekref.rules.tripwire.table_loader import CommanderRow, TripWireTables, load_tables
from mekref.rules.tripwire.toe import SALVAGE_COMPANY, unit_gone

#: A commander whose unit left its last battle destroyed (and is not yet repaired) is out of
#: play as a unit in Forced Withdrawal is (ruling R-CMD-2).
_OUT_OF_PLAY = frozenset({Fate.DESTROYED_REPAIRABLE})


@record
class CommanderRefs(Record):
    in_play: SourceRef  # L26
    bonus: SourceRef  # L29
    ambush: SourceRef  # L281


@cache
def refs() -> CommanderRefs:
    data: dict[str, Any] = load_toml("mekref.rules.tripwire.tables", "commanders.toml")
    return CommanderRefs(
        in_play=source_of(section(data, "in_play")),
        bonus=source_of(section(data, "bonus")),
        ambush=source_of(section(data, "ambush")),
    )


@record
class CommanderStanding(Record):
    """One commander (a Force Commander or a lance's Lieutenant) as the rules see them now."""

    side_id: str
    unit_id: str
    unit_name: str
    force_commander: bool  # False: a lance leader (edge only, ruling R-CMD-3)
    person_id: str | None  # the person in the unit's first seat; None: nobody
    person_name: str
    gunnery: int | None
    piloting: int | None
    level: str  # the training level derived from the skills ("" without a person)
    row: CommanderRow | None  # the L31-34 row; None below Veteran
    lost: str  # why the bonus does not count now; "" while in play

    @property
    def in_play(self) -> bool:
        return not self.lost

    @property
    def skill_bonus(self) -> int:
        """The Skill Bonus a Force Commander adds while in play (0 otherwise)."""
        if self.row is None or self.lost or not self.force_commander:
            return 0
        return self.row.skill_bonus

    @property
    def edge(self) -> int:
        """Edge points for each battle (L26: every commander, company or lance)."""
        return self.row.edge if self.row is not None else 0


def _lost(state: CampaignState, unit: CampaignUnit) -> str:
    led = state.battles
    gone = unit_gone(state, unit.unit_id)
    if gone:
        return gone
    if led.fates.get(unit.unit_id) in _OUT_OF_PLAY:
        return "the unit was destroyed in its last battle and is not repaired (R-CMD-2)"
    if not unit.crew:
        return "nobody sits in the commander's unit"
    person = state.people.get(unit.crew[0])
    if person is None:
        return "nobody sits in the commander's unit"
    if person.status is PersonStatus.DEAD:
        return f"{person.name} is dead"
    captor = led.captured_people.get(person.person_id)
    if captor is not None:
        return f"{person.name} is captured (held by {captor})"
    if person.unit_id != unit.unit_id:
        return f"{person.name} is not in the unit"
    return ""


def standing(
    state: CampaignState, unit: CampaignUnit, tables: TripWireTables | None = None
) -> CommanderStanding:
    t = tables or load_tables()
    person = state.people.get(unit.crew[0]) if unit.crew else None
    level = training_level(person.gunnery, person.piloting, t) if person is not None else ""
    return CommanderStanding(
        side_id=unit.side_id,
        unit_id=unit.unit_id,
        unit_name=f"{unit.chassis} {unit.model}".strip(),
        force_commander=UnitRole.FORCE_COMMANDER in unit.roles,
        person_id=person.person_id if person is not None else None,
        person_name=person.name if person is not None else "",
        gunnery=person.gunnery if person is not None else None,
        piloting=person.piloting if person is not None else None,
        level=level,
        row=commander_benefits(level, t) if level else None,
        lost=_lost(state, unit),
    )


def _is_commander(unit: CampaignUnit) -> bool:
    return UnitRole.FORCE_COMMANDER in unit.roles or UnitRole.LANCE_LEADER in unit.roles


def _sort_key(c: CommanderStanding) -> tuple[str, bool, str]:
    return (c.side_id, not c.force_commander, c.unit_name)


def commanders_of(
    state: CampaignState, side_id: str | None = None, tables: TripWireTables | None = None
) -> tuple[CommanderStanding, ...]:
    """Every commander of the side (of every side when ``side_id`` is None), Force Commanders
    first. A captured unit waiting in Salvage commands nobody (ruling R-CMD-1).

    This walks every unit of the campaign: for the commanders among a few units (a formation,
    an engagement's units) use :func:`commanders_among` or :func:`commander_bonus`, whose cost
    is that of the units given."""
    found = [
        standing(state, u, tables)
        for u in state.units.values()
        if (side_id is None or u.side_id == side_id)
        and u.company != SALVAGE_COMPANY
        and _is_commander(u)
    ]
    return tuple(sorted(found, key=_sort_key))


def commanders_among(
    state: CampaignState,
    unit_ids: Iterable[str],
    *,
    side_ids: Iterable[str] | None = None,
    force_commanders_only: bool = False,
    tables: TripWireTables | None = None,
) -> tuple[CommanderStanding, ...]:
    """The commanders :func:`commanders_of` lists (for ``side_ids``; every side when None)
    whose unit is among ``unit_ids``, in the same order, looking only at those units.

    A day resolves an engagement for every formation that meets another; walking every unit of
    the campaign for each made the day quadratic in formations (issue 28)."""
    sides = None if side_ids is None else frozenset(side_ids)
    found: list[CampaignUnit] = []
    for unit_id in dict.fromkeys(unit_ids):  # once each, as the walk sees each unit once
        u = state.units.get(unit_id)  # keyed by unit_id (every evolver keeps it so)
        if (
            u is not None
            and (sides is None or u.side_id in sides)
            and u.company != SALVAGE_COMPANY
            and (UnitRole.FORCE_COMMANDER in u.roles if force_commanders_only else _is_commander(u))
        ):
            found.append(u)
    listed = [standing(state, u, tables) for u in found]
    if len({_sort_key(c) for c in listed}) < len(listed):
        # Equal sort keys (two commanders' units of one name) keep the campaign's unit order,
        # as in commanders_of; only this rare case pays for a walk of every unit.
        place = {unit_id: i for i, unit_id in enumerate(state.units)}
        listed.sort(key=lambda c: place[c.unit_id])
    return tuple(sorted(listed, key=_sort_key))


def commander_bonus(
    state: CampaignState,
    side_id: str,
    unit_ids: Iterable[str],
    tables: TripWireTables | None = None,
) -> tuple[int, tuple[CommanderStanding, ...]]:
    """The Force Commander's Skill Bonus for a side's units (a formation, or the formations of
    an engagement): the best of the side's Force Commanders whose unit is among them and who
    is in play; 0 when none is (ruling R-CMD-1). Also the Force Commanders found there.

    Costs the units given, not the campaign's (it is asked for every formation of a day)."""
    present = commanders_among(
        state, unit_ids, side_ids=(side_id,), force_commanders_only=True, tables=tables
    )
    return max((c.skill_bonus for c in present), default=0), present


def explain(present: tuple[CommanderStanding, ...]) -> str:
    """One phrase: which commander gives what, or why nothing."""
    if not present:
        return "no Force Commander among these units"
    parts = []
    for c in present:
        who = f"{c.person_name or 'nobody'} in {c.unit_name}"
        if c.lost:
            parts.append(f"{who}: lost ({c.lost})")
        elif c.row is None:
            parts.append(f"{who}: {c.level or 'no level'}, no Skill Bonus below Veteran")
        else:
            parts.append(f"{who}: {c.level} {c.gunnery}/{c.piloting}, +{c.row.skill_bonus}")
    return "; ".join(parts)
