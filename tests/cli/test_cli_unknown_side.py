"""A side the campaign does not have is a usage error, exit 2, with the sides it has (issue 32,
item 4: ``orders list --side wobb`` printed an empty list with exit 0, ``force import
--check-only --side wobb`` a report for nobody). docs/cli.md, "Exit codes": "2 covers ... a
campaign, side, battle or token that is not there"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from console_script import mekref

STORE = Path(__file__).parents[1] / "fixtures" / "stores" / "v1-7490af6" / "ginestra.db"
LEGAL = Path(__file__).parents[2] / "daemon" / "samples" / "ginestra" / "legal"

COMMANDS = {
    "orders list": ["orders", "list"],
    "orders submit": ["orders", "submit", "--day", "1", "--order", "alpha:guard"],
    "orders withdraw": ["orders", "withdraw", "--day", "1", "alpha"],
    "route": ["route", "--formation", "alpha", "--to", "0101"],
    "force list": ["force", "list"],
    "force commanders": ["force", "commanders"],
    "force import --check-only": ["force", "import", "--check-only", str(LEGAL / "rebel.mul")],
    "engagement export": ["engagement", "export", "-o", "out"],
    "map render": ["map", "render", "-o", "wobb.svg"],
    "report --overview": ["report", "--overview"],
    "dropship list": ["dropship", "list"],
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("side") / "ginestra.db"
    shutil.copyfile(STORE, db)
    assert mekref("report", "--db", str(db)).returncode == 0  # upgraded once, not per test
    return db


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_unknown_side_is_refused_with_the_sides_there_are(store: Path, name: str) -> None:
    done = mekref(*COMMANDS[name], "--db", str(store), "--side", "wobb")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert done.stderr.strip().endswith(
        "--side 'wobb': no such side in this campaign; sides: loyalist, rebel"
    ), done.stderr


UNKNOWN_NAMES = {
    "battle control": (
        ["battle", "control", "--battle", "battle-nosuch", "--side", "loyalist"],
        "refused: unknown_battle: no battle 'battle-nosuch'",
    ),
    "battle bv": (
        ["battle", "bv", "--unit", "nosuch", "--bv", "5", "--held-at-start",
         "--referee", "Ann", "--reason", "typo"],
        "refused: unknown_unit: no unit 'nosuch'",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(UNKNOWN_NAMES))
def test_a_battle_or_unit_the_campaign_does_not_have_exits_2(store: Path, name: str) -> None:
    """The rules refuse an unknown name (``unknown_battle``, ``unknown_unit``): exit 2, as the
    table's "a campaign, side, battle or token that is not there" says (it was 3)."""
    argv, said = UNKNOWN_NAMES[name]
    done = mekref(*argv, "--db", str(store))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert said in done.stderr
