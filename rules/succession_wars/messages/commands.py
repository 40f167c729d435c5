"""Succession Wars commands: what a House (its token holder) or the referee asks for, with the
parts they share (placements, retreats, bids, battle results)."""

from __future__ import annotations

from dataclasses import field

from mekref.rules.messages import Command, command_type
from mekref.rules.record_type import Record, record
from mekref.rules.succession_wars.model import (
    SWMap,
)

# --- shared parts --------------------------------------------------------------------------------


@record
class Placement(Record):
    piece: str  # a unit, JumpShip or Leader id
    region: str


@record
class RetreatMove(Record):
    """One JumpShip leaving a contested Region with what it carries, along ``path``."""

    jumpship: str
    carry: tuple[str, ...] = ()  # units and Leaders
    path: tuple[str, ...] = ()


@record
class Bid(Record):
    house: str
    amount: int  # 0 = pass


@record
class LeaderBonus(Record):
    """One Leader's Combat Ability on one attack (a unit alone or a pair) of this round."""

    leader: str
    group: tuple[str, ...]


@record
class GroupResult(Record):
    units: tuple[str, ...]
    value: int  # the attack value after every modifier
    auto: bool  # 10 or more: an automatic kill, no die rolled
    face: int  # 0 when no die was rolled
    hit: bool


# --- commands ------------------------------------------------------------------------------------


#: What SWBuy buys (the price table's rows; a test holds the two equal).
BUY_ITEMS = (
    "house_mech",
    "merc_rebuild",
    "upgrade",
    "conventional",
    "jumpship_1",
    "jumpship_2",
    "jumpship_3",
    "jumpship_5",
)


@command_type("SWStartCampaign")
@record
class SWStartCampaign(Command):
    seed: str
    map: SWMap = field(
        metadata={
            "doc": "the board; 'mekref game start' also takes a bundled map's name "
            '("sample") or a TOML map file ("board.toml") here'
        }
    )
    players: tuple[tuple[str, str], ...] = field(
        metadata={"doc": "[House, player] for each of the five Houses; a player may hold several"}
    )
    placements: tuple[Placement, ...] = field(
        default=(),
        metadata={"doc": "every free set-up piece (see 'mekref game example') and its Region"},
    )
    scenario: str = field(
        default="3025",
        metadata={
            "allowed": ("3025", "2786"),
            "doc": '"3025" (the main game) or "2786" (the First Succession War: every counter, '
            "JumpShip and Leader is placed in placements; see 'mekref game example --scenario "
            "2786')",
        },
    )


@command_type("SWEndPhase")
@record
class SWEndPhase(Command):
    house: str


@command_type("SWBuy")
@record
class SWBuy(Command):
    house: str
    item: str = field(metadata={"allowed": BUY_ITEMS})
    unit: str = ""  # the counter to build, rebuild or upgrade
    free: bool = False  # use a unit owed at no cost


@command_type("SWBuildCenter")
@record
class SWBuildCenter(Command):
    house: str
    region: str


@command_type("SWRepairCenter")
@record
class SWRepairCenter(Command):
    house: str
    region: str


@command_type("SWTechRoll")
@record
class SWTechRoll(Command):
    house: str
    chances: int = 1


@command_type("SWPlaceUnits")
@record
class SWPlaceUnits(Command):
    house: str
    placements: tuple[Placement, ...]


@command_type("SWMoveJumpShip")
@record
class SWMoveJumpShip(Command):
    house: str
    jumpship: str
    pick_up: tuple[str, ...] = ()  # units and Leaders boarding where the ship is
    path: tuple[str, ...] = ()  # Regions entered, in order
    drop_off: tuple[str, ...] = ()  # what leaves the ship at the end of the path


@command_type("SWScuttleJumpShip")
@record
class SWScuttleJumpShip(Command):
    house: str
    jumpship: str


