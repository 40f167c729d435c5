"""The bundled demo games (``daemon/examples/<rule set>-demo*``), written from the scripted games
the rule sets' own tests play through the Python API.

Those games are deterministic (the dice are seeded), so the list of commands they give replays
to the same events through ``mekref game start`` and ``mekref game do --script``. Each demo is a
start command (``<rule set>-demo-start.json``) and a script of the commands that follow, one a
line (``<rule set>-demo.jsonl``). The tests play the bundled files; this module writes them and
``test_cli_game_scripts.py`` checks they still match the Python games.

Rewrite them after changing one of the scripted games::

    .venv/bin/python tests/cli/demo_games.py
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "daemon" / "examples"
for _folder in ("dystopian_wars", "objectives", "succession_wars"):
    if str(ROOT / "tests" / _folder) not in sys.path:
        sys.path.insert(0, str(ROOT / "tests" / _folder))

from mekref.rules.messages import Command, message_to_json  # noqa: E402

#: (start command, [(comment or None, command)]) of one demo.
Game = tuple[dict[str, Any], list[tuple[str | None, Command]]]


def _line(command: Command) -> str:
    return json.dumps(message_to_json(command), ensure_ascii=False)


@contextmanager
def _recording(rule_set: Any, into: list[Command]) -> Iterator[None]:
    """Record every command the rule set's ``execute`` is called with, in order (the tests'
    games call ``RULE_SET.execute``; the frozen value's method is shadowed for the while)."""
    original: Callable[..., Any] = rule_set.execute

    def execute(state: Any, command: Command) -> Any:
        into.append(command)
        return original(state, command)

    object.__setattr__(rule_set, "execute", execute)
    try:
        yield
    finally:
        object.__delattr__(rule_set, "execute")


def dystopian_wars() -> Game:
    import test_dw_campaign

    from mekref.rules.dystopian_wars.game import DYSTOPIAN_WARS

    # play_campaign records its own commands but not the stakes dw_helpers.stake_all makes.
    commands: list[Command] = []
    with _recording(DYSTOPIAN_WARS, commands):
        test_dw_campaign.play_campaign(DW_SEED)
    start, *rest = commands
    # The script ends with the command that wins the campaign (the Python game goes on to the
    # repairs of that last battle).
    state = DYSTOPIAN_WARS.execute(DYSTOPIAN_WARS.initial_state(), start)[1]
    lines: list[tuple[str | None, Command]] = []
    for command in rest:
        battle = getattr(command, "battle_id", None)
        note = f"battle {battle}" if type(command).TYPE == "DWStartBattle" else None
        lines.append((note, command))
        state = DYSTOPIAN_WARS.execute(state, command)[1]
        if state.winner:
            break
    return message_to_json(start), lines


def objectives() -> Game:
    from test_obj_scenario import SCRIPT

    start, *rest = SCRIPT
    lines = [
        (f"round {getattr(c, 'round', '')}" if type(c).TYPE == "OBJStartRound" else None, c)
        for c in rest
    ]
    return message_to_json(start), lines


def succession_wars() -> Game:
    from sw_campaign import play_campaign

    from mekref.rules.succession_wars import game

    played = play_campaign()
    start, *rest = played.commands
    data = message_to_json(start)
    data["map"] = "sample"  # 'mekref game start' fills the shipped board in by name
    state = game.SUCCESSION_WARS.execute(game.SUCCESSION_WARS.initial_state(), start)[1]
    lines: list[tuple[str | None, Command]] = []
    turn = None
    for command in rest:
        now = (state.round, str(state.active))
        note = f"round {now[0]}, {now[1]}'s turn" if now != turn else None
        turn = now
        lines.append((note, command))
        state = game.SUCCESSION_WARS.execute(state, command)[1]
    return data, lines


DW_SEED = "bangkok-1870"

HEADERS = {
    "dystopian_wars": (
        "The Dystopian Wars campaign, Kingdom of Britannia (brit) against the Empire of the",
        "Blazing Sun (sun), seed 'bangkok-1870', from dystopian_wars-demo-start.json: the group's",
        "map, the territory MARs, then battles that Britannia wins by its Field Order, with",
        "stakes and repairs in dry dock, until Britannia holds 11 territories",
        "(L16-L20 'Victory Conditions': the first fleet that conquers 11 Territories).",
    ),
    "objectives": (
        "An objectives scenario, red against blue, seed 'night-raid', from",
        "objectives-demo-start.json: four objectives (hill open, crate mobile, cache hidden and",
        "mobile, vault hidden in the bunker), six rounds of claims, scans, searches, a pass, a",
        "Close Quarters kill and a drop, ending in round 6 with red extracting the crate.",
    ),
    "succession_wars": (
        "The Succession Wars, two players: Ann holds Davion and Steiner, Bo holds Kurita, Marik",
        "and Liao (L13), seed 'succession-wars-test', sample map, from",
        "succession_wars-demo-start.json. Two rounds: Liao takes Daniels, Kurita bribes Michael",
        "Hasek-Davion, Davion buys a JumpShip and a ComStar Interdict; in round 2 Liao jumps onto",
        "New Avalon and the battle fought in MegaMek is reported: Bo controls four of the five",
        "House capitals and wins (L15).",
    ),
}

GAMES: dict[str, Callable[[], Game]] = {
    "dystopian_wars": dystopian_wars,
    "objectives": objectives,
    "succession_wars": succession_wars,
}


def texts(name: str) -> dict[str, str]:
    """The files of demo ``name``: file name -> text."""
    start, lines = GAMES[name]()
    header = [f"# {line}" for line in HEADERS[name]]
    header += [
        "#",
        "# Play it: mekref game demo --ruleset " + name,
        f"# or: mekref game start --db demo.db --ruleset {name} --name Demo {name}-demo-start.json",
        f"#     mekref game do --db demo.db --campaign Demo --script {name}-demo.jsonl",
        "# One command a line (JSON, with its actor); blank lines and # comments are skipped.",
        "# Written by tests/cli/demo_games.py from the rule set's scripted test game.",
    ]
    body: list[str] = []
    for note, command in lines:
        if note is not None:
            body += ["", f"# {note}"]
        body.append(_line(command))
    return {
        f"{name}-demo-start.json": json.dumps(start, indent=1, ensure_ascii=False) + "\n",
        f"{name}-demo.jsonl": "\n".join([*header, *body]) + "\n",
    }


def main() -> None:
    for name in GAMES:
        for filename, text in texts(name).items():
            (EXAMPLES / filename).write_text(text, encoding="utf-8")
            print(f"wrote {EXAMPLES / filename}")


if __name__ == "__main__":
    main()
