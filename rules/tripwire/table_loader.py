"""The TripWire tables, loaded from ``tables/*.toml`` into typed rows.

Each row keeps its :class:`~mekref.rules.tables.SourceRef` so reports and refusals can quote the
rule they apply.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from mekref.rules.record_type import Record, record
from mekref.rules.tables import (
    FieldRow,
    SourceRef,
    TableError,
    fraction_field,
    int_field,
    load_toml,
    row_record,
    row_records,
    rows,
    section,
    source_of,
    str_field,
    str_list_field,
)
from mekref.rules.tripwire.victory_tables import (
    RetreatTables,
    VictoryTables,
    retreat_tables,
    victory_tables,
)

_PACKAGE = "mekref.rules.tripwire.tables"


def _load(name: str) -> dict[str, Any]:
    return load_toml(_PACKAGE, f"{name}.toml")


@record
class TrainingLevelRow(Record):
    name: str
    rank: int
    combos: tuple[tuple[int, int], ...]  # (gunnery, piloting)
    ref: SourceRef


@record
class CommanderRow(Record):
    level: str
    max_spas: int
    spa_points: int
    skill_bonus: int
    edge: int
    ref: SourceRef


@record
class TransportRow(Record):
    name: str
    wp: int
    ref: SourceRef


@record
class LocationRow(Record):
    name: str
    wp: int
    facilities: tuple[str, ...]
    ref: SourceRef


@record
class WarChestTables(Record):
    wp_per_sp: int
    conversion_ref: SourceRef
    wp_per_cargo_ton: int
    cargo_ref: SourceRef
    transports: dict[str, TransportRow]
    locations: dict[str, LocationRow]


@record
class CostRow(Record):
    key: str
    factor: Fraction
    per: str
    tech_multiplier: bool
    ref: SourceRef


@record
class AmmoTierRow(Record):
    name: str
    match: str  # "substring" or "base"
    keywords: tuple[str, ...]
    ref: SourceRef


@record
class TaskRow(Record):
    key: str
    hours: int
    ref: SourceRef


@record
class InjuryRow(Record):
    hits: int
    label: str
    cost: int | None  # None: "Not Possible"
    ref: SourceRef


@record
class InjuryRules(Record):
    heals_per_track: int
    first_aid_max_hits: int
    hospital_from_hits: int
    death_roll_hits: int
    kia_hits: int
    heal_ref: SourceRef
    treatment_ref: SourceRef
    death_roll_dice: int
    death_roll_dies_from: int
    death_roll_ref: SourceRef
    vehicle_crew_cost_per_damage: int
    vehicle_crew_ref: SourceRef


@record
class TrainingStepRow(Record):
    from_skill: int
    to_skill: int
    cost: int
    ref: SourceRef


@record
class TrainingRules(Record):
    skills_per_contract: int
    max_gap: int
    rules_ref: SourceRef
    simulator_max_level: str
    simulator_ref: SourceRef
    dropship_crew_gunnery: int
    dropship_crew_piloting: int
    dropship_crew_ref: SourceRef


@record
class PriceRow(Record):
    level: str
    cost: int
    spas: int
    ref: SourceRef


@record
class RecruitingTables(Record):
    dice: int
    target: int
    unrest_neutral: int
    bonus_per_unrest_point: int
    ref: SourceRef


class Limit(FieldRow):
    """One force construction limit and the rule line it comes from."""

    def texts(self, name: str) -> tuple[str, ...]:
        return str_list_field(self.values, name)


@record
class TripWireTables(Record):
    training_levels: tuple[TrainingLevelRow, ...]
    commanders: dict[str, CommanderRow]
    warchest: WarChestTables
    costs: dict[str, CostRow]
    ammo_tiers: tuple[AmmoTierRow, ...]
    technician_hours_per_day: int
    technician_ref: SourceRef
    tasks: dict[str, TaskRow]
    injuries: dict[int, InjuryRow]
    injury_rules: InjuryRules
    training_steps: dict[int, TrainingStepRow]  # keyed by the skill trained *from*
    training_rules: TrainingRules
    prices: dict[str, PriceRow]
    vehicle_crew_price_multiplier: int
    vehicle_crew_price_ref: SourceRef
    victory: VictoryTables
    retreat: RetreatTables
    recruiting: RecruitingTables
    force: dict[str, Limit]
    footnotes: dict[str, SourceRef]

    def cost(self, key: str) -> CostRow:
        try:
            return self.costs[key]
        except KeyError:
            raise TableError(f"no cost row {key!r}") from None

    def level(self, name: str) -> TrainingLevelRow:
        for row in self.training_levels:
            if row.name == name:
                return row
        raise TableError(f"no training level {name!r}")


def _training_levels() -> tuple[TrainingLevelRow, ...]:
    out = []
    for row in rows(_load("training_levels"), "level"):
        combos = tuple((int(g), int(p)) for g, p in row["combos"])
        out.append(
            TrainingLevelRow(
                name=str_field(row, "name"),
                rank=int_field(row, "rank"),
                combos=combos,
                ref=source_of(row),
            )
        )
    return tuple(sorted(out, key=lambda r: r.rank))


def _commanders() -> dict[str, CommanderRow]:
    return {
        str_field(r, "name"): row_record(CommanderRow, r, level=str_field(r, "name"))
        for r in rows(_load("commanders"), "level")
    }


def _warchest() -> WarChestTables:
    data = _load("warchest")
    conversion = section(data, "conversion")
    cargo = section(data, "cargo")
    return WarChestTables(
        wp_per_sp=int_field(conversion, "wp_per_sp"),
        conversion_ref=source_of(conversion),
        wp_per_cargo_ton=int_field(cargo, "wp_per_cargo_ton"),
        cargo_ref=source_of(cargo),
        transports={t.name: t for t in row_records(TransportRow, data, "transport")},
        locations={loc.name: loc for loc in row_records(LocationRow, data, "location")},
    )


def _costs() -> dict[str, CostRow]:
    out: dict[str, CostRow] = {}
    for r in rows(_load("costs"), "cost"):
        key = str_field(r, "key")
        if key in out:
            raise TableError(f"duplicate cost row {key!r}")
        tech = r.get("tech_multiplier")
        if not isinstance(tech, bool):
            raise TableError(f"tech_multiplier must be true or false in {key!r}")
        out[key] = CostRow(
            key=key,
            factor=fraction_field(r, "factor"),
            per=str_field(r, "per"),
            tech_multiplier=tech,
            ref=source_of(r),
        )
    return out


def _injuries() -> tuple[dict[int, InjuryRow], InjuryRules]:
    data = _load("injuries")
    table = {}
    for r in rows(data, "injury"):
        cost = r.get("cost")
        table[int_field(r, "hits")] = InjuryRow(
            hits=int_field(r, "hits"),
            label=str_field(r, "label"),
            cost=cost if isinstance(cost, int) else None,
            ref=source_of(r),
        )
    rules = section(data, "rules")
    death = section(data, "death_roll")
    crew = section(data, "vehicle_crew")
    return table, InjuryRules(
        heals_per_track=int_field(rules, "heals_per_track"),
        first_aid_max_hits=int_field(rules, "first_aid_max_hits"),
        hospital_from_hits=int_field(rules, "hospital_from_hits"),
        death_roll_hits=int_field(rules, "death_roll_hits"),
        kia_hits=int_field(rules, "kia_hits"),
        heal_ref=SourceRef(
            line=int_field(rules, "heal_line"), source=str_field(rules, "heal_source")
        ),
        treatment_ref=source_of(rules),
        death_roll_dice=int_field(death, "dice"),
        death_roll_dies_from=int_field(death, "dies_from"),
        death_roll_ref=source_of(death),
        vehicle_crew_cost_per_damage=int_field(crew, "cost_per_damage"),
        vehicle_crew_ref=source_of(crew),
    )


def _training() -> tuple[dict[int, TrainingStepRow], TrainingRules]:
    data = _load("training")
    steps = {}
    for r in rows(data, "step"):
        step = row_record(
            TrainingStepRow, r, from_skill=int_field(r, "from"), to_skill=int_field(r, "to")
        )
        steps[step.from_skill] = step
    rules = section(data, "rules")
    sim = section(data, "simulator")
    crew = section(data, "dropship_crew")
    return steps, TrainingRules(
        skills_per_contract=int_field(rules, "skills_per_contract"),
        max_gap=int_field(rules, "max_gap"),
        rules_ref=source_of(rules),
        simulator_max_level=str_field(sim, "max_level"),
        simulator_ref=source_of(sim),
        dropship_crew_gunnery=int_field(crew, "gunnery"),
        dropship_crew_piloting=int_field(crew, "piloting"),
        dropship_crew_ref=source_of(crew),
    )


def _force() -> dict[str, Limit]:
    data = _load("force_construction")
    out: dict[str, Limit] = {}

    def walk(prefix: str, node: dict[str, Any]) -> None:
        if "line" in node:
            values = {k: v for k, v in node.items() if k not in ("line", "source")}
            out[prefix] = Limit(values=values, ref=source_of(node))
            return
        for key, child in node.items():
            if isinstance(child, dict):
                walk(f"{prefix}.{key}" if prefix else key, child)

    walk("", data)
    return out


@cache
def load_tables() -> TripWireTables:
    """Read every TripWire table once; the result is immutable and shared."""
    injuries, injury_rules = _injuries()
    steps, training_rules = _training()
    tasks_data = _load("tasks")
    technician = section(tasks_data, "technician")
    personnel = _load("personnel")
    crew_multiplier = section(personnel, "vehicle_crew")
    recruiting = section(_load("recruiting"), "captured")
    return TripWireTables(
        training_levels=_training_levels(),
        commanders=_commanders(),
        warchest=_warchest(),
        costs=_costs(),
        ammo_tiers=row_records(AmmoTierRow, _load("ammo_tiers"), "tier"),
        technician_hours_per_day=int_field(technician, "hours_per_day"),
        technician_ref=source_of(technician),
        tasks={t.key: t for t in row_records(TaskRow, tasks_data, "task")},
        injuries=injuries,
        injury_rules=injury_rules,
        training_steps=steps,
        training_rules=training_rules,
        prices={p.level: p for p in row_records(PriceRow, personnel, "price")},
        vehicle_crew_price_multiplier=int_field(crew_multiplier, "multiplier"),
        vehicle_crew_price_ref=source_of(crew_multiplier),
        victory=victory_tables(_load("victory")),
        retreat=retreat_tables(_load("retreat")),
        recruiting=row_record(RecruitingTables, recruiting),
        force=_force(),
        footnotes={str_field(r, "key"): source_of(r) for r in rows(_load("footnotes"), "footnote")},
    )
