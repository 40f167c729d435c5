"""Rule sets plug into the engine by name; ``tripwire`` is the first.

The engine core (commands, events, the fold) is the same for every campaign; what a rule set
supplies is the judgement: is this force legal, what does a pool hold, what does healing cost.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol

from mekref.rules.dice import Dice, Roll
from mekref.rules.force_report import ForceReport
from mekref.rules.model import ForceDescription
from mekref.rules.refusal import Refusal


class RuleSet(Protocol):
    @property
    def name(self) -> str: ...

    def check_force(self, force: ForceDescription) -> ForceReport: ...

    def location_wp(self, location: str) -> int: ...

    def dropship_wp(self, dropship_class: str) -> int: ...

    def cargo_wp_capacity(self, cargo_tons: Fraction) -> int: ...

    def kia_hits(self) -> int: ...

    def heal_cost(self, hits: int) -> int: ...

    def needs_hospital(self, hits: int) -> bool: ...

    def death_roll_due(self, hits: int) -> bool: ...

    def roll_death(self, dice: Dice, person_id: str) -> tuple[Roll, bool, Dice]: ...


def _tripwire() -> RuleSet:
    from mekref.rules.tripwire.ruleset import TripWire

    return TripWire()


_REGISTRY = {"tripwire": _tripwire}


def ruleset_names() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


def load_ruleset(name: str) -> RuleSet:
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise Refusal(
            "unknown_ruleset", f"no rule set named {name!r}; known: {', '.join(ruleset_names())}"
        ) from None
    return factory()
