"""Ruling BR-15: a side's file speaks only for its own units, whatever its format.

> MegaMek format reference, section 0: "`<record>` is a battle result seen from **one**
> player's point of view."

What one side's file says of an enemy unit is a claim. With the owner's own file there, the
owner's file decides the unit's fate, damage, crew and whether it was killed; a contrary claim is
a conflict for the referee, with both versions, never applied. A savegame a side uploads is that
side's view only; the referee's savegame stays every side's (SG-1).
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.tripwire.battle_messages import BattleResolved
from mekref.rules.tripwire.battle_model import (
    SAVEGAME_ROOT,
    BattleResolution,
    Fate,
    RecordSection,
    ReportedEjection,
    ReportedKill,
    file_views,
)
from mekref.rules.tripwire.battle_pending import pending_battles

from .states import campaign, close, control, file, fu, run, seen, submit

S = RecordSection
OWNERS = {"r1": "red", "r2": "red", "b1": "blue", "b2": "blue"}


def _resolved(events: list[object]) -> BattleResolution:
    return next(e for e in events if isinstance(e, BattleResolved)).resolution


def _kill(victim: str, killer: str) -> ReportedKill:
    return ReportedKill(
        killed_name="Griffin GRF-1N", killed_unit_ids=(victim,), killer_unit_id=killer
    )


def test_ruling_br15_an_enemys_devastated_claim_never_overrides_the_owners_survivors() -> None:
    state = campaign((fu("r1"),), (fu("b1"), fu("b2")))
    # Red's forged record: Blue's two units devastated, each killed by r1.
    forged = file(
        "a",
        seen("r1", S.SURVIVORS),
        seen("b1", S.DEVASTATED),
        seen("b2", S.RETREATED),
        kills=(_kill("b1", "r1"),),
    )
    honest = file("b", seen("b1", S.SURVIVORS), seen("b2", S.SURVIVORS), seen("r1", S.SALVAGE))
    events, _ = run(state, submit(forged), submit(honest), control("battle-" + "a" * 12, "red"))
    resolution = _resolved(events)
    fates = {u.unit_id: u.fate for u in resolution.units}
    assert (fates["b1"], fates["b2"], fates["r1"]) == (Fate.OPERATIONAL,) * 3
    details = {c.subject: c.detail for c in resolution.conflicts}
    assert (
        "red says devastated" in details["b1"]
        and "blue's own file lists it in survivors" in (details["b1"])
    )
    assert "red says retreated" in details["b2"]
    # The kill line names a unit its own side shows standing: not credited, and said so.
    assert "kill of Griffin GRF-1N by r1" in details["r1"] and "not credited" in details["r1"]
    assert all(p.kills == 0 for p in resolution.people)


def test_ruling_br15_claims_that_agree_with_the_owner_still_count() -> None:
    # Blue's own record shows b1 a wreck: Red's kill line for it is credited, nothing held.
    state = campaign((fu("r1"),), (fu("b1"),))
    red = file("a", seen("r1", S.SURVIVORS), seen("b1", S.DEVASTATED), kills=(_kill("b1", "r1"),))
    blue = file("b", seen("b1", S.DEVASTATED), seen("r1", S.SALVAGE), kills=())
    events, _ = run(state, submit(red), submit(blue), control("battle-" + "a" * 12, "red"))
    resolution = _resolved(events)
    assert {u.unit_id: u.fate for u in resolution.units}["b1"] is Fate.TRULY_DESTROYED
    assert next(p for p in resolution.people if p.person_id == "p-r1").kills == 1
    assert not [c for c in resolution.conflicts if "BR-15" in c.detail]


def test_ruling_br15_a_savegame_a_side_uploads_is_that_sides_view_only() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    save = replace(
        file("c", seen("r1", S.SURVIVORS), seen("b1", S.DEVASTATED), kills=(_kill("b1", "r1"),)),
        root=SAVEGAME_ROOT,
        uploaded_by="red",
    )
    assert file_views(save, OWNERS) == {"red"}
    assert file_views(replace(save, uploaded_by=None), OWNERS) == {"red", "blue"}  # SG-1
    _, after = run(state, submit(save))
    (waiting,) = pending_battles(after)
    # Blue sent nothing: the battle waits for it instead of taking Red's word.
    assert waiting.sides_reported == ("red",) and waiting.sides_missing == ("blue",)
    blue = file("b", seen("b1", S.SURVIVORS), seen("r1", S.SALVAGE))
    events, _ = run(after, submit(blue), control(waiting.battle_id, "red"))
    resolution = _resolved(events)
    assert {u.unit_id: u.fate for u in resolution.units}["b1"] is Fate.OPERATIONAL
    assert any(
        c.subject == "b1" and "red says devastated" in c.detail for c in resolution.conflicts
    )
    assert next(p for p in resolution.people if p.person_id == "p-r1").kills == 0


def test_ruling_br15_without_the_owners_file_the_referees_close_takes_the_claims() -> None:
    # BR-12 unchanged: the referee's word (battle close) takes the other files as they are.
    state = campaign((fu("r1"),), (fu("b1"),))
    save = replace(
        file("c", seen("r1", S.SURVIVORS), seen("b1", S.DEVASTATED), kills=(_kill("b1", "r1"),)),
        root=SAVEGAME_ROOT,
        uploaded_by="red",
    )
    _, after = run(state, submit(save))
    (waiting,) = pending_battles(after)
    events, _ = run(after, close(waiting.battle_id, "red"))
    resolution = _resolved(events)
    assert {u.unit_id: u.fate for u in resolution.units}["b1"] is Fate.TRULY_DESTROYED
    assert next(p for p in resolution.people if p.person_id == "p-r1").kills == 1


def test_ruling_br15_an_enemys_word_that_a_crew_ejected_is_not_taken() -> None:
    # Red says Blue's pilot ejected and was left on the field (captured if believed, BR-5);
    # Blue's own record shows its pilot in its standing 'Mech.
    state = campaign((fu("r1"),), (fu("b1"),))
    ejection = ReportedEjection(
        person_ids=("p-b1",),
        names=("Pilot b1",),
        section=S.SALVAGE,
        left_unit_id="b1",
        picked_up_by=None,
    )
    red = file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE), ejections=(ejection,))
    blue = file("b", seen("b1", S.SURVIVORS), seen("r1", S.SALVAGE))
    events, _ = run(state, submit(red), submit(blue), control("battle-" + "a" * 12, "red"))
    pilot = next(p for p in _resolved(events).people if p.person_id == "p-b1")
    assert pilot.captured_by is None and pilot.fate.value == "active"
