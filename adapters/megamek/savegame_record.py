"""A savegame as a battle record: the :class:`MulFile` the rest of mekref already understands.

An end-of-game ``<record>`` is one player's view (reference section 3.2): its own units in
``survivors``, enemies still on the map in ``salvage``. A savegame is the server's whole game,
so it is read as **every owner's own view at once** (ruling SG-1 in docs/megamek-adapter.md):

=====================================  =================  ===================================
entity at the end                      section            as in a record of its owner
=====================================  =================  ===================================
still in the game                      ``survivors``      own units in game
in the game but a carcass, destroyed   ``salvage``        MegaMek's victory report moves
or doomed (not yet removed)            (``devastated``    carcasses to the graveyard; a unit
                                       if not salvable)   destroyed this phase is removed so
IN_RETREAT, PUSHED                     ``retreated``      (a record hides own retreats among
                                                          survivors; the save knows)
CAPTURED                               ``salvage``        the enemy holds it: control of the
                                                          field decides (ruling SG-2)
SALVAGEABLE, EJECTED                   ``salvage``        same for every owner
DEVASTATED                             ``devastated``     same for every owner
NEVER_JOINED                           (left out)         MegaMek writes none
=====================================  =================  ===================================

Kill lines follow the record writer: every wreck of a side gets ``killed=displayName`` and the
killer's externalId when the killer is an enemy of the victim's owner (``Player.isEnemyOf``),
``None`` when no killer is known; friendly fire credits no kill. Because the save keeps each
unit's original armor and structure, :func:`designs_of` also gives a design per entity, so the
damage is known without any unit file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from mekref.adapters.megamek.design import (
    AmmoBin,
    CritSlot,
    LocationStats,
    SystemKind,
    UnitDesign,
)
from mekref.adapters.megamek.mul_model import (
    Crew,
    Entity,
    Kill,
    Location,
    MulFile,
    Notice,
    RootKind,
    Section,
    Slot,
)
from mekref.adapters.megamek.savegame_model import (
    Removal,
    SavedEntity,
    SavedLocation,
    SaveGame,
)

#: ``Mek.SYSTEM_*`` and ``Mek.ACTUATOR_*`` numbers (megamek/common/units/Mek.java).
MEK_SYSTEMS: Mapping[int, SystemKind] = {
    0: SystemKind.LIFE_SUPPORT,
    1: SystemKind.SENSORS,
    2: SystemKind.COCKPIT,
    3: SystemKind.ENGINE,
    4: SystemKind.GYRO,
    7: SystemKind.SHOULDER,
    8: SystemKind.UPPER_ARM,
    9: SystemKind.LOWER_ARM,
    10: SystemKind.HAND,
    11: SystemKind.HIP,
    12: SystemKind.UPPER_LEG,
    13: SystemKind.LOWER_LEG,
    14: SystemKind.FOOT,
}

#: Where the savegame's view puts an entity by its removal condition (see the module table).
REMOVAL_SECTIONS: Mapping[Removal, Section] = {
    Removal.IN_GAME: Section.SURVIVORS,
    Removal.IN_RETREAT: Section.RETREATED,
    Removal.PUSHED: Section.RETREATED,
    Removal.CAPTURED: Section.SALVAGE,
    Removal.SALVAGEABLE: Section.SALVAGE,
    Removal.EJECTED: Section.SALVAGE,
    Removal.DEVASTATED: Section.DEVASTATED,
}


@dataclass(frozen=True)
class SaveGameRecord:
    """The record view of a savegame, with the designs its entities carry (by game id)."""

    mul: MulFile
    designs: Mapping[int, UnitDesign]
    save: SaveGame


def section_of(e: SavedEntity) -> Section | None:
    """The record section of ``e`` in its owner's view; None: it never joined the game."""
    if e.removal is Removal.NEVER_JOINED:
        return None
    if e.removal is Removal.IN_GAME and (e.carcass or e.destroyed or e.doomed):
        # What MegaMek does before its victory report (carcasses) and at the end of a phase
        # (units destroyed in it): a salvageable wreck, or a devastated one.
        return Section.SALVAGE if e.salvageable else Section.DEVASTATED
    return REMOVAL_SECTIONS[e.removal]


def to_record(save: SaveGame) -> SaveGameRecord:
    notices: list[Notice] = list(save.notices)
    entities: list[Entity] = []
    kills: list[Kill] = []
    for e in save.entities:
        section = section_of(e)
        if section is None:
            notices.append(Notice(e.line, f"{e.display_name}: never joined the game; left out"))
            continue
        entity = _entity(e, section)
        if e.is_ejected_crew and entity.pick_up_id is None and section is Section.SURVIVORS:
            entity = _with_recoverer(save, e, entity, notices)
        entities.append(entity)
        kill = _kill(save, e, section, notices)
        if kill is not None:
            kills.append(kill)
    mul = MulFile(
        root=RootKind.SAVEGAME,
        version=save.version,
        entities=tuple(entities),
        kills=tuple(kills),
        notices=tuple(notices),
        game_round=save.round,
        game_phase=save.phase,
    )
    return SaveGameRecord(mul=mul, designs=designs_of(save), save=save)


