"""Ruling SG-7's order of saves: MegaMek's round, then its phase as MegaMek orders them."""

from __future__ import annotations

from mekref.rules.tripwire.battle_model import SAVEGAME_ROOT, BattleFile
from mekref.rules.tripwire.battle_supersede import moment, phase_rank, said


def _save(round_: int | None, phase: str) -> BattleFile:
    return BattleFile(
        sha256="0" * 64,
        path="x.sav.gz",
        root=SAVEGAME_ROOT,
        reporting_side=None,
        units=(),
        game_round=round_,
        game_phase=phase,
    )


def test_ruling_sg7_saves_are_ordered_by_round_then_by_megameks_phase_order() -> None:
    rounds = [
        ("INITIATIVE_REPORT", 6),
        ("FIRING_REPORT", 6),
        ("END_REPORT", 6),
        ("VICTORY", 6),
    ]
    ranks = [moment(_save(r, p)) for p, r in rounds]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert moment(_save(5, "VICTORY")) < moment(_save(6, "INITIATIVE_REPORT"))
    # 0.43's PHASE_PREFIRING is today's PRE_FIRING; pre-game phases rank with deployment.
    assert phase_rank("PREFIRING") == phase_rank("PRE_FIRING")
    assert phase_rank("DEPLOY_MINEFIELDS") == phase_rank("DEPLOYMENT") < phase_rank("FIRING")
    # A phase of no known name is never "later" than a known one of its round.
    assert phase_rank("SOMETHING_NEW") == 0
    assert said(_save(6, "END_REPORT")) == "round 6, end report phase"
    assert said(_save(None, "")) == "round ?, unknown phase"
