"""The objective tracker's action count, through the installed console script.

L21 "may make a special search action, counting as both of their actions for the round."
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref

SCRIPT = Path(__file__).parent / "data" / "scripts" / "objectives"


def _do(db: str, campaign: str, tmp_path: Path, command: dict[str, object]) -> tuple[int, str]:
    path = tmp_path / f"{command['type']}-{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps(command))
    done = mekref("game", "do", "--db", db, "--campaign", campaign, str(path))
    return done.returncode, done.stdout + done.stderr


def test_a_second_search_in_one_round_is_refused_quoting_the_rule(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    start = next(SCRIPT.glob("start-*.json"))
    began = mekref("game", "start", "--db", db, "--ruleset", "objectives", "--name", "Hill",
                   str(start), "--json")  # fmt: skip
    assert began.returncode == 0, began.stderr
    campaign = json.loads(began.stdout)["campaign_id"]
    commands = tmp_path / "commands"
    commands.mkdir()
    code, _ = _do(db, campaign, commands, {"type": "OBJStartRound", "actor": "ref", "round": 1})
    assert code == 0
    # Enemies near in round 1: d6 - 1 + 1 cannot reach 7, so the cache stays hidden (L23).
    search = {"type": "OBJSearch", "actor": "red", "objective_id": "cache",
              "squad_id": "red-inf", "enemies_near": True}  # fmt: skip
    code, out = _do(db, campaign, commands, search)
    assert code == 0, out
    code, out = _do(db, campaign, commands, search)
    assert code != 0
    assert "has used 2 of its 2 actions in round 1" in out
    assert "counting as both of their actions for the round" in out


def test_positions_written_as_plain_numbers_are_exact_and_checked(tmp_path: Path) -> None:
    # L7 "at least 6\" away from any board edge or from each other": 12.5" from the left edge
    # is fine, 44.5" on a 48" table is 3.5" from the far edge.
    start = {
        "type": "OBJSetUpScenario", "actor": "ref", "seed": "s", "sides": ["red", "blue"],
        "table_width": 48, "table_depth": 36.0,
        "objectives": [{"objective_id": "a", "position": {"x": 12.5, "y": 18}},
                       {"objective_id": "b", "position": {"x": 44.5, "y": "18"}}],
    }  # fmt: skip
    path = tmp_path / "start.json"
    path.write_text(json.dumps(start))
    db = str(tmp_path / "c.db")
    began = mekref("game", "start", "--db", db, "--ruleset", "objectives", "--name", "Edge",
                   str(path))  # fmt: skip
    assert began.returncode != 0
    assert "objective 'b' is within 6\" of an edge" in began.stderr + began.stdout


def _fields(db: str, *args: str) -> tuple[int, str]:
    done = mekref("game", "do", "--db", db, "--campaign", "Hill", *args)
    return done.returncode, done.stdout + done.stderr


def test_players_place_in_turn_with_positions_on_the_command_line(tmp_path: Path) -> None:
    # L7 "Unless otherwise stated, players take turns to place Objectives. ... at least 6"
    # away from any board edge or from each other." The example: red first, on 48" by 48".
    db = str(tmp_path / "c.db")
    start = mekref("game", "example", "--ruleset", "objectives").stdout
    began = mekref("game", "start", "--db", db, "--ruleset", "objectives", "--name", "Hill", "-",
                   stdin=start)  # fmt: skip
    assert began.returncode == 0, began.stderr
    assert "the players place objectives in turn: red, blue" in began.stdout
    place = ("--type", "OBJPlaceObjective", "--field")
    code, out = _fields(db, *place, "side=blue", "--actor", "blue", "--field",
                        "objective_id=hill", "--position", "12,12")  # fmt: skip
    assert code != 0 and "it is red's turn to place an objective, not blue's" in out
    assert "players take turns to place Objectives" in out
    code, out = _fields(db, "--type", "OBJStartRound", "--actor", "ref", "--field", "round=1")
    assert code != 0 and "objectives cache, crate, hill are still to be placed" in out
    code, out = _fields(db, *place, "side=red", "--actor", "red", "--field",
                        "objective_id=hill", "--position", "12,12")  # fmt: skip
    assert code == 0 and 'red places objective hill at 12", 12" (open)' in out, out
    code, out = _fields(db, *place, "side=blue", "--actor", "blue", "--field",
                        "objective_id=crate", "--position", "12,44.5")  # fmt: skip
    assert code != 0 and "objective 'crate' is within 6\" of an edge" in out
    code, out = _fields(db, *place, "side=blue", "--actor", "blue", "--field",
                        "objective_id=crate", "--position", "30,12")  # fmt: skip
    assert code == 0, out
    code, out = _fields(db, *place, "side=red", "--actor", "red", "--field",
                        "objective_id=cache", "--position", "73/2,36")  # fmt: skip
    assert code == 0 and 'red places objective cache at 36.5", 36" (hidden)' in out, out
    code, out = _fields(db, "--type", "OBJStartRound", "--actor", "ref", "--field", "round=1")
    assert code == 0 and "round 1 begins" in out
    report = mekref("game", "report", "--db", db, "--campaign", "Hill").stdout
    assert 'cache (hidden mobile): on table, at 36.5", 36"' in report


def test_a_destroyed_garrison_is_recorded_and_reported(tmp_path: Path) -> None:
    # L7 "If an Objective that isn't being carried is in a Garrison that is destroyed, the
    # Objective is removed from the game." (ruling OBJ-13)
    db = str(tmp_path / "c.db")
    start = next(SCRIPT.glob("start-*.json"))
    began = mekref("game", "start", "--db", db, "--ruleset", "objectives", "--name", "Hill",
                   str(start))  # fmt: skip
    assert began.returncode == 0, began.stderr
    destroy = ("--type", "OBJDestroyGarrison", "--actor", "ref", "--field", "garrison=bunker")
    code, out = _fields(db, *destroy)
    assert code == 0 and "objective vault is removed with garrison bunker" in out
    assert "squads blue-bunker, red-bunker stand outside it" in out
    code, out = _fields(db, *destroy)
    assert code != 0 and "Garrison 'bunker' is already destroyed" in out
    code, out = _fields(db, "--type", "OBJMoveSquad", "--actor", "red", "--field",
                        "squad_id=red-inf", "--field", "garrison=bunker")  # fmt: skip
    assert code != 0 and "Garrison 'bunker' has been destroyed" in out
    report = mekref("game", "report", "--db", db, "--campaign", "Hill").stdout
    assert "destroyed garrisons: bunker" in report


def test_a_set_up_without_a_table_size_says_the_far_edges_were_not_checked(
    tmp_path: Path,
) -> None:
    # Ruling OBJ-11: never a silent pass of L7's 6" rule.
    start = {"type": "OBJSetUpScenario", "actor": "ref", "seed": "s", "sides": ["red", "blue"],
             "objectives": [{"objective_id": "a", "position": {"x": 12, "y": 18}}]}  # fmt: skip
    began = mekref("game", "start", "--db", str(tmp_path / "c.db"), "--ruleset", "objectives",
                   "--name", "Edge", "-", stdin=json.dumps(start))  # fmt: skip
    assert began.returncode == 0, began.stderr
    assert 'warning: the 6" far-edge check was not made for a (no table size given)' in (
        began.stdout
    )


def test_a_malformed_position_or_field_is_a_one_line_error(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    for args, words in (
        (("--position", "12"), "write X,Y in inches"),
        (("--position", "a,b"), "X and Y are numbers of inches"),
        (("--field", "round"), "write NAME=VALUE"),
    ):
        done = mekref("game", "do", "--db", db, "--campaign", "x", "--type", "OBJStartRound",
                      "--actor", "ref", *args)  # fmt: skip
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    neither = mekref("game", "do", "--db", db, "--campaign", "x")
    assert neither.returncode == 2 and "--type TYPE" in neither.stderr
