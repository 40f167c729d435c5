"""A unit design as the campaign's state keeps it (plain, canonical-JSON-safe data).

The conversion from and to the MegaMek adapter's ``UnitDesign``, and the command that records
designs, live in :mod:`.designs`; this module is only the value, so the battle ledger can hold it.
"""

from __future__ import annotations

from fractions import Fraction

from mekref.adapters.megamek.design import (
    AmmoBin,
    CritSlot,
    EngineInfo,
    Equipment,
    LargeCraftCrew,
    LocationStats,
    RulesLevel,
    TechBase,
)
from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.rules.codec import content_hash
from mekref.rules.record_type import Record, record


@record
class StoredBay(Record):
    """A transport bay; its capacity in exact tons (the design file's decimal as a fraction)."""

    kind: str
    capacity: Fraction | None
    doors: int | None
    bay_number: int | None
    raw: str
    omnipod: bool = False


@record
class StoredDesign(Record):
    """A unit design as the campaign keeps it: every modelled field of the adapter's
    :class:`UnitDesign`, in the canonical-JSON-safe form events need (exact fractions for
    tons, critical slots as (location, slots) pairs). The reader's unmodelled keys are not kept.
    """

    chassis: str
    model: str
    kind: UnitKind
    movement_mode: str
    tonnage: Fraction | None
    tech_base: TechBase
    rules_level: RulesLevel | None
    intro_year: int | None
    walk_mp: int
    jump_mp: int
    safe_thrust: int | None
    engine: EngineInfo | None
    structure_type: str
    armor_type: str
    locations: tuple[LocationStats, ...]
    structural_integrity: int | None
    crit_slots: tuple[tuple[int, tuple[CritSlot, ...]], ...]
    equipment: tuple[Equipment, ...]
    ammo_bins: tuple[AmmoBin, ...]
    bays: tuple[StoredBay, ...]
    crew: LargeCraftCrew | None
    trooper_count: int | None
    ba_weight_class: str | None
    squad_size: int | None
    squad_count: int | None
    mul_id: int | None
    uuid: str | None
    source_file: str
    omni: bool = False
    support_vehicle: bool = False
    heat_sinks: int | None = None
    heat_sink_type: str | None = None
    quirks: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The design's identity in the campaign: a hash of its content."""
        return design_key(self)

    @property
    def display_name(self) -> str:
        return f"{self.chassis} {self.model}".strip()


def design_key(stored: StoredDesign) -> str:
    return content_hash(stored)[:24]
