"""Air missions that fight, and the sensors that see them on the way (rulings T-AM1..T-AM4).

L203: "Strike (AeroSpace units only) – The AeroSpace unit travels to a specific hex/location and
initiates a battle vs either ground units or enemy AeroSpace fighters. the range and fuel cost
are the same as for overflight. If the unit remains at an altitude of 1 on the low altitude map
they are not detectable by RADAR, but can be detected by enemy aircraft on Combat Air Patrol."
L204: "Combat Air Patrol (AeroSpace units only) – ... Any enemy unit that enters the hex (even of
flying at Altitude 1/NOE) is detected and can be intercepted at a distance of half the size of a
strategic hex."
L268: "RADAR – Any aerospace asset that is not flying above level 1 (Nape of Earth) within 400 km
of the RADAR station detected."
L289: "Attack Mission (AeroSpace) – An AeroSpace fighter on an overflight mission may engage the
enemy ground forces through strafing, strike or bombing attacks but will take enemy fire."
L321: "... they may signal AeroSpace fighters in advance to arrive on the Low Altitude map at the
start of turn 1."

The Ginestra test world: the loyalists' Rapier flies from the Space Port (0610); the rebels'
Bravo lands from orbit. A second world gives the rebels a fighter of their own.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from turn_world import LOYALIST, NOTE, REBEL, REFEREE, _force, mobility, placed, run

from mekref.hexmap import Hex, line
from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn.air_missions import Mission, first_seen
from mekref.rules.tripwire.turn.day import Day
from mekref.rules.tripwire.turn.export import scenario_sheet
from mekref.rules.tripwire.turn.export_mms import engagement_scenario
from mekref.rules.tripwire.turn.mapdata import hex_at
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec, StartStrategicMap
from mekref.rules.tripwire.turn.state import EngagementSetup, UnitMobility

Order = FormationOrder
AIR = FormationSpec(formation_id="air", name="Air", unit_ids=("L-RPR",), hex="0610")
BRAVO = FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7", "R-MAD"), hex="")
REBEL_AIR = ("R-SL", "Sholagar", "SL-21", UnitKind.AEROSPACE_FIGHTER, 35, 900, 7, "aerospace",
             "Wing", 4)  # fmt: skip
FUEL = 3000
WING = FormationSpec(formation_id="wing", name="Wing", unit_ids=("R-SL",), hex="")


def _world(*, rebel_air: bool = False) -> CampaignState:
    rebels = (*REBEL, REBEL_AIR) if rebel_air else REBEL
    extra = (
        (
            UnitMobility(
                unit_id="R-SL", walk_mp=7, mode="aerospace", fuel=FUEL, max_fuel=FUEL, safe_thrust=7
            ),
        )
        if rebel_air
        else ()
    )
    state, _ = run(
        CampaignState(),
        CreateCampaign(
            actor=REFEREE,
            name="Ginestra",
            ruleset="tripwire",
            seed="air-missions",
            sides=(
                SideSpec(side_id="loyalist", name="Loyalists"),
                SideSpec(side_id="rebel", name="Rebels"),
            ),
        ),
        ImportForce(
            actor=REFEREE, side_id="loyalist", force=_force(LOYALIST), accept_unchecked=NOTE
        ),
        ImportForce(actor=REFEREE, side_id="rebel", force=_force(rebels), accept_unchecked=NOTE),
        StartStrategicMap(
            actor=REFEREE,
            map_name="ginestra",
            attacker="rebel",
            defender="loyalist",
            # Full tanks for long missions at low altitude (1 fuel point per km, L201).
            mobility=tuple(
                replace(m, fuel=FUEL, max_fuel=FUEL) if m.mode == "aerospace" else m
                for m in (*mobility(), *extra)
            ),
            control=(
                ("Bagnorgeio", "loyalist"),
                ("Bagnorgeio Space Port", "loyalist"),
                ("Forward Deployment Base", "rebel"),
            ),
        ),
    )
    return placed(state, (AIR,), (BRAVO, WING) if rebel_air else (BRAVO,))


def _day(
    state: CampaignState, loyal: tuple[Order, ...], rebel: tuple[Order, ...]
) -> tuple[CampaignState, list[Event]]:
    assert state.strategic is not None
    day = state.strategic.day
    return run(
        state,
        SubmitOrders(actor="loyalist", side_id="loyalist", day=day, orders=loyal),
        SubmitOrders(actor="rebel", side_id="rebel", day=day, orders=rebel),
        ResolveTurn(actor=REFEREE, day=day),
    )


def _engagements(state: CampaignState) -> tuple[EngagementSetup, ...]:
    assert state.strategic is not None
    return state.strategic.engagements


def _landed(rebel_air: bool = False, bravo_at: str = "0812") -> CampaignState:
    """Day 1: Bravo lands in ``bravo_at``, the rebel wing (if any) at its base (1712)."""
    rebel = (Order(formation_id="b", action="orbital_insertion", target=bravo_at),)
    if rebel_air:
        rebel += (Order(formation_id="wing", action="orbital_insertion", target="1712"),)
    state, _ = _day(_world(rebel_air=rebel_air), (), rebel)
    assert not _engagements(state)
    return state


def test_t_am1_a_strike_on_an_enemy_formation_is_an_air_to_ground_engagement() -> None:
    """L203: the strike "initiates a battle vs either ground units ..."; the fighters are on the
    low-altitude map at the start of turn 1 (L321), Bravo, standing still, is deployed (L319)."""
    state, _ = _day(_landed(), (Order(formation_id="air", action="strike", target="0812"),), ())
    (eng,) = _engagements(state)
    assert (eng.hex, eng.kind, eng.attacker) == ("0812", "air_to_ground", "loyalist")
    assert eng.formations == ("air", "b")
    assert dict(eng.objectives) == {"loyalist": "attack_mission", "rebel": "stand_up_fight"}
    turns = {a.formation_id: a.turn for a in eng.arrivals}
    assert turns == {"air": 1, "b": 0}
    assert len(eng.map_sheets) == 2  # fought over the ground: the hex's map sheets
    assert any("strikes from the air (lines 203, 289)" in n for n in eng.notes)
    assert "**Kind:** air-to-ground strike (Loyalists attacking)" in scenario_sheet(
        state, eng.engagement_id, "rebel"
    )
    mms = engagement_scenario(state, eng.engagement_id, {})
    assert "air-to-ground strike, Loyalists attacking" in mms.scenario.description


def test_t_am1_an_attack_mission_is_an_overflight_that_engages() -> None:
    """L289: "An AeroSpace fighter on an overflight mission may engage the enemy ground forces";
    a plain overflight above altitude 8 only looks (L201, L290)."""
    attack = Order(
        formation_id="air", action="overflight", target="0812",
        params=(("objective", "attack_mission"),),
    )  # fmt: skip
    state, _ = _day(_landed(), (attack,), ())
    (eng,) = _engagements(state)
    assert (eng.kind, eng.attacker, eng.formations) == ("air_to_ground", "loyalist", ("air", "b"))
    high = Order(
        formation_id="air", action="overflight", target="0812",
        params=(("conditions", "altitude_5_10"),),
    )  # fmt: skip
    looking, _ = _day(_landed(), (high,), ())
    assert not _engagements(looking)


@pytest.mark.parametrize("conditions", ["", "altitude_1", "altitude_2_5,recon_camera"])
def test_t_am5_an_overflight_at_altitude_8_or_below_comes_under_fire(conditions: str) -> None:
    """L290: "An AeroSpace fighter on an overflight mission may come under enemy fire if at
    altitude 8 or below. If this happens the Defender organises his forces within 6 hexes of the
    centre of a single random map sheet ... They will then get one chance to attack"."""
    params = (("conditions", conditions),) if conditions else ()
    fly = Order(formation_id="air", action="overflight", target="0812", params=params)
    state, _ = _day(_landed(), (fly,), ())
    (eng,) = _engagements(state)
    assert (eng.kind, eng.attacker, eng.formations) == ("air_to_ground", "loyalist", ("air", "b"))
    assert dict(eng.objectives)["loyalist"] == "overflight"
    assert len(eng.map_sheets) == 1  # "a single random map sheet"
    assert {a.formation_id: a.turn for a in eng.arrivals} == {"air": 1, "b": 0}
    assert any("within 6 hexes of the centre" in n for n in eng.notes)
    assert not any("chooses the time of the attack" in n for n in eng.notes)


