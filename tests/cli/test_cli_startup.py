"""Start-up stays light: ``mekref --help`` imports no command module, a command on a SQLite
store imports neither gRPC, the PostgreSQL driver nor cairo, a command on a campaign loads its
own rule set's modules and no other's, and ``battle ingest`` loads no logging library
(timings: bench/startup.py, docs/performance.md "Start-up by import")."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from console_script import mekref_fresh as mekref  # what a new process loads

from mekref.daemon import exit_codes
from mekref.daemon.samples.replay import FOLDER as SAMPLE
from mekref.daemon.store.locks import HAS_FLOCK
from mekref.rules.registry import RULESET_NAMES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
EXAMPLES = DOCS.parents[1] / "daemon" / "examples"

PROBE = r"""
import contextlib, io, json, sys
from mekref.daemon.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
heavy = ("grpc", "psycopg", "cairosvg", "cairocffi", "watchdog", "rich", "mekref.rules")
print(json.dumps({
    "code": code,
    "loaded": sorted({m for m in sys.modules for h in heavy if m == h or m.startswith(h + ".")}),
    "commands": sorted(
        m for m in sys.modules
        if m.startswith("mekref.daemon.") and m.rsplit(".", 1)[-1].startswith("cli_")
    ),
}))
"""


def _loaded(*argv: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_help_imports_no_command_module() -> None:
    found = _loaded("--help")
    assert found["code"] == 0
    assert found["commands"] == [] and found["loaded"] == []


def test_a_sqlite_command_loads_neither_grpc_nor_postgres_nor_cairo(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    assert mekref("campaign", "new", "--db", db, "--name", "S").returncode == 0
    found = _loaded("report", "--db", db, "--json")
    assert found["code"] == 0
    assert found["commands"] == [
        "mekref.daemon.cli_common",
        "mekref.daemon.cli_events_json",
        "mekref.daemon.tripwire.cli_campaign",
        "mekref.daemon.tripwire.cli_report",
        "mekref.daemon.tripwire.cli_report_rows",
    ]
    loaded = found["loaded"]
    assert isinstance(loaded, list)
    assert not [
        m for m in loaded if m.split(".")[0] in ("grpc", "psycopg", "cairosvg", "cairocffi")
    ]
    # Nor rich: --json draws no table (the report's tables load when it is printed as text).
    assert not [m for m in loaded if m.split(".")[0] == "rich"]
    assert "mekref.rules" in loaded  # the probe sees imports (not a vacuous pass)


STATUS_PROBE = r"""
import contextlib, io, json, sys
from mekref.daemon.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
unused = ("structlog", "rich", "lxml", "asyncio", "pygments", "xml.sax.saxutils", "ssl",
          "zipfile", "mekref.hexmap.mapfile", "mekref.rules.tripwire.turn.resolve")
print(json.dumps({
    "code": code,
    "status": json.loads(out.getvalue()),
    "loaded": sorted(m for m in unused if m in sys.modules),
}))
"""


def test_status_json_loads_no_logging_terminal_or_xml_library(tmp_path: Path) -> None:
    """``status --json`` logs nothing, draws no table or map and reads no file: structlog
    (with its console renderer's rich, pygments and asyncio), the SVG renderer's escaping
    (``xml.sax.saxutils``: urllib, ssl, email) and lxml, about 0.25 s of its start-up, are
    left out, and so are the hex map's reader (with ``importlib.resources``' zipfile) and the
    day's resolution, which load with the first map read and the first day resolved (issue
    28; bench/status.py measures it on a 1,000-battle campaign)."""
    db = str(tmp_path / "c.db")
    assert mekref("campaign", "new", "--db", db, "--name", "S").returncode == 0
    done = subprocess.run(
        [sys.executable, "-c", STATUS_PROBE, "status", "--db", db, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["code"] == 0
    assert [c["name"] for c in found["status"]["campaigns"]] == ["S"]
    assert found["loaded"] == []
    # The tables still print (rich loaded when they do).
    table = mekref("status", "--db", db)
    assert table.returncode == 0, table.stderr
    assert "Ingested (0)" in table.stdout


def _imported(*argv: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """The installed ``mekref`` run in a fresh process with Python's own import report on
    (``PYTHONPROFILEIMPORTTIME``, one ``import time:`` line on stderr per module loaded): the
    run, its stderr without those lines, and the modules it imported."""
    done = mekref(*argv, env={"PYTHONPROFILEIMPORTTIME": "1"})
    lines = done.stderr.splitlines()
    report = [line for line in lines if line.startswith("import time:")]
    modules = {line.rsplit("|", 1)[-1].strip() for line in report[1:]}  # after the heading
    rest = "\n".join(line for line in lines if not line.startswith("import time:"))
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout, rest), modules


def _rule_sets(modules: set[str]) -> dict[str, list[str]]:
    """The modules loaded of each rule set's package, by rule set."""
    found: dict[str, list[str]] = {}
    for name in RULESET_NAMES:
        package = f"mekref.rules.{name}"
        inside = sorted(m for m in modules if m == package or m.startswith(package + "."))
        if inside:
            found[name] = inside
    return found


def _tripwire_sample(tmp_path: Path) -> str:
    """A TripWire campaign set up from the bundled replay sample's set-up (its units are those
    of the sample's records), no battle taken yet; returns the store's path."""
    folder = tmp_path / "setup"
    folder.mkdir()
    shutil.copyfile(SAMPLE / "setup.json", folder / "setup.json")
    db = str(tmp_path / "tw.db")
    made = mekref("replay", str(folder), "--ruleset", "tripwire", "--seed", "7", "--db", db)
    assert made.returncode == 0, made.stderr
    return db


