"""Write then read gives back the same objects: on every fixture and on generated unit lists."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from mekref.adapters.megamek.mul_model import (
    ARMOR_DESTROYED,
    ARMOR_NA,
    DEAD_HITS,
    RECORD_SECTIONS,
    Bomb,
    Crew,
    CrewMember,
    Entity,
    Kill,
    Location,
    MulFile,
    RootKind,
    Section,
    Slot,
)
from mekref.adapters.megamek.mul_reader import BLOWN_OFF_SUFFIX, read_mul_bytes
from mekref.adapters.megamek.mul_writer import write_mul

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "megamek"
ALL_MULS = sorted(FIXTURES.glob("*.mul"))


def roundtrip(mul: MulFile) -> MulFile:
    return read_mul_bytes(write_mul(mul).encode("utf-8"), "written.mul")


# --- Every fixture --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ALL_MULS, ids=lambda p: p.name)
def test_fixture_roundtrip(path: Path) -> None:
    first = read_mul_bytes(path.read_bytes(), str(path))
    text = write_mul(first)
    second = read_mul_bytes(text.encode("utf-8"), "written.mul")
    assert second == first
    # Entity by entity too, so a failure names the unit rather than the whole file.
    for a, b in zip(first.entities, second.entities, strict=True):
        assert a == b, a.display_name
    # Writing is stable: the second write is the same text.
    assert write_mul(second) == text


@pytest.mark.parametrize("path", ALL_MULS, ids=lambda p: p.name)
def test_written_fixture_is_strict_well_formed_xml(path: Path) -> None:
    mul = read_mul_bytes(path.read_bytes(), str(path))
    text = write_mul(mul)
    # A plain strict parser accepts our output: no stray '&', no tolerance needed.
    root = etree.fromstring(text.encode("utf-8"))
    assert root.tag == mul.root.value
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n\n')
    if mul.version is not None:
        assert root.get("version") == mul.version
    entities = root.iter("entity")
    assert sum(1 for _ in entities) == len(mul.entities)
    assert roundtrip(mul).notices == ()


def test_record_sections_are_written_in_megamek_order_and_empty_ones_omitted() -> None:
    mul = read_mul_bytes((FIXTURES / "clusterstrike-batchall-record.mul").read_bytes())
    text = write_mul(mul)
    order = [text.index(f"<{s}>") for s in ("survivors", "allies", "salvage", "devastated")]
    assert order == sorted(order) and text.index("<kills>") > order[-1]
    assert "<retreated>" not in text
    assert 'killer="None"' in text


# --- Generated unit lists -------------------------------------------------------------------
#
# The strategies only build values the MUL format can carry. Restrictions, and why:
# * Strings exclude surrogates, C0/C1 control characters and U+FFFE/U+FFFF: XML 1.0 cannot carry
#   them. Tab and newline are allowed in attribute values (written as character references).
# * Location names are the free text after the tag, which the reader strips and whose runs of
#   whitespace it collapses (editors reflow it), so generated names are single-spaced words
#   with no leading or trailing space, and never end in " has been blown off." unless blown off.
# * ``::``-joined lists (quirks, advantages, edge) hold non-empty items without ':'.
# * externalId is never "" or "-1" (MegaMek's "no id"), a killer never "None" or "-1".
# * Armor holds ints >= 0 or the sentinels ARMOR_NA (-1) and ARMOR_DESTROYED (-3); ARMOR_DOOMED
#   (-2) is written as "Destroyed" like -3 and so reads back as -3 (MegaMek does the same).
# * Hits are 0-5 or DEAD_HITS; a lone <pilot> has one member with no slot; a multi-member crew
#   has a crewType (the writer emits <crew> then).
# * ``extra`` attribute names come from pools that do not collide with named attributes (a
#   <pilot>'s per-person extras are the ones MegaMek writes, e.g. portraits; others belong to
#   the crew); preserved and unknown children are in lxml's own serialization, as read.
# * Record entities are grouped in MegaMek's section order; a <unit> list has no kills and a
#   <record> has no TotalGenericBattleValue.

_SPECIALS = ["&", "<", ">", '"', "'", "&amp;", "&#10;", "]]>", "\t", "\n", "é", "Ω", "a", " "]
_XML_CHARS = st.characters(
    exclude_categories=("Cs", "Cc"),
    exclude_characters="\ufffe\uffff",
    include_characters="\t\n&<>\"'",
)
# Any XML-carriable text, plus text built from the characters most likely to break escaping.
TEXT = st.text(_XML_CHARS, max_size=12) | st.lists(st.sampled_from(_SPECIALS), max_size=6).map(
    "".join
)
NONEMPTY = TEXT.filter(bool)
_WORD = st.text(
    st.characters(
        exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp"),
        exclude_characters="\ufffe\uffff",
        include_characters='&<>"',
    ),
    min_size=1,
    max_size=8,
).filter(lambda w: w == " ".join(w.split()))
NAME = st.lists(_WORD, max_size=3).map(" ".join)
INT = st.integers(min_value=-(2**31), max_value=2**31 - 1)
SMALL = st.integers(min_value=0, max_value=12)
OPT_INT = st.none() | INT
OPT_BOOL = st.none() | st.booleans()
EXTERNAL_ID = st.none() | st.uuids().map(str) | NONEMPTY.filter(lambda s: s != "-1")
LIST_ITEM = st.text(
    st.characters(exclude_categories=("Cs", "Cc"), exclude_characters="\ufffe\uffff:"),
    min_size=1,
    max_size=10,
)
LIST = st.lists(LIST_ITEM, max_size=4).map(tuple)
ARMOR = st.none() | st.sampled_from([ARMOR_NA, ARMOR_DESTROYED]) | st.integers(0, 500)


def _attrs(names: list[str]) -> st.SearchStrategy[tuple[tuple[str, str], ...]]:
    return st.lists(
        st.tuples(st.sampled_from(names), TEXT), max_size=3, unique_by=lambda kv: kv[0]
    ).map(tuple)


ENTITY_EXTRA = _attrs(
    ["deploymentZone", "camoCategory", "c3UUID", "offboard_distance", "destroyCheck", "futureAttr"]
)
CREW_EXTRA = _attrs(["implants", "condejectammo", "dicdisabled", "eiMode", "crewFuture"])
PERSON_EXTRA = _attrs(["portraitCat", "portraitFile", "extraData", "naturalAptitudeGunnery"])
SLOT_EXTRA = _attrs(["ammoName", "slotFuture", "bayIndex"])
TANK_CRITS = _attrs(["sensors", "engine", "driver", "commander"])
AERO_CRITS = _attrs(["avionics", "sensors", "engine", "fcs", "cic", "lifeSupport", "gear"])
DROPSHIP_CRITS = _attrs(["dockingcollar", "kfboom"])
PRESERVED = st.lists(
    st.sampled_from(
        [
            '<KF integrity="3"/>',
            '<sail integrity="2"/>',
            '<transportBay index="0"><damage>0.0</damage><doors>1</doors></transportBay>',
            '<c3iset><c3i_link link="u-1"/></c3iset>',
            '<construction_data filename="A B.mtf">H4sIAAAAAAAA/w==</construction_data>',
            '<futureThing level="3"><part name="x &amp; y"/></futureThing>',
        ]
    ),
    max_size=3,
).map(tuple)
LOCATION_UNKNOWN = st.lists(
    st.sampled_from(['<futureLoc a="b"/>', "<plating>thin</plating>"]), max_size=2
).map(tuple)


@st.composite
def slots(draw: st.DrawFn) -> Slot:
    return Slot(
        index=draw(st.none() | SMALL),
        type=draw(TEXT),
        shots=draw(st.none() | st.integers(0, 300)),
        is_hit=draw(st.booleans()),
        is_destroyed=draw(OPT_BOOL),
        is_missing=draw(st.booleans()),
        is_rear=draw(st.booleans()),
        is_turreted=draw(st.booleans()),
        armor_hit=draw(st.booleans()),
        is_repairable=draw(OPT_BOOL),
        munition=draw(st.none() | TEXT),
        capacity=draw(st.none() | TEXT),
        quirks=draw(st.none() | TEXT),
        extra=draw(SLOT_EXTRA),
    )


@st.composite
def locations(draw: st.DrawFn) -> Location:
    blown_off = draw(st.booleans())
    name = draw(NAME.filter(lambda n: not f" {n}".endswith(BLOWN_OFF_SUFFIX)))
    return Location(
        index=draw(SMALL),
        name=name,
        destroyed=draw(st.booleans()),
        blown_off=blown_off,
        breached=draw(st.booleans()),
        armor=draw(ARMOR),
        internal=draw(ARMOR),
        rear=draw(ARMOR),
        stabilizer_hit=draw(st.booleans()),
        slots=tuple(draw(st.lists(slots(), max_size=3))),
        unknown=draw(LOCATION_UNKNOWN),
    )


@st.composite
def members(draw: st.DrawFn, *, slot: bool) -> CrewMember:
    l_m_b = draw(st.booleans())
    return CrewMember(
        name=draw(TEXT),
        nick=draw(TEXT),
        slot=draw(st.none() | st.integers(0, 5)) if slot else None,
        gender=draw(st.none() | st.sampled_from(["MALE", "FEMALE", "OTHER_MALE"]) | TEXT),
        clanperson=draw(OPT_BOOL),
        gunnery=draw(st.none() | SMALL),
        gunnery_l=draw(SMALL) if l_m_b else None,
        gunnery_m=draw(SMALL) if l_m_b else None,
        gunnery_b=draw(SMALL) if l_m_b else None,
        piloting=draw(st.none() | SMALL),
        gunnery_aero=draw(st.none() | SMALL),
        gunnery_aero_l=draw(st.none() | SMALL),
        gunnery_aero_m=draw(st.none() | SMALL),
        gunnery_aero_b=draw(st.none() | SMALL),
        piloting_aero=draw(st.none() | SMALL),
        artillery=draw(st.none() | SMALL),
        toughness=draw(st.none() | st.integers(-2, 2)),
        fatigue=draw(st.none() | SMALL),
        hits=draw(st.integers(0, 5) | st.just(DEAD_HITS)),
        external_id=draw(EXTERNAL_ID),
        extra=draw(PERSON_EXTRA),
    )


@st.composite
def crews(draw: st.DrawFn) -> Crew:
    multi = draw(st.booleans())
    if multi:
        people = tuple(draw(st.lists(members(slot=True), max_size=4)))
        crew_type: str | None = draw(
            st.sampled_from(["dual", "command_console", "tripod", "quadvee", "superheavy_tripod"])
            | TEXT
        )
    else:
        people = (draw(members(slot=False)),)
        crew_type = None
    return Crew(
        members=people,
        size=draw(st.none() | st.integers(1, 30)),
        crew_type=crew_type,
        ejected=draw(st.booleans()),
        init_bonus=draw(st.none() | st.integers(-3, 3)),
        command_bonus=draw(st.none() | st.integers(-3, 3)),
        advantages=draw(LIST),
        edge=draw(LIST),
        autoeject=draw(OPT_BOOL),
        extra=draw(CREW_EXTRA),
    )


BOMBS = st.none() | st.lists(
    st.builds(Bomb, type=TEXT, load=st.integers(0, 20), internal=OPT_BOOL), max_size=3
).map(tuple)


@st.composite
def entities(draw: st.DrawFn, section: Section) -> Entity:
    return Entity(
        chassis=draw(TEXT),
        model=draw(TEXT),
        movement_mode=draw(st.sampled_from(["Biped", "Tracked", "VTOL", "Leg", "Aerodyne"]) | TEXT),
        section=section,
        external_id=draw(EXTERNAL_ID),
        commander=draw(OPT_BOOL),
        offboard=draw(OPT_BOOL),
        hidden=draw(OPT_BOOL),
        deployment=draw(OPT_INT),
        never_deployed=draw(OPT_BOOL),
        velocity=draw(OPT_INT),
        altitude=draw(OPT_INT),
        elevation=draw(OPT_INT),
        quirks=draw(LIST),
        unit_file_uuid=draw(st.none() | st.uuids().map(str)),
        entity_form=draw(st.none() | st.just("BattlefieldSupportAsset")),
        pick_up_id=draw(st.none() | NONEMPTY),
        crew=draw(st.none() | crews()),
        locations=tuple(draw(st.lists(locations(), max_size=4))),
        motive_damage=draw(OPT_INT),
        motive_penalty=draw(OPT_INT),
        legacy_movement_speed=draw(OPT_INT),
        turret_lock=draw(st.none() | st.integers(0, 5)),
        tank_crits=draw(TANK_CRITS),
        aero_crits=draw(AERO_CRITS),
        dropship_crits=draw(DROPSHIP_CRITS),
        structural_integrity=draw(OPT_INT),
        heat_sinks=draw(OPT_INT),
        fuel=draw(OPT_INT),
        bombs=draw(BOMBS),
        game_id=draw(OPT_INT),
        force=draw(st.none() | TEXT),
        conveyance_id=draw(OPT_INT),
        escape_craft=tuple(draw(st.lists(TEXT, max_size=2))),
        ejected_men=draw(OPT_INT),
        escape_pods=draw(OPT_INT),
        extra=draw(ENTITY_EXTRA),
        preserved=draw(PRESERVED),
    )


@st.composite
def mul_files(draw: st.DrawFn) -> MulFile:
    root = draw(st.sampled_from((RootKind.UNIT, RootKind.RECORD)))  # the roots a MUL has
    version = draw(st.none() | st.sampled_from(["0.51.01", "0.43.4-git", "1337.50.12"]) | TEXT)
    if root is RootKind.UNIT:
        units = tuple(draw(st.lists(entities(Section.UNIT), max_size=4)))
        return MulFile(root, version, units, (), draw(st.none() | INT))
    chosen = draw(st.lists(st.sampled_from(RECORD_SECTIONS), max_size=4))
    ordered = sorted(chosen, key=RECORD_SECTIONS.index)
    units = tuple(draw(entities(section)) for section in ordered)
    kills = tuple(
        draw(
            st.lists(
                st.builds(
                    Kill,
                    killed=TEXT,
                    killer=st.none()
                    | st.uuids().map(str)
                    | TEXT.filter(lambda k: k not in ("None", "-1")),
                ),
                max_size=4,
            )
        )
    )
    return MulFile(root, version, units, kills, None)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mul_files())
def test_generated_mul_roundtrips(mul: MulFile) -> None:
    text = write_mul(mul)
    etree.fromstring(text.encode("utf-8"))  # strictly well-formed, no tolerance needed
    back = read_mul_bytes(text.encode("utf-8"), "generated.mul")
    assert back == mul
    assert not any("unescaped" in n.message for n in back.notices)


@settings(max_examples=75, deadline=None)
@given(entities(Section.UNIT))
def test_generated_entity_roundtrips_alone(entity: Entity) -> None:
    mul = MulFile(RootKind.UNIT, "0.51.01", (entity,))
    (back,) = roundtrip(mul).entities
    assert back == entity


@settings(max_examples=50, deadline=None)
@given(st.lists(locations(), min_size=1, max_size=6))
def test_generated_locations_roundtrip(locs: list[Location]) -> None:
    mul = MulFile(RootKind.UNIT, None, (Entity("Atlas", "AS7-D", "Biped", locations=tuple(locs)),))
    assert roundtrip(mul).entities[0].locations == tuple(locs)


@pytest.mark.parametrize(
    "name",
    ["Smith & Sons", "<Atlas>", 'The "Hammer"', "a & b < c > d \" e ' f", "Muñóz Ωmega", "&amp;"],
)
def test_awkward_names_roundtrip(name: str) -> None:
    crew = Crew(members=(CrewMember(name=name, nick=name),))
    loc = Location(index=1, name=name, destroyed=True)
    entity = Entity(name, name, "Biped", Section.SURVIVORS, crew=crew, locations=(loc,), force=name)
    mul = MulFile(RootKind.RECORD, "0.51.01", (entity,), (Kill(name, name),))
    assert roundtrip(mul) == mul


def test_doomed_armor_reads_back_as_destroyed() -> None:
    loc = Location(index=2, name="Right Torso", armor=ARMOR_DESTROYED + 1)
    mul = MulFile(RootKind.UNIT, "0.51.01", (Entity("Atlas", "AS7-D", "Biped", locations=(loc,)),))
    assert 'points="Destroyed"' in write_mul(mul)
    back = roundtrip(mul).entities[0].locations[0]
    assert back.armor == ARMOR_DESTROYED


def test_writer_refuses_what_the_root_cannot_carry() -> None:
    unit = Entity("Atlas", "AS7-D", "Biped")
    with pytest.raises(ValueError, match="survivors"):
        write_mul(MulFile(RootKind.RECORD, "0.51.01", (unit,)))
    with pytest.raises(ValueError, match="kills"):
        write_mul(MulFile(RootKind.UNIT, "0.51.01", (unit,), (Kill("Atlas AS7-D", None),)))
    with pytest.raises(ValueError, match="TotalGenericBattleValue"):
        write_mul(MulFile(RootKind.RECORD, "0.51.01", (), (), 1000))
    # A record's survivors handed on as a plain unit list is fine: the list is the force.
    survivor = Entity("Atlas", "AS7-D", "Biped", Section.SURVIVORS)
    written = roundtrip(MulFile(RootKind.UNIT, "0.51.01", (survivor,)))
    assert [e.section for e in written.entities] == [Section.UNIT]
