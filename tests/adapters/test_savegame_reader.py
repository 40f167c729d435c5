"""The savegame reader against the real MegaMek 0.43.5 savegame and forms derived from it."""

from __future__ import annotations

import gzip
import re

import pytest
from savegame_variants import (
    FIXTURE,
    ended_game,
    fixture_xml,
    gz,
    to_id_references,
)

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.design import SystemKind
from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_model import RootKind, Section
from mekref.adapters.megamek.savegame_model import Removal
from mekref.adapters.megamek.savegame_reader import read_savegame_bytes
from mekref.adapters.megamek.savegame_record import to_record


def _independent_count(xml: str) -> dict[str, tuple[str, int, int, int, str]]:
    """Per entity id: chassis, owner, armor and internal totals, pilot, by regex alone.

    Entities are the top-level ``<...>`` blocks that hold a ``<removalCondition>``; their own
    fields are indented exactly 8 spaces in this file, which a regex can use without any
    knowledge of XStream references."""
    out: dict[str, tuple[str, int, int, int, str]] = {}
    blocks = re.split(r"\n      <megamek\.common\.(?:Protomech|BipedMech|Tank)>", xml)[1:]
    for block in blocks:
        field = {m.group(1): m.group(2) for m in re.finditer(r"\n {8}<(\w+)>([^<\n]*)<", block)}
        arrays = {
            name: sum(max(int(v), 0) for v in re.findall(r"<int>(-?\d+)</int>", body))
            for name, body in re.findall(r"\n {8}<(armor|internal)>(.*?)\n {8}</\1>", block, re.S)
        }
        pilot = re.search(r"<crew>.*?<name>\s*<string>([^<]*)</string>", block, re.S)
        assert pilot is not None
        out[field["id"]] = (
            field["chassis"],
            int(field["ownerId"]),
            arrays["armor"],
            arrays["internal"],
            pilot.group(1),
        )
    return out


def test_real_savegame_agrees_with_an_independent_count() -> None:
    xml = fixture_xml().decode("utf-8")
    counted = _independent_count(xml)
    save = read_savegame_bytes(FIXTURE.read_bytes(), str(FIXTURE))
    assert len(counted) == 4 == len(save.entities)
    assert xml.count("<removalCondition>") == len(save.entities)
    for e in save.entities:
        chassis, owner, armor, internal, pilot = counted[str(e.game_id)]
        assert e.chassis == chassis
        assert e.owner_id == owner
        assert sum(loc.armor for loc in e.locations) == armor
        assert sum(loc.internal for loc in e.locations) == internal
        assert e.crew is not None and e.crew.members[0].name == pilot
    assert save.version == "0.43.5-git"
    assert save.phase == "DEPLOYMENT" and save.round == 0 and not save.game_over
    assert [(p.id, p.name, p.team) for p in save.players] == [(0, "Eclipse", 1)]
    assert save.reference_mode == "relative paths"
    assert save.board_size == (16, 17)


def test_real_savegame_reads_as_a_record_of_undamaged_survivors() -> None:
    rec = to_record(read_savegame_bytes(FIXTURE.read_bytes(), "f.sav.gz"))
    assert rec.mul.root is RootKind.SAVEGAME
    assert [(e.display_name, e.section) for e in rec.mul.entities] == [
        ("Minotaur 4", Section.SURVIVORS),
        ("Reptar MilitiaMech EPT-C-1", Section.SURVIVORS),
        ("Stooping Hawk G", Section.SURVIVORS),
        ("Bandit Hovercraft Prime", Section.SURVIVORS),
    ]
    for e in rec.mul.entities:
        cond = merge_condition(e, rec.designs[e.game_id or -1])
        assert cond.armor_lost == 0 and cond.internal_lost == 0
    reptar = rec.save.entity(2)
    assert reptar is not None and reptar.position == (5, 15)
    assert rec.save.entity(3) is not None and rec.save.entity(3).position is None  # type: ignore[union-attr]
    assert not rec.mul.kills


