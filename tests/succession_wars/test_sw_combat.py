"""Combat: combinations, Leaders, automatic kills, the dead's counterattack, losses, retreats,
captures, Manufacturing Center damage, Terra, and battles reported from MegaMek."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sw_helpers import (
    Game,
    clear_region,
    edit,
    move_leader,
    move_ship,
    move_unit,
    set_house,
    set_region,
    to_phase,
)

from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.model import (
    REFEREE,
    CenterState,
    Interdict,
    LeaderStatus,
    Status,
)

L, D = "Liao", "Davion"
CAV1 = "liao-st-ives-armored-cavalry-1"  # 7
CAV2 = "liao-st-ives-armored-cavalry-2"  # 6
SIAN = "liao-sian-reserves-1"  # 5
HIGH = "liao-northwind-highlanders-1"  # 8
MCC1 = "liao-mccarrons-armored-cavalry-1"  # Mercenary 6
DRACON = "liao-15th-dracon-1"  # Mercenary 2
GUARD1 = "davion-davion-guards-1"  # 7
GUARD2 = "davion-davion-guards-2"  # 5
LINDON = "davion-lindons-company-1"  # 1


def battle(
    attackers: tuple[str, ...],
    defenders: tuple[str, ...],
    leaders: tuple[str, ...] = (),
    region: str = "Daniels",
) -> Game:
    """Liao's Combat Phase with exactly these units (and Leaders) in ``region``."""
    g = Game()
    to_phase(g, L, "movement")
    clear_region(g, region)
    for uid in attackers + defenders:
        move_unit(g, uid, region)
    for lid in leaders:
        move_leader(g, lid, region)
    g.end_phase(L)
    return g


def attack(g: Game, region: str = "Daniels", **kw: object) -> m.SWCombatRolled:
    events = g.run(m.SWAttack(actor=L, house=L, region=region, **kw))  # type: ignore[arg-type]
    rolled = [e for e in events if isinstance(e, m.SWCombatRolled)]
    return rolled[0]


def refused(g: Game, command: m.Command) -> str:  # type: ignore[name-defined]
    with pytest.raises(Refusal) as err:
        g.run(command)
    return err.value.code


def test_counters_of_one_unit_combine_and_ten_is_an_automatic_kill() -> None:
    """Cavalry 7 + 6 = 13: automatic, no die. Sian Reserves 5 attacks alone and rolls."""
    g = battle((CAV1, CAV2, SIAN), (GUARD1, GUARD2))
    rolled = attack(g, pairs=((CAV1, CAV2),))
    first, second = rolled.results
    assert (first.units, first.value, first.auto, first.face, first.hit) == (
        (CAV1, CAV2),
        13,
        True,
        0,
        True,
    )
    assert second.units == (SIAN,) and second.value == 5 and not second.auto
    assert second.hit == (second.face <= 5)
    assert len(rolled.rolls) == 1


def test_different_units_combine_only_with_military_ability() -> None:
    """Cavalry + Sian Reserves need a Leader with Military Ability; Pavel Ridzik (M 2) allows
    two such pairs, not three."""
    g = battle((CAV1, SIAN), (GUARD1,))
    cmd = m.SWAttack(actor=L, house=L, region="Daniels", pairs=((CAV1, SIAN),))
    assert refused(g, cmd) == "no_leader"
    g = battle((CAV1, SIAN, CAV2, HIGH), (GUARD1,), leaders=("liao-pavel-ridzik",))
    rolled = attack(g, pairs=((CAV1, SIAN), (CAV2, HIGH)))
    assert [r.value for r in rolled.results] == [12, 14]


def test_mercenary_leaders_combine_only_mercenary_units() -> None:
    """Archie McCarron (M 2) may pair McCarron's Cavalry with the 15th Dracon, not with House
    units."""
    g = battle((CAV1, SIAN, MCC1, DRACON), (GUARD1,), leaders=("liao-archie-mccarron",))
    cmd = m.SWAttack(actor=L, house=L, region="Daniels", pairs=((CAV1, SIAN),))
    assert refused(g, cmd) == "no_leader"
    rolled = attack(g, pairs=((MCC1, DRACON),))
    assert rolled.results[0].value == 8


def test_leader_combat_ability_raises_the_attack_value() -> None:
    """Ruling SW-01: the roll succeeds at or under the value, so Combat Ability is added to the
    value: Highlanders 8 + Maximilian Liao's 2 = 10, an automatic kill (ruling SW-02)."""
    g = battle((HIGH,), (GUARD1,), leaders=("liao-maximilian-liao",))
    rolled = attack(g, leader="liao-maximilian-liao", leader_group=(HIGH,))
    assert rolled.results[0].value == 10 and rolled.results[0].auto