#: TripWire line 348: ejected crews "not within 6 hexes of a friendly infantry or unit with troop
#: capacity (or a battleMech with hands)" are captured. The savegame knows where everyone stood.
RECOVERY_HEXES = 6


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hexes between two MegaMek board positions (0-based column, row; odd columns sit half a
    hex lower, MegaMek's layout): through cube coordinates."""

    def cube(x: int, y: int) -> tuple[int, int, int]:
        q, r = x, y - (x - (x & 1)) // 2
        return q, r, -q - r

    (aq, ar, as_), (bq, br, bs) = cube(*a), cube(*b)
    return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))


def can_recover_crews(e: SavedEntity) -> bool:
    """Infantry, a unit with troop space, or a Mek with a working hand (line 348)."""
    if e.kind.is_infantry:
        return True
    if e.troop_space:
        return True
    if not e.kind.is_mek:
        return False
    return any(
        s.system == 10 and not (s.hit or s.destroyed or s.missing)
        for loc in e.locations
        if not loc.destroyed
        for s in loc.slots
    )


def _with_recoverer(
    save: SaveGame, crew: SavedEntity, entity: Entity, notices: list[Notice]
) -> Entity:
    """Ruling SG-6: an ejected crew still on the map at the end counts as picked up by the
    nearest friendly unit able to recover it within 6 hexes (TripWire line 348)."""
    owner = save.player(crew.owner_id)
    if crew.position is None or owner is None:
        return entity
    best: tuple[int, int, SavedEntity] | None = None
    for other in save.entities:
        if other is crew or other.position is None or section_of(other) is not Section.SURVIVORS:
            continue
        other_owner = save.player(other.owner_id)
        if other_owner is None or other_owner.is_enemy_of(owner) or other.is_ejected_crew:
            continue
        if not can_recover_crews(other):
            continue
        d = hex_distance(crew.position, other.position)
        if d <= RECOVERY_HEXES and (best is None or (d, other.game_id) < best[:2]):
            best = (d, other.game_id, other)
    if best is None:
        return entity
    rescuer = best[2]
    if rescuer.external_id is None:
        notices.append(
            Notice(
                crew.line,
                f"{crew.display_name} is {best[0]} hexes from {rescuer.display_name}, which could "
                "recover it, but that unit has no externalId to name it by",
            )
        )
        return entity
    notices.append(
        Notice(
            crew.line,
            f"{crew.display_name} is {best[0]} hexes from friendly {rescuer.display_name}: "
            "recovered (TripWire line 348, ruling SG-6)",
        )
    )
    return replace(entity, pick_up_id=rescuer.external_id)


def _kill(save: SaveGame, e: SavedEntity, section: Section, notices: list[Notice]) -> Kill | None:
    if section not in (Section.SALVAGE, Section.DEVASTATED) or e.removal is Removal.CAPTURED:
        return None
    if e.is_ejected_crew:
        return None
    killer = save.entity(e.killer_id)
    if killer is None:
        return Kill(killed=e.display_name, killer=None)
    victim_owner, killer_owner = save.player(e.owner_id), save.player(killer.owner_id)
    friendly = (
        victim_owner is not None
        and killer_owner is not None
        and not killer_owner.is_enemy_of(victim_owner)
    )
    if friendly:
        notices.append(
            Notice(
                e.line,
                f"{e.display_name} was destroyed by {killer.display_name} of its own side: "
                "no kill credited",
            )
        )
        return None
    return Kill(killed=e.display_name, killer=killer.external_id)


def _entity(e: SavedEntity, section: Section) -> Entity:
    crew = e.crew
    ejected_men: int | None = None
    if e.is_ejected_crew:
        ejected_men = len(crew.members) if crew is not None and crew.members else 1
    extra: list[tuple[str, str]] = [("removalCondition", e.removal.name)]
    if e.position is not None:
        extra.append(("position", f"{e.position[0]},{e.position[1]}"))
    if e.owner_id is not None:
        extra.append(("ownerId", str(e.owner_id)))
    return Entity(
        chassis=e.chassis,
        model=e.model,
        movement_mode=e.movement_mode,
        section=section,
        external_id=e.external_id,
        deployment=None,
        never_deployed=e.never_deployed,
        crew=crew if crew is not None else Crew(members=()),
        locations=_locations(e),
        motive_damage=e.motive_damage if e.motive_damage else None,
        motive_penalty=e.motive_penalty if e.motive_penalty else None,
        tank_crits=e.tank_crits,
        structural_integrity=e.structural_integrity,
        game_id=e.game_id,
        pick_up_id=e.picked_up_by_external_id,
        ejected_men=ejected_men,
        extra=tuple(extra),
        line=e.line,
    )


