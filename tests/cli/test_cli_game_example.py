"""``mekref game example``: every rule set's example start works as printed, and so does its
follow-up; the Succession Wars example places every free set-up piece."""

from __future__ import annotations

import json
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
