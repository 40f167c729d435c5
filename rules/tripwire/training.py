"""Training a skill: eligibility, the one-point step cost, and the limits."""

from __future__ import annotations

from enum import StrEnum

from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.skills import level_rank, training_level
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables


class Skill(StrEnum):
    GUNNERY = "gunnery"
    PILOTING = "piloting"  # Piloting, Driving or Anti-'Mech


class TrainingRoute(StrEnum):
    KILL = "kill"  # took part in a scenario and was awarded a kill
    SIMULATOR = "simulator"  # DropShip simulators: only up to Regular


@record
class Trainee(Record):
    person_id: str
    gunnery: int
    piloting: int
    took_part_with_kill: bool
    trained_this_contract: bool
    dropship_crew: bool = False


def step_cost(from_skill: int, tables: TripWireTables | None = None) -> int:
    t = tables or load_tables()
    row = t.training_steps.get(from_skill)
    if row is None:
        raise Refusal("no_step", f"there is no training step from skill {from_skill}")
    return row.cost


def training_cost(
    trainee: Trainee, skill: Skill, route: TrainingRoute, tables: TripWireTables | None = None
) -> int:
    """SP to improve ``skill`` by one point, or a Refusal saying which rule forbids it."""
    t = tables or load_tables()
    rules = t.training_rules
    if trainee.trained_this_contract:
        raise Refusal(
            "one_skill_per_contract",
            "only one skill may be improved after each contract (the referee may allow it: "
            "--referee NAME --reason TEXT)",
            rules.rules_ref,
        )
    if route is TrainingRoute.KILL and not trainee.took_part_with_kill:
        raise Refusal(
            "not_eligible",
            "L110 'Any MechWarriors ... who took part in a scenario and were awarded "
            "a kill may attempt to train': no kill since this person last trained (each "
            "battle with a kill allows one training; the referee may allow it: --referee NAME "
            "--reason TEXT)",
            rules.simulator_ref,
        )
    gunnery, piloting = trainee.gunnery, trainee.piloting
    current = gunnery if skill is Skill.GUNNERY else piloting
    cost = step_cost(current, t)
    if skill is Skill.GUNNERY:
        gunnery -= 1
    else:
        piloting -= 1
    if abs(gunnery - piloting) > rules.max_gap:
        raise Refusal(
            "skill_gap",
            f"training to {gunnery}/{piloting} would leave a gap above {rules.max_gap}",
            rules.rules_ref,
        )
    if route is TrainingRoute.SIMULATOR:
        # Ruling R-TRAIN-1: "only to a maximum of Regular" is checked on the level the
        # trainee would reach, using the same classifier as force construction.
        reached = training_level(gunnery, piloting, t)
        if level_rank(reached, t) > level_rank(rules.simulator_max_level, t):
            raise Refusal(
                "simulator_limit",
                f"simulators train only up to {rules.simulator_max_level}; "
                f"{gunnery}/{piloting} is {reached}",
                rules.simulator_ref,
            )
    if trainee.dropship_crew:
        cost *= int(t.cost("dropship.train_crew").factor)
    return cost
