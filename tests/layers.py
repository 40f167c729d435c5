"""The layers of the suite, found from what each test uses (docs/testing.md).

No test file names its layer: ``tests/conftest.py`` marks every collected test here, from the
code it runs. A test is

- ``e2e`` when it, a fixture it requests or a helper of the test tree it calls starts a
  process: the installed ``mekref`` console script in a new process
  (``console_script.mekref_fresh``), ``mekref serve``, or anything else through
  :mod:`subprocess` / :mod:`multiprocessing` (``console_script.mekref`` runs the entry point
  in the test's process: not e2e by itself);
- ``integration`` when it is not e2e but touches the file system, a database or the network:
  it requests ``tmp_path``/``tmpdir``/``tmp_path_factory``, a store, PostgreSQL, the in-process
  gRPC ``api`` server or the in-process ``cli`` fixture (directly or through its fixtures);
- ``unit`` otherwise: values in, values out, bundled files read at most;
- ``postgres`` as well when it needs a PostgreSQL server (a ``pg_*`` fixture);
- ``slow`` as well when its node id is in tests/slow_tests.txt (measured, not guessed).
"""

from __future__ import annotations

import dis
import importlib
import inspect
import multiprocessing
import subprocess
import sys
import types
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).parent
SLOW_LIST = TESTS / "slow_tests.txt"

#: Modules whose use means a new process.
_PROCESS_MODULES = (subprocess, multiprocessing)
#: Fixtures that give a test a folder, a database or a server (with those they request).
_INTEGRATION_FIXTURES = frozenset(
    {"tmp_path", "tmpdir", "store", "store_url", "pg_dsn", "pg_server_dsn", "api", "cli"}
)
_POSTGRES_FIXTURES = frozenset({"pg_dsn", "pg_server_dsn"})
#: The autouse fixture every test gets (a private cache folder): it says nothing of the test.
_EVERY_TEST = "_private_cache_dir"


