"""WarChest, victory points, retirement and retreat tables."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.victory import (
    BattleOutcome,
    RetreatSituation,
    apply_battle_vp,
    battle_vp,
    infantry_must_surrender,
    must_retire,
    retreat_conditions,
)
from mekref.rules.tripwire.warchest import cargo_wp_capacity, location_wp, transport_wp, wp_to_sp

T = load_tables()


# --- WarChest ---------------------------------------------------------------------------------
def test_union_250_gazelle_2500_cargo_five_times() -> None:
    """ "Each Union DropShip carries 250 WP or resources. The Gazelle DropShip carries 2500
    WarChest Points. Any unit can carry 5x its Cargo Capacity in WarChest Points (e.g. A 10 to
    flatbed truck can carry 50 WP)."""
    assert T.warchest.transports["Union"].ref.line == 59
    assert transport_wp("Union") == 250
    assert transport_wp("Gazelle") == 2500
    assert cargo_wp_capacity(Fraction(10)) == 50
    with pytest.raises(Refusal):
        transport_wp("Leopard")


def test_wp_convert_to_sp_one_to_one() -> None:
    """ "1 WP is converted to 1 SP in this campaign.\""""
    assert T.warchest.conversion_ref.line == 62
    assert wp_to_sp(37) == 37


@pytest.mark.parametrize(
    ("location", "line"),
    [
        ("Bagnorgeio", 157),
        ("Bagnorgeio Space Port", 158),
        ("Forward Deployment Base", 159),
        ("Combat Systems Manufacturing Facility", 160),
    ],
)
def test_strategic_locations_hold_1000_wp(location: str, line: int) -> None:
    """e.g. "Forward Deployment Base: 1000 WP. Federalist Government. ..."."""
    row = T.warchest.locations[location]
    assert row.ref.line == line and row.ref.source.startswith(f"{location}: 1000 WP.")
    assert location_wp(location) == 1000


def test_location_facilities_name_hospitals_and_repair_bays() -> None:
    assert "hospital" in T.warchest.locations["Bagnorgeio"].facilities
    assert "repair_bay_bm" in T.warchest.locations["Forward Deployment Base"].facilities


# --- Battle victory points ---------------------------------------------------------------------
def outcome(**kw: object) -> BattleOutcome:
    base: dict[str, object] = {
        "own_starting_bv": 10000,
        "own_destroyed_bv": 0,
        "enemy_starting_bv": 10000,
        "enemy_destroyed_bv": 0,
        "enemy_commander_lost": False,
        "own_commander_lost": False,
    }
    base.update(kw)
    return BattleOutcome(**base)  # type: ignore[arg-type]


def keys(o: BattleOutcome) -> dict[str, int]:
    return {a.key: a.vp for a in battle_vp(o)}


def test_row_25_percent_of_enemy_destroyed_is_1() -> None:
    """ "| 25% of Enemy force destroyed | 1 |"."""
    assert (
        T.victory.battle["enemy_destroyed_25"].ref.source == "| 25% of Enemy force destroyed | 1 |"
    )
    assert keys(outcome(enemy_destroyed_bv=2500)) == {"enemy_destroyed_25": 1}
    assert keys(outcome(enemy_destroyed_bv=2499)) == {}


def test_row_50_percent_of_enemy_destroyed_is_2_not_3() -> None:
    """ "| 50% of Enemy force destroyed | 2 |". Ruling R-VP-1: the rows do not stack."""
    assert (
        T.victory.battle["enemy_destroyed_50"].ref.source == "| 50% of Enemy force destroyed | 2 |"
    )
    assert keys(outcome(enemy_destroyed_bv=5000)) == {"enemy_destroyed_50": 2}


def test_rows_commanders_captured_or_killed() -> None:
    """ "| Enemy Force Commander captured/killed | 1* |" and
    "| Friendly Force Commander captured/killed. | -1* |"."""
    assert T.victory.battle["enemy_commander_lost"].ref.source == (
        "| Enemy Force Commander captured/killed | 1* |"
    )
    assert T.victory.battle["friendly_commander_lost"].ref.source == (
        "| Friendly Force Commander captured/killed. | -1* |"
    )
    assert keys(outcome(enemy_commander_lost=True, own_commander_lost=True)) == {
        "enemy_commander_lost": 1,
        "friendly_commander_lost": -1,
    }


