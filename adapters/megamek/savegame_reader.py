"""Read a MegaMek savegame (``.sav.gz``, or an unzipped ``.sav``) into a :class:`SaveGame`.

Pure: bytes in, a typed frozen model out. The bytes are unzipped with caps (:mod:`.gzip_safety`),
parsed with the XML safety of unit lists and the shape counted while parsing (:mod:`.xml_counted`),
then read as an XStream object graph within a work budget (:mod:`.xstream`) by **field names
only**: the ``Game``'s ``phase``, round, ``players``, its in-game entities (``entities`` in
0.43, ``inGameObjects`` now) and the out-of-game ones (``vOutOfGame``). An entity is recognised
by its fields (``chassis``, ``ownerId``, ``removalCondition``), never by its class, so
``megamek.common.BipedMech`` (0.43) and ``megamek.common.units.BipedMek`` (0.50+) read the same.
"""

from __future__ import annotations

from mekref.adapters.megamek.errors import FilePosition, MulReadError
from mekref.adapters.megamek.gzip_safety import (
    DEFAULT_MAX_COMPRESSED,
    DEFAULT_MAX_UNZIPPED,
    gunzip_capped,
    is_gzip,
)
from mekref.adapters.megamek.mul_model import DEAD_HITS, Crew, CrewMember, Notice
from mekref.adapters.megamek.savegame_model import (
    Removal,
    SavedAmmo,
    SavedEntity,
    SavedLocation,
    SavedPlayer,
    SavedSlot,
    SaveGame,
)
from mekref.adapters.megamek.unit_kinds import UnitKind, location_name
from mekref.adapters.megamek.xml_counted import parse_counted_xml
from mekref.adapters.megamek.xml_safety import limits_for
from mekref.adapters.megamek.xstream import (
    BrokenReference,
    Element,
    Graph,
    WalkBudgetExceeded,
    budget_for,
)

#: The fields that make an object an ``Entity`` in every MegaMek version since 0.43.
_ENTITY_FIELDS = frozenset({"chassis", "model", "ownerId", "removalCondition"})
_PLAYER_FIELDS = frozenset({"name", "id", "team"})

#: MegaMek's ``EntityMovementMode`` names -> the MUL ``type`` strings.
_MOVEMENT = {
    "BIPED": "Biped", "BIPED_SWIM": "Biped", "QUAD": "Quad", "QUAD_SWIM": "Quad",
    "TRIPOD": "Tripod", "TRACKED": "Tracked", "WHEELED": "Wheeled", "HOVER": "Hover",
    "VTOL": "VTOL", "NAVAL": "Naval", "HYDROFOIL": "Hydrofoil", "SUBMARINE": "Submarine",
    "INF_LEG": "Leg", "INF_MOTORIZED": "Motorized", "INF_JUMP": "Jump", "INF_UMU": "UMU",
    "WIGE": "WiGE", "AERODYNE": "Aerodyne", "SPHEROID": "Spheroid", "RAIL": "Rail",
    "MAGLEV": "MagLev", "AIRMECH": "AirMek", "AEROSPACE": "Aerospace",
    "STATION_KEEPING": "Station Keeping", "NONE": "None",
}  # fmt: skip


