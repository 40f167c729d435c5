"""Play the Ginestra demo on the legal sample (``legal/``: two mercenary battalions and their
militias, imported checked against L8-L23 and L162 with a sourced BV table): set-up, days of
orders, an engagement, the export, a recorded battle coming back (linked to its engagement,
which it closes), the map before and after, and the referee's overview with the VP total.

``python -m mekref.daemon.samples.ginestra.demo [--out DIR]``. Every step is a ``mekref``
command, printed before it runs, so the demo doubles as a walk-through. The designs and the BV
table are the sample's own, so it runs from any folder.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from mekref.adapters.megamek.mul_model import Location, MulFile, RootKind, Section
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.daemon.cli import main as cli
from mekref.daemon.samples.ginestra import FOLDER, LEGAL, LEGAL_MILITIA, demo_dropships

#: The skirmish sample's designs (the house-rules demo and the tests read it from the project),
#: relative to the project folder the demo runs from, as the commands it prints show it.
UNITS = Path("tests") / "fixtures" / "megamek" / "units"
#: The legal sample's own folder: an editable install links each file to the project's, so the
#: commands shown name daemon/samples/ginestra/legal/..., not the install's build/ copy.
LEGAL_FILES = (LEGAL / "__init__.py").resolve().parent
LEGAL_UNITS = LEGAL_FILES / "units"


def shown(path: Path) -> str:
    """``path`` relative to the working folder when it is inside it (the commands the demo
    prints, and what they print back, then read as a user would type them)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def step(title: str, *argv: str) -> None:
    print(f"\n## {title}\n$ mekref {' '.join(argv)}", flush=True)
    code = cli(list(argv))
    if code != 0:
        raise SystemExit(f"demo: 'mekref {' '.join(argv)}' exited with {code}")


def pages(db: str) -> None:
    """A token for each side and the referee, and the command that serves the campaign's
    pages: the group plays on from a browser (docs/web.md)."""
    for title, who in (("loyalist", ("--side", "loyalist")), ("rebel", ("--side", "rebel")),
                       ("the referee", ("--referee",))):  # fmt: skip
        step(f"A token for the pages: {title}", "token", "create", "--db", db, *who,
             "--campaign", "Ginestra")  # fmt: skip
    print(f"\nplay on from a browser: mekref serve --db {shown(Path(db))} --web 127.0.0.1:8080, "
          "then open http://127.0.0.1:8080/ and log in with a token above")  # fmt: skip


def forces_and_map(db: str) -> None:
    """Both sample forces imported from their unit lists, then the strategic map at Day Zero."""
    for side in ("loyalist", "rebel"):
        step(f"The {side} force from its unit list", "force", "import", "--db", db,
             "--side", side, shown((FOLDER / f"{side}.mul").resolve()), "--units-dir", str(UNITS),
             "--unchecked", "--referee", "Demo", "--reason", "militia and a lance")  # fmt: skip
    step("The strategic map: Day Zero", "turn", "setup", "--db", db)


def legal_forces_and_map(db: str) -> None:
    """Both battalions and militias imported checked (no --unchecked), then Day Zero."""
    for side in ("loyalist", "rebel"):
        step(f"The {side} battalion and militia, checked against L8-L23 and L162", "force",
             "import", "--db", db, "--side", side, shown(LEGAL_FILES / f"{side}.mul"),
             "--units-dir", shown(LEGAL_UNITS), "--bv-table", shown(LEGAL_FILES / "Units.txt"),
             "--militia", LEGAL_MILITIA[side])  # fmt: skip
    step("The strategic map: Day Zero", "turn", "setup", "--db", db,
         "--file", shown(LEGAL_FILES / "strategic.toml"))  # fmt: skip


def battle_records(out: Path, engagement: str) -> tuple[Path, Path]:
    """What MegaMek would write back after the assault: the rebels' Jenner is wrecked and left
    on the field, the Griffin is scarred, the loyalists hold the field. Built from the exported
    lists, so every entity keeps its externalId."""
    loyal = read_mul_bytes((out / f"{engagement}-loyalist.mul").read_bytes())
    rebel = read_mul_bytes((out / f"{engagement}-rebel.mul").read_bytes())
    scarred = []
    for e in loyal.entities:
        if e.chassis == "Griffin":
            # Center Torso front armour 20 -> 8, internal 18 -> 14 (MUL location 1).
            e = replace(e, locations=(Location(index=1, name="", armor=8, internal=14, rear=7),))
        scarred.append(replace(e, section=Section.SURVIVORS))
    jenner = [e for e in rebel.entities if e.chassis == "Jenner"]
    others = [e for e in rebel.entities if e.chassis != "Jenner"]
    wreck = [
        replace(
            e,
            section=Section.SALVAGE,
            locations=(Location(index=6, name="", armor=0, internal=0, destroyed=True),),
        )
        for e in jenner
    ]
    loyal_record = MulFile(
        root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION, entities=(*scarred, *wreck)
    )
    rebel_record = MulFile(
        root=RootKind.RECORD,
        version=DEFAULT_WRITE_VERSION,
        entities=(*(replace(e, section=Section.SURVIVORS) for e in others), *wreck),
    )
    a, b = out / "loyalist-record.mul", out / "rebel-record.mul"
    a.write_text(write_mul(loyal_record), encoding="utf-8")
    b.write_text(write_mul(rebel_record), encoding="utf-8")
    return a, b


