"""The set-up file's ``[[satellite]]`` tables: the satellites ``turn setup`` places (T-OR1).

Each table is what ``mekref satellite place`` takes: ``id``, ``owner``, ``orbit``
(``geostationary`` or ``lpo``) and ``hex``, with optional ``referee`` and ``reason`` for the
note the placement records. Each becomes a ``PlaceSatellite`` command, so the checks and the
``SatellitePlaced`` event are those of ``satellite place``; this module only reads the tables
and names the entry a refusal comes from.
"""

from __future__ import annotations

from typing import Any

from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.turn.orbit import PlaceSatellite

FIELDS = ("id", "owner", "orbit", "hex")
OPTIONAL = ("referee", "reason")
#: Who the placement's note names when the entry does not say.
FILE_REFEREE = "set-up file"


class SatelliteEntryError(ValueError):
    """A ``[[satellite]]`` table the set-up cannot read; the message names entry and field."""


def entry_name(number: int, entry: Any) -> str:
    sat_id = entry.get("id") if isinstance(entry, dict) else None
    named = f" (id {sat_id!r})" if isinstance(sat_id, str) and sat_id else ""
    return f"[[satellite]] entry {number}{named}"


def satellite_commands(data: dict[str, Any], file_name: str) -> list[PlaceSatellite]:
    """One ``PlaceSatellite`` per ``[[satellite]]`` table, in the file's order."""
    tables = data.get("satellite", [])
    if not isinstance(tables, list):
        raise SatelliteEntryError("satellite: write each satellite as a [[satellite]] table")
    commands = []
    for number, entry in enumerate(tables, start=1):
        where = entry_name(number, entry)
        if not isinstance(entry, dict):
            raise SatelliteEntryError(f"{where}: a table with {', '.join(FIELDS)}")
        unknown = sorted(set(entry) - set(FIELDS) - set(OPTIONAL))
        if unknown:
            raise SatelliteEntryError(
                f"{where}: {unknown[0]}: not a satellite field (fields: "
                f"{', '.join(FIELDS + OPTIONAL)})"
            )
        for key in FIELDS + OPTIONAL:
            value = entry.get(key)
            if value is None and key in OPTIONAL:
                continue
            if not isinstance(value, str) or not value.strip():
                what = "missing" if value is None else f"{value!r} is not text (write it in quotes)"
                raise SatelliteEntryError(f"{where}: {key}: {what}")
        note = RefereeNote(
            referee=str(entry.get("referee", FILE_REFEREE)),
            reason=str(entry.get("reason", f"{where} of {file_name}")),
        )
        commands.append(
            PlaceSatellite(
                actor="referee",
                satellite_id=str(entry["id"]),
                owner=str(entry["owner"]),
                orbit=str(entry["orbit"]),
                hex=str(entry["hex"]),
                note=note,
            )
        )
    return commands
