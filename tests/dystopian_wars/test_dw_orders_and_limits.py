"""Field Orders, the map's adjacency rule for stakes, the battle-size force limits, and the MARs
territories and ranks grant where they change campaign numbers."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dw_helpers import BRIT, SUN, create, fleet, report, result, run, squadron, with_battle

from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.game import DYSTOPIAN_WARS
from mekref.rules.dystopian_wars.mars import commodore_mars, mars_in_force, squadron_mars
from mekref.rules.dystopian_wars.model import (
    Commodore,
    DystopianState,
    FieldOrder,
    Territory,
    VesselClass,
)
from mekref.rules.dystopian_wars.postbattle import force_problems
from mekref.rules.dystopian_wars.prebattle import within_reach
from mekref.rules.dystopian_wars.table_loader import load_tables
from mekref.rules.refusal import Refusal

SR = c.SquadronResult
K = c.Kill
DECK = tuple(FieldOrder(number=n, name=f"Order {n}", text="the group's card") for n in range(1, 7))


# --- 2.3 Field Orders and 3.1 Determine Victor ------------------------------------------------


def test_ruling_field_orders_are_the_groups_deck_drawn_by_a_die() -> None:
    # Ruling DW-24. L155 "2.3 Roll for Field Orders" — L157 "As per Spartan Games Update"
    for i in range(20):
        _, state = DYSTOPIAN_WARS.execute(
            DYSTOPIAN_WARS.initial_state(),
            c.CreateCampaign(actor="ref", seed=f"fo-{i}", fleets=(BRIT, SUN), field_orders=DECK),
        )
        assert state.field_orders == DECK
        events, state = DYSTOPIAN_WARS.execute(
            state, c.StartBattle(actor="ref", battle_id="b", fleets=("brit", "sun"))
        )
        set_up = events[0]
        assert isinstance(set_up, e.BattleSetUp) and state.battle is not None
        drawn = [r for r in set_up.rolls if r.name.startswith("field order, b, fleet ")]
        assert [r.sides for r in drawn] == [6, 6]
        assert state.battle.field_orders == tuple(r.total for r in drawn)
    _, plain = run(create(), c.StartBattle(actor="ref", battle_id="b", fleets=("brit", "sun")))
    assert plain.battle is not None and plain.battle.field_orders == ()
    with pytest.raises(Refusal) as info:
        DYSTOPIAN_WARS.execute(
            DYSTOPIAN_WARS.initial_state(),
            c.CreateCampaign(
                actor="ref", seed="s", fleets=(BRIT, SUN), field_orders=(DECK[0], DECK[0])
            ),
        )
    assert info.value.code == "bad_field_orders"


def _victor(brit_turn: int | None, sun_turn: int | None, vp: tuple[int, int]) -> e.BattleResolved:
    state = with_battle(create(), "skirmish")
    events, _ = report(
        state,
        result("brit", vp[0], field_order_turn=brit_turn),
        result("sun", vp[1], field_order_turn=sun_turn),
        first=None,
    )
    resolved = events[0]
    assert isinstance(resolved, e.BattleResolved)
    return resolved


def test_the_first_field_order_achieved_wins() -> None:
    # L197 "The first player to achieve their Field Order" — L201 "If both players achieve their
    # Field Order on the same turn, or neither do, than the Victor is the player who scores more
    # than a 10% of the total points value in VP’s"
    first = _victor(4, 3, (300, 0))
    assert (first.victor, first.how) == ("sun", "field_order")
    alone = _victor(5, None, (0, 300))
    assert (alone.victor, alone.how) == ("brit", "field_order")
    same = _victor(3, 3, (0, 300))
    assert (same.victor, same.how) == ("sun", "victory_points")
    neither = _victor(None, None, (0, 10))
    assert (neither.victor, neither.how) == (None, "draw")
    state = with_battle(create(), "skirmish")
    with pytest.raises(Refusal):
        report(state, result("brit", 0, field_order_turn=4), result("sun", 0, field_order_turn=2))
    with pytest.raises(Refusal):
        report(state, result("brit", 0, field_order_turn=0), result("sun", 0), first=None)


# --- line 136: staked territories on the map --------------------------------------------------


def _one_of(state: DystopianState, *ids: str) -> str:
    return next(t for t in ids if t in state.territories)


def _three_fleets() -> tuple[DystopianState, dict[str, str]]:
    prus = fleet("prus", "Prussian Empire", "Admiral Kessler")
    _, state = DYSTOPIAN_WARS.execute(
        DYSTOPIAN_WARS.initial_state(),
        c.CreateCampaign(actor="ref", seed="map", fleets=(BRIT, SUN, prus)),
    )
    ids = {
        "depot": _one_of(state, "depot-1", "shipyard-1"),
        "town": _one_of(state, "town-1", "large_town-1"),
        "sun_depot": _one_of(state, "depot-2", "shipyard-2"),
        "sun_town": _one_of(state, "town-2", "large_town-2"),
        "oil": _one_of(state, "oil_derrick-1", "refinery-1"),
    }
    borders = (
        ("fleet_base-1", "fleet_base-2"),  # adjacent
        (ids["depot"], "fleet_base-3"),  # one territory of a third fleet between
        ("fleet_base-3", ids["sun_town"]),
        (ids["town"], "scientists_eyrie"),  # the unheld Eyrie between
        ("scientists_eyrie", ids["sun_depot"]),
    )
    _, state = run(state, c.SetMap(actor="ref", borders=borders, reason="the group's map"))
    _, state = run(state, c.StartBattle(actor="ref", battle_id="b", fleets=("brit", "sun")))
    return state, ids


def test_ruling_staked_pairs_must_be_adjacent_or_one_other_fleets_territory_apart() -> None:
    # Ruling DW-25. L136 "These must be adjacent to each other or no more than ONE enemy held
    # territory away (not the combatants, so as to allow access to players you do not border)"
    state, ids = _three_fleets()
    fighting = ("brit", "sun")
    assert within_reach(state, "fleet_base-1", "fleet_base-2", fighting)
    assert within_reach(state, ids["depot"], ids["sun_town"], fighting)  # via the Prussians
    assert within_reach(state, ids["sun_town"], ids["depot"], fighting)
    assert not within_reach(state, ids["depot"], ids["sun_town"], ("brit", "prus"))
    assert not within_reach(state, ids["town"], ids["sun_depot"], fighting)  # via the Eyrie
    assert not within_reach(state, ids["oil"], "fleet_base-2", fighting)
    battle = state.battle
    assert battle is not None
    chooser = battle.chooser
    other = "sun" if chooser == "brit" else "brit"
    number = {"brit": 1, "sun": 2}  # the fleets' order in the campaign (ruling DW-32)
    with pytest.raises(Refusal) as info:
        run(
            state,
            c.StakeTerritories(
                actor=chooser,
                fleet_id=chooser,
                own=_one_of(state, f"oil_derrick-{number[chooser]}", f"refinery-{number[chooser]}"),
                enemy=f"fleet_base-{number[other]}",
            ),
        )
    assert info.value.code == "not_adjacent"
    events, _ = run(
        state,
        c.StakeTerritories(
            actor=chooser,
            fleet_id=chooser,
            own=f"fleet_base-{number[chooser]}",
            enemy=f"fleet_base-{number[other]}",
        ),
    )
    assert isinstance(events[0], e.Staked)
    with pytest.raises(Refusal) as info:
        run(state, c.SetMap(actor="ref", borders=(("fleet_base-1", "atlantis"),), reason="x"))
    assert info.value.code == "unknown_territory"


# --- 2.2 the Points and Forces columns --------------------------------------------------------


def test_ruling_battle_size_force_limits() -> None:
    # Ruling DW-28. The table's columns (tab-separated in the text):
    # L151 "1-2	Skirmish	600pts	Small/Med Only	Raid"
    # L152 "3-4	Skirmish Royale	900pts	1 DN or 2 other Large/Massive Max	1 Territory Staked"
    # L153 "5-6	Battle Royale	1200pts	Standard	2 Territories Staked"
    for line, row in ((151, "skirmish"), (152, "skirmish_royale"), (153, "battle_royale")):
        assert load_tables().battle_size(row).ref.line == line
    t = load_tables()
    assert t.battle_size("skirmish").small_medium_only
    assert (
        t.battle_size("skirmish_royale").max_dreadnoughts,
        t.battle_size("skirmish_royale").max_other_large,
    ) == (1, 2)
    base = create()
    skirmish = with_battle(base, "skirmish")
    royale = with_battle(base, "skirmish_royale")
    battle_royale = with_battle(base, "battle_royale")
    brit = base.fleets["brit"]

    def problems(state: DystopianState, *ids: str) -> tuple[str, ...]:
        assert state.battle is not None
        return force_problems(
            state.battle, brit, result("brit", 0, *(SR(squadron_id=i) for i in ids))
        )

    # The flagship (Large, the commodore's ship) fights in every size; it counts in the points.
    assert problems(skirmish, "flag", "cruisers") == ()
    assert problems(skirmish, "dread")  # a Dreadnought is not Small/Med
    assert "over the battle's 600" in problems(skirmish, "flag", "cruisers", "frigates")[0]
    assert problems(royale, "flag", "dread", "cruisers") == ()  # 1 DN
    assert problems(battle_royale, "flag", "dread", "cruisers", "frigates", "escorts") == ()
    big = replace(
        base,
        fleets={
            **base.fleets,
            "brit": replace(
                brit,
                squadrons={
                    **brit.squadrons,
                    "bb": replace(
                        brit.squadrons["dread"],
                        squadron_id="bb",
                        vessel_class=VesselClass.LARGE,
                        ships=2,
                        ships_max=2,
                        points=200,
                    ),
                },
            ),
        },
    )
    assert royale.battle is not None
    ok = result("brit", 0, SR(squadron_id="bb"))
    assert force_problems(royale.battle, big.fleets["brit"], ok) == ()  # 2 other Large
    mixed = result("brit", 0, SR(squadron_id="bb"), SR(squadron_id="dread"))
    assert force_problems(royale.battle, big.fleets["brit"], mixed)  # 1 DN and 2 others
    with pytest.raises(Refusal) as info:
        report(skirmish, result("brit", 0, SR(squadron_id="dread")), result("sun", 0))
    assert info.value.code == "force_limits"


# --- MARs from territories and ranks ----------------------------------------------------------


def _with_pirate_haven() -> DystopianState:
    state = create()
    tid = "pirate_haven-1"
    territories = {k: v for k, v in state.territories.items() if k != "opium_traders-1"}
    territories[tid] = Territory(territory_id=tid, kind="pirate_haven", holder="brit")
    return replace(state, territories=territories)


def test_ruling_territory_mars_go_to_one_squadron_while_the_territory_is_used() -> None:
    # Ruling DW-26. L118 "Pirate Haven	+1	One Small class Squadron has the Extended Range MAR"
    state = _with_pirate_haven()
    give = c.AssignMar(
        actor="brit",
        fleet_id="brit",
        territory_id="pirate_haven-1",
        squadron_id="cruisers",
        mar="Extended Range",
    )
    with pytest.raises(Refusal) as info:
        DYSTOPIAN_WARS.execute(state, give)
    assert info.value.code == "wrong_class"
    with pytest.raises(Refusal) as info:
        DYSTOPIAN_WARS.execute(state, replace(give, squadron_id="frigates", mar="Gas Attack"))
    assert info.value.code == "no_mar"
    with pytest.raises(Refusal) as info:
        DYSTOPIAN_WARS.execute(state, replace(give, fleet_id="sun", actor="sun"))
    assert info.value.code == "not_held"
    _, state = DYSTOPIAN_WARS.execute(state, replace(give, squadron_id="frigates"))
    assert squadron_mars(state, "brit", "frigates") == ("Extended Range",)
    _, state = DYSTOPIAN_WARS.execute(state, replace(give, squadron_id="escorts"))  # chosen again
    assert squadron_mars(state, "brit", "frigates") == ()
    assert "Extended Range" in mars_in_force(state, "brit")["escorts"]
    lost = replace(
        state,
        territories={
            **state.territories,
            "pirate_haven-1": replace(state.territories["pirate_haven-1"], holder="sun"),
        },
    )
    assert squadron_mars(lost, "brit", "escorts") == ()  # the territory's MAR goes with it


def test_ruling_granted_mars_count_as_already_held_for_skill_rolls() -> None:
    # Ruling DW-27. L278 "Add MARs, reroll if already have of not applicable" — L304
    # "1: Extended Range" — L344 "5-10 Exp	3: Commodore 2nd Class	+2	Dash and Elan MAR"
    base = _with_pirate_haven()
    _, base = DYSTOPIAN_WARS.execute(
        base,
        c.AssignMar(
            actor="brit",
            fleet_id="brit",
            territory_id="pirate_haven-1",
            squadron_id="frigates",
            mar="Extended Range",
        ),
    )
    frigates = base.fleets["brit"].squadrons["frigates"]
    base = replace(
        base,
        fleets={
            **base.fleets,
            "brit": replace(
                base.fleets["brit"],
                squadrons={**base.fleets["brit"].squadrons, "frigates": replace(frigates, xp=1)},
            ),
        },
    )
    rerolled = 0
    for i in range(60):
        state = with_battle(replace(base, seed=f"mars-{i}"), "skirmish")
        events, _ = report(
            state,
            result(
                "brit",
                0,
                SR(
                    squadron_id="frigates",
                    kills=(K(vessel_class=VesselClass.SMALL, last_of_squadron=True),),
                ),
            ),
            result("sun", 0),
        )
        for ev in events:
            if isinstance(ev, e.SkillGained) and ev.squadron_id == "frigates":
                assert ev.skill != "Extended Range"
                faces = [r.total for r in ev.rolls]
                pairs = list(zip(faces[::2], faces[1::2], strict=True))
                rerolled += sum(1 for s, k in pairs[:-1] if s in (3, 4) and k == 1)
    assert rerolled
    veteran = replace(
        base,
        fleets={
            **base.fleets,
            "brit": replace(
                base.fleets["brit"], commodore=Commodore(name="M", xp=5, dash_and_elan=True)
            ),
        },
    )
    assert commodore_mars(veteran, "brit") == ("Dash and Elan",)
    assert squadron_mars(veteran, "brit", "flag") == ("Dash and Elan",)
    assert squadron_mars(veteran, "brit", "cruisers") == ()
    away = replace(
        veteran,
        fleets={
            **veteran.fleets,
            "brit": replace(
                veteran.fleets["brit"], commodore=Commodore(name="M", xp=12, games_to_miss=1)
            ),
        },
    )
    assert commodore_mars(away, "brit") == ()  # a stand-in brings no MARs (ruling DW-12)


def test_ruling_the_eyrie_allows_dual_shields_on_requisitioned_squadrons() -> None:
    # Ruling DW-29. L82 "No more than one shield generator per ship" — L122 "You may take Dual
    # Shield Generators."
    state = replace(create(), fleets={k: replace(v, rp=20) for k, v in create().fleets.items()})
    new = c.RequisitionSquadron(
        actor="sun",
        fleet_id="sun",
        squadron=squadron("shielded", VesselClass.LARGE, 1, 200, shields_per_ship=2),
    )
    with pytest.raises(Refusal) as info:
        DYSTOPIAN_WARS.execute(state, new)
    assert info.value.code == "treaty"
    _, state = run(
        state,
        c.GrantTerritory(
            actor="ref", territory_id="scientists_eyrie", fleet_id="sun", reason="map"
        ),
    )
    events, _ = DYSTOPIAN_WARS.execute(state, new)
    assert isinstance(events[0], e.SquadronRequisitioned)


def test_ruling_a_field_order_claim_needs_a_drawn_order() -> None:
    # Ruling DW-30. L197 "The first player to achieve their Field Order" wins; with no deck
    # entered (2.3 "As per Spartan Games Update") nothing was drawn, so nothing can be achieved.
    state = with_battle(create(), "skirmish", field_orders=())
    with pytest.raises(Refusal) as turn:
        report(state, result("brit", 0, field_order_turn=2), result("sun", 300), first=None)
    assert turn.value.code == "no_field_order" and "victory points decide" in str(turn.value)
    with pytest.raises(Refusal) as named:
        report(state, result("brit", 0), result("sun", 300), first="brit")
    assert named.value.code == "no_field_order"
    events, _ = report(state, result("brit", 0), result("sun", 300), first=None)
    resolved = events[0]
    assert isinstance(resolved, e.BattleResolved)
    assert (resolved.victor, resolved.how) == ("sun", "victory_points")