def read_savegame_bytes(
    data: bytes,
    path: str,
    *,
    max_compressed: int = DEFAULT_MAX_COMPRESSED,
    max_unzipped: int = DEFAULT_MAX_UNZIPPED,
) -> SaveGame:
    """Read a savegame, gzipped (``.sav.gz``) or not (``.sav``); raise MulReadError if bad.
    A raised file cap (``--max-file-mb``) raises the unzipped cap and element limit alike."""
    if max_compressed > DEFAULT_MAX_COMPRESSED:
        max_unzipped = max(max_unzipped, max_unzipped * max_compressed // DEFAULT_MAX_COMPRESSED)
    xml = data
    # A .sav.gz that is not gzip (an empty or renamed file) is refused as such, not read as XML.
    if is_gzip(data) or path.lower().endswith(".gz"):
        xml = gunzip_capped(data, path, max_compressed=max_compressed, max_unzipped=max_unzipped)
    elif len(data) > max_unzipped:
        raise MulReadError(
            FilePosition(path),
            f"file is {len(data):,} bytes, over the {max_unzipped:,}-byte limit",
            "MegaMek savegames are a few megabytes of XML: the file was crafted or is not "
            "a savegame",
            refused=True,
        )
    # The shape is counted while the tree is built: a few kilobytes of gzip can hold millions
    # of elements.
    doc = parse_counted_xml(xml, path, limits=limits_for(max_unzipped))
    try:
        return _read_game(Graph(doc.root, budget_for(doc.elements)), path, doc.notices)
    except BrokenReference as exc:
        raise MulReadError(
            FilePosition(path),
            f"broken XStream reference: {exc}",
            "the savegame was altered or damaged; save the game again from MegaMek",
        ) from None
    except WalkBudgetExceeded as exc:
        raise MulReadError(
            FilePosition(path),
            f"savegame refused: {exc}",
            "a crafted or broken file: real savegames need a small fraction of that; save the "
            "game again from MegaMek",
            refused=True,
        ) from None


def _line(el: Element) -> int | None:
    # lxml-stubs type sourceline oddly; at run time it is an int or None.
    line: object = el.sourceline
    return line if isinstance(line, int) else None


def _read_game(g: Graph, path: str, notices: tuple[Notice, ...]) -> SaveGame:
    def _is_entity(el: Element) -> bool:
        return g.child_tags(el) >= _ENTITY_FIELDS

    def _is_player(el: Element) -> bool:
        tags = g.child_tags(el)
        return tags >= _PLAYER_FIELDS and "chassis" not in tags

    root = g.root
    tags = g.child_tags(root)
    if "phase" not in tags or not (tags & {"entities", "inGameObjects", "vOutOfGame"}):
        raise MulReadError(
            FilePosition(path, _line(root)),
            f"<{root.tag}> is not a MegaMek game (no phase and no entity lists)",
            "pass a MegaMek savegame (savegames/*.sav.gz), or a .mul file",
        )
    found: list[Notice] = list(notices)
    in_game: list[Element] = []
    for name in ("entities", "inGameObjects"):
        holder = g.field(root, name)
        if holder is not None:
            in_game.extend(g.objects_within(holder, _is_entity))
    out_holder = g.field(root, "vOutOfGame")
    out_of_game = list(g.objects_within(out_holder, _is_entity)) if out_holder is not None else []
    players: list[SavedPlayer] = []
    holder = g.field(root, "players")
    if holder is not None:
        for p in g.objects_within(holder, _is_player):
            pid = g.int_of(p, "id")
            if pid is not None:
                players.append(SavedPlayer(pid, g.text(p, "name") or "", g.int_of(p, "team")))
    seen: set[Element] = set()
    entities: list[SavedEntity] = []
    for el in [*in_game, *out_of_game]:
        if el in seen:
            continue
        seen.add(el)
        entities.append(_read_entity(g, el, path, found))
    phase = (g.text(root, "phase") or "").strip().removeprefix("PHASE_") or None
    round_ = g.int_of(root, "roundCount")
    if round_ is None:
        round_ = g.int_of(root, "currentRound")
    return SaveGame(
        version=_version(g, root),
        phase=phase,
        round=round_,
        players=tuple(sorted(players, key=lambda p: p.id)),
        entities=tuple(entities),
        victory_player_id=g.int_of(root, "victoryPlayerId"),
        victory_team=g.int_of(root, "victoryTeam"),
        board_size=_board_size(g, root),
        reference_mode="ids" if any(el.get("id") for el in root.iter("*")) else "relative paths",
        notices=tuple(found),
    )


def _version(g: Graph, root: Element) -> str | None:
    text = g.text(root, "mmVersion")
    if text:
        return text.strip()
    version = g.field(root, "version")
    if version is None:
        return None
    if len(version) == 0:
        return (version.text or "").strip() or None
    # Current MegaMek keeps a Version object (release, major, minor, snapshot flag...): its
    # numbers, in order, are the version.
    parts = [(c.text or "").strip() for c in version if isinstance(c.tag, str)]
    return ".".join(p for p in parts if p.isdigit()) or None


def _board_size(g: Graph, root: Element) -> tuple[int, int] | None:
    for name in ("board", "gameBoards"):
        holder = g.field(root, name)
        if holder is None:
            continue
        for el in holder.iter("width"):
            parent = el.getparent()
            height = parent.find("height") if parent is not None else None
            try:
                return int(el.text or ""), int(height.text or "") if height is not None else -1
            except ValueError:
                return None
    return None


# --- entities ---------------------------------------------------------------------------------


def _external(raw: str | None) -> str | None:
    if raw is None:
        return None
    raw = raw.strip()
    return None if raw in ("", "-1") else raw


def _kind(g: Graph, el: Element, mode: str, n_locations: int) -> UnitKind:
    tags = g.child_tags(el)
    if "originalRideId" in tags or "originalRideExternalId" in tags:
        return UnitKind.EJECTED_CREW
    if tags & {"pilotDamageTaken", "bHasMainGun", "m__bHasNoMainGun"}:
        return UnitKind.PROTOMEK
    if {"cockpitType", "gyroType"} <= tags:
        if mode in ("QUAD", "QUAD_SWIM"):
            return UnitKind.QUAD_MEK
        if mode == "TRIPOD":
            return UnitKind.TRIPOD_MEK
        return UnitKind.BIPED_MEK
    if "motiveDamage" in tags:
        if mode == "VTOL":
            return UnitKind.VTOL
        return UnitKind.SUPERHEAVY_TANK if n_locations >= 9 else UnitKind.TANK
    if "structIntegrity" in tags:
        weight = _float(g.text(el, "weight"))
        if mode == "AERODYNE" and (weight is None or weight <= 100):
            return UnitKind.AEROSPACE_FIGHTER
        return UnitKind.SMALL_CRAFT if weight is not None and weight <= 200 else UnitKind.DROPSHIP
    if mode.startswith("INF_"):
        return UnitKind.BATTLE_ARMOR if n_locations >= 3 else UnitKind.CONVENTIONAL_INFANTRY
    return UnitKind.UNKNOWN


def _float(raw: str | None) -> float | None:
    try:
        return float(raw) if raw is not None else None
    except ValueError:
        return None


def _read_entity(g: Graph, el: Element, path: str, notices: list[Notice]) -> SavedEntity:
    game_id = g.int_of(el, "id")
    if game_id is None:
        raise MulReadError(
            FilePosition(path, _line(el)),
            "an entity has no id",
            "the savegame was altered or damaged; save the game again from MegaMek",
        )
    chassis = (g.text(el, "chassis") or "").strip()
    model = (g.text(el, "model") or "").strip()
    raw_removal = g.int_of(el, "removalCondition") or 0
    try:
        removal = Removal(raw_removal)
    except ValueError:
        raise MulReadError(
            FilePosition(path, _line(el)),
            f"{chassis} {model}: unknown removal condition {raw_removal:#06x}",
            "this MegaMek is newer than mekref knows; report it with the file",
        ) from None
    armor = g.ints(el, "armor") or ()
    internal = g.ints(el, "internal") or ()
    mode_raw = (g.text(el, "movementMode") or "").strip()
    kind = _kind(g, el, mode_raw, len(armor))
    if kind is UnitKind.UNKNOWN:
        notices.append(
            Notice(_line(el), f"{chassis} {model}: unit kind not recognised from its fields")
        )
    locations = _locations(g, el, kind, armor, internal)
    position = _position(g, el)
    motive_damage = g.int_of(el, "motiveDamage")
    return SavedEntity(
        game_id=game_id,
        chassis=chassis,
        model=model,
        display_name=(g.text(el, "displayName") or f"{chassis} {model}").strip(),
        external_id=_external(g.text(el, "externalId")),
        owner_id=g.int_of(el, "ownerId"),
        removal=removal,
        kind=kind,
        movement_mode=_MOVEMENT.get(mode_raw, mode_raw.title()),
        locations=locations,
        crew=_crew(g, el),
        killer_id=_non_negative(g.int_of(el, "killerId")),
        position=position,
        weight=_float(g.text(el, "weight")),
        walk_mp=g.int_of(el, "walkMP"),
        jump_mp=g.int_of(el, "jumpMP"),
        ammo_outside_slots=_loose_ammo(g, el, locations),
        carcass=bool(g.bool_of(el, "carcass")),
        destroyed=bool(g.bool_of(el, "destroyed")),
        doomed=bool(g.bool_of(el, "doomed")),
        salvageable=g.bool_of(el, "salvageable") is not False,
        captured=bool(g.bool_of(el, "captured")),
        deployed=g.bool_of(el, "deployed"),
        never_deployed=g.bool_of(el, "neverDeployed"),
        motive_damage=motive_damage,
        motive_penalty=g.int_of(el, "motivePenalty"),
        tank_crits=_tank_crits(g, el) if motive_damage is not None else (),
        structural_integrity=g.int_of(el, "structIntegrity"),
        troop_space=_troop_space(g, el),
        structural_integrity_max=g.int_of(el, "orig__structIntegrity"),
        original_ride_id=_non_negative(g.int_of(el, "originalRideId")),
        original_ride_external_id=_external(g.text(el, "originalRideExternalId")),
        picked_up_by_external_id=_external(g.text(el, "pickedUpByExternalId")),
        line=_line(el),
    )


def _full_load(value: int | None) -> int | None:
    # MegaMek 0.43 leaves ``originalShots`` at 0: unknown, never "a bin of no shots".
    return value if value is not None and value > 0 else None


def _non_negative(value: int | None) -> int | None:
    return value if value is not None and value >= 0 else None


def _position(g: Graph, el: Element) -> tuple[int, int] | None:
    pos = g.field(el, "position")
    if pos is None or pos.tag == "null":
        return None
    x, y = g.int_of(pos, "x"), g.int_of(pos, "y")
    return None if x is None or y is None else (x, y)


def _at(values: tuple[int, ...] | tuple[bool, ...] | None, i: int) -> int | None:
    if values is None or i >= len(values):
        return None
    return int(values[i])


def _locations(
    g: Graph, el: Element, kind: UnitKind, armor: tuple[int, ...], internal: tuple[int, ...]
) -> tuple[SavedLocation, ...]:
    orig_armor = g.ints(el, "orig__armor") or armor
    orig_internal = g.ints(el, "orig__internal") or internal
    rear = g.ints(el, "rearArmor")
    orig_rear = g.ints(el, "orig__rearArmor") or rear
    blown = g.bools(el, "locationBlownOff") or ()
    slots = _slots(g, el)
    out = []
    for i in range(max(len(armor), len(internal))):
        rear_now, rear_max = _at(rear, i), _at(orig_rear, i)
        has_rear = rear_max is not None and rear_max >= 0
        out.append(
            SavedLocation(
                index=i,
                name=location_name(kind, i) or f"location {i}",
                armor=max(_at(armor, i) or 0, 0),
                armor_max=max(_at(orig_armor, i) or 0, 0),
                internal=max(_at(internal, i) or 0, 0),
                internal_max=max(_at(orig_internal, i) or 0, 0),
                rear=max(rear_now or 0, 0) if has_rear else None,
                rear_max=rear_max if has_rear else None,
                blown_off=bool(_at(blown, i)),
                slots=slots[i] if i < len(slots) else (),
            )
        )
    return tuple(out)


def _ammo_mounts(g: Graph, el: Element) -> set[Element]:
    # Elements, not id(): lxml proxies of unreferenced elements are recreated on each access.
    return set(g.items(g.field(el, "ammoList")))


def _slots(g: Graph, el: Element) -> list[tuple[SavedSlot, ...]]:
    crits = g.field(el, "crits")
    if crits is None:
        return []
    ammo = _ammo_mounts(g, el)
    out: list[tuple[SavedSlot, ...]] = []
    for location in g.items(crits):
        slots: list[SavedSlot] = []
        for position, slot in enumerate(g.items(location), start=1):
            if slot.tag == "null" or not g.has_children(slot):
                continue
            kind = g.int_of(slot, "type")
            mount = g.field(slot, "mount")
            if mount is not None and mount.tag == "null":
                mount = None
            is_ammo = mount is not None and mount in ammo
            slots.append(
                SavedSlot(
                    index=position,
                    system=g.int_of(slot, "index") if kind == 0 else None,
                    equipment=None if mount is None else (g.text(mount, "typeName") or "").strip(),
                    hit=bool(g.bool_of(slot, "hit")),
                    destroyed=bool(g.bool_of(slot, "destroyed")),
                    missing=bool(g.bool_of(slot, "missing")),
                    shots=g.int_of(mount, "shotsLeft") if is_ammo and mount is not None else None,
                    shots_max=(
                        _full_load(g.int_of(mount, "originalShots"))
                        if is_ammo and mount is not None
                        else None
                    ),
                    rear=bool(mount is not None and g.bool_of(mount, "rearMounted")),
                )
            )
        out.append(tuple(slots))
    return out


def _loose_ammo(
    g: Graph, el: Element, locations: tuple[SavedLocation, ...]
) -> tuple[SavedAmmo, ...]:
    """Bins that sit in no critical slot (vehicles keep ammo that way)."""
    placed: set[Element] = set()
    crits = g.field(el, "crits")
    if crits is not None:
        for location in g.items(crits):
            for slot in g.items(location):
                mount = g.field(slot, "mount") if g.has_children(slot) else None
                if mount is not None:
                    placed.add(mount)
    out = []
    for mount in g.items(g.field(el, "ammoList")):
        if mount in placed:
            continue
        loc = g.int_of(mount, "location")
        shots = g.int_of(mount, "shotsLeft")
        if loc is None or shots is None or loc < 0:
            continue
        out.append(
            SavedAmmo(
                location=loc,
                ammo_type=(g.text(mount, "typeName") or "").strip(),
                shots=shots,
                shots_max=_full_load(g.int_of(mount, "originalShots")),
                destroyed=bool(g.bool_of(mount, "destroyed")),
            )
        )
    return tuple(out)


#: Transporters that carry troops. Their fields (``totalSpace``) are shared with cargo bays, so
#: the simple class name (package stripped: MegaMek moves packages) tells them apart.
_TROOP_TRANSPORTERS = frozenset(
    {"TroopSpace", "InfantryCompartment", "InfantryBay", "BattleArmorBay"}
)


def _troop_space(g: Graph, el: Element) -> float:
    total = 0.0
    for t in g.items(g.field(el, "transports")):
        cls = (t.get("class") or t.tag).rsplit(".", 1)[-1]
        if cls in _TROOP_TRANSPORTERS:
            total += _float(g.text(t, "totalSpace")) or 0.0
    return total


def _tank_crits(g: Graph, el: Element) -> tuple[tuple[str, str], ...]:
    """The vehicle critical results as MegaMek's MUL ``<tcriticals>`` writes them."""
    out: list[tuple[str, str]] = []
    sensors = g.int_of(el, "sensorHits") or 0
    if sensors:
        out.append(("sensors", str(sensors)))
    if g.bool_of(el, "engineHit"):
        out.append(("engine", "hit"))
    if g.bool_of(el, "driverHit"):
        out.append(("driver", "hit"))
    if g.bool_of(el, "commanderHit"):
        out.append(("commander", "hit"))
    return tuple(out)


def _crew(g: Graph, el: Element) -> Crew | None:
    crew = g.field(el, "crew")
    if crew is None or crew.tag == "null":
        return None
    # MegaMek renamed Crew's arrays (``name`` -> ``names``, ``nickname`` -> ``nicknames``).
    names = g.strings(crew, "names") or g.strings(crew, "name") or ()
    size = g.int_of(crew, "size")
    slots = len(names) if names else (size or 0)
    hits = g.ints(crew, "hits") or ()
    dead = g.bools(crew, "dead") or ()
    ids = g.strings(crew, "externalId") or ()
    nicks = g.strings(crew, "nicknames") or g.strings(crew, "nickname") or ()
    gunnery = g.ints(crew, "gunnery") or ()
    piloting = g.ints(crew, "piloting") or ()
    members = []
    # Over the names only: ``size`` is a number the file gives, and a seat without a name is
    # skipped anyway.
    for i, name in enumerate(names):
        if name is None:
            continue
        h = _at(hits, i) or 0
        members.append(
            CrewMember(
                name=name,
                nick=(nicks[i] if i < len(nicks) else None) or "",
                slot=i if slots > 1 else None,
                gunnery=_at(gunnery, i),
                piloting=_at(piloting, i),
                hits=DEAD_HITS if _at(dead, i) else min(h, DEAD_HITS),
                external_id=_external(ids[i] if i < len(ids) else None),
            )
        )
    return Crew(
        members=tuple(members),
        size=size,
        crew_type=(g.text(crew, "crewType") or "").strip() or None,
        ejected=bool(g.bool_of(crew, "ejected")),
    )
