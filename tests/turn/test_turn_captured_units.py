"""Ruling T-F7 in the engine: a captured unit leaves the enemy's formation when the battle
resolves, and stands where the battle was.

L136: "If the Track allows it, players who “Control the Field” at the end of a scenario may
claim any enemy immobile ‘Mechs as salvage. They take control of the the ‘Mech and may either
keep it (only if they have space in there TO&E) or sell it." L137: "‘Mechs are immobile and can
be salvaged if:" L138: "- The MechWarrior has ejected/Crew have abandoned they vehicle."

The world: Alpha (four 'Mechs) and Bravo (Jenner, Marauder, Atlas) in 1105, the loyalists'
Manufacturing Facility, with engagement ``day1-1105-1`` set up; the hover at 0610 (the Space
Port); the loyalists hold Bagnorgeio (0508) too. The console-script test is
test_turn_captured_units_cli.py.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.rules.messages import Command, RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_messages import BattleResolved, SetUnitFate
from mekref.rules.tripwire.battle_model import Fate, RecordSection, UnitDamage
from mekref.rules.tripwire.battle_spending import RepairTask, RepairUnit, UnitRepaired
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn.events import FormationsUpdated
from mekref.rules.tripwire.turn.orders import ResolveTurn
from mekref.rules.tripwire.turn.reorganise import CreateFormation
from mekref.rules.tripwire.turn.repair_days import RepairWorkWaited
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations
from mekref.rules.tripwire.turn.state import EngagementSetup, StrategicState

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from battle.states import close, file, mek_locations, seen, submit
from turn_world import placed, run, started

S = RecordSection
E = "day1-1105-1"
FACILITY = "1105"
ANN = RefereeNote(referee="Ann", reason="the Marauder's pilot ejected; the loyalists hold 1105")


def _s(state: CampaignState) -> StrategicState:
    assert state.strategic is not None
    return state.strategic


@pytest.fixture
def world() -> CampaignState:
    state = placed(
        started(),
        (
            FormationSpec(formation_id="alpha", name="Alpha",
                          unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"), hex=FACILITY),
            FormationSpec(formation_id="hover", name="Hover", unit_ids=("L-MAX",), hex="0610"),
        ),
        (FormationSpec(formation_id="bravo", name="Bravo",
                       unit_ids=("R-JR7", "R-MAD", "R-AS7")),),
    )  # fmt: skip
    s = _s(state)
    # Bravo has landed in 1105 (as an orbital insertion) and the engagement is set up.
    bravo = replace(s.formations["bravo"], hex=FACILITY)
    setup = EngagementSetup(
        engagement_id=E, day=1, hex=FACILITY, kind="meeting", sides=("loyalist", "rebel"),
        formations=("alpha", "bravo"), attacker=None, ambusher=None, ambush_totals=(),
        objectives=(), map_sheets=(), terrain="light_urban", weather="clear", arrivals=(),
        aerospace=(), command_centre=(),
    )  # fmt: skip
    state = replace(
        state,
        strategic=replace(s, formations={**s.formations, "bravo": bravo}, engagements=(setup,)),
    )
    pool = OpenPool(
        actor="ref",
        pool_id="facility",
        side_id="loyalist",
        name="Facility chest",
        kind=PoolKind.LOCATION,
        location="Combat Systems Manufacturing Facility",
    )
    state, _ = run(state, pool)
    return state


def test_the_lines_quoted_are_the_texts() -> None:
    source = Path(__file__).parents[1] / "rules" / "data" / "operation_tripwire.txt"
    lines = source.read_text(encoding="utf-8").splitlines()
    assert "may claim any enemy immobile ‘Mechs as salvage" in lines[136 - 1]
    assert lines[137 - 1] == "‘Mechs are immobile and can be salvaged if:"
    assert lines[138 - 1].startswith("- The MechWarrior has ejected")
    assert lines[139 - 1] == "- The ‘Mech has no legs."


def _captured(world: CampaignState) -> CampaignState:
    """The battle of 1105: the Marauder's pilot ejected (L138), its armour shot up; the
    loyalists hold the field."""
    hurt = UnitDamage(locations=mek_locations(armor_lost=6))
    marauder = seen("R-MAD", S.SALVAGE, ejected=True, damage=hurt, name="Marauder MAD-3R")
    state, events = run(world, submit(file("a", seen("L-GRF", S.SURVIVORS), marauder)))
    (battle_id,) = state.battles.battles
    state, events = run(state, close(battle_id, "loyalist"))
    (resolved,) = [e for e in events if isinstance(e, BattleResolved)]
    (mad,) = [o for o in resolved.resolution.units if o.unit_id == "R-MAD"]
    assert (mad.fate, mad.salvaged_by) == (Fate.CAPTURED, "loyalist")
    return state


def _create(hex_: str = "", *units: str) -> CreateFormation:
    return CreateFormation(actor="loyalist", side_id="loyalist", day=1, formation_id="prize",
                           unit_ids=units or ("R-MAD",), hex=hex_)  # fmt: skip


def _refused(state: CampaignState, cmd: Command) -> Refusal:
    with pytest.raises(Refusal) as info:
        TRIPWIRE.execute(state, cmd)
    assert "\n" not in str(info.value)
    return info.value


def test_l137_salvage_leaves_the_enemy_formation_when_the_battle_resolves(
    world: CampaignState,
) -> None:
    state = _captured(world)
    s = _s(state)
    assert state.units["R-MAD"].side_id == "loyalist"
    # Out of Bravo at once, not at the next day's resolution: it no longer moves with it.
    assert s.formations["bravo"].unit_ids == ("R-JR7", "R-AS7")
    assert all("R-MAD" not in f.unit_ids for f in s.formations.values())
    # It stands on the battlefield, the engagement's hex (ruling T-F7).
    assert s.captured_at == {"R-MAD": FACILITY}


def test_ruling_t_f7_a_captured_unit_forms_a_formation_only_where_it_was_taken(
    world: CampaignState,
) -> None:
    state = _captured(world)
    # Bagnorgeio (0508) is a location the loyalists hold, where T-F2 lets recruits form; the
    # Marauder, immobile salvage 300 km away in 1105, does not appear there.
    far = _refused(state, _create("0508"))
    assert far.code == "reorganise_apart"
    assert "R-MAD in 1105" in far.message and "ruling T-F7" in far.message
    assert "L137" in far.message
    # Without a hex the refusal says where it stands.
    missing = _refused(state, _create())
    assert missing.code == "no_hex" and "captured units: where they stand, 1105" in missing.message
    # It joins Alpha's hex with a unit taken from Alpha just as well.
    mixed_far = _refused(
        replace(
            state,
            strategic=replace(
                _s(state),
                formations={**_s(state).formations, "alpha": replace(
                    _s(state).formations["alpha"], hex="0508")},
            ),
        ),
        _create("", "L-GRF", "R-MAD"),
    )  # fmt: skip
    assert mixed_far.code == "reorganise_apart" and "not in 0508" in mixed_far.message
    formed, _ = run(state, _create(FACILITY, "L-GRF", "R-MAD"))
    assert _s(formed).formations["prize"].hex == FACILITY
    assert _s(formed).formations["prize"].unit_ids == ("L-GRF", "R-MAD")
    assert _s(formed).captured_at == {}


def test_ruling_t_f7_the_captor_repairs_it_where_it_stands(world: CampaignState) -> None:
    # L63: "To perform repair, reload or reconfigure actions requires the presence of a
    # technician present in that strategic hex." Alpha's technicians and the Facility's pool
    # are in 1105, where the Marauder stands though it is in no formation yet (R-WHERE-1).
    state = _captured(world)
    repair = RepairUnit(actor="loyalist", unit_id="R-MAD", pool_id="facility",
                        task=RepairTask.ARMOR)  # fmt: skip
    state, events = run(state, repair)
    (done,) = [e for e in events if isinstance(e, UnitRepaired)]
    assert done.at_hex == FACILITY and done.work_days == ((1, 3),)
    # In no formation, nobody takes the repair action for it (L178, L198): the work waits
    # until it is formed and ordered to repair (R-WHERE-6).
    _, events = run(state, ResolveTurn(actor="referee", day=1))
    (waited,) = [e for e in events if isinstance(e, RepairWorkWaited)]
    assert [(w.unit_id, w.formation_id, w.hex, w.work_days) for w in waited.waiting] == [
        ("R-MAD", "", FACILITY, ((2, 3),))
    ]
    notes = [n for e in events if isinstance(e, FormationsUpdated) for n in e.notes]
    assert any("it is in no formation: form one of it in 1105" in n for n in notes)


def test_ruling_t_f7_the_referees_capture_takes_it_out_of_its_formation(
    world: CampaignState,
) -> None:
    fate = SetUnitFate(actor="t", unit_id="R-JR7", fate=Fate.CAPTURED, note=ANN,
                       new_side="loyalist")  # fmt: skip
    state, _ = run(world, fate)
    s = _s(state)
    assert s.formations["bravo"].unit_ids == ("R-MAD", "R-AS7")
    assert s.captured_at == {"R-JR7": FACILITY}
    # A placement too forms it only where it stands.
    specs = tuple(
        FormationSpec(formation_id=f.formation_id, name=f.name, unit_ids=f.unit_ids, hex=f.hex)
        for f in s.formations.values()
        if f.side_id == "loyalist"
    )
    place = PlaceFormations(actor="loyalist", side_id="loyalist", day=1, formations=(
        *specs, FormationSpec(formation_id="prize", name="Prize", unit_ids=("R-JR7",),
                              hex="0508")))  # fmt: skip
    assert _refused(state, place).code == "reorganise_apart"
    placed_here, _ = run(state, replace(place, formations=(
        *specs, FormationSpec(formation_id="prize", name="Prize", unit_ids=("R-JR7",),
                              hex=FACILITY))))  # fmt: skip
    assert _s(placed_here).formations["prize"].hex == FACILITY
    assert _s(placed_here).captured_at == {}
