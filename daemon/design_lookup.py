"""Find unit designs for MUL entities in a folder the user names (the CLI's ``--units-dir``).

The folder is indexed once through the unit catalog (loose files and zip archives) with a cache
under the user's cache directory, so a MegaMek data folder of tens of thousands of files is
parsed once and re-read only where files changed. A progress bar shows the first build.
"""

from __future__ import annotations

import os
from pathlib import Path

from mekref.adapters.megamek.catalog import CatalogEntry, CatalogIndex, LookupStatus
from mekref.adapters.megamek.design import UnitDesign, UnitFileError
from mekref.adapters.megamek.kind_inference import infer_kind_from_shape
from mekref.adapters.megamek.mul_model import Entity
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.daemon.unit_catalog import load_design, scan_folder


class CatalogUnavailable(Exception):
    """The units folder cannot be used; the message says what to do."""


def cache_dir() -> Path:
    base = os.environ.get("MEKREF_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    return Path(base) / "mekref" if base else Path.home() / ".cache" / "mekref"


def index_folder(units_dir: Path, *, progress: bool = True) -> CatalogIndex:
    if not units_dir.is_dir():
        raise CatalogUnavailable(
            f"{units_dir}: not a folder; pass MegaMek's data/mekfiles folder to --units-dir"
        )
    if not progress:
        return scan_folder(units_dir, cache_dir())
    # rich loads when a bar is drawn (the CLI reads folders without one).
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("indexing unit files"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    ) as bar:
        task = bar.add_task("index", total=None)

        def advance(done: int, total: int, _path: str) -> None:
            bar.update(task, completed=done, total=total)

        return scan_folder(units_dir, cache_dir(), advance)


def catalog_lookup(units_dir: Path, *, progress: bool = True) -> DesignLookup:
    index = index_folder(units_dir, progress=progress)
    designs: dict[CatalogEntry, UnitDesign | None] = {}

    def lookup(entity: Entity) -> UnitDesign | None:
        found = index.lookup(entity.chassis, entity.model, uuid=entity.unit_file_uuid)
        if found.status is LookupStatus.AMBIGUOUS:
            # One name, two designs of different kinds (MegaMek ships "Foot Platoon (Rifle)" as
            # infantry and as a battlefield support asset): the entity's shape picks the kind.
            kind = infer_kind_from_shape(entity).kind
            if kind is not UnitKind.UNKNOWN:
                found = index.lookup(
                    entity.chassis, entity.model, uuid=entity.unit_file_uuid, kind=kind
                )
        if not found.found or found.entry is None:
            return None
        if found.entry not in designs:
            try:
                designs[found.entry] = load_design(found.entry)
            except (OSError, UnitFileError):
                designs[found.entry] = None
        return designs[found.entry]

    return lookup
