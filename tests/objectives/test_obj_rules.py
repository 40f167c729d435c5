"""Claiming, searching, scanning, carrying, passing, dropping and losing objectives."""

from __future__ import annotations

from fractions import Fraction

import pytest
from obj_helpers import INF, SQUADS, run, set_up

from mekref.rules.messages import Command
from mekref.rules.objectives import commands as c
from mekref.rules.objectives import events as e
from mekref.rules.objectives.game import OBJECTIVES, held_by
from mekref.rules.objectives.model import DropReason, ObjectiveStatus, Position
from mekref.rules.refusal import Refusal


def test_hidden_by_default_in_a_garrison_open_outside() -> None:
    # L15 "all Objectives not in Garrisons are Open"; L19 "all Objectives in Garrisons are Hidden"
    state = set_up()
    assert not state.objectives["hill"].hidden
    assert state.objectives["vault"].hidden
    assert state.objectives["cache"].hidden  # the scenario said so


def test_an_infantry_unit_claims_an_open_objective() -> None:
    events, state = run(set_up(), c.Claim(actor="red", objective_id="hill", squad_id="red-inf"))
    assert events == [
        e.Claimed(
            objective_id="hill",
            squad_id="red-inf",
            side="red",
            carried=False,
            previous_side=None,
            how="claim",
        )
    ]
    assert state.objectives["hill"].claimed_by == "red"
    assert held_by(state) == {"red": ("hill",), "blue": ()}


def test_only_infantry_or_vehicle_claims() -> None:
    with pytest.raises(Refusal) as info:
        run(set_up(), c.Claim(actor="blue", objective_id="hill", squad_id="blue-air"))
    assert info.value.code == "not_infantry_or_vehicle"


def test_ruling_first_claim_ignores_enemies_reclaim_needs_none() -> None:
    # Ruling OBJ-1 (L13): "reclaimed ... if ... there are no enemy units that also meet that
    # criteria" limits reclaiming; the first claim is not blocked.
    _, state = run(
        set_up(),
        c.Claim(actor="red", objective_id="hill", squad_id="red-inf", enemies_qualify=True),
    )
    assert state.objectives["hill"].claimed_by == "red"
    with pytest.raises(Refusal) as info:
        run(
            state,
            c.Claim(actor="b", objective_id="hill", squad_id="blue-inf", enemies_qualify=True),
        )
    assert info.value.code == "contested"
    events, state = run(state, c.Claim(actor="b", objective_id="hill", squad_id="blue-tank"))
    assert isinstance(events[0], e.Claimed) and events[0].previous_side == "red"
    assert state.objectives["hill"].claimed_by == "blue"


def test_a_side_cannot_claim_what_it_holds() -> None:
    _, state = run(set_up(), c.Claim(actor="r", objective_id="hill", squad_id="red-inf"))
    with pytest.raises(Refusal) as info:
        run(state, c.Claim(actor="r", objective_id="hill", squad_id="red-tank"))
    assert info.value.code == "already_claimed"


def test_a_hidden_objective_is_searched_for_not_claimed() -> None:
    with pytest.raises(Refusal) as info:
        run(set_up(), c.Claim(actor="r", objective_id="cache", squad_id="red-inf"))
    assert info.value.code == "hidden"


def test_ruling_garrison_walls_work_both_ways() -> None:
    # Ruling OBJ-2 (L7): only units inside a Garrison reach its objectives, and a unit inside a
    # Garrison reaches only that Garrison's objectives.
    state = set_up()
    with pytest.raises(Refusal) as info:
        run(state, c.Search(actor="r", objective_id="vault", squad_id="red-inf"))
    assert info.value.code == "garrison_wall"
    with pytest.raises(Refusal) as info:
        run(state, c.Claim(actor="r", objective_id="hill", squad_id="red-bunker"))
    assert info.value.code == "garrison_wall"


def test_claiming_a_mobile_objective_carries_it_and_hands_are_then_full() -> None:
    _, state = run(set_up(), c.Claim(actor="r", objective_id="crate", squad_id="red-inf"))
    assert state.objectives["crate"].status is ObjectiveStatus.CARRIED
    assert state.objectives["crate"].carrier == "red-inf"
    assert state.squads["red-inf"].carrying == "crate"
    with pytest.raises(Refusal) as info:
        run(state, c.Claim(actor="b", objective_id="crate", squad_id="blue-inf"))
    assert info.value.code == "carried"


def test_search_needs_a_round() -> None:
    with pytest.raises(Refusal) as info:
        run(set_up(), c.Search(actor="r", objective_id="cache", squad_id="red-inf"))
    assert info.value.code == "no_round"


def _round(n: int) -> list[Command]:
    return [c.StartRound(actor="ref", round=i) for i in range(1, n + 1)]


