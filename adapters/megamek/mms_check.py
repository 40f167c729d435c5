"""Read and check a key=value MegaMek scenario (``MMSVersion=1``) the way MegaMek's loader does.

``parse_mms`` follows ``ScenarioV1.load``: blank lines and lines starting with ``#`` are skipped,
each other line splits at its first ``=`` into a trimmed key and value, and a key may repeat
(its values join with commas). ``check_mms`` lists what would make ``ScenarioV1.createGame``
throw, or silently ignore part of the file: a missing version, name, ``Maps`` (the loader
dereferences it unguarded) or ``Factions``; a unit line it cannot parse; data for an undeclared
unit; an unknown data key; a malformed damage, critical-hit or ammunition entry; a deployment
location that is not one of ``IStartingPositions.START_LOCATION_NAMES``; a condition index
outside MegaMek's enums. The same check runs on MegaMek's own scenario files in the tests and on
every file mekref writes. Pure: text in, findings out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mekref.adapters.megamek.mms_writer import CRIT_KEYS, RANDOM_BOARD, START_LOCATIONS

#: Size cap: MegaMek's own scenarios are a few kilobytes.
MAX_MMS_BYTES = 1_000_000

_TOP_KEYS = frozenset(
    {
        "MMSVersion", "Name", "Description", "GameOptionsFile", "FixedGameOptions", "ExternalId",
        "Factions", "SinglePlayer", "FixedPlanetaryConditions", "MapWidth", "MapHeight",
        "BoardWidth", "BoardHeight", "BridgeCF", "Maps", "RandomDirs", "Planet",
    }
)  # fmt: skip
_FACTION_KEYS = frozenset({"Location", "Minefields", "Camo", "camo", "Team", "team"})
#: ``ScenarioV1.buildFactionEntities``'s data keys (``camo``/``altitude`` also capitalised, as
#: MegaMek's example and older loaders spell them).
_UNIT_KEYS = frozenset(
    {
        "Damage", "DamageSpecific", "CritHit", "CriticalHit", "SetAmmoTo", "SetAmmoType",
        "PilotHits", "ExternalID", "Advantages", "AutoEject", "Commander", "DeploymentRound",
        "Camo", "Altitude", "Armor",
    }
)  # fmt: skip
#: ``PlanetaryConditions*`` keys and the number of values of the enum each indexes (None: free).
_CONDITIONS: dict[str, int | None] = {
    "PlanetaryConditionsTemperature": None,
    "PlanetaryConditionsLight": 5,
    "PlanetaryConditionsWeather": 15,
    "PlanetaryConditionsWind": 7,
    "PlanetaryConditionsWindDir": 7,
    "PlanetaryConditionsAtmosphere": 6,
    "PlanetaryConditionsFog": 3,
    "PlanetaryConditionsWindMin": 7,
    "PlanetaryConditionsWindMax": 7,
}
_CONDITION_FLAGS = frozenset(
    {
        "PlanetaryConditionsGravity", "PlanetaryConditionsWindShiftingStr",
        "PlanetaryConditionsWindShiftingDir", "PlanetaryConditionsBlowingSand",
        "PlanetaryConditionsEMI", "PlanetaryConditionsAllowTerrainChanges",
    }
)  # fmt: skip
_INT = re.compile(r"-?\d+")
_DAMAGE = re.compile(r"[NRI]\d+:\d+")
_CRIT = re.compile(r"\d+:\d+")
_AMMO_TO = re.compile(r"\d+:\d+-\d+")
_AMMO_TYPE = re.compile(r"\d+:\d+-.+")


@dataclass(frozen=True, kw_only=True)
class MmsUnitLine:
    faction: str
    key: str
    name: str  # "Chassis Model" as MegaMek's unit cache knows it
    pilot: str
    gunnery: int
    piloting: int


@dataclass(frozen=True, kw_only=True)
class MmsFile:
    values: dict[str, list[str]]  # key -> its values, in file order
    bad_lines: tuple[str, ...]  # lines without "=" (MegaMek logs and skips them)

    def get(self, key: str) -> str | None:
        v = self.values.get(key)
        return ",".join(v) if v else None

    @property
    def factions(self) -> tuple[str, ...]:
        text = self.get("Factions")
        return tuple(text.split(",")) if text else ()

    def units(self) -> tuple[MmsUnitLine, ...]:
        out = []
        for f in self.factions:
            pattern = re.compile(rf"^Unit_{re.escape(f)}_[^_]+$")
            for key, vals in self.values.items():
                if pattern.match(key) and vals:
                    parsed = _unit_line(vals[0])
                    if parsed is not None:
                        name, pilot, g, p = parsed
                        out.append(
                            MmsUnitLine(
                                faction=f, key=key, name=name, pilot=pilot, gunnery=g, piloting=p
                            )
                        )
        return tuple(out)

    def unit_value(self, unit_key: str, data: str) -> str | None:
        return self.get(f"{unit_key}_{data}")


def parse_mms(text: str) -> MmsFile:
    if len(text.encode("utf-8")) > MAX_MMS_BYTES:
        raise ValueError(f"scenario larger than {MAX_MMS_BYTES} bytes")
    values: dict[str, list[str]] = {}
    bad: list[str] = []
    for raw in text.splitlines():
        if not raw.strip() or raw.strip().startswith("#"):
            continue
        if "=" not in raw:
            bad.append(raw.strip())
            continue
        key, value = raw.split("=", 1)
        values.setdefault(key.strip(), []).append(value.strip())
    return MmsFile(values=values, bad_lines=tuple(bad))


def _unit_line(value: str) -> tuple[str, str, int, int] | None:
    """``ScenarioV1.parseEntityLine``: name, pilot, gunnery, piloting[, gender, clan][, facing,
    x, y]. None when MegaMek would throw ``unparsableEntityLine``."""
    parts = value.split(",")
    if len(parts) < 4 or not _INT.fullmatch(parts[2]) or not _INT.fullmatch(parts[3]):
        return None
    i = 6 if len(parts) > 4 and _INT.fullmatch(parts[4]) else 4
    coords = parts[i + 1 : i + 3]
    if len(parts) >= 7 and (len(coords) < 2 or not all(_INT.fullmatch(p.strip()) for p in coords)):
        return None
    return parts[0], parts[1], int(parts[2]), int(parts[3])


def _check_list(key: str, value: str, pattern: re.Pattern[str]) -> list[str]:
    bad = [v for v in value.split(",") if not pattern.fullmatch(v.strip())]
    return [f"{key}: entry {v!r} is not in MegaMek's format" for v in bad]


def check_mms(m: MmsFile) -> list[str]:
    """Problems MegaMek's loader would hit (empty: the file loads as written)."""
    problems = [f"line without '=': {line!r}" for line in m.bad_lines]
    if m.get("MMSVersion") != "1":
        problems.append(f"MMSVersion: {m.get('MMSVersion')!r}, MegaMek's key=value loader wants 1")
    for required in ("Name", "Maps", "Factions"):
        if not m.get(required):
            problems.append(f"{required}: missing")
    for key in ("MapWidth", "MapHeight", "BoardWidth", "BoardHeight", "BridgeCF", "ExternalId"):
        v = m.get(key)
        if v is not None and not _INT.fullmatch(v):
            problems.append(f"{key}: {v!r} is not a whole number")
    factions = m.factions
    if len(set(factions)) != len(factions):
        problems.append(f"Factions: a name repeats in {factions}")
    for key, limit in _CONDITIONS.items():
        v = m.get(key)
        if v is None:
            continue
        if not _INT.fullmatch(v):
            problems.append(f"{key}: {v!r} is not a whole number")
        elif limit is not None and not 0 <= int(v) < limit:
            problems.append(f"{key}: {v} is outside MegaMek's 0..{limit - 1}")
    declared: dict[str, str] = {}
    for f in factions:
        unit = re.compile(rf"^Unit_{re.escape(f)}_[^_]+$")
        for key, vals in m.values.items():
            if unit.match(key):
                declared[key] = f
                if len(vals) > 1:
                    problems.append(f"{key}: declared {len(vals)} times")
                if _unit_line(vals[0]) is None:
                    problems.append(f"{key}: unit line {vals[0]!r} does not parse")
        loc = m.get(f"Location_{f}")
        # An unknown area lands on "Any" (findIndex -1, Math.max 0): "any" means what it says.
        if loc is not None and loc not in START_LOCATIONS and loc not in ("R", "any"):
            problems.append(f"Location_{f}: {loc!r} is not a MegaMek deployment area")
    for key in m.values:
        problems += _check_key(m, key, declared, factions)
    return problems


