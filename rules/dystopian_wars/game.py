"""The Dystopian Wars campaign as one rule-set value the kernel runs (:data:`DYSTOPIAN_WARS`).

A side is a fleet (its player's token). Battles are fought on the table and entered by the
referee; a fleet's player stakes territories, assigns MARs, repairs, requisitions and pays
ransoms for that fleet. What a fleet may not see: the dice seed and, until the battle is
resolved, the Field Order the other fleet drew.
"""

from __future__ import annotations

from typing import Any

from mekref.rules.codec import JsonValue, to_jsonable
from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars import holdings, logistics, mars, postbattle, prebattle, summary
from mekref.rules.dystopian_wars.describe import describe
from mekref.rules.dystopian_wars.fold import EVOLVERS
from mekref.rules.dystopian_wars.model import DystopianState, field_names
from mekref.rules.dystopian_wars.summary import summarize
from mekref.rules.kernel import Decider, RuleSet
from mekref.rules.messages import Command

DECIDERS: dict[type[Command], Decider[DystopianState]] = {
    c.CreateCampaign: prebattle.create,
    c.GrantTerritory: prebattle.grant,
    c.StartBattle: prebattle.start_battle,
    c.StakeTerritories: prebattle.stake,
    c.SetMap: prebattle.set_map,
    c.AssignMar: mars.assign,
    c.ChooseWingMar: holdings.choose_wing_mar,
    c.ChooseTowers: holdings.choose_towers,
    c.ReportBattle: postbattle.report,
    c.Repair: logistics.repair,
    c.RequisitionSquadron: logistics.requisition,
    c.ReleaseCommodore: logistics.release,
}


#: Commands a fleet's player gives for that fleet; the rest are the referee's.
_FLEET_COMMANDS = (
    c.StakeTerritories,
    c.AssignMar,
    c.ChooseWingMar,
    c.ChooseTowers,
    c.Repair,
    c.RequisitionSquadron,
    c.ReleaseCommodore,
)


def _acting_side(state: DystopianState, command: Command) -> str | None:
    if isinstance(command, _FLEET_COMMANDS):
        return command.fleet_id
    return None


class DystopianWarsViews:
    """Every fleet sees the map, the fleets and the results; not the seed, and not the other
    fleet's drawn Field Order while a battle is being fought (nor the roll that drew it)."""

    def sides(self, state: DystopianState) -> dict[str, str]:
        return {f.fleet_id: f"{f.nation} ({f.player})" for _, f in sorted(state.fleets.items())}

    def view(self, state: DystopianState, side: str) -> JsonValue:
        data = to_jsonable(state)
        assert isinstance(data, dict)
        data.pop("seed", None)
        battle = data.get("battle")
        if isinstance(battle, dict) and state.battle is not None:
            battle["field_orders"] = _own_orders(
                state.battle.fleets, state.battle.field_orders, side
            )
        return data

    def event_for(
        self, state: DystopianState, event: dict[str, Any], side: str
    ) -> dict[str, Any] | None:
        data = dict(event)
        if data.get("type") == e.CampaignCreated.TYPE:
            data.pop("seed", None)
        battle = data.get("battle")
        if data.get("type") == e.BattleSetUp.TYPE and isinstance(battle, dict):
            battle = dict(battle)
            fleets = tuple(battle.get("fleets") or ())
            battle["field_orders"] = _own_orders(
                fleets, tuple(battle.get("field_orders") or ()), side
            )
            data["battle"] = battle
            # The roll that drew another fleet's Field Order names the card it drew.
            hidden = {f"field order, {battle.get('battle_id')}, fleet {f}" for f in fleets}
            hidden.discard(f"field order, {battle.get('battle_id')}, fleet {side}")
            data["rolls"] = [r for r in data.get("rolls") or () if r.get("name") not in hidden]
        return data


#: What a side sees of another fleet's drawn Field Order: the card, face down (orders are
#: numbered from 1), so the view keeps the state's shape; the report says so in words.
FACE_DOWN = summary.FACE_DOWN


def _own_orders(fleets: tuple[str, ...], orders: tuple[int, ...], side: str) -> list[int]:
    """The drawn Field Orders with every fleet's but ``side``'s face down."""
    return [o if f == side else FACE_DOWN for f, o in zip(fleets, orders, strict=False)]


DYSTOPIAN_WARS: RuleSet[DystopianState] = RuleSet(
    name="dystopian_wars",
    title="Dystopian Wars campaign v2.0",
    state_type=DystopianState,
    deciders=DECIDERS,
    evolvers=EVOLVERS,
    setup=(c.CreateCampaign,),
    started=lambda state: state.created,
    not_started=("no_campaign", "create the campaign first"),
    acting_side=_acting_side,
    views=DystopianWarsViews(),
    describe=describe,
    summarize=summarize,
    field_names=field_names,
)
