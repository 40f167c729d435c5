"""Commander bonuses and kept salvage through the installed ``mekref`` console script.

L26: "Force commanders provide an initiative bonus while they are in play and not in Forced
Withdrawal or Truly Destroyed."
L29: "Commanders gain a Skill Bonis to Initiative and to strategic rolls based on ether
training level." L32: "| Elite | 2 | 3 | +2 | 2 |"
L136: "They take control of the the ‘Mech and may either keep it (only if they have space in
there TO&E) or sell it."
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref

REFEREE = ("--referee", "Ann", "--reason", "test forces")


def _mul(path: Path, entities: list[tuple[str, str, int, int, bool]]) -> Path:
    flag = ' commander="true"'
    rows = "\n".join(
        f'<entity chassis="{c}" model="{m}" type="Biped"{flag if cmd else ""}>'
        f'<pilot name="Pilot {n} {c}" gunnery="{g}" piloting="{p}"/></entity>'
        for n, (c, m, g, p, cmd) in enumerate(entities)
    )
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<unit version="0.49.19">\n{rows}\n</unit>\n',
        encoding="utf-8",
    )
    return path


def _ok(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


def _refused(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 3, done.stdout + done.stderr
    return done.stderr + done.stdout


def _campaign(tmp: Path, red: list[tuple[str, str, int, int, bool]],
              blue: list[tuple[str, str, int, int, bool]]) -> str:  # fmt: skip
    db = str(tmp / "c.db")
    _ok("campaign", "new", "--db", db, "--name", "Test", "--seed", "7",
        "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    for side, units in (("loyalist", red), ("rebel", blue)):
        _ok("force", "import", "--db", db, "--side", side, str(_mul(tmp / f"{side}.mul", units)),
            "--unchecked", *REFEREE)  # fmt: skip
    return db


def _commanders(db: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(_ok("force", "commanders", "--db", db, "--json"))
    return [c for c in found if c["role"] == "force commander"]


STRATEGIC = """\
map = "ginestra"
attacker = "rebel"
defender = "loyalist"
[control]
"Forward Deployment Base" = "rebel"
[[unit]]
name = "Griffin GRF-1N"
walk = 5
mode = "leg"
[[unit]]
name = "Jenner JR7-D"
walk = 7
mode = "leg"
[[formation]]
side = "loyalist"
id = "alpha"
hex = "1105"
units = ["Griffin GRF-1N"]
{bonus}
[[formation]]
side = "rebel"
id = "bravo"
hex = ""
units = ["Jenner JR7-D"]
"""


def test_commander_bonus_is_derived_a_typed_one_must_agree_and_it_is_lost(
    tmp_path: Path,
) -> None:
    red = [("Griffin", "GRF-1N", 2, 3, True)]  # an Elite Force Commander
    blue = [("Jenner", "JR7-D", 4, 5, False)]
    db = _campaign(tmp_path, red, blue)
    (fc,) = _commanders(db)
    assert (fc["level"], fc["skill_bonus"], fc["edge"], fc["in_play"]) == ("Elite", 2, 2, True)
    assert fc["rule"] == "line 32: | Elite | 2 | 3 | +2 | 2 |"
    # A hand-typed bonus that disagrees is refused with L29.
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(STRATEGIC.format(bonus="commander_bonus = 3"), encoding="utf-8")
    said = _refused("turn", "setup", "--db", db, "--file", str(wrong))
    assert "line 29" in said and "Elite 2/3, +2" in said
    assert "nothing recorded" in said
    # Nothing was recorded: the same set-up with the referee's override is accepted, recorded.
    over = tmp_path / "over.toml"
    over.write_text(
        STRATEGIC.format(
            bonus='commander_bonus = 3\ncommander_override = { referee = "Ann", reason = "SPA" }'
        ),
        encoding="utf-8",
    )
    _ok("turn", "setup", "--db", db, "--file", str(over))
    state = json.loads(_ok("game", "state", "--db", db, "--campaign", "Test", "--json"))
    alpha = state["state"]["strategic"]["formations"]["alpha"]
    assert alpha["commander_bonus"] == 3
    assert alpha["commander_note"] == {"referee": "Ann", "reason": "SPA"}
    # L26: truly destroyed, the commander gives no bonus.
    _ok("battle", "fate", "--db", db, "--unit", fc["unit_id"], "--fate", "truly_destroyed",
        *REFEREE)  # fmt: skip
    (lost,) = _commanders(db)
    assert (lost["skill_bonus"], lost["in_play"]) == (0, False)
    assert "truly destroyed" in lost["lost"]
    assert "lost: the unit is truly destroyed" in _ok("force", "commanders", "--db", db)


def _waiting(db: str) -> dict[str, list[dict[str, str]]]:
    found: dict[str, list[dict[str, str]]] = json.loads(
        _ok("salvage", "list", "--db", db, "--side", "loyalist", "--json")
    )
    return found


def test_salvage_is_kept_only_with_space_and_a_hired_pilot_crews_it(tmp_path: Path) -> None:
    red = [("Griffin", "GRF-1N", 4, 5, n == 0) for n in range(12)]  # a full company (L11)
    blue = [("Jenner", "JR7-D", 4, 5, False)]
    db = _campaign(tmp_path, red, blue)
    report = json.loads(_ok("report", "--db", db, "--json"))
    jenner = next(u["id"] for u in report["units"] if u["chassis"] == "Jenner")
    _ok("battle", "fate", "--db", db, "--unit", jenner, "--fate", "captured",
        "--side", "loyalist", *REFEREE)  # fmt: skip
    (waiting,) = _waiting(db)["salvage"]
    assert waiting["unit_id"] == jenner
    keep = ("salvage", "keep", "--db", db, "--unit", jenner, "--company", "Company 1")
    # Twelve 'Mechs already: no TO&E space (L136, L11).
    said = _refused(*keep, "--lance", "Lance 1")
    assert "line 11" in said and "only if they have space in there TO&E" in said
    # Not kept, it cannot be crewed.
    _ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "fdb", "--name", "FDB",
        "--location", "Forward Deployment Base")  # fmt: skip
    _ok("spend", "hire", "--db", db, "--side", "loyalist", "--pool", "fdb", "--name", "Nia Kell",
        "--gunnery", "4", "--piloting", "5", "--id", "nia")  # fmt: skip
    assert "line 136" in _refused("salvage", "seat", "--db", db, "--unit", jenner,
                                  "--person", "nia")  # fmt: skip
    # Selling goes through the same sale as spend sell: imported without a design, it has no
    # price and the sale is refused with what to do.
    assert "design" in _refused("salvage", "sell", "--db", db, "--unit", jenner, "--pool", "fdb")
    # The referee keeps it without space: recorded with who and why.
    said = _ok(*keep, "--lance", "Lance 1", "--referee", "Ann", "--reason", "a 13th 'Mech")
    assert "SalvageKept" in said and "a 13th 'Mech" in said
    assert _waiting(db)["salvage"] == []
    assert [u["unit_id"] for u in _waiting(db)["uncrewed"]] == [jenner]
    assert "nia" in [p["person_id"] for p in _waiting(db)["people"]]
    # The hired pilot takes the empty seat; a second person is refused.
    assert "CrewSeated" in _ok("salvage", "seat", "--db", db, "--unit", jenner, "--person", "nia")
    assert _waiting(db)["uncrewed"] == []
    _ok("spend", "hire", "--db", db, "--side", "loyalist", "--pool", "fdb", "--name", "Ivo Rask",
        "--gunnery", "4", "--piloting", "5", "--id", "ivo")  # fmt: skip
    assert "crewed" in _refused("salvage", "seat", "--db", db, "--unit", jenner, "--person", "ivo")
    help_text = _ok("salvage", "--help")
    assert "only if they have space in there TO&E" in help_text and "examples:" in help_text


def test_a_hire_says_what_was_hired_and_crews_only_that_type(tmp_path: Path) -> None:
    """L124 "of the same type (e.g. BattleMech, or Vehicle)", ruling R-SEAT-2: `spend hire --as`
    records the Recruit column hired; a vehicle crew is refused a 'Mech, a MechWarrior takes it."""
    red = [("Griffin", "GRF-1N", 4, 5, n == 0) for n in range(11)]
    blue = [("Jenner", "JR7-D", 4, 5, False)]
    db = _campaign(tmp_path, red, blue)
    report = json.loads(_ok("report", "--db", db, "--json"))
    jenner = next(u["id"] for u in report["units"] if u["chassis"] == "Jenner")
    _ok("battle", "fate", "--db", db, "--unit", jenner, "--fate", "captured",
        "--side", "loyalist", *REFEREE)  # fmt: skip
    _ok("salvage", "keep", "--db", db, "--unit", jenner, "--company", "Company 1",
        "--lance", "Lance 1")  # fmt: skip
    _ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "fdb", "--name", "FDB",
        "--location", "Forward Deployment Base", "--balance", "1000")  # fmt: skip
    hire = ("spend", "hire", "--db", db, "--side", "loyalist", "--pool", "fdb",
            "--gunnery", "4", "--piloting", "5")  # fmt: skip
    _ok(*hire, "--name", "Vic Ortega", "--id", "vic", "--as", "vehicle-crew")
    said = _refused("salvage", "seat", "--db", db, "--unit", jenner, "--person", "vic")
    assert "line 124" in said and "Vic Ortega was hired as a vehicle, not a BattleMech" in said
    _ok(*hire, "--name", "Mia Rhee", "--id", "mia", "--as", "mechwarrior")
    assert "CrewSeated" in _ok("salvage", "seat", "--db", db, "--unit", jenner, "--person", "mia")
    # Without --as the hire is of no type off the map: a warning says so.
    done = mekref(*hire, "--name", "Ivo Rask", "--id", "ivo")
    assert done.returncode == 0 and "warning: no --as" in done.stderr
    assert "--as {mechwarrior,aerospace-pilot,vehicle-crew}" in _ok("spend", "hire", "--help")
