"""Where a unit or person stands, and what is there: the pools, facilities and technicians that
repair, re-arm, reconfigure and heal may use (rulings R-WHERE-1 to R-WHERE-4).

L57: "Each force has a supply of WarChest Points associate with each Location they control, or
each DropShip or Baggage Train." L58: "Repair and Rearm actions may only be taken when WarChest
Points are available from that location." L63: "To perform repair, reload or reconfigure actions
requires the presence of a technician present in that strategic hex." L64: "Each Technician can
work 6 hours a day." L66: "Repairs to Internal Structure requires a repair facility either at a
location or in a DropShip bay." L126: "Damage of 3 or more hits ... requires access to a MASH unit
or Hospital."

Everything here is read from the campaign state: the formations on the strategic map say where
units stand, the map says what each location holds. A campaign without the map (or a unit in no
formation, an unassigned person, a captive) has no position: only the referee's word, recorded in
the event, lets the work go ahead there.
"""

from __future__ import annotations

from mekref.hexmap import label
from mekref.rules.messages import RefereeNote
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, Person, Pool, PoolKind
from mekref.rules.tripwire.turn.mapdata import hex_at, hexmap_of
from mekref.rules.tripwire.turn.state import IN_ORBIT, StrategicState

L58 = (
    "L58 'Repair and Rearm actions may only be taken when WarChest Points are available from "
    "that location'"
)
L63 = (
    "L63 'To perform repair, reload or reconfigure actions requires the presence of a technician "
    "present in that strategic hex'"
)
L66 = (
    "L66 'Repairs to Internal Structure requires a repair facility either at a location or in a "
    "DropShip bay'"
)
L126 = (
    "L126 'Damage of 3 or more hits (or a Crew/Driver injured result for a vehicle) requires "
    "access to a MASH unit or Hospital'"
)
OVERRIDE = "the referee who vouches for it gives --referee NAME --reason TEXT"

#: L63: "Each BattleMech, AeroSpace Fighter, Vehicle and BattleArmor Squad are considered to have
#: 1 technician."
TECHNICIAN_KINDS = frozenset(
    {
        UnitKind.MEK,
        UnitKind.AEROSPACE_FIGHTER,
        UnitKind.COMBAT_VEHICLE,
        UnitKind.VTOL,
        UnitKind.SUPPORT_VEHICLE,
        UnitKind.BATTLE_ARMOR,
    }
)

#: L277 "Repair (Type)": the map's repair facility that serves each unit kind (R-WHERE-3).
REPAIR_FACILITY = {
    UnitKind.MEK: "repair_bm",
    UnitKind.COMBAT_VEHICLE: "repair_cv",
    UnitKind.VTOL: "repair_cv",
    UnitKind.SUPPORT_VEHICLE: "repair_cv",
    UnitKind.AEROSPACE_FIGHTER: "repair_af",
    UnitKind.DROPSHIP: "repair_ds",
}


@record
class Place(Record):
    """A strategic hex as one side finds it: what its units may use there."""

    side_id: str
    hex: str  # "CCRR", or IN_ORBIT
    location: str | None  # the map location in the hex
    facilities: frozenset[str]  # the location's, while the side holds it and they stand
    dropships: tuple[str, ...]  # the side's DropShips in the hex (unit ids): their bays
    pools: tuple[str, ...]  # the side's WarChest pools in the hex
    technicians: int  # L63: one per 'Mech, aerospace fighter, vehicle and BA squad there

    def describe(self) -> str:
        if self.hex == IN_ORBIT:
            return "in orbit"
        return f"in hex {self.hex}" + (f" ({self.location})" if self.location else "")

    @property
    def workshop(self) -> str:
        """The key of this side's technician day in this hex (``StrategicState.workshops``)."""
        return f"{self.side_id}@{self.hex}"


def _unit_hex(s: StrategicState, unit_id: str) -> str | None:
    for _, f in sorted(s.formations.items()):
        if unit_id in f.unit_ids:
            return f.hex
    return s.captured_at.get(unit_id)  # a captured carrier stands where it was taken (T-F7)


def _present(state: CampaignState, s: StrategicState, side_id: str, hex_: str) -> list[str]:
    gone = {*state.battles.scrapped, *state.battles.sold}
    return sorted(
        u
        for _, f in sorted(s.formations.items())
        if f.side_id == side_id and f.hex == hex_
        for u in f.unit_ids
        if u in state.units and u not in gone and state.units[u].side_id == side_id
    )


def technicians_at(state: CampaignState, side_id: str, hex_: str) -> int:
    """The side's technicians in the hex now (L63: one per 'Mech, aerospace fighter, vehicle and
    battle armor squad standing there); 0 without the strategic map."""
    s = state.strategic
    if s is None:
        return 0
    return sum(state.units[u].kind in TECHNICIAN_KINDS for u in _present(state, s, side_id, hex_))


def pool_location(pool: Pool) -> str | None:
    """The map location a location pool belongs to: the one named when it was opened (pools
    opened before that was recorded: the location of the pool's name)."""
    if pool.kind is not PoolKind.LOCATION:
        return None
    return pool.location or pool.name


