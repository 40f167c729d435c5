"""Run the installed ``mekref`` console script in a fresh process, as a user would.

Nothing is preloaded: whatever the script needs it must import itself (a test that imports
rule sets itself can pass while the real entry point cannot load them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: The console script the install put beside this interpreter (the venv's ``bin``).
MEKREF = Path(sys.executable).with_name("mekref.exe" if os.name == "nt" else "mekref")


def mekref(
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    assert MEKREF.exists(), f"{MEKREF}: the console script is not installed (run 'make install')"
    return subprocess.run(
        [str(MEKREF), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        cwd=cwd,
        check=False,
    )


def start_tripwire(tmp_path: Path, commands: Sequence[Any], name: str = "Ginestra") -> str:
    """A TripWire campaign set up through the installed console script from ``commands`` (the
    first starts it): each written to a JSON file as a user would, given with ``mekref game
    start`` / ``mekref game do``, each required to succeed. Returns the campaign's id; the
    store is ``tmp_path / "c.db"``."""
    from mekref.rules.messages import command_text

    db = str(tmp_path / "c.db")
    paths = []
    for i, cmd in enumerate(commands):
        path = tmp_path / f"{i:02d}.json"
        path.write_text(command_text(cmd), encoding="utf-8")
        paths.append(path)
    began = mekref("game", "start", "--db", db, "--ruleset", "tripwire", "--name", name,
                   str(paths[0]), "--json")  # fmt: skip
    assert began.returncode == 0, began.stderr
    campaign: str = json.loads(began.stdout)["campaign_id"]
    for path in paths[1:]:
        done = mekref("game", "do", "--db", db, "--campaign", campaign, str(path))
        assert done.returncode == 0, f"{path.name}: {done.stderr}"
    return campaign
