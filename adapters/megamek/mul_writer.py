"""Write MegaMek-loadable unit lists in the shape of MegaMek's ``EntityListFile``.

Unlike MegaMek we escape ``&``, ``<`` and ``>`` too: MegaMek's own reader is a DOM parser, so a
name with ``&`` written MegaMek's way could not be loaded back by MegaMek either.
Reading what this module wrote gives back an equal :class:`MulFile` (tested on every fixture).
"""

from __future__ import annotations

from collections.abc import Sequence

from mekref.adapters.megamek.mul_model import (
    ARMOR_DESTROYED,
    ARMOR_NA,
    DEAD_HITS,
    RECORD_SECTIONS,
    Crew,
    CrewMember,
    Entity,
    Location,
    MulFile,
    RootKind,
    Slot,
)
from mekref.adapters.megamek.mul_reader import BLOWN_OFF_SUFFIX

#: Version for lists we create (scenario exports): old enough that every MegaMek from 0.49.19 on
#: loads it, since MegaMek refuses lists from a *newer* version than itself.
DEFAULT_WRITE_VERSION = "0.49.19"

_Attr = tuple[str, object]


# xml.sax.saxutils imports urllib.request (http.client, email, ssl): about 15 ms of start-up
# for every command that imports this module, so it loads when a list is first written.
def escape(text: str) -> str:
    from xml.sax.saxutils import escape as sax_escape

    return sax_escape(text)


def quoteattr(text: str) -> str:
    from xml.sax.saxutils import quoteattr as sax_quoteattr

    return sax_quoteattr(text)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _attrs(pairs: Sequence[_Attr]) -> str:
    return "".join(f" {k}={quoteattr(_value(v))}" for k, v in pairs if v is not None)


def _armor(points: int) -> str:
    if points == ARMOR_NA:
        return "N/A"
    if points in (ARMOR_DESTROYED, ARMOR_DESTROYED + 1):  # destroyed or doomed
        return "Destroyed"
    return str(points)


def write_mul(mul: MulFile) -> str:
    """The text of ``mul`` as MegaMek would write it (UTF-8 when encoded).

    Raises ``ValueError`` for what the root cannot carry (kills or a battle value in the wrong
    root, a record entity outside the record sections) rather than dropping it silently.
    """
    _check_root(mul)
    # A list read without a version (very old files) is written back without one.
    version = "" if mul.version is None else f" version={quoteattr(mul.version)}"
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n\n']
    if mul.root is RootKind.UNIT:
        out.append(f"<unit{version} >\n\n")
        if mul.total_generic_bv is not None:
            out.append(
                f"<TotalGenericBattleValue>{mul.total_generic_bv}</TotalGenericBattleValue>\n\n"
            )
        out.extend(_entity(e) for e in mul.entities)
        out.append("</unit>\n")
        return "".join(out)
    out.append(f"<record{version} >")
    for section in RECORD_SECTIONS:
        members = mul.section(section)
        if members:
            out.append(f"\n\t<{section.value}>\n\n")
            out.extend(_entity(e) for e in members)
            out.append(f"\t</{section.value}>\n")
    if mul.kills:
        out.append("\n\t<kills>\n\n")
        for kill in mul.kills:
            killer = kill.killer if kill.killer is not None else "None"
            out.append(f"\t\t<kill{_attrs([('killed', kill.killed), ('killer', killer)])}/>\n")
        out.append("\t</kills>\n")
    out.append("</record>\n")
    return "".join(out)


def _check_root(mul: MulFile) -> None:
    if mul.root is RootKind.UNIT:
        if mul.kills:
            raise ValueError("a <unit> list has no kills; write them in a <record>")
        return
    if mul.total_generic_bv is not None:
        raise ValueError("a <record> has no TotalGenericBattleValue; only a <unit> list does")
    stray = [e.display_name for e in mul.entities if e.section not in RECORD_SECTIONS]
    if stray:
        raise ValueError(
            f"a <record> needs each entity in survivors, allies, salvage, retreated or "
            f"devastated; not: {', '.join(stray)}"
        )


