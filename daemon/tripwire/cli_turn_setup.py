"""``mekref turn setup``: start the strategic map and place every formation from a set-up file."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import Entity
from mekref.daemon.cli_common import (
    EXIT_OK,
    CliError,
    campaign_id_of,
    err_console,
    opened,
    out_console,
    refused,
)
from mekref.daemon.samples import ginestra as GINESTRA
from mekref.daemon.tripwire.cli_campaign import run_command
from mekref.daemon.tripwire.cli_force_input import units_catalog
from mekref.daemon.tripwire.setup_satellites import entry_name, satellite_commands
from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.designs import stored_design_of
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn.setup import (
    FormationSpec,
    PlaceFormations,
    StartStrategicMap,
    design_mobility,
)
from mekref.rules.tripwire.turn.state import UnitMobility

SETUP_DESCRIPTION = """\
Start the strategic map of a campaign whose forces are imported, and place each side's
formations (the defender's secret Day Zero placement; the attacker at the pirate point).
The file names the map, attacker and defender, who holds which location, and the formations
by unit name ("chassis model"): each name takes the next unit of that design the side imported.
Walk/Cruise MP, movement mode, the Rugged quirk and safe thrust come from the designs kept at
import; a [[unit]] entry gives what a design does not say (an aerospace unit's fuel, a
vehicle's crew_slots) and overrides a design's value with a warning. Each held location with no
WarChest pool gets one when the map starts (L57). A [transports] table puts each
DropShip or cargo WarChest pool (by pool id) with the unit carrying it (its "chassis model", or
its id): repairs and healing are paid only from a pool in the unit's hex (L58). Each
[[satellite]] table (id, owner, orbit = "geostationary" or "lpo", hex; optional referee and
reason) places a satellite as `mekref satellite place` does (L270, T-OR1). See
daemon/samples/ginestra/strategic.toml and examples/strategic-satellites.toml.

The Force Commander's Skill Bonus to the ambush roll is derived from the commander's
Gunnery/Piloting (L29-34) and lost while the commander is captured, dead, truly destroyed
or out of play (L26); `mekref force commanders` lists it. A formation's `commander_bonus`
that differs from the derived one is refused, unless the formation also gives
`commander_override = { referee = "Ann", reason = "..." }`, recorded with the placement.
"""


def _transports(
    state: CampaignState, table: dict[str, Any], by_name: dict[tuple[str, str], list[str]]
) -> tuple[tuple[str, str], ...]:
    """``[transports]``: WarChest pool id -> the unit carrying it (a unit id, or the "chassis
    model" of the one unit of that design the pool's side has): the pool travels with it."""
    out = []
    for pool_id, unit in sorted(table.items()):
        pool = state.pools.get(pool_id)
        if pool is None:
            raise CliError(f"transports: no WarChest pool {pool_id!r}; open it first (mekref pool)")
        name = str(unit)
        if name in state.units:
            out.append((pool_id, name))
            continue
        found = by_name.get((pool.side_id, name), [])
        if len(found) != 1:
            what = "no unit" if not found else f"{len(found)} units"
            raise CliError(
                f"transports: side {pool.side_id} has {what} named {name!r} to carry pool "
                f"{pool_id!r}; give the unit's id"
            )
        out.append((pool_id, found[0]))
    return tuple(out)


def _given(spec: dict[str, Any] | None, key: str) -> Any:
    return None if spec is None else spec.get(key)


def _unit_mobility(
    state: CampaignState, uid: str, name: str, spec: dict[str, Any] | None, warnings: list[str]
) -> UnitMobility:
    """A unit's mobility from its stored design, the set-up file's ``[[unit]]`` entry where it
    gives a value (a value that differs from the design is kept, with a warning), and a
    refusal naming the unit where neither says (ruling T-SU1)."""
    stored = stored_design_of(state, uid)
    derived = None if stored is None else design_mobility(stored)
    where = f"{name!r} (unit {uid})"

    def pick(key: str, label: str, from_design: Any, cast: Any) -> Any:
        typed = _given(spec, key)
        if typed is None:
            return from_design
        value = cast(typed)
        if from_design is not None and value != from_design:
            warnings.append(
                f"{name}: the set-up file gives {label} {value!r}, its design "
                f"{from_design!r}; the file's value is used"
            )
        return value

    walk = pick("walk", "walk/cruise MP", None if derived is None else derived.walk_mp, int)
    mode = pick("mode", "movement mode", None if derived is None else derived.mode, str)
    for label, value, key in (("walk/cruise MP", walk, "walk"), ("movement mode", mode, "mode")):
        if value is None:
            why = "no design is kept for it" if stored is None else "its design does not say"
            raise CliError(
                f"{where}: {why}; add {key} = ... to a [[unit]] entry named {name!r} "
                f"({label}), or import the force with --units-dir to keep its design"
            )
    rugged = pick("rugged", "Rugged quirk", None if derived is None else derived.rugged, bool)
    if rugged is None:
        warnings.append(f"{name}: no design kept and no rugged = true/false: not Rugged")
    aero = mode == "aerospace"
    thrust = pick(
        "safe_thrust", "safe thrust", None if derived is None else derived.safe_thrust, int
    )
    conventional = pick(
        "conventional", "conventional", None if derived is None else derived.conventional, bool
    )
    fuel = _given(spec, "fuel")
    if aero and (fuel is None or thrust is None):
        missing = "fuel" if fuel is None else "safe_thrust"
        raise CliError(
            f"{where}: an aerospace unit needs its {missing} (the stored design does not keep "
            f"fuel points); add {missing} = ... to a [[unit]] entry named {name!r}"
        )
    crew = pick("crew_slots", "crew places", None if derived is None else derived.crew_slots, int)
    if crew is None:
        warnings.append(
            f"{name}: its design does not say its crew places and the file gives no "
            "crew_slots: 1 is used"
        )
    return UnitMobility(
        unit_id=uid,
        walk_mp=int(walk),
        mode=str(mode),
        rugged=bool(rugged),
        fuel=int(fuel or 0),
        max_fuel=int(fuel or 0),
        safe_thrust=int(thrust or 0),
        conventional=bool(conventional),
        crew_slots=1 if crew is None else int(crew),
    )


def _setup_commands(
    state: CampaignState, data: dict[str, Any], warnings: list[str] | None = None
) -> tuple[StartStrategicMap, list[PlaceFormations]]:
    designs = {str(u["name"]): u for u in data.get("unit", [])}
    by_name: dict[tuple[str, str], list[str]] = {}
    mobility: list[UnitMobility] = []
    said: list[str] = []
    for uid, unit in state.units.items():
        name = f"{unit.chassis} {unit.model}".strip()
        by_name.setdefault((unit.side_id, name), []).append(uid)
        mobility.append(_unit_mobility(state, uid, name, designs.get(name), said))
    if warnings is not None:
        warnings.extend(dict.fromkeys(said))  # once per design, in order
    start = StartStrategicMap(
        actor="referee",
        transports=_transports(state, data.get("transports", {}), by_name),
        map_name=str(data.get("map", "ginestra")),
        attacker=str(data["attacker"]),
        defender=str(data["defender"]),
        mobility=tuple(mobility),
        control=tuple(sorted((str(k), str(v)) for k, v in data.get("control", {}).items())),
        unrest=tuple(sorted((str(k), int(v)) for k, v in data.get("unrest", {}).items())),
        sheets_per_engagement=int(data.get("sheets_per_engagement", 2)),
    )
    specs: dict[str, list[FormationSpec]] = {}
    for f in data.get("formation", []):
        side = str(f["side"])
        if side not in state.sides:
            raise CliError(
                f"formation {f['id']}: side {side!r} is not a side of this campaign "
                f"(sides: {', '.join(sorted(state.sides))}); name the campaign's sides in the file"
            )
        ids = []
        for name in f["units"]:
            pool = by_name.get((side, str(name)), [])
            if not pool:
                raise CliError(f"formation {f['id']}: {side} has no (more) {name!r} to place")
            ids.append(pool.pop(0))
        specs.setdefault(side, []).append(
            FormationSpec(
                formation_id=str(f["id"]),
                name=str(f.get("name", f["id"])),
                unit_ids=tuple(ids),
                hex=str(f.get("hex", "")),
                commander_bonus=int(f["commander_bonus"]) if "commander_bonus" in f else None,
                carries_leader=bool(f.get("carries_leader", False)),
                baggage_person_days=int(f.get("baggage_person_days", 0)),
                commander_note=_override(f),
            )
        )
    places = [
        PlaceFormations(actor=side, side_id=side, day=1, formations=tuple(found))
        for side, found in sorted(specs.items())
    ]
    return start, places


def _override(f: dict[str, Any]) -> RefereeNote | None:
    """A formation's ``commander_override = { referee = "...", reason = "..." }``."""
    given = f.get("commander_override")
    if given is None:
        return None
    if not isinstance(given, dict):
        raise ValueError(f"formation {f['id']}: commander_override is {{ referee, reason }}")
    return RefereeNote(referee=str(given.get("referee", "")), reason=str(given.get("reason", "")))


def _location_pools(state: CampaignState) -> tuple[list[OpenPool], list[str]]:
    """L57: "Each force has a supply of WarChest Points associate with each Location they
    control": a location a side holds when the map starts with no WarChest pool of its own
    gets one (ruling T-SU2), with the table's stock; the notes say what was not opened and why."""
    s = state.strategic
    if s is None:
        return [], []
    have = {
        p.location if p.location is not None else p.name
        for p in state.pools.values()
        if p.kind is PoolKind.LOCATION
    }
    opens: list[OpenPool] = []
    notes: list[str] = []
    for loc, side in sorted(s.control.items()):
        if loc in have:
            continue
        pool_id = _slug(loc)
        if pool_id in state.pools:
            notes.append(
                f"no pool opened for {loc!r} ({side}): the id {pool_id!r} is taken; "
                f"open one with mekref pool open --location {loc!r}"
            )
            continue
        opens.append(
            OpenPool(
                actor="referee",
                pool_id=pool_id,
                side_id=side,
                name=loc,
                kind=PoolKind.LOCATION,
                location=loc,
            )
        )
    return opens, notes


def _slug(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.casefold()).split())


def run_setup(args: argparse.Namespace) -> int:
    path = args.file or (GINESTRA.FOLDER / "strategic.toml")
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise CliError(f"{path}: cannot read ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CliError(f"{path}: not valid TOML ({exc})") from exc
    warnings: list[str] = []
    notes: list[str] = []
    opened_pools: list[OpenPool] = []
    with opened(args.db) as app:
        cid = campaign_id_of(app.store, args.campaign)
        runner = app.runner
        state = runner.load(cid).state
        try:
            start, places = _setup_commands(state, data, warnings)
            satellites = satellite_commands(data, Path(path).name)
        except (KeyError, ValueError, TypeError) as exc:
            raise CliError(f"{path}: {exc}") from exc
        # All or nothing: the whole set-up is tried on the current state first (pure, in
        # memory), so a refused placement does not leave the map started without formations.
        try:
            for command in (start, *places):
                _, state = TRIPWIRE.execute(state, command)
            for number, sat in enumerate(satellites, start=1):
                try:
                    _, state = TRIPWIRE.execute(state, sat)
                except Refusal as exc:  # the checks of `satellite place`, naming the entry
                    where = entry_name(number, {"id": sat.satellite_id})
                    raise Refusal(exc.code, f"{path}: {where}: {exc.message}") from exc
            pools, notes = _location_pools(state)
            for pool in pools:
                try:
                    _, state = TRIPWIRE.execute(state, pool)
                except Refusal as exc:  # e.g. a location the WarChest table does not list
                    notes.append(f"no pool opened for {pool.location!r}: {exc}")
                else:
                    opened_pools.append(pool)
        except Refusal as exc:
            raise refused(exc, " (nothing recorded)") from exc
        run_command(runner, cid, start)
        for place in places:
            run_command(runner, cid, place)
        for sat in satellites:
            run_command(runner, cid, sat)
        for pool in opened_pools:
            run_command(runner, cid, pool)
    for warning in warnings:
        err_console().print(f"mekref turn setup: warning: {warning}", markup=False)
    console = out_console()
    console.print(
        f"strategic map {start.map_name!r} started: "
        f"{start.attacker} attacks, {start.defender} defends"
    )
    for place in places:
        console.print(f"  {place.side_id}: {len(place.formations)} formation(s) placed")
    for sat in satellites:
        console.print(
            f"  {sat.owner}: satellite {sat.satellite_id} in {sat.orbit} orbit over {sat.hex} "
            "(L270, T-OR1)",
            markup=False,
        )
    for pool in opened_pools:
        console.print(
            f"  {pool.side_id}: WarChest pool {pool.pool_id!r} opened for {pool.location} (L57)",
            markup=False,
        )
    for note in notes:
        err_console().print(f"mekref turn setup: {note}", markup=False)
    return EXIT_OK


def _designs(state: CampaignState, side: str, units_dir: Path | None) -> dict[str, UnitDesign]:
    """Designs from ``--units-dir`` for the side's units that carry a battle damage record or
    a recorded standard load and have no design kept in the campaign (imported without one)."""
    if units_dir is None:
        return {}
    lookup = units_catalog(units_dir)
    found: dict[str, UnitDesign] = {}
    for uid, unit in sorted(state.units.items()):
        recorded = uid in state.battles.unit_damage or uid in state.battles.loadouts
        if unit.side_id != side or not recorded or uid in state.battles.unit_designs:
            continue
        design = lookup(Entity(chassis=unit.chassis, model=unit.model, movement_mode=""))
        if design is not None:
            found[uid] = design
    return found
