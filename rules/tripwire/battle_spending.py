"""Spending between tracks: repairs, re-arming, training, hiring, selling, scrapping, ransom.

Each command names the WarChest pool that pays (or receives) and refuses with the rule when the
WP, the facility or the rules do not allow it. Healing a person and moving WP between pools are
the engine core's ``HealPerson`` and ``TransferWarChest``; the rest is here. Imported (and so
registered) by :mod:`mekref.rules.tripwire.battles`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from mekref.rules.campaign_state import CampaignState, CampaignUnit, Person, PersonStatus, Pool
from mekref.rules.dice import Dice
from mekref.rules.engine import person_of, pool_of, register_decider, register_evolver, side_of
from mekref.rules.messages import COMMANDS, EVENTS, Command, Event
from mekref.rules.model import UnitKind
from mekref.rules.refusal import Refusal
from mekref.rules.rulesets import RuleSet
from mekref.rules.tripwire import injuries, personnel, repair
from mekref.rules.tripwire.battle_model import Fate, UnitDamage
from mekref.rules.tripwire.battle_resolution import subject_for
from mekref.rules.tripwire.skills import training_level
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.training import Skill, Trainee, TrainingRoute, training_cost


class RepairTask(StrEnum):
    ARMOR = "armor"
    INTERNAL = "internal"  # internal structure and critical hits (and DropShip landing gear)
    REARM = "rearm"


class Disposal(StrEnum):
    SCRAP = "scrap"
    SELL = "sell"


# --- commands ---------------------------------------------------------------------------------


@COMMANDS.register("RepairUnit")
@dataclass(frozen=True, kw_only=True)
class RepairUnit(Command):
    unit_id: str
    pool_id: str
    task: RepairTask
    at_repair_facility: bool = False  # a repair bay at the location or a DropShip bay


@COMMANDS.register("HealVehicleCrew")
@dataclass(frozen=True, kw_only=True)
class HealVehicleCrew(Command):
    """Heal one driver/commander hit of a vehicle crew (60 SP, always a MASH or hospital)."""

    unit_id: str
    pool_id: str
    at_hospital: bool


@COMMANDS.register("ReplaceDropShipCrew")
@dataclass(frozen=True, kw_only=True)
class ReplaceDropShipCrew(Command):
    """Replace or heal DropShip crew members: 100 SP each."""

    unit_id: str
    pool_id: str
    members: int


@COMMANDS.register("ReconfigureUnit")
@dataclass(frozen=True, kw_only=True)
class ReconfigureUnit(Command):
    """Swap an omni unit's pods (or a battle armor's weapons) to a configuration of ``bv``."""

    unit_id: str
    pool_id: str
    configuration: str
    bv: int


@COMMANDS.register("ChangeFormation")
@dataclass(frozen=True, kw_only=True)
class ChangeFormation(Command):
    side_id: str
    pool_id: str
    lance: str
    formation: str


@COMMANDS.register("DisposeUnit")
@dataclass(frozen=True, kw_only=True)
class DisposeUnit(Command):
    """Scrap or sell a unit; the WP go into ``pool_id``."""

    unit_id: str
    pool_id: str
    how: Disposal


@COMMANDS.register("RansomPerson")
@dataclass(frozen=True, kw_only=True)
class RansomPerson(Command):
    """The person's own side pays 100 WP to get them back from their captor."""

    person_id: str
    pool_id: str


@COMMANDS.register("RecruitCaptured")
@dataclass(frozen=True, kw_only=True)
class RecruitCaptured(Command):
    """The captor rolls 2d6 (+1 per unrest over 7 of the opponent); on 8+ it pays to hire."""

    person_id: str
    pool_id: str
    opponent_unrest: int = 7


@COMMANDS.register("TrainSkill")
@dataclass(frozen=True, kw_only=True)
class TrainSkill(Command):
    person_id: str
    pool_id: str
    skill: Skill
    route: TrainingRoute = TrainingRoute.KILL


