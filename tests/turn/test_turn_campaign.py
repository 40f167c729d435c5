"""Nine days on the Ginestra map, checked day by day against values worked out by hand.

Set-up (seed "ginestra-test"; the dice are the campaign's hash dice, their faces read from the
events and the consequences worked out from the rule text below):

Starting weather (2d6 + region climate, lines 374-383):
  Arda Valley (climate -1):       3+2=5, -1 -> 4   -> row 2-6  "Clear, no cloud"      (level 0)
  Castell'Arquato (0):            6+2=8           -> row 8    "Clear - Medium Cloud" (level 2)
  Eastern Highlands (+2):         4+6=10, +2 -> 12 -> row 12   "Stormy" (level 6);
                                  storm roll 3+4=7 < 8: no lightning, no tornado
  Southern Marshes (+1):          5+5=10, +1 -> 11 -> row 11   "Heavy Rain" (level 5)

Formations: loyalist (defender, placed in secret) alpha = Griffin, Wolverine, Shadow Hawk
(walk 5) and Locust (walk 8) at Bagnorgeio 0508: speed 5 -> 3 MP (line 185); militia = one
Maxim hover (cruise 8 -> 4 MP, line 186) and air = one Rapier, both at the Space Port 0610.
Rebel (attacker, at the pirate point): bravo = Jenner 7, Marauder 4, Atlas 3 -> speed 3 ->
2 MP (line 184); tanks = one Bulldog (tracked, cruise 4 -> 2 MP).

Day 1: alpha moves 0607, 0707, 0806 along the Northern Highway (1 MP each on the road, 3 of
  3). militia moves 0711, 0811, 0912, 1012 on the Southern Road (hover on a road: 1 MP each,
  4 of 4). bravo lands in 1612 and tanks in 1712 (free orbital insertion, line 208).
  No two enemies share or swap a hex: no encounter. Rations: alpha and militia left their
  supply dumps (day 1 on rations); tanks stand in the rebels' Forward Deployment Base, which
  has a supply dump (0).
  Sensors: the Manufacturing Facility's Medium DropPort brings a Deep Space Array (line 274)
  watching Arda Valley and the two sectors bordering it longest, Castell'Arquato and the Eastern
  Highlands (hexmap ruling R7): both landings (1612 and 1712, Eastern Highlands) are detected
  and the loyalists see "something" there (presence). The satellite access rolls (2d6, 9+,
  line 270): loyalist 2+1=3, rebel 2+3=5, neither gets through.
Day 2: alpha 0906, 1005, 1105 (road, 3 MP) into the Manufacturing Facility. militia 1113,
  1212, 1313, 1412 (road, 4 MP); bravo 1512, 1412 (road, 2 MP). Step 1: militia 1113, bravo
  1512; step 2: militia 1212, bravo 1412 (its path ends there); step 3: militia 1313; step 4:
  militia enters 1412 where bravo stands: a same-hex encounter in 1412 (line 280), both
  moving: a meeting engagement (line 293). tanks loot the Forward Deployment Base: 1D6 = 6
  -> 600 WP into its pool (1000 -> 1600) and rebel unrest in the Forward Deployment Base
  7 -> 9 (line 218: "+2 Unrest"; ruling T-U6: the town they looted keeps its own rating, the
  rebels' rating everywhere else stays 7).
  Arrival turns (lines 297-303): bravo's lance walks 3 -> turn 3; the Maxim's 8 -> turn 3.
  Objectives from the orders: militia breakthrough, bravo hold the line.
  Strategic VP: alpha (4 units, a lance) holds the Manufacturing Facility unopposed: loyalist
  1 VP (line 426); the rebels hold their base with one tank, less than a lance: 0.
Days 3-9: alpha keeps peacekeeping in the Facility; militia and bravo stay in 1412, so the
  meeting is set up again every day until the battle is fought.
Day 7: seven days without maintenance (line 199) for every formation: a location and a
  critical roll per unit, except the Griffin GRF-1N (Rugged). No location roll is a 2 (the
  floating critical), so each unit rolls exactly one critical. This small force keeps no unit
  designs, so what a critical roll would hit is noted for the referee (ruling T-DM5).
Day 8: the weekly weather change (lines 384-391): Arda Valley 5+4=9, Castell'Arquato 5+3=8 and
  Eastern Highlands 4+2=6 "No change" (the stormy row rolls its storm again: 4+3=7, none);
  Southern Marshes 2+1=3 "Move 1 place up": Heavy Rain (level 5) -> Medium Rain (level 4).
Day 9: the seventh day of alpha's peacekeeping: 1D6 = 4, on 4-6 unrest falls by 1 (line 215):
  loyalist unrest in the Manufacturing Facility, where alpha keeps the peace, 7 -> 6 (ruling
  T-U6: elsewhere it stays 7).
"""

