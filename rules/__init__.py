"""mekref.rules: the functional core of the referee.

A campaign is an append-only log of events and its state is their fold:
``decide(state, command, dice) -> events`` and ``evolve(state, event) -> state``, both pure.
Rule sets plug in by name (:mod:`mekref.rules.rulesets`); ``tripwire`` is the first.
No I/O beyond reading packaged tables, no clock, no global randomness.
"""

from mekref.rules.campaign_state import CampaignState, state_from_text, state_hash, state_to_text
from mekref.rules.dice import Dice, Roll
from mekref.rules.engine import decide, dice_for, evolve, execute, fold
from mekref.rules.messages import (
    Command,
    Event,
    RefereeNote,
    command_from_json,
    command_to_json,
    event_from_json,
    event_from_text,
    event_text,
    event_to_json,
)
from mekref.rules.refusal import Refusal
from mekref.rules.rulesets import load_ruleset, ruleset_names

__all__ = [
    "CampaignState",
    "Command",
    "Dice",
    "Event",
    "RefereeNote",
    "Refusal",
    "Roll",
    "command_from_json",
    "command_to_json",
    "decide",
    "dice_for",
    "event_from_json",
    "event_from_text",
    "event_text",
    "event_to_json",
    "evolve",
    "execute",
    "fold",
    "load_ruleset",
    "ruleset_names",
    "state_from_text",
    "state_hash",
    "state_to_text",
]
