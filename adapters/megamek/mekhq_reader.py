"""Read a MekHQ campaign file (``.cpnx``, plain or gzipped XML) into the model ``force import``
takes from a MegaMek unit list, plus what only MekHQ knows (people, skills, TO&E).

Checked against MekHQ's sources: ``Skill.getFinalSkillValue`` (a skill whose type does not
count up has the target number ``target - level - bonus``, the type's ``target`` and
``countUp`` written in the campaign's own ``<skillTypes>``); ``Force``/``ForceStub`` write
nested forces under ``<subforces>``, the newer ``Formation`` under ``<subForces>`` (and reads
``subFormations``); ``Unit`` writes the MegaMek ``<entity>`` (the MUL entity shape) with
``<driverId>``, ``<gunnerId>`` and ``<forceId>``; ``Person`` writes ``<name>``,
``<primaryRole>``, ``<hits>``, ``<unitId>`` and its ``<skill>`` elements.

The same safety as MUL files: size caps on the compressed and the unzipped bytes, no DTD, no
entities, bounded document shape.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lxml import etree

from mekref.adapters.megamek.errors import FilePosition, MulReadError
from mekref.adapters.megamek.gzip_safety import gunzip_capped, is_gzip
from mekref.adapters.megamek.mul_model import (
    Crew,
    CrewMember,
    Entity,
    MulFile,
    Notice,
    RootKind,
    Section,
)
from mekref.adapters.megamek.mul_reader import _Context, _read_entity
from mekref.adapters.megamek.xml_safety import ReadLimits, parse_untrusted_xml

#: A campaign holds every part of every unit, so it is larger than a unit list: Fox's Teeth
#: (12 Meks) is 370 kB, the largest stored example 3.6 MB. The caps leave a wide margin.
CAMPAIGN_LIMITS = ReadLimits(max_bytes=128 * 1024 * 1024, max_elements=2_000_000)
MAX_COMPRESSED = 64 * 1024 * 1024

#: MegaMek entity ``type`` → (gunnery skill, piloting skill) as MekHQ names them.
_SKILLS_BY_TYPE = {
    "Biped": ("Gunnery/Mech", "Piloting/Mech"),
    "Quad": ("Gunnery/Mech", "Piloting/Mech"),
    "Tripod": ("Gunnery/Mech", "Piloting/Mech"),
    "LAM": ("Gunnery/Mech", "Piloting/Mech"),
    "QuadVee": ("Gunnery/Mech", "Piloting/Mech"),
    "Tank": ("Gunnery/Vehicle", "Piloting/Ground Vehicle"),
    "SupportTank": ("Gunnery/Vehicle", "Piloting/Ground Vehicle"),
    "LargeSupportTank": ("Gunnery/Vehicle", "Piloting/Ground Vehicle"),
    "VTOL": ("Gunnery/Vehicle", "Piloting/VTOL"),
    "SupportVTOL": ("Gunnery/Vehicle", "Piloting/VTOL"),
    "Aero": ("Gunnery/Aerospace", "Piloting/Aerospace"),
    "AeroSpaceFighter": ("Gunnery/Aerospace", "Piloting/Aerospace"),
    "ConvFighter": ("Gunnery/Aircraft", "Piloting/Aircraft"),
}


@dataclass(frozen=True)
class SkillType:
    name: str
    target: int
    count_up: bool


@dataclass(frozen=True)
class Person:
    person_id: str
    name: str
    primary_role: str | None
    hits: int
    unit_id: str | None
    #: skill name → (level, bonus)
    skills: tuple[tuple[str, int, int], ...]

    def skill(self, name: str) -> tuple[int, int] | None:
        for n, level, bonus in self.skills:
            if n == name:
                return level, bonus
        return None


@dataclass(frozen=True)
class TOEForce:
    force_id: str
    name: str
    unit_ids: tuple[str, ...]
    children: tuple[TOEForce, ...]


@dataclass(frozen=True)
class CampaignUnit:
    unit_id: str
    entity: Entity
    driver_id: str | None
    gunner_id: str | None
    force_id: str | None


@dataclass(frozen=True)
class Campaign:
    name: str
    units: tuple[CampaignUnit, ...]
    people: tuple[Person, ...]
    forces: tuple[TOEForce, ...]
    skill_types: tuple[SkillType, ...]
    notices: tuple[Notice, ...] = ()


def is_campaign(data: bytes, path: str) -> bool:
    """A ``.cpnx``/``.cpnx.gz`` name, or a plain document whose root is ``<campaign>``."""
    lower = path.lower()
    if lower.endswith((".cpnx", ".cpnx.gz")):
        return True
    head = data[:4096].lstrip()
    if head.startswith(b"<?xml"):
        end = head.find(b"?>")
        head = head[end + 2 :].lstrip() if end >= 0 else head
    return head.startswith(b"<campaign")


def read_campaign_bytes(data: bytes, path: str = "<memory>") -> Campaign:
    """Read a MekHQ campaign's bytes, or raise :class:`MulReadError` with a one-line reason."""
    if is_gzip(data):
        data = gunzip_capped(
            data,
            path,
            max_compressed=MAX_COMPRESSED,
            max_unzipped=CAMPAIGN_LIMITS.max_bytes,
        )
    doc = parse_untrusted_xml(data, path, limits=CAMPAIGN_LIMITS)
    notices = list(doc.notices)
    ctx = _Context(path, notices)
    root = doc.root
    if root.tag != "campaign":
        raise ctx.error(
            root,
            f"root element is <{root.tag}>, not <campaign>",
            "this is XML but not a MekHQ campaign; save it again from MekHQ (File > Save)",
        )
    info = root.find("info")
    name = _text(info.find("name")) if info is not None else ""
    skill_types = tuple(_skill_types(ctx, root))
    units = tuple(_units(ctx, root))
    people = tuple(_people(ctx, root))
    forces_el = root.find("forces")
    forces = (
        tuple(_force(ctx, f) for f in forces_el.iterchildren("force"))
        if forces_el is not None
        else ()
    )
    return Campaign(name, units, people, forces, skill_types, tuple(notices))


