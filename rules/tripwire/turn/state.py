"""The strategic sub-state of a campaign: the map, formations, orders, weather, unrest, control.

One frozen value held in ``CampaignState.strategic``. It imports nothing from the engine (the
campaign state imports it) but the referee's note, only the codec-friendly builtins and
``Fraction``.
"""

from __future__ import annotations

from dataclasses import field

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.messages import RefereeNote
from mekref.rules.record_type import Record, record

#: A formation's ``hex`` while it is off the map: at the pirate point or in orbit (Day Zero).
IN_ORBIT = ""
#: The storm a stormy region has (the weather table's last row).
STORMS = ("lightning", "tornado")
#: An engagement's kind: formations meeting, or one side moving into the other's hex.
ENGAGEMENT_KINDS = ("meeting", "assault")


@record
class FormationOrder(Record):
    """One formation's action for the day (the orders contract, see :mod:`.orders`)."""

    formation_id: str
    action: str
    path: tuple[str, ...] = ()  # hex labels "CCRR", start hex excluded
    target: str | None = None  # a hex label, location name or formation id, by action
    params: tuple[tuple[str, str], ...] = ()

    def param(self, name: str, default: str = "") -> str:
        for key, value in self.params:
            if key == name:
                return value
        return default


@record
class UnitMobility(Record):
    """What the turn needs of a unit that the campaign roster does not hold.

    ``mode`` is a hexmap movement mode (leg, tracked, wheeled, hover, vtol) or ``aerospace``.
    """

    unit_id: str
    walk_mp: int
    mode: str
    rugged: bool = False
    fuel: int = 0  # aerospace fuel points now
    max_fuel: int = 0
    safe_thrust: int = 0
    conventional: bool = False  # conventional aircraft burn half the fuel
    crew_slots: int = 1  # cockpit/crew places eating rations


@record
class Formation(Record):
    formation_id: str
    side_id: str
    name: str
    unit_ids: tuple[str, ...]
    hex: str  # "CCRR", or IN_ORBIT
    fatigue: int = 0
    days_since_maintenance: int = 0
    days_on_rations: int = 0
    baggage_person_days: int = 0  # food carried by its baggage train
    # The Force Commander's Skill Bonus for the ambush roll is derived from the commander's
    # skills whenever it is rolled (rules/tripwire/commanders.py, L26-34). A value here counts
    # only as the referee's recorded override (``commander_note``); without one it is ignored.
    commander_bonus: int = 0
    carries_leader: bool = False  # the side's VIP travels with it
    action_streak: tuple[str, int] = ("", 0)  # the action taken and for how many days running
    last_recruit_day: int = -7
    commander_note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # Its Formation Type (L51: Campaign Operations, Clan Invasion, Tukayyid), "" when none was
    # chosen. A change needs a day of training (L95): ``training_type`` becomes the type at the
    # end of day ``training_day``, a day the formation takes no action (ruling T-F6).
    formation_type: str = field(default="", metadata=OMIT_IF_DEFAULT)
    training_type: str = field(default="", metadata=OMIT_IF_DEFAULT)
    training_day: int = field(default=0, metadata=OMIT_IF_DEFAULT)
    # Where a formation in orbit stands after a Reposition Orbit (L210, ruling T-OR2):
    # "geostationary:CCRR" above one hex, "lpo:CCRR" a low planetary orbit crossing that hex;
    # "" while none was chosen (the pirate point, or an orbit not yet named).
    orbit: str = field(default="", metadata=OMIT_IF_DEFAULT)


@record
class Satellite(Record):
    """An unmanned surveillance satellite (L270) and who owns it (ruling T-OR1).

    ``orbit`` is ``geostationary`` (above ``hex``; moves one planetary region a day, L210) or
    ``lpo`` (a low planetary orbit whose track crosses ``hex``; a new path takes a day).
    """

    satellite_id: str
    owner: str  # the side whose satellite it is ("an enemy satellite", L209)
    orbit: str
    hex: str
    destroyed_day: int = field(default=0, metadata=OMIT_IF_DEFAULT)  # 0: still in orbit
    moved_day: int = field(default=0, metadata=OMIT_IF_DEFAULT)  # the day it last moved


@record
class DropShipReadiness(Record):
    """A landed DropShip's weekly choice (L408): ``hot_standby`` or ``power_down``, for the
    week ``week`` (days 1-7 are week 1), and the fatigue hot standby has given it."""

    unit_id: str
    side_id: str
    week: int
    mode: str
    extra_crew: bool = False  # "indefinite hot standby if it has an extra full crew"
    fatigue: int = 0


@record
class RegionWeather(Record):
    region: str
    level: int  # row of the weather table, 0 (clear) .. 6 (stormy)
    #: "lightning" or "tornado" on the stormy row; "" on every other.
    storm: str = field(default="", metadata={"allowed": STORMS})


@record
class Sighting(Record):
    """What a side's sensors revealed: another side's formation in a hex, and how much of it."""

    formation_id: str
    side_id: str
    hex: str
    day: int
    info: str = "presence"  # the surveillance margin row reached
    units: int | None = None  # how many units, when the info level shows it


@record
class Arrival(Record):
    formation_id: str
    side_id: str
    lance: str
    walk_mp: int
    turn: int | None  # None: cannot arrive (immobile); 0: deployed at the start


