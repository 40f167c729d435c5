"""The Succession Wars with typed commands only, through the installed console script (issue
29): a three-player game (L13: "one player can take both Houses Davion and Steiner, one can take
both Houses Marik and Liao, and the third player can take House Kurita") started with typed
words, no JSON file, and its first phases played with House names in any case."""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref

from mekref.daemon.succession_wars.examples import sw_placements
from mekref.rules.succession_wars.data import sample_map

LINES = (Path(__file__).parent / "data" / "succession_wars.txt").read_text("utf-8").splitlines()
PLAYERS = (("Davion", "Ann"), ("Steiner", "Ann"), ("Marik", "Bo"), ("Liao", "Bo"),
           ("Kurita", "Cy"))  # fmt: skip


def _start_words() -> list[str]:
    words = ["swstartcampaign", "actor=referee", "seed=typed-three", "map=sample"]
    for i, (house, player) in enumerate(PLAYERS, start=1):
        words += [f"players.{i}.1={house}", f"players.{i}.2={player}"]
    for i, p in enumerate(sw_placements(sample_map()), start=1):
        words += [f"placements.{i}.piece={p.piece}", f"placements.{i}.region={p.region}"]
    return words


def test_a_three_player_game_started_and_played_with_typed_commands(tmp_path: Path) -> None:
    assert (
        "If three people are playing, one player can take both Houses Davion and Steiner"
        in (LINES[12])
    )
    db = str(tmp_path / "sw.db")
    began = mekref("game", "start", "--db", db, "--ruleset", "succession_wars", "--name", "Three",
                   *_start_words())  # fmt: skip
    assert began.returncode == 0, began.stderr
    state = json.loads(mekref("game", "state", "--db", db, "--json").stdout)["state"]
    assert {h: v["player"] for h, v in state["houses"].items()} == dict(PLAYERS)
    house = state["active"]  # the House whose turn it is, as the dice ordered them
    script = tmp_path / "typed.txt"
    script.write_text(
        f"swendphase actor={house} house={house.lower()}\n"
        f"SWEndPhase actor={house} HOUSE={house.upper()}\n",
        encoding="utf-8",
    )
    done = mekref("game", "do", "--db", db, "--script", str(script))
    assert done.returncode == 0, done.stderr
    assert f"line 1: SWEndPhase by {house}" in done.stdout
    listed = mekref("game", "commands", "--ruleset", "succession_wars", "--type", "SWAttack",
                    "--db", db, "--campaign", "Three").stdout  # fmt: skip
    assert '"New Avalon"' in listed and '"Tharkad"' in listed
    refused = mekref("game", "do", "--db", db, "SWBuildCenter", f"actor={house}",
                     f"house={house}", "region=Atlantis")  # fmt: skip
    assert refused.returncode == 2
    assert "SWBuildCenter region='Atlantis' is none of: " in refused.stderr
