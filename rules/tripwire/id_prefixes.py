"""Ids as the CLI prints them: a unique prefix of a unit's, a person's or a battle's id stands
for it, and so does a unit's or a person's name where only one has it.

The report and the tables print the first 8 characters of each UUID; a referee who copies one
back (``spend repair --unit 4ef1dd16``) means that unit. A battle is ``battle-dd489c3039f5``:
``battle-dd48`` or ``dd48`` names it. A unit's name is its chassis and model as the report
prints them (``Atlas AS7-D``), a person's their name (``Katja Roth``), either in any case. A
prefix or a name that fits several is refused with the candidates, never guessed; one that
fits none is left as it is, for the rule that reads it to refuse with its own words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from mekref.rules.messages import Command
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState

#: Command fields that name units, people or battles, and which of the state's tables holds them.
_TABLES = {
    "unit_id": "unit",
    "unit_ids": "unit",
    "pieces": "unit",
    "person_id": "person",
    "person_ids": "person",
    "battle_id": "battle",
}
#: The most candidates an ambiguous prefix lists.
_SHOWN = 6
#: What a battle id begins with before the part the report shows.
_BATTLE = "battle-"


def _table(state: CampaignState, kind: str) -> Mapping[str, Any]:
    if kind == "unit":
        return state.units
    if kind == "person":
        return state.people
    return state.battles.battles


def with_full_ids(state: CampaignState, command: Command) -> Command:
    """``command`` with every unique id prefix or name in its unit, person and battle fields
    made whole."""
    changes: dict[str, Any] = {}
    for f in fields(command):
        kind = _TABLES.get(f.name)
        if kind is None:
            continue
        table = _table(state, kind)
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


def full_battle_id(state: CampaignState, given: str) -> str:
    """The battle ``given`` names (its id, a unique prefix of it with or without ``battle-``);
    ``given`` itself when it names none."""
    return _whole(given, state.battles.battles, "battle")


def full_person_id(state: CampaignState, given: str) -> str:
    """The person ``given`` names (id, unique prefix or name); ``given`` when none."""
    return _whole(given, state.people, "person")


def full_unit_id(state: CampaignState, given: str) -> str:
    """The unit ``given`` names (id, unique prefix or chassis and model); ``given`` when none."""
    return _whole(given, state.units, "unit")


def _fits(given: str, table: Mapping[str, Any], kind: str) -> list[str]:
    """What ``given`` may stand for: the ids it begins and the units or people it names. Both
    are looked at: a person called "Abe" is not silently the unit whose id begins "abe"; when
    the two disagree, the caller refuses with every candidate."""
    low = given.lower()
    fits = {key for key in table if key.startswith(low)}
    if not fits and kind == "battle":
        fits = {key for key in table if key.startswith(_BATTLE + low)}
    if kind != "battle":
        wanted = " ".join(given.split()).casefold()
        fits |= {key for key, item in table.items() if _name(item, kind) == wanted}
    return sorted(fits)


def _whole(given: str, table: Mapping[str, Any], kind: str) -> str:
    if not given or given in table:
        return given
    fits = _fits(given, table, kind)
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        shown = ", ".join(_describe(key, table[key], kind) for key in fits[:_SHOWN])
        more = f" and {len(fits) - _SHOWN} more" if len(fits) > _SHOWN else ""
        if any(_name(table[key], kind) == " ".join(given.split()).casefold() for key in fits):
            said, hint = "is the name of", "give its id (the report prints it)"
        else:
            said, hint = "begins the id of", "give more of the id"
        raise Refusal(
            "ambiguous_id", f"{given!r} {said} {len(fits)} {kind}s: {shown}{more}; {hint}"
        )
    return given


def _name(item: Any, kind: str) -> str:
    """A unit's or a person's name as matched (spaces folded, any case); a battle has none."""
    if kind == "battle":
        return ""
    text = f"{item.chassis} {item.model}" if kind == "unit" else str(item.name)
    return " ".join(text.split()).casefold()


def _describe(key: str, item: Any, kind: str) -> str:
    if kind == "unit":
        return f"{key} ({item.chassis} {item.model}, {item.side_id})"
    if kind == "person":
        return f"{key} ({item.name}, {item.side_id})"
    return f"{key} (#{item.number}, {item.status.value})"
