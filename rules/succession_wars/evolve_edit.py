"""Changing one piece of the Succession Wars state (a House, unit, JumpShip or Leader) while
folding events: the helpers every fold shares."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from mekref.rules.succession_wars.model import SWState

K = TypeVar("K")
V = TypeVar("V")


def put(mapping: Mapping[K, V], key: K, value: V) -> dict[K, V]:
    out = dict(mapping)
    out[key] = value
    return out


def with_house(state: SWState, name: str, **changes: Any) -> SWState:
    return replace(state, houses=put(state.houses, name, replace(state.houses[name], **changes)))


def with_unit(state: SWState, uid: str, **changes: Any) -> SWState:
    return replace(state, units=put(state.units, uid, replace(state.units[uid], **changes)))


def with_ship(state: SWState, sid: str, **changes: Any) -> SWState:
    return replace(
        state, jumpships=put(state.jumpships, sid, replace(state.jumpships[sid], **changes))
    )


def with_leader(state: SWState, lid: str, **changes: Any) -> SWState:
    return replace(state, leaders=put(state.leaders, lid, replace(state.leaders[lid], **changes)))


def move_piece(state: SWState, piece: str, region: str) -> SWState:
    if piece in state.units:
        return with_unit(state, piece, region=region)
    if piece in state.leaders:
        return with_leader(state, piece, region=region)
    return with_ship(state, piece, region=region)
