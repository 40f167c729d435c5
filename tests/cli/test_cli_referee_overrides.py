"""The referee's overrides through the installed ``mekref`` console script: a permission
refusal says how the referee may lift it, the override is recorded with who and why, and
`mekref report` lists it (ruling R-ENGINE-4).

L110: "Any MechWarriors, AeroSpace Pilots, Vehicle Crews, DropShip Crews or Infantry who took
part in a scenario and were awarded a kill may attempt to train to improve their skills."
"""

from __future__ import annotations

import json
from pathlib import Path

from test_cli_commanders_salvage import _campaign, _ok, _refused


def test_a_refused_training_goes_ahead_on_the_referees_word_and_the_report_says_so(
    tmp_path: Path,
) -> None:
    db = _campaign(
        tmp_path, [("Griffin", "GRF-1N", 4, 5, True)], [("Jenner", "JR7-D", 4, 5, False)]
    )
    _ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "fdb", "--name", "FDB",
        "--location", "Forward Deployment Base", "--balance", "1000")  # fmt: skip
    state = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))["state"]
    (pilot,) = [p for p, x in state["people"].items() if x["side_id"] == "loyalist"]
    train = ("spend", "train", "--db", db, "--person", pilot, "--pool", "fdb", "--skill",
             "gunnery")  # fmt: skip
    # No kill yet: refused in one line, quoting L110 and naming the override.
    said = _refused(*train)
    assert "L110" in said and "--referee NAME --reason TEXT" in said
    assert len(said.strip().splitlines()) == 1
    # The referee allows it: recorded with who and why.
    done = _ok(*train, "--referee", "Ann", "--reason", "won the simulator tournament")
    assert "SkillTrained" in done and "won the simulator tournament" in done
    report = json.loads(_ok("report", "--db", db, "--json"))
    trained = [o for o in report["overrides"] if o["event"] == "SkillTrained"]
    assert trained == [
        {"seq": trained[0]["seq"], "event": "SkillTrained", "side": "loyalist",
         "referee": "Ann", "reason": "won the simulator tournament"}
    ]  # fmt: skip
    # The forces imported unchecked are overrides too, one per side.
    assert [o["side"] for o in report["overrides"] if o["event"] == "ForceImported"] == [
        "loyalist", "rebel",
    ]  # fmt: skip
    text = _ok("report", "--db", db)
    assert "SkillTrained (loyalist): by Ann, because won the simulator tournament" in text
    # A side's report lists its own overrides only.
    rebel = json.loads(_ok("report", "--db", db, "--side", "rebel", "--json"))
    assert {o["side"] for o in rebel["overrides"]} == {"rebel"}
