"""The parts of the rules and the daemon that this API builds on but that may not be in a build.

Each is looked up by module name at call time; a build without it answers UNIMPLEMENTED for
the RPCs that need it instead of failing to start. Only a missing module counts as absent: an
import error inside a module that is present propagates.
"""

from __future__ import annotations

import importlib
from types import ModuleType

ORDERS_MODULE = "mekref.rules.tripwire.turn.orders"
BATTLES_MODULE = "mekref.rules.tripwire.battles"
BATTLE_INPUT_MODULE = "mekref.daemon.battle_input"
EXPORT_MODULE = "mekref.rules.tripwire.turn.export"


def optional_module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            return None
        raise
