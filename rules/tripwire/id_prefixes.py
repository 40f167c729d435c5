"""Ids as the CLI prints them: a unique prefix of a unit's or a person's id stands for it.

The report and the tables print the first 8 characters of each UUID; a referee who copies one
back (``spend repair --unit 4ef1dd16``) means that unit. A prefix that fits several is refused
with the candidates, never guessed; one that fits none is left as it is, for the rule that
reads it to refuse with its own words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from mekref.rules.messages import Command
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState

#: Command fields that name units or people, and which of the state's tables holds them.
_TABLES = {"unit_id": "unit", "unit_ids": "unit", "person_id": "person", "person_ids": "person"}
#: The most candidates an ambiguous prefix lists.
_SHOWN = 6


def with_full_ids(state: CampaignState, command: Command) -> Command:
    """``command`` with every unique id prefix in its unit and person fields made whole."""
    changes: dict[str, Any] = {}
    for f in fields(command):
        kind = _TABLES.get(f.name)
        if kind is None:
            continue
        table: Mapping[str, Any] = state.units if kind == "unit" else state.people
        value = getattr(command, f.name)
        if isinstance(value, str):
            whole: Any = _whole(value, table, kind)
        elif isinstance(value, tuple) and all(isinstance(v, str) for v in value):
            whole = tuple(_whole(v, table, kind) for v in value)
        else:
            continue
        if whole != value:
            changes[f.name] = whole
    return replace(command, **changes) if changes else command


def _whole(given: str, table: Mapping[str, Any], kind: str) -> str:
    if not given or given in table:
        return given
    fits = sorted(key for key in table if key.startswith(given.lower()))
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        shown = ", ".join(_describe(key, table[key], kind) for key in fits[:_SHOWN])
        more = f" and {len(fits) - _SHOWN} more" if len(fits) > _SHOWN else ""
        raise Refusal(
            "ambiguous_id",
            f"{given!r} begins the id of {len(fits)} {kind}s: {shown}{more}; give more of the id",
        )
    return given


def _describe(key: str, item: Any, kind: str) -> str:
    if kind == "unit":
        return f"{key} ({item.chassis} {item.model}, {item.side_id})"
    return f"{key} ({item.name}, {item.side_id})"
