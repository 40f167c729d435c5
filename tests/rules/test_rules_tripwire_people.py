"""TripWire people tables: training levels, commanders, hiring, injuries, training, ransom."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mekref.rules.dice import Dice
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.injuries import (
    death_roll_due,
    heal_cost,
    is_dead,
    needs_hospital,
    roll_death,
    vehicle_crew_heal_cost,
)
from mekref.rules.tripwire.personnel import (
    hire_price,
    ransom_cost,
    recruit_modifier,
    roll_recruit_captured,
)
from mekref.rules.tripwire.skills import (
    anti_mech_skill,
    commander_benefits,
    skill_gap_ok,
    training_level,
)
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.training import (
    Skill,
    Trainee,
    TrainingRoute,
    step_cost,
    training_cost,
)

# --- Training levels -------------------------------------------------------------
# Each row of the SKILLS AND EXPERIENCE table, as written in the source (lines 38-45).
LEVEL_ROWS = [
    ("| Civillian | 8/8 | 7/8 | |||", "Civilian", [(8, 8), (7, 8)]),
    (
        "| Very Green | 8/7 | 8/6 | 7/7 | 6/7 | 6/8 |",
        "Very Green",
        [(8, 7), (7, 7), (6, 7), (6, 8)],
    ),
    ("| Green | 8/6 | 7/6 | 6/6 | 5/6 | 5/7 |", "Green", [(8, 6), (7, 6), (6, 6), (5, 6), (5, 7)]),
    (
        "| Regular | 7/5 | 6/5 | 5/5 | 4/5 | 4/6 |",
        "Regular",
        [(7, 5), (6, 5), (5, 5), (4, 5), (4, 6)],
    ),
    (
        "| Veteran | 6/4 | 5/4 | 4/4 | 3/4 | 3/5 |",
        "Veteran",
        [(6, 4), (5, 4), (4, 4), (3, 4), (3, 5)],
    ),
    ("| Elite | 5/3 | 4/3 | 3/3 | 2/3 | 2/4 |", "Elite", [(5, 3), (4, 3), (3, 3), (2, 3), (2, 4)]),
    (
        "| Heroic | 4/2 | 3/2 | 2/2 | 1/2 | 1/3 |",
        "Heroic",
        [(4, 2), (3, 2), (2, 2), (1, 2), (1, 3)],
    ),
    (
        "| Legendary | 3/1 | 2/1 | 1/1 (0/0) | 0/1 | 0/2 |",
        "Legendary",
        [(3, 1), (2, 1), (1, 1), (0, 0), (0, 1), (0, 2)],
    ),
]


@pytest.mark.parametrize(("row", "level", "pairs"), LEVEL_ROWS, ids=[r[1] for r in LEVEL_ROWS])
def test_training_level_rows(row: str, level: str, pairs: list[tuple[int, int]]) -> None:
    table_row = load_tables().level(level)
    assert table_row.ref.source == row
    for gunnery, piloting in pairs:
        assert training_level(gunnery, piloting) == level, (gunnery, piloting)


def test_ruling_8_6_listed_twice_is_green() -> None:
    """R-SKILL-1: 8/6 is listed under Very Green and Green; it classifies as Green."""
    assert training_level(8, 6) == "Green"


def test_ruling_unlisted_pairs_take_the_best_level_they_satisfy() -> None:
    """R-SKILL-1: 3/6 satisfies Regular's 4/6; 1/5 satisfies Veteran's 3/5; 9/9 is Civilian."""
    assert training_level(3, 6) == "Regular"
    assert training_level(1, 5) == "Veteran"
    assert training_level(9, 9) == "Civilian"


def test_skill_gap_and_anti_mech_eight() -> None:
    """Line 47: "a maximum difference of 2 between Gunnery and Piloting (or Anti-Mech) skills.
    (Note: any Infantry unit with no AntiMech capability ...) has an AntiMech skill of 8)."""
    assert skill_gap_ok(4, 6) and not skill_gap_ok(3, 6)
    assert anti_mech_skill(False, 5) == 8 and anti_mech_skill(True, 5) == 5


# --- Commanders -------------------------------------------------------------
COMMANDER_ROWS = [
    ("| Veteran | 1 | 1 | +1 | 1 |", "Veteran", 1, 1, 1, 1),
    ("| Elite | 2 | 3 | +2 | 2 |", "Elite", 2, 3, 2, 2),
    ("| Heroic | 4 | 6 | +3 | 3 |", "Heroic", 4, 6, 3, 3),
    ("| Legendary | 6 | 10 | +4 | 4 |", "Legendary", 6, 10, 4, 4),
]


@pytest.mark.parametrize(("row", "level", "spas", "points", "bonus", "edge"), COMMANDER_ROWS)
def test_commander_rows(
    row: str, level: str, spas: int, points: int, bonus: int, edge: int
) -> None:
    benefits = commander_benefits(level)
    assert benefits is not None and benefits.ref.source == row
    assert (benefits.max_spas, benefits.spa_points, benefits.skill_bonus, benefits.edge) == (
        spas,
        points,
        bonus,
        edge,
    )


def test_commanders_below_veteran_have_no_benefits() -> None:
    assert commander_benefits("Regular") is None


# --- Hiring -------------------------------------------------------------
PRICE_ROWS = [
    ("| Civillian | 0 |", "Civilian", 0),
    ("| Very Green | 5 |", "Very Green", 5),
    ("| Green | 10 |", "Green", 10),
    ("| Regular | 100 |", "Regular", 100),
    ("| Veteran | 600 (1 SPA) |", "Veteran", 600),
    ("| Elite | 1200 (2 SPA) |", "Elite", 1200),
]


@pytest.mark.parametrize(("row", "level", "cost"), PRICE_ROWS)
def test_personnel_price_rows(row: str, level: str, cost: int) -> None:
    assert load_tables().prices[level].ref.source == row
    assert hire_price(level) == cost
    # "| Vehicle Crew | x2 |"
    assert hire_price(level, vehicle_crew=True) == 2 * cost


def test_hire_rows_of_the_cost_table_agree_with_the_regular_price() -> None:
    """Ruling R-HIRE-1: "Hire new MechWarrior/AeroSpace Pilot | 100" and "Hire new Vehicle
    Crew | 200" are the Regular prices of the personnel table (100, and 100 x 2)."""
    t = load_tables()
    assert t.cost("hire.mechwarrior").factor == hire_price("Regular")
    assert t.cost("hire.vehicle_crew").factor == hire_price("Regular", vehicle_crew=True)


