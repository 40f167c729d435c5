"""A scripted scenario end to end, determinism, and the JSON round trip of every message."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from obj_helpers import OBJECTIVES, SQUADS

from mekref.rules.codec import canonical_json, decode
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, message_to_json
from mekref.rules.objectives import commands as c
from mekref.rules.objectives import events as e
from mekref.rules.objectives.game import OBJECTIVES as OBJECTIVES_RULES
from mekref.rules.objectives.game import held_by
from mekref.rules.objectives.model import (
    DropReason,
    Objective,
    ObjectivesState,
    ObjectiveStatus,
    Position,
    Squad,
)

# This rule set's message codec (names kept from the shared registry).
COMMANDS = OBJECTIVES_RULES.commands
EVENTS = OBJECTIVES_RULES.events
command_from_json = OBJECTIVES_RULES.commands.from_json
event_from_json = OBJECTIVES_RULES.events.from_json
command_to_json = message_to_json
event_to_json = message_to_json

SCRIPT: list[Command] = [
    c.SetUpScenario(
        actor="ref", seed="night-raid", sides=("red", "blue"), objectives=OBJECTIVES, squads=SQUADS
    ),
    c.StartRound(actor="ref", round=1),
    c.Claim(actor="red", objective_id="hill", squad_id="red-tank"),
    c.Claim(actor="blue", objective_id="crate", squad_id="blue-inf"),
    c.Scan(actor="red", squad_id="red-apc"),
    c.Search(actor="red", objective_id="vault", squad_id="red-bunker", enemies_near=True),
    c.StartRound(actor="ref", round=2),
    c.Claim(actor="blue", objective_id="hill", squad_id="blue-tank"),
    c.Search(actor="red", objective_id="cache", squad_id="red-inf", scan_tokens=("red-apc",)),
    c.StartRound(actor="ref", round=3),
    c.Pass(actor="blue", from_squad="blue-inf", to_squad="blue-tank"),
    c.DestroySquad(actor="ref", squad_id="blue-tank", close_quarters_by="red-tank"),
    c.StartRound(actor="ref", round=4),
    c.Search(actor="red", objective_id="vault", squad_id="red-bunker", enemies_near=True),
    c.StartRound(actor="ref", round=5),
    c.Search(actor="blue", objective_id="cache", squad_id="blue-inf"),
    c.Drop(actor="red", squad_id="red-tank"),
    c.Claim(actor="red", objective_id="crate", squad_id="red-tank"),
    c.StartRound(actor="ref", round=6),
    c.Extract(actor="ref", objective_id="crate"),
]


def play(script: list[Command]) -> tuple[list[Event], ObjectivesState]:
    state = OBJECTIVES_RULES.initial_state()
    log: list[Event] = []
    for command in script:
        events, state = OBJECTIVES_RULES.execute(state, command)
        log.extend(events)
    return log, state


def test_scripted_scenario_end_to_end() -> None:
    log, state = play(SCRIPT)
    assert state.round == 6
    assert state.objectives["hill"].claimed_by == "blue"  # reclaimed in round 2
    assert state.objectives["crate"].status is ObjectiveStatus.EXTRACTED
    assert state.squads["blue-tank"].destroyed
    assert state.objectives["vault"].claimed_by == "red"  # found in round 4 despite the enemy
    assert state.squads["blue-inf"].carrying == "cache"  # found in round 5
    searches = [ev for ev in log if isinstance(ev, e.SearchMade)]
    assert len(searches) == 4
    for made in searches:
        assert made.total == made.die + made.enemy_modifier + made.scan_bonus + made.round
        assert made.found == (made.total >= 7)
    # Red's scan token paid for the cache search in round 2.
    assert searches[1].scan_bonus == 1 and searches[1].tokens_spent == ("red-apc",)
    holders = held_by(state)
    assert "crate" in holders["red"] and "hill" in holders["blue"]
    assert OBJECTIVES_RULES.fold(log) == state


def test_same_seed_same_events_and_hash() -> None:
    def once() -> tuple[str, str]:
        state = OBJECTIVES_RULES.initial_state()
        texts = []
        for command in SCRIPT:
            events, state = OBJECTIVES_RULES.execute(state, command)
            texts += [canonical_json(event_to_json(ev)) for ev in events]
        return "\n".join(texts), OBJECTIVES_RULES.state_hash(state)

    assert once() == once()


def test_another_seed_changes_the_rolls() -> None:
    first = SCRIPT[0]
    assert isinstance(first, c.SetUpScenario)
    state = OBJECTIVES_RULES.initial_state()
    _, a = OBJECTIVES_RULES.execute(state, first)
    _, b = OBJECTIVES_RULES.execute(
        state,
        c.SetUpScenario(
            actor="ref",
            seed="other",
            sides=first.sides,
            objectives=first.objectives,
            squads=first.squads,
        ),
    )
    roll_a = OBJECTIVES_RULES.decide(
        a, c.StartRound(actor="ref", round=1), Dice(a.seed, a.rolls_used)
    )
    roll_b = OBJECTIVES_RULES.decide(
        b, c.StartRound(actor="ref", round=1), Dice(b.seed, b.rolls_used)
    )
    assert roll_a == roll_b  # no dice in starting a round
    assert OBJECTIVES_RULES.state_hash(a) != OBJECTIVES_RULES.state_hash(b)


def test_a_stale_dice_cursor_is_refused() -> None:
    _, state = OBJECTIVES_RULES.execute(OBJECTIVES_RULES.initial_state(), SCRIPT[0])
    with pytest.raises(ValueError):
        OBJECTIVES_RULES.decide(state, c.StartRound(actor="ref", round=1), Dice("night-raid", 5))


AT = Position(x=Fraction(25, 2), y=Fraction(30))
OBJ = Objective(objective_id="o", hidden=False, mobile=True, garrison=None)
SQUAD = next(iter(OBJECTIVES_RULES.fold(play(SCRIPT[:1])[0]).squads.values()))
EVENT_SAMPLES: list[Event] = [
    e.ScenarioSetUp(seed="s", sides=("a", "b"), objectives=(OBJ,), squads=(SQUAD,), actor="ref"),
    e.ScenarioSetUp(
        seed="s",
        sides=("a", "b"),
        objectives=(
            Objective(
                objective_id="u",
                hidden=False,
                mobile=False,
                garrison=None,
                status=ObjectiveStatus.UNPLACED,
                hidden_stated=True,
            ),
        ),
        squads=(),
        actor="ref",
        table_width=Fraction(48),
        table_depth=Fraction(97, 2),
        placing_order=("b", "a"),
        far_edge_unchecked=("o",),
    ),
    e.ObjectivePlaced(objective_id="u", side="b", position=AT, garrison="g", hidden=True),
    e.SquadAdded(squad=SQUAD),
    e.RoundStarted(round=1),
    e.Claimed(
        objective_id="o", squad_id="q", side="a", carried=True, previous_side=None, how="claim"
    ),
    e.ScanTokenPlaced(squad_id="q"),
    e.SquadMoved(squad_id="q", garrison="g", in_aircraft=False, scan_token_removed=True),
    e.SearchMade(
        objective_id="o",
        squad_id="q",
        round=2,
        die=4,
        enemy_modifier=-1,
        scan_bonus=1,
        total=6,
        found=False,
        tokens_spent=("t",),
        rolls=(Dice("s").roll("objective search, o, squad q")[0],),
    ),
    e.Passed(objective_id="o", from_squad="q", to_squad="r"),
    e.Dropped(objective_id="o", squad_id="q", reason=DropReason.FAILED_FORTITUDE, garrison=None),
    e.ObjectiveDestroyed(objective_id="o", squad_id="q"),
    e.ObjectiveRemoved(objective_id="o", garrison="g"),
    e.SquadDestroyed(squad_id="q"),
    e.GarrisonDestroyed(garrison="g"),
    e.GarrisonDestroyed(garrison="g", squads_out=("q", "r")),
    e.Extracted(objective_id="o", squad_id="q", side="a"),
]
COMMAND_SAMPLES: list[Command] = [
    *SCRIPT,
    c.AddSquad(actor="ref", squad=SQUADS[0]),
    c.MoveSquad(actor="r", squad_id="q", garrison="g", in_aircraft=True),
    c.Drop(
        actor="r", squad_id="q", reason=DropReason.OUT_OF_COHERENCY, enemy_squads_within_1=("x",)
    ),
    c.DestroyGarrison(actor="ref", garrison="g"),
    c.SetUpScenario(
        actor="ref",
        seed="s",
        sides=("a", "b"),
        objectives=OBJECTIVES,
        table_width=Fraction(48),
        table_depth=Fraction(48),
        players_place=True,
        first_placer="b",
    ),
    c.PlaceObjective(actor="b", side="b", objective_id="u", position=AT, garrison="g"),
]


def test_every_objective_message_type_has_a_sample() -> None:
    assert {type(ev).TYPE for ev in EVENT_SAMPLES} == {
        n for n in EVENTS.names() if n.startswith("OBJ")
    }
    assert {type(cm).TYPE for cm in COMMAND_SAMPLES} == {
        n for n in COMMANDS.names() if n.startswith("OBJ")
    }


@pytest.mark.parametrize("event", EVENT_SAMPLES, ids=lambda ev: type(ev).TYPE)
def test_event_round_trip(event: Event) -> None:
    text = canonical_json(event_to_json(event))
    back = event_from_json(json.loads(text))
    assert back == event and canonical_json(event_to_json(back)) == text


@pytest.mark.parametrize("command", COMMAND_SAMPLES, ids=lambda cm: type(cm).TYPE)
def test_command_round_trip(command: Command) -> None:
    text = canonical_json(command_to_json(command))
    assert command_from_json(json.loads(text)) == command


def test_state_round_trips_through_canonical_json() -> None:
    _, state = play(SCRIPT)
    assert decode(ObjectivesState, json.loads(canonical_json(state))) == state
    assert isinstance(SQUAD, Squad)
