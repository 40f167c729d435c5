"""A leader is captured only once a resolved battle destroyed the leader's escort, or on the
referee's override (ruling T-L1 in docs/turn.md).

L162: "Each leader can be escorted by a platoon of infantry or a squad of BattleArmor (becoming
part of that unit). If the unit is destroyed the leader can be captured. If a leader is captured
and returned to the opposinng players DropShip the campaign ends."
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from console_script import mekref
from ginestra_cli import legal_day_zero, ok
from turn_world import REFEREE, placed, run, started

from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.holding import escorts_lost
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.events import LeaderCaptured
from mekref.rules.tripwire.turn.plugin import RecordLeaderCaptured
from mekref.rules.tripwire.turn.setup import FormationSpec

NOTE = RefereeNote(referee="Ann", reason="the Guard destroyed; the leader carried off")


def _state() -> CampaignState:
    """The loyalists' leader rides with a formation of a 'Mech and an infantry platoon."""
    state = placed(
        started(),
        (FormationSpec(formation_id="guard", name="Guard", unit_ids=("L-GRF", "L-LCT"),
                       hex="0508", carries_leader=True),
         FormationSpec(formation_id="hover", name="Hover", unit_ids=("L-MAX",), hex="0610")),
        (FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7",)),),
    )  # fmt: skip
    platoon = replace(state.units["L-LCT"], kind=UnitKind.CONVENTIONAL_INFANTRY)
    return replace(state, units={**state.units, "L-LCT": platoon})


def test_ruling_t_l1_a_capture_needs_the_escort_destroyed_in_a_resolved_battle() -> None:
    # L162: "If the unit is destroyed the leader can be captured."
    state = _state()
    capture = RecordLeaderCaptured(actor=REFEREE, force="loyalist", note=NOTE)
    with pytest.raises(Refusal) as before:
        run(state, capture)
    assert before.value.code == "escort_not_destroyed" and "L162" in str(before.value)
    assert "--override" in str(before.value)
    # Neither a 'Mech of the leader's formation nor an infantry unit elsewhere is the escort.
    assert escorts_lost(state, "b1", [("L-GRF", Fate.TRULY_DESTROYED)]) == state
    assert escorts_lost(state, "b1", [("L-LCT", Fate.DAMAGED)]) == state
    after = escorts_lost(state, "b2", [("L-LCT", Fate.DESTROYED_REPAIRABLE)])
    assert after.strategic is not None and after.strategic.escorts_lost == {"loyalist": "b2"}
    ended, events = run(after, capture)
    (e,) = [x for x in events if isinstance(x, LeaderCaptured)]
    assert (e.battle_id, e.override) == ("b2", None)
    assert ended.strategic is not None and "loyalist" in ended.strategic.ended


def test_ruling_t_l1_the_referees_override_is_recorded_as_one() -> None:
    _, events = run(_state(), RecordLeaderCaptured(actor=REFEREE, force="loyalist", note=NOTE,
                                                   override=True))  # fmt: skip
    (e,) = [x for x in events if isinstance(x, LeaderCaptured)]
    assert (e.battle_id, e.override) == ("", NOTE)
    # The override is the referee's word: not without who and why.
    with pytest.raises(Refusal):
        run(_state(), RecordLeaderCaptured(actor=REFEREE, force="loyalist", override=True))


def test_capture_leader_before_any_battle_is_refused_unless_overridden(tmp_path: Path) -> None:
    db = legal_day_zero(tmp_path)
    args = ("campaign", "capture-leader", "--db", db, "--side", "loyalist",
            "--referee", "Ann", "--reason", "carried off")  # fmt: skip
    refused = mekref(*args)
    assert refused.returncode == 3 and "escort_not_destroyed" in refused.stderr
    assert "L162" in refused.stderr and "--override" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert json.loads(ok("report", "--db", db, "--json"))["ending"]["ended"] is None
    out = " ".join(ok(*args, "--override").split())
    assert "on the referee's override" in out and "the campaign has ended" in out
    report = json.loads(ok("report", "--db", db, "--json"))
    assert [(o["event"], o["referee"]) for o in report["overrides"]
            if o["event"] == "LeaderCaptured"] == [("LeaderCaptured", "Ann")]  # fmt: skip
