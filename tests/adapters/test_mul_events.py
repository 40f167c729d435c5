"""The event reader (``mul_events``, what ``read_mul_bytes`` uses first) reads every file as the
tree reader does: the same model, notices, entity lines and errors.

Its model converts most fields when they are first read; the comparisons below read every
field (dataclass equality does). Each case also says which reader took it, so that no
comparison is between the tree reader and itself without saying so.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
from lxml import etree

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_events import read_mul_events
from mekref.adapters.megamek.mul_model import Entity, Location
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.xml_safety import DEFAULT_LIMITS, ReadLimits

FIXTURES = Path(__file__).parents[1] / "fixtures" / "megamek"
MULS = sorted(FIXTURES.glob("*.mul"))
RECORD = (FIXTURES / "clusterstrike-batchall-record.mul").read_bytes()
UNITS = (FIXTURES / "mekhq-Example.mul").read_bytes()


def _outcome(data: bytes, *, tree: bool, limits: ReadLimits = DEFAULT_LIMITS) -> object:
    """What a reader makes of ``data``: the model with what equality leaves out (notices,
    entity lines), or the refusal."""
    try:
        mul = read_mul_bytes(data, "f.mul", stream=False if tree else None, limits=limits)
    except MulReadError as exc:
        return str(exc)
    return mul, mul.notices, [e.line for e in mul.entities]


def _same(data: bytes, limits: ReadLimits = DEFAULT_LIMITS) -> bool:
    """Both readers agree on ``data``; returns whether the event reader took it itself."""
    assert _outcome(data, tree=False, limits=limits) == _outcome(data, tree=True, limits=limits)
    return read_mul_events(data, "f.mul", limits) is not None


@pytest.mark.parametrize("path", MULS, ids=lambda p: p.name)
def test_every_fixture_is_read_by_the_event_reader_as_by_the_tree(path: Path) -> None:
    data = path.read_bytes()
    assert _same(data)
    events = read_mul_events(data, path.name, DEFAULT_LIMITS)
    assert events is not None and events.entities
    assert events == read_mul_bytes(data, path.name, stream=False)


def test_entity_lines_follow_multi_line_start_tags_and_values_with_angle_brackets() -> None:
    # MekHQ wraps long start tags; lxml's line is the one the tag ends on.
    wrapped = UNITS.replace(b'<entity chassis="', b'<entity\n\n   chassis="')
    assert _same(wrapped)
    angled = UNITS.replace(b'model="', b'model="a>b ', 3)
    assert _same(angled)
    quoted = UNITS.replace(b'model="', b'x=\'1 "2" >\' model="', 2)
    assert _same(quoted)
    lines = [e.line or 0 for e in read_mul_bytes(UNITS, "f.mul").entities]
    wrapped_lines = [e.line for e in read_mul_bytes(wrapped, "f.mul").entities]
    assert wrapped_lines[:3] == [lines[0] + 2, lines[1] + 4, lines[2] + 6]


def _unit(*locations: bytes) -> bytes:
    """A unit list of one entity with these locations, each on its own line."""
    body = b"\n".join(locations)
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<unit version="0.49.19">\n'
        b'<entity chassis="Atlas" model="AS7-D" type="Biped">\n'
        b'<pilot name="A" gunnery="3" piloting="4"/>\n' + body + b"\n</entity>\n</unit>\n"
    )


def test_location_names_come_from_text_or_tail() -> None:
    cases = [
        b'<location index="6" isDestroyed="true" /> Right Leg',
        b'<location index="6" isDestroyed="true"></location> Right Leg',
        b'<location index="6" isDestroyed="true"> Right\n Leg</location>\n',
        b'<location index="6">Left &amp; Right &#65;rm<armor points="3"/></location>',
        b'<location index="6"><armor points="3"/></location> Tail is not a name',
        b'<location index="6"/> Right Leg has been blown off.',
        b'<location index="6"><blownOff/></location>',
        b'<location index="6"/>',
        b"<location index='6'/>\tCenter\r\n\t\tTorso",
        b'<location index="6"/> Mu\xc3\xb1\xc3\xb3z & Sons',
    ]
    for case in cases:
        data = _unit(case, b'<location index="7"> Left Leg<armor points="3"/></location>')
        assert _same(data), case
    names = [loc.name for loc in read_mul_bytes(_unit(*cases), "f.mul").entities[0].locations]
    assert names[:4] == ["Right Leg", "Right Leg", "Right Leg", "Left & Right Arm"]
    assert names[4:] == ["", "Right Leg", "", "", "Center Torso", "Muñóz & Sons"]


def test_references_and_stray_ampersands_in_values() -> None:
    data = RECORD.replace(b'chassis="', b'chassis="Smith & Sons &amp; &#38;co &lt;&gt; ', 3)
    assert _same(data)
    mul = read_mul_bytes(data, "f.mul")
    assert mul.entities[0].chassis.startswith("Smith & Sons & &co <> ")
    assert "unescaped '&'" in mul.notices[0].message


def test_what_only_the_tree_reader_takes_is_left_to_it() -> None:
    body = UNITS.split(b"?>", 1)[1]
    left = [
        UNITS.replace(b"<unit", b"<!-- a comment -->\n<unit", 1),
        UNITS.replace(b"<unit", b"<?pi x?>\n<unit", 1),
        UNITS.replace(b"Head", b"<![CDATA[Head]]>", 1),
        UNITS.replace(b"\n", b"\r", 5),  # lone carriage returns
        b"<?xml version='1.0'\n encoding='UTF-8'?>" + body,
        UNITS.replace(b'chassis="', b'chassis="Mu\xf1\xf3z ', 2),  # Windows-1252
        UNITS.replace(b"<pilot ", b'<transportBay><x a="1"/></transportBay>\n<pilot ', 1),
        UNITS.replace(b"<pilot ", b"<newThing/>\n<pilot ", 1),  # reported with its line
        UNITS.replace(b"<unit>", b"<unit><TotalGenericBattleValue/>", 1),  # refused
        UNITS.replace(b'<armor points="7"/>', b'<armor points="seven"/>', 1),
        UNITS.replace(b'gunnery="3"', b'gunnery="three"', 1),
        UNITS.replace(b"<pilot ", b'<pilot q:x="1" ', 1),  # a prefix never declared
        UNITS.replace(b"<unit>", b'<unit xmlns="urn:q">', 1),
        RECORD.replace(b"</kills>", b"<kill/><other/></kills>", 1),
    ]
    for data in left:
        assert not _same(data), data[:200]


def test_what_the_event_reader_takes_besides_what_megamek_writes() -> None:
    taken = [
        b"\xef\xbb\xbf" + UNITS,
        UNITS.replace(b"<unit>", b"<unit><TotalGenericBattleValue> 12\n</TotalGenericBattleValue>"),
        UNITS.replace(b"<pilot ", b'<pilot><entity chassis="x"><location index="1"/></entity>'
                      b'</pilot>\n<pilot ', 1),  # ignored, as by the tree reader; lines follow
        UNITS.replace(b'<armor points="7"/>', b'<armor points="7"><location/></armor>', 1),
        UNITS.replace(b"<unit>", b'<unit xml:lang="en">', 1),
        UNITS.replace(b"<unit>", b'<unit xmlns:q="urn:q">', 1),
        UNITS.replace(b'<entity chassis="', b'<entity newAttribute="1" chassis="', 2),
    ]  # fmt: skip
    for data in taken:
        assert data != UNITS
        assert _same(data), data[:200]


def test_cut_short_and_mutated_files() -> None:
    rng = random.Random(20261203)
    taken = compared = 0
    for path in MULS:
        data = path.read_bytes()
        cases = [data[:cut] for cut in range(0, len(data), max(1, len(data) // 60))]
        for _ in range(60):
            mutated = bytearray(data)
            for _ in range(rng.randint(1, 3)):
                mutated[rng.randrange(len(mutated))] = rng.choice(b"<>&\"'/= \n\x00\xffa!?9")
            cases.append(bytes(mutated))
        for case in cases:
            taken += _same(case)
            compared += 1
    assert 0 < taken < compared  # both readers had a share, or this proves little


@pytest.mark.parametrize(
    "limits",
    [
        ReadLimits(max_attributes=5),
        ReadLimits(max_depth=3),
        ReadLimits(max_depth=5),
        ReadLimits(max_text_chars=10),
        ReadLimits(max_text_chars=4000),
        ReadLimits(max_elements=100),
        ReadLimits(max_bytes=1000),
    ],
)
def test_each_limit_refuses_alike(limits: ReadLimits) -> None:
    big = RECORD.replace(b"<pilot ", b'<pilot extraData="' + b"x" * 5000 + b'" ', 1)
    _same(RECORD, limits)
    _same(big, limits)
    deep = RECORD.replace(b"<pilot ", b"<Game><a><b><c><d/></c></b></a></Game><pilot ", 1)
    _same(deep, limits)


def test_bad_values_are_refused_at_read_time_though_read_later() -> None:
    """The event model converts an entity's, a pilot's and a crew's attributes when they are
    first read; whatever the tree reader refuses is refused when the file is read."""
    bad = [
        UNITS.replace(b'gunnery="3"', b'gunnery="3.5"', 1),
        UNITS.replace(b'hits="1"', b'hits="deadish"', 1),
        RECORD.replace(b'deployment="0"', b'deployment="soon"', 1),
        RECORD.replace(b'size="1"', b'size="one"', 1),
    ]
    for data in bad:
        assert data not in (UNITS, RECORD)
        assert read_mul_events(data, "f.mul", DEFAULT_LIMITS) is None
        with pytest.raises(MulReadError, match="is not a whole number"):
            read_mul_bytes(data, "f.mul")


def test_the_model_pickles_and_keeps_no_file_once_read() -> None:
    mul = read_mul_bytes(RECORD, "f.mul")
    again = pickle.loads(pickle.dumps(mul))
    assert again == mul and [e.line for e in again.entities] == [e.line for e in mul.entities]
    entity = mul.entities[0]
    assert isinstance(entity, Entity) and isinstance(entity.locations[0], Location)
    document = vars(entity)["_document"]
    assert vars(document)["_body"] is None  # the lines were read: the bytes were let go


_VALUES = [
    " 3",
    "+3",
    "٣",
    "",
    "N/A",
    "Dead",
    "-1",
    "TRUE",
    " false ",
    "x",
    "007",
    "1e3",
    "a&b",
    "<>",
    "None",
    "9" * 30,
    "Destroyed",
    "Rear",
    "Internal",
    "\t",
    "::a::",
    "edge 3::x",
]
_NAMES = [
    "index",
    "type",
    "shots",
    "points",
    "hits",
    "slot",
    "size",
    "gunnery",
    "deployment",
    "chassis",
    "model",
    "isHit",
    "isDestroyed",
    "newAttr",
    "externalId",
    "quirks",
    "crewType",
    "initB",
    "load",
    "Internal",
    "id",
    "killer",
    "number",
]
_TAGS = ["slot", "armor", "location", "pilot", "crew", "crewMember", "Game", "bombs", "bomb",
         "blownOff", "stabilizer", "motive", "entity", "kill", "EscapeCraft", "Force",
         "tcriticals", "unknownThing", "TotalGenericBattleValue"]  # fmt: skip


def _edit(root: etree._Element, rng: random.Random) -> None:
    """A few edits that keep the document well-formed: values, attributes, children, text."""
    elements = list(root.iter())
    for _ in range(rng.randint(1, 4)):
        element, roll = rng.choice(elements), rng.random()
        if roll < 0.35 and element.attrib:
            element.set(rng.choice(list(element.attrib)), rng.choice(_VALUES))
        elif roll < 0.55:
            element.set(rng.choice(_NAMES), rng.choice(_VALUES))
        elif roll < 0.8:
            child = etree.SubElement(element, rng.choice(_TAGS))
            child.set(rng.choice(_NAMES), rng.choice(_VALUES))
            child.tail = rng.choice([" Right Leg", "\n", "7", None])
        else:
            element.text = rng.choice(
                [None, " Head ", "\n\t", "1234", "a&b", "x has been blown off."]
            )


@pytest.mark.parametrize("path", MULS, ids=lambda p: p.name)
def test_edited_files_that_stay_well_formed(path: Path) -> None:
    """Edits a MegaMek file could plausibly carry (a hand edit, a newer version): both
    readers read or refuse each alike, entity lines included."""
    rng = random.Random(f"events:{path.name}")
    taken = 0
    for case in range(60):
        root = etree.fromstring(path.read_bytes())
        _edit(root, rng)
        data = etree.tostring(root, xml_declaration=case % 2 == 0, encoding="UTF-8")
        if case % 3 == 0:
            data = data.replace(b'" ', b'"\n  ')  # start tags over several lines
        taken += _same(data)
    assert 0 < taken < 60