def _entity(e: Entity) -> str:
    attrs: list[_Attr] = [
        ("chassis", e.chassis),
        ("model", e.model),
        ("type", e.movement_mode),
        ("commander", e.commander),
        ("offboard", e.offboard),
        ("hidden", e.hidden),
        ("deployment", e.deployment),
        ("neverDeployed", e.never_deployed),
        ("velocity", e.velocity),
        ("altitude", e.altitude),
        ("elevation", e.elevation),
        ("externalId", e.external_id),
        ("quirks", "::".join(e.quirks) if e.quirks else None),
        ("pickUpId", e.pick_up_id),
        ("unitFileUUID", e.unit_file_uuid),
        ("entityForm", e.entity_form),
    ]
    out = [f"\t\t<entity{_attrs(attrs)}{_attrs(e.extra)}>\n"]
    if e.crew is not None:
        out.append(_crew(e.crew))
    if e.motive_damage is not None or e.motive_penalty is not None:
        motive = [("damage", e.motive_damage), ("penalty", e.motive_penalty)]
        out.append(f"      <motive{_attrs(motive)}/>\n")
    if e.legacy_movement_speed is not None:
        out.append(f'\t\t\t<movement speed="{e.legacy_movement_speed}"/>\n')
    if e.turret_lock is not None:
        out.append(f'      <turretlock direction="{e.turret_lock}"/>\n')
    if e.tank_crits:
        out.append(f"      <tcriticals{_attrs(e.tank_crits)}/>\n")
    if e.fuel is not None:
        out.append(f'\t\t\t<fuel left="{e.fuel}"/>\n')
    if e.bombs is not None:
        out.append("\t\t\t<bombs>\n")
        for bomb in e.bombs:
            bomb_attrs = [("type", bomb.type), ("load", bomb.load), ("Internal", bomb.internal)]
            out.append(f"\t\t\t\t<bomb{_attrs(bomb_attrs)}/>\n")
        out.append("\t\t\t</bombs>\n")
    if e.structural_integrity is not None:
        out.append(f'\t\t\t<structural integrity="{e.structural_integrity}"/>\n')
    if e.heat_sinks is not None:
        out.append(f'\t\t\t<heat sinks="{e.heat_sinks}"/>\n')
    if e.aero_crits:
        out.append(f"      <acriticals{_attrs(e.aero_crits)}/>\n")
    if e.dropship_crits:
        out.append(f"      <dcriticals{_attrs(e.dropship_crits)}/>\n")
    if any(loc.slots for loc in e.locations):
        out.append('      The first slot in a location is at index="1".\n')
    out.extend(_location(loc) for loc in e.locations)
    out.extend(f"\t\t\t{raw}\n" for raw in e.preserved)
    if e.conveyance_id is not None:
        out.append(f'\t\t\t<Conveyance id="{e.conveyance_id}"/>\n')
    if e.game_id is not None:
        out.append(f'\t\t\t<Game id="{e.game_id}"/>\n')
    if e.force is not None:
        out.append(f"\t\t\t<Force{_attrs([('force', e.force)])}/>\n")
    out.extend(f"\t\t\t<EscapeCraft{_attrs([('id', c)])}/>\n" for c in e.escape_craft)
    if e.escape_pods is not None:
        out.append(f'\t\t\t<ONumberOfPods number="{e.escape_pods}"/>\n')
    if e.ejected_men is not None:
        out.append(f'\t\t\t<ONumberOfMen number="{e.ejected_men}"/>\n')
    out.append("\t\t</entity>\n\n")
    return "".join(out)


