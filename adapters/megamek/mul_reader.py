"""Read MegaMek unit lists (``<unit>``) and battle records (``<record>``) into :class:`MulFile`.

:func:`read_mul_bytes` is the entry; the usual path is the event reader (:mod:`mul_events`),
and this module's tree reader is the reference it is tested against and the path of every
file it leaves (see there).

Follows what ``EntityListFile`` writes and ``MULParser`` accepts (reference section 1). Every
attribute and element the model does not name is kept (``extra``/``preserved``) so nothing a
newer MegaMek adds is silently dropped, and a notice says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from lxml import etree

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_events import read_mul_events
from mekref.adapters.megamek.mul_fields import (
    _attr_dict,
    _attributes,
    _bool_or_none,
    _Context,
    _elements,
    _external_id,
    _extra,
    _int,
    _int_or_none,
    _items,
    _line,
    _opt_bool,
    _opt_int,
    _raw,
    _required,
    _split,
    _true,
)
from mekref.adapters.megamek.mul_locations import _read_location
from mekref.adapters.megamek.mul_model import (
    DEAD_HITS,
    RECORD_SECTIONS,
    Bomb,
    Crew,
    CrewMember,
    Entity,
    Kill,
    Location,
    MulFile,
    Notice,
    RootKind,
    Section,
    build,
)
from mekref.adapters.megamek.mul_vocabulary import (
    BLOWN_OFF_SUFFIX,
    CREW_ATTRIBUTES,
    ENTITY_ATTRIBUTES,
    ENTITY_EXTRA_KNOWN,
    PERSON_ATTRIBUTES,
    PERSON_EXTRA,
    PERSON_NUMBERS,
    PERSON_TEXT,
    PILOT_NAMED,
    PRESERVED_ELEMENTS,
)
from mekref.adapters.megamek.xml_safety import (
    DEFAULT_LIMITS,
    ReadLimits,
    parse_untrusted_xml,
)
from mekref.adapters.megamek.xml_stream import stream_untrusted_xml

#: Files larger than this are read entity by entity (:mod:`xml_stream`): the whole tree costs
#: about 13 times the file in memory; below it the whole-tree read is the faster one.
STREAM_FROM_BYTES = 4 * 1024 * 1024

__all__ = ["BLOWN_OFF_SUFFIX", "STREAM_FROM_BYTES", "read_mul_bytes"]


def read_mul_bytes(
    data: bytes,
    path: str = "<memory>",
    *,
    max_bytes: int | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
    stream: bool | None = None,
) -> MulFile:
    """Read a MUL file's bytes. Raises :class:`MulReadError` with a readable reason.

    A file is read from the parser's events first (:mod:`mul_events`: no tree, fields converted
    when first read); what that reader leaves (anything but what MegaMek writes, and every file
    refused) is read here from lxml's tree, which words the refusal. The result is the same
    either way. ``stream`` forces the tree read: entity by entity (``True``) or whole
    (``False``); unset, a file over :data:`STREAM_FROM_BYTES` the event reader leaves is read
    entity by entity.

    Reading is linear in the file's size: ``limits`` bound the document's shape (see
    :class:`~mekref.adapters.megamek.xml_safety.ReadLimits`) before this module calls
    ``items()``, whose cost grows with the square of an element's attribute count.
    ``max_bytes`` overrides ``limits.max_bytes``."""
    if max_bytes is not None:
        limits = replace(limits, max_bytes=max_bytes)
    if stream is None:
        read = read_mul_events(data, path, limits)
        if read is not None:
            return read
        stream = len(data) > STREAM_FROM_BYTES
    notices: list[Notice] = []
    ctx = _Context(path, notices)
    read_entity: _EntityReader = _read_entity
    if stream:
        taken = _TakenEntities(ctx)
        streamed = stream_untrusted_xml(
            data, path, tag="entity", consume=taken.consume, limits=limits
        )
        root, read_entity = streamed.root, taken.pop
        # The document's own notices come first, as the whole-tree read gives them.
        notices[:0] = streamed.notices
    else:
        doc = parse_untrusted_xml(data, path, limits=limits)
        root = doc.root
        notices.extend(doc.notices)
    if root.tag == "unit":
        entities, kills, gbv = _read_unit_root(ctx, root, read_entity)
        kind = RootKind.UNIT
    elif root.tag == "record":
        entities, kills, gbv = _read_record_root(ctx, root, read_entity)
        kind = RootKind.RECORD
    else:
        raise ctx.error(
            root,
            f"root element is <{root.tag}>, not <unit> or <record>",
            "this is XML but not a MegaMek unit list; export it from MegaMek (File > Units > Save)",
        )
    return MulFile(
        root=kind,
        version=root.get("version"),
        entities=tuple(entities),
        kills=tuple(kills),
        total_generic_bv=gbv,
        notices=tuple(notices),
    )


_SECTIONS_BY_TAG = {s.value: s for s in RECORD_SECTIONS}
_EntityReader = Callable[["_Context", etree._Element, Section], Entity]


class _TakenEntities:
    """A streamed read's entities, each read as soon as the parser completes it. The walk of
    the remaining document then takes them in document order, with the notices each gave, so
    the result equals the whole-tree read's."""

    def __init__(self, ctx: _Context) -> None:
        self.ctx = ctx
        self._read: dict[etree._Element, tuple[Entity, list[Notice]] | MulReadError] = {}

    def consume(self, element: etree._Element) -> bool:
        section = self._section_of(element)
        if section is None:
            return False  # not where the walk reads entities: it notes its container instead
        ctx, kept = self.ctx, self.ctx.notices
        ctx.notices = []
        try:
            self._read[element] = (_read_entity(ctx, element, section), ctx.notices)
        except MulReadError as exc:
            # Raised when the walk reaches this entity: an error earlier in the document, or
            # the document not being well-formed, is reported first, as the whole-tree read does.
            self._read[element] = exc
        finally:
            ctx.notices = kept
        return True

    def pop(self, ctx: _Context, element: etree._Element, section: Section) -> Entity:
        read = self._read.pop(element)
        if isinstance(read, MulReadError):
            raise read
        entity, notices = read
        ctx.notices.extend(notices)
        return entity

    def _section_of(self, element: etree._Element) -> Section | None:
        parent = element.getparent()
        if parent is None:
            return None
        grandparent = parent.getparent()
        if grandparent is None:
            return Section.UNIT if parent.tag == "unit" else None
        if grandparent.getparent() is None and grandparent.tag == "record":
            return _SECTIONS_BY_TAG.get(str(parent.tag))
        return None


