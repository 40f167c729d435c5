"""RADAR wakes the fighters on Intercept or Combat Air Patrol, and the Combat Drop's orbit
(rulings T-RS3, T-OR7 in docs/turn.md).

L268: "RADAR – Any aerospace asset that is not flying above level 1 (Nape of Earth) within 400 km
of the RADAR station detected. Any AeroSpace units on Intercept or on Combat AirPatrol can then
activate."
L203: "If the unit remains at an altitude of 1 on the low altitude map they are not detectable by
RADAR, but can be detected by enemy aircraft on Combat Air Patrol."
L211: "Combat Drop (Free Action) – A DropShip can only perform this action when in a
GeoStationary orbit above the target hex. ... Any Radar Station can detect this any AeroSpace
assets on Intercept or CAP can activate."
L316: "No AeroSpace support can be called unless they unit arrives with at leats 100 fuel points
and enough fuel to return to a base."

The Ginestra test world: the loyalists hold the Space Port (0610: RADAR, 400 km = 8 hexes of
50 km) where their Rapier stands; the rebels land from orbit, a fighter wing and a Union
DropShip among them.
"""

from __future__ import annotations

import pytest
from turn_world import LOYALIST, NOTE, REBEL, REFEREE, _force, fixture_design, mobility, run

from mekref.hexmap import line
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn.mapdata import hex_at
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations, StartStrategicMap
from mekref.rules.tripwire.turn.state import UnitMobility

Order = FormationOrder
WING_UNIT = ("R-SL", "Sholagar", "SL-21", UnitKind.AEROSPACE_FIGHTER, 35, 900, 7, "aerospace",
             "Wing", 4)  # fmt: skip
UNION = ("R-UNI", "Union", "(2708)", UnitKind.DROPSHIP, 3500, 5000, 3, "dropship", "Lift", 5)
AIR = FormationSpec(formation_id="air", name="Air", unit_ids=("L-RPR",), hex="0610")
BRAVO = FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7", "R-MAD"), hex="")
WING = FormationSpec(formation_id="wing", name="Wing", unit_ids=("R-SL",), hex="")
# Bravo's Atlas aboard the Union: a formation in orbit, carried by its DropShip (T-O1).
DROP = FormationSpec(formation_id="drop", name="Drop", unit_ids=("R-UNI", "R-AS7"), hex="")
L268 = 'L268: "Any aerospace asset that is not flying above level 1 (Nape of Earth)'


def _world(rapier_fuel: int = 400) -> CampaignState:
    extra = (
        UnitMobility(
            unit_id="R-SL", walk_mp=7, mode="aerospace", fuel=3000, max_fuel=3000, safe_thrust=7
        ),
        UnitMobility(unit_id="R-UNI", walk_mp=3, mode="dropship"),
    )
    moves = tuple(
        m if m.unit_id != "L-RPR" else UnitMobility(
            unit_id="L-RPR", walk_mp=6, mode="aerospace", fuel=rapier_fuel,
            max_fuel=rapier_fuel, safe_thrust=6,
        )
        for m in (*mobility(), *extra)
    )  # fmt: skip
    state, _ = run(
        CampaignState(),
        CreateCampaign(
            actor=REFEREE,
            name="Ginestra",
            ruleset="tripwire",
            seed="radar-wakes",
            sides=(
                SideSpec(side_id="loyalist", name="Loyalists"),
                SideSpec(side_id="rebel", name="Rebels"),
            ),
        ),
        ImportForce(
            actor=REFEREE, side_id="loyalist", force=_force(LOYALIST), accept_unchecked=NOTE
        ),
        ImportForce(
            actor=REFEREE,
            side_id="rebel",
            force=_force((*REBEL, WING_UNIT, UNION)),
            accept_unchecked=NOTE,
        ),
        # A spheroid DropShip (its .blk motion type), so it may land off a DropPort (T-LZ5).
        fixture_design("rebel", "R-UNI", "Union (2708).blk"),
        StartStrategicMap(
            actor=REFEREE,
            map_name="ginestra",
            attacker="rebel",
            defender="loyalist",
            mobility=moves,
            control=(
                ("Bagnorgeio", "loyalist"),
                ("Bagnorgeio Space Port", "loyalist"),
                ("Forward Deployment Base", "rebel"),
            ),
        ),
        PlaceFormations(actor="loyalist", side_id="loyalist", day=1, formations=(AIR,)),
        PlaceFormations(actor="rebel", side_id="rebel", day=1, formations=(BRAVO, WING, DROP)),
    )
    return state