@record
class EngagementSetup(Record):
    engagement_id: str
    day: int
    hex: str
    kind: str = field(metadata={"allowed": ENGAGEMENT_KINDS})  # "meeting" or "assault"
    sides: tuple[str, ...]
    formations: tuple[str, ...]
    attacker: str | None  # the moving side of an assault
    ambusher: str | None
    ambush_totals: tuple[tuple[str, int], ...]
    objectives: tuple[tuple[str, str], ...]  # side -> tactical objective
    map_sheets: tuple[str, ...]
    terrain: str
    weather: str
    arrivals: tuple[Arrival, ...]
    aerospace: tuple[tuple[str, str, int], ...]  # (side, unit id, fuel on arrival)
    command_centre: tuple[str, ...]  # sides with a command centre in the hex (+2 initiative)
    notes: tuple[str, ...] = ()


@record
class StrategicState(Record):
    map_name: str
    map_text: str
    attacker: str
    defender: str
    day: int = 1  # the day whose orders are being written
    sheets_per_engagement: int = 2
    formations: dict[str, Formation] = field(default_factory=dict)
    mobility: dict[str, UnitMobility] = field(default_factory=dict)
    orders: dict[str, tuple[FormationOrder, ...]] = field(default_factory=dict)  # by side
    placed: tuple[str, ...] = ()  # sides that made their Day Zero placement
    weather: dict[str, RegionWeather] = field(default_factory=dict)  # by region name
    unrest: dict[str, int] = field(default_factory=dict)  # by side: its rating everywhere
    # Ruling T-U6: a population centre where a force's deeds changed its rating keeps its own
    # rating for that force: location -> side -> unrest there.
    local_unrest: dict[str, dict[str, int]] = field(default_factory=dict)
    control: dict[str, str] = field(default_factory=dict)  # location name -> side
    looted: tuple[str, ...] = ()  # locations already looted (once per city)
    destroyed: dict[str, tuple[str, ...]] = field(default_factory=dict)  # location -> facilities
    sightings: dict[str, tuple[Sighting, ...]] = field(default_factory=dict)  # by side, latest day
    engagements: tuple[EngagementSetup, ...] = ()
    vp: dict[str, int] = field(default_factory=dict)  # strategic VP by side
    starting_bv: dict[str, int] = field(default_factory=dict)
    leader_captured: tuple[str, ...] = ()  # sides whose leader was captured
    # Martial Law / Round Them Up in force: formation -> (side, action, unrest points held down).
    suppressed: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    suppressed_at: dict[str, str] = field(default_factory=dict)  # formation -> its location
    transports: dict[str, str] = field(default_factory=dict)  # WarChest pool -> carrying unit
    ended: str = ""  # why the campaign ended, once it has
    # People the Recruit action found and nobody hired yet: side -> recruit column -> count
    # (R-HIRE-2). Left out of the JSON while empty (older campaigns keep their state hash).
    recruits: dict[str, dict[str, int]] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    recruits_day: dict[str, int] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # L64: each side's technician day per hex ("side@hex"): the last day with work booked and
    # the hours used that day (R-WHERE-4). Left out of the JSON while empty.
    workshops: dict[str, tuple[int, int]] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # The day each unit's booked work ends (the last technician day it filled): a unit is ready
    # at the end of that day (R-WHERE-4). Left out of the JSON while empty.
    repair_ready: dict[str, int] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # The technician hours paid for each unit's work, by day ((day, hours), in order): what
    # `mekref report` shows against the hours still needed (L64, R-WHERE-4). Left out of the
    # JSON while empty.
    repair_work: dict[str, tuple[tuple[int, int], ...]] = field(
        default_factory=dict, metadata=OMIT_IF_DEFAULT
    )
    # Captured units in no formation and the hex each stands in: where the battle that took it
    # was (immobile salvage, L137); a formation of them is formed only there (ruling T-F7).
    # Left out of the JSON while empty.
    captured_at: dict[str, str] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # L275: the CF of each turret of a location whose turrets the referee recorded as damaged
    # (location -> CF of turret 1, 2, ...); a location not listed has its turrets whole. Left
    # out of the JSON while empty.
    turret_cf: dict[str, tuple[int, ...]] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # Satellites the referee put in orbit (L270, ruling T-OR1); while there are none, a SatLink
    # reaches the planet's satellite network as before (T-S1). Left out of the JSON while empty.
    satellites: dict[str, Satellite] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # Each DropShip's hot standby / power down choice (L408), by unit id.
    readiness: dict[str, DropShipReadiness] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # The temporary runways engineers prepared (L409, ruling T-LZ1), by the side that prepared
    # them: side -> hex labels. A side's secret, like the formation that built it (T-LZ2).
    runways: dict[str, tuple[str, ...]] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # L162: the battle in which a side's leader lost an escort (an infantry platoon or battle
    # armor squad of the formation carrying the leader, destroyed): side -> battle id. A capture
    # rests on it, or on the referee's override (ruling T-L1). Left out of the JSON while empty.
    escorts_lost: dict[str, str] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # L385: the next weekly weather change, rolled early for a side with access to satellites
    # (ruling T-W4): region -> the change roll's 2d6 total, the day the change comes, and each
    # side's last day of trying. Left out of the JSON while empty.
    forecast: dict[str, int] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    forecast_day: int = field(default=0, metadata=OMIT_IF_DEFAULT)
    forecast_tries: dict[str, int] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
