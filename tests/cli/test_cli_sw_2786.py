"""The First Succession War (2786) and a Mercenary unit moving out intact (L387), through the
installed console script only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref

SEQUENCE = ("Liao", "Marik", "Steiner", "Kurita", "Davion")
CAPITALS = {"Liao": "Sian", "Marik": "Atreus", "Steiner": "Tharkad", "Kurita": "Luthien",
            "Davion": "New Avalon"}  # fmt: skip


def _bids(opener: str, amount: int) -> str:
    i = SEQUENCE.index(opener)
    order = SEQUENCE[i:] + SEQUENCE[:i]
    bids = [{"house": h, "amount": amount if h == opener else 0} for h in order]
    return json.dumps({"type": "SWSettleAuction", "bids": bids})


def _ok(done: Any) -> str:
    assert done.returncode == 0, done.stderr
    return str(done.stdout)


def test_2786_starts_and_plays_its_first_round(tmp_path: Path) -> None:
    """L603: "The first round of play consists solely of Mercenary purchases. ... Each player
    draws units from the Mercenary pile, and then all players bid for their services." L605: "A
    Mercenary Phase is also added to each player's turn." """
    db, start = str(tmp_path / "sw.db"), tmp_path / "2786.json"
    _ok(mekref("game", "example", "--ruleset", "succession_wars", "--scenario", "2786",
               "--out", str(start)))  # fmt: skip
    command = json.loads(start.read_text())
    assert command["scenario"] == "2786" and len(command["placements"]) == 154
    began = mekref("game", "start", "--db", db, "--ruleset", "succession_wars",
                   "--scenario", "2786", "--name", "First War", str(start))  # fmt: skip
    out = _ok(began)
    assert "game set up (2786)" in out and "set-up order (lowest die first)" in out
    assert "39 Mercenary counters in the pile" in out
    assert "round 1, turn 1: Liao begins the mercenary phase" in out
    # Ruling SW-39: the text lists Davion's Leaders only; the others are named, not hidden.
    assert "Liao, Marik, Steiner, Kurita start without Leaders (ruling SW-39)" in began.stderr
    first = mekref("game", "example", "--ruleset", "succession_wars", "--scenario", "2786",
                   "--next")  # fmt: skip
    assert json.loads(first.stdout)["type"] == "SWDrawMercenary"
    for n, house in enumerate(SEQUENCE):
        if n == 0:
            drawn = _ok(mekref("game", "do", "--db", db, "--campaign", "First War", "-",
                               stdin=first.stdout))  # fmt: skip
        else:
            drawn = _ok(mekref("game", "do", "--db", db, "--campaign", "First War",
                               "--type", "SWDrawMercenary", "--actor", house,
                               "--field", f"house={house}"))  # fmt: skip
        assert f"{house} draws " in drawn and "from the Mercenary pile" in drawn
        assert "goes up for auction" in drawn
        settled = _ok(mekref("game", "do", "--db", db, "--campaign", "First War",
                             "--actor", "referee", "-", stdin=_bids(house, 5)))  # fmt: skip
        assert f"{house} wins for 5" in settled
        assert f"now serves {house}, formed at {CAPITALS[house]}" in settled
        ended = _ok(mekref("game", "do", "--db", db, "--campaign", "First War",
                           "--type", "SWEndPhase", "--actor", house,
                           "--field", f"house={house}"))  # fmt: skip
        if house != "Davion":
            nxt = SEQUENCE[n + 1]
            assert f"round 1, turn {n + 2}: {nxt} begins the mercenary phase" in ended
    assert "round 2, turn 6: Liao begins the mercenary phase" in ended
    report = _ok(mekref("game", "report", "--db", db, "--campaign", "First War"))
    assert "scenario 2786" in report and "round 2, phase mercenary, Liao to act" in report
    assert "set-up order (L601, lowest die first)" in report
    assert "Mercenary pile:" in report
    # The phase waits for its draw (L605).
    refused = mekref("game", "do", "--db", db, "--campaign", "First War", "--type",
                     "SWEndPhase", "--actor", "Liao", "--field", "house=Liao")  # fmt: skip
    assert refused.returncode != 0 and "draws a unit from the Mercenary pile first" in (
        refused.stderr
    )


