"""Unit catalog (scan, cache, rebuild, zip, lookups) and BV table import."""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from mekref.adapters.megamek import catalog as catalog_module
from mekref.adapters.megamek.bv_table import (
    BvMatch,
    BvTableError,
    MulCsvColumns,
    parse_mul_csv,
    parse_units_txt,
)
from mekref.adapters.megamek.catalog import CatalogEntry, LookupStatus, normalise_name
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.daemon import unit_catalog
from mekref.daemon.unit_catalog import build_catalog, load_design, scan_folder

UNITS = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "units"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A MegaMek-like data folder: loose files in sub-folders plus a zip archive."""
    root = tmp_path / "mekfiles"
    (root / "meks" / "3039u").mkdir(parents=True)
    (root / "vehicles").mkdir()
    for name in ("Atlas AS7-D.mtf", "Griffin GRF-1N.mtf", "Locust LCT-1V.mtf"):
        shutil.copy(UNITS / name, root / "meks" / "3039u" / name)
    shutil.copy(UNITS / "Bulldog Medium Tank.blk", root / "vehicles" / "Bulldog Medium Tank.blk")
    with zipfile.ZipFile(root / "dropships.zip", "w") as archive:
        for name in ("Union (2708).blk", "Gazelle (Heavy Vehicle).blk"):
            archive.write(UNITS / name, f"dropships/{name}")
        archive.writestr("readme.txt", "not a unit file")
    (root / "notes.txt").write_text("ignored")
    return root


class CountingParser:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self._real = catalog_module.parse_entries

    def __call__(
        self, data: bytes, name: str, root: str, path: str, member: str | None = None
    ) -> CatalogEntry:
        self.calls.append(member or path)
        return self._real(data, name, root, path, member)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> CountingParser:
    counter = CountingParser()
    # The scanner (the daemon's half of the catalog) is what parses; count its calls.
    monkeypatch.setattr(unit_catalog, "parse_entries", counter)
    return counter


def test_scan_indexes_loose_files_and_zip_members(data_dir: Path) -> None:
    progress: list[tuple[int, int, str]] = []
    index = scan_folder(data_dir, progress=lambda d, t, p: progress.append((d, t, p)))
    names = sorted(e.display_name for e in index.entries)
    assert names == [
        "Atlas AS7-D",
        "Bulldog Medium Tank",
        "Gazelle (Heavy Vehicle)",
        "Griffin GRF-1N",
        "Locust LCT-1V",
        "Union (2708)",
    ]
    assert index.errors == ()
    # One progress call per candidate file (4 loose unit files + 1 zip), counting up to total.
    assert [d for d, _, _ in progress] == [1, 2, 3, 4, 5]
    assert {t for _, t, _ in progress} == {5}
    union = index.find("Union", "(2708)")
    assert union.entry is not None
    assert (union.entry.path, union.entry.member) == ("dropships.zip", "dropships/Union (2708).blk")


def test_load_design_reads_back_from_loose_file_and_zip(data_dir: Path) -> None:
    index = scan_folder(data_dir)
    union = index.find("Union", "(2708)").entry
    griffin = index.find("Griffin", "GRF-1N").entry
    assert union is not None and griffin is not None
    assert load_design(union).cargo_tons == 74.5
    assert load_design(griffin).system_at(1, 4) == "gyro"


def test_cache_is_reused_then_rebuilt_for_changed_files(
    data_dir: Path, tmp_path: Path, counting: CountingParser
) -> None:
    cache = tmp_path / "cache"
    first = scan_folder(data_dir, cache)
    assert len(counting.calls) == 6
    assert len(list(cache.iterdir())) == 1

    counting.calls.clear()
    second = scan_folder(data_dir, cache)
    assert counting.calls == []  # nothing parsed: everything came from the cache
    assert sorted(e.display_name for e in second.entries) == sorted(
        e.display_name for e in first.entries
    )

    # Change one file (content and mtime), add one, remove one.
    griffin = data_dir / "meks" / "3039u" / "Griffin GRF-1N.mtf"
    griffin.write_text(griffin.read_text().replace("model:GRF-1N", "model:GRF-1S"))
    stat = griffin.stat()
    os.utime(griffin, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    shutil.copy(UNITS / "Jenner JR7-D.mtf", data_dir / "meks" / "Jenner JR7-D.mtf")
    (data_dir / "vehicles" / "Bulldog Medium Tank.blk").unlink()

    counting.calls.clear()
    third = scan_folder(data_dir, cache)
    assert sorted(counting.calls) == ["meks/3039u/Griffin GRF-1N.mtf", "meks/Jenner JR7-D.mtf"]
    assert third.find("Griffin", "GRF-1S").found
    assert not third.find("Griffin", "GRF-1N").found
    assert third.find("Jenner", "JR7-D").found
    assert not third.find("Bulldog Medium Tank", "").found


def test_damaged_cache_is_ignored_and_rewritten(data_dir: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    scan_folder(data_dir, cache)
    (cache_file,) = cache.iterdir()
    cache_file.write_text("{not json")
    index = scan_folder(data_dir, cache)
    assert len(index) == 6
    assert json.loads(cache_file.read_text())["format"] == unit_catalog.CACHE_FORMAT


def test_broken_files_are_listed_not_fatal(data_dir: Path) -> None:
    (data_dir / "meks" / "broken.blk").write_text("<UnitType>\nTank\n")
    (data_dir / "bad.zip").write_bytes(b"PK\x03\x04 this is not a zip")
    index = scan_folder(data_dir)
    assert len(index) == 6
    messages = {e.path: e.message for e in index.errors}
    assert "never closed" in messages["meks/broken.blk"]
    assert "cannot read zip archive" in messages["bad.zip"]


def test_bundled_fixtures_and_user_folder_in_one_catalog(data_dir: Path, tmp_path: Path) -> None:
    index = build_catalog([data_dir, UNITS], tmp_path / "cache")
    assert len(index) == 6 + 17
    # Same design in both folders: a clear ambiguity that lists both files.
    atlas = index.find("Atlas", "AS7-D")
    assert atlas.status is LookupStatus.AMBIGUOUS
    assert {c.root for c in atlas.candidates} == {str(data_dir.resolve()), str(UNITS.resolve())}
    assert "2 designs match" in atlas.message


# ---- lookups --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fixtures_index() -> catalog_module.CatalogIndex:
    return scan_folder(UNITS)


def test_lookup_by_uuid(fixtures_index: catalog_module.CatalogIndex) -> None:
    found = fixtures_index.by_uuid("019F583E-C25B-7E1D-A2F6-F2B3763AC718")
    assert found.found and found.entry is not None and found.entry.chassis == "Locust"
    missing = fixtures_index.by_uuid("00000000-0000-0000-0000-000000000000")
    assert missing.status is LookupStatus.NOT_FOUND
    assert "no such design" in missing.message


def test_lookup_normalises_names(fixtures_index: catalog_module.CatalogIndex) -> None:
    assert normalise_name("  Shadow   Hawk ") == "shadow hawk"
    found = fixtures_index.find("  shadow   HAWK", "shd-2h ")
    assert found.entry is not None and found.entry.path == "Shadow Hawk SHD-2H.mtf"


def test_lookup_accepts_full_chassis_with_parenthesised_name(
    fixtures_index: catalog_module.CatalogIndex,
) -> None:
    # A MUL may carry getFullChassis(): "<chassis> (<clan name>)".
    found = fixtures_index.find("Marauder (Bloodhound)", "MAD-3R")
    assert found.entry is not None and found.entry.chassis == "Marauder"


def test_lookup_not_found_lists_same_chassis(fixtures_index: catalog_module.CatalogIndex) -> None:
    missing = fixtures_index.find("Shadow Hawk", "SHD-5M")
    assert missing.status is LookupStatus.NOT_FOUND
    assert [c.model for c in missing.candidates] == ["SHD-2H"]
    assert "same chassis: Shadow Hawk SHD-2H" in missing.message


def test_same_name_infantry_and_bsa_are_ambiguous_unless_kind_given(
    fixtures_index: catalog_module.CatalogIndex,
) -> None:
    both = fixtures_index.find("Foot Platoon", "(Rifle)")
    assert both.status is LookupStatus.AMBIGUOUS and len(both.candidates) == 2
    infantry = fixtures_index.find("Foot Platoon", "(Rifle)", UnitKind.CONVENTIONAL_INFANTRY)
    assert infantry.entry is not None and infantry.entry.path.endswith(".blk")
    by_uuid_first = fixtures_index.lookup(
        "Foot Platoon", "(Rifle)", uuid="019f5efd-5a92-7299-af72-f45188f52e91"
    )
    assert by_uuid_first.entry is not None and by_uuid_first.entry.path.endswith(".bfs")


# ---- BV tables ------------------------------------------------------------------------------

# SYNTHETIC sample in the shape of MegaMek's MekCacheCSVTool "Units.txt" (no real export is in
# the fixtures): the header names follow the tool; the BV and cost figures are made up.
UNITS_TXT = """\
Chassis|Model|MUL ID|Combined|Clan|Weight|Intro Date|Experimental year|Advanced year|Standard year|Unit Type|Role|BV|Cost|Rules|Engine Name|Internal Structure|Myomer|Cockpit Type|Gyro Type|Armor Types|Equipment (multiple entries)
Atlas|AS7-D|140|Atlas AS7-D|false|100.0|2755|||2755|Mek|Juggernaut|1897|9626000|Introductory|Fusion|IS Standard|Standard|Standard|Standard|Standard|Medium Laser
Griffin|GRF-1N|1297|Griffin GRF-1N|false|55.0|2492|||2492|Mek|Sniper|1272|5136250|Introductory|Fusion|IS Standard|Standard|Standard|Standard|Standard|PPC
Union|(2708)|-1|Union (2708)|false|3600.0|2708|||2708|Dropship|None|5000|1000000|Standard|Fusion|||||Standard|PPC
Locust|LCT-1V|1901|Locust LCT-1V|false|20.0|2499|||2499|Mek|Scout||1512000|Introductory|Fusion|IS Standard|Standard|Standard|Standard|Standard|Machine Gun
Jenner|JR7-D|1692|Jenner JR7-D|false|35.0|2785|||2785|Mek|Striker|875|1|Introductory|Fusion|||||Standard|SRM 4
Jenner|JR7-D|1692|Jenner JR7-D|false|35.0|2785|||2785|Mek|Striker|900|1|Introductory|Fusion|||||Standard|SRM 4
"""  # noqa: E501


def test_units_txt_bv_by_mul_id_then_by_name() -> None:
    table = parse_units_txt(UNITS_TXT)
    assert len(table) == 6
    atlas = table.bv_for(parse_unit_file((UNITS / "Atlas AS7-D.mtf").read_bytes(), "a.mtf"))
    assert (atlas.bv, atlas.matched_by) == (1897, BvMatch.MUL_ID)
    assert atlas.row is not None and atlas.row.cost == 9626000
    # Union's MUL id in the table is -1 (none), its file says 5323: found by chassis+model.
    union = table.bv_for(parse_unit_file((UNITS / "Union (2708).blk").read_bytes(), "u.blk"))
    assert (union.bv, union.matched_by) == (5000, BvMatch.CHASSIS_MODEL)


def test_units_txt_says_clearly_when_there_is_no_bv() -> None:
    table = parse_units_txt(UNITS_TXT)
    locust = table.bv_for_unit("Locust", "LCT-1V", 1901)
    assert not locust.found and locust.bv is None and "has no BV" in locust.reason
    rapier = table.bv_for_unit("Rapier", "RPR-300", 2646)
    assert not rapier.found and rapier.matched_by is None
    assert "neither MUL id 2646 nor chassis+model" in rapier.reason
    jenner = table.bv_for_unit("Jenner", "JR7-D", 1692)
    assert not jenner.found and "conflicting BVs 875, 900" in jenner.reason


def test_units_txt_without_bv_column_is_refused() -> None:
    with pytest.raises(BvTableError, match="lacks column"):
        parse_units_txt("Chassis|Model|MUL ID\nAtlas|AS7-D|140\n", "x.txt")


# SYNTHETIC Master Unit List CSV sample: column names as MulCsvColumns documents them.
MUL_CSV = """\
Id,Name,Class,Variant,Tonnage,BattleValue,Cost
1297,Griffin GRF-1N,Griffin,GRF-1N,55,"1,272",5136250
3573,Wolverine WVR-6R,,WVR-6R,55,1101,
2646,Rapier RPR-300,Rapier,RPR-300,85,,
"""


def test_mul_csv_default_columns() -> None:
    table = parse_mul_csv(MUL_CSV)
    griffin = table.bv_for_unit("Griffin", "GRF-1N", 1297)
    assert (griffin.bv, griffin.matched_by) == (1272, BvMatch.MUL_ID)
    # No Class: the chassis comes from Name minus Variant.
    wolverine = table.bv_for_unit("Wolverine", "WVR-6R")
    assert (wolverine.bv, wolverine.matched_by) == (1101, BvMatch.CHASSIS_MODEL)
    assert not table.bv_for_unit("Rapier", "RPR-300", 2646).found


def test_mul_csv_custom_column_mapping() -> None:
    text = "MUL,Unit,Model,BV\n140,Atlas AS7-D,AS7-D,1897\n"
    columns = MulCsvColumns(mul_id="MUL", name="Unit", chassis=None, model="Model", bv="BV")
    table = parse_mul_csv(text, columns)
    assert table.rows[0].chassis == "Atlas"
    assert table.bv_for_unit("Atlas", "AS7-D").bv == 1897
    with pytest.raises(BvTableError, match="MulCsvColumns"):
        parse_mul_csv(text)


def test_mtf_clanname_matches_full_chassis(tmp_path: Path) -> None:
    text = (UNITS / "Griffin GRF-1N.mtf").read_text()
    text = text.replace("chassis:Griffin", "chassis:Griffin\nclanname:Gryphon")
    (tmp_path / "g.mtf").write_text(text)
    index = scan_folder(tmp_path)
    assert index.entries[0].clan_name == "Gryphon"
    assert index.find("Griffin (Gryphon)", "GRF-1N").found
    assert index.find("griffin", "grf-1n").found


def test_a_warm_catalog_answers_every_look_up_as_a_cold_one(
    data_dir: Path, tmp_path: Path, counting: CountingParser
) -> None:
    """With its cache present the catalog makes entries only when a look-up finds them, from
    the keys the cache keeps: each answer must be the one parsing every file gives."""
    text = (UNITS / "Griffin GRF-1N.mtf").read_text()
    (data_dir / "gryphon.mtf").write_text(
        text.replace("chassis:Griffin", "chassis:Griffin\nclanname:Gryphon")
    )
    shutil.copytree(UNITS, data_dir / "fixtures")
    (data_dir / "broken.blk").write_text("<UnitType>\nTank\n")
    cold = build_catalog([data_dir, UNITS])
    cache = tmp_path / "cache"
    build_catalog([data_dir, UNITS], cache)
    counting.calls.clear()
    warm = build_catalog([data_dir, UNITS], cache)
    assert counting.calls == []  # every file came from the cache
    assert len(warm) == len(cold) and warm.errors == cold.errors and warm.errors
    queries = [(e.chassis, e.model, e.uuid) for e in cold.entries]
    queries += [("Griffin (Gryphon)", "GRF-1N", None), ("Shadow Hawk", "SHD-5M", None),
                ("Atlas", "AS7-D", "no-such-uuid"), ("Foot Platoon", "(Rifle)", None)]  # fmt: skip
    for chassis, model, uuid in queries:
        assert warm.lookup(chassis, model, uuid) == cold.lookup(chassis, model, uuid)
        assert warm.find(chassis, model) == cold.find(chassis, model)
    assert warm.entries == cold.entries


def test_an_altered_cache_is_rebuilt(data_dir: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = scan_folder(data_dir, cache)
    (cache_file,) = cache.iterdir()
    # Still JSON, still this format, but not what was written: its checksum no longer holds.
    cache_file.write_bytes(cache_file.read_bytes().replace(b"Atlas", b"Atlaz"))
    again = scan_folder(data_dir, cache)
    assert again.entries == first.entries and again.find("Atlas", "AS7-D").found
    assert b"Atlaz" not in cache_file.read_bytes()