def _slots_written(e: SavedEntity, loc: SavedLocation) -> tuple[Slot, ...]:
    out: list[Slot] = []
    for s in loc.slots:
        damaged = s.hit or s.destroyed or s.missing
        if not damaged and s.shots is None:
            continue
        out.append(
            Slot(
                index=s.index,
                type="System" if s.system is not None else (s.equipment or "Empty"),
                shots=s.shots,
                is_hit=s.hit,
                is_destroyed=s.destroyed,
                is_missing=s.missing,
                is_rear=s.rear,
            )
        )
    for a in e.ammo_outside_slots:
        if a.location == loc.index:
            out.append(Slot(index=None, type=a.ammo_type, shots=a.shots, is_destroyed=a.destroyed))
    return tuple(out)


def _locations(e: SavedEntity) -> tuple[Location, ...]:
    """Like MegaMek's writer: a location only when it differs from the design or holds ammo."""
    out: list[Location] = []
    for loc in e.locations:
        if loc.destroyed and loc.internal_max > 0:
            out.append(
                Location(index=loc.index, name=loc.name, destroyed=True, blown_off=loc.blown_off)
            )
            continue
        slots = _slots_written(e, loc)
        changed = (
            loc.armor != loc.armor_max
            or loc.internal != loc.internal_max
            or (loc.rear_max is not None and loc.rear != loc.rear_max)
        )
        if not changed and not slots:
            continue
        out.append(
            Location(
                index=loc.index,
                name=loc.name,
                armor=loc.armor if loc.armor != loc.armor_max else None,
                internal=loc.internal if loc.internal != loc.internal_max else None,
                rear=loc.rear if loc.rear_max is not None and loc.rear != loc.rear_max else None,
                slots=slots,
            )
        )
    return tuple(out)


# --- designs ----------------------------------------------------------------------------------


def designs_of(save: SaveGame) -> dict[int, UnitDesign]:
    """Entity game id -> the design the savegame itself records (original armor, structure,
    critical slots, ammunition): enough to price damage without a unit file."""
    return {e.game_id: design_of(e) for e in save.entities if not e.is_ejected_crew}


def _crit_table(loc: SavedLocation, mek: bool) -> tuple[CritSlot, ...]:
    if not loc.slots:
        return ()
    by_index = {s.index: s for s in loc.slots}
    out = []
    for i in range(1, max(by_index) + 1):
        s = by_index.get(i)
        if s is None:
            out.append(CritSlot(index=i, raw="-Empty-", name="-Empty-"))
            continue
        # System numbers mean Mek systems only on a Mek (a ProtoMek counts its own way): on
        # other units a system slot stays unidentified rather than guessed.
        system = MEK_SYSTEMS.get(s.system) if mek and s.system is not None else None
        name = "System" if s.system is not None else (s.equipment or "-Empty-")
        out.append(CritSlot(index=i, raw=name, name=name, system=system, rear=s.rear))
    return tuple(out)


def design_of(e: SavedEntity) -> UnitDesign:
    locations = tuple(
        LocationStats(
            index=loc.index,
            name=loc.name,
            armor=loc.armor_max,
            rear_armor=loc.rear_max,
            internal=loc.internal_max,
        )
        for loc in e.locations
    )
    bins: list[AmmoBin] = []
    for loc in e.locations:
        for s in loc.slots:
            if s.shots is not None:
                bins.append(AmmoBin(loc.index, loc.name, s.equipment or "", s.index, s.shots_max))
    names = {loc.index: loc.name for loc in e.locations}
    for a in e.ammo_outside_slots:
        bins.append(
            AmmoBin(
                a.location,
                names.get(a.location, f"location {a.location}"),
                a.ammo_type,
                None,
                a.shots_max,
            )
        )
    troopers: int | None = None
    if e.kind.is_infantry and e.locations:
        if e.kind.value == "battle_armor":
            troopers = sum(1 for loc in e.locations if loc.index >= 1 and loc.internal_max > 0)
        else:
            troopers = e.locations[0].internal_max
    return UnitDesign(
        chassis=e.chassis,
        model=e.model,
        kind=e.kind,
        movement_mode=e.movement_mode,
        tonnage=e.weight,
        walk_mp=e.walk_mp or 0,
        jump_mp=e.jump_mp or 0,
        locations=locations,
        structural_integrity=e.structural_integrity_max,
        crit_slots={loc.index: _crit_table(loc, e.kind.is_mek) for loc in e.locations if loc.slots},
        ammo_bins=tuple(bins),
        trooper_count=troopers,
        source_file=f"savegame entity {e.game_id}",
    )
