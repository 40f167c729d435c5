"""Recruiting a captured person through the installed ``mekref`` console script.

L352: "A Player with captured personnel may attempt to recruit them. Roll 2d6 (+ 1 for each 1
point of unrest over 7 the opponent has). On an 8+ they player may pay the WP to recruit them
(plus the leadership modifier for a ranked force/lance commander)."
Rulings R-RECRUIT-1 (the unrest) and R-RECRUIT-2 (the leadership modifier).
"""

from __future__ import annotations

import json
from pathlib import Path

from test_cli_commanders_salvage import REFEREE, _campaign, _mul, _ok, _refused

_RECORD = """<?xml version="1.0" encoding="UTF-8"?>
<record version="0.49.19">
<survivors>
<entity chassis="Griffin" model="GRF-1N" type="Biped" externalId="{griffin}">
<pilot name="Pilot 0 Griffin" gunnery="4" piloting="5" externalId="{g_pilot}"/>
</entity>
</survivors>
<salvage>
<entity chassis="Jenner" model="JR7-D" type="Biped" externalId="{jenner}">
<pilot name="Pilot 0 Jenner" gunnery="2" piloting="3" externalId="{j_pilot}"/>
<location index="6" isDestroyed="true"> Right Leg
</location>
<location index="7" isDestroyed="true"> Left Leg
</location>
</entity>
</salvage>
</record>
"""


def test_a_captured_commander_costs_the_price_plus_the_leadership_modifier(
    tmp_path: Path,
) -> None:
    red = [("Griffin", "GRF-1N", 4, 5, True)]
    blue = [("Jenner", "JR7-D", 2, 3, True)]  # an Elite Force Commander: Skill Bonus +2 (L32)
    db = _campaign(tmp_path, red, blue)
    state = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))["state"]
    ids = {u["chassis"]: (uid, u["crew"][0]) for uid, u in state["units"].items()}
    # The battle: the Jenner lost both legs and was left on the field (L137-L141: immobile),
    # so its pilot is taken with it.
    record = tmp_path / "record.mul"
    record.write_text(_RECORD.format(griffin=ids["Griffin"][0], g_pilot=ids["Griffin"][1],
                                     jenner=ids["Jenner"][0], j_pilot=ids["Jenner"][1]),
                      encoding="utf-8")  # fmt: skip
    _ok("battle", "ingest", "--db", db, str(record), "--control", "loyalist")
    (battle,) = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))[
        "state"]["battles"]["battles"]  # fmt: skip
    _ok("battle", "close", "--db", db, "--battle", battle, "--control", "loyalist", *REFEREE)
    _ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "fdb", "--name", "FDB",
        "--location", "Forward Deployment Base", "--balance", "2000")  # fmt: skip
    after = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))
    assert after["state"]["battles"]["captured_people"] == {ids["Jenner"][1]: "loyalist"}
    captive = ids["Jenner"][1]
    recruit = ("spend", "recruit", "--db", db, "--person", captive, "--pool", "fdb")
    # Without the strategic map the opponent's unrest must be given: refused, quoting L352.
    said = _refused(*recruit)
    assert "line 352" in said and "--opponent-unrest" in said
    # Unrest 13: +6, so 2d6 + 6 is at least 8 and the roll succeeds whatever the dice.
    said = _ok(*recruit, "--opponent-unrest", "13")
    assert "CapturedRecruited" in said and "cost_sp=1202" in said and "leadership_sp=2" in said
    # "| Elite | 1200 (2 SPA) |" plus the Elite commander's leadership modifier, +2.
    after = json.loads(_ok("report", "--db", db, "--json"))
    (pool,) = [p for p in after["pools"] if p["id"] == "fdb"]
    assert pool["balance"] == 2000 - 1200 - 2
    state = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))
    assert state["state"]["people"][captive]["side_id"] == "loyalist"


#: A seed whose first recruiting roll misses 8+ (so the test shows a retry).
RETRY_SEED = "10"


def test_ruling_r_recruit_3_a_failed_attempt_is_tried_again_at_once(tmp_path: Path) -> None:
    """L352 sets no limit on attempts and no wait (ruling R-RECRUIT-3): each ``spend recruit``
    is a new 2d6; a failed one costs nothing and leaves the person captive, and the next
    command tries again at once; only the roll that makes 8+ pays."""
    db = str(tmp_path / "c.db")
    _ok("campaign", "new", "--db", db, "--name", "Test", "--seed", RETRY_SEED,
        "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    for side, units in (("loyalist", [("Griffin", "GRF-1N", 4, 5, True)]),
                        ("rebel", [("Jenner", "JR7-D", 4, 5, True)])):  # fmt: skip
        mul = str(_mul(tmp_path / f"{side}.mul", units))
        _ok("force", "import", "--db", db, "--side", side, mul, "--unchecked", *REFEREE)
    state = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))["state"]
    ids = {u["chassis"]: (uid, u["crew"][0]) for uid, u in state["units"].items()}
    record = tmp_path / "record.mul"
    record.write_text(_RECORD.format(griffin=ids["Griffin"][0], g_pilot=ids["Griffin"][1],
                                     jenner=ids["Jenner"][0], j_pilot=ids["Jenner"][1]),
                      encoding="utf-8")  # fmt: skip
    _ok("battle", "ingest", "--db", db, str(record), "--control", "loyalist")
    (battle,) = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))[
        "state"]["battles"]["battles"]  # fmt: skip
    _ok("battle", "close", "--db", db, "--battle", battle, "--control", "loyalist", *REFEREE)
    _ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "fdb", "--name", "FDB",
        "--location", "Forward Deployment Base", "--balance", "2000")  # fmt: skip
    captive = ids["Jenner"][1]
    recruit = (
        "spend",
        "recruit",
        "--db",
        db,
        "--person",
        captive,
        "--pool",
        "fdb",
        "--opponent-unrest",
        "7",
    )  # fmt: skip  (unrest 7: no modifier, 8+ on 2d6)
    failed = 0
    for _ in range(20):
        said = _ok(*recruit)
        assert "CapturedRecruited" in said  # each attempt is recorded, failed or not
        if "succeeds=True" in said:
            break
        assert "succeeds=False" in said
        failed += 1
        after = json.loads(_ok("report", "--db", db, "--json"))
        (pool,) = [p for p in after["pools"] if p["id"] == "fdb"]
        assert pool["balance"] == 2000  # a failed attempt costs nothing
        state = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))
        assert state["state"]["battles"]["captured_people"] == {captive: "loyalist"}
    assert failed >= 1, "this seed's first roll made 8+: the test shows no retry"
    state = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))
    assert state["state"]["people"][captive]["side_id"] == "loyalist"