def _read_unit_root(
    ctx: _Context, root: etree._Element, read_entity: _EntityReader
) -> tuple[list[Entity], list[Kill], int | None]:
    entities: list[Entity] = []
    gbv: int | None = None
    for child in _elements(root):
        if child.tag == "entity":
            entities.append(read_entity(ctx, child, Section.UNIT))
        elif child.tag == "TotalGenericBattleValue":
            gbv = _int(ctx, child, "TotalGenericBattleValue", (child.text or "").strip())
        else:
            ctx.note(child, f"unknown element <{child.tag}> under <unit> ignored")
    return entities, [], gbv


def _read_record_root(
    ctx: _Context, root: etree._Element, read_entity: _EntityReader
) -> tuple[list[Entity], list[Kill], int | None]:
    entities: list[Entity] = []
    kills: list[Kill] = []
    by_tag = {s.value: s for s in RECORD_SECTIONS}
    for child in _elements(root):
        if child.tag in by_tag:
            for sub in _elements(child):
                if sub.tag == "entity":
                    entities.append(read_entity(ctx, sub, by_tag[child.tag]))
                else:
                    ctx.note(sub, f"unknown element <{sub.tag}> in <{child.tag}> ignored")
        elif child.tag == "kills":
            for sub in _elements(child):
                if sub.tag != "kill":
                    ctx.note(sub, f"unknown element <{sub.tag}> in <kills> ignored")
                    continue
                killer = sub.get("killer")
                kills.append(
                    Kill(
                        killed=sub.get("killed", ""),
                        killer=None if killer in (None, "None", "-1") else killer,
                    )
                )
        else:
            ctx.note(child, f"unknown element <{child.tag}> under <record> ignored")
    return entities, kills, None


