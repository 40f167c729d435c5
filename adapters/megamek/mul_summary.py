"""A person-sized summary of a MUL file: what ``mekref inspect`` shows, as plain data.

Pure: the caller passes a design lookup (the catalog) when it has one, so the unit kind comes
from the design and otherwise from the entity's shape, and the summary says which.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mekref.adapters.megamek.condition import CriticalResults, critical_results
from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.ejections import find_ejections
from mekref.adapters.megamek.kind_inference import infer_kind_from_shape
from mekref.adapters.megamek.mul_model import Entity, Location, MulFile
from mekref.adapters.megamek.unit_kinds import KindSource, UnitKind, location_name

DesignLookup = Callable[[Entity], UnitDesign | None]
JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]


@dataclass(frozen=True)
class CrewSummary:
    name: str
    hits: int
    dead: bool
    ejected: bool
    external_id: str | None


@dataclass(frozen=True)
class AmmoSummary:
    location: str
    slot: int | None
    type: str
    shots: int


@dataclass(frozen=True)
class UnitSummary:
    section: str
    chassis: str
    model: str
    external_id: str | None
    kind: UnitKind
    kind_source: KindSource
    crew: tuple[CrewSummary, ...]
    destroyed_locations: tuple[str, ...]
    damaged_locations: tuple[str, ...]
    ammo: tuple[AmmoSummary, ...]
    ejected_from: str | None
    picked_up_by: str | None
    design: UnitDesign | None
    #: Motive damage, turret lock, stabilisers, vehicle and aerospace criticals (``condition``).
    criticals: CriticalResults | None = None
    #: An aerospace unit's ``<structural integrity>`` and its design's, when known.
    structural_integrity: int | None = None
    structural_integrity_max: int | None = None

    @property
    def state(self) -> str:
        """One word for the table: what a referee would say at a glance."""
        if self.kind is UnitKind.EJECTED_CREW:
            return "ejected crew"
        if self.crew and all(c.dead for c in self.crew):
            return "crew dead"
        if self.destroyed_locations:
            return "locations lost"
        si, most = self.structural_integrity, self.structural_integrity_max
        if self.damaged_locations or self.criticals is not None:
            return "damaged"
        if si is not None and most is not None and si < most:
            return "damaged"
        return "intact"


@dataclass(frozen=True)
class FileSummary:
    path: str
    root: str
    version: str | None
    units: tuple[UnitSummary, ...]
    kills: tuple[tuple[str, str | None], ...]
    notices: tuple[str, ...]
    #: Whether a design catalog was consulted (then every unit reports its design facts).
    designs_looked_up: bool = False


def summarize(mul: MulFile, path: str, design_for: DesignLookup | None = None) -> FileSummary:
    ejections = {id(e.crew_entity): e for e in find_ejections(mul)}
    units = []
    for entity in mul.entities:
        design = design_for(entity) if design_for else None
        kind, source = (
            (design.kind, KindSource.DESIGN)
            if design is not None and not entity.is_ejected_crew
            else _shape(entity)
        )
        ejection = ejections.get(id(entity))
        units.append(
            UnitSummary(
                section=entity.section.value,
                chassis=entity.chassis,
                model=entity.model,
                external_id=entity.external_id,
                kind=kind,
                kind_source=source,
                crew=tuple(
                    CrewSummary(
                        name=m.name,
                        hits=m.hits,
                        dead=m.dead,
                        ejected=bool(entity.crew and entity.crew.ejected),
                        external_id=m.external_id,
                    )
                    for m in entity.members
                ),
                destroyed_locations=tuple(
                    _name(kind, loc.index, loc.name) for loc in entity.locations if loc.lost
                ),
                damaged_locations=tuple(
                    _name(kind, loc.index, loc.name)
                    for loc in entity.locations
                    if not loc.lost and _damaged(loc, design)
                ),
                ammo=tuple(
                    AmmoSummary(_name(kind, loc.index, loc.name), s.index, s.type, s.shots)
                    for loc in entity.locations
                    for s in loc.slots
                    if s.shots is not None
                ),
                ejected_from=(
                    ejection.left_unit.display_name if ejection and ejection.left_unit else None
                ),
                picked_up_by=ejection.picked_up_by if ejection else None,
                design=design,
                criticals=critical_results(entity, kind, design),
                structural_integrity=entity.structural_integrity,
                structural_integrity_max=design.structural_integrity if design else None,
            )
        )
    return FileSummary(
        path=path,
        root=mul.root.value,
        version=mul.version,
        units=tuple(units),
        kills=tuple((k.killed, k.killer) for k in mul.kills),
        notices=tuple(f"line {n.line}: {n.message}" if n.line else n.message for n in mul.notices),
        designs_looked_up=design_for is not None,
    )


def _damaged(loc: Location, design: UnitDesign | None = None) -> bool:
    """MegaMek writes a location's armor (front or rear) and structure only when they differ
    from the design (``EntityListFile.getLocString``): armor written is armor lost, which is
    damage as much as lost structure, a breach or a hit slot. Other writers (mekref's own
    export of a unit that fought) may write a location whole: with the design known, values
    equal to its maxima are not damage."""
    return (
        _below_design(loc, design)
        or loc.blown_off
        or loc.breached
        or loc.stabilizer_hit
        or any(s.damaged for s in loc.slots)
    )


def _below_design(loc: Location, design: UnitDesign | None) -> bool:
    """Whether the armor or structure written for the location is less than the design's."""
    written = (loc.armor, loc.rear, loc.internal)
    if all(v is None for v in written):
        return False
    stats = next((x for x in design.locations if x.index == loc.index), None) if design else None
    if stats is None:
        return True
    full = (stats.armor, stats.rear_armor, stats.internal)
    return any(v is not None and v != m for v, m in zip(written, full, strict=True))


