"""Spending on people between tracks: healing vehicle crews, a new DropShip crew, ransom,
recruiting captives, training, hiring and seating spare pilots.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import injuries, personnel, repair
from mekref.rules.tripwire.battle_spending import (
    CapturedRecruited,
    DropShipCrewReplaced,
    HealVehicleCrew,
    HirePerson,
    PersonHired,
    PersonRansomed,
    RansomPerson,
    RecruitCaptured,
    ReplaceDropShipCrew,
    SeatSparePilot,
    SkillTrained,
    SparePilotSeated,
    TrainSkill,
    VehicleCrewHealed,
)
from mekref.rules.tripwire.campaign import Decider, Evolver, person_of, side_of
from mekref.rules.tripwire.model import UnitKind, UnitRole
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.skills import commander_benefits, skill_gap_ok, training_level
from mekref.rules.tripwire.spending_checks import (
    _pay,
    _paying_pool,
    _unit,
    afford,
)
from mekref.rules.tripwire.state import CampaignState, Person, PersonStatus
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.toe import toe_tables
from mekref.rules.tripwire.training import Skill, Trainee, TrainingRoute, training_cost
from mekref.rules.tripwire.whereabouts import place_of_unit, where_heals


def _decide_heal_crew(
    state: CampaignState, cmd: HealVehicleCrew, dice: Dice, rules: TripWire
) -> list[Event]:
    unit = _unit(state, cmd.unit_id)
    damage = state.battles.crew_damage.get(unit.unit_id, 0)
    if not damage:
        raise Refusal("not_injured", f"the crew of {unit.chassis} {unit.model} has no hit to heal")
    if state.battles.crew_healed.get(unit.unit_id) == state.tracks_completed:
        raise Refusal("healed_this_track", "this crew was already healed this track")
    # "Damage of 3 or more hits (or a Crew/Driver injured result for a vehicle) requires
    # access to a MASH unit or Hospital." (line 126), where the crew stands (R-WHERE-3).
    where_heals(
        state,
        place_of_unit(state, unit),
        f"the crew of {unit.chassis} {unit.model}",
        _paying_pool(state, cmd.pool_id, unit.side_id, 0),
        cmd.note,
        needs_hospital=True,
        at_hospital=cmd.at_hospital,
    )
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
            note=cmd.note,
        )
    ]


def _decide_dropship_crew(
    state: CampaignState, cmd: ReplaceDropShipCrew, dice: Dice, rules: TripWire
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


def _decide_ransom(
    state: CampaignState, cmd: RansomPerson, dice: Dice, rules: TripWire
) -> list[Event]:
    person = person_of(state, cmd.person_id)
    if cmd.person_id not in state.battles.captured_people:
        raise Refusal("not_captured", f"{person.name} is not held captive")
    ended = state.strategic is not None and bool(state.strategic.ended)
    if not ended and cmd.note is None:
        raise Refusal(
            "not_campaign_end",
            "L351 'Players may at the end of the campaign pay 100 WP to return captured "
            "personnel': the campaign has not ended; a referee who declares it over gives "
            "--referee NAME --reason TEXT (R-RANSOM-1)",
        )
    cost = personnel.ransom_cost(1)
    _paying_pool(state, cmd.pool_id, person.side_id, cost)
    return [
        PersonRansomed(
            person_id=person.person_id,
            pool_id=cmd.pool_id,
            cost_sp=cost,
            actor=cmd.actor,
            note=cmd.note,
        )
    ]


def _decide_recruit(
    state: CampaignState, cmd: RecruitCaptured, dice: Dice, rules: TripWire
) -> list[Event]:
    person = person_of(state, cmd.person_id)
    captor = state.battles.captured_people.get(person.person_id)
    if captor is None:
        raise Refusal("not_captured", f"{person.name} is not held captive")
    if person.status is PersonStatus.DEAD:
        raise Refusal("dead", f"{person.name} is dead")
    level = training_level(person.gunnery, person.piloting)
    leadership = leadership_modifier(state, person)
    cost = personnel.hire_price(level) + leadership
    pool = _paying_pool(state, cmd.pool_id, captor, 0)
    unrest = _opponent_unrest(state, person.side_id, cmd.opponent_unrest)
    # R-RECRUIT-3: no limit on attempts; each is a new roll, a failed one costs nothing.
    attempt, _ = personnel.roll_recruit_captured(dice, person.person_id, unrest)
    if attempt.succeeds:
        afford(pool, cost, "recruiting costs")
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
            leadership_sp=leadership if attempt.succeeds else 0,
        )
    ]


def leadership_modifier(state: CampaignState, person: Person) -> int:
    """L352 "(plus the leadership modifier for a ranked force/lance commander)": a captive
    who sat in the first seat of a Force Commander's or a Lieutenant's unit adds the Skill
    Bonus of their level's row (L31-34) to the price; others, and commanders below Veteran,
    add nothing (ruling R-RECRUIT-2)."""
    ranks = {UnitRole.FORCE_COMMANDER, UnitRole.LANCE_LEADER}
    unit = state.units.get(person.unit_id) if person.unit_id else None
    seated = unit is not None and unit.crew[:1] == (person.person_id,) and bool(unit.roles & ranks)
    # Taken with their unit, the person left its seat and kept the rank (``Person.rank``).
    if not seated and person.rank not in {r.value for r in ranks}:
        return 0
    row = commander_benefits(training_level(person.gunnery, person.piloting))
    return row.skill_bonus if row is not None else 0


def _opponent_unrest(state: CampaignState, side_id: str, given: int | None) -> int:
    """The captive's side's unrest (L352 "unrest over 7 the opponent has"): the strategic
    map's rating; without the map, the value given (ruling R-RECRUIT-1)."""
    ref = load_tables().recruiting.ref
    on_map = state.strategic.unrest.get(side_id) if state.strategic is not None else None
    if on_map is None:
        if state.strategic is not None:
            on_map = 0
        elif given is None:
            raise Refusal(
                "unrest_needed",
                "give the opponent's unrest rating (--opponent-unrest N): this campaign has "
                "no strategic map to read it from",
                ref,
            )
        else:
            return given
    if given is not None and given != on_map:
        raise Refusal(
            "unrest_differs",
            f"the strategic map gives {side_id!r} unrest {on_map}, not {given}; "
            "leave --opponent-unrest out",
            ref,
        )
    return on_map


