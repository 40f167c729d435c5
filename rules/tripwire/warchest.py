"""WarChest pools: what a transport or location holds, and WP to SP."""

from __future__ import annotations

from fractions import Fraction

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.table_loader import (
    LocationRow,
    TransportRow,
    TripWireTables,
    load_tables,
)


def transport_wp(transport_class: str, tables: TripWireTables | None = None) -> int:
    """WP a DropShip class carries: Union 250, Gazelle 2,500 (line 59).

    Ruling R-WP-1: this is both the pool's starting stock and its capacity.
    """
    row = (tables or load_tables()).warchest.transports.get(transport_class)
    return _wp(row, "unknown_transport", f"no WarChest figure for {transport_class!r}")


def cargo_wp_capacity(cargo_tons: Fraction, tables: TripWireTables | None = None) -> int:
    """Any unit can carry 5x its cargo capacity in WP (a 10 ton flatbed carries 50 WP)."""
    t = tables or load_tables()
    return int(cargo_tons * t.warchest.wp_per_cargo_ton)


def location_wp(location: str, tables: TripWireTables | None = None) -> int:
    row = (tables or load_tables()).warchest.locations.get(location)
    return _wp(row, "unknown_location", f"no strategic location named {location!r}")


def _wp(row: TransportRow | LocationRow | None, code: str, unknown: str) -> int:
    """The row's WP, refused with ``code`` and ``unknown`` when the table has no such row."""
    if row is None:
        raise Refusal(code, unknown)
    return row.wp


def wp_to_sp(wp: int, tables: TripWireTables | None = None) -> int:
    """1 WP is converted to 1 SP in this campaign."""
    if wp < 0:
        raise ValueError("WP cannot be negative")
    return wp * (tables or load_tables()).warchest.wp_per_sp
