"""``mekref turn setup`` takes mobility from the stored designs and opens the location pools.

Rulings T-SU1 (mobility from the design) and T-SU2 (location pools at the start), docs/turn.md.
L57: "Each force has a supply of WarChest Points associate with each Location they control".
L58: "Repair and Rearm actions may only be taken when WarChest Points are available from that
location."
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref

from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.daemon.cli_common import CliError, campaign_id_of, opened
from mekref.daemon.samples.ginestra import FOLDER
from mekref.daemon.tripwire.cli_turn_setup import _unit_mobility
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.setup import design_mobility

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
SAMPLE = (FOLDER / "strategic.toml").read_text(encoding="utf-8")
MOBILITY_KEYS = re.compile(r"^(walk|mode|rugged|safe_thrust) *=")


def _ok(*args: str) -> Any:
    done = mekref(*args)
    assert done.returncode == 0, done.stderr + done.stdout
    return done


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A campaign with the Ginestra forces imported (their designs kept), not yet set up."""
    db = tmp_path_factory.mktemp("imported") / "g.db"
    _ok("campaign", "new", "--db", str(db), "--name", "G", "--seed", "1",
        "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    for side in ("loyalist", "rebel"):
        _ok("force", "import", "--db", str(db), "--side", side, str(FOLDER / f"{side}.mul"),
            "--units-dir", str(UNITS), "--unchecked",
            "--referee", "Ref", "--reason", "x")  # fmt: skip
    return db


def _copy(db: Path, to: Path) -> str:
    target = to / "g.db"
    shutil.copy(db, target)
    return str(target)


def _state(db: str) -> CampaignState:
    with opened(db) as app:
        state = app.runner.load(campaign_id_of(app.store, None)).state
    assert isinstance(state, CampaignState)
    return state


def _file(tmp_path: Path, text: str, name: str = "setup.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_mobility_comes_from_the_designs(imported: Path, tmp_path: Path) -> None:
    """The sample with its per-design walk, mode, Rugged and safe thrust removed gives the same
    mobility as the sample as it is (T-SU1); the sample itself says nothing different."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    full, bare = _copy(imported, tmp_path / "a"), _copy(imported, tmp_path / "b")
    done = _ok("turn", "setup", "--db", full)
    assert "warning" not in done.stderr  # the sample's values are its designs'
    stripped = "\n".join(ln for ln in SAMPLE.splitlines() if not MOBILITY_KEYS.match(ln))
    assert "walk =" not in stripped and "fuel = 400" in stripped
    done = _ok("turn", "setup", "--db", bare, "--file", _file(tmp_path, stripped))
    assert "warning" not in done.stderr
    a, b = _state(full).strategic, _state(bare).strategic
    assert a is not None and b is not None
    assert a.mobility == b.mobility and len(a.mobility) == 21
    griffin = next(m for u, m in a.mobility.items() if _state(full).units[u].chassis == "Griffin")
    assert griffin.rugged and griffin.walk_mp == 5 and griffin.mode == "leg"


def test_a_value_that_differs_from_the_design_is_kept_with_a_warning(
    imported: Path, tmp_path: Path
) -> None:
    db = _copy(imported, tmp_path)
    text = SAMPLE.replace('name = "Atlas AS7-D"\nwalk = 3', 'name = "Atlas AS7-D"\nwalk = 2')
    assert text != SAMPLE
    done = _ok("turn", "setup", "--db", db, "--file", _file(tmp_path, text))
    said = " ".join(done.stderr.split())
    assert "warning: Atlas AS7-D: the set-up file gives walk/cruise MP 2, its design 3" in said
    state = _state(db)
    assert state.strategic is not None
    atlas = [m for u, m in state.strategic.mobility.items() if state.units[u].chassis == "Atlas"]
    assert atlas and all(m.walk_mp == 2 for m in atlas)


def test_what_neither_the_design_nor_the_file_says_is_refused(
    imported: Path, tmp_path: Path
) -> None:
    db = _copy(imported, tmp_path)
    no_fuel = SAMPLE.replace("fuel = 400\n", "")
    done = mekref("turn", "setup", "--db", db, "--file", _file(tmp_path, no_fuel))
    assert done.returncode != 0
    said = " ".join(done.stderr.split())
    assert "'Rapier RPR-300'" in said and "add fuel = ..." in said
    assert _state(db).strategic is None  # nothing recorded
    # A unit imported without its design, with no [[unit]] entry: refused, naming it and what
    # to do; with the entry it is taken, quirks unknown said.
    with pytest.raises(CliError, match=r"'Thing T-1' \(unit u1\): no design is kept.*walk = "):
        _unit_mobility(CampaignState(), "u1", "Thing T-1", None, [])
    warnings: list[str] = []
    got = _unit_mobility(CampaignState(), "u1", "Thing T-1", {"walk": 4, "mode": "leg"}, warnings)
    assert got.walk_mp == 4 and not got.rugged
    assert any("not Rugged" in w for w in warnings) and any("crew_slots" in w for w in warnings)


def test_design_mobility_reads_kind_motive_and_quirks(imported: Path) -> None:
    state = _state(str(imported))
    by_name = {d.display_name: design_mobility(d) for d in state.battles.designs.values()}
    assert by_name["Griffin GRF-1N"].rugged  # quirk:rugged_1
    assert not by_name["Atlas AS7-D"].rugged
    rapier = by_name["Rapier RPR-300"]
    assert (rapier.mode, rapier.walk_mp, rapier.safe_thrust) == ("aerospace", 6, 6)
    assert by_name["Foot Platoon (Rifle)"].walk_mp == 1  # foot infantry: 1 MP
    assert by_name["Bulldog Medium Tank"].mode == "tracked"
    assert by_name["Bulldog Medium Tank"].crew_slots is None  # the file says (4)
    kinds = {d.display_name: d.kind for d in state.battles.designs.values()}
    assert kinds["Rapier RPR-300"] is UnitKind.AEROSPACE_FIGHTER


def test_held_locations_get_their_pools(imported: Path, tmp_path: Path) -> None:
    """L57: "Each force has a supply of WarChest Points associate with each Location they
    control": each held location gets a pool when the map starts (T-SU2)."""
    db = _copy(imported, tmp_path)
    # Opened before: a location pool for the Space Port under another id (no second pool), and
    # a cargo pool holding the id the Manufacturing Facility's would take (said, not opened).
    _ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "port", "--name", "Port",
        "--location", "Bagnorgeio Space Port")  # fmt: skip
    _ok("pool", "open", "--db", db, "--side", "loyalist",
        "--id", "combat-systems-manufacturing-facility",
        "--name", "Truck", "--cargo-tons", "10")  # fmt: skip
    done = _ok("turn", "setup", "--db", db)
    out, err = " ".join(done.stdout.split()), " ".join(done.stderr.split())
    assert "loyalist: WarChest pool 'bagnorgeio' opened for Bagnorgeio (L57)" in out
    assert "rebel: WarChest pool 'forward-deployment-base' opened for Forward Deployment Base" in (
        out
    )
    assert "no pool opened for 'Combat Systems Manufacturing Facility' (loyalist)" in err
    assert "mekref pool open --location" in err
    pools = _state(db).pools
    located = sorted((p.location, p.side_id) for p in pools.values() if p.location is not None)
    assert located == [
        ("Bagnorgeio", "loyalist"),
        ("Bagnorgeio Space Port", "loyalist"),
        ("Forward Deployment Base", "rebel"),
    ]
    assert pools["bagnorgeio"].balance > 0 and pools["bagnorgeio"].name == "Bagnorgeio"
