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


#: The surveillance table's altitude rows (L245-L249): a formation flies at exactly one.
ALTITUDE_ROWS = frozenset(
    {
        "altitude_1",
        "altitude_1_overhead",
        "altitude_2_5",
        "altitude_5_10",
        "high_altitude_per_row",
        "geostationary",
    }
)
HIGH_ROWS = ("1", "2", "3", "4")  # L248: "High Altitude Map (Row 1-4) | +2 (per row)"


def altitude_row(order: FormationOrder, *, from_space: bool, field: str) -> tuple[str, int]:
    """The altitude row a surveillance roll takes, and how many times (rows of the high
    altitude map), from where the formation is (ruling T-S3): in orbit, Geostationary Orbit
    (L249); on the high altitude map (``altitude=high``), +2 per row ``row=1-4`` (L248);
    otherwise the altitude named in ``conditions``, Altitude 2-5 when none is (L246)."""
    named = [c for c in order.param("conditions").split(",") if c]
    heights = [c for c in named if c in ALTITUDE_ROWS]
    high = order.param("altitude") == "high"
    row = order.param("row")
    if len(heights) > 1:
        raise Refusal("bad_param", f"{field}.conditions: one altitude, not {', '.join(heights)}")
    if row and not high:
        raise Refusal(
            "bad_param", f"{field}.row: a row of the high altitude map needs altitude=high"
        )
    if from_space:
        if high or heights not in ([], ["geostationary"]):
            raise Refusal(
                "bad_param",
                f"{field}.conditions: a formation in orbit surveys from its orbit, the "
                "Geostationary Orbit row (L249), not an altitude over the planet",
            )
        return "geostationary", 1
    if heights == ["geostationary"]:
        raise Refusal(
            "bad_param",
            f"{field}.conditions: geostationary is an orbit (L249); an overflight flies at "
            "altitude_1 to altitude_5_10, or altitude=high with row=1-4",
        )
    if high:
        if heights not in ([], ["high_altitude_per_row"]):
            raise Refusal(
                "bad_param",
                f"{field}.conditions: altitude=high flies on the high altitude map, not at "
                f"{heights[0]}",
            )
        if row not in HIGH_ROWS:
            raise Refusal(
                "bad_param",
                f"{field}.row: altitude=high needs the row of the high altitude map, 1-4 (L248 "
                f'"High Altitude Map (Row 1-4) | +2 (per row)"), not {row!r}',
            )
        return "high_altitude_per_row", int(row)
    if heights == ["high_altitude_per_row"]:
        raise Refusal(
            "bad_param", f"{field}.conditions: high_altitude_per_row needs altitude=high and row"
        )
    return (heights[0] if heights else "altitude_2_5"), 1


def flight_modifier(order: FormationOrder, *, from_space: bool, cloud: int, field: str) -> int:
    """A surveillance order's or overflight's whole modifier: its altitude row (T-S3), the
    other conditions it names, and the cloud cover (:func:`surveillance_modifier`)."""
    row, times = altitude_row(order, from_space=from_space, field=field)
    others = [c for c in order.param("conditions").split(",") if c and c not in ALTITUDE_ROWS]
    return surveillance_modifier(others, cloud) + keyed("surveillance", "surveillance")[row] * times


def check_order(order: FormationOrder, *, from_space: bool, field: str) -> None:
    """Refuse at submission what the roll could not read (T-O3): an unknown condition, two
    altitudes, an altitude the formation cannot be at."""
    try:
        flight_modifier(order, from_space=from_space, cloud=0, field=field)
    except Refusal as exc:
        if exc.message.startswith("params.conditions"):
            raise Refusal(exc.code, f"{field}.{exc.message.removeprefix('params.')}") from None
        raise


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
