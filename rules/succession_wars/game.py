"""The Succession Wars as a pure, event-sourced rule set.

``decide(state, command, dice) -> list[Event]`` validates a command against the folded state
(raising :class:`~mekref.rules.refusal.Refusal` when the rules say no) and returns the events it
causes; ``evolve(state, event)`` applies one event and never refuses; ``fold`` replays a log;
``state_hash`` fingerprints a state for replay checks. Dice come in positioned at
``state.rolls_used`` (:func:`dice_for`); every roll a decision makes is stored in its events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from mekref.rules.codec import content_hash
from mekref.rules.dice import Dice, require_cursor
from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import combat, economy, intrigue, movement, turn
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.evolve import apply
from mekref.rules.succession_wars.model import Phase, SWState
from mekref.rules.succession_wars.start import decide_start

_DECIDERS: dict[type[Command], Callable[[SWState, Any, Dice], list[Event]]] = {
    m.SWEndPhase: turn.decide_end_phase,
    m.SWBuy: economy.decide_buy,
    m.SWBuildCenter: economy.decide_build_center,
    m.SWRepairCenter: economy.decide_repair_center,
    m.SWTechRoll: economy.decide_tech_roll,
    m.SWPlaceUnits: economy.decide_place,
    m.SWMoveJumpShip: movement.decide_move,
    m.SWScuttleJumpShip: movement.decide_scuttle,
    m.SWAttack: combat.decide_attack,
    m.SWCounterattack: combat.decide_counterattack,
    m.SWTakeLosses: combat.decide_losses,
    m.SWRetreat: combat.decide_retreat,
    m.SWReportBattle: combat.decide_report,
    m.SWKillLeader: intrigue.decide_kill,
    m.SWRansomLeader: intrigue.decide_ransom,
    m.SWPay: intrigue.decide_pay,
    m.SWGiveCard: intrigue.decide_give_card,
    m.SWPlayCard: intrigue.decide_play_card,
    m.SWBribe: intrigue.decide_bribe,
    m.SWBuyInterdict: intrigue.decide_interdict,
    m.SWOpenAuction: intrigue.decide_open_auction,
    m.SWSettleAuction: intrigue.decide_settle_auction,
}


def initial_state() -> SWState:
    """The state before set-up: no board, no pieces."""
    return SWState()


def dice_for(state: SWState, command: Command | None = None) -> Dice:
    """The dice a decision on ``state`` must use (set-up rolls with the seed it brings)."""
    if isinstance(command, m.SWStartCampaign):
        return Dice(command.seed, 0)
    return Dice(state.seed, state.rolls_used)


def decide(state: SWState, command: Command, dice: Dice) -> list[Event]:
    if isinstance(command, m.SWStartCampaign):
        if dice != Dice(command.seed, 0):
            raise ValueError("set-up dice must start at roll 0 of the game's seed")
        return decide_start(state, command, dice)
    handler = _DECIDERS.get(type(command))
    if handler is None:
        raise Refusal(
            "unknown_command", f"no Succession Wars rule handles {type(command).__name__}"
        )
    if not state.started:
        raise Refusal("not_started", "set up the game first (SWStartCampaign)")
    if state.phase is Phase.OVER:
        raise Refusal("game_over", f"the game is over: {state.winner} won")
    require_cursor(dice, state.seed, state.rolls_used, "game")
    return handler(state, command, dice)


def evolve(state: SWState, event: Event) -> SWState:
    return apply(state, event)


def fold(events: Iterable[Event], state: SWState | None = None) -> SWState:
    current = state or initial_state()
    for event in events:
        current = evolve(current, event)
    return current


def execute(state: SWState, command: Command) -> tuple[list[Event], SWState]:
    """Decide with the state's own dice and fold the result: the one call a runner needs."""
    events = decide(state, command, dice_for(state, command))
    return events, fold(events, state)


def state_hash(state: SWState) -> str:
    """sha256 of the canonical JSON of the state: equal states, equal hashes, on any machine."""
    return content_hash(state)