def test_heroic_and_legendary_cannot_be_hired() -> None:
    with pytest.raises(Refusal):
        hire_price("Heroic")


# --- Injuries -------------------------------------------------------------
INJURY_ROWS = [
    ("| 1 Hit (Lightly Wounded) | 10 |", 1, 10),
    ("| 2 Hits (Moderately Wounded) | 30 |", 2, 30),
    ("| 3 Hits (Heavily Wounded) | 60 |", 3, 60),
    ("| 4 Hits (Critically Wounded) | 100 |", 4, 100),
    ("| 5 Hits (Incapacitated * Requires death roll) | 150 |", 5, 150),
]


@pytest.mark.parametrize(("row", "hits", "cost"), INJURY_ROWS)
def test_injury_rows(row: str, hits: int, cost: int) -> None:
    assert load_tables().injuries[hits].ref.source == row
    assert heal_cost(hits) == cost


def test_six_hits_is_kia_and_cannot_be_healed() -> None:
    """ "| 6 Hits (KIA) | Not Possible |"."""
    assert load_tables().injuries[6].ref.source == "| 6 Hits (KIA) | Not Possible |"
    assert is_dead(6) and not is_dead(5)
    with pytest.raises(Refusal) as caught:
        heal_cost(6)
    assert caught.value.code == "cannot_heal"


def test_first_aid_for_one_or_two_hits_hospital_from_three() -> None:
    """ "Damage of 1 or 2 hits can be treated in the field by first aid. Damage of 3 or more hits
    ... requires access to a MASH unit or Hospital.\""""
    assert [needs_hospital(h) for h in range(1, 6)] == [False, False, True, True, True]


def test_vehicle_crew_heal_row() -> None:
    """ "| Heal Vehicle Crew (Driver and/or Commander hit results) | 60 per damage |"."""
    assert vehicle_crew_heal_cost(2) == 120
    # The cost table agrees: "| Heal Vehicle Crew (Driver Hit, Commander Hit) | 60 |".
    assert load_tables().cost("heal.vehicle_crew").factor == vehicle_crew_heal_cost(1)


def test_death_roll_is_1d6_and_4_to_6_dies() -> None:
    """ "A MechWarrior with 5 Damage has a chance of death on the operating table. Roll a Death
    roll on 1D6. On a 4 – 6 they die.\""""
    assert death_roll_due(5) and not death_roll_due(4)
    dice = Dice("death")
    seen = set()
    for _ in range(40):
        result, dice = roll_death(dice, "P")
        (face,) = result.roll.faces
        seen.add(face)
        assert result.dies == (face >= 4)
        assert result.roll.name == "death roll, pilot P"
    assert seen == {1, 2, 3, 4, 5, 6}


