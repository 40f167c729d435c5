"""The turn's command line on a real SQLite store: orders, resolution, export, the map."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_files import assert_playable_scenarios
from turn_world import LOYALIST, NOTE, REBEL, REFEREE, _force, mobility

from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.cli import main
from mekref.daemon.store import open_store
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations, StartStrategicMap


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "ginestra.db")
    store = open_store(path)
    try:
        runner = CampaignRunner(store)
        done = runner.create(
            CreateCampaign(
                actor=REFEREE,
                name="Ginestra",
                ruleset="tripwire",
                seed="cli",
                sides=(
                    SideSpec(side_id="loyalist", name="Loyalists"),
                    SideSpec(side_id="rebel", name="Rebels"),
                ),
            )
        )
        cid = done.campaign_id
        for side, rows in (("loyalist", LOYALIST), ("rebel", REBEL)):
            runner.execute(
                cid,
                ImportForce(actor=REFEREE, side_id=side, force=_force(rows), accept_unchecked=NOTE),
            )
        runner.execute(
            cid,
            StartStrategicMap(
                actor=REFEREE,
                map_name="ginestra",
                attacker="rebel",
                defender="loyalist",
                mobility=mobility(),
                control=(("Bagnorgeio", "loyalist"),),
            ),
        )
        for side, spec in (
            (
                "loyalist",
                FormationSpec(
                    formation_id="alpha",
                    name="Alpha",
                    unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"),
                    hex="0508",
                ),
            ),
            (
                "rebel",
                FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7", "R-MAD")),
            ),
        ):
            runner.execute(
                cid, PlaceFormations(actor=side, side_id=side, day=1, formations=(spec,))
            )
    finally:
        store.close()
    return path


def test_orders_resolve_export_and_map(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                 "--order", "alpha:move:0607,0707"]) == 0  # fmt: skip
    assert main(["orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
                 "--order", "bravo:orbital_insertion::0707",
                 "--param", "bravo:objective=raid"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["orders", "list", "--db", db, "--side", "rebel"]) == 0
    listed = capsys.readouterr().out
    assert "bravo: orbital_insertion -> 0707 (objective=raid)" in listed and "alpha" not in listed
    assert main(["turn", "resolve", "--db", db, "--day", "1"]) == 0
    out = capsys.readouterr().out
    assert "engagement day1-0707-1" in out
    target = tmp_path / "out"
    assert main(["engagement", "export", "--db", db, "--side", "rebel", "-o", str(target)]) == 0
    mul = read_mul_bytes((target / "day1-0707-1-rebel.mul").read_bytes())
    assert {e.external_id for e in mul.entities} == {"R-JR7", "R-MAD"}
    assert "Raid" in (target / "day1-0707-1-rebel.md").read_text(encoding="utf-8")
    svg = tmp_path / "rebel.svg"
    assert main(["map", "render", "--db", db, "--side", "rebel", "-o", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "Bravo" in text


def test_refused_orders_exit_3_with_the_reason(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                 "--order", "alpha:move:0607,0707,0806,0906"])  # fmt: skip
    assert code == 3
    err = capsys.readouterr().err
    assert "illegal_path" in err and "0906" in err
    code = main(["orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                 "--order", "alpha"])  # fmt: skip
    assert code == 2


def test_map_show_needs_no_database(tmp_path: Path) -> None:
    out = tmp_path / "g.svg"
    assert main(["map", "show", "-o", str(out)]) == 0
    assert "Bagnorgeio" in out.read_text(encoding="utf-8")


def test_the_ginestra_sample_sets_up_from_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mekref.daemon.samples.ginestra import FOLDER

    units = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
    db = str(tmp_path / "demo.db")
    assert main(["campaign", "new", "--db", db, "--name", "Ginestra", "--seed", "3065",
                 "--side", "loyalist:Loyalists", "--side", "rebel:Rebels"]) == 0  # fmt: skip
    for side in ("loyalist", "rebel"):
        assert main(["force", "import", "--db", db, "--side", side, str(FOLDER / f"{side}.mul"),
                     "--units-dir", str(units), "--unchecked", "--referee", "Ref",
                     "--reason", "demo forces"]) == 0  # fmt: skip
    assert main(["turn", "setup", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "loyalist: 4 formation(s) placed" in out and "rebel: 2 formation(s) placed" in out
    assert main(["turn", "resolve", "--db", db, "--day", "1"]) == 0
    # Bagnorgeio: militia and guard (6 units) garrison it, the leader sits in the seat of power
    # (1 + 2 VP); Alpha garrisons the Manufacturing Facility (1): 4. The rebels' base is held
    # by nobody on the ground yet: 0.
    assert "strategic VP: loyalist 4, rebel 0" in capsys.readouterr().out


def test_the_ginestra_demo_plays_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mekref.daemon.samples.ginestra import demo

    monkeypatch.chdir(Path(__file__).parents[2])
    assert demo.main(["--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "engagement day1-1105-1: assault in 1105" in out
    assert "loyalist holds the field" in out
    # Ruling T-E9: the battle closes its engagement and says who still shares the hex.
    assert "engagement day1-1105-1 closed by battle" in out
    # The last step is the referee's overview with the VP total against the 10-VP ending.
    overview = out[out.index("$ mekref report") :]
    assert "the referee's overview" in overview and "total / 10" in overview
    # The legal sample: both battalions and militias import without --unchecked; no check of
    # L8-L23 and L162 fails, and the 'Mech companies' BV limits (L10) are not known, as the
    # Chippewas have no BV (ruling R-FORCE-14), never "no violation".
    campaign = out[: out.index("$ mekref battle export-record")]
    assert campaign.count("force construction: not known (no violation found;") == 2
    assert "force construction: no violation" not in campaign
    assert "--unchecked" not in campaign
    # Issue 26: the record handed back starts the next contract with the unit as it came out.
    next_contract = out[out.index("## The next contract") :]
    assert "Griffin GRF-1N: came in damaged: Center Torso 15/27 armour, 14/18 structure" in (
        next_contract
    )
    # Strategic VP after day 4 as the day's resolution printed them (loyalist: Bagnorgeio 1 + 2
    # for the seat of power, the Facility 1, the Space Port 1; rebel: their Base 1). Every unit
    # of the battles has a BV from the sample's table, so their VP are known (R-VP-6): on day 1
    # the rebels lost the Jenner, 875 of Atlas 1897 + Marauder 1363 + Shadow Hawk 1064 + Jenner
    # 875 = 5199 (16.8%, under the 25% row of L414's table): 0 VP each, a known 0. On day 3
    # r-alpha-recon is wiped out (100%: L420, loyalist +2) for alpha's Locust (432 of 3869,
    # 11.2%: no row); the kept Griffin holds the Facility with alpha's three 'Mechs on day 4.
    assert "VP total (battle + strategic): loyalist 7 (2 + 5), rebel 1 (0 + 1)" in " ".join(
        overview.split()
    )
    # Day 4 set up no engagement; each battle names its engagement.
    assert "no engagement on the last resolved day" in overview
    assert "control loyalist, 2 file(s), engagement day1-1105-1" in overview
    assert "control loyalist, 2 file(s), engagement day3-1105-1" in overview
    for name in ("before-loyalist.png", "after-loyalist.png", "after-rebel.png",
                 "day1-1105-1-loyalist.mul", "day1-1105-1-rebel.md"):  # fmt: skip
        assert (tmp_path / name).exists(), name
    # Every scenario the demo writes loads and plays as intended (issue 26, item 4).
    assert assert_playable_scenarios(tmp_path) >= 1


def test_the_setup_file_puts_a_pool_with_the_unit_carrying_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """L58: "Repair and Rearm actions may only be taken when WarChest Points are available from
    that location": ``[transports]`` says where a DropShip or cargo pool is (R-WHERE-2)."""
    from mekref.daemon.samples.ginestra import FOLDER

    units = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
    db = str(tmp_path / "demo.db")
    assert main(["campaign", "new", "--db", db, "--name", "Ginestra", "--seed", "3065",
                 "--side", "loyalist:Loyalists", "--side", "rebel:Rebels"]) == 0  # fmt: skip
    for side in ("loyalist", "rebel"):
        assert main(["force", "import", "--db", db, "--side", side, str(FOLDER / f"{side}.mul"),
                     "--units-dir", str(units), "--unchecked", "--referee", "Ref",
                     "--reason", "demo forces"]) == 0  # fmt: skip
    assert main(["pool", "open", "--db", db, "--side", "loyalist", "--id", "chest",
                 "--name", "Chest", "--cargo-tons", "10"]) == 0  # fmt: skip
    text = (FOLDER / "strategic.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text + '\n[transports]\n"chest" = "Atlas AS7-D"\n', encoding="utf-8")
    assert main(["turn", "setup", "--db", db, "--file", str(bad)]) != 0
    assert "side loyalist has no unit named 'Atlas AS7-D'" in capsys.readouterr().err
    good = tmp_path / "good.toml"
    good.write_text(text + '\n[transports]\n"chest" = "Griffin GRF-1N"\n', encoding="utf-8")
    assert main(["turn", "setup", "--db", db, "--file", str(good)]) == 0
    store = open_store(db)
    try:
        (cid,) = [c.id for c in store.list_campaigns()]
        state = CampaignRunner(store).load(cid).state
    finally:
        store.close()
    (griffin,) = [u.unit_id for u in state.units.values() if u.chassis == "Griffin"]
    assert state.strategic is not None and state.strategic.transports == {"chest": griffin}