def _check_key(
    m: MmsFile, key: str, declared: dict[str, str], factions: tuple[str, ...]
) -> list[str]:
    if key in _TOP_KEYS or key in _CONDITIONS or key in _CONDITION_FLAGS or key in declared:
        return []
    head, _, rest = key.partition("_")
    if head in _FACTION_KEYS:
        return [] if rest in factions else [f"{key}: no faction {rest!r} in Factions"]
    if head != "Unit":
        return [f"{key}: not a key MegaMek's scenario loader reads"]
    owner = next((u for u in declared if key.startswith(u + "_")), None)
    if owner is None:
        return [f"{key}: data for a unit no faction declares"]
    data = key[len(owner) + 1 :]
    value = m.get(key) or ""
    if data not in _UNIT_KEYS and data.capitalize() not in _UNIT_KEYS:
        return [f"{key}: unknown unit data {data!r}"]
    if data == "DamageSpecific":
        return _check_list(key, value, _DAMAGE)
    if data in CRIT_KEYS:
        return _check_list(key, value, _CRIT)
    if data == "SetAmmoTo":
        return _check_list(key, value, _AMMO_TO)
    if data == "SetAmmoType":
        return _check_list(key, value, _AMMO_TYPE)
    if data in ("PilotHits", "DeploymentRound", "Damage") and not _INT.fullmatch(value):
        return [f"{key}: {value!r} is not a whole number"]
    return []