from __future__ import annotations

from turn_world import REFEREE, placed, run, started

from mekref.rules.messages import Event
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec

Order = FormationOrder
PLAN: dict[int, tuple[tuple[FormationOrder, ...], tuple[FormationOrder, ...]]] = {
    1: (
        (
            Order(formation_id="alpha", action="move", path=("0607", "0707", "0806")),
            Order(formation_id="militia", action="move", path=("0711", "0811", "0912", "1012")),
            Order(formation_id="air", action="guard"),
        ),
        (
            Order(formation_id="bravo", action="orbital_insertion", target="1612"),
            Order(formation_id="tanks", action="orbital_insertion", target="1712"),
        ),
    ),
    2: (
        (
            Order(formation_id="alpha", action="move", path=("0906", "1005", "1105")),
            Order(
                formation_id="militia",
                action="move",
                path=("1113", "1212", "1313", "1412"),
                params=(("objective", "breakthrough"),),
            ),
            Order(formation_id="air", action="overflight", target="1012"),
        ),
        (
            Order(
                formation_id="bravo",
                action="move",
                path=("1512", "1412"),
                params=(("objective", "hold_the_line"),),
            ),
            Order(formation_id="tanks", action="looting", params=(("pool", "fdb"),)),
        ),
    ),
}
QUIET = (
    (Order(formation_id="alpha", action="peacekeeping"),),
    (Order(formation_id="tanks", action="rest"),),
)


def _setup() -> CampaignState:
    state = started()
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
    return placed(
        state,
        (
            FormationSpec(
                formation_id="alpha",
                name="Alpha Lance",
                unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"),
                hex="0508",
            ),
            FormationSpec(formation_id="militia", name="Militia", unit_ids=("L-MAX",), hex="0610"),
            FormationSpec(formation_id="air", name="Air", unit_ids=("L-RPR",), hex="0610"),
        ),
        (
            FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7", "R-MAD", "R-AS7")),
            FormationSpec(formation_id="tanks", name="Tanks", unit_ids=("R-BLD",)),
        ),
    )


def _play() -> list[tuple[CampaignState, list[Event]]]:
    state = _setup()
    days = []
    for day in range(1, 10):
        loyal, rebel = PLAN.get(day, QUIET)
        state, events = run(
            state,
            SubmitOrders(actor="loyalist", side_id="loyalist", day=day, orders=loyal),
            SubmitOrders(actor="rebel", side_id="rebel", day=day, orders=rebel),
            ResolveTurn(actor=REFEREE, day=day),
        )
        days.append((state, events))
    return days


DAYS = _play()


def _positions(state: CampaignState) -> dict[str, str]:
    assert state.strategic is not None
    return {fid: f.hex for fid, f in state.strategic.formations.items()}


