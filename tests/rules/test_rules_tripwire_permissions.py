"""When spending is allowed at all: rulings R-TRAIN-3 and R-RANSOM-1 on the rules engine.

L110: "Any MechWarriors ... who took part in a scenario and were awarded a kill may attempt to
train to improve their skills." L351: "Players may at the end of the campaign pay 100 WP to
return captured personnel (either a MechWarrior or vehicle Crew)."
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import RecordSection, ReportedKill
from mekref.rules.tripwire.battle_spending import RansomPerson, TrainSkill
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.salvage import UnitMobility
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.training import Skill, TrainingRoute
from mekref.rules.tripwire.turn.state import StrategicState

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the battle tests' helpers
states = pytest.importorskip("battle.states")
S = RecordSection
LEGLESS = UnitMobility(kind=UnitKind.MEK, legs_remaining=0)  # salvage: the pilot is captured


def _fought(kill: bool, victim: str = "b1") -> CampaignState:
    state = states.campaign((states.fu("r1"),), (states.fu("b1"),))
    _, state = states.run(
        state,
        OpenPool(pool_id="base", side_id="red", name="Base", kind=PoolKind.LOCATION,
                 location="Forward Deployment Base", actor="t"),
        OpenPool(pool_id="blue", side_id="blue", name="Blue Base", kind=PoolKind.LOCATION,
                 location="Forward Deployment Base", actor="t"),
    )  # fmt: skip
    kills = (ReportedKill(killed_name="x", killed_unit_ids=(victim,), killer_unit_id="r1"),)
    _, state = states.run(
        state,
        states.submit(states.file("a", states.seen("r1", S.SURVIVORS),
                                  states.seen(victim, S.SALVAGE, mobility=LEGLESS),
                                  kills=kills if kill else ())),
        states.close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    return state


def test_ruling_a_kill_is_used_up_by_the_training_it_allows() -> None:
    state = _fought(kill=True)
    train = TrainSkill(person_id="p-r1", pool_id="base", skill=Skill.GUNNERY, actor="t")
    _, trained = states.run(state, train)
    assert "p-r1" not in trained.battles.may_train
    # A new track (no battle, no kill): the same kill does not allow a second training.
    later = replace(trained, tracks_completed=trained.tracks_completed + 1)
    with pytest.raises(Refusal, match="L110"):
        states.run(later, replace(train, skill=Skill.PILOTING))
    # Simulators need no kill (and use none).
    sim = replace(train, skill=Skill.PILOTING, route=TrainingRoute.SIMULATOR)
    with pytest.raises(Refusal) as caught:
        states.run(later, sim)
    assert caught.value.code != "not_eligible"


def test_ruling_ransom_waits_for_the_end_of_the_campaign() -> None:
    state = _fought(kill=False)
    captive = next(iter(state.battles.captured_people), None)
    assert captive is not None  # the salvaged 'Mech's pilot
    ransom = RansomPerson(person_id=captive, pool_id="blue", actor="t")
    with pytest.raises(Refusal, match="L351") as caught:
        states.run(state, ransom)
    assert caught.value.code == "not_campaign_end"
    ended = StrategicState(map_name="m", map_text="", attacker="red", defender="blue",
                           ended="red holds every objective")  # fmt: skip
    _, after = states.run(replace(state, strategic=ended), ransom)
    assert captive not in after.battles.captured_people
    note = RefereeNote(referee="Ann", reason="we stop here")
    events, after = states.run(state, replace(ransom, note=note))
    assert captive not in after.battles.captured_people and events[0].note == note


def _on_the_map(state: CampaignState) -> CampaignState:
    return replace(state, strategic=StrategicState(map_name="m", map_text="", attacker="red",
                                                   defender="blue"))  # fmt: skip


def test_ruling_hiring_on_the_map_takes_what_the_recruit_roll_found() -> None:
    """Line 221: "Recruit - A formation may attempt to recruit new personnel once per week. ...
    This action allows the player to purchase new personnel using WarChest Points." """
    from mekref.rules.tripwire.battle_spending import HirePerson
    from mekref.rules.tripwire.game import TRIPWIRE
    from mekref.rules.tripwire.turn.events import RecruitsFound

    state = _on_the_map(_fought(kill=False))
    hire = HirePerson(person_id="n1", side_id="red", pool_id="base", name="Nia",
                      gunnery=4, piloting=5, actor="t")  # fmt: skip
    with pytest.raises(Refusal, match="Recruit action") as caught:
        states.run(state, hire)  # no Recruit action yet
    assert caught.value.code == "no_recruit"

    def found(day: int, pilots: int) -> RecruitsFound:
        return RecruitsFound(side_id="red", day=day, formation_id="alpha", total=pilots,
                             available=(("mechwarrior", pilots), ("vehicle_crew", 0)),
                             specialities=())  # fmt: skip

    state = TRIPWIRE.evolve(state, found(1, 2))  # the roll made two MechWarriors available
    # Asked for an AeroSpace pilot, the MechWarriors found are not one (R-SEAT-2).
    with pytest.raises(Refusal, match="no aerospace pilots available"):
        states.run(state, replace(hire, hire_as="aerospace_pilot"))
    events, state = states.run(state, hire, replace(hire, person_id="n2", name="Ola"))
    # A pilot taken from the MechWarrior column is a MechWarrior (R-SEAT-2).
    assert events[0].seat_type == "BattleMech" and state.people["n1"].seat_type == "BattleMech"
    with pytest.raises(Refusal, match="none found"):
        states.run(state, replace(hire, person_id="n3", name="Pim"))
    with pytest.raises(Refusal, match="vehicle crews"):
        states.run(state, replace(hire, person_id="n3", vehicle_crew=True))
    # The referee may hire anyway, on the record.
    note = RefereeNote(referee="Ann", reason="a local hire the table does not cover")
    events, _ = states.run(state, replace(hire, person_id="n3", name="Pim", note=note))
    assert events[0].note == note and events[0].recruit_column is None
    # A new week's roll replaces the old availability; a second roll the same week adds.
    state = TRIPWIRE.evolve(TRIPWIRE.evolve(state, found(8, 1)), found(9, 1))
    assert state.strategic is not None and state.strategic.recruits["red"] == {"mechwarrior": 2}
    state = TRIPWIRE.evolve(state, found(15, 1))
    assert state.strategic is not None and state.strategic.recruits["red"] == {"mechwarrior": 1}
