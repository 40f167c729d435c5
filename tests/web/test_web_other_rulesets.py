"""The page of a campaign under another rule set, built from its command schemas, through the
installed ``mekref serve --web``: the Objectives scripted game (tests/cli/data/scripts)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from console_script import mekref, mekref_fresh
from web_helpers import Campaign, Page, Served, serve, stop

SCRIPT = Path(__file__).parents[1] / "cli" / "data" / "scripts" / "objectives"


@pytest.fixture
def objectives(tmp_path: Path) -> Iterator[tuple[Campaign, Served]]:
    db = str(tmp_path / "o.db")
    began = mekref("game", "start", "--db", db, "--ruleset", "objectives", "--name", "Hill",
                   str(SCRIPT / "start-OBJSetUpScenario.json"), "--json")  # fmt: skip
    assert began.returncode == 0, began.stderr
    cid = json.loads(began.stdout)["campaign_id"]
    done = mekref(
        "game", "do", "--db", db, "--campaign", cid, str(SCRIPT / "01-OBJStartRound.json")
    )
    assert done.returncode == 0, done.stderr
    tokens = {}
    for side in ("red", "blue"):
        made = mekref("token", "create", "--db", db, "--campaign", cid, "--side", side)
        assert made.returncode == 0, made.stderr
        tokens[side] = made.stdout.strip()
    running = serve(Campaign(db, cid, tokens))
    try:
        yield Campaign(db, cid, tokens), running
    finally:
        assert stop(running) == 0


def test_a_side_gives_the_rule_sets_commands_from_its_page(
    objectives: tuple[Campaign, Served],
) -> None:
    campaign, running = objectives
    cid = campaign.cid
    red = Page(running.url)
    red.log_in(campaign.tokens["red"])
    assert red.last.url.path == f"/c/{cid}"
    assert 'id="command-OBJClaim"' in red.last.text and "What red sees" in red.last.text
    claim = {"type": "OBJClaim", "f.objective_id": "hill", "f.squad_id": "red-tank",
             "f.enemies_qualify": "false"}  # fmt: skip
    blue = Page(running.url)
    blue.log_in(campaign.tokens["blue"])
    blue.post(f"/c/{cid}/command", claim)
    # Blue may claim, with its own squad: the refusal says whose command this one is not.
    assert blue.flashes() == [("refused", "OBJClaim: OBJClaim as given is not a command your "
                               "side gives (this token acts for blue): it is the referee's or "
                               "another side's")]  # fmt: skip
    # A field left empty: the refusal is about the form's values, in the rule set's words,
    # never about the request field (command_json) the page filled in.
    red.post(f"/c/{cid}/command", {**claim, "f.squad_id": ""})
    ((kind, line),) = red.flashes()
    assert kind == "refused" and "command_json" not in line, line
    assert line.startswith("OBJClaim: the form's values were refused: not an objectives command: ")
    assert "squad_id" in line, line
    red.post(f"/c/{cid}/command", claim)
    said = red.flashes()
    assert said and all(kind == "ok" for kind, _ in said), said


def test_a_bad_web_address_is_refused_with_what_to_write(tmp_path: Path) -> None:
    ran = mekref_fresh("serve", "--db", str(tmp_path / "none.db"), "--create", "--web", "8080")
    assert ran.returncode == 2
    assert "--web '8080': no port; write HOST:PORT" in ran.stderr