#: Child elements of <entity> read as whole numbers: tag -> ((Entity field, attribute), ...).
_INT_CHILDREN: dict[str, tuple[tuple[str, str], ...]] = {
    "Game": (("game_id", "id"),),
    "motive": (("motive_damage", "damage"), ("motive_penalty", "penalty")),
    "movement": (("legacy_movement_speed", "speed"),),
    "turretlock": (("turret_lock", "direction"),),
    "structural": (("structural_integrity", "integrity"),),
    "heat": (("heat_sinks", "sinks"),),
    "fuel": (("fuel", "left"),),
    "Conveyance": (("conveyance_id", "id"),),
    "ONumberOfMen": (("ejected_men", "number"),),
    "ONumberOfPods": (("escape_pods", "number"),),
}
#: Child elements of <entity> kept as their attributes: tag -> Entity field.
_ATTRIBUTE_CHILDREN = {
    "tcriticals": "tank_crits",
    "acriticals": "aero_crits",
    "dcriticals": "dropship_crits",
}


def _read_entity(ctx: _Context, el: etree._Element, section: Section) -> Entity:
    items = _items(el)
    a = dict(items)
    get = a.get
    chassis = get("chassis")
    if chassis is None:
        chassis = _required(ctx, el, "chassis")
    extra = tuple(item for item in items if item[0] not in ENTITY_ATTRIBUTES)
    for name, _value in extra:
        if name not in ENTITY_EXTRA_KNOWN:
            ctx.note_once(el, f"entity@{name}", f"unknown attribute {name}= on <entity> kept as-is")
    fields: dict[str, object] = {}
    locations: list[Location] = []
    preserved: list[str] = []
    escape_craft: list[str] = []
    read_location = _read_location
    for child in el.iterchildren(etree.Element):  # as _elements(), without the extra call
        tag = child.tag
        if tag == "location":
            locations.append(read_location(ctx, child))
        elif tag == "pilot":
            fields["crew"] = _read_pilot(ctx, child)
        elif tag == "crew":
            fields["crew"] = _read_crew(ctx, child)
        elif tag in _INT_CHILDREN:
            for field, attribute in _INT_CHILDREN[tag]:
                fields[field] = _opt_int(ctx, child, attribute)
        elif tag in _ATTRIBUTE_CHILDREN:
            fields[_ATTRIBUTE_CHILDREN[tag]] = _attributes(child)
        elif tag == "bombs":
            fields["bombs"] = _read_bombs(ctx, child)
        elif tag == "Force":
            fields["force"] = child.get("force")
        elif tag == "EscapeCraft":
            escape_craft.append(child.get("id", ""))
        else:
            if tag not in PRESERVED_ELEMENTS:
                ctx.note(child, f"unknown element <{tag}> in entity kept as-is")
            preserved.append(_raw(child))
    return build(
        Entity,
        chassis=chassis,
        model=get("model", ""),
        movement_mode=get("type", ""),
        section=section,
        external_id=_external_id(get("externalId")),
        commander=_bool_or_none(get("commander")),
        offboard=_bool_or_none(get("offboard")),
        hidden=_bool_or_none(get("hidden")),
        deployment=_int_or_none(ctx, el, "deployment", get("deployment")),
        never_deployed=_bool_or_none(get("neverDeployed")),
        velocity=_int_or_none(ctx, el, "velocity", get("velocity")),
        altitude=_int_or_none(ctx, el, "altitude", get("altitude")),
        elevation=_int_or_none(ctx, el, "elevation", get("elevation")),
        quirks=_split(get("quirks")),
        unit_file_uuid=get("unitFileUUID"),
        entity_form=get("entityForm"),
        pick_up_id=get("pickUpId"),
        extra=extra,
        line=_line(el),
        locations=tuple(locations),
        preserved=tuple(preserved),
        escape_craft=tuple(escape_craft),
        **fields,
    )