def pool_hex(state: CampaignState, pool: Pool) -> str | None:
    """The hex a pool is in on the strategic map, or None when the map does not place it."""
    s = state.strategic
    if s is None:
        return None
    name = pool_location(pool)
    if name is not None:
        for loc in hexmap_of(s).locations:
            if loc.name == name:
                return label(loc.hex)
        return None
    carrier = s.transports.get(pool.pool_id)
    return None if carrier is None else _unit_hex(s, carrier)


def place_of_unit(state: CampaignState, unit: CampaignUnit) -> Place | None:
    """Where the unit stands on the strategic map and what its side has there; None when the
    map does not place it (no map, or in no formation of its side and not captured on the
    map: ruling T-F7 keeps a captured unit where the battle that took it was)."""
    s = state.strategic
    if s is None:
        return None
    side = unit.side_id
    hex_ = next(
        (f.hex for _, f in sorted(s.formations.items())
         if f.side_id == side and unit.unit_id in f.unit_ids),
        s.captured_at.get(unit.unit_id),
    )  # fmt: skip
    if hex_ is None:
        return None
    here = _present(state, s, side, hex_)
    location = None
    facilities: frozenset[str] = frozenset()
    if hex_ != IN_ORBIT:
        loc = hexmap_of(s).location_at(hex_at(hex_))
        if loc is not None:
            location = loc.name
            if s.control.get(loc.name) == side:
                facilities = loc.facilities - frozenset(s.destroyed.get(loc.name, ()))
    pools = tuple(
        p.pool_id
        for _, p in sorted(state.pools.items())
        if p.side_id == side and pool_hex(state, p) == hex_
    )
    return Place(
        side_id=side,
        hex=hex_,
        location=location,
        facilities=facilities,
        dropships=tuple(u for u in here if state.units[u].kind is UnitKind.DROPSHIP),
        pools=pools,
        technicians=sum(state.units[u].kind in TECHNICIAN_KINDS for u in here),
    )


def place_of_person(state: CampaignState, person: Person) -> Place | None:
    """A person stands with the unit they crew; a captive or an unassigned person has no place
    the map shows (R-WHERE-1)."""
    if person.person_id in state.battles.captured_people or person.unit_id is None:
        return None
    unit = state.units.get(person.unit_id)
    return None if unit is None else place_of_unit(state, unit)


def no_place_why(state: CampaignState, who: str, person: Person | None = None) -> str:
    if state.strategic is None:
        return f"this campaign has no strategic map to say where {who} stands"
    if person is not None and person.person_id in state.battles.captured_people:
        return f"{who} is held captive by side {state.battles.captured_people[person.person_id]}"
    if person is not None and person.unit_id is None:
        return f"{who} crews no unit, so the map does not say where they stand"
    return f"{who} is in no formation on the strategic map"


def require_place(
    state: CampaignState,
    place: Place | None,
    who: str,
    rule: str,
    note: RefereeNote | None,
    person: Person | None = None,
) -> Place | None:
    """The place, or None on the referee's word; refuses when neither is known (R-WHERE-1)."""
    if place is not None or note is not None:
        return place
    raise Refusal(
        "no_position",
        f"{rule}: {no_place_why(state, who, person)}; {OVERRIDE} (R-WHERE-1)",
    )


def require_pool_here(state: CampaignState, place: Place, pool: Pool, who: str) -> None:
    """L58: the paying pool is in the hex where the work is done (R-WHERE-2)."""
    if pool.pool_id in place.pools:
        return
    there = pool_hex(state, pool)
    where = (
        "nowhere the map shows (no carrier recorded)"
        if there is None
        else "in orbit"
        if there == IN_ORBIT
        else f"in hex {there}"
    )
    others = ", ".join(place.pools) or "none"
    raise Refusal(
        "pool_elsewhere",
        f"{L58}: pool {pool.name!r} is {where}, {who} stands {place.describe()} (pools there: "
        f"{others}); move WP there with a load_unload order (L59, T-WP1) (R-WHERE-2)",
    )


def require_technician(place: Place, who: str) -> None:
    """L63: at least one technician of the side in the hex (R-WHERE-4)."""
    if place.technicians < 1:
        raise Refusal(
            "no_technician",
            f"{L63}: no 'Mech, aerospace fighter, vehicle or battle armor of side "
            f"{place.side_id} (each brings 1 technician) stands {place.describe()} with {who} "
            "(R-WHERE-4)",
        )


def repair_facility_here(place: Place, unit: CampaignUnit) -> str | None:
    """What repairs internal structure here: the location's repair bay of the unit's type, or
    a bay of another DropShip of the side in the hex (R-WHERE-3); None when nothing does."""
    wanted = REPAIR_FACILITY.get(unit.kind)
    if wanted is not None and wanted in place.facilities:
        return f"{wanted} at {place.location}"
    bays = [d for d in place.dropships if d != unit.unit_id]
    if bays and unit.kind is not UnitKind.DROPSHIP:
        return f"the bay of DropShip {bays[0]}"
    return None


