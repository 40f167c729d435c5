"""The composition root's list of wings: which rule set has front ends beyond the kernel's.

The one place that names the wings (the CLI's commands are named, by module, in
``mekref.daemon.cli.COMMANDS``). Nothing is discovered by importing: a sixth rule set's wing is
added to :func:`wings` by hand. The import contracts allow this module, and only this one in
the core, to import the wings (.importlinter).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from mekref.daemon.wing import Wing


@functools.cache
def wings() -> tuple[Wing, ...]:
    # Imported when first asked: a wing's hooks load its modules only when they run.
    from mekref.daemon.succession_wars.wing import WING as SUCCESSION_WARS
    from mekref.daemon.tripwire.wing import WING as TRIPWIRE

    found = (TRIPWIRE, SUCCESSION_WARS)
    names = [w.ruleset for w in found]
    assert len(set(names)) == len(names), f"two wings for one rule set: {names}"
    return found


def wing_for(ruleset: str) -> Wing | None:
    """The wing of rule set ``ruleset``, or None when it has only the kernel's front ends."""
    return next((w for w in wings() if w.ruleset == ruleset), None)


def servicers() -> dict[str, Callable[[Any], object]]:
    """The wings' gRPC servicer factories by service name; two wings may not serve one."""
    found: dict[str, Callable[[Any], object]] = {}
    for wing in wings():
        for name, factory in wing.servicers.items():
            assert name not in found, f"two wings serve {name}"
            found[name] = factory
    return found