def _of(events: list[Event], kind: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def test_starting_weather_by_region() -> None:
    state = _setup()
    assert state.strategic is not None
    levels = {name: (w.level, w.storm) for name, w in state.strategic.weather.items()}
    assert levels == {
        "Arda Valley": (0, ""),
        "Castell'Arquato": (2, ""),
        "Eastern Highlands": (6, ""),
        "Southern Marshes": (5, ""),
    }


def test_positions_day_by_day() -> None:
    expected = {
        1: {"alpha": "0806", "militia": "1012", "air": "0610", "bravo": "1612", "tanks": "1712"},
        2: {"alpha": "1105", "militia": "1412", "air": "0610", "bravo": "1412", "tanks": "1712"},
    }
    for day, want in expected.items():
        assert _positions(DAYS[day - 1][0]) == want, day
    for day in range(3, 10):
        assert _positions(DAYS[day - 1][0]) == expected[2], day


def test_encounters_day_by_day() -> None:
    assert _of(DAYS[0][1], ev.EngagementDetermined) == []
    for day in range(2, 10):
        (found,) = _of(DAYS[day - 1][1], ev.EngagementDetermined)
        assert isinstance(found, ev.EngagementDetermined)
        e = found.engagement
        assert (e.hex, e.kind, e.formations) == ("1412", "meeting", ("bravo", "militia"))
        assert {(a.formation_id, a.walk_mp, a.turn) for a in e.arrivals} == {
            ("bravo", 3, 3),
            ("militia", 8, 3),
        }
    first = _of(DAYS[1][1], ev.EngagementDetermined)[0]
    assert isinstance(first, ev.EngagementDetermined)
    assert first.engagement.objectives == (("loyalist", "breakthrough"), ("rebel", "hold_the_line"))


def test_weather_changes_on_day_eight_only() -> None:
    for day in range(1, 10):
        (rolled,) = _of(DAYS[day - 1][1], ev.WeatherRolled)
        assert isinstance(rolled, ev.WeatherRolled)
        assert rolled.weekly_change is (day == 8), day
    rolled = _of(DAYS[7][1], ev.WeatherRolled)[0]
    assert isinstance(rolled, ev.WeatherRolled)
    faces = {r.name: r.faces for r in rolled.rolls}
    assert faces["weather change, Southern Marshes"] == (2, 1)
    assert faces["weather change, Arda Valley"] == (5, 4)
    assert {w.region: w.level for w in rolled.regions} == {
        "Arda Valley": 0,
        "Castell'Arquato": 2,
        "Eastern Highlands": 6,
        "Southern Marshes": 4,
    }


def test_unrest_day_by_day() -> None:
    """Per population centre (ruling T-U6): (loyalists in the Facility, rebels in their base);
    each force's rating everywhere else stays 7."""
    from mekref.rules.tripwire.turn.unrest import rating

    expected = {1: (7, 7), 2: (7, 9)} | {d: (7, 9) for d in range(3, 9)} | {9: (6, 9)}
    for day, (loyal, rebel) in expected.items():
        s = DAYS[day - 1][0].strategic
        assert s is not None
        in_facility = rating(
            s.unrest, s.local_unrest, "loyalist", "Combat Systems Manufacturing Facility"
        )
        in_base = rating(s.unrest, s.local_unrest, "rebel", "Forward Deployment Base")
        assert (in_facility, in_base) == (loyal, rebel), day
        assert (s.unrest["loyalist"], s.unrest["rebel"]) == (7, 7), day
        assert rating(s.unrest, s.local_unrest, "rebel", "Bagnorgeio") == 7
    loot = _of(DAYS[1][1], ev.LocationLooted)[0]
    assert isinstance(loot, ev.LocationLooted)
    assert (loot.rolls[0].faces, loot.wp) == ((6,), 600)
    assert DAYS[1][0].pools["fdb"].balance == 1600


def test_maintenance_missed_on_day_seven_spares_the_rugged_griffin() -> None:
    missed = {
        e.formation_id: e
        for e in _of(DAYS[6][1], ev.MaintenanceMissed)
        if isinstance(e, ev.MaintenanceMissed)
    }
    assert set(missed) == {"air", "alpha", "bravo", "militia", "tanks"}
    assert missed["alpha"].exempt == ("L-GRF",)
    assert [r.name for r in missed["tanks"].rolls] == [
        "maintenance location (front), R-BLD",
        "maintenance critical, R-BLD",
    ]
    for e in missed.values():
        assert len(e.rolls) == 2 * len(e.unit_ids)  # no location roll of 2
    assert _of(DAYS[6][1], ev.UnitDamageRolled) == []
    notes = [n for e in _of(DAYS[6][1], ev.FormationsUpdated) for n in getattr(e, "notes", ())]
    for uid in missed["tanks"].unit_ids + missed["bravo"].unit_ids:
        assert any(n.startswith(f"{uid} (") and "keeps no design" in n for n in notes), uid
    for day in (1, 2, 3, 4, 5, 6, 8, 9):
        assert _of(DAYS[day - 1][1], ev.MaintenanceMissed) == [], day


def test_landings_seen_by_a_deep_space_array() -> None:
    s = DAYS[0][0].strategic
    assert s is not None
    assert [(x.formation_id, x.hex, x.info) for x in s.sightings["loyalist"]] == [
        ("bravo", "1612", "presence"),
        ("tanks", "1712", "presence"),
    ]
    assert s.sightings["rebel"] == ()
    (loyal,) = [
        e for e in _of(DAYS[0][1], ev.SightingsMade) if getattr(e, "side_id", "") == "loyalist"
    ]
    assert [(r.name, r.total) for r in loyal.rolls] == [("satellite access, loyalist", 3)]


def test_strategic_vp_for_a_garrisoned_location() -> None:
    s = DAYS[1][0].strategic
    assert s is not None
    assert s.vp == {"loyalist": 1, "rebel": 0}
    assert s.ended == ""


def test_replaying_the_log_gives_the_same_state() -> None:
    from mekref.rules.tripwire.state import state_from_text, state_to_text

    state = _setup()
    log: list[Event] = []
    for _, events in DAYS:
        log += events
    replayed = TRIPWIRE.fold(log, state)
    assert TRIPWIRE.state_hash(replayed) == TRIPWIRE.state_hash(DAYS[-1][0])
    assert state_from_text(state_to_text(replayed)) == replayed