def next_contract(out: Path, units: Path) -> None:
    """A group that keeps its books in MekHQ takes the record back and starts its next contract
    from it: a new campaign imports the survivors as the battle left them (issue 26: "make demo
    shows the import of a damaged unit and the record handed back")."""
    (record,) = sorted(out.glob("battle-*-loyalist-record.mul"))
    db = str(out / "next-contract.db")
    step("The next contract starts from that record: a new campaign", "campaign", "new",
         "--db", db, "--name", "Next contract", "--seed", "1",
         "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    step("The loyalists' survivors imported as the battle left them", "force", "import",
         "--db", db, "--side", "loyalist", str(record), "--units-dir", shown(units),
         "--unchecked", "--referee", "Demo",
         "--reason", "four survivors, not a battalion")  # fmt: skip
    step("Their condition as the new campaign keeps it: the Griffin still damaged", "force",
         "list", "--db", db, "--side", "loyalist")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mekref.daemon.samples.ginestra.demo")
    parser.add_argument("--out", type=Path, help="keep the files here (default: a temp folder)")
    parser.add_argument(
        "--sample",
        choices=("legal", "skirmish"),
        default="legal",
        help="legal: the two battalions with their BV table (default); skirmish: the small "
        "illegal sample, imported unchecked and without BV (read from the project folder)",
    )
    args = parser.parse_args(argv)
    units = LEGAL_UNITS if args.sample == "legal" else UNITS
    if not units.is_dir():
        print(f"demo: run it from the project folder (no {units})", file=sys.stderr)
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="ginestra-"))
    out.mkdir(parents=True, exist_ok=True)
    db = str(out / "ginestra.db")
    step("A campaign with the two Ginestra factions", "campaign", "new", "--db", db,
         "--name", "Ginestra", "--seed", "3065",
         "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    legal = args.sample == "legal"
    if legal:
        legal_forces_and_map(db)
        demo_dropships.link_union(db, step)
    else:
        forces_and_map(db)
    step("What the loyalists see before", "map", "render", "--db", db, "--side", "loyalist",
         "-o", str(out / "before-loyalist.png"))  # fmt: skip
    step("Rebel orders for day 1 (secret)", "orders", "submit", "--db", db, "--side", "rebel",
         "--day", "1", "--order", "bravo:orbital_insertion::1105",
         "--order", "r-militia:orbital_insertion::1712",
         "--param", "bravo:objective=raid")  # fmt: skip
    step("Loyalist orders for day 1 (secret)", "orders", "submit", "--db", db,
         "--side", "loyalist", "--day", "1", "--order", "alpha:guard",
         "--order", "l-guard:guard", "--order", "l-militia:move:0509,0609",
         *(demo_dropships.LOAD_DAY1 if legal else ()))  # fmt: skip
    step("The referee resolves day 1", "turn", "resolve", "--db", db, "--day", "1")
    for side in ("loyalist", "rebel"):
        step(f"The {side} scenario for MegaMek", "engagement", "export", "--db", db,
             "--side", side, "-o", str(out), "--units-dir", shown(units))  # fmt: skip
    engagement = "day1-1105-1"
    loyal_record, rebel_record = battle_records(out, engagement)
    step("The battle comes back from MegaMek", "battle", "ingest", "--db", db,
         str(loyal_record), str(rebel_record), "--control", "loyalist",
         "--units-dir", shown(units))  # fmt: skip
    step("The battle handed back to MekHQ: the loyalists' end-of-game record", "battle",
         "export-record", "--db", db, "--side", "loyalist", "-o", str(out),
         "--units-dir", shown(units))  # fmt: skip
    step("The same record read back", "inspect", *sorted(str(p) for p in
         out.glob("battle-*-loyalist-record.mul")), "--units-dir", shown(units))  # fmt: skip
    next_contract(out, units)
    step("The beaten rebels fall back (the referee decides where)", "turn", "reposition",
         "--db", db, "--formation", "bravo", "--hex", "1106", "--referee", "Demo",
         "--reason", "lost the assault on the Facility")  # fmt: skip
    step("Day 2: the loyalists ask the map for the militia's road to the Space Port", "route",
         "--db", db, "--side", "loyalist", "--formation", "l-militia", "--to", "0610")  # fmt: skip
    step("Day 2: the militia rolls on to the Space Port", "orders", "submit", "--db", db,
         "--side", "loyalist", "--day", "2", "--order", "l-militia:move:0610",
         *(demo_dropships.HOP_DAY2 if legal else ()))  # fmt: skip
    step("The referee resolves day 2", "turn", "resolve", "--db", db, "--day", "2")
    if legal:
        demo_dropships.day3(db, out, shown(units), step)
    step("What the loyalists see after", "map", "render", "--db", db, "--side", "loyalist",
         "-o", str(out / "after-loyalist.png"))  # fmt: skip
    step("What the rebels see after", "map", "render", "--db", db, "--side", "rebel",
         "-o", str(out / "after-rebel.png"))  # fmt: skip
    step("The referee's overview: formations, control, unrest, engagements and their battles, "
         "the WarChest, and the VP total (battle + strategic) against each end condition",
         "report", "--db", db, "--overview")  # fmt: skip
    pages(db)
    print(f"\nfiles in {out}")
    if args.out is None and "--keep" in (argv or []):
        shutil.rmtree(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
