"""Build test files: unit lists from records (same externalIds, undamaged), and battle records.

Everything is written with ``write_mul`` so the files have MegaMek's exact shape.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.adapters.megamek.mul_model import Entity, MulFile, RootKind, Section
from mekref.adapters.megamek.mul_writer import write_mul


def pristine(entity: Entity) -> Entity:
    """The unit as it went into battle: no damage, crew unhurt and aboard."""
    crew = entity.crew
    if crew is not None:
        crew = replace(crew, ejected=False, members=tuple(replace(m, hits=0) for m in crew.members))
    return replace(entity, section=Section.UNIT, crew=crew, locations=())


def unit_list(entities: list[Entity]) -> str:
    return write_mul(MulFile(root=RootKind.UNIT, version="0.49.19", entities=tuple(entities)))


def record(entities: list[Entity], kills: tuple[object, ...] = ()) -> str:
    return write_mul(
        MulFile(root=RootKind.RECORD, version="0.49.19", entities=tuple(entities), kills=kills)  # type: ignore[arg-type]
    )
