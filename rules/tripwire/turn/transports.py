"""Linking a WarChest transport to the unit carrying it, at any time of the campaign (ruling
T-C3 in docs/turn.md).

L57: "Each force has a supply of WarChest Points associate with each Location they control, or
each DropShip or Baggage Train." L59: "Each Union DropShip carries 250 WP or resources. The
Gazelle DropShip carries 2500 WarChest Points. Any unit can carry 5x its Cargo Capacity in
WarChest Points".

A DropShip or cargo pool is where its carrier stands (R-WHERE-2); ``turn setup`` links the
pools its ``[transports]`` table names (T-C2). ``LinkTransport`` links (or moves) one later: a
pool opened after the set-up, a DropShip that joined the campaign, a cargo pool handed to
another truck. The WP do not travel by it: a pool that holds WP passes only to a carrier
standing where the pool is; one never linked holds them nowhere on the map, so once the first
day is resolved it is linked only empty.
"""

from __future__ import annotations

from dataclasses import field

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, command_type, event_type
from mekref.rules.record_type import record
from mekref.rules.records import copy_with
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.campaign import Decider, Evolver
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, Pool, PoolKind
from mekref.rules.tripwire.turn.cargo import L59, pool_hex
from mekref.rules.tripwire.turn.common import strategic_of
from mekref.rules.tripwire.turn.state import StrategicState

L57 = (
    "L57 'Each force has a supply of WarChest Points associate with each Location they "
    "control, or each DropShip or Baggage Train'"
)


@command_type("LinkTransport")
@record
class LinkTransport(Command):
    """A side links its DropShip or cargo pool to the unit carrying it (ruling T-C3)."""

    side_id: str
    pool_id: str
    unit_id: str


@event_type("TransportLinked")
@record
class TransportLinked(Event):
    """A transport pool now travels with ``unit_id``; private to the side.

    Where a side keeps its WP is its own business, as for WarChestLoaded."""

    side_id: str
    pool_id: str
    unit_id: str
    actor: str
    before: str = field(default="", metadata=OMIT_IF_DEFAULT)  # the former carrier, if any


def _unit_hex(s: StrategicState, unit_id: str) -> str | None:
    for _, f in sorted(s.formations.items()):
        if unit_id in f.unit_ids:
            return f.hex
    return None


def _wp_stay(state: CampaignState, s: StrategicState, pool: Pool, name: str, where: str) -> None:
    """A pool holding WP passes only to a carrier standing where its WP are. A pool never
    linked is nowhere on the map: at set-up (before the first day is resolved) its WP come
    aboard where the carrier stands, as ``[transports]`` of ``turn setup`` links them (T-C2);
    later no carrier stands with them."""
    if pool.balance <= 0:
        return
    held = pool_hex(state, s, s.formations, pool)
    if held == where:
        return
    if held is None and s.transports.get(pool.pool_id) is None and s.day <= 1:
        return
    if held is None:
        raise Refusal(
            "not_at_location",
            f"unit_id: {pool.name!r} holds {pool.balance} WP and stands nowhere on the map (no "
            f"carrier holds it), so no carrier stands with its WP: the referee moves them to "
            f"another pool first (mekref spend move --from {pool.pool_id} --to POOL --amount "
            f"{pool.balance} --referee NAME --reason TEXT), then the empty pool is linked ({L59})",
        )
    raise Refusal(
        "not_at_location",
        f"unit_id: {pool.name!r} holds {pool.balance} WP in {held or 'orbit'}, and {name} "
        f"stands in {where or 'orbit'}: the WP pass only to a carrier standing where they "
        f"are ({L59}; unload them first)",
    )


def decide_link(
    state: CampaignState, cmd: LinkTransport, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_of(state)
    pool = state.pools.get(cmd.pool_id)
    if pool is None or pool.side_id != cmd.side_id:
        # Another side's pool is answered like a missing one: nothing leaks.
        raise Refusal(
            "bad_transport", f"pool_id: no WarChest pool {cmd.pool_id!r} of {cmd.side_id!r}"
        )
    if pool.kind is PoolKind.LOCATION:
        raise Refusal(
            "bad_transport",
            f"pool_id: {pool.name!r} is a location's chest, which stays at its location "
            f"({L57}); link a DropShip or cargo pool",
        )
    unit = state.units.get(cmd.unit_id)
    if unit is None or unit.side_id != cmd.side_id:
        raise Refusal("bad_transport", f"unit_id: no unit {cmd.unit_id!r} of {cmd.side_id!r}")
    name = f"{unit.chassis} {unit.model}".strip()
    if pool.kind is PoolKind.DROPSHIP and unit.kind is not UnitKind.DROPSHIP:
        raise Refusal(
            "bad_transport",
            f"unit_id: {name} is a {unit.kind.value}, not a DropShip: a DropShip pool travels "
            f"in a DropShip ({L59})",
        )
    carried = sorted(p for p, u in s.transports.items() if u == unit.unit_id and p != pool.pool_id)
    if carried:
        raise Refusal(
            "bad_transport",
            f"unit_id: {name} already carries the pool {carried[0]!r}; one transport pool a "
            "carrier (its capacity is the carrier's, L59)",
        )
    before = s.transports.get(pool.pool_id, "")
    if before == unit.unit_id:
        raise Refusal("bad_transport", f"pool_id: {pool.pool_id!r} is already carried by {name}")
    where = _unit_hex(s, unit.unit_id)
    if where is None:
        raise Refusal("bad_transport", f"unit_id: {name} stands in no formation of the map")
    _wp_stay(state, s, pool, name, where)
    return [
        TransportLinked(
            side_id=cmd.side_id,
            pool_id=pool.pool_id,
            unit_id=unit.unit_id,
            before=before,
            actor=cmd.actor,
        )
    ]


def evolve_linked(state: CampaignState, e: TransportLinked) -> CampaignState:
    s = strategic_of(state)
    transports = dict(sorted({**s.transports, e.pool_id: e.unit_id}.items()))
    return copy_with(state, strategic=copy_with(s, transports=transports))


DECIDERS: dict[type[Command], Decider] = {LinkTransport: decide_link}
EVOLVERS: dict[type[Event], Evolver] = {TransportLinked: evolve_linked}
