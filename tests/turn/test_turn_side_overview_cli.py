"""``mekref report --overview --side`` through the installed console script (ruling T-V3).

The Ginestra sample, day 1: the rebels' Bravo lands on the loyalists' Alpha guarding the
Facility (hex 1105). The rebels' page shows their own formations and pool, Alpha only as they
sighted it, the engagement with their own formations only, and both sides' VP (L414: "Once a
force reaches 10 Victory Points the campaign is over and the player with the most victory
points wins."). The loyalist formations the rebels never sighted appear nowhere on it; the
side view (``mekref game state --side``) is the reference of what the rebels may know.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref
from ginestra_cli import day_zero, ok


def _day_one(tmp_path: Path) -> str:
    db = day_zero(tmp_path)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    return db


def _json(*args: str) -> Any:
    return json.loads(ok(*args, "--json"))


def test_report_overview_side_keeps_the_fog(tmp_path: Path) -> None:
    db = _day_one(tmp_path)
    whole = _json("report", "--db", db, "--overview")["overview"]
    owner = {f["formation_id"]: f["side_id"] for f in whole["formations"]}
    for side in ("rebel", "loyalist"):
        view = _json("game", "state", "--db", db, "--side", side)["state"]
        cut = _json("report", "--db", db, "--overview", "--side", side)["overview"]
        assert cut["side_id"] == side
        own = [f["formation_id"] for f in view["formations"]]
        assert [f["formation_id"] for f in cut["formations"]] == own
        assert cut["sightings"] == view["sightings"]
        sighted = {x["formation_id"] for x in view["sightings"]}
        hidden = {f for f, who in owner.items() if who != side} - sighted
        assert hidden, "the sample must leave some enemy formation unsighted"
        text = json.dumps(cut)
        assert not any(f'"{f}"' in text for f in hidden)
        (e,) = cut["engagements"]
        assert e["formations"] and all(owner[f] == side for f in e["formations"])
        assert {p["side_id"] for p in cut["pools"]} == {side}
        # L414: every side's VP; the enemy's BV stays unset.
        assert {x["side_id"] for x in cut["standings"]} == {"loyalist", "rebel"}
        enemy = next(x for x in cut["standings"] if x["side_id"] != side)
        assert enemy["starting_bv"] is None and enemy["units_without_bv"] is None
        # The page in words says the same and names no hidden formation.
        page = " ".join(ok("report", "--db", db, "--overview", "--side", side).split())
        assert f"{side}'s overview" in page
        assert "day1-1105-1: assault in 1105, loyalist, rebel; open; own formations" in page
        assert all(f in page for f in own)
        assert not any(f in page.split() for f in hidden)
        assert "10 VP end the campaign (L414)" in page
    rebel = " ".join(ok("report", "--db", db, "--overview", "--side", "rebel").split())
    # The rebels sighted Alpha when they landed on it: it shows, in the sightings table only.
    sightings = rebel.split("enemy formations sighted", 1)[1].split("control:", 1)[0]
    assert "alpha" in sightings.split() and "loyalist" in sightings.split()
    assert "alpha" not in rebel.split("enemy formations sighted", 1)[0].split()


def test_report_overview_side_refuses_an_unknown_side(tmp_path: Path) -> None:
    db = day_zero(tmp_path)
    done = mekref("report", "--db", db, "--overview", "--side", "pirates")
    assert done.returncode != 0
    assert "--side 'pirates': no such side" in done.stderr and "loyalist, rebel" in done.stderr


def test_a_sides_books_leave_the_enemys_bv_unset(tmp_path: Path) -> None:
    # T-V3: "A side's battle value is its strength: its own BV against the BV at the start (the
    # attrition line, L412-413) is shown, the enemy's is left unset." The books' end-of-campaign
    # table (``report --side``) keeps the same cut as the overview.
    db = _day_one(tmp_path)
    whole = _json("report", "--db", db)["ending"]
    assert all(x["effective_bv"] is not None for x in whole["sides"])
    for side in ("rebel", "loyalist"):
        ending = _json("report", "--db", db, "--side", side)["ending"]
        own = next(x for x in ending["sides"] if x["side"] == side)
        enemy = next(x for x in ending["sides"] if x["side"] != side)
        referee = next(x for x in whole["sides"] if x["side"] == side)
        assert own["effective_bv"] == referee["effective_bv"]
        assert own["starting_bv"] == referee["starting_bv"]
        for key in ("starting_bv", "effective_bv", "percent_of_start", "units_without_bv",
                    "below_attrition_line"):  # fmt: skip
            assert enemy[key] is None, key
        assert enemy["total_vp"] is not None  # L414: every side's VP are public
        page = ok("report", "--db", db, "--side", side)
        assert "hidden = an enemy's BV" in " ".join(page.split())
        table = page.split("the end of the campaign")[1].split("BV now:")[0]
        rows = {r.split("│")[1].strip(): r for r in table.splitlines() if r.count("│") > 2}
        assert rows[enemy["side"]].count("hidden") == 2  # BV now / at start, and its %
        assert "hidden" not in rows[side]
