"""Ruling SG-1 in the TripWire books: a savegame is the own file of every side in it."""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.tripwire.battle_messages import BattleResolved
from mekref.rules.tripwire.battle_model import (
    SAVEGAME_ROOT,
    Fate,
    RecordSection,
    UnitDamage,
    file_views,
)
from mekref.rules.tripwire.battle_pending import pending_battles

from .states import campaign, control, file, fu, mek_locations, run, seen, submit

S = RecordSection


def test_ruling_sg1_a_savegame_reports_for_every_side_and_resolves_on_control() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    save = replace(file("c", seen("r1", S.SURVIVORS), seen("b1", S.RETREATED)), root=SAVEGAME_ROOT)
    assert file_views(save, {"r1": "red", "b1": "blue"}) == {"red", "blue"}
    events, after = run(state, submit(save))
    [waiting] = pending_battles(after)
    assert waiting.sides_reported == ("blue", "red") and not waiting.sides_missing
    events, _ = run(after, control(waiting.battle_id, "red"))
    resolved = next(e for e in events if isinstance(e, BattleResolved))
    fates = {u.unit_id: u.fate for u in resolved.resolution.units}
    assert fates == {"r1": Fate.OPERATIONAL, "b1": Fate.RETREATED}


def test_ruling_sg1_the_savegame_describes_a_unit_before_a_players_record() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    in_record = UnitDamage(locations=mek_locations(armor_lost=4))
    in_save = UnitDamage(locations=mek_locations(armor_lost=9))
    record = file("a", seen("r1", S.SURVIVORS, damage=in_record), seen("b1", S.SALVAGE))
    save = replace(
        file("c", seen("r1", S.SURVIVORS, damage=in_save), seen("b1", S.SURVIVORS)),
        root=SAVEGAME_ROOT,
    )
    events, _ = run(state, submit(record), submit(save), control("battle-" + "a" * 12, "red"))
    resolved = next(e for e in events if isinstance(e, BattleResolved))
    r1 = next(u for u in resolved.resolution.units if u.unit_id == "r1")
    assert r1.damage == in_save
    assert [c.subject for c in resolved.resolution.conflicts] == ["r1"]
    # Blue's unit is in its own (savegame) view on the map: not a wreck for Red's record.
    b1 = next(u for u in resolved.resolution.units if u.unit_id == "b1")
    assert b1.fate is Fate.OPERATIONAL
