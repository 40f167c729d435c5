"""Battle VP of a battle fought by a unit with no BV are not known, never 0 (ruling R-VP-6).

L417: "Each time a battle occurs victory points are gained or lost for each side per formation
involved in the battle", by the rows L419-L424 ("| 25% of Enemy force destroyed | 1 |" ...
"| Friendly Force Commander captured/killed. | -1* |"), shares of BV destroyed. L414: "Once a
force reaches 10 Victory Points the campaign is over and the player with the most victory
points wins." A unit imported without a BV (no --bv-table) makes those shares unknown: the
battle's VP are recorded as not known, the side's total is not known, the 10-VP end waits, and
``RecordUnitBv`` (``mekref battle bv``) scores the battle again once the BV is recorded.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the battle and turn test worlds
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))

from battle.states import NOTE, campaign, close, file, fu, run, seen, submit
from turn_world import NOTE as TURN_NOTE
from turn_world import run as turn_run
from turn_world import started

from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_messages import BattleResolved
from mekref.rules.tripwire.battle_model import RecordSection, ReportedKill, SideOutcome
from mekref.rules.tripwire.battle_pending import RetreatNotKnown, retreat_check
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.state import StrategicState
from mekref.rules.tripwire.turn.victory import battles_vp_unknown, progress
from mekref.rules.tripwire.unit_bv import RecordUnitBv, UnitBvRecorded

S = RecordSection
BATTLE = "battle-" + "a" * 12
NO_MAP = StrategicState(map_name="", map_text="", attacker="", defender="")


def _sides(events: list[Event]) -> dict[str, SideOutcome]:
    (resolved,) = [e for e in events if isinstance(e, BattleResolved)]
    return {s.side_id: s for s in resolved.resolution.sides}


def _fought(blue_commander_bv: int) -> tuple[CampaignState, list[Event]]:
    """Red's r1 kills Blue's commander b1 (salvaged by Red); Blue's b2 survives. With every
    BV known: 50% of the enemy destroyed and its commander killed, +2 +1 for Red, -3 for Blue
    (tests/battle/test_battle_rulings.py::test_commander_lost_and_vp_rows)."""
    state = campaign(
        (fu("r1", bv=1000),),
        (fu("b1", bv=blue_commander_bv, commander=True), fu("b2", bv=1000)),
    )
    events, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE, hits=6),
                    seen("b2", S.SURVIVORS),
                    kills=(ReportedKill(killed_name="g", killed_unit_ids=("b1",),
                                        killer_unit_id="r1"),))),
        close(BATTLE, "red"),
    )  # fmt: skip
    return state, events


def test_a_unit_without_a_bv_leaves_the_battle_vp_unknown_not_zero() -> None:
    # L419 "| 25% of Enemy force destroyed | 1 |" and L422 "| 25% of friendly force destroyed |
    # -1 |": with b1 of no BV, Red's share of Blue destroyed reads 0 of 1000, a plausible "+1"
    # (the commander) instead of +3. Neither side's VP for the battle are known.
    state, events = _fought(blue_commander_bv=0)
    sides = _sides(events)
    for side in ("red", "blue"):
        assert not sides[side].vp_known
        assert sides[side].units_without_bv == ("b1",)
        assert (sides[side].vp_delta, sides[side].vp_awards) == (0, ())
    assert state.battles.victory_points == {}  # nothing counted, not a 0
    assert battles_vp_unknown(state) == {"blue": (BATTLE,), "red": (BATTLE,)}
    p = progress(state, NO_MAP, {})
    assert all(not x.vp_known and x.battles_vp_unknown == (BATTLE,) for x in p.sides)
    assert "the VP of battle(s) #1 are not known" in p.unknown
    assert "mekref battle bv --unit ID --bv N" in p.unknown


def test_the_ten_vp_end_is_not_decided_on_an_unknown_battle() -> None:
    # L414: "Once a force reaches 10 Victory Points the campaign is over and the player with
    # the most victory points wins." Red holds 10 strategic VP; Blue's VP are not known (and
    # Red's battle VP neither): who has the most cannot be told, so the end waits.
    state, _ = _fought(blue_commander_bv=0)
    p = progress(state, NO_MAP, {"red": 10})
    assert p.reached == ""
    assert p.unknown.startswith("the 10-VP end (L414) cannot be told")
    known, _ = _fought(blue_commander_bv=1000)
    assert progress(known, NO_MAP, {"red": 10}).reached == "red reached 10 VP; most VP: red"


def test_recording_the_bv_scores_the_battle_again() -> None:
    # R-VP-6: the referee records b1's BV; the battle scores as if imported with it: L420 "| 50%
    # of Enemy force destroyed | 2 |", L421 "| Enemy Force Commander captured/killed | 1* |",
    # and for Blue L423 and L424, floored at 0 (L414 "victory points can't be reduced below 0").
    state, _ = _fought(blue_commander_bv=0)
    events, state = run(state, RecordUnitBv(unit_id="b1", bv=1000, note=NOTE, actor="Ann"))
    (recorded,) = [e for e in events if isinstance(e, UnitBvRecorded)]
    assert recorded.starting_side == ""  # no strategic map: no starting BV to join
    (again,) = recorded.battles
    sides = {x.side_id: x for x in again.sides}
    assert sides["red"].vp_delta == 2 + 1 and sides["blue"].vp_delta == -2 - 1
    assert sides["blue"].commander_lost  # as the battle recorded it (b1 is Red's salvage now)
    assert state.battles.victory_points == {"red": 3, "blue": 0}
    assert battles_vp_unknown(state) == {}
    assert state.units["b1"].bv == 1000
    known, _ = _fought(blue_commander_bv=1000)
    assert state.battles.victory_points == known.battles.victory_points
    assert state.battles.battles[BATTLE].resolution == known.battles.battles[BATTLE].resolution


def test_recording_a_bv_is_refused_when_it_would_be_a_guess() -> None:
    state, _ = _fought(blue_commander_bv=0)
    for cmd, code in (
        (RecordUnitBv(unit_id="r1", bv=900, note=NOTE, actor="Ann"), "has_bv"),
        (RecordUnitBv(unit_id="b1", bv=0, note=NOTE, actor="Ann"), "bad_bv"),
        (RecordUnitBv(unit_id="zz", bv=900, note=NOTE, actor="Ann"), "unknown_unit"),
    ):
        with pytest.raises(Refusal) as refused:
            run(state, cmd)
        assert refused.value.code == code


def _rebels_without_the_jenner_bv() -> CampaignState:
    # The turn tests' world (rebels 4835 BV at the map's start) as if the Jenner (875) had
    # been imported without a BV: 3960 BV at the start.
    state = started()
    s = state.strategic
    assert s is not None
    jenner = replace(state.units["R-JR7"], bv=0)
    return replace(
        state,
        units={**state.units, "R-JR7": jenner},
        strategic=replace(s, starting_bv={**s.starting_bv, "rebel": 4835 - 875}),
    )


def test_on_the_map_the_referee_says_whether_the_unit_counts_in_the_starting_bv() -> None:
    # L412: "less than 50% of their starting combat effectiveness, based on the BV of
    # operational units, or units that could be repaired" (R-VP-3): a unit held when the map
    # started joins its side's starting BV; the share is known again once no unit lacks a BV.
    state = _rebels_without_the_jenner_bv()
    assert state.strategic is not None
    (rebel,) = [x for x in progress(state, state.strategic, {}).sides if x.side_id == "rebel"]
    assert rebel.percent is None and rebel.without_bv == 1
    with pytest.raises(Refusal) as refused:
        turn_run(state, RecordUnitBv(unit_id="R-JR7", bv=875, note=TURN_NOTE, actor="ref"))
    assert refused.value.code == "held_at_start" and "L412" in str(refused.value)
    held, _ = turn_run(
        state, RecordUnitBv(unit_id="R-JR7", bv=875, held_at_start=True, note=TURN_NOTE,
                            actor="ref"),
    )  # fmt: skip
    assert held.strategic is not None and held.strategic.starting_bv["rebel"] == 4835
    (rebel,) = [x for x in progress(held, held.strategic, {}).sides if x.side_id == "rebel"]
    assert rebel.percent == 100 and held.strategic.ended == ""
    later, _ = turn_run(
        state, RecordUnitBv(unit_id="R-JR7", bv=875, held_at_start=False, note=TURN_NOTE,
                            actor="ref"),
    )  # fmt: skip
    assert later.strategic is not None and later.strategic.starting_bv["rebel"] == 3960


def test_a_battle_resolved_before_units_were_named_is_unknown_from_the_bv_now() -> None:
    # A battle resolved before the resolution named its units without a BV (an older log)
    # counted them as 0; a unit of it without a BV now still makes its VP not known.
    state, _ = _fought(blue_commander_bv=1000)
    state = replace(state, units={**state.units, "b2": replace(state.units["b2"], bv=0)})
    assert battles_vp_unknown(state) == {"blue": (BATTLE,), "red": (BATTLE,)}
    assert progress(state, NO_MAP, {"red": 10}).reached == ""


def test_whether_a_side_retires_is_not_known_while_one_of_its_units_has_no_bv() -> None:
    # L413: "When a force reaches 50% of its starting BV, it retires from the field". Red loses
    # r1 (1000 BV) and keeps r2 of no BV: on the partial sum Red lost 1000 of 1000 and would
    # "retire"; with r2's BV unknown it is not known (None). Blue's own units all have a BV.
    state = campaign((fu("r1", bv=1000), fu("r2", bv=0)), (fu("b1", bv=1000),))
    events, state = run(
        state,
        submit(file("a", seen("r1", RecordSection.SALVAGE, hits=6),
                    seen("r2", RecordSection.SURVIVORS), seen("b1", RecordSection.SURVIVORS))),
        close(BATTLE, "blue"),
    )  # fmt: skip
    sides = _sides(events)
    assert sides["red"].retires is None
    assert sides["blue"].retires is False
    # R-VP-6: once r2's BV is recorded the battle is scored again and the answer is told.
    events, state = run(state, RecordUnitBv(unit_id="r2", bv=3000, note=NOTE, actor="Ann"))
    (recorded,) = [e for e in events if isinstance(e, UnitBvRecorded)]
    assert {x.side_id: x.retires for x in recorded.battles[0].sides} == {
        "red": False,  # 3000 of 4000 left
        "blue": False,
    }


def test_the_retreat_check_is_not_known_while_a_unit_of_the_battle_has_no_bv() -> None:
    # L340-L341: "A retreat may only be called if: - The enemy outnumbers the attacker
    # (attacker is 150% of defenders BV)" (R-RETREAT-1). r2 has no BV: on the partial sum Red
    # is 1000 against Blue's 1000 and Blue "may not" retreat; r2 may be 1000 BV, and Red at
    # 2000 outnumbers Blue. The check is not decided: it names r2 and the command.
    state = campaign((fu("r1", bv=1000), fu("r2", bv=0)), (fu("b1", bv=1000),))
    _, state = run(
        state,
        submit(file("a", seen("r1", RecordSection.SURVIVORS), seen("r2", RecordSection.SURVIVORS),
                    seen("b1", RecordSection.SURVIVORS))),
    )  # fmt: skip
    with pytest.raises(RetreatNotKnown) as refused:
        retreat_check(state, BATTLE, "blue", TRIPWIRE.dice_for(state))
    assert refused.value.units_without_bv == ("r2",)
    assert refused.value.code == "bv_not_known"
    assert "mekref battle bv --unit ID --bv N" in refused.value.message
    assert refused.value.source is not None and refused.value.source.line == 341
    _, state = run(state, RecordUnitBv(unit_id="r2", bv=1000, note=NOTE, actor="Ann"))
    assert [r.line for r in retreat_check(state, BATTLE, "blue", TRIPWIRE.dice_for(state))] == [341]
    assert retreat_check(state, BATTLE, "red", TRIPWIRE.dice_for(state)) == ()


def test_a_retreat_condition_without_bv_is_told_even_when_a_bv_is_missing() -> None:
    # L344: "- The players force commander has been killed": no BV enters it, so a side whose
    # commander is dead may call a retreat whatever the missing BV; only that line is named
    # (the conditions on BV, L341-L343, stay untold).
    state = campaign((fu("r1", bv=1000, commander=True), fu("r2", bv=0)), (fu("b1", bv=1000),))
    _, state = run(
        state,
        submit(file("a", seen("r1", RecordSection.SALVAGE, hits=6),
                    seen("r2", RecordSection.SURVIVORS), seen("b1", RecordSection.SURVIVORS))),
    )  # fmt: skip
    assert [r.line for r in retreat_check(state, BATTLE, "red", TRIPWIRE.dice_for(state))] == [344]
