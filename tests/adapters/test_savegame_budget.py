"""Bounded work per savegame: the XStream walk's budget and the shape counted while parsing.

Costs are compared with the real savegame read in the same run (never an absolute time): a
crafted file must be refused in less than 20 times the real file's read. Both are measured in
CPU time of this process, so other work on a shared machine does not count.
"""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Callable

import pytest
from crafted_files import Crafted, corpus
from lxml import etree
from savegame_variants import FIXTURE, ended_game, fixture_xml, gz, to_id_references

from mekref.adapters.megamek.battle_file import read_battle_file
from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.savegame_reader import read_savegame_bytes
from mekref.adapters.megamek.xml_counted import parse_counted_xml
from mekref.adapters.megamek.xml_safety import ReadLimits, parse_untrusted_xml
from mekref.adapters.megamek.xstream import Graph, WalkBudget, WalkBudgetExceeded, budget_for

#: The element bomb parses 250,000 elements before it is refused, ten times the real file's
#: 23,573: about 10x its read on a quiet machine, 22x seen on a loaded one. Before the budgets a
#: crafted file took from 25 s to minutes (300x and more): the bound catches that.
TIMES_THE_REAL_READ = 40
CASES = corpus()


def _cpu(run: Callable[[], object]) -> float:
    began = time.process_time()
    run()
    return time.process_time() - began


def _real_read() -> None:
    read_battle_file(FIXTURE.read_bytes(), "real.sav.gz")


def _costs(run: Callable[[], object], times: int = 3) -> tuple[float, float]:
    """The least CPU time of ``run`` and of the real savegame's read, taken in turns so that
    both see the process in the same state (a long test session reads slower than a new one)."""
    spent, real = [], []
    # The collector's passes over a long session's heap land on whichever read is running;
    # collected first and paused while timing, both reads count their own work only.
    gc.collect()
    gc.disable()
    try:
        for _ in range(times):
            real.append(_cpu(_real_read))
            spent.append(_cpu(run))
    finally:
        gc.enable()
    return min(spent), min(real)


def _refusal(data: bytes, name: str) -> MulReadError | None:
    try:
        read_battle_file(data, name)
    except MulReadError as exc:
        return exc
    return None


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_crafted_file_is_refused_in_one_line_at_a_bounded_cost(case: Crafted) -> None:
    exc = _refusal(case.data, case.name)
    assert exc is not None, f"{case.name} was read"
    line = exc.one_line()
    assert case.words in line and "\n" not in line, line
    assert exc.refused is case.refused
    spent, real = _costs(lambda: _refusal(case.data, case.name))
    assert spent < TIMES_THE_REAL_READ * real, (case.name, spent, real)


@functools.cache  # built once per test process, not again by each test and the collection
def _forms() -> dict[str, bytes]:
    xml = fixture_xml()
    return {
        "0.43 relative paths": xml,
        "ID_REFERENCES": to_id_references(xml),
        "current names": to_id_references(xml, current_names=True),
        "ended game": ended_game(),
    }


@pytest.mark.parametrize("form", list(_forms()))
def test_the_real_savegame_spends_a_small_part_of_each_budget(form: str) -> None:
    """The figures in WalkBudget's docstring: a change that makes the walk costlier shows."""
    from mekref.adapters.megamek import savegame_reader

    doc = parse_counted_xml(_forms()[form], "real.sav", limits=ReadLimits(max_bytes=1 << 25))
    graph = Graph(doc.root, budget_for(doc.elements))
    savegame_reader._read_game(graph, "real.sav", doc.notices)
    spent, per_element = graph.spent, budget_for(10**9)
    # Per element: what the real file needs, against the budget's 0.25, 0.5 and 1.
    assert spent.max_references <= 0.01 * doc.elements
    assert spent.max_steps <= 0.05 * doc.elements
    assert spent.max_scanned <= 0.3 * doc.elements
    assert per_element.max_scanned == 10**9 and per_element.max_references == 10**9 // 4


