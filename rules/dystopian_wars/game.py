"""The Dystopian Wars campaign's pure core: ``decide`` turns a command into events.

Same shape as the campaign engine: the dice cursor must sit at ``state.rolls_used``, every roll
is stored in the event that used it, and a refused command raises
:class:`~mekref.rules.refusal.Refusal` and appends nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mekref.rules.codec import content_hash
from mekref.rules.dice import Dice, require_cursor
from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import logistics, mars, postbattle, prebattle
from mekref.rules.dystopian_wars.fold import evolve, fold, initial_state
from mekref.rules.dystopian_wars.model import DystopianState
from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal

__all__ = ["decide", "dice_for", "evolve", "execute", "fold", "initial_state", "state_hash"]


def dice_for(state: DystopianState) -> Dice:
    return Dice(state.seed, state.rolls_used)


def state_hash(state: DystopianState) -> str:
    return content_hash(state)


_DECIDERS: dict[type[Command], Callable[[DystopianState, Any, Dice], list[Event]]] = {
    c.CreateCampaign: prebattle.create,
    c.GrantTerritory: prebattle.grant,
    c.StartBattle: prebattle.start_battle,
    c.StakeTerritories: prebattle.stake,
    c.SetMap: prebattle.set_map,
    c.AssignMar: mars.assign,
    c.ReportBattle: postbattle.report,
    c.Repair: logistics.repair,
    c.RequisitionSquadron: logistics.requisition,
    c.ReleaseCommodore: logistics.release,
}


def decide(state: DystopianState, command: Command, dice: Dice) -> list[Event]:
    handler = _DECIDERS.get(type(command))
    if handler is None:
        raise Refusal(
            "unknown_command", f"the Dystopian Wars campaign does not handle {command.TYPE}"
        )
    if not isinstance(command, c.CreateCampaign):
        if not state.created:
            raise Refusal("no_campaign", "create the campaign first")
        require_cursor(dice, state.seed, state.rolls_used, "campaign")
    return handler(state, command, dice)


def execute(state: DystopianState, command: Command) -> tuple[list[Event], DystopianState]:
    """Decide with the state's own dice cursor and fold the result."""
    events = decide(state, command, dice_for(state))
    return events, fold(events, state)
