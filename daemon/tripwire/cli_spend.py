"""``mekref spend``: spend WarChest between tracks (and ``mekref pool`` to open pools).

Every action names the pool that pays (``--pool``); the rules refuse with the reason and the
rule line when WP, a facility or the rules do not allow it, and nothing is recorded then.
Repair, rearm, reconfigure and heal happen where the unit (person) stands on the strategic map:
the pool must be in that hex (L58), a technician there (L63), internal structure needs a repair
bay of the unit's type held by the side or a DropShip of the side there (L66), 3+ hits a
hospital there (L126). Technicians work 6 hours a day each (L64): work that does not fit waits
for the next day. Where the map does not say (no map, a captive), only the referee's word
(--referee NAME --reason TEXT, recorded) lets it go ahead; --repair-facility and --hospital
are that word.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    add_command,
    add_db,
    guarded,
    out_console,
)
from mekref.daemon.tripwire import cli_house_xp
from mekref.daemon.tripwire.cli_campaign import execute
from mekref.daemon.tripwire.cli_spend_actions import (
    Builder,
    other_actions,
    people_actions,
    unit_actions,
)
from mekref.rules.messages import Command, Event, RefereeNote
from mekref.rules.tripwire.battle_spending import (
    PersonHired,
    UnitReconfigured,
    UnitRepaired,
)
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.house_acquisition import describe as house_words
from mekref.rules.tripwire.state import PoolKind
from mekref.rules.tripwire.turn.repair_days import booking_note
from mekref.rules.tripwire.turn.transports import LinkTransport

HELP = "spend WarChest between tracks: repair, rearm, heal, train, hire, sell, scrap..."
DESCRIPTION = __doc__.split("\n\n", 1)[1] if __doc__ else ""
EPILOG = """\
examples:
  mekref pool open --db c.db --side red --id union-a --name "Union A" --dropship Union
  mekref pool open --db c.db --side red --id fdb --name "Forward Base" \\
      --location "Forward Deployment Base"
  mekref spend repair --db c.db --unit UNIT --pool union-a --task armor
  mekref spend repair --db c.db --unit UNIT --pool union-a --task internal \\
      --repair-facility --referee Ann --reason "no map: the Union's bay"
  mekref spend heal --db c.db --person PERSON --pool fdb
  mekref spend heal --db c.db --person PERSON --pool union-a --hospital \\
      --referee Ann --reason "MASH truck with the lance"
  mekref spend train --db c.db --person PERSON --pool union-a --skill gunnery
  mekref spend xp --db c.db --person PERSON --skill gunnery   (a campaign with --house-rules)
  mekref spend hire --db c.db --side red --pool fdb --name "Nia Kell" --gunnery 4 --piloting 5
  mekref spend hire --db c.db --side red --pool fdb --name "Ota Brand" --roll-skills Green \\
      --as mechwarrior
  mekref spend sell --db c.db --unit UNIT --pool fdb
  mekref spend recruit --db c.db --person PERSON --pool fdb   # unrest from the map
  mekref spend recruit --db c.db --person PERSON --pool fdb --opponent-unrest 9  # no map
  mekref spend acquire --db c.db --side red --pool union-a \\
      --item "IS Ammo LRM-10 Swarm" --class uncommon --ammo-level 2 --logistics 7
  mekref spend rearm --db c.db --unit UNIT --pool union-a --bid "IS Ammo LRM-10 Swarm=2"
  mekref spend bombs --db c.db --unit UNIT --pool union-a --bomb he=4 --bomb cluster=2
  mekref spend turret --db c.db --side red --location "Forward Deployment Base" --turret 2 \\
      --pool fdb
  mekref spend move --db c.db --from fdb --to union-a --amount 100 \\
      --referee Ann --reason "the convoy trip agreed at the table"
  (on the map WP move by a Load/Unload order, L59:
   mekref orders submit --db c.db --side red --day 3 --order alpha:load_unload \\
       --param alpha:from=fdb --param alpha:to=union-a --param alpha:wp=100)
