"""Every ``mekref`` command the README and docs/*.md show is one the installed parser takes
(issue 32, item 1: "every command shown in the README and in docs/*.md runs in CI ... so a doc
that drifts fails the build"). A renamed flag, a removed command or a wrong choice in a doc
fails here.

What counts as a command: a line of a fenced block that starts with ``mekref `` or
``$ mekref `` (backslash continuations joined). Not commands: a line whose command words end
with ``:`` (a message the CLI printed, ``mekref battle ingest: x.mul: ...``), and synopsis
lines that use ``<...>``, ``[...]``, ``a|b`` or ``...``. What is cut: a ``#`` comment, a shell
redirection or pipe and what follows it, and a description set off by three or more spaces.
Placeholders a synopsis uses for numbers (``N``, ``CF``) are read as 1."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest
from transcripts import MESSAGE, fenced_blocks, joined

from mekref.daemon.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_ENDS = {">", ">>", "|", "2>", "2>&1", "&&", ";", "<"}
NUMBER_PLACEHOLDERS = {"N", "CF"}
SYNOPSIS = re.compile(r"<[^>]*>|\[|\.\.\.|\w\|\w")


def _block_lines(text: str) -> list[tuple[int, str]]:
    """Lines of every fenced block, continuations joined, with the line number of each start
    (the transcript test's reading, every block included)."""
    return [line for block in fenced_blocks(text, every=True) for line in joined(block)]


def _argv(line: str) -> list[str] | None:
    """The arguments after ``mekref`` of a command line, or None for what is not a command."""
    text = line.strip().removeprefix("$ ")
    if not text.startswith("mekref ") or MESSAGE.match(text) or SYNOPSIS.search(text):
        return None
    text = re.split(r" {3,}(?!#)", text, maxsplit=1)[0]  # a description column
    try:
        words = shlex.split(text, comments=True)[1:]
    except ValueError:  # an unclosed quote: shown as is, for the parser test to name
        return [text]
    for i, word in enumerate(words):
        if word in SHELL_ENDS or word.startswith(">"):
            words = words[:i]
            break
    return ["1" if w in NUMBER_PLACEHOLDERS else w for w in words]


def _commands() -> list[tuple[str, list[str]]]:
    found = []
    for doc in DOCS:
        for number, line in _block_lines(doc.read_text(encoding="utf-8")):
            argv = _argv(line)
            if argv is not None:
                found.append((f"{doc.relative_to(ROOT)}:{number}", argv))
    return found


COMMANDS = _commands()


def test_the_docs_show_many_commands() -> None:
    """Not a vacuous pass: the README and the docs show well over a hundred commands."""
    assert len(COMMANDS) > 120
    assert any(where.startswith("README.md") for where, _ in COMMANDS)


@pytest.mark.parametrize("where,argv", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_each_command_shown_is_taken_by_the_parser(where: str, argv: list[str]) -> None:
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
            build_parser(argv).parse_args(argv)
    except SystemExit as exc:
        assert exc.code == 0, f"{where}: mekref {shlex.join(argv)}\n{said.getvalue()}"