def test_search_in_round_one_with_enemies_near_cannot_succeed() -> None:
    # L23: d6 - 1 + round 1 is at most 6, short of "7 or more".
    events, state = run(
        set_up(),
        *_round(1),
        c.Search(actor="r", objective_id="cache", squad_id="red-inf", enemies_near=True),
    )
    made = events[-1]
    assert isinstance(made, e.SearchMade) and not made.found
    assert made.total == made.die - 1 + 1 and made.enemy_modifier == -1
    assert made.rolls[0].name == "objective search, cache, squad red-inf"
    assert state.objectives["cache"].hidden


def test_search_in_round_six_always_finds_and_the_objective_stays_open() -> None:
    events, state = run(
        set_up(), *_round(6), c.Search(actor="r", objective_id="cache", squad_id="red-tank")
    )
    made, claimed = events[-2], events[-1]
    assert isinstance(made, e.SearchMade) and made.found and made.total == made.die + 6
    assert isinstance(claimed, e.Claimed) and claimed.how == "search" and claimed.carried
    assert not state.objectives["cache"].hidden
    assert state.squads["red-tank"].carrying == "cache"
    with pytest.raises(Refusal) as info:
        run(state, c.Search(actor="r", objective_id="cache", squad_id="red-inf"))
    assert info.value.code in ("not_hidden", "objective_gone")


def test_scan_tokens_add_one_each_and_are_spent() -> None:
    events, state = run(set_up(), c.Scan(actor="r", squad_id="red-apc"))
    assert events == [e.ScanTokenPlaced(squad_id="red-apc")]
    with pytest.raises(Refusal) as info:
        run(state, c.Scan(actor="r", squad_id="red-apc"))
    assert info.value.code == "has_scan_token"
    events, state = run(
        state,
        *_round(1),
        c.Search(actor="r", objective_id="cache", squad_id="red-inf", scan_tokens=("red-apc",)),
    )
    made = events[-1] if isinstance(events[-1], e.SearchMade) else events[-2]
    assert isinstance(made, e.SearchMade)
    assert made.scan_bonus == 1 and made.total == made.die + 1 + 1
    assert not state.squads["red-apc"].scan_token


def test_only_a_transport_without_the_aircraft_type_scans() -> None:
    for squad in ("red-wing", "red-inf"):
        with pytest.raises(Refusal) as info:
            run(set_up(), c.Scan(actor="r", squad_id=squad))
        assert info.value.code == "cannot_scan"


def test_moving_removes_the_scan_token_and_enemy_tokens_cannot_be_spent() -> None:
    _, state = run(set_up(), c.Scan(actor="r", squad_id="red-apc"), *_round(1))
    with pytest.raises(Refusal) as info:
        run(
            state,
            c.Search(
                actor="b", objective_id="cache", squad_id="blue-inf", scan_tokens=("red-apc",)
            ),
        )
    assert info.value.code == "bad_tokens"
    events, state = run(state, c.MoveSquad(actor="r", squad_id="red-apc"))
    assert events == [
        e.SquadMoved(squad_id="red-apc", garrison=None, in_aircraft=False, scan_token_removed=True)
    ]
    assert not state.squads["red-apc"].scan_token


def test_passing_to_a_friendly_squad_on_the_same_side_of_a_wall() -> None:
    _, state = run(set_up(), c.Claim(actor="r", objective_id="crate", squad_id="red-inf"))
    for to, code in (("blue-inf", "bad_pass"), ("red-bunker", "garrison_wall")):
        with pytest.raises(Refusal) as info:
            run(state, c.Pass(actor="r", from_squad="red-inf", to_squad=to))
        assert info.value.code == code
    events, state = run(state, c.Pass(actor="r", from_squad="red-inf", to_squad="red-tank"))
    assert events == [e.Passed(objective_id="crate", from_squad="red-inf", to_squad="red-tank")]
    assert state.squads["red-tank"].carrying == "crate"
    assert state.squads["red-inf"].carrying is None
    assert state.objectives["crate"].carrier == "red-tank"


def test_ruling_a_chosen_drop_is_unclaimed_a_forced_drop_goes_to_the_enemy() -> None:
    # Ruling OBJ-3 (L37).
    _, carrying = run(set_up(), c.Claim(actor="r", objective_id="crate", squad_id="red-inf"))
    _, state = run(carrying, c.Drop(actor="r", squad_id="red-inf"))
    assert state.objectives["crate"].claimed_by is None
    assert state.objectives["crate"].status is ObjectiveStatus.ON_TABLE
    with pytest.raises(Refusal):
        run(carrying, c.Drop(actor="r", squad_id="red-inf", enemy_squads_within_1=("blue-inf",)))
    events, state = run(
        carrying,
        c.Drop(
            actor="ref",
            squad_id="red-inf",
            reason=DropReason.OUT_OF_COHERENCY,
            enemy_squads_within_1=("blue-air", "blue-inf"),
        ),
    )
    assert isinstance(events[-1], e.Claimed) and events[-1].squad_id == "blue-inf"
    assert events[-1].how == "drop"
    assert state.objectives["crate"].claimed_by == "blue"
    assert state.squads["blue-inf"].carrying == "crate"


