"""The campaign remembers each unit's design: what ``force import`` read from the unit file.

A MUL battle record only says what changed (armor 4 in the right torso); the maximum it is
measured against is the design's. The campaign keeps the design it saw at import as part of
its event-sourced state (``DesignsRecorded``), so every later step — a battle file from the
daemon or ``battle ingest``, the report, spending, the scenario export — prices against the
same design without a units folder, and a replay of the log gives the same books anywhere.

A design is stored once per distinct content (keyed by its content hash) and each unit names
the design it has; captured units keep theirs when they change sides.
"""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction
from typing import Any

from mekref.adapters.megamek.design import TechBase as AdapterTechBase
from mekref.adapters.megamek.design import TransportBay, UnitDesign
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, command_type, event_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.campaign import Decider, Evolver, side_of
from mekref.rules.tripwire.design_record import StoredBay, StoredDesign
from mekref.rules.tripwire.model import TechBase
from mekref.rules.tripwire.model import UnitKind as RulesKind
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState

_TECH: dict[AdapterTechBase, TechBase] = {
    AdapterTechBase.INNER_SPHERE: TechBase.INNER_SPHERE,
    AdapterTechBase.CLAN: TechBase.CLAN,
    AdapterTechBase.MIXED_IS_CHASSIS: TechBase.INNER_SPHERE_MIXED,
    AdapterTechBase.MIXED_CLAN_CHASSIS: TechBase.CLAN_MIXED,
    AdapterTechBase.UNKNOWN: TechBase.INNER_SPHERE,
}


def rules_tech_base(tech: AdapterTechBase) -> TechBase:
    """The cost table's tech base of a design (a .bfs asset has none: Inner Sphere)."""
    return _TECH[tech]


#: Ruling BR-11: "tonnage per suit" of battle armor is the top of its weight class (TechManual:
#: PA(L) to 400 kg, Light to 750 kg, Medium to 1 t, Heavy to 1.5 t, Assault to 2 t).
BA_SUIT_TONS: dict[str, Fraction] = {
    "PA(L)": Fraction(2, 5),
    "Light": Fraction(3, 4),
    "Medium": Fraction(1),
    "Heavy": Fraction(3, 2),
    "Assault": Fraction(2),
}


def suit_tons(weight_class: str | None) -> Fraction | None:
    return BA_SUIT_TONS.get(weight_class or "")


def design_tonnage(kind: RulesKind, stored: StoredDesign) -> Fraction | None:
    """What the cost table prices by: the design's tons, battle armor's tons per suit."""
    if kind is RulesKind.BATTLE_ARMOR:
        return suit_tons(stored.ba_weight_class) or stored.tonnage
    return stored.tonnage


def _tons(value: float | None) -> Fraction | None:
    # str() first: 0.5 -> "0.5" -> 1/2, never the binary float's long fraction.
    return None if value is None else Fraction(str(value))


