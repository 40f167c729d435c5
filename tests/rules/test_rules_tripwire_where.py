"""Repair, re-arm, reconfigure and heal only where the unit (person) stands: rulings R-WHERE-1
to R-WHERE-4 on the rules engine, on the Ginestra map.

L57: "Each force has a supply of WarChest Points associate with each Location they control, or
each DropShip or Baggage Train." L58: "Repair and Rearm actions may only be taken when WarChest
Points are available from that location." L63: "To perform repair, reload or reconfigure actions
requires the presence of a technician present in that strategic hex." L64: "Each Technician can
work 6 hours a day." L66: "Repairs to Internal Structure requires a repair facility either at a
location or in a DropShip bay." L126: "Damage of 3 or more hits ... requires access to a MASH
unit or Hospital."
"""

from __future__ import annotations

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from mekref.rules.messages import Command, RefereeNote, event_text
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import UnitDamage
from mekref.rules.tripwire.battle_spending import (
    HealVehicleCrew,
    ReconfigureUnit,
    RepairTask,
    RepairUnit,
    UnitReconfigured,
    UnitRepaired,
)
from mekref.rules.tripwire.commands import (
    CreateCampaign,
    HealPerson,
    ImportForce,
    OpenPool,
    SetPersonHits,
    SideSpec,
)
from mekref.rules.tripwire.events import PersonHealed, PoolOpened
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.model import UnitKind, UnitRole
from mekref.rules.tripwire.repair import AmmoUse, LocationDamage
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn.orders import ResolveTurn
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations, StartStrategicMap
from mekref.rules.tripwire.turn.state import UnitMobility
from mekref.rules.tripwire.whereabouts import book_hours

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the turn tests' world
world = pytest.importorskip("turn.turn_world")

NOTE = RefereeNote(referee="Ann", reason="she saw the MASH truck with the lance")
CITY = "0508"  # Bagnorgeio: hospital, repair_bm, repair_cv (held by the loyalists)
PORT = "0610"  # Bagnorgeio Space Port: repair_af, repair_ds, no hospital
FIELD = "0812"  # open ground, no location
# (unit id, chassis, model, kind, tons, bv, walk, mode, lance, piloting)
EXTRA = (
    ("L-INF", "Foot Platoon", "(Rifle)", UnitKind.CONVENTIONAL_INFANTRY, 3, 100, 1, "leg",
     "Militia", 5),
    ("L-UNI", "Union", "(2708)", UnitKind.DROPSHIP, 3500, 5000, 3, "dropship", "Air", 4),
)  # fmt: skip
#: A 55-ton 'Mech: Center Torso armor 16 of 20; Left Leg armor 4 of 10, internal 6 of 8; one
#: ton of LRM fired.
DAMAGED = UnitDamage(
    locations=(
        LocationDamage(name="Center Torso", armor_max=20, armor_now=16, internal_max=10,
                       internal_now=10, is_center_torso=True),
        LocationDamage(name="Left Leg", armor_max=10, armor_now=4, internal_max=8, internal_now=6),
    ),
    ammo_used=(AmmoUse(ammo_type="IS Ammo LRM-10", tons=Fraction(1)),),
)  # fmt: skip


def setup_commands(*formations: tuple[str, str, tuple[str, ...]]) -> tuple[Command, ...]:
    """The Ginestra campaign with the loyalists' formations ``(id, hex, units)`` placed, pools at
    Bagnorgeio ("city") and the Space Port ("port"), a 50 WP cargo pool carried by the Maxim
    ("cargo")."""
    loyal = (*world.LOYALIST, *EXTRA)
    mobility = (
        *world.mobility(),
        UnitMobility(unit_id="L-INF", walk_mp=1, mode="leg"),
        UnitMobility(unit_id="L-UNI", walk_mp=3, mode="dropship"),
    )
    return (
        CreateCampaign(actor="ref", name="Ginestra", ruleset="tripwire", seed="where",
                       sides=(SideSpec(side_id="loyalist", name="Loyalists"),
                              SideSpec(side_id="rebel", name="Rebels"))),
        ImportForce(actor="ref", side_id="loyalist", force=world._force(loyal),
                    accept_unchecked=world.NOTE),
        ImportForce(actor="ref", side_id="rebel", force=world._force(world.REBEL),
                    accept_unchecked=world.NOTE),
        OpenPool(actor="ref", pool_id="city", side_id="loyalist", name="City chest",
                 kind=PoolKind.LOCATION, location="Bagnorgeio"),
        OpenPool(actor="ref", pool_id="port", side_id="loyalist", name="Port chest",
                 kind=PoolKind.LOCATION, location="Bagnorgeio Space Port"),
        OpenPool(actor="ref", pool_id="cargo", side_id="loyalist", name="Maxim cargo",
                 kind=PoolKind.CARGO, cargo_tons=Fraction(10), opening_balance=50),
        StartStrategicMap(actor="ref", map_name="ginestra", attacker="rebel",
                          defender="loyalist", mobility=mobility,
                          control=(("Bagnorgeio", "loyalist"),
                                   ("Bagnorgeio Space Port", "loyalist")),
                          transports=(("cargo", "L-MAX"),)),
        PlaceFormations(actor="loyalist", side_id="loyalist", day=1, formations=tuple(
            FormationSpec(formation_id=fid, name=fid, unit_ids=units, hex=hex_)
            for fid, hex_, units in formations)),
    )  # fmt: skip


