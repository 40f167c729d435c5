"""The Ginestra demo's DropShip, wiped-out lance and kept salvage (issue 27): Alpha's Union
carries WarChest Points from the Space Port to Bagnorgeio by Load/Unload orders (L59, T-C3,
T-WP1), a rebel lance is wiped out at the Facility and its own file speaks for it (BR-1), and
a kept, crewed wreck holds the Facility again, moving the VP total (R-VP-4, L426).

The steps are ``mekref`` commands printed before they run (``demo.step``); the battle's files
are built from the exported lists with the project's MUL writer, as ``demo.battle_records``.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.mul_model import Entity, Location, MulFile, RootKind, Section
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.daemon.cli import main as cli

Step = Callable[..., None]
#: Alpha's Union and its WarChest pool (L59: a Union carries 250 WP).
UNION_POOL = "l-union-a"
#: Day 1: Alpha's Union loads 200 WP from the Space Port's chest (both at 0610).
LOAD_DAY1 = (
    "--order", f"{UNION_POOL}:load_unload",
    "--param", f"{UNION_POOL}:from=bagnorgeio-space-port",
    "--param", f"{UNION_POOL}:to={UNION_POOL}",
    "--param", f"{UNION_POOL}:wp=200",
)  # fmt: skip
#: Day 2: the Union hops to Bagnorgeio (L207), its WP aboard.
HOP_DAY2 = ("--order", f"{UNION_POOL}:suborbital_hop::0508")
#: Day 3's battle at the Facility.
ENGAGEMENT = "day3-1105-1"


def _report(db: str) -> dict[str, Any]:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = cli(["report", "--db", db, "--json"])
    if code != 0:
        raise SystemExit(f"demo: 'mekref report --db {db} --json' exited with {code}")
    report: dict[str, Any] = json.loads(printed.getvalue())
    return report


def _unit(db: str, side: str, chassis: str, company: str, lance: str = "") -> str:
    (unit,) = [u["id"] for u in _report(db)["units"]
               if (u["side"], u["chassis"], u["company"]) == (side, chassis, company)
               and (not lance or u["lance"] == lance)]  # fmt: skip
    return str(unit)


def link_union(db: str, step: Step) -> None:
    """Alpha's Union gets its WarChest pool, linked to it by command (ruling T-C3)."""
    union = _unit(db, "loyalist", "Union", "Alpha Company")
    step("Alpha's Union: its WarChest pool (L59: 250 WP at most), opened empty", "pool", "open",
         "--db", db, "--side", "loyalist", "--id", UNION_POOL, "--name", "Alpha's Union",
         "--dropship", "Union", "--balance", "0")  # fmt: skip
    step("... and linked to the Union by command (T-C3): the WP travel with it", "pool", "link",
         "--db", db, "--side", "loyalist", "--pool", UNION_POOL, "--unit", union[:8])  # fmt: skip


def _wrecked(e: Entity, truly: bool) -> Entity:
    """A 'Mech left on the field: its centre torso gone (truly destroyed, L145), or its right
    leg gone and its pilot ejected (immobile, L138: salvage that can be repaired)."""
    gone = Location(index=1 if truly else 6, name="", armor=0, internal=0, destroyed=True)
    if not truly and e.crew is not None:
        e = replace(e, crew=replace(e.crew, ejected=True))
    return replace(e, section=Section.SALVAGE, locations=(gone,))


def wiped_out_records(out: Path, engagement: str) -> tuple[Path, Path]:
    """Both files of the Facility's second battle: the rebel lance wiped out (its Griffin's
    pilot ejected, the others truly destroyed), the loyalists' Locust truly destroyed, the rest
    of alpha standing. Each file as MegaMek writes it for its player (BR-1): its own units on
    the map are survivors, every enemy still on the map and every wreck is salvage. The
    rebels' file has no survivor and no kill line; every rebel unit in it is destroyed."""
    loyal = read_mul_bytes((out / f"{engagement}-loyalist.mul").read_bytes())
    rebel = read_mul_bytes((out / f"{engagement}-rebel.mul").read_bytes())
    ours = [
        _wrecked(e, truly=True) if e.chassis == "Locust" else replace(e, section=Section.SURVIVORS)
        for e in loyal.entities
    ]
    theirs = [_wrecked(e, truly=e.chassis != "Griffin") for e in rebel.entities]
    seen_by_rebels = [replace(e, section=Section.SALVAGE) for e in ours]
    files = {"loyalist": (*ours, *theirs), "rebel": (*theirs, *seen_by_rebels)}
    paths = []
    for side, entities in files.items():
        path = out / f"{engagement}-{side}-record.mul"
        record = MulFile(root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION, entities=entities)
        path.write_text(write_mul(record), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def day3(db: str, out: Path, units: str, step: Step) -> None:
    """Day 3: the Union unloads at Bagnorgeio; r-alpha-recon lands on the Facility and is wiped
    out. Day 4: the loyalists keep its Griffin, crewed by the Locust's pilot, at the Facility."""
    step("Day 3: the Union unloads its 200 WP into Bagnorgeio's chest (L59: Load/Unload)",
         "orders", "submit", "--db", db, "--side", "loyalist", "--day", "3",
         "--order", f"{UNION_POOL}:load_unload", "--param", f"{UNION_POOL}:from={UNION_POOL}",
         "--param", f"{UNION_POOL}:to=bagnorgeio", "--param", f"{UNION_POOL}:wp=200")  # fmt: skip
    step("Day 3: the rebels' Alpha Recon Lance lands on the Facility", "orders", "submit",
         "--db", db, "--side", "rebel", "--day", "3",
         "--order", "r-alpha-recon:orbital_insertion::1105")  # fmt: skip
    step("The referee resolves day 3", "turn", "resolve", "--db", db, "--day", "3")
    for side in ("loyalist", "rebel"):
        step(f"The {side} scenario for MegaMek, day 3", "engagement", "export", "--db", db,
             "--side", side, "-o", str(out), "--units-dir", units)  # fmt: skip
    loyal, rebel = wiped_out_records(out, ENGAGEMENT)
    step("The rebel lance is wiped out: its own file, every unit destroyed, speaks for it "
         "(BR-1), and the battle resolves without 'battle close'", "battle", "ingest",
         "--db", db, str(loyal), str(rebel), "--control", "loyalist",
         "--units-dir", units)  # fmt: skip
    griffin = _unit(db, "loyalist", "Griffin", "Salvage")
    locust = _unit(db, "loyalist", "Locust", "Alpha Company", "Battle Lance")
    (pilot,) = [p["id"] for p in _report(db)["people"] if p["unit"] == locust]
    step("Salvage: the loyalists keep the rebels' Griffin in the Locust's place (L136)",
         "salvage", "keep", "--db", db, "--unit", griffin[:8], "--company", "Alpha Company",
         "--lance", "Battle Lance")  # fmt: skip
    step("... seat the Locust's pilot in it", "salvage", "seat", "--db", db,
         "--unit", griffin[:8], "--person", pilot[:8])  # fmt: skip
    step("... and form it at the Facility, where the battle was (T-F7)", "formation", "create",
         "--db", db, "--side", "loyalist", "--day", "4", "--id", "l-salvage",
         "--unit", griffin[:8], "--hex", "1105")  # fmt: skip
    step("The referee resolves day 4: alpha's three 'Mechs and the kept Griffin, a lance, hold "
         "the Facility again (L426, R-VP-4): +1 strategic VP", "turn", "resolve", "--db", db,
         "--day", "4")  # fmt: skip