def test_a_forced_drop_in_a_garrison_goes_to_the_enemy_there() -> None:
    objectives = (
        c.ObjectiveSpec(objective_id="plans", garrison="bunker", hidden=False, mobile=True),
    )
    _, state = run(
        set_up(objectives=objectives),
        c.Claim(actor="r", objective_id="plans", squad_id="red-bunker"),
        c.Drop(actor="ref", squad_id="red-bunker", reason=DropReason.FAILED_FORTITUDE),
    )
    assert state.squads["blue-bunker"].carrying == "plans"
    assert state.objectives["plans"].garrison == "bunker"


def test_two_opponents_within_one_inch_leave_it_unclaimed() -> None:
    cmd = c.SetUpScenario(
        actor="ref",
        seed="s",
        sides=("red", "blue", "green"),
        objectives=(c.ObjectiveSpec(objective_id="crate", mobile=True),),
        squads=(
            *SQUADS[:1],
            SQUADS[4],
            c.SquadSpec(squad_id="green-inf", side="green", types=INF),
        ),
    )
    _, state = OBJECTIVES.execute(OBJECTIVES.initial_state(), cmd)
    events, state = run(
        state,
        c.Claim(actor="r", objective_id="crate", squad_id="red-inf"),
        c.Drop(
            actor="ref",
            squad_id="red-inf",
            reason=DropReason.FAILED_FORTITUDE,
            enemy_squads_within_1=("blue-inf", "green-inf"),
        ),
    )
    assert isinstance(events[-1], e.Dropped)
    assert state.objectives["crate"].claimed_by is None


def test_a_destroyed_carrier_drops_it_for_the_enemy_nearby() -> None:
    _, state = run(set_up(), c.Claim(actor="r", objective_id="crate", squad_id="red-inf"))
    events, state = run(
        state,
        c.DestroySquad(actor="ref", squad_id="red-inf", enemy_squads_within_1=("blue-tank",)),
    )
    assert [type(ev) for ev in events] == [e.Dropped, e.Claimed, e.SquadDestroyed]
    assert state.squads["red-inf"].destroyed
    assert state.squads["blue-tank"].carrying == "crate"


def test_a_close_quarters_kill_takes_the_objective() -> None:
    _, state = run(set_up(), c.Claim(actor="r", objective_id="crate", squad_id="red-inf"))
    events, state = run(
        state, c.DestroySquad(actor="ref", squad_id="red-inf", close_quarters_by="blue-inf")
    )
    claimed = events[1]
    assert isinstance(claimed, e.Claimed) and claimed.how == "close_quarters"
    assert state.squads["blue-inf"].carrying == "crate"


def test_ruling_a_close_quarters_killer_with_full_hands_leaves_a_forced_drop() -> None:
    # Ruling OBJ-5: the killer already carries one (L33), so the drop is an ordinary one.
    _, state = run(
        set_up(),
        c.Claim(actor="r", objective_id="crate", squad_id="red-inf"),
        *_round(6),
        c.Search(actor="b", objective_id="cache", squad_id="blue-inf"),
    )
    assert state.squads["blue-inf"].carrying == "cache"
    events, state = run(
        state, c.DestroySquad(actor="ref", squad_id="red-inf", close_quarters_by="blue-inf")
    )
    assert [type(ev) for ev in events] == [e.Dropped, e.SquadDestroyed]
    assert state.objectives["crate"].claimed_by is None


def test_a_carrier_destroyed_in_an_aircraft_destroys_the_objective() -> None:
    _, state = run(
        set_up(),
        c.Claim(actor="r", objective_id="crate", squad_id="red-inf"),
        c.MoveSquad(actor="r", squad_id="red-inf", in_aircraft=True),
        c.DestroySquad(actor="ref", squad_id="red-inf"),
    )
    assert state.objectives["crate"].status is ObjectiveStatus.DESTROYED
    with pytest.raises(Refusal) as info:
        run(state, c.Claim(actor="b", objective_id="crate", squad_id="blue-inf"))
    assert info.value.code == "objective_gone"


