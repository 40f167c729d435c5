"""The one registry of rule sets: name -> the :class:`~mekref.rules.kernel.RuleSet` value.

Each rule set's package exports one value that the kernel runs. They are imported here,
explicitly, when first asked for (so ``mekref --help`` does not load five rule sets' tables);
a reader or a static tool follows a name straight to its module.
"""

from __future__ import annotations

from typing import Any

from mekref.rules.kernel import RuleSet
from mekref.rules.refusal import Refusal

#: Every rule set a campaign can be run under, in the order people meet them.
RULESET_NAMES: tuple[str, ...] = (
    "tripwire",
    "succession_wars",
    "dystopian_wars",
    "objectives",
    "house_rules",
)


def ruleset(name: str) -> RuleSet[Any]:
    """The rule set called ``name``, or a refusal listing the known ones."""
    match name:
        case "tripwire":
            from mekref.rules.tripwire.game import TRIPWIRE

            return TRIPWIRE
        case "succession_wars":
            from mekref.rules.succession_wars.game import SUCCESSION_WARS

            return SUCCESSION_WARS
        case "dystopian_wars":
            from mekref.rules.dystopian_wars.game import DYSTOPIAN_WARS

            return DYSTOPIAN_WARS
        case "objectives":
            from mekref.rules.objectives.game import OBJECTIVES

            return OBJECTIVES
        case "house_rules":
            from mekref.rules.house_rules.game import HOUSE_RULES

            return HOUSE_RULES
    raise Refusal(
        "unknown_ruleset", f"no rule set named {name!r}; known: {', '.join(RULESET_NAMES)}"
    )


def all_rulesets() -> tuple[RuleSet[Any], ...]:
    return tuple(ruleset(name) for name in RULESET_NAMES)