def _float(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def stored_design(design: UnitDesign) -> StoredDesign:
    """The campaign's copy of a design read from a unit file: every field of the same name,
    with tons as exact fractions and critical slots as sorted pairs."""
    same = {f.name: getattr(design, f.name) for f in fields(StoredDesign)}
    return StoredDesign(
        **{
            **same,
            "tonnage": _tons(design.tonnage),
            "crit_slots": tuple(
                sorted((loc, tuple(slots)) for loc, slots in design.crit_slots.items())
            ),
            "bays": tuple(
                StoredBay(**{**_bay_fields(b), "capacity": _tons(b.capacity)}) for b in design.bays
            ),
            # Only the file's name: the same design read from another folder is the same design.
            "source_file": design.source_file.replace("\\", "/").rsplit("/", 1)[-1],
        }
    )


def unit_design(stored: StoredDesign) -> UnitDesign:
    """The adapter's design back from the campaign's copy (what the condition merge reads).

    Made once per copy and kept on it: every file of a campaign asks it for each unit, and
    both are immutable (no reader changes the design's ``crit_slots``)."""
    kept: UnitDesign | None = vars(stored).get("_unit_design")
    if kept is None:
        kept = vars(stored)["_unit_design"] = _unit_design(stored)
    return kept


def _unit_design(stored: StoredDesign) -> UnitDesign:
    same = {f.name: getattr(stored, f.name) for f in fields(StoredDesign)}
    return UnitDesign(
        **{
            **same,
            "tonnage": _float(stored.tonnage),
            "crit_slots": dict(stored.crit_slots),
            "bays": tuple(
                TransportBay(**{**_bay_fields(b), "capacity": _float(b.capacity)})
                for b in stored.bays
            ),
        }
    )


def _bay_fields(bay: TransportBay | StoredBay) -> dict[str, Any]:
    return {f.name: getattr(bay, f.name) for f in fields(StoredBay)}


def stored_design_of(state: CampaignState, unit_id: str) -> StoredDesign | None:
    key = state.battles.unit_designs.get(unit_id)
    return None if key is None else state.battles.designs.get(key)


def design_of(state: CampaignState, unit_id: str) -> UnitDesign | None:
    """The design the campaign keeps for a unit, or None when it was imported without one."""
    stored = stored_design_of(state, unit_id)
    return None if stored is None else unit_design(stored)


# --- the command and its event ------------------------------------------------------------


@command_type("RecordDesigns")
@record
class RecordDesigns(Command):
    """The designs of a side's units, as ``force import`` (or ``force designs``) read them."""

    side_id: str
    designs: tuple[StoredDesign, ...]
    units: tuple[tuple[str, str], ...]  # (unit id, design key)


@event_type("DesignsRecorded")
@record
class DesignsRecorded(Event):
    side_id: str
    designs: tuple[StoredDesign, ...]
    units: tuple[tuple[str, str], ...]
    actor: str


def _decide(state: CampaignState, cmd: RecordDesigns, dice: Dice, rules: TripWire) -> list[Event]:
    side_of(state, cmd.side_id)
    keys = {d.key for d in cmd.designs} | set(state.battles.designs)
    for unit_id, key in cmd.units:
        unit = state.units.get(unit_id)
        if unit is None or unit.side_id != cmd.side_id:
            raise Refusal("unknown_unit", f"no unit {unit_id!r} on side {cmd.side_id!r}")
        if key not in keys:
            raise Refusal("unknown_design", f"unit {unit_id!r}: no design with key {key!r} given")
    return [
        DesignsRecorded(side_id=cmd.side_id, designs=cmd.designs, units=cmd.units, actor=cmd.actor)
    ]


def _evolve(state: CampaignState, e: DesignsRecorded) -> CampaignState:
    led = state.battles
    designs = {**led.designs, **{d.key: d for d in e.designs}}
    unit_designs = {**led.unit_designs, **dict(e.units)}
    units = dict(state.units)
    for unit_id, key in e.units:
        unit, design = units.get(unit_id), designs[key]
        tons = None if unit is None else design_tonnage(unit.kind, design)
        if unit is not None and unit.tonnage == 0 and tons:
            # Imported without its design: the design now gives what the prices need.
            units[unit_id] = replace(
                unit, tonnage=tons, tech_base=rules_tech_base(design.tech_base)
            )
    return replace(
        state,
        units=units,
        battles=replace(led, designs=designs, unit_designs=unit_designs),
    )


def record_designs(
    side_id: str, designs: dict[str, UnitDesign], actor: str
) -> RecordDesigns | None:
    """The command that keeps ``designs`` (unit id -> design read from a file); None if empty."""
    if not designs:
        return None
    stored = {uid: stored_design(d) for uid, d in designs.items()}
    distinct = {s.key: s for s in stored.values()}
    return RecordDesigns(
        side_id=side_id,
        designs=tuple(distinct[k] for k in sorted(distinct)),
        units=tuple(sorted((uid, s.key) for uid, s in stored.items())),
        actor=actor,
    )


DECIDERS: dict[type[Command], Decider] = {RecordDesigns: _decide}
EVOLVERS: dict[type[Event], Evolver] = {DesignsRecorded: _evolve}


def repair_priced(state: CampaignState, unit_id: str) -> bool:
    """Whether the unit's repair bill is a real price: its tonnage is known (the cost table
    prices by tons) and its last battle damage was measured against a design (without one the
    file's numbers are taken as the maxima and no loss is seen)."""
    unit = state.units[unit_id]
    damage = state.battles.unit_damage.get(unit_id)
    measured = damage is None or damage.design_known
    if unit.kind is RulesKind.CONVENTIONAL_INFANTRY:
        # A platoon's file gives no tonnage and none of its bill is priced by tons (the cost
        # table has no conventional infantry armor or structure row): the kept design is what
        # makes its bill known.
        return unit_id in state.battles.unit_designs and measured
    return unit.tonnage > 0 and measured


def unpriced_why(state: CampaignState, unit_id: str) -> str:
    """Why a unit cannot be priced, and what to do, in one clause."""
    unit = state.units[unit_id]
    known = unit.tonnage > 0 or (
        unit.kind is RulesKind.CONVENTIONAL_INFANTRY and unit_id in state.battles.unit_designs
    )
    if known:
        what = "its last battle damage was read without its design"
    else:
        what = "no design is known for it"
    return (
        f"{unit.chassis} {unit.model} ({unit_id}): {what}, so its repair and value cannot be "
        "priced; record designs with 'mekref force designs --units-dir DIR' before its next "
        "battle, and have the referee settle this damage ('mekref battle fate')"
    )