def test_a_command_on_a_tripwire_campaign_loads_no_other_rule_set(tmp_path: Path) -> None:
    """The registry imports the campaign's rule set only. TripWire takes some of the house
    rules' mechanics through its declared seam (``rules/tripwire/house_seam.py``), so those
    modules load with it; the house rules' own rule set (``house_rules.game``) does not."""
    db = _tripwire_sample(tmp_path)
    for argv in (("status", "--db", db, "--json"), ("game", "state", "--db", db, "--json")):
        done, modules = _imported(*argv)
        assert done.returncode == 0, done.stderr
        loaded = _rule_sets(modules)
        assert "mekref.rules.tripwire.game" in loaded["tripwire"], argv  # not a vacuous pass
        assert set(loaded) <= {"tripwire", "house_rules"}, (argv, sorted(loaded))
        assert "mekref.rules.house_rules.game" not in loaded.get("house_rules", []), argv
        # --json draws nothing: rich loads only where words or a table are printed.
        assert not [m for m in modules if m.split(".")[0] == "rich"], argv


def test_listings_as_json_load_no_terminal_library(tmp_path: Path) -> None:
    """The listings scripts and tests read most (``force list``, ``force commanders``,
    ``salvage list``, ``inspect``) as --json draw no table, so rich does not load; printed as
    text they draw one."""
    db = _tripwire_sample(tmp_path)
    record = str(SAMPLE / "01-bob.mul")
    for argv in (
        ("force", "list", "--db", db),
        ("force", "commanders", "--db", db, "--side", "home"),
        ("salvage", "list", "--db", db, "--side", "home"),
        ("inspect", record),
    ):
        done, modules = _imported(*argv, "--json")
        assert done.returncode == 0, (argv, done.stderr)
        assert done.stdout.lstrip().startswith(("[", "{")), argv
        assert not [m for m in modules if m.split(".")[0] == "rich"], argv
    done, modules = _imported("force", "list", "--db", db)
    assert done.returncode == 0 and "rich.table" in modules  # not a vacuous pass


def test_a_succession_wars_game_start_loads_only_its_rule_set(tmp_path: Path) -> None:
    start = EXAMPLES / "succession_wars-demo-start.json"
    db = str(tmp_path / "sw.db")
    argv = ("game", "start", "--db", db, "--ruleset", "succession_wars", "--name", "SW")
    done, modules = _imported(*argv, str(start))
    assert done.returncode == 0, done.stderr
    assert "state-hash:" in done.stdout
    assert list(_rule_sets(modules)) == ["succession_wars"]
    # MegaMek's files are TripWire's: the MUL model is a type hint only in the shared code.
    assert not [m for m in modules if m.startswith("mekref.adapters.megamek")]


def test_battle_ingest_loads_no_logging_library_nor_yaml(tmp_path: Path) -> None:
    """``battle ingest`` says what became of each file itself: the ingest pipeline's log lines
    are dropped, so structlog (with rich's traceback, pygments and asyncio) never loads; nor
    do PyYAML (``.bfs`` designs only), ``xml.sax.saxutils`` (writing lists) or, where flock
    works, filelock."""
    db = _tripwire_sample(tmp_path)
    record = tmp_path / "01-bob.mul"  # a copy: the installed sample is a link, which ingest refuses
    shutil.copyfile(SAMPLE / record.name, record)
    done, modules = _imported("battle", "ingest", "--db", db, str(record))
    assert done.returncode == 0, done.stderr
    assert "6 units for battle battle-" in done.stdout
    assert "mekref.daemon.ingest" in modules  # not a vacuous pass
    unused = {"structlog", "yaml", "xml.sax.saxutils", "asyncio", "pygments"}
    if HAS_FLOCK:
        unused.add("filelock")
    assert sorted(unused & modules) == []


def test_a_clean_replay_loads_no_logging_library_but_a_warning_still_prints(
    tmp_path: Path,
) -> None:
    """``mekref replay`` writes warnings and worse by default: the pipeline's debug and info
    lines are thrown away before structlog is loaded, and a replay whose files all go in
    cleanly never loads it; ``--log-level info`` still prints each file's lines. Off a
    terminal it draws no progress bar and prints its table as plain text: no rich either."""
    done, modules = _imported("replay", str(SAMPLE), "--ruleset", "tripwire", "--seed", "7")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("state-hash: ")
    assert "mekref.daemon.ingest" in modules  # not a vacuous pass
    assert sorted({"structlog", "pygments", "rich", "asyncio"} & modules) == []
    assert "file        " in done.stdout and "Replayed files" in done.stdout
    chatty, modules = _imported(
        "replay", str(SAMPLE), "--ruleset", "tripwire", "--seed", "7", "--log-level", "info"
    )
    assert chatty.returncode == 0, chatty.stderr
    assert "file.applied" in chatty.stderr and "structlog" in modules


def test_version_comes_from_the_installed_package() -> None:
    from importlib.metadata import version

    done = mekref("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"mekref {version('mekref')}"


def test_the_exit_code_table_in_the_docs_is_the_one_in_the_code() -> None:
    from mekref.adapters.megamek.errors import EXIT_REFUSED_FILE, EXIT_UNREADABLE_FILE

    # The file reader's own codes (inspect, force import) are rows of the same table.
    assert (EXIT_UNREADABLE_FILE, EXIT_REFUSED_FILE) == (
        exit_codes.REFUSED,
        exit_codes.HOSTILE_FILE,
    )
    text = DOCS.read_text(encoding="utf-8")
    for code, meaning in exit_codes.TABLE:
        assert f"| {code} | {meaning} |" in text, (code, meaning)
