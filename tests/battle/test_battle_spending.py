"""Spending between tracks: each command debits (or credits) the right pool and refuses with
the rule when it may not. Prices are worked by hand from the quoted rows."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from mekref.rules.dice import Dice
from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import Fate, RecordSection, UnitDamage
from mekref.rules.tripwire.battle_spending import (
    ChangeFormation,
    CombineInfantry,
    DeployUnrepaired,
    Disposal,
    DisposeUnit,
    HirePerson,
    RansomPerson,
    ReconfigureUnit,
    RecruitCaptured,
    RepairTask,
    RepairUnit,
    SeatSparePilot,
    TrainSkill,
)
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.model import UnitKind, UnitRole
from mekref.rules.tripwire.repair import AmmoUse, LocationDamage
from mekref.rules.tripwire.salvage import UnitMobility
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.training import Skill

from .states import SEED, campaign, close, file, fu, run, seen, submit

S = RecordSection

#: A 50-ton 'Mech: Center Torso armor 16 of 20 (no internal damage); Left Leg armor 4 of 10 and
#: internal 6 of 8. 30 armor points and 18 internal points in all. 1.5 tons of LRM fired.
DAMAGED = UnitDamage(
    locations=(
        LocationDamage(name="Center Torso", armor_max=20, armor_now=16, internal_max=10,
                       internal_now=10, is_center_torso=True),
        LocationDamage(name="Left Leg", armor_max=10, armor_now=4, internal_max=8, internal_now=6),
    ),
    ammo_used=(AmmoUse(ammo_type="IS Ammo LRM-10", tons=Fraction(3, 2)),),
)  # fmt: skip


def _pools(state: CampaignState) -> CampaignState:
    _, state = run(
        state,
        OpenPool(pool_id="union", side_id="red", name="Union", kind=PoolKind.DROPSHIP,
                 dropship_class="Union", actor="t"),
        OpenPool(pool_id="base", side_id="red", name="Base", kind=PoolKind.LOCATION,
                 location="Forward Deployment Base", actor="t"),
        OpenPool(pool_id="blue", side_id="blue", name="Blue Union", kind=PoolKind.DROPSHIP,
                 dropship_class="Union", actor="t"),
    )  # fmt: skip
    return state


def _after_battle(red_damage: UnitDamage = DAMAGED, **red: object) -> CampaignState:
    state = _pools(campaign((fu("r1", **red),), (fu("b1"),)))  # type: ignore[arg-type]
    _, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS, damage=red_damage), seen("b1", S.SALVAGE))),
        close("battle-" + "a" * 12, "red"),
    )
    return state


#: These campaigns have no strategic map: where a unit stands is the referee's word (R-WHERE-1).
BOOKS = RefereeNote(referee="Ann", reason="books only, no strategic map")


def _repair(task: RepairTask, facility: bool = False, pool: str = "union") -> RepairUnit:
    return RepairUnit(
        unit_id="r1", pool_id=pool, task=task, at_repair_facility=facility, note=BOOKS, actor="t"
    )


def test_repair_armor_internal_then_deferred_armor() -> None:
    """ "| Repair ‘Mechs Entire Armor* # | Tonnage |", "* Armor is restored only to locations
    which do not have internal structure damage.", "| Repair ‘Mechs Entire Internal
    Structure** # | Tonnage x 2 |", "Repairs to Internal Structure requires a repair facility".

    Armor now: Center Torso 4 x 50/30 = 6.7 -> 7. Internal: 2 x 100/18 = 11.1 -> 12.
    Left Leg armor after the internal repair: 6 x 50/30 = 10. Union 250 - 7 - 12 - 10 = 221.
    """
    state = _after_battle()
    _, state = run(state, _repair(RepairTask.ARMOR))
    assert state.pools["union"].balance == 250 - 7
    with pytest.raises(Refusal, match="waits for the internal structure repair"):
        run(state, _repair(RepairTask.ARMOR))
    with pytest.raises(Refusal, match="requires a repair facility"):
        run(state, _repair(RepairTask.INTERNAL))
    _, state = run(state, _repair(RepairTask.INTERNAL, facility=True))
    assert state.pools["union"].balance == 250 - 7 - 12
    _, state = run(state, _repair(RepairTask.ARMOR))
    assert state.pools["union"].balance == 221
    assert state.battles.fates["r1"] is Fate.DAMAGED  # still short of ammunition
    # "| Re-arm Unit (Introductory, per ton of ammunition [AC, LRM, SRM, MG]) | 5 |": 7.5 -> 8
    _, state = run(state, _repair(RepairTask.REARM))
    assert state.pools["union"].balance == 221 - 8
    assert state.battles.fates["r1"] is Fate.OPERATIONAL
    with pytest.raises(Refusal, match="no ammunition to replace"):
        run(state, _repair(RepairTask.REARM))


def test_repairs_refuse_without_wp_or_for_a_truly_destroyed_mek() -> None:
    state = _after_battle()
    state = replace(state, pools={**state.pools, "union": replace(state.pools["union"], balance=3)})
    with pytest.raises(Refusal, match="costs 7 SP"):
        run(state, _repair(RepairTask.ARMOR))
    dead = UnitDamage(
        locations=(
            LocationDamage(name="Center Torso", armor_max=20, armor_now=0, internal_max=10,
                           internal_now=0, is_center_torso=True),
            LocationDamage(name="Left Leg", armor_max=10, armor_now=10, internal_max=8,
                           internal_now=8),
        )
    )  # fmt: skip
    state = _after_battle(dead)
    with pytest.raises(Refusal, match="cannot be repaired"):
        run(state, _repair(RepairTask.INTERNAL, facility=True))
    # "Scrap unit (Not CI) | ... Truly Destroyed – Tonnage/10": 50/10 = 5 WP.
    _, state = run(state, DisposeUnit(unit_id="r1", pool_id="base", how=Disposal.SCRAP, actor="t"))
    assert state.pools["base"].balance == 1000 + 5


def test_scrap_needs_room_in_the_pool() -> None:
    state = _after_battle()
    with pytest.raises(Refusal, match="room for 0 WP"):
        run(state, DisposeUnit(unit_id="r1", pool_id="union", how=Disposal.SCRAP, actor="t"))
    # "Internal Damage – Tonnage" x1 for Inner Sphere: 50 WP into the location pool.
    _, state = run(state, DisposeUnit(unit_id="r1", pool_id="base", how=Disposal.SCRAP, actor="t"))
    assert state.pools["base"].balance == 1000 + 50
    with pytest.raises(Refusal, match="scrapped or sold"):
        run(state, _repair(RepairTask.ARMOR))


def test_sell_only_fully_repaired() -> None:
    """ "*** A ’Mech must be fully repaired before it can be sold." "| Sell ‘Mech*** # |
    Tonnage x 10 |": 50 x 10 = 500 WP."""
    state = _after_battle()
    sell = DisposeUnit(unit_id="r1", pool_id="base", how=Disposal.SELL, actor="t")
    with pytest.raises(Refusal, match="repair it fully before selling"):
        run(state, sell)
    _, state = run(
        state,
        _repair(RepairTask.ARMOR),
        _repair(RepairTask.INTERNAL, facility=True),
        _repair(RepairTask.ARMOR),
    )
    _, state = run(state, sell)
    assert state.pools["base"].balance == 1500
    assert state.battles.sold == ("r1",)


