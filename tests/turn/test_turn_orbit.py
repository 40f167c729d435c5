"""Orbit: satellites, Anti-Satellite Operations, Reposition Orbit, ship feeds, Hold the Line,
hot standby and suborbital hop fatigue (rulings T-OR1 to T-OR5, T-E10 in docs/turn.md).

L209: "Anti-Satellite Operations – An AeroSpace Fighter or DropShip may move and destroy an
enemy satellite on the high altitude map."
L210: "Reposition Orbit – An AeroSpace Fighter or DropShip may change to a different
geostationary orbit, or move to a Low Planetary Orbit. A Satellite is Geostationary Orbit may
move its position by 1 planetary region per day. ... To change the path takes 1 day."
L270: "... If any of the Satellites are destroyed then that region is not monitored. ... Each
turn a force at the location of a SatLink ... rolls 2d6, on a 9+ they are able to access the
Satellite. DropShips and AeroSpace Fighters in orbit can also act as satellites but their feed
only be hacked on a 11+. DropShips have the same equipment as Satellites but AeroSpace fighters
do not."
L319: "Units that have chosen the Hold the Line combat order deploy at turn 0 anywhere up to
half way across the closest mapsheets (no more than 8 hexes from their deployment edge)."
L408: "DropShips must also decide each week if they remain on hot standby or power down as per
Campaign Operations. Each day on hot standby adds a point of fatigue to the DropShip. A DropShip
can remain on indefinite hot standby if it has an extra full crew (which is unlikely)."
L207: "Players may use this Free Action multiple times in a strategic turn but each trip after
the first adds 1 fatigue point to the DropShip and all units being carried."
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from turn_world import LOYALIST, NOTE, REBEL, REFEREE, _force, fixture_design, mobility, run

from mekref.hexmap import SensorKind, label
from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn import orbit_events
from mekref.rules.tripwire.turn.day import Day
from mekref.rules.tripwire.turn.day_sightings import sightings
from mekref.rules.tripwire.turn.orbit import (
    ChooseDropShipReadiness,
    PlaceSatellite,
    RepositionSatellite,
)
from mekref.rules.tripwire.turn.orbit_day import feed_sensors
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations, StartStrategicMap
from mekref.rules.tripwire.turn.state import UnitMobility

Order = FormationOrder
UNION = ("R-UNI", "Union", "(2708)", UnitKind.DROPSHIP, 3500, 5000, 3, "dropship", "Lift", 5)


def _world(
    rebel: tuple[FormationSpec, ...], control: tuple[tuple[str, str], ...] = ()
) -> CampaignState:
    """Ginestra with a rebel Union DropShip; the loyalists hold Bagnorgeio (a SatLink, no RADAR
    or Deep Space Array) unless ``control`` says otherwise."""
    moves = (*mobility(), UnitMobility(unit_id="R-UNI", walk_mp=3, mode="dropship"))
    state, _ = run(
        CampaignState(),
        CreateCampaign(
            actor=REFEREE,
            name="Orbit",
            ruleset="tripwire",
            seed="orbit-test",
            sides=(
                SideSpec(side_id="loyalist", name="Loyalists"),
                SideSpec(side_id="rebel", name="Rebels"),
            ),
        ),
        ImportForce(
            actor=REFEREE, side_id="loyalist", force=_force(LOYALIST), accept_unchecked=NOTE
        ),
        ImportForce(
            actor=REFEREE, side_id="rebel", force=_force((*REBEL, UNION)), accept_unchecked=NOTE
        ),
        # A spheroid DropShip (its .blk motion type), so it may land off a DropPort (T-LZ5).
        fixture_design("rebel", "R-UNI", "Union (2708).blk"),
        StartStrategicMap(
            actor=REFEREE,
            map_name="ginestra",
            attacker="rebel",
            defender="loyalist",
            mobility=moves,
            control=control or (("Bagnorgeio", "loyalist"),),
        ),
        PlaceFormations(
            actor="loyalist",
            side_id="loyalist",
            day=1,
            formations=(
                FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF",), hex="0508"),
                FormationSpec(formation_id="air", name="Air", unit_ids=("L-RPR",), hex="0610"),
            ),
        ),
        PlaceFormations(actor="rebel", side_id="rebel", day=1, formations=rebel),
    )
    return state


DS = FormationSpec(formation_id="ds", name="Union", unit_ids=("R-UNI",), hex="")
BRAVO = FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7", "R-MAD"), hex="")
SAT = PlaceSatellite(
    actor=REFEREE, satellite_id="sat-1", owner="loyalist", orbit="geostationary", hex="0508",
    note=NOTE,
)  # fmt: skip


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


def _submit(state: CampaignState, side: str, *orders: Order) -> list[Event]:
    assert state.strategic is not None
    _, events = run(
        state, SubmitOrders(actor=side, side_id=side, day=state.strategic.day, orders=orders)
    )
    return events


def _refused(events: list[Event]) -> dict[str, str]:
    (sub,) = [e for e in events if isinstance(e, ev.OrdersSubmitted)]
    return {r.formation_id: r.reason for r in sub.refused}


def _access_rolls(events: list[Event], side: str) -> list[Roll]:
    (seen,) = [e for e in events if isinstance(e, ev.SightingsMade) and e.side_id == side]
    return [r for r in seen.rolls if r.name.startswith("satellite access")]


# --- L209: Anti-Satellite Operations ----------------------------------------------------------


def test_anti_satellite_needs_orbit_and_an_enemy_satellite() -> None:
    """L209: "An AeroSpace Fighter or DropShip may move and destroy an enemy satellite on the
    high altitude map": from orbit (L208 reaches it), against another side's satellite."""
    state, _ = run(_world((DS, BRAVO)), SAT)
    # The loyalist fighter stands at the Space Port, not in orbit.
    with pytest.raises(Refusal) as not_orbit:
        run(state, SubmitOrders(actor="loyalist", side_id="loyalist", day=1, orders=(
            Order(formation_id="air", action="anti_satellite", target="sat-1"),)))  # fmt: skip
    assert not_orbit.value.code == "not_in_orbit" and "L208" in str(not_orbit.value)
    with pytest.raises(Refusal) as unknown:
        run(state, SubmitOrders(actor="rebel", side_id="rebel", day=1, orders=(
            Order(formation_id="ds", action="anti_satellite", target="sat-9"),)))  # fmt: skip
    assert unknown.value.code == "bad_target" and "enemy satellite" in str(unknown.value)
    # 'Mechs cannot do it, even in orbit (the Actions list: fighters or DropShips).
    refused = _refused(_submit(state, "rebel",
        Order(formation_id="ds", action="anti_satellite", target="sat-1"),
        Order(formation_id="b", action="anti_satellite", target="sat-1")))  # fmt: skip
    assert set(refused) == {"b"} and "aerospace or dropship" in refused["b"]