def _text(el: etree._Element | None) -> str:
    return (el.text or "").strip() if el is not None else ""


def _int(ctx: _Context, el: etree._Element, what: str) -> int:
    raw = _text(el)
    try:
        return int(raw)
    except ValueError:
        raise ctx.error(
            el, f"<{what}> is {raw!r}, not a whole number", "the campaign file is damaged"
        ) from None


def _skill_types(ctx: _Context, root: etree._Element) -> list[SkillType]:
    out: list[SkillType] = []
    holder = root.find("skillTypes")
    if holder is None:
        return out
    for st in holder.iterchildren("skillType"):
        target = st.find("target")
        if target is None:
            ctx.note(st, f"skill type {_text(st.find('name'))!r} has no <target>; ignored")
            continue
        out.append(
            SkillType(
                _text(st.find("name")),
                _int(ctx, target, "target"),
                _text(st.find("countUp")).lower() == "true",
            )
        )
    return out


def _units(ctx: _Context, root: etree._Element) -> list[CampaignUnit]:
    out: list[CampaignUnit] = []
    holder = root.find("units")
    if holder is None:
        return out
    for u in holder.iterchildren("unit"):
        entity_el = u.find("entity")
        uid = u.get("id") or _text(u.find("id"))
        if entity_el is None:
            ctx.note(u, f"unit {uid} has no <entity>; skipped")
            continue
        entity = _read_entity(ctx, entity_el, Section.UNIT)
        out.append(
            CampaignUnit(
                uid,
                entity,
                _text(u.find("driverId")) or None,
                _text(u.find("gunnerId")) or None,
                _text(u.find("forceId")) or None,
            )
        )
    return out


def _people(ctx: _Context, root: etree._Element) -> list[Person]:
    out: list[Person] = []
    holder = root.find("personnel")
    if holder is None:
        return out
    for p in holder.iterchildren("person"):
        pid = _text(p.find("id")) or p.get("id") or ""
        hits_el = p.find("hits")
        skills: list[tuple[str, int, int]] = []
        for s in p.iterchildren("skill"):
            level, bonus = s.find("level"), s.find("bonus")
            skills.append(
                (
                    _text(s.find("type")),
                    _int(ctx, level, "level") if level is not None else 0,
                    _int(ctx, bonus, "bonus") if bonus is not None else 0,
                )
            )
        out.append(
            Person(
                pid,
                _text(p.find("name")),
                _text(p.find("primaryRole")) or None,
                _int(ctx, hits_el, "hits") if hits_el is not None else 0,
                _text(p.find("unitId")) or None,
                tuple(skills),
            )
        )
    return out