def test_a_single_counter_of_ten_kills_without_a_roll() -> None:
    """Ruling SW-02: any attack value of 10 or more kills, a single counter included."""
    g = battle((HIGH,), (GUARD1,))
    units = dict(g.state.units)

    units[HIGH] = replace(units[HIGH], value=10)
    edit(g, units=units)
    rolled = attack(g)
    assert rolled.results[0].auto and not rolled.rolls


def test_counterattack_rolls_with_the_dead() -> None:
    """Two automatic kills leave both Davion Guards dead, but both still counterattack."""
    g = battle((CAV1, CAV2, HIGH, SIAN), (GUARD1, GUARD2), leaders=("liao-pavel-ridzik",))
    rolled = attack(g, pairs=((CAV1, CAV2), (HIGH, SIAN)))
    assert rolled.hits == 2
    events = g.run(m.SWCounterattack(actor=D, house=D, region="Daniels"))
    counter = events[0]
    assert isinstance(counter, m.SWCombatRolled)
    assert len(counter.results) == 2
    due = g.state.combat.losses_due if g.state.combat else {}
    assert due[D] == 2
    assert due.get(L, 0) == counter.hits


def test_losses_are_chosen_by_their_owner_and_must_be_exact() -> None:
    g = battle((CAV1, CAV2), (GUARD1, GUARD2))
    attack(g, pairs=((CAV1, CAV2),))
    g.run(m.SWCounterattack(actor=D, house=D, region="Daniels"))
    assert refused(g, m.SWTakeLosses(actor=D, house=D, region="Daniels", units=())) == "bad_losses"
    assert (
        refused(g, m.SWTakeLosses(actor=L, house=D, region="Daniels", units=(GUARD2,)))
        == "not_your_house"
    )
    g.run(m.SWTakeLosses(actor=D, house=D, region="Daniels", units=(GUARD2,)))
    assert g.state.units[GUARD2].status is Status.DESTROYED


def _to_retreat(g: Game) -> None:
    """Run round 1 until the retreat decisions (both sides keep units)."""
    attack(g)
    g.run(m.SWCounterattack(actor=D, house=D, region="Daniels"))
    c = g.state.combat
    assert c is not None
    for house, n in dict(c.losses_due).items():
        own = sorted(u.id for u in g.state.combat_units("Daniels", house))
        g.run(m.SWTakeLosses(actor=house, house=house, region="Daniels", units=tuple(own[:n])))


def test_retreat_must_end_in_a_friendly_region() -> None:
    """Ruling SW-12: the Attacker declares first; a retreat needs a JumpShip there and ends in
    a friendly controlled Region free of enemy forces."""
    g = battle((SIAN, "liao-sian-reserves-2"), (LINDON, "davion-millers-marauders-1"))
    move_ship(g, "liao-js-2", "Daniels")
    # Pick a seed position where both sides survive round 1: set values so nobody can hit.
    units = dict(g.state.units)

    for uid in (SIAN, "liao-sian-reserves-2", LINDON, "davion-millers-marauders-1"):
        units[uid] = replace(units[uid], value=0)
    edit(g, units=units)
    _to_retreat(g)
    c = g.state.combat
    assert c is not None and c.stage == "retreat_attacker"
    assert refused(g, m.SWRetreat(actor=D, house=D, region="Daniels")) == "not_your_decision"
    to_emerson = m.RetreatMove(jumpship="liao-js-2", carry=(SIAN,), path=("Emerson",))
    assert refused(g, m.SWRetreat(actor=L, house=L, region="Daniels", moves=(to_emerson,))) == (
        "bad_retreat"
    )
    home = m.RetreatMove(jumpship="liao-js-2", carry=(SIAN,), path=("St. Ives",))
    g.run(m.SWRetreat(actor=L, house=L, region="Daniels", moves=(home,)))
    assert g.state.units[SIAN].region == "St. Ives"
    events = g.run(m.SWRetreat(actor=D, house=D, region="Daniels"))
    assert isinstance(events[-1], m.SWCombatRoundEnded)
    assert g.state.combat is not None and g.state.combat.round == 2


def test_combat_must_be_fought_before_the_phase_ends() -> None:
    g = battle((SIAN,), (LINDON,))
    assert refused(g, m.SWEndPhase(actor=L, house=L)) == "combat_owed"


