"""Issue 17, "A side can forge battle results": a side's file speaks only for what it could know.

Red uploads, with its own side token, against a real ``mekref serve --grpc``, its record of the
battle plus six of Blue's militia units (never in the battle) written as devastated, and a kill
line for each. Blue uploads its honest record, which does not list them; the referee gives Red
the field. Ruling BR-12: the claims are held as conflicts in the battle report and never
applied: the militia stay operational and Blue's, Red's pilot is credited no kill for them, and
the rest of the battle resolves as before (the hand-worked books of test_battle_end_to_end).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import grpc
import pytest
from console_script import MEKREF, mekref
from grpc_helpers import Stubs

from mekref.adapters.megamek.mul_model import Kill, Section
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.v1 import battle_pb2, campaign_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the battle tests' builders
e2e = pytest.importorskip("battle.test_battle_end_to_end")
builders = pytest.importorskip("battle.builders")

MILITIA = tuple(f"m{n}" for n in range(1, 7))


def _militia(section: Section = Section.UNIT) -> list[object]:
    return [
        builders.mek(
            "Locust", "LCT-1V", uid, builders.pilot(f"Militia {uid}", f"p-{uid}"), section=section
        )
        for uid in MILITIA
    ]


def _token(db: str, *args: str) -> str:
    made = mekref("token", "create", "--db", db, *args)
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, dict[str, Stubs], dict[str, Path]]]:
    files = e2e.write_inputs(tmp_path)
    # Blue's force has six militia 'Mechs besides the three that fight.
    blue = (tmp_path / "blue.mul").read_text(encoding="utf-8")
    entities = read_mul_bytes(blue.encode()).entities
    (tmp_path / "blue.mul").write_text(
        builders.unit_list([*entities, *_militia()]), encoding="utf-8"
    )
    # Red's forged record: its own view, plus the militia as devastated, each "killed" by r1.
    red = read_mul_bytes(files["red"].read_bytes())
    forged = builders.record(
        [*red.entities, *_militia(Section.DEVASTATED)],
        kills=(*red.kills, *(Kill("Locust LCT-1V", "r1") for _ in MILITIA)),
    )
    files["forged"] = tmp_path / "Red-forged.mul"
    files["forged"].write_text(forged, encoding="utf-8")
    # Red's second forgery (issue 33): Blue's Griffin b3, a survivor in Blue's own record, is
    # written devastated and killed by r1.
    over = builders.record(
        [replace(e, section=Section.DEVASTATED) if e.external_id == "b3" else e
         for e in red.entities],
        kills=(*red.kills, Kill("Griffin GRF-1N", "r1")),
    )  # fmt: skip
    files["over"] = tmp_path / "Red-over.mul"
    files["over"].write_text(over, encoding="utf-8")
    db = str(tmp_path / "c.db")
    assert mekref("campaign", "new", "--db", db, "--name", "E2E", "--seed", e2e.SEED,
                  "--side", "red:Red", "--side", "blue:Blue").returncode == 0  # fmt: skip
    for side in ("red", "blue"):
        done = mekref(
            "force",
            "import",
            "--db",
            db,
            "--side",
            side,
            str(tmp_path / f"{side}.mul"),
            "--units-dir",
            str(builders.UNITS_DIR),
            "--bv-table",
            str(builders.FIXTURES / "battles" / "Units.txt"),
            "--unchecked",
            "--referee",
            "Ann",
            "--reason",
            "a small test force",
        )
        assert done.returncode == 0, done.stderr
    tokens = {
        "referee": _token(db, "--referee"),
        "red": _token(db, "--side", "red"),
        "blue": _token(db, "--side", "blue"),
    }
    proc = subprocess.Popen(
        [str(MEKREF), "serve", "--db", db, "--grpc", "127.0.0.1:0", "--log-format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    clients: dict[str, Stubs] = {}
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), proc.stderr and proc.stderr.read()
        port = int(line.rsplit(":", 1)[1])
        for who, secret in tokens.items():
            clients[who] = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), secret)
        yield db, clients, files
    finally:
        for stubs in clients.values():
            stubs.close()
        proc.terminate()
        proc.wait(timeout=30)


def _upload(stubs: Stubs, cid: str, path: Path) -> battle_pb2.UploadBattleFileResponse:
    return stubs.battles.UploadBattleFile(
        battle_pb2.UploadBattleFileRequest(
            campaign_id=cid, file_name=path.name, content=path.read_bytes()
        ),
        metadata=stubs.md,
    )


def test_a_sides_claims_about_enemy_units_its_enemy_does_not_confirm_are_held(
    served: tuple[str, dict[str, Stubs], dict[str, Path]],
) -> None:
    db, clients, files = served
    ref = clients["referee"]
    (campaign,) = ref.campaigns.ListCampaigns(
        campaign_pb2.ListCampaignsRequest(), metadata=ref.md
    ).campaigns
    cid = campaign.campaign_id
    done = _upload(clients["red"], cid, files["forged"])
    assert done.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED
    done = _upload(clients["blue"], cid, files["blue"])
    assert done.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED
    pending = ref.battles.ListPendingBattles(
        battle_pb2.ListPendingBattlesRequest(campaign_id=cid), metadata=ref.md
    )
    (battle_id,) = [b.battle_id for b in pending.battles]
    # Before the battle resolves the referee already sees what will be held.
    waiting = mekref("battle", "pending", "--db", db)
    assert waiting.returncode == 0, waiting.stderr
    held = [line for line in waiting.stdout.splitlines() if line.strip().startswith("held:")]
    assert len(held) == len(MILITIA) and all("red says devastated" in h for h in held)
    ref.battles.SetRefereeInputs(
        battle_pb2.SetRefereeInputsRequest(
            campaign_id=cid, battle_id=battle_id, field_controller_side_id="red"
        ),
        metadata=ref.md,
    )
    got = ref.campaigns.GetBattleReport(
        campaign_pb2.GetBattleReportRequest(campaign_id=cid, battle_id=battle_id),
        metadata=ref.md,
    )
    report = json.loads(got.report_json)
    held = [c for c in report["conflicts"] if c["subject"] in MILITIA]
    assert sorted(c["subject"] for c in held) == sorted(MILITIA)
    assert all("red says devastated" in c["detail"] and "not applied" in c["detail"]
               for c in held)  # fmt: skip
    assert not {u["unit_id"] for u in report["units"]} & set(MILITIA)

    books = mekref("report", "--db", db, "--json")
    assert books.returncode == 0, books.stderr
    data = json.loads(books.stdout)
    units = {u["id"]: u for u in data["units"]}
    for uid in MILITIA:
        assert (units[uid]["fate"], units[uid]["side"]) == ("operational", "blue")
    people = {p["id"]: p for p in data["people"]}
    # r1 killed the Jenner and Blue's Locust b2 (kill lines "Jenner JR7-D", "Locust LCT-1V"):
    # the six forged "Locust LCT-1V" kills add nothing.
    assert people["p-r1"]["kills"] == 2
    # The rest of the battle is the hand-worked one.
    assert units["b1"]["fate"] == "captured" and units["r1"]["repair"]["total_sp"] == 21


def test_the_honest_record_still_resolves_alike(
    served: tuple[str, dict[str, Stubs], dict[str, Path]],
) -> None:
    """Control case: without the forged lines nothing is held."""
    db, clients, files = served
    ref = clients["referee"]
    (campaign,) = ref.campaigns.ListCampaigns(
        campaign_pb2.ListCampaignsRequest(), metadata=ref.md
    ).campaigns
    cid = campaign.campaign_id
    assert _upload(clients["red"], cid, files["red"]).outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED
    assert _upload(clients["blue"], cid, files["blue"]).outcome == (
        battle_pb2.UPLOAD_OUTCOME_APPLIED
    )
    done = mekref("battle", "pending", "--db", db)
    battle_id = done.stdout.split("battle ")[1].split()[0]
    assert mekref("battle", "control", "--db", db, "--battle", battle_id,
                  "--side", "red").returncode == 0  # fmt: skip
    data = json.loads(mekref("report", "--db", db, "--json").stdout)
    people = {p["id"]: p for p in data["people"]}
    assert people["p-r1"]["kills"] == 2


def test_a_forged_record_never_overrides_the_owners_own_file(
    served: tuple[str, dict[str, Stubs], dict[str, Path]],
) -> None:
    """Issue 33, ruling BR-15: Red's record says Blue's b3 was devastated and killed by r1;
    Blue's own record lists b3 among its survivors. Blue's file decides; the referee sees both
    versions; r1 is credited no kill for it."""
    db, clients, files = served
    ref = clients["referee"]
    (campaign,) = ref.campaigns.ListCampaigns(
        campaign_pb2.ListCampaignsRequest(), metadata=ref.md
    ).campaigns
    cid = campaign.campaign_id
    assert _upload(clients["red"], cid, files["over"]).outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED
    assert _upload(clients["blue"], cid, files["blue"]).outcome == (
        battle_pb2.UPLOAD_OUTCOME_APPLIED
    )
    (battle_id,) = [
        b.battle_id
        for b in ref.battles.ListPendingBattles(
            battle_pb2.ListPendingBattlesRequest(campaign_id=cid), metadata=ref.md
        ).battles
    ]
    ref.battles.SetRefereeInputs(
        battle_pb2.SetRefereeInputsRequest(
            campaign_id=cid, battle_id=battle_id, field_controller_side_id="red"
        ),
        metadata=ref.md,
    )
    data = json.loads(mekref("report", "--db", db, "--json").stdout)
    units = {u["id"]: u for u in data["units"]}
    assert (units["b3"]["fate"], units["b3"]["side"]) == ("damaged", "blue")
    (battle,) = data["battles"]
    said = [c for c in battle["conflicts"] if "red says devastated" in c]
    assert len(said) == 1 and "blue's own file lists it in survivors" in said[0]
    people = {p["id"]: p for p in data["people"]}
    assert people["p-r1"]["kills"] == 2  # the Jenner and the Locust, not the Griffin
