"""The campaign's hex map, parsed once per map text (the state keeps the text, not the parse)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from mekref import hexmap
from mekref.hexmap import Hex, label, parse_label
from mekref.hexmap.geometry import LabelError
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.turn.state import IN_ORBIT, StrategicState

if TYPE_CHECKING:
    from mekref.hexmap import HexMap


@lru_cache(maxsize=16)
def _parse(name: str, text: str) -> HexMap:
    # Read through the package, which loads the map reader (tomllib, the bundled tables) on
    # first use: a command that folds a campaign but reads no map (status) does not pay for it.
    return hexmap.sample_map(name) if not text else hexmap.parse_map(text, name)


def hexmap_of(strategic: StrategicState) -> HexMap:
    return _parse(strategic.map_name, strategic.map_text)


@lru_cache(maxsize=65536)
def _hex(text: str) -> Hex:
    return parse_label(text)


def hex_at(text: str) -> Hex:
    """The hex of a label (cached: a day's resolution reads the same labels many times)."""
    return _hex(text)


def to_hex(text: str) -> Hex | None:
    return None if text == IN_ORBIT else _hex(text)


def to_label(h: Hex | None) -> str:
    return IN_ORBIT if h is None else label(h)


def map_label(s: StrategicState, text: str, field: str) -> str:
    """The label of a hex a command names in ``field``, refused unless it is a hex of the map."""
    try:
        h = parse_label(text)
    except LabelError as exc:
        raise Refusal("illegal_path", f"{field}: {exc}") from None
    if not hexmap_of(s).in_bounds(h):
        raise Refusal("illegal_path", f"{field}: {text} is off the map")
    return label(h)
