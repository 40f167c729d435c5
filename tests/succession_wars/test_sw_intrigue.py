"""Bribes, ComStar Interdicts, auctions, Event Cards, captured Leaders and Houses knocked out."""

from __future__ import annotations

import pytest
from sw_helpers import Game, edit, move_leader, move_unit, set_house

from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.model import REFEREE, Interdict, LeaderStatus, Phase

L, D, K, S, MA = "Liao", "Davion", "Kurita", "Steiner", "Marik"


def _refused(g: Game, command: m.Command) -> str:  # type: ignore[name-defined]
    with pytest.raises(Refusal) as err:
        g.run(command)
    return err.value.code


def _cash(g: Game, house: str) -> int:
    return g.state.houses[house].cash


def test_leaders_marked_with_a_star_cannot_be_bribed() -> None:
    g = Game()
    cmd = m.SWBribe(actor=L, house=L, leader="davion-hanse-davion")
    assert _refused(g, cmd) == "cannot_bribe"


def test_bribed_leader_takes_refuge_in_the_enemy_capital() -> None:
    """Ruling SW-13: success (die > loyalty) sends the 10 to the bank and the Leader to the
    briber's House capital; failure sends the 10 to the Leader's House. Played until both
    outcomes have been seen."""
    g = Game()
    set_house(g, L, cash=1000)
    seen = set()
    for _ in range(12):
        target = "davion-olivia-fenlon"  # loyalty 8
        move_leader(g, target, "Point Barrow", status=LeaderStatus.FREE, owner=D, captor="")
        before_d = _cash(g, D)
        events = g.run(m.SWBribe(actor=L, house=L, leader=target))
        rolled = events[-1]
        assert isinstance(rolled, m.SWBribeRolled)
        face = rolled.rolls[0].faces[0]
        assert rolled.success == (face > 8)
        fenlon = g.state.leaders[target]
        if rolled.success:
            assert (fenlon.status, fenlon.region, fenlon.owner) == (
                LeaderStatus.BRIBED,
                "Sian",
                L,
            )
            assert _cash(g, D) == before_d
        else:
            assert fenlon.status is LeaderStatus.FREE and _cash(g, D) == before_d + 10
        seen.add(rolled.success)
    assert seen == {True, False}


def test_liao_free_bribe_costs_nothing() -> None:
    """Ruling SW-26: Liao's two free attempts cost nothing, even when they fail; a third is
    refused."""
    g = Game()
    for _ in range(2):
        move_leader(g, "davion-olivia-fenlon", "Point Barrow", status=LeaderStatus.FREE, owner=D)
        g.run(m.SWBribe(actor=L, house=L, leader="davion-olivia-fenlon", free=True))
    assert _cash(g, L) == 38 and _cash(g, D) == 49
    move_leader(g, "davion-olivia-fenlon", "Point Barrow", status=LeaderStatus.FREE, owner=D)
    cmd = m.SWBribe(actor=L, house=L, leader="davion-olivia-fenlon", free=True)
    assert _refused(g, cmd) == "no_free_bribe"


def test_bribed_mercenary_leader_takes_his_force() -> None:
    """Blackmail (card 46, +2, ruling SW-11) makes a roll of 6 beat Jaime Wolf's 7: his whole
    Dragoons force switches sides with him."""
    g = Game()
    set_house(g, L, cash=1000)
    for _ in range(20):
        set_house(g, L, hand=(46,))
        g.run(m.SWPlayCard(actor=L, house=L, card=46))
        assert g.state.houses[L].bribe_bonus == 2
        events = g.run(m.SWBribe(actor=L, house=L, leader="kurita-jaime-wolf"))
        rolled = next(ev for ev in events if isinstance(ev, m.SWBribeRolled))
        assert rolled.success == (rolled.rolls[0].faces[0] + 2 > 7)
        if rolled.success:
            break
    assert isinstance(rolled, m.SWBribeRolled) and rolled.success
    dragoons = [u for u in g.state.units.values() if u.formation == "Wolf's Dragoons"]
    assert {u.owner for u in dragoons} == {L}
    assert g.state.leaders["kurita-jaime-wolf"].owner == L
    assert g.state.houses[L].bribe_bonus == 0


