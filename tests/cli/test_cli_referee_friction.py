"""What a referee meets playing a TripWire campaign through the console script: a set-up file
naming a side the campaign lacks, a tonnage no design gives, a withdrawal of an order that was
never given, the pool ids `--pool` takes, BV sums that leave units out, a loss of VP the floor
cuts, the examples of `engagement export --help`, and `inspect` on a list that writes a whole
location (each in a fresh process of the installed `mekref`)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from console_script import mekref_fresh as mekref
from legal_sample import set_up_legal

from mekref.daemon.samples.ginestra import LEGAL
from mekref.daemon.samples.replay import FOLDER as REPLAY

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "megamek"
WIDE = {"COLUMNS": "240"}


def _ok(*args: str) -> str:
    done = mekref(*args, env=WIDE)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def legal_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("legal") / "g.db")
    set_up_legal(_ok, db, name="TripWire", seed="3065")
    return db


def test_a_set_up_naming_a_side_the_campaign_lacks_names_the_campaigns_sides(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "c.db")
    _ok("campaign", "new", "--db", db, "--name", "TripWire", "--seed", "1",
        "--side", "loyalists:Loyalists", "--side", "federalists:Federalists")  # fmt: skip
    done = mekref("turn", "setup", "--db", db, "--file", str(LEGAL / "strategic.toml"))
    assert done.returncode == 2
    assert "side 'loyalist' is not a side of this campaign (sides: federalists, loyalists)" in (
        done.stderr
    )


def test_a_unit_without_a_design_has_an_unknown_tonnage_not_0(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    _ok("campaign", "new", "--db", db, "--name", "TripWire", "--seed", "1")
    done = mekref("force", "import", "--db", db, "--side", "loyalists", "--check-only",
                  str(FIXTURES / "Clan Boxset RS all.mul"), env=WIDE)  # fmt: skip
    # The boxset is no TripWire battalion: the check exits 3, as the import would refuse it.
    assert done.returncode == 3, done.stdout + done.stderr
    out = done.stdout
    row = next(line for line in out.splitlines() if "Puma (Adder) Prime" in line)
    cells = [c.strip() for c in row.split("│")]
    assert cells[4] == "unknown", row


def test_withdrawing_an_order_never_given_says_so(legal_db: str) -> None:
    _ok("orders", "submit", "--db", legal_db, "--side", "rebel", "--day", "1",
        "--order", "r-air:guard")  # fmt: skip
    out = _ok("orders", "withdraw", "--db", legal_db, "--side", "rebel", "--day", "1",
              "r-air", "r-air-2")  # fmt: skip
    assert "withdrew orders for r-air\n" in out
    assert "no order to withdraw for r-air-2 on day 1" in out


def test_the_report_gives_the_pool_ids_and_marks_bv_sums_that_leave_units_out(
    legal_db: str,
) -> None:
    out = _ok("report", "--db", legal_db)
    pools = out[out.index("WarChest") :]
    assert "forward-deployment-base" in pools and "Forward Deployment Base" in pools
    # The Chippewas and DropShips have no BV in the sample's table (R-VP-6).
    loyalist = next(line for line in out.splitlines() if line.startswith("│ loyalist │ 0"))
    assert "+ ? /" in loyalist and loyalist.count("+ ?") == 2, loyalist
    # The pool id the report prints is the one --pool takes.
    done = mekref("spend", "heal", "--db", legal_db, "--person", "Hptm. Karl Weber",
                  "--pool", "bagnorgeio")  # fmt: skip
    assert "unknown_pool" not in done.stderr


def test_engagement_export_help_shows_the_export_not_the_turn_commands() -> None:
    out = _ok("engagement", "export", "--help")
    assert "mekref engagement export --db g.db --side rebel -o out/ --engagement" in out
    assert "turret-damage" not in out
    assert "the side whose engagements are written" in out


def test_a_lost_vp_the_floor_cuts_is_explained(tmp_path: Path) -> None:
    db = str(tmp_path / "r.db")
    _ok("replay", str(REPLAY), "--db", db)
    out = _ok("report", "--db", db)
    assert "fedsuns: lost 8950 of 8950 BV, VP -2" in out
    assert "a side's VP never go below 0 (L414)" in out


SHADOW_HAWK = """<?xml version="1.0" encoding="UTF-8"?>
<unit version="0.49.19">
  <entity chassis="Shadow Hawk" model="SHD-2H" type="Biped">
    <pilot name="Giulia Conti" gunnery="4" piloting="5"/>
    <location index="1"><armor points="{ct}"/><armor points="18" type="Internal"/>
      <armor points="8" type="Rear"/></location>
  </entity>
