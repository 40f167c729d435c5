"""``--json`` for the commands that change a campaign: the events they recorded, as data.

A command that records events (``force import``, ``battle ingest``, ``orders submit``, every
``spend``...) prints words for people. With ``--json`` those words go to stderr and stdout holds
one JSON document a script can rely on: per campaign that grew, the new events with their
outcome in words, and the state hash after them. The events are read back from the store (every
sequence number past the one each campaign had before the command), so what is printed is what
was recorded, whatever path the command took (the rules, a battle file, several campaigns).

Every command with a ``--db`` and no ``--json`` of its own gets it (``add_events_json``), apart
from those that record nothing in a campaign (``WITHOUT_EVENTS``). Neutral: no rule set here.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import Any

from mekref.daemon.cli_common import CliError, opened, print_json
from mekref.daemon.store import EventStore
from mekref.rules.messages import message_to_json

Handler = Callable[[argparse.Namespace], int]

#: Commands with a --db that write no event into a campaign (files, a picture, a token), and
#: the daemon, whose stdout is its log.
WITHOUT_EVENTS = frozenset(
    {"serve", "map render", "engagement export", "battle export-record", "token revoke"}
)

HELP = (
    "print what was recorded as one JSON document on stdout: per campaign its campaign_id, "
    "first_seq, last_seq, the events (each with its outcome in words) and the state_hash; "
    "the words go to stderr"
)


def add_events_json(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> None:
    """Give every command under ``parser`` that records events, and has no --json, the events
    --json. Run once the parser is built."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                add_events_json(child, (*path, name))
            return
    options = {o for a in parser._actions for o in a.option_strings}
    handler = parser.get_default("handler")
    if handler is None or "--json" in options or "--db" not in options:
        return
    if " ".join(path) in WITHOUT_EVENTS:
        return
    parser.add_argument("--json", dest="events_json", action="store_true", help=HELP)
    parser.set_defaults(handler=with_events_json(handler))


def with_events_json(handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        if not getattr(args, "events_json", False):
            return handler(args)
        try:
            before = _last_seqs(args.db)
        except CliError:
            return handler(args)  # no store to read: the command says so itself, exit code too
        with contextlib.redirect_stdout(sys.stderr):
            code = handler(args)
        print_json({"command": args.command_name, "exit_code": code, **_recorded(args, before)})
        return code

    return run


def _last_seqs(db: str) -> dict[str, int]:
    with opened(db) as app:
        return _seqs(app.store)


def _seqs(store: EventStore) -> dict[str, int]:
    return {c.id: store.last_seq(c.id) for c in store.list_campaigns()}


def _recorded(args: argparse.Namespace, before: dict[str, int]) -> dict[str, Any]:
    grown: list[dict[str, Any]] = []
    with opened(args.db) as app:
        for campaign_id, last in sorted(_seqs(app.store).items()):
            first = before.get(campaign_id, 0)
            if last <= first:
                continue
            game = app.runner.game(campaign_id)
            events = [
                {"seq": seq, "outcome": game.outcome(e), "event": message_to_json(e)}
                for seq, e in app.runner.events(campaign_id, after_seq=first)
            ]
            state = app.runner.load(campaign_id).state
            grown.append(
                {
                    "campaign_id": campaign_id,
                    "first_seq": first + 1,
                    "last_seq": last,
                    "events": events,
                    "state_hash": app.runner.state_hash(campaign_id, state),
                }
            )
    return {"campaigns": grown}