def _person(m: CrewMember) -> list[_Attr]:
    hits: str | None = None
    if m.hits >= DEAD_HITS:
        hits = "Dead"
    elif m.hits > 0:
        hits = str(m.hits)
    return [
        ("name", m.name),
        ("nick", m.nick),
        ("gender", m.gender),
        ("clanperson", m.clanperson),
        ("gunnery", m.gunnery),
        ("gunneryL", m.gunnery_l),
        ("gunneryM", m.gunnery_m),
        ("gunneryB", m.gunnery_b),
        ("piloting", m.piloting),
        ("gunneryAero", m.gunnery_aero),
        ("gunneryAeroL", m.gunnery_aero_l),
        ("gunneryAeroM", m.gunnery_aero_m),
        ("gunneryAeroB", m.gunnery_aero_b),
        ("pilotingAero", m.piloting_aero),
        ("artillery", m.artillery),
        ("toughness", m.toughness),
        ("fatigue", m.fatigue),
        ("hits", hits),
        *m.extra,
        ("externalId", m.external_id),
    ]


def _crew_wide(c: Crew) -> list[_Attr]:
    return [
        ("initB", c.init_bonus),
        ("commandB", c.command_bonus),
        ("ejected", c.ejected),
        ("advantages", "::".join(c.advantages) if c.advantages else None),
        ("edge", "::".join(c.edge) if c.edge else None),
        ("autoeject", c.autoeject),
        *c.extra,
    ]


def _crew(c: Crew) -> str:
    if c.crew_type is None and len(c.members) == 1:
        attrs = [("size", c.size), *_person(c.members[0]), *_crew_wide(c)]
        return f"\t\t\t<pilot{_attrs(attrs)}/>\n"
    head = [("crewType", c.crew_type or ""), ("size", c.size), *_crew_wide(c)]
    out = [f"\t\t\t<crew{_attrs(head)}>\n"]
    for m in c.members:
        out.append(f"\t\t\t\t<crewMember{_attrs([('slot', m.slot), *_person(m)])}/>\n")
    out.append("\t\t\t</crew>\n")
    return "".join(out)


def _location(loc: Location) -> str:
    name = escape(loc.name + (BLOWN_OFF_SUFFIX if loc.blown_off else ""))
    head: list[_Attr] = [("index", loc.index), ("isDestroyed", True if loc.destroyed else None)]
    body: list[str] = []
    for key, value in (("", loc.armor), ("Internal", loc.internal), ("Rear", loc.rear)):
        if value is not None:
            kind = f' type="{key}"' if key else ""
            body.append(f'\t\t\t\t<armor points="{_armor(value)}"{kind}/>\n')
    if loc.breached:
        body.append("\t\t\t\t<breached/>\n")
    if loc.blown_off:
        body.append("\t\t\t\t<blownOff/>\n")
    if loc.stabilizer_hit:
        body.append('\t\t\t\t<stabilizer isHit="true"/>\n')
    body.extend(_slot(s) for s in loc.slots)
    body.extend(f"\t\t\t\t{raw}\n" for raw in loc.unknown)
    if not body:
        return f"\t\t\t<location{_attrs(head)} /> {name}\n"
    return f"\t\t\t<location{_attrs(head)}> {name}\n{''.join(body)}\t\t\t</location>\n"


def _slot(s: Slot) -> str:
    attrs: list[_Attr] = [
        ("index", "N/A" if s.index is None else s.index),
        ("type", s.type),
        ("isRear", True if s.is_rear else None),
        ("isTurreted", True if s.is_turreted else None),
        ("shots", s.shots),
        ("capacity", s.capacity),
        ("munition", s.munition),
        ("quirks", s.quirks),
        *s.extra,
        ("isHit", True if s.is_hit else None),
        ("armorHit", True if s.armor_hit else None),
        ("isRepairable", s.is_repairable),
        ("isMissing", True if s.is_missing else None),
        ("isDestroyed", s.is_destroyed),
    ]
    return f"\t\t\t\t<slot{_attrs(attrs)}/>\n"