def _world(*formations: tuple[str, str, tuple[str, ...]]) -> CampaignState:
    """:func:`setup_commands`, then the Griffin, Wolverine, Shadow Hawk and platoon damaged."""
    state, _ = world.run(CampaignState(), *setup_commands(*formations))
    damage = {u: DAMAGED for u in ("L-GRF", "L-WVR", "L-SHD", "L-INF")}
    return replace(state, battles=replace(state.battles, unit_damage=damage))


def _repair(unit: str, pool: str, task: RepairTask = RepairTask.ARMOR) -> RepairUnit:
    return RepairUnit(actor="loyalist", unit_id=unit, pool_id=pool, task=task)


def _refused(state: CampaignState, cmd: object, code: str) -> str:
    with pytest.raises(Refusal) as caught:
        world.run(state, cmd)
    assert caught.value.code == code, str(caught.value)
    assert "\n" not in str(caught.value)  # one line
    return str(caught.value)


def test_l58_the_paying_pool_is_where_the_unit_stands() -> None:
    # L58: "Repair and Rearm actions may only be taken when WarChest Points are available from
    # that location."
    state = _world(("city", CITY, ("L-GRF",)), ("field", FIELD, ("L-SHD", "L-MAX")))
    why = _refused(state, _repair("L-SHD", "city"), "pool_elsewhere")
    assert "L58 'Repair and Rearm actions may only be taken when WarChest Points" in why
    assert "'City chest' is in hex 0508" in why and "hex 0812" in why and "cargo" in why
    # Allowed: the cargo the Maxim carries stands in the same hex; the city pays in the city.
    after, events = world.run(state, _repair("L-SHD", "cargo"), _repair("L-GRF", "city"))
    assert [e.at_hex for e in events if isinstance(e, UnitRepaired)] == [FIELD, CITY]
    assert after.pools["cargo"].balance < 50 and after.pools["city"].balance < 1000
    # Re-arming too (L58 "Repair and Rearm").
    _refused(state, _repair("L-SHD", "port", RepairTask.REARM), "pool_elsewhere")


def test_l63_a_technician_must_be_in_the_hex() -> None:
    # L63: "To perform repair, reload or reconfigure actions requires the presence of a
    # technician present in that strategic hex. ... Each BattleMech, AeroSpace Fighter, Vehicle
    # and BattleArmor Squad are considered to have 1 technician."
    alone = _world(("foot", FIELD, ("L-INF",)), ("max", "0912", ("L-MAX",)))
    why = _refused(alone, _repair("L-INF", "city", RepairTask.REARM), "no_technician")
    assert "L63 'To perform repair, reload or reconfigure actions requires the presence" in why
    # With the Maxim (a vehicle: one technician) and its cargo beside the platoon, allowed.
    state = _world(("foot", FIELD, ("L-INF", "L-MAX")))
    _, (event,) = world.run(state, _repair("L-INF", "cargo", RepairTask.REARM))
    assert isinstance(event, UnitRepaired) and event.work_days == ((1, 1),)
    # Reconfiguring needs one too; with it, the 1-hour task is booked (L71).
    omni = _world(("city", CITY, ("L-GRF",)))
    cmd = ReconfigureUnit(actor="l", unit_id="L-GRF", pool_id="city", configuration="B", bv=9)
    with pytest.raises(Refusal, match="not an omni"):
        world.run(omni, cmd)
    grf = replace(omni.units["L-GRF"], roles=frozenset({UnitRole.OMNI}))
    _, (done,) = world.run(replace(omni, units={**omni.units, "L-GRF": grf}), cmd)
    assert isinstance(done, UnitReconfigured) and done.work_days == ((1, 1),)


