"""The First Succession War scenario, 2786 (L585-639): set-up from its data file, the Mercenary
pile and Mercenary Phase, and the scenario's own combat rules."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from sw_helpers import PLAYERS, Game, clear_region, edit, move_ship, move_unit

from mekref.rules.messages import message_to_json
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import game
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.data import load_oob_3025, sample_map
from mekref.rules.succession_wars.model import MERCENARY_PILE, REFEREE, Phase, Status
from mekref.rules.succession_wars.scenario_2786 import example_placements, pieces

SEED = "first-succession-war"
L, D, K = "Liao", "Davion", "Kurita"


def start_2786(seed: str = SEED, **changes: object) -> m.SWStartCampaign:
    board = sample_map()
    command = m.SWStartCampaign(
        actor=REFEREE,
        seed=seed,
        map=board,
        players=PLAYERS,
        placements=example_placements(board),
        scenario="2786",
    )
    return replace(command, **changes)  # type: ignore[arg-type]


class Game2786(Game):
    def __init__(self, seed: str = SEED) -> None:
        self.state = game.SUCCESSION_WARS.initial_state()
        self.log = []
        self.commands = []
        self.run(start_2786(seed))

    def draw_and_pass(self, house: str) -> m.SWMercenaryDrawn:
        """The Mercenary Phase with nobody bidding."""
        events = self.run(m.SWDrawMercenary(actor=house, house=house))
        drawn = events[0]
        assert isinstance(drawn, m.SWMercenaryDrawn)
        self.run(m.SWSettleAuction(actor=REFEREE, bids=_passes(self.state, house)))
        return drawn


def _passes(state: object, opener: str) -> tuple[m.Bid, ...]:
    order = list(load_oob_3025().sequence)
    i = order.index(opener)
    return tuple(m.Bid(house=h, amount=0) for h in order[i:] + order[:i])


def _refused(g: Game, command: m.Command) -> Refusal:
    with pytest.raises(Refusal) as info:
        g.run(command)
    return info.value


def to_round_two(g: Game2786, house: str, phase: Phase) -> None:
    """L603: round 1 is the Mercenary round; then full turns until ``house`` reaches ``phase``."""
    while g.state.round == 1:
        active = g.state.active
        g.draw_and_pass(active)
        g.end_phase(active)
    while not (g.state.active == house and g.state.phase is phase):
        active = g.state.active
        if g.state.phase is Phase.MERCENARY:
            g.draw_and_pass(active)
        g.end_phase(active)


def test_set_up_from_the_2786_data() -> None:
    """L639 "Each House starts the game with 25 regular military units." L637 "no Mercenary units
    are included in the House armies". L629 "There are no Periphery state or ComStar units on the
    board." L601 "House Liao receives no special benefits in this scenario." """
    g = Game2786()
    s = g.state
    assert s.scenario == "2786"
    active = [u for u in s.units.values() if u.status is Status.ACTIVE]
    assert Counter(u.owner for u in active) == {h: 25 for h in s.sequence}
    assert {u.value for u in active} == {4} and not any(u.mercenary for u in active)
    assert not [u for u in s.units.values() if u.owner not in s.houses and u.region]
    assert not [j for j in s.jumpships.values() if j.owner not in s.houses]
    liao = s.houses[L]
    assert liao.free_bribes == 0 and not {47, 48} <= set(liao.hand)
    assert all(len(h.hand) == 4 for h in s.houses.values())
    # L613-619: the text names Davion's Leaders only (ruling SW-39).
    assert sorted(ld.name for ld in s.leaders.values()) == [
        "Ernest Hapala",
        "John Davion",
        "Richard Davion",
        "Vance Gentry",
    ]
    # L601: "Each player rolls one die; the one with the lowest roll sets up his playing pieces
    # first." The order is rolled and logged.
    started = g.log[0]
    assert isinstance(started, m.SWCampaignStarted)
    assert sorted(started.setup_order) == ["Ann", "Bo"]
    assert any(r.name.startswith("set-up order") for r in started.rolls)
    assert g.state.phase is Phase.MERCENARY and g.state.round == 1


def test_the_mercenary_pile_holds_every_mercenary_counter_at_four_or_more() -> None:
    """L603: "Place all Mercenary unit counters in a pile. ... If the unit's normal strength is
    less than 4, change its fighting strength to 4." """
    s = Game2786().state
    mercs = [f for f in load_oob_3025().formations if f.mercenary]
    assert len(s.mercenary_pile) == sum(len(f.available) + len(f.reserve) for f in mercs)
    for uid in s.mercenary_pile:
        unit = s.units[uid]
        assert unit.owner == MERCENARY_PILE and unit.status is Status.RESERVE
        assert unit.value >= 4
    assert s.units["kurita-wolfs-dragoons-1"].value == 5  # 5 stays 5
    assert s.units["davion-lindons-company-1"].value == 4  # 1 becomes 4


