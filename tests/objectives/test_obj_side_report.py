"""``mekref game report`` says who holds each objective in one line and names the winner on
objectives (ruling OBJ-14); a side's report (``--side``) is the same, its own side marked
(issue 29, item 2). Played from the bundled demo through the installed console script."""

from __future__ import annotations

from pathlib import Path

from console_script import game_report, played_demo, played_demo_until

LINES = (Path(__file__).parent / "data" / "objectives.txt").read_text("utf-8").splitlines()
L1 = (
    "An Objective is a catch-all name for something that your army will generally need to "
    "discover, capture, or extract from the combat zone in order to win the game."
)
HELD_AT_END = "held at round 6: red crate (extracted), vault; blue cache, hill"


def test_ruling_the_side_holding_the_most_objectives_is_named_the_winner(tmp_path: Path) -> None:
    assert L1 in LINES[2]
    # The demo until round 5 begins: red holds the crate (taken from the destroyed blue-tank)
    # and the vault it found; blue holds the hill.
    db = played_demo_until(tmp_path, "objectives", '"round": 5}')
    referee = game_report(db)
    assert "held at round 5: red crate, vault; blue hill" in referee
    assert "winner on objectives: red (2 held against blue 1)" in referee
    blue = game_report(db, "--side", "blue")
    assert "as blue sees it" in blue
    assert "held at round 5: red crate, vault; blue (you) hill" in blue
    assert "winner on objectives: red (2 held against blue 1)" in blue


def test_ruling_a_tie_names_no_winner_at_the_demos_end(tmp_path: Path) -> None:
    db = played_demo(tmp_path, "objectives")
    referee = game_report(db)
    assert HELD_AT_END in referee
    assert "winner on objectives: none (blue and red hold 2 each)" in referee
    red = game_report(db, "--side", "red")
    assert "held at round 6: red (you) crate (extracted), vault; blue cache, hill" in red
    assert "winner on objectives: none (blue and red hold 2 each)" in red
    # Objectives lie in plain sight (ObjectivesViews): a side's report shows every objective.
    for line in ("cache (mobile): carried, claimed by blue", "vault: on table, claimed by red"):
        assert line in red and line in referee
