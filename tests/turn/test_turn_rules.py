"""The turn's rules one at a time: ambush, arrival, map sheets, artillery, recruiting,
surveillance and identify, fuel, move grouping, weather steps, victory and the end."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from turn_world import REFEREE, placed, run, started

from mekref.hexmap import Hex, PlannedMove, neighbours, resolve_moves
from mekref.rules.dice import Dice
from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.model import UnitRole
from mekref.rules.tripwire.turn import artillery, engagement, fuel, recruit, surveillance, unrest
from mekref.rules.tripwire.turn import weather as wx
from mekref.rules.tripwire.turn.events import UnguidedArtilleryFired
from mekref.rules.tripwire.turn.movement import resolve_day
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.plugin import RecordLeaderCaptured
from mekref.rules.tripwire.turn.setup import FormationSpec
from mekref.rules.tripwire.turn.state import RegionWeather, UnitMobility


def test_arrival_turn_by_walking_speed() -> None:
    # "| 11-12 | 1 |" ... "| 1-2 | 2 |"; faster than 12 arrives on turn 1, immobile never.
    assert [engagement.arrival_turn(w) for w in range(0, 14)] == [
        None, 2, 2, 3, 3, 4, 4, 3, 3, 2, 2, 1, 1, 1,
    ]  # fmt: skip


def test_ambush_needs_more_than_four_over_the_opponent() -> None:
    # "Forces at “Rest” receive a -4 ... Forces at “Guard” receive a +4" (line 281).
    assert engagement.ambush_modifier(["rest"]) == -4
    assert engagement.ambush_modifier(["guard", "move"]) == 4
    dice = Dice("ambush-test")
    ambusher, totals, rolls, _ = engagement.roll_ambush(
        "e1", ("a", "b"), {"a": 0, "b": 0}, {"a": ["guard"], "b": ["rest"]}, dice
    )
    raw = {r.name.split(", ")[1]: r.total for r in rolls}
    assert dict(totals) == {"a": raw["a"] + 4, "b": raw["b"] - 4}
    expected = "a" if raw["a"] + 4 > raw["b"] - 4 + 4 else None
    expected = "b" if raw["b"] - 4 > raw["a"] + 4 + 4 else expected
    assert ambusher == expected


def test_military_base_comes_in_pairs() -> None:
    # Heavy urban: 3 -> Military Base #1, 11 -> #2. Over many seeds, a base is always whole.
    for seed in range(60):
        sheets, _, _ = engagement.roll_sheets("e", "heavy_urban", 2, Dice(f"s{seed}"))
        assert len(sheets) == 2
        bases = [s for s in sheets if s in engagement.MILITARY_BASE]
        assert len(bases) in (0, 2)
        if bases:
            assert set(bases) == set(engagement.MILITARY_BASE)
        one, _, _ = engagement.roll_sheets("e", "heavy_urban", 1, Dice(f"s{seed}"))
        assert one[0] not in engagement.MILITARY_BASE  # the last map re-rolls a base


def test_unguided_artillery_attacks_and_target_number() -> None:
    # Run 5 against 2 map sheets (34 hexes): 7 turns; heavy woods -2 -> run 3: 12 turns;
    # evading halves the run (3 -> 1): 34 attacks, hitting on 12 instead of 11 (line 325).
    assert artillery.attacks_per_piece(5, 2, (), evasive=False) == 7
    assert artillery.attacks_per_piece(5, 2, ("heavy_woods",), evasive=False) == 12
    assert artillery.attacks_per_piece(5, 2, ("heavy_woods",), evasive=True) == 34
    assert artillery.target_number(evasive=False) == 11
    assert artillery.target_number(evasive=True) == 12
    assert artillery.scatter(12, narrow=False) == ("target", 0)
    assert artillery.scatter(10, narrow=True) == ("target", 0)  # +2 in narrow confines
    assert artillery.scatter(6, narrow=False) == ("miss", 0)


def test_unguided_artillery_is_resolved_by_the_engine() -> None:
    state = placed(
        started(),
        (FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF",), hex="0707"),),
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",)),),
    )
    state, _ = run(
        state,
        SubmitOrders(
            actor="rebel",
            side_id="rebel",
            day=1,
            orders=(FormationOrder(formation_id="b", action="orbital_insertion", target="0707"),),
        ),
        ResolveTurn(actor=REFEREE, day=1),
    )
    assert state.strategic is not None
    (eng,) = state.strategic.engagements
    cmd = artillery.FireUnguidedArtillery(
        actor=REFEREE,
        engagement_id=eng.engagement_id,
        firing_side="loyalist",
        pieces=("L-GRF",),
        run_mp=6,
        sheets=1,
    )
    # L325: "Roll this number of artillery attacks per artillery piece": a Griffin is none
    # (ruling T-A2).
    with pytest.raises(Refusal, match=r"L-GRF \(Griffin GRF-1N\) is not an artillery piece"):
        run(state, cmd)
    griffin = state.units["L-GRF"]
    piece = replace(griffin, roles=griffin.roles | {UnitRole.ARTILLERY})
    state = replace(state, units={**state.units, "L-GRF": piece})
    _, fired = run(state, cmd)
    (shot,) = fired
    assert isinstance(shot, UnguidedArtilleryFired)
    assert shot.attacks_per_piece == 3 and shot.target_number == 11
    hits = [r for r in shot.rolls if r.name.startswith("unguided")]
    assert len(hits) == 3
    assert sum(1 for r in hits if r.total >= 11) == sum(
        1 for _, res, _ in shot.results if res != "no_hit"
    )


def test_recruiting_follows_unrest() -> None:
    assert unrest.recruit_modifier(2) == 4
    assert unrest.recruit_modifier(7) == 0
    assert unrest.recruit_modifier(10) is None  # "Hated – Recruitment not possible."
    assert recruit.roll_recruits(Dice("r"), "f", 11) is None
    result = recruit.roll_recruits(Dice("r"), "f", 7)
    assert result is not None
    available, special, rolls, _ = result
    assert [c for c, _ in available] == list(recruit.COLUMNS)
    assert rolls[0].name == "recruit availability, f"
    per_column = dict(available)
    assert sum(1 for c, _ in special if c == "admin") == per_column["admin"]


def test_surveillance_and_identify_margins() -> None:
    # "| -4 or lower | No information |" ... "| +4 | Specific markings ..."
    assert surveillance.surveillance_info(-5) == "nothing"
    assert surveillance.surveillance_info(-3) == "presence"
    assert surveillance.surveillance_info(1) == "model"
    assert surveillance.surveillance_info(4) == "markings_and_damage"
    assert surveillance.identify_info(-4) == "unit_type"
    assert surveillance.identify_info(-5) == "nothing"
    # Recon camera -2, altitude 1 +4, clouds +3; the hyperspectral imager drops the weather.
    assert surveillance.surveillance_modifier(["altitude_1", "recon_camera"], 3) == 5
    assert surveillance.surveillance_modifier(["recon_camera", "hyperspectral_imager"], 3) == -2
    assert surveillance.identify_modifier(15, active_probe=True, sensors_only=False) == 0
    assert surveillance.identify_modifier(30, active_probe=False, sensors_only=True) == 4


def test_fuel_for_missions() -> None:
    rapier = UnitMobility(unit_id="r", walk_mp=6, mode="aerospace", fuel=400, safe_thrust=6)
    assert fuel.trip_fuel(rapier, 150) == 150  # 1 fuel point per km at low altitude
    assert fuel.trip_fuel(rapier, 6000, high_altitude=True) == 60  # 60/hour at 6000 km/h
    conventional = UnitMobility(
        unit_id="c", walk_mp=6, mode="aerospace", fuel=400, conventional=True
    )
    assert fuel.trip_fuel(conventional, 150) == 75
    assert fuel.cap_fuel(rapier, 1) == 180
    assert fuel.arrival_fuel(rapier, 150) == 250
    assert fuel.arrival_fuel(rapier, 250) is None  # 150 left, but 250 needed to get home


def test_weather_moves_within_the_table() -> None:
    now = {"r": RegionWeather(region="r", level=0)}
    for seed in range(30):
        regions, rolls, _ = wx.roll_change(now, Dice(f"w{seed}"))
        shift = {2: -2, 3: -1, 4: -1, 10: 1, 11: 1, 12: 2}.get(rolls[0].total, 0)
        assert regions[0].level == max(0, shift)
    assert [wx.weekly_change_due(d) for d in (1, 2, 7, 8, 15)] == [False, False, False, True, True]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 7),
            st.integers(0, 7),
            st.sampled_from("ab"),
            st.lists(st.integers(0, 5), max_size=5),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_grouped_moves_equal_the_single_resolution(
    raw: list[tuple[int, int, str, list[int]]],
) -> None:
    moves = []
    for i, (q, r, side, dirs) in enumerate(raw):
        path = [Hex(q, r)]
        for d in dirs:
            path.append(neighbours(path[-1])[d])
        moves.append(PlannedMove(f"f{i:02}", side, tuple(path)))
    assert resolve_day(moves) == resolve_moves(moves)


def test_leader_capture_ends_the_campaign() -> None:
    state = placed(
        started(),
        (FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF",), hex="0707"),),
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",)),),
    )
    # No battle destroyed the escort here: the referee's override (ruling T-L1).
    note = RefereeNote(referee="Ann", reason="ruled at the table")
    state, _ = run(state, RecordLeaderCaptured(actor=REFEREE, force="rebel", note=note,
                                               override=True))  # fmt: skip
    assert state.strategic is not None and "rebel" in state.strategic.ended
    try:
        run(state, ResolveTurn(actor=REFEREE, day=1))
    except Refusal as exc:
        assert exc.code == "campaign_over"
    else:
        raise AssertionError("a finished campaign resolves no more days")
