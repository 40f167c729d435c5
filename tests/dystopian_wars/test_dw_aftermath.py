"""3.0 Post Battle Sequence: victor, conquest, repairs, prizes, experience, skills, injuries."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dw_helpers import create, report, result, run, with_battle

from mekref.rules.dice import Dice
from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.experience import (
    prize_rp,
    repair_bill,
    repair_cost,
    roll_skill,
)
from mekref.rules.dystopian_wars.model import (
    Category,
    Commodore,
    CommodoreStatus,
    DystopianState,
    Squadron,
    VesselClass,
)
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal

SR = c.SquadronResult
K = c.Kill


def _of(events: list[Event], kind: type[Event]) -> list[Event]:
    return [ev for ev in events if isinstance(ev, kind)]


def _set_commodore(state: DystopianState, fleet_id: str, commodore: Commodore) -> DystopianState:
    fleet = replace(state.fleets[fleet_id], commodore=commodore)
    return replace(state, fleets={**state.fleets, fleet_id: fleet})


# --- 3.1 victor and conquest -------------------------------------------------------------------


def test_the_first_field_order_wins() -> None:
    events, _ = report(
        with_battle(create(), "skirmish_royale"), result("brit", 0), result("sun", 500)
    )
    resolved = events[0]
    assert isinstance(resolved, e.BattleResolved)
    assert resolved.victor == "brit" and resolved.how == "field_order"


def test_ruling_victory_points_must_beat_ten_percent_of_the_battle_size() -> None:
    # Line 201 "more than a 10% of the total points value"; ruling DW-11: the battle's points.
    state = with_battle(create(), "skirmish_royale")  # 900 points
    events, after = report(state, result("brit", 190), result("sun", 100), first=None)
    resolved = events[0]
    assert (
        isinstance(resolved, e.BattleResolved)
        and resolved.how == "draw"
        and resolved.victor is None
    )
    assert after.territories["town-2"].holder == "sun"
    events, _ = report(state, result("brit", 191), result("sun", 100), first=None)
    resolved = events[0]
    assert isinstance(resolved, e.BattleResolved) and resolved.victor == "brit"


def test_a_raid_lends_the_losers_territory_for_one_battle() -> None:
    # Line 205; ruling DW-10.
    events, state = report(with_battle(create(), "skirmish"), result("brit", 0), result("sun", 0))
    assert e.TerritoryLent(territory_id="town-2", from_fleet="sun", to_fleet="brit") in events
    assert state.territories["town-2"].holder == "sun"
    assert state.territories["town-2"].lent_to == "brit"
    grants = {
        g.fleet_id: g
        for g in _of(events, e.RequisitionGranted)
        if isinstance(g, e.RequisitionGranted)
    }
    assert ("town-2", 1) in grants["brit"].territory_rp
    assert all(tid != "town-2" for tid, _ in grants["sun"].territory_rp)
    events, state = report(
        with_battle(state, "skirmish"), result("brit", 0), result("sun", 0), first="sun"
    )
    assert e.LoansEnded(territory_ids=("town-2",)) in events
    assert state.territories["town-2"].lent_to is None


def test_a_skirmish_royale_takes_the_losers_territory() -> None:
    events, state = report(
        with_battle(create(), "skirmish_royale"), result("brit", 0), result("sun", 0), first="sun"
    )
    assert e.TerritoryTaken(territory_id="town-1", from_fleet="brit", to_fleet="sun") in events
    assert state.territories["town-1"].holder == "sun"


def test_ruling_a_battle_royale_victor_chooses_one_of_the_two() -> None:
    stakes = (("brit", "town-1", "town-2"), ("sun", "fleet_base-2", "fleet_base-1"))
    state = with_battle(create(), "battle_royale", stakes=stakes)
    with pytest.raises(Refusal) as info:
        report(state, result("brit", 0), result("sun", 0))
    assert info.value.code == "conquest_choice"
    _, after = report(state, result("brit", 0), result("sun", 0), choice="fleet_base-2")
    assert after.territories["fleet_base-2"].holder == "brit"
    assert after.territories["town-2"].holder == "sun"


# --- 3.2 repairs and prizes --------------------------------------------------------------------


def _ship(vessel_class: VesselClass, ships: int, **kw: object) -> Squadron:
    return replace(
        Squadron(
            squadron_id="s",
            name="S",
            vessel_class=vessel_class,
            category=Category.NAVAL,
            ships=ships,
            ships_max=ships,
            points=100,
        ),
        **kw,  # type: ignore[arg-type]
    )


def test_repair_example_four_nakatsu_cruisers_cost_one_rp() -> None:
    # Lines 238-240: one sunk, the others damaged: "Total RP cost is 1 RP."
    squadron = _ship(VesselClass.CRUISER_BOMBER, 4)
    bill = repair_bill(
        squadron, SR(squadron_id="s", ships_lost=1, damaged=True, crippled=False), won=False
    )
    assert repair_cost(replace(squadron, bill=bill)) == 1


def test_ruling_minor_once_per_squadron_major_per_ship_replacement_per_squadron() -> None:
    # Ruling DW-2 (lines 215-225).
    gunships = _ship(VesselClass.MEDIUM_CAPITAL, 3)
    bill = repair_bill(gunships, SR(squadron_id="s", ships_lost=2, damaged=True), won=False)
    assert (bill.minor, bill.major_ships) == (True, 2)
    assert repair_cost(replace(gunships, bill=bill)) == 1 + 2 * 2
    wiped = repair_bill(gunships, SR(squadron_id="s", ships_lost=3), won=False)
    assert wiped.replacement and repair_cost(replace(gunships, bill=wiped)) == 5
    battleship = _ship(VesselClass.LARGE, 1)
    crippled = repair_bill(battleship, SR(squadron_id="s", damaged=True, crippled=True), won=False)
    assert repair_cost(replace(battleship, bill=crippled)) == 4
    scratched = repair_bill(battleship, SR(squadron_id="s", damaged=True), won=False)
    assert repair_cost(replace(battleship, bill=scratched)) == 2
    dn = _ship(VesselClass.DREADNOUGHT, 1)
    sunk = repair_bill(dn, SR(squadron_id="s", ships_lost=1), won=False)
    assert repair_cost(replace(dn, bill=sunk)) == 11


def test_ruling_a_massive_vessel_repairs_as_a_special() -> None:
    # Ruling DW-3: the repair table has no Massive row; "Specials" covers it.
    massive = _ship(VesselClass.MASSIVE, 1)
    bill = repair_bill(massive, SR(squadron_id="s", ships_lost=1), won=False)
    assert repair_cost(replace(massive, bill=bill)) == 7


def test_ruling_prizes_pool_over_the_battle() -> None:
    # Lines 246-248; ruling DW-18.
    small = K(vessel_class=VesselClass.SMALL, prized=True)
    assert prize_rp([small] * 3) == 0 and prize_rp([small] * 4) == 1 and prize_rp([small] * 9) == 2
    medium = K(vessel_class=VesselClass.CRUISER_BOMBER, prized=True)
    gunship = K(vessel_class=VesselClass.MEDIUM_CAPITAL, prized=True)
    assert prize_rp([medium, gunship]) == 1
    assert prize_rp([K(vessel_class=VesselClass.LARGE, prized=True)]) == 1
    assert prize_rp([K(vessel_class=VesselClass.DREADNOUGHT, prized=True)]) == 2
    assert prize_rp([K(vessel_class=VesselClass.MASSIVE, prized=True)]) == 2
    assert prize_rp([K(vessel_class=VesselClass.DREADNOUGHT)]) == 0  # sunk, not prized


def test_prizes_pay_only_the_victor() -> None:
    kills = (K(vessel_class=VesselClass.LARGE, prized=True),)
    state = with_battle(create(), "skirmish_royale")
    events, _ = report(
        state,
        result("brit", 0, SR(squadron_id="frigates", kills=kills)),
        result("sun", 0, SR(squadron_id="escorts", kills=kills)),
    )
    grants = {
        g.fleet_id: g.prize_rp
        for g in _of(events, e.RequisitionGranted)
        if isinstance(g, e.RequisitionGranted)
    }
    assert grants == {"brit": 1, "sun": 0}


def test_derelicts_taken_back_by_the_victor_are_minor_damage() -> None:
    # Line 250.
    cruisers = _ship(VesselClass.CRUISER_BOMBER, 3)
    r = SR(squadron_id="s", ships_lost=1, ships_recaptured=1)
    assert repair_bill(cruisers, r, won=True) == replace(
        repair_bill(cruisers, SR(squadron_id="s", damaged=True), won=True)
    )
    assert repair_bill(cruisers, r, won=False).major_ships == 1


def test_ruling_requisition_points_lapse_at_the_next_grant() -> None:
    # Ruling DW-1: each post-battle grant replaces what was left unspent.
    state = with_battle(create(), "skirmish_royale")
    events, state = report(state, result("brit", 0), result("sun", 0))
    first = state.fleets["sun"].rp
    grant = _of(events, e.RequisitionGranted)[1]
    assert isinstance(grant, e.RequisitionGranted) and first == grant.total
    events, state = report(
        with_battle(state, "skirmish_royale", stakes=(("brit", "fleet_base-1", "fleet_base-2"),)),
        result("brit", 0),
        result("sun", 0),
    )
    grant = _of(events, e.RequisitionGranted)[1]
    assert isinstance(grant, e.RequisitionGranted) and state.fleets["sun"].rp == grant.total


def test_ruling_variable_requisition_rolls_at_every_grant() -> None:
    # Ruling DW-14: "+D3" and "+D2" territories roll each time.
    events, _ = report(
        with_battle(create(), "skirmish_royale"), result("brit", 0), result("sun", 0)
    )
    for grant in _of(events, e.RequisitionGranted):
        assert isinstance(grant, e.RequisitionGranted)
        rolled = {r.name.rsplit(", ", 1)[1]: r for r in grant.rolls}
        for territory_id, rp in grant.territory_rp:
            if territory_id in rolled:
                assert rolled[territory_id].total == rp and rolled[territory_id].sides in (2, 3)


def test_repairs_are_paid_from_requisition_points_or_left_in_dry_dock() -> None:
    state = with_battle(create(), "skirmish_royale")
    _, state = report(
        state,
        result("brit", 0),
        result(
            "sun",
            0,
            SR(squadron_id="dread", ships_lost=1),
            SR(squadron_id="frigates", ships_lost=1, damaged=True),
        ),
    )
    sun = state.fleets["sun"]
    assert sun.squadrons["dread"].destroyed and sun.squadrons["dread"].bill.replacement
    state = replace(state, fleets={**state.fleets, "sun": replace(sun, rp=5)})
    events, state = run(state, c.Repair(actor="sun", fleet_id="sun", squadron_id="frigates"))
    assert events == [
        e.Repaired(fleet_id="sun", squadron_id="frigates", rp_spent=0, free=False, complete=True)
    ]
    assert state.fleets["sun"].squadrons["frigates"].ships == 4
    with pytest.raises(Refusal) as info:
        run(state, c.Repair(actor="sun", fleet_id="sun", squadron_id="dread"))
    assert info.value.code == "insufficient_rp"
    _, state = run(state, c.Repair(actor="sun", fleet_id="sun", squadron_id="dread", dry_dock=True))
    assert state.fleets["sun"].squadrons["dread"].dry_dock == 5 and state.fleets["sun"].rp == 0
    sun = state.fleets["sun"]
    state = replace(state, fleets={**state.fleets, "sun": replace(sun, rp=6)})
    events, state = run(state, c.Repair(actor="sun", fleet_id="sun", squadron_id="dread"))
    assert events[0] == e.Repaired(
        fleet_id="sun", squadron_id="dread", rp_spent=6, free=False, complete=True
    )
    dread = state.fleets["sun"].squadrons["dread"]
    assert not dread.destroyed and dread.ships == 1 and dread.xp == 0


def test_ruling_a_depot_replaces_one_small_squadron_free() -> None:
    # Line 120; ruling DW-19.
    state = with_battle(create(), "skirmish_royale")
    _, state = report(
        state,
        result("brit", 0),
        result(
            "sun",
            0,
            SR(squadron_id="escorts", ships_lost=3),
            SR(squadron_id="frigates", ships_lost=4),
        ),
    )
    depots = [t for t in state.held("sun") if t.kind in ("depot", "shipyard")]
    assert len(depots) == 1
    events, state = run(
        state, c.Repair(actor="sun", fleet_id="sun", squadron_id="escorts", free=True)
    )
    assert isinstance(events[0], e.Repaired) and events[0].free and events[0].rp_spent == 0
    with pytest.raises(Refusal) as info:
        run(state, c.Repair(actor="sun", fleet_id="sun", squadron_id="frigates", free=True))
    assert info.value.code == "no_free_replacement"


def test_a_new_squadron_costs_its_replacement_column() -> None:
    state = create()
    state = replace(state, fleets={**state.fleets, "sun": replace(state.fleets["sun"], rp=4)})
    spec = c.SquadronSpec(
        squadron_id="new",
        name="New",
        vessel_class=VesselClass.CRUISER_BOMBER,
        category=Category.NAVAL,
        ships=3,
        points=300,
    )
    _, after = run(state, c.RequisitionSquadron(actor="sun", fleet_id="sun", squadron=spec))
    assert after.fleets["sun"].rp == 1 and "new" in after.fleets["sun"].squadrons
    big = replace(spec, squadron_id="big", vessel_class=VesselClass.DREADNOUGHT)
    with pytest.raises(Refusal):
        run(state, c.RequisitionSquadron(actor="sun", fleet_id="sun", squadron=big))


# --- 3.3 squadron experience and skills --------------------------------------------------------


def _squadron_event(
    events: list[Event], squadron_id: str, fleet_id: str = "brit"
) -> e.SquadronAfterBattle:
    for ev in events:
        if (
            isinstance(ev, e.SquadronAfterBattle)
            and ev.squadron_id == squadron_id
            and ev.fleet_id == fleet_id
        ):
            return ev
    raise AssertionError(squadron_id)


def test_ruling_squadron_experience_rows() -> None:
    # Lines 260-270; ruling DW-4 for medium squadrons and the enemy flagship.
    kills = (
        K(vessel_class=VesselClass.SMALL, last_of_squadron=True),  # +1
        K(vessel_class=VesselClass.SMALL),  # nothing: not the last ship
        K(vessel_class=VesselClass.CRUISER_BOMBER, last_of_squadron=True),  # +2
        K(vessel_class=VesselClass.LARGE, prized=True, enemy_flagship=True),  # +2 and +1
        K(vessel_class=VesselClass.DREADNOUGHT),  # +3
    )
    events, _ = report(
        with_battle(create(), "skirmish_royale"),
        result("brit", 0, SR(squadron_id="cruisers", kills=kills)),
        result("sun", 0),
    )
    ev = _squadron_event(events, "cruisers")
    assert ev.xp_change == 1 + 1 + 2 + 2 + 1 + 3
    assert ev.reasons == (
        "survived",
        "last_small",
        "capital",
        "enemy_flagship_prized",
        "capital",
        "dreadnought",
    )
    events, _ = report(
        with_battle(create(), "skirmish_royale"),
        result("brit", 0, SR(squadron_id="cruisers", kills=kills)),
        result("sun", 0),
        first="sun",
    )
    assert "enemy_flagship_prized" not in _squadron_event(events, "cruisers").reasons  # not held


def test_crippled_squadrons_lose_one_unless_on_shore_leave() -> None:
    state = with_battle(create(), "skirmish_royale")
    events, _ = report(
        state, result("brit", 0, SR(squadron_id="frigates", ships_lost=2)), result("sun", 0)
    )
    assert _squadron_event(events, "frigates").xp_change == 0  # +1 survived, -1 half strength
    # The fleet holds a Town: "One Squadron can ignore any Exp loss for being crippled, but starts
    # the next game Broken" (line 116).
    events, after = report(
        state,
        result("brit", 0, SR(squadron_id="frigates", ships_lost=2), shore_leave=("frigates",)),
        result("sun", 0),
    )
    ev = _squadron_event(events, "frigates")
    assert ev.xp_change == 1 and ev.broken_next_battle
    assert after.fleets["brit"].squadrons["frigates"].broken_next_battle
    with pytest.raises(Refusal) as info:
        report(
            state,
            result(
                "brit",
                0,
                SR(squadron_id="frigates"),
                SR(squadron_id="escorts"),
                shore_leave=("frigates", "escorts"),
            ),
            result("sun", 0),
        )
    assert info.value.code == "shore_leave"
    events, _ = run(after, c.StartBattle(actor="ref", battle_id="next", fleets=("brit", "sun")))
    broken = [ev for ev in events if isinstance(ev, e.SquadronsBroken) and ev.fleet_id == "brit"]
    assert broken and "frigates" in broken[0].squadron_ids


def test_ruling_experience_never_drops_below_zero() -> None:
    # Ruling DW-6.
    events, _ = report(
        with_battle(create(), "skirmish_royale"),
        result("brit", 0),
        result("sun", 0, SR(squadron_id="flag", crippled=True, damaged=True), flagship_lost=False),
    )
    assert _squadron_event(events, "flag", "sun").xp == 0


def test_a_destroyed_squadron_loses_experience_and_skills() -> None:
    state = create()
    sun = state.fleets["sun"]
    veteran = replace(sun.squadrons["escorts"], xp=6, skills=("Die Hards",), skill_rolls=2)
    state = replace(
        state,
        fleets={
            **state.fleets,
            "sun": replace(sun, squadrons={**sun.squadrons, "escorts": veteran}),
        },
    )
    _, after = report(
        with_battle(state, "skirmish_royale"),
        result("brit", 0),
        result("sun", 0, SR(squadron_id="escorts", ships_lost=3)),
    )
    lost = after.fleets["sun"].squadrons["escorts"]
    assert lost.destroyed and lost.xp == 0 and lost.skills == () and lost.skill_rolls == 0


def test_skill_rolls_at_each_experience_break() -> None:
    # Line 285: Small/Med breaks 2, 5, 9 ... A cruiser squadron at 1 XP earning +8 crosses 2, 5, 9.
    state = create()
    brit = state.fleets["brit"]
    cruisers = replace(brit.squadrons["cruisers"], xp=1)
    state = replace(
        state,
        fleets={
            **state.fleets,
            "brit": replace(brit, squadrons={**brit.squadrons, "cruisers": cruisers}),
        },
    )
    kills = (
        K(vessel_class=VesselClass.DREADNOUGHT),
        K(vessel_class=VesselClass.DREADNOUGHT),
        K(vessel_class=VesselClass.LARGE),
    )
    events, after = report(
        with_battle(state, "skirmish_royale"),
        result("brit", 0, SR(squadron_id="cruisers", kills=kills)),
        result("sun", 0),
    )
    gained = [ev for ev in events if isinstance(ev, e.SkillGained)]
    assert [g.at_xp for g in gained] == [2, 5, 9]
    squadron = after.fleets["brit"].squadrons["cruisers"]
    assert squadron.xp == 10 and squadron.skill_rolls == 3 and len(set(squadron.skills)) == 3
    assert squadron.cost == 300 * 13 / 10  # +10% per skill (line 280)


def test_ruling_skill_set_is_a_d6_read_against_the_bands_and_held_skills_reroll() -> None:
    # Ruling DW-5 (lines 278, 289-293).
    every = tuple(f"{n}" for n in range(0))
    skill_set, skill, rolls, _ = roll_skill(Dice("x"), "s", 2, every, ())
    assert rolls[0].sides == 6 and skill_set == {
        1: "weapons",
        2: "weapons",
        3: "marines",
        4: "marines",
    }.get(rolls[0].total, "ship")
    assert skill is not None
    again = roll_skill(Dice("x"), "s", 2, (skill,), ())
    assert again[1] != skill and len(again[2]) > 2
    from mekref.rules.dystopian_wars.table_loader import load_tables

    all_skills = tuple(r.name for r in load_tables().skills.values())
    assert roll_skill(Dice("x"), "s", 2, all_skills, ())[1] is None


# --- 3.4 commodore -----------------------------------------------------------------------------


def _commodore_event(events: list[Event], fleet_id: str) -> e.CommodoreExperience:
    for ev in events:
        if isinstance(ev, e.CommodoreExperience) and ev.fleet_id == fleet_id:
            return ev
    raise AssertionError(fleet_id)


def test_commodore_experience_rows() -> None:
    # Lines 325-337.
    for battle_type, xp in (("skirmish", 1), ("skirmish_royale", 2)):
        events, _ = report(with_battle(create(), battle_type), result("brit", 0), result("sun", 0))
        assert _commodore_event(events, "brit").xp_change == xp
    stakes = (("brit", "town-1", "town-2"), ("sun", "fleet_base-2", "fleet_base-1"))
    state = with_battle(create(), "battle_royale", stakes=stakes, ranks=(1, 3))
    events, _ = report(
        state,
        result(
            "brit",
            0,
            SR(squadron_id="flag", ships_lost=1),
            SR(squadron_id="dread", ships_lost=1),
            flagship_lost=True,
        ),
        result("sun", 0),
        choice="town-2",
    )
    ev = _commodore_event(events, "brit")
    # +3 Battle, +1 higher-ranked foe, -1 battleship, -2 Dreadnought, -2 flagship
    assert ev.reasons[:5] == (
        "win_battle_royale",
        "beat_higher_rank",
        "dreadnought_lost",
        "large_or_massive_lost",
        "flagship_lost",
    )
    assert ev.xp == max(0, 3 + 1 - 2 - 1 - 2 + (1 if "heroic_escape" in ev.reasons else 0))


def test_tactical_prowess_double_sixes_and_ones() -> None:
    _, state = report(
        with_battle(create(), "skirmish"),
        result("brit", 0, double_sixes=1),
        result("sun", 0, double_ones=2),
    )
    assert state.fleets["brit"].commodore.prowess == 1
    assert state.fleets["brit"].commodore.dash_and_elan  # line 163
    assert state.fleets["sun"].commodore.prowess == -2
    # Line 165: Chaos and Disarray on the flagship "until repaired".
    assert state.fleets["sun"].flagship_chaos and not state.fleets["brit"].flagship_chaos


def test_ruling_chaos_and_disarray_is_repaired_as_minor_damage() -> None:
    # Ruling DW-23 (line 165 "until repaired").
    _, state = report(
        with_battle(create(), "skirmish"), result("brit", 0), result("sun", 0, double_ones=1)
    )
    flag = state.fleets["sun"].squadrons["flag"]
    assert flag.bill.minor and repair_cost(flag) == 2  # the Battleships row's Minor Repairs
    _, state = run(state, c.Repair(actor="sun", fleet_id="sun", squadron_id="flag"))
    assert not state.fleets["sun"].flagship_chaos


def _injured(
    seed_prefix: str, want: str, hospital: bool = False
) -> tuple[list[Event], DystopianState]:
    for i in range(200):
        state = replace(create(), seed=f"{seed_prefix}-{i}")
        if hospital:
            town = next(
                t for t in state.territories.values() if t.holder == "sun" and t.kind == "town"
            )
            state = replace(
                state,
                territories={
                    **state.territories,
                    town.territory_id: replace(town, kind="large_town"),
                },
            )
        events, after = report(
            with_battle(state, "skirmish"), result("brit", 0), result("sun", 0, flagship_lost=True)
        )
        injury = next(ev for ev in events if isinstance(ev, e.CommodoreInjury))
        if injury.result == want and (not hospital or injury.hospital_reroll):
            return events, after
    raise AssertionError(want)


def test_ruling_a_dead_commodore_is_succeeded_at_zero_experience() -> None:
    # Line 353; ruling DW-12.
    _, state = _injured("dead", "dead")
    commodore = state.fleets["sun"].commodore
    assert commodore.xp == 0 and commodore.succession == 1 and commodore.name == "sun commodore 2"


def test_a_hospital_rerolls_death() -> None:
    # Large Town: "Hospital: Reroll Death of Commodore roll" (line 117).
    events, _ = _injured("hospital", "captured", hospital=True)
    injury = next(ev for ev in events if isinstance(ev, e.CommodoreInjury))
    assert injury.rolls[0].total == 1 and len(injury.rolls) == 2


def test_ruling_a_captured_commodore_is_ransomed_in_rp() -> None:
    # Line 354; ruling DW-20.
    _, state = _injured("captured", "captured")
    assert state.fleets["sun"].commodore.status is CommodoreStatus.CAPTURED
    assert not state.fleets["sun"].commodore.present
    with pytest.raises(Refusal):
        run(
            state,
            c.ReleaseCommodore(actor="sun", fleet_id="sun", ransom_rp=state.fleets["sun"].rp + 1),
        )
    _, after = run(state, c.ReleaseCommodore(actor="sun", fleet_id="sun", ransom_rp=3))
    assert (
        after.fleets["sun"].commodore.present
        and after.fleets["sun"].rp == state.fleets["sun"].rp - 3
    )


def test_ruling_an_injured_commodore_misses_games_and_earns_nothing_meanwhile() -> None:
    # Lines 355-356; ruling DW-12.
    _, state = _injured("badly", "badly_injured")
    assert state.fleets["sun"].commodore.games_to_miss == 2
    xp_before = state.fleets["sun"].commodore.xp
    events, state = report(
        with_battle(state, "skirmish", present=(True, False)),
        result("brit", 0),
        result("sun", 0),
        first="sun",
    )
    assert e.GameMissed(fleet_id="sun", games_to_miss=1) in events
    assert state.fleets["sun"].commodore.xp == xp_before


def test_heroic_escape_earns_one() -> None:
    events, state = _injured("heroic", "heroic_escape")
    assert "heroic_escape" in _commodore_event(events, "sun").reasons
    assert state.fleets["sun"].commodore.xp == 1


def test_ruling_victory_by_holding_eleven_territories() -> None:
    # Line 20; ruling DW-15.
    state = create()
    sun_lands = sorted(t for t, terr in state.territories.items() if terr.holder == "sun")
    territories = dict(state.territories)
    for tid in sun_lands[:4]:
        territories[tid] = replace(territories[tid], holder="brit")
    state = replace(state, territories=territories)
    assert state.owned_count("brit") == 10
    events, after = report(
        with_battle(state, "skirmish_royale", stakes=(("brit", "town-1", sun_lands[4]),)),
        result("brit", 0),
        result("sun", 0),
    )
    assert events[-1] == e.CampaignWon(fleet_id="brit", condition="territories")
    assert after.winner == "brit"
    with pytest.raises(Refusal) as info:
        run(after, c.StartBattle(actor="ref", battle_id="late", fleets=("brit", "sun")))
    assert info.value.code == "campaign_over"


def test_victory_by_commodore_experience() -> None:
    # Line 24: "Whose Commodore attains 21 Experience Points".
    state = _set_commodore(create(), "sun", Commodore(name="H", xp=20))
    events, after = report(
        with_battle(state, "skirmish"), result("brit", 0), result("sun", 0), first="sun"
    )
    assert events[-1] == e.CampaignWon(fleet_id="sun", condition="commodore")
    assert after.win_condition == "commodore"


def test_ruling_only_reported_squadrons_fought() -> None:
    # Ruling DW-21: "+1 Exp per battle survived" goes to the squadrons the result lists.
    events, after = report(
        with_battle(create(), "skirmish"),
        result("brit", 0, SR(squadron_id="frigates")),
        result("sun", 0),
    )
    assert _squadron_event(events, "frigates").xp_change == 1
    assert after.fleets["brit"].squadrons["escorts"].xp == 0
    with pytest.raises(Refusal) as info:
        report(
            with_battle(create(), "skirmish"),
            result("brit", 0, SR(squadron_id="nope")),
            result("sun", 0),
        )
    assert info.value.code == "unknown_squadron"