def test_l64_work_that_does_not_fit_the_day_waits_for_the_next() -> None:
    # L64: "Each Technician can work 6 hours a day." The Griffin alone: 1 technician, 6 hours.
    # Reload 1 h + armor 3 h fill 4 hours of day 1; the internal repair's 6 hours take the 2
    # left on day 1 and 4 on day 2.
    state = _world(("city", CITY, ("L-GRF",)))
    after, events = world.run(
        state,
        _repair("L-GRF", "city", RepairTask.REARM),
        _repair("L-GRF", "city", RepairTask.ARMOR),
        _repair("L-GRF", "city", RepairTask.INTERNAL),
    )
    assert [e.work_days for e in events if isinstance(e, UnitRepaired)] == [
        ((1, 1),), ((1, 3),), ((1, 2), (2, 4))
    ]  # fmt: skip
    assert after.strategic is not None
    assert after.strategic.workshops == {f"loyalist@{CITY}": (2, 4)}
    assert after.strategic.repair_ready == {"L-GRF": 2}
    # Two technicians (the Wolverine beside it): 12 hours a day, all on day 1.
    pair = _world(("city", CITY, ("L-GRF", "L-WVR")))
    _, events = world.run(
        pair,
        _repair("L-GRF", "city", RepairTask.REARM),
        _repair("L-GRF", "city", RepairTask.ARMOR),
        _repair("L-GRF", "city", RepairTask.INTERNAL),
    )
    assert [e.work_days for e in events if isinstance(e, UnitRepaired)] == [
        ((1, 1),), ((1, 3),), ((1, 6),)
    ]  # fmt: skip


def test_the_worked_example_in_campaign_md() -> None:
    """docs/campaign.md, "a Griffin's bill over two days": two technicians (12 hours a day),
    37 SP and 13 hours, the last hour on day 2."""
    state = _world(("city", CITY, ("L-GRF", "L-WVR")))
    tasks = (RepairTask.REARM, RepairTask.ARMOR, RepairTask.INTERNAL, RepairTask.ARMOR)
    after, events = world.run(state, *(_repair("L-GRF", "city", t) for t in tasks))
    done = [e for e in events if isinstance(e, UnitRepaired)]
    assert [(e.cost_sp, e.tech_hours, e.work_days) for e in done] == [
        (5, 1, ((1, 1),)), (8, 3, ((1, 3),)), (13, 6, ((1, 6),)), (11, 3, ((1, 2), (2, 1)))
    ]  # fmt: skip
    assert after.pools["city"].balance == 963
    assert after.strategic is not None and after.strategic.repair_ready == {"L-GRF": 2}
    alone = _world(("city", CITY, ("L-GRF",)))
    _, events = world.run(alone, *(_repair("L-GRF", "city", t) for t in tasks))
    assert [e.work_days for e in events if isinstance(e, UnitRepaired)] == [
        ((1, 1),), ((1, 3),), ((1, 2), (2, 4)), ((2, 2), (3, 1))
    ]  # fmt: skip


def test_the_report_shows_the_ready_day_and_the_technicians_booked_days() -> None:
    """L64: "Each Technician can work 6 hours a day": the work that waits is in the books."""
    from mekref.daemon.tripwire.cli_report import build_report

    state = _world(("city", CITY, ("L-GRF",)))
    tasks = (RepairTask.REARM, RepairTask.ARMOR, RepairTask.INTERNAL)
    after, _ = world.run(state, *(_repair("L-GRF", "city", t) for t in tasks))
    report = build_report(after, [], "loyalist")
    (grf,) = [u for u in report["units"] if u["id"] == "L-GRF"]
    assert grf["repair_ready_day"] == 2
    assert grf["repair_work"] == [{"day": 1, "hours": 6}, {"day": 2, "hours": 4}]
    assert report["technicians"] == [
        {"side": "loyalist", "hex": CITY, "last_day": 2, "hours": 4, "technicians": 1,
         "hours_per_day": 6}
    ]  # fmt: skip
    assert build_report(after, [], "rebel")["technicians"] == []  # not the other side's
    before = build_report(state, [], None)
    assert all(u["repair_ready_day"] is None for u in before["units"])


