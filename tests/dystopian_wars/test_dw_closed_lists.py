"""The Dystopian Wars' closed lists that the API writes as enums (docs/api.md, "Enums beside
their text"): a staked territory's fortifications, how a battle and the campaign were won.
They are the values the tables and rules give; a text none of them (an event stored before
a list grew) gets no enum value, never a guessed one."""

from __future__ import annotations

from mekref.daemon.grpc.typed import fill
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.table_loader import load_tables
from mekref.v1 import dystopian_wars_pb2

DW = dystopian_wars_pb2.DystopianWars


def test_the_fortifications_are_every_one_the_territories_give() -> None:
    """Line 111 "Fortress, 2 Flak Towers, 2 Rocket/ Gun/ Tesla Towers", line 122 "Defended by
    a Fortress!": the rows' fortifications and a tower of each kind the holder may name."""
    given = set()
    for row in load_tables().territories.values():
        given |= set(row.fortifications) | {f"{k} Tower" for k in row.tower_kinds}
    assert given == set(e.FORTIFICATIONS)


def test_a_value_of_the_list_is_its_enum_and_one_outside_it_none() -> None:
    defend = {"battle_id": "b1", "fleet_id": "brit", "territory_id": "t1", "territory": "Base",
              "line": 111, "fortifications": ["Fortress", "Gun Tower"]}  # fmt: skip
    message = fill(DW.FortificationsDefend(), e.FortificationsDefend, defend)
    kinds = DW.FortificationsDefendFortifications
    assert [kinds.Name(k) for k in message.fortifications_enum] == [
        "FORTIFICATIONS_DEFEND_FORTIFICATIONS_FORTRESS",
        "FORTIFICATIONS_DEFEND_FORTIFICATIONS_GUN_TOWER",
    ]
    won = {"battle_id": "b1", "battle_type": "Skirmish", "victor": None,
           "victory_points": [1, 1]}  # fmt: skip
    resolved = fill(DW.BattleResolved(), e.BattleResolved, {**won, "how": "draw"})
    assert resolved.how_enum == DW.BattleResolvedHow.Value("BATTLE_RESOLVED_HOW_DRAW")
    unknown = fill(DW.BattleResolved(), e.BattleResolved, {**won, "how": "surrender"})
    assert unknown.how == "surrender" and unknown.how_enum == 0  # unset: the text says
    campaign = fill(DW.CampaignWon(), e.CampaignWon, {"fleet_id": "brit", "condition": "Luck"})
    assert campaign.condition_enum == 0
    assert set(DW.CampaignWonCondition.keys()) == {
        "CAMPAIGN_WON_CONDITION_UNSPECIFIED",
        "CAMPAIGN_WON_CONDITION_TERRITORIES",
        "CAMPAIGN_WON_CONDITION_COMMODORE",
    }
