"""Communications equipment as a satellite uplink (ruling T-OR8 in docs/turn.md).

L270: "Each turn a force at the location of a SatLink (or a unit with 4+ tons of communication
equipment) rolls 2d6, on a 9+ they are able to access the Satellite."

No unit file among the project's MegaMek fixtures carries communications equipment, so the
designs here are real fixture designs (the Griffin GRF-1N, the Bulldog Medium Tank) read by the
adapters and then given the item as MegaMek writes it: ``CommsGear:SIZE:4.0`` (MtfFile.SIZE,
today's variable-size item), ``CommsGear:4`` and ``Communications Equipment (4 ton)`` (the
older one-type-per-size items of MiscType.createCommsGearN, 1 slot a ton).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from test_turn_orbit import DS, SAT, Order, _day, _feed_day, _world
from turn_world import REFEREE, run

from mekref.adapters.megamek.design import Equipment, UnitDesign
from mekref.adapters.megamek.mtf_reader import parse_crit_line
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.hexmap import SensorKind, label
from mekref.rules.dice import Dice
from mekref.rules.tripwire.designs import record_designs, stored_design
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.comms_gear import comms_tons, item_tons
from mekref.rules.tripwire.turn.day import Day
from mekref.rules.tripwire.turn.orbit_day import feed_sensors

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
LEFT_TORSO = 3  # MegaMek's Mek location index


def _design(name: str) -> UnitDesign:
    path = UNITS / name
    return parse_unit_file(path.read_bytes(), path.name)


def _griffin_with(line: str, slots: int) -> UnitDesign:
    """The Griffin GRF-1N with ``slots`` of its empty left-torso slots holding ``line``."""
    griffin = _design("Griffin GRF-1N.mtf")
    block = list(griffin.crit_slots[LEFT_TORSO])
    free = [i for i, s in enumerate(block) if s.raw == "-Empty-"][:slots]
    for i in free:
        block[i] = parse_crit_line(i + 1, line)
    return replace(griffin, crit_slots={**griffin.crit_slots, LEFT_TORSO: tuple(block)})


def _bulldog_with(*lines: str) -> UnitDesign:
    bulldog = _design("Bulldog Medium Tank.blk")
    extra = tuple(Equipment(name=x, location=0, location_name="Body", raw=x) for x in lines)
    return replace(bulldog, equipment=bulldog.equipment + extra)


def test_comms_gear_is_read_as_megamek_writes_it() -> None:
    """L270: "(or a unit with 4+ tons of communication equipment)": the tons come from the
    item's size, in each of MegaMek's spellings; other items are not communications gear."""
    assert item_tons("CommsGear:SIZE:4.0") == 4
    assert item_tons("CommsGear:SIZE:4.0 (OMNIPOD)") == 4
    assert item_tons("CommsGear:3") == 3
    assert item_tons("Communications Equipment:SIZE:5") == 5
    assert item_tons("Communications Equipment (4 ton)") == 4
    assert item_tons("Communications Equipment (1.5 tons)") == Fraction(3, 2)
    for other in ("ISC3MasterComputer", "Sensors", "IS Ammo SRM-4", "-Empty-", "Cargo:SIZE:4.0"):
        assert item_tons(other) is None
    # The fixtures' own designs carry none.
    assert comms_tons(stored_design(_design("Griffin GRF-1N.mtf"))) == 0


def test_a_mek_repeats_the_gear_in_every_slot_it_fills() -> None:
    """L270: "4+ tons": a Mek's critical block names a 4-ton item in each of its 4 slots (one
    slot a ton): 4 tons, not 16; the older per-size item the same."""
    assert comms_tons(stored_design(_griffin_with("CommsGear:SIZE:4.0", 4))) == 4
    assert comms_tons(stored_design(_griffin_with("Communications Equipment (3 ton)", 3))) == 3
    assert comms_tons(stored_design(_griffin_with("CommsGear:SIZE:2.0", 4))) == 4  # two items


def test_a_vehicle_lists_each_mounting_once() -> None:
    """L270: "4+ tons of communication equipment": a BLK vehicle lists each item once with its
    size; two 2-ton items are 4 tons."""
    assert comms_tons(stored_design(_bulldog_with("CommsGear:SIZE:4.0"))) == 4
    assert comms_tons(stored_design(_bulldog_with("CommsGear:SIZE:2.0", "CommsGear:2"))) == 4
    assert comms_tons(stored_design(_bulldog_with("CommsGear:SIZE:3.0"))) == 3


def _keep(state: CampaignState, uid: str, design: UnitDesign) -> CampaignState:
    """The campaign keeps ``design`` for unit ``uid`` (as ``force import`` would)."""
    cmd = record_designs("loyalist", {uid: design}, REFEREE)
    assert cmd is not None
    after, _ = run(state, cmd)
    return after


def _fresh(state: CampaignState) -> Day:
    """A day in hand whose rolls are still to be made."""
    assert state.strategic is not None
    return Day(state, state.strategic, Dice("comms"))


def test_four_tons_of_comms_gear_reach_the_satellites_like_a_satlink() -> None:
    """L270: "Each turn a force at the location of a SatLink (or a unit with 4+ tons of
    communication equipment) rolls 2d6, on a 9+ they are able to access the Satellite." No
    SatLink is held here; formation a (at 0508) has the Griffin: with 3 tons no roll is made,
    with 4 tons it rolls, and 9 reaches sat-1."""
    bare, _ = run(_world((DS,)), SAT)
    assert feed_sensors(_fresh(bare), "loyalist", []) == ([], [])
    three = _keep(bare, "L-GRF", _griffin_with("CommsGear:SIZE:3.0", 3))
    assert feed_sensors(_fresh(three), "loyalist", []) == ([], [])
    four = _keep(bare, "L-GRF", _griffin_with("CommsGear:SIZE:4.0", 4))
    sensors, rolls = feed_sensors(_feed_day(four, {"satellite": 9}), "loyalist", [])
    assert [(s.kind, label(s.at)) for s in sensors] == [
        (SensorKind.SATELLITE_MONITOR, "0508"),
        (SensorKind.SATELLITE, "0508"),
    ]
    assert [r.total for r in rolls] == [9]
    assert feed_sensors(_feed_day(four, {"satellite": 8}), "loyalist", [])[0] == []
    # The day's own dice make the roll, named as a SatLink's.
    _, made = feed_sensors(_fresh(four), "loyalist", [])
    assert [r.name for r in made] == ["satellite access, loyalist"]


def test_comms_gear_reaches_the_planets_network_where_it_stands() -> None:
    """L270: "Each turn a force at the location of a SatLink (or a unit with 4+ tons of
    communication equipment) rolls 2d6": with no satellite placed, the network is reached
    (T-S1) and watches from the formation's hex, as it does from a SatLink's."""
    bare = _world((DS,))
    four = _keep(bare, "L-GRF", _griffin_with("CommsGear:SIZE:4.0", 4))
    sensors, _ = feed_sensors(_feed_day(four, {"satellite": 10}), "loyalist", [])
    assert [(s.kind, label(s.at)) for s in sensors] == [(SensorKind.SATELLITE_MONITOR, "0508")]


def test_comms_gear_hacks_an_enemy_ships_feed_on_11_plus() -> None:
    """L270: "DropShips and AeroSpace Fighters in orbit can also act as satellites but their
    feed only be hacked on a 11+": from the Griffin's 4 tons of communications equipment as
    from a SatLink, 10 misses the Union's feed over 1105 and 11 reaches it."""
    moved, _ = _day(
        _world((DS,)),
        (),
        (Order(formation_id="ds", action="reposition_orbit", target="1105",
               params=(("orbit", "lpo"),)),),
    )  # fmt: skip
    state = _keep(moved, "L-GRF", _griffin_with("CommsGear:SIZE:4.0", 4))
    assert feed_sensors(_feed_day(state, {"satellite": 5, "ship": 10}), "loyalist", [])[0] == []
    sensors, rolls = feed_sensors(_feed_day(state, {"satellite": 5, "ship": 11}), "loyalist", [])
    assert [(s.kind, label(s.at)) for s in sensors] == [(SensorKind.SATELLITE_MONITOR, "1105")]
    assert [r.total for r in rolls] == [5, 11]