def _day(
    state: CampaignState, loyal: tuple[Order, ...], rebel: tuple[Order, ...]
) -> tuple[CampaignState, list[Event]]:
    assert state.strategic is not None
    day = state.strategic.day
    cmds = []
    if loyal:
        cmds.append(SubmitOrders(actor="loyalist", side_id="loyalist", day=day, orders=loyal))
    if rebel:
        cmds.append(SubmitOrders(actor="rebel", side_id="rebel", day=day, orders=rebel))
    return run(state, *cmds, ResolveTurn(actor=REFEREE, day=day))


def _responses(events: list[Event]) -> list[ev.ResponseMade]:
    return [e for e in events if isinstance(e, ev.ResponseMade)]


def _notes(events: list[Event], side: str = "loyalist") -> tuple[str, ...]:
    (mine,) = [e for e in events if isinstance(e, ev.FormationsUpdated) and e.side_id == side]
    return mine.notes


def _rapier_fuel(events: list[Event]) -> int:
    (mine,) = [e for e in events if isinstance(e, ev.FormationsUpdated) and e.side_id == "loyalist"]
    return {m.unit_id: m.fuel for m in mine.mobility}["L-RPR"]


INTERCEPT = (Order(formation_id="air", action="intercept"),)


def test_t_rs3_radar_wakes_an_interceptor_against_a_landing() -> None:
    """L268: the Space Port's RADAR detects Bravo landing in 0812 (3 hexes, 150 km): "Any
    AeroSpace units on Intercept ... can then activate". The Rapier flies out and meets Bravo
    there (and refuels at the Space Port's fuel dump by nightfall)."""
    state, events = _day(
        _world(), INTERCEPT, (Order(formation_id="b", action="orbital_insertion", target="0812"),)
    )
    (made,) = _responses(events)
    assert (made.side_id, made.formation_id, made.action) == ("loyalist", "air", "intercept")
    assert (made.before, made.hex, made.against, made.detected_by) == (
        "0610", "0812", ("b",), ("radar",),
    )  # fmt: skip
    assert any(
        "air: radar detected enemy b (orbital_insertion) over 0812; air on intercept at 0610 "
        "activates and meets it there, 150 km out (" + L268 in n
        for n in _notes(events)
    )
    assert _rapier_fuel(events) == 400  # burnt 300 there and back, refuelled at home
    assert state.strategic is not None
    (eng,) = state.strategic.engagements
    assert eng.hex == "0812" and set(eng.formations) == {"air", "b"}
    assert any(L268 in n and "what survives lands" in n for n in eng.notes)


def test_t_rs3_an_enemy_out_of_reach_is_noted_not_met() -> None:
    """L316: Bravo lands in 1212, 300 km off and inside the RADAR's 400 km: the Rapier (400 fuel
    points) would not arrive with the fuel to come home, so it stays, and the notes say why."""
    state, events = _day(
        _world(), INTERCEPT, (Order(formation_id="b", action="orbital_insertion", target="1212"),)
    )
    assert not _responses(events)
    notes = _notes(events)
    assert any(
        n.startswith("air (intercept): radar detected enemy b (orbital_insertion) over 1212, "
                     "300 km from 0610: out of reach, unit L-RPR") and "L316" in n
        for n in notes
    )  # fmt: skip
    assert any(n.startswith("air: intercept stands ready") for n in notes)
    assert state.strategic is not None and not state.strategic.engagements


def _wing_at_base() -> CampaignState:
    """Day 1: the rebel wing lands at the Forward Deployment Base (1712), Bravo in 0310."""
    state, _ = _day(
        _world(rapier_fuel=3000),
        (),
        (
            Order(formation_id="wing", action="orbital_insertion", target="1712"),
            Order(formation_id="b", action="orbital_insertion", target="0310"),
        ),
    )
    return state


@pytest.mark.parametrize("order", ["intercept", "combat_air_patrol"])
def test_t_rs3_a_detected_air_mission_is_met_where_it_was_seen(order: str) -> None:
    """L268: the rebel wing overflies 1110 from 1712; the loyalists' sensors see it on the way
    (ruling T-AM4: here the satellite network their SatLink reached, as it takes off from 1712)
    and the Rapier, on Intercept at its airfield or patrolling its own hex, activates and meets
    it at the hex where it was seen, 550 km out (3000 fuel points: in reach, L316)."""
    state, events = _day(
        _wing_at_base(),
        (Order(formation_id="air", action=order),),
        (Order(formation_id="wing", action="overflight", target="1110"),),
    )
    (made,) = _responses(events)
    assert (made.formation_id, made.action, made.against) == ("air", order, ("wing",))
    assert (made.before, made.hex, made.detected_by) == ("0610", "1712", ("satellite",))
    assert hex_at(made.hex) in set(line(hex_at("1712"), hex_at("1110")))
    assert state.strategic is not None
    (eng,) = [e for e in state.strategic.engagements if e.hex == made.hex]
    assert "air" in eng.formations and "wing" in eng.formations
    assert any(L268 in n and "what survives flies on" in n for n in eng.notes)
    assert any(L268 in n and "activates and meets it there" in n for n in _notes(events))