@pytest.mark.parametrize("current_names", [False, True])
def test_id_references_and_current_names_read_the_same(current_names: bool) -> None:
    original = to_record(read_savegame_bytes(FIXTURE.read_bytes(), "a"))
    converted_xml = to_id_references(fixture_xml(), current_names=current_names)
    assert b'reference="../' not in converted_xml
    converted = to_record(read_savegame_bytes(gz(converted_xml), "b"))
    assert converted.save.reference_mode == "ids"
    assert converted.mul.entities == original.mul.entities
    assert converted.designs == original.designs
    if current_names:
        assert b"megamek.common.units.BipedMek" in converted_xml
        assert b"<inGameObjects" in converted_xml
        at = converted_xml.find(b"<crew>")
        crew = converted_xml[at : at + 200]
        assert b"<names>" in crew and b"<name>" not in crew  # Crew.names, renamed from name


@pytest.mark.parametrize("current_names", [False, True])
def test_ended_game_gives_sections_damage_kills_and_crew(current_names: bool) -> None:
    rec = to_record(read_savegame_bytes(gz(ended_game(current_names=current_names)), "end"))
    save = rec.save
    assert save.game_over and save.round == 6
    by_name = {e.chassis: e for e in rec.mul.entities}
    assert by_name["Reptar MilitiaMech"].section is Section.SURVIVORS
    assert by_name["Bandit Hovercraft"].section is Section.RETREATED
    assert by_name["Stooping Hawk"].section is Section.SALVAGE
    assert by_name["Minotaur"].section is Section.DEVASTATED
    assert {(k.killed, k.killer) for k in rec.mul.kills} == {
        ("Stooping Hawk G (Eclipse)", "deb6bf20-a668-4754-bd9e-a3705d5b9840"),
        ("Minotaur 4 (Eclipse)", "deb6bf20-a668-4754-bd9e-a3705d5b9840"),
    }
    hawk = by_name["Stooping Hawk"]
    cond = merge_condition(hawk, rec.designs[hawk.game_id or -1])
    assert cond.destroyed_locations == ("Right Arm",)
    assert cond.location("Center Torso") is not None
    assert cond.location("Center Torso").armor == 20  # type: ignore[union-attr]
    assert cond.armor_lost == 8 + 18 and cond.internal_lost == 9
    assert hawk.members[0].hits == 3
    reptar = by_name["Reptar MilitiaMech"]
    rcond = merge_condition(reptar, rec.designs[reptar.game_id or -1])
    assert rcond.hits(SystemKind.GYRO) == 1
    assert rcond.armor_lost == 4
    tank = save.entity(4)
    assert tank is not None and tank.removal is Removal.IN_RETREAT and tank.owner_id == 1


def test_friendly_fire_credits_no_kill() -> None:
    xml = ended_game().replace(b"<ownerId>1</ownerId>", b"<ownerId>0</ownerId>")
    rec = to_record(read_savegame_bytes(gz(xml), "ff"))
    assert not rec.mul.kills
    assert any("own side" in n.message for n in rec.mul.notices)


def test_uncompressed_sav_reads_too() -> None:
    save = read_savegame_bytes(fixture_xml(), "game.sav")
    assert len(save.entities) == 4


# --- hostile and broken input -------------------------------------------------------------------


def _refuses(data: bytes, words: str, **caps: int) -> MulReadError:
    with pytest.raises(MulReadError) as info:
        read_savegame_bytes(data, "x.sav.gz", **caps)
    assert words in info.value.one_line()
    assert "\n" not in info.value.one_line()
    return info.value


def test_gzip_bomb_is_refused_while_unzipping() -> None:
    bomb = gzip.compress(b"<a>" + b" " * 5_000_000 + b"</a>")
    err = _refuses(bomb, "gzip bomb", max_unzipped=1_000_000)
    assert err.refused


