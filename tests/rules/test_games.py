"""Every rule set loads behind the same interface, and its state survives a snapshot."""

from __future__ import annotations

import json

import pytest

from mekref.rules.codec import canonical_json, decode, to_jsonable
from mekref.rules.games import game_names, load_game
from mekref.rules.refusal import Refusal


@pytest.mark.parametrize("name", game_names())
def test_each_rule_set_loads_and_its_state_round_trips(name: str) -> None:
    game = load_game(name)
    state = game.initial_state()
    assert isinstance(state, game.state_type)
    text = canonical_json(to_jsonable(state))
    back = decode(game.state_type, json.loads(text))
    assert game.state_hash(back) == game.state_hash(state)


def test_the_rule_sets_the_product_promises() -> None:
    assert {"tripwire", "succession_wars", "dystopian_wars", "objectives"} <= set(game_names())


def test_an_unknown_rule_set_is_refused_with_the_known_ones() -> None:
    with pytest.raises(Refusal, match="succession_wars"):
        load_game("battletech_classic")
