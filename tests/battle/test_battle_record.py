"""The end-of-game record for MekHQ at the rules level: how people are written (R-REC-2), the
sections (R-REC-1), and what is refused (R-REC-3)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mekref.adapters.megamek.mul_model import DEAD_HITS, Section
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import PersonFate, RecordSection
from mekref.rules.tripwire.battle_record import battle_record

from .builders import UNITS_DIR
from .states import campaign, control, file, fu, run, seen, submit

GRIFFIN = parse_unit_file((UNITS_DIR / "Griffin GRF-1N.mtf").read_bytes(), "Griffin GRF-1N.mtf")
DESIGNS = {"r1": GRIFFIN, "r2": GRIFFIN, "b1": GRIFFIN}


def _fought(blue_hits: int) -> tuple[object, str]:
    """r1 ejected with 2 hits (its own file), r2 retreated; b1's pilot at ``blue_hits``."""
    state = campaign((fu("r1"), fu("r2")), (fu("b1"),))
    red = file(
        "a",
        seen("r1", RecordSection.SURVIVORS, hits=2, ejected=True),
        seen("r2", RecordSection.RETREATED),
    )
    blue = file("b", seen("b1", RecordSection.SURVIVORS, hits=blue_hits))
    red, blue = replace(red, reporting_side="red"), replace(blue, reporting_side="blue")
    _, state = run(state, submit(red))
    (battle_id,) = state.battles.battles
    _, state = run(state, replace(submit(blue), battle_id=battle_id), control(battle_id, "red"))
    return state, battle_id


def test_an_ejected_pilot_is_written_in_the_unit_with_the_hits_and_said() -> None:
    """R-REC-2: MekHQ counts a crew marked ejected without its MechWarrior entity as dead; the
    record writes the pilot in the unit, not ejected, and says so."""
    state, battle_id = _fought(blue_hits=1)
    record = battle_record(state, battle_id, "red", DESIGNS)  # type: ignore[arg-type]
    mul = read_mul_bytes(record.text.encode("utf-8"))
    by_id = {e.external_id: e for e in mul.entities}
    r1 = by_id["r1"]
    assert r1.crew is not None and r1.crew.ejected is False
    assert [(m.external_id, m.hits) for m in r1.members] == [("p-r1", 2)]
    assert any("Pilot r1 ejected (recovered)" in n and "R-REC-2" in n for n in record.notes)
    # R-REC-1: an own retreat is a survivor, as MegaMek's own record writes it.
    assert by_id["r2"].section is Section.SURVIVORS


def test_the_dead_are_written_dead() -> None:
    """R-REC-2: six hits (and a failed death roll) are ``hits="Dead"``."""
    state, battle_id = _fought(blue_hits=6)
    record = battle_record(state, battle_id, "blue", DESIGNS)  # type: ignore[arg-type]
    (b1,) = read_mul_bytes(record.text.encode("utf-8")).entities
    assert [m.hits for m in b1.members] == [DEAD_HITS]


def test_five_hits_are_written_as_the_death_roll_left_them() -> None:
    state, battle_id = _fought(blue_hits=5)
    resolution = state.battles.battles[battle_id].resolution  # type: ignore[attr-defined]
    (b1_fate,) = [p.fate for p in resolution.people if p.person_id == "p-b1"]
    record = battle_record(state, battle_id, "blue", DESIGNS)  # type: ignore[arg-type]
    (b1,) = read_mul_bytes(record.text.encode("utf-8")).entities
    if b1_fate is PersonFate.DIED_OF_WOUNDS:
        assert [m.hits for m in b1.members] == [DEAD_HITS]
        assert any("died of wounds" in n for n in record.notes)
    else:
        assert [m.hits for m in b1.members] == [5]


def test_without_designs_the_units_are_named_and_nothing_written() -> None:
    """R-REC-3: with no design the record could only write the units pristine."""
    state, battle_id = _fought(blue_hits=1)
    with pytest.raises(Refusal) as refused:
        battle_record(state, battle_id, "red")  # type: ignore[arg-type]
    assert refused.value.code == "condition_unknown"
    assert "Griffin GRF-1N (r1): no design kept for it" in refused.value.message
