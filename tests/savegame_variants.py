"""Other forms of the real savegame fixture, derived in memory (the fixture is never edited).

* :func:`to_id_references`: the same object graph written the way current MegaMek writes it
  (XStream ``ID_REFERENCES``: ``id="N"`` on objects, ``reference="N"`` for repeats), optionally
  with current class and field names (``megamek.common.units.BipedMek``, ``inGameObjects``...).
* :func:`ended_game`: the game brought to its end (victory phase) with a second, enemy player,
  damage, a crew hit, a destroyed critical slot, a retreat, a devastated unit and a wreck whose
  killer is known: what a group's last ``/save`` looks like.
* :func:`saved_at`: that game saved at another round and phase (an end-of-round "paranoid"
  autosave, or an earlier round), with another crew hit count: ruling SG-7's saves of one game.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from lxml import etree

from mekref.adapters.megamek.xstream import Graph

FIXTURE = (
    Path(__file__).resolve().parent
    / "fixtures"
    / "megamek"
    / "savegames"
    / "megamek-Bug-Displacement.sav.gz"
)

#: 0.43 class names -> the names current MegaMek uses (packages renamed, "Mech" -> "Mek").
CURRENT_NAMES = {
    "megamek.common.Game": "megamek.common.game.Game",
    "megamek.common.BipedMech": "megamek.common.units.BipedMek",
    "megamek.common.Protomech": "megamek.common.units.ProtoMek",
    "megamek.common.Tank": "megamek.common.units.Tank",
    "megamek.common.Mounted": "megamek.common.equipment.WeaponMounted",
    "megamek.common.CriticalSlot": "megamek.common.equipment.CriticalSlot",
    "megamek.common.CriticalSlot-array": "megamek.common.equipment.CriticalSlot-array",
    "megamek.common.Player": "megamek.common.Player",
}
#: Fields renamed between 0.43 and current MegaMek (AbstractGame, Crew).
CURRENT_FIELDS = {"entities": "inGameObjects", "roundCount": "currentRound"}
CURRENT_CREW_FIELDS = {"name": "names", "nickname": "nicknames"}


def fixture_xml() -> bytes:
    return gzip.decompress(FIXTURE.read_bytes())


def _tree(xml: bytes) -> etree._Element:
    return etree.fromstring(xml, etree.XMLParser(huge_tree=True))


def _to_ids(root: etree._Element) -> None:
    graph = Graph(root)
    targets: dict[etree._Element, str] = {}
    refs = [el for el in root.iter("*") if el.get("reference") is not None]
    for el in refs:
        target = graph.resolve(el)
        targets.setdefault(target, "")
    # ids in document order, as XStream numbers objects while it writes them
    number = 0
    for el in root.iter("*"):
        if el in targets:
            number += 1
            targets[el] = str(number)
            el.set("id", str(number))
    for el in refs:
        el.set("reference", targets[graph.resolve(el)])


def to_id_references(xml: bytes, *, current_names: bool = False) -> bytes:
    root = _tree(xml)
    _to_ids(root)
    if current_names:
        _rename(root)
    return etree.tostring(root, xml_declaration=False, encoding="utf-8")


def _rename(root: etree._Element) -> None:
    for el in root.iter("*"):
        if el.tag in CURRENT_NAMES:
            el.tag = CURRENT_NAMES[el.tag]
        if el.getparent() is root and el.tag in CURRENT_FIELDS:
            el.tag = CURRENT_FIELDS[el.tag]
        cls = el.get("class")
        if cls in CURRENT_NAMES:
            el.set("class", CURRENT_NAMES[cls])
    for crew in root.iter("crew"):
        for child in crew:
            if child.tag in CURRENT_CREW_FIELDS:
                child.tag = CURRENT_CREW_FIELDS[child.tag]
    phase = root.find("phase")
    if phase is not None and phase.text:
        phase.text = phase.text.removeprefix("PHASE_")
    version = root.find("mmVersion")
    if version is not None:
        version.tag = "version"
        version.text = "0.50.07"


def _entity(root: etree._Element, game_id: int) -> etree._Element:
    for el in root.iter("*"):
        ident = el.find("id")
        if el.find("chassis") is not None and ident is not None and ident.text == str(game_id):
            return el
    raise KeyError(game_id)


def _set(el: etree._Element, path: str, value: str) -> None:
    node = el.find(path)
    assert node is not None, path
    node.text = value


def ended_game(xml: bytes | None = None, *, current_names: bool = False) -> bytes:
    """The fixture's game at its end (see the module docstring for what happened)."""
    root = _tree(xml if xml is not None else fixture_xml())
    _to_ids(root)  # ids first: moving elements would break relative paths
    _set(root, "phase", "PHASE_VICTORY")
    _set(root, "roundCount", "6")
    players = root.find("players")
    assert players is not None
    enemy = etree.SubElement(players, "megamek.common.Player")
    for tag, text in (("name", "Raiders"), ("id", "1"), ("team", "2")):
        etree.SubElement(enemy, tag).text = text
    out = root.find("vOutOfGame")
    assert out is not None
    # The Tank (id 4) is the enemy's; it killed the Stooping Hawk (id 3), whose wreck is left.
    tank = _entity(root, 4)
    _set(tank, "ownerId", "1")
    _set(tank, "removalCondition", str(0x0100))  # it then fled the field
    hawk = _entity(root, 3)
    _set(hawk, "removalCondition", str(0x0200))
    _set(hawk, "killerId", "4")
    arms = hawk.find("internal")
    assert arms is not None
    arms[4].text = "0"  # right arm structure gone: location destroyed
    armor = hawk.find("armor")
    assert armor is not None
    armor[4].text = "-3"  # IArmorState.ARMOR_DESTROYED
    armor[1].text = "20"  # centre torso 28 -> 20
    crew_hits = hawk.find("crew/hits")
    assert crew_hits is not None
    crew_hits[0].text = "3"
    # The Minotaur (id 1) was devastated by the tank.
    proto = _entity(root, 1)
    _set(proto, "removalCondition", str(0x0400))
    _set(proto, "killerId", "4")
    for el in (tank, hawk, proto):
        parent = el.getparent()
        assert parent is not None
        parent.remove(el)
        out.append(el)
    # The Reptar (id 2) survives with a gyro hit and 4 points off its left leg.
    reptar = _entity(root, 2)
    reptar_armor = reptar.find("armor")
    assert reptar_armor is not None
    reptar_armor[7].text = "5"
    crits = reptar.find("crits")
    assert crits is not None
    centre = list(crits)[1]
    gyro_slot = list(centre)[3]
    _set(gyro_slot, "hit", "true")
    _set(gyro_slot, "destroyed", "true")
    if current_names:
        _rename(root)
    return etree.tostring(root, encoding="utf-8")


def gz(xml: bytes) -> bytes:
    return gzip.compress(xml, mtime=0)


def saved_at(
    round_: int, phase: str, *, hawk_hits: int = 3, reptar_left_leg: int | None = None
) -> bytes:
    """The ended game (:func:`ended_game`) as saved at another moment: MegaMek's round
    ``round_`` and phase ``phase`` (a name of MegaMek's ``GamePhase``: ``END_REPORT`` is where
    the server's "paranoid autosave" writes ``autosave.sav.gz`` at the end of a round), with
    the Stooping Hawk's pilot at ``hawk_hits`` hits. Ruling SG-7's earlier and later saves of
    one game: the same units, another moment, another state. ``reptar_left_leg``: the
    Reptar's left leg armour left (5 in :func:`ended_game`), for a unit's damage that changed."""
    root = _tree(ended_game())
    _set(root, "phase", f"PHASE_{phase}")
    _set(root, "roundCount", str(round_))
    hits = _entity(root, 3).find("crew/hits")
    assert hits is not None
    hits[0].text = str(hawk_hits)
    if reptar_left_leg is not None:
        armor = _entity(root, 2).find("armor")
        assert armor is not None
        armor[7].text = str(reptar_left_leg)
    return etree.tostring(root, encoding="utf-8")
