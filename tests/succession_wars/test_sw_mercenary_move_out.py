"""L387: "If there are opposing units in the Region, the bribing player may want to move his new
Mercenary unit out intact, without combat. If he does not, combat must occur. At the opposing
player's option, combat may occur immediately." (ruling SW-41)"""

from __future__ import annotations

import pytest
from sw_helpers import Game, clear_region, move_leader, move_unit, set_house, to_phase

from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.model import REFEREE, Phase, Status
from mekref.rules.succession_wars.turn import contested

L, D = "Liao", "Davion"
HORSE = "davion-eridani-light-horse-1"  # 5
ARMSTRONG = "davion-nathan-l-armstrong"  # the Eridani Light Horse's Mercenary Leader
GUARD = "davion-davion-guards-1"  # 7


def _contract_won_beside_davion() -> tuple[Game, list[m.Event]]:
    """Liao's Spend phase: card 7 ends the Eridani Light Horse's contract while it stands with
    Davion's Guards at Daniels; Liao wins the bidding."""
    g = Game()
    to_phase(g, L, "spend")
    clear_region(g, "Daniels")
    move_unit(g, HORSE, "Daniels")
    move_unit(g, GUARD, "Daniels")
    move_leader(g, ARMSTRONG, "Daniels")
    set_house(g, L, cash=100, hand=(7,))
    g.run(m.SWPlayCard(actor=L, house=L, card=7, target="Eridani Light Horse"))
    passes = (m.Bid(house=h, amount=0) for h in ("Marik", "Steiner", "Kurita", D))
    bids = (m.Bid(house=L, amount=6), *passes)
    events = g.run(m.SWSettleAuction(actor=REFEREE, bids=bids))
    return g, events


def _refused(g: Game, command: m.Command) -> Refusal:
    with pytest.raises(Refusal) as info:
        g.run(command)
    return info.value


def test_the_new_employer_chooses_first() -> None:
    # L387: "the bribing player may want to move his new Mercenary unit out intact".
    g, events = _contract_won_beside_davion()
    assert [e for e in events if isinstance(e, m.SWMoveOutOffered)] == [
        m.SWMoveOutOffered(region="Daniels", employer=L, units=(HORSE,))
    ]
    assert not [e for e in events if isinstance(e, m.SWImmediateCombatOffered)]
    # Nobody fights, and the game does not go on, before Liao has chosen.
    assert _refused(g, m.SWAttack(actor=D, house=D, region="Daniels")).code == (
        "move_out_choice_owed"
    )
    assert _refused(g, m.SWEndPhase(actor=L, house=L)).code == "move_out_choice_owed"
    assert _refused(g, m.SWMoveMercenaryOut(actor=D, house=D, region="Daniels")).code == (
        "no_move_out"
    )


def test_moving_out_intact_avoids_combat() -> None:
    # L387 "move his new Mercenary unit out intact, without combat": the unit and its Leader
    # leave for a Region Liao controls; Daniels is no longer contested.
    g, _ = _contract_won_beside_davion()
    bad = _refused(g, m.SWMoveMercenaryOut(actor=L, house=L, region="Daniels", path=("Emerson",)))
    assert bad.code == "bad_move_out"  # Emerson is Davion's
    events = g.run(m.SWMoveMercenaryOut(actor=L, house=L, region="Daniels", path=("St. Ives",)))
    assert events == [
        m.SWMercenaryMovedOut(
            house=L, region="Daniels", path=("St. Ives",), units=(HORSE,), leaders=(ARMSTRONG,)
        )
    ]
    assert g.state.units[HORSE].region == "St. Ives"
    assert g.state.leaders[ARMSTRONG].region == "St. Ives"
    assert g.state.units[HORSE].status is Status.ACTIVE and g.state.move_out_choices == ()
    assert g.state.immediate_combat == () and "Daniels" not in contested(g.state, D)


def test_staying_means_combat_at_the_opposing_players_option_immediately() -> None:
    # L387 "If he does not, combat must occur. At the opposing player's option, combat may occur
    # immediately." Davion attacks at once, out of its turn.
    g, _ = _contract_won_beside_davion()
    events = g.run(m.SWMoveMercenaryOut(actor=L, house=L, region="Daniels"))
    assert events == [
        m.SWMercenaryMovedOut(house=L, region="Daniels", path=(), units=(HORSE,)),
        m.SWImmediateCombatOffered(region="Daniels", houses=(D,), mercenary=L),
    ]
    assert g.state.active == L and g.state.phase is Phase.SPEND
    began = g.run(m.SWAttack(actor=D, house=D, region="Daniels"))[0]
    assert isinstance(began, m.SWCombatBegan) and (began.attacker, began.defender) == (D, L)


def test_staying_without_immediate_combat_still_owes_the_fight() -> None:
    # L387 "combat must occur": Davion lets the offer lapse; the fight stays owed in Daniels.
    g, _ = _contract_won_beside_davion()
    g.run(m.SWMoveMercenaryOut(actor=L, house=L, region="Daniels"))
    g.end_phase(L)
    assert g.state.phase is Phase.MOVEMENT and g.state.immediate_combat == ()
    assert "Daniels" in contested(g.state, L)
    g.end_phase(L)
    assert g.state.phase is Phase.COMBAT
    assert _refused(g, m.SWEndPhase(actor=L, house=L)).code == "combat_owed"
