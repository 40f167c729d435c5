"""``make demo``: show what mekref reads from real MegaMek files.

Run from a checkout: it uses the bundled sample files under ``tests/fixtures/megamek``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

from mekref.daemon.cli import main as cli

SAMPLES = Path.cwd() / "tests" / "fixtures" / "megamek"


def main() -> int:
    console = Console(highlight=False)
    if not SAMPLES.is_dir():
        console.print(f"mekref demo: run it from the project folder (no {SAMPLES})")
        return 2
    steps = [
        (
            "A battle record from a group's campaign: survivors, allies, salvage, devastated, kills",
            ["inspect", str(SAMPLES / "clusterstrike-batchall-record.mul")],
        ),
        (
            "A lance matched to its unit designs (--units-dir): tonnage and tech base from the design",
            [
                "inspect",
                str(SAMPLES / "mekhq-fixedmuls-AlliedCavLance.mul"),
                "--units-dir",
                str(SAMPLES / "units"),
            ],
        ),
    ]
    for title, argv in steps:
        console.rule(f"[bold]{title}")
        console.print(f"$ mekref {' '.join(argv)}", style="dim")
        code = cli(argv)
        if code != 0:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