def test_mutual_destruction_keeper_captures() -> None:
    """Ruling SW-27: both sides wiped out at once; the Region's owner before the fight (Davion)
    keeps it and captures Liao's JumpShip and Leader there."""
    g = battle((CAV1, CAV2), (GUARD1, GUARD2), leaders=("liao-charles-ling",))
    move_ship(g, "liao-js-2", "Daniels")
    g.run(
        m.SWReportBattle(actor=L, house=L, region="Daniels", destroyed=(CAV1, CAV2, GUARD1, GUARD2))
    )
    assert g.state.controller("Daniels") == D
    assert g.state.jumpships["liao-js-2"].owner == D
    ling = g.state.leaders["liao-charles-ling"]
    assert (ling.status, ling.region) == (LeaderStatus.CAPTURED, "New Avalon")


def test_reported_battle_must_finish() -> None:
    """Ruling SW-23: a reported battle leaves one side's combat units at most."""
    g = battle((CAV1, CAV2), (GUARD1, GUARD2))
    cmd = m.SWReportBattle(actor=L, house=L, region="Daniels", destroyed=(GUARD1,))
    assert refused(g, cmd) == "battle_unfinished"
    cmd = m.SWReportBattle(actor=L, house=L, region="Daniels", destroyed=("liao-js-1",))
    assert refused(g, cmd) == "not_here"


def test_center_damage_modifier_is_bounded_by_the_attacking_strength() -> None:
    """13 points attacking allow +0 to +2; more is refused."""
    g = battle((CAV1, CAV2), (GUARD1,), region="Achemar")
    cmd = m.SWAttack(actor=L, house=L, region="Achemar", center_modifier=3)
    assert refused(g, cmd) == "bad_modifier"
    events = g.run(
        m.SWReportBattle(actor=L, house=L, region="Achemar", destroyed=(GUARD1,), center_modifier=0)
    )
    rolled = next(e for e in events if isinstance(e, m.SWCenterDamageRolled))
    assert rolled.modifier == 0 and rolled.damaged == (rolled.face >= 8)


def test_center_damage_rolled_before_capture() -> None:
    """Ruling SW-09: the damage roll comes before the Region changes hands; the -1 falls on the
    House holding the center then (Davion), and a damaged center earns no capture bonus. A
    damaged center damaged again is destroyed (-2 for its holder)."""
    g = battle((CAV1, CAV2), (GUARD1,), region="Achemar")
    set_region(g, "Achemar", center=CenterState.DAMAGED)
    events = g.run(m.SWReportBattle(actor=L, house=L, region="Achemar", destroyed=(GUARD1,)))
    rolled = next(e for e in events if isinstance(e, m.SWCenterDamageRolled))
    pending = [(e.house, e.delta, e.reason) for e in events if isinstance(e, m.SWTechPending)]
    if rolled.damaged:
        assert g.state.regions["Achemar"].center is CenterState.NONE
        assert ("Davion", -2, "center at Achemar") in pending
    else:
        assert g.state.regions["Achemar"].center is CenterState.DAMAGED
    assert ("Liao", 1, "center at Achemar") not in pending
    assert g.state.controller("Achemar") == L


def test_losing_a_house_capital_with_a_center() -> None:
    """Ruling SW-10: New Avalon lost costs Davion -5 (House capital) and -2 (center); Liao
    gains +2 for the capital and +1 if the center was still undamaged."""
    g = battle((CAV1, CAV2), ("davion-avalon-hussars-1",), region="New Avalon")
    events = g.run(
        m.SWReportBattle(
            actor=L, house=L, region="New Avalon", destroyed=("davion-avalon-hussars-1",)
        )
    )
    pending = [(e.house, e.delta) for e in events if isinstance(e, m.SWTechPending)]
    assert ("Davion", -5) in pending and ("Davion", -2) in pending and ("Liao", 2) in pending
    damaged = next(e for e in events if isinstance(e, m.SWCenterDamageRolled)).damaged
    assert (("Liao", 1) in pending) == (not damaged)


def test_capture_tech_changes_wait_for_the_tech_phase() -> None:
    """Ruling SW-08: a lone Cavalry counter in New Syrtis (a Davion regional capital, no center)
    takes it at the end of the Combat Phase; Liao +2 and Davion -2 wait in ``pending_tech``
    and are applied by the Adjust Technology phase that follows, in the same command."""
    g = battle((CAV1,), (), region="New Syrtis")
    assert g.state.houses[L].tech == 0
    events = g.run(m.SWEndPhase(actor=L, house=L))
    kinds = [type(e).__name__ for e in events]
    assert (
        kinds.index("SWTechPending") < kinds.index("SWPhaseBegan") < kinds.index("SWTechChanged")
    )  # combat -> tech: New Syrtis is taken at the end of the Combat Phase
    assert g.state.controller("New Syrtis") == L
    assert g.state.houses[L].tech == 2
    assert g.state.houses[D].tech == -2


