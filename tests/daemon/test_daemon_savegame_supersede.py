"""Ruling SG-7 and the waiting list, through the console script and a real ``mekref serve``.

A referee applies an end-of-round autosave as the game's end (``battle ingest --game-over``);
the game's real last save arrives later and takes its place in the same battle, with a note;
an older save is refused; a later one after the battle resolved corrects the condition the
battle booked (revised ruling SG-7); never a second battle.
The saves are the real savegame fixture's game at other moments (tests/savegame_variants.py
``saved_at``: round, phase and one crew hit count changed, documented there).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from console_script import mekref
from daemon_helpers import Serve, status_json, wait_until
from savegame_variants import FIXTURE, ended_game, gz, saved_at
from test_daemon_savegame import HAWK_PILOT, _state, make_campaign

REFEREE = ("--referee", "ref", "--reason", "the group stopped after round 5")


def _battles(db: Path) -> list[dict[str, object]]:
    report = mekref("report", "--db", str(db), "--json")
    assert report.returncode == 0, report.stderr
    battles: list[dict[str, object]] = json.loads(report.stdout)["battles"]
    return battles


def test_ruling_sg7_a_later_save_supersedes_the_autosave_applied_as_the_end(
    tmp_path: Path,
) -> None:
    db = tmp_path / "c.db"
    cid = make_campaign(db)
    # The server's end-of-round autosave (round 5, end report phase): held, then applied on
    # the referee's word with the Stooping Hawk's pilot at 2 hits.
    autosave = tmp_path / "autosave.sav.gz"
    autosave.write_bytes(gz(saved_at(5, "END_REPORT", hawk_hits=2)))
    held = mekref("battle", "ingest", "--db", str(db), str(autosave))
    assert held.returncode != 0
    assert "held: game in progress (round 5, end report phase)" in held.stderr
    applied = mekref("battle", "ingest", "--db", str(db), str(autosave), "--game-over", *REFEREE)
    assert applied.returncode == 0, applied.stderr
    [battle] = _battles(db)
    assert battle["status"] == "open" and battle["superseded"] == []
    # Another save of the same moment (other bytes): not later, refused, nothing applied.
    same = tmp_path / "same-moment.sav.gz"
    same.write_bytes(gz(saved_at(5, "END_REPORT", hawk_hits=1)))
    twin = mekref("battle", "ingest", "--db", str(db), str(same), "--game-over", *REFEREE)
    assert twin.returncode != 0 and "not a later one: nothing applied" in twin.stderr
    # The group played on; the real last save (round 6, victory) supersedes the autosave.
    final = tmp_path / "final.sav.gz"
    final.write_bytes(gz(ended_game()))
    done = mekref("battle", "ingest", "--db", str(db), str(final), "--control", "eclipse")
    assert done.returncode == 0, done.stderr
    assert (
        f"final.sav.gz (round 6, victory phase) supersedes autosave.sav.gz (round 5, end "
        f"report phase) in battle {battle['id']}" in done.stdout
    ), done.stdout
    assert "(new)" not in done.stdout and "resolved" in done.stdout
    [after] = _battles(db)
    assert after["id"] == battle["id"] and after["status"] == "resolved"
    [superseded] = after["superseded"]
    assert superseded["path"] == "autosave.sav.gz"
    assert "supersedes autosave.sav.gz" in superseded["note"]
    assert _state(db, cid).people[HAWK_PILOT].hits == 3  # the later save's, not the autosave's
    text = mekref("report", "--db", str(db))
    assert "note: final.sav.gz (round 6, victory phase) supersedes" in " ".join(text.stdout.split())
    # An older save arriving late: refused, nothing applied.
    older = tmp_path / "Round-4-autosave.sav.gz"
    older.write_bytes(gz(saved_at(4, "END_REPORT", hawk_hits=1)))
    late = mekref("battle", "ingest", "--db", str(db), str(older), "--game-over", *REFEREE)
    assert late.returncode != 0
    assert "not a later one: nothing applied" in late.stderr, late.stderr
    # A later save once the battle is resolved (revised ruling SG-7): no second battle; it
    # joins the battle and corrects the booked condition, with a note, printing each change.
    report = json.loads(mekref("report", "--db", str(db), "--json").stdout)
    [reptar] = [u for u in report["units"] if u["chassis"] == "Reptar MilitiaMech"]
    later = tmp_path / "after.sav.gz"
    later.write_bytes(gz(saved_at(7, "VICTORY", hawk_hits=4, reptar_left_leg=1)))
    again = mekref("battle", "ingest", "--db", str(db), str(later))
    assert again.returncode == 0, again.stderr
    said = " ".join(again.stdout.split())
    assert f"battle {battle['id']}: booked condition corrected (ruling SG-7)" in said, said
    assert ": 4 hit(s), was 3" in said, said
    assert "Reptar" in said and "repair" in said, said
    assert (
        "after.sav.gz (round 7, victory phase) replaces the result of final.sav.gz (round 6, "
        f"victory phase) in resolved battle {battle['id']}" in said
    ), said
    [corrected] = _battles(db)
    assert [x["path"] for x in corrected["superseded"]] == ["autosave.sav.gz", "final.sav.gz"]
    assert "replaces the result of final.sav.gz" in corrected["superseded"][1]["note"]
    assert _state(db, cid).people[HAWK_PILOT].hits == 4
    # The corrected condition is what the report prices: 4 more points of armour off the leg.
    report = json.loads(mekref("report", "--db", str(db), "--json").stdout)
    [now] = [u for u in report["units"] if u["chassis"] == "Reptar MilitiaMech"]
    assert now["damage"]["armor_lost"] == reptar["damage"]["armor_lost"] + 4, now["damage"]
    # L60-L64's armour row priced again: 4 more points, 53 SP of repair and re-arm now 55.
    assert (reptar["repair"]["total_sp"], now["repair"]["total_sp"]) == (53, 55), now["repair"]
    assert "repair 55 SP (was 53 SP)" in said, said
    # Applied exactly once: the same bytes again are already ingested.
    twice = mekref("battle", "ingest", "--db", str(db), str(later))
    assert twice.returncode == 0 and "already ingested" in twice.stdout, twice.stdout
    assert _state(db, cid).people[HAWK_PILOT].hits == 4


def test_deleted_and_rewritten_autosaves_leave_the_waiting_list(tmp_path: Path) -> None:
    """MegaMek's rolling autosave deletes old ``Round-*`` files, and its end-of-round autosave
    writes ``autosave.sav.gz`` over itself: ``mekref status`` lists what is in the folder."""
    db = tmp_path / "c.db"
    cid = make_campaign(db)
    savegames = tmp_path / "savegames"
    savegames.mkdir()
    serve = Serve(
        str(db),
        [savegames],
        tmp_path / "quarantine",
        tmp_path / "serve.log",
        extra=("--rescan", "0.5"),
        fake=False,
    )
    serve.start()

    def waiting() -> list[str]:
        return sorted(Path(u["path"]).name for u in status_json(str(db))["savegames_waiting"])

    try:
        round_1 = savegames / "Round-1-autosave_2026-12-02.sav.gz"
        shutil.copyfile(FIXTURE, round_1)
        (savegames / "autosave.sav.gz").write_bytes(gz(saved_at(5, "END_REPORT")))
        wait_until(lambda: len(waiting()) == 2, "both autosaves held")
        # The end-of-round autosave written over itself: one entry, the newest bytes.
        (savegames / "autosave.sav.gz").write_bytes(gz(saved_at(6, "END_REPORT")))
        wait_until(lambda: serve.events("file.waiting_replaced"), "the old bytes released")
        [entry] = [
            u
            for u in status_json(str(db))["savegames_waiting"]
            if Path(u["path"]).name == "autosave.sav.gz"
        ]
        assert "round 6, end report phase" in entry["reason"]
        # MegaMek deletes the oldest rolling autosave: it leaves the list.
        round_1.unlink()
        wait_until(lambda: waiting() == ["autosave.sav.gz"], "the deleted autosave released")
        shown = mekref("status", "--db", str(db))
        assert "Round-1-autosave" not in shown.stdout
        # The referee applies the end-of-round autosave as the game's end while the daemon
        # runs; the group's real last save then lands in the folder and supersedes it.
        applied = mekref(
            "battle", "ingest", "--db", str(db), str(savegames / "autosave.sav.gz"),
            "--game-over", *REFEREE,
        )  # fmt: skip
        assert applied.returncode == 0, applied.stderr
        assert waiting() == []
        (savegames / "final.sav.gz").write_bytes(gz(ended_game()))
        wait_until(lambda: len(status_json(str(db))["ingested"]) == 2, "the final save applied")
        [battle] = _battles(db)
        assert [x["path"] for x in battle["superseded"]] == ["autosave.sav.gz"]
        # Resolved, a still later save corrects the booked condition: never a second battle.
        control = mekref("battle", "control", "--db", str(db), "--battle", str(battle["id"]),
                         "--side", "eclipse")  # fmt: skip
        assert control.returncode == 0, control.stderr
        (savegames / "after.sav.gz").write_bytes(gz(saved_at(7, "VICTORY", hawk_hits=4)))
        wait_until(lambda: len(status_json(str(db))["ingested"]) == 3, "the later save applied")
        assert status_json(str(db))["quarantined"] == []
        wait_until(lambda: serve.events("battle.condition_corrected"), "the correction logged")
        assert len(_battles(db)) == 1
        assert _state(db, cid).people[HAWK_PILOT].hits == 4
    finally:
        assert serve.stop() == 0


def test_battle_correct_applies_a_later_save_and_the_referees_hits(tmp_path: Path) -> None:
    """``mekref battle correct``: the later save by the referee's hand (once), then one
    person's hits by the referee's word; the report follows (the exported record:
    tests/turn/test_battle_export_record_cli.py, a campaign with designs)."""
    db = tmp_path / "c.db"
    cid = make_campaign(db)
    final = tmp_path / "final.sav.gz"
    final.write_bytes(gz(ended_game()))
    done = mekref("battle", "ingest", "--db", str(db), str(final), "--control", "eclipse")
    assert done.returncode == 0, done.stderr
    [battle] = _battles(db)
    prefix = str(battle["id"]).removeprefix("battle-")[:6]
    later = tmp_path / "after.sav.gz"
    later.write_bytes(gz(saved_at(7, "VICTORY", hawk_hits=4)))
    args = ("battle", "correct", "--db", str(db), "--battle", prefix)
    fixed = mekref(*args, "--from-save", str(later), *REFEREE)
    assert fixed.returncode == 0, fixed.stderr
    said = " ".join(fixed.stdout.split())
    assert f"battle {battle['id']}: booked condition corrected (ruling SG-7)" in said, said
    assert "Dolores Strunz: 4 hit(s), was 3" in said, said
    again = mekref(*args, "--from-save", str(later), *REFEREE)
    assert again.returncode == 0 and "already applied" in again.stdout, again.stdout
    assert _state(db, cid).people[HAWK_PILOT].hits == 4
    # An earlier save of the game (the fixture, round 0) is refused, nothing applied.
    other = tmp_path / "other.sav.gz"
    shutil.copyfile(FIXTURE, other)
    refused = mekref(*args, "--from-save", str(other), *REFEREE)
    assert refused.returncode != 0, refused.stderr
    assert "not a later one: nothing applied" in refused.stderr, refused.stderr
    # One person's hits by the referee's word; hits need --referee and a person by name.
    unsigned = mekref(*args, "--person", "Vasil Orhan", "--hits", "2")
    assert unsigned.returncode != 0 and "--referee NAME --reason TEXT" in unsigned.stderr
    hand = mekref(*args, "--person", "Vasil Orhan", "--hits", "2", *REFEREE)
    assert hand.returncode == 0, hand.stderr
    assert "Vasil Orhan: 2 hit(s), was 0" in hand.stdout, hand.stdout
    report = json.loads(mekref("report", "--db", str(db), "--json").stdout)
    [vasil] = [p for p in report["people"] if p["name"] == "Vasil Orhan"]
    assert vasil["hits"] == 2 and vasil["heal_cost_sp"] is not None, vasil
    [fought] = report["battles"]
    hits = {p["id"]: p["hits"] for p in fought["people"]}
    assert hits[HAWK_PILOT] == 4 and sorted(hits.values()) == [0, 2, 4], hits
