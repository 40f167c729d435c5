"""``mekref replay``: recorded battle files into a fresh campaign, through the daemon's pipeline.

A replay folder holds:

- ``setup.json``: ``{"format": 1, "commands": [...]}``, TripWire commands in their JSON
  form (``mekref.rules.messages.command_text``); the first is ``CreateCampaign``;
- battle files ``*.mul``, applied in name order through the same pipeline ``mekref serve``
  uses (so a replay proves what the daemon would have done);
- optionally ``<file>.after.json`` (same shape as setup.json): referee commands run right
  after that file, e.g. ``SetBattleControl`` or ``CloseBattle``.

The last line printed is ``state-hash: <hex>``: the sha256 of the canonical campaign state
folded from the log. Same files, rule set and seed give the same hash on any machine.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import logging
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.daemon import exit_codes, logs
from mekref.daemon.app import App
from mekref.daemon.campaigns import SNAPSHOT_EVERY
from mekref.daemon.cli_common import add_command, err_console, out_console, print_json
from mekref.daemon.design_lookup import CatalogUnavailable, catalog_lookup
from mekref.daemon.ingest import IngestResult, Outcome
from mekref.daemon.open_app import app_config, opened_app
from mekref.daemon.store import StoreError
from mekref.daemon.watch.scan import is_battle_file
from mekref.rules.codec import CodecError
from mekref.rules.messages import Command
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import CreateCampaign
from mekref.rules.tripwire.game import TRIPWIRE

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

EXIT_NOT_APPLIED = exit_codes.REFUSED
EXIT_BAD_INPUT = exit_codes.USAGE
SETUP = "setup.json"
AFTER = ".after.json"
FORMAT = 1

HELP = "replay recorded battle files into a fresh campaign and print its state hash"
DESCRIPTION = """\
Feed a folder of recorded battle files, and the campaign set-up recorded beside them, through
the same pipeline as mekref serve, into a fresh campaign; print a last line
"state-hash: <hex>". The same folder, rule set and seed give the same hash on any machine,
so CI can replay a recorded campaign and catch a rules change that alters history.

The folder holds setup.json ({"format": 1, "commands": [...]}: rules-engine commands as
JSON, CreateCampaign first), the battle files (*.mul, applied in name order) and optionally
<file>.after.json with referee commands run right after that file (SetBattleControl,
CloseBattle). --ruleset and --seed replace those of the CreateCampaign command.

exit codes: 0 every file applied, 3 a file was not applied (quarantined or unmatched; the hash
is still printed), 2 the folder or its set-up cannot be used (the table: docs/cli.md).
"""
EPILOG = """\
examples:
  mekref replay daemon/samples/replay --ruleset tripwire --seed 7
  mekref replay recorded/ --ruleset tripwire --seed 7 --db /tmp/replay.db    keep the database
  test "$(mekref replay recorded/ --seed 7 | tail -1)" = "state-hash: $EXPECTED"
