"""``mekref game commands`` shows what a field takes: enum values, a free-text field's allowed
values and notes, nested objects; and points at ``game example`` for a set-up command."""

from __future__ import annotations

import json

from console_script import mekref

from mekref.rules.succession_wars.common import tables
from mekref.rules.succession_wars.messages.commands import BUY_ITEMS

#: Priced rows that are not bought with SWBuy (they have their own commands).
NOT_BOUGHT = {"manufacturing_center", "repair_center", "tech_roll"}


def test_buy_items_are_the_price_table_rows_swbuy_takes() -> None:
    assert set(BUY_ITEMS) == set(tables().prices) - NOT_BOUGHT


def test_a_free_text_field_lists_its_allowed_values() -> None:
    shown = mekref("game", "commands", "--ruleset", "succession_wars", "--type", "SWBuy")
    assert shown.returncode == 0, shown.stderr
    assert '* item: str  one of: "house_mech", "merc_rebuild", "upgrade"' in shown.stdout
    as_json = mekref("game", "commands", "--ruleset", "succession_wars", "--json")
    buy = next(c for c in json.loads(as_json.stdout)["commands"] if c["type"] == "SWBuy")
    assert next(f for f in buy["fields"] if f["name"] == "item")["allowed"] == list(BUY_ITEMS)


def test_the_set_up_command_explains_its_fields_and_points_at_the_example() -> None:
    shown = mekref("game", "commands", "--ruleset", "succession_wars", "--type",
                   "SWStartCampaign")  # fmt: skip
    out = shown.stdout
    assert "mekref game example --ruleset succession_wars" in out
    assert '("sample") or a TOML map file' in out
    assert 'capital: str  (default "")  one of: "", "house", "regional"' in out
    assert "[House, player] for each of the five Houses" in out


def test_enums_and_nested_objects_of_every_rule_set_are_shown() -> None:
    shown = mekref("game", "commands", "--ruleset", "dystopian_wars", "--type", "DWCreateCampaign")
    assert "vessel_class: one of: small, cruiser_bomber" in shown.stdout
    assert "  SquadronSpec:" in shown.stdout
