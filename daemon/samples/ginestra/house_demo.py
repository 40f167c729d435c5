"""Play the Ginestra campaign with the house rules on (``campaign new --house-rules``): the
random pre-battle damage, a morale test, the battle's survivors gaining experience and one of
them spending it, a maintenance day with the house maintenance check, and what ``mekref
report`` shows of them (docs/house-rules.md, HOUSE-31 onwards).

Run from the project folder (it reads the fixture unit designs):
``python -m mekref.daemon.samples.ginestra.house_demo [--out DIR]``. Every step is a ``mekref``
command, printed before it runs, as in :mod:`.demo`.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
from contextlib import redirect_stdout
from pathlib import Path

from mekref.daemon.cli import main as cli
from mekref.daemon.samples.ginestra.demo import UNITS, battle_records, forces_and_map, step

#: This demo group's experience prices: the house rules print none (ruling HOUSE-24).
PRICES = "# the demo group's own prices (the text prints none)\n[gunnery]\n3 = 1\n2 = 5\n"


def griffin_and_pilot(db: str) -> tuple[str, str]:
    """The ids the import gave the Griffin and its pilot, read from ``mekref report --json``."""
    text = io.StringIO()
    with redirect_stdout(text):
        cli(["report", "--db", db, "--json"])
    report = json.loads(text.getvalue())
    griffin = next(u["id"] for u in report["units"] if u["chassis"] == "Griffin")
    pilot = next(p["id"] for p in report["people"] if p["unit"] == griffin)
    return griffin, pilot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mekref.daemon.samples.ginestra.house_demo")
    parser.add_argument("--out", type=Path, help="keep the files here (default: a temp folder)")
    args = parser.parse_args(argv)
    if not UNITS.is_dir():
        print(f"demo: run it from the project folder (no {UNITS})", file=sys.stderr)
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="ginestra-house-"))
    out.mkdir(parents=True, exist_ok=True)
    db = str(out / "ginestra-house.db")
    step("A Ginestra campaign with the house rules as its options", "campaign", "new",
         "--db", db, "--name", "Ginestra (house rules)", "--seed", "2",
         "--side", "loyalist:Loyalists", "--side", "rebel:Rebels", "--house-rules")  # fmt: skip
    forces_and_map(db)
    griffin, pilot = griffin_and_pilot(db)
    step("Rebel orders for day 1", "orders", "submit", "--db", db, "--side", "rebel",
         "--day", "1", "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    step("Loyalist orders for day 1", "orders", "submit", "--db", db, "--side", "loyalist",
         "--day", "1", "--order", "alpha:guard")  # fmt: skip
    step("The referee resolves day 1", "turn", "resolve", "--db", db, "--day", "1")
    step("House rules L134: the Griffin was in a fight before this one", "battle",
         "pre-damage", "--db", db, "--unit", griffin)  # fmt: skip
    for side in ("loyalist", "rebel"):
        step(f"The {side} scenario for MegaMek (the pre-battle damage in it)", "engagement",
             "export", "--db", db, "--side", side, "-o", str(out),
             "--units-dir", str(UNITS))  # fmt: skip
    engagement = "day1-1105-1"
    step("House rules L107: the Griffin's morale test in turn 4", "battle", "morale",
         "--db", db, "--unit", griffin, "--battle", engagement, "--turn", "4",
         "--nationality", "Steiner", "--situation", "force_50")  # fmt: skip
    loyal_record, rebel_record = battle_records(out, engagement)
    step("The battle comes back: every survivor gains 1 XP (house rules L154)", "battle",
         "ingest", "--db", db, str(loyal_record), str(rebel_record), "--control", "loyalist",
         "--units-dir", str(UNITS))  # fmt: skip
    prices = out / "xp-prices.toml"
    prices.write_text(PRICES, encoding="utf-8")
    step("The group's experience prices (house rules L153)", "spend", "xp-costs", "--db", db,
         "--file", str(prices))  # fmt: skip
    step("Lt. Anna Ferri spends her XP on Gunnery", "spend", "xp", "--db", db,
         "--person", pilot, "--skill", "gunnery")  # fmt: skip
    step("The rebels fall back; Alpha does its maintenance on day 2 (TripWire L199)", "turn",
         "reposition", "--db", db, "--formation", "bravo", "--hex", "1106", "--referee", "Demo",
         "--reason", "lost the assault on the Facility")  # fmt: skip
    step("Loyalist orders for day 2", "orders", "submit", "--db", db, "--side", "loyalist",
         "--day", "2", "--order", "alpha:maintenance")  # fmt: skip
    step("The referee resolves day 2", "turn", "resolve", "--db", db, "--day", "2")
    step("House rules L94: the Griffin's maintenance check (the referee's target number)",
         "turn", "maintenance-check", "--db", db, "--unit", griffin, "--target", "7",
         "--quality", "D")  # fmt: skip
    step("The books with the house rules: damage, morale, experience, quality", "report",
         "--db", db)  # fmt: skip
    print(f"\nfiles in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
