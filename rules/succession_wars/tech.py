"""What a House's technology level does: prices, combat modifiers, JumpShip range, taxes.

The scale prints effects at some levels; an effect holds "from that level onward until
superseded", i.e. away from 0: below zero a level gets the effects printed at it and at every
printed level between it and 0; above zero likewise (ruling SW-07).
"""

from __future__ import annotations

from mekref.rules.record_type import Record, record
from mekref.rules.succession_wars.data import Tables, TechStep


@record
class TechEffects(Record):
    mech_price: int
    merc_price: int
    all_units: int  # combat modifier for every unit
    mech_units: int  # combat modifier for 'Mech units only
    jump_range: int
    boosted_mechs: int  # 'Mech units that may take +2 once per turn
    tax_bonus: int


def _applies(step: TechStep, level: int) -> bool:
    if step.level > 0:
        return level >= step.level
    if step.level < 0:
        return level <= step.level
    return False


def _farthest(steps: list[TechStep], attr: str) -> int:
    # The printed level farthest from 0 supersedes the nearer ones.
    best = 0
    best_level = 0
    for s in steps:
        value = getattr(s, attr)
        if value and abs(s.level) >= best_level:
            best, best_level = value, abs(s.level)
    return int(best)


def effects(tables: Tables, level: int) -> TechEffects:
    steps = [s for s in tables.tech_scale if _applies(s, level)]
    return TechEffects(
        mech_price=_farthest(steps, "mech_price") or tables.prices["house_mech"].price,
        merc_price=_farthest(steps, "merc_price") or tables.prices["merc_rebuild"].price,
        all_units=_farthest(steps, "all_units"),
        mech_units=_farthest(steps, "mech_units"),
        jump_range=tables.base_jump_range + _farthest(steps, "jump_range"),
        boosted_mechs=_farthest(steps, "boosted_mechs"),
        tax_bonus=_farthest(steps, "tax_bonus"),
    )


def clamp(tables: Tables, level: int) -> int:
    return max(tables.tech_low, min(tables.tech_high, level))
