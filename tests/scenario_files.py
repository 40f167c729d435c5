"""Every MegaMek scenario under a folder is one a host loads and plays: it passes the checker
that follows MegaMek's loader (``check_mms``) and the play check (``check_playable``: real boards
or ``RandomDirs``, crits under both loaders' keys, the options its pilots need switched on in
the options file it names)."""

from __future__ import annotations

from pathlib import Path

from mekref.adapters.megamek.mms_check import check_mms, check_playable, parse_mms
from mekref.adapters.megamek.mms_options import read_game_options


def assert_playable_scenarios(folder: Path) -> int:
    """Check every ``.mms`` under ``folder``; return how many there were."""
    files = sorted(folder.rglob("*.mms"))
    for path in files:
        m = parse_mms(path.read_text(encoding="utf-8"))
        assert check_mms(m) == [], path
        named = m.get("GameOptionsFile")
        options = (
            dict(read_game_options((path.parent / named).read_bytes(), named)) if named else None
        )
        assert check_playable(m, options) == [], path
    return len(files)
