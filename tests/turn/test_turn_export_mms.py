"""End to end, through the installed console script: a TripWire engagement of the Ginestra demo
goes out as a MegaMek scenario that passes the checker MegaMek's own scenarios pass, carries the
damage of the last battle, and names every unit by the same id as the unit lists (so the record
that comes back matches without --assign: the battle below is ingested that way).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from console_script import mekref

from mekref.adapters.megamek.mms_check import check_mms, check_playable, parse_mms
from mekref.adapters.megamek.mms_options import read_game_options
from mekref.adapters.megamek.mul_model import Location, MulFile, RootKind, Section, Slot
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.daemon.samples.ginestra import FOLDER

ROOT = Path(__file__).parents[2]
UNITS = ROOT / "tests" / "fixtures" / "megamek" / "units"
ENGAGEMENT = "day1-1105-1"
FULL_BINS = (
    '<location index="2"> Right Torso\n'
    '<slot index="5" type="IS Ammo LRM-10" shots="12"/>\n'
    '<slot index="6" type="IS Ammo LRM-10" shots="12"/>\n'
    "</location>\n"
)
#: The Griffin's pilot gets an ability and edge (an edit of the sample list, made here): the
#: scenario must then switch on pilot_advantages and edge, or MegaMek's lobby clears them.
PILOT = 'name="Lt. Anna Ferri" nick="" gunnery="4" piloting="5" ejected="false"'
PILOT_WITH_OPTIONS = PILOT + ' advantages="dodge_maneuver" edge="edge 1::edge_when_tac"'


def _ok(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _warned(*args: str) -> str:
    """``engagement export``: it must succeed; its warnings (standard error: standard output
    lists only the files written)."""
    done = mekref(*args)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stdout, done.stdout
    return done.stderr


@pytest.fixture
def campaign(tmp_path: Path) -> str:
    loyal = (FOLDER / "loyalist.mul").read_text(encoding="utf-8")
    griffin_line = '<entity chassis="Griffin" model="GRF-1N" type="Biped">\n'
    (tmp_path / "loyalist.mul").write_text(
        loyal.replace(griffin_line, griffin_line + FULL_BINS).replace(PILOT, PILOT_WITH_OPTIONS),
        encoding="utf-8",
    )
    db = str(tmp_path / "g.db")
    _ok("campaign", "new", "--db", db, "--name", "Ginestra", "--seed", "3065",
        "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    for side, path in (("loyalist", tmp_path / "loyalist.mul"), ("rebel", FOLDER / "rebel.mul")):
        _ok("force", "import", "--db", db, "--side", side, str(path), "--units-dir", str(UNITS),
            "--unchecked", "--referee", "Ref", "--reason", "test forces")  # fmt: skip
    _ok("turn", "setup", "--db", db)
    _ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
        "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    _ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
        "--order", "alpha:guard")  # fmt: skip
    _ok("turn", "resolve", "--db", db, "--day", "1")
    return db


def test_the_engagement_goes_out_as_a_megamek_scenario(campaign: str, tmp_path: Path) -> None:
    db = campaign
    boards = tmp_path / "boards" / "Build-It"
    boards.mkdir(parents=True)
    (boards / "City Hills 2 Build-It Urban.board").write_text("size 16 17\nend\n")
    out = tmp_path / "first"
    said = _warned("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(out),
                   "--units-dir", str(UNITS), "--boards-dir", str(tmp_path / "boards"),
                   "--player", "rebel=Voss")  # fmt: skip
    # The unit list and sheet still come (the default writes both), and the scenario.
    assert sorted(p.name for p in out.iterdir()) == [
        f"{ENGAGEMENT}-loyalist.md", f"{ENGAGEMENT}-loyalist.mul",
        f"{ENGAGEMENT}-options.xml", f"{ENGAGEMENT}.mms",
    ]  # fmt: skip
    assert "RANDOM board for City Street Grid #1 (Build-It Urban)" in said
    m = parse_mms((out / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8"))
    assert check_mms(m) == []
    assert m.factions == ("Loyalists", "Voss")
    assert m.get("Maps") == "Build-It/City Hills 2 Build-It Urban,RANDOM"
    # The RANDOM sheet is drawn from MegaMek's stock folders of 16 x 17 sheets (ruling MMS-6).
    assert m.get("RandomDirs") == "Map Set 2,Map Set 3"
    assert "drawn from Map Set 2, Map Set 3" in said
    # The shipped mapping names a stock board the given data/boards lacks: by name instead.
    assert (
        "City Hills #2 (Build-It Urban): mapped to Map Set 3/16x17 City Hills Residential 2, "
        "which --boards-dir does not hold"
    ) in said
    # An assault: the defender holds the north edge, the attacker comes in from the south.
    assert (m.get("Location_Loyalists"), m.get("Location_Voss")) == ("N", "S")
    # The loyalists ambush: hidden deployment is switched on in the options file.
    assert "<optionname>hidden_units</optionname>" in (out / f"{ENGAGEMENT}-options.xml").read_text(
        encoding="utf-8"
    )
    assert m.get("GameOptionsFile") == f"{ENGAGEMENT}-options.xml"
    # The pilot's ability and edge switch their options on (ruling MMS-5); the file passes the
    # play check; the export says the options sit over MegaMek's defaults, not the host's.
    options = dict(read_game_options((out / f"{ENGAGEMENT}-options.xml").read_bytes(), "o"))
    assert options == {"hidden_units": "true", "pilot_advantages": "true", "edge": "true"}
    assert check_playable(m, options) == []
    text = (out / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8")
    assert "#   game option edge on: Loyalists: Griffin GRF-1N has pilot options" in text
    assert "over MegaMek's defaults" in said and "--host-options" in said
    assert m.get("PlanetaryConditionsWeather") is not None
    units = m.units()
    ids = {m.unit_value(u.key, "ExternalID") for u in units}
    loyal = read_mul_bytes((out / f"{ENGAGEMENT}-loyalist.mul").read_bytes())
    assert {e.external_id for e in loyal.entities} <= ids and len(ids) == len(units) == 8
    # The attacker arrives on a later round; the defender is deployed at the start.
    rounds = {u.faction: m.unit_value(u.key, "DeploymentRound") for u in units}
    assert rounds["Loyalists"] is None and rounds["Voss"] is not None

    # The battle: a record with those ids (Griffin down to 2 shots in one bin, a gyro hit).
    rebel_out = tmp_path / "rebel"
    _ok("engagement", "export", "--db", db, "--side", "rebel", "-o", str(rebel_out),
        "--format", "mul")  # fmt: skip
    assert not list(rebel_out.glob("*.mms"))
    rebel = read_mul_bytes((rebel_out / f"{ENGAGEMENT}-rebel.mul").read_bytes())
    hit = [
        replace(
            e,
            section=Section.SURVIVORS,
            locations=(
                Location(
                    index=1,
                    name="Center Torso",
                    slots=(Slot(index=4, type="System", is_hit=True, is_destroyed=False),),
                ),
                Location(
                    index=2,
                    name="Right Torso",
                    slots=(
                        Slot(index=5, type="IS Ammo LRM-10", shots=2),
                        Slot(index=6, type="IS Ammo LRM-10", shots=12),
                    ),
                ),
            ),
        )
        if e.chassis == "Griffin"
        else replace(e, section=Section.SURVIVORS)
        for e in loyal.entities
    ]
    records = []
    for name, entities in (
        ("l.mul", hit),
        ("r.mul", [replace(e, section=Section.SURVIVORS) for e in rebel.entities]),
    ):
        path = tmp_path / name
        mul = MulFile(root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION, entities=tuple(entities))
        path.write_text(write_mul(mul), encoding="utf-8")
        records.append(str(path))
    _ok("battle", "ingest", "--db", db, *records, "--control", "loyalist",
        "--units-dir", str(UNITS))  # fmt: skip

    after = tmp_path / "after"
    _ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(after),
        "--units-dir", str(UNITS), "--format", "mms")  # fmt: skip
    assert [p.name for p in after.glob("*.mul")] == []
    m2 = parse_mms((after / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8"))
    assert check_mms(m2) == []
    (griffin,) = [u for u in m2.units() if u.name == "Griffin GRF-1N"]
    assert m2.unit_value(griffin.key, "CritHit") == "1:4"
    assert "2:5-2" in (m2.unit_value(griffin.key, "SetAmmoTo") or "")


def test_the_host_options_are_kept_under_the_switched_ones(campaign: str, tmp_path: Path) -> None:
    host = tmp_path / "gameoptions.xml"
    host.write_text(
        "<?xml version='1.0'?><options><gameoption><optionname>double_blind</optionname>"
        "<optionvalue>true</optionvalue></gameoption><gameoption><optionname>edge</optionname>"
        "<optionvalue>false</optionvalue></gameoption></options>",
        encoding="utf-8",
    )
    out = tmp_path / "o"
    said = _warned("engagement", "export", "--db", campaign, "--side", "loyalist", "-o",
                   str(out), "--format", "mms", "--host-options", str(host))  # fmt: skip
    options = read_game_options((out / f"{ENGAGEMENT}-options.xml").read_bytes(), "o")
    assert options == (
        ("double_blind", "true"), ("edge", "true"),
        ("hidden_units", "true"), ("pilot_advantages", "true"),
    )  # fmt: skip
    assert "over the host's options from --host-options" in said
    (out / "bad.xml").write_text("<nope/>", encoding="utf-8")
    done = mekref("engagement", "export", "--db", campaign, "--side", "loyalist", "-o", str(out),
                  "--format", "mms", "--host-options", str(out / "bad.xml"))  # fmt: skip
    assert done.returncode != 0 and "bad_host_options" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_mapped_boards_go_in_by_name_and_a_referee_extends_the_mapping(
    campaign: str, tmp_path: Path
) -> None:
    out = tmp_path / "o"
    args = ("engagement", "export", "--db", campaign, "--side", "loyalist", "--format", "mms")
    _ok(*args, "-o", str(out))
    m = parse_mms((out / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8"))
    # The shipped mapping knows the sample's City Hills #2; City Street Grid #1 is drawn at random.
    assert m.get("Maps") == "Map Set 3/16x17 City Hills Residential 2,RANDOM"
    assert m.get("RandomDirs") == "Map Set 2,Map Set 3"
    mine = tmp_path / "boards.toml"
    mine.write_text(
        'random_dirs = ["Mine"]\n[boards]\n"City Street Grid #1 (Build-It Urban)" = '
        '"Mine/16x17 Street Grid.board"\n',
        encoding="utf-8",
    )
    _ok(*args, "-o", str(out), "--board-map", str(mine))
    m = parse_mms((out / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8"))
    assert m.get("Maps") == "Map Set 3/16x17 City Hills Residential 2,Mine/16x17 Street Grid"
    # No RANDOM board left: no RandomDirs, and the file passes both checks.
    assert m.get("RandomDirs") is None
    options = dict(read_game_options((out / f"{ENGAGEMENT}-options.xml").read_bytes(), "o"))
    assert check_mms(m) == [] and check_playable(m, options) == []
    mine.write_text("[boards]\nsheet = 3\n", encoding="utf-8")
    done = mekref(*args, "-o", str(out), "--board-map", str(mine))
    assert done.returncode != 0 and "bad_board_map" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_unknown_house_rule_is_refused_with_the_known_ones(campaign: str, tmp_path: Path) -> None:
    done = mekref("engagement", "export", "--db", campaign, "--side", "loyalist",
                  "-o", str(tmp_path / "o"), "--format", "mms", "--house-rule", "nope")  # fmt: skip
    assert done.returncode != 0
    assert "unknown_house_rule" in done.stderr and "heavy_woods_jump" in done.stderr


def test_a_house_rule_without_a_megamek_option_stays_on_the_sheet(
    campaign: str, tmp_path: Path
) -> None:
    """House rules L28 "the targeting computer can be used to focus shots to a specific side
    of the target at a +1 penalty": MegaMek has no game option for it (OptionsConstants), so
    the export names it in the file's notes and its output for the players to apply; L29's
    jump into heavy woods is MegaMek's psr_jump_heavy_woods, switched on in the options file."""
    out = tmp_path / "o"
    done = mekref("engagement", "export", "--db", campaign, "--side", "loyalist", "-o", str(out),
                  "--format", "mms", "--house-rule", "tc_focus", "--house-rule",
                  "heavy_woods_jump")  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = "Targeting computer focus (+1, side tables) instead of aimed shots (line 28): MegaMek"
    assert said in done.stdout + done.stderr
    text = (out / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8")
    assert said in text and "the players apply it at the table" in text
    options = dict(read_game_options((out / f"{ENGAGEMENT}-options.xml").read_bytes(), "o"))
    assert options.get("psr_jump_heavy_woods") == "true"


def test_weather_rows_map_onto_megameks_enums() -> None:
    # Ruling MMS-3: rain and wind by row; a tornado raises the wind; unrecorded sets nothing.
    from mekref.adapters.megamek.mms_writer import MmsConditions
    from mekref.rules.tripwire.turn.export_mms import conditions_of
    from mekref.rules.tripwire.turn.weather import level_name

    assert conditions_of(level_name(1)) == MmsConditions(weather=0, wind=0)
    assert conditions_of(level_name(4)) == MmsConditions(weather=2, wind=2)
    assert conditions_of(level_name(6) + ", lightning") == MmsConditions(weather=5, wind=4)
    assert conditions_of(level_name(6) + ", tornado") == MmsConditions(weather=5, wind=5)
    assert conditions_of("not recorded") is None


def test_boards_match_by_name_letters_and_digits_only() -> None:
    from mekref.rules.tripwire.turn.export_mms import match_boards

    boards = ["Build-It/City Hills 2 Build-It Urban", "Map Set 2/16x17 BattleTech"]
    sheets = ("City Hills #2 (Build-It Urban)", "Rolling Hills #1")
    assert match_boards(sheets, boards) == {
        "City Hills #2 (Build-It Urban)": "Build-It/City Hills 2 Build-It Urban"
    }
