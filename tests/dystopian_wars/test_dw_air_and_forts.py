"""Airfield and Airbase wings, Fleet Base and Eyrie fortifications (lines 111-113 and 122;
rulings DW-35 to DW-38), at the rules level: each test quotes the line it checks."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from dw_helpers import create, run

from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.describe import describe
from mekref.rules.dystopian_wars.game import DYSTOPIAN_WARS
from mekref.rules.dystopian_wars.mars import mars_in_force, squadron_mars
from mekref.rules.dystopian_wars.model import DystopianState
from mekref.rules.dystopian_wars.summary import summarize
from mekref.rules.refusal import Refusal

LINES = (Path(__file__).parent / "data" / "dystopian_wars.txt").read_text("utf-8").splitlines()
L84 = "Only one Wing of Tiny Flyers for “free”"
L111 = "Fleet Base\t+4\t1 Wing TF’s (inc)\tFortress, 2 Flak Towers, 2 Rocket/ Gun/ Tesla Towers"
L112 = "Airfield\t+1\t1 extra Wing TT’s"
L113 = (
    "Airbase (Large)\t+2\t1 extra Wing TT’s\tAll TT’s have either “Large Fuel Tanks” or Better"
    " Engines” MAR"
)
L122 = "You may take Dual Shield Generators. Defended by a Fortress!"


def test_the_lines_are_quoted_verbatim() -> None:
    assert L84 in LINES[83]
    assert LINES[110] == L111
    assert LINES[111] == L112
    assert LINES[112] == L113
    assert L122 in LINES[121]


def _state(brit_air: str = "airbase") -> DystopianState:
    """brit holds ``brit_air``-1 (an Airfield or an Airbase), sun an Airbase; the Eyrie is sun's."""
    state = create()
    territories = dict(state.territories)
    del territories["airbase-1"]
    territories[f"{brit_air}-1"] = replace(
        state.territories["airbase-1"], territory_id=f"{brit_air}-1", kind=brit_air
    )
    territories["scientists_eyrie"] = replace(territories["scientists_eyrie"], holder="sun")
    return replace(state, territories=territories)


def _start(state: DystopianState) -> tuple[list[e.AirWings], DystopianState]:
    events, state = run(state, c.StartBattle(actor="ref", battle_id="b", fleets=("brit", "sun")))
    return [x for x in events if isinstance(x, e.AirWings)], state


def _stake(state: DystopianState, brit_own: str, sun_own: str) -> list[e.FortificationsDefend]:
    """The strategy winner stakes brit's ``brit_own`` against sun's ``sun_own``."""
    battle = state.battle
    assert battle is not None
    who = battle.chooser
    own, enemy = (brit_own, sun_own) if who == "brit" else (sun_own, brit_own)
    events, _ = run(state, c.StakeTerritories(actor=who, fleet_id=who, own=own, enemy=enemy))
    return [x for x in events if isinstance(x, e.FortificationsDefend)]


def _refusal(state: DystopianState, command: c.Command) -> str:
    with pytest.raises(Refusal) as refused:
        DYSTOPIAN_WARS.execute(state, command)
    return str(refused.value)


def test_an_airfield_gives_one_extra_wing_in_every_battle() -> None:
    # L112 "Airfield +1 1 extra Wing TT’s"
    wings, _ = _start(_state("airfield"))
    brit = next(w for w in wings if w.fleet_id == "brit")
    assert brit.wings == (e.ExtraWing(territory_id="airfield-1", territory="Airfield", line=112),)
    assert describe(brit) == (
        "battle b: brit fields 1 extra wing of Tiny Flyers, free: Airfield airfield-1 (line 112)"
    )


