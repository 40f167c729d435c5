"""Succession Wars events: the facts the log keeps. Each carries what evolve needs so that folding
never re-derives a decision, and every die a decision rolled."""

from __future__ import annotations

from mekref.rules.messages import Event, event_type
from mekref.rules.record_type import record
from mekref.rules.succession_wars.messages.commands import Bid, GroupResult, Placement, RetreatMove
from mekref.rules.succession_wars.model import (
    CenterState,
    HouseState,
    JumpShip,
    Kind,
    Leader,
    Phase,
    RegionState,
    SWMap,
    Unit,
)

# --- events --------------------------------------------------------------------------------------


@event_type("SWCampaignStarted")
@record
class SWCampaignStarted(Event):
    seed: str
    scenario: str
    map: SWMap
    sequence: tuple[str, ...]
    houses: tuple[HouseState, ...]
    regions: tuple[tuple[str, RegionState], ...]
    units: tuple[Unit, ...]
    jumpships: tuple[JumpShip, ...]
    leaders: tuple[Leader, ...]
    deck: tuple[int, ...]
    #: 2786: the set-up order rolled (L601) and the shuffled Mercenary pile (L603).
    setup_order: tuple[str, ...] = ()
    mercenary_pile: tuple[str, ...] = ()


@event_type("SWPhaseBegan")
@record
class SWPhaseBegan(Event):
    house: str
    phase: Phase
    round: int
    turn_no: int


@event_type("SWCardsDrawn")
@record
class SWCardsDrawn(Event):
    house: str
    cards: tuple[int, ...]
    deck: tuple[int, ...]  # the draw pile afterwards
    discard: tuple[int, ...]


@event_type("SWCashChanged")
@record
class SWCashChanged(Event):
    house: str
    delta: int
    reason: str


@event_type("SWTechChanged")
@record
class SWTechChanged(Event):
    house: str
    delta: int
    reason: str
    level: int  # after the change, held within the scale


@event_type("SWTechPending")
@record
class SWTechPending(Event):
    """A change applied in the Adjust Technology Scale phase of the current turn."""

    house: str
    delta: int
    reason: str


@event_type("SWPieceBought")
@record
class SWPieceBought(Event):
    house: str
    item: str
    piece: str
    value: int = 0  # combat value for units
    kind: Kind = Kind.MECH
    capacity: int = 0  # for JumpShips
    new: bool = False  # a fresh counter (conventional unit, JumpShip)
    free: bool = False  # paid with a unit owed at no cost


@event_type("SWCenterChanged")
@record
class SWCenterChanged(Event):
    region: str
    center: CenterState
    reason: str
    blocked_turn: int = -1


@event_type("SWPiecesPlaced")
@record
class SWPiecesPlaced(Event):
    house: str
    placements: tuple[Placement, ...]


@event_type("SWJumpShipMoved")
@record
class SWJumpShipMoved(Event):
    house: str
    jumpship: str
    picked_up: tuple[str, ...]
    path: tuple[str, ...]
    dropped_off: tuple[str, ...]


@event_type("SWJumpShipScuttled")
@record
class SWJumpShipScuttled(Event):
    house: str
    jumpship: str


@event_type("SWPiecesCaptured")
@record
class SWPiecesCaptured(Event):
    captor: str
    region: str
    jumpships: tuple[str, ...] = ()
    leaders: tuple[str, ...] = ()
    held_at: str = ""  # where captured Leaders are moved (the captor's capital)
    destroyed_jumpships: tuple[str, ...] = ()  # 2786: the loser's JumpShips are eliminated


@event_type("SWRegionCaptured")
@record
class SWRegionCaptured(Event):
    house: str
    region: str
    previous: str
    blocked_turn: int


@event_type("SWCombatBegan")
@record
class SWCombatBegan(Event):
    region: str
    attacker: str
    defender: str
    original_strength: int
    center_modifier: int
    controller_before: str


@event_type("SWCombatRolled")
@record
class SWCombatRolled(Event):
    house: str
    region: str
    side: str  # "attacker" | "defender"
    round: int
    results: tuple[GroupResult, ...]
    hits: int
    boosts: int = 0  # tech boosts used
    #: A bribed Leader's first round (ruling SW-13): combinations he broke up, and the Combat
    #: Ability taken off the strongest attack.
    nullified: tuple[tuple[str, ...], ...] = ()
    turncoat_penalty: int = 0


@event_type("SWLossesTaken")
@record
class SWLossesTaken(Event):
    house: str
    region: str
    units: tuple[str, ...]


@event_type("SWRetreated")
@record
class SWRetreated(Event):
    house: str
    region: str
    moves: tuple[RetreatMove, ...]


@event_type("SWCombatRoundEnded")
@record
class SWCombatRoundEnded(Event):
    region: str
    round: int


@event_type("SWCombatEnded")
@record
class SWCombatEnded(Event):
    region: str
    winner: str  # "" when both sides were wiped out


@event_type("SWCenterDamageRolled")
@record
class SWCenterDamageRolled(Event):
    region: str
    face: int
    modifier: int
    damaged: bool