def test_interdicted_units_fight_at_minus_two_once() -> None:
    """An Interdict takes 2 off every unit it covers; a second one does not add up."""
    g = battle((HIGH,), (GUARD1,))
    edit(
        g,
        interdicts=(
            Interdict(house=L, region="Daniels"),
            Interdict(house=L, region=""),
        ),
    )
    rolled = attack(g)
    assert rolled.results[0].value == 6


def test_tech_seven_boosts_one_mech_once_per_turn() -> None:
    """Ruling SW-21: at tech 7 one 'Mech gets +2 once in each player's turn."""
    g = battle((SIAN, "liao-sian-reserves-2"), (LINDON, "davion-millers-marauders-1"))
    set_house(g, L, tech=7)
    two = m.SWAttack(actor=L, house=L, region="Daniels", boosted=(SIAN, "liao-sian-reserves-2"))
    assert refused(g, two) == "no_boost"
    rolled = attack(g, boosted=(SIAN,))
    values = {r.units: r.value for r in rolled.results}
    assert values[(SIAN,)] == 7 and g.state.boosts_used[L] == 1


def test_tech_minus_ten_weakens_every_unit_by_two() -> None:
    g = battle((HIGH,), (GUARD1,))
    set_house(g, L, tech=-10)
    assert attack(g).results[0].value == 6


def test_attacking_earth_brings_a_housewide_interdict() -> None:
    """Units moved onto Earth must fight ComStar (the referee rolls for it); once the attack is
    resolved the attacker is under a Housewide Interdict."""
    g = Game()
    to_phase(g, L, "movement")
    move_unit(g, CAV1, "Earth")
    move_unit(g, CAV2, "Earth")
    g.end_phase(L)
    assert g.state.phase.value == "combat"
    g.run(m.SWAttack(actor=L, house=L, region="Earth", pairs=((CAV1, CAV2),)))
    with pytest.raises(Refusal):
        g.run(m.SWCounterattack(actor=L, house="ComStar", region="Earth"))
    g.run(m.SWCounterattack(actor=REFEREE, house="ComStar", region="Earth"))
    c = g.state.combat
    assert c is not None
    for house, n in dict(c.losses_due).items():
        own = sorted(u.id for u in g.state.combat_units("Earth", house))
        g.run(m.SWTakeLosses(actor=REFEREE, house=house, region="Earth", units=tuple(own[:n])))
    # Whatever happened, the fight is over (Liao has at most 2 units against 4, and retreats
    # are moot if Liao is gone) or goes on; end it by reporting the rest.
    if g.state.combat is not None and g.state.combat.stage.startswith("retreat"):
        g.run(m.SWRetreat(actor=L, house=L, region="Earth"))
    if g.state.combat is not None:
        survivors = tuple(u.id for u in g.state.combat_units("Earth", L))
        g.run(m.SWReportBattle(actor=L, house=L, region="Earth", destroyed=survivors))
    assert Interdict(house=L, region="", until="turn") in g.state.interdicts


def test_attacker_names_the_defender_among_several() -> None:
    """Ruling SW-22: Liao, Davion and Steiner in Daniels; Liao must say whom it attacks (Davion
    and Steiner are both Ann's Houses, and each is attacked as itself)."""
    g = battle((HIGH,), (GUARD1, "steiner-donegal-guards-1"))
    cmd = m.SWAttack(actor=L, house=L, region="Daniels")
    assert refused(g, cmd) == "name_defender"
    attack(g, against=D)
    assert g.state.combat is not None and g.state.combat.defender == D