def _shape(entity: Entity) -> tuple[UnitKind, KindSource]:
    guess = infer_kind_from_shape(entity)
    return guess.kind, guess.source


def _name(kind: UnitKind, index: int, written: str) -> str:
    return written or location_name(kind, index) or f"location {index}"


def _json(value: dict[str, object]) -> JsonValue:
    """``as_json``'s builtins (str, int, None, lists and dicts of them) as a ``JsonValue``."""
    out: dict[str, JsonValue] = {}
    for key, item in value.items():
        if isinstance(item, dict):
            out[key] = {str(k): str(v) for k, v in item.items()}
        elif isinstance(item, list):
            out[key] = [str(v) for v in item]
        else:
            out[key] = item if isinstance(item, int | str) or item is None else str(item)
    return out


def summary_to_json(summary: FileSummary) -> dict[str, JsonValue]:
    units: list[JsonValue] = []
    for u in summary.units:
        unit: dict[str, JsonValue] = {
            "section": u.section,
            "chassis": u.chassis,
            "model": u.model,
            "external_id": u.external_id,
            "kind": u.kind.value,
            "kind_source": u.kind_source.value,
            "state": u.state,
            "crew": [
                {
                    "name": c.name,
                    "hits": c.hits,
                    "dead": c.dead,
                    "ejected": c.ejected,
                    "external_id": c.external_id,
                }
                for c in u.crew
            ],
            "destroyed_locations": list(u.destroyed_locations),
            "damaged_locations": list(u.damaged_locations),
            "ammo": [
                {"location": a.location, "slot": a.slot, "type": a.type, "shots": a.shots}
                for a in u.ammo
            ],
            "criticals": None if u.criticals is None else _json(u.criticals.as_json()),
        }
        if u.structural_integrity is not None:
            unit["structural_integrity"] = u.structural_integrity
            unit["structural_integrity_max"] = u.structural_integrity_max
        if u.ejected_from is not None or u.picked_up_by is not None:
            unit["ejected_from"] = u.ejected_from
            unit["picked_up_by"] = u.picked_up_by
        if summary.designs_looked_up:
            d = u.design
            unit["design_found"] = d is not None
            unit["tonnage"] = d.tonnage if d else None
            unit["tech_base"] = d.tech_base.value if d else None
            unit["unit_type"] = d.kind.value if d else None
        units.append(unit)
    return {
        "file": summary.path,
        "root": summary.root,
        "version": summary.version,
        "units": units,
        "kills": [{"killed": k, "killer": by} for k, by in summary.kills],
        "notices": list(summary.notices),
    }
