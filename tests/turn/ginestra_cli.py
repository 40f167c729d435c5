"""The Ginestra sample at Day Zero through the installed console script, for CLI tests."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from console_script import mekref
from legal_sample import set_up_legal

from mekref.daemon.samples.ginestra import FOLDER, LEGAL

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"


def ok(*args: str) -> str:
    """Run ``mekref ARGS``; it must succeed. Returns what it printed."""
    done = mekref(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


#: Set-ups already run in this test process: their arguments -> the folder they were built in.
_BUILT: dict[tuple[object, ...], Path] = {}


def _once(key: tuple[object, ...], tmp_path: Path, build: Callable[[Path], str]) -> str:
    """``build(folder)`` run once per test process for each ``key``, in a private folder; every
    call copies that folder's files (the store, its lock folder, the files written beside it)
    into ``tmp_path``. The set-up is four ``mekref`` runs (seconds each on a busy machine); the
    store keeps no path of its folder, so each test still gets a fresh store of its own, as if
    it had run them itself. What copies share: the campaign id and the recorded times of the
    set-up events (no caller compares those across tests)."""
    # Lists in the arguments (extra set-up options) are keyed by their items.
    key = tuple(tuple(k) if isinstance(k, list) else k for k in key)
    if key not in _BUILT:
        folder = Path(tempfile.mkdtemp(prefix="mekref-day-zero-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        name = Path(build(folder)).name
        _BUILT[key] = folder / name
    built = _BUILT[key]
    shutil.copytree(built.parent, tmp_path, dirs_exist_ok=True)
    return str(tmp_path / built.name)


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
    key = ("day_zero", seed, bv_table, house_rules, extra_units and sorted(extra_units.items()),
           str(units_dir), extra_setup)  # fmt: skip
    return _once(
        key,
        tmp_path,
        lambda folder: _day_zero(
            folder, seed, bv_table, house_rules, extra_units, units_dir, extra_setup
        ),
    )


def _day_zero(
    tmp_path: Path,
    seed: str,
    bv_table: str | None,
    house_rules: bool,
    extra_units: dict[str, str] | None,
    units_dir: Path,
    extra_setup: str,
) -> str:
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
    return _once(("legal_day_zero", seed), tmp_path, lambda folder: _legal_day_zero(folder, seed))


def _legal_day_zero(tmp_path: Path, seed: str) -> str:
    return set_up_legal(ok, str(tmp_path / "legal.db"), name="Ginestra", seed=seed)


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
