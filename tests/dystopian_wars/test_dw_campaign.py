"""A scripted campaign end to end (set-up, battles, repairs, victory), determinism, and the JSON
round trip of every Dystopian Wars command and event."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction

import pytest
from dw_helpers import BRIT, SUN, result, squadron, stake_all

from mekref.rules.codec import canonical_json, decode
from mekref.rules.dice import Dice
from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.experience import in_dry_dock, repair_cost
from mekref.rules.dystopian_wars.game import DYSTOPIAN_WARS
from mekref.rules.dystopian_wars.model import (
    Battle,
    DystopianState,
    FieldOrder,
    Fleet,
    MarAssignment,
    RepairBill,
    Stake,
    Territory,
    TerritoryChoice,
    VesselClass,
)
from mekref.rules.dystopian_wars.table_loader import load_tables
from mekref.rules.messages import Command, Event, message_to_json

SR = c.SquadronResult
K = c.Kill


def _loser_territory(state: DystopianState, victor: str) -> str | None:
    battle = state.battle
    assert battle is not None
    losers = [s.enemy if s.fleet_id == victor else s.own for s in battle.stakes]
    return losers[0] if battle.battle_type == "battle_royale" else None


def _within_points(
    state: DystopianState, fleet_id: str, wanted: tuple[c.SquadronResult, ...]
) -> tuple[c.SquadronResult, ...]:
    """The squadrons out of dry dock, flagship first, that fit the battle's points (2.2; ruling
    DW-28)."""
    battle = state.battle
    assert battle is not None
    squadrons = state.fleets[fleet_id].squadrons
    order = sorted(wanted, key=lambda r: not squadrons[r.squadron_id].flagship)
    kept: list[c.SquadronResult] = []
    points = Fraction(0)
    for r in order:
        s = squadrons[r.squadron_id]
        if in_dry_dock(s):
            continue  # L227 a): a docked squadron sits the battle out (ruling DW-34)
        share = s.cost * s.ships / s.ships_max
        if points + share <= battle.points:
            kept.append(r)
            points += share
    return tuple(r for r in wanted if r in kept)


DECK = tuple(FieldOrder(number=n, name=f"Group order {n}") for n in range(1, 7))


def _assign_first_mars(
    state: DystopianState, fleet_id: str, do: Callable[[DystopianState, Command], DystopianState]
) -> DystopianState:
    """Each territory MAR goes to the fleet's first squadron (by id) that may take it."""
    tables = load_tables()
    for territory in state.held(fleet_id):
        for index, grant in enumerate(tables.territories[territory.kind].mar_grants):
            fitting = [
                sid
                for sid, sq in sorted(state.fleets[fleet_id].squadrons.items())
                if not grant.classes or sq.vessel_class.value in grant.classes
            ]
            state = do(
                state,
                c.AssignMar(
                    actor=fleet_id,
                    fleet_id=fleet_id,
                    territory_id=territory.territory_id,
                    squadron_id=fitting[0],
                    mar=grant.mars[-1],
                    grant=index,
                ),
            )
    return state