@COMMANDS.register("HirePerson")
@dataclass(frozen=True, kw_only=True)
class HirePerson(Command):
    """A new, unassigned pilot or crew at ``gunnery``/``piloting``; the id comes from the caller."""

    person_id: str
    side_id: str
    pool_id: str
    name: str
    gunnery: int
    piloting: int
    vehicle_crew: bool = False


@COMMANDS.register("SeatSparePilot")
@dataclass(frozen=True, kw_only=True)
class SeatSparePilot(Command):
    """Medical leave (or a death): an unassigned person takes the unit's seat."""

    unit_id: str
    leaving_person_id: str
    spare_person_id: str


@COMMANDS.register("CombineInfantry")
@dataclass(frozen=True, kw_only=True)
class CombineInfantry(Command):
    """Two understrength squads/platoons of one type become one (``keep_unit_id`` stays)."""

    keep_unit_id: str
    merge_unit_id: str


@COMMANDS.register("DeployUnrepaired")
@dataclass(frozen=True, kw_only=True)
class DeployUnrepaired(Command):
    """The owner chooses not to pay: the unit deploys damaged or short of ammunition."""

    unit_id: str


# --- events -----------------------------------------------------------------------------------


@EVENTS.register("UnitRepaired")
@dataclass(frozen=True, kw_only=True)
class UnitRepaired(Event):
    unit_id: str
    pool_id: str
    task: RepairTask
    cost_sp: int
    tech_hours: int
    damage_after: UnitDamage
    actor: str


@EVENTS.register("VehicleCrewHealed")
@dataclass(frozen=True, kw_only=True)
class VehicleCrewHealed(Event):
    unit_id: str
    pool_id: str
    damage_after: int
    cost_sp: int
    track: int
    actor: str


@EVENTS.register("DropShipCrewReplaced")
@dataclass(frozen=True, kw_only=True)
class DropShipCrewReplaced(Event):
    unit_id: str
    pool_id: str
    members: int
    cost_sp: int
    actor: str


@EVENTS.register("UnitReconfigured")
@dataclass(frozen=True, kw_only=True)
class UnitReconfigured(Event):
    unit_id: str
    pool_id: str
    configuration: str
    bv: int
    cost_sp: int
    actor: str


@EVENTS.register("FormationChanged")
@dataclass(frozen=True, kw_only=True)
class FormationChanged(Event):
    side_id: str
    pool_id: str
    lance: str
    formation: str
    cost_sp: int
    actor: str


@EVENTS.register("UnitDisposed")
@dataclass(frozen=True, kw_only=True)
class UnitDisposed(Event):
    unit_id: str
    pool_id: str
    how: Disposal
    wp: int
    actor: str


@EVENTS.register("PersonRansomed")
@dataclass(frozen=True, kw_only=True)
class PersonRansomed(Event):
    person_id: str
    pool_id: str
    cost_sp: int
    actor: str


@EVENTS.register("CapturedRecruited")
@dataclass(frozen=True, kw_only=True)
class CapturedRecruited(Event):
    """The recruiting roll (in ``rolls``); on success the captor paid and the person joined."""

    person_id: str
    captor_side: str
    pool_id: str
    succeeds: bool
    modifier: int
    cost_sp: int
    actor: str


@EVENTS.register("SkillTrained")
@dataclass(frozen=True, kw_only=True)
class SkillTrained(Event):
    person_id: str
    pool_id: str
    skill: Skill
    cost_sp: int
    gunnery: int
    piloting: int
    track: int
    actor: str


@EVENTS.register("PersonHired")
@dataclass(frozen=True, kw_only=True)
class PersonHired(Event):
    person_id: str
    side_id: str
    pool_id: str
    name: str
    gunnery: int
    piloting: int
    cost_sp: int
    actor: str


@EVENTS.register("SparePilotSeated")
@dataclass(frozen=True, kw_only=True)
class SparePilotSeated(Event):
    unit_id: str
    leaving_person_id: str
    spare_person_id: str
    actor: str


