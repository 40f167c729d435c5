"""Typed model of a MegaMek savegame (``.sav.gz``): the game's end state, unit by unit.

What the savegame reader takes from the whole ``Game`` object graph: the game's phase and round
(did it end?), the players and their teams (who is whose enemy), and every entity with its owner,
removal condition, killer, position, armor and structure now *and at the start* (so no unit file
is needed to know what was lost), critical slots, ammunition and crew. The record projection
(:mod:`.savegame_record`) turns this into the same :class:`~.mul_model.MulFile` a battle record
gives the rest of the system.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from mekref.adapters.megamek.mul_model import Crew, Notice
from mekref.adapters.megamek.unit_kinds import UnitKind


class Removal(IntEnum):
    """``IEntityRemovalConditions``: why an entity left the game (0: it is still in it)."""

    IN_GAME = 0x0000
    IN_RETREAT = 0x0100
    PUSHED = 0x0110
    CAPTURED = 0x0120
    SALVAGEABLE = 0x0200
    EJECTED = 0x0210
    DEVASTATED = 0x0400
    NEVER_JOINED = 0x0800


#: ``Player.TEAM_UNASSIGNED`` and ``Player.TEAM_NONE``: such a player is everyone's enemy.
TEAM_UNASSIGNED = -1
TEAM_NONE = 0


@dataclass(frozen=True)
class SavedPlayer:
    id: int
    name: str
    team: int | None

    def is_enemy_of(self, other: SavedPlayer) -> bool:
        """MegaMek's ``Player.isEnemyOf``: another player not on a shared, real team."""
        if self.id == other.id:
            return False
        if self.team is None or other.team is None:
            return True
        return self.team in (TEAM_NONE, TEAM_UNASSIGNED) or self.team != other.team


@dataclass(frozen=True)
class SavedSlot:
    """One critical slot. ``index`` is 1-based as in a MUL; ``system`` is the Mek system number
    (``Mek.SYSTEM_*`` / ``ACTUATOR_*``) for a system slot, ``equipment`` the mounted item's
    internal name otherwise."""

    index: int
    system: int | None
    equipment: str | None
    hit: bool = False
    destroyed: bool = False
    missing: bool = False
    #: Ammunition left in the bin the slot holds, and its full load.
    shots: int | None = None
    shots_max: int | None = None
    rear: bool = False


@dataclass(frozen=True)
class SavedAmmo:
    """An ammunition bin that sits in no critical slot (vehicles): MUL ``index="N/A"``."""

    location: int
    ammo_type: str
    shots: int
    shots_max: int | None
    destroyed: bool = False


@dataclass(frozen=True)
class SavedLocation:
    index: int
    name: str
    armor: int
    armor_max: int
    internal: int
    internal_max: int
    rear: int | None = None
    rear_max: int | None = None
    blown_off: bool = False
    slots: tuple[SavedSlot, ...] = ()

    @property
    def destroyed(self) -> bool:
        """MegaMek's ``isLocationDestroyed``: no internal structure left (or blown off)."""
        return self.blown_off or (self.internal_max > 0 and self.internal <= 0)


@dataclass(frozen=True)
class SavedEntity:
    game_id: int
    chassis: str
    model: str
    #: MegaMek's display name ("Atlas AS7-D (Player)"); kill lines use it.
    display_name: str
    external_id: str | None
    owner_id: int | None
    removal: Removal
    kind: UnitKind
    #: The MUL ``type`` string of its movement mode ("Biped", "Hover", "Tracked"...).
    movement_mode: str
    locations: tuple[SavedLocation, ...]
    crew: Crew | None
    killer_id: int | None = None
    #: Hex column and row on the board at the end; None when off the board or never deployed.
    position: tuple[int, int] | None = None
    weight: float | None = None
    walk_mp: int | None = None
    jump_mp: int | None = None
    ammo_outside_slots: tuple[SavedAmmo, ...] = ()
    carcass: bool = False
    destroyed: bool = False
    doomed: bool = False
    salvageable: bool = True
    captured: bool = False
    deployed: bool | None = None
    never_deployed: bool | None = None
    #: Vehicles: MUL ``<motive>`` and ``<tcriticals>`` values.
    motive_damage: int | None = None
    motive_penalty: int | None = None
    tank_crits: tuple[tuple[str, str], ...] = ()
    structural_integrity: int | None = None
    structural_integrity_max: int | None = None
    #: Tons of troop space (``TroopSpace`` / ``InfantryCompartment``, infantry bays).
    troop_space: float = 0.0
    #: Ejected crews (MekWarrior / EjectedCrew entities): the unit they left and who holds them.
    original_ride_id: int | None = None
    original_ride_external_id: str | None = None
    picked_up_by_external_id: str | None = None
    #: Line of the entity's element in the unzipped XML (for messages).
    line: int | None = field(default=None, compare=False)

    @property
    def in_game(self) -> bool:
        return self.removal is Removal.IN_GAME

    @property
    def is_ejected_crew(self) -> bool:
        return self.kind is UnitKind.EJECTED_CREW


@dataclass(frozen=True)
class SaveGame:
    version: str | None
    #: The phase without MegaMek's old ``PHASE_`` prefix: "VICTORY", "MOVEMENT", "DEPLOYMENT"...
    phase: str | None
    round: int | None
    players: tuple[SavedPlayer, ...]
    entities: tuple[SavedEntity, ...]
    victory_player_id: int | None = None
    victory_team: int | None = None
    board_size: tuple[int, int] | None = None
    #: "relative paths" or "ids": how the file's references were written.
    reference_mode: str = ""
    notices: tuple[Notice, ...] = field(default=(), compare=False)

    @property
    def game_over(self) -> bool:
        """The game reached its end: MegaMek's victory phase (the only phase after the last
        round; autosaves are taken at the start of each round, never there)."""
        return self.phase == "VICTORY"

    def player(self, player_id: int | None) -> SavedPlayer | None:
        for p in self.players:
            if p.id == player_id:
                return p
        return None

    def entity(self, game_id: int | None) -> SavedEntity | None:
        for e in self.entities:
            if e.game_id == game_id:
                return e
        return None
