"""``mekref formation``: the Ginestra sample's formations reorganised through the installed
console script, each action changing only what it names.

L153: "Any forces may be moved between force elements (e.g. Lances)."
L178: "Players may reorganise formations at the start of any campaign turn."
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref

from mekref.daemon.samples.ginestra import FOLDER

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"


def _ok(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


def _refused(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 3, done.stderr + done.stdout
    return " ".join(done.stderr.split())


def _formations(db: str, side: str) -> dict[str, dict[str, object]]:
    listed = json.loads(_ok("formation", "list", "--db", db, "--side", side, "--json"))
    return {f["formation"]: f for f in listed["formations"]}


def _ids(row: dict[str, object]) -> list[str]:
    units = row["units"]
    assert isinstance(units, list)
    return [str(u["id"]) for u in units]


def test_formation_commands_through_the_console_script(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    _ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
        "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    for side in ("loyalist", "rebel"):
        _ok("force", "import", "--db", db, "--side", side, str(FOLDER / f"{side}.mul"),
            "--units-dir", str(UNITS), "--unchecked",
            "--referee", "Ref", "--reason", "x")  # fmt: skip
    _ok("turn", "setup", "--db", db)
    before = _formations(db, "loyalist")
    militia = _ids(before["l-militia"])  # 2 Bulldogs, 2 Maxims in 0508
    assert len(militia) == 4 and before["l-militia"]["hex"] == "0508"
    text = _ok("formation", "list", "--db", db, "--side", "loyalist")
    assert "l-militia (Loyalist Militia) in 0508" in text and "Bulldog Medium Tank" in text

    day = ("--db", db, "--side", "loyalist", "--day", "1")
    out = _ok("formation", "split", *day, "--formation", "l-militia", "--new-id", "hover",
              "--name", "Hover Section", "--unit", militia[2], "--unit", militia[3])  # fmt: skip
    assert "hover (Hover Section) in 0508" in out
    _ok("formation", "move", *day, "--unit", militia[3], "--to", "l-guard")
    out = _ok("formation", "merge", *day, "--formation", "l-militia", "--absorb", "hover")
    assert "hover: dissolved" in out
    after = _formations(db, "loyalist")
    assert "hover" not in after
    assert _ids(after["l-militia"]) == militia[:3]
    assert _ids(after["l-guard"])[-1] == militia[3]
    assert after["alpha"] == before["alpha"] and after["l-air"] == before["l-air"]

    # Alpha garrisons 1105, the Guard stands in 0508: L153 moves units between elements that
    # stand together, not 500 km apart in no time (ruling T-F1).
    alpha = _ids(after["alpha"])
    why = _refused("formation", "move", *day, "--unit", alpha[0], "--to", "l-guard")
    assert "only units standing in one hex can regroup" in why and "L153" in why
    # A rebel naming a loyalist formation gets the answer a missing one gets.
    theirs = _refused("formation", "merge", "--db", db, "--side", "rebel", "--day", "1",
                      "--formation", "bravo", "--absorb", "alpha")  # fmt: skip
    missing = _refused("formation", "merge", "--db", db, "--side", "rebel", "--day", "1",
                       "--formation", "bravo", "--absorb", "zulu")  # fmt: skip
    assert theirs.replace("alpha", "X") == missing.replace("zulu", "X")
    # Orders given: withdraw them before reorganising (ruling T-F3).
    _ok("orders", "submit", *day, "--order", "alpha:guard")
    why = _refused("formation", "split", *day, "--formation", "alpha", "--new-id", "scout",
                   "--unit", alpha[3])  # fmt: skip
    assert "already has orders for day 1; withdraw them first" in why
    _ok("orders", "withdraw", *day, "alpha")
    _ok("formation", "split", *day, "--formation", "alpha", "--new-id", "scout",
        "--unit", alpha[3])  # fmt: skip
    assert _ids(_formations(db, "loyalist")["scout"]) == [alpha[3]]

    # L95: "Change Formation Type | 100 (Requires 1 day of training)".
    _ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "cap", "--name", "Capital",
        "--location", "Bagnorgeio", "--balance", "150")  # fmt: skip
    out = _ok("formation", "train", *day, "--formation", "alpha", "--type", "Battle Lance",
              "--pool", "cap")  # fmt: skip
    assert "alpha trains as Battle Lance on day 1 (100 SP from cap)" in " ".join(out.split())
    assert "(trains as Battle Lance today)" in _ok("formation", "list", "--db", db, "--side",
                                                   "loyalist")  # fmt: skip
    why = _refused("formation", "train", *day, "--formation", "scout", "--type", "Recon Lance",
                   "--pool", "cap")  # fmt: skip
    assert "this costs 100 SP" in why and "holds 50" in why
