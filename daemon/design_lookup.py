"""Find unit designs for MUL entities from a folder the user names (the CLI's ``--units-dir``)."""

from __future__ import annotations

from pathlib import Path

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import Entity
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.adapters.megamek.unit_file import is_unit_file, parse_unit_file


class CatalogUnavailable(Exception):
    """The units folder cannot be used; the message says what to do."""


def _key(chassis: str, model: str) -> str:
    return " ".join(f"{chassis} {model}".split()).casefold()


def catalog_lookup(units_dir: Path, *, progress: bool = True) -> DesignLookup:
    if not units_dir.is_dir():
        raise CatalogUnavailable(
            f"{units_dir}: not a folder; pass MegaMek's data/mekfiles folder to --units-dir"
        )
    designs: dict[str, UnitDesign] = {}
    for path in sorted(units_dir.rglob("*")):
        if path.is_file() and is_unit_file(path.name):
            design = parse_unit_file(path.read_bytes(), path.name)
            designs[_key(design.chassis, design.model)] = design

    def lookup(entity: Entity) -> UnitDesign | None:
        return designs.get(_key(entity.chassis, entity.model))

    return lookup