def test_interdict_falls_back() -> None:
    """Ruling SW-18. L356-365: 1-3 "ComStar interdicts bribing player's forces in specified
    region", 4-9 "specified forces", 10 "both forces in the specified region". L367 "If 1, 2,
    or 3 is rolled and the bribing player has no forces in the specified Region, the player in
    that Region can choose which region will be affected." Davion has no forces in St. Ives, so
    on 1-3 Liao chooses (Daniels), and the game waits for that choice."""
    g = Game()
    set_house(g, D, cash=1000)
    results = set()
    buy = m.SWBuyInterdict(actor=D, house=D, region="St. Ives", target=L)
    for _ in range(30):
        events = g.run(buy)
        face = next(r for e in events for r in e.rolls).faces[0]
        hit = {(e.house, e.region) for e in events if isinstance(e, m.SWInterdicted)}
        if face <= 3:
            assert hit == set()
            assert [type(e) for e in events] == [m.SWCashChanged, m.SWInterdictChoiceOwed]
            assert g.state.interdict_choices == ((L, D),)
            with pytest.raises(Refusal) as waits:
                g.run(buy)
            assert waits.value.code == "interdict_choice_owed"
            with pytest.raises(Refusal) as not_there:
                g.run(m.SWChooseInterdictRegion(actor=L, house=L, briber=D, region="Sian"))
            assert not_there.value.code == "bad_choice"
            chosen = g.run(m.SWChooseInterdictRegion(actor=L, house=L, briber=D, region="Daniels"))
            hit = {(e.house, e.region) for e in chosen if isinstance(e, m.SWInterdicted)}
            assert hit == {(D, "Daniels")} and g.state.interdict_choices == ()
        elif face <= 9:
            assert hit == {(L, "St. Ives")}
        else:
            assert hit == {(L, "St. Ives")}  # "both forces": Davion has none there
        results.add("briber" if face <= 3 else "target" if face <= 9 else "both")
    assert {"briber", "target"} <= results
    assert _cash(g, D) == 1000 - 30 * 5


def test_the_briber_does_not_choose_the_fallback_region() -> None:
    # L367 "the player in that Region can choose which region will be affected."
    g = Game()
    set_house(g, D, cash=1000)
    with pytest.raises(Refusal) as info:
        g.run(
            m.SWBuyInterdict(
                actor=D, house=D, region="St. Ives", target=L, fallback_region="Daniels"
            )
        )
    assert info.value.code == "not_the_bribers_choice"
    assert "SWChooseInterdictRegion" in str(info.value)


def test_interdicts_last_until_the_end_of_the_affected_players_turn() -> None:
    g = Game()
    edit_interdicts = (Interdict(house=L, region="Sian"), Interdict(house=D, region="Robinson"))
    edit(g, interdicts=edit_interdicts)
    g.pass_turn(L)
    assert g.state.interdicts == (Interdict(house=D, region="Robinson"),)


def test_auction_bids_go_round_the_table() -> None:
    """Ruling SW-24: Liao opens the Bandit Kingdoms; bids go Liao, Marik, Steiner, Kurita,
    Davion; a pass is final; the highest bidder pays the bank and takes the state's Region,
    garrison and JumpShip."""
    g = Game()
    g.run(m.SWOpenAuction(actor=L, house=L, lot="Bandit Kingdoms"))
    assert _refused(g, m.SWEndPhase(actor=L, house=L)) == "auction_open"
    out_of_order = m.SWSettleAuction(actor=REFEREE, bids=(m.Bid(house=MA, amount=3),))
    assert _refused(g, out_of_order) == "bad_bids"
    unfinished = m.SWSettleAuction(actor=REFEREE, bids=(m.Bid(house=L, amount=3),))
    assert _refused(g, unfinished) == "bad_bids"
    bids = (
        m.Bid(house=L, amount=3),
        m.Bid(house=MA, amount=0),
        m.Bid(house=S, amount=5),
        m.Bid(house=K, amount=0),
        m.Bid(house=D, amount=0),
        m.Bid(house=L, amount=8),
        m.Bid(house=S, amount=0),
    )
    g.run(m.SWSettleAuction(actor=REFEREE, bids=bids))
    assert g.state.controller("Bandit Kingdoms") == L
    assert {u.owner for u in g.state.combat_units("Bandit Kingdoms")} == {L}
    assert [s.owner for s in g.state.ships_in("Bandit Kingdoms")] == [L]
    assert _cash(g, L) == 38 - 8
    with pytest.raises(Refusal):
        g.run(m.SWOpenAuction(actor=L, house=L, lot="Bandit Kingdoms"))