@pytest.mark.parametrize(
    "params", [(("conditions", "altitude_5_10"),), (("altitude", "high"), ("row", "1")),
               (("altitude", "high"), ("row", "4"))],
)  # fmt: skip
def test_t_am5_an_overflight_above_altitude_8_is_out_of_reach(
    params: tuple[tuple[str, str], ...],
) -> None:
    fly = Order(formation_id="air", action="overflight", target="0812", params=params)
    state, _ = _day(_landed(), (fly,), ())
    assert not _engagements(state)


def test_t_am1_a_strike_on_an_empty_hex_fights_nobody() -> None:
    state, events = _day(
        _landed(), (Order(formation_id="air", action="strike", target="0712"),), ()
    )
    assert not _engagements(state)
    (mine,) = [e for e in events if isinstance(e, ev.FormationsUpdated) and e.side_id == "loyalist"]
    assert "air: strike on 0712 found no enemy formation there (line 203)" in mine.notes


def test_t_am2_enemy_missions_over_one_hex_fight_air_to_air() -> None:
    """L203: a strike may initiate a battle "vs ... enemy AeroSpace fighters": both sides' missions
    over 1110 on the same day meet there, on the low-altitude map (no ground map sheets)."""
    state, _ = _day(
        _landed(rebel_air=True),
        (Order(formation_id="air", action="strike", target="1110"),),
        (Order(formation_id="wing", action="overflight", target="1110"),),
    )
    (eng,) = _engagements(state)
    assert (eng.hex, eng.kind, eng.attacker) == ("1110", "air_to_air", None)
    assert eng.formations == ("air", "wing") and eng.map_sheets == ()
    assert {a.formation_id: a.turn for a in eng.arrivals} == {"air": 1, "wing": 1}
    mms = engagement_scenario(state, eng.engagement_id, {})
    assert "air-to-air engagement" in mms.scenario.description


