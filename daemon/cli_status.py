"""``mekref status``: what the daemon has done, from the database alone."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from mekref.adapters.megamek.held_reasons import GAME_IN_PROGRESS
from mekref.daemon import exit_codes
from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.cli_common import add_command, add_store, db_origin, out_console, print_json
from mekref.daemon.config import default_db
from mekref.daemon.open_app import app_config, start_app
from mekref.daemon.store import EventStore, StoreError, StoreMissing
from mekref.daemon.store.open import redact
from mekref.daemon.terminal import terminal_safe
from mekref.rules.battle_files import BattleFiles

if TYPE_CHECKING:  # rich loads only to print tables, not for --json
    from rich.console import Console
    from rich.table import Table

EXIT_STORE = exit_codes.STORE

HELP = "list ingested, waiting, unmatched and quarantined battle files"
DESCRIPTION = f"""\
Show what mekref serve has done, read from its database (the daemon may be running):

  ingested     files applied to a campaign: path, sha256, battle, when
  waiting      battles that still wait for files (one per side) or for the referee; a battle
               matching no engagement of the strategic map is held until the referee
               confirms it (mekref battle confirm), with the reason
  after        resolved battles whose formations still share the engagement's hex: they meet
               again the next day unless the referee moves one (mekref turn reposition)
  unmatched    good files that belong to no known campaign yet (retried on every rescan)
  savegames    MegaMek savegames of games still in progress (round autosaves): held, not
               applied, until a save of the ended game arrives or the referee applies one
               (mekref battle ingest --game-over)
  quarantined  bad files, with the reason and where the copy is

default database: $MEKREF_DB, db in mekref.toml, else {default_db()}
"""
EPILOG = """\
examples:
  mekref status                                   the default database
  mekref status --db ~/campaigns/tripwire.db
  mekref status --db postgresql://mekref@dbhost/mekref --json | jq '.quarantined[].reason'
"""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = add_command(
        sub, "status", help=HELP, description=DESCRIPTION, epilog=EPILOG
    )
    add_store(parser)
    parser.add_argument("--json", action="store_true", help="print JSON (for scripts)")
    parser.set_defaults(handler=run)


@dataclass(frozen=True)
class Status:
    campaigns: list[dict[str, Any]]
    ingested: list[dict[str, Any]]
    waiting: list[dict[str, Any]]
    unmatched: list[dict[str, Any]]
    quarantined: list[dict[str, Any]]
    #: Savegames held because their game is not over (a round autosave), with the reason.
    savegames_waiting: list[dict[str, Any]] = field(default_factory=list)
    #: Resolved battles whose formations still share the engagement's hex (ruling T-E9).
    after_battles: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "campaigns": self.campaigns,
            "ingested": self.ingested,
            "waiting": self.waiting,
            "after_battles": self.after_battles,
            "savegames_waiting": self.savegames_waiting,
            "unmatched": self.unmatched,
            "quarantined": self.quarantined,
        }


def _when(at: datetime) -> str:
    return at.isoformat()


def collect(store: EventStore, runner: CampaignRunner) -> Status:
    campaigns = store.list_campaigns()
    waiting: list[dict[str, Any]] = []
    after: list[dict[str, Any]] = []
    opened = {c.id: runner.load(c.id) for c in campaigns}
    states = {cid: loaded.state for cid, loaded in opened.items()}
    files = {c.id: runner.game(c.id).battle_files for c in campaigns}

    def battle_of(campaign_id: str, sha256: str) -> str | None:
        found = files[campaign_id]
        return found.battle_of_file(states[campaign_id], sha256) if found else None

    for campaign in campaigns:
        taken = files[campaign.id]
        if taken is None:
            continue  # a rule set without battle files
        waiting += _waiting(campaign.id, taken, states[campaign.id])
        after += _after_battles(campaign.id, taken, states[campaign.id])
    # Held files share one table: a savegame waiting for its game's end says so in its reason.
    held = store.unmatched_files()
    return Status(
        campaigns=[
            {
                "id": c.id,
                "name": c.name,
                "ruleset": c.ruleset,
                "created_at": _when(c.created_at),
                "last_seq": opened[c.id].last_seq,
                # What opening it took: the latest snapshot, then the events after it.
                "snapshot_seq": opened[c.id].snapshot_seq,
                "events_folded": opened[c.id].folded,
            }
            for c in campaigns
        ],
        ingested=[
            {
                "campaign_id": f.campaign_id,
                "path": f.path,
                "sha256": f.sha256,
                # The rules name the battle when the file joins one; the ledger knows which.
                "battle_id": f.battle_id or battle_of(f.campaign_id, f.sha256),
                "when": _when(f.first_seen),
                "events": f.last_seq - f.first_seq + 1,
            }
            for f in store.ingested_files()
        ],
        waiting=waiting,
        after_battles=after,
        unmatched=[
            {"path": u.path, "sha256": u.sha256, "reason": u.reason, "since": _when(u.first_seen)}
            for u in held
            if not u.reason.startswith(GAME_IN_PROGRESS)
        ],
        savegames_waiting=[
            {"path": u.path, "sha256": u.sha256, "reason": u.reason, "since": _when(u.first_seen)}
            for u in held
            if u.reason.startswith(GAME_IN_PROGRESS)
        ],
        quarantined=[
            {
                "path": q.original_path,
                "sha256": q.sha256,
                "reason": q.reason,
                "copy": q.quarantine_path,
                "campaign_id": q.campaign_id,
                "when": _when(q.quarantined_at),
            }
            for q in store.quarantined_files()
        ],
    )


def _waiting(campaign_id: str, taken: BattleFiles[Any], state: Any) -> list[dict[str, Any]]:
    """The campaign's battles waiting for files."""
    found: list[dict[str, Any]] = []
    for battle in taken.waiting(state):
        found.append(
            {
                "campaign_id": campaign_id,
                "battle_id": battle.battle_id,
                "sides_expected": list(battle.sides_expected),
                "sides_reported": list(battle.sides_reported),
                "files": list(battle.files),
                "engagement_id": battle.engagement_id or None,
                # Why it waits for the referee's confirmation (no engagement), or null.
                "held": battle.held or None,
            }
        )
    return found


