"""A Dystopian Wars campaign driven through the installed console script with typed
``--type``/``--field`` commands, started from the bundled demo's set-up."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from console_script import mekref

SCRIPT = Path(__file__).parents[1] / "cli" / "data" / "scripts" / "dystopian_wars"


class CliCampaign:
    def __init__(self, tmp_path: Path) -> None:
        self.db = str(tmp_path / "dw.db")
        start = SCRIPT / "start-DWCreateCampaign.json"
        began = mekref("game", "start", "--db", self.db, "--ruleset", "dystopian_wars",
                       "--name", "dw", str(start))  # fmt: skip
        assert began.returncode == 0, began.stderr

    def do(self, actor: str, kind: str, **fields: Any) -> subprocess.CompletedProcess[str]:
        args = ["game", "do", "--db", self.db, "--campaign", "dw", "--actor", actor, "--type", kind]
        for name, value in fields.items():
            args += ["--field", f"{name}={json.dumps(value)}"]
        return mekref(*args)

    def ok(self, actor: str, kind: str, **fields: Any) -> str:
        done = self.do(actor, kind, **fields)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def refused(self, actor: str, kind: str, **fields: Any) -> str:
        done = self.do(actor, kind, **fields)
        assert done.returncode != 0, done.stdout
        return done.stderr

    def report(self) -> str:
        shown = mekref("game", "report", "--db", self.db, "--campaign", "dw")
        assert shown.returncode == 0, shown.stderr
        return shown.stdout