def test_ransom_and_recruit_captured() -> None:
    """ "Players may at the end of the campaign pay 100 WP to return captured personnel" and
    "Roll 2d6 (+ 1 for each 1 point of unrest over 7 the opponent has). On an 8+ they player may
    pay the WP to recruit them"."""
    legless = UnitMobility(kind=UnitKind.MEK, legs_remaining=0)
    state = _pools(campaign((fu("r1"),), (fu("b1"), fu("b2"))))
    _, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE, mobility=legless),
                    seen("b2", S.SALVAGE, mobility=legless))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    assert state.battles.captured_people == {"p-b1": "red", "p-b2": "red"}
    # L351: "Players may at the end of the campaign pay 100 WP to return captured personnel".
    with pytest.raises(Refusal, match="L351") as caught:
        run(state, RansomPerson(person_id="p-b1", pool_id="blue", actor="t"))
    assert caught.value.code == "not_campaign_end"
    # The referee declares the campaign over (R-RANSOM-1): recorded with who and why.
    over = RefereeNote(referee="Ann", reason="the campaign is over")
    with pytest.raises(Refusal, match="belongs to side red"):
        run(state, RansomPerson(person_id="p-b1", pool_id="union", note=over, actor="t"))
    events, state = run(state, RansomPerson(person_id="p-b1", pool_id="blue", note=over, actor="t"))
    assert events[0].note == over
    # Once the strategic map has ended the campaign no word is needed.
    from mekref.rules.tripwire.turn.state import StrategicState

    ended = StrategicState(map_name="m", map_text="", attacker="red", defender="blue",
                           ended="red holds every objective")  # fmt: skip
    run(replace(state, strategic=ended), RansomPerson(person_id="p-b2", pool_id="blue", actor="t"))
    assert state.pools["blue"].balance == 150 and "p-b1" not in state.battles.captured_people
    with pytest.raises(Refusal, match="not held captive"):
        run(state, RansomPerson(person_id="p-b1", pool_id="blue", note=over, actor="t"))
    events, after = run(
        state, RecruitCaptured(person_id="p-b2", pool_id="union", opponent_unrest=9, actor="t")
    )
    (event,) = events
    roll, _ = Dice(SEED, state.rolls_used).roll("recruit captured, person p-b2", count=2)
    assert event.rolls == (roll,)
    if roll.total + 2 >= 8:  # Pilot b2 is 4/5: Regular, "| Regular | 100 |"
        assert after.people["p-b2"].side_id == "red" and after.pools["union"].balance == 150
    else:
        assert after.people["p-b2"].side_id == "blue" and after.pools["union"].balance == 250


