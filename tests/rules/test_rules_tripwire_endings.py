"""The end of a TripWire campaign by attrition (line 412) and who garrisons a location (line 426).

Rulings R-VP-3 and R-VP-4 (docs/rulings.md). The world is the turn tests' small Ginestra
campaign: the rebels start the map with 875 (Jenner) + 1363 (Marauder) + 1897 (Atlas) + 700
(Bulldog) = 4835 BV; the loyalists with 1272 + 1101 + 1064 + 432 + 600 + 1500 = 5969 BV.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))  # the turn tests' world

from turn_world import NOTE, REFEREE, run, started

from mekref.hexmap import label
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_messages import SetUnitFate
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.events import CampaignEnded
from mekref.rules.tripwire.turn.mapdata import hexmap_of
from mekref.rules.tripwire.turn.orders import ResolveTurn
from mekref.rules.tripwire.turn.state import Formation
from mekref.rules.tripwire.turn.victory import progress, strategic_vp


def _fate(
    state: CampaignState, unit_id: str, fate: Fate, new_side: str | None = None
) -> tuple[CampaignState, list[Event]]:
    return run(
        state, SetUnitFate(actor=REFEREE, unit_id=unit_id, fate=fate, note=NOTE, new_side=new_side)
    )


def _rebel(state: CampaignState) -> tuple[int, int]:
    assert state.strategic is not None
    (rebel,) = [x for x in progress(state, state.strategic, {}).sides if x.side_id == "rebel"]
    return rebel.effective_bv, rebel.starting_bv


def test_attrition_counts_only_operational_or_repairable_units() -> None:
    # L412: "The campaign is a success when all the opponents forces are reduced to less than
    # 50% of their starting combat effectiveness, based on the BV of operational units, or units
    # that could be repaired."
    state = started()
    assert _rebel(state) == (4835, 4835)
    state, events = _fate(state, "R-AS7", Fate.TRULY_DESTROYED)
    assert _rebel(state) == (4835 - 1897, 4835)  # 60.8%: the wreck no longer counts
    assert not [e for e in events if isinstance(e, CampaignEnded)]
    state, events = _fate(state, "R-BLD", Fate.DESTROYED_REPAIRABLE)
    assert _rebel(state) == (2938, 4835)  # "units that could be repaired" still count
    assert state.strategic is not None and state.strategic.ended == ""
    # Bulldog lost for good: 875 + 1363 = 2238 of 4835 = 46.3%, below 50%: the campaign ends
    # itself with the reason, at this decision, not at the next day's resolution.
    state, events = _fate(state, "R-BLD", Fate.TRULY_DESTROYED)
    (ended,) = [e for e in events if isinstance(e, CampaignEnded)]
    assert ended.reason == (
        "rebel fell below 50% of its starting BV: 2238 of 4835 BV (46.3%) in operational or "
        "repairable units"
    )
    assert state.strategic is not None and state.strategic.ended == ended.reason
    with pytest.raises(Refusal) as refused:
        run(state, ResolveTurn(actor=REFEREE, day=1))
    assert refused.value.code == "campaign_over"


def test_at_half_the_starting_bv_the_campaign_goes_on() -> None:
    # "less than 50%": a side at 60.8% (the Atlas utterly destroyed: 2938 of 4835) goes on.
    state = started()
    state, _ = _fate(state, "R-AS7", Fate.UTTERLY_DESTROYED)
    assert state.strategic is not None
    p = progress(state, state.strategic, {})
    (rebel,) = [x for x in p.sides if x.side_id == "rebel"]
    assert not rebel.below and p.reached == ""
    assert rebel.percent is not None and round(float(rebel.percent), 1) == 60.8


def test_a_captured_unit_counts_for_its_captor_against_an_unchanged_starting_bv() -> None:
    state = started()
    state, _ = _fate(state, "R-MAD", Fate.CAPTURED, new_side="loyalist")
    assert state.strategic is not None
    sides = {x.side_id: x for x in progress(state, state.strategic, {}).sides}
    assert (sides["rebel"].effective_bv, sides["rebel"].starting_bv) == (4835 - 1363, 4835)
    assert (sides["loyalist"].effective_bv, sides["loyalist"].starting_bv) == (5969 + 1363, 5969)


def test_a_unit_missing_from_every_file_counts_until_the_referee_sets_its_fate() -> None:
    state = started()
    state, _ = _fate(state, "R-AS7", Fate.MISSING)
    state, _ = _fate(state, "R-MAD", Fate.MISSING)
    assert _rebel(state) == (4835, 4835)
    assert state.strategic is not None and state.strategic.ended == ""


def _port_vp(state: CampaignState, *units: str, enemy: tuple[str, ...] = ()) -> int:
    s = state.strategic
    assert s is not None
    hexmap = hexmap_of(s)
    (loc,) = [x for x in hexmap.locations if x.name == "Bagnorgeio Space Port"]
    at = label(loc.hex)
    formations = {
        "a": Formation(formation_id="a", side_id="loyalist", name="A", unit_ids=units, hex=at)
    }
    if enemy:
        formations["b"] = Formation(
            formation_id="b", side_id="rebel", name="B", unit_ids=enemy, hex=at
        )
    return strategic_vp(state, s, hexmap, formations, s.control)["loyalist"]


def test_only_working_units_garrison_a_location() -> None:
    # L426: "Each location which has at least a subforce (e.g. Lance) of units garrisoning it
    # unopposed scores 1 Victory Point."
    state = started()
    lance = ("L-GRF", "L-WVR", "L-SHD", "L-LCT")
    assert _port_vp(state, *lance) == 1
    state, _ = _fate(state, "L-WVR", Fate.DAMAGED)
    assert _port_vp(state, *lance) == 1  # damaged but standing: it garrisons
    for wreck in ("L-SHD", "L-LCT"):
        state, _ = _fate(state, wreck, Fate.TRULY_DESTROYED)
    assert _port_vp(state, *lance) == 0  # two working 'Mechs and two wrecks: no lance
    state, _ = _fate(state, "L-LCT", Fate.DESTROYED_REPAIRABLE)
    assert _port_vp(state, *lance) == 0  # repairable is not yet standing guard
    assert _port_vp(state, *lance, "L-MAX") == 0
    state, _ = _fate(state, "L-LCT", Fate.OPERATIONAL)
    assert _port_vp(state, *lance, "L-MAX") == 1


def test_wrecks_do_not_oppose_a_garrison() -> None:
    state = started()
    lance = ("L-GRF", "L-WVR", "L-SHD", "L-LCT")
    assert _port_vp(state, *lance, enemy=("R-JR7",)) == 0  # opposed
    state, _ = _fate(state, "R-JR7", Fate.TRULY_DESTROYED)
    assert _port_vp(state, *lance, enemy=("R-JR7",)) == 1
