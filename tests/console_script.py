"""Run the installed ``mekref`` console script in a fresh process, as a user would.

Nothing is preloaded: whatever the script needs it must import itself (a test that imports
rule sets itself can pass while the real entry point cannot load them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
