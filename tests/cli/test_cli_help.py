"""Every command's --help teaches by example, and the examples can be pasted into a shell."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

from mekref.daemon.cli import build_parser


def _commands(parser: argparse.ArgumentParser, name: str) -> Iterator[tuple[str, str]]:
    yield name, parser.format_help()
    for action in parser._actions:  # argparse keeps sub-commands only here
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _commands(sub, f"{name} {sub_name}")


def test_every_command_shows_examples() -> None:
    missing = [
        name for name, text in _commands(build_parser(), "mekref") if "examples:" not in text
    ]
    assert not missing


def test_a_long_example_keeps_its_line_continuation() -> None:
    # A lone backslash at the end of a line inside a Python string joins the lines: the help
    # then shows one long line with a gap instead of a shell continuation.
    joined = [
        line
        for _, text in _commands(build_parser(), "mekref")
        for line in text.splitlines()
        if line.lstrip().startswith("mekref ") and re.search(r"\S {4,}--", line)
    ]
    assert not joined
