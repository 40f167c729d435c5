"""Command scripts (``mekref game do --script``) and the bundled demo games, through the installed
console script: one process per step (start, the whole script, state, report), never one per
command.

Each rule set's demo is played from its bundled start command to the end its rule text names,
and the end is read back from ``game state --json`` and ``game report --json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref
from demo_games import EXAMPLES, GAMES, texts

REFUSED = 3
USAGE = 2


def _json(*args: str) -> Any:
    done = mekref(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _play(tmp_path: Path, name: str) -> tuple[str, str]:
    """``game start`` with the bundled demo start, then ``game do --script`` with its script;
    returns the store and the script's output in words."""
    db = str(tmp_path / f"{name}.db")
    start = mekref(
        "game", "start", "--db", db, "--ruleset", name, "--name", "Demo",
        str(EXAMPLES / f"{name}-demo-start.json"),
    )  # fmt: skip
    assert start.returncode == 0, start.stderr
    played = mekref(
        "game", "do", "--db", db, "--campaign", "Demo", "--script",
        str(EXAMPLES / f"{name}-demo.jsonl"),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    return db, played.stdout


def _report(db: str) -> dict[str, list[str]]:
    report = _json("game", "report", "--db", db)
    return {s["title"]: s["lines"] for s in report["sections"]}


def test_dystopian_wars_demo_is_played_to_the_territory_win(tmp_path: Path) -> None:
    """003 L16-L20: "Victory will go to the first fleet which; · Conquers 11 Territories OR
    · Whose Commodore attains 21 Experience Points". Britannia wins by the territories."""
    db, words = _play(tmp_path, "dystopian_wars")
    assert "battle b1: brit wins, achieved its Field Order" in words
    # The script ends with the battle that wins the campaign.
    assert words.rstrip().splitlines()[-2] == "  brit wins the campaign holding the territories"
    state = _json("game", "state", "--db", db)["state"]
    assert (state["winner"], state["win_condition"]) == ("brit", "territories")
    held = [t for t in state["territories"].values() if t["holder"] == "brit"]
    assert len(held) == 11
    assert state["fleets"]["brit"]["commodore"]["xp"] < 21  # not the Commodore's win
    report = _report(db)
    assert "won by brit (territories)" in report["campaign"]
    assert any(line.startswith("brit (Kingdom of Britannia") and "11 territories" in line
               for line in report["fleets"])  # fmt: skip


def test_objectives_demo_is_played_to_the_end_of_its_scenario(tmp_path: Path) -> None:
    """004 L1: "something that your army will generally need to discover, capture, or extract
    from the combat zone in order to win the game"; L31: "some scenarios will even call for
    Objectives to be extracted from the board". The text sets no end of its own: the demo
    scenario ends in round 6 with red extracting the crate (docs/objectives.md)."""
    db, words = _play(tmp_path, "objectives")
    assert "round 4: red-bunker searches vault" in words
    assert words.rstrip().splitlines()[-2] == "  red-tank (red) extracts objective crate"
    state = _json("game", "state", "--db", db)["state"]
    assert state["round"] == 6
    crate = state["objectives"]["crate"]
    assert (crate["status"], crate["claimed_by"]) == ("extracted", "red")
    assert state["squads"]["blue-tank"]["destroyed"]
    report = _report(db)
    assert report["scenario"] == [
        "round 6",
        "claimed: red 2, blue 2",
        "held at round 6: red crate (extracted), vault; blue cache, hill",
        "winner on objectives: none (blue and red hold 2 each)",
    ]
    assert "crate (mobile): extracted, claimed by red" in report["objectives"]


def test_succession_wars_demo_two_players_five_houses_to_victory(tmp_path: Path) -> None:
    """001 L15: "The first player to control four of the five House capitals wins the game."
    L13: the five Houses split between two players (Ann: Davion and Steiner; Bo: Kurita, Marik
    and Liao). Bo takes New Avalon in round 2 and holds four capitals."""
    db, words = _play(tmp_path, "succession_wars")
    assert "Liao takes New Avalon from Davion" in words
    assert "Bo wins, holding New Avalon, Sian, Atreus, Luthien" in words
    state = _json("game", "state", "--db", db)["state"]
    assert (state["winner"], state["phase"], state["round"]) == ("Bo", "over", 2)
    players = {house: h["player"] for house, h in state["houses"].items()}
    assert players == {"Davion": "Ann", "Steiner": "Ann", "Kurita": "Bo", "Marik": "Bo",
                       "Liao": "Bo"}  # fmt: skip
    assert state["regions"]["New Avalon"]["controller"] == "Liao"
    report = _report(db)
    assert "won by Bo" in report["game"]


def test_a_script_stops_at_its_first_refusal_and_goes_on_with_from(tmp_path: Path) -> None:
    db = str(tmp_path / "obj.db")
    assert mekref("game", "start", "--db", db, "--ruleset", "objectives", "--name", "Raid",
                  str(EXAMPLES / "objectives-demo-start.json")).returncode == 0  # fmt: skip
    script = tmp_path / "raid.jsonl"
    script.write_text(
        "# round 1 of the raid\n"
        '{"type": "OBJStartRound", "actor": "ref", "round": 1}\n'
        "\n"
        '{"type": "OBJClaim", "objective_id": "hill", "squad_id": "red-tank"}\n'
        # OBJ-9 (004 L21): a search takes both actions of the round; a second one is refused.
        '{"type": "OBJSearch", "actor": "red", "objective_id": "vault", "squad_id": "red-bunker"}\n'
        '{"type": "OBJSearch", "actor": "red", "objective_id": "vault", "squad_id": "red-bunker"}\n'
        '{"type": "OBJStartRound", "actor": "ref", "round": 2}\n',
        encoding="utf-8",
    )
    first = mekref("game", "do", "--db", db, "--script", str(script), "--actor", "red")
    assert first.returncode == REFUSED
    assert "line 2: OBJStartRound by ref (event " in first.stdout
    assert "line 4: OBJClaim by red" in first.stdout  # --actor filled the line in
    assert "line 5: OBJSearch by red" in first.stdout
    assert "line 6" not in first.stdout
    assert f"{script}:6: OBJSearch by red refused:" in first.stderr
    assert "lines 2-5 applied; fix line 6 and go on with --from 6" in first.stderr
    again = mekref("game", "do", "--db", db, "--script", str(script), "--from", "6", "--json")
    assert again.returncode == REFUSED
    stopped = json.loads(again.stdout)
    assert stopped["commands"] == []
    assert (stopped["refused"]["line"], stopped["refused"]["type"]) == (6, "OBJSearch")
    assert stopped["refused"]["code"] and stopped["refused"]["refusal"]
    assert "nothing applied; fix line 6" in again.stderr
    # The group drops the second search and goes on after it.
    resumed = _json("game", "do", "--db", db, "--script", str(script), "--from", "7")
    assert resumed["refused"] is None
    assert [(c["line"], c["type"]) for c in resumed["commands"]] == [(7, "OBJStartRound")]
    assert resumed["commands"][0]["events"][0]["outcome"] == "round 2 begins"
    assert _json("game", "state", "--db", db)["state"]["round"] == 2


def test_a_script_is_checked_whole_before_its_first_command_runs(tmp_path: Path) -> None:
    db = str(tmp_path / "obj.db")
    assert mekref("game", "start", "--db", db, "--ruleset", "objectives", "--name", "Raid",
                  str(EXAMPLES / "objectives-demo-start.json")).returncode == 0  # fmt: skip
    script = tmp_path / "typo.jsonl"
    good = '{"type": "OBJStartRound", "actor": "ref", "round": 1}\n'
    for bad, said in (
        ('{"type": "OBJStartRound", "actor": "ref", "round": 2\n', ":2:"),
        (
            '{"type": "OBJSearch", "actor": "red", "objective": "vault"}\n',
            ":2: OBJSearch has no field 'objective'",
        ),
    ):
        script.write_text(good + bad, encoding="utf-8")
        done = mekref("game", "do", "--db", db, "--script", str(script))
        assert done.returncode == USAGE, done.stderr
        assert f"{script}{said}" in done.stderr
    state = _json("game", "state", "--db", db)
    assert state["state"]["round"] == 0 and state["last_seq"] == 1  # line 1 never ran


def test_game_demo_plays_a_bundled_game_and_keeps_it_with_out(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    done = mekref("game", "demo", "--ruleset", "objectives", "--out", str(out))
    assert done.returncode == 0, done.stderr
    steps = [line for line in done.stdout.splitlines() if line.startswith("$ mekref game ")]
    assert [s.split()[3] for s in steps] == ["start", "do", "report"]
    assert "red-tank (red) extracts objective crate" in done.stdout
    assert done.stdout.rstrip().endswith("red-wing (red)")  # the report's last squad
    for name in ("objectives-demo-start.json", "objectives-demo.jsonl", "objectives-demo.db"):
        assert (out / name).is_file()
    again = mekref("game", "demo", "--ruleset", "objectives", "--out", str(out))
    assert again.returncode == USAGE and "already holds a demo" in again.stderr


def test_game_demo_without_out_shows_no_throw_away_path() -> None:
    """Issue 32: "no absolute paths in output". The throw-away folder is gone when the demo
    ends, so its commands are shown, and run, with the files' own names."""
    done = mekref("game", "demo", "--ruleset", "objectives")
    assert done.returncode == 0, done.stderr
    steps = [line for line in done.stdout.splitlines() if line.startswith("$ mekref game ")]
    assert steps[1] == "$ mekref game do --db objectives-demo.db --script objectives-demo.jsonl"
    assert "--out DIR keeps" in done.stdout
    assert "mekref-demo-" not in done.stdout + done.stderr


@pytest.mark.parametrize("name", sorted(GAMES))
def test_bundled_demos_are_the_python_scripted_games(name: str) -> None:
    """The bundled files are what tests/cli/demo_games.py writes from the rule sets' scripted
    test games: rerun it after changing one of those games."""
    for filename, text in texts(name).items():
        assert (EXAMPLES / filename).read_text(encoding="utf-8") == text, filename