def _decide_train(
    state: CampaignState, cmd: TrainSkill, dice: Dice, rules: TripWire
) -> list[Event]:
    person = person_of(state, cmd.person_id)
    if person.status is PersonStatus.DEAD or person.person_id in state.battles.captured_people:
        raise Refusal("unavailable", f"{person.name} is dead or captive")
    vouched = cmd.note is not None  # the referee's word lifts L110's kill and BR-9's once
    trainee = Trainee(
        person_id=person.person_id,
        gunnery=person.gunnery,
        piloting=person.piloting,
        took_part_with_kill=vouched or person.person_id in state.battles.may_train,
        # Ruling BR-9: a "contract" is a track: one skill per person per track.
        trained_this_contract=not vouched
        and state.battles.trained.get(person.person_id) == state.tracks_completed,
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
            kill_battle=state.battles.may_train.get(person.person_id)
            if cmd.route is TrainingRoute.KILL
            else None,
            note=cmd.note,
        )
    ]


def _decide_hire(state: CampaignState, cmd: HirePerson, dice: Dice, rules: TripWire) -> list[Event]:
    return hire_events(state, cmd)


def hire_events(
    state: CampaignState, cmd: HirePerson, bought_level: str | None = None
) -> list[Event]:
    """The hire, priced by the training level of its skills, or by ``bought_level`` when the
    skills were rolled at a level the side paid for (R-HIRE-3)."""
    side_of(state, cmd.side_id)
    if cmd.person_id in state.people:
        raise Refusal("duplicate_id", f"person id {cmd.person_id!r} is taken")
    if not cmd.name.strip():
        raise Refusal("bad_name", "a hired person needs a name")
    if not skill_gap_ok(cmd.gunnery, cmd.piloting):
        raise Refusal(
            "skill_gap",
            f"{cmd.gunnery}/{cmd.piloting}: L47 'There should be a maximum difference of 2 "
            "between Gunnery and Piloting' (and L111 'The difference between Pilot/Drive and "
            "Gunnery may be no more than 2'); hire a pilot whose skills differ by 2 at most",
        )
    hired_types = toe_tables().hired_types
    if cmd.hire_as is not None and cmd.hire_as not in hired_types:
        raise Refusal(
            "bad_hire_type",
            f"hire as {cmd.hire_as!r}? a hire is one of {', '.join(sorted(hired_types))} "
            "(the Recruit table's columns, lines 220-231)",
        )
    if cmd.vehicle_crew and cmd.hire_as not in (None, "vehicle_crew"):
        raise Refusal(
            "bad_hire_type",
            f"a vehicle crew hired as {cmd.hire_as!r}: give one of the two, not both",
        )
    vehicle_crew = cmd.vehicle_crew or cmd.hire_as == "vehicle_crew"
    column = _recruit_column(state, cmd, vehicle_crew)
    # R-SEAT-2: the type hired, from what the command says or the Recruit column taken.
    hired = cmd.hire_as or ("vehicle_crew" if vehicle_crew else column)
    level = bought_level or training_level(cmd.gunnery, cmd.piloting)
    cost = personnel.hire_price(level, vehicle_crew)
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
            recruit_column=column,
            note=cmd.note,
            seat_type=hired_types.get(hired) if hired else None,
        )
    ]


#: Which Recruit table columns a hire may come from (lines 220-231).
_PILOT_COLUMNS = ("mechwarrior", "aerospace_pilot")
_CREW_COLUMNS = ("vehicle_crew",)