def play_campaign(seed: str) -> tuple[list[Command], list[Event], DystopianState]:
    """Britannia wins every battle by its Field Order; the Blazing Sun loses ships each time and
    both sides repair with what their territories grant, until someone wins the campaign."""
    commands: list[Command] = []
    log: list[Event] = []

    def do(state: DystopianState, command: Command) -> DystopianState:
        events, state = DYSTOPIAN_WARS.execute(state, command)
        commands.append(command)
        log.extend(events)
        return state

    state = do(
        DYSTOPIAN_WARS.initial_state(),
        c.CreateCampaign(actor="ref", seed=seed, fleets=(BRIT, SUN), field_orders=DECK),
    )
    # The group's map: every Britannian territory borders every other one.
    brit_ids = sorted(t for t, v in state.territories.items() if v.holder == "brit")
    sun_ids = sorted(t for t, v in state.territories.items() if v.holder != "brit")
    state = do(
        state,
        c.SetMap(
            actor="ref",
            borders=tuple((a, b) for a in brit_ids for b in sun_ids),
            reason="the group's map",
        ),
    )
    for fleet_id in ("brit", "sun"):
        state = _assign_first_mars(state, fleet_id, do)
    state = do(
        state,
        c.GrantTerritory(
            actor="ref", territory_id="scientists_eyrie", fleet_id="sun", reason="map"
        ),
    )
    for n in range(1, 40):
        if state.winner:
            break
        state = do(state, c.StartBattle(actor="ref", battle_id=f"b{n}", fleets=("brit", "sun")))
        stake_events, state = stake_all(state)
        log.extend(stake_events)
        sun_afloat = {k for k, v in state.fleets["sun"].squadrons.items() if not v.destroyed}
        sun_flag_lost = n % 3 == 0 and "flag" in sun_afloat
        sun_results = tuple(
            r
            for r in (
                SR(
                    squadron_id="escorts", ships_lost=state.fleets["sun"].squadrons["escorts"].ships
                ),
                SR(squadron_id="flag", ships_lost=1 if sun_flag_lost else 0, damaged=True),
            )
            if r.squadron_id in sun_afloat
        )
        report = c.ReportBattle(
            actor="ref",
            battle_id=f"b{n}",
            conquest_choice=_loser_territory(state, "brit"),
            results=(
                result(
                    "brit",
                    400,
                    *_within_points(
                        state,
                        "brit",
                        (
                            SR(
                                squadron_id="cruisers",
                                damaged=True,
                                kills=(K(vessel_class=VesselClass.SMALL, prized=True),) * 4,
                            ),
                            SR(
                                squadron_id="frigates",
                                ships_lost=1,
                                kills=(K(vessel_class=VesselClass.SMALL, last_of_squadron=True),),
                            ),
                            SR(squadron_id="flag", kills=(K(vessel_class=VesselClass.LARGE),)),
                        ),
                    ),
                    double_sixes=1 if n == 2 else 0,
                    field_order_turn=3,
                ),
                result(
                    "sun",
                    150,
                    *_within_points(state, "sun", sun_results),
                    flagship_lost=sun_flag_lost,
                    field_order_turn=None if n % 2 else 4,
                ),
            ),
        )
        state = do(state, report)
        for fleet_id, squadron_id in (
            ("brit", "frigates"),
            ("brit", "cruisers"),
            ("sun", "escorts"),
            ("sun", "flag"),
        ):
            squadron_now = state.fleets[fleet_id].squadrons[squadron_id]
            owed = repair_cost(squadron_now) - squadron_now.dry_dock
            rp = state.fleets[fleet_id].rp
            if not squadron_now.bill.empty and (owed <= rp or rp > 0):
                state = do(
                    state,
                    c.Repair(
                        actor=fleet_id, fleet_id=fleet_id, squadron_id=squadron_id, dry_dock=True
                    ),
                )
        sun = state.fleets["sun"]
        if sun.commodore.status.value == "captured" and sun.rp >= 1:
            state = do(state, c.ReleaseCommodore(actor="sun", fleet_id="sun", ransom_rp=1))
    return commands, log, state


def test_scripted_campaign_end_to_end() -> None:
    _, log, state = play_campaign("bangkok-1870")
    assert state.winner == "brit"
    assert state.win_condition in ("territories", "commodore")
    battles = [ev for ev in log if isinstance(ev, e.BattleResolved)]
    assert len(battles) >= 3 and all(b.victor == "brit" for b in battles)
    won = [ev for ev in log if isinstance(ev, e.CampaignWon)]
    assert won == [e.CampaignWon(fleet_id="brit", condition=state.win_condition or "")]
    brit = state.fleets["brit"]
    if state.win_condition == "territories":
        assert state.owned_count("brit") >= 11
    else:
        assert brit.commodore.xp >= 21
    # Veteran squadrons rolled skills at their breaks.
    assert brit.squadrons["cruisers"].skills
    assert any(isinstance(ev, e.Repaired) for ev in log)
    assert DYSTOPIAN_WARS.fold(log) == state


