"""``--json`` on the commands that print data, through the installed console script: each
prints one JSON document on stdout that a script can use as it is."""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref

REPLAY = Path(__file__).resolve().parents[2] / "daemon" / "samples" / "replay"


def _json(*argv: str) -> object:
    done = mekref(*argv, "--json")
    assert done.returncode == 0, (argv, done.stderr)
    return json.loads(done.stdout)


def test_campaign_battle_orders_and_token_json(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    made = _json("campaign", "new", "--db", db, "--name", "J", "--seed", "5")
    assert isinstance(made, dict) and made["name"] == "J" and made["seed"] == "5"
    assert [s["id"] for s in made["sides"]] == ["loyalists", "federalists"]
    assert _json("battle", "pending", "--db", db) == []
    orders = _json("orders", "list", "--db", db, "--side", "loyalists")
    assert orders == {"side": "loyalists", "day": 0, "orders": []}
    token = _json("token", "create", "--db", db, "--side", "loyalists", "--label", "bot")
    assert isinstance(token, dict) and token["token"].startswith("mkr_")
    assert token["campaign_id"] == made["campaign_id"] and token["role"] == "side"
    listed = _json("token", "list", "--db", db)
    assert isinstance(listed, list)
    assert [(t["token_id"], t["side_id"], t["revoked_at"]) for t in listed] == [
        (token["token_id"], "loyalists", None)
    ]


def test_replay_json_carries_the_state_hash() -> None:
    found = _json("replay", str(REPLAY), "--ruleset", "tripwire", "--seed", "7")
    assert isinstance(found, dict) and found["all_applied"] is True
    assert found["state_hash"] == (
        "14b5414521547c4111eeaeb478029ec4eb6d4e6a20f872cdfdd6b617ec9631c2"
    )
    assert all(f["outcome"] == "applied" for f in found["files"])