def test_a_destroyed_satellite_stops_monitoring() -> None:
    """L270: "If any of the Satellites are destroyed then that region is not monitored." The
    Union destroys sat-1 on day 1; from then on the loyalists' SatLink has no satellite to
    reach: no 9+ roll is made and no landing is seen through it. The same day without the
    attack, the loyalists roll for the feed."""
    state, _ = run(_world((DS, BRAVO)), SAT)
    _, calm = _day(state, (), (Order(formation_id="b", action="orbital_insertion", target="1612"),))
    assert len(_access_rolls(calm, "loyalist")) == 1
    after, events = _day(
        state,
        (),
        (Order(formation_id="ds", action="anti_satellite", target="sat-1"),
         Order(formation_id="b", action="orbital_insertion", target="1612")),
    )  # fmt: skip
    (gone,) = [e for e in events if isinstance(e, orbit_events.SatelliteDestroyed)]
    assert (gone.satellite_id, gone.owner, gone.by_force, gone.day) == (
        "sat-1",
        "loyalist",
        "rebel",
        1,
    )
    assert not ev.is_private(gone)
    assert after.strategic is not None and after.strategic.satellites["sat-1"].destroyed_day == 1
    assert _access_rolls(events, "loyalist") == []
    (seen,) = [e for e in events if isinstance(e, ev.SightingsMade) and e.side_id == "loyalist"]
    assert "b" not in {s.formation_id for s in seen.sightings}
    # A destroyed satellite is no target any more.
    with pytest.raises(Refusal) as again:
        run(after, SubmitOrders(actor="rebel", side_id="rebel", day=2, orders=(
            Order(formation_id="ds", action="anti_satellite", target="sat-1"),)))  # fmt: skip
    assert again.value.code == "bad_target"


