"""A House's report (``mekref game report --side HOUSE``) names its own Event Cards and only
counts the others', says who owes how many losses and who holds each captive Leader; the
referee's names every hand (issue 29, item 2). Played from the bundled demo through the
installed console script."""

from __future__ import annotations

import json
from pathlib import Path

from console_script import game_report, played_demo, played_demo_until

LINES = (Path(__file__).parent / "data" / "succession_wars.txt").read_text("utf-8").splitlines()
L111 = "each player starts the game with four Event Cards"
L204 = "the Defender must choose one of his own units and remove it"
L315 = "are held and controlled by whomever controls the capital"
KURITA_HAND = "Kurita (you): card 27 (the referee resolves it when played, SW-11); card 31"
LIAO_HAND = "card 48 (Death Commando: the referee resolves it when played, SW-11)"


def test_a_house_sees_its_own_hand_named_and_the_others_face_down(tmp_path: Path) -> None:
    assert L111 in LINES[110]
    db = played_demo(tmp_path, "succession_wars")
    kurita = game_report(db, "--side", "Kurita")
    assert "as Kurita sees it" in kurita
    assert KURITA_HAND in kurita
    for other in ("Liao", "Marik", "Steiner", "Davion"):
        assert f"  {other}: 4 cards, face down" in kurita
    assert "Death Commando" not in kurita  # Liao's two cards stay in Liao's hand
    liao = game_report(db, "--side", "Liao")
    assert f"Liao (you): {LIAO_HAND}" in liao
    assert "card 27" not in liao and "Kurita: 4 cards, face down" in liao
    referee = game_report(db)
    assert f"Liao: {LIAO_HAND}" in referee
    assert "Kurita: card 27 (the referee resolves it when played, SW-11); card 31" in referee
    assert "face down" not in referee


def test_a_houses_report_names_the_captives_and_their_captors(tmp_path: Path) -> None:
    assert L315 in LINES[314]
    db = played_demo(tmp_path, "succession_wars")
    for side in ("Davion", "Liao", None):
        shown = game_report(db, *(("--side", side) if side else ()))
        assert "won by Bo" in shown
        assert "Hanse Davion of Davion: captured, held at Sian by Liao" in shown
        assert (
            "Michael Hasek-Davion of Davion: bribed, in refuge, held at Luthien by Kurita" in shown
        )


def test_the_losses_line_says_who_owes_how_many_to_every_house(tmp_path: Path) -> None:
    assert L204 in LINES[203]
    # The demo up to Davion's counterattack at Daniels: Liao's attack killed one unit.
    db = played_demo_until(tmp_path, "succession_wars", '"type": "SWCounterattack"')
    head = "Liao attacks Davion in Daniels, round 1 (losses): Davion owes 1"
    for side in ("Davion", "Liao", "Kurita", None):
        shown = game_report(db, *(("--side", side) if side else ()))
        assert head in shown
        assert "Davion owes 1 unit loss in Daniels: SWTakeLosses names them" in shown
    sections = json.loads(game_report(db, "--side", "Liao", "--json"))["sections"]
    combat = next(s for s in sections if s["title"] == "combat")
    assert combat["lines"][0] == head
