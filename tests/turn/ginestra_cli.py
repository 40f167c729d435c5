"""The Ginestra sample at Day Zero through the installed console script, for CLI tests."""

from __future__ import annotations

from pathlib import Path

from console_script import mekref

from mekref.daemon.samples.ginestra import FOLDER, LEGAL, LEGAL_MILITIA

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"


def ok(*args: str) -> str:
    """Run ``mekref ARGS``; it must succeed. Returns what it printed."""
    done = mekref(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def day_zero(
    tmp_path: Path,
    seed: str = "1",
    bv_table: str | None = None,
    *,
    house_rules: bool = False,
    extra_units: dict[str, str] | None = None,
    units_dir: Path = UNITS,
    extra_setup: str = "",
) -> str:
    """A new store with both Ginestra forces imported and the map set up; returns its path.

    ``bv_table``: the text of a Units.txt BV table to import the forces with (``--bv-table``);
    without it the units have no BV. ``house_rules``: the campaign is created with
    ``--house-rules``. ``extra_units``: side -> MegaMek ``<entity>`` elements added to that
    side's sample unit list, their designs found in ``units_dir``; ``extra_setup``: TOML added
    to the end of the sample set-up file (more ``[[unit]]`` and ``[[formation]]`` tables). The
    sample files themselves are not changed."""
    db = str(tmp_path / "g.db")
    table: tuple[str, ...] = ()
    if bv_table is not None:
        (tmp_path / "Units.txt").write_text(bv_table, encoding="utf-8")
        table = ("--bv-table", str(tmp_path / "Units.txt"))
    extra = ("--house-rules",) if house_rules else ()
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", seed,
       "--side", "loyalist:L", "--side", "rebel:R", *extra)  # fmt: skip
    for side in ("loyalist", "rebel"):
        mul = FOLDER / f"{side}.mul"
        if extra_units and side in extra_units:
            text = mul.read_text(encoding="utf-8").replace("</unit>", extra_units[side] + "</unit>")
            mul = tmp_path / f"{side}.mul"
            mul.write_text(text, encoding="utf-8")
        ok("force", "import", "--db", db, "--side", side, str(mul),
           "--units-dir", str(units_dir), *table, "--unchecked",
           "--referee", "Ref", "--reason", "x")  # fmt: skip
    if not extra_setup:
        ok("turn", "setup", "--db", db)
        return db
    setup = tmp_path / "strategic.toml"
    setup.write_text(
        (FOLDER / "strategic.toml").read_text(encoding="utf-8") + extra_setup, encoding="utf-8"
    )
    ok("turn", "setup", "--db", db, "--file", str(setup))
    return db


def legal_day_zero(tmp_path: Path, seed: str = "1") -> str:
    """A new store with the legal Ginestra sample (daemon/samples/ginestra/legal: both
    battalions and militias, their designs and BV table) imported checked, and its map set up."""
    db = str(tmp_path / "legal.db")
    ok("campaign", "new", "--db", db, "--name", "Ginestra", "--seed", seed,
       "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    for side in ("loyalist", "rebel"):
        ok("force", "import", "--db", db, "--side", side, str(LEGAL / f"{side}.mul"),
           "--units-dir", str(LEGAL / "units"), "--bv-table", str(LEGAL / "Units.txt"),
           "--militia", LEGAL_MILITIA[side])  # fmt: skip
    ok("turn", "setup", "--db", db, "--file", str(LEGAL / "strategic.toml"))
    return db


def legal_export(db: str, out: Path) -> None:
    """Both sides' scenario files of the legal sample's open engagements, written to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for side in ("loyalist", "rebel"):
        ok("engagement", "export", "--db", db, "--side", side, "-o", str(out),
           "--units-dir", str(LEGAL / "units"))  # fmt: skip


def legal_ingest(db: str, files: list[str], control: str = "loyalist") -> str:
    """``battle ingest`` of the legal sample's battle files, its output on one line."""
    out = ok("battle", "ingest", "--db", db, *files, "--control", control,
             "--units-dir", str(LEGAL / "units"))  # fmt: skip
    return " ".join(out.split())