def test_the_technician_day_books_hours_in_order() -> None:
    assert book_hours(1, None, 6, 10) == ((1, 6), (2, 4))
    assert book_hours(3, (2, 5), 6, 2) == ((3, 2),)  # yesterday's work does not carry over
    assert book_hours(1, (1, 6), 6, 1) == ((2, 1),)  # a full day: the next one
    assert book_hours(1, (2, 5), 12, 8) == ((2, 7), (3, 1))


def test_l66_internal_structure_needs_a_repair_facility_or_a_dropship_bay() -> None:
    # L66: "Repairs to Internal Structure requires a repair facility either at a location or in
    # a DropShip bay." L277: "DropShip bays include repair facilities."
    state = _world(("field", FIELD, ("L-SHD", "L-MAX")), ("city", CITY, ("L-GRF",)))
    why = _refused(state, _repair("L-SHD", "cargo", RepairTask.INTERNAL), "needs_repair_facility")
    assert "L66 'Repairs to Internal Structure requires a repair facility" in why
    # Armor in the field is allowed ("Repairs to Armour ... in the field with only technicians").
    world.run(state, _repair("L-SHD", "cargo"))
    # The city's 'Mech bay (repair_bm) serves the Griffin.
    world.run(state, _repair("L-GRF", "city", RepairTask.INTERNAL))
    # The Space Port has bays for fighters and DropShips, not 'Mechs (L277 "Repair (Type)").
    port = _world(("port", PORT, ("L-GRF",)))
    assert "repair_bm" in _refused(
        port, _repair("L-GRF", "port", RepairTask.INTERNAL), "needs_repair_facility"
    )
    # A DropShip of the side in the hex brings its bay.
    bay = _world(("field", FIELD, ("L-SHD", "L-MAX", "L-UNI")))
    _, (event,) = world.run(bay, _repair("L-SHD", "cargo", RepairTask.INTERNAL))
    assert isinstance(event, UnitRepaired) and event.at_hex == FIELD


def test_l126_three_hits_need_a_hospital_where_the_person_is() -> None:
    # L126: "Damage of 1 or 2 hits can be treated in the field by first aid. Damage of 3 or more
    # hits (or a Crew/Driver injured result for a vehicle) requires access to a MASH unit or
    # Hospital." L276: "Hospitals are required to heal MechWarrior damage of 3 or higher".
    state = _world(("city", CITY, ("L-GRF",)), ("field", FIELD, ("L-SHD", "L-MAX")))
    state, _ = world.run(
        state,
        SetPersonHits(actor="ref", person_id="P-L-SHD", hits=3, override=world.NOTE),
        SetPersonHits(actor="ref", person_id="P-L-GRF", hits=3, override=world.NOTE),
    )
    heal = HealPerson(actor="l", person_id="P-L-SHD", pool_id="cargo")
    why = _refused(state, heal, "needs_hospital")
    assert "L126 'Damage of 3 or more hits" in why and "hex 0812" in why
    # In Bagnorgeio (a hospital, held by the loyalists), paid by the city chest: allowed.
    after, _ = world.run(state, HealPerson(actor="l", person_id="P-L-GRF", pool_id="city"))
    assert after.people["P-L-GRF"].hits == 2
    # ... but not from a pool elsewhere (R-WHERE-2).
    _refused(state, HealPerson(actor="l", person_id="P-L-GRF", pool_id="cargo"), "pool_elsewhere")
    # A vehicle crew hit always needs one (L126 "or a Crew/Driver injured result").
    crew = replace(state, battles=replace(state.battles, crew_damage={"L-MAX": 1}))
    _refused(crew, HealVehicleCrew(actor="l", unit_id="L-MAX", pool_id="cargo"), "needs_hospital")
    # First aid in the field for 2 hits: allowed, from the pool in the hex.
    state, _ = world.run(
        state, SetPersonHits(actor="ref", person_id="P-L-SHD", hits=2, override=world.NOTE)
    )
    world.run(state, heal)


