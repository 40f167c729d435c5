"""A bribed House Leader's first round of combat, a player controlling all the Leaders of another
House, and the immediate combat a Mercenary force changing sides may bring."""

from __future__ import annotations

import pytest
from sw_helpers import Game, clear_region, edit, move_leader, move_unit, set_house, to_phase

from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.model import LeaderStatus, Phase, Status

L, D, K = "Liao", "Davion", "Kurita"
CAV1 = "liao-st-ives-armored-cavalry-1"  # 7
CAV2 = "liao-st-ives-armored-cavalry-2"  # 6
GUARD1 = "davion-davion-guards-1"  # 7
GUARD2 = "davion-davion-guards-2"  # 5
FELSNER = "davion-ran-felsner"  # Combat 2, Military 3, Administration 0, Loyalty 7


def _contested_daniels() -> Game:
    """Liao's Combat Phase: the Cavalry against the Davion Guards at Daniels, Ran Felsner there."""
    g = Game()
    to_phase(g, L, "movement")
    clear_region(g, "Daniels")
    for uid in (CAV1, CAV2, GUARD1, GUARD2):
        move_unit(g, uid, "Daniels")
    g.end_phase(L)
    set_house(g, L, cash=1000)
    return g


def _bribe_felsner(g: Game) -> m.SWBribeRolled:
    for _ in range(40):
        move_leader(g, FELSNER, "Daniels", status=LeaderStatus.FREE, owner=D, captor="")
        events = g.run(m.SWBribe(actor=L, house=L, leader=FELSNER))
        rolled = next(ev for ev in events if isinstance(ev, m.SWBribeRolled))
        if rolled.success:
            return rolled
    raise AssertionError("no successful bribe in 40 tries")


def _round_one(g: Game) -> list[Event]:
    """Liao attacks with its pair; Davion counterattacks with the Guards paired; losses."""
    log: list[Event] = list(
        g.run(m.SWAttack(actor=L, house=L, region="Daniels", pairs=((CAV1, CAV2),)))
    )
    log += g.run(m.SWCounterattack(actor=D, house=D, region="Daniels", pairs=((GUARD1, GUARD2),)))
    c = g.state.combat
    assert c is not None
    for house, n in sorted(dict(c.losses_due).items()):
        own = sorted(u.id for u in g.state.combat_units("Daniels", house))
        log += g.run(
            m.SWTakeLosses(actor=house, house=house, region="Daniels", units=tuple(own[:n]))
        )
    while g.state.combat is not None and g.state.combat.stage.startswith("retreat"):
        who = L if g.state.combat.stage == "retreat_attacker" else D
        log += g.run(m.SWRetreat(actor=who, house=who, region="Daniels"))
    return log


def test_ruling_a_bribed_leader_turns_on_his_house_for_the_first_round() -> None:
    """Ruling SW-13. L335 "At this time, all the Leader's values act as negative modifiers. His
    Combat Ability is subtracted from rolls (rather than being added); taxes are reduced by the
    amount of his Administration Skill (rather than increased); and he can nullify as many unit
    combinations as his Military Ability allows." L339 "If loyal units remain in the same Region
    as a bribed Leader after the first round of combat, they have the option of killing him.
    Otherwise, the bribed Leader takes refuge in the enemy capital for the rest of the game."
    """
    g = _contested_daniels()
    rolled = _bribe_felsner(g)
    assert rolled.turncoat and rolled.held_at == "Daniels"
    felsner = g.state.leaders[FELSNER]
    assert (felsner.status, felsner.owner, felsner.turncoat) == (
        LeaderStatus.BRIBED,
        L,
        "first_round",
    )
    log = _round_one(g)
    davion = next(ev for ev in log if isinstance(ev, m.SWCombatRolled) and ev.house == D)
    # Military 3 breaks up the Guards' pair; Combat 2 comes off the stronger counter (7 -> 5).
    assert davion.nullified == ((GUARD1, GUARD2),)
    assert [(r.units, r.value) for r in davion.results] == [((GUARD1,), 5), ((GUARD2,), 5)]
    assert davion.turncoat_penalty == 2
    liao = next(ev for ev in log if isinstance(ev, m.SWCombatRolled) and ev.house == L)
    assert liao.turncoat_penalty == 0 and liao.results[0].value == 13  # the briber is untouched
    moved = [ev for ev in log if isinstance(ev, m.SWTurncoatMoved)]
    assert len(moved) == 1
    felsner = g.state.leaders[FELSNER]
    if g.state.combat_units("Daniels", D):
        assert moved[0].exposed and felsner.turncoat == "exposed"
        events = g.run(m.SWKillLeader(actor=D, house=D, leader=FELSNER))
        assert events[0] == m.SWLeaderKilled(leader=FELSNER, by=D)
        assert g.state.leaders[FELSNER].status is LeaderStatus.KILLED
    else:
        assert not moved[0].exposed and (felsner.region, felsner.turncoat) == ("Sian", "")