def test_the_scenario_flag_is_in_help_and_only_for_succession_wars(tmp_path: Path) -> None:
    helped = _ok(mekref("game", "start", "--help"))
    assert "--scenario 2786" in helped and "--scenario {3025,2786}" in helped
    assert "--scenario 2786 --out 2786.json" in _ok(mekref("game", "example", "--help"))
    wrong = mekref("game", "example", "--ruleset", "objectives", "--scenario", "2786")
    assert wrong.returncode != 0 and "--scenario is for succession_wars" in wrong.stderr
    assert len(wrong.stderr.strip().splitlines()) == 1


def _state(db: str) -> dict[str, Any]:
    data = json.loads(_ok(mekref("game", "state", "--db", db, "--campaign", "w", "--json")))
    state: dict[str, Any] = data["state"]
    return state


def test_a_mercenary_unit_changing_sides_is_offered_the_move_out(tmp_path: Path) -> None:
    """L387: "If there are opposing units in the Region, the bribing player may want to move his
    new Mercenary unit out intact, without combat. If he does not, combat must occur. At the
    opposing player's option, combat may occur immediately." """
    db = str(tmp_path / "sw.db")
    example = _ok(mekref("game", "example", "--ruleset", "succession_wars"))
    _ok(mekref("game", "start", "--db", db, "--ruleset", "succession_wars", "--name", "w", "-",
               stdin=example))  # fmt: skip
    state = _state(db)
    houses = state["houses"]
    # A House holding a "Contract ends" card (7-11) ends the contract of a Mercenary unit of
    # another player's House standing with that House's units, and wins the bidding.
    holder, card = next((h, c) for h in SEQUENCE for c in houses[h]["hand"] if 7 <= c <= 11)
    units = state["units"]
    unit = next(
        u
        for u in units.values()
        if u["mercenary"]
        and u.get("status", "active") == "active"
        and houses[u["owner"]]["player"] != houses[holder]["player"]
        and any(
            o["owner"] == u["owner"] and not o.get("mercenary") and o["region"] == u["region"]
            for o in units.values()
        )
    )
    old, region = unit["owner"], unit["region"]
    play = {"type": "SWPlayCard", "house": holder, "card": card, "target": unit["formation"]}
    _ok(mekref("game", "do", "--db", db, "--campaign", "w", "--actor", holder, "-",
               stdin=json.dumps(play)))  # fmt: skip
    won = _ok(mekref("game", "do", "--db", db, "--campaign", "w", "--actor", "referee", "-",
                     stdin=_bids(holder, 1)))  # fmt: skip
    assert f"new Mercenaries at {region}" in won and "may move them out intact" in won
    report = _ok(mekref("game", "report", "--db", db, "--campaign", "w"))
    assert f"{holder} chooses whether its new Mercenaries at {region} move out intact" in report
    # The opposing House cannot attack before the employer has chosen.
    early = mekref("game", "do", "--db", db, "--campaign", "w", "--type", "SWAttack",
                   "--actor", old, "--field", f"house={old}",
                   "--field", f"region={region}")  # fmt: skip
    assert early.returncode != 0 and "moves out intact (L387" in early.stderr
    # Moving out must end in a Region of the employer's player free of enemy forces.
    bad = mekref("game", "do", "--db", db, "--campaign", "w", "--type", "SWMoveMercenaryOut",
                 "--actor", holder, "--field", f"house={holder}", "--field", f"region={region}",
                 "--field", f'path=["{region}"]')  # fmt: skip
    assert bad.returncode != 0 and "refused" in bad.stderr
    # He stays: combat must occur, and the opposing House takes it at once.
    stay = _ok(mekref("game", "do", "--db", db, "--campaign", "w", "--type",
                      "SWMoveMercenaryOut", "--actor", holder, "--field", f"house={holder}",
                      "--field", f"region={region}"))  # fmt: skip
    assert f"keeps its new Mercenaries at {region}" in stay and "combat must occur" in stay
    assert f"{old} may attack the Mercenaries now serving {holder} at {region} at once" in stay
    attack = _ok(mekref("game", "do", "--db", db, "--campaign", "w", "--type", "SWAttack",
                        "--actor", old, "--field", f"house={old}",
                        "--field", f"region={region}"))  # fmt: skip
    assert f"combat at {region}: {old} attacks {holder}" in attack
