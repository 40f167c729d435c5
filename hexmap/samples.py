"""Maps bundled with the package, read from package data (never from user paths)."""

from __future__ import annotations

from importlib import resources

from mekref.hexmap.mapfile import parse_map
from mekref.hexmap.model import HexMap

SAMPLE_MAPS = ("ginestra",)


def sample_map_text(name: str) -> str:
    if name not in SAMPLE_MAPS:
        raise KeyError(f"no bundled map {name!r}; bundled: {', '.join(SAMPLE_MAPS)}")
    return resources.files("mekref.hexmap.maps").joinpath(f"{name}.toml").read_text("utf-8")


def sample_map(name: str = "ginestra") -> HexMap:
    return parse_map(sample_map_text(name), f"mekref.hexmap.maps/{name}.toml")