def _in_tests(obj: Any) -> bool:
    """Defined in a file of the test tree (a helper we may look inside); a decorated helper
    (``@contextmanager``) by the function it wraps."""
    if callable(obj) and not inspect.isclass(obj):
        obj = inspect.unwrap(obj)
    code = getattr(obj, "__code__", None)
    if code is not None:
        return code.co_filename.startswith(str(TESTS))
    try:
        source = inspect.getsourcefile(obj)
    except TypeError:
        return False
    return source is not None and source.startswith(str(TESTS))


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """A code object and those nested in it (lambdas, inner functions, comprehensions)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


_IMPORT_NAME = dis.opmap["IMPORT_NAME"]
_EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]


def _imported(code: types.CodeType) -> Iterator[str]:
    """The modules a code object imports (its IMPORT_NAME instructions), read from the raw
    bytecode: two bytes an instruction, EXTENDED_ARG carrying the high bits of the next one's
    argument. ``dis.get_instructions`` says the same of every instruction, at several times
    the cost (it was most of the marking's time, and the marking runs in every test process)."""
    raw = code.co_code
    high = 0
    for at in range(0, len(raw), 2):
        op, arg = raw[at], raw[at + 1] | high
        high = arg << 8 if op == _EXTENDED_ARG else 0
        if op == _IMPORT_NAME:
            yield code.co_names[arg]


def _referenced(func: Any) -> Iterator[Any]:
    """The objects a function's code names: its globals, and attributes of modules it names."""
    func = inspect.unwrap(func)
    code = getattr(func, "__code__", None)
    if code is None:
        return
    names = {n for c in _codes(code) for n in (*c.co_names, *c.co_freevars)}
    scope = getattr(func, "__globals__", {})
    closure = dict(
        zip(code.co_freevars, (c.cell_contents for c in func.__closure__ or ()), strict=False)
    )
    # Modules imported inside the function (`from console_script import mekref` in a test's
    # body): imported here, as the test would, to look inside them.
    for module in {m for c in _codes(code) for m in _imported(c)}:
        try:
            found = sys.modules.get(module) or importlib.import_module(module)
        except (ImportError, ValueError):  # a relative import: not a helper of ours by name
            continue
        yield found
        yield from (getattr(found, n) for n in names if hasattr(found, n))
    for name in names:
        value = closure.get(name, scope.get(name))
        if value is None:
            continue
        yield value
        if isinstance(value, types.ModuleType) and _in_tests(value):
            # `console_script.mekref(...)`: the attribute named after the module
            yield from (getattr(value, n) for n in names if hasattr(value, n))


#: Test helpers that run a command in the test's own process, though they may start one for
#: a case only a process shows (tests/console_script.py says which): ``console_script.mekref``.
_IN_PROCESS_RUNNERS = frozenset({("console_script", "mekref")})


def _runs_in_this_process(value: Any) -> bool:
    where = (getattr(value, "__module__", None), getattr(value, "__qualname__", None))
    return where in _IN_PROCESS_RUNNERS


class ProcessFinder:
    """Whether a piece of test code starts a process, remembered per function."""

    def __init__(self) -> None:
        self._known: dict[int, bool] = {}

    def starts_process(self, func: Any) -> bool:
        key = id(func)
        if key not in self._known:
            self._known[key] = False  # a cycle of helpers starts nothing by itself
            self._known[key] = any(self._is_starter(v) for v in _referenced(func))
        return self._known[key]

    def _is_starter(self, value: Any) -> bool:
        if _runs_in_this_process(value):
            return False
        if isinstance(value, types.ModuleType):
            return value in _PROCESS_MODULES
        if getattr(value, "__module__", None) in ("subprocess", "multiprocessing"):
            return True
        if not _in_tests(value):
            return False
        if inspect.isclass(value):
            return any(self.starts_process(m) for m in vars(value).values() if callable(m))
        return callable(value) and self.starts_process(value)


def _fixture_funcs(item: pytest.Item) -> Iterable[Any]:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return ()
    return (d.func for defs in info.name2fixturedefs.values() for d in defs)


def slow_seconds(path: Path = SLOW_LIST) -> dict[str, float]:
    """The listed slowest tests: node id -> the seconds measured."""
    if not path.exists():
        return {}
    found: dict[str, float] = {}
    for line in path.read_text("utf-8").splitlines():
        # "node id  # seconds s": a node id may hold a "#" itself, never two spaces before one.
        node, _, note = line.partition("  # ")
        node = node.strip()
        if node and not node.startswith("#"):
            seconds = note.split()[0] if note.split() else ""
            found[node] = float(seconds) if seconds.replace(".", "", 1).isdigit() else 0.0
    return found


def slow_ids(path: Path = SLOW_LIST) -> frozenset[str]:
    return frozenset(slow_seconds(path))


def layer_of(item: pytest.Item, finder: ProcessFinder) -> str:
    func = getattr(item, "function", None)
    if func is not None and finder.starts_process(func):
        return "e2e"
    if any(finder.starts_process(f) for f in _fixture_funcs(item)):
        return "e2e"
    if set(getattr(item, "fixturenames", ())) & _INTEGRATION_FIXTURES:
        return "integration"
    # tmp_path_factory is in every test's closure (the autouse cache folder): it counts only
    # when the test or another of its fixtures asks for it.
    info = getattr(item, "_fixtureinfo", None)
    asked = [info.argnames] if info is not None else []
    if info is not None:
        asked += [
            d.argnames for n, ds in info.name2fixturedefs.items() if n != _EVERY_TEST for d in ds
        ]
    if any("tmp_path_factory" in names for names in asked):
        return "integration"
    return "unit"


def mark_layers(items: list[pytest.Item]) -> None:
    """Add the layer markers to every collected test (see the module's docstring)."""
    finder = ProcessFinder()
    slow = slow_ids()
    for item in items:
        item.add_marker(layer_of(item, finder))
        if _POSTGRES_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker("postgres")
        if item.nodeid in slow:
            item.add_marker("slow")
