"""Complete example commands for every rule set: a start command and a first follow-up.

``mekref game example`` prints them, so a group starts from a file that works and edits it,
instead of learning the fields one refusal at a time. Most rule sets ship theirs as JSON
(``daemon/examples/``); a wing may build its own instead (The Succession Wars does, from the
rule set's Order of Battle: :mod:`mekref.daemon.succession_wars.examples`).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from mekref.daemon.wings import wing_for


def example_start(name: str, scenario: str = "") -> dict[str, Any]:
    """The example start command of rule set ``name``, as JSON (``scenario``: for a rule set
    with scenarios)."""
    wing = wing_for(name)
    if wing is not None and wing.example_start is not None:
        return wing.example_start(scenario)
    return _bundled(f"{name}-start.json")


def example_next(name: str, scenario: str = "") -> dict[str, Any]:
    """A command that the campaign set up by :func:`example_start` accepts next."""
    wing = wing_for(name)
    if wing is not None and wing.example_next is not None:
        return wing.example_next(scenario)
    return _bundled(f"{name}-next.json")


def _bundled(filename: str) -> dict[str, Any]:
    files = resources.files("mekref.daemon.examples")
    data: dict[str, Any] = json.loads(files.joinpath(filename).read_text(encoding="utf-8"))
    return data
