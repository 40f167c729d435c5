"""Two treaty-legal fleets and a scripted campaign for the Dystopian Wars tests."""

from __future__ import annotations

from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars.game import DYSTOPIAN_WARS
from mekref.rules.dystopian_wars.model import Category, DystopianState, Territory, VesselClass
from mekref.rules.messages import Command, Event

KOB = "Kingdom of Britannia"


def squadron(
    sid: str,
    vessel_class: VesselClass,
    ships: int,
    points: int,
    category: Category = Category.NAVAL,
    **extra: bool | int,
) -> c.SquadronSpec:
    return c.SquadronSpec(
        squadron_id=sid,
        name=sid.title(),
        vessel_class=vessel_class,
        category=category,
        ships=ships,
        points=points,
        flagship=bool(extra.get("flagship", False)),
        shields_per_ship=int(extra.get("shields_per_ship", 0)),
        guardians_per_ship=int(extra.get("guardians_per_ship", 0)),
        free_tiny_flyer_wing=bool(extra.get("free_tiny_flyer_wing", False)),
    )


def fleet(fleet_id: str, nation: str, commodore: str) -> c.FleetSpec:
    return c.FleetSpec(
        fleet_id=fleet_id,
        player=f"player-{fleet_id}",
        nation=nation,
        commodore=commodore,
        squadrons=(
            squadron("flag", VesselClass.LARGE, 1, 190, flagship=True, shields_per_ship=1),
            squadron("dread", VesselClass.DREADNOUGHT, 1, 300),
            squadron("cruisers", VesselClass.CRUISER_BOMBER, 3, 300),
            squadron("frigates", VesselClass.SMALL, 4, 120),
            squadron("escorts", VesselClass.SMALL, 3, 90),
            squadron("gunships", VesselClass.MEDIUM_CAPITAL, 2, 200, Category.AERIAL),
            squadron("wing", VesselClass.SMALL, 1, 30, Category.AERIAL, free_tiny_flyer_wing=True),
        ),
    )


BRIT = fleet("brit", KOB, "Lord Admiral Malchett")
SUN = fleet("sun", "Empire of the Blazing Sun", "Rear Admiral Hanso")


def create(seed: str = "dw-seed") -> DystopianState:
    _, state = DYSTOPIAN_WARS.execute(
        DYSTOPIAN_WARS.initial_state(), c.CreateCampaign(actor="ref", seed=seed, fleets=(BRIT, SUN))
    )
    return state


def run(state: DystopianState, *commands: Command) -> tuple[list[Event], DystopianState]:
    log: list[Event] = []
    for command in commands:
        events, state = DYSTOPIAN_WARS.execute(state, command)
        log.extend(events)
    return log, state


def stake_all(state: DystopianState) -> tuple[list[Event], DystopianState]:
    """Each chooser stakes its own first-listed territory against the enemy's first one."""
    log: list[Event] = []
    battle = state.battle
    assert battle is not None
    chooser = battle.chooser
    other = battle.fleets[1] if chooser == battle.fleets[0] else battle.fleets[0]
    for who in (chooser, other):
        if state.battle is None or len(state.battle.stakes) >= (
            2 if state.battle.battle_type == "battle_royale" else 1
        ):
            break
        foe = other if who == chooser else chooser
        taken = {t for s in state.battle.stakes for t in (s.own, s.enemy)}
        own = next(t.territory_id for t in _owned(state, who) if t.territory_id not in taken)
        enemy = next(t.territory_id for t in _owned(state, foe) if t.territory_id not in taken)
        events, state = DYSTOPIAN_WARS.execute(
            state, c.StakeTerritories(actor=who, fleet_id=who, own=own, enemy=enemy)
        )
        log += events
    return log, state


def _owned(state: DystopianState, fleet_id: str) -> list[Territory]:
    # By the fleet each started with (the number ending its id), then by id.
    def starting_fleet_first(item: tuple[str, Territory]) -> tuple[str, str]:
        return (item[0].rsplit("-", 1)[-1], item[0])

    held = sorted(state.territories.items(), key=starting_fleet_first)
    return [t for _, t in held if t.holder == fleet_id]


def with_battle(
    state: DystopianState,
    battle_type: str,
    *,
    stakes: tuple[tuple[str, str, str], ...] = (("brit", "town-1", "town-2"),),
    ranks: tuple[int, int] = (1, 1),
    present: tuple[bool, bool] = (True, True),
    field_orders: tuple[int, ...] = (1, 2),
) -> DystopianState:
    """The state with a battle of this type set up and staked (bypassing the dice); each fleet
    drew a Field Order unless ``field_orders`` is empty."""
    from dataclasses import replace

    from mekref.rules.dystopian_wars.model import Battle, Stake
    from mekref.rules.dystopian_wars.table_loader import load_tables

    battle = Battle(
        battle_id="b",
        fleets=("brit", "sun"),
        chooser="brit",
        battle_type=battle_type,
        points=load_tables().battle_size(battle_type).points,
        ranks=ranks,
        present=present,
        stakes=tuple(Stake(fleet_id=f, own=o, enemy=x) for f, o, x in stakes),
        field_orders=field_orders,
    )
    return replace(state, battle=battle)


def result(
    fleet_id: str,
    vp: int = 0,
    *squadrons: c.SquadronResult,
    flagship_lost: bool = False,
    double_sixes: int = 0,
    double_ones: int = 0,
    shore_leave: tuple[str, ...] = (),
    skills_not_applicable: tuple[str, ...] = (),
    field_order_turn: int | None = None,
) -> c.FleetResult:
    return c.FleetResult(
        fleet_id=fleet_id,
        victory_points=vp,
        squadrons=squadrons,
        flagship_lost=flagship_lost,
        double_sixes=double_sixes,
        double_ones=double_ones,
        shore_leave=shore_leave,
        skills_not_applicable=skills_not_applicable,
        field_order_turn=field_order_turn,
    )


def report(
    state: DystopianState,
    brit: c.FleetResult,
    sun: c.FleetResult,
    *,
    first: str | None = "brit",
    choice: str | None = None,
) -> tuple[list[Event], DystopianState]:
    return run(
        state,
        c.ReportBattle(
            actor="ref",
            battle_id="b",
            results=(brit, sun),
            field_order_first=first,
            conquest_choice=choice,
        ),
    )
