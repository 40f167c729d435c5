"""``python -m bench.sizes``: the size ratchet of the source (run by ``make lint`` and CI).

Counts the modules over 500 lines and the functions over 80 lines (by the syntax tree: from
``def`` to the function's last line) in daemon/, rules/, hexmap/ and adapters/, leaving out the
tests and the generated API code. A module whose first lines hold the marker comment
``# sizes: data table`` is a data table, exempt from both limits (a table reads best whole).

Every module and function still over a limit is named, with its size, in ``bench/sizes.txt``.
The check fails when one not in that list appears, when a listed one grows past its listed
size, or when a listed one is back under its limit or gone (strike its line: the list only
shrinks). ``--update`` rewrites the list with what is over now, refusing to add anything.

Last, when the ``duplicates`` command is on the PATH, it prints the pairs of repeated places in
those folders per 1,000 lines, and fails when that rate is over ``DUPLICATES_LIMIT`` (issue 31:
at most 5); a machine without the command skips it with a note. Imports spanning lines are
folded onto one line before it reads them, so that a shared list of imported names is not
counted as repeated code.
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("daemon", "rules", "hexmap", "adapters")
#: Left out: the tests (should a folder grow some) and the code the build generates.
SKIPPED_PARTS = frozenset({"tests", "gen", "__pycache__"})
MODULE_LIMIT = 500
FUNCTION_LIMIT = 80
MARKER = "# sizes: data table"
#: Pairs of repeated places per 1,000 lines above which the check fails (issue 31).
DUPLICATES_LIMIT = 5.0
#: How far down a module the marker may stand (below the docstring, above the imports).
MARKER_LINES = 40
ALLOWLIST = ROOT / "bench" / "sizes.txt"
ALLOWLIST_HEAD = """\
# Modules over 500 lines and functions over 80 lines still waiting to be split: `size key`,
# one a line. `python -m bench.sizes` (make lint) fails on a new one, on one that grows, and
# on a line here whose module or function is back under its limit (strike it): the list only
# shrinks. `python -m bench.sizes --update` rewrites it from the tree, never adding a line.
"""


@dataclass(frozen=True)
class Oversize:
    """A module (``path``) or a function (``path::Class.name``) over its limit."""

    key: str
    size: int


def sources(root: Path) -> list[Path]:
    found: list[Path] = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            if not SKIPPED_PARTS.intersection(path.relative_to(root).parts):
                found.append(path)
    return found


def is_data_table(text: str) -> bool:
    return any(line.strip() == MARKER for line in text.splitlines()[:MARKER_LINES])


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, int]]:
    """(qualified name, lines) of every function, methods and nested functions included."""
    out: list[tuple[str, int]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{node.name}"
            out.append((name, (node.end_lineno or node.lineno) - node.lineno + 1))
            out.extend(_functions(node, f"{name}."))
        elif isinstance(node, ast.ClassDef):
            out.extend(_functions(node, f"{prefix}{node.name}."))
        else:
            out.extend(_functions(node, prefix))
    return out


def oversized(root: Path) -> tuple[list[Oversize], int]:
    """Everything over a limit, and the lines counted (data tables left out)."""
    found: dict[str, int] = {}
    total = 0
    for path in sources(root):
        text = path.read_text(encoding="utf-8")
        if is_data_table(text):
            continue
        rel = path.relative_to(root).as_posix()
        lines = len(text.splitlines())
        total += lines
        if lines > MODULE_LIMIT:
            found[rel] = lines
        for name, size in _functions(ast.parse(text, filename=rel)):
            key = f"{rel}::{name}"
            if size > FUNCTION_LIMIT:
                # Two definitions under one name (a redefinition): the larger one counts.
                found[key] = max(size, found.get(key, 0))
    return [Oversize(k, v) for k, v in sorted(found.items())], total


def read_allowlist(path: Path) -> dict[str, int]:
    listed: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        size, _, key = line.partition(" ")
        if not size.isdigit() or not key:
            raise SystemExit(f"{path}:{number}: expected 'size key', got {line!r}; fix the line")
        listed[key.strip()] = int(size)
    return listed


def write_allowlist(path: Path, entries: list[Oversize]) -> None:
    body = "".join(f"{e.size} {e.key}\n" for e in entries)
    path.write_text(ALLOWLIST_HEAD + body, encoding="utf-8")


def compare(now: list[Oversize], listed: dict[str, int]) -> list[str]:
    """What breaks the ratchet, one line each (empty: it holds)."""
    problems: list[str] = []
    current = {o.key: o.size for o in now}
    for key, size in current.items():
        limit = FUNCTION_LIMIT if "::" in key else MODULE_LIMIT
        if key not in listed:
            problems.append(f"new: {key} is {size} lines (limit {limit}); split it")
        elif size > listed[key]:
            problems.append(
                f"grew: {key} is {size} lines, listed at {listed[key]} (limit {limit}); "
                "split it, or at least bring it back to its listed size"
            )
    for key in listed.keys() - current.keys():
        problems.append(f"done: {key} is under its limit or gone; strike its line (--update)")
    return problems


def folded_imports(text: str) -> str:
    """``text`` with each import spanning lines written on its first line, blank lines after.

    ``duplicates`` passes over import lines, as it says, but reads the names of a parenthesised
    ``from x import (`` list, one a line, as code: two modules importing the same six names
    counted as a repeated place. Folded, the list is passed over like any import; the blank
    lines keep every other line where it was, so the pairs name the lines of the real file."""
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import | ast.ImportFrom) and node.end_lineno != node.lineno:
            first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
            names = ", ".join(f"{a.name} as {a.asname}" if a.asname else a.name for a in node.names)
            head = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
            if isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                head += f"from {module} import {names}"
            else:
                head += f"import {names}"
            lines[first : last + 1] = [head] + [""] * (last - first)
    return "\n".join(lines) + "\n"


def duplicates_problem(pairs: int, lines: int) -> str | None:
    """Why ``pairs`` repeated places in ``lines`` lines fail the check, or None when they pass."""
    rate = pairs / lines * 1000 if lines else 0.0
    if rate <= DUPLICATES_LIMIT:
        return None
    return (
        f"duplicates: {rate:.2f} pairs per 1,000 lines, over the limit of {DUPLICATES_LIMIT}: "
        "share the repeated code (`duplicates --most 40` in a folder lists the pairs)"
    )


def duplicates_rate(root: Path, lines: int) -> tuple[str, str | None]:
    """The ``duplicates`` figure for the checked folders (or a note saying why there is none),
    and the problem when the rate is over its limit.

    The folders are copied side by side into a scratch folder first, so that a place repeated
    across two of them counts, and the tests and generated code beside them do not. In the copy
    each import that spans lines is folded onto its first line (see ``folded_imports``)."""
    command = shutil.which("duplicates")
    if command is None:
        return "duplicates: not on the PATH, so no figure for repeated code (nothing checked)", None
    with tempfile.TemporaryDirectory(prefix="mekref-sizes-") as scratch:
        for path in sources(root):
            copy = Path(scratch) / path.relative_to(root)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(folded_imports(path.read_text(encoding="utf-8")), encoding="utf-8")
        done = subprocess.run(
            [command, "--repo", scratch, "--seconds", "120"],
            capture_output=True,
            text=True,
            check=False,
        )
    answer = done.stdout.splitlines()
    for line in answer:
        if line.startswith("incomplete:"):
            print(f"duplicates: {line}", file=sys.stderr)
    first = answer[0] if answer else ""
    match = re.match(r"\s*(\d+) pairs?", first)
    if match is None and "no duplicates" not in first:
        return f"duplicates: could not read its answer: {first or done.stderr.strip()!r}", None
    pairs = int(match.group(1)) if match else 0
    rate = pairs / lines * 1000 if lines else 0.0
    figure = f"duplicates: {pairs} pairs in {lines} lines, {rate:.2f} per 1,000 lines"
    return figure, duplicates_problem(pairs, lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sizes", description=__doc__)
    parser.add_argument(
        "--update", action="store_true", help="rewrite bench/sizes.txt (it only ever shrinks)"
    )
    parser.add_argument(
        "--no-duplicates", action="store_true", help="skip the duplicates figure (it is slow)"
    )
    args = parser.parse_args(argv)
    now, lines = oversized(ROOT)
    listed = read_allowlist(ALLOWLIST)
    if args.update:
        new = [o.key for o in now if o.key not in listed]
        if new:
            print(f"not added, split them first: {', '.join(new)}", file=sys.stderr)
            return 1
        write_allowlist(ALLOWLIST, [o for o in now if o.key in listed])
        print(f"{ALLOWLIST.relative_to(ROOT)}: {len(now)} lines", file=sys.stderr)
    modules = sum(1 for o in now if "::" not in o.key)
    print(
        f"sizes: {modules} modules over {MODULE_LIMIT} lines, {len(now) - modules} functions "
        f"over {FUNCTION_LIMIT} lines, {len(listed)} listed in {ALLOWLIST.relative_to(ROOT)}"
    )
    problems = [] if args.update else compare(now, listed)
    if not args.no_duplicates:
        figure, problem = duplicates_rate(ROOT, lines)
        print(figure)
        problems += [problem] if problem else []
    for problem in problems:
        print(f"sizes: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