</unit>
"""


@pytest.mark.parametrize(("ct", "state"), [(23, "intact"), (20, "damaged")])
def test_inspect_reads_a_location_written_whole_as_intact(
    tmp_path: Path, ct: int, state: str
) -> None:
    mul = tmp_path / "list.mul"
    mul.write_text(SHADOW_HAWK.format(ct=ct), encoding="utf-8")
    out = _ok("inspect", str(mul), "--units-dir", str(LEGAL / "units"))
    row = next(line for line in out.splitlines() if "Shadow Hawk" in line)
    assert f" {state} " in row, row


def test_a_waiting_battle_says_what_resolves_it(tmp_path: Path) -> None:
    # The replay sample without the referee's closing of its second battle: the Federated
    # Suns' record is missing and no side holds the field yet.
    folder = tmp_path / "replay"
    shutil.copytree(REPLAY, folder, ignore=shutil.ignore_patterns("02-*.after.json", "__*"))
    db = str(tmp_path / "r.db")
    _ok("replay", str(folder), "--db", db)
    out = _ok("battle", "pending", "--db", db)
    assert "battle battle-efb19ff8527d waits:" in out
    said = " ".join(out.split())
    assert "next: the file of fedsuns (mekref battle ingest FILE); mekref battle control " in said
    assert "or the referee closes it: mekref battle close --battle battle-efb19ff8527d" in said


def test_an_unknown_engagement_names_the_sides_engagements_and_a_fought_one_is_flagged(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "g.db")
    set_up_legal(_ok, db, name="TripWire", seed="3065")
    out = tmp_path / "out"
    done = mekref("engagement", "export", "--db", db, "--side", "rebel", "-o", str(out))
    assert done.returncode == 2
    assert "(an engagement comes from 'mekref turn resolve')" in done.stderr
    _ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
        "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    _ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
        "--order", "alpha:guard")  # fmt: skip
    _ok("turn", "resolve", "--db", db, "--day", "1")
    done = mekref("engagement", "export", "--db", db, "--side", "rebel", "-o", str(out),
                  "--engagement", "nope")  # fmt: skip
    assert done.returncode == 2
    assert "named 'nope' (its engagements: day1-1105-1)" in done.stderr
    written = _ok("engagement", "export", "--db", db, "--side", "rebel", "-o", str(out))
    assert "already has battle" not in written
    record = out / "rebel-record.mul"
    listed = (out / "day1-1105-1-rebel.mul").read_text(encoding="utf-8")
    survived = re.sub(r"<unit ([^>]*)>", r"<record \1><survivors>", listed)
    record.write_text(survived.replace("</unit>", "</survivors></record>"), encoding="utf-8")
    _ok("battle", "ingest", "--db", db, str(record))
    again = mekref("engagement", "export", "--db", db, "--side", "rebel", "-o", str(out))
    assert again.returncode == 0, again.stderr
    warning = "mekref engagement export: warning: engagement day1-1105-1 already has battle "
    assert warning + "battle-" in again.stderr and "warning" not in again.stdout


def test_a_spend_line_leaves_out_what_is_not_there_and_reads_the_referees_word(
    legal_db: str,
) -> None:
    out = _ok("spend", "hire", "--db", legal_db, "--side", "loyalist", "--pool", "bagnorgeio",
              "--name", "Nia Kell", "--gunnery", "4", "--piloting", "5", "--as", "mechwarrior",
              "--referee", "Ann", "--reason", "a walk-in")  # fmt: skip
    line = next(x for x in out.splitlines() if x.startswith("PersonHired:"))
    assert "note=Ann (a walk-in)" in line
    assert "None" not in line and "RefereeNote(" not in line
