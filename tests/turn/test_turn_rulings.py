"""One test per ruling of docs/turn.md that the other files do not already hold."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from turn_world import REFEREE, mobility, placed, run, started

from mekref.hexmap import sample_map
from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn import engagement, unrest
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn import weather as wx
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec
from mekref.rules.tripwire.turn.site_vehicles import site_vehicles

Order = FormationOrder


def _two(loyal_hex: str, loyal_units: tuple[str, ...] = ("L-GRF",)) -> CampaignState:
    return placed(
        started(),
        (FormationSpec(formation_id="a", name="A", unit_ids=loyal_units, hex=loyal_hex),),
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7", "R-MAD")),),
    )


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


def test_ruling_t_w1_modified_weather_rolls_stay_on_the_table() -> None:
    hot = sample_map("ginestra")  # climates -1, 0, +1 and +2
    for seed in range(40):
        regions, rolls, _ = wx.roll_start(hot, Dice(f"w{seed}"))
        for region, roll in zip(
            regions, (r for r in rolls if r.name.startswith("starting")), strict=True
        ):
            climate = {r.name: r.climate for r in hot.regions}[region.region]
            total = min(12, max(2, roll.total + climate))
            assert (
                region.level
                == {2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 1, 8: 2, 9: 3, 10: 4, 11: 5, 12: 6}[total]
            )


def test_ruling_t_o1_a_formation_in_orbit_lands_whatever_its_units() -> None:
    state, _ = _day(
        _two("0508"), (), (Order(formation_id="b", action="orbital_insertion", target="1712"),)
    )
    assert state.strategic is not None and state.strategic.formations["b"].hex == "1712"


def test_ruling_t_e2_a_landing_on_a_guarded_hex_is_an_assault() -> None:
    _, events = _day(
        _two("1105"),
        (Order(formation_id="a", action="guard"),),
        (Order(formation_id="b", action="orbital_insertion", target="1105"),),
    )
    (found,) = [e for e in events if isinstance(e, ev.EngagementDetermined)]
    assert isinstance(found, ev.EngagementDetermined)
    g = found.engagement
    assert (g.kind, g.attacker) == ("assault", "rebel")
    assert {a.formation_id: a.turn for a in g.arrivals}["a"] == 0
    assert (
        dict(g.ambush_totals)["loyalist"]
        == sum(r.total for r in found.rolls if "loyalist" in r.name) + 4
    )


def test_ruling_t_e3_arrival_turns_at_the_ends() -> None:
    assert engagement.arrival_turn(15) == 1
    assert engagement.arrival_turn(0) is None


def test_ruling_t_u1_unrest_stays_on_the_table() -> None:
    assert unrest.clamp(14) == 12 and unrest.clamp(0) == 2


def test_ruling_t_c1_control_and_its_pools_change_hands() -> None:
    # The rebels are still in orbit; a loyalist lance walks into their empty base (1712).
    state = _two("1612")
    state, _ = run(
        state,
        OpenPool(
            actor=REFEREE,
            pool_id="fdb",
            side_id="rebel",
            name="Forward Deployment Base",
            kind=PoolKind.LOCATION,
            location="Forward Deployment Base",
        ),
    )
    state, events = _day(state, (Order(formation_id="a", action="move", path=("1712",)),), ())
    assert state.strategic is not None
    assert state.strategic.control["Forward Deployment Base"] == "loyalist"
    assert state.pools["fdb"].side_id == "loyalist"
    (change,) = [e for e in events if isinstance(e, ev.LocationControlChanged)]
    assert isinstance(change, ev.LocationControlChanged) and change.pools == ("fdb",)


def test_ruling_t_v1_a_garrison_is_a_lance() -> None:
    three, _ = _day(
        _two("1105", ("L-GRF", "L-WVR", "L-SHD")), (Order(formation_id="a", action="guard"),), ()
    )
    four, _ = _day(
        _two("1105", ("L-GRF", "L-WVR", "L-SHD", "L-LCT")),
        (Order(formation_id="a", action="guard"),),
        (),
    )
    assert three.strategic is not None and four.strategic is not None
    assert three.strategic.vp["loyalist"] == 0
    assert four.strategic.vp["loyalist"] == 1


def test_ruling_t_l1_loot_fills_the_pool_to_its_room() -> None:
    state = _two("1712")
    state, _ = run(
        state,
        OpenPool(
            actor=REFEREE,
            pool_id="truck",
            side_id="loyalist",
            name="Truck",
            kind=PoolKind.CARGO,
            cargo_tons=Fraction(10),
        ),
    )
    state, events = _day(
        state, (Order(formation_id="a", action="looting", params=(("pool", "truck"),)),), ()
    )
    (loot,) = [e for e in events if isinstance(e, ev.LocationLooted)]
    assert isinstance(loot, ev.LocationLooted)
    assert loot.wp == min(50, loot.rolls[0].total * 100)  # a 10-ton truck carries 50 WP
    assert state.pools["truck"].balance == loot.wp


def test_ruling_t_fu1_fighters_refuel_at_a_held_fuel_dump() -> None:
    state = placed(
        started(),
        (FormationSpec(formation_id="air", name="Air", unit_ids=("L-RPR",), hex="0610"),),
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",)),),
    )
    state, _ = _day(state, (Order(formation_id="air", action="overflight", target="0707"),), ())
    assert state.strategic is not None and state.strategic.mobility["L-RPR"].fuel == 400


def test_ruling_t_r2_recruiting_once_a_week_at_a_recruitment_point() -> None:
    state = _two("1105")
    state, events = _day(state, (Order(formation_id="a", action="recruit"),), ())
    assert len([e for e in events if isinstance(e, ev.RecruitsFound)]) == 1
    state, events = _day(state, (Order(formation_id="a", action="recruit"),), ())
    assert [e for e in events if isinstance(e, ev.RecruitsFound)] == []
    notes = [n for e in events if isinstance(e, ev.FormationsUpdated) for n in e.notes]
    assert any("once per week" in n for n in notes)


def test_ruling_t_u3_martial_law_holds_unrest_down_until_it_stops() -> None:
    # Alpha (4 units) keeps martial law in the Facility for 7 days: 1 point per unit, at most
    # 4 (line 216): unrest in "one population center" 7 -> 3. On day 8 it stops: back to 7,
    # plus 1: 8. The loyalists' rating elsewhere stays 7 (ruling T-U6).
    facility = "Combat Systems Manufacturing Facility"
    state = _two("1105", ("L-GRF", "L-WVR", "L-SHD", "L-LCT"))
    for _ in range(7):
        state, _ = _day(state, (Order(formation_id="a", action="martial_law"),), ())
    assert state.strategic is not None
    assert state.strategic.local_unrest == {facility: {"loyalist": 3}}
    assert state.strategic.unrest["loyalist"] == 7
    assert state.strategic.suppressed == {"a": ("loyalist", "martial_law", 4)}
    assert state.strategic.suppressed_at == {"a": facility}
    state, _ = _day(state, (Order(formation_id="a", action="guard"),), ())
    assert state.strategic is not None
    assert state.strategic.local_unrest == {facility: {"loyalist": 8}}
    assert state.strategic.suppressed == {} and state.strategic.suppressed_at == {}


def test_ruling_t_u4_despised_forces_are_bombed_in_population_centres() -> None:
    state = placed(
        started(),
        (FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF", "L-WVR"), hex="1105"),),
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",)),),
    )
    assert state.strategic is not None
    from dataclasses import replace

    state = replace(state, strategic=replace(state.strategic, unrest={"loyalist": 12, "rebel": 7}))
    struck = []
    for _ in range(8):
        state, events = _day(state, (Order(formation_id="a", action="guard"),), ())
        rolls = [r for e in events for r in e.rolls if r.name == "sabotage, a"]
        assert len(rolls) == 1  # one 1D6 a day (line 401)
        hits = [e for e in events if isinstance(e, ev.SabotageRolled) and e.unit_id is not None]
        assert len(hits) == (1 if rolls[0].total == 6 else 0)
        struck += hits
    for hit in struck:
        assert isinstance(hit, ev.SabotageRolled)
        assert hit.unit_id in ("L-GRF", "L-WVR") and hit.damage % 5 == 0 and 5 <= hit.damage <= 30


def test_ruling_t_o2_a_landing_combines_with_a_move() -> None:
    # Bravo (speed 4: 2 MP) lands on the Southern Road in 1612 and walks on to 1512 and 1412.
    state, _ = _day(
        _two("0508"),
        (),
        (
            Order(
                formation_id="b",
                action="orbital_insertion",
                target="1612",
                path=("1512", "1412"),
            ),
        ),
    )
    assert state.strategic is not None and state.strategic.formations["b"].hex == "1412"


def test_ruling_t_c2_a_captured_transport_brings_its_cargo() -> None:
    from dataclasses import replace

    from mekref.rules.tripwire.turn.setup import StartStrategicMap

    state = started()
    assert state.strategic is not None
    state = replace(state, strategic=None)
    state, _ = run(
        state,
        OpenPool(
            actor=REFEREE,
            pool_id="maxim-hold",
            side_id="loyalist",
            name="Maxim's hold",
            kind=PoolKind.CARGO,
            cargo_tons=Fraction(4),
            opening_balance=20,
        ),
        StartStrategicMap(
            actor=REFEREE,
            map_name="ginestra",
            attacker="rebel",
            defender="loyalist",
            mobility=mobility(),
            transports=(("maxim-hold", "L-MAX"),),
        ),
    )
    state = placed(
        state,
        (FormationSpec(formation_id="m", name="M", unit_ids=("L-MAX", "L-GRF"), hex="0707"),),
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",)),),
    )
    # The battle rules hand a captured unit to its captor; here the capture is set directly.
    units = dict(state.units)
    units["L-MAX"] = replace(units["L-MAX"], side_id="rebel")
    state = replace(state, units=units)
    state, events = _day(state, (), ())
    (taken,) = [e for e in events if isinstance(e, ev.TransportCargoCaptured)]
    assert isinstance(taken, ev.TransportCargoCaptured)
    assert (taken.unit_id, taken.pools, taken.after) == ("L-MAX", ("maxim-hold",), "rebel")
    assert state.pools["maxim-hold"].side_id == "rebel"
    assert state.strategic is not None
    assert state.strategic.formations["m"].unit_ids == ("L-GRF",)  # it left its old formation


def test_ruling_t_u6_unrest_per_population_centre() -> None:
    """Line 216: Martial Law "reduces the unrest in one population center"; a centre keeps its
    own rating once a force's deeds there changed it; the government building (line 404) moves
    the force's rating everywhere, each centre's own rating with it, on the table."""
    from dataclasses import replace

    base: dict[str, int] = {"rebel": 7}
    local: dict[str, dict[str, int]] = {}
    unrest.apply(base, local, "rebel", "Forward Deployment Base", 7, 9)
    assert unrest.rating(base, local, "rebel", "Forward Deployment Base") == 9
    assert unrest.rating(base, local, "rebel", "Bagnorgeio") == 7
    assert unrest.rating(base, local, "rebel") == 7
    unrest.apply(base, local, "rebel", "", 7, 6)
    assert base == {"rebel": 6} and local == {"Forward Deployment Base": {"rebel": 8}}
    low = {"X": {"rebel": 2}}
    unrest.apply(base, low, "rebel", "", 6, 5)
    assert low == {"X": {"rebel": 2}}  # T-U1: on the table
    # Hated in the Facility: no recruiting there (line 400), whatever the force's rating.
    state = _two("1105")
    assert state.strategic is not None
    facility = "Combat Systems Manufacturing Facility"
    state = replace(
        state, strategic=replace(state.strategic, local_unrest={facility: {"loyalist": 10}})
    )
    state, events = _day(state, (Order(formation_id="a", action="recruit"),), ())
    assert [e for e in events if isinstance(e, ev.RecruitsFound)] == []
    notes = [n for e in events if isinstance(e, ev.FormationsUpdated) for n in e.notes]
    assert any(f"unrest 10 in {facility}: recruitment not possible" in n for n in notes)


def test_ruling_t_sv1_what_each_held_facility_includes_and_a_destroyed_one_does_not() -> None:
    # L272: "Ammo Dumps include 4 J-37 Ordinance Transports."; L271: "Supply Dumps include 8
    # unarmed Flatbed Trucks."; L59: "(e.g. A 10 to flatbed truck can carry 50 WP)".
    state = started(control=(("Forward Deployment Base", "rebel"),))
    assert state.strategic is not None
    found = {(v.location, v.row.vehicle): v for v in site_vehicles(state.strategic)}
    j37 = found[("Forward Deployment Base", "J-37 Ordnance Transport")]
    trucks = found[("Forward Deployment Base", "Flatbed Truck")]
    assert (j37.side_id, j37.hex, j37.row.count, j37.row.ref.line) == ("rebel", "1712", 4, 272)
    assert j37.wp_each == 105  # MegaMek's 21 t of cargo (megameklab issue 136), 5 WP a ton
    tanker = [v for v in site_vehicles(state.strategic) if v.row.vehicle == "Tanker Truck"]
    assert tanker and tanker[0].wp_each is None  # no source gives its cargo: not known, never 0
    assert (trucks.row.count, trucks.row.armed, trucks.wp_each) == (8, False, 50)
    # The Space Port's DropPort (Large) implies an Ammo Dump it also lists: one set of J-37s.
    port = [v for v in site_vehicles(state.strategic) if v.location == "Bagnorgeio Space Port"]
    assert sorted(v.row.vehicle for v in port) == [
        "Flatbed Truck", "J-37 Ordnance Transport", "Tanker Truck"]  # fmt: skip
    assert {v.side_id for v in port} == {None}  # nobody holds it in this set-up
    # L219 "Destruction": a destroyed Ammo Dump includes no J-37s; its Supply Dump still trucks.
    gone = replace(state.strategic, destroyed={"Forward Deployment Base": ("ammo_dump",)})
    left = {v.row.vehicle for v in site_vehicles(gone) if v.location == "Forward Deployment Base"}
    assert left == {"Flatbed Truck"}
