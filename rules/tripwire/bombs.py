"""Buying bombs for aerospace fighters (L84, rulings R-BOMB-1 and R-BOMB-2).

L84: "| Purchase Bomb Loadout/Per Bomb (Intro/Standard/Advanced) | 1/2/5 |". The bomb types, the
hardpoints each takes and the fighter's bomb points are MegaMek's (``tables/bombs.toml``); the
tier of each type is ruling R-BOMB-1. Bombs are paid like a re-arm: from the pool where the
fighter stands (L58, R-WHERE-2), the referee's word where the map cannot say (R-WHERE-1). The
bombs stay on the fighter (``CampaignState.bombs``) and go out with it in the next scenario
export (MegaMek's ``<bombs>`` element); the next battle it fights uses them up (R-BOMB-2).
"""

from __future__ import annotations

from dataclasses import field, replace
from functools import cache
from typing import Any

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote, command_type, event_type
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tables import int_field, load_toml, row_records, rows
from mekref.rules.tripwire.campaign import Decider, Evolver
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.spending_checks import afford, side_pool
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.whereabouts import (
    L58,
    place_of_unit,
    require_place,
    require_pool_here,
)

L84 = "L84 '| Purchase Bomb Loadout/Per Bomb (Intro/Standard/Advanced) | 1/2/5 |'"


@record
class BombRow(Record):
    key: str  # what the command line takes: "he", "cluster", ...
    internal: str  # MegaMek's internal name, written as <bomb type=...>
    name: str
    points: int  # hardpoints one bomb takes
    tier: str  # "intro", "standard" or "advanced" (R-BOMB-1)


@cache
def _table() -> dict[str, Any]:
    return load_toml("mekref.rules.tripwire.tables", "bombs.toml")


@cache
def bomb_rows() -> dict[str, BombRow]:
    """Bomb types by key."""
    return {b.key: b for b in row_records(BombRow, _table(), "bomb")}


def price(tier: str) -> int:
    """SP per bomb of a tier (L84)."""
    (row,) = rows(_table(), "price")
    return int_field(row, tier)


def bomb_points(tonnage: float) -> int:
    """A fighter's bomb points: one per 5 tons, rounded half up as MegaMek does."""
    (row,) = rows(_table(), "capacity")
    return int(tonnage / int_field(row, "tons_per_point") + 0.5)


def _by_internal() -> dict[str, BombRow]:
    return {r.internal: r for r in bomb_rows().values()}


def points_carried(loadout: tuple[tuple[str, int], ...]) -> int:
    table = _by_internal()
    return sum(table[name].points * count for name, count in loadout if name in table)


@command_type("BuyBombs")
@record
class BuyBombs(Command):
    """Buy bombs for an aerospace fighter: ``bombs`` are (key, count) pairs of the bomb table."""

    unit_id: str
    pool_id: str
    bombs: tuple[tuple[str, int], ...]
    # The referee's word where the map cannot say where the fighter is (R-WHERE-1).
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@event_type("BombsBought")
@record
class BombsBought(Event):
    unit_id: str
    pool_id: str
    bombs: tuple[tuple[str, int], ...]  # MegaMek internal name, count: what was bought
    cost_sp: int
    actor: str
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


def _decide_buy(state: CampaignState, cmd: BuyBombs, dice: Dice, rules: TripWire) -> list[Event]:
    unit = state.units.get(cmd.unit_id)
    if unit is None:
        raise Refusal("unknown_unit", f"unit_id: no unit {cmd.unit_id!r}")
    if unit.kind is not UnitKind.AEROSPACE_FIGHTER:
        raise Refusal(
            "not_a_bomber",
            f"unit_id: {unit.chassis} {unit.model} is not an aerospace fighter: only fighters "
            f"carry bombs ({L84})",
        )
    if not cmd.bombs:
        raise Refusal("bad_param", "bombs: name at least one bomb type and count")
    table = bomb_rows()
    bought: dict[str, int] = {}
    cost = points = 0
    for key, count in cmd.bombs:
        row = table.get(key)
        if row is None:
            raise Refusal(
                "bad_param", f"bombs: {key!r} is not a bomb type; known: {', '.join(table)}"
            )
        if count <= 0:
            raise Refusal("bad_param", f"bombs: {key}: a count above 0, got {count}")
        bought[row.internal] = bought.get(row.internal, 0) + count
        cost += count * price(row.tier)
        points += count * row.points
    carried = state.bombs.get(unit.unit_id, ())
    room = bomb_points(float(unit.tonnage)) - points_carried(carried)
    if points > room:
        raise Refusal(
            "no_room",
            f"bombs: {unit.chassis} {unit.model} ({unit.tonnage} t) has {room} bomb point(s) "
            f"free, these take {points} (one point per 5 tons; R-BOMB-1)",
        )
    pool = side_pool(state, cmd.pool_id, unit.side_id)
    who = f"{unit.chassis} {unit.model}"
    found = require_place(state, place_of_unit(state, unit), who, L58, cmd.note)
    if found is not None and cmd.note is None:
        require_pool_here(state, found, pool, who)
    afford(pool, cost, "the bombs cost")
    return [
        BombsBought(
            unit_id=unit.unit_id,
            pool_id=pool.pool_id,
            bombs=tuple(sorted(bought.items())),
            cost_sp=cost,
            actor=cmd.actor,
            note=cmd.note,
        )
    ]


def _evolve_bought(state: CampaignState, e: BombsBought) -> CampaignState:
    carried = dict(state.bombs.get(e.unit_id, ()))
    for name, count in e.bombs:
        carried[name] = carried.get(name, 0) + count
    pool = state.pools[e.pool_id]
    return replace(
        state,
        bombs={**state.bombs, e.unit_id: tuple(sorted(carried.items()))},
        pools={**state.pools, pool.pool_id: replace(pool, balance=pool.balance - e.cost_sp)},
    )


DECIDERS: dict[type[Command], Decider] = {BuyBombs: _decide_buy}
EVOLVERS: dict[type[Event], Evolver] = {BombsBought: _evolve_bought}