def test_capturing_a_periphery_region_takes_its_forces() -> None:
    """Ruling SW-32: Davion bought the Outworlds Alliance and moved one garrison counter to
    Robinson; Liao takes the Alliance's Region and with it that counter. Periphery armies
    cannot be rebuilt."""
    g = battle((CAV1, CAV2), (), region="Outworlds Alliance")
    regions = dict(g.state.regions)
    regions["Outworlds Alliance"] = replace(regions["Outworlds Alliance"], controller=D)
    edit(g, regions=regions)
    move_unit(g, "outworlds-alliance-garrison-1", "Robinson", owner=D)
    move_unit(g, "outworlds-alliance-garrison-2", "", status=Status.DESTROYED, owner=D)
    g.end_phase(L)
    assert g.state.controller("Outworlds Alliance") == L
    assert g.state.units["outworlds-alliance-garrison-1"].owner == L
    to_phase(g, D, "spend")
    cmd = m.SWBuy(actor=D, house=D, item="house_mech", unit="outworlds-alliance-garrison-2")
    assert refused(g, cmd) == "no_counter"


def test_ruling_houses_of_one_player_are_not_enemies() -> None:
    """Ruling SW-35. L13 "If only two people wish to play, one takes Houses Davion and Steiner,
    and the other takes Houses Kurita, Marik, and Liao." L204 "combat must occur and continue
    until only one player's combat units remain in that Region."

    Liao and Marik (both Bo's) share Marik's Daniels: no combat is owed, the Combat Phase
    ends, and Liao neither fights Marik nor takes its Region."""
    g = battle((HIGH,), ("marik-head-hunters-1",))
    regions = dict(g.state.regions)
    regions["Daniels"] = replace(regions["Daniels"], controller="Marik")
    edit(g, regions=regions)
    assert g.state.combat is None
    controller = g.state.controller("Daniels")
    g.end_phase(L)  # Combat -> the next phase: nothing owed
    assert g.state.phase.value != "combat"
    assert g.state.controller("Daniels") == controller
    assert g.state.units["marik-head-hunters-1"].status is Status.ACTIVE
    assert refused(g, m.SWAttack(actor=L, house=L, region="Daniels")) in ("no_enemy", "wrong_phase")


def test_ruling_each_leader_present_backs_one_attack() -> None:
    """Ruling SW-36. L321 "This is a number added to a single attack or defense roll, if the
    Leader is present in the contested space. It is allowed on one combat per round in one
    Region." Maximilian Liao (2) backs the Sian Reserves (5 -> 7), Charles Ling (1) the
    Highlanders (8 -> 9): both count in the same round."""
    g = battle((HIGH, SIAN), (GUARD1,), leaders=("liao-maximilian-liao", "liao-charles-ling"))
    rolled = attack(
        g,
        leader="liao-maximilian-liao",
        leader_group=(SIAN,),
        leaders=(m.LeaderBonus(leader="liao-charles-ling", group=(HIGH,)),),
    )
    values = {r.units: r.value for r in rolled.results}
    assert values == {(HIGH,): 9, (SIAN,): 7}


def test_ruling_a_leader_backs_one_attack_only() -> None:
    # L321 "It is allowed on one combat per round in one Region."
    g = battle((HIGH, SIAN), (GUARD1,), leaders=("liao-maximilian-liao",))
    twice = m.SWAttack(
        actor=L,
        house=L,
        region="Daniels",
        leader="liao-maximilian-liao",
        leader_group=(SIAN,),
        leaders=(m.LeaderBonus(leader="liao-maximilian-liao", group=(HIGH,)),),
    )
    assert refused(g, twice) == "leader_twice"


def test_a_mercenary_leader_does_not_back_house_units() -> None:
    # L243 "Mercenary Leaders have the same ability, but may combine only friendly Mercenary
    # units. They may not affect House units."
    g = battle((HIGH, MCC1), (GUARD1,), leaders=("liao-archie-mccarron",))
    on_house = m.SWAttack(
        actor=L, house=L, region="Daniels", leader="liao-archie-mccarron", leader_group=(HIGH,)
    )
    assert refused(g, on_house) == "mercenary_leader"
    rolled = attack(g, leader="liao-archie-mccarron", leader_group=(MCC1,))
    assert {r.units: r.value for r in rolled.results}[(MCC1,)] == 6 + 2


def test_ruling_a_regional_capital_with_a_center_costs_two_and_two() -> None:
    """Ruling SW-10: "Loss of a Regional capital or Manufacturing Center -2": New Syrtis, a
    Davion Regional capital, here with a Manufacturing Center, costs Davion -2 and -2."""
    g = battle((CAV1,), (), region="New Syrtis")
    regions = dict(g.state.regions)
    regions["New Syrtis"] = replace(regions["New Syrtis"], center=CenterState.INTACT)
    edit(g, regions=regions)
    events = g.run(m.SWEndPhase(actor=L, house=L))
    lost = [e.delta for e in events if isinstance(e, m.SWTechPending) and e.house == D]
    assert lost == [-2, -2]
