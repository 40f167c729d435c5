"""Every rule set a campaign can be run under, behind one small interface.

TripWire runs on the shared engine core (:mod:`mekref.rules.engine`); The Succession Wars, the
Dystopian Wars campaign and the objectives tracker keep states of their own. The daemon only
needs the same five things from each: a starting state, the dice a decision must use, decide,
evolve and a state hash; this registry gives them by the campaign's rule-set name.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    state_type: type[Any]
    initial_state: Callable[[], Any]
    dice_for: Callable[[Any, Command], Dice]
    decide: Callable[[Any, Command, Dice], list[Event]]
    evolve: Callable[[Any, Event], Any]
    state_hash: Callable[[Any], str]


#: rule-set name -> (module with initial_state/decide/evolve/state_hash, state class, title)
_MODULES: dict[str, tuple[str, str, str]] = {
    "tripwire": ("mekref.rules.engine", "CampaignState", "Operation TripWire (Chaos Campaign)"),
    "succession_wars": ("mekref.rules.succession_wars.game", "SWState", "The Succession Wars"),
    "dystopian_wars": (
        "mekref.rules.dystopian_wars.game",
        "DystopianState",
        "Dystopian Wars campaign v2.0",
    ),
    "objectives": ("mekref.rules.objectives.game", "ObjectivesState", "Objectives tracker"),
    "house_rules": (
        "mekref.rules.house_rules.game",
        "HouseState",
        "House rules (morale, experience, injuries, acquisition, technical teams)",
    ),
}


def game_names() -> tuple[str, ...]:
    return tuple(_MODULES)


def load_game(name: str) -> Game:
    try:
        module_name, state_name, title = _MODULES[name]
    except KeyError:
        raise Refusal(
            "unknown_ruleset", f"no rule set named {name!r}; known: {', '.join(game_names())}"
        ) from None
    if name == "tripwire":
        return _tripwire(title)
    module = importlib.import_module(module_name)
    state_type = getattr(module, state_name)
    dice_for = module.dice_for
    # Some rule sets seed their dice from the command that starts the campaign, so their
    # dice_for also takes the command.
    takes_command = len(inspect.signature(dice_for).parameters) >= 2

    def dice(state: Any, command: Command) -> Dice:
        found = dice_for(state, command) if takes_command else dice_for(state)
        assert isinstance(found, Dice)
        return found

    initial = getattr(module, "initial_state", state_type)
    return Game(
        name, title, state_type, initial, dice, module.decide, module.evolve, module.state_hash
    )


def _tripwire(title: str) -> Game:
    from mekref.rules import engine
    from mekref.rules.campaign_state import CampaignState, state_hash

    return Game(
        "tripwire",
        title,
        CampaignState,
        CampaignState,
        lambda state, _command: engine.dice_for(state),
        engine.decide,
        engine.evolve,
        state_hash,
    )
