"""A truly destroyed unit leaves play (ruling R-VP-7) and one judgement says which units hold
ground (R-VP-4): kept and crewed salvage does, wrecks never do.

The world is the turn tests' small Ginestra campaign (tests/turn/turn_world.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))  # the turn tests' world

import pytest
from turn_world import NOTE, REFEREE, placed, run, started

from mekref.hexmap import label
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_messages import SetUnitFate
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.holding import holds_ground, in_play
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.toe import SALVAGE_COMPANY, KeepSalvage, SeatCrew
from mekref.rules.tripwire.turn.mapdata import hexmap_of
from mekref.rules.tripwire.turn.orders import ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.reorganise import CreateFormation
from mekref.rules.tripwire.turn.setup import FormationSpec
from mekref.rules.tripwire.turn.state import Formation, FormationOrder
from mekref.rules.tripwire.turn.victory import garrisoning, strategic_vp


def _fate(
    state: CampaignState, unit_id: str, fate: Fate, new_side: str | None = None
) -> CampaignState:
    state, _ = run(
        state, SetUnitFate(actor=REFEREE, unit_id=unit_id, fate=fate, note=NOTE, new_side=new_side)
    )
    return state


def _formations(state: CampaignState) -> dict[str, tuple[str, ...]]:
    assert state.strategic is not None
    return {fid: f.unit_ids for fid, f in state.strategic.formations.items()}


def test_ruling_r_vp_7_a_truly_destroyed_unit_leaves_its_formation_at_once() -> None:
    # L146: "A 'Mech is only truly destroyed when its center torso internal structure is
    # eliminated. In that instance, as noted on the SP Unit Activity Cost Table, it cannot be
    # repaired." It leaves play: out of its formation, the books still show it.
    state = placed(
        started(),
        (
            FormationSpec(formation_id="alpha", name="Alpha",
                          unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"), hex="1105"),
            FormationSpec(formation_id="hover", name="Hover", unit_ids=("L-MAX",), hex="0610"),
        ),
        (FormationSpec(formation_id="bravo", name="Bravo",
                       unit_ids=("R-JR7", "R-MAD", "R-AS7")),),
    )  # fmt: skip
    order = FormationOrder(formation_id="hover", action="guard")
    given = SubmitOrders(actor="loyalist", side_id="loyalist", day=1, orders=(order,))
    state, _ = run(state, given)
    state = _fate(state, "L-LCT", Fate.TRULY_DESTROYED)
    assert _formations(state)["alpha"] == ("L-GRF", "L-WVR", "L-SHD")
    # A formation whose every unit left play is dissolved, and its orders with it.
    state = _fate(state, "L-MAX", Fate.UTTERLY_DESTROYED)
    assert "hover" not in _formations(state)
    assert state.strategic is not None and state.strategic.orders["loyalist"] == ()
    assert "L-LCT" in state.units and not in_play(state, "L-LCT")  # the report still has it
    # Nor is it formed again into a formation.
    again = CreateFormation(actor="loyalist", side_id="loyalist", day=1, formation_id="x",
                            unit_ids=("L-LCT",), hex="1105")  # fmt: skip
    with pytest.raises(Refusal) as refused:
        run(state, again)
    assert refused.value.code == "out_of_play"
    # A damaged unit, or one destroyed but repairable, stays in its formation.
    state = _fate(state, "L-SHD", Fate.DESTROYED_REPAIRABLE)
    assert _formations(state)["alpha"] == ("L-GRF", "L-WVR", "L-SHD")
    state, _ = run(state, ResolveTurn(actor=REFEREE, day=1))
    assert _formations(state)["alpha"] == ("L-GRF", "L-WVR", "L-SHD")


def _port_vp(state: CampaignState, *units: str) -> int:
    s = state.strategic
    assert s is not None
    hexmap = hexmap_of(s)
    (loc,) = [x for x in hexmap.locations if x.name == "Bagnorgeio Space Port"]
    at = label(loc.hex)
    formations = {
        "a": Formation(formation_id="a", side_id="loyalist", name="A", unit_ids=units, hex=at)
    }
    return strategic_vp(state, s, hexmap, formations, s.control)["loyalist"]


def test_ruling_r_vp_4_kept_and_crewed_salvage_holds_ground() -> None:
    # L426: "Each location which has at least a subforce (e.g. Lance) of units garrisoning it
    # unopposed scores 1 Victory Point." L136: the side that controls the field "take[s]
    # control of the the 'Mech and may either keep it (only if they have space in there TO&E)
    # or sell it."
    state = _fate(started(), "R-MAD", Fate.CAPTURED, new_side="loyalist")
    lance = ("L-GRF", "L-WVR", "L-SHD", "R-MAD")
    assert state.units["R-MAD"].company == SALVAGE_COMPANY
    assert _port_vp(state, *lance) == 0  # salvage waiting to be kept or sold holds nothing
    keep = KeepSalvage(actor=REFEREE, unit_id="R-MAD", company="Force", lance="Alpha")
    state, _ = run(state, keep)
    assert _port_vp(state, *lance) == 0 and not holds_ground(state, "R-MAD")  # nobody aboard
    # The Locust's pilot, whose 'Mech is truly destroyed, takes the Marauder's seat.
    state = _fate(state, "L-LCT", Fate.TRULY_DESTROYED)
    state, _ = run(state, SeatCrew(actor=REFEREE, unit_id="R-MAD", person_id="P-L-LCT"))
    assert state.battles.fates["R-MAD"] is Fate.CAPTURED  # it has not fought since
    assert holds_ground(state, "R-MAD")
    assert _port_vp(state, *lance) == 1
    # The same count takes, contests and opposes a location and holds a population down
    # (control, Martial Law); wrecks never hold ground.
    alone = Formation(formation_id="m", side_id="loyalist", name="M", unit_ids=("R-MAD",),
                      hex="1105")  # fmt: skip
    assert garrisoning(state, (alone,)) == 1
    assert not holds_ground(state, "L-LCT")
    assert _port_vp(state, "L-GRF", "L-WVR", "L-SHD", "L-LCT") == 0


def test_ruling_r_vp_4_the_seat_of_power_needs_an_escort_that_stands() -> None:
    # L428: "If the players VIP is present in the main government building in the capital
    # city, they achieve 2 Victory Points." The VIP travels with its escort (L162): a formation
    # of wrecks carries nobody into the building.
    state = started()
    s = state.strategic
    assert s is not None
    hexmap = hexmap_of(s)
    (capital,) = [x for x in hexmap.locations if x.name == "Bagnorgeio"]
    guard = Formation(formation_id="g", side_id="loyalist", name="Guard", unit_ids=("L-MAX",),
                      hex=label(capital.hex), carries_leader=True)  # fmt: skip

    def vp(state: CampaignState) -> int:
        return strategic_vp(state, s, hexmap, {"g": guard}, s.control)["loyalist"]

    assert vp(state) == 2
    assert vp(_fate(state, "L-MAX", Fate.DESTROYED_REPAIRABLE)) == 0


def test_ruling_r_vp_8_no_seat_of_power_while_the_capital_is_contested() -> None:
    # L428: "If the players VIP is present in the main government building in the capital
    # city, they achieve 2 Victory Points. If the VIP is evacuated those points are lost." L426:
    # "Each location which has at least a subforce (e.g. Lance) of units garrisoning it
    # unopposed scores 1 Victory Point." An enemy holding ground in the capital contests the
    # building: no seat while it stands there; an enemy of wrecks contests nothing (R-VP-4).
    state = started()
    s = state.strategic
    assert s is not None
    hexmap = hexmap_of(s)
    (capital,) = [x for x in hexmap.locations if x.name == "Bagnorgeio"]
    where = label(capital.hex)
    guard = Formation(formation_id="g", side_id="loyalist", name="Guard", unit_ids=("L-MAX",),
                      hex=where, carries_leader=True)  # fmt: skip
    raiders = Formation(formation_id="r", side_id="rebel", name="Raid", unit_ids=("R-JR7",),
                        hex=where)  # fmt: skip
    both = {"g": guard, "r": raiders}

    def vp(state: CampaignState) -> int:
        return strategic_vp(state, s, hexmap, both, s.control)["loyalist"]

    assert s.control["Bagnorgeio"] == "loyalist"
    assert strategic_vp(state, s, hexmap, {"g": guard}, s.control)["loyalist"] == 2
    assert vp(state) == 0  # contested: the Jenner stands in the capital
    assert vp(_fate(state, "R-JR7", Fate.DESTROYED_REPAIRABLE)) == 2  # a wreck contests nothing
