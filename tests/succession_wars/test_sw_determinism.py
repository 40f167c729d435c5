"""Same seed, same history: events, state hash, replay; and every message survives JSON."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from sw_campaign import play_campaign
from sw_helpers import Game

from mekref.rules.codec import canonical_json
from mekref.rules.messages import Command, Event, event_text, message_to_json
from mekref.rules.succession_wars import game
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.data import load_tables
from mekref.rules.succession_wars.game import SUCCESSION_WARS
from mekref.rules.succession_wars.model import CenterState, Kind, Phase
from mekref.rules.succession_wars.tech import clamp, effects

# This rule set's message codec (names kept from the shared registry).
COMMANDS = SUCCESSION_WARS.commands
EVENTS = SUCCESSION_WARS.events
command_from_json = SUCCESSION_WARS.commands.from_json
event_from_text = SUCCESSION_WARS.events.from_text
command_to_json = message_to_json

# Messages the scripted campaign does not produce, so the round trip still covers every type.
EXTRA_COMMANDS: list[Command] = [
    m.SWBuildCenter(actor="Davion", house="Davion", region="Emerson"),
    m.SWRepairCenter(actor="Davion", house="Davion", region="Achemar"),
    m.SWScuttleJumpShip(actor="Davion", house="Davion", jumpship="davion-js-1"),
    m.SWRetreat(
        actor="Liao",
        house="Liao",
        region="Daniels",
        moves=(m.RetreatMove(jumpship="liao-js-1", carry=("a", "b"), path=("St. Ives",)),),
    ),
    m.SWKillLeader(actor="Liao", house="Liao", leader="davion-hanse-davion"),
    m.SWRansomLeader(actor="Davion", house="Davion", leader="davion-hanse-davion", price=20),
    m.SWPay(actor="Davion", house="Davion", to="Liao", amount=3, reason="peace"),
    m.SWGiveCard(actor="Davion", house="Davion", to="Steiner", card=13, price=2),
    m.SWOpenAuction(actor="Liao", house="Liao", lot="Bandit Kingdoms"),
    m.SWSettleAuction(actor="referee", bids=(m.Bid(house="Liao", amount=5),)),
    m.SWChooseInterdictRegion(actor="Liao", house="Liao", briber="Davion", region="Daniels"),
    m.SWAttack(
        actor="Liao",
        house="Liao",
        region="Daniels",
        leaders=(m.LeaderBonus(leader="liao-charles-ling", group=("a", "b")),),
    ),
    m.SWDrawMercenary(actor="Liao", house="Liao"),
    m.SWMoveMercenaryOut(actor="Liao", house="Liao", region="Dieron", path=("Sian",)),
]
EXTRA_EVENTS: list[Event] = [
    m.SWJumpShipScuttled(house="Davion", jumpship="davion-js-1"),
    m.SWInterdictChoiceOwed(chooser="Liao", briber="Davion", region="St. Ives"),
    m.SWInterdictRegionChosen(chooser="Liao", briber="Davion", region="Daniels"),
    m.SWRetreated(house="Liao", region="Daniels", moves=()),
    m.SWCombatRoundEnded(region="Daniels", round=1),
    m.SWLeaderKilled(leader="x", by="Liao"),
    m.SWLeaderReleased(leader="x", region="Sian"),
    m.SWCardGiven(house="Davion", to="Steiner", card=13),
    m.SWMercenaryCreated(house="Liao", unit="liao-mercenary-1", region="Sian", value=4),
    m.SWAuctionOpened(lot="Bandit Kingdoms", kind="periphery", opener="Liao"),
    m.SWAuctionSettled(
        lot="Bandit Kingdoms",
        kind="periphery",
        bids=(m.Bid(house="Liao", amount=5),),
        winner="Liao",
        price=5,
    ),
    m.SWAllegianceChanged(
        owner="Liao", units=("u",), jumpships=("s",), regions=("Bandit Kingdoms",)
    ),
    m.SWHouseOut(house="Davion"),
    m.SWHouseControlled(house="Davion", player="Bo", previous="Ann"),
    m.SWTurncoatMoved(leader="davion-ran-felsner", exposed=True, region="Daniels"),
    m.SWImmediateCombatOffered(region="Dieron", houses=("Kurita",), mercenary="Liao"),
    m.SWMercenaryDrawn(
        house="Liao", counter="a-1", formation="A", units=("a-1", "a-2"), pile=("b-1",), card=7
    ),
    m.SWMercenaryHired(house="Liao", formation="A", units=("a-1",), region="Sian"),
    m.SWMercenaryUnsold(formation="A", units=("a-1",), pile=("b-1", "a-1")),
    m.SWMoveOutOffered(region="Dieron", employer="Liao", units=("a-1",)),
    m.SWMercenaryMovedOut(
        house="Liao", region="Dieron", path=("Sian",), units=("a-1",), leaders=("x",)
    ),
    m.SWTechPending(house="Davion", delta=-1, reason="r"),
    m.SWCenterChanged(region="Achemar", center=CenterState.DAMAGED, reason="r"),
    m.SWPieceBought(
        house="Liao", item="conventional", piece="c", value=2, kind=Kind.CONVENTIONAL, new=True
    ),
]


def test_same_seed_same_events_and_hash() -> None:
    first = play_campaign()
    second = play_campaign()
    assert [event_text(e) for e in first.log] == [event_text(e) for e in second.log]
    assert game.SUCCESSION_WARS.state_hash(first.state) == game.SUCCESSION_WARS.state_hash(
        second.state
    )


def test_replaying_the_log_gives_the_same_state() -> None:
    g = play_campaign()
    replayed = game.SUCCESSION_WARS.fold(event_from_text(event_text(e)) for e in g.log)
    assert game.SUCCESSION_WARS.state_hash(replayed) == game.SUCCESSION_WARS.state_hash(g.state)
    # 47 shuffle rolls, then the tech roll, the counterattack, the bribe, the Interdict and the
    # center damage roll: one die each.
    assert replayed.rolls_used == g.state.rolls_used == 47 + 5


def test_another_seed_gives_another_deck() -> None:
    assert Game("one").state.deck != Game("two").state.deck


def test_every_command_and_event_round_trips_through_json() -> None:
    g = play_campaign()
    commands = g.commands + EXTRA_COMMANDS
    events = g.log + EXTRA_EVENTS
    for command in commands:
        assert command_from_json(command_to_json(command)) == command
    for event in events:
        assert event_from_text(event_text(event)) == event
    sw_commands = {n for n in COMMANDS.names() if n.startswith("SW")}
    sw_events = {n for n in EVENTS.names() if n.startswith("SW")}
    assert {type(c).TYPE for c in commands} == sw_commands
    assert {type(e).TYPE for e in events} == sw_events


@settings(max_examples=25, deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_any_seed_deals_a_whole_deck(seed: str) -> None:
    """The shuffle is a permutation: hands and draw pile hold each of the 48 cards once."""
    state = Game(seed).state
    cards = list(state.deck) + [c for h in state.houses.values() for c in h.hand]
    assert sorted(cards) == list(range(1, 49))
    assert state.phase is Phase.DRAW


@given(st.integers(min_value=-10, max_value=24))
def test_higher_tech_never_costs_more_or_moves_less(level: int) -> None:
    t = load_tables()
    low, high = effects(t, level), effects(t, level + 1)
    assert high.mech_price <= low.mech_price and high.merc_price <= low.merc_price
    assert high.jump_range >= low.jump_range
    assert high.all_units + high.mech_units >= low.all_units + low.mech_units
    assert high.tax_bonus >= low.tax_bonus


@given(st.integers(min_value=-100, max_value=100))
def test_tech_level_stays_on_the_scale(level: int) -> None:
    assert -10 <= clamp(load_tables(), level) <= 25


def test_state_hash_is_canonical_json() -> None:
    state = Game().state
    assert len(game.SUCCESSION_WARS.state_hash(state)) == 64
    assert canonical_json(state) == canonical_json(game.SUCCESSION_WARS.fold(Game().log))
