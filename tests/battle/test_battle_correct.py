"""Revised ruling SG-7 (docs/megamek-adapter.md): a resolved battle's booked condition corrected.

A later save of the game a battle was resolved from corrects what the battle booked, keeping
every roll already made: damage and hits replaced, the repair priced again, a person newly at
5 hits rolling the death roll (L125), a fate the save gives otherwise set as ``battle fate``
sets it; refused for a unit or person acted on since the resolution.
"""

from __future__ import annotations

import pytest

from mekref.rules.dice import Dice
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_correct import (
    ConditionCorrected,
    CorrectCondition,
    PersonCorrection,
)
from mekref.rules.tripwire.battle_messages import BattleReportReceived, UnitFateSet
from mekref.rules.tripwire.battle_model import (
    SAVEGAME_ROOT,
    BattleFile,
    BattleStatus,
    Fate,
    PersonFate,
    RecordSection,
    UnitDamage,
)
from mekref.rules.tripwire.battle_resolution import repair_line
from mekref.rules.tripwire.battle_supersede import superseded_note
from mekref.rules.tripwire.commands import SetPersonHits
from mekref.rules.tripwire.injuries import death_roll_name
from mekref.rules.tripwire.state import CampaignState, PersonStatus
from mekref.rules.tripwire.table_loader import load_tables

from .states import NOTE, SEED, campaign, control, file, fu, mek_locations, run, seen, submit

L125 = (
    "L125: A MechWarrior with 5 Damage has a chance of death on the operating table. Roll a "
    "Death roll on 1D6. On a 4 – 6 they die."
)


def _save(
    sha: str, round_: int, *, hits: int = 0, armor_lost: int = 0, **blue: object
) -> BattleFile:
    red = seen(
        "r1",
        RecordSection.SURVIVORS,
        hits=hits,
        damage=UnitDamage(locations=mek_locations(armor_lost=armor_lost)),
    )
    b1 = seen("b1", RecordSection.SURVIVORS, **blue)  # type: ignore[arg-type]
    return BattleFile(
        sha256=sha * 64,
        path=f"round-{round_}.sav.gz",
        root=SAVEGAME_ROOT,
        reporting_side=None,
        units=(red, b1),
        game_round=round_,
        game_phase="VICTORY",
    )


def _resolved(**first: object) -> tuple[CampaignState, str]:
    state = campaign((fu("r1"),), (fu("b1"),))
    events, state = run(state, submit(_save("a", 5, **first)))  # type: ignore[arg-type]
    battle_id = next(e.battle_id for e in events if isinstance(e, BattleReportReceived))
    _, state = run(state, control(battle_id, "red"))
    assert state.battles.battles[battle_id].status is BattleStatus.RESOLVED
    return state, battle_id


def test_ruling_sg7_a_later_save_corrects_hits_and_damage_and_prices_the_repair() -> None:
    state, battle_id = _resolved(hits=2)
    booked = state.battles.unit_damage["r1"]
    later = _save("b", 6, hits=3, armor_lost=4)
    events, state = run(state, submit(later))
    # Damaged now where the autosave saw no damage: the fate follows, as 'battle fate' sets it.
    assert [type(e) for e in events] == [BattleReportReceived, ConditionCorrected, UnitFateSet]
    assert state.battles.fates["r1"] is Fate.DAMAGED
    [corrected] = [e for e in events if isinstance(e, ConditionCorrected)]
    assert corrected.source == "round-6.sav.gz" and corrected.rolls == ()
    assert "replaces the result of round-5.sav.gz" in corrected.notes[0]
    # No second battle: the save joins the resolved one and supersedes the earlier save.
    battle = state.battles.battles[battle_id]
    assert len(state.battles.battles) == 1 and battle.superseded == ("a" * 64,)
    assert [f.sha256 for f in battle.in_force] == ["b" * 64]
    assert battle.corrected_by == ("b" * 64,)
    assert "replaces the result of round-5.sav.gz" in superseded_note(battle, battle.files[0])
    # The person's hits and the unit's damage replaced; the repair priced from the new damage.
    assert state.people["p-r1"].hits == 3
    damage = state.battles.unit_damage["r1"]
    assert damage.armor_lost == 4 and booked.armor_lost == 0
    [unit] = corrected.units
    assert unit.repair == repair_line(state.units["r1"], damage, load_tables())
    assert unit.repair.total_sp > unit.previous_total_sp
    outcome = next(o for o in battle.resolution.units if o.unit_id == "r1")  # type: ignore[union-attr]
    assert outcome.damage == damage and outcome.repair == unit.repair
    # Applied once: the same file again is refused as already in the battle.
    with pytest.raises(Refusal, match="already part of battle"):
        run(state, submit(later))