"""


def _pool(a: argparse.Namespace) -> Command:
    if sum(x is not None for x in (a.dropship, a.location, a.cargo_tons)) != 1:
        from mekref.daemon.cli_common import CliError

        raise CliError("give exactly one of --dropship CLASS, --location NAME, --cargo-tons T")
    kind = PoolKind.DROPSHIP if a.dropship else PoolKind.LOCATION if a.location else PoolKind.CARGO
    return OpenPool(
        pool_id=a.id,
        side_id=a.side,
        name=a.name,
        kind=kind,
        location=a.location,
        dropship_class=a.dropship,
        cargo_tons=Fraction(a.cargo_tons) if a.cargo_tons else None,
        opening_balance=a.balance,
        actor="cli",
    )


def register(sub: Any) -> None:
    kw: dict[str, Any] = {"epilog": EPILOG}
    _register_pool(sub, kw)
    parser: argparse.ArgumentParser = add_command(
        sub, "spend", help=HELP, description=DESCRIPTION, **kw
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION")

    def action(name: str, help_text: str, build: Builder) -> argparse.ArgumentParser:
        a = add_command(actions, name, help=help_text, **kw)
        add_db(a)
        a.set_defaults(handler=guarded(_runner(build)), command_name=f"spend {name}")
        return a

    unit_actions(action)
    people_actions(action)
    other_actions(action)
    # The house rules' experience (a campaign created with --house-rules): xp-costs, xp.
    cli_house_xp.register(actions, kw)


def _register_pool(sub: Any, kw: dict[str, Any]) -> None:
    """``mekref pool open`` and ``mekref pool link``."""
    pool_parser: argparse.ArgumentParser = add_command(
        sub, "pool", help="open a WarChest pool", **kw
    )
    pool_actions = pool_parser.add_subparsers(title="actions", metavar="ACTION")
    p = add_command(pool_actions, "open", help="open a pool (location, DropShip or cargo)", **kw)
    add_db(p)
    p.add_argument("--side", required=True)
    p.add_argument("--id", required=True, help="the pool's id")
    p.add_argument("--name", required=True)
    p.add_argument("--dropship", metavar="CLASS", help="Union (250 WP), Gazelle (2,500 WP)")
    p.add_argument("--location", metavar="NAME", help="a strategic location of the rule set")
    p.add_argument("--cargo-tons", metavar="T", help="a cargo unit: 5 WP per cargo ton")
    p.add_argument("--balance", type=int, help="opening WP (default: the rule set's)")
    p.set_defaults(handler=guarded(_runner(_pool)), command_name="pool open")
    link = add_command(
        pool_actions,
        "link",
        help="link a DropShip or cargo pool to the unit carrying it, at any time (T-C3)",
        **kw,
    )
    add_db(link)
    link.add_argument("--side", required=True)
    link.add_argument("--pool", required=True, help="the DropShip or cargo pool's id")
    link.add_argument("--unit", required=True, help="the unit carrying it (id or unique prefix)")
    link.set_defaults(handler=guarded(_runner(_link)), command_name="pool link")


def _link(a: argparse.Namespace) -> Command:
    return LinkTransport(side_id=a.side, pool_id=a.pool, unit_id=a.unit, actor="cli")


def _runner(build: Builder) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        command = build(args)
        done = execute(args, command)
        console = out_console()
        for event in done.events:
            console.print(describe(event))
            if isinstance(event, UnitRepaired | UnitReconfigured) and event.work_days:
                # The hours wait for a day the formation takes the repair action (R-WHERE-6).
                note = booking_note(done.state, event.unit_id)
                if note:
                    console.print(f"  {note}", markup=False)
            if isinstance(event, PersonHired) and event.seat_type is None:
                print(
                    f"mekref spend hire: warning: no --as: {event.name} is of no type and may "
                    "take any seat (R-SEAT-2); hire with --as mechwarrior, aerospace-pilot "
                    "or vehicle-crew",
                    file=sys.stderr,
                )
        for pool in sorted(done.state.pools.values(), key=lambda p: p.pool_id):
            if pool.pool_id in _pools_named(command):
                console.print(f"  pool {pool.pool_id} ({pool.name}): {pool.balance} WP")
        return EXIT_OK

    return run


def _pools_named(command: Command) -> set[str]:
    return {
        str(v)
        for k, v in vars(command).items()
        if k in ("pool_id", "from_pool", "to_pool") and v is not None
    }


def describe(event: Event) -> str:
    words = house_words(event)
    if words is not None:
        return words
    # What is not there (None, an empty tuple) is left out; a referee's word reads as words.
    fields = {
        k: v
        for k, v in vars(event).items()
        if k not in ("rolls", "actor", "damage_after") and v is not None and v != ()
    }
    text = ", ".join(f"{k}={_value(v)}" for k, v in fields.items())
    rolls = "; ".join(f"{r.name}: {' '.join(map(str, r.faces))}" for r in event.rolls)
    return f"{type(event).TYPE}: {text}" + (f" (dice: {rolls})" if rolls else "")


def _value(v: object) -> object:
    if isinstance(v, RefereeNote):
        return f"{v.referee} ({v.reason})"
    return getattr(v, "value", v)
