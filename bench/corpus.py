"""Distinct battle records built from the real ones, for the benchmarks that feed the daemon.

Ruling BR-13 treats a record that repeats another's report as the same battle saved again,
so copies that differ only by a comment or a file name are quarantined as copies. Each copy
made here reports a battle of its own: the shots left in the campaign units' ammunition bins
differ from every other copy's (the number of the copy written into them digit by digit), a
real difference in the report's content, and the sha256 differs with it.

The two real records are those of ``daemon/samples/replay`` (the Battle of Bob and the
Clusterstrike Batchall, from ``tests/fixtures/megamek``); the referee's decision after each
is the one the sample records (``SetBattleControl`` for Bob, ``CloseBattle`` for the
Clusterstrike), so every battle resolves, as in a real campaign.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from functools import cache
from pathlib import Path

from mekref.daemon.samples.replay import FOLDER as SAMPLE
from mekref.daemon.tripwire.cli_replay import AFTER, SETUP

#: The real records a corpus alternates between, with the referee's decision after each.
RECORDS = ("01-bob.mul", "02-clusterstrike.mul")

_SHOTS = re.compile(rb'shots="(\d+)"')
_ENTITY = re.compile(rb'<entity\b[^>]*\bexternalId="([^"]+)".*?</entity>', re.DOTALL)


def battle_id(data: bytes) -> str:
    """The battle a file opens is named after its bytes; the referee's decision names it."""
    return "battle-" + hashlib.sha256(data).hexdigest()[:12]


@cache
def campaign_units() -> frozenset[str]:
    """Every ``unit_id`` in the sample's set-up commands: the campaign's units."""
    return frozenset(_unit_ids(json.loads((SAMPLE / SETUP).read_text())))


def _unit_ids(value: object) -> set[str]:
    if isinstance(value, dict):
        own = {value["unit_id"]} if isinstance(value.get("unit_id"), str) else set()
        return own.union(*(_unit_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_unit_ids(v) for v in value))
    return set()


def distinct(record: bytes, copy: int, units: frozenset[str] | None = None) -> bytes:
    """The record with ``copy`` written, digit by digit, into the shots left in the campaign
    units' ammunition bins (a bin of ``n`` shots holds a digit 0..n: that many fewer), so that
    no two copies report the same battle (the report names campaign units only). Copy 0 is
    the record itself."""
    units = campaign_units() if units is None else units
    bins = [
        m
        for entity in _ENTITY.finditer(record)
        if entity.group(1).decode() in units
        for m in _SHOTS.finditer(record, entity.start(), entity.end())
    ]
    changes: list[tuple[int, int, bytes]] = []
    rest = copy
    for m in sorted(bins, key=lambda b: b.start()):
        size = int(m.group(1)) + 1
        rest, digit = divmod(rest, size)
        if digit:
            changes.append((*m.span(1), str(size - 1 - digit).encode()))
    if rest:
        raise ValueError(f"the record's bins cannot tell {copy + 1} copies apart")
    out = bytearray(record)
    for start, end, text in reversed(changes):  # back to front: earlier offsets stay valid
        out[start:end] = text
    return bytes(out)


@cache
def record(name: str) -> bytes:
    return (SAMPLE / name).read_bytes()


def battle(n: int) -> bytes:
    """Battle ``n`` of the endless mixed sequence: the records in turn, each copy distinct."""
    return distinct(record(RECORDS[n % len(RECORDS)]), n // len(RECORDS))


def write_corpus(folder: Path, battles: int, *, start: int = 0) -> list[Path]:
    """A replay folder of ``battles`` mixed real records (battles ``start`` to
    ``start + battles - 1`` of the one endless sequence); returns the battle files."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SAMPLE / SETUP, folder / SETUP)
    afters = [json.loads((SAMPLE / (name + AFTER)).read_text()) for name in RECORDS]
    files = []
    for n in range(start, start + battles):
        k = n % len(RECORDS)
        data = battle(n)
        path = folder / f"{n:05d}.mul"
        path.write_bytes(data)
        body = json.loads(json.dumps(afters[k]))
        for command in body["commands"]:
            command["battle_id"] = battle_id(data)
        (folder / (path.name + AFTER)).write_text(json.dumps(body))
        files.append(path)
    return files