def test_t_am2_a_mission_crossing_a_combat_air_patrol_is_intercepted_there() -> None:
    """L204: "Any enemy unit that enters the hex (even of flying at Altitude 1/NOE) is detected
    and can be intercepted": the Rapier flies at NOE from 0610 towards Bravo in 1310 across
    the wing's patrol over 1010, so it fights the patrol there and still strikes Bravo."""
    state = _landed(rebel_air=True, bravo_at="1310")
    strike = Order(
        formation_id="air", action="strike", target="1310",
        params=(("conditions", "altitude_1"),),
    )  # fmt: skip
    state, _ = _day(
        state, (strike,), (Order(formation_id="wing", action="combat_air_patrol", target="1010"),)
    )
    by_hex = {e.hex: e for e in _engagements(state)}
    assert set(by_hex) == {"1010", "1310"}
    air = by_hex["1010"]
    assert (air.kind, air.formations) == ("air_to_air", ("air", "wing"))
    assert any("Combat Air Patrol (line 204): wing detects air" in n for n in air.notes)
    ground = by_hex["1310"]
    assert (ground.kind, ground.formations) == ("air_to_ground", ("air", "b"))
    assert any("fight that air battle first" in n for n in ground.notes)


def test_t_am2_an_intercept_meets_a_strike_air_to_air() -> None:
    """L212: "An Aerospace unit at an airfield may intercept any airborne unit that enters that
    hex": the wing at the Forward Deployment Base (1712) meets the Rapier striking across it."""
    state = _landed(rebel_air=True, bravo_at="1812")
    state, _ = _day(
        state,
        (Order(formation_id="air", action="strike", target="1812"),),
        (Order(formation_id="wing", action="intercept"),),
    )
    kinds = {e.hex: (e.kind, e.formations) for e in _engagements(state)}
    assert kinds["1712"] == ("air_to_air", ("air", "wing"))
    assert kinds["1812"] == ("air_to_ground", ("air", "b"))


def _rebel_sightings(events: list[Event]) -> dict[str, str]:
    (seen,) = [e for e in events if isinstance(e, ev.SightingsMade) and e.side_id == "rebel"]
    return {s.formation_id: s.hex for s in seen.sightings}


def test_t_am4_radar_sees_a_mission_along_its_path() -> None:
    """L268: the Forward Deployment Base's RADAR (1712, 400 km = 8 hexes) sees the Rapier
    overflying 1510 although the Rapier ends the day at home in 0610, out of its range."""
    state = _landed(bravo_at="0310")
    fly = Order(formation_id="air", action="overflight", target="1510")
    _, events = _day(state, (fly,), ())
    seen = _rebel_sightings(events)
    assert "air" in seen
    assert hex_at(seen["air"]) in {hex_at("1510"), *_path_hexes("0610", "1510")}
    (notes,) = [e.notes for e in events if isinstance(e, ev.FormationsUpdated)
                and e.side_id == "rebel"]  # fmt: skip
    assert any(n.startswith("radar detected enemy air (overflight) over") for n in notes)


def test_t_am4_a_mission_at_nape_of_earth_slips_under_the_radar() -> None:
    """L203: "If the unit remains at an altitude of 1 on the low altitude map they are not
    detectable by RADAR"."""
    state = _landed(bravo_at="0310")
    fly = Order(
        formation_id="air", action="overflight", target="1510",
        params=(("conditions", "altitude_1"),),
    )  # fmt: skip
    _, events = _day(state, (fly,), ())
    assert "air" not in _rebel_sightings(events)


def _path_hexes(a: str, b: str) -> set[Hex]:
    return set(line(hex_at(a), hex_at(b)))


def test_t_am4_a_satellite_feed_sees_a_mission_in_the_sectors_it_watches() -> None:
    """L270: satellites carry Look Down Radar: a mission crossing a watched sector is seen at
    any altitude; a Deep Space Array (L269) sees only missions on the high altitude map."""
    state = _landed()
    assert state.strategic is not None
    d = Day(state, state.strategic, Dice("t"))
    path = tuple(_path_hexes("0610", "0612"))
    region = d.hexmap.region_of(hex_at("0612"))
    assert region is not None
    low = Mission(formation_id="air", side_id="loyalist", action="strike", path=path,
                  nape_of_earth=True, high_altitude=False, striking=True,
                  under_fire=False)  # fmt: skip
    watched = frozenset({region.name})
    none: frozenset[str] = frozenset()
    seen = first_seen(d, low, radar=frozenset(path), sat_regions=watched, dsa_regions=none)
    assert seen is not None and seen[1] == "satellite"
    assert first_seen(d, low, radar=frozenset(path), sat_regions=none, dsa_regions=watched) is None
    high = Mission(formation_id="air", side_id="loyalist", action="strike", path=path,
                   nape_of_earth=True, high_altitude=True, striking=True,
                   under_fire=False)  # fmt: skip
    seen = first_seen(d, high, radar=frozenset(), sat_regions=none, dsa_regions=watched)
    assert seen is not None and seen[1] == "deep_space_array"
