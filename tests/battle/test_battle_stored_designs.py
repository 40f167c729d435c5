"""The campaign keeps each unit's design from ``force import``: battles need no units folder.

Through the installed console script, as a referee runs it. The battle is the hand-worked one
of ``test_battle_end_to_end`` (Red's Griffin and Locust against Blue's Jenner, Locust and
Griffin, Red holding the field).

Rule text (../shared/rules-sources/000_*.txt):
- L146: "A 'Mech is only truly destroyed when its center torso internal structure is eliminated.
  In that instance, as noted on the SP Unit Activity Cost Table, it cannot be repaired."
- L147: "A vehicle is truly destroyed if any of its locations reach 0 internal structure."
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref

from .builders import FIXTURES, UNITS_DIR
from .test_battle_end_to_end import SEED, write_inputs


def run(*args: str) -> tuple[int, str, str]:
    done = mekref(*args)
    return done.returncode, done.stdout, done.stderr


def campaign(tmp: Path, name: str, *, designs: bool) -> tuple[str, dict[str, Path]]:
    folder = tmp / name
    folder.mkdir()
    files = write_inputs(folder)
    db = str(folder / "c.db")
    code, _, err = run("campaign", "new", "--db", db, "--name", "E2E", "--seed", SEED,
                       "--side", "red:Red", "--side", "blue:Blue")  # fmt: skip
    assert code == 0, err
    for side in ("red", "blue"):
        extra = ("--units-dir", str(UNITS_DIR)) if designs else ()
        code, _, err = run(
            "force", "import", "--db", db, "--side", side, str(folder / f"{side}.mul"), *extra,
            "--bv-table", str(FIXTURES / "battles" / "Units.txt"),
            "--unchecked", "--referee", "Ann", "--reason", "a small test force",
        )  # fmt: skip
        assert code == 0, err
    return db, files


def books(db: str) -> dict[str, Any]:
    code, out, err = run("report", "--db", db, "--json")
    assert code == 0, err
    report: dict[str, Any] = json.loads(out)
    return {"units": report["units"], "people": report["people"], "sides": report.get("sides")}


def test_ingest_without_the_units_folder_gives_the_books_of_a_run_with_it(tmp_path: Path) -> None:
    with_dir, files = campaign(tmp_path, "with", designs=True)
    dir_args = ("--units-dir", str(UNITS_DIR))
    assert run("battle", "ingest", "--db", with_dir, str(files["red"]), "--control", "red",
               *dir_args)[0] == 0  # fmt: skip
    assert run("battle", "ingest", "--db", with_dir, str(files["blue"]), *dir_args)[0] == 0

    stored, files = campaign(tmp_path, "stored", designs=True)
    code, out, err = run("battle", "ingest", "--db", stored, str(files["red"]), "--control", "red")
    assert code == 0, err
    code, out, err = run("battle", "ingest", "--db", stored, str(files["blue"]))
    assert code == 0 and "resolved" in out, err
    assert "warning" not in err  # every unit's design is known

    assert books(stored) == books(with_dir)
    units = {u["id"]: u for u in books(stored)["units"]}
    # The hand-worked Griffin bill of test_battle_end_to_end, priced from the stored design.
    assert units["r1"]["repair"]["total_sp"] == 21 and units["r1"]["repair_priced"] is True
    assert units["r2"]["fate"] == "truly_destroyed"  # L146


def test_without_a_design_the_fate_follows_the_file_and_nothing_is_priced(tmp_path: Path) -> None:
    db, files = campaign(tmp_path, "bare", designs=False)
    code, _, err = run("battle", "ingest", "--db", db, str(files["red"]), "--control", "red")
    assert code == 0, err
    # The warning names the unit and what to do.
    assert "warning: Griffin GRF-1N (r1): no design known" in err
    assert "mekref force designs --units-dir DIR" in err
    code, _out, err = run("battle", "ingest", "--db", db, str(files["blue"]))
    assert code == 0, err
    units = {u["id"]: u for u in books(db)["units"]}
    # L146: the Locust's centre torso is written isDestroyed; no design needed to know it.
    assert units["r2"]["fate"] == "truly_destroyed"
    assert units["r2"]["repair"]["repairable"] is False
    # Never a 0 SP bill: unknown, and said so.
    assert units["r1"]["repair_priced"] is False
    assert units["r1"]["repair"]["total_sp"] is None
    assert units["r1"]["repair"]["armor_sp"] is None

    code, _, err = run("pool", "open", "--db", db, "--side", "red", "--id", "fdb",
                         "--name", "Forward Base",
                         "--location", "Forward Deployment Base")  # fmt: skip
    assert code == 0, err
    code, _, err = run("spend", "repair", "--db", db, "--unit", "r1", "--pool", "fdb",
                         "--task", "armor")  # fmt: skip
    assert code != 0
    assert "cannot be priced" in err and "mekref force designs" in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = run("spend", "repair", "--db", db, "--unit", "r2", "--pool", "fdb",
                         "--task", "internal", "--repair-facility")  # fmt: skip
    assert code != 0 and "cannot be repaired" in err  # L146: "it cannot be repaired"
    code, _, err = run("spend", "sell", "--db", db, "--unit", "b1", "--pool", "fdb")
    assert code != 0 and "cannot be priced" in err


def test_force_designs_records_what_the_import_lacked(tmp_path: Path) -> None:
    db, files = campaign(tmp_path, "late", designs=False)
    code, out, err = run("force", "designs", "--db", db, "--units-dir", str(UNITS_DIR))
    assert code == 0, err
    assert "recorded the design of 5 unit(s)" in out
    code, out, err = run("battle", "ingest", "--db", db, str(files["red"]), "--control", "red")
    assert code == 0 and "warning" not in err, err
    code, out, err = run("battle", "ingest", "--db", db, str(files["blue"]))
    assert code == 0, err
    units = {u["id"]: u for u in books(db)["units"]}
    assert units["r1"]["repair_priced"] is True
    assert units["r1"]["repair"]["total_sp"] == 21  # the design's 55 t and armor, as imported
    again = run("force", "designs", "--db", db, "--units-dir", str(UNITS_DIR))
    assert again[1].startswith("recorded the design of 0 unit(s)")
