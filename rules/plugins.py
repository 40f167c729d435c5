"""Rule modules that add commands and events to the engine register themselves on import.

The engine core knows the campaign basics; rule areas such as battles or the strategic turn
live in their own modules and call :func:`mekref.rules.engine.register_decider` /
``register_evolver`` (and the message registries) at import. Listing them here, and loading
them before the engine decides, folds or decodes anything, keeps that registration complete
no matter which module a caller imported first.
"""

from __future__ import annotations

import importlib

#: Modules that register commands, events, deciders and evolvers. Add yours here.
EXTENSIONS: tuple[str, ...] = (
    "mekref.rules.tripwire.battles",
    "mekref.rules.tripwire.turn.plugin",
)

_loaded = False


def load_extensions() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in EXTENSIONS:
        importlib.import_module(name)
