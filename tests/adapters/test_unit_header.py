"""The catalog's header-only read of unit files: the same fields as the full parse, always.

The header read (``parse_unit_header``) keeps chassis, model, kind, tonnage, MUL id, UUID and
the alternate name, checking what those need; the rest of the file is read and checked when
its design is loaded. Where a file is not plainly laid out, it hands the file to the full
reader, so the answer (or the error) is the full reader's."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from console_script import mekref

from mekref.adapters.megamek.catalog import parse_entries
from mekref.adapters.megamek.design import UnitFileError
from mekref.adapters.megamek.mtf_reader import decode_text
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.adapters.megamek.unit_header import (
    UnitHeader,
    _plain_text,
    blk_header,
    header_of,
    mtf_header,
    parse_unit_header,
)
from mekref.daemon import unit_catalog
from mekref.daemon.unit_catalog import load_design, scan_folder

UNITS = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "units"
FIXTURE_FILES = sorted(p for p in UNITS.iterdir() if p.suffix in (".mtf", ".blk", ".bfs"))


def _full(data: bytes, name: str) -> UnitHeader:
    return header_of(parse_unit_file(data, name))


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.name)
def test_header_equals_the_full_parse_for_every_fixture(path: Path) -> None:
    data = path.read_bytes()
    assert parse_unit_header(data, path.name) == _full(data, path.name)
    # ...and for .mtf/.blk it is the fast path that answered, not the full reader behind it.
    text = _plain_text(decode_text(data))
    assert text is not None
    if path.suffix == ".mtf":
        assert mtf_header(text) == _full(data, path.name)
    elif path.suffix == ".blk":
        assert blk_header(text) == _full(data, path.name)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.name)
def test_crlf_and_bare_cr_files_give_the_same_header(path: Path) -> None:
    text = path.read_bytes().replace(b"\r\n", b"\n")
    for newline in (b"\r\n", b"\r"):
        data = text.replace(b"\n", newline)
        assert parse_unit_header(data, path.name) == _full(data, path.name)


def _mtf(name: str = "Griffin GRF-1N.mtf") -> str:
    return (UNITS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        # A key the head lacks, after the critical blocks: the full reader reads it as a key.
        (lambda t: t + "\nclanname:Gryphon\n", "Gryphon"),
        (lambda t: t + "\nUUID :  abc-123\n", "abc-123"),
        # Whitespace and case the full reader normalises.
        (lambda t: t.replace("chassis:Griffin", "  Chassis :Griffin"), "Griffin"),
        (lambda t: t.replace("mass:55", "MASS:55\nmass:60"), 55.0),
        # A line break str.splitlines knows and the fast path does not: the full reader reads it.
        (lambda t: t.replace("\n", "\x0c\n", 1), "Griffin"),
    ],
)
def test_unusual_mtf_layouts_give_the_full_readers_header(
    change: Callable[[str], str], expected: object
) -> None:
    data = change(_mtf()).encode("utf-8")
    header = parse_unit_header(data, "g.mtf")
    assert header == _full(data, "g.mtf")
    assert expected in (header.clan_name, header.uuid, header.chassis, header.tonnage)


def test_a_clanname_in_the_head_is_kept() -> None:
    data = _mtf().replace("chassis:Griffin", "chassis:Griffin\nclanname:Gryphon").encode()
    assert mtf_header(_plain_text(data.decode()) or "") is not None
    assert parse_unit_header(data, "g.mtf").clan_name == "Gryphon"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("model:X\nmass:50\n", "missing 'chassis:' line"),
        ("chassis:A\nmass:fifty\n", "mass is not a number"),
        ("chassis:A\nmass:50\nconfig:Octopod\n", "unknown Config"),
        ("chassis:A\nmass:50\ntechbase:Martian\n", "unknown techbase"),
        ("chassis:A\nmass:50\nmul id:abc\n", "mul id is not a number"),
    ],
)
def test_a_bad_mtf_head_is_the_full_readers_error(text: str, message: str) -> None:
    with pytest.raises(UnitFileError, match=message):
        parse_unit_file(text.encode(), "a.mtf")
    with pytest.raises(UnitFileError, match=message):
        parse_unit_header(text.encode(), "a.mtf")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<UnitType>\nTank\n", "never closed"),
        ("<UnitType>\nTank\n</UnitType>\n<type>\nIS Level 2\n</type>\n", "no <Name> block"),
        ("<UnitType>\nTank\n</UnitType>\n<Name>\nA\n</Name>\n", "no <type> block"),
        (
            "<UnitType>\nTank\n</UnitType>\n<Name>\nA\n</Name>\n<type>\nIS Level 2\n</type>\n",
            "no <tonnage> block",
        ),
        (
            "<UnitType>\nTank\n</UnitType>\n<Name>\nA\n</Name>\n<type>\nIS Level 2\n</type>\n"
            "<tonnage>\nheavy\n</tonnage>\n",
            "not a number",
        ),
        (
            "<UnitType>\nTank\n</UnitType>\n<Name>\nA\n</Name>\n<type>\nMartian\n</type>\n",
            "unknown tech type",
        ),
    ],
)
def test_a_bad_blk_head_is_the_full_readers_error(text: str, message: str) -> None:
    with pytest.raises(UnitFileError, match=message):
        parse_unit_file(text.encode(), "a.blk")
    with pytest.raises(UnitFileError, match=message):
        parse_unit_header(text.encode(), "a.blk")


def test_blk_tags_inside_a_block_are_values_as_the_full_reader_reads_them() -> None:
    text = (UNITS / "Bulldog Medium Tank.blk").read_text(encoding="utf-8")
    # A fluff block holding a tag-shaped line named like a header field: a value, not a block.
    data = text.replace("<Name>", "<fluff>\n<model>\nnot the model\n</fluff>\n<Name>", 1).encode()
    assert parse_unit_header(data, "b.blk") == _full(data, "b.blk")
    assert parse_unit_header(data, "b.blk").model == _full(text.encode(), "b.blk").model


def test_a_broken_body_is_found_when_the_design_is_loaded(tmp_path: Path) -> None:
    # The catalog reads the head only; a broken weapon line shows when the design is loaded,
    # with the full reader's error naming the file and the line.
    text = _mtf().replace("PPC, Right Arm", "PPC Right Arm", 1)
    with pytest.raises(UnitFileError, match="weapon line without a location"):
        parse_unit_file(text.encode(), "broken.mtf")
    (tmp_path / "broken.mtf").write_text(text, encoding="utf-8")
    index = scan_folder(tmp_path)
    assert [e.display_name for e in index.entries] == ["Griffin GRF-1N"]
    with pytest.raises(UnitFileError, match=r"broken.mtf:\d+: weapon line without a location"):
        load_design(index.entries[0])


def test_parse_entries_keeps_the_entry_fields() -> None:
    data = (UNITS / "Locust LCT-1V.mtf").read_bytes()
    entry = parse_entries(data, "Locust LCT-1V.mtf", "/root", "meks/Locust LCT-1V.mtf")
    assert (entry.chassis, entry.model, entry.tonnage) == ("Locust", "LCT-1V", 20.0)
    assert entry.uuid and (entry.root, entry.path, entry.member) == (
        "/root",
        "meks/Locust LCT-1V.mtf",
        None,
    )


# ---- the cache format -----------------------------------------------------------------------


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "mekfiles"
    root.mkdir()
    for name in ("Atlas AS7-D.mtf", "Union (2708).blk", "Foot Platoon (Rifle).bfs"):
        shutil.copy(UNITS / name, root / name)
    return root


def test_a_cache_of_the_old_format_is_rebuilt_never_read(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    cache = tmp_path / "cache"
    first = scan_folder(root, cache)
    (cache_file,) = cache.iterdir()
    # A format-1 cache (dict entries) claiming every file holds a design it does not.
    old = {
        "format": 1,
        "root": str(root.resolve()),
        "files": {
            p.name: {
                "size": p.stat().st_size,
                "mtime_ns": p.stat().st_mtime_ns,
                "entries": [{"chassis": "Wrong", "model": "", "kind": "tank", "tonnage": 1.0,
                             "mul_id": None, "uuid": None, "clan_name": None, "member": None}],
                "errors": [],
            }
            for p in root.iterdir()
        },
    }  # fmt: skip
    cache_file.write_text(json.dumps(old), encoding="utf-8")
    again = scan_folder(root, cache)
    assert again.entries == first.entries
    assert json.loads(cache_file.read_text())["format"] == unit_catalog.CACHE_FORMAT == 3


def test_a_damaged_row_is_parsed_again(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    cache = tmp_path / "cache"
    first = scan_folder(root, cache)
    (cache_file,) = cache.iterdir()
    raw = json.loads(cache_file.read_text())
    row = raw["files"]["Atlas AS7-D.mtf"]
    row[2] = [["Atlas", "AS7-D", "no such kind", 100.0, None, None, None, None]]
    cache_file.write_text(json.dumps(raw), encoding="utf-8")
    assert scan_folder(root, cache).entries == first.entries
    assert json.loads(cache_file.read_text())["files"]["Atlas AS7-D.mtf"][2][0][2] == "biped_mek"


def test_inspect_finds_designs_through_the_header_read(tmp_path: Path) -> None:
    # In a fresh process: a data folder whose Griffin names its Clan reporting name only after
    # the critical blocks (the full reader's path) and whose Locust has CRLF line endings.
    units = tmp_path / "mekfiles"
    units.mkdir()
    (units / "Griffin GRF-1N.mtf").write_text(_mtf() + "\nclanname:Gryphon\n", encoding="utf-8")
    (units / "Locust LCT-1V.mtf").write_bytes(
        (UNITS / "Locust LCT-1V.mtf").read_bytes().replace(b"\n", b"\r\n")
    )
    mul = tmp_path / "lance.mul"
    mul.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<unit version="0.49.19">\n'
        '<entity chassis="Griffin (Gryphon)" model="GRF-1N" type="Biped"/>\n'
        '<entity chassis="Locust" model="LCT-1V" type="Biped"/>\n'
        '<entity chassis="Unknown" model="X-1" type="Biped"/>\n</unit>\n',
        encoding="utf-8",
    )
    run = mekref(
        "inspect", str(mul), "--units-dir", str(units), "--json",
        env={"MEKREF_CACHE_DIR": str(tmp_path / "cache")},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    griffin, locust, unknown = json.loads(run.stdout)["units"]
    assert (griffin["design_found"], griffin["tonnage"]) == (True, 55)
    assert (locust["design_found"], locust["tonnage"]) == (True, 20)
    assert unknown["design_found"] is False


def test_entries_from_the_cache_equal_parsed_ones_and_stay_frozen(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    parsed = scan_folder(root, tmp_path / "cache")
    cached = scan_folder(root, tmp_path / "cache")
    assert cached.entries == parsed.entries
    assert [hash(e) for e in cached.entries] == [hash(e) for e in parsed.entries]
    with pytest.raises(dataclasses.FrozenInstanceError):
        cached.entries[0].chassis = "Other"  # type: ignore[misc]
