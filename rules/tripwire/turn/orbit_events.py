"""The events of orbit: satellites placed, destroyed and moved (L209-L210, L270), and the DropShips'
weekly readiness and the fatigue of hot standby (L408). Public facts but for the readiness
choice and the fatigue, which are the side's own (the rule of :mod:`.events`)."""

from __future__ import annotations

from mekref.rules.messages import Event, event_type
from mekref.rules.record_type import record
from mekref.rules.tripwire.turn.state import RegionWeather, Satellite


@event_type("SatellitePlaced")
@record
class SatellitePlaced(Event):
    """The referee put a side's surveillance satellite in orbit (L270, ruling T-OR1). Public:
    satellites circle over everyone."""

    satellite: Satellite
    referee: str
    reason: str
    actor: str


@event_type("SatelliteDestroyed")
@record
class SatelliteDestroyed(Event):
    """An Anti-Satellite Operation destroyed a satellite (L209); its region is no longer
    monitored (L270). Public: the owner loses the feed."""

    satellite_id: str
    owner: str
    by_force: str
    day: int


@event_type("SatelliteRepositioned")
@record
class SatelliteRepositioned(Event):
    """Its owner moved a satellite (L210): a geostationary one by at most one planetary
    region a day; a low-orbit one onto a new path, which takes that day (ruling T-OR3)."""

    satellite_id: str
    owner: str
    before: str
    after: str
    day: int
    actor: str


@event_type("DropShipReadinessChosen")
@record
class DropShipReadinessChosen(Event):
    """A side's weekly choice for one DropShip: hot standby or power down (L408)."""

    side_id: str
    day: int
    week: int
    unit_id: str
    mode: str
    extra_crew: bool
    actor: str


@event_type("StandbyFatigue")
@record
class StandbyFatigue(Event):
    """The day's hot-standby fatigue (L408: "Each day on hot standby adds a point of fatigue to
    the DropShip"): each DropShip's fatigue after the day; ``rested``: DropShips whose
    formation rested (L205: "removes all fatigue points")."""

    side_id: str
    day: int
    fatigue: tuple[tuple[str, int], ...]
    rested: tuple[str, ...] = ()


@event_type("WeatherForecastSeen")
@record
class WeatherForecastSeen(Event):
    """A side tried its satellites for the next weekly weather change (L385, ruling T-W4): the
    access roll (``rolls[0]``), and when it ``reached`` them each region's change roll
    (``totals``, 2d6, rolled now the first time anyone asks) and the row it brings
    (``regions``; a storm is rolled on the day). Private: the other side learns nothing."""

    side_id: str
    day: int
    change_day: int
    uplink: str
    reached: bool
    totals: tuple[tuple[str, int], ...]
    regions: tuple[RegionWeather, ...]
    actor: str
