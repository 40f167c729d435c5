"""Which files in the watched folders are battle files, any letter case: unit lists and records
(``*.mul``) and MegaMek savegames (``*.sav.gz``, ``*.sav``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

SUFFIX = ".mul"
SUFFIXES = (SUFFIX, ".sav.gz", ".sav")


def is_battle_file(path: str | Path) -> bool:
    name = os.path.basename(os.fsdecode(path))
    # Dot-files are editors' and sync tools' temporaries; a rename into place brings the
    # real name, which is what we act on.
    return name.lower().endswith(SUFFIXES) and not name.startswith(".")


def scan_folders(folders: Iterable[Path], *, recursive: bool) -> Iterator[Path]:
    """Every battle file under ``folders`` in name order (a missing folder yields nothing)."""
    for folder in folders:
        if not folder.is_dir():
            continue
        if recursive:
            found = (p for p in folder.rglob("*") if p.is_file() and is_battle_file(p))
        else:
            found = (p for p in folder.iterdir() if p.is_file() and is_battle_file(p))
        yield from sorted(found)
