"""A MekHQ campaign's units as the unit list ``force import`` checks: each entity with the crew
MekHQ seats in it, the target numbers MekHQ gives them, and its place in the TO&E.

Checked against MekHQ's sources (versions in docs/megamek-adapter.md): ``Skill.
getFinalSkillValue`` (a roll-this-or-more skill is ``target - level - bonus - modifiers``,
never below 0; the modifiers that touch Gunnery and Piloting are those of the skill type's
linked ATOW attributes, ``getTotalAttributeModifier``; SPA and injury modifiers in that method
name other skills only), and ``Unit.assignToCrewSlot``/``resetPilotAndEntity`` (the crew MegaMek
plays: one person for Meks, ProtoMeks and fighters, the mean of the drivers' and of the gunners'
values, rounded half up, for the others; values capped at 8).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.errors import FilePosition, MulReadError
from mekref.adapters.megamek.kind_inference import infer_kind_from_shape
from mekref.adapters.megamek.mekhq_command import Command, find_commanders, force_places
from mekref.adapters.megamek.mekhq_left_out import left_out
from mekref.adapters.megamek.mekhq_model import Campaign, CampaignUnit, Person, SkillType
from mekref.adapters.megamek.mekhq_skills import (
    ANTI_MEK,
    SOLO_KINDS,
    attribute_modifier,
    canonical_skill,
    skills_for,
)
from mekref.adapters.megamek.mul_model import Crew, CrewMember, Entity, MulFile, RootKind
from mekref.adapters.megamek.unit_kinds import KindSource, UnitKind

DesignFor = Callable[[Entity], UnitDesign | None]

#: ``Unit.assignToCrewSlot`` caps what it hands MegaMek: ``Math.min(max(value, 0), 8)``.
MEGAMEK_CAP = 8
#: ``Unit.resetPilotAndEntity``: infantry without Anti-Mek climb on 8.
INFANTRY_WITHOUT_ANTI_MEK = 8


@dataclass(frozen=True)
class SkillValue:
    """A target number as MekHQ computes it, with the parts a referee may want to check."""

    skill: str
    value: int
    base: int
    attribute_modifier: int
    #: What was assumed or capped, one line each (empty when nothing was).
    notes: tuple[str, ...] = ()


def skill_value(person: Person, skill: str, types: tuple[SkillType, ...]) -> SkillValue | None:
    """``Skill.getFinalSkillValue`` for a roll-this-or-more skill, else None.

    None when the person lacks the skill, the campaign does not define its type, or the type
    counts up (an RPG-style bonus, not a BattleTech target number)."""
    held = person.skill(skill)
    want = canonical_skill(skill).lower()
    st = next((t for t in types if canonical_skill(t.name).lower() == want), None)
    if held is None or st is None or st.count_up:
        return None
    level, bonus = held
    base = st.target - level - bonus
    notes: list[str] = []
    modifier = 0
    if st.attributes:
        if not person.attributes:
            notes.append(
                f"{person.name}: no <atowAttributes>; MekHQ's default score 5 (modifier 0) "
                f"for {' and '.join(a.title() for a in st.attributes)}"
            )
        for attr in st.attributes:
            score = person.attribute(attr)
            modifier += attribute_modifier(score) if score is not None else 0
    value = max(0, base - modifier)
    if modifier:
        parts = ", ".join(
            f"{a.title()} {score}: {attribute_modifier(score):+d}"
            for a in st.attributes
            if (score := person.attribute(a)) is not None
        )
        notes.append(
            f"{person.name}: {canonical_skill(skill)} {value} = target {st.target} - level "
            f"{level} - bonus {bonus} - attributes {modifier:+d} ({parts})"
        )
    return SkillValue(canonical_skill(skill), value, base, modifier, tuple(notes))


def target_number(person: Person, skill: str, types: tuple[SkillType, ...]) -> int | None:
    found = skill_value(person, skill, types)
    return found.value if found is not None else None


@dataclass(frozen=True)
class UnitCrew:
    """What the import reads of one unit's crew, or why it cannot."""

    unit: CampaignUnit
    kind: UnitKind
    kind_source: KindSource
    people: tuple[Person, ...]
    member: CrewMember | None
    gunnery: SkillValue | None
    piloting: SkillValue | None
    problem: str | None
    notes: tuple[str, ...]


@dataclass(frozen=True)
class CampaignImport:
    campaign: Campaign
    mul: MulFile
    crews: tuple[UnitCrew, ...]
    command: Command
    #: One line for each thing in the file this import does not take.
    not_taken: tuple[str, ...]


def _mean(values: list[int]) -> int:
    # Java's Math.round(double): half up.
    return int(sum(values) / len(values) + 0.5)


def _seated(campaign: Campaign, ids: tuple[str, ...], notes: list[str]) -> list[Person]:
    people = {p.person_id: p for p in campaign.people}
    out = []
    for pid in ids:
        person = people.get(pid)
        if person is None:
            notes.append(f"crew id {pid} names nobody in <personnel>; not seated")
        elif person not in out:
            out.append(person)
    return out


