"""Mutated savegames: every case reads or raises MulReadError, never any other exception.

Seeded and deterministic (a failure names its seed and mutations): byte flips, deletions,
insertions of the characters that matter to XML and to XStream references, truncations, both
of the unzipped XML (then zipped again) and of the gzip bytes themselves.
"""

from __future__ import annotations

import random

import pytest
from savegame_variants import ended_game, fixture_xml, gz

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.savegame_reader import read_savegame_bytes
from mekref.adapters.megamek.savegame_record import to_record

INSERTS = [b"<", b"&", b'"', b">", b"/", b"</", b"<!", b'reference="', b"../", b"[2]", b"\x00"]
CASES = 30


def _mutate(data: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    out = bytearray(data)
    done: list[str] = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        kind = rng.choice(("flip", "delete", "insert", "truncate", "number"))
        at = rng.randrange(len(out))
        if kind == "flip":
            out[at] ^= 1 << rng.randrange(8)
        elif kind == "delete":
            del out[at : at + rng.randint(1, 64)]
        elif kind == "insert":
            out[at:at] = rng.choice(INSERTS)
        elif kind == "truncate":
            del out[at:]
        else:  # a digit changed: ids, references, removal conditions, array values
            digits = [i for i in range(at, min(at + 400, len(out))) if 48 <= out[i] <= 57]
            if digits:
                out[rng.choice(digits)] = rng.randint(48, 57)
        done.append(f"{kind}@{at}")
        if not out:
            break
    return bytes(out), done


def _read(data: bytes) -> None:
    try:
        to_record(read_savegame_bytes(data, "fuzz.sav.gz"))
    except MulReadError as exc:
        assert "\n" not in exc.one_line()


@pytest.mark.parametrize("seed", range(CASES))
def test_mutated_xml_reads_or_fails_cleanly(seed: int) -> None:
    rng = random.Random(seed)
    base = ended_game() if seed % 2 else fixture_xml()
    data, how = _mutate(base, rng)
    try:
        _read(gz(data))
    except Exception as exc:  # pragma: no cover - the failure message is the point
        pytest.fail(f"seed {seed} {how}: {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("seed", range(CASES))
def test_mutated_gzip_reads_or_fails_cleanly(seed: int) -> None:
    rng = random.Random(1000 + seed)
    data, how = _mutate(gz(fixture_xml()), rng)
    try:
        _read(data)
    except Exception as exc:  # pragma: no cover
        pytest.fail(f"seed {seed} {how}: {type(exc).__name__}: {exc}")