def _force(ctx: _Context, el: etree._Element) -> TOEForce:
    units_el = el.find("units")
    unit_ids = (
        tuple(u.get("id", "") for u in units_el.iterchildren("unit"))
        if units_el is not None
        else ()
    )
    children: list[TOEForce] = []
    for tag in ("subforces", "subForces", "subFormations"):
        sub = el.find(tag)
        if sub is not None:
            children.extend(_force(ctx, f) for f in sub.iterchildren("force", "formation"))
    return TOEForce(el.get("id", ""), _text(el.find("name")), unit_ids, tuple(children))


def target_number(person: Person, skill: str, types: tuple[SkillType, ...]) -> int | None:
    """MekHQ's ``Skill.getFinalSkillValue`` for a roll-this-or-more skill, else None.

    None when the person lacks the skill, the campaign does not define its type, or the type
    counts up (an RPG-style bonus, not a BattleTech target number)."""
    held = person.skill(skill)
    st = next((t for t in types if t.name == skill), None)
    if held is None or st is None or st.count_up:
        return None
    level, bonus = held
    return st.target - level - bonus


def _force_paths(forces: tuple[TOEForce, ...]) -> dict[str, str]:
    """unit id → MegaMek ``<Force>`` string (``name|id||name|id``) of its place in the TO&E."""
    out: dict[str, str] = {}

    def walk(f: TOEForce, trail: tuple[str, ...]) -> None:
        here = (*trail, f"{f.name}|{f.force_id}")
        for uid in f.unit_ids:
            out[uid] = "||".join(here)
        for child in f.children:
            walk(child, here)

    for f in forces:
        walk(f, ())
    return out


def campaign_as_mul(campaign: Campaign, path: str = "<memory>") -> MulFile:
    """The campaign's units as the unit list ``force import`` checks: each entity with its
    crew from the people MekHQ assigned (gunnery from the gunner, piloting from the driver,
    hits from the driver) and its ``<Force>`` path from the TO&E.

    Refuses (one line) a crewed unit whose skill cannot be read: no silent default skill."""
    people = {p.person_id: p for p in campaign.people}
    paths = _force_paths(campaign.forces)
    entities: list[Entity] = []
    for cu in campaign.units:
        e = cu.entity
        pilot = people.get(cu.driver_id or "") or people.get(cu.gunner_id or "")
        gunner = people.get(cu.gunner_id or "") or pilot
        crew: Crew | None = None
        if pilot is not None and gunner is not None:
            skills = _SKILLS_BY_TYPE.get(e.movement_mode)
            if skills is None:
                raise MulReadError(
                    FilePosition(path, e.line),
                    f"unit {cu.unit_id} ({e.display_name}) is a {e.movement_mode or '?'}; "
                    "the MekHQ import reads the crews of Meks, vehicles and fighters only",
                    "import this unit from a MegaMek unit list instead",
                )
            gunnery = target_number(gunner, skills[0], campaign.skill_types)
            piloting = target_number(pilot, skills[1], campaign.skill_types)
            if gunnery is None or piloting is None:
                raise MulReadError(
                    FilePosition(path, e.line),
                    f"unit {cu.unit_id} ({e.display_name}): no {skills[0]}/{skills[1]} target "
                    f"number for {gunner.name!r}/{pilot.name!r}",
                    "give the crew those skills in MekHQ, or import from a MegaMek unit list",
                )
            member = CrewMember(
                name=gunner.name if gunner is pilot else f"{pilot.name} / {gunner.name}",
                gunnery=gunnery,
                piloting=piloting,
                hits=pilot.hits,
                external_id=None,
            )
            crew = Crew(members=(member,))
        entities.append(replace(e, crew=crew, force=paths.get(cu.unit_id, e.force)))
    return MulFile(
        root=RootKind.UNIT,
        version=None,
        entities=tuple(entities),
        notices=campaign.notices,
    )
