"""What one side may know: its own formations, units, pools and orders, what its sensors
revealed, and public facts. Another side's positions appear only as sightings, and an
engagement only as its own cut (:mod:`~mekref.rules.tripwire.turn.secrecy`)."""

from __future__ import annotations

from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.state import CampaignState, Pool
from mekref.rules.tripwire.turn.secrecy import engagement_for
from mekref.rules.tripwire.turn.state import (
    DropShipReadiness,
    EngagementSetup,
    Formation,
    FormationOrder,
    RegionWeather,
    Satellite,
    Sighting,
)


@record
class SideView(Record):
    """What one side may know of a TripWire campaign: its own formations, units, pools and
    orders, what it has sighted, the engagements it fights, and the public facts."""

    side_id: str
    day: int
    formations: tuple[Formation, ...]
    unit_ids: tuple[str, ...]
    pools: tuple[Pool, ...]
    orders: tuple[FormationOrder, ...]
    sightings: tuple[Sighting, ...]
    engagements: tuple[EngagementSetup, ...]
    # Public facts.
    map_name: str
    control: tuple[tuple[str, str], ...]  # location -> side
    weather: tuple[RegionWeather, ...]
    unrest: tuple[tuple[str, int], ...]
    vp: tuple[tuple[str, int], ...]
    ended: str
    # (location, side, unrest there) where a centre's rating differs from the side's (T-U6).
    local_unrest: tuple[tuple[str, str, int], ...] = ()
    # Every satellite (public, ruling T-OR1) and the side's own DropShips' weekly choice (L408).
    satellites: tuple[Satellite, ...] = ()
    dropships: tuple[DropShipReadiness, ...] = ()
    # The temporary runways the side's engineers prepared (L409; its own secret, T-LZ2).
    runways: tuple[str, ...] = ()


def side_view(state: CampaignState, side_id: str) -> SideView:
    s = state.strategic
    pools = tuple(p for _, p in sorted(state.pools.items()) if p.side_id == side_id)
    units = tuple(sorted(u for u, unit in state.units.items() if unit.side_id == side_id))
    if s is None:
        return SideView(
            side_id=side_id, day=0, formations=(), unit_ids=units, pools=pools, orders=(),
            sightings=(), engagements=(), map_name="", control=(), weather=(), unrest=(),
            vp=(), ended="",
        )  # fmt: skip
    owners = {fid: f.side_id for fid, f in s.formations.items()}
    return SideView(
        side_id=side_id,
        day=s.day,
        formations=tuple(f for _, f in sorted(s.formations.items()) if f.side_id == side_id),
        unit_ids=units,
        pools=pools,
        orders=s.orders.get(side_id, ()),
        sightings=s.sightings.get(side_id, ()),
        engagements=tuple(
            engagement_for(e, side_id, owners) for e in s.engagements if side_id in e.sides
        ),
        map_name=s.map_name,
        control=tuple(sorted(s.control.items())),
        weather=tuple(w for _, w in sorted(s.weather.items())),
        unrest=tuple(sorted(s.unrest.items())),
        vp=tuple(sorted(s.vp.items())),
        ended=s.ended,
        local_unrest=tuple(
            (loc, side, level)
            for loc, ratings in sorted(s.local_unrest.items())
            for side, level in sorted(ratings.items())
        ),
        satellites=tuple(sat for _, sat in sorted(s.satellites.items())),
        dropships=tuple(r for _, r in sorted(s.readiness.items()) if r.side_id == side_id),
        runways=s.runways.get(side_id, ()),
    )
