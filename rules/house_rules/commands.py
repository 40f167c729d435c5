"""Commands of the house-rule modules (registered as ``HR...``)."""

from __future__ import annotations

from dataclasses import field

from mekref.rules.house_rules.advancement import SkillCost
from mekref.rules.house_rules.repairs import REPAIR_JOBS
from mekref.rules.messages import Command, RefereeNote, command_type
from mekref.rules.record_type import Record, record

#: The names the tables take (matched without case), listed by ``mekref game commands``; a test
#: checks each against its table so the two cannot drift.
MORALE_SKILLS = ("Green", "Regular", "Veteran", "Elite")
NATIONALITIES = (
    "Kuritan", "Davion", "Liao", "Steiner", "Marik", "Pirate", "Mercenary", "Guerrilla", "Clan",
    "Comstar", "Word of Blake",
)  # fmt: skip
MORALE_SITUATIONS = (
    "force_50", "force_75", "lance_75", "cruise_missile", "inferno", "force_commander_out",
    "lance_commander_out",
)  # fmt: skip
MISSIONS = (
    "Retainer", "Garrison", "Cadre", "Relief", "Defensive Campaign", "Riot Duty", "Security Duty",
    "Objective Raid", "Extraction", "Reconnaissance", "Diversionary Raid", "Planetary Assault",
    "Pirate Hunting", "Guerrilla Warfare",
)  # fmt: skip
CURRENCIES = ("C-Bill", "S-Bill", "D-Bill", "M-Bill", "L-Bill", "K-Bill", "R-Bill")
AVAILABILITIES = ("common", "uncommon", "rare", "specific_vehicle", "specific_mech")
#: The unit kinds the pre-battle damage tables cover (random_damage.SUPPORTED_KINDS).
DAMAGE_KINDS = ("biped_mek", "lam", "quad_mek", "quadvee", "tank", "support_tank")
#: The map-sheet tables: the nine terrain groups, then Solaris VII (mapsheets.terrain_groups).
TERRAINS = (
    "Flatlands", "Hills", "Mountains", "Badlands", "Wetlands", "Wooded", "Light Urban",
    "Heavy Urban", "Coastal", "Solaris VII",
)  # fmt: skip
RETREAT_MODIFIERS = (
    "adjacent_edge", "opposite_edge", "friendly_planet", "hostile_planet", "faster_than_half",
    "slower_than_half",
)  # fmt: skip


@command_type("HRSetUp")
@record
class SetUp(Command):
    seed: str


@command_type("HRAddPilot")
@record
class AddPilot(Command):
    pilot_id: str
    name: str
    #: None: roll the starting experience (line 153).
    starting_xp: int | None = None
    #: The pilot's skills (a new MechWarrior's are 7 and 7, line 153). Left out: not on record,
    #: and experience cannot be spent until HRSetPilotSkills gives them (ruling HOUSE-24).
    piloting: int | None = None
    gunnery: int | None = None
    #: A LAM pilot pays 6 XP more for each point of Piloting (line 104).
    lam: bool = False


@command_type("HRSetPilotSkills")
@record
class SetPilotSkills(Command):
    """Put on record the skills of a pilot who has none (added without them)."""

    pilot_id: str
    piloting: int
    gunnery: int


@command_type("HRSkillCosts")
@record
class SkillCosts(Command):
    """The group's experience cost of each skill step (the text's table is missing, L153)."""

    costs: tuple[SkillCost, ...]


@command_type("HRSpendExperience")
@record
class SpendExperience(Command):
    """Lower one skill of a pilot by one point, paying its cost in experience (L153, L104)."""

    pilot_id: str
    skill: str = field(metadata={"allowed": ("piloting", "gunnery")})


@record
class PilotHits(Record):
    pilot_id: str
    hits: int  # hits taken in this battle


@command_type("HRReportBattle")
@record
class ReportBattle(Command):
    battle_id: str
    fought: tuple[str, ...]
    hits: tuple[PilotHits, ...] = ()


@command_type("HRReturnFromRehabilitation")
@record
class ReturnFromRehabilitation(Command):
    pilot_id: str
    note: RefereeNote


@command_type("HRMoraleTest")
@record
class MoraleTestCommand(Command):
    unit_id: str
    turn: int
    #: "Green", "Regular", "Veteran", "Elite"; empty: the rank of ``pilot_id`` (HOUSE-27).
    skill: str = field(default="", metadata={"allowed": ("", *MORALE_SKILLS)})
    nationality: str = field(metadata={"allowed": NATIONALITIES})  # "Kuritan" ... "Word of Blake"
    #: Keys of the situation rows; of force_50 and force_75 only the worse counts (HOUSE-4).
    situations: tuple[str, ...] = field(default=(), metadata={"allowed": MORALE_SITUATIONS})
    pilot_id: str = ""  # the unit's MechWarrior, whose rank gives the skill (HOUSE-27)


