"""Checks every spending decision shares: the unit still exists, the pool pays or receives."""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import UnitDamage
from mekref.rules.tripwire.campaign import pool_of
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, Pool


def _unit(state: CampaignState, unit_id: str) -> CampaignUnit:
    unit = state.units.get(unit_id)
    if unit is None:
        raise Refusal("unknown_unit", f"no unit {unit_id!r}")
    if unit_id in state.battles.scrapped or unit_id in state.battles.sold:
        raise Refusal("unit_gone", f"unit {unit_id!r} was scrapped or sold")
    return unit


def _paying_pool(state: CampaignState, pool_id: str, side_id: str, cost: int) -> Pool:
    pool = pool_of(state, pool_id)
    if pool.side_id != side_id:
        raise Refusal("other_side", f"pool {pool.name!r} belongs to side {pool.side_id}")
    afford(pool, cost)
    return pool


def afford(pool: Pool, cost: int, what: str = "this costs") -> None:
    """Refuses a cost the pool cannot pay; ``what`` names what costs it ("healing costs")."""
    if cost > pool.balance:
        raise Refusal("insufficient_wp", f"{what} {cost} SP; {pool.name!r} holds {pool.balance}")


def side_pool(state: CampaignState, pool_id: str, side_id: str) -> Pool:
    """The side's pool ``pool_id``: another side's pool is refused as a missing one is."""
    pool = state.pools.get(pool_id)
    if pool is None or pool.side_id != side_id:
        raise Refusal("unknown_pool", f"pool_id: name a WarChest pool of {side_id!r}")
    return pool


def _receiving_pool(state: CampaignState, pool_id: str, side_id: str, wp: int) -> Pool:
    pool = _paying_pool(state, pool_id, side_id, 0)
    if pool.capacity is not None and pool.balance + wp > pool.capacity:
        room = pool.capacity - pool.balance
        raise Refusal("over_capacity", f"pool {pool.name!r} has room for {room} WP, not {wp}")
    return pool


def damage_of(state: CampaignState, unit_id: str) -> UnitDamage:
    return state.battles.unit_damage.get(unit_id, UnitDamage())


def _pay(state: CampaignState, pool_id: str, delta: int) -> CampaignState:
    pool = state.pools[pool_id]
    return replace(
        state, pools={**state.pools, pool_id: replace(pool, balance=pool.balance + delta)}
    )
