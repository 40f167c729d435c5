"""Response actions (Respond, Intercept) and the mobs of the unrest table.

Line 212: "Intercept (Response Action)– An Aerospace unit at an airfield may intercept any
airborne unit that enters that hex, before it is close enough to attack any locations, units in
that hex."
Line 213: "Respond (Response Action) – A DropShip (and the loaded units) that is on standby
either on the ground or in orbit may make a move action (e.g. Sub Orbital Hop) after the
opponent has declared their move action. This action is only possible if the force has Radar (in
range) or a Deep Space Array/Satellite (which will detect any Sub Orbital Hops, Orbital
Insertion/Achieve Orbit or Reposition Orbit actions.)"
Lines 395-401 (the unrest table): "| 2 | Devoted – double all Recruit Actions and mobs. ...",
"| 3-4 | Supportive – Each battle/peacekeeping action in a civilian population centre generates
1d3 supportive mobs. ...", "| 10-11 | Hated – ... Each battle/peacekeeping action in a civilian
population centre generates 1d3 angry mobs. ...", "| 12 | Despised – Double all mobs. ..."
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from turn_world import REFEREE, placed, run, started

from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn.export import scenario_sheet
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec

Order = FormationOrder


def _world(
    loyal: tuple[FormationSpec, ...],
    rebel_hex: str = "",
    control: tuple[tuple[str, str], ...] = (),
) -> CampaignState:
    return placed(
        started(control=control),
        loyal,
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7", "R-MAD"), hex=rebel_hex),),
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


AIR = FormationSpec(formation_id="air", name="Air", unit_ids=("L-RPR",), hex="0610")


def test_respond_follows_a_hop_its_radar_saw() -> None:
    """The Rapier hops from the Space Port to 1612; the rebels' Forward Deployment Base (1712)
    has RADAR in range (400 km = 8 hexes) and Bravo, on standby in orbit, lands on it."""
    state, events = _day(
        _world((AIR,)),
        (Order(formation_id="air", action="suborbital_hop", target="1612"),),
        (Order(formation_id="b", action="respond"),),
    )
    (made,) = [e for e in events if isinstance(e, ev.ResponseMade)]
    assert (made.side_id, made.formation_id, made.action) == ("rebel", "b", "respond")
    assert (made.before, made.hex, made.against) == ("", "1612", ("air",))
    assert "radar" in made.detected_by
    assert ev.is_private(made)
    assert state.strategic is not None and state.strategic.formations["b"].hex == "1612"
    (eng,) = state.strategic.engagements
    assert eng.hex == "1612" and set(eng.formations) == {"air", "b"}
    assert eng.kind == "meeting"  # both landed today: both in motion (T-E2)


def test_respond_needs_a_sensor_that_saw_the_move() -> None:
    """Without Radar in range, a Deep Space Array or a satellite, nothing is seen: Bravo stays
    on standby in orbit."""
    state, events = _day(
        _world((AIR,), control=(("Bagnorgeio Space Port", "loyalist"),)),
        (Order(formation_id="air", action="suborbital_hop", target="1612"),),
        (Order(formation_id="b", action="respond", target="1512"),),
    )
    assert not [e for e in events if isinstance(e, ev.ResponseMade)]
    assert state.strategic is not None and state.strategic.formations["b"].hex == ""
    (notes,) = [
        e.notes for e in events if isinstance(e, ev.FormationsUpdated) and e.side_id == "rebel"
    ]
    assert any("respond stands ready; no enemy hop" in n for n in notes)


def test_respond_is_for_a_dropship_or_a_formation_aboard_one() -> None:
    state = _world((FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF",), hex="0508"),))
    with pytest.raises(Refusal) as refused:
        _day(state, (Order(formation_id="a", action="respond"),), ())
    assert refused.value.code == "wrong_units"


def test_intercept_meets_a_landing_at_the_airfield_before_it_attacks() -> None:
    state, events = _day(
        _world((AIR,)),
        (Order(formation_id="air", action="intercept"),),
        (Order(formation_id="b", action="orbital_insertion", target="0610"),),
    )
    (made,) = [e for e in events if isinstance(e, ev.ResponseMade)]
    assert (made.side_id, made.action, made.hex, made.against) == (
        "loyalist",
        "intercept",
        "0610",
        ("b",),
    )
    assert state.strategic is not None
    (eng,) = state.strategic.engagements
    assert any(n.startswith("Interception (line 212): air meets b") for n in eng.notes)
    assert "Interception (line 212)" in scenario_sheet(state, eng.engagement_id, "rebel")


def test_intercept_needs_an_airfield() -> None:
    """Bagnorgeio (0508) has no DropPort and no aerospace repair facility."""
    state = _world((replace(AIR, hex="0508"),))
    with pytest.raises(Refusal) as refused:
        _day(state, (Order(formation_id="air", action="intercept"),), ())
    assert refused.value.code == "not_at_location"


def _battle_at_facility(loyal_unrest: int) -> tuple[CampaignState, list[Event]]:
    """Bravo lands on Alpha in the Combat Systems Manufacturing Facility (1105)."""
    state = _world((FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF",), hex="1105"),))
    assert state.strategic is not None
    unrest = {"loyalist": loyal_unrest, "rebel": 7}
    state = replace(state, strategic=replace(state.strategic, unrest=unrest))
    return _day(
        state,
        (Order(formation_id="a", action="guard"),),
        (Order(formation_id="b", action="orbital_insertion", target="1105"),),
    )


@pytest.mark.parametrize(
    ("level", "kind", "times"), [(2, "supportive", 2), (3, "supportive", 1), (10, "angry", 1),
                                 (12, "angry", 2)],
)  # fmt: skip
def test_a_battle_in_a_population_centre_raises_mobs(level: int, kind: str, times: int) -> None:
    state, events = _battle_at_facility(level)
    (mob,) = [e for e in events if isinstance(e, ev.MobsRaised)]
    (roll,) = mob.rolls
    assert roll.name.startswith("mobs, loyalist, battle") and roll.sides == 3
    assert (mob.force, mob.kind, mob.cause) == ("loyalist", kind, "battle")
    assert (
        mob.count == roll.total * times and mob.location == "Combat Systems Manufacturing Facility"
    )
    assert not ev.is_private(mob)
    assert state.strategic is not None
    (eng,) = state.strategic.engagements
    assert mob.engagement_id == eng.engagement_id
    assert any(n.startswith("Mobs (line") and f"{mob.count} {kind} mob(s)" in n for n in eng.notes)


def test_neutral_forces_raise_no_mobs_and_roll_no_die() -> None:
    _, events = _battle_at_facility(7)
    assert not [e for e in events if isinstance(e, ev.MobsRaised)]
    assert not [r for e in events for r in e.rolls if r.name.startswith("mobs")]


def test_a_day_without_orders_breaks_the_week_of_peacekeeping() -> None:
    # L215: "Each week of peacekeeping in a civilian centre roll 1D6"; ruling T-U3: on each
    # seventh consecutive day. Three days, a day without an order, four days: no week yet.
    state = _world((FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF",), hex="1105"),))
    rolls: list[str] = []
    for day in range(1, 12):
        orders = () if day == 4 else (Order(formation_id="a", action="peacekeeping"),)
        state, events = _day(state, orders, ())
        rolls += [f"day {day}" for e in events if isinstance(e, ev.MobsRaised)]
        rolls += [f"day {day}" for e in events for r in e.rolls if r.name.startswith("peace")]
        assert state.strategic is not None
        streak = state.strategic.formations["a"].action_streak
        assert streak == (("", 0) if day == 4 else ("peacekeeping", day if day < 4 else day - 4))
    assert rolls == ["day 11"]  # days 5-11 are the first seven running


def test_a_week_of_peacekeeping_raises_mobs() -> None:
    state = _world((FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF",), hex="1105"),))
    assert state.strategic is not None
    state = replace(state, strategic=replace(state.strategic, unrest={"loyalist": 10}))
    mobs: list[ev.MobsRaised] = []
    for day in range(1, 8):
        state, events = _day(state, (Order(formation_id="a", action="peacekeeping"),), ())
        found = [e for e in events if isinstance(e, ev.MobsRaised)]
        assert len(found) == (1 if day == 7 else 0)  # the week's peacekeeping resolves on day 7
        mobs += found
    (mob,) = mobs
    assert (mob.kind, mob.cause, mob.engagement_id) == ("angry", "peacekeeping", "")
    assert 1 <= mob.count <= 3
