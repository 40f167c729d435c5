"""What a wing gives the rule-set-neutral core: the few hooks where the core's shared front
ends (``mekref game``, the gRPC API, the proto schema) need something of one rule set.

A wing is a rule set's front ends (its CLI commands, its gRPC services and reports, its demo)
in a package of its own (``mekref.daemon.tripwire``, ``mekref.daemon.succession_wars``). The
core never imports a wing (.importlinter); the composition root, :mod:`mekref.daemon.wings`,
lists them, and the core asks it for the hooks of a campaign's rule set. Every hook is
optional: a rule set without a wing runs on the kernel's commands, views and summary alone.
What the kernel itself needs of a rule set is a field of :class:`~mekref.rules.kernel.RuleSet`,
not a hook here.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class WingInputError(Exception):
    """A wing's refusal of what the user gave (a map file, a scenario): one line to show."""


@dataclass(frozen=True)
class Wing:
    """One rule set's hooks into the core. Functions import their modules when called, so
    registering a wing loads nothing heavy (``mekref --help`` stays fast)."""

    ruleset: str
    #: ``mekref game report`` for a rule set whose kernel has no ``summarize``: the wing's
    #: own report (TripWire's books), run with the ``game report`` arguments.
    report: Callable[[argparse.Namespace], int] | None = None
    #: ``mekref game example``: the example start command as JSON, given the scenario ("" for
    #: the default), when it is built rather than bundled (daemon/examples/).
    example_start: Callable[[str], dict[str, Any]] | None = None
    #: ``mekref game example --next``: a command the example start accepts next, as JSON.
    example_next: Callable[[str], dict[str, Any]] | None = None
    #: The scenarios ``--scenario`` may name, the first the default; empty: no scenarios.
    scenarios: tuple[str, ...] = ()
    #: ``mekref game start --map``: fills the board into the start command's JSON (read from
    #: ``where``); returns a warning or None, raises :class:`WingInputError`. None: no --map.
    fill_map: Callable[[dict[str, Any], str, Path | None], str | None] | None = None
    #: The names a start command's fields take, by field name, read from the command's JSON
    #: (its board filled in): the set-up's Houses and Regions, matched without case before
    #: the campaign exists. None: the rule set's ``field_names`` of its initial state.
    start_names: Callable[[dict[str, Any]], Mapping[str, tuple[str, ...]]] | None = None
    #: Warnings to print once a campaign has started, given its state.
    start_warnings: Callable[[Any], tuple[str, ...]] | None = None
    #: gRPC servicers this wing implements, by service full name (``mekref.v1.OrdersService``):
    #: a factory taking the servers' shared ``Services``. A service no wing implements is
    #: served by the core's servicer, or answers UNIMPLEMENTED.
    servicers: Mapping[str, Callable[[Any], object]] = field(default_factory=dict)
    #: Types the wing's services send besides the rule set's commands, events and views
    #: (``make proto-schema`` writes messages for them).
    proto_roots: Callable[[], tuple[type, ...]] | None = None
    #: The rule set's players' pages for ``mekref serve --web`` (a
    #: :class:`mekref.daemon.web.site.RulesetPages`); None: the generic page built from the
    #: command schemas serves its campaigns.
    web_pages: Callable[[], Any] | None = None