@pytest.mark.parametrize("order", ["intercept", "combat_air_patrol"])
def test_t_rs3_a_mission_at_nape_of_earth_wakes_nobody(order: str) -> None:
    """L203: at altitude 1 the wing is "not detectable by RADAR", so nothing activates (it is
    left to a Combat Air Patrol whose hex it enters, L204)."""
    noe = Order(
        formation_id="wing", action="overflight", target="1110",
        params=(("conditions", "altitude_1"),),
    )  # fmt: skip
    state, events = _day(_wing_at_base(), (Order(formation_id="air", action=order),), (noe,))
    assert not _responses(events)
    assert state.strategic is not None
    assert not any("air" in e.formations for e in state.strategic.engagements)


def test_t_or7_a_combat_drop_needs_the_geostationary_orbit_above_its_target() -> None:
    """L211: "A DropShip can only perform this action when in a GeoStationary orbit above the
    target hex": from the pirate point (no named orbit) the drop is refused and the refusal says
    what to do; the Union repositions above 0812 (L210, carrying the Atlas, T-O1) and drops
    there the next day, not on 0912."""
    state = _world()

    def submit(order: Order) -> None:
        assert state.strategic is not None
        run(state, SubmitOrders(actor="rebel", side_id="rebel", day=state.strategic.day,
                                orders=(order,)))  # fmt: skip

    drop = Order(formation_id="drop", action="combat_drop", target="0812")
    with pytest.raises(Refusal) as pirate:
        submit(drop)
    text = str(pirate.value)
    assert pirate.value.code == "not_above_target"
    assert "in no named orbit" in text and "L211" in text
    assert "reposition_orbit, orbit=geostationary, target 0812" in text
    assert "orbital_insertion" in text
    state, _ = _day(
        state,
        (),
        (Order(formation_id="drop", action="reposition_orbit", target="0812",
               params=(("orbit", "geostationary"),)),),
    )  # fmt: skip
    assert state.strategic is not None
    assert state.strategic.formations["drop"].orbit == "geostationary:0812"
    with pytest.raises(Refusal) as elsewhere:
        submit(Order(formation_id="drop", action="combat_drop", target="0912"))
    assert elsewhere.value.code == "not_above_target"
    assert "in geostationary orbit above 0812, not in the geostationary orbit above 0912" in str(
        elsewhere.value
    )
    state, events = _day(state, INTERCEPT, (drop,))
    assert state.strategic is not None and state.strategic.formations["drop"].hex == "0812"
    # L211: "Any Radar Station can detect this any AeroSpace assets on Intercept or CAP can
    # activate": the Space Port's RADAR wakes the Rapier (part of T-RS3).
    (made,) = _responses(events)
    assert (made.formation_id, made.hex, made.against) == ("air", "0812", ("drop",))
    assert any('L211: "Any Radar Station can detect this' in n for n in _notes(events))


def test_t_or7_a_low_orbit_is_not_a_drop_orbit() -> None:
    state, _ = _day(
        _world(),
        (),
        (Order(formation_id="drop", action="reposition_orbit", target="0812",
               params=(("orbit", "lpo"),)),),
    )  # fmt: skip
    assert state.strategic is not None
    with pytest.raises(Refusal) as low:
        run(state, SubmitOrders(actor="rebel", side_id="rebel", day=2, orders=(
            Order(formation_id="drop", action="combat_drop", target="0812"),)))  # fmt: skip
    assert low.value.code == "not_above_target" and "in lpo orbit above 0812" in str(low.value)


def test_t_rs3_a_patrol_meets_a_mission_crossing_its_hex_there_and_only_there() -> None:
    """L204: "Any enemy unit that enters the hex ... is detected and can be intercepted": a
    mission crossing the hex the Rapier patrols is met over that hex (ruling T-AM2); RADAR does
    not send the patrol to meet it a second time elsewhere."""
    state, events = _day(
        _wing_at_base(),
        (Order(formation_id="air", action="combat_air_patrol", target="1311"),),
        (Order(formation_id="wing", action="overflight", target="1110"),),
    )
    assert hex_at("1311") in set(line(hex_at("1712"), hex_at("1110")))
    assert not _responses(events)
    assert state.strategic is not None
    assert [(e.hex, e.formations) for e in state.strategic.engagements] == [
        ("1311", ("air", "wing"))
    ]