def test_an_exposed_turncoat_left_alone_takes_refuge_when_the_phase_ends() -> None:
    # L339 "Otherwise, the bribed Leader takes refuge in the enemy capital for the rest of the
    # game." Only his own House may kill him.
    g = _contested_daniels()
    _bribe_felsner(g)
    move_leader(g, FELSNER, "Daniels", turncoat="exposed")
    clear_region(g, "Daniels")
    move_unit(g, GUARD1, "Daniels")
    move_leader(g, FELSNER, "Daniels")
    with pytest.raises(Refusal) as info:
        g.run(m.SWKillLeader(actor=L, house=L, leader=FELSNER))
    assert info.value.code == "not_loyal"
    g.end_phase(L)  # the Combat Phase ends (Liao has no units left beside Davion's)
    felsner = g.state.leaders[FELSNER]
    assert (felsner.region, felsner.turncoat, felsner.status) == ("Sian", "", LeaderStatus.BRIBED)


def test_a_bribed_leader_away_from_battle_takes_refuge_at_once() -> None:
    # L339: with no first round of combat for him, he goes straight to the enemy capital.
    g = Game()
    set_house(g, L, cash=1000)
    for _ in range(40):
        move_leader(g, FELSNER, "Robinson", status=LeaderStatus.FREE, owner=D, captor="")
        clear_region(g, "Robinson")
        move_leader(g, FELSNER, "Robinson")
        events = g.run(m.SWBribe(actor=L, house=L, leader=FELSNER))
        rolled = next(ev for ev in events if isinstance(ev, m.SWBribeRolled))
        if rolled.success:
            assert not rolled.turncoat and rolled.held_at == "Sian"
            return
    raise AssertionError("no successful bribe in 40 tries")


def test_a_turncoat_reduces_his_houses_taxes() -> None:
    # L335 "taxes are reduced by the amount of his Administration Skill".
    from mekref.rules.succession_wars.turn import taxes

    g = Game()
    before = taxes(g.state, D)
    fenlon = g.state.leaders["davion-olivia-fenlon"]  # Administration 4, at Point Barrow
    move_leader(
        g,
        fenlon.id,
        fenlon.region,
        status=LeaderStatus.BRIBED,
        owner=L,
        captor=L,
        turncoat="first_round",
    )
    assert taxes(g.state, D) == before - 2 * fenlon.admin  # his +4 lost, and 4 taken off