def test_an_airbase_gives_a_wing_and_its_mar_for_all_the_wings() -> None:
    # L113 "1 extra Wing TT’s	All TT’s have either “Large Fuel Tanks” or Better Engines” MAR"
    state = _state()
    wings, _ = _start(state)
    sun = next(w for w in wings if w.fleet_id == "sun")
    assert "its MAR not chosen (Large Fuel Tanks or Better Engines: DWChooseWingMAR)" in describe(
        sun
    )
    chose, state = run(
        state,
        c.ChooseWingMar(
            actor="sun", fleet_id="sun", territory_id="airbase-2", mar="better engines"
        ),
    )
    assert describe(chose[0]) == (
        "sun's wings of Tiny Flyers have Better Engines from territory airbase-2"
    )
    assert "Better Engines" in squadron_mars(state, "sun", "wing")  # the roster's free wing
    assert "Better Engines" not in squadron_mars(state, "sun", "cruisers")
    assert "Better Engines" in mars_in_force(state, "sun")["wing"]
    wings, _ = _start(state)
    sun = next(w for w in wings if w.fleet_id == "sun")
    assert sun.wings[0].mar == "Better Engines"
    assert describe(sun).endswith(
        "Airbase airbase-2 (line 113), with Better Engines for all its wings"
    )


def test_a_wing_mar_not_offered_is_refused_quoting_the_line() -> None:
    state = _state("airfield")
    refused = _refusal(
        state,
        c.ChooseWingMar(
            actor="brit", fleet_id="brit", territory_id="airfield-1", mar="Better Engines"
        ),
    )
    assert refused.startswith("no_wing_mar: Airfield gives its wings no MAR")
    assert L112 in refused
    refused = _refusal(
        state,
        c.ChooseWingMar(
            actor="sun", fleet_id="sun", territory_id="airbase-2", mar="Sturginum Boost"
        ),
    )
    assert "Airbase offers Large Fuel Tanks or Better Engines, not 'Sturginum Boost'" in refused
    assert L113 in refused
    # The Airbase's MAR is for all the wings, not "One Squadron" (DWAssignMAR).
    refused = _refusal(
        state,
        c.AssignMar(
            actor="sun",
            fleet_id="sun",
            territory_id="airbase-2",
            squadron_id="wing",
            mar="Better Engines",
        ),
    )
    assert "Airbase gives no such MAR to a squadron (its wings' MAR: DWChooseWingMAR)" in refused
    assert L113 in refused


def test_ruling_the_fleet_bases_wing_is_the_rosters_free_wing() -> None:
    # DW-35: L111 "1 Wing TF’s (inc)" is L84's one free wing: a Fleet Base adds no wing, even a
    # second one conquered.
    state = _state("airfield")
    territories = {**state.territories}
    territories["fleet_base-2"] = replace(territories["fleet_base-2"], holder="brit")
    wings, _ = _start(replace(state, territories=territories))
    brit = next(w for w in wings if w.fleet_id == "brit")
    assert [w.territory_id for w in brit.wings] == ["airfield-1"]


def test_ruling_extra_wings_follow_the_territory_used_in_every_battle() -> None:
    # DW-36: one extra wing per Airfield or Airbase used (held, or on a Raid's loan), each battle.
    state = _state("airfield")
    territories = {**state.territories}
    territories["airbase-2"] = replace(territories["airbase-2"], lent_to="brit")
    wings, _ = _start(replace(state, territories=territories))
    assert [w.fleet_id for w in wings] == ["brit"]  # sun's only Airbase is raided
    assert [w.territory_id for w in wings[0].wings] == ["airbase-2", "airfield-1"]
    assert describe(wings[0]).startswith("battle b: brit fields 2 extra wings of Tiny Flyers")


def test_ruling_a_staked_fleet_base_is_defended_by_its_fortifications() -> None:
    # DW-38: L111 "Fortress, 2 Flak Towers, 2 Rocket/ Gun/ Tesla Towers", when it is staked.
    state = _state()
    _, started = _start(state)
    forts = _stake(started, "town-1", "fleet_base-2")
    assert len(forts) == 1
    assert forts[0].fleet_id == "sun"
    assert forts[0].fortifications == ("Fortress", "Flak Tower", "Flak Tower")
    assert describe(forts[0]) == (
        "battle b: sun's Fleet Base fleet_base-2 is defended by a Fortress, 2 Flak Towers, 2 "
        "towers of a kind not chosen (DWChooseTowers) (line 111)"
    )
    chose, state = run(
        state,
        c.ChooseTowers(
            actor="sun", fleet_id="sun", territory_id="fleet_base-2", towers=("gun", "Tesla")
        ),
    )
    assert describe(chose[0]) == "sun builds Gun and Tesla towers at territory fleet_base-2"
    _, started = _start(state)
    forts = _stake(started, "town-1", "fleet_base-2")
    assert describe(forts[0]) == (
        "battle b: sun's Fleet Base fleet_base-2 is defended by a Fortress, 2 Flak Towers, a Gun "
        "Tower, a Tesla Tower (line 111)"
    )
    assert _stake(started, "town-1", "town-2") == []  # a Town has none


