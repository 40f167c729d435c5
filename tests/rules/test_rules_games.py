"""Every rule set is one value the kernel runs, found in the one registry; its state survives a
snapshot, its codec knows exactly the commands and events its tables handle, and every command
schema's example decodes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mekref.rules.codec import canonical_json, decode, to_jsonable
from mekref.rules.kernel import RuleSet
from mekref.rules.refusal import Refusal
from mekref.rules.registry import RULESET_NAMES, all_rulesets, ruleset
from mekref.rules.schema import command_schema


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_each_rule_set_loads_and_its_state_round_trips(name: str) -> None:
    game = ruleset(name)
    assert isinstance(game, RuleSet) and game.name == name
    state = game.initial_state()
    assert isinstance(state, game.state_type)
    text = canonical_json(to_jsonable(state))
    back = decode(game.state_type, json.loads(text))
    assert game.state_hash(back) == game.state_hash(state)


def test_the_rule_sets_the_product_promises() -> None:
    assert set(RULESET_NAMES) == {
        "tripwire",
        "succession_wars",
        "dystopian_wars",
        "objectives",
        "house_rules",
    }


def test_an_unknown_rule_set_is_refused_with_the_known_ones() -> None:
    with pytest.raises(Refusal, match="succession_wars"):
        ruleset("battletech_classic")


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_the_codecs_are_the_tables(name: str) -> None:
    """A command decodes only if a decider handles it; an event only if an evolver folds it."""
    game = ruleset(name)
    assert set(game.commands.classes()) == set(game.deciders)
    assert set(game.events.classes()) == set(game.evolvers)
    assert all(c in game.deciders for c in game.setup)


def test_type_names_are_unique_across_rule_sets() -> None:
    """Stored logs carry only type names: no name may mean two things in two rule sets."""
    seen: dict[str, str] = {}
    for game in all_rulesets():
        for cls in (*game.commands.classes(), *game.events.classes()):
            assert seen.setdefault(cls.TYPE, game.name) == game.name, cls.TYPE


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_every_command_example_decodes(name: str) -> None:
    game = ruleset(name)
    for cls in game.commands.classes():
        example = command_schema(cls).example
        assert isinstance(game.commands.from_json(example), cls), cls.TYPE


SCRIPTS = Path(__file__).parents[1] / "cli" / "data" / "scripts"


@pytest.mark.parametrize(
    ("name", "sides"),
    [
        ("tripwire", {"a", "b"}),
        ("succession_wars", {"Davion", "Liao"}),  # the Houses (ruling R-ENGINE-2)
        ("dystopian_wars", {"brit", "sun"}),  # the fleets
        ("objectives", {"red", "blue"}),  # the scenario's sides
        ("house_rules", set()),  # referee tools only: no sides
    ],
)
def test_each_rule_set_says_who_its_sides_are(name: str, sides: set[str]) -> None:
    game = ruleset(name)
    start = next((SCRIPTS / name).glob("start-*.json"))
    _, state = game.execute(
        game.initial_state(), game.commands.from_json(json.loads(start.read_text()))
    )
    assert sides <= set(game.sides_of(state))
    assert bool(game.sides_of(state)) == bool(sides) == (game.views is not None)
