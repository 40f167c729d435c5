"""Who commands in a MekHQ campaign, read as MekHQ records it (ruling R-IMP-4).

- ``Person``'s ``<commander>`` flag marks the campaign commander (``Person.isCommander``): the
  unit that person crews is the Force Commander of its company.
- ``Formation``'s ``<formationCommanderID>`` (``forceCommanderID`` before 0.50.12) is who
  MekHQ says commands a formation: the highest ranked of its units' commanders, skill breaking
  ties, unless the player chose another (``Formation.updateCommander``). A company the flag
  leaves without a Force Commander takes its formation's commander; each lance's formation
  commander is its Lieutenant.

Ranks are what MekHQ used to choose those; this module does not choose again from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mekref.adapters.megamek.mekhq_model import Campaign, Person, TOEForce

if TYPE_CHECKING:
    from mekref.adapters.megamek.mekhq_crew import UnitCrew


@dataclass(frozen=True)
class Place:
    """A unit's place in the TO&E: MegaMek's ``<Force>`` string and its company and lance
    (the formations the import makes its company and lance: the deepest two levels)."""

    path: str
    company: TOEForce
    lance: TOEForce


def force_places(forces: tuple[TOEForce, ...]) -> dict[str, Place]:
    """unit id → its place (``name|id||name|id`` from the top formation down)."""
    out: dict[str, Place] = {}

    def walk(f: TOEForce, trail: tuple[TOEForce, ...]) -> None:
        here = (*trail, f)
        for uid in f.unit_ids:
            path = "||".join(f"{x.name}|{x.force_id}" for x in here)
            out[uid] = Place(path, here[-2] if len(here) > 1 else f, f)
        for child in f.children:
            walk(child, here)

    for f in forces:
        walk(f, ())
    return out


@dataclass(frozen=True)
class Command:
    #: Indices into the campaign's units (and the import's entities).
    force_commanders: frozenset[int]
    lance_leaders: frozenset[int]
    #: How each was found, or why none was: one line each, for the import's output.
    lines: tuple[str, ...]


def _who(p: Person) -> str:
    return p.name + (f" (rank {p.rank})" if p.rank is not None else "")


def _seats(crews: list[UnitCrew]) -> dict[str, int]:
    """person id → the unit they crew (the first, for the rare person in two)."""
    seat: dict[str, int] = {}
    for position, crew in enumerate(crews):
        for p in crew.people if crew.member is not None else ():
            seat.setdefault(p.person_id, position)
    return seat


def _groups(
    crews: list[UnitCrew], places: dict[str, Place]
) -> tuple[list[tuple[TOEForce, list[int]]], list[tuple[TOEForce, list[int]]]]:
    """The companies and the lances of the TO&E, each with the units in it."""
    companies: dict[str, tuple[TOEForce, list[int]]] = {}
    lances: dict[str, tuple[TOEForce, list[int]]] = {}
    for position, crew in enumerate(crews):
        place = places.get(crew.unit.unit_id)
        if place is not None:
            companies.setdefault(place.company.force_id, (place.company, []))[1].append(position)
            lances.setdefault(place.lance.force_id, (place.lance, []))[1].append(position)
    return list(companies.values()), list(lances.values())


def _flagged(campaign: Campaign, crews: list[UnitCrew], seat: dict[str, int]) -> Command:
    """The campaign commander's unit, and any entity MekHQ wrote with ``commander="true"``."""
    lines: list[str] = []
    commanders: set[int] = set()
    for p in campaign.people:
        if not p.commander:
            continue
        found = seat.get(p.person_id)
        if found is None:
            lines.append(f"{_who(p)} is MekHQ's campaign commander but crews no unit")
            continue
        commanders.add(found)
        unit = crews[found].unit.entity.display_name
        lines.append(f"Force Commander: {_who(p)} in {unit} (MekHQ's <commander> flag)")
    for position, crew in enumerate(crews):
        if crew.unit.entity.commander:
            commanders.add(position)
            name = crew.unit.entity.display_name
            lines.append(f'Force Commander: {name} (its entity\'s commander="true")')
    return Command(frozenset(commanders), frozenset(), tuple(lines))


def find_commanders(campaign: Campaign, crews: list[UnitCrew], places: dict[str, Place]) -> Command:
    seat = _seats(crews)
    people = {p.person_id: p for p in campaign.people}
    flagged = _flagged(campaign, crews, seat)
    commanders, lines = set(flagged.force_commanders), list(flagged.lines)
    companies, lances = _groups(crews, places)
    for company, members in companies:
        if commanders.intersection(members):
            continue
        chosen = seat.get(company.commander_id or "")
        if chosen is not None and chosen in members:
            commanders.add(chosen)
            who = _who(people[company.commander_id or ""])
            lines.append(
                f"Force Commander of {company.name}: {who} (MekHQ's commander of that formation)"
            )
        else:
            lines.append(
                f"{company.name}: no Force Commander in the file (no <commander> flag among "
                "its crews, no formation commander crewing one of its units)"
            )
    leaders: set[int] = set()
    for lance, members in lances:
        chosen = seat.get(lance.commander_id or "")
        if chosen is not None and chosen in members:
            leaders.add(chosen)
            who = _who(people[lance.commander_id or ""])
            lines.append(f"{lance.name} is led by {who} (MekHQ's commander of that formation)")
        else:
            lines.append(
                f"{lance.name}: no formation commander in the file; its first unit leads it "
                "(ruling BR-8)"
            )
    return Command(frozenset(commanders), frozenset(leaders), tuple(lines))
