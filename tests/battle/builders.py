"""Build test files in MegaMek's exact shape with ``write_mul``.

Unit lists (the forces imported before a battle) and battle records are built from
``mul_model`` values and written by the project's writer, the same code that exports scenario
files for MegaMek; reading them back gives the same values. Nothing here edits a real fixture.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from mekref.adapters.megamek.mul_model import (
    Crew,
    CrewMember,
    Entity,
    Kill,
    Location,
    MulFile,
    RootKind,
    Section,
    Slot,
)
from mekref.adapters.megamek.mul_writer import write_mul

UNITS_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "units"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def pilot(name: str, pid: str, gunnery: int = 4, piloting: int = 5, hits: int = 0) -> CrewMember:
    return CrewMember(name=name, gunnery=gunnery, piloting=piloting, hits=hits, external_id=pid)


def mek(
    chassis: str,
    model: str,
    uid: str,
    crew: CrewMember,
    *,
    section: Section = Section.UNIT,
    locations: tuple[Location, ...] = (),
    commander: bool = False,
    ejected: bool = False,
    movement: str = "Biped",
) -> Entity:
    return Entity(
        chassis=chassis,
        model=model,
        movement_mode=movement,
        section=section,
        external_id=uid,
        commander=commander,
        crew=Crew(members=(crew,), size=1, ejected=ejected),
        locations=locations,
    )


def loc(
    index: int,
    name: str,
    *,
    armor: int | None = None,
    internal: int | None = None,
    rear: int | None = None,
    destroyed: bool = False,
    ammo: tuple[tuple[int, str, int], ...] = (),
    hit_slots: tuple[int, ...] = (),
) -> Location:
    slots = tuple(Slot(index=i, type=t, shots=s) for i, t, s in ammo)
    slots += tuple(Slot(index=i, type="System", is_hit=True, is_destroyed=True) for i in hit_slots)
    return Location(
        index=index,
        name=name,
        destroyed=destroyed,
        armor=armor,
        internal=internal,
        rear=rear,
        slots=slots,
    )


def pristine(entity: Entity) -> Entity:
    """The unit as it went into battle: no damage, crew unhurt and aboard."""
    crew = entity.crew
    if crew is not None:
        crew = replace(crew, ejected=False, members=tuple(replace(m, hits=0) for m in crew.members))
    return replace(entity, section=Section.UNIT, crew=crew, locations=())


def unit_list(entities: list[Entity]) -> str:
    return write_mul(MulFile(root=RootKind.UNIT, version="0.49.19", entities=tuple(entities)))


def record(entities: list[Entity], kills: tuple[Kill, ...] = ()) -> str:
    return write_mul(
        MulFile(root=RootKind.RECORD, version="0.49.19", entities=tuple(entities), kills=kills)
    )