@EVENTS.register("InfantryCombined")
@dataclass(frozen=True, kw_only=True)
class InfantryCombined(Event):
    keep_unit_id: str
    merge_unit_id: str
    troopers: int
    troopers_max: int
    gunnery: int
    piloting: int
    actor: str


@EVENTS.register("DeployedUnrepaired")
@dataclass(frozen=True, kw_only=True)
class DeployedUnrepaired(Event):
    unit_id: str
    outstanding_sp: int
    actor: str


# --- shared checks ----------------------------------------------------------------------------


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
    if cost > pool.balance:
        raise Refusal(
            "insufficient_wp", f"this costs {cost} SP; {pool.name!r} holds {pool.balance}"
        )
    return pool


def _receiving_pool(state: CampaignState, pool_id: str, side_id: str, wp: int) -> Pool:
    pool = _paying_pool(state, pool_id, side_id, 0)
    if pool.capacity is not None and pool.balance + wp > pool.capacity:
        room = pool.capacity - pool.balance
        raise Refusal("over_capacity", f"pool {pool.name!r} has room for {room} WP, not {wp}")
    return pool


def damage_of(state: CampaignState, unit_id: str) -> UnitDamage:
    return state.battles.unit_damage.get(unit_id, UnitDamage())


# --- deciders ---------------------------------------------------------------------------------