def test_ruling_r_recruit_3_a_failed_attempt_may_be_tried_again() -> None:
    """L352: "A Player with captured personnel may attempt to recruit them. Roll 2d6 ... On an
    8+ they player may pay the WP to recruit them". R-RECRUIT-3: no limit on attempts; a failed
    one leaves the person captive and costs nothing, and the next is a new roll."""
    legless = UnitMobility(kind=UnitKind.MEK, legs_remaining=0)
    state = _pools(campaign((fu("r1"),), (fu("b1"),)))
    _, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE, mobility=legless))),
        close("battle-" + "a" * 12, "red"),
    )
    name = "recruit captured, person p-b1"
    # The dice stream from where the first attempt fails (2d6 below 8, unrest 7 adds nothing).
    first = next(
        i for i in range(state.rolls_used, 100) if Dice(SEED, i).roll(name, 2)[0].total < 8
    )
    state = replace(state, rolls_used=first)
    attempt = RecruitCaptured(person_id="p-b1", pool_id="union", opponent_unrest=7, actor="t")
    (event,), state = run(state, attempt)
    assert not event.succeeds and event.cost_sp == 0 and state.pools["union"].balance == 250
    assert state.battles.captured_people == {"p-b1": "red"}
    for _ in range(20):  # tried again until a roll makes 8+: each attempt a new roll
        roll, _ = Dice(SEED, state.rolls_used).roll(name, count=2)
        (event,), state = run(state, attempt)
        assert event.rolls == (roll,)
        if event.succeeds:
            break
    assert event.succeeds and state.people["p-b1"].side_id == "red"
    assert state.pools["union"].balance == 250 - 100  # paid once, for the attempt that made it


def test_train_needs_a_kill_once_per_track() -> None:
    """ "| 4->3 | 200 |"; "Only one skill may be improved after each contract." (BR-9)"""
    state = _pools(campaign((fu("r1"),), (fu("b1"),)))
    from mekref.rules.tripwire.battle_model import ReportedKill

    kill = ReportedKill(killed_name="x", killed_unit_ids=("b1",), killer_unit_id="r1")
    train = TrainSkill(person_id="p-r1", pool_id="base", skill=Skill.GUNNERY, actor="t")
    with pytest.raises(Refusal, match="awarded a kill"):
        run(state, train)
    _, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE), kills=(kill,))),
        close("battle-" + "a" * 12, "red"),
    )
    _, state = run(state, train)
    assert state.people["p-r1"].gunnery == 3 and state.pools["base"].balance == 1000 - 200
    with pytest.raises(Refusal, match="only one skill"):
        run(state, replace(train, skill=Skill.PILOTING))