def test_negative_rows_for_friendly_losses() -> None:
    """ "| 25% of friendly force destroyed | -1 |" and
    "| 50% of friendly force destrpyed | -2 |"."""
    assert T.victory.battle["friendly_destroyed_25"].ref.source == (
        "| 25% of friendly force destroyed | -1 |"
    )
    assert T.victory.battle["friendly_destroyed_50"].ref.source == (
        "| 50% of friendly force destrpyed | -2 |"
    )
    assert keys(outcome(own_destroyed_bv=3000)) == {"friendly_destroyed_25": -1}
    assert keys(outcome(own_destroyed_bv=9000)) == {"friendly_destroyed_50": -2}


def test_victory_points_cannot_go_below_zero() -> None:
    """ "victory points can't be reduced below 0."; the campaign ends at 10 VP."""
    assert apply_battle_vp(1, -2) == 0 and apply_battle_vp(3, 2) == 5
    assert T.victory.ends_at_vp == 10


def test_a_force_at_half_its_starting_bv_retires() -> None:
    """ "When a force reaches 50% of its starting BV, it retires from the field"."""
    assert T.victory.retire_ref.line == 413
    assert must_retire(5000, 10000) and not must_retire(5001, 10000)


@given(st.integers(0, 20000), st.integers(0, 20000), st.integers(1, 20000))
def test_battle_vp_grow_with_enemy_losses(a: int, b: int, start: int) -> None:
    low, high = sorted((min(a, start), min(b, start)))

    def total(destroyed: int) -> int:
        won = battle_vp(outcome(enemy_starting_bv=start, enemy_destroyed_bv=destroyed))
        return sum(x.vp for x in won)

    assert 0 <= total(low) <= total(high) <= 2


# --- Retreat ----------------------------------------------------------------------------------
def situation(**kw: object) -> RetreatSituation:
    base: dict[str, object] = {
        "own_bv": 10000,
        "enemy_bv": 10000,
        "own_starting_bv": 10000,
        "own_damage_bv": 0,
        "enemy_starting_bv": 10000,
        "enemy_damage_bv": 0,
        "own_commander_killed": False,
        "defended_objectives_destroyed": False,
        "ammo_weapons_dry": False,
    }
    base.update(kw)
    return RetreatSituation(**base)  # type: ignore[arg-type]


def lines(s: RetreatSituation) -> list[int]:
    return [ref.line for ref in retreat_conditions(s)]


def test_no_condition_no_retreat() -> None:
    assert lines(situation()) == []


@pytest.mark.parametrize(
    ("change", "line", "quote"),
    [
        (
            {"enemy_bv": 15000},
            341,
            "- The enemy outnumbers the attacker (attacker is 150% of defenders BV)",
        ),
        ({"enemy_damage_bv": 2500}, 342, "- The enemy has suffered 25% damage (on BV)"),
        ({"own_damage_bv": 2500}, 343, "- The players force has suffered 25% damage (on BV)"),
        ({"own_commander_killed": True}, 344, "- The players force commander has been killed"),
        (
            {"defended_objectives_destroyed": True},
            345,
            "- All objectives that the players was defending are destroyed rendering the site to "
            "have no strategic value",
        ),
        (
            {"ammo_weapons_dry": True},
            346,
            "- All units that have a non-machine gun based ammo weapon have expended all ammo",
        ),
    ],
)
def test_each_of_the_six_retreat_conditions(
    change: dict[str, object], line: int, quote: str
) -> None:
    assert T.retreat.conditions
    (ref,) = retreat_conditions(situation(**change))
    assert (ref.line, ref.source) == (line, quote)


def test_ruling_outnumbered_means_enemy_at_150_percent_of_own_bv() -> None:
    """R-RETREAT-1."""
    assert lines(situation(enemy_bv=14999)) == []
    assert lines(situation(enemy_bv=15000)) == [341]


def test_before_the_battle_only_being_outnumbered_allows_retreat() -> None:
    """ "Players can decided to enact a retreat before the battle has started but only if they
    are outnumbered (as above).\""""
    assert lines(situation(battle_started=False, own_commander_killed=True)) == []
    assert lines(situation(battle_started=False, enemy_bv=20000)) == [341]


def test_infantry_with_move_one_and_no_transport_surrender() -> None:
    """ "Infantry with a move of 1 and no transport have to lay down arms and surrender.\""""
    assert infantry_must_surrender(1, has_transport=False)
    assert not infantry_must_surrender(1, has_transport=True)
    assert not infantry_must_surrender(2, has_transport=False)