def _feed_day(state: CampaignState, rolls: dict[str, int]) -> Day:
    """A day in hand with the named 2d6 rolls already made (the feeds' own dice)."""
    assert state.strategic is not None
    d = Day(state, state.strategic, Dice("feed"))
    for name, total in rolls.items():
        first = min(6, total - 1)
        roll = Roll(name=name, index=0, sides=6, faces=(first, total - first))
        (d.satellite if name == "satellite" else d.ship_feed)["loyalist"] = roll
    return d


def test_satlink_reaches_working_satellites_on_9_plus() -> None:
    """L270: "Each turn a force at the location of a SatLink ... rolls 2d6, on a 9+ they are able
    to access the Satellite." 9 reaches sat-1 (its monitor sits over 0508); 8 does not."""
    state, _ = run(_world((DS,)), SAT)
    sensors, rolls = feed_sensors(_feed_day(state, {"satellite": 9}), "loyalist", ["Bagnorgeio"])
    assert [(s.kind, label(s.at)) for s in sensors] == [
        (SensorKind.SATELLITE_MONITOR, "0508"),
        (SensorKind.SATELLITE, "0508"),  # its imagers see the ground below (L242, T-OR4)
    ]
    assert [r.total for r in rolls] == [9]
    sensors, _ = feed_sensors(_feed_day(state, {"satellite": 8}), "loyalist", ["Bagnorgeio"])
    assert sensors == []


def test_a_satellite_shows_the_ground_below_it() -> None:
    """L270: "Each Satellite is equipped with Satellite Imagers, High-Resolution Imagers,
    Infrared imagers and Look Down Radar"; L242: "they may observe the hex they are above and
    the six hexes surrounding the centre hex". Bravo landed at 1612; with sat-1 above 1613 the
    loyalists' feed (9+) shows it to unit type; above 0508, far away, it does not."""
    landed, _ = _day(
        _world((DS, BRAVO)),
        (),
        (Order(formation_id="b", action="orbital_insertion", target="1612"),),
    )
    for over, seen in (("1613", {"b": "unit_type"}), ("0508", {})):
        state, _ = run(landed, replace(SAT, hex=over))
        d = _feed_day(state, {"satellite": 10})
        sightings(d)
        (made,) = [
            e for e in d.events if isinstance(e, ev.SightingsMade) and e.side_id == "loyalist"
        ]
        assert {x.formation_id: x.info for x in made.sightings} == seen


# --- L210: Reposition Orbit -------------------------------------------------------------------


def test_reposition_orbit_names_the_orbit_and_ships_then_watch() -> None:
    """L210: "may change to a different geostationary orbit, or move to a Low Planetary Orbit";
    L270: "DropShips and AeroSpace Fighters in orbit can also act as satellites": once in a
    named orbit the Union watches for its own side without a roll."""
    state = _world((DS,))
    with pytest.raises(Refusal) as no_orbit:
        run(state, SubmitOrders(actor="rebel", side_id="rebel", day=1, orders=(
            Order(formation_id="ds", action="reposition_orbit", target="1105"),)))  # fmt: skip
    assert no_orbit.value.code == "bad_param" and "L210" in str(no_orbit.value)
    after, _ = _day(
        state,
        (),
        (Order(formation_id="ds", action="reposition_orbit", target="1105",
               params=(("orbit", "geostationary"),)),),
    )  # fmt: skip
    assert after.strategic is not None
    assert after.strategic.formations["ds"].orbit == "geostationary:1105"
    d = Day(after, after.strategic, Dice("x"))
    sensors, rolls = feed_sensors(d, "rebel", [])
    assert [(s.kind, label(s.at)) for s in sensors] == [(SensorKind.SATELLITE_MONITOR, "1105")]
    assert rolls == []  # its own ship: no roll
    # On the ground there is no orbit to change.
    landed, _ = _day(
        after, (), (Order(formation_id="ds", action="orbital_insertion", target="1612"),)
    )
    assert landed.strategic is not None and landed.strategic.formations["ds"].orbit == ""
    with pytest.raises(Refusal) as grounded:
        run(landed, SubmitOrders(actor="rebel", side_id="rebel", day=3, orders=(
            Order(formation_id="ds", action="reposition_orbit", target="1105",
                  params=(("orbit", "lpo"),)),)))  # fmt: skip
    assert grounded.value.code == "not_in_orbit"


