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