def test_a_destroyed_garrison_removes_what_lies_in_it_not_what_is_carried() -> None:
    objectives = (
        c.ObjectiveSpec(objective_id="vault", garrison="bunker"),
        c.ObjectiveSpec(objective_id="plans", garrison="bunker", hidden=False, mobile=True),
    )
    events, state = run(
        set_up(objectives=objectives),
        c.Claim(actor="r", objective_id="plans", squad_id="red-bunker"),
        c.DestroyGarrison(actor="ref", garrison="bunker"),
    )
    assert e.ObjectiveRemoved(objective_id="vault", garrison="bunker") in events
    assert state.objectives["vault"].status is ObjectiveStatus.REMOVED
    assert state.objectives["plans"].status is ObjectiveStatus.CARRIED


def test_extraction_keeps_the_objective_for_the_side() -> None:
    _, state = run(
        set_up(),
        c.Claim(actor="r", objective_id="crate", squad_id="red-inf"),
        c.Extract(actor="ref", objective_id="crate"),
    )
    assert state.objectives["crate"].status is ObjectiveStatus.EXTRACTED
    assert held_by(state)["red"] == ("crate",)
    assert state.squads["red-inf"].carrying is None


def test_placement_six_inches_from_edges_and_each_other() -> None:
    def spec(oid: str, x: int, y: int) -> c.ObjectiveSpec:
        return c.ObjectiveSpec(objective_id=oid, position=Position(x=Fraction(x), y=Fraction(y)))

    def setup(*objs: c.ObjectiveSpec) -> None:
        cmd = c.SetUpScenario(
            actor="ref",
            seed="s",
            sides=("a", "b"),
            objectives=objs,
            table_width=Fraction(48),
            table_depth=Fraction(48),
        )
        OBJECTIVES.execute(OBJECTIVES.initial_state(), cmd)

    setup(spec("a", 6, 6), spec("b", 12, 6), spec("c", 42, 42))
    for bad in ((spec("a", 5, 20),), (spec("a", 43, 20),), (spec("a", 10, 10), spec("b", 14, 14))):
        with pytest.raises(Refusal) as info:
            setup(*bad)
        assert info.value.code == "placement"


def test_ruling_a_searcher_with_full_hands_cannot_search_for_a_mobile_objective() -> None:
    # Ruling OBJ-4 (L23, L33).
    _, state = run(
        set_up(), c.Claim(actor="r", objective_id="crate", squad_id="red-inf"), *_round(6)
    )
    with pytest.raises(Refusal) as info:
        run(state, c.Search(actor="r", objective_id="cache", squad_id="red-inf"))
    assert info.value.code == "hands_full"


def test_ruling_a_search_takes_both_actions_of_the_round() -> None:
    # L21 "may make a special search action, counting as both of their actions for the round."
    # With enemies near, round 1 cannot find it (d6 - 1 + 1 < 7), so the objective stays hidden.
    search = c.Search(actor="r", objective_id="cache", squad_id="red-inf", enemies_near=True)
    _, state = run(set_up(), *_round(1))
    _, searched = run(state, search)
    with pytest.raises(Refusal) as twice:
        run(searched, search)
    assert twice.value.code == "no_actions_left" and "round 1" in str(twice.value)
    _, moved = run(state, c.MoveSquad(actor="r", squad_id="red-tank"))
    with pytest.raises(Refusal) as after_a_move:
        run(moved, c.Search(actor="r", objective_id="cache", squad_id="red-tank"))
    assert after_a_move.value.code == "no_actions_left"
    # A second Moving action fits (one plus one), and the next round gives two actions again.
    _, moved_twice = run(moved, c.MoveSquad(actor="r", squad_id="red-tank"))
    events, _ = run(
        moved_twice,
        c.StartRound(actor="ref", round=2),
        c.Search(actor="r", objective_id="cache", squad_id="red-tank"),
    )
    assert isinstance(events[1], e.SearchMade)


def test_ruling_a_scan_takes_both_actions_of_the_round() -> None:
    # L25 "may choose to make a scan action, counting as both of its actions for the round."
    _, scanned = run(set_up(), *_round(1), c.Scan(actor="r", squad_id="red-apc"))
    with pytest.raises(Refusal) as info:
        run(scanned, c.MoveSquad(actor="r", squad_id="red-apc"))
    assert info.value.code == "no_actions_left"


def test_ruling_an_embarked_squad_neither_claims_nor_searches() -> None:
    # L13 "within 2\" of the Objective or in the same Garrison as it, they claim the Objective";
    # L31 "they may in turn embark into non-Vehicle units such as Aircraft".
    _, state = run(set_up(), c.MoveSquad(actor="r", squad_id="red-inf", in_aircraft=True))
    with pytest.raises(Refusal) as claim:
        run(state, c.Claim(actor="r", objective_id="hill", squad_id="red-inf"))
    assert claim.value.code == "embarked"
    _, state = run(state, *_round(1))
    with pytest.raises(Refusal) as search:
        run(state, c.Search(actor="r", objective_id="cache", squad_id="red-inf"))
    assert search.value.code == "embarked"
