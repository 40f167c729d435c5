"""``retreat_check`` on a resolved battle reads the sides as they stood in that battle (ruling
BR-16 in docs/rulings.md), not the campaign after it.

L340-L343: "A retreat may only be called if: - The enemy outnumbers the attacker (attacker is
150% of defenders BV) - The enemy force has suffered 25% damage (on BV) - The players force has
suffered 25% damage (on BV)"
"""

from __future__ import annotations

from mekref.rules.tripwire.battle_model import RecordSection as S
from mekref.rules.tripwire.battle_model import ReportedKill
from mekref.rules.tripwire.battle_pending import retreat_check
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.salvage import UnitMobility
from mekref.rules.tripwire.state import CampaignState

from .states import campaign, close, file, fu, run, seen, submit

BATTLE = "battle-" + "a" * 12


def _lines(state: CampaignState, side: str) -> list[int]:
    return [r.line for r in retreat_check(state, BATTLE, side, TRIPWIRE.dice_for(state))]


def test_ruling_br16_a_resolved_battle_is_read_as_it_stood() -> None:
    # Red's r1 against Blue's b1 and b2 (1000 BV each); b1 is immobile (two gyro hits, L140)
    # and Red holds the field: b1 is captured and becomes Red's when the battle resolves.
    state = campaign((fu("r1", bv=1000),), (fu("b1", bv=1000), fu("b2", bv=1000)))
    gyro = UnitMobility(kind=UnitKind.MEK, gyro_hits=2)
    _, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE, mobility=gyro),
                    seen("b2", S.SURVIVORS),
                    kills=(ReportedKill(killed_name="x", killed_unit_ids=("b1",),
                                        killer_unit_id="r1"),))),
    )  # fmt: skip
    # Open: Blue lost 1000 of 2000 (L343 for Blue, L342 for Red).
    during = {side: _lines(state, side) for side in ("red", "blue")}
    assert during == {"red": [342], "blue": [343]}
    _, state = run(state, close(BATTLE, "red"))
    assert state.units["b1"].side_id == "red"  # the capture, after the battle
    # Resolved: the same answer; b1 is still Blue's loss, not a Red unit lost.
    assert {side: _lines(state, side) for side in ("red", "blue")} == during
