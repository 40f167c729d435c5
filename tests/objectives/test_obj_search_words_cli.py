"""A search told in words through the installed console script shows the round in its sum
(L23, issue 29)."""

from __future__ import annotations

from pathlib import Path

from console_script import mekref

LINES = (Path(__file__).parent / "data" / "objectives.txt").read_text("utf-8").splitlines()


def test_a_search_sum_shows_the_round_through_the_console_script() -> None:
    assert "Add the resulting number to the number of the current round." in LINES[22]
    played = mekref("game", "demo", "--ruleset", "objectives")
    assert played.returncode == 0, played.stderr
    # Before: "d6 6 enemy -1 = 9", the round's +4 left out of the sum.
    assert "round 4: red-bunker searches vault: d6 6 enemy -1 round +4 = 9, needs 7+: found it" in (
        played.stdout
    )
