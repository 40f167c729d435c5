"""Start-up stays light: ``mekref --help`` imports no command module, and a command on a SQLite
store imports neither gRPC, the PostgreSQL driver nor cairo (timings: bench/startup.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from console_script import mekref

from mekref.daemon import exit_codes

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"

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
        "mekref.daemon.tripwire.cli_report_print",
        "mekref.daemon.tripwire.cli_report_rows",
    ]
    loaded = found["loaded"]
    assert isinstance(loaded, list)
    assert not [
        m for m in loaded if m.split(".")[0] in ("grpc", "psycopg", "cairosvg", "cairocffi")
    ]
    assert "mekref.rules" in loaded  # the probe sees imports (not a vacuous pass)


STATUS_PROBE = r"""
import contextlib, io, json, sys
from mekref.daemon.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
unused = ("structlog", "rich", "lxml", "asyncio", "pygments", "xml.sax.saxutils", "ssl")
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
    left out (issue 28; bench/status.py measures it on a 1,000-battle campaign)."""
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
