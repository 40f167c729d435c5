"""What ``mekhq_reader`` takes from a MekHQ campaign: plain frozen data, no XML."""

from __future__ import annotations

from dataclasses import dataclass

from mekref.adapters.megamek.mekhq_skills import canonical_skill, same_skill
from mekref.adapters.megamek.mul_model import Entity, Notice


@dataclass(frozen=True)
class SkillType:
    """One ``<skillType>`` of the campaign's own table (a group may have changed them)."""

    name: str
    target: int
    count_up: bool
    #: ``firstAttribute``/``secondAttribute`` (0.50.05 on), ``NONE`` left out; () before.
    attributes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Injury:
    """One advanced-medical ``<injury>`` (``Injury.java``: one element per field)."""

    description: str
    type: str
    location: str
    severity: int | None
    days: int | None
    permanent: bool

    def describe(self) -> str:
        what = self.description or self.type.replace("_", " ").lower() or "injury"
        where = self.location.replace("_", " ").lower()
        parts = [what if not where or where in what.lower() else f"{what} ({where})"]
        if self.severity is not None:
            parts.append(f"severity {self.severity}")
        if self.permanent:
            parts.append("permanent")
        elif self.days is not None:
            parts.append(f"{self.days} days to heal")
        return "; ".join(parts)


@dataclass(frozen=True)
class Person:
    person_id: str
    name: str
    primary_role: str | None
    hits: int
    unit_id: str | None
    #: (skill name as written, level, bonus)
    skills: tuple[tuple[str, int, int], ...]
    #: ``<rank>``: the index in the campaign's rank system (higher outranks), None if absent.
    rank: int | None = None
    #: ``<commander>true</commander>``: MekHQ's campaign commander (``Person.isCommander``).
    commander: bool = False
    injuries: tuple[Injury, ...] = ()
    #: ``<atowAttributes>`` (0.50.05 on): attribute name upper-case → score; () when absent.
    attributes: tuple[tuple[str, int], ...] = ()
    #: Special abilities, edge and implants as written (``::``-separated lists).
    abilities: tuple[str, ...] = ()
    status: str | None = None

    def skill(self, name: str) -> tuple[int, int] | None:
        """(level, bonus) of a skill under its current or any older MekHQ name."""
        for written, level, bonus in self.skills:
            if same_skill(written, name):
                return level, bonus
        return None

    def attribute(self, name: str) -> int | None:
        for attr, score in self.attributes:
            if attr == name.upper():
                return score
        return None


@dataclass(frozen=True)
class TOEForce:
    force_id: str
    name: str
    unit_ids: tuple[str, ...]
    children: tuple[TOEForce, ...]
    #: ``formationCommanderID`` / ``forceCommanderID``: who MekHQ says commands it (0.49 on).
    commander_id: str | None = None


@dataclass(frozen=True)
class CampaignUnit:
    unit_id: str
    entity: Entity
    driver_id: str | None
    gunner_id: str | None
    force_id: str | None
    #: Every ``<driverId>``/``<gunnerId>`` in file order (vehicles and infantry have several).
    driver_ids: tuple[str, ...] = ()
    gunner_ids: tuple[str, ...] = ()
    #: ``<vesselCrewId>``, ``<navigatorId>``, ``<techOfficerId>``: people this import does not seat.
    other_crew_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Campaign:
    name: str
    units: tuple[CampaignUnit, ...]
    people: tuple[Person, ...]
    forces: tuple[TOEForce, ...]
    skill_types: tuple[SkillType, ...]
    notices: tuple[Notice, ...] = ()
    #: ``<campaign version="...">``; None for early files that wrote none.
    version: str | None = None
    #: ``campaignOptions/useAdvancedMedical``: MekHQ then adds injury modifiers to Gunnery.
    advanced_medical: bool = False

    def skill_type(self, name: str) -> SkillType | None:
        want = canonical_skill(name).lower()
        return next((t for t in self.skill_types if canonical_skill(t.name).lower() == want), None)