def require_repair_facility(place: Place, unit: CampaignUnit, who: str) -> None:
    if repair_facility_here(place, unit) is None:
        wanted = REPAIR_FACILITY.get(unit.kind, "a repair facility")
        raise Refusal(
            "needs_repair_facility",
            f"{L66}: {who} stands {place.describe()} with no {wanted} held by side "
            f"{place.side_id} and no DropShip of that side (R-WHERE-3); a referee who vouches "
            "for a bay gives --repair-facility --referee NAME --reason TEXT",
        )


def require_hospital(place: Place, who: str) -> None:
    """L126 and L276: a hospital at a location the side holds (R-WHERE-3)."""
    if "hospital" not in place.facilities:
        raise Refusal(
            "needs_hospital",
            f"{L126}: {who} is {place.describe()}, with no hospital held by side "
            f"{place.side_id} (R-WHERE-3); a referee who vouches for a MASH unit gives "
            "--hospital --referee NAME --reason TEXT",
        )


def flags_need_note(note: RefereeNote | None, flag: bool, what: str) -> None:
    """The facility flags are the referee's word, never taken on trust (R-WHERE-1)."""
    if flag and note is None:
        raise Refusal(
            "override_needs_referee",
            f"{what} is read from the strategic map; saying it is there is the referee's word: "
            "add --referee NAME --reason TEXT (R-WHERE-1)",
        )


# --- the technician day (L64) --------------------------------------------------------------------


def book_hours(
    today: int, booked: tuple[int, int] | None, capacity: int, hours: int
) -> tuple[tuple[int, int], ...]:
    """The (day, hours) a job of ``hours`` fills at ``capacity`` hours a day, after the work
    already ``booked`` (the last day with work, the hours used that day): work that does not
    fit in a day waits for the next (R-WHERE-4)."""
    if capacity < 1:
        raise ValueError("no technician hours to book")
    day, used = today, 0
    if booked is not None and booked[0] >= today:
        day, used = booked
    out: list[tuple[int, int]] = []
    while hours > 0:
        free = capacity - used
        if free <= 0:
            day, used = day + 1, 0
            continue
        h = min(free, hours)
        out.append((day, h))
        hours -= h
        used += h
    return tuple(out)


def book_work(
    state: CampaignState, place: Place | None, hours: int, hours_per_day: int
) -> tuple[tuple[int, int], ...]:
    """The days this job takes in the side's workshop at ``place``; () without a place (the
    referee's word: no technician day to book)."""
    s = state.strategic
    if place is None or s is None or hours <= 0 or place.technicians < 1:
        return ()
    return book_hours(
        s.day, s.workshops.get(place.workshop), hours_per_day * place.technicians, hours
    )


def after_booking(
    workshops: dict[str, tuple[int, int]], key: str, work: tuple[tuple[int, int], ...]
) -> dict[str, tuple[int, int]]:
    """The workshop days once ``work`` is booked (the fold of :func:`book_work`)."""
    current = workshops.get(key)
    for day, h in work:
        current = (day, current[1] + h) if current is not None and current[0] == day else (day, h)
    if current is None:
        return workshops
    return dict(sorted({**workshops, key: current}.items()))


# --- the checks each decision makes ------------------------------------------------------------


def where_unit_works(
    state: CampaignState,
    unit: CampaignUnit,
    pool: Pool,
    note: RefereeNote | None,
    *,
    internal: bool = False,
    at_repair_facility: bool = False,
) -> Place | None:
    """Repair, re-arm or reconfigure ``unit`` paid from ``pool``: where it stands (L58, L63,
    L66). Returns its place (None: the referee's word without one) or refuses."""
    who = f"{unit.chassis} {unit.model}"
    flags_need_note(note, at_repair_facility, "a repair facility")
    place = place_of_unit(state, unit)
    if note is not None:
        if internal and not at_repair_facility:
            raise Refusal(
                "needs_repair_facility",
                f"{L66}: on the referee's word the bay must be vouched for too: add "
                "--repair-facility (R-WHERE-1)",
            )
        return place
    found = require_place(state, place, who, L58, None)
    assert found is not None
    require_technician(found, who)
    if internal:
        require_repair_facility(found, unit, who)
    require_pool_here(state, found, pool, who)
    return found


def where_heals(
    state: CampaignState,
    place: Place | None,
    who: str,
    pool: Pool,
    note: RefereeNote | None,
    *,
    needs_hospital: bool,
    at_hospital: bool,
    person: Person | None = None,
) -> None:
    """Heal ``who`` standing at ``place`` paid from ``pool`` (L58, L126, R-WHERE-2/3)."""
    flags_need_note(note, at_hospital, "a MASH unit or hospital")
    if note is not None:
        if needs_hospital and not at_hospital:
            raise Refusal(
                "needs_hospital",
                f"{L126}: on the referee's word the MASH unit or hospital must be vouched for "
                "too: add --hospital (R-WHERE-1)",
            )
        return
    found = require_place(state, place, who, L58, None, person)
    assert found is not None
    if needs_hospital:
        require_hospital(found, who)
    require_pool_here(state, found, pool, who)
