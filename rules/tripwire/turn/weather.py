"""Weather per map region: the starting roll (2d6 + the region's climate modifier, line 374-383)
and the weekly change (2d6, moving up or down the table, lines 384-391)."""

from __future__ import annotations

from collections.abc import Mapping

from mekref.hexmap import HexMap
from mekref.rules.dice import Dice, Roll
from mekref.rules.tripwire.turn.data import lookup, range_table, single
from mekref.rules.tripwire.turn.state import RegionWeather


def levels() -> int:
    """The weather table's rows: 7, 0 clear .. 6 stormy. A function, not a constant, so that
    importing the rule set does not read the table (and load its TOML reader)."""
    return len(range_table("weather"))


def level_name(level: int) -> str:
    return str(range_table("weather")[level].get("name"))


def cloud_of(level: int) -> int:
    """The cloud-cover modifier of a weather row (+0..+4), for surveillance rolls."""
    return int(range_table("weather")[level].get("cloud"))


def _storm(name: str, dice: Dice, level: int) -> tuple[str, list[Roll], Dice]:
    if level != levels() - 1:
        return "", [], dice
    # Line 382: "(Roll again. On a 8+ There is a lightning storm, on a 12 a Tornado develops."
    row = single("weather", "storm")
    roll, dice = dice.roll(f"storm, {name}", 2)
    if roll.total >= row["tornado_min"]:
        return "tornado", [roll], dice
    if roll.total >= row["lightning_min"]:
        return "lightning", [roll], dice
    return "", [roll], dice


def roll_start(hexmap: HexMap, dice: Dice) -> tuple[tuple[RegionWeather, ...], list[Roll], Dice]:
    """Starting weather for every region, in name order."""
    out: list[RegionWeather] = []
    rolls: list[Roll] = []
    for region in sorted(hexmap.regions, key=lambda r: r.name):
        roll, dice = dice.roll(f"starting weather, {region.name}", 2)
        # The modified roll is kept within the table's 2..12 (ruling T-W1).
        total = min(12, max(2, roll.total + region.climate))
        level = int(lookup(range_table("weather"), total).get("level"))
        storm, extra, dice = _storm(region.name, dice, level)
        rolls += [roll, *extra]
        out.append(RegionWeather(region=region.name, level=level, storm=storm))
    return tuple(out), rolls, dice


def shifted_level(level: int, total: int) -> int:
    """The weather row after a change roll of ``total``, kept on the table (T-W2)."""
    shift = int(lookup(range_table("weather_change"), total).get("shift"))
    return min(levels() - 1, max(0, level + shift))


def roll_change(
    current: dict[str, RegionWeather], dice: Dice, forecast: Mapping[str, int] | None = None
) -> tuple[tuple[RegionWeather, ...], list[Roll], Dice]:
    """The weekly change for every region. "Up" the table is toward clear (ruling T-W2).
    ``forecast``: change rolls already made (region -> 2d6 total) for a satellite forecast
    (L385, ruling T-W4); those regions are not rolled again."""
    out: list[RegionWeather] = []
    rolls: list[Roll] = []
    early = forecast or {}
    for name in sorted(current):
        if name in early:
            total = early[name]
        else:
            roll, dice = dice.roll(f"weather change, {name}", 2)
            total = roll.total
            rolls.append(roll)
        level = shifted_level(current[name].level, total)
        storm, extra, dice = _storm(name, dice, level)
        rolls += extra
        out.append(RegionWeather(region=name, level=level, storm=storm))
    return tuple(out), rolls, dice


def weekly_change_due(day: int) -> bool:
    """Day 1 uses the starting weather; it changes on days 8, 15, 22, ... (ruling T-W3)."""
    every = int(single("weather", "weekly")["every_days"])
    return day > 1 and (day - 1) % every == 0
