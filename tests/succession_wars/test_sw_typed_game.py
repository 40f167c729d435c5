"""The Succession Wars played to a capital win through the installed console script with typed
commands only (issue 29): no JSON file; the game start, every phase, the moves, the combat and
the battle report (its nested retreats) are ``TYPE key=value`` words, names in any case.

Three players, L13's second three-player split ("one person to take Houses Kurita, Marik, and
Liao, with the other players each taking one of the remaining Houses"): Ann holds Davion, Bo
Steiner, Cy Kurita, Marik and Liao. Unlike the bundled game (Liao onto New Avalon), Marik jumps
from Oriente through Ryerson onto Odessa in round 1, wins the dice combat there, and in round 2
jumps through Donegal onto Tharkad, the battle fought in MegaMek and reported with Steiner's
retreat to Skye: Cy then holds Sian, Atreus, Luthien and Tharkad."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref

from mekref.daemon.succession_wars.examples import sw_placements
from mekref.rules.succession_wars.data import sample_map

LINES = (Path(__file__).parent / "data" / "succession_wars.txt").read_text("utf-8").splitlines()
PLAYERS = (("Davion", "Ann"), ("Steiner", "Bo"), ("Kurita", "Cy"), ("Marik", "Cy"),
           ("Liao", "Cy"))  # fmt: skip
#: Free set-up choices unlike the example's: Steiner keeps the Lyran Guard (10) at Tharkad and
#: garrisons Odessa with Greg's Long Striders (1); Marik's 3-unit JumpShip waits at Oriente.
MOVED = {"steiner-lyran-guard-1": "Tharkad", "steiner-gregs-long-striders-1": "Odessa",
         "marik-js-1": "Oriente"}  # fmt: skip
FUSILIERS = ("marik-fusiliers-of-oriente-1", "marik-fusiliers-of-oriente-2")
PHASES = 7  # L97-L105: fill the hand, spend, move, combat, tech, place, collect taxes


def _start_words() -> list[str]:
    words = ["swstartcampaign", "actor=REFEREE", "seed=three-to-tharkad", "map=sample"]
    for i, (house, player) in enumerate(PLAYERS, start=1):
        words += [f"players.{i}.1={house.lower()}", f"players.{i}.2={player}"]
    for i, p in enumerate(sw_placements(sample_map()), start=1):
        region = MOVED.get(p.piece, p.region)
        words += [f"placements.{i}.piece={p.piece}", f"placements.{i}.region={region.upper()}"]
    return words


def _end(house: str, times: int = 1) -> list[str]:
    return [f"swendphase actor={house.lower()} house={house.upper()}"] * times


def _listed(key: str, values: tuple[str, ...]) -> str:
    return " ".join(f"{key}.{n}={v}" for n, v in enumerate(values, start=1))


def _jump(path: tuple[str, ...]) -> str:
    carried = _listed("pick_up", FUSILIERS) + " " + _listed("drop_off", FUSILIERS)
    return f"SWMoveJumpShip actor=Marik house=Marik jumpship=MARIK-JS-1 {carried} " + _listed(
        "path", path
    )


def _round_one() -> list[str]:
    return [
        *_end("Liao", PHASES),
        *_end("Marik", 2),  # draw, spend
        _jump(("ryerson", "Odessa")),
        *_end("Marik"),  # -> combat
        f"SWAttack actor=Marik house=Marik region=odessa {_listed('pairs.1', FUSILIERS)}",
        "swcounterattack actor=Steiner house=steiner region=ODESSA",
        "SWTakeLosses actor=Steiner house=Steiner region=Odessa "
        "units.1=Steiner-Gregs-Long-Striders-1",  # a counter's id, in any case
        *_end("Marik", 4),  # combat, tech, place, taxes
        *_end("Steiner"),
        "swtechroll actor=steiner house=steiner chances=2",  # L162: "For each chance, roll one die"
        *_end("Steiner", PHASES - 1),
        *_end("Kurita", PHASES),
        *_end("Davion", PHASES),
    ]


def _round_two() -> list[str]:
    return [
        *_end("Liao", PHASES),
        *_end("Marik", 2),
        _jump(("donegal", "tharkad")),
        *_end("Marik"),  # -> combat
    ]


#: The battle at Tharkad as fought in MegaMek: nine Steiner counters and a Fusilier die, two
#: JumpShips carry the rest and two Leaders to Skye.
DESTROYED = ("steiner-lyran-guard-3", "steiner-royal-guards-1", "steiner-winfields-brigade-1",
             "steiner-hansens-roughriders-1", "steiner-baretts-fusiliers-1",
             "steiner-narhals-raiders-1", "steiner-richards-panzer-brigade-1",
             "steiner-raymonds-redcoats-1", "steiner-hsien-hotheads-1", FUSILIERS[1])  # fmt: skip
RETREATS = (
    ("steiner-js-1", ("steiner-lyran-guard-1", "steiner-lyran-guard-2", "steiner-donegal-guards-1",
                      "steiner-katrina-steiner", "steiner-melissa-steiner")),
    ("steiner-js-2", ("steiner-donegal-guards-2", "steiner-donegal-guards-3",
                      "steiner-12th-star-guard-1")),
)  # fmt: skip


def _battle_words() -> list[str]:
    words = ["SWReportBattle", "actor=marik", "house=marik", "region=THARKAD"]
    words += _listed("destroyed", DESTROYED).split()
    for n, (ship, carried) in enumerate(RETREATS, start=1):
        words += [f"retreats.{n}.jumpship={ship}", f"retreats.{n}.path.1=skye"]
        words += _listed(f"retreats.{n}.carry", carried).split()
    return words


def _state(db: str) -> Any:
    return json.loads(mekref("game", "state", "--db", db, "--json").stdout)["state"]


def test_three_players_to_a_capital_win_with_typed_commands_only(tmp_path: Path) -> None:
    # L15: "The first player to control four of the five House capitals wins the game."
    assert LINES[14].startswith(
        "The first player to control four of the five House capitals wins the game."
    )
    assert "one person to take Houses Kurita, Marik, and Liao" in LINES[12]
    db = str(tmp_path / "sw.db")
    began = mekref("game", "start", "--db", db, "--ruleset", "succession_wars", "--name",
                   "Tharkad", *_start_words())  # fmt: skip
    assert began.returncode == 0, began.stderr
    assert "order of play Liao, Marik, Steiner, Kurita, Davion" in began.stdout
    script = tmp_path / "rounds.txt"
    script.write_text("\n".join(["# typed, one command a line", *_round_one(), *_round_two()]),
                      encoding="utf-8")  # fmt: skip
    played = mekref("game", "do", "--db", db, "--script", str(script))
    assert played.returncode == 0, played.stderr
    # L239: "If a combination yields an attack value of 10 or more, the attack is an automatic
    # kill": the two Fusiliers of Oriente counters (8 + 4) at Odessa in round 1.
    assert "fusiliers-of-oriente-2 value 12, automatic: hit" in played.stdout
    assert "Marik takes Odessa from Steiner" in played.stdout
    assert _state(db)["regions"]["Odessa"]["controller"] == "Marik"
    # The battle at Tharkad, typed on the command line with its nested retreats: a retreat's
    # path takes the campaign's Regions, listed for the nested object too.
    listed = mekref("game", "commands", "--ruleset", "succession_wars", "--type",
                    "SWReportBattle", "--db", db, "--campaign", "Tharkad").stdout  # fmt: skip
    assert 'path: list of str  (default [])  one of: "New Avalon"' in listed
    won = mekref("game", "do", "--db", db, *_battle_words())
    assert won.returncode == 0, won.stderr
    assert "Steiner retreats from Tharkad: steiner-js-1 with" in won.stdout
    assert "Marik takes Tharkad from Steiner" in won.stdout
    assert "Cy wins, holding Sian, Atreus, Tharkad, Luthien" in won.stdout
    state = _state(db)
    assert state["winner"] == "Cy" and state["phase"] == "over"
    skye = {u for u, v in state["units"].items() if v["region"] == "Skye"}
    assert set(RETREATS[0][1][:3]) | set(RETREATS[1][1]) <= skye
    report = mekref("game", "report", "--db", db).stdout
    assert "Mitch DeChavilier of Steiner: captured, held at Atreus by Marik" in report
    after = mekref("game", "do", "--db", db, *_end("Marik")[0].split())
    assert after.returncode != 0 and "game_over" in after.stderr
