"""Captured Leaders follow the capital they are held in, and the report says who owes losses
and who holds each captive (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from sw_campaign import play_campaign
from sw_helpers import Game, clear_region, move_leader, move_unit, to_phase

from mekref.rules.messages import command_text
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.model import LeaderStatus
from mekref.rules.succession_wars.summary import summarize

LINES = (Path(__file__).parent / "data" / "succession_wars.txt").read_text("utf-8").splitlines()
K, S, L = "Kurita", "Steiner", "Liao"
THEODORE = "kurita-theodore-kurita"
CANDACE = "liao-candace-liao"
L315 = (
    "Captured Leaders are moved instantly to the enemy capital, and are held and controlled by "
    "whomever controls the capital."
)


def _kurita_retakes_tharkad(g: Game) -> list[m.Event]:  # type: ignore[name-defined]
    """Theodore Kurita and Candace Liao are held at Tharkad by Steiner; Kurita's Sword of Light
    destroys the last Steiner counter there (a battle fought in MegaMek) and takes Tharkad."""
    to_phase(g, K, "combat")
    clear_region(g, "Tharkad")
    move_leader(g, THEODORE, "Tharkad", status=LeaderStatus.CAPTURED, captor=S)
    move_leader(g, CANDACE, "Tharkad", status=LeaderStatus.CAPTURED, captor=S)
    move_unit(g, "steiner-lyran-guard-1", "Tharkad")
    move_unit(g, "kurita-sword-of-light-1", "Tharkad")
    return g.run(
        m.SWReportBattle(actor=K, house=K, region="Tharkad", destroyed=("steiner-lyran-guard-1",))
    )


def test_ruling_a_house_retaking_the_capital_frees_its_captured_leader() -> None:
    assert L315 in LINES[314]
    g = Game()
    events = _kurita_retakes_tharkad(g)
    assert g.state.regions["Tharkad"].controller == K
    assert m.SWLeaderReleased(leader=THEODORE, region="Tharkad") in events
    theodore = g.state.leaders[THEODORE]
    # Before the fix: status captured, captor Steiner, after "Kurita takes Tharkad".
    assert (theodore.status, theodore.region, theodore.captor) == (
        LeaderStatus.FREE,
        "Tharkad",
        "",
    )


def test_ruling_another_houses_captive_passes_to_the_new_holder_of_the_capital() -> None:
    g = Game()
    _kurita_retakes_tharkad(g)
    candace = g.state.leaders[CANDACE]
    assert (candace.status, candace.captor) == (LeaderStatus.CAPTURED, K)
    lines = dict((s.title, s.lines) for s in summarize(g.state))["captive Leaders"]
    assert any("Candace Liao of Liao: captured, held at Tharkad by Kurita" in x for x in lines)
    assert not any("Theodore" in x for x in lines)


def test_the_report_says_who_owes_how_many_losses_through_the_console_script(
    tmp_path: Path,
) -> None:
    """L204 "the Defender must choose one of his own units and remove it": `game report` names
    who owes how many (before: only "round 1 (losses)")."""
    assert "the Defender must choose one of his own units and remove it" in LINES[203]
    g = play_campaign()
    commands = g.commands[: g.commands.index(_first_take_losses(g))]
    db = str(tmp_path / "sw.db")
    start = tmp_path / "start.json"
    start.write_text(command_text(commands[0]), encoding="utf-8")
    began = mekref("game", "start", "--db", db, "--ruleset", "succession_wars", "--name", "sw",
                   str(start))  # fmt: skip
    assert began.returncode == 0, began.stderr
    script = tmp_path / "script.jsonl"
    script.write_text("".join(command_text(c).replace("\n", "") + "\n" for c in commands[1:]))
    done = mekref("game", "do", "--db", db, "--campaign", "sw", "--script", str(script))
    assert done.returncode == 0, done.stderr
    report = mekref("game", "report", "--db", db, "--campaign", "sw")
    assert report.returncode == 0, report.stderr
    assert "Liao attacks Davion in Daniels, round 1 (losses)" in report.stdout
    assert "Davion owes 1 unit loss in Daniels: SWTakeLosses names them" in report.stdout
    shown = mekref("game", "report", "--db", db, "--campaign", "sw", "--json")
    sections = json.loads(shown.stdout)["sections"]
    combat = next(s for s in sections if s["title"] == "combat")
    assert combat["lines"][1].startswith("Davion owes 1 unit loss")


def _first_take_losses(g: Game) -> m.SWTakeLosses:
    return next(c for c in g.commands if isinstance(c, m.SWTakeLosses))


def test_the_report_lists_each_captive_and_his_holder_through_the_console_script(
    tmp_path: Path,
) -> None:
    """L315: Hanse Davion, captured at New Avalon, is "moved instantly to the enemy capital" (Sian)
    and held by whoever controls it; `game report` says so in words (before: only the JSON)."""
    assert L315 in LINES[314]
    g = play_campaign()
    db = str(tmp_path / "sw.db")
    start = tmp_path / "start.json"
    start.write_text(command_text(g.commands[0]), encoding="utf-8")
    began = mekref("game", "start", "--db", db, "--ruleset", "succession_wars", "--name", "sw",
                   str(start))  # fmt: skip
    assert began.returncode == 0, began.stderr
    script = tmp_path / "script.jsonl"
    script.write_text("".join(command_text(c).replace("\n", "") + "\n" for c in g.commands[1:]))
    done = mekref("game", "do", "--db", db, "--campaign", "sw", "--script", str(script))
    assert done.returncode == 0, done.stderr
    report = mekref("game", "report", "--db", db, "--campaign", "sw").stdout
    assert "Hanse Davion of Davion: captured, held at Sian by Liao" in report
    assert "Michael Hasek-Davion of Davion: bribed, in refuge, held at Luthien by Kurita" in report


def test_an_unknown_house_is_refused_with_the_houses_through_the_console_script(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "sw.db")
    start = tmp_path / "start.json"
    start.write_text(command_text(play_campaign().commands[0]), encoding="utf-8")
    began = mekref("game", "start", "--db", db, "--ruleset", "succession_wars", "--name", "sw",
                   str(start))  # fmt: skip
    assert began.returncode == 0, began.stderr
    refused = mekref("game", "do", "--db", db, "--campaign", "sw", "--actor", "Liao",
                     "--type", "SWEndPhase", "--field", 'house="Lyran"')  # fmt: skip
    assert refused.returncode == 2
    assert "SWEndPhase house='Lyran' is none of: " in refused.stderr
    assert '"Liao"' in refused.stderr.split("none of: ", 1)[1]
    # A House's name is matched without case: "liao" is Liao.
    typed = mekref("game", "do", "--db", db, "--campaign", "sw", "SWEndPhase", "actor=Liao",
                   "house=liao")  # fmt: skip
    assert typed.returncode == 0, typed.stderr
    assert "Liao begins the spend phase" in typed.stdout
