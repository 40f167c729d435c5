"""Scenario export as one MegaMek scenario file per engagement (both sides, for the host).

Takes the entities the unit-list export already builds (``export.scenario_entities``: the one
source of each unit's condition) and lays the engagement on them: factions with player names,
boards for the map sheets MegaMek has, deployment edges, arrival rounds, weather, game options.
Rulings (docs/megamek-adapter.md, "Scenario files"):

- Edges: the map sheets are stacked north to south; in an assault the defender holds the north
  edge and the attacker enters from the south; in a meeting engagement the sides take north and
  south in the engagement's order (further sides: east, west).
- Arrivals: a lance arriving on turn *t* gets ``DeploymentRound=t``; turn 0 deploys at the
  start; a lance that cannot arrive (immobile) is left out and named in the notes.
- Weather: TripWire's rows map onto MegaMek's ``Weather`` and ``Wind`` enums (rain, since the
  rows say "rain and wind/snow" and rain is the first reading); cloud cover has no MegaMek
  condition; "not recorded" sets no condition at all.
- Ambush: the ``hidden_units`` game option goes on, so the ambusher (and a side on Guard) can
  deploy hidden; key=value scenarios cannot mark single units hidden.
- Options (ruling MMS-5): the options the content needs (``edge``, ``pilot_advantages``,
  ``manei_domini``, ``hidden_units``) are switched on over the host's own options when the
  referee gives them, else over MegaMek's defaults (and the export says so).
- Random boards (ruling MMS-6): a sheet without a board is ``RANDOM``, drawn from the stock
  folders of 16 x 17 map sheets (``RandomDirs``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from mekref.adapters.megamek.mms_condition import AERO, BATTLE_ARMOR, INFANTRY, MEK, TANK
from mekref.adapters.megamek.mms_options import HIDDEN_UNITS, content_options, merged_options
from mekref.adapters.megamek.mms_writer import (
    RANDOM_BOARD,
    MmsConditions,
    MmsFaction,
    MmsScenario,
    MmsUnit,
    player_name,
)
from mekref.adapters.megamek.mul_model import Entity
from mekref.hexmap.megamek_boards import shipped_board_map
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.state import CampaignState, CampaignUnit
from mekref.rules.tripwire.turn import weather
from mekref.rules.tripwire.turn.common import strategic_of
from mekref.rules.tripwire.turn.engagement import KIND_NAMES, hold_the_line_hexes
from mekref.rules.tripwire.turn.export import engagement
from mekref.rules.tripwire.turn.state import EngagementSetup, StrategicState

#: TripWire weather row -> (MegaMek ``Weather`` index, ``Wind`` index). Weather: 0 clear,
#: 1 light rain, 2 moderate rain, 3 heavy rain, 5 torrential downpour; wind: 0 calm,
#: 1 light gale, 2 moderate gale, 3 strong gale, 4 storm, 5 tornado F1-F3.
WEATHER_TO_MEGAMEK = {0: (0, 0), 1: (0, 0), 2: (0, 0), 3: (1, 1), 4: (2, 2), 5: (3, 3), 6: (5, 4)}
TORNADO_WIND = 5
HIDDEN_UNITS_OPTION = HIDDEN_UNITS
_EDGES = ("N", "S", "E", "W")
#: The MegaMek entity class each kind of campaign unit is built as (``mms_condition``).
_UNIT_CLASS = {
    UnitKind.MEK: MEK, UnitKind.COMBAT_VEHICLE: TANK, UnitKind.VTOL: TANK,
    UnitKind.SUPPORT_VEHICLE: TANK, UnitKind.AEROSPACE_FIGHTER: AERO, UnitKind.DROPSHIP: AERO,
    UnitKind.BATTLE_ARMOR: BATTLE_ARMOR, UnitKind.CONVENTIONAL_INFANTRY: INFANTRY,
}  # fmt: skip


@record
class MmsExport(Record):
    scenario: MmsScenario
    options: tuple[tuple[str, str], ...]  # the options file's pairs (host's, then switched)
    switched: tuple[tuple[str, str], ...]  # what mekref switches, each with why
    missing_boards: tuple[str, ...]  # map sheets with no MegaMek board of that name


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def match_boards(sheets: Sequence[str], boards: Iterable[str]) -> dict[str, str]:
    """Map sheet name -> MegaMek board (its path under ``data/boards`` without ``.board``),
    when a board's file name is the sheet's name (letters and digits compared, any case)."""
    by_name: dict[str, str] = {}
    for b in sorted(boards):
        by_name.setdefault(_norm(b.rsplit("/", 1)[-1]), b)
    return {s: by_name[_norm(s)] for s in sheets if _norm(s) in by_name}


def resolve_boards(
    sheets: Sequence[str], mapped: Mapping[str, str], listed: Sequence[str] | None
) -> tuple[dict[str, str], tuple[str, ...]]:
    """Map sheet -> MegaMek board, and what to warn about (ruling MMS-7). A sheet the board
    mapping names goes in as mapped, unless a board list (``--boards-dir``) is given that lacks
    that board; otherwise a listed board of the sheet's name (``match_boards``); else none."""
    by_name = match_boards(sheets, listed) if listed is not None else {}
    have = set(listed) if listed is not None else None
    out: dict[str, str] = {}
    warnings: list[str] = []
    for sheet in sheets:
        board = mapped.get(sheet)
        if board is not None and (have is None or board in have):
            out[sheet] = board
            continue
        if board is not None:
            warnings.append(f"{sheet}: mapped to {board}, which --boards-dir does not hold")
        if sheet in by_name:
            out[sheet] = by_name[sheet]
    return out, tuple(warnings)


