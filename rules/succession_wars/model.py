"""The Succession Wars state: the board, the pieces, the Houses and the turn, all frozen.

The state is a fold of the event log (:mod:`.game`); nothing here decides anything. Mappings are
rebuilt, never mutated, when an event is applied. Ids are stable text so events can name pieces.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from enum import StrEnum
from typing import Any

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.record_type import Record, record

TERRA_OWNER = "ComStar"
REFEREE = "referee"
#: Who owns a Mercenary counter still in the 2786 scenario's pile (L603): nobody's yet.
MERCENARY_PILE = "Mercenary pile"


@record
class Region(Record):
    """One Region of the map: static for the whole game."""

    name: str
    house: str  # the House (or ComStar, or a Periphery state) holding it at the start
    resource: int  # millions of C-Bills per Collect Taxes Phase
    capital: str = field(default="", metadata={"allowed": ("", "house", "regional")})
    center: bool = False  # a Manufacturing Center at the start
    periphery: bool = False
    terra: bool = False
    borders: tuple[str, ...] = ()


@record
class SWMap(Record):
    name: str
    regions: tuple[Region, ...]

    def region(self, name: str) -> Region | None:
        for r in self.regions:
            if r.name == name:
                return r
        return None

    def house_capital(self, house: str) -> str:
        for r in self.regions:
            if r.capital == "house" and r.house == house:
                return r.name
        return ""


class Kind(StrEnum):
    MECH = "mech"
    CONVENTIONAL = "conventional"


class Status(StrEnum):
    ACTIVE = "active"  # on the board
    RESERVE = "reserve"  # in the counter mix, never placed yet
    PENDING = "pending"  # bought (or taken off to upgrade), waits for the Place phase
    DESTROYED = "destroyed"


class LeaderStatus(StrEnum):
    FREE = "free"
    CAPTURED = "captured"
    BRIBED = "bribed"
    KILLED = "killed"


class CenterState(StrEnum):
    NONE = "none"
    INTACT = "intact"
    DAMAGED = "damaged"


class Phase(StrEnum):
    SETUP = "setup"
    MERCENARY = "mercenary"  # 2786 only: draw a Mercenary unit and auction it (L605)
    DRAW = "draw"  # fill Event Card hand to four
    SPEND = "spend"  # spend taxes
    MOVEMENT = "movement"
    COMBAT = "combat"
    TECH = "tech"  # adjust Technology Scale
    PLACE = "place"  # place new units
    TAXES = "taxes"  # collect taxes
    OVER = "over"


PHASES: tuple[Phase, ...] = (
    Phase.DRAW,
    Phase.SPEND,
    Phase.MOVEMENT,
    Phase.COMBAT,
    Phase.TECH,
    Phase.PLACE,
    Phase.TAXES,
)


@record
class Unit(Record):
    """One counter: a 'Mech or conventional unit of a named formation."""

    id: str
    formation: str  # "Crucis Lancers": counters of one formation combine without a Leader
    house: str  # the House (or neutral) whose counter mix it belongs to
    owner: str  # who moves and fights it now
    kind: Kind = Kind.MECH
    value: int
    mercenary: bool = False
    status: Status = Status.ACTIVE
    region: str = ""  # "" while off the board


def house_counter(uid: str, formation: str, house: str, value: int, **more: Any) -> Unit:
    """A new counter of ``house``'s counter mix, which that House moves and fights."""
    return Unit(id=uid, formation=formation, house=house, owner=house, value=value, **more)


@record
class JumpShip(Record):
    id: str
    owner: str
    capacity: int
    status: Status = Status.ACTIVE
    region: str = ""


@record
class Leader(Record):
    id: str
    name: str
    house: str  # the House he started with
    owner: str  # whose Leader he is now (a bribed Leader belongs to the briber)
    combat: int
    military: int
    admin: int
    loyalty: int | None  # None: cannot be bribed
    mercenary: bool = False
    formation: str = ""  # a Mercenary Leader's own unit
    status: LeaderStatus = LeaderStatus.FREE
    region: str = ""
    captor: str = ""  # who took him (captured or bribed)
    #: A bribed House Leader still beside his House's units (ruling SW-13): "first_round" until
    #: the first round of combat there ends, then "exposed" while his House may kill him.
    turncoat: str = ""


@record
class HouseState(Record):
    name: str
    player: str
    cash: int = 0
    tech: int = 0
    hand: tuple[int, ...] = ()
    free_bribes: int = 0  # Liao's two free bribe attempts
    free_units: int = 0  # units owed at no cost (Star League card, taking Earth)
    bribe_bonus: int = 0  # Blackmail card: added to the next bribe roll
    out: bool = False


@record
class RegionState(Record):
    controller: str
    center: CenterState = CenterState.NONE
    center_blocked_turn: int = -1  # no placing on the turn the center was placed or captured


@record
class Interdict(Record):
    house: str
    region: str = ""  # "" = Housewide
    until: str = "turn"  # "turn": end of that House's turn; "earth": while it holds Terra


@record
class Combat(Record):
    """The fight in one Region, between its rounds' steps."""

    region: str
    attacker: str
    defender: str
    round: int = 1
    stage: str = (
        "counterattack"  # counterattack, losses, retreat_attacker, retreat_defender, attack
    )
    attacker_hits: int = 0  # kills the defender must take
    defender_hits: int = 0  # kills the attacker must take
    losses_due: Mapping[str, int] = field(default_factory=dict)
    original_strength: int = 0
    center_modifier: int = 0
    controller_before: str = ""