def test_a_kill_allows_one_training_only() -> None:
    """L110: "Any MechWarriors ... who took part in a scenario and were awarded a kill may
    attempt to train": the kill is used up by the training; a later battle without a kill
    allows none, a later kill allows the next."""
    from mekref.rules.tripwire.battle_model import ReportedKill

    state = _pools(campaign((fu("r1"),), (fu("b1"), fu("b2"), fu("b3"))))
    train = TrainSkill(person_id="p-r1", pool_id="base", skill=Skill.GUNNERY, actor="t")

    def battle(state: CampaignState, tag: str, victim: str, kill: bool) -> CampaignState:
        kills = (ReportedKill(killed_name=victim, killed_unit_ids=(victim,),
                              killer_unit_id="r1"),) if kill else ()  # fmt: skip
        _, state = run(
            state,
            submit(file(tag, seen("r1", S.SURVIVORS), seen(victim, S.SALVAGE), kills=kills)),
            close("battle-" + tag * 12, "red"),
        )
        return state

    state = battle(state, "a", "b1", kill=True)
    _, state = run(state, train)
    assert state.people["p-r1"].gunnery == 3
    state = battle(state, "b", "b2", kill=False)
    with pytest.raises(Refusal, match="L110") as caught:
        run(state, replace(train, skill=Skill.PILOTING))
    assert caught.value.code == "not_eligible"
    state = battle(state, "c", "b3", kill=True)
    _, state = run(state, replace(train, skill=Skill.PILOTING))
    assert state.people["p-r1"].piloting == 4


def test_hire_keeps_the_two_point_skill_gap() -> None:
    """L47: "There should be a maximum difference of 2 between Gunnery and Piloting"; L111:
    "The difference between Pilot/Drive and Gunnery may be no more than 2." A 2/7 pilot is
    refused, a 4/6 one hired."""
    state = _after_battle()
    hire = HirePerson(person_id="p-new", side_id="red", pool_id="union", name="Nia",
                      gunnery=2, piloting=7, actor="t")  # fmt: skip
    with pytest.raises(Refusal, match="L47") as caught:
        run(state, hire)
    assert caught.value.code == "skill_gap"
    _, state = run(state, replace(hire, gunnery=4, piloting=6))
    assert state.people["p-new"].gunnery == 4


def test_hire_seat_and_medical_leave() -> None:
    """ "| Regular | 100 |", "| Vehicle Crew | x2 |"; a spare takes an injured pilot's seat."""
    state = _after_battle()
    hire = HirePerson(person_id="p-new", side_id="red", pool_id="union", name="Nia",
                      gunnery=4, piloting=5, actor="t")  # fmt: skip
    _, state = run(state, hire)
    assert state.pools["union"].balance == 150
    with pytest.raises(Refusal, match="taken"):
        run(state, hire)
    crew = replace(hire, person_id="p-crew", vehicle_crew=True, pool_id="base")
    _, state = run(state, crew)
    assert state.pools["base"].balance == 1000 - 200
    seat = SeatSparePilot(unit_id="r1", leaving_person_id="p-r1", spare_person_id="p-new",
                          actor="t")  # fmt: skip
    _, state = run(state, seat)
    assert state.units["r1"].crew == ("p-new",)
    assert state.people["p-r1"].unit_id is None and state.people["p-new"].unit_id == "r1"
    back = SeatSparePilot(unit_id="r1", leaving_person_id="p-new", spare_person_id="b1",
                          actor="t")  # fmt: skip
    with pytest.raises(Refusal, match="no person"):
        run(state, back)