@event_type("SWInterdicted")
@record
class SWInterdicted(Event):
    house: str
    region: str  # "" = Housewide
    until: str
    reason: str


@event_type("SWInterdictChoiceOwed")
@record
class SWInterdictChoiceOwed(Event):
    chooser: str
    briber: str
    region: str  # the specified Region, where the briber has no forces


@event_type("SWInterdictRegionChosen")
@record
class SWInterdictRegionChosen(Event):
    chooser: str
    briber: str
    region: str


@event_type("SWLeaderKilled")
@record
class SWLeaderKilled(Event):
    leader: str
    by: str


@event_type("SWBribeRolled")
@record
class SWBribeRolled(Event):
    house: str
    leader: str
    bonus: int
    success: bool
    held_at: str  # where a bribed House Leader takes refuge (or stays, when ``turncoat``)
    #: A House Leader bribed beside his House's units and an enemy's stays for the first round
    #: of combat there (ruling SW-13).
    turncoat: bool = False
    switched_units: tuple[str, ...] = ()  # a bribed Mercenary Leader's force
    free: bool = False  # one of Liao's free attempts


@event_type("SWLeaderReleased")
@record
class SWLeaderReleased(Event):
    leader: str
    region: str


@event_type("SWCardGiven")
@record
class SWCardGiven(Event):
    house: str
    to: str
    card: int


@event_type("SWCardPlayed")
@record
class SWCardPlayed(Event):
    house: str
    card: int
    effect: str
    note: str = ""


@event_type("SWMercenaryCreated")
@record
class SWMercenaryCreated(Event):
    house: str
    unit: str
    region: str
    value: int


@event_type("SWAuctionOpened")
@record
class SWAuctionOpened(Event):
    lot: str
    kind: str
    opener: str


@event_type("SWAuctionSettled")
@record
class SWAuctionSettled(Event):
    lot: str
    kind: str
    bids: tuple[Bid, ...]
    winner: str  # "" if everyone passed
    price: int


@event_type("SWAllegianceChanged")
@record
class SWAllegianceChanged(Event):
    """Pieces and Regions passing to a new owner (won auctions)."""

    owner: str
    units: tuple[str, ...] = ()
    jumpships: tuple[str, ...] = ()
    leaders: tuple[str, ...] = ()
    regions: tuple[str, ...] = ()


@event_type("SWTurncoatMoved")
@record
class SWTurncoatMoved(Event):
    """A bribed Leader's first round is over: still beside his House's units ("exposed"), or
    gone to the briber's capital for the rest of the game (``refuge``)."""

    leader: str
    exposed: bool
    region: str  # where he is now


@event_type("SWImmediateCombatOffered")
@record
class SWImmediateCombatOffered(Event):
    """A Mercenary force changed sides beside other Houses' units: they may attack it at once
    (ruling SW-34)."""

    region: str
    houses: tuple[str, ...]
    mercenary: str  # the new employer


@event_type("SWHouseControlled")
@record
class SWHouseControlled(Event):
    """A player controls all the Leaders of another House, and so that House (ruling SW-33)."""

    house: str
    player: str
    previous: str


@event_type("SWHouseOut")
@record
class SWHouseOut(Event):
    house: str


@event_type("SWGameWon")
@record
class SWGameWon(Event):
    player: str
    capitals: tuple[str, ...]


@event_type("SWMercenaryDrawn")
@record
class SWMercenaryDrawn(Event):
    """A counter drawn from the 2786 Mercenary pile: every counter of its unit goes up for sale
    (L603), and leaves the pile."""

    house: str
    counter: str  # the counter drawn
    formation: str
    units: tuple[str, ...]  # every counter of that unit
    pile: tuple[str, ...]  # the pile left
    card: int = 0  # 0: the Mercenary Phase's draw (L605); else the Event Card played (L633)


@event_type("SWMercenaryHired")
@record
class SWMercenaryHired(Event):
    """A Mercenary unit from the pile joins the auction's winner, in a capital he holds (L297:
    "New Mercenary units are formed in Regional or House capitals")."""

    house: str
    formation: str
    units: tuple[str, ...]
    region: str


@event_type("SWMercenaryUnsold")
@record
class SWMercenaryUnsold(Event):
    """Nobody bid: the unit's counters go to the bottom of the pile (ruling SW-40)."""

    formation: str
    units: tuple[str, ...]
    pile: tuple[str, ...]


@event_type("SWMoveOutOffered")
@record
class SWMoveOutOffered(Event):
    """L387: a Mercenary force changed sides beside opposing units; its new employer may move it
    out intact first."""

    region: str
    employer: str
    units: tuple[str, ...]


@event_type("SWMercenaryMovedOut")
@record
class SWMercenaryMovedOut(Event):
    """The employer's answer: the force (and its Leader) moved out along ``path``, or stayed
    (no path)."""

    house: str
    region: str
    path: tuple[str, ...]
    units: tuple[str, ...]
    leaders: tuple[str, ...] = ()