def test_every_piece_is_placed_in_its_own_houses_regions() -> None:
    """L601 "Leaders and JumpShips may be set up anywhere" (ruling SW-38: in the House's own
    Regions); every one of the 25 units is placed by the start command."""
    g = Game2786.__new__(Game2786)
    g.state, g.log, g.commands = game.SUCCESSION_WARS.initial_state(), [], []
    placements = start_2786().placements
    missing = start_2786(placements=placements[1:])
    assert _refused(g, missing).code == "bad_setup"
    ship = next(p for p in placements if p.piece == "davion-js-1")
    moved = tuple(replace(p, region="Sian") if p.piece == ship.piece else p for p in placements)
    refusal = _refused(g, start_2786(placements=moved))
    assert refusal.code == "bad_setup" and "Region of House Davion" in refusal.message
    assert len(pieces()) == 5 * 25 + 25 + 4


def test_garrison_requirements_still_apply() -> None:
    """L601: "All garrison requirements must still be met." """
    g = Game2786.__new__(Game2786)
    g.state, g.log, g.commands = game.SUCCESSION_WARS.initial_state(), [], []
    board = sample_map()
    placements = tuple(
        replace(p, region=board.house_capital(p.piece.split("-")[0].capitalize()))
        for p in start_2786().placements
    )
    assert _refused(g, start_2786(placements=placements)).code == "ungarrisoned_border"


def test_the_first_round_is_mercenary_purchases_only() -> None:
    """L603: "The first round of play consists solely of Mercenary purchases. ... Once each player
    has done this, play begins with full turns." """
    g = Game2786()
    seen = []
    while g.state.round == 1:
        seen.append((g.state.active, g.state.phase))
        g.draw_and_pass(g.state.active)
        g.end_phase(g.state.active)
    assert seen == [(h, Phase.MERCENARY) for h in load_oob_3025().sequence]
    # Round 2: full turns, each opening with its Mercenary Phase (L605), then the Draw phase.
    assert (g.state.round, g.state.active, g.state.phase) == (2, L, Phase.MERCENARY)
    g.draw_and_pass(L)
    g.end_phase(L)
    assert (g.state.active, g.state.phase) == (L, Phase.DRAW)


def test_the_phasing_player_draws_once_before_his_turn() -> None:
    """L605: "Before each turn, the phasing player draws a unit from the Mercenary pile, and that
    unit's services then go up for auction." """
    g = Game2786()
    assert _refused(g, m.SWEndPhase(actor=L, house=L)).code == "draw_first"
    assert _refused(g, m.SWDrawMercenary(actor=K, house=K)).code == "not_your_turn"
    drawn = g.draw_and_pass(L)
    assert g.state.mercenary_pile[-len(drawn.units) :] == drawn.units  # unsold: to the bottom
    assert _refused(g, m.SWDrawMercenary(actor=L, house=L)).code == "already_drawn"
    g.end_phase(L)
    assert g.state.active == "Marik"


def test_a_drawn_counter_puts_its_whole_unit_up_for_sale() -> None:
    """L603: "When a player draws a counter belonging to a Mercenary unit that contains more than
    one counter, all the counters are up for sale." """
    g = Game2786()
    dragoons = [u for u in g.state.mercenary_pile if u.startswith("kurita-wolfs-dragoons")]
    rest = [u for u in g.state.mercenary_pile if u not in dragoons]
    edit(g, mercenary_pile=(dragoons[1], *rest, dragoons[0], dragoons[2]))
    events = g.run(m.SWDrawMercenary(actor=L, house=L))
    drawn = events[0]
    assert isinstance(drawn, m.SWMercenaryDrawn) and sorted(drawn.units) == sorted(dragoons)
    assert g.state.mercenary_pile == tuple(rest)
    assert g.state.auction is not None and g.state.auction.lot == "Wolf's Dragoons"
    bids = (
        m.Bid(house=L, amount=12),
        *(m.Bid(house=h, amount=0) for h in ("Marik", "Steiner", K, D)),
    )
    cash = g.state.houses[L].cash
    events = g.run(m.SWSettleAuction(actor=REFEREE, bids=bids))
    hired = [e for e in events if isinstance(e, m.SWMercenaryHired)]
    # L297: "New Mercenary units are formed in Regional or House capitals" (ruling SW-40).
    assert hired == [
        m.SWMercenaryHired(
            house=L, formation="Wolf's Dragoons", units=tuple(sorted(dragoons)), region="Sian"
        )
    ]
    assert g.state.houses[L].cash == cash - 12
    assert {g.state.units[u].owner for u in dragoons} == {L}
    assert {g.state.units[u].region for u in dragoons} == {"Sian"}


