"""Only the commands that start a campaign create a store; every other command refuses a --db
where there is none, in one line naming the path, with exit code 5 (docs/cli.md)."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

from console_script import MEKREF, mekref, mekref_fresh

from mekref.daemon.cli import build_parser, main
from mekref.daemon.store import open_store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "megamek"
SCRIPTS = Path(__file__).parent / "data" / "scripts"
#: The commands allowed to create a store: they start a campaign.
CREATORS = {"campaign new", "game start"}


def _leaves(
    parser: argparse.ArgumentParser, name: str = ""
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield name.strip(), parser
    for action in subs:
        for sub_name, sub in action.choices.items():
            yield from _leaves(sub, f"{name} {sub_name}")


def _argv_for(name: str, parser: argparse.ArgumentParser, tmp: Path) -> list[str]:
    """The command with every required option given a value that passes its own checks, so
    the first thing that can fail is the store."""
    command = tmp / "command.json"
    command.write_text('{"type": "Anything", "actor": "referee"}', encoding="utf-8")
    # The referee's word, where a command has it: commands that are the referee's alone refuse
    # a missing one before they open the store (a usage error comes first).
    options = {o for a in parser._actions for o in a.option_strings}
    word = ["--referee", "Ann", "--reason", "why"] if {"--referee", "--reason"} <= options else []
    extra = {
        "pool open": ["--location", "Somewhere"],
        "spend bombs": ["--bomb", "he=1"],
        "spend acquire": ["--logistics", "6"],
        "spend hire": ["--gunnery", "4", "--piloting", "5"],
        "orders submit": ["--order", "alpha:hold"],
        "token create": ["--referee"],
        "force designs": ["--units-dir", str(FIXTURES / "units")],
        "battle correct": ["--person", "Ann", "--hits", "1"],  # one of a required pair
    }
    argv = name.split()
    for action in parser._actions:
        if action.dest in ("help", "db") or not (action.required or not action.option_strings):
            continue
        if set(action.option_strings) & set(extra.get(name, [])):
            continue
        if name in ("game do", "game start") and action.dest == "command":
            value = str(command)
        elif action.choices:
            value = str(next(iter(action.choices)))
        elif action.type is int:
            value = "1"
        else:
            value = str(FIXTURES / "bob.mul")
        argv += [action.option_strings[-1], value] if action.option_strings else [value]
    return argv + extra.get(name, []) + ([] if name == "token create" else word)


def test_every_command_but_the_creators_refuses_a_missing_store(tmp_path: Path) -> None:
    leaves = {name: p for name, p in _leaves(build_parser()) if p.get_default("store_option")}
    assert set(leaves) >= CREATORS
    assert len(leaves) > 30, sorted(leaves)  # the walk found the commands (not a vacuous pass)
    for name, parser in sorted(leaves.items()):
        if name in CREATORS:
            continue
        db = tmp_path / name.replace(" ", "-") / "typo.db"
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main([*_argv_for(name, parser, tmp_path), "--db", str(db)])
        lines = err.getvalue().strip().splitlines()
        assert code == 5, f"{name}: exit {code}: {err.getvalue()}"
        assert len(lines) == 1 and f"no campaign store at {db}" in lines[0], name
        assert "mekref campaign new --db" in lines[0], name
        assert not db.parent.exists(), f"{name} created {db.parent}"


def test_a_typo_in_db_creates_nothing_through_the_console_script(tmp_path: Path) -> None:
    made = mekref("campaign", "new", "--db", str(tmp_path / "camp.db"), "--name", "T")
    assert made.returncode == 0, made.stderr
    typo = tmp_path / "cmap.db"
    for argv in (
        ["report"],
        ["status"],
        ["battle", "ingest", str(FIXTURES / "bob.mul")],
        ["token", "list"],
        ["game", "list"],
        ["serve", "--watch", str(tmp_path)],
    ):
        done = mekref(*argv, "--db", str(typo))
        assert done.returncode == 5, (argv, done.stderr)
        assert done.stderr.count("\n") == 1, done.stderr
        assert f"no campaign store at {typo}" in done.stderr
        assert not typo.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db") == ["camp.db"]


def test_a_file_that_holds_no_store_is_refused_and_left_alone(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    done = mekref("report", "--db", str(empty))
    assert done.returncode == 5
    assert "holds no campaign store" in done.stderr
    assert empty.stat().st_size == 0  # no tables were written into it


def test_campaign_new_and_game_start_create_the_store(tmp_path: Path) -> None:
    db = tmp_path / "new" / "folder" / "camp.db"
    made = mekref("campaign", "new", "--db", str(db), "--name", "T", "--seed", "1")
    assert made.returncode == 0, made.stderr
    assert db.is_file() and f"store {db}" in made.stdout
    start = next((SCRIPTS / "objectives").glob("start-*.json"))
    other = tmp_path / "other.db"
    began = mekref("game", "start", "--db", str(other), "--ruleset", "objectives", "--name", "H",
                   str(start), "--json")  # fmt: skip
    assert began.returncode == 0, began.stderr
    with open_store(str(other), create=False) as store:
        assert [c.id for c in store.list_campaigns()] == [json.loads(began.stdout)["campaign_id"]]


def test_serve_creates_the_store_only_with_create(tmp_path: Path) -> None:
    db = tmp_path / "served" / "camp.db"
    refused = mekref_fresh("serve", "--db", str(db), "--watch", str(tmp_path))
    assert refused.returncode == 5 and "or pass --create" in refused.stderr
    assert not db.parent.exists()
    argv = ["serve", "--db", str(db), "--watch", str(tmp_path), "--create", "--log-format", "json"]
    proc = subprocess.Popen(
        [str(MEKREF), *argv],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        for line in proc.stderr:  # the daemon says when its first scan is done
            if "scan.done" in line:
                break
        assert db.is_file()
        with open_store(str(db), create=False) as store:
            assert store.list_campaigns() == []
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
