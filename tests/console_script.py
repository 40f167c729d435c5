"""Run ``mekref`` as a user would: the installed console script's own entry point, with its
arguments, standard input, environment and working folder, giving back its exit code and
what it printed on its two streams.

Where it runs:

- **in a fresh process** of the installed console script, nothing preloaded (whatever it needs
  it must import itself): always by :func:`mekref_fresh`; by :func:`mekref` for ``mekref
  serve``, for a call given a ``timeout`` (only a process can be stopped at one), for an
  environment that sets a ``PYTHON*`` variable (read when an interpreter starts), for a call
  from a thread other than the main one, and for every call when
  ``MEKREF_TESTS_FRESH=1`` is set;
- **otherwise in this test process**: the same ``main()`` the console script calls, with its
  streams, environment, folder and logging set-up swapped for the call and put back after. A
  new process pays the interpreter and the rule set's import before the command starts, and
  the suite makes thousands of such calls (docs/testing.md).

What an in-process call cannot show is a command that needs a module only an earlier call
loaded. The fresh-process runs guard that: every command block of the docs
(tests/docs/test_doc_transcripts.py), every rule set's game
(tests/cli/test_cli_every_ruleset.py), the tests that call :func:`mekref_fresh`, and the
whole suite under ``MEKREF_TESTS_FRESH=1`` (docs/testing.md)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The console script the install put beside this interpreter (the venv's ``bin``).
MEKREF = Path(sys.executable).with_name("mekref.exe" if os.name == "nt" else "mekref")


#: Every call in a fresh process (``MEKREF_TESTS_FRESH=1``): the suite as a user's machine runs it.
ALWAYS_FRESH = os.environ.get("MEKREF_TESTS_FRESH") == "1"
#: Seconds a new process may run unless the call says otherwise.
DEFAULT_TIMEOUT = 120.0
#: Commands that always get a fresh process: the daemon installs signal handlers and runs until
#: stopped.
_FRESH_COMMANDS = frozenset({"serve"})


def mekref(
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``mekref ARGS``: its exit code and what it printed, in this process where it can be (see
    the module's docstring). A ``timeout`` is a bound the test relies on (a command that must
    not block): only a process can be stopped at it, so the call gets one."""
    words = [str(a) for a in args]
    if (
        ALWAYS_FRESH
        or timeout is not None
        or _FRESH_COMMANDS.intersection(words[:1])
        or any(name.startswith("PYTHON") for name in env or ())  # read when a process starts
        or threading.current_thread() is not threading.main_thread()
    ):
        return _in_fresh_process(
            words, stdin, env, DEFAULT_TIMEOUT if timeout is None else timeout, cwd
        )
    return _in_this_process(words, stdin, env, cwd)


def mekref_fresh(
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``mekref ARGS`` in a new process of the installed console script, always: for what only
    a process shows (what it imports, an environment read at start-up, its exit)."""
    return _in_fresh_process([str(a) for a in args], stdin, env, timeout, cwd)


def _in_fresh_process(
    words: list[str],
    stdin: str | None,
    env: dict[str, str] | None,
    timeout: float,
    cwd: Path | None,
) -> subprocess.CompletedProcess[str]:
    assert MEKREF.exists(), f"{MEKREF}: the console script is not installed (run 'make install')"
    return subprocess.run(
        [str(MEKREF), *words],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        cwd=cwd,
        check=False,
    )


class _Stream(io.TextIOWrapper):
    """A captured standard stream: text, with the ``buffer`` of bytes a real one has."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", errors="replace", write_through=True)

    def written(self) -> str:
        self.flush()
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return raw.getvalue().decode("utf-8", errors="replace")


def _in_this_process(
    words: list[str], stdin: str | None, env: dict[str, str] | None, cwd: Path | None
) -> subprocess.CompletedProcess[str]:
    from mekref.daemon.cli import main  # the console script's entry point

    saved_env = dict(os.environ)
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_cwd = os.getcwd()
    out, err = _Stream(), _Stream()
    given = io.TextIOWrapper(io.BytesIO((stdin or "").encode("utf-8")), encoding="utf-8")
    try:
        os.environ.update({"NO_COLOR": "1", **(env or {})})
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin, sys.stdout, sys.stderr = given, out, err
        with _logging_as_at_start():
            code = _exit_code(main, words)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess([str(MEKREF), *words], code, out.written(), err.written())


@contextlib.contextmanager
def _logging_as_at_start() -> Iterator[None]:
    """The logging set-up a new process starts with, for one call, and this process's put back
    after: a command sets up structlog only where nothing has (``mekref.daemon.logs``), so an
    earlier call's or test's set-up would otherwise decide where its lines go."""
    import logging

    from mekref.daemon import logs

    root = logging.getLogger()
    saved_root = root.handlers[:], root.level
    structlog = sys.modules.get("structlog")
    saved_config = structlog.get_config() if structlog is not None else None
    logs.superseded()  # no set-up pending from an earlier call
    if structlog is not None:
        structlog.reset_defaults()
    try:
        yield
    finally:
        logs.superseded()
        root.handlers[:], root.level = saved_root
        structlog = sys.modules.get("structlog")
        if structlog is not None:
            structlog.reset_defaults()
            if saved_config is not None:
                structlog.configure(**saved_config)