def test_ruling_r_heal_4_a_hospital_heals_one_wound_a_day() -> None:
    """R-HEAL-4. L276: "Hospitals are required to heal MechWarrior damage of 3 or higher and
    allow for 1 wound to be healed per day/Strategic Turn"; L123: "Only 1 hit can be healed per
    Track". At a hospital the paid heal is once a strategic day, whatever the tracks; in the
    field once a track; never twice in one day."""
    state = _world(("city", CITY, ("L-GRF",)), ("field", FIELD, ("L-SHD", "L-MAX")))
    state, _ = world.run(
        state,
        SetPersonHits(actor="ref", person_id="P-L-GRF", hits=4, override=world.NOTE),
        SetPersonHits(actor="ref", person_id="P-L-SHD", hits=2, override=world.NOTE),
    )
    at_hospital = HealPerson(actor="l", person_id="P-L-GRF", pool_id="city")
    state, (healed,) = world.run(state, at_hospital)
    assert isinstance(healed, PersonHealed) and healed.day == 1 and healed.cost_sp == 100
    # The same day: refused, naming the next day.
    why = _refused(state, at_hospital, "healed_today")
    assert "L276 'Hospitals are required" in why and "day 2" in why
    # In the field (2 hits, first aid): once, then not again this track.
    field_heal = HealPerson(actor="l", person_id="P-L-SHD", pool_id="cargo")
    state, _ = world.run(state, field_heal)
    state = replace(
        state, people={**state.people, "P-L-SHD": replace(state.people["P-L-SHD"], hits=2)}
    )
    rebels = PlaceFormations(
        actor="rebel",
        side_id="rebel",
        day=1,
        formations=(
            FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7",), hex=""),
        ),
    )
    state, _ = world.run(state, rebels, ResolveTurn(actor="ref", day=1))
    assert state.strategic is not None and state.strategic.day == 2
    # Day 2, no track fought since: the hospital heals again (3 hits -> 2, 60 SP) ...
    state, (again,) = world.run(state, at_hospital)
    assert isinstance(again, PersonHealed) and again.day == 2 and again.hits_after == 2
    assert again.track == healed.track  # the same track: only the hospital allows it
    # ... the field does not (L123).
    why = _refused(state, field_heal, "healed_this_track")
    assert "L123" in why and "R-HEAL-4" in why


def test_ruling_without_a_map_position_only_the_referees_word_allows_the_work() -> None:
    """R-WHERE-1: no strategic map, a unit in no formation, an unassigned person or a captive:
    refused, naming what to do; the referee's word (who and why) is recorded in the event; the
    facility flags are that word, never taken on trust."""
    state = _world(("city", CITY, ("L-GRF",)))
    no_map = replace(state, strategic=None)
    why = _refused(no_map, _repair("L-GRF", "city"), "no_position")
    assert "no strategic map" in why and "--referee NAME --reason TEXT" in why
    _, (event,) = world.run(no_map, replace(_repair("L-GRF", "city"), note=NOTE))
    assert isinstance(event, UnitRepaired) and event.note == NOTE and event.at_hex is None
    assert event.work_days == ()
    # The Wolverine was placed in no formation.
    assert "in no formation" in _refused(state, _repair("L-WVR", "city"), "no_position")
    # A flag alone is refused; with the referee's word it stands, even against the map.
    internal = replace(_repair("L-GRF", "city", RepairTask.INTERNAL), at_repair_facility=True)
    _refused(no_map, internal, "override_needs_referee")
    with pytest.raises(Refusal, match="add --repair-facility"):
        world.run(no_map, replace(internal, at_repair_facility=False, note=NOTE))
    world.run(no_map, replace(internal, note=NOTE))
    # A captive is not where his side's pools are.
    captive = replace(state, battles=replace(state.battles, captured_people={"P-L-GRF": "rebel"}))
    captive, _ = world.run(
        captive, SetPersonHits(actor="ref", person_id="P-L-GRF", hits=1, override=world.NOTE)
    )
    heal = HealPerson(actor="l", person_id="P-L-GRF", pool_id="city")
    assert "held captive by side rebel" in _refused(captive, heal, "no_position")
    world.run(captive, replace(heal, note=NOTE))


def test_ruling_where_each_pool_is() -> None:
    """R-WHERE-2: a location pool is at its location; a transport's pool with its carrier; one
    without a recorded carrier is nowhere the map shows."""
    state = _world(("field", FIELD, ("L-SHD", "L-MAX")))
    assert state.pools["city"].location == "Bagnorgeio"
    loose = replace(state, strategic=replace(state.strategic, transports={}))
    assert "no carrier recorded" in _refused(loose, _repair("L-SHD", "cargo"), "pool_elsewhere")


def test_ruling_facilities_of_a_location_the_side_holds() -> None:
    """R-WHERE-3: a location's facilities serve the side that holds it, while they stand."""
    state = _world(("city", CITY, ("L-GRF",)))
    assert state.strategic is not None
    lost = replace(state, strategic=replace(state.strategic, control={"Bagnorgeio": "rebel"}))
    _refused(lost, _repair("L-GRF", "city", RepairTask.INTERNAL), "needs_repair_facility")
    gone = replace(
        state, strategic=replace(state.strategic, destroyed={"Bagnorgeio": ("repair_bm",)})
    )
    _refused(gone, _repair("L-GRF", "city", RepairTask.INTERNAL), "needs_repair_facility")


