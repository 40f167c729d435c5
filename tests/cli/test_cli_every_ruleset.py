"""Every rule set played through the installed ``mekref`` console script, in fresh processes.

For each of the five rule sets: ``game start``, three ``game do`` and ``game state --json``,
from the JSON command files in ``data/scripts/<rule set>/``. The state hash at the end is
pinned in ``data/scripts/expected-hashes.json`` (a change to a rule set's decisions or state
shows up here) and must equal the hash of the same commands folded in this process, so the CLI
and the kernel cannot drift apart.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from console_script import mekref_fresh as mekref  # each rule set loaded by the entry point itself

from mekref.rules.registry import RULESET_NAMES, ruleset

SCRIPTS = Path(__file__).parent / "data" / "scripts"
EXPECTED: dict[str, str] = json.loads((SCRIPTS / "expected-hashes.json").read_text())


def _files(name: str) -> tuple[Path, list[Path]]:
    folder = SCRIPTS / name
    start = next(folder.glob("start-*.json"))
    steps = sorted(p for p in folder.glob("*.json") if not p.name.startswith("start-"))
    return start, steps


def _kernel_hash(name: str) -> str:
    game = ruleset(name)
    start, steps = _files(name)
    state = game.initial_state()
    for path in (start, *steps):
        _, state = game.execute(state, game.commands.from_json(json.loads(path.read_text())))
    return game.state_hash(state)


def test_every_rule_set_has_a_script() -> None:
    assert sorted(EXPECTED) == sorted(RULESET_NAMES)


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_a_rule_set_is_played_through_the_console_script(tmp_path: Path, name: str) -> None:
    db = str(tmp_path / "c.db")
    start, steps = _files(name)
    assert len(steps) >= 3
    began = mekref("game", "start", "--db", db, "--ruleset", name, "--name", name, str(start),
                   "--json")  # fmt: skip
    assert began.returncode == 0, began.stderr
    campaign = json.loads(began.stdout)["campaign_id"]
    last = 0
    for step in steps:
        done = mekref("game", "do", "--db", db, "--campaign", campaign, str(step), "--json")
        assert done.returncode == 0, f"{step.name}: {done.stderr}"
        out = json.loads(done.stdout)
        assert out["events"] and out["first_seq"] > last, step.name
        last = out["last_seq"]
    shown = mekref("game", "state", "--db", db, "--campaign", campaign, "--json")
    assert shown.returncode == 0, shown.stderr
    state = json.loads(shown.stdout)
    assert (state["ruleset"], state["last_seq"]) == (name, last)
    assert state["state_hash"] == EXPECTED[name] == _kernel_hash(name)
    listed = mekref("game", "list", "--db", db, "--json")
    assert [c["id"] for c in json.loads(listed.stdout)] == [campaign]


def test_a_command_of_another_rule_set_is_refused_by_name(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    start, _ = _files("objectives")
    began = mekref("game", "start", "--db", db, "--ruleset", "objectives", "--name", "Hill",
                   str(start), "--json")  # fmt: skip
    campaign = json.loads(began.stdout)["campaign_id"]
    foreign = next((SCRIPTS / "succession_wars").glob("01-*.json"))
    done = mekref("game", "do", "--db", db, "--campaign", campaign, str(foreign))
    assert done.returncode == 2
    assert "has no command 'SWEndPhase'" in done.stderr
    assert "mekref game commands --ruleset objectives" in done.stderr
