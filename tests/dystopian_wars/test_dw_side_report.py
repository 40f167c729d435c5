"""A fleet's report (``mekref game report --side FLEET``) tells its own drawn Field Order in words
and never the other fleet's; the referee's tells both (issue 29, item 2). Played from the
bundled demo through the installed console script."""

from __future__ import annotations

import json
from pathlib import Path

from console_script import game_report, mekref, played_demo, played_demo_until

LINES = (Path(__file__).parent / "data" / "dystopian_wars.txt").read_text("utf-8").splitlines()
# L155 "2.3 Roll for Field Orders", L197 "The first player to achieve their Field Order": each
# fleet plays to its own order, which the other fleet learns when the battle is resolved.
BRIT_ORDER = "brit drew Field Order 3, Group order 3"
SUN_ORDER = "sun drew Field Order 1, Group order 1"


def test_each_fleet_sees_its_own_field_order_and_not_the_others(tmp_path: Path) -> None:
    assert "2.3 Roll for Field Orders" in LINES[154]
    assert "The first player to achieve their Field Order" in LINES[196]
    db = played_demo_until(tmp_path, "dystopian_wars", '"battle_id": "b1", "fleets"')
    referee = game_report(db)
    assert BRIT_ORDER in referee and SUN_ORDER in referee
    brit = game_report(db, "--side", "brit")
    assert "as brit sees it" in brit
    assert "brit (you) drew Field Order 3, Group order 3" in brit
    assert "sun drew a Field Order, face down until the battle is resolved" in brit
    assert "Field Order 1" not in brit and "Group order 1" not in brit
    sun = game_report(db, "--side", "sun")
    assert "sun (you) drew Field Order 1, Group order 1" in sun
    assert "brit drew a Field Order, face down until the battle is resolved" in sun
    assert "Field Order 3" not in sun and "Group order 3" not in sun
    as_json = json.loads(game_report(db, "--side", "sun", "--json"))
    assert as_json["side"] == "sun"
    lines = [line for s in as_json["sections"] for line in s["lines"]]
    assert "sun (you) drew Field Order 1, Group order 1" in lines
    assert not any("Group order 3" in line for line in lines)


def test_a_fleets_report_at_the_demos_end_names_the_winner(tmp_path: Path) -> None:
    assert LINES[17] == "Victory will go to the first fleet which;"
    assert LINES[19].endswith("Conquers 11 Territories")
    db = played_demo(tmp_path, "dystopian_wars")
    for side in ("brit", "sun"):
        shown = game_report(db, "--side", side)
        assert f"as {side} sees it" in shown
        assert "won by brit (territories)" in shown
        assert "8 battles fought" in shown
    referee = game_report(db)
    assert "won by brit (territories)" in referee
    # No battle is being fought: the state keeps no drawn order once a battle is reported.
    assert "drew" not in referee and "battle being fought" not in referee


def test_an_unknown_fleet_is_refused_with_the_fleets(tmp_path: Path) -> None:
    db = played_demo(tmp_path, "dystopian_wars")
    refused = mekref("game", "report", "--db", db, "--side", "Prussia")
    assert refused.returncode == 2
    assert "no side 'Prussia' in this campaign; sides: brit, sun" in refused.stderr
    # A fleet is matched without case, as in typed words: "Brit" is brit.
    shown = mekref("game", "report", "--db", db, "--side", "Brit")
    assert shown.returncode == 0 and "as brit sees it" in shown.stdout