def _hits(ctx: _Context, el: etree._Element, raw: str | None) -> int:
    if raw is None:
        return 0
    if raw.strip() == "Dead":
        return DEAD_HITS
    hits = _int(ctx, el, "hits", raw)
    # MegaMek writes "Dead" for hits > 5, so a larger number only comes from a hand edit.
    return min(max(hits, 0), DEAD_HITS)


def _read_member(
    ctx: _Context,
    el: etree._Element,
    *,
    slot: int | None,
    keep_unknown: bool = False,
    items: list[tuple[str, str]] | None = None,
) -> CrewMember:
    """One person. ``keep_unknown``: a ``<crewMember>`` holds only per-person attributes, so
    every attribute the model does not name is this person's ``extra`` (on a lone ``<pilot>``
    the unnamed ones go to the crew instead)."""
    values: dict[str, object] = {}
    extra: list[tuple[str, str]] = []
    raw_hits = None
    for attr, raw in _items(el) if items is None else items:
        # Skills are most of a person's attributes: test for them first, and convert inline
        # (what _int_or_none does, without a call per attribute).
        name = PERSON_NUMBERS.get(attr)
        if name is not None:
            try:
                values[name] = int(raw)
            except ValueError:
                values[name] = _int(ctx, el, attr, raw)
            continue
        name = PERSON_ATTRIBUTES.get(attr)
        if name is None:
            if attr in PERSON_EXTRA or (keep_unknown and attr != "slot"):
                extra.append((attr, raw))
        elif attr in PERSON_TEXT:
            values[name] = raw
        elif attr == "hits":
            raw_hits = raw  # read after the others, as a number or "Dead"
        elif attr == "externalId":
            values[name] = _external_id(raw)
        else:  # clanperson, the one flag
            values[name] = raw.strip().lower() == "true"
    values.setdefault("name", "")
    return build(CrewMember, slot=slot, hits=_hits(ctx, el, raw_hits), extra=tuple(extra), **values)


def _crew_fields(
    ctx: _Context, el: etree._Element, a: dict[str, str] | None = None
) -> dict[str, object]:
    get = (_attr_dict(el) if a is None else a).get
    return {
        "size": _int_or_none(ctx, el, "size", get("size")),
        "ejected": _true(get("ejected")),
        "init_bonus": _int_or_none(ctx, el, "initB", get("initB")),
        "command_bonus": _int_or_none(ctx, el, "commandB", get("commandB")),
        "advantages": _split(get("advantages")),
        "edge": _split(get("edge")),
        "autoeject": _bool_or_none(get("autoeject")),
    }


def _read_pilot(ctx: _Context, el: etree._Element) -> Crew:
    items = _items(el)
    a = dict(items)
    member = _read_member(ctx, el, slot=None, items=items)
    # Most pilots carry no crew-wide attribute the model does not name: one subset test in C.
    crew_extra = (
        ()
        if a.keys() <= PILOT_NAMED
        else tuple(item for item in items if item[0] not in PILOT_NAMED)
    )
    fields = _crew_fields(ctx, el, a)
    return build(Crew, members=(member,), extra=crew_extra, **fields)


def _read_crew(ctx: _Context, el: etree._Element) -> Crew:
    members = []
    for child in _elements(el):
        if child.tag == "crewMember":
            slot = _opt_int(ctx, child, "slot")
            members.append(_read_member(ctx, child, slot=slot, keep_unknown=True))
        else:
            ctx.note(child, f"unknown element <{child.tag}> in <crew> ignored")
    return build(
        Crew,
        members=tuple(members),
        crew_type=el.get("crewType", ""),
        extra=_extra(el, CREW_ATTRIBUTES),
        **_crew_fields(ctx, el),
    )


def _read_bombs(ctx: _Context, el: etree._Element) -> tuple[Bomb, ...]:
    bombs = []
    for child in _elements(el):
        if child.tag == "bomb":
            bombs.append(
                Bomb(
                    type=child.get("type", ""),
                    load=_opt_int(ctx, child, "load") or 0,
                    internal=_opt_bool(child, "Internal"),
                )
            )
    return tuple(bombs)
