"""Morale, pilots, acquisition, currencies, missions, retreat and technical teams."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mekref.rules.dice import Dice
from mekref.rules.house_rules.acquisition import (
    acquire,
    ammo_tons,
    armor_tons,
    bids_for,
    buy,
    negotiated_price,
    part_availability,
    quantity_range,
    target_number,
)
from mekref.rules.house_rules.currency import convert, fluctuate, rate
from mekref.rules.house_rules.missions import force_size, roll_mission
from mekref.rules.house_rules.morale import morale_modifier, morale_test
from mekref.rules.house_rules.pilots import (
    PilotStatus,
    base_skill,
    lam_piloting_cost,
    rank_for,
    roll_starting_xp,
    status_for,
)
from mekref.rules.house_rules.repairs import (
    Attempt,
    Rating,
    botch_mark,
    maintenance_modifiers,
    may_attempt,
)
from mekref.rules.house_rules.retreat import heavy_woods_modifier, retreat_target, roll_retreat
from mekref.rules.house_rules.table_loader import load_tables
from mekref.rules.refusal import Refusal

# --- morale ------------------------------------------------------------------------------------


def test_morale_modifiers_add_up() -> None:
    # L112 "Veteran | +1 |", L120 "Pirate | -2 |", L131 "Hit with inferno | -1 |"
    assert morale_modifier("Veteran", "Pirate", ("inferno",))[0] == 1 - 2 - 1
    with pytest.raises(Refusal):
        morale_modifier("Heroic", "Davion", ())


def test_ruling_modifiers_add_to_the_roll_and_force_losses_do_not_stack() -> None:
    # Ruling HOUSE-4.
    total, reasons = morale_modifier("Regular", "Davion", ("force_50", "force_75", "lance_75"))
    assert total == -2 - 1 and "force_50" not in reasons
    for i in range(40):
        test, roll, _ = morale_test(Dice(f"m-{i}"), "u", 3, "Elite", "Clan", ())
        assert test.total == roll.total + 4
        expected = (
            "rout" if test.total <= 2 else "fighting_withdrawal" if test.total <= 5
            else "stand_ground" if test.total <= 8 else "advance" if test.total <= 11
            else "fight_to_the_death"
        )  # fmt: skip
        assert test.result == expected
        assert test.exempt_from_now == (test.total > 12)


# --- pilots ------------------------------------------------------------------------------------


def test_ruling_starting_experience_is_a_tens_die_and_a_units_die() -> None:
    # Ruling HOUSE-6 (L153).
    seen = set()
    for i in range(60):
        start, rolls, _ = roll_starting_xp(Dice(f"xp-{i}"), "p")
        assert start.xp == 10 * start.tens + start.units and 21 <= start.xp <= 66
        assert start.tens != 1 and all(r.total == 1 for r in rolls[:-2])
        seen.add(len(rolls))
    assert max(seen) > 2  # some tens die came up 1 and was rolled again
    assert base_skill() == 7


def test_ruling_rank_by_combined_skill() -> None:
    # Ruling HOUSE-14 (L160-164).
    assert rank_for(7, 7).text("name") == "Untrained"
    assert rank_for(6, 5).text("name") == "Green"
    assert rank_for(7, 6).text("name") == "Green"
    assert rank_for(5, 4).text("name") == "Regular" and rank_for(5, 3).text("name") == "Regular"
    assert rank_for(4, 3).text("name") == "Veteran" and rank_for(3, 3).text("name") == "Veteran"
    assert rank_for(3, 2).text("name") == "Elite" and rank_for(1, 1).text("name") == "Elite"


def test_lam_pilots_pay_six_per_piloting_step() -> None:
    # L104 "LAM pilots must also spend 6 experience points in order to lower their piloting"
    assert lam_piloting_cost() == 6 and lam_piloting_cost(2) == 12


def test_injury_status_by_points() -> None:
    # L156: 4 points rehabilitation, 5 retired.
    assert [status_for(h) for h in range(7)] == [PilotStatus.ACTIVE] * 4 + [
        PilotStatus.REHABILITATION,
        PilotStatus.RETIRED,
        PilotStatus.KILLED,
    ]


# --- acquisition, currencies, missions ---------------------------------------------------------


def test_ruling_acquisition_target_by_chart_or_logistics() -> None:
    # Ruling HOUSE-8: L172-174 without a Logistics skill; L176-178 with one.
    assert [target_number(k, None) for k in ("common", "uncommon", "rare")] == [6, 8, 10]
    assert [target_number(k, 5) for k in ("common", "uncommon", "rare")] == [4, 6, 8]
    assert target_number("specific_mech", None) == 10 and target_number("specific_vehicle", 4) == 5
    with pytest.raises(Refusal):
        target_number("legendary", None)


def test_bids_and_prices() -> None:
    assert [bids_for(m) for m in (-7, -4, 0, 2, 5, 9)] == [1, 2, 3, 4, 6, 8]
    for i in range(30):
        result, rolls, _ = acquire(Dice(f"a-{i}"), "PPC", "rare", 200_000, logistics_skill=4)
        assert result.margin == result.roll - 7 and len(result.bids) == bids_for(result.margin)
        for bid in result.bids:
            # "+40% to base cost", then the fluctuation: 1-2 lower, 3-4 standard, 5-6 higher by 3d6%
            assert bid.price == Fraction(280_000) * (100 + bid.percent) / 100
            if bid.price_die <= 2:
                assert -18 <= bid.percent <= -3
            elif bid.price_die <= 4:
                assert bid.percent == 0
            else:
                assert 3 <= bid.percent <= 18
            assert bid.damaged is None  # rolled only when bought (ruling HOUSE-23)
        assert rolls[0].name == "acquisition search, PPC"


def test_negotiation_armor_ammo_parts_and_quantities() -> None:
    assert negotiated_price(Fraction(1000), 7) == 850  # L219 "7 or more | -15% |"
    assert negotiated_price(Fraction(1000), -6) == 1150  # L213 "-6 or less | +15% |"
    assert negotiated_price(Fraction(1000), 0) == 1000
    assert [armor_tons(lvl, 7) for lvl in (1, 2, 3)] == [70, 35, 14]
    assert [ammo_tons(lvl, 7) for lvl in (1, 2, 3)] == [7, 3, 1]
    assert part_availability("gyro") == "uncommon" and part_availability("jump_jet") == "common"
    # Ruling HOUSE-15.
    assert [quantity_range(t) for t in (4, 6, 8, 10)] == [(1, 2), (1, 4), (1, 6), (2, 8)]


def test_currency_conversion_is_exact() -> None:
    assert rate("K-Bill") == Fraction(71, 100)
    assert convert(100, "L-Bill", "C-Bill") == 45
    assert convert(77, "C-Bill", "S-Bill") == 100
    with pytest.raises(Refusal):
        rate("Z-Bill")


def test_ruling_exchange_fluctuation_moves_a_rate_by_two_d6_percent() -> None:
    # Ruling HOUSE-16 (L230-234).
    for i in range(30):
        value, rolls, _ = fluctuate(Dice(f"fx-{i}"), "D-Bill")
        die = rolls[0].total
        if 3 <= die <= 4:
            assert value == Fraction(77, 100) and len(rolls) == 1
        else:
            pct = rolls[1].total * (1 if die >= 5 else -1)
            assert value == Fraction(77, 100) * (100 + pct) / 100


def test_ruling_mission_rolls() -> None:
    # Ruling HOUSE-9.
    assert force_size(-3).text("percent") == "62.5%" and force_size(20).text("percent") == "120%"
    for i in range(40):
        result, rolls, _ = roll_mission(Dice(f"mi-{i}"), "Riot Duty")
        assert result.enemy_present == (rolls[0].total >= 7)
        if result.enemy_present:
            assert result.size_roll == rolls[1].total - 5 and -3 <= result.size_roll <= 7
        result, rolls, _ = roll_mission(Dice(f"mi-{i}"), "Relief")
        assert result.enemy_present and rolls[0].sides == 6 and len(rolls[0].faces) == 3
        result, rolls, _ = roll_mission(Dice(f"mi-{i}"), "Retainer")
        assert result.size_roll is None


# --- retreat -----------------------------------------------------------------------------------


def test_retreat_modifiers() -> None:
    # L73 "+2", L75 "+1", L76 "-1"
    assert retreat_target(5, ("opposite_edge", "hostile_planet", "faster_than_half")) == 7
    with pytest.raises(Refusal):
        retreat_target(5, ("opposite_edge", "adjacent_edge"))
    assert heavy_woods_modifier("Assault") == -2 and heavy_woods_modifier("Light") == 1


def test_ruling_retreat_margins() -> None:
    # Ruling HOUSE-10.
    outcomes = set()
    for i in range(150):
        result, rolls, _ = roll_retreat(Dice(f"r-{i}"), "u", 8, ("opposite_edge",))
        outcomes.add(result.outcome)
        margin = result.margin
        if margin >= 0:
            expected = 4 if margin <= 1 else 3 if margin <= 3 else 2 if margin <= 5 else 1
            assert result.hours_lost == expected
        elif -margin <= 2:
            assert result.hours_lost == 6
        elif -margin >= 7:
            assert result.outcome == "captured"
        if result.outcome == "all_repair_time_and_damage":
            assert result.damage is not None and len(rolls) > 1
    assert "captured" in outcomes and "all_repair_time_and_damage" in outcomes
    t = load_tables()
    assert [t.band("retreat", "success", m).int("hours_lost") for m in (0, 2, 4, 5, 6, 9)] == [
        4,
        3,
        2,
        2,
        1,
        1,
    ]


# --- technical teams ---------------------------------------------------------------------------


def _a(team: str, rating: Rating, success: bool = False) -> Attempt:
    return Attempt(team_id=team, rating=rating, success=success)


def test_only_a_higher_rated_team_follows_a_failure() -> None:
    # L90 "nor may another team of the same or lower Experience Rating attempt the job"
    history = (_a("t1", Rating.REGULAR),)
    assert not may_attempt(history, "t1", Rating.REGULAR, "repair").allowed
    assert not may_attempt(history, "t2", Rating.REGULAR, "repair").allowed
    assert not may_attempt(history, "t3", Rating.GREEN, "repair").allowed
    assert may_attempt(history, "t4", Rating.VETERAN, "repair").allowed
    assert may_attempt((), "t1", Rating.GREEN, "replace").allowed


def test_ruling_elite_retries_are_cumulative_and_four_attempts_end_it() -> None:
    # Ruling HOUSE-11.
    one = (_a("v", Rating.VETERAN), _a("e1", Rating.ELITE))
    assert may_attempt(one, "e1", Rating.ELITE, "repair").tn_modifier == 1
    assert may_attempt(one, "e2", Rating.ELITE, "repair").allowed
    assert not may_attempt(one, "v2", Rating.VETERAN, "repair").allowed
    two = (*one, _a("e2", Rating.ELITE))
    assert may_attempt(two, "e1", Rating.ELITE, "repair").tn_modifier == 2
    four = (*two, _a("e1", Rating.ELITE))
    repair = may_attempt(four, "e3", Rating.ELITE, "repair")
    replace_job = may_attempt(four, "e3", Rating.ELITE, "replace")
    assert not repair.allowed and "impossible" in repair.reason
    assert not replace_job.allowed and "destroyed" in replace_job.reason
    assert not may_attempt(
        (_a("t", Rating.GREEN, success=True),), "u", Rating.ELITE, "repair"
    ).allowed


def test_ruling_botch_marks_and_maintenance() -> None:
    # Ruling HOUSE-17 (L89 "(R) for regular (V) for veteran and (E) for elite"), L94.
    assert [botch_mark(r) for r in Rating] == ["(R)", "(V)", "(E)", "(E)"]
    assert maintenance_modifiers() == (-3, 1)


def test_ruling_a_bargains_damage_is_rolled_when_it_is_bought() -> None:
    # Ruling HOUSE-23. L205-207 "Any time an item is bought at a lower price roll 2d6. On a 10
    # or higher roll on the critical damage table and apply the resulting criticals".
    for i in range(40):
        found, rolls, dice = acquire(Dice(f"b-{i}"), "PPC", "common", 200_000, logistics_skill=4)
        assert not any("damage" in r.name for r in rolls)
        for n, bid in enumerate(found.bids, start=1):
            bought, flaw, _ = buy(dice, found, n)
            if bid.bargain:
                assert [r.name for r in flaw] == [f"bargain damage, PPC, bid {n}"]
                assert bought.damaged == (flaw[0].total >= 10)
            else:
                assert flaw == () and bought.damaged is False
    with pytest.raises(Refusal) as info:
        buy(dice, found, len(found.bids) + 1)
    assert info.value.code == "unknown_bid"
