"""``mekref inspect`` as a user runs it: real files in, tables or JSON out, clear errors."""

from __future__ import annotations

import gzip
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref, mekref_fresh

from mekref.daemon.cli import main

FIXTURES = Path(__file__).parent.parent / "fixtures" / "megamek"
RECORD = FIXTURES / "clusterstrike-batchall-record.mul"
_SAVE_XML = gzip.decompress(
    (FIXTURES / "savegames" / "megamek-Bug-Displacement.sav.gz").read_bytes()
)


def _installed_json(path: Path) -> dict[str, Any]:
    """``inspect --json`` through the installed console script, in a fresh process."""
    r = mekref("inspect", str(path), "--json")
    assert r.returncode == 0, r.stderr
    loaded: dict[str, Any] = json.loads(r.stdout)
    return loaded


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["inspect", *args, "--json"]) == 0
    loaded: dict[str, object] = json.loads(capsys.readouterr().out)
    return loaded


def test_json_of_a_battle_record(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, str(RECORD))
    assert out["root"] == "record"
    assert out["version"] == "1337.50.12"
    units = out["units"]
    assert isinstance(units, list)
    atlas = units[0]
    assert atlas["section"] == "survivors"
    assert (atlas["chassis"], atlas["model"]) == ("Atlas III", "AS7-D2")
    assert atlas["external_id"] == "56095766-4d41-46c8-b9e3-742923074c74"
    assert atlas["destroyed_locations"] == ["Left Arm"]
    assert atlas["crew"][0]["name"] == "Demi-Precentor Epsilon IX Tony Liu"
    # <pilot ... name="...Lönnroth" hits="Dead" ejected="true">
    fish_fry = [u for u in units if "Lönnroth" in u["crew"][0]["name"]]
    assert all(u["crew"][0]["dead"] and u["crew"][0]["hits"] == 6 for u in fish_fry)
    kills = out["kills"]
    assert {"killed": "Rifleman RFL-8D (Federated Suns Officer)",
            "killer": "56095766-4d41-46c8-b9e3-742923074c74"} in kills  # fmt: skip
    assert {"killed": "Pilot Ubaldo bin Abdul (Federated Suns Officer)", "killer": None} in kills


def test_units_dir_adds_design_facts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lst = tmp_path / "lance.mul"
    lst.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<unit version="0.49.19">\n'
        '<entity chassis="Griffin" model="GRF-1N" type="Biped">'
        '<pilot name="Kai" gunnery="3" piloting="4" ejected="false"/></entity>\n'
        '<entity chassis="Unknown" model="X-1" type="Biped"/>\n</unit>\n',
        encoding="utf-8",
    )
    out = _json(capsys, str(lst), "--units-dir", str(FIXTURES / "units"))
    griffin, unknown = out["units"]  # type: ignore[misc]
    assert griffin["tonnage"] == 55 and griffin["tech_base"] == "inner_sphere"
    assert griffin["unit_type"] == "biped_mek" and griffin["kind_source"] == "design"
    assert unknown["design_found"] is False and unknown["tonnage"] is None


def test_table_output_names_sections_and_pilots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(RECORD)]) == 0
    text = capsys.readouterr().out
    for expected in ("survivors (1)", "salvage (8)", "devastated", "kills (5)", "Atlas III"):
        assert expected in text


