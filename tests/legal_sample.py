"""The legal Ginestra sample set up through the console script: the one set-up several test
files start from (both battalions and their militias, with their designs and BV table, checked
against the construction rules, and the strategic map set up)."""

from __future__ import annotations

from collections.abc import Callable

from mekref.daemon.samples.ginestra import LEGAL, LEGAL_MILITIA


def set_up_legal(run: Callable[..., object], db: str, *, name: str, seed: str) -> str:
    """Make the store ``db`` through ``run`` (a console-script runner that fails the test on a
    refusal), and return it."""
    run("campaign", "new", "--db", db, "--name", name, "--seed", seed,
        "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    for side in ("loyalist", "rebel"):
        run("force", "import", "--db", db, "--side", side, str(LEGAL / f"{side}.mul"),
            "--units-dir", str(LEGAL / "units"), "--bv-table", str(LEGAL / "Units.txt"),
            "--militia", LEGAL_MILITIA[side])  # fmt: skip
    run("turn", "setup", "--db", db, "--file", str(LEGAL / "strategic.toml"))
    return db