"""


class ReplayInputError(Exception):
    """The folder cannot be replayed; the message says what to fix."""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = add_command(
        sub, "replay", help=HELP, description=DESCRIPTION, epilog=EPILOG
    )
    parser.add_argument("dir", type=Path, metavar="DIR", help="the replay folder")
    parser.add_argument("--ruleset", metavar="R", help="rule set (default: setup.json's)")
    parser.add_argument("--seed", metavar="N", help="dice seed (default: setup.json's)")
    parser.add_argument(
        "--db", metavar="FILE", help="SQLite file to keep (must be new; default: a temporary one)"
    )
    parser.add_argument(
        "--units-dir", type=Path, metavar="DIR", help="MegaMek unit files, to match designs"
    )
    parser.add_argument(
        "--log-level", default="warning", choices=("debug", "info", "warning", "error")
    )
    parser.add_argument(
        "--json", action="store_true", help="the files, outcomes and state hash as JSON"
    )
    parser.set_defaults(handler=run)


def load_commands(path: Path) -> list[Command]:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReplayInputError(f"{path}: cannot read ({exc.strerror})") from None
    except ValueError as exc:
        raise ReplayInputError(f"{path}: not JSON: {exc}") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise ReplayInputError(f'{path}: expected {{"format": {FORMAT}, "commands": [...]}}')
    raw = body.get("commands")
    if not isinstance(raw, list):
        raise ReplayInputError(f'{path}: "commands" must be a list')
    out: list[Command] = []
    for n, item in enumerate(raw, start=1):
        try:
            out.append(TRIPWIRE.commands.from_json(item))
        except (CodecError, TypeError, ValueError, AttributeError) as exc:
            raise ReplayInputError(f"{path}: command {n}: {exc}") from None
    return out


@dataclass(frozen=True)
class ReplaySet:
    setup: list[Command]
    files: list[Path]
    after: dict[Path, list[Command]]


def read_folder(folder: Path, ruleset: str | None, seed: str | None) -> ReplaySet:
    if not folder.is_dir():
        raise ReplayInputError(f"{folder}: not a folder")
    setup = load_commands(folder / SETUP)
    if not setup or not isinstance(setup[0], CreateCampaign):
        raise ReplayInputError(f"{folder / SETUP}: the first command must be CreateCampaign")
    create = setup[0]
    setup[0] = replace(create, ruleset=ruleset or create.ruleset, seed=seed or create.seed)
    files = sorted(p for p in folder.iterdir() if p.is_file() and is_battle_file(p))
    after = {
        f: load_commands(f.with_name(f.name + AFTER))
        for f in files
        if f.with_name(f.name + AFTER).exists()
    }
    return ReplaySet(setup, files, after)


@dataclass(frozen=True)
class ReplayOutcome:
    state_hash: str
    results: list[IngestResult]
    events: int

    @property
    def all_applied(self) -> bool:
        return all(r.outcome is Outcome.APPLIED for r in self.results)


def replay(
    folder: Path,
    db: str,
    *,
    ruleset: str | None = None,
    seed: str | None = None,
    design_for: DesignLookup | None = None,
    progress: Progress | None = None,
    keep: bool = True,
) -> ReplayOutcome:
    """Replay ``folder`` into the fresh database ``db`` (also used by ``bench.replay``).

    ``keep=False``: ``db`` is thrown away afterwards, so it takes no snapshots (nobody opens
    it cold) and does not flush commits to disk (a crash means replaying again)."""
    spec = read_folder(folder, ruleset, seed)
    with tempfile.TemporaryDirectory(prefix="mekref-replay-") as tmp:
        config = app_config({"db": db, "quarantine": Path(tmp) / "quarantine"}, layered=False)
        with opened_app(
            config,
            designs=design_for,
            snapshot_every=SNAPSHOT_EVERY if keep else None,
            durable=keep,
        ) as app:
            return _replay_into(app, folder, spec, progress)


def _replay_into(
    app: App, folder: Path, spec: ReplaySet, progress: Progress | None
) -> ReplayOutcome:
    store, runner = app.store, app.runner
    if store.list_campaigns():
        raise ReplayInputError(
            f"{app.config.db}: already holds a campaign; replay into a new database"
        )
    create = spec.setup[0]
    assert isinstance(create, CreateCampaign)
    try:
        cid = runner.create(create).campaign_id
        for command in spec.setup[1:]:
            runner.execute(cid, command)
    except Refusal as exc:
        raise ReplayInputError(f"{folder / SETUP}: the rules refused the set-up: {exc}") from None
    task = progress.add_task("replaying", total=len(spec.files)) if progress else None
    results: list[IngestResult] = []
    # The database is new and the replay's own: it holds the campaign's writer section
    # throughout (the pipeline's and the runner's own sections are then taken at no cost)
    # instead of taking the lock file twice per file.
    with store.writer(cid):
        _replay_files(app, cid, spec, progress, task, results)
    # The hash of the state folded from the log. The runner folded, one by one, the events it
    # appended, and nobody else writes to this new database (load folds any event it did not
    # append: there is none); the log holds exactly those events' canonical text, and the
    # codec gives back from a text the event it was made from. A fresh reader of the database
    # folds this same state: decoding the whole log again here would only repeat that (it cost
    # a fifth of a replay). Tests fold a kept replay database cold and compare.
    loaded = runner.load(cid)
    return ReplayOutcome(runner.state_hash(cid, loaded.state), results, loaded.last_seq)


def _replay_files(
    app: App,
    cid: str,
    spec: ReplaySet,
    progress: Progress | None,
    task: TaskID | None,
    results: list[IngestResult],
) -> None:
    try:
        for path in spec.files:
            if progress is not None and task is not None:
                progress.update(task, description=path.name)
            _replay_file(app, cid, path, spec, results)
            # The campaign's state is immutable and only grows: without this, the cycle
            # collector would walk all of it again and again, a cost growing with every
            # battle replayed (a quarter of a 1,000-battle replay). Frozen objects are still
            # freed when their last reference goes; only cyclic garbage already made is kept.
            gc.freeze()
            if progress is not None and task is not None:
                progress.advance(task)
    finally:
        gc.unfreeze()


def _replay_file(
    app: App, cid: str, path: Path, spec: ReplaySet, results: list[IngestResult]
) -> None:
    """One battle file through the pipeline, then the referee's commands recorded after it."""
    # The person running the replay chose this folder, so a link in it is theirs to
    # follow (the installed sample is a folder of links); the watcher never follows one.
    result = app.pipeline.process(path.resolve())
    # Keep the outcome, not the events and the state after the file: holding every file's
    # state would keep every version of a growing campaign alive.
    results.append(replace(result, applied=(), state=None))
    for command in spec.after.get(path, []):
        try:
            app.runner.execute(cid, command)
        except Refusal as exc:
            raise ReplayInputError(
                f"{path.name}{AFTER}: the rules refused {type(command).__name__}: {exc}"
            ) from None