def test_truncated_gzip_says_truncated() -> None:
    data = FIXTURE.read_bytes()
    err = _refuses(data[: len(data) // 2], "truncated")
    assert not err.refused


def test_damaged_gzip_and_trailing_data() -> None:
    data = bytearray(FIXTURE.read_bytes())
    data[200] ^= 0xFF
    _refuses(bytes(data), "gzip")
    _refuses(FIXTURE.read_bytes() + b"PK\x03\x04 extra", "after the end of the gzip data")


def test_not_a_savegame() -> None:
    _refuses(b"PK\x03\x04 this is a zip", "not a gzip file")
    a_mul = b'<unit version="0.49"><entity chassis="A" model="B"/></unit>'
    _refuses(gz(a_mul), "not a MegaMek game")
    _refuses(b"", "empty")


def test_huge_file_is_refused_before_unzipping() -> None:
    _refuses(FIXTURE.read_bytes(), "limit", max_compressed=1000)


@pytest.mark.parametrize(
    "doc",
    [
        b'<!DOCTYPE g [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><g><phase>&b;</phase></g>',
        b'<!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]><g><phase>&x;</phase></g>',
    ],
)
def test_xml_bombs_and_external_entities_are_refused(doc: bytes) -> None:
    err = _refuses(gz(doc), "DTDs and entities are refused")
    assert err.refused


def test_broken_reference_is_an_error() -> None:
    xml = fixture_xml().replace(
        b'reference="../../equipmentList/megamek.common.Mounted/linked"',
        b'reference="../../nowhere/at/all"',
        1,
    )
    _refuses(gz(xml), "broken XStream reference")
    converted = to_id_references(fixture_xml())
    first = re.search(rb'<ammoList>\s*<[^>]*reference="(\d+)"', converted)
    assert first is not None
    xml = converted.replace(b'reference="' + first.group(1) + b'"', b'reference="999999"')
    _refuses(gz(xml), "broken XStream reference")


def _ejected_minotaur(xml: bytes) -> bytes:
    """The ended game with the Minotaur's element turned into an ejected MekWarrior: the
    Stooping Hawk's pilot, on foot one hex from the Reptar (which has hands), still in game."""
    from lxml import etree

    root = etree.fromstring(xml, etree.XMLParser(huge_tree=True))
    crew_entity = next(
        el
        for el in root.iter("*")
        if el.findtext("chassis") == "Minotaur" and el.find("id") is not None
    )
    crew_entity.find("chassis").text = "MekWarrior"  # type: ignore[union-attr]
    crew_entity.find("model").text = "Dolores Strunz"  # type: ignore[union-attr]
    crew_entity.find("removalCondition").text = "0"  # type: ignore[union-attr]
    crew_entity.find("crew/name/string").text = "Dolores Strunz"  # type: ignore[union-attr]
    crew_entity.find("crew/externalId/string").text = (  # type: ignore[union-attr]
        "652f7039-4204-492d-97a2-3d4adfa041ff"
    )
    position = etree.SubElement(crew_entity, "position")
    etree.SubElement(position, "x").text = "5"
    etree.SubElement(position, "y").text = "16"
    for tag, text in (
        ("originalRideId", "3"),
        ("originalRideExternalId", "a84570f0-cc77-427b-8d7e-7bd3b6c96fbf"),
        ("pickedUpById", "-1"),
        ("pickedUpByExternalId", "-1"),
    ):
        etree.SubElement(crew_entity, tag).text = text
    hawk_crew = next(
        el for el in root.iter("crew") if el.findtext("name/string") == "Dolores Strunz"
    )
    hawk_crew.find("ejected").text = "true"  # type: ignore[union-attr]
    return etree.tostring(root, encoding="utf-8")


def test_an_ejected_crew_is_linked_to_its_unit_and_to_a_rescuer_nearby() -> None:
    from mekref.adapters.megamek.ejections import find_ejections

    rec = to_record(read_savegame_bytes(gz(_ejected_minotaur(ended_game())), "ej"))
    crew = rec.save.entity(1)
    assert crew is not None and crew.is_ejected_crew and crew.original_ride_id == 3
    [ejection] = find_ejections(rec.mul)
    assert ejection.left_unit is not None and ejection.left_unit.chassis == "Stooping Hawk"
    assert ejection.crew_entity.section is Section.SURVIVORS
    # One hex from the Reptar, whose hands can carry a pilot (ruling SG-6).
    assert ejection.picked_up_by == "2069bbd4-dbd5-47cb-9cc8-c1fe3daa2f35"
    assert any("recovered (TripWire line 348" in n.message for n in rec.mul.notices)
    hawk = next(e for e in rec.mul.entities if e.chassis == "Stooping Hawk")
    assert hawk.crew is not None and hawk.crew.ejected


def test_a_dead_crew_member_reads_as_dead() -> None:
    xml = ended_game().replace(
        b"<dead>\n            <boolean>false</boolean>",
        b"<dead>\n            <boolean>true</boolean>",
        1,
    )
    rec = to_record(read_savegame_bytes(gz(xml), "dead"))
    dead = [m for e in rec.mul.entities for m in e.members if m.dead]
    assert len(dead) == 1 and dead[0].hits == 6
