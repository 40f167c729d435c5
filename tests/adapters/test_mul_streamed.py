"""The streamed MUL read (files over 4 MiB) gives what the whole-tree read gives.

Both paths are run on the same bytes: every real fixture as it is, cut short, mutated, re-encoded
and crafted past each limit, and with the stream's slices made tiny so that every slice boundary
falls inside a name, an ``&`` reference or a multi-byte character. The only difference allowed
is libxml2's own wording of a syntax error, which its pull parser phrases slightly differently
(the position and the hint are the same).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from mekref.adapters.megamek import xml_stream
from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_model import MulFile
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.xml_safety import DEFAULT_LIMITS, ReadLimits

FIXTURES = Path(__file__).parents[1] / "fixtures" / "megamek"
MULS = sorted(FIXTURES.glob("*.mul"))


def _outcome(data: bytes, *, stream: bool, limits: ReadLimits = DEFAULT_LIMITS) -> object:
    try:
        return read_mul_bytes(data, "f.mul", stream=stream, limits=limits)
    except MulReadError as exc:
        # libxml2's pull parser words some syntax errors differently ("Tag x line 4" vs
        # "Tag x,"); the position, the hint and the refusal are what the user acts on.
        return re.sub(r"not well-formed XML: .*? \(", "not well-formed XML (", str(exc))


def _same(data: bytes, limits: ReadLimits = DEFAULT_LIMITS) -> None:
    whole = _outcome(data, stream=False, limits=limits)
    streamed = _outcome(data, stream=True, limits=limits)
    assert streamed == whole


@pytest.mark.parametrize("path", MULS, ids=lambda p: p.name)
def test_every_fixture_reads_the_same_streamed(path: Path) -> None:
    whole = read_mul_bytes(path.read_bytes(), str(path), stream=False)
    streamed = read_mul_bytes(path.read_bytes(), str(path), stream=True)
    assert isinstance(streamed, MulFile)
    assert streamed == whole
    assert streamed.entities  # the comparison is not between two empty lists


@pytest.mark.parametrize("path", MULS, ids=lambda p: p.name)
def test_tiny_slices_cut_names_references_and_characters(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = path.read_bytes()
    # A stray '&' in a name (MegaMek does not escape it) beside a real reference, and a
    # non-ASCII name, so that slices of 7 bytes cut through each of them somewhere.
    crafted = data.replace(b'chassis="', b'chassis="Smith & Sons &amp; Mu\xc3\xb1\xc3\xb3z ', 3)
    for size in (7, 64):
        monkeypatch.setattr(xml_stream, "SLICE_BYTES", size)
        _same(crafted)
        _same(data)


def test_byte_order_mark_declared_encoding_and_windows_1252_read_the_same() -> None:
    data = (FIXTURES / "clusterstrike-batchall-record.mul").read_bytes()
    body = data.split(b"?>", 1)[1]
    _same(b"\xef\xbb\xbf" + data)
    _same(b"<?xml version='1.0' encoding='ISO-8859-1'?>" + body)
    _same(b"\n\n  <?xml version='1.0'?>" + body)
    _same(data.replace(b'chassis="', b'chassis="Mu\xf1\xf3z ', 2))  # Windows-1252 bytes


def test_cut_short_and_mutated_files_are_refused_alike() -> None:
    rng = random.Random(20261202)
    compared = refused = 0
    for name in ("bob.mul", "clusterstrike-batchall-record.mul", "mekhq-Example.mul"):
        data = (FIXTURES / name).read_bytes()
        cases = [data[:cut] for cut in range(0, len(data), max(1, len(data) // 120))]
        for _ in range(150):
            mutated = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                mutated[rng.randrange(len(mutated))] = rng.choice(b"<>&\"'/= \n\x00\xffa!?")
            cases.append(bytes(mutated))
        for case in cases:
            whole = _outcome(case, stream=False)
            assert _outcome(case, stream=True) == whole
            compared += 1
            refused += isinstance(whole, str)
    assert refused > compared // 2  # most mutations must break the file, or this proves little


@pytest.mark.parametrize(
    ("limits", "reason"),
    [
        (ReadLimits(max_attributes=5), "attributes, over the 5 limit"),
        (ReadLimits(max_depth=3), "nest deeper than 3 levels"),
        (ReadLimits(max_text_chars=10), "over the 10 limit"),
    ],
)
def test_each_shape_limit_refuses_alike(limits: ReadLimits, reason: str) -> None:
    data = (FIXTURES / "clusterstrike-batchall-record.mul").read_bytes()
    whole = _outcome(data, stream=False, limits=limits)
    assert isinstance(whole, str) and reason in whole
    assert _outcome(data, stream=True, limits=limits) == whole


def test_too_many_elements_is_refused_streamed_too(monkeypatch: pytest.MonkeyPatch) -> None:
    data = (FIXTURES / "clusterstrike-batchall-record.mul").read_bytes()
    monkeypatch.setattr(xml_stream, "SLICE_BYTES", 4096)  # the count runs as the stream goes
    limits = ReadLimits(max_elements=100)
    assert "over the 100 limit" in str(_outcome(data, stream=False, limits=limits))
    streamed = _outcome(data, stream=True, limits=limits)
    assert isinstance(streamed, str)
    assert "document has at least" in streamed and "over the 100 limit" in streamed


def test_a_dtd_is_refused_at_the_same_place() -> None:
    data = (FIXTURES / "bob.mul").read_bytes()
    hostile = data.replace(b"<record", b'<!DOCTYPE r [<!ENTITY a "aaaa">]>\n<record', 1)
    whole = _outcome(hostile, stream=False)
    assert isinstance(whole, str) and "DTDs and entities are refused" in whole
    assert _outcome(hostile, stream=True) == whole
