"""Matching a file's entities to campaign units: externalId first, then names, never a guess."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from mekref.adapters.megamek.mul_model import Entity, MulFile, RootKind, Section
from mekref.rules.tripwire.battle_input import (
    AmbiguousMatch,
    FileNotForCampaign,
    campaign_matches,
    match_units,
    report_command,
)
from mekref.rules.tripwire.battle_messages import SubmitBattleReport

from .builders import mek, pilot, record, unit_list
from .conftest import Cli
from .states import campaign, fu

SHA = "c" * 64


def _file(*entities: Entity) -> MulFile:
    return MulFile(root=RootKind.RECORD, version="0.49.19", entities=entities)


def _anonymous(entity: Entity) -> Entity:
    crew = entity.crew
    assert crew is not None
    members = tuple(replace(m, external_id=None) for m in crew.members)
    return replace(entity, external_id=None, crew=replace(crew, members=members))


def test_external_id_matches_first() -> None:
    state = campaign((fu("g1"), fu("g2")), (fu("j1"),))
    mul = _file(mek("Griffin", "GRF-1N", "g2", pilot("Someone", "x"), section=Section.SURVIVORS))
    assert match_units(state, mul) == {0: ("g2", "external_id")}
    assert campaign_matches(state, mul)


def test_pilot_external_id_matches_when_the_unit_has_none() -> None:
    state = campaign((fu("g1"), fu("g2")), (fu("j1"),))
    entity = replace(mek("Griffin", "GRF-1N", "zz", pilot("Gus", "p-g2")), external_id=None)
    assert match_units(state, _file(entity)) == {0: ("g2", "pilot_external_id")}


def test_same_design_without_ids_is_ambiguous_and_names_the_candidates() -> None:
    jenner = fu("j1", chassis="Jenner", model="JR7-D")
    state = campaign((fu("g1", pilot="Kai"), fu("g2", pilot="Gus")), (jenner,))
    stranger = _anonymous(mek("Griffin", "GRF-1N", "x", pilot("Stranger", "y")))
    with pytest.raises(AmbiguousMatch) as caught:
        match_units(state, _file(stranger))
    assert caught.value.entity == "Griffin GRF-1N"
    assert [c.split()[0] for c in caught.value.candidates] == ["g1", "g2"]
    assert "g1 (Griffin GRF-1N, Kai, side red)" in str(caught.value)


def test_the_pilot_name_decides_between_units_of_one_design() -> None:
    state = campaign((fu("g1", pilot="Kai"), fu("g2", pilot="Gus")), (fu("j1"),))
    gus = _anonymous(mek("Griffin", "GRF-1N", "x", pilot("Gus", "y")))
    assert match_units(state, _file(gus)) == {0: ("g2", "name")}


def test_a_unique_design_matches_by_name() -> None:
    state = campaign((fu("g1"),), (fu("j1", chassis="Jenner", model="JR7-D"),))
    jenner = _anonymous(mek("Jenner", "JR7-D", "x", pilot("Anyone", "y")))
    assert match_units(state, _file(jenner)) == {0: ("j1", "name")}
    assert campaign_matches(state, _file(jenner))


def test_a_file_of_another_campaign_is_refused_with_the_reason() -> None:
    state = campaign((fu("g1"),), (fu("j1"),))
    other = mek("Atlas", "AS7-D", "elsewhere", pilot("Nobody", "p-elsewhere"))
    assert not campaign_matches(state, _file(other))
    with pytest.raises(FileNotForCampaign, match="none of its 1 unit ids and 1 person ids"):
        report_command(state, _file(other), sha256=SHA, path="x.mul", design_for=None, actor="t")


def test_report_command_carries_pure_data() -> None:
    state = campaign((fu("g1"),), (fu("j1"),))
    mul = _file(
        mek(
            "Griffin", "GRF-1N", "g1", pilot("Pilot g1", "p-g1", hits=2), section=Section.SURVIVORS
        ),
        mek("Atlas", "AS7-D", "bot-1", pilot("Bot", "b"), section=Section.SALVAGE),
    )
    cmd = report_command(state, mul, sha256=SHA, path="/logs/Ann.mul", design_for=None, actor="t")
    assert isinstance(cmd, SubmitBattleReport)
    assert cmd.file.path == "Ann.mul" and cmd.file.sha256 == SHA
    assert [u.unit_id for u in cmd.file.units] == ["g1"]
    assert cmd.file.units[0].crew[0].person_id == "p-g1" and cmd.file.units[0].crew[0].hits == 2
    assert cmd.file.unmatched == ("Atlas AS7-D",)


def test_the_cli_names_ambiguous_candidates_in_one_line(cli: Cli, tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    assert cli("campaign", "new", "--db", db, "--name", "A", "--seed", "1",
               "--side", "red:Red", "--side", "blue:Blue")[0] == 0  # fmt: skip
    twins = [
        mek("Griffin", "GRF-1N", "g1", pilot("Kai", "p1")),
        mek("Griffin", "GRF-1N", "g2", pilot("Gus", "p2")),
    ]
    (tmp_path / "red.mul").write_text(unit_list(twins), encoding="utf-8")
    ok = ("--unchecked", "--referee", "Ann", "--reason", "test")
    assert (
        cli("force", "import", "--db", db, "--side", "red", str(tmp_path / "red.mul"), *ok)[0] == 0
    )
    stranger = _anonymous(
        mek("Griffin", "GRF-1N", "x", pilot("Stranger", "y"), section=Section.SURVIVORS)
    )
    (tmp_path / "r.mul").write_text(record([stranger]), encoding="utf-8")
    code, _, err = cli("battle", "ingest", "--db", db, str(tmp_path / "r.mul"))
    assert code == 3
    assert "fits 2 campaign units" in err and "g1 (Griffin GRF-1N, Kai" in err and "g2" in err
    assert len(err.strip().splitlines()) == 1
    line = err.split("--assign ")[1].split("=")[0]
    code, _, err = cli("battle", "ingest", "--db", db, str(tmp_path / "r.mul"),
                       "--assign", f"{line}=g2")  # fmt: skip
    assert code == 2 and "referee's word" in err
    word = ("--referee", "Ann", "--reason", "it is Gus's")
    code, out, err = cli("battle", "ingest", "--db", db, str(tmp_path / "r.mul"),
                         "--assign", f"{line}=g2", *word)  # fmt: skip
    assert code == 0, err
    assert "1 units for battle" in out
    other = mek(
        "Atlas", "AS7-D", "elsewhere", pilot("Nobody", "p-elsewhere"), section=Section.SURVIVORS
    )
    (tmp_path / "o.mul").write_text(record([other]), encoding="utf-8")
    code, _, err = cli("battle", "ingest", "--db", db, str(tmp_path / "o.mul"))
    assert code == 3 and "not for this campaign" in err
