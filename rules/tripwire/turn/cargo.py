"""Moving WarChest Points with a Load/Unload order (ruling T-WP1).

L59: "Each Union DropShip carries 250 WP or resources. The Gazelle DropShip carries 2500 WarChest
Points. Any unit can carry 5x its Cargo Capacity in WarChest Points (e.g. A 10 to flatbed truck
can carry 50 WP). WarChest Points may be moved from one location to another, but this requires a
Load/Unload action." L206: "Units can be carried in a cargo hold but take 1 day to
load/unload."

WP travel in a transport's pool (a DropShip or cargo pool, its capacity the L59 figure): a
``load_unload`` order moves ``wp`` from the pool ``from`` to the pool ``to``, both where the
formation stands, one of them a transport a unit of the formation carries. Loading at one
location, moving, and unloading at another takes two orders, one at each end; the pool at the
destination is credited only by the unloading.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.hexmap import label
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState, Pool, PoolKind
from mekref.rules.tripwire.turn.events import WarChestLoaded
from mekref.rules.tripwire.turn.mapdata import hexmap_of
from mekref.rules.tripwire.turn.state import Formation, FormationOrder, StrategicState

L59 = (
    "L59 'WarChest Points may be moved from one location to another, but this requires a "
    "Load/Unload action'"
)


@record
class Cargo(Record):
    """A checked Load/Unload: WP from one pool to another, the transport that carries them."""

    source: Pool
    target: Pool
    amount: int
    transport: str  # the pool id of the transport carried by the formation


def pool_hex(
    state: CampaignState, s: StrategicState, formations: dict[str, Formation], pool: Pool
) -> str | None:
    """Where a pool is: a location pool at its location, a transport with its carrier's
    formation (``formations``: the day's positions), else None (R-WHERE-2)."""
    if pool.kind is PoolKind.LOCATION:
        name = pool.location or pool.name
        for loc in hexmap_of(s).locations:
            if loc.name == name:
                return label(loc.hex)
        return None
    carrier = s.transports.get(pool.pool_id)
    for _, f in sorted(formations.items()):
        if carrier is not None and carrier in f.unit_ids:
            return f.hex
    return None


def check(
    state: CampaignState,
    s: StrategicState,
    formations: dict[str, Formation],
    f: Formation,
    order: FormationOrder,
    field: str,
) -> Cargo:
    """The order's pools and amount, or a refusal naming the parameter and why."""
    pools: list[Pool] = []
    for key in ("from", "to"):
        pool = state.pools.get(order.param(key))
        if pool is None or pool.side_id != f.side_id:
            # Another side's pool is answered like a missing one: nothing leaks.
            raise Refusal(
                "bad_param", f"{field}.params.{key}: name a WarChest pool of {f.side_id!r}"
            )
        pools.append(pool)
    source, target = pools
    if source.pool_id == target.pool_id:
        raise Refusal("bad_param", f"{field}.params.to: load into another pool than 'from'")
    raw = order.param("wp", "")
    if not raw.isdigit() or int(raw) == 0:
        raise Refusal("bad_param", f"{field}.params.wp: a whole number above 0, got {raw!r}")
    amount = int(raw)
    carried = {p for p, unit in s.transports.items() if unit in f.unit_ids}
    transport = next((p.pool_id for p in (source, target) if p.pool_id in carried), None)
    if transport is None:
        raise Refusal(
            "bad_param",
            f"{field}.params: neither {source.pool_id!r} nor {target.pool_id!r} is a transport "
            f"carried by a unit of {f.formation_id} ({L59}; a DropShip or cargo pool is linked "
            "to its carrier in [transports] of turn setup or by 'mekref pool link', T-C3)",
        )
    for key, pool in (("from", source), ("to", target)):
        where = pool_hex(state, s, formations, pool)
        if where != f.hex:
            at = "nowhere on the map" if where is None else f"in {where or 'orbit'}"
            raise Refusal(
                "not_at_location",
                f"{field}.params.{key}: {pool.name!r} is {at}, not where {f.formation_id} "
                f"stands ({f.hex or 'orbit'}); {L59}",
            )
    if amount > source.balance:
        raise Refusal(
            "insufficient_wp",
            f"{field}.params.wp: {source.name!r} holds {source.balance} WP, not {amount}",
        )
    room = None if target.capacity is None else target.capacity - target.balance
    if room is not None and amount > room:
        raise Refusal(
            "insufficient_wp",
            f"{field}.params.wp: {target.name!r} has room for {room} WP, not {amount} "
            "(L59: Union 250, Gazelle 2500, 5x a unit's cargo tons)",
        )
    return Cargo(source=source, target=target, amount=amount, transport=transport)


def moved(state: CampaignState, e: WarChestLoaded) -> CampaignState:
    """The pools after a Load/Unload: the source pays out, the target is credited."""
    source, target = state.pools[e.from_pool], state.pools[e.to_pool]
    pools = {
        **state.pools,
        source.pool_id: replace(source, balance=source.balance - e.amount),
        target.pool_id: replace(target, balance=target.balance + e.amount),
    }
    return replace(state, pools=pools)
