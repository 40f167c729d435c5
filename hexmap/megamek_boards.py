"""Which MegaMek board stands for a TripWire map sheet, and where a sheet without one is drawn
from: the shipped mapping (``data/megamek_boards.toml``) and a referee's file of the same shape
laid over it. Pure: text in, mapping out (the shipped file is package data).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from mekref.hexmap.tables import load_data


@dataclass(frozen=True, kw_only=True)
class BoardMap:
    boards: Mapping[str, str]  # map sheet -> board path under data/boards, no ".board"
    random_dirs: tuple[str, ...]  # folders under data/boards a RANDOM sheet is drawn from


def _board_map(data: Mapping[str, object], source: str) -> BoardMap:
    boards = data.get("boards", {})
    dirs = data.get("random_dirs", [])
    if not isinstance(boards, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in boards.items()
    ):
        raise ValueError(f"{source}: [boards] must map sheet names to board paths")
    if not isinstance(dirs, list) or not all(isinstance(d, str) and "," not in d for d in dirs):
        raise ValueError(f"{source}: random_dirs must be a list of folder names without commas")
    unknown = sorted(set(data) - {"boards", "random_dirs"})
    if unknown:
        raise ValueError(f"{source}: unknown key(s) {unknown} (boards, random_dirs)")
    return BoardMap(
        boards={k: v.strip().removesuffix(".board") for k, v in boards.items()},
        random_dirs=tuple(dirs),
    )


def parse_board_map(text: str, source: str) -> BoardMap:
    """A referee's board mapping (TOML: ``random_dirs = [...]``, ``[boards]`` sheet = board).
    ValueError, one line, when it is not one."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not TOML ({exc})") from exc
    return _board_map(data, source)


@cache
def shipped_board_map() -> BoardMap:
    return _board_map(load_data("megamek_boards.toml"), "megamek_boards.toml")


def laid_over(base: BoardMap, extra: BoardMap) -> BoardMap:
    """``extra``'s boards over ``base``'s; its random folders when it names any."""
    return BoardMap(
        boards={**base.boards, **extra.boards},
        random_dirs=extra.random_dirs or base.random_dirs,
    )
