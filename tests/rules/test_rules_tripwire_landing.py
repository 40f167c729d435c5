"""DropShip/AeroSpace landing zones and the engineers' temporary runway (rulings T-LZ1 to T-LZ6
in docs/turn.md).

L409: "Spheroid DropShips can either land in DropPits or may attempt to land in an area with 7
clear hexes (requiring a Piloting Roll). Aerodyne DropShips may land on Runways or other
suitable flat areas e.g. Highways (requiring a Piloting Skill), or plains/desert (Engineers
require 1 campaign turn to prepare these creating a temporary runway)."
L410: "AeroSpace fighters have full VTOL abilities and do not require a runway. Conventional
fighters do require a runway, although as with Aerodyne DropShips can use temporary runways or
roads."

On the Ginestra map: Bagnorgeio Space Port (0610, a large DropPort), plains at 0510 (no road),
the Via Castellana through 0609, heavy woods at 0605. The loyalists' Foot Platoon ("L-INF") is
made combat engineers as in the T-EN1 tests; "L-UNI" is their DropShip, with the design each
test records for it (the Gazelle's aerodyne or the Union's spheroid .blk).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import landing
from mekref.rules.tripwire.turn.events import FormationsUpdated, RunwayPrepared, is_private
from mekref.rules.tripwire.turn.orders import ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import StartStrategicMap
from mekref.rules.tripwire.turn.state import FormationOrder
from mekref.rules.tripwire.turn.view import side_view

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))
world = pytest.importorskip("turn_world")
sappers_world = pytest.importorskip("test_rules_tripwire_engineers")

PORT, PLAINS, ROAD, WOODS = "0610", "0510", "0609", "0605"
Order = FormationOrder


def _start(
    ship: str | None, *, conventional: bool = False, sappers_at: str = PLAINS
) -> CampaignState:
    """The sappers at ``sappers_at``, the DropShip at the Space Port with the design ``ship``
    (a fixture .blk, or None: no design kept), the Rapier there too (a conventional fighter
    when ``conventional``)."""
    commands: list[Command] = []
    for cmd in sappers_world._commands(
        ("sappers", sappers_at, ("L-INF",)),
        ("alpha", PLAINS, ("L-GRF",)),
        ("ship", PORT, ("L-UNI",)),
        ("air", PORT, ("L-RPR",)),
    ):
        if isinstance(cmd, StartStrategicMap):
            cmd = replace(cmd, mobility=tuple(
                replace(m, conventional=conventional) if m.unit_id == "L-RPR" else m
                for m in cmd.mobility))  # fmt: skip
            if ship is not None:
                commands.append(world.fixture_design("loyalist", "L-UNI", ship))
        commands.append(cmd)
    state, _ = world.run(CampaignState(), *commands)
    return state


def _orders(day: int, *orders: Order) -> SubmitOrders:
    return SubmitOrders(actor="loyalist", side_id="loyalist", day=day, orders=orders)


def _refused(state: CampaignState, order: Order, day: int = 1) -> Refusal:
    with pytest.raises(Refusal) as caught:
        world.run(state, _orders(day, order))
    return caught.value


def _notes(events: list[Event]) -> str:
    return " | ".join(
        n for e in events if isinstance(e, FormationsUpdated) and e.side_id == "loyalist"
        for n in e.notes
    )  # fmt: skip


def _day(state: CampaignState, day: int, *orders: Order) -> tuple[CampaignState, list[Event]]:
    return world.run(state, _orders(day, *orders), ResolveTurn(actor="ref", day=day))


def test_l409_engineers_prepare_a_temporary_runway_in_one_campaign_turn() -> None:
    # L409: "plains/desert (Engineers require 1 campaign turn to prepare these creating a
    # temporary runway)".
    state = _start("Gazelle (Heavy Vehicle).blk")
    no_engineers = _refused(state, Order(formation_id="alpha", action="prepare_runway"))
    assert no_engineers.code == "wrong_units" and "L409" in no_engineers.message
    in_woods = _refused(
        _start("Gazelle (Heavy Vehicle).blk", sappers_at=WOODS),
        Order(formation_id="sappers", action="prepare_runway"),
    )
    assert in_woods.code == "bad_target" and "heavy_woods" in in_woods.message
    state, events = _day(state, 1, Order(formation_id="sappers", action="prepare_runway"))
    (built,) = [e for e in events if isinstance(e, RunwayPrepared)]
    assert (built.side_id, built.formation_id, built.hex, built.day) == (
        "loyalist", "sappers", PLAINS, 1,
    )  # fmt: skip
    # A side's secret (T-LZ2): its own view shows the runway, the enemy's does not.
    assert is_private(built)
    assert state.strategic is not None and state.strategic.runways == {"loyalist": (PLAINS,)}
    assert side_view(state, "loyalist").runways == (PLAINS,)
    assert side_view(state, "rebel").runways == ()
    assert landing.zone(state.strategic, "rebel", PLAINS).runway is False
    again = _refused(state, Order(formation_id="sappers", action="prepare_runway"), day=2)
    assert again.code == "bad_target" and "already" in again.message


def test_l409_an_aerodyne_dropship_lands_on_runways_or_a_road_with_a_piloting_roll() -> None:
    # L409: "Aerodyne DropShips may land on Runways or other suitable flat areas e.g. Highways
    # (requiring a Piloting Skill), or plains/desert (...temporary runway)".
    state = _start("Gazelle (Heavy Vehicle).blk")
    refused = _refused(state, Order(formation_id="ship", action="suborbital_hop", target=PLAINS))
    assert refused.code == "no_runway"
    assert "aerodyne DropShip" in refused.message and "L409" in refused.message
    assert "prepare_runway" in refused.message and "land elsewhere" in refused.message
    # Day 1: the sappers prepare the runway; the Gazelle hops to the road (a Piloting roll).
    state, events = _day(
        state,
        1,
        Order(formation_id="sappers", action="prepare_runway"),
        Order(formation_id="ship", action="suborbital_hop", target=ROAD),
    )
    assert state.strategic is not None and state.strategic.formations["ship"].hex == ROAD
    # (The unit keeps its roster name, Union (2708); the design kept for it is the Gazelle's.)
    assert "ship: Union (2708) (unit L-UNI) lands in 0609 on the road: a Piloting roll is " \
        "due (L409 'Aerodyne DropShips" in _notes(events)  # fmt: skip
    # Day 2: the runway stands; the Gazelle lands on it, no roll asked.
    state, events = _day(state, 2, Order(formation_id="ship", action="suborbital_hop",
                                         target=PLAINS))  # fmt: skip
    assert state.strategic is not None and state.strategic.formations["ship"].hex == PLAINS
    assert "Piloting roll" not in _notes(events)
    # A move that ends off a runway is a landing too (T-LZ4).
    moved = _refused(state, Order(formation_id="ship", action="move", path=("0511",)), day=3)
    assert moved.code == "no_runway" and moved.message.startswith("orders[0].path")


def test_l409_a_spheroid_dropship_lands_off_its_droppits_with_a_piloting_roll() -> None:
    # L409: "Spheroid DropShips can either land in DropPits or may attempt to land in an area
    # with 7 clear hexes (requiring a Piloting Roll)."
    state = _start("Union (2708).blk")
    state, events = _day(
        state, 1, Order(formation_id="ship", action="suborbital_hop", target=PLAINS)
    )
    assert state.strategic is not None and state.strategic.formations["ship"].hex == PLAINS
    notes = _notes(events)
    assert "Union (2708) (unit L-UNI) lands in 0510 outside a DropPort's DropPits: a " \
        "Piloting roll is due" in notes and "mekref does not roll it" in notes  # fmt: skip
    state, events = _day(state, 2, Order(formation_id="ship", action="suborbital_hop",
                                         target=PORT))  # fmt: skip
    assert "Piloting roll" not in _notes(events)


def test_l410_conventional_fighters_need_a_runway_aerospace_fighters_do_not() -> None:
    # L410: "AeroSpace fighters have full VTOL abilities and do not require a runway.
    # Conventional fighters do require a runway, although as with Aerodyne DropShips can use
    # temporary runways or roads."
    conventional = _start("Union (2708).blk", conventional=True)
    refused = _refused(conventional, Order(formation_id="air", action="move", path=(PLAINS,)))
    assert refused.code == "no_runway"
    assert "conventional fighter" in refused.message and "L410" in refused.message
    world.run(conventional, _orders(1, Order(formation_id="air", action="move", path=(ROAD,))))
    aerospace = _start("Union (2708).blk")
    world.run(aerospace, _orders(1, Order(formation_id="air", action="move", path=(PLAINS,))))


def test_t_lz5_a_dropship_without_its_design_is_not_guessed() -> None:
    # L409 lands spheroid and aerodyne DropShips differently; without the design's motion type
    # mekref cannot tell which this is.
    state = _start(None)
    refused = _refused(state, Order(formation_id="ship", action="suborbital_hop", target=PLAINS))
    assert refused.code == "unknown_design"
    assert "aerodyne or spheroid cannot be told" in refused.message
    assert "mekref force designs" in refused.message


def test_t_lz4_a_flight_an_encounter_brings_down_off_a_runway_is_named_for_the_referee() -> None:
    # L409 (aerodyne: "Runways ... Highways ... plains/desert (... temporary runway)") and L179:
    # "If at any time during that formation's movement they share a hex with an enemy
    # formation, movement is stopped at that hex". The Gazelle's flight to the Space Port and
    # back passes the plains at 0510, where the rebels land.
    state = _start("Gazelle (Heavy Vehicle).blk", sappers_at=WOODS)
    rebel = SubmitOrders(actor="rebel", side_id="rebel", day=1, orders=(
        Order(formation_id="bravo", action="orbital_insertion", target=PLAINS),))  # fmt: skip
    state, events = world.run(
        state,
        _orders(1, Order(formation_id="ship", action="move", path=(PLAINS, PORT))),
        rebel,
        ResolveTurn(actor="ref", day=1),
    )
    assert state.strategic is not None and state.strategic.formations["ship"].hex == PLAINS
    notes = _notes(events)
    assert "ship: Union (2708) (unit L-UNI) is an aerodyne DropShip and 0510 has no runway" in notes
    assert "the referee rules on the landing (T-LZ4)" in notes