def _after_battles(campaign_id: str, taken: BattleFiles[Any], state: Any) -> list[dict[str, Any]]:
    """Formations still sharing a hex after the campaign's battles, and what comes next."""
    found: list[dict[str, Any]] = []
    for aftermath in taken.after_battles(state):
        found.append(
            {
                "campaign_id": campaign_id,
                "battle_id": aftermath.battle_id,
                "engagement_id": aftermath.engagement_id,
                "hex": aftermath.hex,
                "formations": [{"formation": f, "side": side} for f, side in aftermath.formations],
                "next": aftermath.text,
            }
        )
    return found


def _table(title: str, columns: list[str], rows: list[list[str]]) -> Table:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left", expand=False)
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        # Text, not markup: paths and reasons come from outside and may hold brackets.
        # Control characters shown escaped: a file name must not drive the terminal.
        table.add_row(*(Text(terminal_safe(cell)) for cell in row))
    return table


def print_status(status: Status, console: Console) -> None:
    names = {c["id"]: c["name"] for c in status.campaigns}
    console.print(
        _table(
            f"Ingested ({len(status.ingested)})",
            ["when", "campaign", "battle", "file", "sha256"],
            [
                [
                    f["when"][:19],
                    names.get(f["campaign_id"], f["campaign_id"]),
                    f["battle_id"] or "-",
                    f["path"],
                    f["sha256"][:16],
                ]
                for f in status.ingested
            ],
        )
    )
    console.print(
        _table(
            f"Battles waiting for files ({len(status.waiting)})",
            ["campaign", "battle", "expected", "reported", "engagement", "held", "waits for"],
            [
                [
                    names.get(b["campaign_id"], b["campaign_id"]),
                    b["battle_id"],
                    ", ".join(b["sides_expected"]),
                    ", ".join(b["sides_reported"]) or "-",
                    b.get("engagement_id") or "-",
                    "held" if b.get("held") else "-",
                    _waits_for(b),
                ]
                for b in status.waiting
            ],
        )
    )
    _print_after(status, console, names)


def _waits_for(battle: dict[str, Any]) -> str:
    """What the battle waits for, and the command that gives it."""
    if battle.get("held"):
        return "the referee's confirmation (below)"
    missing = [s for s in battle["sides_expected"] if s not in battle["sides_reported"]]
    if missing:
        return f"the file of {', '.join(missing)}"
    return f"who holds the field: mekref battle control --battle {battle['battle_id']} --side SIDE"


def _print_after(status: Status, console: Console, names: dict[str, str]) -> None:
    """Held battles and the formations still sharing a hex after the battles."""
    from rich.text import Text

    for b in status.waiting:
        if b.get("held"):
            console.print(
                Text(
                    terminal_safe(
                        f"battle {b['battle_id']} is held until the referee confirms it: "
                        f"{b['held']} (mekref battle confirm --battle {b['battle_id']} "
                        "--referee NAME --reason TEXT)"
                    )
                )
            )
    if status.after_battles:
        console.print(
            _table(
                f"After the battles: formations still sharing a hex ({len(status.after_battles)})",
                ["campaign", "battle", "hex", "formations", "next"],
                [
                    [
                        names.get(a["campaign_id"], a["campaign_id"]),
                        a["battle_id"],
                        a["hex"],
                        ", ".join(f"{f['formation']} ({f['side']})" for f in a["formations"]),
                        a["next"],
                    ]
                    for a in status.after_battles
                ],
            )
        )
    _print_held(status, console)


def _print_held(status: Status, console: Console) -> None:
    """Savegames waiting, unmatched and quarantined files."""
    console.print(
        _table(
            f"Savegames waiting for their game to end ({len(status.savegames_waiting)})",
            ["since", "file", "sha256", "why"],
            [
                [u["since"][:19], u["path"], u["sha256"][:16], u["reason"]]
                for u in status.savegames_waiting
            ],
        )
    )
    console.print(
        _table(
            f"Unmatched ({len(status.unmatched)})",
            ["since", "file", "sha256", "why"],
            [[u["since"][:19], u["path"], u["sha256"][:16], u["reason"]] for u in status.unmatched],
        )
    )
    console.print(
        _table(
            f"Quarantined ({len(status.quarantined)})",
            ["when", "file", "reason", "copy"],
            [[q["when"][:19], q["path"], q["reason"], q["copy"]] for q in status.quarantined],
        )
    )


def run(args: argparse.Namespace) -> int:
    url = args.db
    try:
        app = start_app(app_config({"db": url}), create=False)
    except StoreMissing as exc:
        # Opening would create an empty database and report "nothing done": say so instead.
        print(f"mekref status: {exc}{db_origin(args)}", file=sys.stderr)
        return EXIT_STORE
    except (StoreError, OSError, ValueError) as exc:
        print(
            f"mekref status: cannot open the database {redact(url)}: {exc}; "
            "pass the same --db as mekref serve uses",
            file=sys.stderr,
        )
        return EXIT_STORE
    try:
        status = collect(app.store, app.runner)
    finally:
        app.close()
    if args.json:
        print_json(status.to_json())
    else:
        # Paths are long, and a wrapped one cannot be copied: COLUMNS may widen the tables.
        print_status(status, out_console(columns_from_env=True))
    return 0
