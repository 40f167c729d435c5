"""The vehicles a facility includes, and who has them (L271-L273, ruling T-SV1 in docs/turn.md).

L271: "Supply Dumps include 8 unarmed Flatbed Trucks." L272: "Ammo Dumps include 4 J-37
Ordinance Transports." L273: "Fuel dumps include 4 Tanker Trucks." The vehicles are part of
their facility: the side holding the location (T-C1) has them, at the location's hex, and they
change hands with it, as its WarChest pools do; a destroyed facility includes none. They are not
units of the TO&E (no slot, crew or BV) and, with no MegaMek design, go into no scenario file:
each row says so. Their WarChest capacity (L59: 5 WP per cargo ton) is known only where a
source gives the cargo (L59's 10 t flatbed: 50 WP; MegaMek's 21 t J-37: 105 WP), never a
guessed one.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from mekref.hexmap import label
from mekref.rules.record_type import Record, record
from mekref.rules.tables import SourceRef, bool_field, int_field, source_of, str_field
from mekref.rules.tripwire.turn.data import table_rows
from mekref.rules.tripwire.turn.mapdata import hexmap_of
from mekref.rules.tripwire.turn.state import StrategicState
from mekref.rules.tripwire.warchest import cargo_wp_capacity

#: What a vehicle of a site lacks, said wherever it is shown (never a silent default).
NO_DESIGN = (
    "no MegaMek design is bundled, so it goes into no scenario file and fights in no battle; "
    "it is no unit of the TO&E"
)


@record
class SiteVehicleRow(Record):
    """One row of ``site_vehicles.toml``: the vehicles one kind of facility includes."""

    facility: str
    vehicle: str
    count: int
    armed: bool | None  # None: the line does not say
    cargo_tons: Fraction | None  # None: not known (no source gives it)
    cargo_from: str  # where the cargo figure comes from, short ("L59"); "" without one
    cargo_origin: str  # that source's words
    ref: SourceRef


@record
class SiteVehicles(Record):
    """The vehicles of one facility of one location, and the side that has them."""

    location: str
    hex: str
    side_id: str | None  # None: nobody holds the location
    row: SiteVehicleRow

    @property
    def wp_each(self) -> int | None:
        """WP one vehicle carries (L59: 5 per cargo ton); None: not known."""
        cargo = self.row.cargo_tons
        return None if cargo is None else cargo_wp_capacity(cargo)


@cache
def site_rows() -> tuple[SiteVehicleRow, ...]:
    out = []
    for r in table_rows("site_vehicles", "site"):
        cargo = r.get("cargo_tons")
        out.append(
            SiteVehicleRow(
                facility=str_field(r, "facility"),
                vehicle=str_field(r, "vehicle"),
                count=int_field(r, "count"),
                armed=bool_field(r, "armed") if "armed" in r else None,
                cargo_tons=None if cargo is None else Fraction(int_field(r, "cargo_tons")),
                cargo_from="" if cargo is None else str_field(r, "cargo_from"),
                cargo_origin="" if cargo is None else str_field(r, "cargo_origin"),
                ref=source_of(r),
            )
        )
    return tuple(out)


def site_vehicles(s: StrategicState) -> tuple[SiteVehicles, ...]:
    """Every facility's vehicles on the map, by location, each with the side that has them
    (the location's holder). A facility destroyed (L219) includes none."""
    hm = hexmap_of(s)
    out = []
    for loc in sorted(hm.locations, key=lambda loc: loc.name):
        gone = set(s.destroyed.get(loc.name, ()))
        for row in site_rows():
            if row.facility in loc.facilities and row.facility not in gone:
                holder = s.control.get(loc.name)
                out.append(
                    SiteVehicles(location=loc.name, hex=label(loc.hex), side_id=holder, row=row)
                )
    return tuple(out)


def describe(v: SiteVehicles) -> str:
    """One line: how many, what, of which facility, and what each carries."""
    row = v.row
    armed = ", unarmed" if row.armed is False else ""
    wp = v.wp_each
    carries = (
        f"{wp} WP each (L59: 5 a cargo ton; {row.cargo_tons} t per {row.cargo_from})"
        if wp is not None
        else "WP carried not known (no source gives its cargo capacity)"
    )
    return f"{row.count} x {row.vehicle} ({row.facility}, L{row.ref.line}{armed}): {carries}"