def _exit_code(main: Any, words: list[str]) -> int:
    """What the interpreter would exit with: ``main``'s return value, ``sys.exit``'s code, or 1
    with the traceback on stderr (as Python prints it) for an exception nothing caught."""
    try:
        return int(main(words))
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1
    except Exception:
        traceback.print_exc()
        return 1


def start_tripwire(tmp_path: Path, commands: Sequence[Any], name: str = "Ginestra") -> str:
    """A TripWire campaign set up through the installed console script from ``commands`` (the
    first starts it), as a user would: the first written to a JSON file and given to ``mekref
    game start``, the rest written one a line to a script and given to one ``mekref game do
    --script`` (which applies them in order and stops at the first refusal); both must succeed.
    Returns the campaign's id; the store is ``tmp_path / "c.db"``.

    One ``game do`` for all the rest, not one per command: each run is a new process that
    imports the rule set and loads the campaign again, and the set-ups here are up to ten
    commands long (``game do FILE`` has its own tests in tests/cli)."""
    from mekref.rules.messages import command_text

    db = str(tmp_path / "c.db")
    first, *rest = commands
    start = tmp_path / "00.json"
    start.write_text(command_text(first), encoding="utf-8")
    began = mekref("game", "start", "--db", db, "--ruleset", "tripwire", "--name", name,
                   str(start), "--json")  # fmt: skip
    assert began.returncode == 0, began.stderr
    campaign: str = json.loads(began.stdout)["campaign_id"]
    if rest:
        # A script line is a whole JSON object on one line.
        lines = (json.dumps(json.loads(command_text(cmd))) for cmd in rest)
        script = tmp_path / "setup.jsonl"
        script.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        done = mekref("game", "do", "--db", db, "--campaign", campaign, "--script", str(script))
        assert done.returncode == 0, done.stderr
    return campaign


@dataclass(frozen=True)
class Measured:
    """A finished ``mekref`` run with what it cost."""

    returncode: int
    stdout: str
    stderr: str
    #: User and system CPU time of the process.
    cpu_seconds: float
    #: Its peak resident memory (VmHWM) in MiB, or None where /proc cannot tell.
    peak_mib: float | None


def _peak_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def mekref_measured(*args: str, timeout: float = 120) -> Measured:
    """Run the console script like :func:`mekref` and measure it.

    The peak memory is read from ``/proc/PID/status`` while the process runs, not from its
    rusage: on Linux a child's ``ru_maxrss`` starts at the peak of the process that started it
    (here the test runner), which would hide what the child itself used. VmHWM only grows, so
    the last reading before the process ends is its peak to within one polling interval."""
    assert MEKREF.exists(), f"{MEKREF}: the console script is not installed (run 'make install')"
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [str(MEKREF), *args],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env={**os.environ, "NO_COLOR": "1"},
        )
        deadline = time.monotonic() + timeout
        peak: int | None = None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            seen = _peak_kib(proc.pid)
            if seen is not None:
                peak = max(peak or 0, seen)
            if time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"mekref {' '.join(args)}: still running after {timeout}s")
            time.sleep(0.005)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(
            returncode=proc.returncode,
            stdout=out.read().decode("utf-8", errors="replace"),
            stderr=err.read().decode("utf-8", errors="replace"),
            cpu_seconds=usage.ru_utime + usage.ru_stime,
            peak_mib=None if peak is None else peak / 1024,
        )


def played_demo(tmp_path: Path, ruleset: str) -> str:
    """``mekref game demo --ruleset RULESET --out DIR`` played to its end; the store it kept."""
    folder = tmp_path / f"{ruleset}-demo"
    played = mekref("game", "demo", "--ruleset", ruleset, "--out", str(folder))
    assert played.returncode == 0, played.stderr
    return str(folder / f"{ruleset}-demo.db")


def played_demo_until(tmp_path: Path, ruleset: str, stop: str) -> str:
    """The bundled demo's start command and its script up to (and with) the first line holding
    ``stop``, given to ``mekref game start`` and ``mekref game do --script`` as a group would;
    the store. (The demo's files come from ``game demo --out``.)"""
    folder = tmp_path / f"{ruleset}-files"
    assert mekref("game", "demo", "--ruleset", ruleset, "--out", str(folder)).returncode == 0
    lines = (folder / f"{ruleset}-demo.jsonl").read_text("utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if stop in line)
    script = tmp_path / "part.jsonl"
    script.write_text("\n".join(lines[: cut + 1]) + "\n", encoding="utf-8")
    db = str(tmp_path / "part.db")
    start = str(folder / f"{ruleset}-demo-start.json")
    began = mekref("game", "start", "--db", db, "--ruleset", ruleset, "--name", "part", start)
    assert began.returncode == 0, began.stderr
    done = mekref("game", "do", "--db", db, "--campaign", "part", "--script", str(script))
    assert done.returncode == 0, done.stderr
    return db


def game_report(db: str, *args: str) -> str:
    """``mekref game report --db DB ARGS``'s words, required to succeed."""
    shown = mekref("game", "report", "--db", db, *args)
    assert shown.returncode == 0, shown.stderr
    return shown.stdout