def _board_slots(m: MmsFile) -> tuple[list[str], int]:
    maps = [b.strip() for b in (m.get("Maps") or "").split(",")]
    wide, high = m.get("BoardWidth") or "1", m.get("BoardHeight") or "1"
    count = int(wide) * int(high) if _INT.fullmatch(wide) and _INT.fullmatch(high) else 1
    return maps, count


def check_playable(m: MmsFile, options: dict[str, str] | None) -> list[str]:
    """What keeps a file that loads from giving the intended game (mekref's own files pass
    this on top of ``check_mms``): a RANDOM board without ``RandomDirs`` (MegaMek then draws only
    from boards lying at the top of data/boards: MegaMek issue #927); a critical hit under one
    key only (``CritHit`` before MegaMek's 2025 loader, ``CriticalHit`` from it); pilot options
    whose game option is not switched on (the lobby clears them). ``options``: the options
    file's name/value pairs, None when the file names none."""
    problems: list[str] = []
    maps, count = _board_slots(m)
    if (RANDOM_BOARD in maps or len(maps) < count) and not m.get("RandomDirs"):
        problems.append(
            "Maps: a RANDOM board without RandomDirs (MegaMek draws only from boards at the "
            "top of data/boards)"
        )
    needed: dict[str, str] = {}
    for u in m.units():
        crits = [m.unit_value(u.key, k) for k in CRIT_KEYS]
        if crits[0] != crits[1]:
            problems.append(f"{u.key}: CritHit and CriticalHit differ (old and 2025 loaders)")
        for adv in (m.unit_value(u.key, "Advantages") or "").replace(",", " ").split():
            name = adv.split(":", 1)[0]
            group = "edge" if name.startswith("edge") else "pilot_advantages or manei_domini"
            needed.setdefault(group, u.key)
    on = {n for n, v in (options or {}).items() if v.lower() == "true"}
    for group, key in needed.items():
        if options is None:
            problems.append(f"{key}: pilot options need {group}, and no GameOptionsFile sets it")
        elif not on & set(group.split(" or ")):
            problems.append(f"{key}: pilot options need {group}, the options file leaves it off")
    return problems