def conditions_of(text: str) -> MmsConditions | None:
    """MegaMek's conditions for an engagement's weather text (None: not recorded)."""
    for level in range(weather.levels()):
        name = weather.level_name(level)
        if text == name or text.startswith(name + ", "):
            wx, wind = WEATHER_TO_MEGAMEK[level]
            if text.endswith(", tornado"):
                wind = TORNADO_WIND
            return MmsConditions(weather=wx, wind=wind)
    return None


def _edges(sides: Sequence[str], attacker: str | None) -> dict[str, str]:
    if attacker is not None and len(sides) == 2:
        defender = next(s for s in sides if s != attacker)
        return {defender: "N", attacker: "S"}
    return {side: _EDGES[n % len(_EDGES)] for n, side in enumerate(sides)}


def _factions(
    s: StrategicState,
    e: EngagementSetup,
    entities: Mapping[str, Sequence[tuple[CampaignUnit, Entity]]],
    names: Mapping[str, str],
    edges: Mapping[str, str],
    notes: list[str],
) -> list[MmsFaction]:
    """Each side's units with the round they arrive in; a unit that cannot arrive is left out
    with a note (appended to ``notes``)."""
    arrival = {(a.formation_id, a.lance): a.turn for a in e.arrivals}
    formation_of = {
        u: fid for fid in e.formations if fid in s.formations for u in s.formations[fid].unit_ids
    }
    factions = []
    for side in e.sides:
        units = []
        for unit, entity in entities.get(side, ()):
            fid = formation_of.get(unit.unit_id, "")
            turn = arrival.get((fid, unit.lance), 0)
            if turn is None:
                notes.append(
                    f"{names[side]}: {unit.chassis} {unit.model} ({unit.unit_id}) cannot arrive "
                    "(immobile) and is not in the scenario"
                )
                continue
            units.append(
                MmsUnit(
                    entity=entity,
                    deployment_round=turn,
                    commander=entity.commander is True,
                    unit_class=_UNIT_CLASS.get(unit.kind),
                )
            )
        factions.append(MmsFaction(name=names[side], location=edges[side], units=tuple(units)))
    return factions