def _recruit_column(state: CampaignState, cmd: HirePerson, vehicle_crew: bool) -> str | None:
    """The Recruit column the hire takes a found person from; None when no count applies.

    Ruling R-HIRE-2: on the strategic map people are hired only from what the side's Recruit
    actions found and nobody hired yet; a campaign without the map has no Recruit action, so
    hiring there is as before. The referee's word (``note``) hires without a recruit.
    """
    if state.strategic is None or cmd.note is not None:
        return None
    found = state.strategic.recruits.get(cmd.side_id, {})
    columns = _CREW_COLUMNS if vehicle_crew else _PILOT_COLUMNS
    if cmd.hire_as is not None:
        columns = (cmd.hire_as,)
    for column in columns:
        if found.get(column, 0) > 0:
            return column
    what = (
        cmd.hire_as.replace("_", " ") + "s"
        if cmd.hire_as is not None
        else "vehicle crews"
        if vehicle_crew
        else "MechWarriors or AeroSpace pilots"
    )
    raise Refusal(
        "no_recruit",
        f"hiring needs a recruit found by a Recruit action (lines 220-231, R-HIRE-2): side "
        f"{cmd.side_id!r} has no {what} available ({_found_text(found)}); order a Recruit "
        "action at a recruitment point, or the referee hires with --referee NAME --reason TEXT",
    )


def _found_text(found: dict[str, int]) -> str:
    listed = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(found.items()) if n)
    return f"found: {listed}" if listed else "none found"


def _decide_seat(
    state: CampaignState, cmd: SeatSparePilot, dice: Dice, rules: TripWire
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


def _evolve_ransomed(state: CampaignState, e: PersonRansomed) -> CampaignState:
    captured = {k: v for k, v in state.battles.captured_people.items() if k != e.person_id}
    state = _pay(state, e.pool_id, -e.cost_sp)
    return replace(state, battles=replace(state.battles, captured_people=captured))


def _evolve_recruited(state: CampaignState, e: CapturedRecruited) -> CampaignState:
    if not e.succeeds:
        return state
    captured = {k: v for k, v in state.battles.captured_people.items() if k != e.person_id}
    person = replace(state.people[e.person_id], side_id=e.captor_side, unit_id=None, rank=None)
    state = _pay(state, e.pool_id, -e.cost_sp)
    return replace(
        state,
        people={**state.people, e.person_id: person},
        battles=replace(state.battles, captured_people=captured),
    )


def _evolve_trained(state: CampaignState, e: SkillTrained) -> CampaignState:
    person = replace(state.people[e.person_id], gunnery=e.gunnery, piloting=e.piloting)
    state = _pay(state, e.pool_id, -e.cost_sp)
    may_train = state.battles.may_train
    if e.kill_battle is not None:
        # L110: the kill that allowed this training is used up; the next kill earns another.
        may_train = {k: v for k, v in may_train.items() if k != e.person_id}
    led = replace(
        state.battles,
        trained={**state.battles.trained, e.person_id: e.track},
        may_train=may_train,
    )
    return replace(state, people={**state.people, e.person_id: person}, battles=led)


def _evolve_hired(state: CampaignState, e: PersonHired) -> CampaignState:
    person = built_from(Person, e, unit_id=None)
    state = _pay(state, e.pool_id, -e.cost_sp)
    state = replace(state, people={**state.people, e.person_id: person})
    if e.recruit_column is not None and state.strategic is not None:
        s = state.strategic
        mine = dict(s.recruits.get(e.side_id, {}))
        mine[e.recruit_column] = mine.get(e.recruit_column, 0) - 1
        mine = {k: v for k, v in mine.items() if v > 0}
        state = replace(state, strategic=replace(s, recruits={**s.recruits, e.side_id: mine}))
    return state


def _evolve_seated(state: CampaignState, e: SparePilotSeated) -> CampaignState:
    unit = state.units[e.unit_id]
    crew = tuple(e.spare_person_id if p == e.leaving_person_id else p for p in unit.crew)
    people = {
        **state.people,
        e.leaving_person_id: replace(state.people[e.leaving_person_id], unit_id=None),
        e.spare_person_id: replace(state.people[e.spare_person_id], unit_id=e.unit_id),
    }
    return replace(state, units={**state.units, e.unit_id: replace(unit, crew=crew)}, people=people)


DECIDERS: dict[type[Command], Decider] = {
    HealVehicleCrew: _decide_heal_crew,
    ReplaceDropShipCrew: _decide_dropship_crew,
    RansomPerson: _decide_ransom,
    RecruitCaptured: _decide_recruit,
    TrainSkill: _decide_train,
    HirePerson: _decide_hire,
    SeatSparePilot: _decide_seat,
}

EVOLVERS: dict[type[Event], Evolver] = {
    VehicleCrewHealed: _evolve_crew_healed,
    DropShipCrewReplaced: _evolve_dropship_crew,
    PersonRansomed: _evolve_ransomed,
    CapturedRecruited: _evolve_recruited,
    SkillTrained: _evolve_trained,
    PersonHired: _evolve_hired,
    SparePilotSeated: _evolve_seated,
}
