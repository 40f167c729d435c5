"""The daily turn's events. An event with a ``side_id`` field is private to that side: the
event stream shows it to that side and the referee only (orders, placements, moves, sightings).
Events without one are public facts (weather, engagements, control, unrest, the day's end)."""

from __future__ import annotations

from dataclasses import field

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.messages import Event, RefereeNote, event_type
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.battle_model import Fate, UnitDamage
from mekref.rules.tripwire.turn.state import (
    EngagementSetup,
    Formation,
    FormationOrder,
    RegionWeather,
    Sighting,
    UnitMobility,
)


@record
class RefusedOrder(Record):
    """One order of a submission the rules refused: the formation, the code and why."""

    formation_id: str
    code: str
    reason: str


#: The modules of the daily turn's events, to which the rule of this module's docstring applies
#: (the orbit events live in their own module).
_TURN_EVENT_MODULES = frozenset({__name__, f"{__package__}.orbit_events"})


def is_private(event: Event) -> bool:
    """Whether only one side (and the referee) may see ``event``."""
    return hasattr(event, "side_id") and type(event).__module__ in _TURN_EVENT_MODULES


@event_type("StrategicMapStarted")
@record
class StrategicMapStarted(Event):
    map_name: str
    map_text: str
    attacker: str
    defender: str
    mobility: tuple[UnitMobility, ...]
    control: tuple[tuple[str, str], ...]
    unrest: tuple[tuple[str, int], ...]
    weather: tuple[RegionWeather, ...]
    starting_bv: tuple[tuple[str, int], ...]
    sheets_per_engagement: int
    actor: str
    transports: tuple[tuple[str, str], ...] = ()


@event_type("FormationsPlaced")
@record
class FormationsPlaced(Event):
    """A side's formations as it (re)organised them; replaces all that side's formations."""

    side_id: str
    day: int
    formations: tuple[Formation, ...]
    actor: str


@event_type("OrdersSubmitted")
@record
class OrdersSubmitted(Event):
    side_id: str
    day: int
    orders: tuple[FormationOrder, ...]
    actor: str
    #: The submission's orders the rules refused, each with why; the others stand.
    refused: tuple[RefusedOrder, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)


@event_type("OrdersWithdrawn")
@record
class OrdersWithdrawn(Event):
    side_id: str
    day: int
    formation_ids: tuple[str, ...]
    actor: str


@event_type("WeatherRolled")
@record
class WeatherRolled(Event):
    day: int
    regions: tuple[RegionWeather, ...]
    weekly_change: bool


@event_type("FormationsUpdated")
@record
class FormationsUpdated(Event):
    """A side's formations after the day's actions (positions, fatigue, upkeep counters)."""

    side_id: str
    day: int
    formations: tuple[Formation, ...]
    mobility: tuple[UnitMobility, ...] = ()  # units whose fuel changed
    notes: tuple[str, ...] = ()


@event_type("MaintenanceMissed")
@record
class MaintenanceMissed(Event):
    """Seven days without maintenance: a location (front) and critical roll per unit; what they
    hit follows as ``UnitDamageRolled`` (T-DM1)."""

    side_id: str
    day: int
    formation_id: str
    unit_ids: tuple[str, ...]
    exempt: tuple[str, ...]  # Rugged units, no roll


@event_type("SightingsMade")
@record
class SightingsMade(Event):
    side_id: str
    day: int
    sightings: tuple[Sighting, ...]


@event_type("UnrestChanged")
@record
class UnrestChanged(Event):
    """A force's unrest rating changed: in one population centre (``location``), or everywhere
    (``location`` empty: its rating and every centre's rating move together; ruling T-U6)."""

    force: str
    before: int
    after: int
    reason: str
    location: str = ""


@event_type("LocationLooted")
@record
class LocationLooted(Event):
    side_id: str
    formation_id: str
    location: str
    wp: int
    pool_id: str


@event_type("FacilityDestroyed")
@record
class FacilityDestroyed(Event):
    location: str
    facility: str
    by_force: str
    civilian: bool


@event_type("RecruitsFound")
@record
class RecruitsFound(Event):
    side_id: str
    day: int
    formation_id: str
    total: int
    available: tuple[tuple[str, int], ...]  # column -> people available
    specialities: tuple[tuple[str, str], ...]  # (column, speciality) per person rolled


