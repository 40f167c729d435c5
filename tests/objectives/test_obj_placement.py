"""Alternating placement, the 6" rule without a table size, and destroyed Garrisons (line 7).

L7 "Objectives are set up on the board after scenery is setup but before deployment. Unless
otherwise stated, players take turns to place Objectives. ... When placing Objectives they may
be placed anywhere on the battlefield at least 6" away from any board edge or from each other.
They may be placed inside Garrisons - simply put the token on top of the Garrison. If an
Objective that isn't being carried is in a Garrison that is destroyed, the Objective is removed
from the game."
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from obj_helpers import INF, SQUADS, run

from mekref.rules.objectives import commands as c
from mekref.rules.objectives import events as e
from mekref.rules.objectives.describe import describe
from mekref.rules.objectives.game import OBJECTIVES
from mekref.rules.objectives.model import ObjectivesState, ObjectiveStatus, Position
from mekref.rules.objectives.summary import summarize
from mekref.rules.refusal import Refusal

TURNS = "Unless otherwise stated, players take turns to place Objectives."
SIX = 'at least 6" away from any board edge or from each other'
GONE = "If an Objective that isn't being carried is in a Garrison that is destroyed"


def at(x: float, y: float) -> Position:
    return Position(x=Fraction(x), y=Fraction(y))


def _setup(**kw: object) -> c.SetUpScenario:
    fields: dict[str, object] = {
        "actor": "ref",
        "seed": "s",
        "sides": ("red", "blue"),
        "objectives": (
            c.ObjectiveSpec(objective_id="hill"),
            c.ObjectiveSpec(objective_id="crate", mobile=True),
            c.ObjectiveSpec(objective_id="vault"),
        ),
        "squads": SQUADS,
        "table_width": Fraction(48),
        "table_depth": Fraction(36),
        "players_place": True,
        "first_placer": "blue",
    }
    fields.update(kw)
    return c.SetUpScenario(**fields)  # type: ignore[arg-type]


def placing(**kw: object) -> ObjectivesState:
    _, state = OBJECTIVES.execute(OBJECTIVES.initial_state(), _setup(**kw))
    return state


def place(side: str, oid: str, pos: Position, garrison: str | None = None) -> c.PlaceObjective:
    return c.PlaceObjective(
        actor=side, side=side, objective_id=oid, position=pos, garrison=garrison
    )


def refused(state: ObjectivesState, *commands: c.Command) -> Refusal:
    with pytest.raises(Refusal) as info:
        run(state, *commands)
    return info.value


def test_players_take_turns_placing_starting_with_the_named_side() -> None:
    # L7 "Unless otherwise stated, players take turns to place Objectives."
    state = placing()
    assert state.objectives["hill"].status is ObjectiveStatus.UNPLACED
    wrong = refused(state, place("red", "hill", at(12, 12)))
    assert wrong.code == "not_your_turn" and TURNS in str(wrong)
    events, state = run(state, place("blue", "hill", at(12, 12)))
    assert events == [
        e.ObjectivePlaced(
            objective_id="hill", side="blue", position=at(12, 12), garrison=None, hidden=False
        )
    ]
    twice = refused(state, place("blue", "crate", at(30, 12)))
    assert twice.code == "not_your_turn" and "it is red's turn" in str(twice)
    _, state = run(state, place("red", "crate", at(30, 12)), place("blue", "vault", at(24, 24)))
    assert state.objectives["hill"].position == at(12, 12)
    assert state.next_placer() is None


def test_ruling_the_scenario_names_who_places_first() -> None:
    # Ruling OBJ-10 (L7): the text says the players take turns, not who starts.
    with pytest.raises(Refusal) as info:
        placing(first_placer=None)
    assert info.value.code == "first_placer_needed" and TURNS in str(info.value)
    with pytest.raises(Refusal) as unknown:
        placing(first_placer="green")
    assert unknown.value.code == "unknown_side"
    assert placing(first_placer="red").placing_order == ("red", "blue")
    assert placing(first_placer="blue").placing_order == ("blue", "red")


def test_placement_comes_before_deployment_and_the_first_round() -> None:
    # L7 "Objectives are set up on the board after scenery is setup but before deployment."
    state = placing()
    early = refused(state, c.StartRound(actor="ref", round=1))
    assert early.code == "placement_unfinished" and "but before deployment" in str(early)
    assert "blue places next" in str(early)
    unplaced = refused(state, c.Claim(actor="red", objective_id="hill", squad_id="red-inf"))
    assert unplaced.code == "unplaced"
    _, state = run(
        state,
        place("blue", "hill", at(12, 12)),
        place("red", "crate", at(30, 12)),
        place("blue", "vault", at(24, 24)),
        c.StartRound(actor="ref", round=1),
    )
    assert state.round == 1
    again = refused(state, place("red", "hill", at(40, 30)))
    assert again.code == "already_placed"


def test_placed_six_inches_from_every_edge_and_every_other_token() -> None:
    # L7 "at least 6\" away from any board edge or from each other" (48" by 36" table)
    state = placing()
    for pos in (at(5, 20), at(20, 5), at(43, 20), at(20, 31)):
        bad = refused(state, place("blue", "hill", pos))
        assert bad.code == "placement" and "of an edge" in str(bad) and SIX in str(bad)
    _, placed = run(state, place("blue", "hill", at(6, 6)))  # exactly 6": allowed
    close = refused(placed, place("red", "crate", at(10, 10)))  # 5.66" from hill
    assert close.code == "placement" and "'hill' and 'crate'" in str(close)
    _, state = run(placed, place("red", "crate", at(12, 6)), place("blue", "vault", at(42, 30)))
    assert state.objectives["vault"].position == at(42, 30)


def test_an_objective_placed_on_a_garrison_is_hidden_unless_the_scenario_says() -> None:
    # L7 "They may be placed inside Garrisons"; L19 "all Objectives in Garrisons are Hidden".
    objectives = (
        c.ObjectiveSpec(objective_id="vault"),
        c.ObjectiveSpec(objective_id="plans", hidden=False),
    )
    _, state = run(
        placing(objectives=objectives),
        place("blue", "vault", at(20, 20), "bunker"),
        place("red", "plans", at(30, 20), "bunker"),
    )
    assert state.objectives["vault"].hidden and state.objectives["vault"].garrison == "bunker"
    assert not state.objectives["plans"].hidden


def test_ruling_players_place_needs_the_table_size() -> None:
    # Ruling OBJ-11 (L7 "at least 6\" away from any board edge"): no far edge, no placement.
    with pytest.raises(Refusal) as info:
        placing(table_width=None, table_depth=None)
    assert info.value.code == "table_size_needed" and SIX in str(info.value)
    with pytest.raises(Refusal) as half:
        placing(table_depth=None)
    assert half.value.code == "table_size_needed"
    assert placing().table_width == 48


def test_ruling_without_a_table_size_the_far_edge_check_is_recorded_as_not_made() -> None:
    # Ruling OBJ-11: a set-up without a table size checks the near edges and the distances,
    # and its event names the objectives whose far edges were not checked.
    specs = (
        c.ObjectiveSpec(objective_id="a", position=at(100, 20)),
        c.ObjectiveSpec(objective_id="b"),
    )
    unsized = {"players_place": False, "first_placer": None, "table_depth": None}
    events, state = run(
        OBJECTIVES.initial_state(), _setup(objectives=specs, table_width=None, **unsized)
    )
    set_up = events[0]
    assert isinstance(set_up, e.ScenarioSetUp) and set_up.far_edge_unchecked == ("a",)
    assert '6" far-edge check was not made for a (no table size given)' in describe(set_up)
    near = c.ObjectiveSpec(objective_id="a", position=at(3, 20))
    with pytest.raises(Refusal) as info:
        run(OBJECTIVES.initial_state(), _setup(objectives=(near,), table_width=None, **unsized))
    assert info.value.code == "placement"
    with pytest.raises(Refusal) as half:
        run(OBJECTIVES.initial_state(), _setup(**unsized))  # a width without a depth
    assert half.value.code == "bad_table"
    # With the size given, the far edges are checked and nothing is left unchecked.
    sized = {**unsized, "table_depth": Fraction(36)}
    events, _ = run(
        OBJECTIVES.initial_state(), _setup(objectives=specs, table_width=Fraction(120), **sized)
    )
    assert isinstance(events[0], e.ScenarioSetUp) and events[0].far_edge_unchecked == ()
    with pytest.raises(Refusal) as far:
        run(OBJECTIVES.initial_state(), _setup(objectives=specs, **sized))  # 100" on a 48" table
    assert far.value.code == "placement"
    assert state.objectives["a"].position == at(100, 20)


def test_ruling_a_garrison_without_a_position_is_refused_when_players_place() -> None:
    # Ruling OBJ-12 (L7): every token placed has a position, even on top of a Garrison.
    spec = c.ObjectiveSpec(objective_id="vault", garrison="bunker")
    with pytest.raises(Refusal) as info:
        placing(objectives=(spec,))
    assert info.value.code == "position_needed"
    pre = c.ObjectiveSpec(objective_id="vault", garrison="bunker", position=at(24, 18))
    hill = c.ObjectiveSpec(objective_id="hill")
    state = placing(objectives=(pre, hill))
    assert state.objectives["vault"].status is ObjectiveStatus.ON_TABLE
    close = refused(state, place("blue", "hill", at(26, 20)))  # 2.8" from the pre-placed vault
    assert close.code == "placement"


def test_placement_needs_a_scenario_with_players_placing() -> None:
    _, state = OBJECTIVES.execute(
        OBJECTIVES.initial_state(), _setup(players_place=False, first_placer=None)
    )
    info = refused(state, place("blue", "hill", at(12, 12)))
    assert info.code == "no_placement"
    with pytest.raises(Refusal) as first:
        OBJECTIVES.execute(OBJECTIVES.initial_state(), _setup(players_place=False))
    assert first.value.code == "bad_placement"


def test_a_destroyed_garrison_is_recorded_and_its_squads_stand_outside() -> None:
    # L7 "If an Objective that isn't being carried is in a Garrison that is destroyed, the
    # Objective is removed from the game." Ruling OBJ-13: the Garrison is recorded as
    # destroyed; nobody enters it or places an objective in it again.
    objectives = (
        c.ObjectiveSpec(objective_id="vault", garrison="bunker"),
        c.ObjectiveSpec(objective_id="plans", garrison="bunker", hidden=False, mobile=True),
    )
    cmd = c.SetUpScenario(
        actor="ref", seed="s", sides=("red", "blue"), objectives=objectives, squads=SQUADS
    )
    _, state = OBJECTIVES.execute(OBJECTIVES.initial_state(), cmd)
    events, state = run(
        state,
        c.Claim(actor="r", objective_id="plans", squad_id="red-bunker"),
        c.DestroyGarrison(actor="ref", garrison="bunker"),
    )
    assert events[-1] == e.GarrisonDestroyed(
        garrison="bunker", squads_out=("blue-bunker", "red-bunker")
    )
    assert describe(events[-1]) == (
        "garrison bunker is destroyed; squads blue-bunker, red-bunker stand outside it"
    )
    assert state.destroyed_garrisons == ("bunker",)
    assert state.squads["red-bunker"].garrison is None
    assert state.objectives["plans"].garrison is None  # carried out with its squad
    assert state.objectives["vault"].status is ObjectiveStatus.REMOVED
    assert "destroyed garrisons: bunker" in summarize(state)[0].lines
    twice = refused(state, c.DestroyGarrison(actor="ref", garrison="bunker"))
    assert twice.code == "garrison_destroyed"
    into = refused(state, c.MoveSquad(actor="red", squad_id="red-inf", garrison="bunker"))
    assert into.code == "garrison_destroyed" and GONE in str(into)
    joining = c.SquadSpec(squad_id="late", side="red", types=INF, garrison="bunker")
    assert refused(state, c.AddSquad(actor="red", squad=joining)).code == "garrison_destroyed"
    _, moved = run(state, c.MoveSquad(actor="red", squad_id="red-inf", garrison="tower"))
    assert moved.squads["red-inf"].garrison == "tower"


def test_no_objective_is_placed_in_a_destroyed_garrison() -> None:
    # L7: a destroyed Garrison's objectives leave the game; ruling OBJ-13: none is put there.
    _, state = run(placing(), c.DestroyGarrison(actor="ref", garrison="bunker"))
    info = refused(state, place("blue", "hill", at(12, 12), "bunker"))
    assert info.code == "garrison_destroyed" and GONE in str(info)
    _, state = run(state, place("blue", "hill", at(12, 12), "tower"))
    assert state.objectives["hill"].garrison == "tower"
