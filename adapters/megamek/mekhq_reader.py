"""Read a MekHQ campaign file (``.cpnx``, plain or gzipped XML) into plain data
(:mod:`mekhq_model`); :mod:`mekhq_crew` turns it into the unit list ``force import`` checks.

Checked against MekHQ's sources (MegaMek/mekhq; versions and commits in
docs/megamek-adapter.md): ``CampaignXmlParser`` (``<personnel>``, ``<units>``, ``<skillTypes>``,
and the TO&E under ``<forces>`` or, from 0.50.12, ``<formations>``); ``Person.writeToXMLHeadless``
(``<name>`` in files before about 2020, then ``<preNominal>``/``<givenName>``/``<surname>``/
``<postNominal>``, ``<bloodname>``; ``<rank>``; ``<hits>`` written only when above 0;
``<commander>``; ``<injuries>``; ``<atowAttributes>``; ``<skill>``); ``SkillType.writeToXML``
(``<countUp>``, from 0.50.07 ``<isCountUp>``; ``<firstAttribute>``/``<secondAttribute>``);
``Formation.writeToXML`` (``<formationCommanderID>``, read by MekHQ also as
``forceCommanderID``; ``<subFormations>``, older ``<subForces>``/``<subforces>``); ``Unit``
(the MegaMek ``<entity>`` with every ``<driverId>``/``<gunnerId>``).

The same safety as MUL files: size caps on the compressed and the unzipped bytes, no DTD, no
entities, bounded document shape.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from mekref.adapters.megamek.gzip_safety import gunzip_capped, is_gzip
from mekref.adapters.megamek.mekhq_crew import campaign_as_mul, target_number
from mekref.adapters.megamek.mekhq_model import (
    Campaign,
    CampaignUnit,
    Injury,
    Person,
    SkillType,
    TOEForce,
)
from mekref.adapters.megamek.mul_fields import _Context
from mekref.adapters.megamek.mul_model import Section
from mekref.adapters.megamek.mul_reader import _read_entity
from mekref.adapters.megamek.xml_safety import ReadLimits, parse_untrusted_xml

__all__ = [
    "CAMPAIGN_LIMITS",
    "Campaign",
    "campaign_as_mul",
    "is_campaign",
    "read_campaign_bytes",
    "target_number",
]

#: A campaign holds every part of every unit, so it is larger than a unit list: Fox's Teeth
#: (12 Meks) is 370 kB, the largest stored example 3.6 MB. The caps leave a wide margin.
CAMPAIGN_LIMITS = ReadLimits(max_bytes=128 * 1024 * 1024, max_elements=2_000_000)
MAX_COMPRESSED = 64 * 1024 * 1024

_ATTRIBUTES = ("strength", "body", "reflexes", "dexterity", "intelligence", "willpower", "charisma")
_NAME_PARTS = ("preNominal", "givenName", "surname", "bloodname", "postNominal")


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
    forces = tuple(_forces(ctx, root))
    options = root.find("campaignOptions")
    advanced = _text(_child(options, "useAdvancedMedical")).lower() == "true"
    version = root.get("version") or None
    return Campaign(name, units, people, forces, skill_types, tuple(notices), version, advanced)


def _child(el: etree._Element | None, *names: str) -> etree._Element | None:
    """The first child under any of ``names``, compared without case as MekHQ does."""
    if el is None:
        return None
    wanted = {n.lower() for n in names}
    for child in el.iterchildren():
        if isinstance(child.tag, str) and child.tag.lower() in wanted:
            return child
    return None


def _children(el: etree._Element, *names: str) -> list[etree._Element]:
    wanted = {n.lower() for n in names}
    return [c for c in el.iterchildren() if isinstance(c.tag, str) and c.tag.lower() in wanted]


def _text(el: etree._Element | None) -> str:
    return (el.text or "").strip() if el is not None else ""


def _id(el: etree._Element | None) -> str | None:
    """An id element's text; MekHQ writes ``null`` for none."""
    raw = _text(el)
    return raw if raw and raw != "null" else None


def _int(ctx: _Context, el: etree._Element, what: str) -> int:
    raw = _text(el)
    try:
        return int(raw)
    except ValueError:
        raise ctx.error(
            el, f"<{what}> is {raw!r}, not a whole number", "the campaign file is damaged"
        ) from None


def _opt_int(ctx: _Context, el: etree._Element | None, what: str) -> int | None:
    return _int(ctx, el, what) if el is not None and _text(el) else None


def _listed(root: etree._Element, holder: str, item: str) -> Iterator[etree._Element]:
    """The ``item`` children of ``root``'s ``holder`` element (none when it has none)."""
    found = root.find(holder)
    return iter(()) if found is None else found.iterchildren(item)


