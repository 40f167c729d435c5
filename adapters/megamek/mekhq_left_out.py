"""What a MekHQ campaign holds that ``force import`` does not take: one line each, so nothing
is dropped without a word (advanced-medical injuries, special abilities, people seated in no
unit, crew seats the import does not fill, units outside the TO&E)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mekref.adapters.megamek.mekhq_model import Campaign

if TYPE_CHECKING:
    from mekref.adapters.megamek.mekhq_command import Place
    from mekref.adapters.megamek.mekhq_crew import UnitCrew

#: Never read: the campaign's economy and history are MekHQ's, not the rule set's.
ALWAYS_LEFT = (
    "parts in stock, finances, contracts, missions and scenarios, markets, MekHQ's own unit "
    "and person ids (every unit and person gets a mekref id; an entity's externalId is kept)"
)


def injury_notes(campaign: Campaign, crew: UnitCrew) -> list[str]:
    """Advanced-medical injuries of the people in a unit: shown, not kept (R-IMP-3 keeps
    ``<hits>``, which MekHQ's advanced medical leaves at 0)."""
    out = []
    for p in crew.people:
        for injury in p.injuries:
            out.append(f"{p.name}: injury (not kept, only <hits> are): {injury.describe()}")
        if p.injuries and campaign.advanced_medical:
            out.append(
                f"{p.name}: MekHQ adds its advanced-medical injury modifiers to Gunnery "
                "(Unit.assignToCrewSlot); not applied here"
            )
    return out


def unit_notes(campaign: Campaign, crew: UnitCrew) -> list[str]:
    """Everything said about one unit's crew: skills' arithmetic, injuries, abilities."""
    out = list(crew.notes)
    for value in (crew.gunnery, crew.piloting):
        if value is not None:
            out.extend(n for n in value.notes if n not in out)
    out.extend(injury_notes(campaign, crew))
    for p in crew.people:
        if p.abilities:
            out.append(f"{p.name}: special abilities, edge and implants not taken: "
                       + "; ".join(p.abilities))  # fmt: skip
    people = {p.person_id: p for p in campaign.people}
    others = [people[i].name if i in people else i for i in crew.unit.other_crew_ids]
    if others:
        out.append("vessel crew, navigator or tech officer not seated: " + ", ".join(others))
    return out


def left_out(
    campaign: Campaign, crews: list[UnitCrew], places: dict[str, Place]
) -> tuple[str, ...]:
    seated = {p.person_id for crew in crews for p in crew.people}
    spare = [p.name or p.person_id for p in campaign.people if p.person_id not in seated]
    lines = [ALWAYS_LEFT]
    if spare:
        who = "person" if len(spare) == 1 else "people"
        lines.append(f"{len(spare)} {who} seated in no unit: " + ", ".join(spare))
    outside = [c.unit.entity.display_name for c in crews if c.unit.unit_id not in places]
    if outside:
        lines.append(
            f"{len(outside)} unit(s) in no formation of the TO&E (companies and lances made by "
            "order): " + ", ".join(outside)
        )
    return tuple(lines)