def test_an_enemy_ships_feed_is_hacked_on_11_plus() -> None:
    """L270: "DropShips and AeroSpace Fighters in orbit can also act as satellites but their
    feed only be hacked on a 11+." The loyalists at their SatLink: 10 misses the Union's
    feed, 11 reaches it."""
    state, _ = _day(
        _world((DS,)),
        (),
        (Order(formation_id="ds", action="reposition_orbit", target="1105",
               params=(("orbit", "lpo"),)),),
    )  # fmt: skip
    # No satellite placed: the SatLink's 9+ reaches the planet's network at Bagnorgeio (T-S1).
    low = _feed_day(state, {"satellite": 5, "ship": 10})
    assert feed_sensors(low, "loyalist", ["Bagnorgeio"])[0] == []
    high = _feed_day(state, {"satellite": 5, "ship": 11})
    sensors, rolls = feed_sensors(high, "loyalist", ["Bagnorgeio"])
    assert [(s.kind, label(s.at)) for s in sensors] == [(SensorKind.SATELLITE_MONITOR, "1105")]
    assert [r.total for r in rolls] == [5, 11]


def test_satellites_move_one_region_a_day_and_a_new_low_path_takes_the_day() -> None:
    """L210: "A Satellite is Geostationary Orbit may move its position by 1 planetary region per
    day" (Castell'Arquato borders Arda Valley, not the Eastern Highlands); "To change the path
    takes 1 day": a low-orbit satellite that moved does not monitor that day."""
    state, _ = run(_world((DS,)), SAT)
    with pytest.raises(Refusal) as far:
        run(state, RepositionSatellite(actor="loyalist", side_id="loyalist", day=1,
                                       satellite_id="sat-1", hex="1712"))  # fmt: skip
    assert far.value.code == "too_far" and "1 planetary region per day" in str(far.value)
    with pytest.raises(Refusal) as not_mine:
        run(state, RepositionSatellite(actor="rebel", side_id="rebel", day=1,
                                       satellite_id="sat-1", hex="0905"))  # fmt: skip
    assert not_mine.value.code == "bad_target"
    moved, _ = run(state, RepositionSatellite(
        actor="loyalist", side_id="loyalist", day=1, satellite_id="sat-1", hex="0905"))  # fmt: skip
    assert moved.strategic is not None and moved.strategic.satellites["sat-1"].hex == "0905"
    with pytest.raises(Refusal) as twice:
        run(moved, RepositionSatellite(actor="loyalist", side_id="loyalist", day=1,
                                       satellite_id="sat-1", hex="0508"))  # fmt: skip
    assert twice.value.code == "moved"
    # A geostationary satellite watches from its new place the same day.
    sensors, _ = feed_sensors(_feed_day(moved, {"satellite": 10}), "loyalist", ["Bagnorgeio"])
    assert {label(s.at) for s in sensors} == {"0905"}
    low, _ = run(_world((DS,)), replace(SAT, orbit="lpo"), RepositionSatellite(
        actor="loyalist", side_id="loyalist", day=1, satellite_id="sat-1", hex="1712"))  # fmt: skip
    sensors, rolls = feed_sensors(_feed_day(low, {"satellite": 10}), "loyalist", ["Bagnorgeio"])
    assert sensors == [] and rolls == [_feed_day(low, {"satellite": 10}).satellite["loyalist"]]