def test_contract_ends_moves_the_whole_formation() -> None:
    """Ruling SW-25: card 7 puts a Mercenary unit up for bid; the winner takes every counter
    of it and its Leader. Alone in a Region it brings the Region and the JumpShips there."""
    g = Game()
    move_unit(g, "kurita-wolfs-dragoons-1", "Lothan")
    move_unit(g, "kurita-wolfs-dragoons-2", "Lothan")
    move_unit(g, "kurita-wolfs-dragoons-3", "Lothan")
    move_unit(g, "kurita-legion-of-vega-1", "Dieron")
    set_house(g, L, hand=(7,))
    g.run(m.SWPlayCard(actor=L, house=L, card=7, target="Wolf's Dragoons"))
    bids = (
        m.Bid(house=L, amount=12),
        m.Bid(house=MA, amount=0),
        m.Bid(house=S, amount=0),
        m.Bid(house=K, amount=0),
        m.Bid(house=D, amount=0),
    )
    g.run(m.SWSettleAuction(actor=L, bids=bids))
    dragoons = [u for u in g.state.units.values() if u.formation == "Wolf's Dragoons"]
    assert {u.owner for u in dragoons} == {L}
    assert g.state.leaders["kurita-jaime-wolf"].owner == L
    assert g.state.controller("Lothan") == L
    assert g.state.discard == (7,)


def test_card_effects() -> None:
    """Card 3 advances tech by 5; card 4 forms a 4-strength Mercenary unit in a capital."""
    g = Game()
    set_house(g, L, hand=(3, 4))
    g.run(m.SWPlayCard(actor=L, house=L, card=3))
    assert g.state.houses[L].tech == 5
    assert _refused(g, m.SWPlayCard(actor=L, house=L, card=4, region="Daniels")) == "bad_region"
    g.run(m.SWPlayCard(actor=L, house=L, card=4, region="St. Ives"))
    merc = [u for u in g.state.units.values() if u.id.startswith("liao-mercenary")]
    assert [(u.region, u.value, u.mercenary) for u in merc] == [("St. Ives", 4, True)]
    assert _refused(g, m.SWPlayCard(actor=L, house=L, card=3)) == "not_in_hand"


def test_unlisted_cards_need_a_note() -> None:
    """Ruling SW-11: a card the text does not describe is played with the referee's note."""
    g = Game()
    set_house(g, L, hand=(20,))
    assert _refused(g, m.SWPlayCard(actor=L, house=L, card=20)) == "note_needed"
    g.run(m.SWPlayCard(actor=L, house=L, card=20, note="agreed at the table: nothing"))
    assert g.state.houses[L].hand == ()


def test_hand_holds_four_cards_at_most_and_refills_from_a_reshuffle() -> None:
    g = Game()
    assert _refused(g, m.SWGiveCard(actor=D, house=D, to=L, card=13)) == "hand_full"
    set_house(g, L, hand=())
    g.run(m.SWGiveCard(actor=D, house=D, to=L, card=13, price=4))
    assert g.state.houses[L].hand == (13,) and _cash(g, D) == 53 and _cash(g, L) == 34
    # Empty draw pile: the discard pile is reshuffled with named rolls.
    edit(g, deck=(), discard=(1, 2, 3, 4, 5))
    events = g.run(m.SWEndPhase(actor=L, house=L))
    drawn = events[0]
    assert isinstance(drawn, m.SWCardsDrawn) and len(drawn.cards) == 3
    assert len(drawn.rolls) == 4 and sorted(drawn.cards + drawn.deck) == [1, 2, 3, 4, 5]


