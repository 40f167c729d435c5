"""The house-rule modules as one rule-set value the kernel runs (:data:`HOUSE_RULES`).

The referee enters what happened (battles, morale tests, damage rolls, purchases); the rules
roll and keep the pilots' experience, injuries and morale. Commands are the referee's; every
side sees the whole state but the dice seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules import commands as c
from mekref.rules.house_rules import events as e
from mekref.rules.house_rules import table_commands
from mekref.rules.house_rules.acquisition import acquire, buy
from mekref.rules.house_rules.advancement import (
    check_costs,
    check_level,
    contract_xp,
    morale_skill_for,
    price_step,
    rank_name,
    technician_feat_xp,
    technician_rating,
)
from mekref.rules.house_rules.currency import currency_name, fluctuate
from mekref.rules.house_rules.describe import describe
from mekref.rules.house_rules.fold import EVOLVERS
from mekref.rules.house_rules.maintenance import check_quality, maintenance_check
from mekref.rules.house_rules.mapsheets import roll_battlefield
from mekref.rules.house_rules.missions import roll_mission
from mekref.rules.house_rules.model import HouseState, Pilot
from mekref.rules.house_rules.morale import morale_test
from mekref.rules.house_rules.pilots import (
    PilotStatus,
    roll_starting_xp,
    status_for,
    xp_per_battle,
)
from mekref.rules.house_rules.random_damage import roll_pre_battle_damage
from mekref.rules.house_rules.repairs import (
    Attempt,
    Rating,
    botch_mark,
    check_rating,
    may_attempt,
)
from mekref.rules.house_rules.retreat import roll_retreat
from mekref.rules.house_rules.summary import summarize
from mekref.rules.house_rules.table_loader import load_tables
from mekref.rules.kernel import RuleSet
from mekref.rules.messages import Command, Event
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal, known

# --- decisions --------------------------------------------------------------------------------


def _set_up(state: HouseState, cmd: c.SetUp, dice: Dice) -> list[Event]:
    if state.created:
        raise Refusal("already_set_up", "the house-rule modules are already set up")
    if not cmd.seed:
        raise Refusal("bad_seed", "a seed is needed for the dice")
    return [e.SetUpDone(seed=cmd.seed, actor=cmd.actor)]


def _skills(piloting: int | None, gunnery: int | None) -> tuple[int | None, int | None]:
    """Both skills or neither (ruling HOUSE-24: a pilot without them is marked unknown)."""
    if (piloting is None) != (gunnery is None):
        raise Refusal(
            "half_skills",
            "give both piloting and gunnery, or neither (a new MechWarrior has 7 and 7, line 153)",
            load_tables().rule("experience", "start").ref,
        )
    if piloting is None or gunnery is None:
        return None, None
    return check_level("piloting", piloting), check_level("gunnery", gunnery)


def _add_pilot(state: HouseState, cmd: c.AddPilot, dice: Dice) -> list[Event]:
    if cmd.pilot_id in state.pilots:
        raise Refusal("duplicate_pilot", f"pilot {cmd.pilot_id!r} is already on the roster")
    piloting, gunnery = _skills(cmd.piloting, cmd.gunnery)
    rolls: tuple[Roll, ...] = ()
    if cmd.starting_xp is not None:
        if cmd.starting_xp < 0:
            raise Refusal("bad_xp", "experience cannot be negative")
        xp = cmd.starting_xp
    else:
        start, rolls, _ = roll_starting_xp(dice, cmd.pilot_id)
        xp = start.xp
    return [built_from(e.PilotJoined, cmd, xp=xp, piloting=piloting, gunnery=gunnery, rolls=rolls)]


def _set_skills(state: HouseState, cmd: c.SetPilotSkills, dice: Dice) -> list[Event]:
    pilot = _pilot(state, cmd.pilot_id)
    if pilot.piloting is not None:
        raise Refusal(
            "skills_on_record",
            f"pilot {cmd.pilot_id!r} already has Piloting {pilot.piloting} and Gunnery "
            f"{pilot.gunnery}: skills change by spending experience (HRSpendExperience)",
            load_tables().rule("experience", "start").ref,
        )
    piloting, gunnery = _skills(cmd.piloting, cmd.gunnery)
    assert piloting is not None and gunnery is not None
    rank = rank_name(piloting, gunnery)
    assert rank is not None
    return [e.PilotSkillsSet(pilot_id=cmd.pilot_id, piloting=piloting, gunnery=gunnery, rank=rank)]


def _skill_costs(state: HouseState, cmd: c.SkillCosts, dice: Dice) -> list[Event]:
    return [e.SkillCostsSet(costs=check_costs(cmd.costs))]


def _spend(state: HouseState, cmd: c.SpendExperience, dice: Dice) -> list[Event]:
    """Line 153: experience "may be spent on the piloting and gunnery skill"; line 104: a LAM
    pilot pays 6 more for each point of Piloting. One point per command; ruling HOUSE-26: only
    pilots still on the roster (not retired or dead) spend."""
    pilot = _pilot(state, cmd.pilot_id)
    if pilot.status in (PilotStatus.RETIRED, PilotStatus.KILLED):
        raise Refusal("cannot_spend", f"pilot {cmd.pilot_id!r} is {pilot.status}")
    if pilot.piloting is None or pilot.gunnery is None:
        raise Refusal(
            "skills_unknown",
            f"pilot {cmd.pilot_id!r} has no Piloting/Gunnery on record: set them first "
            "(HRSetPilotSkills)",
        )
    skill = cmd.skill.strip().lower()
    current = pilot.piloting if skill == "piloting" else pilot.gunnery
    step = price_step(state.skill_costs, skill, current, pilot.lam)
    if step.total > pilot.xp:
        raise Refusal(
            "not_enough_xp",
            f"pilot {cmd.pilot_id!r} has {pilot.xp} XP; {step.skill} {step.before} -> "
            f"{step.after} costs {step.total}",
        )
    piloting = step.after if step.skill == "piloting" else pilot.piloting
    gunnery = step.after if step.skill == "gunnery" else pilot.gunnery
    before = rank_name(pilot.piloting, pilot.gunnery)
    after = rank_name(piloting, gunnery)
    assert before is not None and after is not None
    return [
        built_from(
            e.SkillImproved,
            step,
            pilot_id=cmd.pilot_id,
            xp_left=pilot.xp - step.total,
            rank_before=before,
            rank_after=after,
        )
    ]


def _add_technician(state: HouseState, cmd: c.AddTechnician, dice: Dice) -> list[Event]:
    if cmd.tech_id in state.technicians or cmd.tech_id in state.support:
        raise Refusal("duplicate_staff", f"{cmd.tech_id!r} is already on the staff")
    _pilot(state, cmd.pilot_id)
    return [e.TechnicianJoined(tech_id=cmd.tech_id, name=cmd.name, pilot_id=cmd.pilot_id)]


def _technician_feat(state: HouseState, cmd: c.TechnicianFeat, dice: Dice) -> list[Event]:
    if cmd.tech_id not in state.technicians:
        raise Refusal("unknown_technician", f"no technician {cmd.tech_id!r}")
    gained = technician_feat_xp(cmd.feat, cmd.omnimech)
    return [
        e.TechnicianFeatDone(
            tech_id=cmd.tech_id, feat=cmd.feat, unit_id=cmd.unit_id, xp_gained=gained
        )
    ]


def _add_support(state: HouseState, cmd: c.AddSupportStaff, dice: Dice) -> list[Event]:
    if cmd.person_id in state.support or cmd.person_id in state.technicians:
        raise Refusal("duplicate_staff", f"{cmd.person_id!r} is already on the staff")
    role = cmd.role.strip().lower()
    if not role:
        raise Refusal("no_role", "give the person's role (administrator, astech, medic ...)")
    if role == "technician":
        raise Refusal(
            "technician_role",
            "technicians follow their MechWarrior and earn by feats (line 168): HRAddTechnician",
            load_tables().rule("experience", "technician").ref,
        )
    return [e.SupportJoined(person_id=cmd.person_id, name=cmd.name, role=role)]


def _contract(state: HouseState, cmd: c.ContractServed, dice: Dice) -> list[Event]:
    """Line 170, ruling HOUSE-29: the referee lists who served; medics are listed but gain
    nothing, technicians are refused (they earn by feats, line 168)."""
    if len(set(cmd.served)) != len(cmd.served):
        raise Refusal("duplicate_staff", "a person is listed twice")
    rule = load_tables().rule("experience", "support")
    gains: list[e.ContractXp] = []
    for person_id in cmd.served:
        if person_id in state.technicians:
            raise Refusal(
                "technician_contract",
                f"{person_id!r} is a technician: technicians earn no contract XP",
                rule.ref,
            )
        person = known(
            state.support, person_id, "unknown_staff", "no support person {!r} (HRAddSupportStaff)"
        )
        gains.append(e.ContractXp(person_id=person_id, xp_gained=contract_xp(person.role)))
    return [e.ContractServedDone(contract_id=cmd.contract_id, gains=tuple(gains))]


def _maintenance(state: HouseState, cmd: c.MaintenanceCheck, dice: Dice) -> list[Event]:
    quality = cmd.quality or state.quality.get(cmd.unit_id, "")
    if not quality:
        raise Refusal(
            "no_quality",
            f"{cmd.unit_id!r} has no quality grade on record: give quality (A worst to F best)",
            load_tables().rule("repairs", "maintenance").ref,
        )
    result, roll, _ = maintenance_check(
        dice,
        cmd.unit_id,
        check_quality(quality),
        cmd.target_number,
        state.maintenance_checks + 1,
    )
    return [e.MaintenanceChecked(result=result, rolls=(roll,))]


def _pilot(state: HouseState, pilot_id: str) -> Pilot:
    return known(state.pilots, pilot_id, "unknown_pilot", "no pilot {!r}")


def _report_battle(state: HouseState, cmd: c.ReportBattle, dice: Dice) -> list[Event]:
    """Lines 154 and 156. Ruling HOUSE-7: an injured pilot may fight (and then does not heal);
    each active pilot who sat the battle out heals one point; 4 points is rehabilitation, 5
    retirement (and 6 death, as MegaMek counts it)."""
    fought = set(cmd.fought)
    if len(fought) != len(cmd.fought):
        raise Refusal("duplicate_pilot", "a pilot is listed twice")
    hits = {h.pilot_id: h.hits for h in cmd.hits}
    if len(hits) != len(cmd.hits) or any(h < 0 for h in hits.values()):
        raise Refusal("bad_hits", "one non-negative hit count per pilot")
    if not set(hits) <= fought:
        raise Refusal("bad_hits", "only pilots who fought take hits")
    for pilot_id in fought:
        if _pilot(state, pilot_id).status is not PilotStatus.ACTIVE:
            raise Refusal("cannot_fight", f"pilot {pilot_id!r} is not fit to fight")
    changes: list[e.PilotChange] = []
    for pilot_id, pilot in sorted(state.pilots.items()):
        if pilot.status is not PilotStatus.ACTIVE:
            continue
        if pilot_id in fought:
            after = pilot.hits + hits.get(pilot_id, 0)
            status = status_for(after)
            gained = xp_per_battle() if status is not PilotStatus.KILLED else 0
        elif pilot.hits > 0:  # a pilot who sat the battle out heals
            heal = load_tables().rule("experience", "injuries").int("heal_per_battle_out")
            after, status, gained = max(0, pilot.hits - heal), PilotStatus.ACTIVE, 0
        else:
            continue
        changes.append(
            e.PilotChange(
                pilot_id=pilot_id,
                fought=pilot_id in fought,
                xp_gained=gained,
                hits_before=pilot.hits,
                hits_after=after,
                status=status,
            )
        )
    return [e.BattleReported(battle_id=cmd.battle_id, changes=tuple(changes))]


def _return(state: HouseState, cmd: c.ReturnFromRehabilitation, dice: Dice) -> list[Event]:
    # Ruling HOUSE-7: "approximately a year" is the referee's call; the pilot returns healed.
    if _pilot(state, cmd.pilot_id).status is not PilotStatus.REHABILITATION:
        raise Refusal("not_in_rehabilitation", f"pilot {cmd.pilot_id!r} is not in rehabilitation")
    return [e.PilotReturned(pilot_id=cmd.pilot_id, note=cmd.note)]


def _morale(state: HouseState, cmd: c.MoraleTestCommand, dice: Dice) -> list[Event]:
    if cmd.unit_id in state.morale_exempt:
        raise Refusal("no_more_morale", f"unit {cmd.unit_id!r} no longer makes morale checks")
    skill = cmd.skill
    if cmd.pilot_id:
        pilot = _pilot(state, cmd.pilot_id)
        ranked = morale_skill_for(rank_name(pilot.piloting, pilot.gunnery), cmd.pilot_id)
        if skill and skill.strip().casefold() != ranked.casefold():
            raise Refusal(
                "skill_mismatch",
                f"pilot {cmd.pilot_id!r} is {ranked}, not {skill}: give one of skill or pilot_id",
            )
        skill = ranked
    if not skill:
        raise Refusal("no_skill", "give the unit's skill (Green ... Elite) or its pilot_id")
    test, roll, _ = morale_test(dice, cmd.unit_id, cmd.turn, skill, cmd.nationality, cmd.situations)
    return [e.MoraleTested(test=test, rolls=(roll,))]


def _damage(state: HouseState, cmd: c.RandomDamage, dice: Dice) -> list[Event]:
    try:
        kind = UnitKind(cmd.kind)
    except ValueError:
        raise Refusal("unknown_unit_kind", f"no unit kind {cmd.kind!r}") from None
    damage, rolls, _ = roll_pre_battle_damage(
        dice,
        cmd.unit_id,
        weapons=cmd.weapons,
        ammo_types=cmd.ammo_types,
        kind=kind,
        locations=cmd.locations,
    )
    return [e.PreBattleDamageRolled(damage=damage, rolls=rolls)]


def _map_sheets(state: HouseState, cmd: c.MapSheets, dice: Dice) -> list[Event]:
    field, rolls, _ = roll_battlefield(
        dice, f"battle {cmd.battle_id}", terrain=cmd.terrain, maps=cmd.maps
    )
    return [e.MapSheetsRolled(battle_id=cmd.battle_id, battlefield=field, rolls=rolls)]


def _retreat(state: HouseState, cmd: c.Retreat, dice: Dice) -> list[Event]:
    result, rolls, _ = roll_retreat(
        dice,
        cmd.unit_id,
        cmd.piloting,
        cmd.modifiers,
        weapons=cmd.weapons,
        ammo_types=cmd.ammo_types,
    )
    return [e.RetreatRolled(result=result, rolls=rolls)]


def _acquire(state: HouseState, cmd: c.Acquire, dice: Dice) -> list[Event]:
    acquisition, rolls, _ = acquire(
        dice, cmd.item, cmd.availability, cmd.base_cost, logistics_skill=cmd.logistics_skill
    )
    return [e.AcquisitionRolled(acquisition=acquisition, rolls=rolls)]


def _buy(state: HouseState, cmd: c.Buy, dice: Dice) -> list[Event]:
    offer = known(
        state.offers, cmd.item, "no_offer", "no open bids for {!r}: search for it first (HRAcquire)"
    )
    bid, rolls, _ = buy(dice, offer, cmd.bid)
    return [e.ItemBought(item=cmd.item, bid_number=cmd.bid, bid=bid, rolls=rolls)]


def _mission(state: HouseState, cmd: c.MissionRollCommand, dice: Dice) -> list[Event]:
    result, rolls, _ = roll_mission(dice, cmd.mission)
    return [e.MissionRolled(result=result, rolls=rolls)]


def _team_rating(state: HouseState, cmd: c.RepairAttempt) -> Rating:
    """The rating named, or the technician's: their MechWarrior's rank (line 168, HOUSE-28)."""
    if not cmd.technician_id:
        if not cmd.rating:
            raise Refusal("no_rating", "give the team's rating or its technician_id")
        return check_rating(cmd.rating)
    tech = known(state.technicians, cmd.technician_id, "unknown_technician", "no technician {!r}")
    pilot = _pilot(state, tech.pilot_id)
    rank = rank_name(pilot.piloting, pilot.gunnery)
    rating = technician_rating(rank)
    if rating is None:
        raise Refusal(
            "no_technician_rating",
            f"technician {cmd.technician_id!r} has no rating: their MechWarrior "
            f"{tech.pilot_id!r} is {rank or 'not on record'}; give the rating",
            load_tables().rule("experience", "technician").ref,
        )
    if cmd.rating and check_rating(cmd.rating) is not rating:
        raise Refusal(
            "rating_mismatch",
            f"technician {cmd.technician_id!r} is {rating.name.title()} (as {tech.pilot_id}), "
            f"not {cmd.rating}",
            load_tables().rule("experience", "technician").ref,
        )
    return rating


def _repair(state: HouseState, cmd: c.RepairAttempt, dice: Dice) -> list[Event]:
    rating = _team_rating(state, cmd)
    job = state.jobs.get(cmd.part_id)
    if job is not None and job.job != cmd.job:
        raise Refusal("wrong_job", f"part {cmd.part_id!r} is a {job.job} job")
    history = job.attempts if job else ()
    permission = may_attempt(history, cmd.team_id, rating, cmd.job)
    if not permission.allowed:
        raise Refusal(
            "attempt_not_allowed", permission.reason, load_tables().rule("repairs", cmd.job).ref
        )
    target = cmd.target_number + permission.tn_modifier
    roll, _ = dice.roll(f"{cmd.job} attempt {len(history) + 1}, part {cmd.part_id}", 2)
    success = roll.total >= target
    return [
        e.RepairAttempted(
            part_id=cmd.part_id,
            job=cmd.job,
            attempt=Attempt(team_id=cmd.team_id, rating=rating, success=success),
            target=target,
            roll=roll.total,
            # Ruling HOUSE-17: every failed roll leaves the mark of who may try next.
            mark=None if success else botch_mark(rating),
            rolls=(roll,),
        )
    ]


def _exchange(state: HouseState, cmd: c.ExchangeFluctuation, dice: Dice) -> list[Event]:
    currency = currency_name(cmd.currency)
    value, rolls, _ = fluctuate(dice, currency)
    return [e.ExchangeRateSet(currency=currency, c_bills=value, rolls=rolls)]


DECIDERS: dict[type[Command], Callable[[HouseState, Any, Dice], list[Event]]] = {
    c.SetUp: _set_up,
    c.AddPilot: _add_pilot,
    c.ReportBattle: _report_battle,
    c.ReturnFromRehabilitation: _return,
    c.MoraleTestCommand: _morale,
    c.RandomDamage: _damage,
    c.MapSheets: _map_sheets,
    c.Retreat: _retreat,
    c.Acquire: _acquire,
    c.Buy: _buy,
    c.MissionRollCommand: _mission,
    c.RepairAttempt: _repair,
    c.ExchangeFluctuation: _exchange,
    c.SetPilotSkills: _set_skills,
    c.SkillCosts: _skill_costs,
    c.SpendExperience: _spend,
    c.AddTechnician: _add_technician,
    c.TechnicianFeat: _technician_feat,
    c.AddSupportStaff: _add_support,
    c.ContractServed: _contract,
    c.MaintenanceCheck: _maintenance,
    **table_commands.DECIDERS,
}


HOUSE_RULES: RuleSet[HouseState] = RuleSet(
    name="house_rules",
    title="House rules (morale, experience and skills, injuries, staff, acquisition, technical "
    "teams, maintenance)",
    state_type=HouseState,
    deciders=DECIDERS,
    evolvers=EVOLVERS,
    setup=(c.SetUp,),
    started=lambda state: state.created,
    not_started=("not_set_up", "set up the house-rule modules first"),
    describe=describe,
    summarize=summarize,
)