def test_same_seed_same_events_and_state_hash() -> None:
    _, log_a, state_a = play_campaign("same")
    _, log_b, state_b = play_campaign("same")
    assert [canonical_json(event_to_json(ev)) for ev in log_a] == [
        canonical_json(event_to_json(ev)) for ev in log_b
    ]
    assert DYSTOPIAN_WARS.state_hash(state_a) == DYSTOPIAN_WARS.state_hash(state_b)
    _, _, other = play_campaign("different")
    assert DYSTOPIAN_WARS.state_hash(other) != DYSTOPIAN_WARS.state_hash(state_a)


def test_replaying_the_log_gives_the_same_hash() -> None:
    _, log, state = play_campaign("replay")
    texts = [canonical_json(event_to_json(ev)) for ev in log]
    replayed = DYSTOPIAN_WARS.fold(event_from_json(json.loads(t)) for t in texts)
    assert DYSTOPIAN_WARS.state_hash(replayed) == DYSTOPIAN_WARS.state_hash(state)
    assert decode(DystopianState, json.loads(canonical_json(state))) == state


def test_a_stale_dice_cursor_is_refused() -> None:
    _, _, state = play_campaign("stale")
    with pytest.raises(ValueError):
        DYSTOPIAN_WARS.decide(
            state,
            c.StartBattle(actor="ref", battle_id="x", fleets=("brit", "sun")),
            Dice(state.seed, 0),
        )


ROLL = Dice("s").roll("x")[0]
FLEET = DYSTOPIAN_WARS.fold(
    [
        DYSTOPIAN_WARS.execute(
            DYSTOPIAN_WARS.initial_state(),
            c.CreateCampaign(actor="r", seed="s", fleets=(BRIT, SUN)),
        )[0][0]
    ]
).fleets["brit"]
assert isinstance(FLEET, Fleet)
BATTLE = Battle(
    battle_id="b",
    fleets=("a", "b"),
    chooser="a",
    battle_type="skirmish",
    points=600,
    ranks=(1, 2),
    present=(True, False),
    stakes=(Stake(fleet_id="a", own="x", enemy="y"),),
)

