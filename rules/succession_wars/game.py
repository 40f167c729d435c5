"""The Succession Wars as one rule-set value the kernel runs (:data:`SUCCESSION_WARS`).

The tables list every command with its decider and every event with its evolver. A side is a
House (a player running two Houses holds a token for each). What a House may not see: the dice
seed, the order of the draw pile, and the cards in the other Houses' hands.
"""

from __future__ import annotations

from mekref.rules.kernel import Decider, RuleSet
from mekref.rules.messages import Command
from mekref.rules.succession_wars import (
    auctions,
    combat,
    economy,
    intrigue,
    movement,
    scenario_2786,
    turn,
)
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.common import field_names
from mekref.rules.succession_wars.describe import describe
from mekref.rules.succession_wars.evolve import EVOLVERS
from mekref.rules.succession_wars.model import Phase, SWState
from mekref.rules.succession_wars.summary import summarize
from mekref.rules.succession_wars.views import SuccessionWarsViews

DECIDERS: dict[type[Command], Decider[SWState]] = {
    m.SWStartCampaign: scenario_2786.decide_start_scenario,
    m.SWDrawMercenary: scenario_2786.decide_draw,
    m.SWMoveMercenaryOut: auctions.decide_move_out,
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
    m.SWChooseInterdictRegion: intrigue.decide_choose_interdict,
    m.SWOpenAuction: auctions.decide_open_auction,
    m.SWSettleAuction: auctions.decide_settle_auction,
}


def _acting_side(state: SWState, command: Command) -> str | None:
    """The House the command is given for (its player's token acts as that House); the
    referee for the rest."""
    house = getattr(command, "house", None)
    return house if isinstance(house, str) and house in state.houses else None


def _over(state: SWState) -> str | None:
    return f"{state.winner} won" if state.phase is Phase.OVER else None


SUCCESSION_WARS: RuleSet[SWState] = RuleSet(
    name="succession_wars",
    title="The Succession Wars",
    state_type=SWState,
    deciders=DECIDERS,
    evolvers=EVOLVERS,
    setup=(m.SWStartCampaign,),
    started=lambda state: state.started,
    not_started=("not_started", "set up the game first (SWStartCampaign)"),
    noun="game",
    over=_over,
    acting_side=_acting_side,
    views=SuccessionWarsViews(),
    describe=describe,
    summarize=summarize,
    field_names=field_names,
)
