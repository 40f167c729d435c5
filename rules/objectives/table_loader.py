"""The objective rule numbers, loaded once from ``tables/objectives.toml``."""

from __future__ import annotations

from functools import cache

from mekref.rules.record_type import Record, record
from mekref.rules.tables import SourceRef, int_field, load_toml, section, source_of

_PACKAGE = "mekref.rules.objectives.tables"


@record
class ObjectiveTables(Record):
    placement_min_inches: int
    placement_ref: SourceRef
    placement_time_ref: SourceRef
    placement_turns_ref: SourceRef
    garrison_destroyed_ref: SourceRef
    claim_range_inches: int
    claim_ref: SourceRef
    open_default_ref: SourceRef
    hidden_default_ref: SourceRef
    search_dice: int
    search_enemy_modifier: int
    search_target: int
    search_ref: SourceRef
    actions_per_round: int
    search_action_cost: int
    scan_action_cost: int
    move_action_cost: int
    actions_ref: SourceRef
    scan_bonus_per_token: int
    scan_max_tokens_per_unit: int
    scan_ref: SourceRef
    carry_max: int
    carry_ref: SourceRef
    pass_ref: SourceRef
    drop_claim_range_inches: int
    drop_ref: SourceRef
    destroyed_ref: SourceRef


@cache
def load_tables() -> ObjectiveTables:
    data = load_toml(_PACKAGE, "objectives.toml")
    placement = section(data, "placement")
    claim = section(data, "claim")
    search = section(data, "search")
    scan = section(data, "scan")
    actions = section(data, "actions")
    carry = section(data, "carry")
    drop = section(data, "drop")
    return ObjectiveTables(
        placement_min_inches=int_field(placement, "min_distance_inches"),
        placement_ref=source_of(placement),
        placement_time_ref=source_of(section(data, "placement_time")),
        placement_turns_ref=source_of(section(data, "placement_turns")),
        garrison_destroyed_ref=source_of(section(data, "garrison_destroyed")),
        claim_range_inches=int_field(claim, "range_inches"),
        claim_ref=source_of(claim),
        open_default_ref=source_of(section(data, "open_default")),
        hidden_default_ref=source_of(section(data, "hidden_default")),
        search_dice=int_field(search, "dice"),
        search_enemy_modifier=int_field(search, "enemy_modifier"),
        search_target=int_field(search, "target"),
        search_ref=source_of(search),
        actions_per_round=int_field(actions, "per_round"),
        search_action_cost=int_field(actions, "search_cost"),
        scan_action_cost=int_field(actions, "scan_cost"),
        move_action_cost=int_field(actions, "move_cost"),
        actions_ref=source_of(actions),
        scan_bonus_per_token=int_field(scan, "bonus_per_token"),
        scan_max_tokens_per_unit=int_field(scan, "max_tokens_per_unit"),
        scan_ref=source_of(scan),
        carry_max=int_field(carry, "max_objectives"),
        carry_ref=source_of(carry),
        pass_ref=source_of(section(data, "pass")),
        drop_claim_range_inches=int_field(drop, "claim_range_inches"),
        drop_ref=source_of(drop),
        destroyed_ref=source_of(section(data, "destroyed")),
    )