@command_type("HRRandomDamage")
@record
class RandomDamage(Command):
    unit_id: str
    weapons: tuple[str, ...] = ()
    ammo_types: tuple[str, ...] = ()
    #: A UnitKind value: biped or quad 'Mech, LAM, QuadVee, tank.
    kind: str = field(default="biped_mek", metadata={"allowed": DAMAGE_KINDS})
    locations: tuple[str, ...] = ()  # the unit's location names, when known (a tank's turret)


@command_type("HRMapSheets")
@record
class MapSheets(Command):
    """Roll the battlefield: the terrain (unless named) and ``maps`` sheets from its table."""

    battle_id: str
    #: A terrain group ("Hills" ...) or "Solaris VII"; None: rolled.
    terrain: str | None = field(default=None, metadata={"allowed": TERRAINS})
    maps: int = 1


@command_type("HRRetreat")
@record
class Retreat(Command):
    unit_id: str
    piloting: int
    modifiers: tuple[str, ...] = field(default=(), metadata={"allowed": RETREAT_MODIFIERS})
    weapons: tuple[str, ...] = ()
    ammo_types: tuple[str, ...] = ()


@command_type("HRAcquire")
@record
class Acquire(Command):
    item: str
    availability: str = field(metadata={"allowed": AVAILABILITIES})  # "common" ... "specific_mech"
    base_cost: int
    logistics_skill: int | None = None


@command_type("HRBuy")
@record
class Buy(Command):
    """Buy one bid of the last search for ``item``; a bargain's damage is rolled then (L206)."""

    item: str
    bid: int  # 1-based, as the search listed them


@command_type("HRMissionRoll")
@record
class MissionRollCommand(Command):
    mission: str = field(metadata={"allowed": MISSIONS})  # a row of the mission table, any case


@command_type("HRRepairAttempt")
@record
class RepairAttempt(Command):
    part_id: str
    #: "repair" or "replace".
    job: str = field(metadata={"allowed": REPAIR_JOBS})
    team_id: str
    #: "green", "regular", "veteran", "elite"; empty: the rating of ``technician_id``.
    rating: str = field(
        default="",
        metadata={"allowed": ("", "green", "regular", "veteran", "elite")},
    )
    target_number: int  # before the cumulative Elite modifier
    #: The team's technician: their rating is their MechWarrior's rank (L168, HOUSE-28).
    technician_id: str = ""


@command_type("HRExchangeFluctuation")
@record
class ExchangeFluctuation(Command):
    currency: str = field(metadata={"allowed": CURRENCIES})  # "C-Bill" ... "R-Bill", any case


@command_type("HRAddTechnician")
@record
class AddTechnician(Command):
    """A technician joins, working for one MechWarrior, whose rank is their skill (L168)."""

    tech_id: str
    name: str
    pilot_id: str


@command_type("HRTechnicianFeat")
@record
class TechnicianFeat(Command):
    """An exceptional feat of repair: 1 XP to the technician (L168)."""

    tech_id: str
    #: "rebuild" (a severely damaged 'Mech) or "customization" (a major one).
    feat: str = field(metadata={"allowed": ("rebuild", "customization")})
    unit_id: str
    omnimech: bool = False  # an OmniMech's customization earns nothing


@command_type("HRAddSupportStaff")
@record
class AddSupportStaff(Command):
    """Support personnel join (L170); technicians join with HRAddTechnician."""

    person_id: str
    name: str
    role: str  # e.g. "administrator", "astech", "medic" (medics earn no contract XP)


@command_type("HRContractServed")
@record
class ContractServed(Command):
    """A contract ends: 1 XP to each support person who served during it (L170)."""

    contract_id: str
    served: tuple[str, ...]


@command_type("HRMaintenanceCheck")
@record
class MaintenanceCheck(Command):
    """A maintenance check with the house modifiers (L94): 2d6 against the target number."""

    unit_id: str  # the unit (or part) maintained
    #: The standard target number (technician skill and standard modifiers), before the -3.
    target_number: int = field(
        metadata={"doc": "the standard TN (technician skill and modifiers), before the house -3"}
    )
    #: Its quality grade A (worst) to F (best); empty: the grade its last check left.
    quality: str = field(
        default="",
        metadata={
            "allowed": ("", "A", "B", "C", "D", "E", "F"),
            "doc": "A worst to F best; empty: the grade the last check left",
        },
    )
