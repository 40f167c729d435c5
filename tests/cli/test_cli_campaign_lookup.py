"""``--campaign`` on the TripWire commands: a name or id that is not there lists what is."""

from __future__ import annotations

from pathlib import Path

import pytest

from mekref.daemon.cli import main


def test_an_unknown_campaign_lists_the_campaigns_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "c.db")
    assert main(["campaign", "new", "--db", db, "--name", "Ginestra", "--seed", "7"]) == 0
    capsys.readouterr()
    assert main(["report", "--db", db, "--campaign", "Ginestre"]) == 2
    err = capsys.readouterr().err
    assert "no campaign 'Ginestre'" in err and "Ginestra (" in err
