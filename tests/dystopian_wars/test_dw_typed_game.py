"""The Dystopian Wars campaign played to its end through the installed console script with
typed commands only (issue 29): no JSON file, fleets unlike the bundled demo's (the Prussian
Empire against the Federated States of America), battle reports typed as ``results.1.fleet_id=``
words. Each battle's chooser and type come from the dice, so the next line is typed after
reading ``game state`` as a player reads the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref

LINES = (Path(__file__).parent / "data" / "dystopian_wars.txt").read_text("utf-8").splitlines()

SQUADRONS = (  # id, class, category, ships, points (1500 points, the treaty's shares)
    ("flag", "large", "naval", 1, 190), ("dread", "dreadnought", "naval", 1, 300),
    ("cruisers", "cruiser_bomber", "naval", 3, 300), ("frigates", "small", "naval", 4, 120),
    ("escorts", "small", "naval", 3, 90), ("gunships", "medium_capital", "aerial", 2, 200),
    ("wing", "small", "aerial", 1, 30),
)  # fmt: skip
FLEETS = (("prussia", "Prussian Empire", "Admiral Tirpitz"),
          ("fsa", "Federated States of America", "Commodore Reed"))  # fmt: skip


def _start_words() -> list[str]:
    words = ["dwcreatecampaign", "actor=ref", "seed=typed-fleets-2"]
    for i, (fleet, nation, commodore) in enumerate(FLEETS, start=1):
        f = f"fleets.{i}."
        words += [f"{f}fleet_id={fleet}", f"{f}player=p-{fleet}", f"{f}nation={nation}",
                  f"{f}commodore={commodore}"]  # fmt: skip
        for j, (sid, vessel, category, ships, points) in enumerate(SQUADRONS, start=1):
            s = f"{f}squadrons.{j}."
            words += [
                f"{s}squadron_id={sid}", f"{s}name={sid.title()}", f"{s}vessel_class={vessel}",
                f"{s}category={category}", f"{s}ships={ships}", f"{s}points={points}",
            ]  # fmt: skip
            if sid == "flag":
                words += [f"{s}flagship=true", f"{s}shields_per_ship=1"]
            if sid == "wing":
                words.append(f"{s}free_tiny_flyer_wing=true")
    return words


class Campaign:
    def __init__(self, tmp_path: Path) -> None:
        self.db = str(tmp_path / "dw.db")
        began = mekref("game", "start", "--db", self.db, "--ruleset", "dystopian_wars",
                       "--name", "Typed", *_start_words())  # fmt: skip
        assert began.returncode == 0, began.stderr

    def do(self, *words: str) -> str:
        done = mekref("game", "do", "--db", self.db, *words)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def state(self) -> Any:
        done = mekref("game", "state", "--db", self.db, "--json")
        return json.loads(done.stdout)["state"]

    def held(self, fleet: str) -> list[str]:
        return sorted(t for t, v in self.state()["territories"].items() if v["holder"] == fleet)

    def battle(self, number: int) -> str:
        """A battle Prussia wins: started, staked as the dice allow, reported."""
        self.do("DWStartBattle", "actor=ref", f"battle_id=b{number}", "fleets.1=Prussia",
                "fleets.2=FSA")  # fmt: skip
        battle = self.state()["battle"]
        mine, theirs = self.held("prussia"), self.held("fsa")
        stakes = {
            "prussia": ("DWStake", "actor=prussia", "fleet_id=prussia", f"own={mine[0]}",
                        f"enemy={theirs[0]}"),
            "fsa": ("DWStake", "actor=fsa", "fleet_id=fsa", f"own={theirs[-1]}",
                    f"enemy={mine[-1]}"),
        }  # fmt: skip
        # The chooser stakes first; in a Battle Royale the other fleet stakes a second pair.
        other = "fsa" if battle["chooser"] == "prussia" else "prussia"
        self.do(*stakes[battle["chooser"]])
        if battle["battle_type"] == "battle_royale":
            self.do(*stakes[other])
        choice = (
            [f"conquest_choice={theirs[0]}"] if battle["battle_type"] == "battle_royale" else []
        )
        return self.do(
            "DWReportBattle", "actor=ref", f"battle_id=b{number}",
            "results.1.fleet_id=prussia", "results.1.victory_points=400",
            "results.1.squadrons.1.squadron_id=cruisers",
            "results.1.squadrons.1.kills.1.vessel_class=small",
            "results.2.fleet_id=fsa", "results.2.victory_points=100",
            "results.2.squadrons.1.squadron_id=dread",
            *choice,
        )  # fmt: skip


def test_a_campaign_played_to_its_victory_with_typed_commands_only(tmp_path: Path) -> None:
    # L16-L24 'Victory Conditions': the first fleet that "Conquers 11 Territories" or "Whose
    # Commodore attains 21 Experience Points".
    assert LINES[19].endswith("Conquers 11 Territories")
    assert LINES[23].endswith("Whose Commodore attains 21 Experience Points")
    game = Campaign(tmp_path)
    for number in range(1, 12):
        out = game.battle(number)
        assert "battle b" in out and "prussia wins" in out
        if game.state().get("winner"):
            break
    state = game.state()
    # Five battles won, five territories taken: the 11th ends the campaign.
    assert number == 5
    assert (state["winner"], state["win_condition"]) == ("prussia", "territories")
    assert len(game.held("prussia")) == 11
    report = mekref("game", "report", "--db", game.db).stdout
    assert "won by prussia (territories)" in report