def _role_value(
    role: list[Person], skill: str, campaign: Campaign, kind: UnitKind, notes: list[str]
) -> tuple[SkillValue | None, list[Person]]:
    """MekHQ's value for a role several people fill: the mean over those with the skill."""
    values: list[SkillValue] = []
    lacking: list[Person] = []
    for person in role:
        found = skill_value(person, skill, campaign.skill_types)
        if found is None:
            lacking.append(person)
        else:
            values.append(found)
            notes.extend(found.notes)
    if kind.is_infantry and skill == ANTI_MEK and lacking:
        notes.append(
            f"{', '.join(p.name for p in lacking)}: no {ANTI_MEK}; MekHQ counts "
            f"{INFANTRY_WITHOUT_ANTI_MEK} for them"
        )
        values.extend(
            SkillValue(ANTI_MEK, INFANTRY_WITHOUT_ANTI_MEK, INFANTRY_WITHOUT_ANTI_MEK, 0)
            for _ in lacking
        )
        lacking = []
    if not values:
        return None, lacking
    if len(values) == 1:
        return values[0], lacking
    mean = _mean([v.value for v in values])
    notes.append(f"{skill} {mean}: MekHQ's mean of {len(values)} people, rounded half up")
    return SkillValue(values[0].skill, mean, mean, 0), lacking


def _capped(value: SkillValue, notes: list[str]) -> SkillValue:
    if value.value <= MEGAMEK_CAP:
        return value
    notes.append(f"{value.skill} {value.value} capped at {MEGAMEK_CAP}, as MekHQ hands MegaMek")
    return replace(value, value=MEGAMEK_CAP)


def _crew_name(people: list[Person]) -> str:
    names = [p.name for p in people]
    if len(names) <= 2:
        return " / ".join(names)
    return f"{names[0]} (+{len(names) - 1} crew)"


def read_crew(campaign: Campaign, cu: CampaignUnit, design: UnitDesign | None) -> UnitCrew:
    """The crew of one unit; ``problem`` says why none can be read (no default is invented)."""
    e = cu.entity
    kind, source = (
        (design.kind, KindSource.DESIGN) if design is not None else (
            infer_kind_from_shape(e).kind, KindSource.SHAPE)
    )  # fmt: skip
    notes: list[str] = []
    drivers = _seated(campaign, cu.driver_ids, notes)
    gunners = _seated(campaign, cu.gunner_ids, notes)
    people = list(dict.fromkeys(drivers + gunners))
    if not people:
        return UnitCrew(cu, kind, source, (), None, None, None, None, tuple(notes))
    skills = skills_for(kind, e.movement_mode)
    if skills is None:
        problem = f"a {kind.value.replace('_', ' ')} has no MekHQ gunnery/driving skill pair"
        return UnitCrew(cu, kind, source, tuple(people), None, None, None, problem, tuple(notes))
    if kind in SOLO_KINDS:
        drivers = gunners = people[:1]
        notes.extend(f"{p.name}: seated too; MekHQ plays the first pilot only" for p in people[1:])
    gunnery, no_gun = _role_value(gunners or drivers, skills[0], campaign, kind, notes)
    piloting, no_drive = _role_value(drivers or gunners, skills[1], campaign, kind, notes)
    if gunnery is None or piloting is None:
        who = ", ".join(p.name for p in (no_gun if gunnery is None else no_drive))
        missing = skills[0] if gunnery is None else skills[1]
        problem = f"no {missing} target number for {who or 'the crew'}"
        return UnitCrew(cu, kind, source, tuple(people), None, None, None, problem, tuple(notes))
    gunnery, piloting = _capped(gunnery, notes), _capped(piloting, notes)
    first = (drivers or gunners)[0]
    member = CrewMember(
        name=_crew_name(people),
        gunnery=gunnery.value,
        piloting=piloting.value,
        hits=first.hits,
        external_id=None,
    )
    for p in people:
        if p is not first and p.hits:
            notes.append(
                f"{p.name}: {p.hits} hit(s), not kept (the crew's hits are {first.name}'s)"
            )
    return UnitCrew(cu, kind, source, tuple(people), member, gunnery, piloting, None, tuple(notes))


def campaign_import(
    campaign: Campaign,
    path: str = "<memory>",
    design_for: DesignFor | None = None,
    *,
    strict: bool = True,
) -> CampaignImport:
    """The campaign as a unit list plus what MekHQ says of command and what is left out.

    ``strict`` (``force import``) refuses, in one line, a crewed unit whose skills cannot be
    read; otherwise (``inspect``) the unit is shown with its problem."""
    crews: list[UnitCrew] = []
    for cu in campaign.units:
        design = design_for(cu.entity) if design_for is not None else None
        crew = read_crew(campaign, cu, design)
        if strict and crew.problem is not None:
            e = cu.entity
            raise MulReadError(
                FilePosition(path, e.line),
                f"unit {cu.unit_id} ({e.display_name}): {crew.problem}",
                "give the crew those skills in MekHQ, or import this unit from a MegaMek unit list",
            )
        crews.append(crew)
    places = force_places(campaign.forces)
    command = find_commanders(campaign, crews, places)
    entities = []
    for index, crew in enumerate(crews):
        e = crew.unit.entity
        place = places.get(crew.unit.unit_id)
        entities.append(
            replace(
                e,
                crew=Crew(members=(crew.member,)) if crew.member is not None else None,
                force=place.path if place is not None else e.force,
                commander=True if index in command.force_commanders else e.commander,
            )
        )
    mul = MulFile(
        root=RootKind.UNIT, version=None, entities=tuple(entities), notices=campaign.notices
    )
    return CampaignImport(campaign, mul, tuple(crews), command, left_out(campaign, crews, places))


def campaign_as_mul(campaign: Campaign, path: str = "<memory>") -> MulFile:
    """:func:`campaign_import`'s unit list (strict: a crew that cannot be read is refused)."""
    return campaign_import(campaign, path).mul
