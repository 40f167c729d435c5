"""``mekref game example``: every rule set's example start works as printed, and so does its
follow-up; the Succession Wars example places every free set-up piece."""

from __future__ import annotations

import json
import subprocess
from importlib import resources
from pathlib import Path

import pytest
from console_script import mekref

from mekref.rules.registry import RULESET_NAMES
from mekref.rules.succession_wars.start import free_setup_pieces


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_the_example_start_and_its_follow_up_are_accepted(tmp_path: Path, name: str) -> None:
    db, start, follow = str(tmp_path / "c.db"), tmp_path / "start.json", tmp_path / "next.json"
    wrote = mekref("game", "example", "--ruleset", name, "--out", str(start))
    assert wrote.returncode == 0, wrote.stderr
    assert str(start) in wrote.stderr
    printed = mekref("game", "example", "--ruleset", name)
    assert json.loads(printed.stdout) == json.loads(start.read_text())
    follow.write_text(mekref("game", "example", "--ruleset", name, "--next").stdout)
    began = mekref("game", "start", "--db", db, "--ruleset", name, "--name", "ex", str(start),
                   "--json")  # fmt: skip
    assert began.returncode == 0, began.stderr
    campaign = json.loads(began.stdout)["campaign_id"]
    done = mekref("game", "do", "--db", db, "--campaign", campaign, str(follow), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["events"]


def test_the_succession_wars_example_places_every_free_piece(tmp_path: Path) -> None:
    printed = mekref("game", "example", "--ruleset", "succession_wars")
    command = json.loads(printed.stdout)
    placed = [p["piece"] for p in command["placements"]]
    assert sorted(placed) == sorted(free_setup_pieces()) and len(placed) == 93
    players = dict(command["players"])
    assert set(players.values()) == {"Player 1", "Player 2"}  # the rule book's two-player split
    db = str(tmp_path / "c.db")
    began = mekref("game", "start", "--db", db, "--ruleset", "succession_wars", "--name", "w",
                   "-", "--json", stdin=printed.stdout)  # fmt: skip
    assert began.returncode == 0, began.stderr
    state = json.loads(mekref("game", "state", "--db", db, "--campaign", "w", "--json").stdout)
    pieces = {**state["state"]["units"], **state["state"]["jumpships"]}
    assert {p["piece"]: p["region"] for p in command["placements"]} == {
        piece: pieces[piece]["region"] for piece in placed
    }


def test_an_unwritable_out_file_is_a_one_line_error(tmp_path: Path) -> None:
    done = mekref("game", "example", "--ruleset", "objectives", "--out",
                  str(tmp_path / "no" / "such" / "dir.json"))  # fmt: skip
    assert done.returncode != 0
    assert "cannot write" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def _start_with(
    tmp_path: Path, command: dict[str, object], *extra: str
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "start.json"
    path.write_text(json.dumps(command))
    return mekref("game", "start", "--db", str(tmp_path / "c.db"), "--ruleset",
                  "succession_wars", "--name", "w", *extra, str(path), "--json")  # fmt: skip


def test_a_board_is_taken_from_a_toml_file_beside_the_command(tmp_path: Path) -> None:
    command = json.loads(mekref("game", "example", "--ruleset", "succession_wars").stdout)
    assert command["map"] == "sample"  # the bundled board, by name
    sample = resources.files("mekref.rules.succession_wars.maps").joinpath("sample.toml")
    (tmp_path / "board.toml").write_text(
        sample.read_text(encoding="utf-8").replace('name = "sample"', 'name = "our board"')
    )
    began = _start_with(tmp_path, {**command, "map": "board.toml"})
    assert began.returncode == 0, began.stderr
    state = json.loads(mekref("game", "state", "--db", str(tmp_path / "c.db"), "--campaign",
                              "w", "--json").stdout)  # fmt: skip
    assert state["state"]["map"]["name"] == "our board"


def test_map_option_reads_a_toml_file_and_says_what_it_replaces(tmp_path: Path) -> None:
    command = json.loads(mekref("game", "example", "--ruleset", "succession_wars").stdout)
    sample = resources.files("mekref.rules.succession_wars.maps").joinpath("sample.toml")
    board = tmp_path / "elsewhere.toml"
    board.write_text(sample.read_text(encoding="utf-8"))
    began = _start_with(tmp_path, command, "--map", str(board))
    assert began.returncode == 0, began.stderr
    assert f"--map {board} replaces the map given in" in began.stderr


def test_a_bad_board_is_a_one_line_error_naming_it(tmp_path: Path) -> None:
    command = json.loads(mekref("game", "example", "--ruleset", "succession_wars").stdout)
    unknown = _start_with(tmp_path, {**command, "map": "atlas"})
    assert unknown.returncode == 2
    assert "'atlas' is neither a bundled map (sample)" in unknown.stderr
    (tmp_path / "bad.toml").write_text("[map]\nname = 'x'\n[[region]]\nname = 'A'\n")
    bad = _start_with(tmp_path, {**command, "map": "bad.toml"})
    assert bad.returncode == 2 and "not a Succession Wars map" in bad.stderr, bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    other = mekref("game", "start", "--db", str(tmp_path / "o.db"), "--ruleset", "objectives",
                   "--name", "o", "--map", "x.toml", "-", stdin='{"actor": "ref"}')  # fmt: skip
    assert other.returncode == 2 and "--map is for succession_wars" in other.stderr


def test_game_do_prints_outcomes_in_words(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    for name, expected in (
        ("objectives", 'red places objective hill at 12", 12" (open)'),
        ("succession_wars", "begins the spend phase"),
    ):
        start = mekref("game", "example", "--ruleset", name).stdout
        began = mekref("game", "start", "--db", db, "--ruleset", name, "--name", name, "-",
                       stdin=start)  # fmt: skip
        assert began.returncode == 0, began.stderr
        follow = mekref("game", "example", "--ruleset", name, "--next").stdout
        done = mekref("game", "do", "--db", db, "--campaign", name, "-", stdin=follow)
        assert done.returncode == 0, done.stderr
        assert expected in done.stdout, done.stdout
        assert "=" not in done.stdout.split("state-hash")[0]  # no field dump


def test_dystopian_wars_and_house_rules_outcomes_read_as_words(tmp_path: Path) -> None:
    scripts = Path(__file__).parent / "data" / "scripts"
    db = str(tmp_path / "c.db")
    expected = {
        "dystopian_wars": [
            "battle first: brit against sun, skirmish_royale of 900 points (size die 3); "
            "strategy brit 5+0=5, sun 2+0=2: brit stakes first",
            "battle first: brit stakes airbase-1 against airbase-2",
            "battle first: brit wins, achieved its Field Order (3-1 VP)",
            "brit takes territory airbase-2 from sun",
            "brit commodore XP +2 = 2 (win_skirmish_royale)",
            "sun commodore XP +0 = 0\n",
        ],
        "house_rules": ["pilot Kai (kai) joins with 32 XP"],
    }
    for name, lines in expected.items():
        start = next((scripts / name).glob("start-*.json"))
        began = mekref("game", "start", "--db", db, "--ruleset", name, "--name", name, str(start))
        assert began.returncode == 0, began.stderr
        out = ""
        for step in sorted((scripts / name).glob("0*.json")):
            done = mekref("game", "do", "--db", db, "--campaign", name, str(step))
            assert done.returncode == 0, done.stderr
            out += done.stdout
        for line in lines:
            assert line in out, out
