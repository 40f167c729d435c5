"""Rulings T-E8 and T-E9 in the engine: a battle belongs to an engagement of the strategic map.

L280: "Whenever two formations occupy the same hex (or cross a hex with another formation) a
scenario begins in that hex and no further movement occurs." L179: "If at any time during that
formation's movement they share a hex with an enemy formation, movement is stopped at that hex
and a scenario begins." The console-script tests (test_turn_battle_link_cli.py) play the
Ginestra sample; these check the decisions on a small world: Alpha (four 'Mechs) and Bravo
(three) in 1105 with engagement ``day1-1105-1`` set up, the hover at 0610 in no engagement.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import battle_link
from mekref.rules.tripwire.battle_messages import (
    BattleConfirmed,
    BattleReportReceived,
    BattleResolved,
    ConfirmBattle,
)
from mekref.rules.tripwire.battle_model import RecordSection
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.setup import FormationSpec
from mekref.rules.tripwire.turn.state import EngagementSetup

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from battle.states import control, file, seen, submit
from turn_world import placed, run, started

S = RecordSection
E = "day1-1105-1"
ANN = RefereeNote(referee="Ann", reason="fought at the club")


@pytest.fixture
def world() -> CampaignState:
    state = placed(
        started(),
        (
            FormationSpec(formation_id="alpha", name="Alpha",
                          unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"), hex="1105"),
            FormationSpec(formation_id="hover", name="Hover", unit_ids=("L-MAX",), hex="0610"),
        ),
        (FormationSpec(formation_id="bravo", name="Bravo",
                       unit_ids=("R-JR7", "R-MAD", "R-AS7")),),
    )  # fmt: skip
    s = state.strategic
    assert s is not None
    # Bravo starts at the pirate point; here it has landed in 1105 (as an orbital insertion).
    s = replace(s, formations={**s.formations, "bravo": replace(s.formations["bravo"], hex="1105")})
    setup = EngagementSetup(
        engagement_id=E, day=1, hex="1105", kind="meeting", sides=("loyalist", "rebel"),
        formations=("alpha", "bravo"), attacker=None, ambusher=None, ambush_totals=(),
        objectives=(), map_sheets=(), terrain="light_urban", weather="clear", arrivals=(),
        aerospace=(), command_centre=(),
    )  # fmt: skip
    return replace(state, strategic=replace(s, engagements=(setup,)))


def _received(events: list[object]) -> BattleReportReceived:
    (got,) = [e for e in events if isinstance(e, BattleReportReceived)]
    return got


def test_both_sides_files_join_the_battle_of_their_engagement_and_it_closes(
    world: CampaignState,
) -> None:
    state, events = run(world, submit(file("a", seen("L-GRF", S.SURVIVORS))))
    first = _received(events)
    assert (first.engagement_id, first.held) == (E, "")
    # The rebels' file shares no unit with the loyalists': the engagement joins them.
    state, events = run(state, submit(file("b", seen("R-MAD", S.SURVIVORS))))
    assert _received(events).battle_id == first.battle_id
    assert battle_link.open_engagements(state) == world.strategic.engagements  # type: ignore[union-attr]
    state, events = run(state, control(first.battle_id, "loyalist"))
    assert any(isinstance(e, BattleResolved) for e in events)
    assert battle_link.closed_engagements(state) == {E: first.battle_id}
    assert battle_link.open_engagements(state) == ()
    (together,) = battle_link.after_battles(state)
    assert together.formations == (("alpha", "loyalist"), ("bravo", "rebel"))
    assert together.hex == "1105" and together.next_day == state.strategic.day  # type: ignore[union-attr]
    # A later file of the same units: its engagement was fought (T-E9), so it is held (T-E8).
    later = battle_link.link_for(state, frozenset({"R-AS7"}))
    assert later.engagement_id == "" and "already fought" in later.reason


def test_a_file_with_a_unit_of_no_engagement_is_held_until_the_referee_confirms_it(
    world: CampaignState,
) -> None:
    state, events = run(
        world, submit(file("a", seen("L-GRF", S.SURVIVORS), seen("L-MAX", S.SURVIVORS)))
    )
    received = _received(events)
    assert received.engagement_id == ""
    assert "matches no open engagement" in received.held
    assert "L-MAX" in received.held and "formation hover in hex 0610" in received.held
    alone = battle_link.link_for(world, frozenset({"L-MAX"})).reason
    assert "none of its units fights in one (open: day1-1105-1 in hex 1105)" in alone
    battle = received.battle_id
    # Every side with a unit in it has reported and control is set, yet it waits (held).
    state, events = run(state, control(battle, "loyalist"))
    assert not any(isinstance(e, BattleResolved) for e in events)
    # A file of the engagement does not join the held battle though it shares the Griffin.
    state, events = run(state, submit(file("b", seen("L-GRF", S.SURVIVORS, hits=1))))
    linked = _received(events)
    assert linked.battle_id != battle and linked.engagement_id == E
    with pytest.raises(Refusal, match="needs no confirmation: it is fought for engagement"):
        run(state, ConfirmBattle(battle_id=linked.battle_id, note=ANN, actor="t"))
    unknown = ConfirmBattle(battle_id=battle, note=ANN, engagement_id="day9-0101-1", actor="t")
    with pytest.raises(Refusal, match="no open engagement 'day9-0101-1'"):
        run(state, unknown)
    state, events = run(state, ConfirmBattle(battle_id=battle, note=ANN, actor="t"))
    (confirmed,) = [e for e in events if isinstance(e, BattleConfirmed)]
    assert confirmed.note == ANN
    assert any(isinstance(e, BattleResolved) for e in events)
    assert state.battles.battles[battle].confirmed == ANN
    with pytest.raises(Refusal, match="already resolved"):
        run(state, ConfirmBattle(battle_id=battle, note=ANN, actor="t"))


def test_the_referees_word_with_the_file_confirms_at_once(world: CampaignState) -> None:
    from mekref.rules.tripwire.battle_messages import SubmitBattleReport

    command = SubmitBattleReport(file=file("a", seen("L-MAX", S.SURVIVORS)), note=ANN, actor="t")
    state, events = run(world, command)
    received = _received(events)
    assert received.held == "" and received.confirmed == ANN
    assert state.battles.battles[received.battle_id].confirmed == ANN


def test_without_a_strategic_map_nothing_is_linked_or_held(world: CampaignState) -> None:
    books = replace(world, strategic=None)
    state, events = run(books, submit(file("a", seen("L-MAX", S.SURVIVORS))))
    received = _received(events)
    assert (received.engagement_id, received.held, received.confirmed) == ("", "", None)
    assert battle_link.link_for(state, frozenset({"L-MAX"})) == battle_link.Link()