@event_type("WarChestLoaded")
@record
class WarChestLoaded(Event):
    """A Load/Unload order moved WP between two pools where the formation stands (L59, T-WP1).
    Private: where a side keeps its WP is its own business."""

    side_id: str
    day: int
    formation_id: str
    hex: str
    from_pool: str
    to_pool: str
    amount: int


@event_type("TurretDamageRecorded")
@record
class TurretDamageRecorded(Event):
    """The referee records a turret's CF after a battle (L275; public: the battle was seen)."""

    location: str
    turret: int  # 1 .. the location's turrets
    cf_before: int
    cf: int
    note: RefereeNote


@event_type("TurretRepaired")
@record
class TurretRepaired(Event):
    """L275: 100 WP repair a damaged turret (private to the side that paid)."""

    side_id: str
    location: str
    turret: int
    pool_id: str
    cf_before: int
    cf: int
    wp: int


@event_type("FacilityRestored")
@record
class FacilityRestored(Event):
    """Engineers repaired a destroyed facility in one campaign turn (L219, T-EN1; public: the
    DropPort stands again for everyone to see)."""

    location: str
    facility: str
    by_force: str


@event_type("RunwayPrepared")
@record
class RunwayPrepared(Event):
    """Engineers prepared a temporary runway in one campaign turn (L409, ruling T-LZ1).

    Private to the side (T-LZ2): where it lies tells where its engineers stood."""

    side_id: str
    day: int
    formation_id: str
    hex: str


@event_type("LocationControlChanged")
@record
class LocationControlChanged(Event):
    location: str
    before: str | None
    after: str | None
    pools: tuple[str, ...]  # the location's WarChest pools that change hands


@event_type("EngagementDetermined")
@record
class EngagementDetermined(Event):
    engagement: EngagementSetup


@event_type("UnguidedArtilleryFired")
@record
class UnguidedArtilleryFired(Event):
    engagement_id: str
    firing_side: str
    attacks_per_piece: int
    target_number: int
    results: tuple[tuple[str, str, int], ...]  # (piece, result, hexes away) per attack
    actor: str


@event_type("StrategicVictoryScored")
@record
class StrategicVictoryScored(Event):
    day: int
    vp: tuple[tuple[str, int], ...]
    ended: str


@event_type("UnrestSuppressed")
@record
class UnrestSuppressed(Event):
    """Martial Law or Round Them Up begins holding unrest down (``amount`` > 0), or ends."""

    formation_id: str
    force: str
    action: str
    amount: int
    active: bool
    location: str = ""  # the population centre it holds down


@event_type("SabotageRolled")
@record
class SabotageRolled(Event):
    """Despised: the day's 1D6; on a 6 a bombing hits one unit for 1D6 x 5 damage (line 401),
    laid on the unit by the ``UnitDamageRolled`` that follows (T-DM1). ``unit_id`` is None when
    the die did not come up 6."""

    side_id: str
    formation_id: str
    unit_id: str | None
    damage: int


@record
class DamageLine(Record):
    """What one roll did to a unit: armour and structure taken in a location, or a critical
    slot hit (``slot`` 1-based, ``item`` the slot's content, ``system`` its system)."""

    location: str
    armor: int = 0
    internal: int = 0
    slot: int | None = None
    item: str = ""
    system: str | None = None
    note: str = ""


@event_type("UnitDamageRolled")
@record
class UnitDamageRolled(Event):
    """Rolled damage laid on a unit's stored condition (rulings T-DM1 to T-DM5): ``cause``
    "maintenance" (line 199) or "sabotage" (line 401). ``damage`` is the unit's condition
    after it (what the report prices and the next export writes), ``fate`` its fate after;
    ``crew_hits`` the hits each crew member has after it (a 'Mek's head hit, T-DM4)."""

    side_id: str
    day: int
    unit_id: str
    cause: str
    lines: tuple[DamageLine, ...]
    damage: UnitDamage
    fate: Fate
    crew_hits: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()


