"""What goes to MegaMek about a crew: the imported list's abilities and edge, and the
commander's flag, edge and initiative bonus derived by the rules (ruling R-CMD-4).

L26: "Force commanders provide an initiative bonus while they are in play ... Each Commander
(Company or Lance) also has edge point they can spend which reset each battle." L27: "Players
may select each of their Force Commander to have Special Pilot Abilities". The rules set the
commander flag, the Force Commander's command initiative bonus (MegaMek's ``commandB``, the L29
Skill Bonus) and each commander's edge points (L31-34); everything else MegaMek knows of a
person (abilities, edge triggers, implants, ``initB``, auto-ejection, nickname) goes out as the
imported list had it. Attribute names are MegaMek's (``EntityListFile.writeCrewAttributes``,
read back by ``MULParser``; ``ScenarioV1``'s ``Advantages``/``Commander``/``AutoEject`` keys).
"""

from __future__ import annotations

from collections.abc import Sequence

from mekref.adapters.megamek.mul_model import Crew, CrewMember
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.commanders import CommanderStanding
from mekref.rules.tripwire.model import MegaMekCrew
from mekref.rules.tripwire.state import Person

#: MegaMek's edge-count option: ``edge N`` in the list's ``edge`` attribute.
EDGE_OPTION = "edge"
_IMPLANTS = "implants"


def imported_crew(crew: Crew | None, member: CrewMember) -> MegaMekCrew | None:
    """What the list said of ``member`` (and the crew-wide values of their ``crew``) that the
    campaign keeps; None when it said nothing beyond name and skills."""
    wide = crew or Crew(members=())
    implants = tuple(
        item
        for name, value in wide.extra
        if name == _IMPLANTS
        for item in value.split("::")
        if item
    )
    kept = MegaMekCrew(
        nick=member.nick,
        gender=member.gender or "",
        clanperson=member.clanperson,
        toughness=member.toughness or 0,
        advantages=wide.advantages,
        edge=wide.edge,
        implants=implants,
        init_bonus=wide.init_bonus or 0,
        command_bonus=wide.command_bonus or 0,
        autoeject=wide.autoeject,
    )
    return None if kept == MegaMekCrew() else kept


def edge_points(edge: Sequence[str]) -> int:
    for item in edge:
        name, _, value = item.partition(" ")
        if name == EDGE_OPTION and value.strip().isdigit():
            return int(value)
    return 0


def with_edge_points(edge: Sequence[str], points: int) -> tuple[str, ...]:
    """``edge`` with its point count set to ``points`` (the triggers kept, in order)."""
    triggers = tuple(i for i in edge if i.partition(" ")[0] != EDGE_OPTION)
    return ((f"{EDGE_OPTION} {points}",) if points > 0 else ()) + triggers


@record
class CrewExport(Record):
    """The crew-wide values a unit's crew goes out with, and what the rules changed."""

    commander: bool
    ruled: bool  # a commander in play: commandB and edge points are the rules', not the list's
    command_bonus: int
    edge: tuple[str, ...]
    advantages: tuple[str, ...]
    implants: tuple[str, ...]
    init_bonus: int
    autoeject: bool | None
    notes: tuple[str, ...]  # where the rules' value differs from the imported one


def crew_export(
    unit_name: str,
    people: Sequence[Person],
    standing: CommanderStanding | None,
) -> CrewExport:
    """The crew-wide values of a unit crewed by ``people`` (first seat first), the unit being
    a commander's (``standing``) or not (None)."""
    first = people[0].megamek if people and people[0].megamek is not None else MegaMekCrew()
    notes: list[str] = []
    in_play = standing is not None and standing.in_play
    commander = in_play and standing is not None and standing.force_commander
    command_bonus = first.command_bonus
    edge = first.edge
    if standing is not None and in_play:
        rule_bonus = standing.skill_bonus if standing.force_commander else 0
        if rule_bonus != first.command_bonus:
            command_bonus = rule_bonus
            notes.append(
                f"{unit_name}: commandB {rule_bonus} (the Force Commander's Skill Bonus, L29; "
                f"the list had {first.command_bonus}); MegaMek adds it to initiative with its "
                "command_init game option"
            )
        if standing.edge != edge_points(first.edge):
            notes.append(
                f"{unit_name}: edge {standing.edge} ({standing.level or 'no'} commander, L26; "
                f"the list had {edge_points(first.edge)})"
            )
            edge = with_edge_points(first.edge, standing.edge)
    else:
        # Not a commander in play: what the list had goes out, but the text gives neither.
        if first.command_bonus:
            notes.append(
                f"{unit_name}: commandB {first.command_bonus} kept from the list, though L26 "
                "gives the initiative bonus to the Force Commander only (referee's call)"
            )
        if edge_points(first.edge):
            notes.append(
                f"{unit_name}: edge {edge_points(first.edge)} kept from the list, though L26 "
                "gives edge to commanders only (referee's call)"
            )
    return CrewExport(
        commander=commander,
        ruled=in_play,
        command_bonus=command_bonus,
        edge=edge,
        advantages=first.advantages,
        implants=first.implants,
        init_bonus=first.init_bonus,
        autoeject=first.autoeject,
        notes=tuple(notes),
    )


def member_of(person: Person) -> CrewMember:
    """The person as one MegaMek crew member (name, skills, hits, id, and what the list said)."""
    kept = person.megamek or MegaMekCrew()
    return CrewMember(
        name=person.name,
        nick=kept.nick,
        gender=kept.gender or None,
        clanperson=kept.clanperson,
        gunnery=person.gunnery,
        piloting=person.piloting,
        toughness=kept.toughness or None,
        hits=person.hits,
        external_id=person.person_id,
    )