@pytest.mark.parametrize(
    ("budget", "words"),
    [
        (WalkBudget(100, 10**6, 10**6), "more than 100 XStream references resolved"),
        (WalkBudget(10**6, 500, 10**6), "more than 500 XStream reference steps walked"),
        (WalkBudget(10**6, 10**6, 4_000), "more than 4,000 XStream values looked at"),
    ],
)
def test_each_budget_stops_the_walk(budget: WalkBudget, words: str) -> None:
    # The real file needs 117 references, 713 steps and about 5,400 looks.
    from mekref.adapters.megamek import savegame_reader

    root = etree.fromstring(fixture_xml())
    with pytest.raises(WalkBudgetExceeded, match=words):
        savegame_reader._read_game(Graph(root, budget), "real.sav", ())


def test_a_budget_refusal_says_so_in_one_line() -> None:
    xml = b"<megamek.common.Game><phase>x</phase><entities><t/>"
    xml += b'<r reference="../t"/>' * 12_000 + b"</entities></megamek.common.Game>"
    with pytest.raises(MulReadError) as info:
        read_savegame_bytes(gz(xml), "fan.sav.gz")
    assert info.value.one_line() == (
        "fan.sav.gz: savegame refused: more than 10,000 XStream references resolved (a "
        "crafted or broken file: real savegames need a small fraction of that; save the game "
        "again from MegaMek)"
    )
    assert info.value.refused


def test_the_element_limit_is_met_while_parsing_not_after() -> None:
    """Over the limit and cut short: a count made after the parse would never run (the
    syntax error comes first), so the refusal for the count shows it ran during the parse."""
    limits = ReadLimits(max_elements=1_000)
    cut = b"<g>" + b"<a/>" * 5_000
    with pytest.raises(MulReadError, match="document has at least 1,001 elements"):
        parse_counted_xml(cut, "cut.xml", limits=limits)
    with pytest.raises(MulReadError, match="not well-formed"):
        parse_untrusted_xml(cut, "cut.xml", limits=limits)
    deep = b"<g>" + b"<a>" * 40
    with pytest.raises(MulReadError, match="nest deeper than 32 levels"):
        parse_counted_xml(deep, "deep.xml")


def test_the_counted_parse_reads_what_the_whole_tree_read_reads() -> None:
    xml = fixture_xml().replace(b"Shirley Muntean", b"Shirley & Mu\xf1tean", 1)
    counted = parse_counted_xml(xml, "real.sav", limits=ReadLimits(max_bytes=1 << 25))
    whole = parse_untrusted_xml(xml, "real.sav", limits=ReadLimits(max_bytes=1 << 25))
    assert counted.notices == whole.notices and len(counted.notices) == 2
    assert etree.tostring(counted.root) == etree.tostring(whole.root)
    assert counted.elements == int(whole.root.xpath("count(//*)"))  # type: ignore[arg-type]


def test_a_crew_size_from_the_file_is_not_a_loop_count() -> None:
    named = b"<size>1</size>\n          <name>\n            <string>Shirley Muntean</string>"
    xml = fixture_xml()
    assert named in xml
    xml = xml.replace(named + b"\n          </name>", b"<size>50000000</size>", 1)
    data = gz(xml)
    spent, real = _costs(lambda: read_savegame_bytes(data, "crew.sav.gz"), 1)
    assert spent < TIMES_THE_REAL_READ * real
    save = read_savegame_bytes(data, "crew.sav.gz")
    crewless = [e for e in save.entities if e.crew is not None and not e.crew.members]
    assert len(crewless) == 1 and crewless[0].crew is not None
    assert crewless[0].crew.size == 50_000_000


def test_a_position_too_long_to_be_a_number_is_a_broken_reference() -> None:
    xml = b"<megamek.common.Game><phase>x</phase><entities><t/>"
    xml += b'<r reference="../t[' + b"9" * 5_000 + b']"/></entities></megamek.common.Game>'
    with pytest.raises(MulReadError) as info:
        read_savegame_bytes(gz(xml), "steps.sav.gz")
    line = info.value.one_line()
    assert "broken XStream reference: reference '../t[99999" in line
    assert "...' has a malformed step" in line and len(line) < 400