def test_ruling_a_player_controlling_all_the_leaders_of_a_house_controls_it() -> None:
    """Ruling SW-33. L339 "When a player controls all the Leaders of another House, he controls
    that House." L315 "Captured Leaders are moved instantly to the enemy capital, and are held
    and controlled by whomever controls the capital." """
    g = Game()
    davion = [ld.id for ld in g.state.leaders.values() if ld.house == D and not ld.mercenary]
    for lid in davion[:-1]:
        move_leader(g, lid, "Sian", status=LeaderStatus.CAPTURED, captor=L)
    move_leader(g, davion[-1], "Sian", status=LeaderStatus.CAPTURED, captor=L)
    kill = davion[0]
    events = g.run(m.SWKillLeader(actor=L, house=L, leader=kill))
    controlled = [ev for ev in events if isinstance(ev, m.SWHouseControlled)]
    assert controlled == [m.SWHouseControlled(house=D, player="Bo", previous="Ann")]
    assert g.state.houses[D].player == "Bo" and not g.state.houses[D].out
    # Bo's Houses now hold New Avalon too: four House capitals (ruling SW-16).
    assert g.state.winner == "Bo"


def test_ruling_a_mercenary_force_changing_sides_may_be_attacked_at_once() -> None:
    """Ruling SW-34. L341 "When one of these Leaders is bribed, his whole force switches sides,
    and, if the force is in the same Region with formerly friendly but now enemy forces, it must
    be attacked." L387 "If there are opposing units in the Region, the bribing player may want to
    move his new Mercenary unit out intact, without combat. If he does not, combat must occur.
    At the opposing player's option, combat may occur immediately." """
    # Davion's Eridani Light Horse: Liao (Bo) bribes a Leader of another player's House (a
    # player's own other Houses are not "formerly friendly but now enemy", ruling SW-35).
    g = Game()
    set_house(g, L, cash=1000)
    for _ in range(40):
        set_house(g, L, hand=(46,))
        g.run(m.SWPlayCard(actor=L, house=L, card=46))
        events = g.run(m.SWBribe(actor=L, house=L, leader="davion-nathan-l-armstrong"))
        rolled = next(ev for ev in events if isinstance(ev, m.SWBribeRolled))
        if rolled.success:
            break
    region = g.state.units[rolled.switched_units[0]].region
    # Ruling SW-41: the new employer chooses first whether to move out intact; he stays.
    assert [ev for ev in events if isinstance(ev, m.SWMoveOutOffered)] == [
        m.SWMoveOutOffered(region=region, employer=L, units=rolled.switched_units)
    ]
    assert not [ev for ev in events if isinstance(ev, m.SWImmediateCombatOffered)]
    events = g.run(m.SWMoveMercenaryOut(actor=L, house=L, region=region))
    offers = [ev for ev in events if isinstance(ev, m.SWImmediateCombatOffered)]
    assert offers == [m.SWImmediateCombatOffered(region=region, houses=(D,), mercenary=L)]
    assert (D, region) in g.state.immediate_combat
    assert g.state.active != D  # out of Davion's turn ...
    events = g.run(m.SWAttack(actor=D, house=D, region=region))
    began = events[0]
    assert isinstance(began, m.SWCombatBegan) and (began.attacker, began.defender) == (D, L)
    assert g.state.immediate_combat == ()
    # ... and the fight goes on through its steps like any other.
    g.run(m.SWCounterattack(actor=L, house=L, region=region))
    assert g.state.combat is not None and g.state.combat.stage in ("losses", "retreat_attacker")


def test_the_offer_lapses_with_the_phase() -> None:
    # Ruling SW-34: "immediately" is before the game moves on.
    g = Game()
    to_phase(g, L, "spend")
    clear_region(g, "Daniels")
    move_unit(g, GUARD1, "Daniels")
    mercs = [u for u in g.state.units.values() if u.mercenary and u.owner == L][:1]
    move_unit(g, mercs[0].id, "Daniels")
    edit(g, immediate_combat=((D, "Daniels"),))
    g.end_phase(L)
    assert g.state.phase is Phase.MOVEMENT and g.state.immediate_combat == ()
    with pytest.raises(Refusal) as info:
        g.run(m.SWAttack(actor=D, house=D, region="Daniels"))
    assert info.value.code == "not_your_turn"
    assert g.state.units[GUARD1].status is Status.ACTIVE