def test_reconfigure_omni_and_change_formation() -> None:
    """ "| Reconfigure Omni-Pod. # **** | Tonnage/4 |": 50/4 = 12.5 -> 13; "| Change Formation
    Type | 100 (Requires 1 day of training) |"."""
    state = _pools(campaign((fu("r1"), replace(fu("r2"), roles=frozenset({UnitRole.OMNI}))),
                            (fu("b1"),)))  # fmt: skip
    with pytest.raises(Refusal, match="not an omni"):
        run(state, ReconfigureUnit(unit_id="r1", pool_id="union", configuration="B", bv=1200,
                                   note=BOOKS, actor="t"))  # fmt: skip
    _, state = run(state, ReconfigureUnit(unit_id="r2", pool_id="union", configuration="B",
                                          bv=1200, note=BOOKS, actor="t"))  # fmt: skip
    assert state.pools["union"].balance == 250 - 13 and state.battles.bv_override == {"r2": 1200}
    _, state = run(state, ChangeFormation(side_id="red", pool_id="union", lance="L1",
                                          formation="Striker", actor="t"))  # fmt: skip
    assert state.pools["union"].balance == 250 - 13 - 100


def test_reconfiguring_to_a_configuration_already_bought_is_free() -> None:
    """L99: "Each extra configuration beyond the first costs ... the cost of a Reconfigure
    Omni-Pod ... It does not cost WP to change the configurations once purchased." """
    state = _pools(campaign((replace(fu("r2"), roles=frozenset({UnitRole.OMNI})),), (fu("b1"),)))
    model = state.units["r2"].model
    to_b = ReconfigureUnit(
        unit_id="r2", pool_id="union", configuration="B", bv=1200, note=BOOKS, actor="t"
    )
    _, state = run(state, to_b)  # bought: 50/4 = 12.5 -> 13
    assert state.pools["union"].balance == 250 - 13
    back = replace(to_b, configuration=model, bv=1000)
    events, state = run(state, back, to_b)  # the imported one and B again: both owned
    assert [e.cost_sp for e in events] == [0, 0] and state.pools["union"].balance == 250 - 13
    _, state = run(state, replace(to_b, configuration="C"))  # a new one is paid
    assert state.pools["union"].balance == 250 - 26