@record
class Auction(Record):
    lot: str  # a Periphery state or a Mercenary formation
    kind: str  # "periphery" | "mercenary"
    opener: str  # the House that bids first


@record
class MoveOutChoice(Record):
    """L387: a Mercenary force that changed sides beside opposing units, waiting for its new
    employer to move it out intact or keep it there."""

    employer: str
    region: str
    units: tuple[str, ...]


@record
class SWState(Record):
    seed: str = ""
    rolls_used: int = 0
    events_applied: int = 0
    scenario: str = ""
    map: SWMap | None = None
    sequence: tuple[str, ...] = ()
    houses: Mapping[str, HouseState] = field(default_factory=dict)
    regions: Mapping[str, RegionState] = field(default_factory=dict)
    units: Mapping[str, Unit] = field(default_factory=dict)
    jumpships: Mapping[str, JumpShip] = field(default_factory=dict)
    leaders: Mapping[str, Leader] = field(default_factory=dict)
    deck: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    round: int = 0
    turn_no: int = 0  # counts House turns from 1; used for "not on the same turn" rules
    active: str = ""
    phase: Phase = Phase.SETUP
    # per turn
    jumps_used: Mapping[str, int] = field(default_factory=dict)  # JumpShip -> Regions moved
    rode: Mapping[str, str] = field(default_factory=dict)  # unit/Leader -> the JumpShip it rode
    aboard: Mapping[str, str] = field(default_factory=dict)  # unit/Leader -> JumpShip now
    at_center: frozenset[str] = frozenset()  # units at a Manufacturing Center at turn start
    boosts_used: Mapping[str, int] = field(default_factory=dict)  # House -> tech boosts this turn
    attacked_earth: bool = False
    combat: Combat | None = None
    pending_tech: Mapping[str, int] = field(default_factory=dict)
    interdicts: tuple[Interdict, ...] = ()
    earth_taken: bool = False  # the first-control bonus is gone
    earth_bonus_due: str = ""  # House owed the C-Bills at the end of its turn
    auction: Auction | None = None
    #: (House, Region): a Mercenary force changed sides beside this House's units, which may
    #: attack it at once, out of turn (ruling SW-34); offers lapse when the phase ends.
    immediate_combat: tuple[tuple[str, str], ...] = ()
    #: (chooser, briber): a 1-3 Interdict fell where the briber has no forces; the chooser
    #: names the Region (L367, ruling SW-18) before the game goes on.
    interdict_choices: tuple[tuple[str, str], ...] = ()
    #: 2786 (L603): the Mercenary counters not yet drawn, in draw order (one entry per counter,
    #: so a unit of three counters is three times as likely to come up).
    mercenary_pile: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)
    #: The turn number of the last Mercenary Phase draw (L605: one draw a turn).
    mercenary_drawn_turn: int = field(default=0, metadata=OMIT_IF_DEFAULT)
    #: 2786 (L601): the order the Houses set up in, lowest die first.
    setup_order: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)
    #: (employer, Region): a Mercenary force changed sides beside opposing units; its new
    #: employer first chooses to move it out intact or stay (L387, ruling SW-41).
    move_out_choices: tuple[MoveOutChoice, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)
    next_serial: int = 1  # for ids of newly built pieces
    winner: str = ""  # the winning player

    @property
    def started(self) -> bool:
        return self.map is not None

    def board(self) -> SWMap:
        assert self.map is not None, "the campaign has not started"
        return self.map

    # --- queries ----------------------------------------------------------------------------

    def combat_units(self, region: str, owner: str | None = None) -> list[Unit]:
        return [
            u
            for u in self.units.values()
            if u.status is Status.ACTIVE
            and u.region == region
            and (owner is None or u.owner == owner)
        ]

    def owners_in(self, region: str) -> set[str]:
        return {u.owner for u in self.combat_units(region)}

    def allied(self, a: str, b: str) -> bool:
        """Two Houses run by one player are one side on the map (ruling SW-35): line 13 gives a
        player two or three Houses, and line 204 fights on "until only one player's combat units
        remain". Their finances, turns and units stay separate."""
        if a == b:
            return True
        player = self.player_of(a)
        return player != "" and player == self.player_of(b)

    def enemy_units(self, region: str, house: str) -> list[Unit]:
        return [u for u in self.combat_units(region) if not self.allied(u.owner, house)]

    def enemy_owners_in(self, region: str, house: str) -> set[str]:
        return {u.owner for u in self.enemy_units(region, house)}

    def friendly_region(self, region: str, house: str) -> bool:
        return self.allied(self.controller(region), house)

    def ships_in(self, region: str, owner: str | None = None) -> list[JumpShip]:
        return [
            s
            for s in self.jumpships.values()
            if s.status is Status.ACTIVE
            and s.region == region
            and (owner is None or s.owner == owner)
        ]

    def leaders_in_custody(self, region: str) -> list[Leader]:
        """The captured Leaders held in ``region`` (bribed ones take refuge for good, L339)."""
        return [
            ld
            for ld in self.leaders.values()
            if ld.status is LeaderStatus.CAPTURED and ld.region == region
        ]

    def leaders_in(self, region: str, owner: str | None = None) -> list[Leader]:
        return [
            ld
            for ld in self.leaders.values()
            if ld.status is LeaderStatus.FREE
            and ld.region == region
            and (owner is None or ld.owner == owner)
        ]

    def controller(self, region: str) -> str:
        return self.regions[region].controller

    def player_of(self, house: str) -> str:
        h = self.houses.get(house)
        return h.player if h else ""

    def capital_of(self, house: str) -> str:
        return self.board().house_capital(house)
