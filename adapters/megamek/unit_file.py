"""Read any MegaMek unit file: dispatch on the extension (``.mtf``, ``.blk``, ``.bfs``)."""

from __future__ import annotations

from pathlib import PurePath

from mekref.adapters.megamek.bfs_reader import parse_bfs
from mekref.adapters.megamek.blk_reader import parse_blk
from mekref.adapters.megamek.design import UnitDesign, UnitFileError
from mekref.adapters.megamek.mtf_reader import decode_text, parse_mtf

#: The largest unit files are WarShip BLKs of a few hundred kB; anything far bigger is not one.
MAX_UNIT_FILE_BYTES = 4 * 1024 * 1024

UNIT_FILE_SUFFIXES = frozenset({".mtf", ".blk", ".bfs"})


def suffix_of(name: str) -> str:
    """``PurePath(name).suffix``, case-folded, without building a path (the catalog asks this
    of every file in a data folder): the last ``.part`` of the last ``/`` component, if the
    name neither starts nor ends with that dot."""
    base = name[name.rfind("/") + 1 :]
    dot = base.rfind(".")
    return base[dot:].casefold() if 0 < dot < len(base) - 1 else ""


def base_name(name: str) -> str:
    """``PurePath(name).name``; a plain file name is its own (the common case, no path built)."""
    if "/" in name or "\\" in name or name in ("", "."):
        return PurePath(name).name
    return name


def is_unit_file(name: str) -> bool:
    return suffix_of(name) in UNIT_FILE_SUFFIXES


def parse_unit_file(data: bytes, name: str) -> UnitDesign:
    """Parse the bytes of a unit file. ``name`` (a file name or archive member) picks the
    format by its extension and names the file in errors and in ``UnitDesign.source_file``."""
    source = base_name(name)
    if len(data) > MAX_UNIT_FILE_BYTES:
        raise UnitFileError(source, f"{len(data)} bytes is too big for a unit file")
    suffix = suffix_of(name)
    text = decode_text(data)
    if suffix == ".mtf":
        return parse_mtf(text, source)
    if suffix == ".blk":
        return parse_blk(text, source)
    if suffix == ".bfs":
        return parse_bfs(text, source)
    raise UnitFileError(source, "not a unit file: expected .mtf, .blk or .bfs")
