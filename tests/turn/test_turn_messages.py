"""Every command and event of the turn survives the JSON registry (the store keeps them so)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from turn_world import mobility

from mekref.rules.codec import canonical_json
from mekref.rules.dice import Roll
from mekref.rules.house_rules.maintenance import MaintenanceResult
from mekref.rules.house_rules.morale import MoraleTest
from mekref.rules.messages import Command, Event, RefereeNote
from mekref.rules.tripwire.battle_model import Fate, SlotDamage, UnitDamage
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.repair import LocationDamage
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn import orbit_events
from mekref.rules.tripwire.turn.artillery import FireUnguidedArtillery
from mekref.rules.tripwire.turn.forecast import ForecastWeather
from mekref.rules.tripwire.turn.house_maintenance import CheckMaintenance, HouseMaintenanceChecked
from mekref.rules.tripwire.turn.house_morale import HouseMoraleTested, TestMorale
from mekref.rules.tripwire.turn.orbit import (
    ChooseDropShipReadiness,
    PlaceSatellite,
    RepositionSatellite,
)
from mekref.rules.tripwire.turn.orders import (
    FormationOrder,
    ResolveTurn,
    SubmitOrders,
    WithdrawOrders,
)
from mekref.rules.tripwire.turn.plugin import RecordLeaderCaptured, RepositionFormation
from mekref.rules.tripwire.turn.pre_damage import RollPreBattleDamage
from mekref.rules.tripwire.turn.reorganise import (
    ChangeFormationType,
    CreateFormation,
    MergeFormations,
    SplitFormation,
    TransferUnit,
)
from mekref.rules.tripwire.turn.repair_days import RepairWorkWaited, WaitingWork
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations, StartStrategicMap
from mekref.rules.tripwire.turn.state import (
    Arrival,
    EngagementSetup,
    Formation,
    RegionWeather,
    Satellite,
    Sighting,
)
from mekref.rules.tripwire.turn.transports import LinkTransport, TransportLinked
from mekref.rules.tripwire.turn.turrets import RecordTurretDamage, RepairTurret

ROLL = Roll(name="r", index=0, sides=6, faces=(3, 4))
ORDER = FormationOrder(
    formation_id="a", action="move", path=("0607",), target="0707", params=(("k", "v"),)
)
FORMATION = Formation(formation_id="a", side_id="s", name="A", unit_ids=("u",), hex="0508")
WEATHER = RegionWeather(region="R", level=6, storm="lightning")
SETUP = EngagementSetup(
    engagement_id="e",
    day=1,
    hex="0707",
    kind="meeting",
    sides=("s", "t"),
    formations=("a", "b"),
    attacker=None,
    ambusher="s",
    ambush_totals=(("s", 12), ("t", 3)),
    objectives=(("s", "raid"),),
    map_sheets=("Woodland (Woodlands)",),
    terrain="plains",
    weather="Clear, no cloud",
    arrivals=(Arrival(formation_id="a", side_id="s", lance="L", walk_mp=5, turn=4),),
    aerospace=(("s", "u", 150),),
    command_centre=("s",),
    notes=("n",),
)

# This rule set's message codec (names kept from the shared registry).
COMMANDS = TRIPWIRE.commands
EVENTS = TRIPWIRE.events
COMMANDS_SAMPLE: list[Command] = [
    SubmitOrders(actor="s", side_id="s", day=1, orders=(ORDER,)),
    WithdrawOrders(actor="s", side_id="s", day=1, formation_ids=("a",)),
    ResolveTurn(actor="ref", day=1),
    StartStrategicMap(
        actor="ref", map_name="ginestra", attacker="t", defender="s", mobility=mobility()
    ),
    PlaceFormations(
        actor="s",
        side_id="s",
        day=1,
        formations=(FormationSpec(formation_id="a", name="A", unit_ids=("u",), hex="0508"),),
    ),
    FireUnguidedArtillery(
        actor="ref", engagement_id="e", firing_side="s", pieces=("u",), run_mp=5, sheets=2
    ),
    RecordLeaderCaptured(actor="ref", force="t"),
    RecordTurretDamage(
        actor="ref", location="L", turret=2, cf=90, note=RefereeNote(referee="R", reason="r")
    ),
    RepairTurret(actor="s", side_id="s", location="L", turret=2, pool_id="p"),
    RepositionFormation(
        actor="ref", formation_id="b", hex="1106", note=RefereeNote(referee="R", reason="r")
    ),
    CreateFormation(
        actor="s", side_id="s", day=1, formation_id="c", unit_ids=("u",), name="C", hex="0508"
    ),
    SplitFormation(
        actor="s", side_id="s", day=1, formation_id="a", unit_ids=("u",), new_formation_id="c"
    ),
    MergeFormations(actor="s", side_id="s", day=1, formation_id="a", absorbed_id="c"),
    TransferUnit(actor="s", side_id="s", day=1, unit_id="u", to_formation_id="a"),
    ChangeFormationType(
        actor="s", side_id="s", day=1, formation_id="a", formation_type="Battle Lance", pool_id="p"
    ),
    PlaceSatellite(
        actor="r",
        satellite_id="sat",
        owner="s",
        orbit="lpo",
        hex="0508",
        note=RefereeNote(referee="R", reason="r"),
    ),
    RepositionSatellite(actor="s", side_id="s", day=1, satellite_id="sat", hex="0905"),
    LinkTransport(actor="s", side_id="s", pool_id="union-a", unit_id="u"),
    ForecastWeather(actor="s", side_id="s", day=3),
    ChooseDropShipReadiness(
        actor="s", side_id="s", day=1, unit_id="u", mode="hot_standby", extra_crew=True
    ),
    RollPreBattleDamage(actor="r", unit_id="u"),
    TestMorale(
        actor="r", unit_id="u", battle="b", turn=2, nationality="Clan", situations=("inferno",)
    ),
    CheckMaintenance(actor="r", unit_id="u", target_number=7, quality="C"),
]
EVENTS_SAMPLE: list[Event] = [
    ev.StrategicMapStarted(
        map_name="ginestra",
        map_text="",
        attacker="t",
        defender="s",
        mobility=mobility(),
        control=(("Bagnorgeio", "s"),),
        unrest=(("s", 7),),
        weather=(WEATHER,),
        starting_bv=(("s", 100),),
        sheets_per_engagement=2,
        actor="ref",
        rolls=(ROLL,),
    ),
    ev.FormationsPlaced(side_id="s", day=1, formations=(FORMATION,), actor="s"),
    ev.FormationsReorganised(
        side_id="s",
        day=1,
        action="merge",
        formations=(replace(FORMATION, formation_type="Battle Lance"),),
        dissolved=("c",),
        unit_ids=("u",),
        actor="s",
    ),
    ev.FormationTrainingBegun(
        side_id="s",
        day=1,
        formation_id="a",
        formation_type="Battle Lance",
        pool_id="p",
        cost_sp=100,
        actor="s",
    ),
    ev.OrdersSubmitted(side_id="s", day=1, orders=(ORDER,), actor="s"),
    ev.OrdersWithdrawn(side_id="s", day=1, formation_ids=("a",), actor="s"),
    ev.WeatherRolled(day=8, regions=(WEATHER,), weekly_change=True, rolls=(ROLL,)),
    ev.FormationsUpdated(side_id="s", day=1, formations=(FORMATION,), mobility=mobility()[:1]),
    ev.MaintenanceMissed(side_id="s", day=7, formation_id="a", unit_ids=("u",), exempt=()),
    ev.SightingsMade(
        side_id="s",
        day=1,
        sightings=(Sighting(formation_id="b", side_id="t", hex="0707", day=1, units=4),),
    ),
    ev.UnrestChanged(force="s", before=7, after=9, reason="looting"),
    ev.LocationLooted(side_id="s", formation_id="a", location="L", wp=300, pool_id="p"),
    ev.WarChestLoaded(
        side_id="s", day=1, formation_id="a", hex="0508", from_pool="p", to_pool="q", amount=40
    ),
    ev.FacilityDestroyed(location="L", facility="hospital", by_force="s", civilian=True),
    ev.FacilityRestored(location="L", facility="dropport_small", by_force="s"),
    ev.RunwayPrepared(side_id="s", day=1, formation_id="a", hex="0510"),
    ev.RecruitsFound(
        side_id="s",
        day=1,
        formation_id="a",
        total=2,
        available=(("admin", 2),),
        specialities=(("admin", "hr"), ("admin", "doctor")),
    ),
    ev.LocationControlChanged(location="L", before=None, after="s", pools=("p",)),
    ev.EngagementDetermined(engagement=SETUP, rolls=(ROLL,)),
    ev.UnguidedArtilleryFired(
        engagement_id="e",
        firing_side="s",
        attacks_per_piece=3,
        target_number=11,
        results=(("u", "miss", 0),),
        actor="ref",
    ),
    ev.StrategicVictoryScored(day=1, vp=(("s", 3),), ended=""),
    ev.LeaderCaptured(force="t", actor="ref"),
    ev.CampaignEnded(reason="t fell below 50% of its starting BV"),
    ev.FormationRepositioned(
        side_id="t",
        formation_id="b",
        before="1105",
        after="1106",
        referee="R",
        reason="r",
        actor="R",
    ),
    ev.TransportCargoCaptured(unit_id="u", pools=("p",), after="t"),
    ev.UnrestSuppressed(formation_id="a", force="s", action="martial_law", amount=4, active=True),
    ev.SabotageRolled(side_id="s", formation_id="a", unit_id="u", damage=15, rolls=(ROLL,)),
    ev.UnitDamageRolled(
        side_id="s",
        day=7,
        unit_id="u",
        cause="maintenance",
        lines=(ev.DamageLine(location="Center Torso", slot=4, item="Gyro", system="gyro"),),
        damage=UnitDamage(
            locations=(
                LocationDamage(
                    name="Center Torso",
                    armor_max=20,
                    armor_now=15,
                    internal_max=10,
                    internal_now=10,
                ),
            ),
            critical_hits=1,
            damaged_slots=(
                SlotDamage(location="Center Torso", slot=4, item="System", system="gyro", hit=True),
            ),
        ),
        fate=Fate.DAMAGED,
        crew_hits=(("p", 1),),
        notes=("n",),
        rolls=(ROLL,),
    ),
    ev.ConsciousnessChecked(
        side_id="s",
        day=14,
        formation_id="a",
        fatigue=1,
        checks=(
            ev.ConsciousnessCheck(
                person_id="p", unit_id="u", target=4, total=3, passed=False, hits_after=1
            ),
        ),
        rolls=(ROLL,),
    ),
    ev.ResponseMade(
        side_id="s",
        day=1,
        formation_id="a",
        action="respond",
        before="orbit",
        hex="1105",
        against=("b",),
        detected_by=("deep_space_array",),
    ),
    ev.MobsRaised(
        force="s",
        location="L",
        kind="angry",
        count=4,
        cause="battle",
        engagement_id="e",
        rolls=(ROLL,),
    ),
    ev.TurretDamageRecorded(
        location="L", turret=2, cf_before=150, cf=90, note=RefereeNote(referee="R", reason="r")
    ),
    ev.TurretRepaired(
        side_id="s", location="L", turret=2, pool_id="p", cf_before=90, cf=150, wp=100
    ),
    orbit_events.SatellitePlaced(
        satellite=Satellite(
            satellite_id="sat", owner="s", orbit="geostationary", hex="0508", destroyed_day=2
        ),
        referee="Ann",
        reason="r",
        actor="r",
    ),
    orbit_events.SatelliteDestroyed(satellite_id="sat", owner="s", by_force="t", day=2),
    TransportLinked(side_id="s", pool_id="union-a", unit_id="u", actor="s"),
    TransportLinked(side_id="s", pool_id="union-a", unit_id="v", actor="s", before="u"),
    orbit_events.SatelliteRepositioned(
        satellite_id="sat", owner="s", before="0508", after="0905", day=1, actor="s"
    ),
    orbit_events.DropShipReadinessChosen(
        side_id="s", day=1, week=1, unit_id="u", mode="power_down", extra_crew=False, actor="s"
    ),
    orbit_events.StandbyFatigue(side_id="s", day=2, fatigue=(("u", 2),), rested=("v",)),
    orbit_events.WeatherForecastSeen(
        side_id="s",
        day=3,
        change_day=8,
        uplink="the SatLink at Bagnorgeio",
        reached=True,
        totals=(("Arda Valley", 9),),
        regions=(RegionWeather(region="Arda Valley", level=3),),
        actor="s",
    ),
    ev.DayEnded(day=1),
    HouseMoraleTested(
        side_id="s",
        battle="b",
        turn=2,
        skill="Elite",
        test=MoraleTest(
            unit_id="u",
            die_total=12,
            modifier=4,
            total=16,
            result="fight_to_the_death",
            exempt_from_now=True,
            reasons=("Elite", "Clan"),
        ),
        rolls=(Roll(name="morale test, unit u, turn 2", index=0, sides=6, faces=(6, 6)),),
    ),
    HouseMaintenanceChecked(
        side_id="s",
        day=1,
        formation_id="alpha",
        check=MaintenanceResult(
            unit_id="u",
            quality_before="C",
            quality_after="B",
            base_target=14,
            target=11,
            roll=6,
            margin=-5,
            improve_needed=6,
            damage=1,
            destroyed=False,
        ),
        notes=("n",),
        rolls=(Roll(name="maintenance check 1, u", index=0, sides=6, faces=(1, 5)),),
    ),
    RepairWorkWaited(
        side_id="s",
        day=1,
        waiting=(
            WaitingWork(
                unit_id="u",
                formation_id="alpha",
                action="guard",
                hex="1105",
                work_days=((2, 6), (3, 1)),
            ),
        ),
        workshops=(("1105", 3, 1),),
    ),
]


def test_every_turn_type_has_a_sample() -> None:
    package = "mekref.rules.tripwire.turn"
    events = {c.TYPE for c in EVENTS.classes() if c.__module__.startswith(package)}
    commands = {c.TYPE for c in COMMANDS.classes() if c.__module__.startswith(package)}
    assert events == {type(e).TYPE for e in EVENTS_SAMPLE}
    assert commands == {type(c).TYPE for c in COMMANDS_SAMPLE}


@pytest.mark.parametrize("event", EVENTS_SAMPLE, ids=lambda e: type(e).TYPE)
def test_event_round_trip(event: Event) -> None:
    text = canonical_json(EVENTS.to_json(event))
    assert EVENTS.from_json(json.loads(text)) == event


@pytest.mark.parametrize("command", COMMANDS_SAMPLE, ids=lambda c: type(c).TYPE)
def test_command_round_trip(command: Command) -> None:
    text = canonical_json(COMMANDS.to_json(command))
    assert COMMANDS.from_json(json.loads(text)) == command