def test_l125_a_person_newly_at_five_hits_makes_the_death_roll_the_resolution_makes() -> None:
    """L125: A MechWarrior with 5 Damage ... Roll a Death roll on 1D6. On a 4 – 6 they die."""
    assert "On a 4 – 6 they die" in L125
    state, _ = _resolved(hits=4)
    rolls_before = state.rolls_used
    events, state = run(state, submit(_save("b", 6, hits=5)))
    [corrected] = [e for e in events if isinstance(e, ConditionCorrected)]
    [roll] = corrected.rolls
    # The resolution's own roll (its name), seeded and recorded like every other roll.
    assert roll.name == death_roll_name("p-r1") and roll.index == rolls_before
    assert roll == Dice(SEED, rolls_before).roll(roll.name)[0]
    assert state.rolls_used == rolls_before + 1
    [person] = corrected.people
    dies = roll.total >= 4
    assert person.fate is (PersonFate.DIED_OF_WOUNDS if dies else PersonFate.INJURED)
    p = state.people["p-r1"]
    assert p.death_rolled
    assert p.status is (PersonStatus.DEAD if dies else PersonStatus.ACTIVE)


def test_six_hits_is_killed_in_action_with_no_roll() -> None:
    state, _ = _resolved(hits=2)
    events, state = run(state, submit(_save("b", 6, hits=6)))
    [corrected] = [e for e in events if isinstance(e, ConditionCorrected)]
    assert corrected.rolls == () and corrected.people[0].fate is PersonFate.KIA
    assert state.people["p-r1"].status is PersonStatus.DEAD


def test_a_fate_the_later_save_gives_otherwise_is_set_as_battle_fate_sets_it() -> None:
    """The enemy's Griffin is a wreck in the final save; Red holds the field, so it is
    captured and changes sides, as ``mekref battle fate --fate captured --side red`` does."""
    state, _ = _resolved()
    wreck = UnitDamage(locations=mek_locations(ct_internal=0))
    events, state = run(
        state,
        submit(_save("b", 6, damage=wreck)),  # b1 still in "survivors" with a CT gone
    )
    [fate] = [e for e in events if isinstance(e, UnitFateSet)]
    assert fate.unit_id == "b1" and fate.previous is Fate.OPERATIONAL
    assert state.battles.fates["b1"] is fate.fate
    [corrected] = [e for e in events if isinstance(e, ConditionCorrected)]
    assert any("stay as booked" in n for n in corrected.notes), corrected.notes


def test_refused_for_a_person_or_unit_acted_on_since_the_resolution() -> None:
    state, _ = _resolved(hits=2)
    _, overridden = run(state, SetPersonHits(person_id="p-r1", hits=1, override=NOTE, actor="t"))
    with pytest.raises(Refusal, match="their hits changed since"):
        run(overridden, submit(_save("b", 6, hits=3)))
    # A later battle with the unit: its booked damage is not corrected.
    _, fought = run(state, submit(file("c", seen("r1", RecordSection.SURVIVORS))))
    with pytest.raises(Refusal, match="it fought in battle"):
        run(fought, submit(_save("b", 6, hits=2, armor_lost=3)))


def test_the_referee_corrects_one_persons_hits() -> None:
    state, battle_id = _resolved(hits=2)
    cmd = CorrectCondition(
        battle_id=battle_id,
        note=NOTE,
        people=(PersonCorrection(person_id="p-r1", hits=3),),
        actor="Ann",
    )
    events, after = run(state, cmd)
    [corrected] = events
    assert isinstance(corrected, ConditionCorrected) and corrected.note == NOTE
    assert after.people["p-r1"].hits == 3
    res = after.battles.battles[battle_id].resolution
    assert res is not None
    outcome = next(p for p in res.people if p.person_id == "p-r1")
    assert outcome.hits == 3 and outcome.hits_before == 0  # booked 2 over 0 before the battle
    for person, hits, refused in (("p-r1", 7, "hits run from 0 to 6"), ("nobody", 1, "no outcome")):
        wrong = (PersonCorrection(person_id=person, hits=hits),)
        with pytest.raises(Refusal, match=refused):
            run(state, CorrectCondition(battle_id=battle_id, note=NOTE, people=wrong, actor="Ann"))
