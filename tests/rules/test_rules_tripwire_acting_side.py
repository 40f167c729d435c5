"""Which side gives each TripWire spending and salvage command (ruling R-ENGINE-2): a side
token may run it for that side only; the referee's word makes it the referee's.

L56: "WarChest Points are required to repair, rearm, heal, train and recruit." Each side pays
from its own WarChest, so each side gives those commands for its own units and people.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.rules.messages import Command, RefereeNote
from mekref.rules.tripwire.acting_side import acting_side
from mekref.rules.tripwire.battle_spending import (
    Disposal,
    DisposeUnit,
    HirePerson,
    RansomPerson,
    RecruitCaptured,
    RepairTask,
    RepairUnit,
    TrainSkill,
)
from mekref.rules.tripwire.commands import CreditPool, HealPerson, TransferWarChest
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState, Pool, PoolKind
from mekref.rules.tripwire.toe import KeepSalvage, SeatCrew
from mekref.rules.tripwire.training import Skill

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))
world = pytest.importorskip("turn_world")

NOTE = RefereeNote(referee="Ann", reason="vouched")


def _state() -> CampaignState:
    state: CampaignState = world.started()
    pool = Pool(pool_id="lp", side_id="loyalist", name="LP", kind=PoolKind.LOCATION,
                balance=1000, capacity=None)  # fmt: skip
    return replace(
        state,
        pools={**state.pools, "lp": pool},
        battles=replace(state.battles, captured_people={"P-R-JR7": "loyalist"}),
    )


@pytest.mark.parametrize(
    ("command", "side"),
    [
        (
            HirePerson(
                person_id="x",
                side_id="loyalist",
                pool_id="lp",
                name="X",
                gunnery=4,
                piloting=5,
                actor="a",
            ),
            "loyalist",
        ),
        (RepairUnit(unit_id="L-GRF", pool_id="lp", task=RepairTask.ARMOR, actor="a"), "loyalist"),
        (DisposeUnit(unit_id="R-JR7", pool_id="lp", how=Disposal.SELL, actor="a"), "rebel"),
        (KeepSalvage(unit_id="L-GRF", company="C", lance="L", actor="a"), "loyalist"),
        (SeatCrew(unit_id="R-MAD", person_id="p", actor="a"), "rebel"),
        (HealPerson(person_id="P-L-GRF", pool_id="lp", actor="a"), "loyalist"),
        (TrainSkill(person_id="P-R-MAD", pool_id="lp", skill=Skill.GUNNERY, actor="a"), "rebel"),
        (RansomPerson(person_id="P-R-JR7", pool_id="lp", actor="a"), "rebel"),
        # The captor recruits the people it holds (L352).
        (RecruitCaptured(person_id="P-R-JR7", pool_id="lp", actor="a"), "loyalist"),
        (TransferWarChest(from_pool="lp", to_pool="x", amount=1, actor="a"), "loyalist"),
        # The referee's alone: crediting a pool, and anything carrying the referee's word.
        (CreditPool(pool_id="lp", amount=5, reason="r", actor="a"), None),
        (
            RepairUnit(unit_id="L-GRF", pool_id="lp", task=RepairTask.ARMOR, note=NOTE, actor="a"),
            None,
        ),
        (KeepSalvage(unit_id="L-GRF", company="C", lance="L", note=NOTE, actor="a"), None),
        # An unknown unit: nobody's but the referee's (the same answer as another side's).
        (RepairUnit(unit_id="nope", pool_id="lp", task=RepairTask.ARMOR, actor="a"), None),
    ],
)
def test_ruling_r_engine_2_a_side_spends_for_its_own(command: Command, side: str | None) -> None:
    state = _state()
    assert acting_side(state, command) == side
    assert TRIPWIRE.acting_side(state, command) == side


def test_recruiting_off_the_map_is_the_referees() -> None:
    """L352 "+ 1 for each 1 point of unrest over 7 the opponent has": without the strategic map
    the unrest is typed in, so the captor cannot give the command itself."""
    state = replace(_state(), strategic=None)
    recruit = RecruitCaptured(person_id="P-R-JR7", pool_id="lp", opponent_unrest=13, actor="a")
    assert acting_side(state, recruit) is None


def test_ruling_r_train_4_the_referees_word_trains_without_a_kill() -> None:
    """L110 "... who took part in a scenario and were awarded a kill may attempt to train":
    refused without a kill, naming the override; on the referee's word the training is done
    and the event keeps who and why; the report lists it (R-ENGINE-4)."""
    from mekref.daemon.tripwire.cli_report_rows import overrides
    from mekref.rules.refusal import Refusal
    from mekref.rules.tripwire.battle_spending import SkillTrained

    state = _state()
    train = TrainSkill(person_id="P-L-GRF", pool_id="lp", skill=Skill.GUNNERY, actor="a")
    with pytest.raises(Refusal, match="--referee NAME --reason TEXT") as caught:
        world.run(state, train)
    assert caught.value.code == "not_eligible"
    after, events = world.run(state, replace(train, note=NOTE))
    (done,) = [e for e in events if isinstance(e, SkillTrained)]
    assert done.note == NOTE and after.people["P-L-GRF"].gunnery == 3
    listed = overrides(after, list(enumerate(events, start=1)), None)
    assert {"event": "SkillTrained", "side": "loyalist", "referee": "Ann",
            "reason": "vouched"}.items() <= listed[-1].items()  # fmt: skip
    assert overrides(after, list(enumerate(events, start=1)), "rebel") == []
