"""Command scripts: several commands of a campaign in one file, one command a line.

A group keeps the commands of a session (or a whole game) in a file and replays it with
``mekref game do --script FILE``: each line is a command as ``game do`` takes it, with its
``actor``, typed (``OBJClaim actor=red objective_id=hill squad_id=red-tank``, words quoted as a
shell would) or as a JSON object (a line starting with ``{``); blank lines and lines starting
with ``#`` are skipped. Line numbers are the file's,
so a refusal names the line to fix and ``--from LINE`` goes on from there.

The bundled demos (``daemon/examples/<rule set>-demo-start.json`` and ``-demo.jsonl``) are
scripts of this kind: ``mekref game demo --ruleset R`` plays one in a throw-away store.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from mekref.daemon.typed_commands import TypedCommandError, parse_words, split_line

#: Rule sets with a bundled demo game: a start command and a script to its end.
DEMOS = ("dystopian_wars", "objectives", "succession_wars")
EXAMPLES_PACKAGE = "mekref.daemon.examples"


class ScriptError(ValueError):
    """A script that cannot be read: the message names the file, the line and what to do."""


@dataclass(frozen=True)
class ScriptLine:
    """One command of a script: its line number in the file and its JSON, not yet decoded."""

    number: int
    data: dict[str, Any]


def parse_script(
    text: str, where: str, actor: str | None = None, first: int = 1
) -> tuple[ScriptLine, ...]:
    """The commands of a script from line ``first`` on, in order. ``actor`` fills in a command
    that names none.

    Every line is checked before any command runs, so a typo on the last line is found before
    the first one changes the campaign."""
    out: list[ScriptLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if number < first or not line or line.startswith("#"):
            continue
        data = _line_data(line, f"{where}:{number}")
        if "actor" not in data:
            if actor is None:
                raise ScriptError(
                    f'{where}:{number}: say who gives the command: "actor" in the JSON or '
                    "--actor ('referee', or a side)"
                )
            data["actor"] = actor
        out.append(ScriptLine(number, data))
    if not out:
        after = f" from line {first} on" if first > 1 else ""
        raise ScriptError(f"{where}: no command in it{after} (only blank lines and # comments)")
    return tuple(out)


def _line_data(line: str, where: str) -> dict[str, Any]:
    """A line's command: a JSON object when it starts with ``{``, else typed words."""
    if not line.startswith("{"):
        try:
            return parse_words(split_line(line, where), where)
        except TypedCommandError as exc:
            raise ScriptError(str(exc)) from None
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ScriptError(
            f"{where}:{exc.colno}: not JSON ({exc.msg}); a line starting with {{ is a whole "
            "JSON object, any other a typed command: TYPE key=value ..."
        ) from None
    if not isinstance(data, dict):
        raise ScriptError(f'{where}: a command is a JSON object: {{"type": "...", "actor": ...}}')
    return data


def demo_files(name: str) -> tuple[str, str]:
    """The bundled start command and script of rule set ``name``'s demo (file names)."""
    if name not in DEMOS:
        raise ScriptError(f"{name} has no bundled demo; demos: {', '.join(DEMOS)}")
    return f"{name}-demo-start.json", f"{name}-demo.jsonl"


def bundled_text(filename: str) -> str:
    """A file shipped in ``mekref.daemon.examples``."""
    return resources.files(EXAMPLES_PACKAGE).joinpath(filename).read_text(encoding="utf-8")
