"""The scripted two-player campaign the end-to-end, determinism and round-trip tests share.

Ann plays Davion and Steiner, Bo plays Kurita, Marik and Liao (see sw_helpers). The steps and
the values they produce are worked out in test_sw_campaign.py.
"""

from __future__ import annotations

from sw_helpers import SEED, Game

from mekref.rules.succession_wars import messages as m

L, D, S, K = "Liao", "Davion", "Steiner", "Kurita"
CAV1 = "liao-st-ives-armored-cavalry-1"
CAV2 = "liao-st-ives-armored-cavalry-2"
LING = "liao-charles-ling"


def play_campaign(seed: str = SEED) -> Game:
    g = Game(seed)
    # Round 1, Liao: tech roll, a new 'Mech, a card; take Daniels.
    g.end_phase(L)  # draw: the hand is already four
    g.run(m.SWTechRoll(actor=L, house=L, chances=1))
    g.run(m.SWBuy(actor=L, house=L, item="house_mech", unit="liao-capellan-hussars-2"))
    g.run(m.SWPlayCard(actor=L, house=L, card=47, note="Death Commando: no target this turn"))
    g.end_phase(L)  # -> movement
    g.run(
        m.SWMoveJumpShip(
            actor=L,
            house=L,
            jumpship="liao-js-1",
            pick_up=(CAV1, CAV2, LING),
            path=("Daniels",),
            drop_off=(CAV1, CAV2, LING),
        )
    )
    g.end_phase(L)  # -> combat
    g.run(m.SWAttack(actor=L, house=L, region="Daniels", pairs=((CAV1, CAV2),)))
    g.run(m.SWCounterattack(actor=D, house=D, region="Daniels"))
    g.run(m.SWTakeLosses(actor=D, house=D, region="Daniels", units=("davion-lindons-company-1",)))
    g.end_phase(L, 2)  # -> tech -> place
    g.run(
        m.SWPlaceUnits(
            actor=L,
            house=L,
            placements=(m.Placement(piece="liao-capellan-hussars-2", region="Sian"),),
        )
    )
    g.end_phase(L, 2)  # -> taxes -> Marik's turn
    g.pass_turn("Marik")
    # Steiner plays card 2: Advance Technology by 3.
    g.run(m.SWPlayCard(actor=S, house=S, card=2))
    g.pass_turn(S)
    # Kurita bribes Michael Hasek-Davion.
    g.end_phase(K)
    g.run(m.SWBribe(actor=K, house=K, leader="davion-michael-hasek-davion"))
    g.pass_turn(K)
    # Davion: a 2-unit JumpShip and a ComStar Interdict against Liao at Daniels.
    g.end_phase(D)
    g.run(m.SWBuy(actor=D, house=D, item="jumpship_2"))
    g.run(m.SWBuyInterdict(actor=D, house=D, region="Daniels", target=L))
    g.end_phase(D, 4)  # -> movement -> combat -> tech -> place
    g.run(
        m.SWPlaceUnits(
            actor=D, house=D, placements=(m.Placement(piece="davion-js-new-1", region="Robinson"),)
        )
    )
    g.end_phase(D, 2)  # -> taxes -> round 2, Liao
    # Round 2, Liao: through Emerson onto New Avalon; the battle is fought in MegaMek.
    g.end_phase(L, 2)  # draw one card, -> movement
    g.run(
        m.SWMoveJumpShip(
            actor=L,
            house=L,
            jumpship="liao-js-1",
            pick_up=(CAV1, CAV2, LING),
            path=("Emerson", "New Avalon"),
            drop_off=(CAV1, CAV2, LING),
        )
    )
    g.end_phase(L)  # -> combat
    g.run(
        m.SWReportBattle(
            actor=L,
            house=L,
            region="New Avalon",
            destroyed=("davion-avalon-hussars-1", "davion-avalon-hussars-2", CAV2),
        )
    )
    return g
