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


def _candidate(path: Path) -> bool:
    # Anything named like a battle file but a real folder: FIFOs, devices and links too, so
    # the pipeline skips them with a logged reason (without opening them) instead of their
    # being passed over in silence.
    return is_battle_file(path) and (path.is_symlink() or not path.is_dir())


def scan_folders(folders: Iterable[Path], *, recursive: bool) -> Iterator[Path]:
    """Every battle file under ``folders`` in name order (a missing folder yields nothing)."""
    for folder in folders:
        if not folder.is_dir():
            continue
        if recursive:
            found = (p for p in folder.rglob("*") if _candidate(p))
        else:
            found = (p for p in folder.iterdir() if _candidate(p))
        yield from sorted(found)