def test_the_attacker_uses_the_full_center_modifier() -> None:
    """L623: "The attacker may not reduce his number of forces in Manufacturing damage rolls." """
    g = Game2786()
    to_round_two(g, L, Phase.COMBAT)
    clear_region(g, "Robinson")
    for n in (1, 2, 3):
        move_unit(g, f"liao-regular-{n}", "Robinson")
    move_unit(g, "davion-regular-1", "Robinson")
    refusal = _refused(g, m.SWAttack(actor=L, house=L, region="Robinson", center_modifier=0))
    assert refusal.code == "full_modifier" and refusal.source is not None
    assert refusal.source.line == 623
    events = g.run(m.SWAttack(actor=L, house=L, region="Robinson"))
    began = events[0]
    # Strength 12: L236 "11-15\t+2", the whole of it.
    assert isinstance(began, m.SWCombatBegan) and began.center_modifier == 2


def test_jumpships_are_eliminated_with_a_destroyed_force() -> None:
    """L631: "Any time a force is entirely destroyed in combat, any friendly JumpShips in the
    region are also eliminated." """
    g = Game2786()
    to_round_two(g, L, Phase.COMBAT)
    clear_region(g, "Daniels")
    move_unit(g, "liao-regular-1", "Daniels", value=10)  # an automatic kill
    move_unit(g, "davion-regular-1", "Daniels", value=1)
    move_ship(g, "davion-js-6", "Daniels")
    g.run(m.SWAttack(actor=L, house=L, region="Daniels"))
    g.run(m.SWCounterattack(actor=D, house=D, region="Daniels"))
    combat = g.state.combat
    assert combat is not None and combat.losses_due.get(D) == 1
    events = g.run(m.SWTakeLosses(actor=D, house=D, region="Daniels", units=("davion-regular-1",)))
    if g.state.combat is not None and g.state.combat.losses_due.get(L):
        events += g.run(
            m.SWTakeLosses(actor=L, house=L, region="Daniels", units=("liao-regular-1",))
        )
    lost = [e for e in events if isinstance(e, m.SWPiecesCaptured) and e.destroyed_jumpships]
    assert lost and lost[0].destroyed_jumpships == ("davion-js-6",)
    assert g.state.jumpships["davion-js-6"].status is Status.DESTROYED
    assert g.state.jumpships["davion-js-6"].owner == D  # eliminated, not captured


def test_cards_seven_to_eleven_draw_from_the_pile() -> None:
    """L633: "Event Cards 7, 8, 9, 10, and 11 can be used to draw a neutral Mercenary unit and
    place it up for bid at any time." """
    g = Game2786()
    houses = dict(g.state.houses)
    houses[K] = replace(houses[K], hand=(9,))
    edit(g, houses=houses)
    top = g.state.mercenary_pile[0]
    events = g.run(m.SWPlayCard(actor=K, house=K, card=9))
    drawn = [e for e in events if isinstance(e, m.SWMercenaryDrawn)]
    assert drawn and drawn[0].counter == top and drawn[0].card == 9
    assert g.state.auction is not None and g.state.auction.opener == K
    # Out of turn, and not Liao's Mercenary Phase draw: Liao still owes its own.
    assert g.state.mercenary_drawn_turn == 0


def test_no_house_sees_the_order_of_the_mercenary_pile() -> None:
    # L603: the counters are drawn from a pile; like the draw pile, its order is hidden.
    g = Game2786()
    view = game.SUCCESSION_WARS.view_for(g.state, L)
    assert isinstance(view, dict)
    assert view["mercenary_pile"] == [""] * len(g.state.mercenary_pile)
    started = game.SUCCESSION_WARS.event_for(g.state, message_to_json(g.log[0]), K)
    assert started is not None and set(started["mercenary_pile"]) == {""}


def test_the_counter_mix_is_built_at_four() -> None:
    """L609: "All units in the counter mix may be built at a strength of 4." (ruling SW-38: the
    3025 House counters wait in reserve)."""
    g = Game2786()
    hussars = g.state.units["liao-capellan-hussars-1"]
    assert hussars.status is Status.RESERVE and hussars.value == 6
    to_round_two(g, L, Phase.SPEND)
    events = g.run(m.SWBuy(actor=L, house=L, item="house_mech", unit=hussars.id))
    bought = [e for e in events if isinstance(e, m.SWPieceBought)]
    assert bought and bought[0].value == 4
    assert g.state.units[hussars.id].status is Status.PENDING
