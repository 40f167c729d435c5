"""The exit codes of every ``mekref`` command: one table, the same mistake gives the same code.

docs/cli.md shows the table to users; scripts may rely on it.
"""

from __future__ import annotations

#: Done as asked (``replay``: every file applied; ``inspect``: every file read).
OK = 0
#: Not one of ours on purpose: an unexpected error (Python's own code for an uncaught
#: exception, with its traceback). Report it as a bug.
UNEXPECTED = 1
#: Usage: a flag, argument, setting (mekref.toml, MEKREF_*) or input file (a command's JSON,
#: a replay folder) that cannot be used as given, or a name (campaign, side, battle, token)
#: that is not there. argparse exits 2 too. Nothing was changed.
USAGE = 2
#: Refused: the rules refused the command, or a battle file was not taken in (unreadable,
#: quarantined, unmatched, not for this campaign). Nothing was changed by the refused part;
#: the message quotes the reason.
REFUSED = 3
#: A file refused as hostile or oversized (``inspect``; the daemon quarantines such files).
HOSTILE_FILE = 4
#: The campaign store: none at the place named (only ``campaign new``, ``game start`` and
#: ``serve --create`` create one), or it cannot be opened or used (PostgreSQL unreachable,
#: schema newer than this mekref, a file that is not a store).
STORE = 5
#: Interrupted by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130

TABLE: tuple[tuple[int, str], ...] = (
    (OK, "done"),
    (UNEXPECTED, "unexpected error (a bug: please report it with the traceback)"),
    (USAGE, "usage: a flag, setting, input file or name that cannot be used; nothing changed"),
    (REFUSED, "refused by the rules, or a battle file not taken in; nothing changed"),
    (HOSTILE_FILE, "a file refused as hostile or oversized"),
    (STORE, "no campaign store there, or it cannot be opened or used"),
    (INTERRUPTED, "interrupted (Ctrl-C)"),
)