@record
class ConsciousnessCheck(Record):
    """One person's check (line 355, T-DM4): the target, the roll and the hits after it.
    ``unit_id`` with ``vehicle_crew`` True: the failure counts as an injured crew/driver of
    that vehicle instead of a hit on the person."""

    person_id: str
    unit_id: str
    target: int
    total: int
    passed: bool
    hits_after: int
    vehicle_crew: bool = False


@event_type("ConsciousnessChecked")
@record
class ConsciousnessChecked(Event):
    """A week beyond the rations (line 355): a consciousness check per crew member of the
    formation, modified by its fatigue; a failure is a hit (T-DM4)."""

    side_id: str
    day: int
    formation_id: str
    fatigue: int
    checks: tuple[ConsciousnessCheck, ...]


@event_type("TransportCargoCaptured")
@record
class TransportCargoCaptured(Event):
    """A transport changed sides (captured in battle): the WP it carries go with it."""

    unit_id: str
    pools: tuple[str, ...]
    after: str


@event_type("FormationRepositioned")
@record
class FormationRepositioned(Event):
    """Referee: a formation put in another hex (a strategic retreat after a battle)."""

    side_id: str
    formation_id: str
    before: str
    after: str
    referee: str
    reason: str
    actor: str


@event_type("LeaderCaptured")
@record
class LeaderCaptured(Event):
    force: str
    actor: str
    referee: str = ""  # who recorded it, and why (the campaign's end rests on it)
    reason: str = ""
    # The resolved battle that destroyed the leader's escort (L162, ruling T-L1); "" when the
    # referee overrode (``override``: who and why, listed with the report's overrides) or for a
    # capture recorded before the escort was checked.
    battle_id: str = field(default="", metadata=OMIT_IF_DEFAULT)
    override: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@event_type("CampaignEnded")
@record
class CampaignEnded(Event):
    """An end condition (lines 412-414, 162) was reached by a decision other than a day's
    resolution: a battle's result, a unit's fate, a sale. The day's resolution records its own
    end in ``StrategicVictoryScored``."""

    reason: str


@event_type("DayEnded")
@record
class DayEnded(Event):
    day: int


@event_type("ResponseMade")
@record
class ResponseMade(Event):
    """A response action that went off (lines 212-213). ``respond``: the DropShip formation
    hopped or landed from ``before`` to ``hex`` after the enemy moves it ``detected_by`` saw;
    ``intercept``: the fighters at an airfield in ``hex`` meet the airborne ``against`` there
    before they can attack (rulings T-RS1, T-RS2); ``intercept`` or ``combat_air_patrol`` with
    ``before`` another hex: the fighters flew from ``before`` to meet in ``hex`` what
    ``detected_by`` saw (ruling T-RS3)."""

    side_id: str
    day: int
    formation_id: str
    action: str
    before: str
    hex: str
    against: tuple[str, ...]
    detected_by: tuple[str, ...]


@event_type("MobsRaised")
@record
class MobsRaised(Event):
    """1d3 mobs a battle or a week of peacekeeping raises in a population centre (lines
    395-401): ``supportive`` of ``force`` at unrest 2-4, ``angry`` against it at 10-12, doubled
    when Devoted (2) or Despised (12). A public fact: the crowds are in the streets. What mobs
    do is the referee's (ruling T-U5); ``engagement_id`` names the battle, if it was one."""

    force: str
    location: str
    kind: str
    count: int
    cause: str
    engagement_id: str = ""


@event_type("FormationsReorganised")
@record
class FormationsReorganised(Event):
    """A side reorganised some of its formations; the others are untouched.

    ``action``: create, split, merge or transfer; ``formations``: the ones changed or new, as
    they now are; ``dissolved``: the ones emptied; ``unit_ids``: the units that moved."""

    side_id: str
    day: int
    action: str
    formations: tuple[Formation, ...]
    dissolved: tuple[str, ...]
    unit_ids: tuple[str, ...]
    actor: str


@event_type("FormationTrainingBegun")
@record
class FormationTrainingBegun(Event):
    """A side paid for a formation to train a day as another Formation Type (L95).

    The formation takes no action on ``day``; ``formation_type`` counts from the next day."""

    side_id: str
    day: int
    formation_id: str
    formation_type: str
    pool_id: str
    cost_sp: int
    actor: str
