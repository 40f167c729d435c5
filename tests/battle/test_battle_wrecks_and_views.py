"""A side's file that shows every unit of it destroyed speaks for it (ruling BR-1, revised), and
a unit truly destroyed in an earlier battle is no force and no loss in a later one (R-VP-7).

Rules-level: files are built as ``ReportedUnit`` values and submitted through the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from mekref.rules.tripwire.battle_messages import BattleResolved
from mekref.rules.tripwire.battle_model import (
    Fate,
    RecordSection,
    ReportedKill,
    ReportedUnit,
    UnitDamage,
)
from mekref.rules.tripwire.battle_pending import pending_battles
from mekref.rules.tripwire.file_view import reporting_side
from mekref.rules.tripwire.salvage import UnitMobility

from .states import campaign, close, control, file, fu, mek_locations, run, seen, submit

S = RecordSection


def _truly(uid: str, section: RecordSection = S.SALVAGE) -> ReportedUnit:
    """The unit with its centre torso's internal structure gone (L146)."""
    return seen(uid, section, damage=UnitDamage(locations=mek_locations(ct_internal=0)))


def _pilot_dead(uid: str) -> ReportedUnit:
    return seen(uid, S.SALVAGE, mobility=UnitMobility(kind=_MEK, crew_dead=True))


_MEK = seen("x", S.SALVAGE).kind


def _resolved(events: Sequence[object]) -> BattleResolved:
    (found,) = [e for e in events if isinstance(e, BattleResolved)]
    return found


def test_ruling_br1_a_record_showing_every_unit_of_its_side_destroyed_speaks_for_it() -> None:
    # L145: "A unit may be considered "destroyed" during a game ..." MegaMek puts a player's
    # own wrecks in salvage (or devastated) with no kill line, and an enemy still on the map in
    # salvage too, standing: a record whose one side is all wrecks is that side's view.
    state = campaign((fu("r1"), fu("r2")), (fu("b1"),))
    wiped = file("a", _truly("r1"), seen("r2", S.DEVASTATED), seen("b1", S.SALVAGE))
    assert reporting_side(state, wiped) == "red"
    assert reporting_side(state, file("b", _pilot_dead("r1"), _truly("r2"))) == "red"
    # Not told: one red unit still stands (an enemy on the map), both sides wrecked, a red
    # unit retreated (an own retreat is a survivor), a kill line naming red's unit (an own
    # wreck gets none), or an entity that is no campaign unit (it may be the writer's).
    assert reporting_side(state, file("c", _truly("r1"), seen("r2", S.SALVAGE))) is None
    assert reporting_side(state, file("d", _truly("r1"), _truly("r2"), _truly("b1"))) is None
    retreated = file("e", _truly("r1"), seen("r2", S.RETREATED), seen("b1", S.SALVAGE))
    assert reporting_side(state, retreated) is None
    named = ReportedKill(killed_name="Griffin GRF-1N", killed_unit_ids=("r1",), killer_unit_id=None)
    assert reporting_side(state, file("f", _truly("r1"), _truly("r2"), kills=(named,))) is None
    unknown = file("g", _truly("r1"), _truly("r2"), unmatched=("Atlas AS7-D",))
    assert reporting_side(state, unknown) is None
    # Both wrecked, but the kill line names blue's unit: blue is the writer's enemy.
    blue = ReportedKill(killed_name="Griffin GRF-1N", killed_unit_ids=("b1",), killer_unit_id=None)
    both = file("h", _truly("r1"), _truly("r2"), _truly("b1"), kills=(blue,))
    assert reporting_side(state, both) == "red"


def test_ruling_br1_a_wiped_out_sides_file_resolves_the_battle_without_close() -> None:
    state = campaign((fu("r1"), fu("r2")), (fu("b1"),))
    blue = file("a", seen("b1", S.SURVIVORS), _truly("r1"), _truly("r2"))
    events, state = run(state, submit(blue))
    (battle,) = pending_battles(state)
    assert battle.sides_missing == ("red",)
    _, state = run(state, control(battle.battle_id, "blue"))
    red = file("b", _truly("r1"), _truly("r2"), seen("b1", S.SALVAGE))
    events, state = run(state, submit(red))
    resolution = _resolved(events).resolution
    assert resolution.closed_by is None  # no referee's word was needed
    assert {u.unit_id: u.fate for u in resolution.units} == {
        "b1": Fate.OPERATIONAL,
        "r1": Fate.TRULY_DESTROYED,
        "r2": Fate.TRULY_DESTROYED,
    }
    assert pending_battles(state) == []


def test_ruling_r_vp_7_a_unit_truly_destroyed_before_is_no_force_and_no_loss() -> None:
    # L146: "A 'Mech is only truly destroyed when its center torso internal structure is
    # eliminated. In that instance ... it cannot be repaired." L419: "| 25% of Enemy force
    # destroyed | 1 |": a wreck from an earlier battle is neither force nor loss again.
    state = campaign((fu("r1", bv=1000), fu("r2", bv=3000)), (fu("b1", bv=1000),))
    first = (file("a", seen("b1", S.SURVIVORS), _truly("r2")), file("b", _truly("r2")))
    events, state = run(state, submit(first[0]), submit(first[1]))
    (battle,) = pending_battles(state)
    events, state = run(state, close(battle.battle_id, "blue"))
    assert state.battles.fates["r2"] is Fate.TRULY_DESTROYED
    # An old list still carried the wreck: both files of the next battle name it again, and a
    # kill line scores it once more.
    again = ReportedKill(killed_name="Griffin GRF-1N", killed_unit_ids=("r2",), killer_unit_id="b1")
    red = file("c", seen("r1", S.SURVIVORS), _truly("r2"), seen("b1", S.SALVAGE))
    blue = file("d", seen("b1", S.SURVIVORS), seen("r1", S.SALVAGE), _truly("r2"), kills=(again,))
    events, state = run(state, submit(red), submit(blue))
    (battle,) = pending_battles(state)
    events, state = run(state, control(battle.battle_id, "red"))
    resolution = _resolved(events).resolution
    assert {u.unit_id for u in resolution.units} == {"r1", "b1"}
    sides = {x.side_id: (x.starting_bv, x.destroyed_bv, x.vp_delta) for x in resolution.sides}
    assert sides == {"red": (1000, 0, 0), "blue": (1000, 0, 0)}
    (note,) = [c.detail for c in resolution.conflicts if c.subject == "r2"]
    assert "out of play before this battle (the unit is truly destroyed" in note
    assert "R-VP-7" in note
    assert not any(p.kills for p in resolution.people)  # the wreck is not killed twice
    assert state.battles.fates["r2"] is Fate.TRULY_DESTROYED  # the books still show it