@command_type("SWAttack")
@record
class SWAttack(Command):
    house: str
    region: str
    against: str = ""  # the defender, when more than one other side stands in the Region
    pairs: tuple[tuple[str, str], ...] = ()  # combinations; every other unit attacks alone
    leader: str = ""  # whose Combat Ability is added to one attack this round
    leader_group: tuple[str, ...] = ()  # the attack (one unit or a pair) that gets it
    #: Further Leaders present, each on one attack (L321: each "is allowed on one combat per
    #: round"); ``leader``/``leader_group`` is the first of them.
    leaders: tuple[LeaderBonus, ...] = ()
    boosted: tuple[str, ...] = ()  # 'Mechs given +2 by tech level 7 or 12
    center_modifier: int = -1  # Manufacturing Center damage modifier; -1 = the largest allowed


@command_type("SWCounterattack")
@record
class SWCounterattack(Command):
    house: str
    region: str
    pairs: tuple[tuple[str, str], ...] = ()
    leader: str = ""
    leader_group: tuple[str, ...] = ()
    leaders: tuple[LeaderBonus, ...] = ()
    boosted: tuple[str, ...] = ()


@command_type("SWTakeLosses")
@record
class SWTakeLosses(Command):
    house: str
    region: str
    units: tuple[str, ...]


@command_type("SWRetreat")
@record
class SWRetreat(Command):
    house: str
    region: str
    moves: tuple[RetreatMove, ...] = ()  # none: stay and fight on


@command_type("SWReportBattle")
@record
class SWReportBattle(Command):
    """A battle fought elsewhere (MegaMek): which counters died and who retreated."""

    house: str  # the attacker
    region: str
    against: str = ""
    destroyed: tuple[str, ...] = ()
    retreats: tuple[RetreatMove, ...] = ()
    center_modifier: int = -1


@command_type("SWKillLeader")
@record
class SWKillLeader(Command):
    house: str
    leader: str


@command_type("SWRansomLeader")
@record
class SWRansomLeader(Command):
    house: str  # pays, gets the Leader back
    leader: str
    price: int


@command_type("SWPay")
@record
class SWPay(Command):
    house: str
    to: str
    amount: int
    reason: str = ""


@command_type("SWGiveCard")
@record
class SWGiveCard(Command):
    house: str
    to: str
    card: int
    price: int = 0


@command_type("SWPlayCard")
@record
class SWPlayCard(Command):
    house: str
    card: int
    region: str = ""  # new Mercenary unit: the capital it forms in
    target: str = ""  # contract ends: a Mercenary formation
    note: str = ""  # referee-resolved cards: what was done


@command_type("SWBribe")
@record
class SWBribe(Command):
    house: str
    leader: str
    free: bool = False  # one of Liao's two free attempts


@command_type("SWBuyInterdict")
@record
class SWBuyInterdict(Command):
    house: str
    region: str
    target: str  # the House whose forces are to be interdicted
    #: No longer the briber's to give (ruling SW-18): "the player in that Region can choose",
    #: with SWChooseInterdictRegion. Kept so that old command files are refused by name.
    fallback_region: str = ""


@command_type("SWChooseInterdictRegion")
@record
class SWChooseInterdictRegion(Command):
    """The player in the specified Region picks where the briber's own forces are interdicted
    (L367), after a 1-3 on the ComStar Interdiction Table with the briber not there."""

    house: str  # the chooser: the House whose forces were specified
    briber: str
    region: str


@command_type("SWOpenAuction")
@record
class SWOpenAuction(Command):
    house: str
    lot: str  # a Periphery state


@command_type("SWSettleAuction")
@record
class SWSettleAuction(Command):
    bids: tuple[Bid, ...]  # as made round the table, starting with the opener; 0 = pass


@command_type("SWDrawMercenary")
@record
class SWDrawMercenary(Command):
    """2786 (L605): "Before each turn, the phasing player draws a unit from the Mercenary pile,
    and that unit's services then go up for auction." """

    house: str


@command_type("SWMoveMercenaryOut")
@record
class SWMoveMercenaryOut(Command):
    """L387: the new employer of a Mercenary force that changed sides beside opposing units
    moves it out intact, without combat (``path``), or keeps it there (no path): then combat
    must occur, at once if the opposing player wants (ruling SW-41)."""

    house: str
    region: str
    path: tuple[str, ...] = field(
        default=(),
        metadata={"doc": "Regions entered, ending in a Region the House controls; none = stay"},
    )
