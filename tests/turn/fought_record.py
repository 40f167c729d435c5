"""The battle of tests/turn/test_battle_export_record_cli.py, set up through the installed
console script: the Ginestra sample with the rebel Atlas replaced by the damaged one of
``tests/fixtures/megamek/derived/damaged-atlas.mul``, fought at the first engagement, each
side's record made from its scenario export (the changes in ``_fought``'s docstring and the
test module's). The loyalists hold the field.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

from ginestra_cli import UNITS, ok

from mekref.adapters.megamek.mul_model import (
    Entity,
    Kill,
    Location,
    MulFile,
    RootKind,
    Section,
    Slot,
)
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.daemon.samples.ginestra import FOLDER

FIXTURES = Path(__file__).parents[1] / "fixtures"
DAMAGED = FIXTURES / "megamek" / "derived" / "damaged-atlas.mul"
ENGAGEMENT = "day1-1105-1"
LRM = "IS Ammo LRM-10"


def _rebel_list(tmp: Path) -> Path:
    text = (FOLDER / "rebel.mul").read_text(encoding="utf-8")
    damaged = DAMAGED.read_text(encoding="utf-8")
    start = damaged.index('\t\t<entity chassis="Atlas"')
    atlas = damaged[start : damaged.index("</entity>", start) + len("</entity>\n")]
    start = text.index('\t\t<entity chassis="Atlas" model="AS7-D"')
    end = text.index("</entity>", start) + len("</entity>\n")
    path = tmp / "rebel.mul"
    path.write_text(text[:start] + atlas + text[end:], encoding="utf-8")
    return path


def _hit(e: Entity, hits: int) -> Entity:
    assert e.crew is not None
    members = tuple(replace(m, hits=hits) if n == 0 else m for n, m in enumerate(e.crew.members))
    return replace(e, crew=replace(e.crew, members=members))


def _fought(loyal: MulFile, rebel: MulFile) -> tuple[MulFile, MulFile]:
    """Each side's own record of the battle (the changes in the module's docstring)."""
    ours: list[Entity] = []
    # The last loyalist unit is blown apart (an ammunition explosion): devastated.
    devastated = loyal.entities[-1]
    for e in loyal.entities:
        section = Section.SURVIVORS
        if e.chassis == "Griffin" and not any(x.chassis == "Griffin" for x in ours):
            torso = Location(
                index=2,
                name="Right Torso",
                armor=10,
                slots=(Slot(index=5, type=LRM, shots=6), Slot(index=6, type=LRM, shots=12)),
            )
            e = _hit(replace(e, locations=(torso,)), 1)
        elif e is devastated:
            section = Section.DEVASTATED
        ours.append(replace(e, section=section))
    theirs: list[Entity] = []
    others = [e for e in rebel.entities if e.chassis != "Atlas"]
    retreating, wrecked = others[0], others[1]
    for e in rebel.entities:
        section = Section.SURVIVORS
        if e.chassis == "Atlas":
            ct = Location(index=1, name="Center Torso", destroyed=True)
            e = _hit(replace(e, locations=(*e.locations, ct)), 3)
            section = Section.SALVAGE
        elif e is retreating:
            section = Section.RETREATED
        elif e is wrecked:
            # A leg lost: a wreck no salvage row takes, which the rebels keep (R-REC-1 note).
            leg = Location(index=6, name="", armor=0, internal=0, destroyed=True)
            e = replace(e, locations=(*e.locations, leg))
            section = Section.SALVAGE
        theirs.append(replace(e, section=section))
    # The loyalists' record names the Atlas wreck and its killer, as MegaMek writes a kill
    # only for the saving player's enemies.
    griffin = next(e for e in ours if e.chassis == "Griffin")
    wreck = next(e for e in theirs if e.chassis == "Atlas")
    kills = (Kill(killed="Atlas AS7-D", killer=griffin.external_id),)
    return (
        MulFile(root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION,
                entities=(*ours, wreck), kills=kills),
        MulFile(root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION, entities=tuple(theirs)),
    )  # fmt: skip


def resolved_battle(tmp: Path) -> dict[str, Any]:
    """The battle resolved in ``tmp``: ``db`` (the store), ``tmp``, ``report`` (its ``report
    --json``), ``battle`` (the battle's row there) and ``unresolved`` (a store holding the
    loyalists' file only)."""
    db = str(tmp / "g.db")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    for side, path in (("loyalist", FOLDER / "loyalist.mul"), ("rebel", _rebel_list(tmp))):
        ok("force", "import", "--db", db, "--side", side, str(path), "--units-dir", str(UNITS),
           "--unchecked", "--referee", "Ref", "--reason", "test forces")  # fmt: skip
    ok("turn", "setup", "--db", db)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    out = tmp / "scenario"
    for side in ("loyalist", "rebel"):
        ok("engagement", "export", "--db", db, "--side", side, "-o", str(out), "--format", "mul")
    loyal = read_mul_bytes((out / f"{ENGAGEMENT}-loyalist.mul").read_bytes())
    rebel = read_mul_bytes((out / f"{ENGAGEMENT}-rebel.mul").read_bytes())
    files = []
    for name, mul in zip(("loyalist", "rebel"), _fought(loyal, rebel), strict=True):
        path = tmp / f"{name}-record.mul"
        path.write_text(write_mul(mul), encoding="utf-8")
        files.append(str(path))
    unresolved = str(tmp / "unresolved.db")
    shutil.copy(db, unresolved)
    ok("battle", "ingest", "--db", unresolved, files[0])
    ok("battle", "ingest", "--db", db, *files, "--control", "loyalist")
    report = json.loads(ok("report", "--db", db, "--json"))
    (fought,) = report["battles"]
    return {"db": db, "tmp": tmp, "report": report, "battle": fought, "unresolved": unresolved}