def engagement_scenario(
    state: CampaignState,
    engagement_id: str,
    entities: Mapping[str, Sequence[tuple[CampaignUnit, Entity]]],
    *,
    boards: Mapping[str, str] | None = None,
    players: Mapping[str, str] | None = None,
    options: Sequence[tuple[str, str]] = (),
    options_file: str | None = None,
    host_options: Sequence[tuple[str, str]] | None = None,
    random_dirs: Sequence[str] | None = None,
) -> MmsExport:
    """The engagement as a MegaMek scenario.

    ``entities``: by side, each committed unit with its MUL entity (``scenario_entities``);
    ``boards``: map sheet -> MegaMek board (``match_boards``), None when no board list was given;
    ``players``: side -> MegaMek player name (default: the side's name without spaces);
    ``options``: further game options (house rules); ``options_file``: the options file's name;
    ``host_options``: the host's saved game options (None: not given, MegaMek's defaults);
    ``random_dirs``: the board folders a RANDOM sheet is drawn from (None: the shipped ones).
    """
    s = strategic_of(state)
    e = engagement(s, engagement_id)
    found = boards or {}
    missing = tuple(m for m in e.map_sheets if m not in found)
    names = {
        side: player_name((players or {}).get(side) or state.sides[side].name, side)
        for side in e.sides
    }
    if len(set(names.values())) != len(names):
        names = {side: player_name(side, side) for side in e.sides}
    edges = _edges(e.sides, e.attacker)
    notes: list[str] = []
    factions = _factions(s, e, entities, names, edges, notes)
    for side, goal in e.objectives:
        if goal == "hold_the_line" and e.kind == "assault" and side != e.attacker:
            # L319; MegaMek's edge deployment area is narrower than 8 hexes (ruling T-E10).
            notes.append(
                f"{names[side]} holds the line (line 319): deploys at round 0 anywhere up to "
                f"half way across the closest map sheets, no more than "
                f"{hold_the_line_hexes()} hexes from its {edges[side]} edge; widen that "
                f"player's deployment zone to {hold_the_line_hexes()} hexes in the lobby"
            )
    conditions = conditions_of(e.weather)
    if conditions is None:
        notes.append(f"weather {e.weather!r}: no planetary conditions set")
    if missing:
        notes.append(
            "map sheets without a MegaMek board (RANDOM in their place, drawn from RandomDirs): "
            + "; ".join(missing)
        )
    kind = KIND_NAMES.get(e.kind, e.kind)
    if e.attacker:
        kind += f", {names[e.attacker]} attacking"
    scenario = MmsScenario(
        name=f"{state.name or 'TripWire'} {e.engagement_id}",
        description=(
            f"TripWire engagement {e.engagement_id}, day {e.day}, hex {e.hex}: {kind}; "
            f"terrain {e.terrain}; weather {e.weather}; map sheets "
            f"{', '.join(e.map_sheets) or 'referee to choose'}"
        ),
        maps=tuple(found.get(m, RANDOM_BOARD) for m in e.map_sheets) or (RANDOM_BOARD,),
        random_dirs=tuple(shipped_board_map().random_dirs if random_dirs is None else random_dirs),
        factions=tuple(factions),
        conditions=conditions,
        notes=tuple(notes),
    )
    switched = _switched(scenario, e, names, options)
    return MmsExport(
        scenario=replace(
            scenario,
            options_file=options_file if switched else None,
            notes=(*scenario.notes, *(f"game option {n} on: {why}" for n, why in switched)),
        ),
        options=merged_options(host_options or (), {n: "true" for n, _ in switched})
        if switched
        else (),
        switched=tuple(switched),
        missing_boards=missing,
    )


def _switched(
    s: MmsScenario,
    e: EngagementSetup,
    names: Mapping[str, str],
    house: Sequence[tuple[str, str]],
) -> list[tuple[str, str]]:
    """Each game option mekref switches on, with why: the house rules' options, hidden
    deployment for an ambush or a side on Guard, and the options the pilots' abilities need."""
    out = [(name, "house rule") for name, _ in house]
    hidden = e.ambusher is not None or any("hidden deployment" in n for n in e.notes)
    if hidden:
        out.append(
            (
                HIDDEN_UNITS_OPTION,
                (f"{names[e.ambusher]} ambushes" if e.ambusher else "a side on Guard")
                + ": hidden deployment allowed",
            )
        )
    out += list(content_options(s).items())
    first: dict[str, str] = {}
    for name, why in out:
        first.setdefault(name, why)
    return list(first.items())