def test_ruling_technician_hours_per_hex_and_day() -> None:
    """R-WHERE-4: each 'Mech, fighter, vehicle or BA squad of the side in the hex brings one
    technician; their hours are booked per side and hex, in order."""
    test_l64_work_that_does_not_fit_the_day_waits_for_the_next()


def test_old_events_and_commands_decode_and_keep_their_text() -> None:
    codec = TRIPWIRE.events
    old = {"type": "UnitRepaired", "unit_id": "u", "pool_id": "p", "task": "armor",
           "cost_sp": 3, "tech_hours": 3, "damage_after": {}, "actor": "a"}  # fmt: skip
    event = codec.from_json(old)
    assert isinstance(event, UnitRepaired) and event.work_days == () and event.note is None
    text = event_text(event)
    assert "work_days" not in text and "at_hex" not in text and "note" not in text
    pool = {"type": "PoolOpened", "pool_id": "p", "side_id": "s", "name": "n",
            "kind": "location", "balance": 1, "capacity": None, "actor": "a"}  # fmt: skip
    opened = codec.from_json(pool)
    assert isinstance(opened, PoolOpened) and opened.location is None
    assert '"location":' not in event_text(opened)


def test_the_console_script_heals_only_where_the_person_stands(tmp_path: Path) -> None:
    """L126 and L58 through the installed ``mekref``: the Shadow Hawk's pilot (3 hits, in the
    field) is refused, the Griffin's (3 hits, in Bagnorgeio) healed from the city's chest."""

    from console_script import mekref, start_tripwire

    db = str(tmp_path / "c.db")
    start, *rest = setup_commands(("city", CITY, ("L-GRF",)), ("field", FIELD, ("L-SHD",)))
    hits = [
        SetPersonHits(actor="ref", person_id=p, hits=3, override=world.NOTE)
        for p in ("P-L-SHD", "P-L-GRF")
    ]
    campaign = start_tripwire(tmp_path, (start, *rest, *hits))
    heal = ("spend", "heal", "--db", db, "--campaign", campaign)
    refused = mekref(*heal, "--person", "P-L-SHD", "--pool", "cargo")
    assert refused.returncode == 3
    assert "L126 'Damage of 3 or more hits" in refused.stderr and "hex 0812" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    elsewhere = mekref(*heal, "--person", "P-L-GRF", "--pool", "port")
    assert elsewhere.returncode == 3 and "L58 'Repair and Rearm" in elsewhere.stderr
    flag = mekref(*heal, "--person", "P-L-SHD", "--pool", "cargo", "--hospital")
    assert flag.returncode == 3 and "--referee NAME --reason TEXT" in flag.stderr
    healed = mekref(*heal, "--person", "P-L-GRF", "--pool", "city")
    assert healed.returncode == 0, healed.stderr
    assert "pool city (City chest): 940 WP" in healed.stdout  # "| 3 Hits | 60 |"
    # The referee's word, recorded: a MASH truck with the Shadow Hawk, paid by the port.
    vouched = mekref(*heal, "--person", "P-L-SHD", "--pool", "port", "--hospital",
                     "--referee", "Ann", "--reason", "MASH truck with the lance")  # fmt: skip
    assert vouched.returncode == 0, vouched.stderr
    assert "Ann" in vouched.stdout