def _decide_repair(
    state: CampaignState, cmd: RepairUnit, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    t = load_tables()
    unit = _unit(state, cmd.unit_id)
    damage = damage_of(state, unit.unit_id)
    bill = repair.repair_bill(subject_for(unit, damage), t)
    if not bill.repairable:
        raise Refusal(
            "irreparable",
            f"{unit.chassis} {unit.model} is {bill.state.value} and cannot be repaired",
            bill.rules[-1] if bill.rules else None,
        )
    if cmd.task is RepairTask.ARMOR:
        cost, hours = bill.armor_sp, t.tasks["repair_armor"].hours
        if not cost:
            why = "no armor to restore"
            if bill.armor_deferred_sp:
                why = (
                    f"armor on {', '.join(bill.blocked_locations)} waits for the internal "
                    "structure repair"
                )
            raise Refusal(
                "nothing_to_repair", why, t.footnotes["armor_only_without_internal_damage"]
            )
        after = _armor_restored(unit, damage)
    elif cmd.task is RepairTask.INTERNAL:
        if unit.kind.is_infantry:
            raise Refusal("no_row", "infantry losses are replaced by hiring, not repaired")
        if not (bill.internal_sp or bill.landing_gear_sp or damage.critical_hits):
            raise Refusal("nothing_to_repair", "no internal structure or critical damage")
        if not cmd.at_repair_facility:
            raise Refusal(
                "needs_repair_facility",
                "internal structure needs a repair facility or a DropShip bay",
                t.footnotes["internal_needs_repair_facility"],
            )
        cost = bill.internal_sp + bill.landing_gear_sp
        hours = t.tasks["repair_internal"].hours
        after = replace(
            damage,
            critical_hits=0,
            damaged_slots=(),
            landing_gear_damaged=False,
            locations=tuple(
                replace(loc, internal_now=loc.internal_max) for loc in damage.locations
            ),
        )
    else:
        if not damage.ammo_used:
            raise Refusal("nothing_to_repair", "no ammunition to replace")
        cost, hours = bill.rearm_sp, t.tasks["reload"].hours
        # Ruling T-X3: the bins are filled to the standard load the import list recorded (line
        # 23); without one, MegaMek's own full load stands (no bins are written).
        after = replace(
            damage, ammo_used=(), ammo_bins=state.battles.loadouts.get(unit.unit_id, ())
        )
    _paying_pool(state, cmd.pool_id, unit.side_id, cost)
    return [
        UnitRepaired(
            unit_id=unit.unit_id,
            pool_id=cmd.pool_id,
            task=cmd.task,
            cost_sp=cost,
            tech_hours=hours,
            damage_after=after,
            actor=cmd.actor,
        )
    ]


def _armor_restored(unit: CampaignUnit, damage: UnitDamage) -> UnitDamage:
    # Footnote * binds 'Mechs and vehicles only (R-COST-4): elsewhere all armor is restored.
    footnote = unit.kind is UnitKind.MEK or unit.kind.is_vehicle
    locations = tuple(
        loc if footnote and loc.internal_lost else replace(loc, armor_now=loc.armor_max)
        for loc in damage.locations
    )
    return replace(damage, locations=locations, suits_damaged=0)


def _decide_heal_crew(
    state: CampaignState, cmd: HealVehicleCrew, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    unit = _unit(state, cmd.unit_id)
    damage = state.battles.crew_damage.get(unit.unit_id, 0)
    if not damage:
        raise Refusal("not_injured", f"the crew of {unit.chassis} {unit.model} has no hit to heal")
    if not cmd.at_hospital:
        # "Damage of 3 or more hits (or a Crew/Driver injured result for a vehicle) requires
        # access to a MASH unit or Hospital." (line 126)
        raise Refusal("needs_hospital", "a vehicle crew hit needs a MASH unit or a hospital")
    if state.battles.crew_healed.get(unit.unit_id) == state.tracks_completed:
        raise Refusal("healed_this_track", "this crew was already healed this track")
    cost = injuries.vehicle_crew_heal_cost(1)
    _paying_pool(state, cmd.pool_id, unit.side_id, cost)
    return [
        VehicleCrewHealed(
            unit_id=unit.unit_id,
            pool_id=cmd.pool_id,
            damage_after=damage - 1,
            cost_sp=cost,
            track=state.tracks_completed,
            actor=cmd.actor,
        )
    ]


def _decide_dropship_crew(
    state: CampaignState, cmd: ReplaceDropShipCrew, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    unit = _unit(state, cmd.unit_id)
    if unit.kind is not UnitKind.DROPSHIP:
        raise Refusal("not_dropship", f"{unit.chassis} {unit.model} is not a DropShip")
    if cmd.members <= 0:
        raise Refusal("bad_amount", "replace at least one crew member")
    cost = repair.dropship_crew_cost(cmd.members)
    _paying_pool(state, cmd.pool_id, unit.side_id, cost)
    return [
        DropShipCrewReplaced(
            unit_id=unit.unit_id,
            pool_id=cmd.pool_id,
            members=cmd.members,
            cost_sp=cost,
            actor=cmd.actor,
        )
    ]


def _decide_reconfigure(
    state: CampaignState, cmd: ReconfigureUnit, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    from mekref.rules.model import UnitRole

    unit = _unit(state, cmd.unit_id)
    if UnitRole.OMNI not in unit.roles and unit.kind is not UnitKind.BATTLE_ARMOR:
        raise Refusal("not_omni", f"{unit.chassis} {unit.model} is not an omni unit")
    if cmd.bv <= 0:
        raise Refusal("bad_bv", "the new configuration's BV must be positive")
    cost = repair.reconfigure_cost(unit.kind, unit.tonnage, unit.tech_base)
    _paying_pool(state, cmd.pool_id, unit.side_id, cost)
    return [
        UnitReconfigured(
            unit_id=unit.unit_id,
            pool_id=cmd.pool_id,
            configuration=cmd.configuration,
            bv=cmd.bv,
            cost_sp=cost,
            actor=cmd.actor,
        )
    ]


def _decide_formation(
    state: CampaignState, cmd: ChangeFormation, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    if not any(u.side_id == cmd.side_id and u.lance == cmd.lance for u in state.units.values()):
        raise Refusal("unknown_lance", f"side {cmd.side_id!r} has no lance {cmd.lance!r}")
    cost = repair.formation_change_cost()
    _paying_pool(state, cmd.pool_id, cmd.side_id, cost)
    return [
        FormationChanged(
            side_id=cmd.side_id,
            pool_id=cmd.pool_id,
            lance=cmd.lance,
            formation=cmd.formation,
            cost_sp=cost,
            actor=cmd.actor,
        )
    ]


def _decide_dispose(
    state: CampaignState, cmd: DisposeUnit, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    unit = _unit(state, cmd.unit_id)
    subject = subject_for(unit, damage_of(state, unit.unit_id))
    # Spent ammunition is not damage (R-SELL-1): a sale does not wait for re-arming.
    sell = cmd.how is Disposal.SELL
    wp = repair.sell_value(subject) if sell else repair.scrap_value(subject)
    if wp > 0:
        _receiving_pool(state, cmd.pool_id, unit.side_id, wp)
    else:
        _paying_pool(state, cmd.pool_id, unit.side_id, 0)
    return [
        UnitDisposed(unit_id=unit.unit_id, pool_id=cmd.pool_id, how=cmd.how, wp=wp, actor=cmd.actor)
    ]


def _decide_ransom(
    state: CampaignState, cmd: RansomPerson, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    person = person_of(state, cmd.person_id)
    if cmd.person_id not in state.battles.captured_people:
        raise Refusal("not_captured", f"{person.name} is not held captive")
    cost = personnel.ransom_cost(1)
    _paying_pool(state, cmd.pool_id, person.side_id, cost)
    return [
        PersonRansomed(
            person_id=person.person_id, pool_id=cmd.pool_id, cost_sp=cost, actor=cmd.actor
        )
    ]


def _decide_recruit(
    state: CampaignState, cmd: RecruitCaptured, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    person = person_of(state, cmd.person_id)
    captor = state.battles.captured_people.get(person.person_id)
    if captor is None:
        raise Refusal("not_captured", f"{person.name} is not held captive")
    if person.status is PersonStatus.DEAD:
        raise Refusal("dead", f"{person.name} is dead")
    level = training_level(person.gunnery, person.piloting)
    cost = personnel.hire_price(level)
    pool = _paying_pool(state, cmd.pool_id, captor, 0)
    attempt, _ = personnel.roll_recruit_captured(dice, person.person_id, cmd.opponent_unrest)
    if attempt.succeeds and cost > pool.balance:
        raise Refusal(
            "insufficient_wp", f"recruiting costs {cost} SP; {pool.name!r} holds {pool.balance}"
        )
    return [
        CapturedRecruited(
            person_id=person.person_id,
            captor_side=captor,
            pool_id=cmd.pool_id,
            succeeds=attempt.succeeds,
            modifier=attempt.modifier,
            cost_sp=cost if attempt.succeeds else 0,
            rolls=(attempt.roll,),
            actor=cmd.actor,
        )
    ]


def _decide_train(
    state: CampaignState, cmd: TrainSkill, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    person = person_of(state, cmd.person_id)
    if person.status is PersonStatus.DEAD or person.person_id in state.battles.captured_people:
        raise Refusal("unavailable", f"{person.name} is dead or captive")
    trainee = Trainee(
        person_id=person.person_id,
        gunnery=person.gunnery,
        piloting=person.piloting,
        took_part_with_kill=person.person_id in state.battles.may_train,
        # Ruling BR-9: a "contract" is a track: one skill per person per track.
        trained_this_contract=state.battles.trained.get(person.person_id) == state.tracks_completed,
        # "| Train DropShip Crew | As Per MechWarrior x 4 |"
        dropship_crew=person.unit_id in state.units
        and state.units[person.unit_id].kind is UnitKind.DROPSHIP,
    )
    cost = training_cost(trainee, cmd.skill, cmd.route)
    _paying_pool(state, cmd.pool_id, person.side_id, cost)
    gunnery = person.gunnery - (cmd.skill is Skill.GUNNERY)
    piloting = person.piloting - (cmd.skill is Skill.PILOTING)
    return [
        SkillTrained(
            person_id=person.person_id,
            pool_id=cmd.pool_id,
            skill=cmd.skill,
            cost_sp=cost,
            gunnery=gunnery,
            piloting=piloting,
            track=state.tracks_completed,
            actor=cmd.actor,
        )
    ]


def _decide_hire(
    state: CampaignState, cmd: HirePerson, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    side_of(state, cmd.side_id)
    if cmd.person_id in state.people:
        raise Refusal("duplicate_id", f"person id {cmd.person_id!r} is taken")
    if not cmd.name.strip():
        raise Refusal("bad_name", "a hired person needs a name")
    cost = personnel.hire_price(training_level(cmd.gunnery, cmd.piloting), cmd.vehicle_crew)
    _paying_pool(state, cmd.pool_id, cmd.side_id, cost)
    return [
        PersonHired(
            person_id=cmd.person_id,
            side_id=cmd.side_id,
            pool_id=cmd.pool_id,
            name=cmd.name,
            gunnery=cmd.gunnery,
            piloting=cmd.piloting,
            cost_sp=cost,
            actor=cmd.actor,
        )
    ]


def _decide_seat(
    state: CampaignState, cmd: SeatSparePilot, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    unit = _unit(state, cmd.unit_id)
    leaving = person_of(state, cmd.leaving_person_id)
    spare = person_of(state, cmd.spare_person_id)
    if leaving.person_id not in unit.crew:
        raise Refusal("not_crew", f"{leaving.name} does not crew {unit.chassis} {unit.model}")
    if spare.side_id != unit.side_id:
        raise Refusal("other_side", f"{spare.name} is not of side {unit.side_id}")
    if spare.unit_id is not None:
        # "another spare MechWarrior/crew from the forces TO&E (but not one assigned to a
        # current unit). MechWarriors/Crew may not be transferred from one unit to another."
        raise Refusal("assigned", f"{spare.name} is assigned to a unit and cannot transfer")
    if spare.status is PersonStatus.DEAD or spare.person_id in state.battles.captured_people:
        raise Refusal("unavailable", f"{spare.name} is dead or captive")
    return [
        SparePilotSeated(
            unit_id=unit.unit_id,
            leaving_person_id=leaving.person_id,
            spare_person_id=spare.person_id,
            actor=cmd.actor,
        )
    ]


def _decide_combine(
    state: CampaignState, cmd: CombineInfantry, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    keep, merge = _unit(state, cmd.keep_unit_id), _unit(state, cmd.merge_unit_id)
    if keep.unit_id == merge.unit_id:
        raise Refusal("same_unit", "combine two different units")
    if not keep.kind.is_infantry or keep.kind is not merge.kind or keep.chassis != merge.chassis:
        raise Refusal(
            "not_same_type", "only two infantry or battle armor units of one type combine"
        )
    if keep.side_id != merge.side_id:
        raise Refusal("other_side", "the units belong to different sides")
    a, b = damage_of(state, keep.unit_id), damage_of(state, merge.unit_id)
    full = a.troopers_max or b.troopers_max
    alive_a = a.troopers_alive if a.troopers_alive is not None else full
    alive_b = b.troopers_alive if b.troopers_alive is not None else full
    if full is None or alive_a is None or alive_b is None:
        raise Refusal("unknown_strength", "the units' trooper counts are not known")
    if alive_a >= full or alive_b >= full:
        raise Refusal("not_understrength", "both units must be understrength to combine")
    people = [state.people[p] for p in (*keep.crew[:1], *merge.crew[:1]) if p in state.people]
    if len(people) != 2:
        raise Refusal("no_crew", "both units need their commanding crew to average skills")
    # "calculate the average skill of all squads/units and round down"
    gunnery = sum(p.gunnery for p in people) // 2
    piloting = sum(p.piloting for p in people) // 2
    return [
        InfantryCombined(
            keep_unit_id=keep.unit_id,
            merge_unit_id=merge.unit_id,
            troopers=min(full, alive_a + alive_b),
            troopers_max=full,
            gunnery=gunnery,
            piloting=piloting,
            actor=cmd.actor,
        )
    ]


def _decide_deploy(
    state: CampaignState, cmd: DeployUnrepaired, dice: Dice, rules: RuleSet | None
) -> list[Event]:
    unit = _unit(state, cmd.unit_id)
    bill = repair.repair_bill(subject_for(unit, damage_of(state, unit.unit_id)))
    if not bill.repairable:
        raise Refusal("irreparable", f"{unit.chassis} {unit.model} is {bill.state.value}")
    return [DeployedUnrepaired(unit_id=unit.unit_id, outstanding_sp=bill.total_sp, actor=cmd.actor)]


# --- evolvers ---------------------------------------------------------------------------------


def _pay(state: CampaignState, pool_id: str, delta: int) -> CampaignState:
    pool = state.pools[pool_id]
    return replace(
        state, pools={**state.pools, pool_id: replace(pool, balance=pool.balance + delta)}
    )


def _clean(damage: UnitDamage) -> bool:
    return not (
        damage.landing_gear_damaged
        or damage.armor_lost
        or damage.internal_lost
        or damage.critical_hits
        or damage.suits_damaged
        or damage.ammo_used
    )


def _evolve_repaired(state: CampaignState, e: UnitRepaired) -> CampaignState:
    led = state.battles
    fates = dict(led.fates)
    if fates.get(e.unit_id) in (Fate.DAMAGED, Fate.DESTROYED_REPAIRABLE, None):
        fates[e.unit_id] = Fate.OPERATIONAL if _clean(e.damage_after) else Fate.DAMAGED
    led = replace(led, unit_damage={**led.unit_damage, e.unit_id: e.damage_after}, fates=fates)
    return replace(_pay(state, e.pool_id, -e.cost_sp), battles=led)


def _evolve_crew_healed(state: CampaignState, e: VehicleCrewHealed) -> CampaignState:
    led = state.battles
    led = replace(
        led,
        crew_damage={**led.crew_damage, e.unit_id: e.damage_after},
        crew_healed={**led.crew_healed, e.unit_id: e.track},
    )
    return replace(_pay(state, e.pool_id, -e.cost_sp), battles=led)


def _evolve_dropship_crew(state: CampaignState, e: DropShipCrewReplaced) -> CampaignState:
    return _pay(state, e.pool_id, -e.cost_sp)


def _evolve_reconfigured(state: CampaignState, e: UnitReconfigured) -> CampaignState:
    led = replace(state.battles, bv_override={**state.battles.bv_override, e.unit_id: e.bv})
    return replace(_pay(state, e.pool_id, -e.cost_sp), battles=led)


def _evolve_formation(state: CampaignState, e: FormationChanged) -> CampaignState:
    return _pay(state, e.pool_id, -e.cost_sp)


def _evolve_disposed(state: CampaignState, e: UnitDisposed) -> CampaignState:
    led = state.battles
    if e.how is Disposal.SCRAP:
        led = replace(led, scrapped=(*led.scrapped, e.unit_id))
    else:
        led = replace(led, sold=(*led.sold, e.unit_id))
    return replace(_pay(state, e.pool_id, e.wp), battles=led)


def _evolve_ransomed(state: CampaignState, e: PersonRansomed) -> CampaignState:
    captured = {k: v for k, v in state.battles.captured_people.items() if k != e.person_id}
    state = _pay(state, e.pool_id, -e.cost_sp)
    return replace(state, battles=replace(state.battles, captured_people=captured))


def _evolve_recruited(state: CampaignState, e: CapturedRecruited) -> CampaignState:
    if not e.succeeds:
        return state
    captured = {k: v for k, v in state.battles.captured_people.items() if k != e.person_id}
    person = replace(state.people[e.person_id], side_id=e.captor_side, unit_id=None)
    state = _pay(state, e.pool_id, -e.cost_sp)
    return replace(
        state,
        people={**state.people, e.person_id: person},
        battles=replace(state.battles, captured_people=captured),
    )


def _evolve_trained(state: CampaignState, e: SkillTrained) -> CampaignState:
    person = replace(state.people[e.person_id], gunnery=e.gunnery, piloting=e.piloting)
    state = _pay(state, e.pool_id, -e.cost_sp)
    led = replace(state.battles, trained={**state.battles.trained, e.person_id: e.track})
    return replace(state, people={**state.people, e.person_id: person}, battles=led)


def _evolve_hired(state: CampaignState, e: PersonHired) -> CampaignState:
    person = Person(
        person_id=e.person_id,
        side_id=e.side_id,
        name=e.name,
        unit_id=None,
        gunnery=e.gunnery,
        piloting=e.piloting,
    )
    state = _pay(state, e.pool_id, -e.cost_sp)
    return replace(state, people={**state.people, e.person_id: person})


def _evolve_seated(state: CampaignState, e: SparePilotSeated) -> CampaignState:
    unit = state.units[e.unit_id]
    crew = tuple(e.spare_person_id if p == e.leaving_person_id else p for p in unit.crew)
    people = {
        **state.people,
        e.leaving_person_id: replace(state.people[e.leaving_person_id], unit_id=None),
        e.spare_person_id: replace(state.people[e.spare_person_id], unit_id=e.unit_id),
    }
    return replace(state, units={**state.units, e.unit_id: replace(unit, crew=crew)}, people=people)


def _evolve_combined(state: CampaignState, e: InfantryCombined) -> CampaignState:
    keep = state.units[e.keep_unit_id]
    led = state.battles
    damage = replace(
        led.unit_damage.get(e.keep_unit_id, UnitDamage()),
        troopers_alive=e.troopers,
        troopers_max=e.troopers_max,
    )
    people = dict(state.people)
    if keep.crew and keep.crew[0] in people:
        people[keep.crew[0]] = replace(people[keep.crew[0]], gunnery=e.gunnery, piloting=e.piloting)
    led = replace(
        led,
        unit_damage={**led.unit_damage, e.keep_unit_id: damage},
        scrapped=(*led.scrapped, e.merge_unit_id),  # the merged unit leaves the TO&E
    )
    return replace(state, people=people, battles=led)


def _evolve_deployed(state: CampaignState, e: DeployedUnrepaired) -> CampaignState:
    return state


for _command, _decider in (
    (RepairUnit, _decide_repair),
    (HealVehicleCrew, _decide_heal_crew),
    (ReplaceDropShipCrew, _decide_dropship_crew),
    (ReconfigureUnit, _decide_reconfigure),
    (ChangeFormation, _decide_formation),
    (DisposeUnit, _decide_dispose),
    (RansomPerson, _decide_ransom),
    (RecruitCaptured, _decide_recruit),
    (TrainSkill, _decide_train),
    (HirePerson, _decide_hire),
    (SeatSparePilot, _decide_seat),
    (CombineInfantry, _decide_combine),
    (DeployUnrepaired, _decide_deploy),
):
    register_decider(_command, _decider)

for _event, _evolver in (
    (UnitRepaired, _evolve_repaired),
    (VehicleCrewHealed, _evolve_crew_healed),
    (DropShipCrewReplaced, _evolve_dropship_crew),
    (UnitReconfigured, _evolve_reconfigured),
    (FormationChanged, _evolve_formation),
    (UnitDisposed, _evolve_disposed),
    (PersonRansomed, _evolve_ransomed),
    (CapturedRecruited, _evolve_recruited),
    (SkillTrained, _evolve_trained),
    (PersonHired, _evolve_hired),
    (SparePilotSeated, _evolve_seated),
    (InfantryCombined, _evolve_combined),
    (DeployedUnrepaired, _evolve_deployed),
):
    register_evolver(_event, _evolver)
