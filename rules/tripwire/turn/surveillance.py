"""Surveillance (lines 242-266) and Identify/Scan (lines 359-372): a Piloting roll with the
tables' modifiers; the margin says how much is learned."""

from __future__ import annotations

from collections.abc import Iterable

from mekref.rules.dice import Dice, Roll
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.turn.data import (
    identify_margins,
    keyed,
    single,
    surveillance_margins,
    table_rows,
)
from mekref.rules.tripwire.turn.state import FormationOrder

NOTHING = "nothing"


def surveillance_modifier(conditions: Iterable[str], cloud: int) -> int:
    """Sum of the condition rows named (altitude, equipment, stealth, infantry only) plus cloud
    cover (+1..+4, line 250); a Hyperspectral Imager removes the weather modifier (line 255)."""
    table = keyed("surveillance", "surveillance")
    hyper = str(single("surveillance", "hyperspectral")["key"])
    total = 0
    named = list(conditions)
    for c in named:
        if c == hyper:
            continue
        if c not in table:
            raise Refusal("bad_param", f"params.conditions: unknown surveillance condition {c!r}")
        total += table[c]
    if hyper not in named:
        total += cloud
    return total


def info_for_margin(margin: int, rows: tuple[tuple[int, str, object], ...]) -> str:
    """The best row whose margin the roll reached; below the first row, nothing."""
    best = NOTHING
    for row_margin, info, _ in rows:
        if margin >= row_margin:
            best = info
    return best


def surveillance_info(margin: int) -> str:
    # "-4 or lower | No information": the first row already says nothing.
    return info_for_margin(margin, surveillance_margins())


def identify_info(margin: int) -> str:
    return info_for_margin(margin, identify_margins())


def identify_modifier(range_hexes: int, *, active_probe: bool, sensors_only: bool) -> int:
    """Visual range bands (sensors only: ranges halved and +2), active probe -2 (lines 362-367)."""
    extra = keyed("surveillance", "identify")
    effective = (range_hexes + 1) // 2 if sensors_only else range_hexes
    band = None
    for r in table_rows("surveillance", "identify_range"):
        if int(r["min_range"]) <= max(1, effective) <= int(r["max_range"]):
            band = int(r["modifier"])
    if band is None:
        raise Refusal("out_of_range", f"range {range_hexes}: beyond extreme visual range (60)")
    return (
        band
        + (extra["active_probe"] if active_probe else 0)
        + (extra["sensors_only"] if sensors_only else 0)
    )


def roll_check(dice: Dice, name: str, piloting: int, modifier: int) -> tuple[Roll, int, Dice]:
    """A Piloting roll: 2d6 against piloting + modifiers; returns the margin of success."""
    roll, dice = dice.roll(name, 2)
    return roll, roll.total - (piloting + modifier), dice


def identify_conditions(order: FormationOrder, field: str = "params") -> int:
    """The Identify/Scan modifier an order's params give (ruling T-S2): ``range`` (visual range
    in map-sheet hexes, 1-60; default 1), ``probe=yes`` (an Active Probe in range),
    ``sensors=yes`` (no direct line of sight)."""
    raw = order.param("range", "1")
    if not raw.isdigit() or int(raw) < 1:
        raise Refusal("bad_param", f"{field}.range: a visual range of 1-60 hexes, got {raw!r}")
    flags = {}
    for key in ("probe", "sensors"):
        value = order.param(key, "no")
        if value not in ("yes", "no"):
            raise Refusal("bad_param", f"{field}.{key}: yes or no, got {value!r}")
        flags[key] = value == "yes"
    try:
        return identify_modifier(
            int(raw), active_probe=flags["probe"], sensors_only=flags["sensors"]
        )
    except Refusal as exc:
        raise Refusal("bad_param", f"{field}.range: {exc.message}") from exc