# This rule set's message codec (names kept from the shared registry).
COMMANDS = DYSTOPIAN_WARS.commands
EVENTS = DYSTOPIAN_WARS.events
command_from_json = DYSTOPIAN_WARS.commands.from_json
event_from_json = DYSTOPIAN_WARS.events.from_json
command_to_json = message_to_json
event_to_json = message_to_json
EVENT_SAMPLES: list[Event] = [
    e.CampaignCreated(seed="s", fleets=(FLEET,), actor="ref", field_orders=DECK[:2]),
    e.TerritoriesGenerated(
        territories=(Territory(territory_id="t", kind="town", holder="a", lent_to="b"),),
        rolls=(ROLL,),
    ),
    e.TerritoryGranted(territory_id="t", fleet_id=None, reason="r", actor="ref"),
    e.MapSet(borders=(("t", "u"),), reason="r", actor="ref"),
    e.MarAssigned(
        assignment=MarAssignment(
            territory_id="t", grant=1, fleet_id="a", squadron_id="s", mar="Sturginum Boost"
        )
    ),
    e.BattleSetUp(
        battle=BATTLE,
        strategy=(e.StrategyScore(fleet_id="a", die=3, bonus=1, total=4),),
        size_die=2,
        rolls=(ROLL,),
    ),
    e.SquadronsBroken(fleet_id="a", squadron_ids=("s",), rolls=(ROLL,)),
    e.Staked(battle_id="b", stake=Stake(fleet_id="a", own="x", enemy="y")),
    e.BattleResolved(
        battle_id="b", battle_type="skirmish", victor=None, how="draw", victory_points=(1, 2)
    ),
    e.LoansEnded(territory_ids=("t",)),
    e.TerritoryTaken(territory_id="t", from_fleet="a", to_fleet="b"),
    e.TerritoryLent(territory_id="t", from_fleet="a", to_fleet="b"),
    e.SquadronAfterBattle(
        fleet_id="a",
        squadron_id="s",
        ships=2,
        destroyed=False,
        bill=RepairBill(minor=True, major_ships=1),
        xp_change=-1,
        xp=0,
        reasons=("crippled",),
        broken_next_battle=True,
    ),
    e.SkillGained(
        fleet_id="a", squadron_id="s", at_xp=2, skill_set="ship", skill="Die Hards", rolls=(ROLL,)
    ),
    e.CommodoreExperience(fleet_id="a", xp_change=2, xp=3, reasons=("win_skirmish",)),
    e.TacticalProwess(fleet_id="a", change=1, prowess=1, genius=True, ineptitude=False),
    e.CommodoreInjury(
        fleet_id="a", result="dead", hospital_reroll=True, successor="n", rolls=(ROLL, ROLL)
    ),
    e.GameMissed(fleet_id="a", games_to_miss=1),
    e.RequisitionGranted(fleet_id="a", territory_rp=(("t", 2),), prize_rp=1, total=3),
    e.Repaired(fleet_id="a", squadron_id="s", rp_spent=2, free=False, complete=False),
    e.SquadronRequisitioned(fleet_id="a", squadron=FLEET.squadrons["flag"], rp_spent=7),
    e.CommodoreReleased(fleet_id="a", ransom_rp=2),
    e.CampaignWon(fleet_id="a", condition="commodore"),
    e.WingMarChosen(
        choice=TerritoryChoice(territory_id="t", fleet_id="a", choices=("Better Engines",))
    ),
    e.TowersChosen(
        choice=TerritoryChoice(territory_id="t", fleet_id="a", choices=("Gun", "Tesla"))
    ),
    e.AirWings(
        battle_id="b",
        fleet_id="a",
        wings=(
            e.ExtraWing(
                territory_id="t",
                territory="Airbase",
                line=113,
                mar="Large Fuel Tanks",
                mar_choices=("Large Fuel Tanks", "Better Engines"),
            ),
        ),
    ),
    e.FortificationsDefend(
        battle_id="b",
        fleet_id="a",
        territory_id="t",
        territory="Fleet Base",
        line=111,
        fortifications=("Fortress", "Flak Tower"),
        towers_not_chosen=2,
    ),
]
COMMAND_SAMPLES: list[Command] = [
    *play_campaign("samples")[0],
    c.RequisitionSquadron(
        actor="a", fleet_id="a", squadron=squadron("n", VesselClass.MASSIVE, 1, 250)
    ),
    c.Repair(actor="a", fleet_id="a", squadron_id="s", free=True),
    c.StakeTerritories(actor="a", fleet_id="a", own="x", enemy="y"),
    c.ReleaseCommodore(actor="a", fleet_id="a", ransom_rp=2),
    c.ChooseWingMar(actor="a", fleet_id="a", territory_id="t", mar="Better Engines"),
    c.ChooseTowers(actor="a", fleet_id="a", territory_id="t", towers=("Rocket", "Rocket")),
]


def test_every_dystopian_wars_message_type_has_a_sample() -> None:
    assert {type(ev).TYPE for ev in EVENT_SAMPLES} == {
        n for n in EVENTS.names() if n.startswith("DW")
    }
    assert {type(cm).TYPE for cm in COMMAND_SAMPLES} == {
        n for n in COMMANDS.names() if n.startswith("DW")
    }


@pytest.mark.parametrize("event", EVENT_SAMPLES, ids=lambda ev: type(ev).TYPE)
def test_event_round_trip(event: Event) -> None:
    text = canonical_json(event_to_json(event))
    back = event_from_json(json.loads(text))
    assert back == event and canonical_json(event_to_json(back)) == text


@pytest.mark.parametrize("command", COMMAND_SAMPLES, ids=lambda cm: type(cm).TYPE)
def test_command_round_trip(command: Command) -> None:
    text = canonical_json(command_to_json(command))
    assert command_from_json(json.loads(text)) == command
