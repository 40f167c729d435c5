"""Extra hours on the move (ruling T-H1 in docs/turn.md).

L166: "A Strategic Turn consists of 1 day. Each day has 6 useful hours. Additional hours can be
used but this will cause Force Fatigue."
L180: "... consult the following table for the number of tactical movement points a unit or
formation can move in one week assuming the units are travelling 6 hour per day."
"""

from __future__ import annotations

import pytest
from test_turn_orders import STATE, _refusal, _submit
from turn_world import REFEREE, run

from mekref.hexmap import FormationMovement
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn

FOUR_ROAD_HEXES = ("0607", "0707", "0806", "0906")


def test_l180_mp_grow_with_the_hours_rounded_down() -> None:
    """L180's table is for 6 hours: 8 hours give 8/6 of the MP, rounded down; L166's fatigue
    is one point per extra hour, on top of a forced march's one (L197)."""
    moves = [FormationMovement.of(5, "leg", extra_hours=h) for h in (0, 1, 2, 6, 18)]
    assert [m.base_mp for m in moves] == [3, 3, 4, 6, 12]
    assert [m.fatigue_gained for m in moves] == [0, 1, 2, 6, 18]
    both = FormationMovement.of(5, "leg", forced_march=True, extra_hours=3)
    assert (both.base_mp, both.fatigue_gained) == (7, 4)  # 5 x 9/6, rounded down; 1 + 3


def test_l166_extra_hours_let_a_move_go_further_and_tire_the_formation() -> None:
    """Alpha (3 MP) cannot take four road hexes in 6 hours (nor 7: 3 x 7/6 = 3); with 2 extra
    hours (4 MP) it can, and ends the day with 2 fatigue."""
    plain = FormationOrder(formation_id="alpha", action="move", path=FOUR_ROAD_HEXES)
    assert "over_budget" in _refusal(_submit("loyalist", plain)).message
    one = FormationOrder(
        formation_id="alpha", action="move", path=FOUR_ROAD_HEXES, params=(("extra_hours", "1"),)
    )
    assert "over_budget" in _refusal(_submit("loyalist", one)).message
    two = FormationOrder(
        formation_id="alpha", action="move", path=FOUR_ROAD_HEXES, params=(("extra_hours", "2"),)
    )
    state, events = run(STATE, _submit("loyalist", two), ResolveTurn(actor=REFEREE, day=1))
    assert state.strategic is not None
    alpha = state.strategic.formations["alpha"]
    assert (alpha.hex, alpha.fatigue) == ("0906", 2)
    (mine,) = [e for e in events if isinstance(e, ev.FormationsUpdated) and e.side_id == "loyalist"]
    assert any("2 extra hours on the move, +2 fatigue (L166" in n for n in mine.notes)


@pytest.mark.parametrize(
    ("action", "hours", "says"),
    [
        ("guard", "2", "only a move or forced_march travels extra hours"),
        ("move", "19", "from 1 to 18 past the 6 useful ones"),
        ("move", "two", "not 'two'"),
    ],
)
def test_l166_extra_hours_are_a_moves_and_fit_the_day(action: str, hours: str, says: str) -> None:
    """A day has 24 hours (18 past the useful 6); only a move or a forced march travels them."""
    path = ("0607",) if action == "move" else ()
    order = FormationOrder(
        formation_id="alpha", action=action, path=path, params=(("extra_hours", hours),)
    )
    r = _refusal(_submit("loyalist", order))
    assert r.code == "bad_param" and says in r.message
