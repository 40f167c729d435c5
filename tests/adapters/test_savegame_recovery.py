"""Ruling SG-6: ejected crews on the map at the end and the friendly units that can recover them
(TripWire line 348), from the positions a savegame holds."""

from __future__ import annotations

from mekref.adapters.megamek.mul_model import Crew, CrewMember, Section
from mekref.adapters.megamek.savegame_model import (
    Removal,
    SavedEntity,
    SavedLocation,
    SavedPlayer,
    SavedSlot,
    SaveGame,
)
from mekref.adapters.megamek.savegame_record import hex_distance, to_record
from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.hexmap.geometry import Offset, distance, offset_to_hex

PLAYERS = (SavedPlayer(0, "Ann", 1), SavedPlayer(1, "Ben", 1), SavedPlayer(2, "Cat", 2))


def _arm(hand_ok: bool) -> SavedLocation:
    hand = SavedSlot(index=4, system=10, equipment=None, destroyed=not hand_ok)
    return SavedLocation(4, "Right Arm", 10, 10, 5, 5, slots=(hand,))


def _unit(
    gid: int, owner: int, pos: tuple[int, int] | None, kind: UnitKind, **kw: object
) -> SavedEntity:
    return SavedEntity(
        game_id=gid,
        chassis=f"Unit{gid}",
        model="X",
        display_name=f"Unit{gid} X",
        external_id=f"uid-{gid}",
        owner_id=owner,
        removal=Removal.IN_GAME,
        kind=kind,
        movement_mode="Biped",
        locations=kw.pop("locations", ()),  # type: ignore[arg-type]
        crew=Crew(members=(CrewMember(name=f"P{gid}"),)),
        position=pos,
        **kw,  # type: ignore[arg-type]
    )


def _crew(gid: int, owner: int, pos: tuple[int, int]) -> SavedEntity:
    return _unit(gid, owner, pos, UnitKind.EJECTED_CREW, original_ride_id=99)


def _pick_up(*entities: SavedEntity) -> str | None:
    save = SaveGame("0.51", "VICTORY", 9, PLAYERS, entities)
    crew = next(e for e in to_record(save).mul.entities if e.chassis == "Unit1")
    assert crew.section is Section.SURVIVORS and crew.is_ejected_crew
    return crew.pick_up_id


def test_hex_distance_agrees_with_the_map_geometry() -> None:
    for a in ((0, 0), (1, 0), (4, 7), (5, 3)):
        for b in ((0, 6), (1, 1), (2, 1), (9, 9), (6, 2)):
            expected = distance(
                offset_to_hex(Offset(a[0] + 1, a[1] + 1)), offset_to_hex(Offset(b[0] + 1, b[1] + 1))
            )
            assert hex_distance(a, b) == expected


def test_ruling_sg6_crew_within_six_hexes_of_a_friendly_recoverer() -> None:
    crew = _crew(1, 0, (0, 0))
    infantry_6 = _unit(2, 1, (0, 6), UnitKind.CONVENTIONAL_INFANTRY)  # team-mate, 6 hexes
    assert _pick_up(crew, infantry_6) == "uid-2"
    infantry_7 = _unit(2, 1, (0, 7), UnitKind.CONVENTIONAL_INFANTRY)
    assert _pick_up(crew, infantry_7) is None  # 7 hexes: captured unless the field is held
    enemy = _unit(2, 2, (0, 1), UnitKind.CONVENTIONAL_INFANTRY)
    assert _pick_up(crew, enemy) is None
    truck = _unit(2, 0, (1, 1), UnitKind.TANK, troop_space=4.0)
    assert _pick_up(crew, truck) == "uid-2"
    assert _pick_up(crew, _unit(2, 0, (1, 1), UnitKind.TANK)) is None  # no troop space
    with_hand = _unit(2, 0, (1, 1), UnitKind.BIPED_MEK, locations=(_arm(True),))
    assert _pick_up(crew, with_hand) == "uid-2"
    hand_gone = _unit(2, 0, (1, 1), UnitKind.BIPED_MEK, locations=(_arm(False),))
    assert _pick_up(crew, hand_gone) is None
    nearest = _unit(3, 0, (0, 2), UnitKind.BATTLE_ARMOR)
    assert _pick_up(crew, infantry_6, nearest) == "uid-3"
