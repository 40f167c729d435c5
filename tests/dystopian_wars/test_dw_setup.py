"""1.0 Starting Sequence and 2.0 Pre Battle Sequence: treaty, territories, strategy, size."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from dw_helpers import BRIT, KOB, SUN, create, run, squadron

from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.game import DYSTOPIAN_WARS
from mekref.rules.dystopian_wars.model import Category, Commodore, VesselClass
from mekref.rules.dystopian_wars.prebattle import new_squadron
from mekref.rules.dystopian_wars.treaty import roster_points, treaty_violations
from mekref.rules.refusal import Refusal


def test_the_sample_rosters_are_legal_and_the_free_wing_costs_nothing() -> None:
    squadrons = tuple(new_squadron(s) for s in BRIT.squadrons)
    assert treaty_violations(KOB, squadrons) == ()
    assert roster_points(squadrons) == 1200


def test_treaty_points_naval_core_and_large_share() -> None:
    # Lines 76-80: 1500 points, a Naval core of 750+, at most 50% Large or Massive.
    big = tuple(
        new_squadron(s)
        for s in (
            squadron("flag", VesselClass.LARGE, 1, 400, flagship=True),
            squadron("dn", VesselClass.DREADNOUGHT, 1, 400, Category.AERIAL),
            squadron("sky", VesselClass.MEDIUM_CAPITAL, 3, 800, Category.AERIAL),
        )
    )
    problems = " | ".join(treaty_violations("Prussian Empire", big))
    assert "over the 1500-point roster" in problems
    assert "Naval core is 400 points" in problems
    assert "800 points of Large or Massive vessels is over 750" in problems


def test_treaty_shields_guardians_flagship_and_free_wings() -> None:
    rows = (
        squadron("flag", VesselClass.LARGE, 1, 100, shields_per_ship=2, guardians_per_ship=1),
        squadron("w1", VesselClass.SMALL, 1, 30, Category.AERIAL, free_tiny_flyer_wing=True),
        squadron("w2", VesselClass.SMALL, 1, 30, Category.AERIAL, free_tiny_flyer_wing=True),
        squadron("n", VesselClass.CRUISER_BOMBER, 3, 800),
    )
    squadrons = tuple(new_squadron(s) for s in rows)
    problems = " | ".join(treaty_violations("Empire of the Blazing Sun", squadrons))
    assert "2 shield generators a ship" in problems
    assert "guardian generators only for Kingdom of Britannia" in problems
    assert "only one is free" in problems
    assert "exactly one flagship" in problems
    # KoB may have one shield + one guardian (line 82); the Eyrie allows dual shields (line 122).
    kob = " | ".join(treaty_violations(KOB, squadrons, dual_shields=True))
    assert "shield" not in kob and "guardian" not in kob


def test_an_illegal_roster_is_refused_with_every_problem() -> None:
    bad = replace(BRIT, squadrons=(*BRIT.squadrons, squadron("extra", VesselClass.LARGE, 1, 400)))
    with pytest.raises(Refusal) as info:
        DYSTOPIAN_WARS.execute(
            DYSTOPIAN_WARS.initial_state(),
            c.CreateCampaign(actor="ref", seed="s", fleets=(bad, SUN)),
        )
    assert info.value.code == "treaty" and "brit:" in info.value.message


def test_territories_a_fleet_base_one_of_each_pair_two_large() -> None:
    # Line 88: 6 territories; line 108: two of them the large type, at random.
    state = create()
    for fleet_id in ("brit", "sun"):
        held = [t for t in state.territories.values() if t.holder == fleet_id]
        assert len(held) == 6
        assert sum(1 for t in held if t.kind == "fleet_base") == 1
        large = [
            t
            for t in held
            if t.kind in ("airbase", "refinery", "large_town", "opium_traders", "shipyard")
        ]
        assert len(large) == 2
    assert state.territories["scientists_eyrie"].holder is None


def test_ruling_large_territories_are_drawn_without_replacement() -> None:
    # Ruling DW-13: a d5 then a d4 over the pairs left.
    events, _ = DYSTOPIAN_WARS.execute(
        DYSTOPIAN_WARS.initial_state(), c.CreateCampaign(actor="ref", seed="s", fleets=(BRIT, SUN))
    )
    generated = events[1]
    assert isinstance(generated, e.TerritoriesGenerated)
    assert [(r.name, r.sides) for r in generated.rolls] == [
        ("large territory 1, fleet brit", 5),
        ("large territory 2, fleet brit", 4),
        ("large territory 1, fleet sun", 5),
        ("large territory 2, fleet sun", 4),
    ]
    seen = {create(f"seed-{i}").territories["fleet_base-1"].holder for i in range(3)}
    assert seen == {"brit"}


def test_ruling_territory_ids_name_the_place_not_the_holder() -> None:
    # Ruling DW-32: the kind and the number of the fleet it started with (BRIT 1, SUN 2).
    state = create()
    brit = sorted(t for t, v in state.territories.items() if v.holder == "brit")
    sun = sorted(t for t, v in state.territories.items() if v.holder == "sun")
    assert "fleet_base-1" in brit and "fleet_base-2" in sun
    assert all(t.endswith("-1") for t in brit) and all(t.endswith("-2") for t in sun)
    assert all(state.territories[t].kind == t.rsplit("-", 1)[0] for t in brit + sun)


def test_ruling_the_nation_matches_whatever_its_case() -> None:
    # Line 82: guardian generators for the Kingdom of Britannia only (ruling DW-33).
    guarded = (new_squadron(squadron("g", VesselClass.LARGE, 1, 100, guardians_per_ship=1)),)
    for typed in ("kingdom of britannia", "The Kingdom of  Britannia", "KINGDOM OF BRITANNIA"):
        assert not any("guardian" in v for v in treaty_violations(typed, guarded)), typed
    assert any("guardian" in v for v in treaty_violations("Empire of the Blazing Sun", guarded))


def test_the_referee_places_the_eyrie_with_a_reason() -> None:
    state = create()
    with pytest.raises(Refusal):
        run(
            state,
            c.GrantTerritory(
                actor="ref", territory_id="scientists_eyrie", fleet_id="sun", reason=" "
            ),
        )
    _, state = run(
        state,
        c.GrantTerritory(
            actor="ref", territory_id="scientists_eyrie", fleet_id="sun", reason="map"
        ),
    )
    assert state.territories["scientists_eyrie"].holder == "sun"


def test_strategy_roll_adds_the_activation_bonus_and_prowess() -> None:
    # Line 136 and the worked example: Commodore 3rd Class adds +1. Ruling DW-7: prowess too.
    state = create()
    brit = state.fleets["brit"]
    state = replace(
        state,
        fleets={
            **state.fleets,
            "brit": replace(brit, commodore=Commodore(name="M", xp=3, prowess=1)),
        },
    )
    events, state = run(state, c.StartBattle(actor="ref", battle_id="b1", fleets=("brit", "sun")))
    set_up = events[0]
    assert isinstance(set_up, e.BattleSetUp)
    brit_score, sun_score = set_up.strategy
    assert brit_score.bonus == 2 and brit_score.total == brit_score.die + 2
    assert sun_score.bonus == 0
    assert set_up.battle.ranks == (2, 1)
    size = set_up.size_die
    assert set_up.battle.battle_type == {
        1: "skirmish",
        2: "skirmish",
        3: "skirmish_royale",
        4: "skirmish_royale",
    }.get(size, "battle_royale")


def test_ruling_ties_go_to_the_higher_rank_and_equal_ranks_reroll() -> None:
    # Line 138 "With a tied result the higher commodore wins."; ruling DW-8: equal ranks reroll.
    rerolled = 0
    for i in range(60):
        events, _ = run(
            create(f"tie-{i}"), c.StartBattle(actor="ref", battle_id="b", fleets=("brit", "sun"))
        )
        set_up = events[0]
        assert isinstance(set_up, e.BattleSetUp)
        strategy_rolls = [r for r in set_up.rolls if r.name.startswith("commodore strategy")]
        if len(strategy_rolls) > 2:
            rerolled += 1
            assert strategy_rolls[2].name.endswith("try 2")
            assert set_up.strategy[0].total != set_up.strategy[1].total
    assert rerolled > 0
    state = create("tie-ranked")
    sun = state.fleets["sun"]
    state = replace(
        state, fleets={**state.fleets, "sun": replace(sun, commodore=Commodore(name="H", xp=5))}
    )
    for i in range(40):
        events, _ = run(
            replace(state, seed=f"tie-ranked-{i}"),
            c.StartBattle(actor="ref", battle_id="b", fleets=("brit", "sun")),
        )
        set_up = events[0]
        assert isinstance(set_up, e.BattleSetUp)
        a, b = set_up.strategy
        if a.total == b.total:
            assert set_up.battle.chooser == "sun"
            return
    pytest.fail("no tie between ranks in 40 seeds")


def test_an_absent_commodore_rolls_without_bonus() -> None:
    # Ruling DW-12.
    state = create()
    brit = state.fleets["brit"]
    away = replace(brit, commodore=Commodore(name="M", xp=12, games_to_miss=1))
    state = replace(state, fleets={**state.fleets, "brit": away})
    events, _ = run(state, c.StartBattle(actor="ref", battle_id="b", fleets=("brit", "sun")))
    set_up = events[0]
    assert isinstance(set_up, e.BattleSetUp)
    assert set_up.strategy[0].bonus == 0 and set_up.battle.present == (False, True)
    assert set_up.battle.ranks == (1, 1)


def test_opium_traders_break_squadrons_on_a_one() -> None:
    state = create()
    events, _ = run(state, c.StartBattle(actor="ref", battle_id="b", fleets=("brit", "sun")))
    for ev in events:
        if isinstance(ev, e.SquadronsBroken):
            broken = {r.name.rsplit(" ", 1)[1] for r in ev.rolls if r.total == 1}
            assert set(ev.squadron_ids) == broken


def test_staking_order_and_ownership() -> None:
    from dw_helpers import stake_all

    state = create()
    _, state = run(state, c.StartBattle(actor="ref", battle_id="b", fleets=("brit", "sun")))
    assert state.battle is not None
    chooser = state.battle.chooser
    other = "sun" if chooser == "brit" else "brit"
    with pytest.raises(Refusal) as info:
        run(
            state,
            c.StakeTerritories(
                actor=other,
                fleet_id=other,
                own=f"{other}:fleet_base",
                enemy=f"{chooser}:fleet_base",
            ),
        )
    assert info.value.code == "not_your_stake"
    with pytest.raises(Refusal) as info:
        run(
            state,
            c.StakeTerritories(
                actor=chooser,
                fleet_id=chooser,
                own=f"{other}:fleet_base",
                enemy=f"{chooser}:fleet_base",
            ),
        )
    assert info.value.code == "bad_stake"
    _, state = stake_all(state)
    assert state.battle is not None
    assert len(state.battle.stakes) == (2 if state.battle.battle_type == "battle_royale" else 1)
    with pytest.raises(Refusal):
        run(state, c.StartBattle(actor="ref", battle_id="b2", fleets=("brit", "sun")))


def test_ruling_the_rank_table_not_the_example_gives_a_4th_class_commodore_no_bonus() -> None:
    """Ruling DW-39. L144's example: "Lord Admiral Malchett, who is a Commodore 4th Class (No
    Bonus) ... rolls a 6, adds his +1 so scores 7"; the table (L342) "0 1: Commodore 4th Class
    None". The table decides: a Commodore 4th Class adds nothing to the strategy roll."""
    lines = (Path(__file__).parent / "data" / "dystopian_wars.txt").read_text("utf-8")
    text = lines.splitlines()
    assert "Commodore 4^th Class (No Bonus)" in text[143] and "adds his +1 so scores 7" in text[143]
    assert text[341].split("\t") == ["0", "1: Commodore 4th Class", "None", "None"]
    state = create()  # both commodores start at 0 experience: Commodore 4th Class
    events, _ = run(state, c.StartBattle(actor="ref", battle_id="b1", fleets=("brit", "sun")))
    set_up = events[0]
    assert isinstance(set_up, e.BattleSetUp)
    assert set_up.battle.ranks == (1, 1)
    assert [(s.bonus, s.total - s.die) for s in set_up.strategy] == [(0, 0), (0, 0)]
