"""Link ejected crews (their own entities in a MUL) to the unit they left and their rescuer.

MegaMek gives an ejected crew a fresh entity whose ``<pilot>`` repeats the person's externalId,
so the unit they left is the one whose crew lists the same person as ``ejected="true"``. Without
person ids the pilot's name is the only link; a name shared by several units is reported as
ambiguous rather than guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

from mekref.adapters.megamek.mul_model import Entity, MulFile


@dataclass(frozen=True)
class Ejection:
    crew_entity: Entity
    #: The unit the crew left, when the file allows knowing it.
    left_unit: Entity | None
    #: The externalId of the unit that picked them up (``pickUpId``), if any.
    picked_up_by: str | None
    #: Units that could have been left, when names alone could not decide.
    ambiguous_candidates: tuple[Entity, ...] = ()


def find_ejections(mul: MulFile) -> tuple[Ejection, ...]:
    units = [e for e in mul.entities if not e.is_ejected_crew]
    found: list[Ejection] = []
    for crew in (e for e in mul.entities if e.is_ejected_crew):
        candidates = _units_left(crew, units)
        found.append(
            Ejection(
                crew_entity=crew,
                left_unit=candidates[0] if len(candidates) == 1 else None,
                picked_up_by=crew.pick_up_id,
                ambiguous_candidates=tuple(candidates) if len(candidates) > 1 else (),
            )
        )
    return tuple(found)


def _units_left(crew: Entity, units: list[Entity]) -> list[Entity]:
    ids = {m.external_id for m in crew.members if m.external_id}
    if ids:
        by_id = [u for u in units if any(m.external_id in ids for m in u.members)]
        if by_id:
            return _dedupe(by_id)
    names = {m.name for m in crew.members if m.name} | ({crew.model} if crew.model else set())
    return _dedupe(
        [u for u in units if u.crew and u.crew.ejected and any(m.name in names for m in u.members)]
    )


def _dedupe(units: list[Entity]) -> list[Entity]:
    # The same unit can appear in two sections of one record only by external id; keep one.
    seen: set[str] = set()
    out: list[Entity] = []
    for u in units:
        key = u.external_id or f"{u.display_name}@{u.line}"
        if key not in seen:
            seen.add(key)
            out.append(u)
    return out
