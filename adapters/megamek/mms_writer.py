"""Write MegaMek scenario files (``.mms``, the key=value ``MMSVersion=1`` format).

Checked against MegaMek's loader (``megamek/common/scenario/ScenarioV1.java``, its 2024 and
2025 versions, reached through ``ScenarioLoader``) and its annotated ``Example.mms``. Why v1 and
not the YAML ``MMSVersion: 2`` (ruling MMS-4, docs/megamek-adapter.md): every MegaMek a group may
run reads v1 (v2 came in 2024). v1 carries a unit's condition with ``DamageSpecific`` (armor,
rear armor and internal structure per location), ``CritHit``/``CriticalHit`` (location:slot;
the key before and after MegaMek's 2025 loader, both written), ``SetAmmoTo``
(location:slot-shots), ``PilotHits``, ``ExternalID``, the pilot's options (``Advantages``:
abilities, edge, implants), ``Commander`` and ``AutoEject``, and delays arrivals with
``DeploymentRound``. Locations and slots are the same numbers a MUL file carries, so the writer
takes the MUL entities the export already builds and never re-derives condition; how each
entity class's condition goes in is ``mms_condition``'s.

What v1 cannot carry is listed by :func:`mms_gaps` (and written as comments): crew members after
the first, the gaps ``mms_condition`` names (ammunition of units that are not 'Meks, hit
ammunition slots, vehicle criticals without a scenario type, motive damage, turret locks, aero
structural integrity and criticals), the crew's ``initB``/``commandB``, bombs, hidden deployment
per unit (the ``hidden_units`` game option lets players deploy hidden).
Pure: text in, text out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from mekref.adapters.megamek.mms_condition import MEK, class_of, unit_condition
from mekref.adapters.megamek.mul_model import DEAD_HITS, Entity

#: ``IStartingPositions.START_LOCATION_NAMES``: the deployment areas a faction may be given.
START_LOCATIONS = (
    "Any", "NW", "N", "NE", "E", "SE", "S", "SW", "W", "EDG", "CTR",
    "NW (deep)", "N (deep)", "NE (deep)", "E (deep)", "SE (deep)", "S (deep)",
    "SW (deep)", "W (deep)", "EDG (deep)",
)  # fmt: skip
#: A standard BattleTech map sheet, in hexes (``ScenarioV1.createBoard``'s defaults).
SHEET_WIDTH, SHEET_HEIGHT = 16, 17
RANDOM_BOARD = "RANDOM"
#: The critical-hit key before MegaMek's 2025 loader and from it (``PARAM_CRITICAL_HIT``).
CRIT_KEYS = ("CritHit", "CriticalHit")
#: What MegaMek gives a pilot when nothing is said (its default crew skills).
DEFAULT_GUNNERY, DEFAULT_PILOTING = 4, 5


@dataclass(frozen=True, kw_only=True)
class MmsUnit:
    entity: Entity  # the MUL entity the export built: names, crew, condition, externalId
    deployment_round: int = 0  # 0: deploys at the start
    commander: bool = False
    #: MegaMek's entity class (``mms_condition.UNIT_CLASSES``); None: a 'Mek by movement mode.
    unit_class: str | None = None


@dataclass(frozen=True, kw_only=True)
class MmsFaction:
    name: str  # the player name MegaMek matches at login
    location: str = "Any"  # one of START_LOCATIONS
    units: tuple[MmsUnit, ...] = ()


@dataclass(frozen=True, kw_only=True)
class MmsConditions:
    """Indices of MegaMek's planetary-condition enums (``Weather``, ``Wind``, ``Light``,
    ``Fog``), as ``PlanetaryConditions*`` keys take them."""

    weather: int = 0
    wind: int = 0
    light: int = 0
    fog: int = 0


@dataclass(frozen=True, kw_only=True)
class MmsScenario:
    name: str
    description: str
    maps: tuple[str, ...]  # board names (path under data/boards, no suffix) or RANDOM
    #: Folders under data/boards a RANDOM board is drawn from (``RandomDirs``); without it
    #: MegaMek draws only from boards lying at the top of data/boards.
    random_dirs: tuple[str, ...] = ()
    factions: tuple[MmsFaction, ...]
    conditions: MmsConditions | None = None  # None: not recorded, MegaMek's dialog decides
    options_file: str | None = None  # a game options XML next to the scenario
    notes: tuple[str, ...] = field(default_factory=tuple)  # written as comments


_PLAYER_OK = re.compile(r"[^A-Za-z0-9.\-]")


def player_name(text: str, fallback: str) -> str:
    """A faction name MegaMek can use: no spaces, commas, ``=`` or ``_`` (the file splits on
    them; MegaMek's example says player names cannot include spaces)."""
    name = _PLAYER_OK.sub("", text)
    return name or _PLAYER_OK.sub("", fallback) or "Player"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _field(text: str) -> str:
    # Unit lines split on commas: a comma inside a name would shift every later field.
    return _one_line(text.replace(",", " "))


def unit_name(e: Entity) -> str:
    return _field(f"{e.chassis} {e.model}".strip())


def _unit_lines(key: str, unit: MmsUnit) -> list[tuple[str, str]]:
    e = unit.entity
    first = e.crew.members[0] if e.crew is not None and e.crew.members else None
    pilot = _field(first.name) if first is not None and first.name.strip() else "Unknown"
    gunnery = first.gunnery if first is not None and first.gunnery is not None else None
    piloting = first.piloting if first is not None and first.piloting is not None else None
    lines = [
        (
            key,
            f"{unit_name(e)},{pilot},"
            f"{DEFAULT_GUNNERY if gunnery is None else gunnery},"
            f"{DEFAULT_PILOTING if piloting is None else piloting}",
        )
    ]
    cond = unit_condition(e, unit.unit_class)
    if cond.damage:
        lines.append((f"{key}_DamageSpecific", ",".join(cond.damage)))
    if cond.crits:
        # MegaMek renamed the key in 2025 (CritHit -> CriticalHit); each loader logs the other
        # as an unknown key and skips it, so both go in and every version applies the hits once.
        lines += [(f"{key}_{k}", ",".join(cond.crits)) for k in CRIT_KEYS]
    if cond.ammo:
        lines.append((f"{key}_SetAmmoTo", ",".join(cond.ammo)))
    if first is not None and first.hits:
        lines.append((f"{key}_PilotHits", str(min(first.hits, DEAD_HITS - 1))))
    if e.external_id:
        lines.append((f"{key}_ExternalID", _one_line(e.external_id)))
    if unit.deployment_round > 0:
        lines.append((f"{key}_DeploymentRound", str(unit.deployment_round)))
    if unit.commander:
        lines.append((f"{key}_Commander", "true"))
    advantages, _ = mms_advantages(e)
    if advantages:
        lines.append((f"{key}_Advantages", " ".join(advantages)))
    mek = class_of(e, unit.unit_class) == MEK
    if e.crew is not None and e.crew.autoeject is not None and mek:
        lines.append((f"{key}_AutoEject", "true" if e.crew.autoeject else "false"))
    return lines


def mms_advantages(e: Entity) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The crew's options (abilities, edge and its triggers, implants) as ``ScenarioV1``'s
    ``Advantages`` takes them: space-separated, ``name`` or ``name:value`` (the MUL writes
    ``name value``); and those it cannot carry (a value with a space or a colon)."""
    if e.crew is None:
        return (), ()
    implants = tuple(
        item for name, value in e.crew.extra if name == "implants" for item in value.split("::")
    )
    out: list[str] = []
    lost: list[str] = []
    for option in (*e.crew.advantages, *e.crew.edge, *implants):
        name, _, value = option.strip().partition(" ")
        if not name:
            continue
        if " " in value or ":" in value or ":" in name:
            lost.append(option)
        else:
            out.append(f"{name}:{value}" if value else name)
    return tuple(out), tuple(lost)


def mms_gaps(s: MmsScenario) -> tuple[str, ...]:
    """What the file cannot carry, unit by unit, in words (never dropped silently)."""
    gaps: list[str] = []
    for f in s.factions:
        for u in f.units:
            e = u.entity
            name = f"{f.name}: {unit_name(e)} ({e.external_id or 'no id'})"
            members = e.crew.members if e.crew is not None else ()
            if not members:
                gaps.append(f"{name}: no crew recorded, MegaMek's default skills 4/5")
            elif members[0].gunnery is None or members[0].piloting is None:
                gaps.append(f"{name}: crew skills not recorded, MegaMek's default 4/5")
            _, lost = mms_advantages(e)
            gaps += [f"{name}: pilot option {o!r} not carried (a space in its value)" for o in lost]
            crew = e.crew
            for attr, value in (
                ("commandB", crew.command_bonus if crew else None),
                ("initB", crew.init_bonus if crew else None),
            ):
                if value:
                    gaps.append(
                        f"{name}: {attr} {value} not carried (no scenario key): "
                        "set it in MegaMek's unit dialog"
                    )
            if len(members) > 1:
                gaps.append(
                    f"{name}: {len(members) - 1} more crew member(s) not carried (one pilot a unit)"
                )
            if e.bombs:
                # ScenarioV1 has no key for a fighter's bombs: the unit list carries them.
                load = ", ".join(f"{b.load} x {b.type}" for b in e.bombs)
                gaps.append(f"{name}: bombs ({load}) not carried: load them from the unit list")
            gaps += [f"{name}: {g}" for g in unit_condition(e, u.unit_class).gaps]
    return tuple(gaps)


def write_mms(s: MmsScenario) -> str:
    """The scenario's text, as ``ScenarioV1`` reads it."""
    names = [f.name for f in s.factions]
    bad = [n for n in names if not n or player_name(n, "") != n]
    if bad or len(set(names)) != len(names):
        raise ValueError(f"faction names must be distinct and plain: {names}")
    wrong = [f.location for f in s.factions if f.location not in START_LOCATIONS]
    if wrong:
        raise ValueError(f"unknown deployment location(s) {wrong}")
    out: list[str] = [
        "# MegaMek scenario (MMSVersion 1), written by mekref",
        "MMSVersion=1",
        f"Name={_one_line(s.name)}",
        f"Description={_one_line(s.description)}",
        "",
        f"MapWidth={SHEET_WIDTH}",
        f"MapHeight={SHEET_HEIGHT}",
        "BoardWidth=1",
        f"BoardHeight={max(1, len(s.maps))}",
        f"Maps={','.join(_field(m) for m in s.maps) or RANDOM_BOARD}",
    ]
    if RANDOM_BOARD in s.maps or not s.maps:
        if not s.random_dirs:
            raise ValueError("a RANDOM board needs the folders to draw from (RandomDirs)")
        out.append(f"RandomDirs={','.join(_field(d) for d in s.random_dirs)}")
    out.append("")
    if s.options_file:
        out.append(f"GameOptionsFile={_one_line(s.options_file)}")
    if s.conditions is not None:
        c = s.conditions
        out += [
            f"PlanetaryConditionsWeather={c.weather}",
            f"PlanetaryConditionsWind={c.wind}",
            f"PlanetaryConditionsLight={c.light}",
            f"PlanetaryConditionsFog={c.fog}",
        ]
    out += ["", f"Factions={','.join(names)}"]
    out += [f"Location_{f.name}={f.location}" for f in s.factions]
    for f in s.factions:
        out.append("")
        for n, unit in enumerate(f.units, start=1):
            out += [f"{k}={v}" for k, v in _unit_lines(f"Unit_{f.name}_{n}", unit)]
    notes = [*s.notes, *mms_gaps(s)]
    if notes:
        out += ["", "# Notes (not read by MegaMek):"] + [f"#   {_one_line(n)}" for n in notes]
    return "\n".join(out) + "\n"


def game_options_xml(options: tuple[tuple[str, str], ...]) -> str:
    """A game options file in the shape ``GameOptions.saveOptions`` writes (and
    ``GameOptionsFile`` loads): ``<options>`` of ``<gameoption>`` name/value pairs."""
    body = "".join(
        "   <gameoption>\n"
        f"      <optionname>{escape(name)}</optionname>\n"
        f"      <optionvalue>{escape(value)}</optionvalue>\n"
        "   </gameoption>\n"
        for name, value in options
    )
    return f'<?xml version="1.0"?>\n<options>\n{body}</options>\n'