def test_a_staked_eyrie_is_defended_by_a_fortress() -> None:
    # L122 "Defended by a Fortress!"
    _, started = _start(_state())
    forts = _stake(started, "town-1", "scientists_eyrie")
    assert describe(forts[0]) == (
        "battle b: sun's Scientist’s Eyrie Research Station scientists_eyrie is defended by a "
        "Fortress (line 122)"
    )


def test_towers_the_territory_does_not_have_are_refused_quoting_the_line() -> None:
    state = _state()
    refused = _refusal(
        state,
        c.ChooseTowers(
            actor="sun", fleet_id="sun", territory_id="scientists_eyrie", towers=("Gun",)
        ),
    )
    assert "Scientist’s Eyrie Research Station has no towers to choose (Fortress)" in refused
    assert L122 in refused
    for towers in (("Gun",), ("Gun", "Laser"), ("Gun", "Gun", "Gun")):
        refused = _refusal(
            state,
            c.ChooseTowers(
                actor="brit", fleet_id="brit", territory_id="fleet_base-1", towers=towers
            ),
        )
        assert "Fleet Base has 2 towers, each one of Rocket, Gun, Tesla" in refused
        assert L111 in refused
    refused = _refusal(
        state,
        c.ChooseTowers(
            actor="brit", fleet_id="brit", territory_id="fleet_base-2", towers=("Gun", "Gun")
        ),
    )
    assert refused == "not_held: brit does not hold 'fleet_base-2'"


def test_ruling_choices_are_made_between_battles_and_lapse_with_the_territory() -> None:
    # DW-37/DW-38: the fleet using the territory chooses between battles; a conqueror chooses
    # again.
    state = _state()
    _, started = _start(state)
    refused = _refusal(
        started,
        c.ChooseTowers(
            actor="sun", fleet_id="sun", territory_id="fleet_base-2", towers=("Gun", "Gun")
        ),
    )
    assert refused == "battle_open: a territory's choices are made between battles"
    _, state = run(
        state,
        c.ChooseTowers(
            actor="sun", fleet_id="sun", territory_id="fleet_base-2", towers=("Gun", "Gun")
        ),
        c.ChooseWingMar(
            actor="sun", fleet_id="sun", territory_id="airbase-2", mar="Large Fuel Tanks"
        ),
    )
    territories = {**state.territories}
    for tid in ("fleet_base-2", "airbase-2"):
        territories[tid] = replace(territories[tid], holder="brit")
    taken = replace(state, territories=territories)
    assert "Large Fuel Tanks" not in squadron_mars(taken, "brit", "wing")
    _, started = _start(taken)
    forts = _stake(started, "fleet_base-2", "town-2")
    assert (forts[0].fleet_id, forts[0].towers_not_chosen) == ("brit", 2)


def test_the_report_lists_wings_and_fortifications_per_fleet() -> None:
    state = _state()
    _, state = run(
        state,
        c.ChooseTowers(
            actor="brit", fleet_id="brit", territory_id="fleet_base-1", towers=("Rocket", "Gun")
        ),
    )
    lines = next(s.lines for s in summarize(state) if s.title == "fleets")
    brit = next(x for x in lines if x.startswith("brit "))
    assert "1 extra wing of Tiny Flyers (airbase-1, wing MAR not chosen)" in brit
    assert "fleet_base-1 defended by Fortress, 2 Flak Towers, Rocket Tower, Gun Tower" in brit
    sun = next(x for x in lines if x.startswith("sun "))
    assert "fleet_base-2 defended by Fortress, 2 Flak Towers, 2 towers not chosen" in sun
    assert "scientists_eyrie defended by Fortress" in sun