def test_satellite_imagers_need_a_dropship() -> None:
    """L270: "DropShips have the same equipment as Satellites but AeroSpace fighters do not":
    a surveillance order from space claims the satellite imagers only with a DropShip."""
    state = _world((DS, FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",), hex="")))
    refused = _refused(_submit(state, "rebel",
        Order(formation_id="ds", action="surveillance", target="0508",
              params=(("conditions", "geostationary,high_resolution_imager"),)),
        Order(formation_id="b", action="surveillance", target="0508",
              params=(("conditions", "geostationary,satellite_imager"),))))  # fmt: skip
    # 'b' is refused for its units first; the Union's order stands.
    assert set(refused) == {"b"}
    loyal_air = _refused(_submit(state, "loyalist",
        Order(formation_id="a", action="guard"),
        Order(formation_id="air", action="surveillance", target="0508",
              params=(("conditions", "altitude_2_5,satellite_imager"),))))  # fmt: skip
    assert "need a DropShip" in loyal_air["air"] and "L270" in loyal_air["air"]


# --- L319: Hold the Line ----------------------------------------------------------------------


def test_hold_the_line_deploys_the_defender_at_turn_0_within_8_hexes() -> None:
    """L319: "Units that have chosen the Hold the Line combat order deploy at turn 0 anywhere up
    to half way across the closest mapsheets (no more than 8 hexes from their deployment
    edge)." Bravo lands on A, who holds the line at Bagnorgeio: an assault, A deployed at
    turn 0 and the sheet notes the 8 hexes. An air mission cannot hold a line; an unknown
    objective is refused."""
    state = _world((DS, BRAVO))
    refused = _refused(_submit(state, "loyalist",
        Order(formation_id="a", action="guard", params=(("objective", "hold_the_line"),)),
        Order(formation_id="air", action="combat_air_patrol", target="0610",
              params=(("objective", "hold_the_line"), ("hours", "1"))),
    ))  # fmt: skip
    assert set(refused) == {"air"} and "L319" in refused["air"]
    with pytest.raises(Refusal) as unknown:
        hold_fast = Order(formation_id="a", action="guard", params=(("objective", "hold_fast"),))
        run(state, SubmitOrders(actor="loyalist", side_id="loyalist", day=1, orders=(hold_fast,)))
    assert unknown.value.code == "bad_param" and "hold_the_line" in str(unknown.value)
    after, _ = _day(
        state,
        (Order(formation_id="a", action="guard", params=(("objective", "hold_the_line"),)),),
        (Order(formation_id="b", action="orbital_insertion", target="0508"),),
    )
    assert after.strategic is not None
    (eng,) = after.strategic.engagements
    assert eng.kind == "assault" and eng.attacker == "rebel"
    assert ("loyalist", "hold_the_line") in eng.objectives
    assert {a.turn for a in eng.arrivals if a.side_id == "loyalist"} == {0}
    assert any(
        n.startswith("loyalist holds the line") and "no more than 8 hexes" in n for n in eng.notes
    )


# --- L408: hot standby, L207: repeated hops ---------------------------------------------------


def test_hot_standby_adds_a_fatigue_point_a_day_unless_an_extra_crew() -> None:
    """L408: "Each day on hot standby adds a point of fatigue to the DropShip. A DropShip can
    remain on indefinite hot standby if it has an extra full crew." The choice is weekly: a
    second one in the same week is refused, as is a unit that is no DropShip."""
    state, _ = _day(
        _world((DS,)), (), (Order(formation_id="ds", action="orbital_insertion", target="1612"),)
    )
    with pytest.raises(Refusal) as not_ds:
        run(state, ChooseDropShipReadiness(actor="rebel", side_id="rebel", day=2,
                                           unit_id="R-JR7", mode="hot_standby"))  # fmt: skip
    assert not_ds.value.code == "wrong_units"
    state, _ = run(state, ChooseDropShipReadiness(
        actor="rebel", side_id="rebel", day=2, unit_id="R-UNI", mode="hot_standby"))  # fmt: skip
    with pytest.raises(Refusal) as twice:
        run(state, ChooseDropShipReadiness(actor="rebel", side_id="rebel", day=2,
                                           unit_id="R-UNI", mode="power_down"))  # fmt: skip
    assert twice.value.code == "already_chosen" and "L408" in str(twice.value)
    for _ in range(3):  # days 2, 3, 4
        state, events = _day(state, (), (Order(formation_id="ds", action="guard"),))
    assert state.strategic is not None and state.strategic.readiness["R-UNI"].fatigue == 3
    (tired,) = [e for e in events if isinstance(e, orbit_events.StandbyFatigue)]
    assert tired.fatigue == (("R-UNI", 3),) and ev.is_private(tired)
    # Day 5: a rest clears it (L205: "removes all fatigue points").
    state, _ = _day(state, (), (Order(formation_id="ds", action="rest"),))
    assert state.strategic is not None and state.strategic.readiness["R-UNI"].fatigue == 0
    # Week 2 (day 8 on): with an extra full crew, no fatigue.
    for _ in range(2):  # days 6 and 7: two more points
        state, _ = _day(state, (), (Order(formation_id="ds", action="guard"),))
    state, _ = run(state, ChooseDropShipReadiness(
        actor="rebel", side_id="rebel", day=8, unit_id="R-UNI", mode="hot_standby",
        extra_crew=True))  # fmt: skip
    state, _ = _day(state, (), (Order(formation_id="ds", action="guard"),))
    assert state.strategic is not None and state.strategic.readiness["R-UNI"].fatigue == 2


def test_a_powered_down_dropship_cannot_respond() -> None:
    """L213: "A DropShip (and the loaded units) that is on standby ... may make a move action":
    powered down for the week (L408), it may not."""
    state, _ = _day(
        _world((DS,)), (), (Order(formation_id="ds", action="orbital_insertion", target="1612"),)
    )
    down, _ = run(state, ChooseDropShipReadiness(
        actor="rebel", side_id="rebel", day=2, unit_id="R-UNI", mode="power_down"))  # fmt: skip
    with pytest.raises(Refusal) as refused:
        run(down, SubmitOrders(actor="rebel", side_id="rebel", day=2, orders=(
            Order(formation_id="ds", action="respond"),)))  # fmt: skip
    assert refused.value.code == "powered_down" and "L213" in str(refused.value)
    hot, _ = run(state, ChooseDropShipReadiness(
        actor="rebel", side_id="rebel", day=2, unit_id="R-UNI", mode="hot_standby"))  # fmt: skip
    run(hot, SubmitOrders(actor="rebel", side_id="rebel", day=2, orders=(
        Order(formation_id="ds", action="respond"),)))  # fmt: skip


def test_each_hop_after_the_first_adds_fatigue() -> None:
    """L207: "each trip after the first adds 1 fatigue point to the DropShip and all units
    being carried": three hops in a day, +2 fatigue; one hop, none; 0 trips is refused."""
    state, _ = _day(
        _world((DS,)), (), (Order(formation_id="ds", action="orbital_insertion", target="1612"),)
    )
    with pytest.raises(Refusal) as zero:
        run(state, SubmitOrders(actor="rebel", side_id="rebel", day=2, orders=(
            Order(formation_id="ds", action="suborbital_hop", target="1105",
                  params=(("trips", "0"),)),)))  # fmt: skip
    assert zero.value.code == "bad_param"
    one, _ = _day(state, (), (Order(formation_id="ds", action="suborbital_hop", target="1105"),))
    assert one.strategic is not None and one.strategic.formations["ds"].fatigue == 0
    three, _ = _day(state, (), (Order(formation_id="ds", action="suborbital_hop", target="1105",
                                      params=(("trips", "3"),)),))  # fmt: skip
    assert three.strategic is not None and three.strategic.formations["ds"].fatigue == 2