# --- Training -------------------------------------------------------------
STEP_ROWS = [
    ("| 8->7 | 1 |", 8, 1),
    ("| 7->6 | 5 |", 7, 5),
    ("| 6->5 | 50 |", 6, 50),
    ("| 5->4 | 150 |", 5, 150),
    ("| 4->3 | 200 |", 4, 200),
    ("| 3->2 | 300 |", 3, 300),
    ("| 2->1 | 500 |", 2, 500),
    ("| 1->0 | 750 |", 1, 750),
]


@pytest.mark.parametrize(("row", "skill", "cost"), STEP_ROWS)
def test_training_step_rows(row: str, skill: int, cost: int) -> None:
    assert load_tables().training_steps[skill].ref.source == row
    assert step_cost(skill) == cost


def trainee(g: int, p: int, **kw: bool) -> Trainee:
    args = {"took_part_with_kill": True, "trained_this_contract": False, **kw}
    return Trainee(person_id="p", gunnery=g, piloting=p, **args)


def test_the_worked_example_six_to_five_costs_fifty() -> None:
    """ "After the next engagement the new green pilot increases his piloting skill. It now costs
    50 WP to advance from 6>5.\""""
    assert training_cost(trainee(5, 6), Skill.PILOTING, TrainingRoute.KILL) == 50


def test_only_personnel_with_a_kill_may_train() -> None:
    with pytest.raises(Refusal) as caught:
        training_cost(trainee(4, 5, took_part_with_kill=False), Skill.GUNNERY, TrainingRoute.KILL)
    assert caught.value.code == "not_eligible"


def test_one_skill_per_contract() -> None:
    """ "Only one skill may be improved after each contract.\""""
    with pytest.raises(Refusal) as caught:
        training_cost(trainee(4, 5, trained_this_contract=True), Skill.GUNNERY, TrainingRoute.KILL)
    assert caught.value.code == "one_skill_per_contract"


def test_gap_at_most_two_after_training() -> None:
    """ "The difference between Pilot/Drive and Gunnery may be no more than 2.\""""
    with pytest.raises(Refusal) as caught:
        training_cost(trainee(3, 5), Skill.GUNNERY, TrainingRoute.KILL)
    assert caught.value.code == "skill_gap"


def test_simulators_train_to_regular_only() -> None:
    """ "(Simulators onboard DropShips also allows training but only to a maximum of Regular)."
    Ruling R-TRAIN-1: the level reached after the step must be Regular or lower."""
    assert (
        training_cost(
            trainee(5, 5, took_part_with_kill=False), Skill.GUNNERY, TrainingRoute.SIMULATOR
        )
        == 150
    )  # 4/5 is Regular
    with pytest.raises(Refusal) as caught:
        training_cost(
            trainee(4, 5, took_part_with_kill=False), Skill.PILOTING, TrainingRoute.SIMULATOR
        )  # 4/4 is Veteran
    assert caught.value.code == "simulator_limit"


def test_dropship_crew_training_costs_four_times() -> None:
    """ "| Train DropShip Crew | As Per MechWarrior x 4 |"; "DropShip Crews are considered to
    have Piloting 5 Gunnery 4."."""
    rules = load_tables().training_rules
    assert (rules.dropship_crew_gunnery, rules.dropship_crew_piloting) == (4, 5)
    assert rules.dropship_crew_ref.line == 102
    assert (
        training_cost(trainee(4, 5, dropship_crew=True), Skill.PILOTING, TrainingRoute.KILL) == 600
    )


@given(st.integers(1, 8), st.integers(1, 8))
def test_training_costs_are_positive_and_rise_as_skill_improves(g: int, p: int) -> None:
    costs = [step_cost(s) for s in range(8, 0, -1)]
    assert all(c > 0 for c in costs) and costs == sorted(costs)
    assert step_cost(g) > 0 and step_cost(p) > 0


# --- Ransom and recruiting -------------------------------------------------------------
def test_ransom_is_100_wp_per_person() -> None:
    """ "Players may at the end of the campaign pay 100 WP to return captured personnel"."""
    assert ransom_cost(3) == 300


def test_recruiting_captured_personnel() -> None:
    """ "Roll 2d6 (+ 1 for each 1 point of unrest over 7 the opponent has). On an 8+ they player
    may pay the WP to recruit them"."""
    assert recruit_modifier(7) == 0 and recruit_modifier(10) == 3 and recruit_modifier(4) == 0
    dice = Dice("recruit")
    for unrest in (7, 9, 12):
        attempt, dice = roll_recruit_captured(dice, "P", unrest)
        assert len(attempt.roll.faces) == 2
        assert attempt.succeeds == (attempt.roll.total + max(0, unrest - 7) >= 8)
