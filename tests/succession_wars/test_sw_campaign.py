"""A scripted Succession Wars campaign from set-up to victory, with every value worked by hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import pytest
from sw_campaign import CAV1, CAV2, LING, play_campaign
from sw_helpers import Game

from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import game
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.model import CenterState, LeaderStatus, Phase, Status

E = TypeVar("E", bound=Event)


def _of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def test_set_up_gives_each_house_its_tax_base_and_four_cards() -> None:
    """Initial money is the tax base (ruling SW-15), Resource Values of the sample map plus the
    Administration Skill of Leaders set up in their own Regions:

    - Liao: Sian 10 + St. Ives 5 + Capella 6 + Tikonov 6 = 27; Maximilian 4 + Ridzik 1 +
      Candace 3 + Ling 3 = 11; 38.
    - Marik: 10 + 6 + 5 + 4 + 6 + 3 = 34; Janos 4 + Halas 4 + Humphreys 2 = 10 (Thomas Marik is
      on Earth, which Marik does not hold); 44.
    - Davion: 10 + 6 + 5 + 4 + 6 + 3 + 3 = 37; Hanse 5 + Hasek-Davion 3 + Felsner 0 + Fenlon 4;
      49.

    Liao holds both Death Commando cards (47, 48) and two others; everyone holds four.
    """
    g = Game()
    h = g.state.houses
    assert (h["Liao"].cash, h["Marik"].cash, h["Davion"].cash) == (38, 44, 49)
    assert h["Liao"].hand[:2] == (47, 48)
    assert {len(x.hand) for x in h.values()} == {4}
    assert h["Liao"].free_bribes == 2
    assert len(g.state.deck) == 48 - 20
    assert g.state.phase is Phase.DRAW and g.state.active == "Liao" and g.state.round == 1
    # ComStar's four 7s hold Earth; each Periphery state has two 5s and a 1-unit JumpShip.
    earth = g.state.combat_units("Earth")
    assert sorted(u.value for u in earth) == [7, 7, 7, 7]
    assert [s.capacity for s in g.state.ships_in("Bandit Kingdoms")] == [1]


def test_scripted_campaign_to_victory() -> None:
    """Round 1, Liao (cash 38):

    - a tech roll (5): the seed's die shows 3, "No Effect" -> tech 0, cash 33;
    - a new House 'Mech, the reserve Capellan Hussars counter (8) at strength 4 -> cash 25;
    - card 47 played with the referee's note; the hand is three cards until the next draw;
    - JumpShip liao-js-1 (3 units) carries both St. Ives Armored Cavalry counters (7, 6: two
      spaces) and Charles Ling (no space) one Region to Daniels, held by Lindon's Company (1)
      and a Davion 1-unit JumpShip;
    - the Cavalry combine (same unit): 7 + 6 = 13 >= 10, an automatic kill, no die; the
      original attacking strength 13 allows a center modifier of +2 (11-15), unused (no
      center at Daniels);
    - Davion counterattacks with the dead Lindon's Company (1): the die shows 10 > 1, a miss;
      Davion removes it; no Davion combat unit is left, so the JumpShip is captured and
      Daniels passes to Liao (no capital, no center: no tech change);
    - the Hussars are placed on the center at Sian; taxes: 27 + 3 (Daniels) = 30, plus Leaders'
      Administration 4 + 1 + 3 + 3 (Ling now at Daniels, a Liao Region) = 11 -> 41; cash 66.

    Steiner plays card 2: tech 0 + 3 = 3. Kurita bribes Michael Hasek-Davion (loyalty 3):
    the die shows 7 > 3, bribed; the 10 go to the bank and he takes refuge in Luthien.
    Davion buys a 2-unit JumpShip (16) and an Interdict (5): the die shows 10, "both forces";
    Davion has none at Daniels and names no other Region, so only Liao at Daniels is
    interdicted, until the end of Liao's next turn. Davion's taxes: 37 - 3 (Daniels lost) = 34,
    plus Hanse 5 + Fenlon 4 (Hasek-Davion is gone) = 43; cash 49 - 16 - 5 + 43 = 71.

    Round 2, Liao draws one card (back to four) and moves the Cavalry and Ling two Regions,
    Daniels -> Emerson (empty) -> New Avalon. The battle is fought in MegaMek: both Avalon
    Hussars counters and the Cavalry 6 die. New Avalon's center is rolled for: 8 + 2 = 10,
    "Center Damaged" (Davion -1, pending). Hanse Davion, alone with enemy combat units, is
    captured and held at Sian. New Avalon passes to Liao (Davion -5 House capital, -2 center;
    Liao +2 capital; the center is no longer undamaged, so no +1). Bo now holds the House
    capitals of Liao, Marik, Kurita and Davion: four of five, and wins.
    """
    g = play_campaign()
    log = g.log
    state = g.state
    tech_roll = _of(log, m.SWTechChanged)[0]
    assert tech_roll.rolls[0].faces == (3,) and tech_roll.delta == 0
    attack, counter = _of(log, m.SWCombatRolled)
    assert attack.results[0].value == 13 and attack.results[0].auto and not attack.rolls
    assert counter.rolls[0].faces == (10,) and counter.hits == 0
    began = _of(log, m.SWCombatBegan)[0]
    assert (began.original_strength, began.center_modifier) == (13, 2)
    captured = _of(log, m.SWPiecesCaptured)
    assert captured[0].jumpships == ("davion-js-6",)
    assert state.jumpships["davion-js-6"].owner == "Liao"
    taxes = [e for e in _of(log, m.SWCashChanged) if e.reason == "collect taxes"]
    assert [(e.house, e.delta) for e in taxes[:5]] == [
        ("Liao", 41),
        ("Marik", 44),
        ("Steiner", 39),
        ("Kurita", 51),
        ("Davion", 43),
    ]
    assert state.houses["Steiner"].tech == 3
    bribe = _of(log, m.SWBribeRolled)[0]
    assert bribe.rolls[0].faces == (7,) and bribe.success
    hasek = state.leaders["davion-michael-hasek-davion"]
    assert (hasek.status, hasek.region, hasek.owner) == (LeaderStatus.BRIBED, "Luthien", "Kurita")
    interdict = _of(log, m.SWInterdicted)[0]
    assert interdict.rolls[0].faces == (10,)
    assert (interdict.house, interdict.region) == ("Liao", "Daniels")
    assert state.houses["Davion"].cash == 71
    assert state.jumpships["davion-js-new-1"].region == "Robinson"
    drawn = _of(log, m.SWCardsDrawn)[-1]
    assert drawn.house == "Liao" and len(drawn.cards) == 1
    assert len(state.houses["Liao"].hand) == 4
    damage = _of(log, m.SWCenterDamageRolled)[0]
    assert (damage.face, damage.modifier, damage.damaged) == (8, 2, True)
    assert state.regions["New Avalon"].center is CenterState.DAMAGED
    assert state.regions["New Avalon"].controller == "Liao"
    hanse = state.leaders["davion-hanse-davion"]
    assert (hanse.status, hanse.region, hanse.captor) == (LeaderStatus.CAPTURED, "Sian", "Liao")
    assert state.pending_tech == {"Davion": -8, "Liao": 2}
    assert state.units[CAV2].status is Status.DESTROYED
    assert state.units[CAV1].region == "New Avalon" and state.leaders[LING].region == "New Avalon"
    won = _of(log, m.SWGameWon)[0]
    assert won.player == "Bo"
    assert sorted(won.capitals) == ["Atreus", "Luthien", "New Avalon", "Sian"]
    assert state.winner == "Bo" and state.phase is Phase.OVER


def test_nothing_is_decided_after_victory() -> None:
    g = play_campaign()
    with pytest.raises(Refusal) as err:
        g.run(m.SWEndPhase(actor="Liao", house="Liao"))
    assert err.value.code == "game_over"
    assert game.SUCCESSION_WARS.fold(g.log).winner == "Bo"