def test_truncated_file_is_one_line_with_position_and_exit_3(tmp_path: Path) -> None:
    cut = tmp_path / "half.mul"
    cut.write_bytes(RECORD.read_bytes()[:4000])
    run = subprocess.run(
        [sys.executable, "-m", "mekref.daemon.cli", "inspect", str(cut)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 3
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr
    assert f"{cut}:" in lines[0] and "truncated" in lines[0]


def test_hostile_file_is_refused_with_exit_4(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.mul"
    bomb.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE unit [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<unit>&b;</unit>\n'
    )
    assert main(["inspect", str(bomb)]) == 4


@pytest.mark.parametrize("kind", ["missing", "truncated", "hostile", "gzip bomb"])
def test_json_of_a_file_not_read_is_no_document(tmp_path: Path, kind: str) -> None:
    """``inspect --json`` of one file it refuses prints its line on stderr and nothing on
    stdout (it printed ``[]``, a list where a read file gives an object)."""
    path = tmp_path / ("bomb.sav.gz" if kind == "gzip bomb" else "x.mul")
    if kind == "truncated":
        path.write_bytes(RECORD.read_bytes()[:4000])
    elif kind == "hostile":
        path.write_text('<?xml version="1.0"?>\n<!DOCTYPE unit [<!ENTITY a "a">]>\n<unit/>\n')
    elif kind == "gzip bomb":
        path.write_bytes(gzip.compress(b"\0" * (40 << 20), compresslevel=9))
    run = mekref_fresh("inspect", str(path), "--json")
    assert run.returncode == {"missing": 2, "truncated": 3}.get(kind, 4), run.stderr
    assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1
    both = mekref_fresh("inspect", str(path), str(RECORD), "--json")
    assert [u["file"] for u in json.loads(both.stdout)] == [str(RECORD)]


def test_a_savegame_name_on_bytes_that_are_not_gzip_says_so(tmp_path: Path) -> None:
    """A ``.sav.gz`` that is not gzip (renamed, empty) is refused as such, in ``inspect`` and
    in the reason file ``battle ingest`` quarantines with; it was read as XML and told to
    export a unit list again. A savegame cut short says to save the game again."""
    made = mekref_fresh("campaign", "new", "--db", str(tmp_path / "c.db"), "--name", "T",
                        "--side", "a:A", "--side", "b:B")  # fmt: skip
    assert made.returncode == 0, made.stderr
    for name, data, said in (
        ("renamed.sav.gz", b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "not a gzip file"),
        ("empty.sav.gz", b"", "file is empty"),
        ("cut.sav.gz", gzip.compress(_SAVE_XML[: len(_SAVE_XML) // 2]), "save the game again"),
    ):
        path = tmp_path / name
        path.write_bytes(data)
        run = mekref_fresh("inspect", str(path))
        assert run.returncode == 3 and said in run.stderr, run.stderr
        assert "unit list" not in run.stderr
        ingest = mekref_fresh("battle", "ingest", "--db", str(tmp_path / "c.db"), str(path))
        assert ingest.returncode == 3, ingest.stderr
        reason = (tmp_path / "quarantine" / f"{name}.reason.txt").read_text(encoding="utf-8")
        assert said in reason and "unit list" not in reason


def test_missing_file_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "/no/such/file.mul"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_help_teaches() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mekref.daemon.cli", "inspect", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "--units-dir" in run.stdout and "exit codes" in run.stdout


def test_bracketed_names_print_verbatim(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Pilot names come from the file: rich markup in them must neither vanish nor crash the table.
    text = RECORD.read_text(encoding="utf-8")
    renamed = text.replace("Orselina Ríos", "Orselina [red] Ríos [/b]")
    record = tmp_path / "[draft] record.mul"
    record.write_text(renamed, encoding="utf-8")
    assert main(["inspect", str(record)]) == 0
    out = capsys.readouterr().out
    assert "[draft] record.mul" in out and "[red]" in out and "[/b]" in out


def test_bracketed_missing_path_is_named_verbatim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "[/old]" / "gone.mul"
    assert main(["inspect", str(missing)]) == 2
    assert f"{missing}: cannot read" in capsys.readouterr().err


def test_inspect_calls_armour_damage_damage(tmp_path: Path) -> None:
    lst = tmp_path / "atlas.mul"
    lst.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<unit version="0.49.19">\n'
        '<entity chassis="Atlas" model="AS7-D" type="Biped">'
        '<pilot name="Kai" gunnery="3" piloting="4" ejected="false"/>'
        '<location index="2"> Right Torso <armor points="3"/></location></entity>\n'
        '<entity chassis="Griffin" model="GRF-1N" type="Biped">'
        '<pilot name="Lo" gunnery="3" piloting="4" ejected="false"/>'
        '<location index="3"> Left Torso <slot index="5" type="IS Ammo LRM-10" shots="12"/>'
        "</location></entity>\n</unit>\n",
        encoding="utf-8",
    )
    atlas, griffin = _installed_json(lst)["units"]
    assert (atlas["state"], atlas["damaged_locations"]) == ("damaged", ["Right Torso"])
    # A location written for its ammunition only is not damage.
    assert griffin["state"] == "intact"


def _inspect_into(reader: str) -> subprocess.CompletedProcess[str]:
    """``mekref inspect --json`` of every fixture piped into the shell command ``reader``."""
    fixtures = sorted((Path(__file__).parents[1] / "fixtures" / "megamek").glob("*.mul"))
    mekref = Path(sys.executable).with_name("mekref")
    shell = f"{mekref} inspect --json {' '.join(shlex.quote(str(p)) for p in fixtures)} | {reader}"
    return subprocess.run(["bash", "-c", f"set -o pipefail; {shell}"], capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip


def test_a_reader_that_leaves_early_gets_no_traceback() -> None:
    """`mekref inspect ... --json | head -1`: the reader leaves after one line. The JSON is one
    write, so whether mekref was still writing when it left depends on the pipe: either way no
    traceback, and the exit code a shell tool would give (0, or 128 + SIGPIPE)."""
    done = _inspect_into("head -1")
    assert done.stdout.strip() == "["  # one JSON list of the files, cut after its first line
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode in (0, 141), done.returncode


def test_a_reader_gone_before_the_write_ends_it_as_a_shell_tool() -> None:
    """`mekref inspect ... --json | true`: the reader is gone before mekref (a slower start)
    writes, so the write meets a closed pipe: no traceback, exit 128 + SIGPIPE."""
    done = _inspect_into("true")
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode == 141  # 128 + SIGPIPE, as a shell tool ends


def test_the_guessed_kind_footnote_only_when_a_kind_was_guessed(tmp_path: Path) -> None:
    """The '?' footnote explains a mark in the table; with every design found there is none."""
    lst = tmp_path / "griffin.mul"
    lst.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<unit version="0.49.19">\n'
        '<entity chassis="Griffin" model="GRF-1N" type="Biped">'
        '<pilot name="Kai" gunnery="3" piloting="4" ejected="false"/></entity>\n</unit>\n',
        encoding="utf-8",
    )
    with_designs = mekref("inspect", str(lst), "--units-dir", str(FIXTURES / "units"))
    assert with_designs.returncode == 0, with_designs.stderr
    assert "biped mek, 55 t" in with_designs.stdout and " ? " not in with_designs.stdout
    assert "guessed from the file's shape" not in with_designs.stdout
    guessed = mekref("inspect", str(lst))
    assert "biped mek ?" in guessed.stdout
    assert "kind '?' = guessed from the file's shape" in guessed.stdout