def test_combine_understrength_infantry_average_skill_rounded_down() -> None:
    """ "Two understrength squads of BattleArmor or Platoons of Conventional Infantry may be
    combined if of the same type. If they have different skill levels then calculate the average
    skill of all squads/units and round down.\""""
    p1 = fu(
        "i1", kind=UnitKind.CONVENTIONAL_INFANTRY, tons=3, chassis="Foot Platoon", model="Rifle"
    )
    p2 = fu(
        "i2", kind=UnitKind.CONVENTIONAL_INFANTRY, tons=3, chassis="Foot Platoon", model="Rifle"
    )
    state = _pools(campaign((p1, p2), (fu("b1"),)))
    slower = replace(state.people["p-i2"], gunnery=5, piloting=6)
    state = replace(state, people={**state.people, "p-i2": slower})
    inf = UnitKind.CONVENTIONAL_INFANTRY
    twenty = UnitDamage(troopers_alive=20, troopers_max=28)
    ten = UnitDamage(troopers_alive=10, troopers_max=28)
    _, state = run(
        state,
        submit(file("a", seen("i1", S.SURVIVORS, kind=inf, damage=twenty),
                    seen("i2", S.SURVIVORS, kind=inf, damage=ten), seen("b1", S.SALVAGE))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    _, state = run(state, CombineInfantry(keep_unit_id="i1", merge_unit_id="i2", actor="t"))
    assert state.battles.unit_damage["i1"].troopers_alive == 28
    assert (state.people["p-i1"].gunnery, state.people["p-i1"].piloting) == (4, 5)  # (4+5)//2
    assert "i2" in state.battles.scrapped


def test_deploy_unrepaired_records_the_outstanding_bill() -> None:
    """ "Players may choose not to pay the cost of repairs ... If these forces are later deployed
    in a scenario they do so in a damaged state, or holding less ammo.\""""
    state = _after_battle()
    events, _ = run(state, DeployUnrepaired(unit_id="r1", actor="t"))
    assert events[0].outstanding_sp == 7 + 10 + 12 + 8  # type: ignore[attr-defined]


def test_heal_vehicle_crew_one_hit_per_track_at_a_hospital() -> None:
    """ "| Heal Vehicle Crew (Driver and/or Commander hit results) | 60 per damage |" and "(or a
    Crew/Driver injured result for a vehicle) requires access to a MASH unit or Hospital"."""
    from mekref.rules.tripwire.battle_spending import HealVehicleCrew

    tank = fu("t1", kind=UnitKind.COMBAT_VEHICLE, tons=60, crew=2)
    state = _pools(campaign((tank,), (fu("b1"),)))
    vehicle = UnitKind.COMBAT_VEHICLE
    _, state = run(
        state,
        submit(file("a", seen("t1", S.SURVIVORS, kind=vehicle, crew_damage=2),
                    seen("b1", S.SALVAGE))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    heal = HealVehicleCrew(unit_id="t1", pool_id="union", at_hospital=True, note=BOOKS, actor="t")
    with pytest.raises(Refusal, match="MASH"):
        run(state, replace(heal, at_hospital=False))
    _, state = run(state, heal)
    assert state.pools["union"].balance == 190 and state.battles.crew_damage["t1"] == 1
    with pytest.raises(Refusal, match="already healed this track"):
        run(state, heal)


def test_dropship_costs() -> None:
    """ "| Repair Armor on Dropship | Tonnage x 2 |", "| Repair Internal Structure/SI on DropShip |
    Tonnage x 5 |", "| Repair Damage to Landing Gear | Tonnage /2 |", "| Replace/Heal DropShip
    Crew | 100 per crew member |", "| Train DropShip Crew | As Per MechWarrior x 4 |".

    A 1,000-ton DropShip lost 20 of 100 armor points and 5 of 20 SI, and its gear is hit:
    armor 20/100 x 2,000 = 400; SI 5/20 x 5,000 = 1,250; gear 1,000/2 = 500; 3 crew 300;
    the crew's gunnery 4 -> 3 ("| 4->3 | 200 |") x 4 = 800.
    """
    from mekref.rules.tripwire.battle_model import ReportedKill
    from mekref.rules.tripwire.battle_spending import ReplaceDropShipCrew

    ship = fu("d1", kind=UnitKind.DROPSHIP, tons=1000)
    state = campaign((ship,), (fu("b1"),))
    _, state = run(
        state,
        OpenPool(pool_id="port", side_id="red", name="Port", kind=PoolKind.LOCATION,
                 location="Bagnorgeio Space Port", opening_balance=5000, actor="t"),
    )  # fmt: skip
    hurt = UnitDamage(
        locations=(
            LocationDamage(name="Nose", armor_max=100, armor_now=80, internal_max=0,
                           internal_now=0),
            LocationDamage(name="Structural Integrity", armor_max=0, armor_now=0,
                           internal_max=20, internal_now=15),
        ),
        landing_gear_damaged=True,
    )  # fmt: skip
    kill = ReportedKill(killed_name="x", killed_unit_ids=("b1",), killer_unit_id="d1")
    _, state = run(
        state,
        submit(file("a", seen("d1", S.SURVIVORS, kind=UnitKind.DROPSHIP, damage=hurt),
                    seen("b1", S.SALVAGE), kills=(kill,))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    repair_d1 = RepairUnit(
        unit_id="d1", pool_id="port", task=RepairTask.ARMOR, note=BOOKS, actor="t"
    )
    _, state = run(state, repair_d1)
    assert state.pools["port"].balance == 5000 - 400
    internal = replace(repair_d1, task=RepairTask.INTERNAL, at_repair_facility=True)
    _, state = run(state, internal)
    assert state.pools["port"].balance == 5000 - 400 - 1250 - 500
    assert state.battles.fates["d1"] is Fate.OPERATIONAL
    _, state = run(state, ReplaceDropShipCrew(unit_id="d1", pool_id="port", members=3, actor="t"))
    assert state.pools["port"].balance == 2850 - 300
    _, state = run(state, TrainSkill(person_id="p-d1", pool_id="port", skill=Skill.GUNNERY,
                                     actor="t"))  # fmt: skip
    assert state.pools["port"].balance == 2550 - 800
    with pytest.raises(Refusal, match="not a DropShip"):
        run(state, ReplaceDropShipCrew(unit_id="b1", pool_id="port", members=1, actor="t"))