def _result_rows(outcome: ReplayOutcome) -> list[tuple[str, str, str, str, str]]:
    return [
        (
            Path(r.path).name,
            r.outcome.value if r.reason is None else f"{r.outcome.value}: {r.reason}",
            r.battle_id or "-",
            str(r.events),
            (r.sha256 or "")[:16],
        )
        for r in outcome.results
    ]


_COLUMNS = ("file", "outcome", "battle", "events", "sha256")


def _print_results(outcome: ReplayOutcome) -> None:
    rows = _result_rows(outcome)
    if not sys.stdout.isatty():
        # Off a terminal (a CI log, a pipe) the same columns as plain aligned text: rich
        # lays out a table cell by cell, a large part of a long replay's CPU, for lines
        # nobody sees drawn; plain lines also grep and diff cleanly.
        _print_plain(rows)
        print(f"{outcome.events} events in the campaign log")
        return
    from rich.table import Table

    table = Table(title="Replayed files", title_justify="left")
    for column in _COLUMNS:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*row)
    # No markup: file names and quarantine reasons are printed as they are.
    console = out_console()
    console.print(table)
    console.print(f"{outcome.events} events in the campaign log")


def _print_plain(rows: list[tuple[str, str, str, str, str]]) -> None:
    widths = [max(len(cell) for cell in column) for column in zip(_COLUMNS, *rows, strict=True)]
    lines = ["Replayed files"]
    for row in (_COLUMNS, *rows):
        cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        lines.append("  ".join(cells).rstrip())
    sys.stdout.write("\n".join(lines) + "\n")


def _set_up_logging(level: str) -> None:
    """Readable lines on stderr from ``level`` up, structlog loaded only for a line written:
    the pipeline's debug and info lines are below the default level, and importing structlog
    with its console renderer (rich's tracebacks, pygments) is a visible part of its start-up."""

    def configure() -> None:
        from mekref.daemon.logging_setup import configure_logging

        configure_logging("console", level)

    logs.superseded()  # the CLI's own set-up, still pending, is replaced by this one
    logs.set_up(configure, least=logging.getLevelNamesMapping()[level.upper()])


def _say(message: str) -> None:
    """A line to stderr (rich loaded only when there is one to write)."""
    err_console().print(message)


def _progress() -> Progress | None:
    """A progress bar on stderr when it is a terminal; off one the bar drew nothing (it is
    transient), so rich's live display is not loaded for it."""
    if not sys.stderr.isatty():
        return None
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    return Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console(),
        transient=True,
    )


def run(args: argparse.Namespace) -> int:
    _set_up_logging(args.log_level)
    design_for: DesignLookup | None = None
    if args.units_dir is not None:
        try:
            design_for = catalog_lookup(args.units_dir)
        except CatalogUnavailable as exc:
            _say(f"mekref replay: {exc}")
            return EXIT_BAD_INPUT
    if args.db is not None and Path(args.db).exists():
        _say(f"mekref replay: {args.db} exists; replay into a new database file")
        return EXIT_BAD_INPUT
    with tempfile.TemporaryDirectory(prefix="mekref-replay-db-") as tmp:
        db = args.db or str(Path(tmp) / "replay.db")
        bar = _progress()
        try:
            with bar if bar is not None else contextlib.nullcontext():
                outcome = replay(
                    args.dir,
                    db,
                    ruleset=args.ruleset,
                    seed=args.seed,
                    design_for=design_for,
                    progress=bar,
                    keep=args.db is not None,
                )
        except ReplayInputError as exc:
            _say(f"mekref replay: {exc}")
            return EXIT_BAD_INPUT
        except StoreError as exc:
            _say(f"mekref replay: database {db}: {exc}")
            return EXIT_BAD_INPUT
    if args.json:
        print_json(
            {
                "files": [
                    {
                        "file": Path(r.path).name,
                        "outcome": r.outcome.value,
                        "reason": r.reason,
                        "battle_id": r.battle_id,
                        "events": r.events,
                        "sha256": r.sha256,
                    }
                    for r in outcome.results
                ],
                "events": outcome.events,
                "all_applied": outcome.all_applied,
                "state_hash": outcome.state_hash,
            }
        )
        return 0 if outcome.all_applied else EXIT_NOT_APPLIED
    _print_results(outcome)
    if not outcome.all_applied:
        _say("mekref replay: some files were not applied (see the table)")
    print(f"state-hash: {outcome.state_hash}")
    return 0 if outcome.all_applied else EXIT_NOT_APPLIED
