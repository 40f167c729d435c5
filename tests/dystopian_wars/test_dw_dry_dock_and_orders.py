"""A squadron left in dry dock sits out the next battle (L227, ruling DW-34), and the report
tells each fleet's drawn Field Order in words; played through the installed console script
with typed ``--type``/``--field`` commands (issue 29)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dw_cli import CliCampaign

HERE = Path(__file__).parent
LINES = (HERE / "data" / "dystopian_wars.txt").read_text("utf-8").splitlines()
L227 = (
    "a) leave it in dry dock to continue repairs (so apply any points and make a note) or b) "
    "repair it as best as possible but it will start the game in its damaged state"
)


class Campaign(CliCampaign):
    def battle(self, battle_id: str, stakes: int = 1) -> None:
        self.ok("ref", "DWStartBattle", battle_id=battle_id, fleets=["brit", "sun"])
        self.ok("brit", "DWStake", fleet_id="brit", own="airbase-1", enemy="airbase-2")
        if stakes == 2:  # a Battle Royale stakes two pairs, the other fleet choosing the second
            self.ok("sun", "DWStake", fleet_id="sun", own="town-2", enemy="town-1")


def _results(brit: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"fleet_id": "brit", "victory_points": 3, "squadrons": brit},
        {"fleet_id": "sun", "victory_points": 1, "squadrons": []},
    ]


def _dock_the_dreadnought(game: Campaign) -> None:
    """Battle 1: the dreadnought (major 6 RP), the flagship (4) and two cruisers (2) need 12
    RP; Britannia requisitions 11, so the dreadnought gets the last 5 and stays in dock."""
    game.battle("first")
    game.ok("ref", "DWReportBattle", battle_id="first", results=_results([
        {"squadron_id": "dread", "crippled": True},
        {"squadron_id": "flag", "crippled": True},
        {"squadron_id": "cruisers", "ships_lost": 2},
    ]))  # fmt: skip
    game.ok("brit", "DWRepair", fleet_id="brit", squadron_id="flag")
    game.ok("brit", "DWRepair", fleet_id="brit", squadron_id="cruisers")
    out = game.ok("brit", "DWRepair", fleet_id="brit", squadron_id="dread", dry_dock=True)
    assert "brit squadron dread partly repaired, still in dry dock (5 RP)" in out


def test_ruling_a_squadron_in_dry_dock_cannot_fight_the_next_battle(tmp_path: Path) -> None:
    assert L227 in LINES[226]
    game = Campaign(tmp_path)
    _dock_the_dreadnought(game)
    game.battle("second", stakes=2)
    # Before the fix the docked dreadnought fought this battle and earned experience.
    refused = game.do("ref", "DWReportBattle", battle_id="second",
                      results=_results([{"squadron_id": "dread", "kills": [
                          {"vessel_class": "small"}]}]))  # fmt: skip
    assert refused.returncode != 0
    assert "squadron 'dread' of brit is in dry dock (5 RP applied of 6)" in refused.stderr
    assert "line 227" in refused.stderr
    out = game.ok("ref", "DWReportBattle", battle_id="second",
                  results=_results([{"squadron_id": "cruisers"}]))  # fmt: skip
    assert "squadron dread" not in out


def test_the_report_shows_the_dry_dock_and_each_drawn_field_order(tmp_path: Path) -> None:
    game = Campaign(tmp_path)
    game.ok("ref", "DWStartBattle", battle_id="first", fleets=["brit", "sun"])
    # 2.3: each fleet draws a Field Order; the referee's report names each in words (before the
    # fix only `game state --side F --json` showed the drawn order's number).
    report = game.report()
    assert "brit drew Field Order 2, Hold the Line: Hold the centre marker" in report
    assert "sun drew Field Order 2, Hold the Line" in report
    game.ok("brit", "DWStake", fleet_id="brit", own="airbase-1", enemy="airbase-2")
    game.ok("ref", "DWReportBattle", battle_id="first", results=_results([
        {"squadron_id": "dread", "crippled": True},
        {"squadron_id": "flag", "crippled": True},
        {"squadron_id": "cruisers", "ships_lost": 2},
    ]))  # fmt: skip
    game.ok("brit", "DWRepair", fleet_id="brit", squadron_id="flag")
    game.ok("brit", "DWRepair", fleet_id="brit", squadron_id="cruisers")
    game.ok("brit", "DWRepair", fleet_id="brit", squadron_id="dread", dry_dock=True)
    assert "in dry dock, not fighting: dread (5 of 6 RP applied)" in game.report()