def test_the_console_script_heals_at_the_hospital_once_a_day(tmp_path: Path) -> None:
    """R-HEAL-4 through the installed ``mekref``. L276: "Hospitals ... allow for 1 wound to be
    healed per day/Strategic Turn": the Griffin's pilot (4 hits, in Bagnorgeio's hospital) is
    healed on day 1, refused a second heal that day, healed again on day 2."""

    from console_script import mekref, start_tripwire

    db = str(tmp_path / "c.db")
    start, *rest = setup_commands(("city", CITY, ("L-GRF",)))
    later = (
        SetPersonHits(actor="ref", person_id="P-L-GRF", hits=4, override=world.NOTE),
        PlaceFormations(actor="rebel", side_id="rebel", day=1, formations=(
            FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7",), hex=""),)),
    )  # fmt: skip
    campaign = start_tripwire(tmp_path, (start, *rest, *later))
    heal = ("spend", "heal", "--db", db, "--campaign", campaign, "--person", "P-L-GRF",
            "--pool", "city")  # fmt: skip
    first = mekref(*heal)
    assert first.returncode == 0, first.stderr
    assert "pool city (City chest): 900 WP" in first.stdout  # "| 4 Hits | 100 |"
    second = mekref(*heal)
    assert second.returncode == 3
    assert "L276 'Hospitals are required" in second.stderr and "day 2" in second.stderr
    resolved = mekref("turn", "resolve", "--db", db, "--campaign", campaign, "--day", "1")
    assert resolved.returncode == 0, resolved.stderr
    third = mekref(*heal)
    assert third.returncode == 0, third.stderr
    assert "pool city (City chest): 840 WP" in third.stdout  # "| 3 Hits | 60 |"


def test_the_battle_bill_worked_in_campaign_md_over_two_days() -> None:
    """docs/campaign.md, "Worked example: a battle's bill with a half-ton bin, a battle armour
    bin and a Clan squad": the damage read from the battle file as `battle ingest` reads it,
    then paid in Bagnorgeio where the Bulldog and the Elementals stand (two technicians, L63;
    12 hours a day, L64): 32 SP and 17 hours, 12 on day 1 and 5 on day 2."""
    from mekref.adapters.megamek.blk_reader import parse_blk
    from mekref.adapters.megamek.condition import merge_condition
    from mekref.adapters.megamek.mul_model import Section
    from mekref.rules.tripwire.battle_damage import loadout_of, unit_damage
    from mekref.rules.tripwire.model import TechBase

    # The same battle files as the test of the bill's prices through the console script.
    files = pytest.importorskip("battle.test_battle_worked_bill")

    units = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "units"
    blk = {
        "L-BLD": ("Bulldog Medium Tank.blk", files.tank, UnitKind.COMBAT_VEHICLE),
        "L-ELM": ("Elemental Battle Armor [Laser](Sqd5).blk", files.squad, UnitKind.BATTLE_ARMOR),
    }
    damage = {}
    for uid, (name, entity, kind) in blk.items():
        design = parse_blk((units / name).read_text(encoding="utf-8"), name)
        loadout = loadout_of(merge_condition(entity(Section.UNIT, fought=False), design))
        fought = merge_condition(entity(Section.SURVIVORS, fought=True), design)
        damage[uid] = unit_damage(fought, kind, loadout)
    rows = (
        ("L-BLD", "Bulldog Medium Tank", "", UnitKind.COMBAT_VEHICLE, 60, 700, 4, "tracked",
         "Militia", 5),
        ("L-ELM", "Elemental Battle Armor", "[Laser](Sqd5)", UnitKind.BATTLE_ARMOR, 1, 400, 1,
         "leg", "Militia", 5),
    )  # fmt: skip
    commands = list(setup_commands(("city", CITY, ("L-BLD", "L-ELM"))))
    for i, c in enumerate(commands):
        if isinstance(c, ImportForce) and c.side_id == "loyalist":
            force = world._force((*world.LOYALIST, *EXTRA, *rows))
            companies = tuple(
                replace(co, lances=tuple(
                    replace(la, units=tuple(
                        replace(u, tech_base=TechBase.CLAN, troopers=5)
                        if u.unit_id == "L-ELM" else u
                        for u in la.units))
                    for la in co.lances))
                for co in force.companies
            )  # fmt: skip
            commands[i] = replace(c, force=replace(force, companies=companies))
        if isinstance(c, StartStrategicMap):
            commands[i] = replace(c, mobility=(
                *c.mobility,
                UnitMobility(unit_id="L-BLD", walk_mp=4, mode="tracked"),
                UnitMobility(unit_id="L-ELM", walk_mp=1, mode="leg"),
            ))  # fmt: skip
    state, _ = world.run(CampaignState(), *commands)
    assert state.units["L-ELM"].tech_base is TechBase.CLAN
    state = replace(state, battles=replace(state.battles, unit_damage=damage))
    jobs = (
        ("L-ELM", RepairTask.REARM), ("L-ELM", RepairTask.ARMOR),
        ("L-BLD", RepairTask.REARM), ("L-BLD", RepairTask.ARMOR),
        ("L-BLD", RepairTask.INTERNAL), ("L-BLD", RepairTask.ARMOR),
    )  # fmt: skip
    after, events = world.run(state, *(_repair(u, "city", t) for u, t in jobs))
    done = [e for e in events if isinstance(e, UnitRepaired)]
    assert [(e.unit_id, e.cost_sp, e.tech_hours, e.work_days) for e in done] == [
        ("L-ELM", 5, 1, ((1, 1),)),            # L85: 1 t x 5
        ("L-ELM", 5, 3, ((1, 3),)),            # L78 x L93: 1 x 1 t x 2.5 x 2
        ("L-BLD", 5, 1, ((1, 1),)),            # L85: 17/20 t x 5 = 4.25 -> 5
        ("L-BLD", 5, 3, ((1, 3),)),            # L76: Front 14 x 30/104 = 4.04 -> 5
        ("L-BLD", 6, 6, ((1, 4), (2, 2))),     # L77: 3 x 60/30 = 6
        ("L-BLD", 6, 3, ((2, 3),)),            # L76: Turret 20 x 30/104 = 5.77 -> 6
    ]  # fmt: skip
    assert after.pools["city"].balance == 1000 - 32
    assert after.strategic is not None
    assert after.strategic.repair_ready == {"L-ELM": 1, "L-BLD": 2}


def test_the_console_script_shows_paid_hours_by_day_and_keeps_a_unit_under_repair_home(
    tmp_path: Path,
) -> None:
    """L64 "Each Technician can work 6 hours a day.": the Griffin alone in Bagnorgeio has one
    technician; re-arm (1 h), armor (3 h) and internal structure (6 h) fill day 1 and spill 4
    hours into day 2, and `mekref report` shows them against the hours still needed. L63 "To
    perform repair, reload or reconfigure actions requires the presence of a technician present
    in that strategic hex": under repair, its formation cannot move on day 1 (R-WHERE-5)."""
    import json

    from battle.states import close, file, seen, submit
    from console_script import mekref, start_tripwire

    from mekref.adapters.megamek.mul_model import Section
    from mekref.rules.messages import command_text

    db = str(tmp_path / "c.db")
    start, *rest = setup_commands(("city", CITY, ("L-GRF",)))
    battle = file("a", seen("L-GRF", Section.SURVIVORS, damage=DAMAGED, name="Griffin GRF-1N"))
    campaign = start_tripwire(tmp_path, (start, *rest, submit(battle)))
    state = json.loads(mekref("game", "state", "--db", db, "--campaign", campaign,
                              "--json").stdout)["state"]  # fmt: skip
    (battle_id,) = state["battles"]["battles"]
    closing = tmp_path / "close.json"
    closing.write_text(command_text(close(battle_id, "loyalist")), encoding="utf-8")
    assert mekref("game", "do", "--db", db, "--campaign", campaign, str(closing)).returncode == 0
    for task in ("rearm", "armor", "internal"):
        paid = mekref("spend", "repair", "--db", db, "--campaign", campaign, "--unit", "L-GRF",
                      "--pool", "city", "--task", task)  # fmt: skip
        assert paid.returncode == 0, paid.stderr
    report = json.loads(
        mekref("report", "--db", db, "--campaign", campaign, "--side", "loyalist", "--json").stdout
    )
    (grf,) = [u for u in report["units"] if u["id"] == "L-GRF"]
    assert grf["repair_work"] == [{"day": 1, "hours": 6}, {"day": 2, "hours": 4}]
    assert grf["repair_ready_day"] == 2
    assert grf["repair"]["tech_hours"] == 3  # the Left Leg's armor, not yet paid
    assert report["technicians"] == [
        {"side": "loyalist", "hex": CITY, "last_day": 2, "hours": 4, "technicians": 1,
         "hours_per_day": 6}
    ]  # fmt: skip
    text = mekref("report", "--db", db, "--campaign", campaign, "--side", "loyalist").stdout
    assert "Griffin GRF-1N: 3 h needed; 10 h paid: day 1 6 h, day 2 4 h; ready day 2" in text
    assert "1 x 6 h = 6 h a day" in text
    # Under repair through day 2: no move on day 1, refused in one line quoting L63.
    moved = mekref("orders", "submit", "--db", db, "--campaign", campaign, "--side",
                   "loyalist", "--day", "1", "--order", "city:move:0608")  # fmt: skip
    assert moved.returncode == 3, moved.stdout
    assert "L63 'To perform repair" in moved.stderr and "work to day 2" in moved.stderr
    assert len(moved.stderr.strip().splitlines()) == 1
    # Staying put is allowed.
    guard = mekref("orders", "submit", "--db", db, "--campaign", campaign, "--side",
                   "loyalist", "--day", "1", "--order", "city:guard")  # fmt: skip
    assert guard.returncode == 0, guard.stderr