def test_captured_leaders_can_be_killed_by_their_holder_or_ransomed() -> None:
    """A ransom may not be more than a Manufacturing Center (30)."""
    g = Game()
    move_leader(g, "davion-hanse-davion", "Sian", status=LeaderStatus.CAPTURED, captor=L)
    move_leader(g, "davion-ran-felsner", "Sian", status=LeaderStatus.CAPTURED, captor=L)
    cmd = m.SWKillLeader(actor=D, house=D, leader="davion-hanse-davion")
    assert _refused(g, cmd) == "not_holder"
    too_much = m.SWRansomLeader(actor=D, house=D, leader="davion-hanse-davion", price=31)
    assert _refused(g, too_much) == "ransom_too_high"
    g.run(m.SWRansomLeader(actor=D, house=D, leader="davion-hanse-davion", price=30))
    hanse = g.state.leaders["davion-hanse-davion"]
    assert (hanse.status, hanse.region) == (LeaderStatus.FREE, "New Avalon")
    assert (_cash(g, D), _cash(g, L)) == (19, 68)
    g.run(m.SWKillLeader(actor=L, house=L, leader="davion-ran-felsner"))
    assert g.state.leaders["davion-ran-felsner"].status is LeaderStatus.KILLED


def test_a_house_with_no_free_leaders_is_out() -> None:
    """Ruling SW-17: with every Davion Leader captured or killed, Davion is out and its turns
    are skipped; the game goes on. (The captives are held by both players, so no one player
    controls all of them: ruling SW-33.)"""
    g = Game()
    for lid in ("davion-hanse-davion", "davion-michael-hasek-davion"):
        move_leader(g, lid, "Sian", status=LeaderStatus.CAPTURED, captor=L)
    for lid in ("davion-ran-felsner", "davion-nathan-l-armstrong"):
        move_leader(g, lid, "Tharkad", status=LeaderStatus.CAPTURED, captor="Steiner")
    move_leader(g, "davion-olivia-fenlon", "Sian", status=LeaderStatus.CAPTURED, captor=L)
    move_leader(g, "davion-hanse-davion", "Sian", status=LeaderStatus.CAPTURED, captor=L)
    events = g.run(m.SWKillLeader(actor=L, house=L, leader="davion-olivia-fenlon"))
    assert isinstance(events[-1], m.SWHouseOut) and g.state.houses[D].out
    for house in (L, MA, S, K):
        g.pass_turn(house)
    assert (g.state.active, g.state.round, g.state.phase) == (L, 2, Phase.DRAW)
    assert not g.state.winner


def test_payments_between_houses() -> None:
    g = Game()
    g.run(m.SWPay(actor=D, house=D, to=L, amount=9, reason="stay out of Daniels"))
    assert (_cash(g, D), _cash(g, L)) == (40, 47)
    assert _refused(g, m.SWPay(actor=D, house=D, to=L, amount=1000)) == "not_enough_money"


def test_ruling_a_played_card_goes_to_the_discard_pile_and_comes_back_at_a_reshuffle() -> None:
    """Ruling SW-44. L113: "Certain Cards may be played only once; once played, they are kept
    out of the game. If the draw pile runs out, simply reshuffle the discard pile and continue."
    The card table (L119-L129) marks no card as played only once, so none is kept out: card 2,
    played, lies on the discard pile and is drawn again after the reshuffle."""
    from pathlib import Path

    text = (Path(__file__).parent / "data" / "succession_wars.txt").read_text("utf-8")
    lines = text.splitlines()
    assert "Certain Cards may be played only once; once played, they are kept out" in lines[112]
    assert not any("once" in line.lower() for line in lines[118:129])
    g = Game()  # Liao's draw phase
    set_house(g, L, hand=(2,))
    g.run(m.SWPlayCard(actor=L, house=L, card=2))
    assert g.state.discard == (2,) and g.state.houses[L].tech == 3
    edit(g, deck=())  # the draw pile has run out: only card 2 is on the discard pile
    drawn = g.run(m.SWEndPhase(actor=L, house=L))[0]
    assert isinstance(drawn, m.SWCardsDrawn) and drawn.cards == (2,)
    assert g.state.houses[L].hand == (2,)