def _skill_types(ctx: _Context, root: etree._Element) -> list[SkillType]:
    out: list[SkillType] = []
    for st in _listed(root, "skillTypes", "skillType"):
        target = st.find("target")
        if target is None:
            ctx.note(st, f"skill type {_text(st.find('name'))!r} has no <target>; ignored")
            continue
        attrs = (_text(_child(st, "firstAttribute")), _text(_child(st, "secondAttribute")))
        out.append(
            SkillType(
                _text(st.find("name")),
                _int(ctx, target, "target"),
                _text(_child(st, "countUp", "isCountUp")).lower() == "true",
                tuple(a.upper() for a in attrs if a and a.upper() != "NONE"),
            )
        )
    return out


def _units(ctx: _Context, root: etree._Element) -> list[CampaignUnit]:
    out: list[CampaignUnit] = []
    for u in _listed(root, "units", "unit"):
        entity_el = u.find("entity")
        uid = u.get("id") or _text(u.find("id"))
        if entity_el is None:
            ctx.note(u, f"unit {uid} has no <entity>; skipped")
            continue
        entity = _read_entity(ctx, entity_el, Section.UNIT)
        drivers = tuple(i for i in (_id(d) for d in _children(u, "driverId")) if i)
        gunners = tuple(i for i in (_id(g) for g in _children(u, "gunnerId")) if i)
        others = _children(u, "vesselCrewId", "navigatorId", "techOfficerId")
        out.append(
            CampaignUnit(
                uid,
                entity,
                drivers[0] if drivers else None,
                gunners[0] if gunners else None,
                _id(_child(u, "forceId", "formationId")),
                drivers,
                gunners,
                tuple(i for i in (_id(o) for o in others) if i),
            )
        )
    return out


def _person_name(p: etree._Element) -> str:
    """``<name>`` (files before about 2020), else the parts ``Person`` writes since."""
    old = _text(p.find("name"))
    if old:
        return old
    return " ".join(t for t in (_text(_child(p, part)) for part in _NAME_PARTS) if t)


def _people(ctx: _Context, root: etree._Element) -> list[Person]:
    out: list[Person] = []
    for p in _listed(root, "personnel", "person"):
        pid = _text(p.find("id")) or p.get("id") or ""
        name = _person_name(p)
        if not name:
            ctx.note(p, f"person {pid} has neither <name> nor <givenName>/<surname>")
        # MekHQ writes <hits> only when above 0 (Person.writeToXMLHeadless); <pilotHits> is
        # the older element it still reads.
        hits_el = _child(p, "hits", "pilotHits")
        out.append(
            Person(
                pid,
                name,
                _text(p.find("primaryRole")) or None,
                _int(ctx, hits_el, "hits") if hits_el is not None else 0,
                _id(p.find("unitId")),
                tuple(_skills(ctx, p)),
                _opt_int(ctx, p.find("rank"), "rank"),
                _text(_child(p, "commander")).lower() == "true",
                tuple(_injuries(ctx, p)),
                tuple(_attributes(ctx, p)),
                tuple(t for t in (_text(_child(p, k)) for k in _ABILITIES) if t),
                _text(p.find("status")) or None,
            )
        )
    return out


_ABILITIES = ("advantages", "edge", "implants")


def _skills(ctx: _Context, p: etree._Element) -> list[tuple[str, int, int]]:
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
    return skills


def _attributes(ctx: _Context, p: etree._Element) -> list[tuple[str, int]]:
    holder = _child(p, "atowAttributes")
    if holder is None:
        return []
    found = ((a, _child(holder, a)) for a in _ATTRIBUTES)
    return [(a.upper(), _int(ctx, el, a)) for a, el in found if el is not None and _text(el)]


def _injuries(ctx: _Context, p: etree._Element) -> list[Injury]:
    holder = _child(p, "injuries")
    if holder is None:
        return []
    return [
        Injury(
            description=_text(_child(i, "fluff")),
            type=_text(_child(i, "type")),
            location=_text(_child(i, "location")),
            severity=_opt_int(ctx, _child(i, "hits"), "hits"),
            days=_opt_int(ctx, _child(i, "days"), "days"),
            permanent=_text(_child(i, "permanent")).lower() == "true",
        )
        for i in _children(holder, "injury")
    ]


def _forces(ctx: _Context, root: etree._Element) -> list[TOEForce]:
    holder = _child(root, "forces", "formations")
    if holder is None:
        return []
    return [_force(ctx, f) for f in _children(holder, "force", "formation")]


def _force(ctx: _Context, el: etree._Element) -> TOEForce:
    units_el = el.find("units")
    unit_ids = (
        tuple(u.get("id", "") for u in units_el.iterchildren("unit"))
        if units_el is not None
        else ()
    )
    children: list[TOEForce] = []
    for sub in _children(el, "subforces", "subFormations"):
        children.extend(_force(ctx, f) for f in _children(sub, "force", "formation"))
    commander = _id(_child(el, "formationCommanderID", "forceCommanderID"))
    return TOEForce(el.get("id", ""), _text(el.find("name")), unit_ids, tuple(children), commander)
