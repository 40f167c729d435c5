"""Reading a doc's command blocks as transcripts: what to run, in which order, and what the doc
says comes out.

A command is a line of a fenced block that starts with ``mekref `` or ``$ mekref `` (an
``ENV=value`` prefix allowed; backslash continuations joined), or ``$ grpcurl `` (continued
while a quote is open too); in a console session, ``$ export NAME=...`` and ``$ NAME=...``
set a shell variable the session's grpcurl commands use. In a block written as a
console session (its commands start with ``$``), the lines after a command up to the next
``$`` are the output the doc shows: each must appear in what the command printed, ``...``
standing for any text. A ``#`` comment and a description set off by three or more spaces are
cut. A synopsis (``[--side S]``, ``a|b``) runs twice: with every optional part left out and
with every one given, the first choice of each ``a|b``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

#: A message the CLI printed, quoted in a doc ("mekref battle ingest: x.mul: ..."): not a command.
MESSAGE = re.compile(r"mekref( [a-z-]+){0,2}: ")
ENV_WORD = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")
OPTIONAL = re.compile(r"\[([^\[\]]*)\]")
SHELL_BLOCKS = ("", "sh", "console", "shell", "bash")
#: The marker of a block the transcript test does not run; its words say why and which test
#: runs the command instead.
NOT_RUN = "not run by the transcript test"


@dataclass(frozen=True)
class DocCommand:
    where: str  # "docs/cli.md:104"
    text: str  # the command as the doc writes it ("ENV=x mekref ..."), one synopsis variant
    expected: tuple[str, ...]  # the output lines the doc shows (none for most)
    kind: str = "mekref"  # "mekref", "grpcurl" or "set" (a shell variable)

    @property
    def line(self) -> int:
        return int(self.where.rsplit(":", 1)[1])


def fenced_blocks(text: str, *, every: bool = False) -> list[list[tuple[int, str]]]:
    """The lines of each shell or untyped fenced block (toml, python... left out), numbered; a
    block under a ``<!-- not run by the transcript test: WHY -->`` line is left out too (see
    ``not_run``). ``every``: every fenced block, whatever its language or mark."""
    blocks: list[list[tuple[int, str]]] = []
    inside, keep, before = False, False, ""
    for number, raw in enumerate(text.splitlines(), 1):
        fence = raw.strip()
        if fence.startswith("```"):
            inside = not inside
            shell = fence[3:].strip() in SHELL_BLOCKS and NOT_RUN not in before
            keep = inside and (every or shell)
            if keep:
                blocks.append([])
            continue
        if inside and keep:
            blocks[-1].append((number, raw))
        elif not inside and fence:
            before = fence
    return [b for b in blocks if b]


def not_run(text: str) -> list[str]:
    """Why each block a doc marks as not run is not run (the marker's words)."""
    return [line.split(NOT_RUN, 1)[1].removesuffix("-->").strip(": ")
            for line in text.splitlines() if NOT_RUN in line]  # fmt: skip


def joined(block: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Lines with their continuations joined: a trailing backslash, or a synopsis's indented
    ``[--option]`` lines under its command."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, raw in block:
        if not pending and out and raw.startswith(" ") and raw.strip().startswith("["):
            start, prev = out.pop()
            out.append((start, f"{prev} {raw.strip()}"))
            continue
        if not pending:
            start = number
        pending = f"{pending} {raw.strip()}" if pending else raw
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        if _grpcurl(pending) and _open_quote(pending):
            continue
        out.append((start, pending))
        pending = ""
    return out


def _grpcurl(line: str) -> bool:
    return line.strip().removeprefix("$ ").startswith("grpcurl ")


def _open_quote(text: str) -> bool:
    try:
        shlex.split(text)
    except ValueError:  # "No closing quotation": the command goes on on the next line
        return True
    return False


def _kind(line: str) -> str | None:
    """A console line that is not a mekref command: a grpcurl call or a shell variable set."""
    text = line.strip()
    if not text.startswith("$ "):
        return None
    if _grpcurl(text):
        return "grpcurl"
    words = text.removeprefix("$ ").removeprefix("export ")
    if ENV_WORD.match(words.split("=", 1)[0] + "=") and len(shlex.split(words)) == 1:
        return "set"
    return None


def _command_text(line: str) -> tuple[str, bool] | None:
    """The command of a line (env prefix kept) and whether it was written with ``$``."""
    text = line.strip()
    dollar = text.startswith("$ ")
    text = text.removeprefix("$ ")
    words = text.split(" ")
    while words and ENV_WORD.match(words[0]):
        words = words[1:]
    rest = " ".join(words)
    if not rest.startswith("mekref ") or MESSAGE.match(rest):
        return None
    text = re.split(r" {3,}(?!#)", text, maxsplit=1)[0]
    return text, dollar


def _quoted(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` inside quotes: a ``[...]`` there is an argument, not an option."""
    spans, start, quote = [], 0, ""
    for i, ch in enumerate(text):
        if quote and ch == quote:
            spans.append((start, i))
            quote = ""
        elif not quote and ch in "\"'":
            start, quote = i, ch
    return spans


def _optional_groups(text: str) -> list[re.Match[str]]:
    quoted = _quoted(text)
    return [m for m in OPTIONAL.finditer(text)
            if not any(a < m.start() < b for a, b in quoted)]  # fmt: skip


def _variants(text: str) -> list[str]:
    """A synopsis as commands: optional parts all out, then all in (first choice of a|b)."""
    if not _optional_groups(text):
        return [text]
    left_out = given = text
    while groups := _optional_groups(left_out):
        m = groups[0]
        left_out = left_out[: m.start()] + left_out[m.end() :]
    while groups := _optional_groups(given):
        m = groups[0]
        given = given[: m.start()] + m.group(1).split("|")[0] + given[m.end() :]
    return [re.sub(r" +", " ", v).strip() for v in (left_out, given)]


def doc_commands(path: Path, root: Path) -> list[DocCommand]:
    """Every command of ``path``'s shell blocks in order, each synopsis as its variants."""
    found: list[DocCommand] = []
    for block in fenced_blocks(path.read_text(encoding="utf-8")):
        lines = joined(block)
        for i, (number, line) in enumerate(lines):
            kind = _kind(line)
            got = (line.strip(), True) if kind else _command_text(line)
            if got is None:
                continue
            text, dollar = got
            expected: list[str] = []
            if dollar:
                for _, after in lines[i + 1 :]:
                    if after.strip().startswith("$ "):
                        break
                    if after.strip():
                        expected.append(after.strip())
            where = f"{path.relative_to(root)}:{number}"
            if kind:
                found.append(DocCommand(where, text, tuple(expected), kind))
                continue
            found.extend(DocCommand(where, v, tuple(expected)) for v in _variants(text))
    return found


def split_env(text: str) -> tuple[dict[str, str], list[str]]:
    """A command's ``NAME=value`` prefix and its words (``#`` comments cut)."""
    words = shlex.split(text, comments=True)
    env = {}
    while words and ENV_WORD.match(words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    return env, words


def _word(key: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(key)}(?![\w-])")


def names(key: str, text: str) -> bool:
    """Whether ``text`` has the placeholder ``key`` as a whole word."""
    return _word(key).search(text) is not None


def substitute(text: str, subs: dict[str, str]) -> str:
    """``text`` with each placeholder of ``subs`` (longest first, whole words) replaced."""
    for key in sorted(subs, key=len, reverse=True):
        text = _word(key).sub(lambda _m, k=key: subs[k], text)
    return text


def shown(expected: str, printed: str) -> bool:
    """Whether the output line a doc shows appears in what the command printed (``...`` is any
    text; spaces compared loosely)."""
    parts = [re.escape(" ".join(p.split())) for p in expected.split("...")]
    pattern = ".*".join(parts)
    flat = " ".join(printed.split())
    return re.search(pattern, flat) is not None
